"""Outcomes: when the game ends, who wins, the running score, the invariants, and a dry run of every setup.

::

    end: {when: count(c in deck) == 0, max_turns: 200}
    scoring:                          # rank the roles; points by place (or each its first key: 'points: key')
      players: [2, 3, 4]
      rank: r in roles
      by: [score(r)]                  # highest first; later keys break ties
      points: [3, 1, 0]
      to: r
    goals:                            # or: shared goals, for other player counts
      players: [1]
      any_of:
        full: {when: count(c in deck) == 0}
    running_score: score(me)          # a seat's score during play, for bots and reports
    invariants:
      never_negative: all(score(r) >= 0 for r in roles)

Each declared player count has exactly one outcome, ``scoring`` or ``goals``.

>>> from engine.compiling.builder import Builder
>>> from engine.compiling.seating import read_players
>>> from engine.core.yamlsource import load_yaml
>>> b = Builder(load_yaml("r.yaml", "players: [2, 3]\\n"))
>>> read_players(b); compile_outcomes(b)
>>> b.sink.items[0].message
"no 'scoring' or 'goals' for 2, 3 players"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from engine.blocks.outcome import Goals, Ranking
from engine.compiling.components import check_written_name
from engine.core import limits
from engine.core.errors import EffectRuntimeError, RulecraftError
from engine.core.showtext import cut
from engine.core.showtext import players as players_text
from engine.core.yamlsource import Mapping
from engine.lang.ast import Name, Neg, no_value
from engine.lang.program import Program
from engine.lang.scope import Scope
from engine.lang.types import INT

if TYPE_CHECKING:
    from engine.compiling.builder import Builder


NO_MOVE = ("loses", "draw", "passes")
"""What ``end: {no_move: ...}`` may say befalls a player with no legal move at the first decision of its turn."""


def compile_end(b: "Builder") -> None:
    """``end: {when: CONDITION, max_turns: N, stalled: BOOL, no_move: loses}``: when the game is over.

    ``no_move`` says what happens when the first decision of a turn has no legal action (the ``choose`` of a
    ``do`` step finds nothing, a ``move`` or ``place`` step has nothing, every action is refused by
    ``refuse_if_after``): the player ``loses``, the game is a ``draw``, or the player ``passes`` (its turn
    ends); ``when: false`` then says the game ends only so (or at ``max_turns``).

    ``stalled: true`` also ends the game once a whole round of turns went by
    without any decision (every player in turn could only pass); by default a
    game ends only by its ``when`` condition or the ``max_turns`` limit.
    """
    end = b.tree.get("end")
    if not isinstance(end, Mapping) or "when" not in end:
        b.error(b.pos(b.tree, "end"), "'end' needs 'when: CONDITION'")
        b.game.end_condition = Program(lambda s, e: True, 1)
        return
    b.unknown_keys(end, ("when", "max_turns", "stalled", "no_move"), "end")
    compiled, slots = b.expression(end["when"], "bool", pos=end.pos_of("when"))
    b.game.end_condition = Program(compiled.fn, slots, str(end["when"]), b.describe(end["when"]))
    if "no_move" in end:
        b.game.no_move = b.choice(end, "no_move", NO_MOVE, "passes")
    b.game.max_turns = b.int_setting(end, "max_turns", 1000)
    most = limits.current().turns
    if b.game.max_turns > most:  # every game that never meets its end plays this many turns: validate plays one
        b.error(b.pos(end, "max_turns"), f"a game lasts at most {most:,} turns, not {b.game.max_turns:,} "
                                         f"{limits.exceeded('turns')}")
        b.game.max_turns = most
    if b.game.max_turns == 0 and "max_turns" in end:  # it played one turn, and a save of that turn was refused
        b.error(b.pos(end, "max_turns"), "a game lasts at least 1 turn: 'max_turns' is 1 or more, not 0")
        b.game.max_turns = 1
    b.game.end_when_stalled = b.bool_setting(end, "stalled", False)


def _valued(fn: Any, missing: Callable[[], EffectRuntimeError]) -> Any:
    """``fn``, a number the ruleset's code gives (a ranking key, the running score), raising ``missing()`` where it
    gives none: a key of none (an attribute a component leaves out, ``if ... then none else 0``) stopped the game's
    end with a TypeError's traceback (a ranking compares and adds its keys), or, beside other keys, tied every item
    unseen; a running score of none stopped simulate, validate and the greedy bot likewise.

    Example: ``by: [c.cost]`` of a component without a cost is ``ruleset.yaml:5:8: c.cost has no value here
    (nothing is written for it), so a ranking key cannot use it``.
    """

    def valued(s: Any, env: list) -> Any:
        value = fn(s, env)
        if value is None:
            raise missing()
        return value

    return valued


def compile_outcomes(b: "Builder") -> None:
    """``scoring`` and ``goals``: the outcome for each player count (exactly one each)."""
    covered: set[int] = set()
    for key, make in (("scoring", _ranking), ("goals", _goals)):
        spec = b.tree.get(key)
        if spec is None:
            continue
        counts = tuple(spec.get("players") or b.game.player_counts)
        overlap = covered & set(counts)
        if overlap:
            b.error(b.pos(spec, "players"), f"player counts {sorted(overlap)} already have an outcome")
        covered |= set(counts)
        block = make(b, spec)
        if block is not None:
            b.game.outcomes.append((counts, block))
    missing = [c for c in b.game.player_counts if c not in covered]
    if missing:
        where = b.pos(b.tree, "players") if "players" in b.tree else b.tree.pos
        b.error(where, f"no 'scoring' or 'goals' for {players_text(missing)}", _cover_hint(b, missing))


def _cover_hint(b: "Builder", missing: list[int]) -> str:
    """How to give the uncovered player counts an outcome: the ``players`` lists there are, else a section.

    >>> from engine.compiling.builder import Builder
    >>> from engine.core.yamlsource import load_yaml
    >>> _cover_hint(Builder(load_yaml("r.yaml", "scoring: {players: [2, 3]}\\n")), [4, 5])
    "add 4, 5 to 'players' under 'scoring' (now [2, 3])"
    """
    lists = [f"'players' under {key!r} (now {list(b.tree[key]['players'])})" for key in ("scoring", "goals")
             if isinstance(b.tree.get(key), Mapping) and b.tree[key].get("players") is not None]
    counts = ", ".join(map(str, missing))
    return f"add {counts} to {' or '.join(lists)}" if lists else "write a 'scoring' section, or 'goals'"


def _ranking(b: "Builder", spec: Mapping) -> Ranking | None:
    b.unknown_keys(spec, ("players", "rank", "by", "points", "to", "winners", "nobody_wins"), "scoring")
    from engine.lang.defined import parse_selection
    from engine.lang.functions import as_selection

    node = parse_selection(b, spec.get("rank", ""), spec.pos_of("rank") if "rank" in spec else spec.pos)

    if node is None:
        return None
    scope = Scope(b.game.vocab, b.sink)
    scope.pure = True
    sel = as_selection(node)
    if sel.var == "_":  # a bare collection: 'by' has no name for the item it ranks
        source = sel.source.describe() if not isinstance(sel.source, Name) else sel.source.name
        b.error(node.pos, "'rank' gives no name to the items it ranks, so 'by' cannot score them",
                f"write 'rank: x in {source}', and 'by' scores each x")
        return None
    parts = sel.compile_parts(scope)
    item_scope = scope.child()
    item_scope.locals[sel.var] = (parts.slot, parts.item_type)
    by_key = spec.get("points") == "key" and "key" not in b.game.options  # each item scores its first key
    keys, texts = [], []
    for i, key in enumerate(spec.get("by") or []):
        k_node = b.parse(key, b.pos(spec["by"], i))
        if k_node is None:
            continue
        c = b.compile_node(k_node, item_scope)
        if not INT.accepts(c.type):
            b.error(k_node.pos, f"a ranking key must be a number, but '{k_node.describe()}' is {c.type}")
        scored = by_key and not keys  # `points: key` pays the first key as it is: its minus stays
        keys.append(_valued(c.fn, lambda node=k_node: no_value("a ranking key", ((node, None),), node.pos)))
        texts.append(_key_words(k_node) if isinstance(k_node, Neg) and not scored else b.describe(key))
    if by_key and not spec.get("by"):  # each item scores its first key: there must be one
        b.error(b.pos(spec, "by") if "by" in spec else spec.pos, "'points: key' pays each item its first 'by' key, "
                "but 'by' lists none", "write the key, like 'by: [score(r)]'")
    to_node = b.parse(spec.get("to", sel.var), b.pos(spec, "to"))
    owner: Any = lambda s, e: None  # noqa: E731
    if to_node is not None:
        to = b.compile_node(to_node, item_scope)
        role = b.game.vocab.data.get("role_type")
        if not INT.accepts(to.type) and (role is None or not role.accepts(to.type)):
            b.error(to_node.pos, f"'to' must be the role (or the seat number) that gets the points, but '{to_node.describe()}' is {to.type}")
        owner = to.fn
    written = spec.get("points")
    points = [] if by_key else b.setting(spec, "points", [], "the points paid by place (like [1, 0]), 'key'")
    if not isinstance(points, list) or not all(isinstance(p, int) for p in points):
        held = (f"the option '{written}' holds the text {points!r}: write it as a list, [{points}]"
                if isinstance(points, str) and isinstance(written, str) and written in b.game.options else None)
        b.error(b.pos(spec, "points"), "'points' must be a list of numbers (or an option holding one), or 'key'", held)
        points = []
    elif isinstance(written, str) and written not in b.game.options and not by_key:
        pass  # an unknown option, reported by b.setting
    elif not by_key and not points:
        named, first = spec.get("points"), _first_place_points(spec.get("players") or b.game.player_counts)
        hint = (f"the option '{named}' it names holds an empty list: give it the points paid by place ({first} lets the "
                "first-ranked win)") if isinstance(named, str) and named in b.game.options else _NO_POINTS_HINT.format(first)
        b.error(b.pos(spec, "points") if "points" in spec else spec.pos, _NO_POINTS, hint)
    first_ranked = spec.get("winners", "most-points") == "first-ranked"
    if points and not any(points) and not first_ranked:
        named, first = spec.get("points"), _first_place_points(spec.get("players") or b.game.player_counts)
        held = f"the option '{named}' holds {points}: " if isinstance(named, str) and named in b.game.options else ""
        b.error(b.pos(spec, "points"), f"{held}this ranking pays 0 points to every place, so nobody can ever lead: every game "
                "would end with all the seats sharing the win", f"pay the first place more ({first} lets the first-ranked "
                "win), or say 'winners: first-ranked' when the ranking itself decides who wins")
    chosen = spec.get("winners", "most-points")
    if chosen != "most-points" and any(b.game.teams.get(n) for n in b.game.player_counts):
        b.error(b.pos(spec, "winners"), f"'winners: {chosen}' is for seats playing alone: this ruleset has teams, "
                "whose seats win by their team's points", "leave 'winners' out")
    nobody, nobody_text, slots = _nobody_wins(b, spec)
    return Ranking(parts.items, parts.slot, tuple(keys), tuple(points), owner, max(scope.slots, slots, 1), tuple(texts),
                   by_key, sel.describe(), first_ranked, chosen == "together", nobody, nobody_text)


def _nobody_wins(b: "Builder", spec: Mapping) -> tuple[Any, str, int]:
    """``nobody_wins: CONDITION`` under ``scoring``: checked at the end, when it holds no seat wins (every accusation
    was wrong); the compiled condition, its words and its slots (None, "", 0 without one)."""
    if "nobody_wins" not in spec:
        return None, "", 0
    if any(b.game.teams.get(n) for n in b.game.player_counts):
        b.error(b.pos(spec, "nobody_wins"), "'nobody_wins' is for seats playing alone: this ruleset has teams, whose "
                "seats win by their team's points", "leave 'nobody_wins' out")
        return None, "", 0
    compiled, slots = b.expression(spec["nobody_wins"], "bool", pos=spec.pos_of("nobody_wins"))
    return compiled.fn, b.describe(spec["nobody_wins"]), slots


def _key_words(key: Neg) -> str:
    """A ranking key that is a number negated, in English: the item with less of it ranks first.

    ``-count(s in pouch(r))`` reads "the number of s in the pouch of r, the lower the better", not "minus (...)";
    words with a comma of their own keep their brackets: "(a if b, else c), the lower the better".
    """
    words = key.operand.describe()
    return f"({words}), the lower the better" if "," in words else f"{words}, the lower the better"


_NO_POINTS = "this ranking pays no points, so every game would end with all the seats sharing the win"
_NO_POINTS_HINT = ("add 'points', the points paid by place: {} lets the first-ranked win; "
                   "or 'points: key', each ranked item scoring its first 'by' key")


def _first_place_points(counts: Any) -> str:
    """Points by place paying the first of the most seats ``counts`` has alone (up to six places), as a hint writes them.

    >>> _first_place_points((2, 3)), _first_place_points([1])
    ('[1, 0, 0]', '[1]')
    """
    places = max((c for c in counts if isinstance(c, int)), default=2)
    return str([1] + [0] * (min(max(places, 1), 6) - 1))  # the places past the list score 0


def _goals(b: "Builder", spec: Mapping) -> Goals | None:
    b.unknown_keys(spec, ("players", "any_of"), "goals")
    names, tests = [], []
    slots = 1
    goals = spec.get("any_of") or Mapping(spec.pos)
    for name, goal in goals.items():
        if not isinstance(goal, Mapping) or "when" not in goal:
            b.error(goals.key_pos.get(name), f"goal '{name}' needs 'when: CONDITION'")
            continue
        compiled, n = b.expression(goal["when"], "bool", pos=goal.pos_of("when"))
        names.append(str(name))
        tests.append(compiled.fn)
        slots = max(slots, n)
    return Goals(tuple(names), tuple(tests), slots)


def compile_running_score(b: "Builder") -> None:
    """``running_score``: a seat's score during play (``me`` is the seat), for bots and reports."""
    text = b.tree.get("running_score")
    if text is None:
        return
    pos = b.pos(b.tree, "running_score")
    compiled, slots = b.expression(text, "int", bind={"me": INT}, pos=pos)
    words = b.describe(text)
    missing = lambda: EffectRuntimeError(f"the running score ({cut(words, 80)}) has no value here (nothing is "  # noqa: E731
                                         "written for it): it is a number for every seat, at every turn", pos)
    b.game.running_score = Program(_valued(compiled.fn, missing), slots, str(text), words)


def compile_invariants(b: "Builder") -> None:
    """``invariants``: named conditions that must hold after every action (checked by tests and tools)."""
    invariants = b.tree.get("invariants") or Mapping(b.tree.pos)
    for name, text in invariants.items():
        check_written_name(b, str(name), invariants.key_pos.get(name), "invariant name", "in one line of check's report",
                           line_breaks_only=True)  # its other control characters are shown escaped
        compiled, slots = b.expression(text, "bool", pos=invariants.pos_of(name))
        b.game.invariants[str(name)] = Program(compiled.fn, slots, str(text), b.describe(text))


def dry_run_setups(b: "Builder") -> None:
    """Counts are consistent: set up a game for every player count and report what breaks (once for the counts
    that break the same way, at the same place: 'setting up 2 or 3 players fails: ...'; 'a game of 2 players, set
    up, fails before anyone decides' when the setup ran and what followed it before the first decision broke (a
    turn's division by zero was told as the setup's): each game is set up, then begun, so a setup that fails runs
    once.  A count with no seat ``first_seat`` is not tried: such a game is refused when it is set up."""
    failed: dict[tuple[Any, str, str], list[int]] = {}
    for count in [n for n in b.game.player_counts if b.game.first_seat <= n]:
        stage = "setting up {} fails"
        try:
            state = b.game.new_state(players=count, seed=0, begin=False)
            stage = "a game of {}, set up, fails before anyone decides"  # the setup ran: what follows it broke
            state.advance()
        except EffectRuntimeError as err:
            failed.setdefault((err.pos or b.pos(b.tree, "setup"), err.message, stage), []).append(count)
        except RulecraftError as err:
            failed.setdefault((b.pos(b.tree, "setup"), str(err), stage), []).append(count)
    for (pos, message, stage), counts in failed.items():
        b.error(pos, f"{stage.format(_players(counts))}: {message}")


def _players(counts: list[int]) -> str:
    """``[2]`` -> '2 players', ``[2, 3]`` -> '2 or 3 players'.

    >>> _players([1]), _players([2, 3, 4])
    ('1 player', '2, 3 or 4 players')
    """
    shown = ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}" if len(counts) > 1 else str(counts[0])
    return f"{shown} player" if counts == [1] else f"{shown} players"
