"""The generated turn (engine/compiling/turn_code.py), checked against the loop it replaces.

Every shipped ruleset and every example plays the same random games — the same actions, log lines, positions and
results — with the turn generated for it as with :meth:`State.walk_turn`, the loop over the steps that stays as the
reference; so do games whose dice are CHANCE decisions.  The examples cover what the loop handles besides plain
steps: steps with conditions, rules judging the position after an action, a player with no move, extra turns and
turns given to another role, roles leaving the turn order, games ending when stalled.
"""

from __future__ import annotations

import ast as python_ast
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.compiling import turn_code
from engine.core.paths import rulesets_dir
from engine.runner.replay import state_hash
from tests.conftest import shipped_game

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
EXAMPLE_NAMES = sorted(str(p.parent) for p in EXAMPLES.glob("*/ruleset.yaml"))
MOST_ACTIONS = 200  # a long game (chess) is compared over its first actions


def playthrough(game: engine.Game, players: int, seed: int, explicit_chance: bool) -> list[object]:
    """A random game's actions, log, position hashes and result, up to MOST_ACTIONS actions."""
    rng = random.Random(seed)
    s = game.new_state(players=players, seed=seed, record=True, explicit_chance=explicit_chance)
    seen: list[object] = [state_hash(s)]
    while not s.is_terminal and len(seen) <= MOST_ACTIONS:
        space = s.legal_actions()
        action = space[rng.randrange(len(space))]
        s.apply(action)
        seen.append((str(action), state_hash(s)))
    return [seen, s.log, s.returns() if s.is_terminal else None]


def both_ways(name: str) -> tuple[engine.Game, engine.Game]:
    """The ruleset loaded twice: with its generated turn, and walking its steps (the game's turn and act set to none)."""
    generated = engine.load(name)
    walked = engine.load(name)
    object.__setattr__(walked, "turn", None)  # a built game cannot change: this one is the test's own
    object.__setattr__(walked, "act", None)
    return generated, walked


@pytest.mark.parametrize("name", engine.builtin_names())
def test_the_generated_turn_plays_the_games_the_loop_plays(name: str) -> None:
    generated, walked = both_ways(name)
    assert generated.turn is not None and generated.act is not None and walked.turn is None
    for players in sorted({min(generated.player_counts), max(generated.player_counts)}):
        for seed, explicit in ((1, False), (2, True)):
            assert playthrough(generated, players, seed, explicit) == playthrough(walked, players, seed, explicit)


@pytest.mark.parametrize("name", EXAMPLE_NAMES, ids=lambda name: Path(name).name)
def test_each_example_plays_the_same_game_both_ways(name: str) -> None:
    """One random game of each example (its dice as CHANCE decisions, drawn at random too)."""
    generated, walked = both_ways(name)
    players = min(generated.player_counts)
    assert playthrough(generated, players, 1, True) == playthrough(walked, players, 1, True)


@pytest.mark.parametrize("name", ["nine-domains", "iconoclasm", "othello", "liars-dice"])
def test_random_playouts_end_in_the_same_positions(name: str) -> None:
    generated, walked = both_ways(name)
    players = min(generated.player_counts)
    for seed in range(20):
        ends = []
        for game in (generated, walked):
            s = game.new_state(players=players, seed=seed)
            s.play_randomly(random.Random(seed).random, 10_000)
            ends.append((state_hash(s), s.outcome))
        assert ends[0] == ends[1]


def test_compile_show_prints_the_turn_beside_the_functions() -> None:
    shown = CliRunner().invoke(main, ["compile", "tic-tac-toe", "--show"])
    assert shown.exit_code == 0
    module = python_ast.parse(shown.output)
    names = [node.name for node in module.body if isinstance(node, python_ast.FunctionDef)]
    assert names[-2:] == ["turn", "act"] and names.count("turn") == names.count("act") == 1
    assert "# the turn, from " in shown.output and "tic-tac-toe/ruleset.yaml:" in shown.output


def test_each_step_is_written_with_the_checks_it_needs() -> None:
    """A step with a condition is entered only when it holds; a step whose actions a rule judges forgets what it
    listed as it began; a game without either has neither in its turn."""
    base = (EXAMPLES / "nim" / "ruleset.yaml").read_text(encoding="utf-8")
    assert "if:" not in base and "refuse_if_after" not in base
    plain = turn_code.source(shipped_game(str(EXAMPLES / "nim")))
    assert "if c0(s, e0):" not in plain and "s._actions = None  # what the step listed" not in plain
    refused = turn_code.source(shipped_game(str(EXAMPLES / "chess")))
    assert "s._actions = None  # what the step listed" in refused


def test_without_generation_the_state_walks_the_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turn_code, "ENABLED", False)
    game = engine.load("tic-tac-toe")
    assert game.turn is None and game.act is None and turn_code.source(game) == ""
    s = game.new_state(players=2, seed=3)
    s.play_randomly(random.Random(3).random, 100)
    assert s.is_terminal


def test_the_turn_docs_performance_md_shows_is_real() -> None:
    """docs/performance.md shows the generated turn of tic-tac-toe, cut with '...': each line it shows is the real
    source's, in order (the ruleset's folder written from the project's root)."""
    page = (EXAMPLES.parent / "performance.md").read_text(encoding="utf-8")
    shown = page.split("  $ rulecraft compile tic-tac-toe --show\n  ...\n", 1)[1].split("  ```", 1)[0]
    real = CliRunner().invoke(main, ["compile", "tic-tac-toe", "--show"]).output
    root = str(rulesets_dir().parent) + "/"
    lines = iter(real.replace(root, "").splitlines())
    for line in shown.splitlines():
        line = line.removeprefix("  ")
        if line.strip() != "...":
            assert line in lines, line  # (consumes the real lines up to it: the order is checked too)


LONG_TURN = """\
name: long-turn
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
counters:
  gold: {per: role}
turn:
STEPS
end:
  when: gold(A) + gold(B) > 200
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def test_a_turn_of_many_steps_keeps_the_loop(tmp_path: Path) -> None:
    """Past MOST_STEPS steps a turn is walked by the state's loop (the generated turn tests its steps in order to
    find where to go on); it plays the same game."""
    steps = "".join(f"  - do: {{effect: 'gold(current_role) += {n % 3}', if: 'gold(current_role) != {n}'}}\n"
                    f"  - do:\n      effect: 'gold(current_role) += choose(x in [1, 2])'\n"
                    for n in range(turn_code.MOST_STEPS // 2 + 1))
    path = tmp_path / "ruleset.yaml"
    path.write_text(LONG_TURN.replace("STEPS\n", steps), encoding="utf-8")
    game = engine.load(path)
    assert len(game.steps) > turn_code.MOST_STEPS and game.turn is None and game.act is None
    short = tmp_path / "short" / "ruleset.yaml"
    short.parent.mkdir()
    short.write_text(LONG_TURN.replace("STEPS\n", steps[:steps.index("  - do: {effect: 'gold(current_role) += 1'")]),
                     encoding="utf-8")
    assert engine.load(short).turn is not None  # (a turn of two steps is generated)
    s = game.new_state(players=2, seed=1)
    s.play_randomly(random.Random(1).random, 10_000)
    assert s.is_terminal and sum(s.returns()) == 1


def test_a_changed_copy_of_a_game_plays_by_its_own_fields() -> None:
    """``dataclasses.replace(game, max_turns=3)`` (the way to change a compiled game) gives a copy without the generated
    turn, which reads the original's fields: the copy's games end at its own turn limit."""
    import dataclasses

    game = engine.load("iconoclasm-cards")
    changed = dataclasses.replace(game, max_turns=3)
    assert changed.turn is None and changed.act is None
    s = changed.new_state(players=2, seed=1)
    s.play_randomly(random.Random(1).random, 10_000)
    assert s.is_terminal and s.turn_number == 3


def test_a_turn_of_one_place_step_that_flips_what_it_brackets_is_written_inline(tmp_path: Path) -> None:
    """Othello's one step (its one piece on offer goes where it brackets on a bit board, what it brackets turned
    over) is entered and applied by lines of the turn's own; a bracket whose captures go to a zone is not, and
    plays as the loop does."""
    shown = turn_code.source(shipped_game("othello"))
    assert "run = (bit << 1) & rival" in shown and "run = (own >> 9) & rival" in shown  # closed, bracketing written out
    assert "faces[grid[CELL_OF[low]]] ^= 1" in shown  # two faces, two values: the rival's pieces become the mover's
    text = (rulesets_dir() / "othello" / "ruleset.yaml").read_text(encoding="utf-8")
    boxed = (text.replace("capture: flip", "capture: taken")
             .replace("  stock: {kind: hand, per: role}", "  stock: {kind: hand, per: role}\n  taken: {kind: pile}"))
    assert boxed.count("taken") == 2
    (tmp_path / "ruleset.yaml").write_text(boxed, encoding="utf-8")
    generated, walked = both_ways(str(tmp_path))
    assert "BOARD" not in turn_code.source(generated)
    for seed in range(3):
        ends = []
        for game in (generated, walked):
            s = game.new_state(players=2, seed=seed)
            s.play_randomly(random.Random(seed).random, 10_000)
            ends.append(state_hash(s))
        assert ends[0] == ends[1]


@pytest.mark.parametrize("name", ["connect-four", "tic-tac-toe"])
def test_a_turn_of_one_plain_place_step_is_listed_and_applied_inline(name: str, tmp_path: Path) -> None:
    """Every piece on offer on every cell allowed, nothing after a placement: the turn lists the placements and
    puts the piece down with lines of its own (random games both ways above hold them to the loop); a step that may
    also pass (``optional``) is entered and applied by the step, and plays as the loop does."""
    shown = turn_code.source(shipped_game(name))
    assert "s._actions = ProductSpace(t0, pieces, cells)" in shown and "# the place step's placement" in shown
    text = (rulesets_dir() / name / "ruleset.yaml").read_text(encoding="utf-8")
    optional = text.replace("  - place: {from: ", "  - place: {optional: true, from: ")
    assert optional != text
    (tmp_path / "ruleset.yaml").write_text(optional, encoding="utf-8")
    generated, walked = both_ways(str(tmp_path))
    assert "ProductSpace" not in turn_code.source(generated) and "CELLS" not in turn_code.source(generated)
    for seed in range(3):
        ends = []
        for game in (generated, walked):
            s = game.new_state(players=2, seed=seed)
            s.play_randomly(random.Random(seed).random, 10_000)
            ends.append(state_hash(s))
        assert ends[0] == ends[1]
