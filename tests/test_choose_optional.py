"""``choose(..., optional = true)``: the player may pass (``choose pass``), which gives none.  Without it a choice
that may be declined ("buy a card or pass") took two decisions: first "buy" or "pass", then the card
(docs/examples/going-once and market-row say it so)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.blocks.enumeration import choice_texts
from engine.core.errors import RulecraftError
from engine.runner.simulate import simulate

RULESET = """\
name: optional-choice
players: [2]
components:
  card:
    attributes: {cost: int}
    instances:
      - {id: cheap, cost: 1}
      - {id: fair, cost: 2}
      - {id: dear, cost: 5}
zones:
  row: {kind: pile}
  bought: {kind: pile, per: role}
counters:
  coins: {per: role, start: 3}
  passes: {}
setup: |
  move(c in cards, row)
turn:
  - do:
      effect: |
        let c = choose(x in row where x.cost <= coins(current_role), optional = OPTIONAL, text = "buy a card")
        if c == none:
          passes += 1
        else:
          coins(current_role) -= c.cost
          move(x in row where x == c, bought(current_role))
end:
  when: passes >= 2 or count(row) == 0
scoring:
  rank: r in roles
  by: [count(bought(r))]
  points: key
"""


def load(tmp_path: Path, optional: str = "true", name: str = "cheap") -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("OPTIONAL", optional).replace("id: cheap", f"id: {name}"), encoding="utf-8")
    return engine.load(str(path))


def test_passing_is_offered_and_gives_none(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=0, record=True)
    assert sorted(s.legal_actions().texts()) == ["choose cheap", "choose fair", "choose pass"]
    s.apply("choose pass")
    assert game.compile_condition("passes == 1 and count(row) == 3").test(s) and s.current_player == 2
    assert "seat1 chooses pass" in s.log


def test_a_single_option_is_asked_when_passing_is_allowed_and_no_option_is_not_asked(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=0)
    s.apply("choose fair")  # seat 1 keeps 1 coin
    assert sorted(s.legal_actions().texts()) == ["choose cheap", "choose pass"]  # seat 2: one card, still asked
    s.apply("choose cheap")  # neither can buy the dear card now: no question, a pass each, and the game ends
    assert s.is_terminal and game.compile_condition("passes == 2").test(s)


def test_without_optional_nothing_changes(tmp_path: Path) -> None:
    s = load(tmp_path, "false").new_state(players=2, seed=0)
    assert sorted(s.legal_actions().texts()) == ["choose cheap", "choose fair"]


def test_a_save_at_the_question_loads_and_takes_a_pass(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=0)
    s.apply("choose cheap")
    loaded = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert loaded == s
    loaded.apply("choose pass")
    assert game.compile_condition("passes == 1").test(loaded)


def test_the_pass_is_listed_with_the_choices_and_explained(tmp_path: Path) -> None:
    game = load(tmp_path)
    assert "choose pass" in choice_texts(game).texts
    report = simulate(game, players=2, n=20, seed=0, agents="random")
    assert report.games == 20


def test_an_option_called_pass_is_refused_while_it_runs(tmp_path: Path) -> None:
    with pytest.raises(RulecraftError, match=r"offers 'pass' itself, so an option may not be called 'pass' too"):
        load(tmp_path, name="pass").new_state(players=2, seed=0)


def test_optional_must_be_true_or_false(tmp_path: Path) -> None:
    with pytest.raises(RulecraftError, match="the optional of choose"):
        load(tmp_path, "1")


def test_explain_says_the_player_may_pass(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli.main import main

    load(tmp_path)
    result = CliRunner().invoke(main, ["explain", str(tmp_path / "ruleset.yaml")])
    assert result.exit_code == 0 and "chosen by the current player, or nothing if the player passes" in result.output


def test_with_always_ask_a_forced_pass_is_a_decision(tmp_path: Path) -> None:
    """Go counts a pass as a move even when no point is legal: `choose(..., optional = true, always_ask = true)` with
    no option passed on its own (nothing asked, `none` given), so the game skipped the move OpenSpiel's makes.  With
    `always_ask` the pass is now the one action; without it nothing is asked, as before."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("optional = OPTIONAL,", "optional = true, always_ask = true,")
                    .replace("start: 3}", "start: 0}"), encoding="utf-8")  # nobody can buy: passing is all there is
    state = engine.load(str(path)).new_state(players=2, seed=0)
    assert state.legal_actions().texts() == ["choose pass"] and state.current_player == 1
    state.apply("choose pass")
    assert state.current_player == 2 and not state.is_terminal
    state.apply("choose pass")
    assert state.is_terminal
    path.write_text(path.read_text(encoding="utf-8").replace("always_ask = true", "always_ask = false"), encoding="utf-8")
    assert engine.load(str(path)).new_state(players=2, seed=0).is_terminal  # two turns passed by themselves
