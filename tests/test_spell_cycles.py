"""Spell Cycles as the issue asks for it: its deck, combined variants, rendering, the CLI, and docs/spells.md kept true."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cli import board_drawing, render, zone_listing
from cli.main import main
import engine
from engine.core.errors import RulesetError
from engine.runner.scenario import run_scenario
from tests.conftest import shipped_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "my-spells"
NAME = "spell-cycles"
VARIANTS = ("short", "long", "spellstackers", "accelerando", "duel", "extra-credit", "extra-credit-v2", "extra-credit-v2-ranked",
            "four-stashes")


def spells(game: engine.Game) -> dict[str, tuple[str, ...]]:
    """Every spell's pattern, by name."""
    table = game.attributes["pattern"][0]
    return {game.piece_names[c]: tuple(table[c]) for c in game.kinds["spell"]}


def test_the_deck_has_twenty_spells_of_lengths_two_to_five_with_rules_and_varied_costs() -> None:
    game = shipped_game(NAME)
    deck = spells(game)
    assert len(deck) >= 20
    assert {len(p) for p in deck.values()} == {2, 3, 4, 5}
    costs = {game.attributes["cost"][0][c] for c in game.kinds["spell"]}
    assert len(costs) >= 3
    assert all(game.attributes["rule"][0][c] for c in game.kinds["spell"])
    shapes = {game.attributes["shape"][0][c] for c in game.kinds["spell"]} - {None}
    assert {"winding", "elbow", "ring"} <= shapes


def test_the_variants_are_all_there_and_spellstackers_adds_spells_that_need_stacks() -> None:
    assert set(VARIANTS) <= set(shipped_game(NAME).available_variants)
    stacked = shipped_game(NAME, "spellstackers")
    shapes = {stacked.attributes["shape"][0][c] for c in stacked.kinds["spell"]}
    assert stacked.grid is not None and stacked.grid.stacking and not shipped_game(NAME).grid.stacking
    needing_stacks = [n for n, s in stacked.parts["patterns"].items() if s.kind == "stack" or any(d for _, _, d in s.cells)]
    assert sum(stacked.attributes["shape"][0][c] in needing_stacks for c in stacked.kinds["spell"]) >= 3
    assert shapes >= {"tower", "lantern"}
    assert len(spells(shipped_game(NAME, "duel"))) > len(spells(shipped_game(NAME)))


@pytest.mark.parametrize("variant", ["duel+accelerando", "spellstackers+accelerando+long", "extra-credit+extra-credit-v2+short"])
def test_combined_variants_play_to_the_end_with_their_invariants(variant: str) -> None:
    game = engine.load(NAME, variant)
    for players, seed in ((2, 0), (4, 1)):
        state = game.new_state(players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            assert not game.broken_invariants(state)
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            assert state.parse_action(str(action)) == action
            state.apply(action)
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize("variants", ["short+long", "duel+extra-credit", "extra-credit-v2+duel", "four-stashes+long"])
def test_variants_that_contradict_each_other_are_refused(variants: str) -> None:
    with pytest.raises(RulesetError, match="cannot be combined"):
        engine.load(NAME, variants)


def test_a_choice_inside_a_spell_waits_saves_and_resumes() -> None:
    scenario = ROOT / "rulesets" / NAME / "scenarios" / "choices-inside-a-spell.yaml"
    from engine.runner.scenario import load_scenario, set_up

    sc = load_scenario(scenario)
    state = set_up(sc.game, sc.doc, sc.doc["position"])
    for text in ("cast Quake", "match 0,0 1,0 2,0"):
        state.apply(text)
    assert state.pending is not None and "choose red-large at 5,5" in state.legal_actions().texts()
    copy = sc.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy == state
    before = state.clone()
    with pytest.raises(engine.IllegalActionError):
        state.apply("choose red-large at 4,4")
    assert state == before
    copy.apply("choose red-large at 5,5")
    copy.apply("choose blue-medium at 6,6")
    assert copy.pending is None and copy.grid[(5, 5)] != before.grid[(5, 5)]


def test_the_terminal_shows_the_field_the_line_and_the_crescents() -> None:
    game = shipped_game(NAME)
    state = game.new_state(players=2, seed=3)
    state.apply(next(a for a in state.legal_actions() if str(a).endswith(" at 7,7")))
    console = render.make_console(width=100, file=open("/dev/null", "w"))
    with console.capture() as captured:
        console.print(board_drawing.board(state))
        for line in zone_listing.zones(state, 1):
            console.print(line)
    text = captured.get()
    assert re.search(r"^\s+7\s+(·\s+){7}[RYGBWK]3", text, re.M), text  # the whole 8x8 field, the new pyramid at 7,7
    assert text.count("\n  ") >= 8 and f"crescents {2}" in text  # the line, one spell per line, the active one marked
    first = game.piece_names[state.zones[game.zone_index[("line", None)]][0]]
    assert re.search(rf"{first}:( \w+)+; cost \d+\s+crescents 2", text), text


def test_explain_renders_every_spell_from_the_effect_language() -> None:
    result = CliRunner().invoke(main, ["explain", NAME, "--variant", "duel"])
    assert result.exit_code == 0
    for name in spells(shipped_game(NAME, "duel")):
        assert f"     {name}: " in result.output
    assert "take 3 from the essence of r" in result.output  # Blood-Moon, a Duel spell
    assert "in the shape 'winding': in order on a chain of adjacent cells" in result.output


@pytest.mark.parametrize("variant", [None, "duel+accelerando"])
def test_simulate_and_bench_run(variant: str | None) -> None:
    extra = ["--variant", variant] if variant else []
    result = CliRunner().invoke(main, ["simulate", NAME, *extra, "--players", "3", "-n", "4", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 4
    result = CliRunner().invoke(main, ["bench", NAME, *extra, "--players", "2", "--playouts", "3", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["actions_per_game"] > 0


# ---------------------------------------------------------------- docs/spells.md stays true


def yaml_blocks(text: str) -> dict[str, str]:
    """The ```yaml blocks of a page whose first line names their file: ``# docs/...``."""
    blocks = re.findall(r"```yaml\n(# (docs/\S+)\n.*?)```", text, re.S)
    return {path: body for body, path in blocks}


def test_the_spells_page_shows_the_example_files_exactly() -> None:
    page = (ROOT / "docs" / "spells.md").read_text(encoding="utf-8")
    blocks = yaml_blocks(page)
    assert set(blocks) == {"docs/examples/my-spells/ruleset.yaml", "docs/examples/my-spells/scenarios/hearthstone-casts.yaml"}
    for path, body in blocks.items():
        assert (ROOT / path).read_text(encoding="utf-8") == body, f"docs/spells.md and {path} differ"


def test_the_new_spell_in_a_new_shape_validates_and_casts() -> None:
    game = engine.load(EXAMPLE)
    assert game.parts["patterns"]["tee"].kind == "template" and "Hearthstone" in spells(game)
    result = run_scenario(EXAMPLE / "scenarios" / "hearthstone-casts.yaml")
    assert result.passed, "\n".join(result.failures)


def test_the_spells_page_shows_the_real_error_and_explanation(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "spells.md").read_text(encoding="utf-8")
    broken = tmp_path / "ruleset.yaml"
    text = (EXAMPLE / "ruleset.yaml").read_text(encoding="utf-8").replace("shape: tee", "shape: tea")
    broken.write_text(text.replace("extends: spell-cycles", f"extends: {ROOT / 'rulesets' / NAME}"))
    with pytest.raises(RulesetError) as info:
        engine.load(broken)
    headline = info.value.diagnostics[0].headline().replace(str(broken), "docs/examples/my-spells/ruleset.yaml")
    assert headline in page
    explained = CliRunner().invoke(main, ["explain", str(EXAMPLE)]).output
    for line in explained.splitlines():
        if "Hearthstone:" in line or "rule: A row red" in line:
            assert line.strip() in page


def test_the_advance_step_works_out_the_marked_components_once_per_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """Entering an advance step lists the components with markers as its decision's actions: the legal actions read
    them back instead of working them out again (the same actions as worked out anew)."""
    from engine.blocks.track import Advance

    game = shipped_game(NAME)
    step = next(st for st in game.steps if isinstance(st, Advance))
    calls = []
    marked = Advance.marked
    monkeypatch.setattr(Advance, "marked", lambda self, s: calls.append(1) or marked(self, s))
    s, choose = game.new_state(players=2, seed=5), random.Random(5)
    decisions = 0
    while not s.is_terminal:
        if game.steps[s.step] is step and s.pending is None:
            decisions += 1
            assert [a.args for a in s.legal_actions()] == [a.args for a in step.actions(s)]
        s.play(choose.randrange(len(s.legal_actions())))
    assert decisions and len(calls) == 2 * decisions  # once as the step began, once in the check above


def test_the_spell_the_page_quotes_is_the_deck_s() -> None:
    """"The deck is in rulesets/spell-cycles/spells.yaml. One spell:" quoted Cinderfall without its
    `defeated(r) == 0`, which the deck gained with the duel variant."""
    page = (ROOT / "docs" / "spells.md").read_text(encoding="utf-8")
    quoted = page.split("One spell:\n\n```yaml\n", 1)[1].split("```", 1)[0]
    assert quoted in (ROOT / "rulesets" / NAME / "spells.yaml").read_text(encoding="utf-8")


def test_the_page_s_advance_step_is_the_game_s() -> None:
    """docs/spells.md showed `advance: {along: line, markers: crescents}` and said a Crescent on the last spell moves
    off the line, after the game had learnt that it does so only when no other can move (off_end_when_forced)."""
    page = (ROOT / "docs" / "spells.md").read_text(encoding="utf-8")
    shown = page.split("## Crescents: markers along a line", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    step = yaml.safe_load(shown)[0]["advance"]
    real = next(s["advance"] for s in yaml.safe_load((ROOT / "rulesets" / NAME / "ruleset.yaml").read_text(encoding="utf-8"))
                ["turn"] if "advance" in s)
    assert step == {key: value for key, value in real.items() if key != "if"}  # the duel's `if` aside
