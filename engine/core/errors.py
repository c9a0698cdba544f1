"""Errors that speak the designer's language.

Every problem in a ruleset, scenario or saved game is a :class:`Diagnostic`
with a :class:`SourcePos`; :class:`RulesetError` carries one or more of them.
Formatting shows ``file:line:col: message``, the offending line and a caret:

>>> pos = SourcePos("rules.yaml", 3, 6)
>>> print(Diagnostic(pos, "unknown option 'widht'", hint="did you mean 'width'?").format(["", "", "  a: widht"]))
rules.yaml:3:6: unknown option 'widht' (did you mean 'width'?)
      a: widht
         ^
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from engine.core.lookalike import lookalike, told_apart
from engine.core.showtext import cut, quoted_line

MESSAGE_LIMIT = 2000
"""At most this many characters of a message are printed (a long value quoted in it is cut)."""


@dataclass(frozen=True)
class SourcePos:
    """A 1-based line and column in a named file (or pseudo-file like ``<text>``)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        """``file:line:col``; a value given on the command line (``--set width``) is named by its option, a column
        past its start said in words.

        >>> str(SourcePos("r.yaml", 3, 5)), str(SourcePos("--set width", 1, 1)), str(SourcePos("--set width", 1, 3))
        ('r.yaml:3:5', '--set width', '--set width (column 3)')
        >>> str(SourcePos("--set sizes", 2, 4))
        '--set sizes (line 2, column 4)'
        """
        if self.file.startswith(("--", "sweep ", "set_options[")):  # a value given on a command line, or from Python
            if self.line != 1:
                return f"{self.file} (line {self.line}, column {self.col})"
            return self.file if self.col == 1 else f"{self.file} (column {self.col})"
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem, where it is, and optionally a hint such as "did you mean"."""

    pos: SourcePos | None
    message: str
    hint: str | None = None

    def headline(self) -> str:
        """``file:line:col: message (hint)``; a message or hint longer than ``MESSAGE_LIMIT`` is cut."""
        where = f"{self.pos}: " if self.pos else ""
        hint = f" ({cut(self.hint, MESSAGE_LIMIT)})" if self.hint else ""
        return f"{where}{cut(self.message, MESSAGE_LIMIT)}{hint}"

    def format(self, lines: Sequence[str] | None = None) -> str:
        """The headline, then the source line and a caret when ``lines`` are known."""
        out = self.headline()
        if self.pos is None:
            return out
        if lines is None:
            lines = source_lines(self.pos.file)
        if 1 <= self.pos.line <= len(lines):
            text, col = quoted_window(lines[self.pos.line - 1].rstrip("\n"), max(self.pos.col, 1))
            out += f"\n    {text}\n    {' ' * (col - 1)}^"
        return out

    def to_json(self) -> dict[str, object]:
        """The problem's file, line, column, message and hint, as ``--format json`` lists them."""
        return {
            "file": self.pos.file if self.pos else None,
            "line": self.pos.line if self.pos else None,
            "col": self.pos.col if self.pos else None,
            "message": self.message,
            "hint": self.hint,
        }


QUOTE_WIDTH = 100
"""At most this many characters of a source line are quoted under a diagnostic."""


def quoted_window(line: str, col: int, width: int = QUOTE_WIDTH) -> tuple[str, int]:
    """The window of a source ``line`` quoted above a diagnostic's caret at column ``col``, and the caret's column in
    it: ``quoted_line`` (escapes) then ``clip_line`` (the window), of the characters near ``col`` alone.  The whole
    line was escaped for each diagnostic on it: a scenario of 5,000 actions on one line cut at its commas (80 KB), a
    diagnostic each, took four minutes to report.

    >>> line = "x" * 300 + "\u202e" + "y" * 300
    >>> quoted_window(line, 301, 20) == clip_line(*quoted_line(line, 301), 20)
    True
    """
    # each character is quoted in one column or more: none further off than ``width`` is seen (of a caret past the line's
    # end, none before its last ``width``)
    start = max(0, min(col - 2, len(line)) - width)
    return clip_line(*quoted_line(line[start:col + width], col - start), width)


def clip_line(text: str, col: int, width: int = QUOTE_WIDTH) -> tuple[str, int]:
    """A window of a long line around column ``col`` (marked with '...'), and the column within it.

    >>> clip_line("x" * 300 + "BAD" + "y" * 300, 301, 20)
    ('...xxxxxxxxxxBADyyyyyyy...', 14)
    """
    if len(text) <= width:
        return text, col
    start = max(0, min(col - 1 - width // 2, len(text) - width))
    window = text[start : start + width]
    prefix = "..." if start > 0 else ""
    suffix = "..." if start + width < len(text) else ""
    return prefix + window + suffix, col - start + len(prefix)


class RulecraftError(Exception):
    """Root of every error Rulecraft reports to a user (never a traceback)."""


class RulesetError(RulecraftError):
    """A ruleset (or scenario, or saved game) is wrong; carries all diagnostics found.

    >>> err = RulesetError([Diagnostic(SourcePos("r.yaml", 1, 1), "boom")])
    >>> str(err)
    'r.yaml:1:1: boom'
    """

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic]) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(d.headline() for d in self.diagnostics))

    def __reduce__(self) -> tuple[type, tuple[list[Diagnostic]]]:
        return (type(self), (self.diagnostics,))  # so errors cross process boundaries

    @classmethod
    def at(cls, pos: SourcePos | None, message: str, hint: str | None = None) -> "RulesetError":
        """A single-diagnostic error."""
        return cls([Diagnostic(pos, message, hint)])

    def format(self) -> str:
        """All diagnostics with source lines and carets."""
        return "\n".join(d.format() for d in self.diagnostics)


class IllegalActionError(RulecraftError, ValueError):
    """An action that cannot be parsed or is not legal now; the state is unchanged.

    The message quotes what was typed or read, so it is cut at ``MESSAGE_LIMIT`` characters:

    >>> len(str(IllegalActionError(f"'{'x' * 10_000}' is not an action"))) < 2100
    True
    """

    def __init__(self, message: str) -> None:
        super().__init__(cut(message, MESSAGE_LIMIT))


class NoMove(Exception):
    """Raised by a step, or a ``choose``, that finds nothing to offer the first decision of a turn, in a ruleset
    whose ``end: {no_move: ...}`` says what then happens: the engine catches it where the step began (the effect
    that found nothing is undone) and ends the game or the turn (see ``State.no_move``).

    >>> NoMove("B").role
    'B'
    """

    def __init__(self, role: object) -> None:
        super().__init__(f"{role} has no legal move")
        self.role = role


class AgentError(RulecraftError):
    """An agent a user wrote failed to decide (its code raised, took too long, or chose what is not legal): a fault of
    the agent, not of the ruleset it played.

    >>> isinstance(AgentError("the agent my_bots.py:Bot failed in choose()"), RulecraftError)
    True
    """


class SetupError(RulecraftError, ValueError):
    """A game cannot be set up as asked (for example, a player count the ruleset does not allow)."""


class EffectRuntimeError(RulecraftError):
    """An effect failed while running (for example, it ran out of its step budget).

    ``public`` is what the seats of a game may read of it when the message (or its position, inside a
    component's own program) would tell them something hidden from some seat: see :func:`told_to_seats`.

    >>> str(EffectRuntimeError("division by zero", SourcePos("r.yaml", 4, 9)))
    'r.yaml:4:9: division by zero'
    """

    def __init__(self, message: str, pos: SourcePos | None = None, public: str | None = None) -> None:
        self.message = message
        self.pos = pos
        self.public = public
        super().__init__(f"{pos}: {message}" if pos else message)

    def __reduce__(self) -> tuple[type, tuple[str, SourcePos | None, str | None]]:
        return (type(self), (self.message, self.pos, self.public))


def told_to_seats(err: BaseException) -> str:
    """An error's text as the seats of a game may read it (a table's page, ``rulecraft play``): an effect that
    failed inside a hidden component's program, or naming one, is told without what the seats may not see.

    >>> told_to_seats(EffectRuntimeError("gem has no gold", public="a hidden component has no gold"))
    'a hidden component has no gold'
    >>> told_to_seats(ValueError("bad"))
    'bad'
    """
    public = getattr(err, "public", None) if isinstance(err, EffectRuntimeError) else None
    return public if public is not None else str(err)


class LoadedDieError(EffectRuntimeError):
    """A loaded die (a scenario's ``dice:``) that the die rolled cannot show; ``left`` loaded dice were left, it included.

    >>> err = LoadedDieError("the next loaded die shows 9, but a d6 is rolled", left=2)
    >>> str(err), err.left
    ('the next loaded die shows 9, but a d6 is rolled', 2)
    """

    def __init__(self, message: str, pos: SourcePos | None = None, left: int = 0, public: str | None = None) -> None:
        super().__init__(message, pos, public)
        self.left = left

    def __reduce__(self) -> tuple[type, tuple[str, SourcePos | None, int, str | None]]:  # type: ignore[override]
        return (type(self), (self.message, self.pos, self.left, self.public))


@dataclass
class DiagnosticSink:
    """Collects diagnostics so validation can report all errors, not just the first."""

    items: list[Diagnostic] = field(default_factory=list)
    misused: dict[str, list[tuple[SourcePos | None, str]]] | None = None  # option -> (use, kind wanted), when collected

    def error(self, pos: SourcePos | None, message: str, hint: str | None = None) -> None:
        """Keep a problem at ``pos``."""
        self.items.append(Diagnostic(pos, message, hint))

    def option_misused(self, name: str, pos: SourcePos | None, wanted: str) -> bool:
        """Keep a use of option ``name`` that wants another kind of value; False when uses are not collected.

        The compiler reports them once, at the option's value (see engine.compiling.names.report_misused_options).

        >>> sink = DiagnosticSink(misused={}); sink.option_misused("width", None, "a whole number"), sink.misused
        (True, {'width': [(None, 'a whole number')]})
        """
        if self.misused is None:
            return False
        self.misused.setdefault(name, []).append((pos, wanted))
        return True

    def extend(self, err: RulesetError) -> None:
        """Keep every problem ``err`` reports."""
        self.items.extend(err.diagnostics)

    def raise_if_any(self) -> None:
        """Raise a :class:`RulesetError` of the problems kept (each once, in file order), if there are any."""
        if self.items:
            unique = {(d.pos, d.message, d.hint): d for d in self.items}  # the same mistake once
            raise RulesetError(sorted(unique.values(), key=position_key))


def position_key(d: Diagnostic) -> tuple[str, int, int]:
    """The order problems are told in: by file, line and column (those without a place first)."""
    return (d.pos.file, d.pos.line, d.pos.col) if d.pos else ("", 0, 0)


def did_you_mean(name: str, candidates: Iterable[str], strict: bool = False) -> str | None:
    """A "did you mean" hint for a near-miss name, or None.

    ``strict`` (for names in code, where the candidates are many and short):
    a candidate also needs to be mostly the same letters, or at most two
    letters away from ``name``.

    >>> did_you_mean("widht", ["width", "height"])
    "did you mean 'width'?"
    >>> did_you_mean("shove", ["is_over"]), did_you_mean("shove", ["is_over"], strict=True)
    ("did you mean 'is_over'?", None)

    A name made of the same words as a candidate, one of them said another way
    (``begin`` for ``start``, ``finish`` for ``end``) or in another order, is
    that candidate before any name merely spelt alike:

    >>> did_you_mean("turn_begin", ["turn_end", "turn_start"]), did_you_mean("end_turn", ["turn_end", "turn_start"])
    ("did you mean 'turn_start'?", "did you mean 'turn_end'?")

    A name that is a candidate with an ending added (``Glowing`` for ``Glow``) is a near miss too:

    >>> did_you_mean("Glowing", ["Glow", "Gleam"], strict=True)
    "did you mean 'Glow'?"

    The same letters in other capitals come first of all:

    >>> did_you_mean("glow", ["flow", "Glow"], strict=True)
    "did you mean 'Glow'?"

    A name written with a letter of another script that looks like a Latin one (a Cyrillic 'а' for 'a') is told
    for what it is, since both read the same on the screen:

    >>> did_you_mean("а", ["A", "a"], strict=True)
    "did you mean 'a'? its 'а' is CYRILLIC SMALL LETTER A (U+0430), not the Latin 'a'"
    """
    import difflib

    pool = list(candidates)
    alike = lookalike(name, pool)
    if alike is not None:
        return f"did you mean '{alike}'? {told_apart(name, alike)}"
    same = _same_words(name, pool)
    if same is not None:
        return f"did you mean '{same}'?"
    cased = [c for c in pool if c.lower() == name.lower() and c != name]
    if len(cased) == 1:  # the same letters in other capitals before any spelt alike ('glow': 'Glow', not 'flow')
        return f"did you mean '{cased[0]}'?"
    close = difflib.get_close_matches(name, pool, n=3 if strict else 1, cutoff=0.6)
    if strict:
        close = [c for c in close if difflib.SequenceMatcher(None, name, c).ratio() >= 0.75 or _edits(name, c) <= 2][:1]
    if not close:
        close = sorted((c for c in pool if len(c) >= 4 and name.startswith(c) and name != c), key=len, reverse=True)[:1]
    return f"did you mean '{close[0]}'?" if close else None


SYNONYMS = {"begin": "start", "beginning": "start", "finish": "end"}
"""Words a name may say another way: each maps to the word it is read as, so ``turn_begin`` reads as ``turn_start``."""


def _words(name: str) -> tuple[str, ...]:
    """A name's words (split at ``_``, ``-`` and spaces, lower case, synonyms read as one), in order.

    >>> _words("Turn_Begin"), _words("finish-line")
    (('turn', 'start'), ('end', 'line'))
    """
    return tuple(SYNONYMS.get(w, w) for w in name.lower().replace("-", "_").replace(" ", "_").split("_") if w)


def _same_words(name: str, pool: list[str]) -> str | None:
    """The one candidate made of the same words as ``name`` (synonyms alike, in any order), else None.

    >>> _same_words("begin_turn", ["turn_start", "turn_end"]), _same_words("turn", ["turn_start"])
    ('turn_start', None)
    """
    words = _words(name)
    if len(words) < 2:  # one word: spelling decides (difflib below)
        return None
    found = [c for c in pool if c != name and sorted(_words(c)) == sorted(words)]
    return found[0] if len(found) == 1 else None


def _edits(a: str, b: str) -> int:
    """The letters to add, drop or change to turn ``a`` into ``b``.

    >>> _edits("shove", "move"), _edits("shove", "is_over")
    (2, 3)
    """
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


_line_cache: dict[str, list[str]] = {}


def source_lines(file: str) -> list[str]:
    """The lines of a source file (cached); empty when it cannot be read."""
    if file not in _line_cache:
        try:
            _line_cache[file] = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            _line_cache[file] = []
    return _line_cache[file]


def remember_source(file: str, text: str) -> None:
    """Register the text of a file as just read (or of a pseudo-file, e.g. a string) so carets quote it."""
    _line_cache[file] = text.splitlines()
