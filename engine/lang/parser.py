"""Parse effect-language text into the syntax tree of :mod:`engine.lang.ast`.

The grammar lives in ``grammar.lark``; one LALR parser (with an indentation
post-lexer) serves both entry points.  Positions inside the text are mapped to
file positions by a ``locate(line, col)`` callback, so an error in a YAML block
scalar points at the right line of the ruleset.

>>> parse_expression("1 + 2 * 3").describe()
'1 plus 2 times 3'
>>> parse_program("for r in roles:\\n  if gold(r) > 2:\\n    pass\\n").describe()
'for each r in roles: if the gold of r is more than 2: do nothing'
"""

from __future__ import annotations

import ast as python_ast
import contextlib
import contextvars
import re
import threading
import warnings
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from engine.core import limits
from engine.core.errors import RulesetError, SourcePos, source_lines
from engine.core.paths import private_cache_dir
from engine.lang import ast, kept_trees, selections, statements
from engine.lang.habits import python_habit
from engine.lang.types import BOOL, INT, NONE_T, STR

Locate = Callable[[int, int], SourcePos]
_PARSING = threading.Lock()
"""Held while the parser runs: its indentation post-lexer keeps its state on the one shared parser, so two threads
parsing at once (a server compiling two rulesets for two requests) would break each other's parse."""
RESERVED = {"where", "in", "and", "or", "not", "if", "then", "else", "elif", "for", "let", "roll", "repeat", "while", "pass",
            "true", "false", "none", "odd", "even"}
"""The words code reads as its own, never as a name a ruleset gives."""
TOO_DEEP = "this code nests too deeply (more than a few hundred levels); split it up"
_READ: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("code_read", default=None)
"""The characters of code read so far by the compiling in progress (see :func:`counting_code`)."""


@contextlib.contextmanager
def counting_code() -> Iterator[None]:
    """Count the code parsed within against the limit ``code_total`` (one ruleset's compiling): past it,
    parsing is refused, once with a message at the first piece past it, then silently (a parser reads
    about 100 KB a second, so megabytes of code made validate take minutes).

    >>> with limits.using(limits.Limits(code_total=12)), counting_code():
    ...     first = parse_expression("1 + 2 + 3")
    ...     parse_expression("4 + 5")
    Traceback (most recent call last):
    ...
    engine.core.errors.RulesetError: <expression>:1:1: this ruleset's code passes 12 characters in all here: parsing so much takes too long (limit code_total=12; raise it with --limit code_total=N)
    """
    token = _READ.set([0])
    try:
        yield
    finally:
        _READ.reset(token)


def spend_code(length: int, locate: Locate) -> None:
    """Count ``length`` more characters of code read (within :func:`counting_code`, else nothing): RulesetError
    past ``code_total``, positioned at the code that passes it, and without a word for the code after it."""
    read = _READ.get()
    if read is None:
        return
    most = limits.current().code_total
    before = read[0]
    read[0] += length
    if read[0] > most:
        if before > most:
            raise RulesetError([])  # said once, where the total passed the limit
        raise RulesetError.at(locate(1, 1), f"this ruleset's code passes {most:,} characters in all here: parsing so "
                                            f"much takes too long {limits.exceeded('code_total')}")


class _Indenter(Indenter):
    """Lark's indentation tracker for the language: lines inside brackets continue; an indent opens a block."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The effect language's LALR parser; its tables are kept in this user's cache folder (see :func:`_tables_file`)."""
    grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    tables = _tables_file(grammar)
    return Lark(
        grammar,
        parser="lalr",
        postlex=_Indenter(),
        start=["expression_start", "program_start"],
        propagate_positions=True,
        maybe_placeholders=True,
        # With the grammar itself kept too, for tools that read it (the fuzz tests generate programs from it).
        **({"cache": str(tables), "cache_grammar": True} if tables else {}),
    )


def _tables_file(grammar: str) -> Path | None:
    """Where lark keeps the parser's tables between runs (working them out takes longer than a ruleset's whole
    compilation): a file of this user's private cache folder, named for the grammar, lark and Python; None when
    there is no such folder.  lark checks the grammar's hash stored in the file, and works the tables out again
    (rewriting the file) when it does not match or the file cannot be read.

    >>> _tables_file("start: 'x'") in (None, _tables_file("start: 'x'"))
    True
    """
    import hashlib
    import sys

    import lark

    folder = private_cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    return folder / f"grammar-{digest}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.tables"


def _text_locate(name: str) -> Locate:
    return lambda line, col: SourcePos(name, line, col)


def parse_expression(text: str, locate: Locate | None = None) -> ast.Node:
    """Parse one expression (a value or a condition)."""
    return _parse(text.strip(), "expression_start", locate or _text_locate("<expression>"))


def parse_program(text: str, locate: Locate | None = None) -> statements.Block:
    """Parse statements (one per line, indented blocks) into a :class:`~engine.lang.statements.Block`."""
    result = _parse(text if text.endswith("\n") else text + "\n", "program_start", locate or _text_locate("<program>"))
    assert isinstance(result, statements.Block)
    return result


def _parse(text: str, start: str, locate: Locate) -> Any:
    most = limits.current().code_length
    if len(text) > most:  # parsing takes seconds a megabyte, and memory many times the text's size
        raise RulesetError.at(locate(1, 1), f"this code is {len(text):,} characters long, more than {most:,} "
                                            f"(limit code_length={most:,}; raise it with --limit code_length=N)")
    spend_code(len(text.strip()), locate)  # counted as the compiler counts a tree it kept
    return kept_trees.parsed(text, start, locate, _read)


def _read(text: str, start: str, locate: Locate) -> Any:
    """The syntax tree of ``text`` from lark's parse (what :mod:`~engine.lang.kept_trees` keeps), or RulesetError."""
    try:
        with _PARSING:
            tree = _parser().parse(text, start=start)
    except UnexpectedInput as err:
        if isinstance(err, UnexpectedToken) and err.token.type == "_INDENT":  # lark marks the end of the line before
            line = _indented_line(text, err.line)
            written = text.splitlines()[line - 1]
            raise RulesetError.at(locate(line, len(written) - len(written.lstrip()) + 1),
                                  "this line is indented further than the line before, which opens no block (only a "
                                  "line ending in ':' does): line it up with the lines of its block") from None
        message = _syntax_message(err, text)
        hint = _cut_at_a_comma(text, locate) if "the text ends too early" in message else None
        hint = hint or (_folded_program(text, locate) if start == "program_start" else None)
        raise RulesetError.at(locate(max(err.line, 1), max(err.column, 1)), message, hint) from None
    except DedentError:
        line = _misaligned_line(text)
        raise RulesetError.at(locate(line, 1), "this line is indented less than the line before, but not as far back "
                                               "as any block it closes; line it up with one of them") from None
    try:
        return _ToAst(locate).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, RulesetError):
            raise err.orig_exc from None
        if isinstance(err.orig_exc, RecursionError):
            raise RulesetError.at(locate(1, 1), TOO_DEEP) from None
        raise
    except RecursionError:
        raise RulesetError.at(locate(1, 1), TOO_DEEP) from None


def _indented_line(text: str, after: int) -> int:
    """The first line of code after line ``after`` (blank lines and comments skipped): the one indented too far.

    >>> _indented_line("pass\\n\\n  # note\\n    pass\\n", 1)
    4
    """
    lines = text.splitlines()
    return next((n for n in range(after + 1, len(lines) + 1)
                 if lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#")), min(after + 1, len(lines)))


def _unindented_block(text: str, line: int) -> str | None:
    """The line opening a block (``if ...:``) right above ``line`` when ``line`` is not indented under it.

    >>> _unindented_block("if x == 0:\\nshuffle(deck)\\n", 2), _unindented_block("if x == 0:\\n  pass\\n", 2)
    ('if x == 0:', None)
    """
    lines = text.splitlines()
    above = [item for item in lines[:max(line - 1, 0)] if item.strip() and not item.lstrip().startswith("#")]
    if not above or not 0 < line <= len(lines) or not above[-1].rstrip().endswith(":"):
        return None
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    return above[-1].strip() if indent <= len(above[-1]) - len(above[-1].lstrip()) else None


def _cut_at_a_comma(text: str, locate: Locate) -> str | None:
    """The hint for code that ends too early because YAML ended it at a comma: ``[a(b, c)]`` or ``{do: f(x, y)}``
    unquoted make ``a(b`` and ``f(x`` the code.  Seen in the file: a comma right after the code's last character."""
    if "\n" in text.strip():
        return None
    end = locate(1, len(text.rstrip()) + 1)
    lines = source_lines(end.file)
    if not 0 < end.line <= len(lines) or not lines[end.line - 1][end.col - 1:].startswith(","):
        return None
    return "YAML ended the code at a comma inside [...] or {...}: put the code in quotes"


def _folded_program(text: str, locate: Locate) -> str | None:
    """The hint for a program written without ``|``: YAML joined its lines into one, so the second statement is
    unexpected.  Seen in the file: the one line of code starts and ends on different lines.

    >>> _folded_program("move(c in cards, deck)", lambda line, col: SourcePos("<program>", line, col)) is None
    True
    """
    code = text.strip()
    if not code or "\n" in code:
        return None
    first, last = locate(1, 1), locate(1, len(text.rstrip()))
    if last.line <= first.line:
        return None
    lines = source_lines(first.file)
    key = None
    for number in range(first.line, 0, -1):
        opener = re.match(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*):(?:\s|$)", lines[number - 1]) if number <= len(lines) else None
        if opener:
            key = opener.group(1)
            break
    bar = f"'{key}: |'" if key else "'|' after the key"
    return (f"YAML joined the lines of this program into one, as it does with a value written without '|': write "
            f"{bar} and the program on the lines under it")


def _misaligned_line(text: str) -> int:
    """The first line whose indentation closes a block without matching the indentation of an enclosing one.

    >>> _misaligned_line("if x:\\n    pass\\n  pass\\n")
    3
    """
    levels = [0]
    depth = 0  # open brackets: lines inside them are not indented blocks
    for number, line in enumerate(text.splitlines(), 1):
        content = line.lstrip(" \t")
        if content and not content.startswith("#") and depth == 0:
            indent = len(line.expandtabs(8)) - len(content.expandtabs(8)) if "\t" in line else len(line) - len(content)
            if indent > levels[-1]:
                levels.append(indent)
            while indent < levels[-1]:
                levels.pop()
            if indent != levels[-1]:
                return number
        depth = max(depth + sum(content.count(c) for c in "([") - sum(content.count(c) for c in ")]"), 0)
    return 1


_TOKEN_NAMES = {
    "RPAR": "')'",
    "LPAR": "'('",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "LSQB": "'['",
    "MINUS": "'-'",
    "DIE": "a die like d6",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a text in quotes",
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "COMP_OP": "a comparison",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "$END": "the end of the text",
}


_SLIPS = {
    "=": "to compare, write '=='",
    "&&": "write 'and'",
    "||": "write 'or'",
    "!": "write 'not'",
    "&": "write 'and'",
    "?": "a value chosen by a condition is written 'if CONDITION then A else B'",
    "^": "there is no power operator: multiply (2 * 2 * 2)",
    "|": "write 'or'",
    "{": "a block is not written in braces: end its first line with ':' and indent the lines under it",
    "}": "a block is not written in braces: end its first line with ':' and indent the lines under it",
}


def _syntax_message(err: UnexpectedInput, text: str) -> str:
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream]
        slip = _SLIPS.get(text[err.pos_in_stream:err.pos_in_stream + 2]) or _SLIPS.get(char)
        return f"syntax error: unexpected character {char!r}" + (f" ({slip})" if slip else "")
    if isinstance(err, UnexpectedEOF):
        return "syntax error: the text ends too early"
    if isinstance(err, UnexpectedToken):
        habit = _habit_at(text, err.token)
        if habit:
            return f"syntax error: {habit}"
        if err.token.type == "$END":
            expected = sorted({_expected_name(t) for t in err.expected})
            return f"syntax error: the text ends too early; expected {', '.join(expected[:6])}"
        if str(err.token) == "=":
            return "syntax error: " + _misplaced_equals(text[:err.token.start_pos].rstrip())
        opener = _unindented_block(text, err.line)
        if opener:
            return f"syntax error: the lines under '{opener}' must be indented further than it"
        if str(err.token) == "elif" and re.search(r"\bthen\b", text[text.rfind("\n", 0, err.token.start_pos) + 1:err.token.start_pos]):
            return ("syntax error: unexpected 'elif' (a value chosen by several conditions is written "
                    "'if A then X else if B then Y else Z')")
        if str(err.token) == "[" and _ends_a_value(text[:err.token.start_pos]):
            return "syntax error: unexpected '[' after a value (to take an item of a list, write nth(LIST, N); 1 is the first)"
        got = {"_NL": "end of the line", "_INDENT": "indentation", "_DEDENT": "end of the block"}.get(err.token.type)
        got = got or repr(str(err.token).strip() or err.token.type)
        expected = sorted({_expected_name(t) for t in err.expected})
        hint = ", ".join(expected[:6]) + (", ..." if len(expected) > 6 else "")
        return f"syntax error: unexpected {got}; expected {hint}"
    return "syntax error"  # pragma: no cover - lark has no other kinds


def _habit_at(text: str, token: Token) -> str | None:
    """The Python habit (see :mod:`engine.lang.habits`) on the line where ``token`` was unexpected, if any.

    >>> _habit_at("let n = 0\\nn++\\n", Token("ADD_OP", "+", start_pos=11))
    "write '+= 1' for '++' (only a counter can change: see 'counters:')"
    """
    start = len(text) if token.start_pos is None else token.start_pos
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    rest = text[start:len(text) if line_end < 0 else line_end]
    return python_habit(text[line_start:start], "" if token.type in ("_NL", "$END") else str(token), rest)


def _ends_a_value(text: str) -> bool:
    """Whether ``text`` ends with a value that a ``[`` would index, as in ``xs[2]`` or ``[a, b][i]``.

    >>> _ends_a_value("nth(xs"), _ends_a_value("let p = [a, b]"), _ends_a_value("x in ")
    (True, True, False)
    """
    return re.search(r"[\w)\]]$", text.rstrip()) is not None and not re.search(r"\b(in|and|or|not|then|else)$", text.rstrip())


def _misplaced_equals(text: str) -> str:
    """Why an '=' is unexpected, from the text before it.

    >>> _misplaced_equals("x =="), _misplaced_equals("let n =")
    ("unexpected '===' (to compare, write '==')", "unexpected '==' after 'let n' (to name a value, write 'let n = ...')")
    """
    before = text[-1:]
    if before in ("+", "-"):
        return f"unexpected '{before}=': changing a counter is a line of a program, not part of a value or condition"
    if text.endswith("=="):
        return "unexpected '===' (to compare, write '==')"
    let = re.search(r"\blet\s+(\w+)\s*=$", text)
    if let:
        return f"unexpected '==' after 'let {let.group(1)}' (to name a value, write 'let {let.group(1)} = ...')"
    if before == "=":
        return "a comparison can't be a line of a program on its own; a line changes the game (e.g. move(...), gold(r) += 1)"
    return "unexpected '=' (to compare, write '==')"


def _expected_name(terminal: str) -> str:
    """A readable name for a terminal lark expected: its literal text, or a description."""
    if terminal in _TOKEN_NAMES:
        return _TOKEN_NAMES[terminal]
    for t in _parser().terminals:
        if t.name == terminal and t.pattern.type == "str":
            return repr(t.pattern.value)
    return terminal.lower()


def _item_name(collection: ast.Node, where: ast.Node) -> str:
    """The name to give the items of ``collection where CONDITION`` written without one: the short name the
    condition reads (``r`` in ``roles where seated(r)``), else the collection's first letter.

    >>> _item_name(ast.Name(None, "roles"), ast.Call(None, "seated", [ast.Name(None, "r")]))
    'r'
    >>> _item_name(ast.Name(None, "board"), ast.Literal(None, True, None))
    'b'
    """
    read = [node.name for node in _nodes(where) if isinstance(node, ast.Name)]
    short = next((name for name in read if len(name) <= 2 and name.islower()), None)
    named = collection.name if isinstance(collection, ast.Name) else collection.func if isinstance(collection, ast.Call) else ""
    first = named[:1].lower()
    return short or (first if first.isalpha() else "x")


def _written(node: ast.Node) -> str | None:
    """A name, or a call of names and numbers, as written (``hand(r)``); None for anything else.

    >>> _written(ast.Call(None, "hand", [ast.Name(None, "r")])), _written(ast.Literal(None, "a", STR)) is None
    ('hand(r)', True)
    """
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Literal) and node.type is INT:
        return str(node.value)
    if isinstance(node, ast.Call):
        args = [_written(arg) for arg in node.args]
        return None if None in args else f"{node.func}({', '.join(arg for arg in args if arg is not None)})"
    return None


def _nodes(node: Any) -> Iterator[ast.Node]:
    """``node`` and every node under it."""
    if isinstance(node, list):
        for item in node:
            yield from _nodes(item)
    elif isinstance(node, ast.Node):
        yield node
        for f in fields(node):
            yield from _nodes(getattr(node, f.name))


@v_args(inline=True, meta=True)
class _ToAst(Transformer[Token, Any]):
    """Builds AST nodes with file positions from lark's parse tree."""

    def __init__(self, locate: Locate) -> None:
        super().__init__()
        self.locate = locate

    def _pos(self, meta: Any) -> SourcePos | None:
        if getattr(meta, "empty", True):
            return None
        return self.locate(meta.line, meta.column)

    def _tok(self, tok: Token) -> SourcePos:
        return self.locate(tok.line or 1, tok.column or 1)

    # -- entry points
    def expression_start(self, meta: Any, expr: ast.Node) -> ast.Node:
        return expr

    def program_start(self, meta: Any, *stmts: Any) -> statements.Block:
        return statements.Block(self._pos(meta), _flatten(stmts))

    # -- statements
    def simple_stmt(self, meta: Any, *stmts: ast.Node) -> list[ast.Node]:
        return list(stmts)

    def suite(self, meta: Any, *stmts: Any) -> statements.Block:
        return statements.Block(self._pos(meta), _flatten(stmts))

    def pass_stmt(self, meta: Any) -> ast.Node:
        return statements.Pass(self._pos(meta))

    def let_stmt(self, meta: Any, name: Token, value: ast.Node) -> ast.Node:
        return statements.Let(self._pos(meta), str(name), value)

    def assign_stmt(self, meta: Any, target: ast.Node, op: Token, value: ast.Node) -> ast.Node:
        return statements.Assign(self._pos(meta), target, str(op), value)

    def for_stmt(self, meta: Any, name: Token, source: ast.Node, where: ast.Node | None, body: statements.Block) -> ast.Node:
        return statements.For(self._pos(meta), str(name), source, where, body)

    def if_stmt(self, meta: Any, test: ast.Node, body: statements.Block, *rest: Any) -> ast.Node:
        *elifs, otherwise = rest
        return statements.If(self._pos(meta), [(test, body), *elifs], otherwise)

    def elif_clause(self, meta: Any, test: ast.Node, body: statements.Block) -> tuple[ast.Node, statements.Block]:
        return (test, body)

    def repeat_stmt(self, meta: Any, count: ast.Node, body: statements.Block) -> ast.Node:
        return statements.Repeat(self._pos(meta), count, body)

    def while_stmt(self, meta: Any, test: ast.Node, body: statements.Block) -> ast.Node:
        return statements.While(self._pos(meta), test, body)

    def roll_stmt(self, meta: Any, die: Token, *cases: tuple[statements.RollCase, statements.Block]) -> ast.Node:
        return statements.Roll(self._pos(meta), _sides(die, self._tok(die)), list(cases))

    def roll_case(self, meta: Any, pattern: statements.RollCase, body: statements.Block) -> tuple[statements.RollCase, statements.Block]:
        return (pattern, body)

    def odd_pattern(self, meta: Any) -> statements.RollCase:
        return statements.RollCase(self._pos(meta), "odd")

    def even_pattern(self, meta: Any) -> statements.RollCase:
        return statements.RollCase(self._pos(meta), "even")

    def range_pattern(self, meta: Any, low: Token, high: Token) -> statements.RollCase:
        return statements.RollCase(self._pos(meta), "range", _whole(low, self._tok(low)), _whole(high, self._tok(high)))

    def value_pattern(self, meta: Any, value: Token) -> statements.RollCase:
        number = _whole(value, self._tok(value))
        return statements.RollCase(self._pos(meta), "value", number, number)

    # -- expressions
    def cond(self, meta: Any, test: ast.Node, then: ast.Node, otherwise: ast.Node) -> ast.Node:
        return ast.Cond(self._pos(meta), test, then, otherwise)

    def or_(self, meta: Any, a: ast.Node, b: ast.Node) -> ast.Node:
        return ast.BoolOp(self._pos(meta), "or", a, b)

    def and_(self, meta: Any, a: ast.Node, b: ast.Node) -> ast.Node:
        return ast.BoolOp(self._pos(meta), "and", a, b)

    def not_(self, meta: Any, a: ast.Node) -> ast.Node:
        return ast.Not(self._pos(meta), a)

    def compare(self, meta: Any, a: ast.Node, op: Token, b: ast.Node) -> ast.Node:
        return ast.Compare(self._tok(op), str(op), a, b)

    def member(self, meta: Any, a: ast.Node, b: ast.Node) -> ast.Node:
        return ast.Member(self._pos(meta), a, b)

    def binop(self, meta: Any, a: ast.Node, op: Token, b: ast.Node) -> ast.Node:
        return ast.BinOp(self._tok(op), str(op), a, b)

    def neg(self, meta: Any, a: ast.Node) -> ast.Node:
        if isinstance(a, ast.Literal) and a.type is INT:
            return ast.Literal(self._pos(meta), -a.value, INT)
        return ast.Neg(self._pos(meta), a)

    def attr(self, meta: Any, base: ast.Node, name: Token) -> ast.Node:
        return ast.Attr(self._tok(name), base, str(name))

    def call(self, meta: Any, name: Token, args: list[ast.Node] | None) -> ast.Node:
        return ast.Call(self._tok(name), str(name), args or [])

    def arguments(self, meta: Any, *args: ast.Node) -> list[ast.Node]:
        return list(args)

    def positional(self, meta: Any, expr: ast.Node, where: ast.Node | None) -> ast.Node:
        if where is None:
            return expr
        if not (isinstance(expr, ast.Member) and (name := ast.item_name(expr.item)) is not None):
            raise RulesetError.at(expr.pos, "'where' needs a selection that names its items: write "
                                  f"'{_item_name(expr, where)} in {_written(expr) or 'COLLECTION'} where ...'")
        return selections.Selection(expr.pos, name, expr.collection, where)

    def comprehension(self, meta: Any, value: ast.Node, name: Token, source: ast.Node, where: ast.Node | None) -> ast.Node:
        return selections.Selection(self._pos(meta), str(name), source, where, value)

    def for_clause(self, meta: Any, name: Token, source: ast.Node, where: ast.Node | None) -> tuple[str, ast.Node, ast.Node | None]:
        return str(name), source, where

    def comprehension_chain(self, meta: Any, value: ast.Node, name: Token, source: ast.Node, where: ast.Node | None,
                            *more: tuple[str, ast.Node, ast.Node | None]) -> ast.Node:
        return selections.chained(self._pos(meta), value, [(str(name), source, where), *more])

    def keyword(self, meta: Any, name: Token, value: ast.Node) -> ast.Node:
        return ast.Keyword(self._tok(name), str(name), value)

    # -- atoms
    def int_lit(self, meta: Any, tok: Token) -> ast.Node:
        return ast.Literal(self._tok(tok), _whole(tok, self._tok(tok)), INT)

    def str_lit(self, meta: Any, tok: Token) -> ast.Node:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an unknown escape such as \d stays as written
                value = python_ast.literal_eval(str(tok))
        except (SyntaxError, ValueError) as err:  # a malformed escape such as \N or \x
            reason = (getattr(err, "msg", None) or str(err)).rsplit(": ", 1)[-1]
            raise RulesetError.at(self._tok(tok), f"cannot read the text {tok}: {reason}") from None
        return ast.Literal(self._tok(tok), value, STR)

    def true_lit(self, meta: Any) -> ast.Node:
        return ast.Literal(self._pos(meta), True, BOOL)

    def false_lit(self, meta: Any) -> ast.Node:
        return ast.Literal(self._pos(meta), False, BOOL)

    def none_lit(self, meta: Any) -> ast.Node:
        return ast.Literal(self._pos(meta), None, NONE_T)

    def die_lit(self, meta: Any, tok: Token) -> ast.Node:
        return ast.Die(self._tok(tok), _sides(tok, self._tok(tok)), str(tok))

    def name(self, meta: Any, tok: Token) -> ast.Node:
        return ast.Name(self._tok(tok), str(tok))

    def tuple_lit(self, meta: Any, *items: ast.Node) -> ast.Node:
        return ast.TupleLit(self._pos(meta), list(items))

    def list_lit(self, meta: Any, *items: ast.Node | None) -> ast.Node:
        return ast.ListLit(self._pos(meta), [i for i in items if i is not None])


def _whole(digits: str, pos: SourcePos) -> int:
    """A whole number written in code, refused past the ``integer_digits`` limit before Python reads it.

    >>> _whole("0042", SourcePos("<code>", 1, 1))
    42
    """
    most = limits.current().integer_digits
    if len(digits.lstrip("0")) > most:
        shown = digits if len(digits) <= 40 else f"{digits[:20]}...{digits[-10:]}"
        raise RulesetError.at(pos, f"'{shown}' has more than {most} digits (limit integer_digits={most}; "
                                   "raise it with --limit integer_digits=N)")
    return int(digits)


def _sides(die: Token, pos: SourcePos) -> int:
    sides = _whole(str(die)[1:], pos)
    if not 1 <= sides <= 1000:
        raise RulesetError.at(pos, f"a die has 1 to 1000 sides, not {sides}")
    return sides


def _flatten(items: Any) -> list[ast.Node]:
    out: list[ast.Node] = []
    for item in items:
        if isinstance(item, list):
            out.extend(item)
        elif item is not None:
            out.append(item)
    return out
