"""The budget of everything a ruleset can make the engine do: one named limit per resource.

A ruleset may come from a stranger, so loading, compiling and running it are
bounded: every limit has a name, a default generous enough for any
reasonable ruleset, and can be changed for one run (``rulecraft ... --limit
steps=1000000``).  An error caused by a limit names it, so the designer
knows which one to raise.

>>> current().steps
100000
>>> with using(parse_limits(["steps=500"])):
...     current().steps
500
>>> parse_limits(["stpes=5"])
Traceback (most recent call last):
ValueError: unknown limit 'stpes' (did you mean 'steps'?); limits: yaml_nodes, yaml_text, yaml_depth, includes, merged_nodes, variants, requires_depth, components, copies, counter_values, turns, call_depth, steps, game_steps, answers, turn_decisions, actions, condition_items, integer_digits, code_length, code_total, log_lines
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.core.errors import did_you_mean


@dataclass(frozen=True)
class Limits:
    """The limits of one run; see :data:`DESCRIPTIONS` for what each bounds."""

    yaml_nodes: int = 200_000
    yaml_text: int = 20_000_000
    yaml_depth: int = 200
    includes: int = 1_000
    merged_nodes: int = 2_000_000
    variants: int = 200
    requires_depth: int = 50
    components: int = 20_000
    copies: int = 10_000
    counter_values: int = 1_000_000
    turns: int = 10_000
    call_depth: int = 50
    steps: int = 100_000
    game_steps: int = 100_000_000
    answers: int = 500
    turn_decisions: int = 10_000
    actions: int = 100_000
    condition_items: int = 10_000_000
    integer_digits: int = 100
    code_length: int = 100_000
    code_total: int = 500_000
    log_lines: int = 200_000

    def __post_init__(self) -> None:
        """Python writes no whole number of more digits than its own limit (4,300 unless changed): a number the
        game reached past it could be neither logged, shown nor saved, so ``integer_digits`` stays within it.

        >>> Limits(integer_digits=5000)
        Traceback (most recent call last):
        ValueError: integer_digits=5000: at most 4300, the digits Python writes of a whole number (one of more could be neither shown, logged nor saved)
        """
        most = sys.get_int_max_str_digits()
        if most and self.integer_digits > most:
            raise ValueError(f"integer_digits={self.integer_digits}: at most {most}, the digits Python writes of a whole "
                             "number (one of more could be neither shown, logged nor saved)")

    @property
    def integer_bound(self) -> int:
        """The smallest whole number too large: ``10 ** integer_digits``."""
        return _bound(self.integer_digits)

    def too_large(self, value: int) -> bool:
        """Whether ``value`` has more digits than ``integer_digits`` allows.

        >>> Limits(integer_digits=3).too_large(999), Limits(integer_digits=3).too_large(-1000)
        (False, True)
        """
        bound = self.integer_bound
        return not -bound < value < bound


DESCRIPTIONS: dict[str, str] = {
    "yaml_nodes": "nodes that aliases and merge keys add to one YAML file, an alias counting its anchor's nodes again "
    "each time it is used (alias bombs); the nodes written out are bounded by the file's size",
    "yaml_text": "characters of text that aliases add to one YAML file, an aliased text counted again each time it is used",
    "yaml_depth": "levels of nesting in one YAML file",
    "includes": "files read to put one ruleset together (include and extends, each time a file is read)",
    "merged_nodes": "values merged while putting a ruleset's files, its base and its variants on top of each other",
    "variants": "variants one ruleset declares",
    "requires_depth": "how long a chain of variants requiring each other may be",
    "components": "components in all (the sum of every component's count)",
    "copies": "copies of one component (its count)",
    "counter_values": "values the counters, meters and statuses keep in all (one per owner and key: a counter per "
    "component of a kind of 20,000 keyed by that kind would keep 400,000,000)",
    "turns": "turns one game may last (its end's max_turns)",
    "call_depth": "how deeply the ruleset's own functions may call each other, and its procedures run inside each other",
    "steps": "steps of one run of a program or one test of a condition: each loop pass, "
    "each 100 cells and walls of a board a wall is built on or removed from, each call of a ruleset's function, each item a selection or an 'in' test looks at, each component a shuffle reorders or position() looks at, "
    "each path a chain pattern's search follows, each cell a move step's 'to' tests for a piece, each number numbers() lists, each cell between() lists, each item of each list combinations() makes and each piece on the board times_seen() reads (a pass or call running more than 200 syntax nodes of code spends one per 100)",
    "game_steps": "steps one game may spend in all, its actions, the turns that pass without a decision and its "
    "end's tests counted: a game whose every turn does nearly a whole budget's work (an end condition of 90,000 "
    "steps tested over 10,000 turns) stops here, in about half a minute, not after many minutes",
    "answers": "answers one run of an effect may be given (each choose a player answers, every pass of a loop of "
    "choices counted): a loop nobody has a reason to leave stops here, not after hours of a search bot replaying all its "
    "answers for every sample",
    "turn_decisions": "decisions of one turn in a game played decision after decision (simulate and validate's games, "
    "bench's playouts, the searches' random rollouts, a game at rulecraft play; each action taken before the turn "
    "passes): a step whose choices never run out (groups that form and clash again, the player asked which goes first "
    "each time) stops here, not after hours of one endless turn",
    "actions": "legal actions one decision may offer (each a step's placement, move or answer): a step offering more "
    "stops the game at its line, where the searches, the observation and the list of moves at rulecraft play would "
    "have worked out every one (a place step offering 2,500 pieces on 10,000 cells, 25 million)",
    "condition_items": "items nested selections may look at in one evaluation, as the compiler bounds them",
    "integer_digits": "digits of any whole number: in YAML, in --set, in code, in a die's sides, or reached by "
    "arithmetic; at most 4,300, the digits Python writes of a whole number",
    "code_length": "characters of one piece of effect-language code (a condition, a program, a function's body)",
    "code_total": "characters of effect-language code in one ruleset as compiled, every piece counted (its base's and the chosen variants' included)",
    "log_lines": "lines of one game's log (play, replays, the server's tables): past it, each turn's lines are left out and a line says so",
}
"""What each limit bounds, for ``docs/hardening.md`` and error messages."""

NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Limits))

_CURRENT: contextvars.ContextVar[Limits] = contextvars.ContextVar("limits", default=Limits())


def current() -> Limits:
    """The limits in force now (the defaults unless :func:`using` changed them)."""
    return _CURRENT.get()


@contextlib.contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """Make ``limits`` the ones in force for the ``with`` block."""
    token = _CURRENT.set(limits)
    try:
        yield limits
    finally:
        _CURRENT.reset(token)


def parse_limits(texts: Iterable[str], base: Limits | None = None) -> Limits:
    """``NAME=VALUE`` texts (``--limit``) on top of ``base`` (the limits in force); ValueError says what is wrong.

    >>> parse_limits(["steps=2_000"]).steps
    2000
    >>> parse_limits(["steps=lots"])
    Traceback (most recent call last):
    ValueError: --limit steps=lots: the value must be a whole number from 1 up
    >>> parse_limits(["steps=" + "9" * 19])
    Traceback (most recent call last):
    ValueError: --limit steps=9999999999999999999: the value has more than 18 digits
    >>> parse_limits(["integer_digits=20000"])
    Traceback (most recent call last):
    ValueError: --limit integer_digits=20000: at most 4300, the digits Python writes of a whole number (one of more could be neither shown, logged nor saved)
    """
    changes: dict[str, int] = {}
    for text in texts:
        name, equals, value = str(text).partition("=")
        name = name.strip()
        if not equals or not name:
            raise ValueError(f"'{text}' is not NAME=VALUE (for example steps=2000000)")
        if name not in NAMES:
            hint = did_you_mean(name, NAMES)
            raise ValueError(f"unknown limit '{name}'{f' ({hint})' if hint else ''}; limits: {', '.join(NAMES)}")
        digits = value.strip().replace("_", "").replace(",", "").lstrip("0") or "0"
        if not digits.isascii() or not digits.isdigit() or (len(digits) <= 18 and int(digits) < 1):
            raise ValueError(f"--limit {name}={value.strip()[:40]}: the value must be a whole number from 1 up")
        if len(digits) > 18:  # a whole number, but past any use: said so, not 'a whole number from 1 up'
            raise ValueError(f"--limit {name}={value.strip()[:40]}: the value has more than 18 digits")
        changes[name] = int(digits)
    try:
        return dataclasses.replace(base or current(), **changes)
    except ValueError as err:  # a value past what Python itself can do
        raise ValueError(f"--limit {err}") from None


def whole_key(key: object) -> int | None:
    """The whole number a key written in the digits 0-9 names (``1``, ``"12"``); None for any other key: ``'²'`` is a
    digit to ``str.isdigit`` but no number to ``int``, and more than ``integer_digits`` digits make no count.

    >>> whole_key(12), whole_key("12"), whole_key("²"), whole_key("9" * 5000), whole_key("-1")
    (12, 12, None, None, None)
    """
    text = str(key)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= current().integer_digits else None


def as_pairs(limits: Limits) -> tuple[tuple[str, int], ...]:
    """The limits that differ from the defaults, as ``(name, value)`` pairs (to hand to another process).

    >>> as_pairs(parse_limits(["steps=7"]))
    (('steps', 7),)
    """
    default = Limits()
    return tuple((n, getattr(limits, n)) for n in NAMES if getattr(limits, n) != getattr(default, n))


def exceeded(name: str, value: int | None = None) -> str:
    """The end of a message about a limit: which one, its value and how to change it.

    >>> exceeded("steps")
    '(limit steps=100,000; raise it with --limit steps=N)'
    """
    value = getattr(current(), name) if value is None else value
    return f"(limit {name}={value:,}; raise it with --limit {name}=N)"


_BOUNDS: dict[int, int] = {}


def _bound(digits: int) -> int:
    bound = _BOUNDS.get(digits)
    if bound is None:
        bound = _BOUNDS[digits] = 10 ** digits
    return bound
