"""Compile-time scopes: what a name means where it is used.

A :class:`Scope` maps local variables (``for``/``let``/selection binders) to
slots in a run-time list, and defers everything else to its
:class:`Vocabulary` — the names a ruleset defines (enum values, options,
zones, state queries) and the functions it offers.  The engine builds one
vocabulary per ruleset; the language itself knows no game.

Compiled code is a closure ``fn(state, env)``: ``env`` is the list of local
slots, so reading a variable is one list index.

>>> from engine.lang.types import INT
>>> vocab = Vocabulary()
>>> vocab.define_constant("seven", INT, 7)
>>> scope = Scope(vocab)
>>> scope.lookup("seven", None).fn(None, [])
7
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

from engine.core.errors import Diagnostic, DiagnosticSink, SourcePos, did_you_mean
from engine.core.lookalike import lookalike, told_apart
from engine.lang.codegen import Code, constant
from engine.lang.types import ANY, Type

if TYPE_CHECKING:
    from engine.lang.functions import Function

Fn = Callable[[Any, list[Any]], Any]

ASKS = "asks"
"""In :attr:`Scope.reach`: the code calls ``choose``, so it may pause for a player's answer."""
RUNS = "runs"
"""In :attr:`Scope.reach`: the code changes the game through a call or an assignment, which may run other code (a hook)."""
DRAWS = "draws"
"""In :attr:`Scope.reach`: the code draws at random (rolls a die, shuffles a zone); a ruleset any of whose code does
is noted in its vocabulary's ``data`` under this key."""
ASKS_LATE = "asks after changing"
"""In :attr:`Scope.reach`: a ``choose`` may ask after the code changed the game or asked already (it is written after
a change or another ``choose``, or in a loop)."""


@dataclass(frozen=True)
class Compiled:
    """A checked, compiled expression: its static type, closure, and whether it is constant."""

    type: Type
    fn: Fn
    constant: bool = False
    slot: int | None = None  # set when the value is just a local variable (enables fast paths)
    table: "tuple[int, list[list[Any]]] | None" = None  # (slot, [face][item]): value is table[face[x]][x], x = env[slot]
    hint: Any = None  # for conditions: ("eq", slot, ((table, right), ...)) when the test is  x.attr == right [and ...]
    code: Code | None = None  # its Python source, for the operators, locals and statements
    size: Fn | None = None  # for a collection: how many items it has, worked out without listing them
    texts: tuple[str, ...] | None = None  # a text that can only be one of these (a choice among texts written out)
    most: int | None = None  # for a collection: the most items it can hold, when that is known as the ruleset loads


@dataclass(frozen=True)
class Global:
    """A name the vocabulary defines: a type, a closure and an English description."""

    type: Type
    fn: Fn
    text: str
    constant: bool = False
    code: Code | None = None  # its Python source (see engine.lang.codegen), written inline where it is used
    size: Fn | None = None  # for a collection: how many items it has, worked out without listing them


AttributeCompiler = Callable[[Compiled], Compiled]


@dataclass
class Vocabulary:
    """The names, attributes and functions visible to the effect language of one ruleset."""

    globals: dict[str, Global] = field(default_factory=dict)
    functions: "dict[str, Function]" = field(default_factory=dict)  # what its code may call, by name
    attributes: dict[tuple[str, str], tuple[Type, Callable[[Compiled], Compiled], str]] = field(
        default_factory=dict
    )
    data: dict[str, Any] = field(default_factory=dict)
    elsewhere: dict[str, str] = field(default_factory=dict)  # functions of blocks the ruleset does not use -> how to get them
    # The engine's own functions every ruleset may call, by name: a function the ruleset defines may take one of their
    # names (one a later version of the engine added, say), and its code then calls its own.
    built_in: "dict[str, Function]" = field(default_factory=dict)
    unnamed: dict[str, str] = field(default_factory=dict)  # names shown to players that code cannot use -> what to write

    def define(self, name: str, type_: Type, fn: Fn, text: str | None = None, code: str = "", size: Fn | None = None,
               walkable: bool = False) -> None:
        """Define a state query such as ``board``; ``code`` is the same as a Python expression over ``s``, if any;
        ``size``, for a collection, its number of items found without listing them (``count`` uses it).  With
        ``walkable``, ``code`` reads the collection's items (a list, a tuple or a dict's keys, never none) as the
        state keeps them, changed only by changes to the game: a generated loop over it reads it inline (and walks
        a copy when the loop changes the game), as it does a zone's list.

        >>> from engine.lang.types import INT, ListOf
        >>> v = Vocabulary(); v.define("seats", ListOf(INT), lambda s, e: s.seats, code="s.seats", walkable=True)
        >>> v.globals["seats"].code.walkable
        True
        """
        self.globals[name] = Global(type_, fn, text or name, code=Code(code, walkable=walkable) if code else None, size=size)

    def define_constant(self, name: str, type_: Type, value: Any, text: str | None = None) -> None:
        """Define a constant such as an option value or an enum member."""
        literal, consts = constant(value)
        self.globals[name] = Global(type_, lambda s, e, v=value: v, text or name, constant=True,
                                    code=Code(literal, None, consts))

    def define_attribute(
        self, type_name: str, attr: str, type_: Type, compile_: AttributeCompiler, text: str
    ) -> None:
        """Define ``x.attr`` for values of the type named ``type_name``."""
        self.attributes[(type_name, attr)] = (type_, compile_, text)

    def attribute_names(self, type_name: str) -> list[str]:
        """The attributes declared for type ``type_name``, sorted."""
        return sorted(a for (t, a) in self.attributes if t == type_name)


class Scope:
    """Local variables (slots) over a vocabulary; collects diagnostics instead of raising."""

    def __init__(
        self,
        vocab: Vocabulary,
        sink: DiagnosticSink | None = None,
        parent: "Scope | None" = None,
    ) -> None:
        self.vocab = vocab
        self.sink = sink if sink is not None else DiagnosticSink()
        self.parent = parent
        self.locals: dict[str, tuple[int, Type]] = {}
        self.given: set[str] = set()  # the names the engine gives this code (see give)
        self.counter: list[int] = parent.counter if parent else [0]
        self.pure: bool = parent.pure if parent else False  # a condition: nothing may change, not even the dice
        self.work: int = parent.work if parent else 1  # items the enclosing selections visit, multiplied (see Selection)
        self.calls: list[int] = parent.calls if parent else [0]  # how deeply the ruleset's functions called here nest
        self.inlined: list[int] = parent.inlined if parent else [0]  # syntax nodes of the calls written inline here
        self.aliases: dict[str, Compiled] = {}  # names standing for code compiled elsewhere (an inline call's arguments)
        self.reach: set[str] = parent.reach if parent else set()  # what the code may do besides computing (ASKS, RUNS, DRAWS)
        self.looping: bool = parent.looping if parent else False  # inside a loop: code written later may run earlier
        self.in_where: bool = parent.in_where if parent else False  # in a selection's 'where': run once per item
        # the ruleset's functions whose bodies are being written inline around this code (none is written in itself)
        self.inlining: frozenset[str] = parent.inlining if parent else frozenset()
        # names first given by '=' without 'let' (reported there): another '=' to them is the same slip
        self.unlet: set[str] = parent.unlet if parent else set()
        # names given a value further on (a function's later lets) -> why they cannot be read here
        self.ahead: dict[str, str] = parent.ahead if parent else {}
        # the local slots that hold one of a few texts alone (a 'let' of a choice among texts written out)
        self.texts: dict[int, tuple[str, ...]] = parent.texts if parent else {}
        # the problems reported before this code began: any more are this code's own (see reported_here)
        self.reported_before: int = parent.reported_before if parent else len(self.sink.items)

    @property
    def reported_here(self) -> bool:
        """Whether this code (the whole tree of scopes) has already reported a problem: a value of unknown type
        after one is most likely its consequence (``let q = choose(p in bord)``, then ``q.cell``)."""
        return len(self.sink.items) > self.reported_before

    @property
    def slots(self) -> int:
        """How many local slots compiled code in this scope tree needs."""
        return self.counter[0]

    def child(self) -> "Scope":
        """A new scope inside this one (its locals see this scope's)."""
        return Scope(self.vocab, self.sink, self)

    def bind(self, name: str, type_: Type) -> int:
        """A new local variable in this scope; returns its slot."""
        slot = self.counter[0]
        self.counter[0] += 1
        self.locals[name] = (slot, type_)
        return slot

    def give(self, name: str, type_: Type) -> int:
        """A name the engine gives this code (``actor``, ``placed``, ``self``): a local variable, whose reading is
        refused where the ruleset defines the same name for something of its own, which it would hide.

        >>> from engine.lang.types import INT
        >>> v = Vocabulary(); v.define_constant("placed", INT, 3)
        >>> scope = Scope(v); scope.give("placed", INT)
        0
        >>> _ = scope.lookup("placed", None); print(scope.sink.items[0].message)
        'placed' here is the name this code is given (the piece a 'place' step placed), but this ruleset also defines 'placed' (placed): code could not tell them apart
        """
        self.given.add(name)
        return self.bind(name, type_)

    def check_new_name(self, name: str, pos: SourcePos | None, hiding: str) -> None:
        """Report a name code gives (a 'let', a loop's or a selection's) that hides a name of the ruleset (an option, a
        value, a zone: code after it would read the new one, where the designer reads the ruleset's; a kind's English
        plural, ``boxes`` beside ``boxs``, gives way to a local), or that looks like another name known here without
        being it (a Cyrillic 'а' for 'a'). ``hiding`` says where it would hide.

        >>> from engine.lang.types import INT
        >>> vocab = Vocabulary(); vocab.define_constant("heap", INT, 7, "the option heap")
        >>> scope = Scope(vocab); _ = scope.bind("a", INT)
        >>> scope.check_new_name("heap", None, "in the lines after it"); scope.check_new_name("а", None, "")
        >>> [d.message for d in scope.sink.items][0]
        "'heap' already means the option heap: a name given here would hide it in the lines after it"
        >>> [d.message for d in scope.sink.items][1]
        "'а' looks like 'a', another name here, but is not it: its 'а' is CYRILLIC SMALL LETTER A (U+0430), not the Latin 'a'"
        """
        known = self.vocab.globals.get(name)
        if known is not None and name not in self.vocab.data.get(ENGLISH_PLURALS, ()):  # 'boxes' beside 'boxs': a local
            meaning = known.text if known.text != name else f"the {known.type} {name}"
            self.error(pos, f"'{name}' already means {meaning}: a name given here would hide it {hiding}",
                       "pick another name")
            return
        alike = lookalike(name, self._names_known())
        if alike is not None:
            self.error(pos, f"'{name}' looks like '{alike}', another name here, but is not it: {told_apart(name, alike)}",
                       f"write it as '{alike}' is written, or pick a name that looks like no other")

    def alias(self, name: str, compiled: Compiled) -> None:
        """Let ``name`` stand for ``compiled`` here: a parameter of a function whose call is written inline.

        >>> from engine.lang.types import INT
        >>> scope = Scope(Vocabulary()); scope.alias("n", Compiled(INT, lambda s, e: 3, True))
        >>> scope.lookup("n", None).fn(None, [])
        3
        """
        self.aliases[name] = compiled

    def visible_names(self) -> list[str]:
        """Every name code here may use: globals, functions, the locals of this scope and those around it; sorted."""
        names = set(self.vocab.globals) | set(self.vocab.functions)
        scope: Scope | None = self
        while scope:
            names |= set(scope.locals)
            scope = scope.parent
        return sorted(names)

    def _names_known(self) -> Iterator[str]:
        """Every name known here, unsorted (the vocabulary's, then the locals outwards)."""
        yield from self.vocab.globals
        yield from self.vocab.functions
        scope: Scope | None = self
        while scope:
            yield from scope.locals
            scope = scope.parent

    def defines(self, name: str) -> bool:
        """Whether ``name`` is a local variable here or a global of the vocabulary.

        >>> from engine.lang.types import INT
        >>> scope = Scope(Vocabulary()); _ = scope.bind("d2", INT)
        >>> scope.defines("d2"), scope.defines("d6")
        (True, False)
        """
        scope: Scope | None = self
        while scope:
            if name in scope.locals or name in scope.aliases:
                return True
            scope = scope.parent
        return name in self.vocab.globals

    def outer_defines(self, name: str) -> bool:
        """Whether ``name`` is a local variable of an enclosing scope (a block around this one), not of this one.

        >>> from engine.lang.types import INT
        >>> outer = Scope(Vocabulary()); _ = outer.bind("c", INT); inner = outer.child()
        >>> inner.outer_defines("c"), outer.outer_defines("c")
        (True, False)
        """
        scope = self.parent
        while scope:
            if name in scope.locals or name in scope.aliases:
                return True
            scope = scope.parent
        return False

    def lookup(self, name: str, pos: SourcePos | None) -> Compiled:
        """The compiled meaning of a name; reports an error (with a hint) when unknown."""
        scope: Scope | None = self
        while scope:
            if name in scope.locals:
                slot, type_ = scope.locals[name]
                if name in scope.given:
                    self._given_hides(name, pos)
                return Compiled(type_, lambda s, e, i=slot: e[i], slot=slot, code=Code(f"e[{slot}]"),
                                texts=self.texts.get(slot))
            if name in scope.aliases:
                return scope.aliases[name]
            scope = scope.parent
        known = self.vocab.globals.get(name)
        if known is not None:
            return Compiled(known.type, known.fn, known.constant, code=known.code, size=known.size)
        values = [n for n in self.visible_names() if n not in self.vocab.functions]  # a name is no call: never 'move'
        self.error(pos, f"unknown name '{name}'", self.ahead.get(name) or self.vocab.unnamed.get(name) or self._call_hint(name)
                   or _NAMES_REACHED_FOR.get(name)
                   or did_you_mean(name, values, strict=True) or _loop_name(name))
        return Compiled(ANY, _unknown)

    def _given_hides(self, name: str, pos: SourcePos | None) -> None:
        """Report reading a name the engine gives this code that the ruleset defines too (a counter, a function)."""
        known = self.vocab.globals.get(name)
        if known is not None:
            own = f"'{name}' ({known.text})"
        elif name in self.vocab.functions and self.vocab.functions[name] is not self.vocab.built_in.get(name):
            own = f"a function '{name}'"
        else:
            return
        meaning = _NAMES_REACHED_FOR.get(name, "").partition(": it is known")[0].removeprefix(f"'{name}' is ")
        self.error(pos, f"'{name}' here is the name this code is given{f' ({meaning})' if meaning else ''}, but this "
                        f"ruleset also defines {own}: code could not tell them apart",
                   f"rename the ruleset's '{name}'")

    def _call_hint(self, name: str) -> str | None:
        """For a function named without its call (a zone or counter kept per role, say): how to call it."""
        signature = getattr(self.vocab.functions.get(name), "signature", "")
        return f"'{name}' is a function, not a name: write {signature.split(' -> ')[0]}" if signature else None

    def error(self, pos: SourcePos | None, message: str, hint: str | None = None) -> None:
        self.sink.items.append(Diagnostic(pos, message, hint))


# Names a newcomer reaches for, and the language's own.
_NAMES_REACHED_FOR = {
    "turn_number": "the turn number is 'turn'",
    "players": "the number of players is 'player_count'",
    "num_players": "the number of players is 'player_count'",
    "self": "'self' is the component whose code this is: it is known in code written on components, statuses and tiles",
    "me": "'me' is the seat being scored: it is known in 'running_score' only",
    "actor": "'actor' is the role who acted: it is known in a step's 'refuse_if_after' only",
    "placed": "'placed' is the piece a 'place' step placed: it is known in that step's 'refuse_if_after' only",
    "True": "write 'true', in lower case",
    "False": "write 'false', in lower case",
    "None": "write 'none', in lower case",
    "null": "write 'none'",
    "nil": "write 'none'",
    "options": "an option is read by its own name: write NAME, not options.NAME",
}


_PLURALS = {"die": "dice", "man": "men", "woman": "women", "child": "children", "person": "people", "mouse": "mice",
            "louse": "lice", "goose": "geese", "foot": "feet", "tooth": "teeth", "ox": "oxen", "axis": "axes",
            "leaf": "leaves", "half": "halves", "calf": "calves", "elf": "elves", "self": "selves", "shelf": "shelves",
            "wolf": "wolves", "thief": "thieves", "loaf": "loaves", "sheaf": "sheaves", "knife": "knives",
            "life": "lives", "wife": "wives",
            "hero": "heroes", "potato": "potatoes", "tomato": "tomatoes", "echo": "echoes", "veto": "vetoes",
            "torpedo": "torpedoes", "domino": "dominoes", "embargo": "embargoes", "mosquito": "mosquitoes",
            "quiz": "quizzes"}
"""English plurals not made by adding 's' or 'es' to the word, or made by 'es' after an 'o' (see
:func:`english_plural`): other words in -f, -fe and -o take a plain 's' (roofs, chiefs, photos, pianos)."""

_PLAIN_S = frozenset({"stomach", "monarch", "patriarch", "matriarch", "oligarch", "epoch", "eunuch", "loch", "tech",
                      "series", "species", "means", "chassis"})
"""Words whose English plural its ending does not tell, given only the plain 's' form: a '-ch' said 'k'
(``stomachs``), and words whose plural is the word itself (``series``)."""


ENGLISH_PLURALS = "english_plurals"
"""Vocabulary data key: the set of English plurals defined as a kind's or a type's list (``boxes`` beside ``boxs``),
which a function of the ruleset of that name takes the place of."""


def english_plural(word: str) -> str:
    """The English plural of a name (of its last word, for a name written with underscores); where the word's ending
    does not tell it and the word is not in a short table of English's exceptions, its plain 's' form.

    >>> [english_plural(w) for w in ("card", "company", "box", "die", "day", "bus", "half", "gold_coin", "red_die")]
    ['cards', 'companies', 'boxes', 'dice', 'days', 'buses', 'halves', 'gold_coins', 'red_dice']
    >>> [english_plural(w) for w in ("hero", "photo", "wolf", "roof", "crisis", "axis", "stomach", "great_man")]
    ['heroes', 'photos', 'wolves', 'roofs', 'crises', 'axes', 'stomachs', 'great_men']
    """
    head, _, last = word.rpartition("_")
    start = f"{head}_" if head else ""
    if last in _PLURALS:
        return start + _PLURALS[last]
    if last in _PLAIN_S:
        return word + "s"
    if len(last) > 1 and last.endswith("y") and last[-2] not in "aeiou":
        return word[:-1] + "ies"
    if last.endswith("sis") and not last.endswith("ssis"):  # crisis, basis, analysis
        return word[:-2] + "es"
    if last.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def _loop_name(name: str) -> str | None:
    """For a short name used where nothing makes it (``when: gold(r) > 9``): where such a name comes from.

    >>> _loop_name("r"), _loop_name("total")
    ("'r' exists only inside what names it: for r in C:, or any(... for r in C) (all, sum alike)", None)
    """
    if len(name) > 2 or not name.islower():
        return None
    return f"'{name}' exists only inside what names it: for {name} in C:, or any(... for {name} in C) (all, sum alike)"


def _unknown(state: Any, env: list[Any]) -> Any:
    raise AssertionError("code with compile errors must never run")
