"""Functions a ruleset defines for its own code: ``functions:``.

A designer names an expression once and uses it everywhere, so that the code
on components reads like the rules::

    functions:
      alive(c): hits(c) > 0
      foes(c): f in units where alive(f) and team(owner(f)) != team(owner(c))
      member(role r, text name): first(c in crew(r) where c.id == name)
      wounded(unit c):
        is: hits(c) < c.hits
        text: "{c} is wounded"

The key is the name and its parameters, each a name alone (a component of
any kind) or a type and a name (``int``, ``bool``, ``text``, ``cell``, ``role``,
``component``, a component kind or a declared type, or ``list of`` one of them:
a zone given for a list of components reads as its contents); the value is an expression, or a selection ``x in C where P`` (the function then
gives the list of the selected items), or a mapping with ``is``,
``text`` — the English of a call, with ``{param}`` for each argument — and
``let``: names for values the body uses, each computed once per call, in
order (each may use those before it)::

    functions:
      ahead(cell c, int dy):
        let:
          next: at(c.x, c.y + dy)
        is: next != none and next.owner != current_role

A function may use the functions defined before it (so never itself).

>>> parse_signature("foes(character c, int n, x)")
('foes', [('c', 'character'), ('n', 'int'), ('x', 'component')])
>>> parse_signature("total(list of card cs)")
('total', [('cs', 'list of card')])
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from engine.core.errors import Diagnostic, DiagnosticSink, EffectRuntimeError, RulesetError, SourcePos, did_you_mean
from engine.core.yamlsource import Mapping, Text
from engine.lang import ast, budgets, codegen, selections
from engine.lang.functions import Function
from engine.lang.parser import RESERVED, parse_expression, parse_program
from engine.lang.scope import ENGLISH_PLURALS, Code, Compiled, Fn, Scope
from engine.lang.shared import COMPUTED
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, CELL, INT, STR, Component, Enum, ListOf, Type

if TYPE_CHECKING:
    from engine.lang.context import CodeContext

SIGNATURE = re.compile(r"\s*([A-Za-z_]\w*)\s*\(\s*(.*?)\s*\)\s*\Z")
PARAMETER = re.compile(r"\s*(?:((?:list\s+of\s+)*[A-Za-z_]\w*)\s+)?([A-Za-z_]\w*)\s*\Z")
SIMPLE = {"int": INT, "bool": BOOL, "text": STR, "cell": CELL, "component": ANY_COMPONENT}


def parse_signature(key: str) -> tuple[str, list[tuple[str, str]]] | None:
    """``name(type p, q)`` as (name, [(p, type), (q, "component")]); None when it is not written that way."""
    m = SIGNATURE.match(key)
    if not m:
        return None
    params = []
    for part in filter(None, (p.strip() for p in m.group(2).split(","))) if m.group(2) else []:
        pm = PARAMETER.match(part)
        if not pm:
            return None
        params.append((pm.group(2), " ".join(pm.group(1).split()) if pm.group(1) else "component"))
    return m.group(1), params


@dataclass(frozen=True)
class Defined(Function):
    """A function a ruleset defined: its body is compiled once, with its parameters in slots 0, 1, ..."""

    params: tuple[tuple[str, Type], ...] = ()
    body: Fn | None = None
    result: Type = ANY
    slots: int = 1
    words: str = ""
    meaning: str = ""  # the body in English, for ``rulecraft explain``
    depth: int = 1  # how deeply a call nests: 1 + the depth of the deepest function its body calls
    node: ast.Node | None = field(default=None, compare=False)  # the body, when a call may be written inline
    lets: tuple[tuple[str, ast.Node], ...] = field(default=(), compare=False)  # its lets, computed first where inline
    size: int = field(default=0, compare=False)  # how many syntax nodes ``node`` has: what writing it inline compiles
    steps: int = 1  # the steps a call spends: more for a long body (see engine.lang.ast.weight)
    kind: ClassVar[str] = "function"  # what the ruleset defines it as: its section's name, less the 's'

    def compile_call(self, call: ast.Call, scope: Scope) -> Compiled:
        before = len(scope.sink.items)
        args = self.arity(call, scope, len(self.params))
        compiled = [self._argument(scope, node, type_, name) for node, (name, type_) in zip(args, self.params)]
        if self.name in scope.vocab.built_in:
            self._told_shadowing(scope.sink.items, before)
        fns = [c.fn for c in compiled]
        body, size, pos, steps = self.body, self.slots, call.pos, self.steps
        assert body is not None
        scope.calls[0] = max(scope.calls[0], self.depth)

        def run(s: Any, e: list[Any]) -> Any:
            s.budget -= steps
            if s.budget < 0:
                raise budgets.out_of_steps(s, pos, f"call of '{self.name}'")
            env: list[Any] = [None] * size
            for i, f in enumerate(fns):
                env[i] = f(s, e)
            try:
                return body(s, env)
            except RecursionError:
                raise too_deep(s, pos, self.name) from None

        inline = self._inline(compiled, scope) if scope.pure and codegen.ENABLED else None
        return Compiled(self.result, run, code=inline or self._code(compiled, size, pos))

    def _told_shadowing(self, items: list[Diagnostic], start: int) -> None:
        """Add to each problem from ``items[start:]`` with a call of this function, which takes the place of a
        built-in of its name, that the call is the ruleset's own.

        >>> f = Defined("count", "count(role r) -> int", "", "count(role r)")
        >>> found = [Diagnostic(None, "count() takes 1 argument, not 2")]
        >>> f._told_shadowing(found, 0); found[0].hint
        "this count() is the ruleset's own, 'count(role r)' under 'functions:', which takes the place of the built-in count(): rename it to call the built-in"
        """
        for index in range(start, len(items)):
            d = items[index]
            if d.hint is None and f"{self.name}()" in d.message:
                items[index] = Diagnostic(d.pos, d.message, f"this {self.name}() is the ruleset's own, '{self.example}' "
                                                            f"under '{self.kind}s:', which takes the place of the built-in "
                                                            f"{self.name}(): rename it to call the built-in")

    def _argument(self, scope: Scope, node: ast.Node, wanted: Type, name: str) -> Compiled:
        """An argument of a call, checked against its parameter's type; a zone given for a list reads as its contents,
        and ``x in C`` given for a list is a selection (its items), as for ``count(x in C)``, not a test of ``x``."""
        if isinstance(wanted, ListOf) and isinstance(node, ast.Member) and (item := ast.item_name(node.item)) is not None:
            node = selections.Selection(node.pos, item, node.collection)
        compiled = node.compile(scope)
        if isinstance(wanted, ListOf):
            compiled = ast.as_collection(compiled, node)
        ast.expect(scope, node, compiled, wanted, f"the argument '{name}' of {self.name}()")
        return compiled

    def _inline(self, args: list[Compiled], scope: Scope) -> Code | None:
        """The body's source, its parameters standing for the arguments, or None when a call is better.

        A constant, a local or a short argument (:func:`_cheap`) is written
        where its parameter is used; any other is computed once, into a fresh
        slot.  Only code that changes nothing is written inline, only a plain
        expression body, and the result stays short (:data:`INLINE_SIZE`), so
        calls nested many deep stay calls (and trying costs little: a body
        whose source was already too long when the function was defined is
        not tried, nor one that did not compile, nor a function inside its
        own inline body, and the bodies compiled again for it are bounded
        for the whole ruleset, see :meth:`_afford`).  An inline call spends no step of its own: its body's
        nodes count in the weight of the loop pass or call it is written in (see
        :func:`engine.lang.ast.weight`), and its selections spend theirs.
        """
        if self.node is None or self.name in scope.inlining:
            return None
        return self._inline_as(args, scope, True) or self._inline_as(args, scope, False)

    def _afford(self, scope: Scope) -> bool:
        """Whether the ruleset may still compile this function's body once more to write a call inline, and if so
        spend its size from what the ruleset may compile for that (:data:`INLINE_WORK` syntax nodes in all).

        Each inline call compiles the body again, and the calls in it are tried inline in turn: functions that each
        call the one before a few times would compile an exponential number of nodes (a body that does not fit
        is compiled before it is found too long).  Past the allowance calls stay calls, which run the same.
        """
        spent = scope.vocab.data.setdefault(INLINE_SPENT, [0])
        if spent[0] + self.size > INLINE_WORK:
            return False
        spent[0] += self.size
        return True

    def _inline_as(self, args: list[Compiled], scope: Scope, names: bool) -> Code | None:
        """:meth:`_inline`, an argument computed once kept in a Python name (``(v7 := ...)``, read as ``v7``) with
        ``names``, else in a slot (``e.__setitem__(3, ...)``, read as ``e[3]``).  Names are faster, and serve
        when the body's source passes ``e`` to nothing (a closure called with it might read the slot): None
        otherwise, and when the ruleset cannot afford to compile the body again (:meth:`_afford`).
        """
        if self.lets and not names or not self._afford(scope):  # lets kept in slots cost about what the call does
            return None
        inner = Scope(scope.vocab, DiagnosticSink())
        inner.counter, inner.calls, inner.inlined, inner.pure = scope.counter, scope.calls, scope.inlined, True  # fresh slots
        inner.inlining = scope.inlining | {self.name}
        stores: list[str] = []
        consts: tuple[tuple[str, Any], ...] = ()

        def store(name: str, type_: Type, text: str) -> None:  # a value computed once, read by its name
            if names:
                held = codegen.fresh("v")
                inner.alias(name, Compiled(type_, _held, code=Code(held)))
                stores.append(f"(({held} := {text}) and None)")  # always false: the next part runs
            else:
                stores.append(f"e.__setitem__({inner.bind(name, type_)}, {text})")

        for (name, type_), c in zip(self.params, args):
            if c.constant or c.slot is not None or _cheap(c):
                inner.alias(name, dataclasses.replace(c, type=type_))
                continue
            text, named = codegen.expr(c)
            store(name, type_, text)
            consts += named
        generated = scope.vocab.data.setdefault(codegen.GENERATED, [])
        before = len(generated)
        inside = ""  # the source written inside the body's scope: the lets' values and the body
        try:
            for name, node in self.lets:  # each let in the body's scope, computed once, in order
                value = node.compile(inner)
                if inner.sink.items:
                    del generated[before:]
                    return None
                text, named = codegen.expr(value)  # a closure (an aggregate's function, say) is called with the locals
                store(name, value.type, text)
                consts += named
                inside += text
            compiled = self.node.compile(inner)
        except RecursionError:
            compiled = None
        if compiled is None or inner.sink.items or compiled.code is not None and compiled.code.lines is not None:
            del generated[before:]  # the functions made for it are not used
            return None
        body, named = codegen.expr(compiled)  # a closure of the library is called, as anywhere else
        text = f"({' or '.join(stores)} or {body})" if stores else body
        if len(text) > INLINE_SIZE or names and stores and codegen.passes_locals(inside + body):
            del generated[before:]
            return None
        scope.inlined[0] += self.size  # the code it is written in runs this much more (see engine.lang.ast.weight)
        return Code(text, None, consts + named)

    def _code(self, args: list[Compiled], size: int, pos: Any) -> Code:
        """A call as source: ``call(s, body, (name, position), [argument, ..., None, ...])``."""
        texts, consts = [], ()
        for c in args:
            text, named = codegen.expr(c)
            texts.append(text)
            consts += named
        body, where = codegen.fresh("k"), codegen.fresh("k")
        env = ", ".join(texts + ["None"] * (size - len(texts)))
        return Code(f"call(s, {body}, {where}, [{env}])", None,
                    consts + ((body, self.body), (where, (self.name, pos, self.steps)), ("call", _call)))

    def heading(self) -> str:
        """How a call reads with the parameters' names as arguments: ``team hits of t``.

        >>> Defined("team_hits", "", "", "team_hits(int t)", (("t", INT),)).heading()
        'team hits of t'
        """
        return self.describe(ast.Call(None, self.name, [ast.Name(None, p) for p, _ in self.params]))

    def describe(self, call: ast.Call) -> str:
        texts = {name: ast.grouped(arg) for (name, _), arg in zip(self.params, call.positional())}  # pit of (i plus 1)
        if self.words:
            return fill_in(self.words, texts)
        return called(self.name, list(texts.values()))


PREPOSITIONS = frozenset({"of", "for", "to", "by", "in", "at", "on", "from", "with", "against", "between", "per", "near",
                          "beside", "after", "before"})
"""Words a function's name may end with that take its arguments themselves (``champion_of(r)``: champion of r)."""


def called(name: str, args: list[str]) -> str:
    """A call of a ruleset's function without ``words``, in English: its name's words, ``of`` and the arguments.

    A name that ends with a preposition takes the arguments after it, without another ``of``:

    >>> called("team_hits", ["t"]), called("champion_of", ["r"]), called("points_for", ["r", "n"]), called("round_over", [])
    ('team hits of t', 'champion of r', 'points for r, n', 'round over')
    """
    words = name.replace("_", " ")
    if not args:
        return words
    joined = ", ".join(args)
    return f"{words} {joined}" if words.rsplit(" ", 1)[-1].lower() in PREPOSITIONS and " " in words else f"{words} of {joined}"


INLINE_SIZE = 1200
"""The longest source a call of a ruleset's function is written inline as (in characters)."""

INLINE_WORK = 20_000
"""The most syntax nodes the bodies of a ruleset's functions are compiled again for, to write calls inline."""

INLINE_SPENT = "inline_spent"
"""Vocabulary data key: ``[n]``, the syntax nodes compiled so far to write calls inline (see ``Defined._afford``)."""

CHEAP_SIZE = 24
"""The longest source of an argument written again wherever its parameter is used, rather than kept in a slot."""


def _cheap(c: Compiled) -> bool:
    """Whether an argument is cheap to compute again: short source that calls nothing and names no temporary
    (``(e[1] + 2)``; not ``k5(s, e)``).

    >>> from engine.lang.types import INT
    >>> _cheap(Compiled(INT, None, code=Code("(e[1] + 2)"))), _cheap(Compiled(INT, None, code=Code("k5(s, e)")))
    (True, False)
    >>> _cheap(Compiled(INT, None, code=Code("s.current_role")))  # a property: computed once, into a name
    False
    """
    text = c.code.expr if c.code is not None and c.code.lines is None else "("
    return (len(text) <= CHEAP_SIZE and "(s" not in text and ":=" not in text
            and not any(f"s.{name}" in text for name in COMPUTED))  # a property's read runs code


def _held(s: Any, e: list[Any]) -> Any:
    """The closure of an argument an inline call keeps in a Python name: never run (source that runs a closure
    is not written inline with names)."""
    raise AssertionError("an inline call's argument kept in a name is read by its source only")


def _call(s: Any, body: Fn, defined: tuple[str, Any, int], env: list[Any]) -> Any:
    """A call of a ruleset's own function in generated code: its steps of the budget (one for a short body), then
    its body."""
    s.budget -= defined[2]
    if s.budget < 0:
        raise budgets.out_of_steps(s, defined[1], f"call of '{defined[0]}'")
    try:
        return body(s, env)
    except RecursionError:
        raise too_deep(s, defined[1], defined[0]) from None


def too_deep(s: Any, pos: SourcePos | None, name: str, kind: str = "function") -> EffectRuntimeError:
    """The error for calls of the ruleset's functions (or procedures, ``kind``) nested deeper than Python's stack
    follows: only reached with ``call_depth`` raised far past its default (a chain of 700 functions under
    ``--limit call_depth=1000``).

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(game=SimpleNamespace(limits=SimpleNamespace(call_depth=1000)))
    >>> str(too_deep(s, None, "f3"))
    "the call of 'f3' is nested deeper than Python can follow: the ruleset's functions call each other too deeply (limit call_depth=1,000; a few hundred is the most Python follows)"
    >>> str(too_deep(s, None, "walk", "procedure")).split(": ")[1]
    "the ruleset's procedures run inside each other too deeply (limit call_depth=1,000; a few hundred is the most Python follows)"
    """
    most = s.game.limits.call_depth
    nested = "functions call each other" if kind == "function" else f"{kind}s run inside each other"
    return EffectRuntimeError(f"the call of '{name}' is nested deeper than Python can follow: the ruleset's {nested} "
                              f"too deeply (limit call_depth={most:,}; a few hundred is the most Python follows)", pos)


PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")


def fill_in(words: str, texts: dict[str, str]) -> str:
    """``words`` with each ``{name}`` of ``texts`` replaced by its text; anything else stays as written.

    The ruleset's text is data: it is never given to Python's ``format``.

    >>> fill_in("{c} is wounded", {"c": "the hero"})
    'the hero is wounded'
    >>> fill_in("{c:>2000000000} {c.__class__} {other}", {"c": "x"})
    '{c:>2000000000} {c.__class__} {other}'
    """
    return PLACEHOLDER.sub(lambda m: texts.get(m.group(1), m.group(0)), words)


def define_functions(b: "CodeContext") -> None:
    """Compile the ``functions:`` section into the vocabulary, in order (each sees those before it)."""
    section = b.tree.get("functions")
    if section is None:
        return
    if not isinstance(section, Mapping):
        b.error(b.pos(b.tree, "functions"), "'functions' must map 'name(type param, ...)' to an expression")
        return
    vocab = b.game.vocab
    below = defined_below(section)
    procedures = b.tree.get("procedures")
    told = {**(_procedures_named(procedures) if isinstance(procedures, Mapping) else {}), **below}
    kept = {name: vocab.elsewhere[name] for name in told if name in vocab.elsewhere}
    vocab.elsewhere.update(told)
    try:
        _define_each(b, section, below)
    finally:  # the hints speak only of the section: code elsewhere sees every function it defines
        for name in told:
            vocab.elsewhere.pop(name, None)
        vocab.elsewhere.update(kept)


def _procedures_named(section: Mapping) -> dict[str, str]:
    """What to say of a call in a function's body to each procedure ``section`` (``procedures:``) defines.

    >>> _procedures_named({"mark(int n)": "pass"})["mark"]
    "'mark' is a procedure (under 'procedures:'): it changes the game, which a function's body can't do"
    """
    found: dict[str, str] = {}
    for key in section:
        signature = parse_signature(str(key))
        if signature is not None:
            found[signature[0]] = (f"'{signature[0]}' is a procedure (under 'procedures:'): it changes the game, which a "
                                   "function's body can't do")
    return found


def defined_below(section: Mapping, what: str = "function", itself: str = "") -> dict[str, str]:
    """What to say of a call to each function (``what``) ``section`` defines while the ones above it compile: it is
    defined below (``itself``: what else the entries may use).

    >>> defined_below({"f(n)": "n", "g()": "1"})["g"]
    "'g' is defined further down under 'functions:': a function may use only the functions defined above it, so move 'g' above the one calling it"
    """
    found: dict[str, str] = {}
    for key in section:
        signature = parse_signature(str(key))
        if signature is not None:
            found.setdefault(signature[0], f"'{signature[0]}' is defined further down under '{what}s:': a {what} may use "
                                           f"only the {what}s defined above it{itself}, so move '{signature[0]}' above the "
                                           f"one calling it")
    return found


def read_signature(b: "CodeContext", key: Any, pos: SourcePos | None, below: dict[str, str],
                   what: str = "function") -> tuple[str, list[tuple[str, str]], list[tuple[str, Type]]] | None:
    """The name and parameters of an entry ``key`` of ``functions:`` (or of ``procedures:``, ``what``), written at
    ``pos``: its name, its parameters as written and typed (an unknown type is reported and read as any); None,
    reported, when it is not written ``name(type p, ...)`` or its name is taken.  ``below`` (in the vocabulary's
    hints) loses the name as it is reached."""
    vocab = b.game.vocab
    signature = parse_signature(str(key))
    if signature is None:
        if re.fullmatch(r"[A-Za-z_]\w*", str(key)):  # a bare name: its parameters, even none, are left out
            b.error(pos, f"'{key}' needs its parameters: write {key}() for none, or like {key}(c) or {key}(role r, int n)")
        else:
            py = re.match(r"(def|function|fn|procedure|proc)\s+(.+)", str(key))  # a keyword from another language
            b.error(pos, f"'{key}' must be written like name(c) or name(role r, int n)",
                    f"leave out '{py.group(1)}': write {py.group(2).rstrip(':')}" if py else None)
        return None
    name, params = signature
    if below.pop(name, None) is not None:  # reached: no longer further down
        vocab.elsewhere.pop(name, None)
    b.check_identifier(name, pos, what, read_as="called ({n}())")
    taken, known = vocab.functions.get(name), vocab.globals.get(name)
    if known is not None and name in vocab.data.get(ENGLISH_PLURALS, ()):  # 'men' beside 'mans': the function's
        del vocab.globals[name]
        known = None
    built_in = known is None and taken is not None and taken is vocab.built_in.get(name)  # its code calls its own
    if (taken is not None or known is not None) and not built_in:
        said = f" ({taken.signature}: {taken.doc.rstrip('.')})" if taken is not None and taken.signature else ""
        if taken is None and known is not None and known.text != name:  # the point c, the option rounds, ...
            said = f" ({known.text})"
        b.error(pos, f"the name '{name}' is already defined{said}; pick another name for this {what}")
        if taken is None:  # its calls are told so, not that it was never written
            vocab.elsewhere[name] = (f"'{name}' is written under '{what}s:', but its name is taken, reported "
                                     f"there: rename the {what} and its calls")
        return None
    names = [param for param, _ in params]
    twice = [(i, param) for i, param in enumerate(names) if param in names[:i]]
    for i, param in twice:  # the body would read the last, its calls' arguments bound to the first
        at = param_pos(str(key), param, pos, names[:i].count(param)) if pos is not None else None
        b.error(at, f"the parameter '{param}' is written twice in '{key}': each parameter needs a name of its own")
    for param in names:
        if param in RESERVED:  # 'none' read as none in the body, 'if' not read at all
            b.error(param_pos(str(key), param, pos) if pos is not None else None,
                    f"the parameter '{param}' is a word code reads as its own, so the body could not read it: pick another "
                    f"name")
    if twice or any(param in RESERVED for param in names):
        vocab.elsewhere[name] = f"'{name}' is written under '{what}s:', but its parameters have a problem, reported there"
        return None
    typed = []
    for param, type_name in params:
        type_ = _param_type(b, type_name)
        if type_ is None:
            kinds = [*SIMPLE, "role", *b.game.kinds, *b.game.types]
            call = ", ".join("hand(r)" if p == param else p for p, _ in params)
            hint = _zone_hint(name, type_name, param, b.game.kinds, call) or did_you_mean(type_name.rsplit(" of ", 1)[-1], kinds) or (
                f"use int, bool, text, cell, role, component, a component kind ({', '.join(b.game.kinds)}), a declared type"
                f" or a list of one of them (list of int)")
            b.error(_type_pos(str(key), param, type_name, pos), f"unknown type '{type_name}' for parameter '{param}'", hint)
            type_ = ANY
        typed.append((param, type_))
    return name, params, typed


def _define_each(b: "CodeContext", section: Mapping, below: dict[str, str]) -> None:
    """Compile each entry of ``functions:`` in order; ``below`` (in the vocabulary's hints) loses each as it is reached."""
    vocab = b.game.vocab
    for key, spec in section.items():
        pos = section.key_pos.get(key, section.pos)
        read = read_signature(b, key, pos, below)
        if read is None:
            continue
        name, params, typed = read
        body_text, words = (spec.get("is"), str(spec.get("text") or "")) if isinstance(spec, Mapping) else (spec, "")
        lets = spec.get("let") if isinstance(spec, Mapping) else None
        if isinstance(spec, Mapping):
            b.unknown_keys(spec, ("is", "text", "let"), f"function '{name}'")
            check_placeholders(b, spec, name, [param for param, _ in params])
        if lets is not None and not isinstance(lets, Mapping):
            b.error(spec.pos_of("let"), f"'let' of function '{name}' must map names to expressions")
            lets = None
        if body_text is None:
            b.error(pos, f"function '{name}' needs an expression ('is')")
            continue
        before = len(b.sink.items)
        if name not in vocab.elsewhere:  # only its own body can call it before it is defined
            vocab.elsewhere[name] = f"a function may not call itself: '{name}' can use only the functions defined above it"
        compiled = _compile_body(b, body_text, section.pos_of(key) if not isinstance(spec, Mapping) else spec.pos_of("is"), typed, lets,
                                 {param: param_pos(str(key), param, pos) for param, _ in params})
        _hint_untyped(b.sink.items, before, str(key), [param for param, _ in params])
        vocab.elsewhere.pop(name, None)
        broken = f"'{name}' is written under 'functions:', but its expression has a problem, reported there"
        if compiled is None:
            vocab.elsewhere[name] = broken  # its calls are told so, not that it was never written
            continue
        most, depth, result = b.game.limits.call_depth, compiled.depth, compiled.result
        if depth > most:
            b.error(pos, f"function '{name}' calls functions {depth - 1} deep, more than {most} "
                         f"(limit call_depth={most}; raise it with --limit call_depth=N)")
            vocab.elsewhere[name] = broken
            continue
        signature_text = f"{name}({', '.join(f'{t} {p}' for p, t in params)}) -> {result}"
        text = " ".join(code_text(body_text).split())
        if lets:
            text += ", where " + ", ".join(f"{n} = {' '.join(str(v).split())}" for n, v in lets.items())
        size = ast.nodes(compiled.inlined) + sum(ast.nodes(n) for _, n in compiled.lets)
        vocab.functions[name] = Defined(name, signature_text, text, str(key), tuple(typed), compiled.fn, result, compiled.slots,
                                        words, compiled.meaning, depth, compiled.inlined, compiled.lets, size, compiled.steps)


BRACED = re.compile(r"\{([^{}]*)\}")


def check_placeholders(b: "CodeContext", spec: Mapping, name: str, params: list[str], what: str = "function") -> None:
    """Refuse a ``{...}`` in a function's (``what``'s) ``text`` that names none of its parameters (``{}``, ``{card}``
    for ``c``): it would stay in the English as written."""
    words = spec.get("text")
    if not isinstance(words, str):
        return
    for m in BRACED.finditer(words):
        if m.group(1) not in params:
            hint = (f"write {{{params[0]}}} where the argument goes" if len(params) == 1 else
                    f"write one of {', '.join('{' + p + '}' for p in params)} where its argument goes" if params else
                    f"the {what} has no parameters: leave the braces out")
            b.error(spec.pos_of("text"), f"the text of {what} '{name}' writes '{m.group(0)}', which names none of its "
                                         f"parameters, so explain would print it as written", did_you_mean(m.group(1), params) or hint)


def _zone_hint(function: str, type_name: str, param: str, kinds: Iterable[str], arguments: str = "hand(r)") -> str | None:
    """How to take a zone as a parameter: as the list of what it holds, which any zone given in a call reads as;
    ``arguments``, the call's, the zone in the parameter's place (``c, hand(r)``: the call read ``fits(hand(r))``
    for a function of two parameters).

    >>> _zone_hint("total", "zone", "z", ["card"])
    "a zone is given as the list of what it holds: write 'list of card z' (or 'list of component z'), and call it with the zone: total(hand(r))"
    >>> _zone_hint("fits", "zone", "z", ["card"], "c, hand(r)").endswith("fits(c, hand(r))")
    True
    >>> _zone_hint("total", "int", "n", ["card"]) is None
    True
    """
    if type_name.rsplit(" ", 1)[-1] not in ("zone", "zones", "pile", "hand"):
        return None
    kind = next(iter(kinds), "component")
    other = " (or 'list of component " + param + "')" if kind != "component" else ""
    return (f"a zone is given as the list of what it holds: write 'list of {kind} {param}'{other}, and call it with the "
            f"zone: {function}({arguments})")


def _hint_untyped(items: list[Diagnostic], start: int, key: str, params: list[str]) -> None:
    """Add to each problem from ``items[start:]`` that uses a parameter written without a type as another type how
    to give it that type.

    >>> found = [Diagnostic(None, "the role of won() must be a side, but 'r' is a component")]
    >>> _hint_untyped(found, 0, "held(r)", ["r"]); found[0].hint
    "'r' is written without a type in 'held(r)', so it is a component: write 'side r'"
    >>> found = [Diagnostic(None, "cannot compare 'n', a component, with an int")]
    >>> _hint_untyped(found, 0, "jump(n)", ["n"]); found[0].hint
    "'n' is written without a type in 'jump(n)', so it is a component: write 'int n'"
    """
    bare = [param for param in params if re.search(rf"[(,]\s*{re.escape(param)}\s*[,)]", key)]
    for index in range(start, len(items)):
        d = items[index]
        for param in bare:
            name = re.escape(param)
            wanted = (re.search(rf"must be an? ([\w-]+), but '{name}' is a component$", d.message)
                      or re.search(rf"^cannot compare '{name}', a component, with an? ([\w-]+)$", d.message)
                      or re.search(rf"^cannot compare an? ([\w-]+) with '{name}', a component$", d.message))
            if wanted and d.hint is None:
                items[index] = Diagnostic(d.pos, d.message, f"'{param}' is written without a type in '{key}', so it is a "
                                                            f"component: write '{wanted.group(1)} {param}'")


def _type_pos(key: str, param: str, type_name: str, pos: SourcePos) -> SourcePos:
    """Where ``type_name`` of ``param`` is written in the key ``key`` that starts at ``pos`` (a plain key on one line).

    >>> _type_pos("hurt(charcter c, int n)", "c", "charcter", SourcePos("r.yaml", 4, 3))
    SourcePos(file='r.yaml', line=4, col=8)
    """
    found = re.search(rf"[(,]\s*({re.escape(type_name)})\s+{re.escape(param)}\s*[,)]", key)
    return SourcePos(pos.file, pos.line, pos.col + found.start(1)) if found else pos


def param_pos(key: str, param: str, pos: SourcePos, later: int = 0) -> SourcePos:
    """Where the parameter ``param`` is written in the key ``key`` that starts at ``pos`` (a plain key on one line);
    ``later``: where it is written that many times after its first.

    >>> param_pos("hurt(character c, int n)", "n", SourcePos("r.yaml", 4, 3))
    SourcePos(file='r.yaml', line=4, col=25)
    >>> param_pos("hurt(int n, int n)", "n", SourcePos("r.yaml", 4, 3), 1).col
    19
    """
    found = list(re.finditer(rf"[(,](?:\s*[\w ]*?\s)?\s*({re.escape(param)})\s*(?=[,)])", key))
    return SourcePos(pos.file, pos.line, pos.col + found[later].start(1)) if len(found) > later else pos


def _param_type(b: "CodeContext", name: str) -> Type | None:
    if name.startswith("list of "):
        item = _param_type(b, name[len("list of "):])
        return None if item is None else ListOf(item)
    if name in SIMPLE:
        return SIMPLE[name]
    if name == "role":
        return b.game.vocab.data.get("role_type", ANY)
    if name in b.game.kinds:
        return Component(name)
    if name in b.game.types:
        return Enum(name)
    return None


class Body(NamedTuple):
    """A function's body compiled (see :func:`_compile_body`)."""

    fn: Fn  # the body over its own locals: the parameters first, then its let names
    result: Type
    slots: int  # how many locals it needs
    meaning: str  # its English, for explain
    depth: int  # how deeply the calls in it nest
    inlined: ast.Node | None  # its syntax, when a call may be written inline (a plain expression)
    steps: int  # the steps a call spends (see engine.lang.ast.weight)
    lets: tuple[tuple[str, ast.Node], ...]  # its lets' names and syntax: a call written inline computes each first


def _compile_body(b: "CodeContext", text: Any, pos: Any, params: list[tuple[str, Type]],
                  lets: Mapping | None = None, params_at: Mapping[str, SourcePos] | None = None) -> Body | None:
    """The body of a function with parameters ``params`` (written at ``params_at``, else at ``pos``) and ``lets``,
    compiled; None when it cannot be."""
    scope = Scope(b.game.vocab, b.sink)
    scope.pure = True
    for name, type_ in params:
        scope.check_new_name(name, (params_at or {}).get(name, pos), "in the function's body")
        scope.bind(name, type_)
    steps: list[tuple[int, Fn]] = []
    sources: list[tuple[int, Compiled]] = []  # each let's slot and compiled value, for one generated function
    named: list[tuple[str, str]] = []  # each let's name and its English
    lets_nodes: list[tuple[str, ast.Node]] = []  # each let's name and syntax, for calls written inline
    cost = 0  # syntax nodes a call runs, its inline calls' bodies included
    later = [str(name) for name in lets or {}]
    for name, value in (lets or {}).items():
        b.check_identifier(str(name), lets.key_pos.get(name), "let")  # type: ignore[union-attr]
        later.remove(str(name))
        scope.ahead = {n: f"'{n}' is a let below this one: lets are computed in order, so put '{n}' above" for n in later}
        if str(name) in scope.locals:
            b.error(lets.key_pos.get(name), f"'{name}' is already a parameter or an earlier 'let'")  # type: ignore[union-attr]
        else:
            scope.check_new_name(str(name), lets.key_pos.get(name), "in the function's body")  # type: ignore[union-attr]
        node = parse_selection(b, value, lets.pos_of(name))  # type: ignore[union-attr]
        if node is None:
            return None
        cost += ast.nodes(node)
        lets_nodes.append((str(name), node))
        if isinstance(node, selections.Selection):
            parts = node.compile_parts(scope)
            compiled = Compiled(ListOf(parts.item_type), parts.items)
        else:
            compiled = b.compile_node(node, scope)
        steps.append((scope.bind(str(name), compiled.type), compiled.fn))
        sources.append((steps[-1][0], compiled))
        named.append((str(name), f"every {node.describe()}" if isinstance(node, selections.Selection) else node.describe()))
    errors = len(b.sink.items)
    node = parse_selection(b, text, pos)
    if node is None:
        _told_program(b, text, errors)
        return None
    cost += ast.nodes(node)
    inlined: ast.Node | None = None
    compiled = None
    if isinstance(node, selections.Selection):
        parts = node.compile_parts(scope)
        body, result, meaning = parts.items, ListOf(parts.item_type), f"every {node.describe()}"
    else:
        errors = len(b.sink.items)
        compiled = b.compile_node(node, scope)
        body, result, meaning = compiled.fn, compiled.type, node.describe()
        # a body whose own source is long is never written inline (nor tried: see Defined._inline); nor is one that
        # did not compile: written again where it is called, its names could mean functions defined after it
        fits = (len(b.sink.items) == errors and len(codegen.expr(compiled)[0]) <= INLINE_SIZE
                and not any(isinstance(let, selections.Selection) for _, let in lets_nodes))
        inlined = node if fits else None
    depth = scope.calls[0] + 1
    spends = budgets.weight(cost + scope.inlined[0])
    if not steps:
        return Body(body, result, max(scope.slots, 1), meaning, depth, inlined, spends, ())
    meaning += ", where " + ", ".join(f"{name} is {words}" for name, words in named)

    def with_lets(s: Any, e: list[Any]) -> Any:
        for slot, fn in steps:
            e[slot] = fn(s, e)
        return body(s, e)

    generated = _lets_function(sources, compiled or Compiled(result, body), pos, scope, with_lets)
    return Body(generated or with_lets, result, max(scope.slots, 1), meaning, depth, inlined, spends, tuple(lets_nodes))


def _lets_function(lets: list[tuple[int, Compiled]], body: Compiled, pos: Any, scope: Scope, reference: Fn) -> Fn | None:
    """A body with ``let`` names as one generated function: each let's value into its slot, in order, then the body's
    (None when generation is off or Python cannot compile it; ``reference``, the closures, says where none met a
    number).

    >>> from engine.lang.scope import Vocabulary
    >>> from engine.lang.types import INT
    >>> let = Compiled(INT, None, code=Code("(e[0] + 1)"))
    >>> f = _lets_function([(1, let)], Compiled(INT, None, code=Code("(e[1] * 2)")), None, Scope(Vocabulary()), None)
    >>> f(None, [3, None])
    8
    """
    lines: list[str] = []
    consts: tuple[tuple[str, Any], ...] = ()
    for slot, c in lets:
        text, named = codegen.expr(c)
        lines.append(f"e[{slot}] = {text}")
        consts += named
    text, named = codegen.expr(body)
    return codegen.function((*lines, f"return {text}"), consts + named, pos, scope, reference)


PROGRAM_BODY = ("a function's body is one expression (a value or a condition), not a program: lines that change the "
                "game (move, shuffle, a counter's '+=') run only in setup, a step's effect and the other programs; "
                "write them there; to write them once, make it a procedure: move it under 'procedures:' and run it "
                "as a line of a program")


def _told_program(b: "CodeContext", text: Any, errors: int) -> None:
    """When a body that failed to parse as an expression is a program (statements, lines that change the game),
    say so in place of the syntax errors found after the ``errors``-th: "unexpected 'shuffle'; expected ')'" did not
    say that a function cannot change the game."""
    source = code_text(text).strip()
    if "\n" not in source:
        return
    try:
        parse_program(source, lambda line, col: None)
    except RulesetError:
        return
    found = b.sink.items[errors:]
    del b.sink.items[errors:]
    b.error(found[0].pos if found else None, PROGRAM_BODY)


def code_text(value: Any) -> str:
    """Code as written: YAML reads a bare ``true`` or ``false`` (a body such as ``never(): false``) as a boolean.

    >>> code_text(False), code_text(7), code_text("n > 1")
    ('false', '7', 'n > 1')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_selection(b: "CodeContext", text: Any, pos: Any) -> ast.Node | None:
    """Parse an expression or a selection ``x in C where P`` (as a function argument is read); errors go to ``b``."""
    source = code_text(text)
    if isinstance(text, Text):
        def locate(line: int, col: int) -> Any:
            return text.locate(line, col - 2 if line == 1 else col)
    else:
        def locate(line: int, col: int) -> Any:
            return pos
    try:
        wrapper = parse_expression(f"_({source.strip()})", locate)
    except RulesetError as err:
        b.sink.extend(err)
        return None
    assert isinstance(wrapper, ast.Call) and len(wrapper.args) == 1
    return wrapper.args[0]
