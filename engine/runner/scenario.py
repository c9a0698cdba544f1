"""Scenario files: a designer's unit tests for rules.

A scenario names a ruleset (variant, players, seed), may set up a position
directly in the ruleset's own vocabulary (or choose the seats the ruleset's
own setup deals), lists actions in text form with checkpoints between them,
and states expectations as effect-language conditions, log lines and
offered actions — or an error an action must raise.  Example::

    ruleset: ..                    # a built-in name, or a path from the scenario's folder
    players: 2
    position:
      seats: {A: 1, B: 2}          # roles and their seats; turn order as listed
      board:
        "1,0": B/A as B            # a component (and the face it shows) per cell
        "2,0": [A/B, B/A]          # a stack, from the top down (boards with stacking)
      zones:
        hand(A): [A/B]
      rest: supply                 # where unlisted components go (e.g. removed)
      groups: {"0,0": marker-A}    # pattern groups already formed: anchor -> marker
      counters: {gold(A): 3}       # counters other than their start values
      effect: |                    # then a program run on the position (statuses, ...)
        gold(A) += 2
    dice: [3, 5]                   # loaded dice: the next rolls, whatever die
    actions:
      - action: place A/B as A at 9,9
        expect_error: does not touch     # refused here, the state unchanged
      - place A/B as A at 0,0
      - expect: [current_role == A]      # a checkpoint
        expect_offered:                  # exactly these decisions now
          - clash 1,0
          - clash 2,0
      - clash 1,0
    expect:
      - at(1, 0).value == A
    expect_log:
      - flipped from B to A

Instead of ``position``, ``seats: {A: 2, B: 1}`` runs the ruleset's setup
with that deal of the roles.

``rulecraft check`` runs them; so does pytest (tests/test_scenarios.py).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.blocks.counters import CounterSpec, initial_values, key_parts, owner_text
from engine.blocks.keyed_counters import keys_text
from engine.compiling.loading import parse_variants
from engine.compiling.schema import check_schema, ruleset_schema, schema_text
from engine.core.confine import FileRefused, check_name_inside, check_named_ruleset, outside, roots_for
from engine.core.errors import (Diagnostic, EffectRuntimeError, IllegalActionError, LoadedDieError, RulecraftError,
                                RulesetError, SetupError, SourcePos, did_you_mean)
from engine.core.other_names import as_ids
from engine.core.paths import RULESET_FILE, builtin_names, files_below, find_ruleset
from engine.core.showtext import cut, players as players_text
from engine.core.slices import NO_CHANCE, Chance
from engine.core.set_options import set_outside
from engine.core.yamlsource import Mapping, Sequence, Text, load_yaml, plain, yaml_text
from engine.lang.program import Program
from engine.lang.scope import Scope
from engine.model.game import Game
from engine.model.savefile import comparable
from engine.model.state import State
from engine.runner.expectations import compile_expectation, explain, waiting_for
from engine.runner.shared_games import compiled
from engine.runner.positions import (Listed, board_cell, change_setup, list_once, read_cell, read_piece,
                                     read_zone)


@dataclass
class ScenarioResult:
    """The outcome of running one scenario."""

    name: str
    path: str
    failures: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when no expectation of the scenario failed."""
        return not self.failures


@dataclass
class Scenario:
    """A loaded scenario file, with its compiled game."""

    name: str
    path: Path
    doc: Mapping
    game: Game


def _ruleset_above(path: Path) -> str | None:
    """The hint for a scenario whose ruleset is not found, when a ruleset is in the folder above its own."""
    if (path.parent.parent / RULESET_FILE).is_file():
        return "a path is read from the scenario's folder: the ruleset in the folder above is 'ruleset: ..'"
    return None


def load_scenario(path: str | Path) -> Scenario:
    """Load and check a scenario file (schema, ruleset, position names); raises RulesetError."""
    path = Path(path)
    doc = load_yaml(path)
    if not isinstance(doc, Mapping):
        raise RulesetError.at(SourcePos(str(path), 1, 1), "a scenario file is a mapping with 'ruleset:'")
    if "ruleset" not in doc and (keys := ruleset_keys(doc)):
        raise RulesetError.at(
            doc.key_pos.get(keys[0]) or SourcePos(str(path), 1, 1),
            f"this is a ruleset or a file one includes (it has '{keys[0]}:'), not a scenario file (it has no 'ruleset:')",
            "scenario files say 'ruleset:' and the actions to play: give the ruleset's folder to run the scenarios "
            "in it, 'rulecraft check --invariants RULESET' to play random games checking its invariants, "
            "or 'rulecraft validate RULESET' to check the ruleset itself",
        )
    check_schema(doc, "scenario")
    named = str(doc["ruleset"])
    try:
        check_name_inside(named, path.parent, "the scenario's ruleset")  # a path outside is refused before it is looked at
        ruleset = find_ruleset(named, relative_to=path.parent)
    except FileRefused as err:
        raise RulesetError.at(doc.pos_of("ruleset"), str(err)) from None
    except RulesetError as err:
        found = err.diagnostics[0]
        raise RulesetError.at(doc.pos_of("ruleset"), found.message, found.hint or _ruleset_above(path)) from None
    except OSError as err:  # a name too long for the file system
        raise RulesetError.at(doc.pos_of("ruleset"), f"the scenario's ruleset '{cut(named, 200)}' cannot be read: "
                                                      f"{err.strerror}") from None
    if named not in builtin_names():
        try:
            check_named_ruleset(ruleset, path.parent, "the scenario's ruleset", named)
        except FileRefused as err:
            raise RulesetError.at(doc.pos_of("ruleset"), str(err)) from None
    game = _load_with_options(ruleset, doc)
    players = doc.get("players")
    if players is not None and players not in game.player_counts:
        allowed = ", ".join(map(str, game.player_counts))
        raise RulesetError.at(doc.pos_of("players"), f"{game.name} is played by {allowed} players, not {players}")
    return Scenario(str(doc.get("name") or path.stem), path, doc, game)


def ruleset_keys(doc: Mapping) -> list[str]:
    """The top-level keys of ``doc`` that a ruleset (or a file it includes) has and a scenario file never has.

    >>> ruleset_keys(load_yaml("a.yaml", "name: x\\nplayers: 2\\nturn: []\\nextends: y\\n"))
    ['turn', 'extends']
    >>> ruleset_keys(load_yaml("scenario.yaml", "name: x\\nplayers: 2\\nactions: []\\n"))
    []
    """
    ruleset = ruleset_schema()["properties"]
    scenario = json.loads(schema_text("scenario"))["properties"]
    return [key for key in map(str, doc) if key.rstrip("+-") in ruleset and key.rstrip("+-") not in scenario]


def _load_with_options(ruleset: Path, doc: Mapping) -> Game:
    """The scenario's game: its ruleset with its variants and the options its ``set:`` sets (as ``--set`` does);
    a wrong option name or value is reported at that name in the scenario file, an unknown variant at its
    ``variant:``."""
    chosen = doc.get("set")
    options = {str(name): yaml_text(plain(value)) for name, value in chosen.items()} if isinstance(chosen, Mapping) else {}
    try:
        variants = parse_variants(doc.get("variant"))
    except RulesetError as err:  # an empty or repeated name: at the scenario's variant
        raise RulesetError([replace(d, pos=doc.pos_of("variant")) for d in err.diagnostics]) from None
    try:
        return compiled(ruleset, variants, options, {name: SET_BY for name in options})
    except RulesetError as err:
        unknown = next((d for d in err.diagnostics if d.pos is None and d.message.startswith("unknown variant")), None)
        if unknown is not None and "variant" in doc:  # named by the scenario, not by a file of the ruleset
            raise RulesetError.at(doc.pos_of("variant"), unknown.message, unknown.hint) from None
        if not isinstance(chosen, Mapping):
            raise
        for d in err.diagnostics:
            if d.pos is not None and set_outside(d.pos.file):  # a value of the wrong kind: at the value
                named = d.pos.file.removeprefix(f"{SET_BY} ")
                raise RulesetError.at(chosen.pos_of(named) if named in chosen else doc.pos_of("set"), d.message,
                                      d.hint) from None
            named = next((name for name in chosen if d.pos is None and d.message.startswith(f"{SET_BY} {name}=")), None)
            if named is not None:  # no such option: at its name; a value of the wrong kind: at the value
                text = d.message.removeprefix(f"{SET_BY} {named}={options[named]}: ")
                at = chosen.key_pos.get(named) if text.startswith("no option") else chosen.pos_of(named)
                raise RulesetError.at(at, text, d.hint) from None
        raise


SET_BY = "--set in the scenario's set:"
"""How the options a scenario sets are named while its ruleset loads (an option set from outside the files)."""


def scenario_files(paths: Iterable[Path]) -> list[Path]:
    """The scenario files among ``paths``: files as given; in folders (searched below), the ``*.yaml``
    files with a top-level ``ruleset:`` key, or that cannot be read (so ``check`` reports why).  A file in a
    folder that is a symbolic link leading out of its places (the folder, the built-in rulesets, the allowed
    folders) is not read: a stranger's folder cannot have its scenarios quote a file elsewhere.

    ``scenario_files([Path("rulesets/my-game")])`` finds ``scenarios/*.yaml`` and skips
    ``ruleset.yaml`` and the files it includes.
    """
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            found.append(path)
            continue
        roots = roots_for(path)
        for file in files_below(path, "*.yaml"):
            try:
                if outside(file, roots) is not None:
                    continue
            except (OSError, ValueError):  # links in a loop: check says so
                found.append(file)
                continue
            try:
                doc = load_yaml(file)
            except RulesetError:
                found.append(file)
                continue
            if isinstance(doc, Mapping) and "ruleset" in doc:
                found.append(file)
    return found


def validate_scenario(path: Path) -> list[Diagnostic]:
    """Diagnostics for a scenario file without running its actions."""
    found: list[Diagnostic] = []
    try:
        sc = load_scenario(path)
        for spec in [sc.doc, *(item for item in sc.doc.get("actions") or [] if isinstance(item, Mapping))]:
            for text in spec.get("expect") or []:
                try:
                    compile_expectation(sc.game, text)
                except RulesetError as err:  # every bad expectation is reported, not only the first
                    found += err.diagnostics
        _start(sc)
    except RulesetError as err:
        return found + err.diagnostics
    except LoadedDieError as err:
        return found + _at_the_die(sc, err).diagnostics
    except RulecraftError as err:
        return found + [Diagnostic(SourcePos(str(path), 1, 1), str(err))]
    return found


def run_scenario(path: str | Path) -> ScenarioResult:
    """Run a scenario file; problems in the file itself become failures too."""
    result = ScenarioResult(Path(path).stem, str(path))
    try:
        sc = load_scenario(path)
        result.name = sc.name
        _run(sc, result)
    except RulesetError as err:
        result.failures.append(err.format())
    except LoadedDieError as err:
        result.failures.append(_at_the_die(sc, err).format())
    except RulecraftError as err:
        result.failures.append(str(err))
    return result


def _at_the_die(sc: Scenario, err: LoadedDieError) -> RulesetError:
    """The error of a loaded die the game cannot roll, at that die in the scenario's ``dice:``."""
    dice = sc.doc.get("dice")
    where = dice.pos_of(len(dice) - err.left) if isinstance(dice, Sequence) else sc.doc.pos_of("dice")
    return RulesetError.at(where, err.message)


def _start(sc: Scenario) -> State:
    """The state the scenario's actions start from: its written position, or the ruleset's setup."""
    doc = sc.doc
    if "position" in doc:
        if "seats" in doc:
            raise RulesetError.at(doc.key_pos.get("seats"), "a written position has its own seats: write them under 'position'")
        return set_up(sc.game, doc, doc["position"])
    players = int(doc.get("players", sc.game.player_counts[0]))
    seats = None
    if "seats" in doc:
        seats = _real_seats(sc.game, doc["seats"], players)
    dice = tuple(int(d) for d in doc.get("dice") or ())
    try:
        return sc.game.new_state(players=players, seed=int(doc.get("seed", 0)), record=True, seats=seats, dice=dice)
    except SetupError as err:
        raise RulesetError.at(doc.pos_of("seats"), str(err)) from None


def _real_seats(game: Game, seats: Mapping, players: int) -> dict[str, int]:
    """``seats: {North: 2, South: 1}`` for the ruleset's own setup: role -> seat (0 for absent)."""
    assert game.roles is not None
    roles = game.roles.values
    chosen: dict[str, int] = {}
    for role, seat in seats.items():
        if role not in roles:
            raise RulesetError.at(seats.key_pos.get(role), f"unknown role '{role}'", did_you_mean(role, roles))
        chosen[role] = 0 if seat in ("absent", None) else int(seat)
    return chosen


def _run(sc: Scenario, result: ScenarioResult) -> None:
    doc = sc.doc
    state = _start(sc)
    steps = list(doc.get("actions") or [])
    last = max((i for i, item in enumerate(steps) if not isinstance(item, Mapping) or "action" in item), default=-1)
    for i, item in enumerate(steps):
        spec = item if isinstance(item, Mapping) else None
        action = item if spec is None else spec.get("action")
        refusal = spec.get("expect_error") if spec is not None else None
        if refusal is None and i == last:
            refusal = doc.get("expect_error")  # the file's own: for its last action
        if action is not None and not _act(state, steps, i, action, refusal, result):
            result.log = list(state.log or [])
            if unchecked := _unchecked(steps[i + 1:], doc):
                result.failures[-1] += f"\n    the run stopped here; not checked: {unchecked}"
            return
        if spec is not None:
            _check(sc.game, state, spec, result)
    result.log = list(state.log or [])
    _check(sc.game, state, doc, result)


EXPECTATION_KEYS = ("expect", "expect_log", "expect_offered", "expect_offered_include", "expect_refused")
"""The keys of a scenario file, or of a checkpoint, that state expectations."""


def _unchecked(later: list[Any], doc: Mapping) -> str:
    """What a run stopped by an action leaves unchecked: the steps after it, and the file's own expectations.

    >>> _unchecked(["place X at 0,0", {"expect": ["true"]}], {"expect": ["true"], "expect_log": ["X"]})
    'the 2 steps after it, the expectations at the end (expect, expect_log)'
    >>> _unchecked(["place X at 0,0"], {})
    'the step after it'
    >>> _unchecked([], {})
    ''
    """
    parts = [f"the {len(later)} steps after it" if len(later) > 1 else "the step after it"] if later else []
    ends = [key for key in EXPECTATION_KEYS if doc.get(key)]
    if ends:
        parts.append(f"the expectations at the end ({', '.join(ends)})")
    return ", ".join(parts)


UNASKED = ("\n    a question with a single option is answered without asking (unless always_ask = true), and so is not "
           "written in a scenario: if this action answered one, leave it out")
"""Said under an answer refused as answering no question: the usual cause is an answer written for a forced choice."""


def _verb_not_offered(state: State, text: str) -> str:
    """Said under a refused action whose first word starts none of the actions offered now: often the action was
    the only one of its kind and the game played it by itself (a single neighbour to clash with, say).

    >>> class Offered:
    ...     is_terminal = False
    ...     def legal_actions(self): return type("A", (), {"texts": lambda self: ["place A at 0,0", "pass"]})()
    >>> "no action offered now starts with 'clash'" in _verb_not_offered(Offered(), "clash 0,0")
    True
    >>> _verb_not_offered(Offered(), "place B at 1,0")
    ''
    """
    words = text.split()
    if state.is_terminal or not words:
        return ""
    verbs = {t.split()[0] for t in state.legal_actions().texts() if t.split()}
    if not verbs or words[0] in verbs:
        return ""
    return (f"\n    no action offered now starts with '{words[0]}': if the game took the only one by itself, leave it"
            " out (a decision with a single option is played without asking, unless always_ask = true)")


def _act(state: State, steps: list[Any], i: int, text: Any, refusal: Any, result: ScenarioResult) -> bool:
    """Play one action, or see it refused as expected (with the state unchanged); False when the run must stop."""
    before = comparable(state)
    quoted = cut(str(text))  # a long action is quoted cut, as the refusal quotes it
    try:
        state.apply(str(text))
    except IllegalActionError as err:
        if refusal is None:
            result.failures.append(f"{_where(steps, i)}: action '{quoted}' was refused: {err}\n    {waiting_for(state)}"
                                   + (UNASKED if "does not answer the question" in str(err) else _verb_not_offered(state, quoted)))
            return False
        if str(refusal).lower() not in str(err).lower():
            result.failures.append(f"{_where(steps, i)}: expected an error containing '{cut(str(refusal))}', got: {err}")
        if comparable(state) != before:
            result.failures.append(f"{_where(steps, i)}: the refused action changed the state")
            return False
        return True
    except LoadedDieError:
        raise  # reported at the die (see _at_the_die)
    except EffectRuntimeError as err:  # the ruleset's code failed: say on which action of the file
        result.failures.append(f"{_where(steps, i)}: the ruleset failed while playing '{quoted}': {err}")
        return False
    if refusal is not None:
        result.failures.append(f"{_where(steps, i)}: expected '{quoted}' to fail with '{cut(str(refusal))}', but it was "
                               "accepted")
        return False
    return True


def other_names_quoted(game: Game, text: str) -> list[str]:
    """A note for each quoted text of the expectation ``text`` that is a component's other name (``also:``): code
    compares ids, so ``c.id == "*"`` is false for the card ``star`` that actions and positions may call ``*``.

    >>> from types import SimpleNamespace
    >>> other_names_quoted(SimpleNamespace(other_names={"*": "star"}), 'count(c in hand(A) where c.id == "*") == 1')
    ['note: "*" is another name of star (also:), for actions and positions; code compares ids: write "star"']
    """
    quoted = re.findall(r'"([^"]*)"|\'([^\']*)\'', text)
    names = dict.fromkeys(a or b for a, b in quoted if (a or b) in game.other_names)
    return [f'note: "{name}" is another name of {game.other_names[name]} (also:), for actions and positions; code '
            f'compares ids: write "{game.other_names[name]}"' for name in names]


def log_near(log: list[str], wanted: str, tail: int = 12) -> str:
    """What a log not mentioning ``wanted`` held: its last ``tail`` entries, and before them the lines most like it
    from earlier in the game (a line whose words differ a little from those expected, out of sight above the tail).

    >>> print(log_near(["row 1: a beats b", "A takes the lot", "row 3: c beats d"], "row 1: a loses to b", tail=1))
    the lines most like it, earlier in the game:
        row 1: a beats b
      the log's last lines:
        row 3: c beats d
    >>> log_near([], "x")
    'the log is empty'
    """
    lines = [line for entry in log for line in entry.split("\n")]  # an entry may span lines (the scores)
    shown = [line for entry in log[-tail:] for line in entry.split("\n")]
    if not shown:
        return "the log is empty"
    earlier = lines[:len(lines) - len(shown)]
    near = difflib.get_close_matches(wanted, earlier, n=3, cutoff=0.6)
    if not near:
        return "the log was:\n    " + "\n    ".join(shown)
    return ("the lines most like it, earlier in the game:\n    " + "\n    ".join(near)
            + "\n  the log's last lines:\n    " + "\n    ".join(shown))


def _check(game: Game, state: State, spec: Mapping, result: ScenarioResult) -> None:
    """The expectations of ``spec`` (the file, or one of its checkpoints) against ``state``."""
    for text in spec.get("expect_refused") or []:
        action = game.cell_names.typed(as_ids(str(text), game.other_names))
        if why := _refused(state, action):
            result.failures.append(f"{_pos(text)}: expected '{cut(str(text))}' to be refused now, but {why}\n    "
                                   + waiting_for(state))
    for text in spec.get("expect") or []:
        expectation = compile_expectation(game, text)
        if not expectation.holds(state):
            try:
                found = explain(game, state, expectation.node)
            except RecursionError:
                found = ["false (it nests too deeply to show its parts)"]
            except RulecraftError as err:  # a part that only the whole guards (x != none and x.p == 1): say so
                found = [f"false (a part of it cannot be shown: {err})"]
            result.failures.append("\n    ".join([f"{_pos(text)}: expected {text}", f"in words: {expectation.node.describe()}",
                                                 f"found: {found[0]}", *found[1:], *other_names_quoted(game, str(text)),
                                                 waiting_for(state)]))
    log = list(state.log or [])
    for wanted in spec.get("expect_log") or []:
        if not any(str(wanted) in line for line in log):
            result.failures.append(f"{_pos(wanted)}: expected the log to mention '{cut(str(wanted))}'; "
                                   + log_near(log, str(wanted)))
    for key, exact in (("expect_offered", True), ("expect_offered_include", False)):
        if spec.get(key) is None:
            continue
        offered = state.legal_actions().texts()
        wanted = [game.cell_names.typed(as_ids(str(text), game.other_names))  # x,y of a board naming its cells: its
                  for text in spec[key]]                                     # name; a component's other name: its id
        missing = [text for text in wanted if text not in offered]
        extra = [text for text in offered if text not in wanted] if exact else []
        if missing or extra:
            problems = ([f"not offered: {', '.join(map(cut, missing))}"] if missing else []) + ([f"offered too: {', '.join(extra)}"] if extra else [])
            what = "exactly" if exact else "at least"
            result.failures.append("\n    ".join([f"{_pos_of(spec, key)}: expected {what} these actions to be offered",
                                                 *problems, waiting_for(state)]))


NOT_A_RULE = ("there is no component",)
"""Refusals that name a typing slip rather than a rule: an ``expect_refused`` action refused so names nothing the game
has, so its refusal proves nothing about the rules."""


def _refused(state: State, text: str) -> str:
    """Why ``expect_refused``'s action ``text`` fails: '' when it is refused now by a rule; it is tried on a copy.

    Example: ``_refused(s, "place PIECE at 9,9")`` is ``''`` where 9,9 is off the board, ``'it was accepted'``
    where the placement is legal, and names the slip where no component is called ``PIECE``
    (``tests/test_scenario_format.py`` plays all three).
    """
    try:
        state.clone().apply(text)
    except IllegalActionError as err:
        slip = any(words in str(err) for words in NOT_A_RULE)
        return f"it was refused only as naming nothing the game has: {err}" if slip else ""
    return "it was accepted"


def _where(actions: list[Any], i: int) -> str:
    item = actions[i]
    pos = str(item.pos_of("action")) if isinstance(item, Mapping) else _pos(item)
    return f"{pos}: action {i + 1}"


def _pos(node: Any) -> str:
    return str(node.pos) if isinstance(node, Text) else "scenario"


def _pos_of(spec: Mapping, key: str) -> str:
    pos = spec.key_pos.get(key) or spec.pos
    return str(pos) if pos is not None else "scenario"


# ---------------------------------------------------------------- positions


def set_up(game: Game, doc: Mapping, position: Mapping) -> State:
    """A state with the position written in the scenario (seats, board, zones, turn); with ``from_setup: true``,
    the state the ruleset's setup leaves, changed as the position says."""
    if position.get("from_setup"):
        return _from_setup(game, doc, position)
    players = int(doc.get("players", game.player_counts[0]))
    dealt = game.new_state(players=players, seed=int(doc.get("seed", 0)), record=True)
    # the seats, the turn and the generator as the seed deals them, on an empty table; not the question the
    # setup's first turn stopped at (a choice among the pieces the setup dealt), which the position's own turn asks
    s = State(game, players, positions=dealt.positions, seat_of=dealt.seat_of, order=dealt.order, turn=dealt.turn,
              turn_number=dealt.turn_number, step=dealt.step, counters=dealt.counters, rng=dealt.rng,
              budget=dealt.budget, log=[], history=[])
    if "seats" in position:
        _seats(game, s, position["seats"], players)
    listed: Listed = {}  # each component listed so far, and where
    board = position.get("board") or Mapping(position.pos)
    for cell_text in board:
        where = board.key_pos.get(cell_text)
        if read_cell(cell_text, where, game) in s.grid:
            raise RulesetError.at(where, f"cell {cell_text} is listed twice")
        cell, stack = board_cell(game, s, board, cell_text)
        pieces = board[cell_text]
        for i, piece in reversed(list(enumerate(stack))):
            piece_pos = pieces.pos_of(i) if isinstance(pieces, Sequence) else board.pos_of(cell_text)
            cid, face = read_piece(game, piece, piece_pos, s)
            list_once(game, listed, cid, piece_pos)
            s.place(cid, cell, face)
    pool = 0  # where unlisted components stay, and where listed identical copies are taken from
    if "rest" in position:
        pool = read_zone(game, str(position["rest"]), position.pos_of("rest"))
        for cid in list(s.zones[0]):
            s.move(cid, pool)
    zones = position.get("zones") or Mapping(position.pos)
    for zone_text, items in zones.items():
        zone = read_zone(game, zone_text, zones.key_pos.get(zone_text))
        if zone == game.board_zone:
            raise RulesetError.at(zones.key_pos.get(zone_text), "put pieces on the board under 'board:' with their cells")
        for i, item in enumerate(items or []):
            cid, face = read_piece(game, item, items.pos_of(i), s, pool)
            list_once(game, listed, cid, items.pos_of(i))
            s.move(cid, zone)
            s.show(cid, face)  # what the state keeps by face follows
    _groups(game, s, position, listed, pool)
    s.turn = 0  # the first role in turn order, unless the position says whose turn it is
    s.counters = initial_values(s, game.counters)
    s.turn_number = 1
    return _begin(game, doc, position, s)


def _from_setup(game: Game, doc: Mapping, position: Mapping) -> State:
    """The state the ruleset's setup leaves (the scenario's seed, players and the position's seats), changed as the
    position lists; its counters, turn and turn number are the setup's but for those it gives."""
    players = int(doc.get("players", game.player_counts[0]))
    seats = _real_seats(game, position["seats"], players) if "seats" in position else None
    try:
        s = game.new_state(players=players, seed=int(doc.get("seed", 0)), record=True, seats=seats, begin=False)
    except SetupError as err:
        raise RulesetError.at(position.pos_of("seats"), str(err)) from None
    listed: Listed = {}
    pool = change_setup(game, s, position, listed)
    _groups(game, s, position, listed, pool)
    return _begin(game, doc, position, s)


def _groups(game: Game, s: State, position: Mapping, listed: Listed, pool: int) -> None:
    """The pattern groups a position lists as formed: anchor cell -> its marker."""
    groups = position.get("groups") or Mapping(position.pos)
    former = next((step for step in game.steps if hasattr(step, "establish")), None)
    for cell_text, marker in groups.items():
        where = groups.key_pos.get(cell_text)
        if former is None:
            raise RulesetError.at(where, "this ruleset forms no groups ('form_groups' step)")
        cid, _ = read_piece(game, marker, groups.pos_of(cell_text), s, pool)
        list_once(game, listed, cid, groups.pos_of(cell_text))
        problem = former.establish(s, read_cell(cell_text, where, game), cid)
        if problem:
            raise RulesetError.at(where, problem)


def _begin(game: Game, doc: Mapping, position: Mapping, s: State) -> State:
    """The position's counters, turn, turn number and effect set on ``s``, the scenario's dice loaded, and its first
    step begun."""
    counters = position.get("counters") or Mapping(position.pos)
    written: dict[int, tuple[str, SourcePos | None]] = {}
    for text, value in counters.items():
        pos = counters.key_pos.get(text)
        index = _set_counter(game, s, text, value, pos)
        if index in written:  # gold(A) and gold( A ): the one value written twice, the last silently kept
            first, where = written[index]
            raise RulesetError.at(pos, f"{text.strip()} is {first.strip()} again, listed{_at_line(where)}: a counter "
                                       "has one value")
        written[index] = (text, pos)
    if "turn" in position:
        role = str(position["turn"])
        if role not in s.order:
            raise RulesetError.at(position.pos_of("turn"), f"'{role}' is not a seated role", did_you_mean(role, s.order))
        s.turn = s.order.index(role)
    s.turn_number = _turn_number(game, position, s.turn_number)
    if "effect" in position:
        _position_effect(game, position["effect"], position.pos_of("effect")).run(s)
    if doc.get("dice"):
        s.slices[Chance.block] = s.slices.get(Chance.block, NO_CHANCE)._replace(loaded=tuple(int(d) for d in doc["dice"]))
    s.step = -1
    s._actions = None
    if game.record_position is not None:  # repetition: the position written is the first the game has been in
        game.record_position(s, first=True)
    s.advance()
    return s


def _turn_number(game: Game, position: Mapping, unwritten: int) -> int:
    """The position's ``turn_number`` (``unwritten`` when not written: 1, or the setup's): a turn a game reaches, from 1
    to its ``max_turns``."""
    number = position.get("turn_number", unwritten)
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= game.max_turns:
        raise RulesetError.at(position.pos_of("turn_number"), f"turn_number {cut(repr(number), 40)} is no turn of this "
                                                              f"game: turns are counted from 1 to its max_turns, "
                                                              f"{game.max_turns}")
    return number



def _position_effect(game: Game, text: Any, pos: SourcePos | None) -> Program:
    """Compile a position's ``effect`` program (errors at their place in the scenario file)."""
    from engine.core.errors import DiagnosticSink
    from engine.lang.parser import parse_program

    locate = text.locate if isinstance(text, Text) else (lambda line, col: pos or SourcePos("<effect>", line, col))
    node = parse_program(str(text), locate)
    sink = DiagnosticSink()
    scope = Scope(game.vocab, sink)
    compiled = node.compile(scope)
    sink.raise_if_any()
    return Program(compiled.fn, max(scope.slots, 1), str(text))


def _at_line(pos: SourcePos | None) -> str:
    """`` before (line 7)``: where something was written first, as a message tells it (`` before`` without a line).

    >>> _at_line(SourcePos("s.yaml", 7, 5)), _at_line(None)
    (' before (line 7)', ' before')
    """
    return f" before (line {pos.line})" if pos is not None else " before"


def _set_counter(game: Game, s: State, text: str, value: Any, pos: SourcePos | None) -> int:
    """``gold(A): 3`` or ``round: 2``: a counter's value in a written position; the index of the value set."""
    m = re.fullmatch(r"\s*(\w+)\s*(?:\(\s*([^()]*?)\s*\))?\s*", text)
    spec = game.counters.get(m.group(1)) if m else None
    if m is None or spec is None:
        call = re.fullmatch(r"\s*(\w+)\s*\(.*\)\s*", text)
        named = game.counters.get(call.group(1)) if call and m is None else None
        if named is not None and named.per != "game":  # banked(nth(roles, 1)): the owner is code, not a name
            owners = [owner_text(game, named, o) for o in named.owners]
            raise RulesetError.at(pos, f"write the owner of {named.name} by its name, like {named.name}({owners[0]}) "
                                       f"(owners: {', '.join(owners[:6])}{', ...' if len(owners) > 6 else ''}), or set "
                                       f"it from code in the position's effect ({text.strip()} = {value})")
        name = m.group(1) if m else text
        raise RulesetError.at(pos, f"unknown counter '{name}'", did_you_mean(name, game.counters))
    written = m.group(2)
    if spec.keys is not None:
        return _set_keyed(game, s, spec, text, written, value, pos)
    if (written is None) != (spec.per == "game"):
        form = spec.name if spec.per == "game" else f"{spec.name}({'ROLE' if spec.per == 'role' else 'OWNER'})"
        kept = "one number for the whole game" if spec.per == "game" else f"kept per {spec.per}"
        raise RulesetError.at(pos, f"write the counter as {form}: '{spec.name}' is {kept} ({form}: {value})")
    owner: Any = None
    if written is not None:
        written = game.other_names.get(written, written) if spec.per != "role" else written
        owner = game.component_ids.get(written, written) if spec.per != "role" else written
    index = spec.index_of(owner)
    copies = game.identical.get(str(written), ()) if spec.per != "role" else ()
    if index is None and copies:
        raise RulesetError.at(pos, _copies_named(game, spec.name, str(written), copies, ""))
    if index is None:
        owners = [owner_text(game, spec, o) for o in spec.owners]
        raise RulesetError.at(pos, f"'{written}' has no {spec.name}", did_you_mean(str(written), owners))
    _check_value(spec, text, value, pos)
    s.counters[index] = value
    return index


def _set_keyed(game: Game, s: State, spec: CounterSpec, text: str, written: str | None, value: Any,
               pos: SourcePos | None) -> int:
    """``stock(A, X): 3`` or ``height(7): 2``: a keyed counter's value in a written position; the index of the value
    set."""
    by_text = {owner_text(game, spec, owner): spec.offset + i for i, owner in enumerate(spec.owners)}
    keys = "KEY" if len(key_parts(spec)) == 1 else "ROW, COLUMN"
    form = f"{spec.name}({'' if spec.per == 'game' else 'ROLE, ' if spec.per == 'role' else 'OWNER, '}{keys})"
    said = re.sub(r"\s*,\s*", ", ", written or "")
    owner, _, key = said.partition(", ")
    copies = game.identical.get(owner, ()) if spec.per not in ("game", "role") and said not in by_text else ()
    if copies:  # claim(T, road) where T is the name identical copies share
        raise RulesetError.at(pos, _copies_named(game, spec.name, owner, copies, f", {key}"))
    if said not in by_text:
        first = next(iter(by_text), "")
        raise RulesetError.at(pos, f"write the counter as {form}, like {spec.name}({first}): '{spec.name}' is kept per "
                                   f"{'' if spec.per == 'game' else spec.per + ' and '}key ({keys_text(s, spec)}), "
                                   f"and {text.strip()} names none of its values", did_you_mean(said, list(by_text)))
    _check_value(spec, text, value, pos)
    s.counters[by_text[said]] = value
    return by_text[said]


def _copies_named(game: Game, counter: str, written: str, copies: tuple[int, ...], rest: str) -> str:
    """What a position is told when it names a counter's owner by the name identical copies share: which copy to write.

    Example: ``claim(T, road): 1`` with three copies of T is told to write the copy, ``T-1`` to ``T-3``, like
    ``claim(T-1, road)``.
    """
    first, last = game.component_names[copies[0]], game.component_names[copies[-1]]
    return (f"'{written}' names {len(copies)} identical copies: write the copy, {first} to {last}, like "
            f"{counter}({first}{rest}) (a position gives out copies in the order it lists them, the board's before the "
            f"zones': the first {written} listed is {first})")


def _check_value(spec: CounterSpec, text: str, value: Any, pos: SourcePos | None) -> None:
    """Refuse a written counter's value that is no whole number, or one out of its fixed bounds."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesetError.at(pos, f"a counter's value is a whole number, not {value!r}")
    low, high = spec.fixed_range()
    if (low is not None and value < low) or (high is not None and value > high):
        span = " and ".join(part for part in (f"min {low}" if low is not None else "",
                                              f"max {high}" if high is not None else "") if part)
        raise RulesetError.at(pos, f"{text.strip()}: {value} is out of the counter's {span}: every change of a counter "
                                   "is kept within them, so no game holds it")


def _seats(game: Game, s: State, seats: Mapping, players: int) -> None:
    assert game.roles is not None
    roles = list(game.roles.values)
    seat_of: dict[str, int] = {}
    for role, seat in seats.items():
        if role not in roles:
            raise RulesetError.at(seats.key_pos.get(role), f"unknown role '{role}'", did_you_mean(role, roles))
        seat_of[role] = 0 if seat in ("absent", None) else int(seat)
    for role in roles:
        seat_of.setdefault(role, 0)
    used, wanted = set(seat_of.values()) - {0}, set(range(1, players + 1))
    beyond = next((role for role in seats if seat_of.get(role, 0) not in wanted | {0}), None)
    if beyond is not None:
        raise RulesetError.at(seats.pos_of(beyond), f"seats must use 1..{players} for {players_text(players)}: there "
                                                    f"is no seat {seat_of[beyond]} for {beyond}")
    if used != wanted:
        empty = ", ".join(map(str, sorted(wanted - used)))
        raise RulesetError.at(seats.pos, f"seats must use 1..{players} for {players_text(players)}: no role sits at "
                                         f"seat {empty}")
    listed = [r for r in seats if r in roles]
    s.positions = tuple(listed + [r for r in roles if r not in listed])
    s.seat_of = seat_of
    s.order = tuple(r for r in s.positions if seat_of[r])
    s.turn = 0
