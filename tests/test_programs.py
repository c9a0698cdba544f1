"""Components' own programs: ``programs: [on_play]`` and ``perform(c, on_play)`` (engine/blocks/programs.py).

A deck-builder's action cards each do something of their own when played.  Before this block a plain turn could not
say "play a card: run THAT card's program" — only a chain of ``if c.id == ...`` in the turn, or a step made for one
game (a contest's ``on_win``, a cast's ``effect``).  Each card's program is compiled when the ruleset is loaded
(mistakes at their own line), may choose, perform other programs (its own too), and is bounded: programs running
each other stop with an error, and every run spends steps of the effect's budget.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.blocks import choices
from engine.blocks.programs import MAX_DEPTH
from engine.core import limits
from engine.core.errors import EffectRuntimeError, RulesetError
from engine.model.savefile import state_from_json

RULESET = """\
name: own-programs
players: [2]
programs: [on_play]
components:
  card:
    attributes: {on_play: text}
    instances:
      - {id: plain}
      - id: coin
        on_play: gold(current_role) += 1
      - id: twice
        on_play: |
          let c = choose(x in hand(current_role), text = "play a card twice")
          if c != none:
            move(x in hand(current_role) where x == c, played)
            perform(c, on_play)
            perform(c, on_play)
zones:
  hand: {kind: hand, per: role}
  played: {kind: pile}
counters:
  gold: {per: role}
setup: |
  move(c in cards, hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        let c = choose(x in hand(current_role), text = "play a card")
        move(x in hand(current_role) where x == c, played)
        perform(c, on_play)
end:
  when: count(played) >= 3
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def load(tmp_path: Path, text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return engine.load(str(path))


def gold(game: engine.Game, state: object, value: int) -> bool:
    return game.compile_condition(f"gold(nth(roles, 1)) == {value}").test(state)


def test_a_card_does_what_its_own_program_says_and_the_log_says_so(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=0, record=True)
    s.apply("choose coin")
    assert gold(game, s, 1)
    assert "the on_play of coin takes effect" in s.log
    s2 = game.new_state(players=2, seed=0)
    s2.apply("choose plain")  # a card without a program does nothing
    assert gold(game, s2, 0)


@pytest.fixture(params=["coroutines", "replaying"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of pausing an effect at a choice: coroutines, and replaying (without the greenlet package)."""
    monkeypatch.setattr(choices, "_REPLAYING", request.param == "replaying")
    return str(request.param)


def test_a_program_that_chooses_pauses_the_turn_s_effect_and_performs_the_card_chosen_twice(tmp_path: Path, mode: str) -> None:
    game = load(tmp_path)
    s = game.new_state(players=2, seed=0, record=True)
    s.apply("choose twice")
    assert sorted(s.legal_actions().texts()) == ["choose coin", "choose plain"]  # the card's own question
    copy = s.clone()
    s.apply("choose coin")
    assert gold(game, s, 2)
    assert s.log.count("the on_play of coin takes effect") == 2
    copy.apply("choose coin")  # a copy made at the question answers it the same way
    assert gold(game, copy, 2)
    again = game.new_state(players=2, seed=0)
    again.apply("choose twice")
    loaded = state_from_json(game, json.loads(json.dumps(again.to_json())), type(again))  # a save made at the question
    assert sorted(loaded.legal_actions().texts()) == ["choose coin", "choose plain"]
    loaded.apply("choose coin")
    assert gold(game, loaded, 2)


def test_mistakes_in_a_card_s_own_code_are_reported_at_their_line(tmp_path: Path) -> None:
    broken = RULESET.replace("on_play: gold(current_role) += 1", "on_play: gold(self) += 1")
    with pytest.raises(RulesetError) as err:
        load(tmp_path, broken)
    assert "ruleset.yaml:10:23:" in str(err.value) and "'self' is a component" in str(err.value)
    broken = RULESET.replace("perform(c, on_play)\n            perform", "perform(c, on_play\n            perform")
    with pytest.raises(RulesetError) as err:
        load(tmp_path, broken)
    assert "ruleset.yaml:17:" in str(err.value) and "syntax error" in str(err.value)


def test_perform_runs_only_attributes_listed_under_programs(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as err:
        load(tmp_path, RULESET.replace("perform(c, on_play)\nend", "perform(c, gold)\nend"))
    assert "ruleset.yaml:30:20: perform() runs a program attribute 'programs:' lists (on_play), not 'gold'" in str(err.value)
    with pytest.raises(RulesetError) as err:
        load(tmp_path, RULESET.replace("programs: [on_play]", "programs: [on_ply]"))
    assert "ruleset.yaml:3:12: 'on_ply' must be a text attribute holding each component's program" in str(err.value)
    assert "did you mean 'on_play'" in str(err.value)
    with pytest.raises(RulesetError) as err:
        load(tmp_path, RULESET.replace("programs: [on_play]\n", ""))
    assert "perform() comes with the programs block: it needs a 'programs:' section" in str(err.value)
    with pytest.raises(RulesetError) as err:
        load(tmp_path, RULESET.replace("when: count(played) >= 3", "when: perform(first(played), on_play) == none"))
    assert "perform() changes the game, which a condition or score can't do" in str(err.value)


@pytest.mark.parametrize("old, new, found", [
    ("programs: [on_play]", "programs: [id]",
     "ruleset.yaml:3:12: 'id' is every component's name (c.id), not a text attribute that can hold a program "
     "(declare one of your own: attributes: {on_play: text})"),
    ("programs: [on_play]", "programs: [on_play, on_play]",
     "ruleset.yaml:3:21: 'on_play' is listed twice under 'programs' (list each attribute once)"),
    ("attributes: {on_play: text}", "attributes: {on_play: text, id: text}",
     "ruleset.yaml:6:33: 'id' is already every component's name (c.id): an attribute cannot take that name "
     "(name it another way, e.g. 'my_id')"),
])
def test_a_program_attribute_named_like_a_built_in_one_or_listed_twice_is_refused(
        tmp_path: Path, old: str, new: str, found: str) -> None:
    """'programs: [id]' was told to declare 'id' (doing so compiled every component's id as its program: "syntax
    error" at each instance); 'programs: [a, a]' was accepted; an attribute named 'id' or 'kind' was accepted and
    never read (c.id is the name)."""
    with pytest.raises(RulesetError) as err:
        load(tmp_path, RULESET.replace(old, new))
    assert found in str(err.value)
    assert "syntax error" not in str(err.value)


SELF_PLAYING = RULESET.replace("      - {id: plain}\n", "      - {id: plain}\n      - id: echo\n        on_play: perform(self, on_play)\n")


def test_a_card_that_plays_itself_stops_with_an_error_naming_it_and_the_turn_is_refused(tmp_path: Path) -> None:
    game = load(tmp_path, SELF_PLAYING)
    s = game.new_state(players=2, seed=0)
    before = s.clone()
    with pytest.raises(EffectRuntimeError) as err:
        s.apply("choose echo")
    assert f"components' programs keep running each other (more than {MAX_DEPTH} deep): echo's on_play" in str(err.value)
    assert "ruleset.yaml:10:18:" in str(err.value)
    assert game.compile_condition("count(played) == 0").test(s) and s.legal_actions().texts() == before.legal_actions().texts()


def test_each_run_of_a_program_spends_the_effect_s_step_budget(tmp_path: Path) -> None:
    """A program playing itself within a small budget stops at the budget, before its depth: performing is not free."""
    with limits.using(limits.Limits(steps=20)):
        game = load(tmp_path, SELF_PLAYING)
    s = game.new_state(players=2, seed=0)
    with pytest.raises(EffectRuntimeError) as err:
        s.apply("choose echo")
    assert "ran out of its step budget in this perform() of echo's on_play (limit steps=20" in str(err.value)


def test_explain_reads_every_component_s_program_in_english() -> None:
    result = CliRunner().invoke(main, ["explain", str(Path(__file__).parent.parent / "docs" / "examples" / "market-row")])
    assert result.exit_code == 0, result.output
    programs = result.output.split("\nPrograms\n", 1)[1].split("\n\n", 1)[0]
    assert "  Village's on_play: add 1 to the draws of the current role; then add 2 to the actions of the current role" in programs
    assert "Echo's on_play: " in programs and programs.count("do what c's on_play says") == 2


def test_code_given_per_face_is_refused_at_the_card_not_read_as_a_syntax_error(tmp_path: Path) -> None:
    """A per-face text attribute holds a list; its code was parsed as the list's text ("syntax error: unexpected the
    end of the line").  Code attributes (programs, a contest's on_win, a cast's effect) hold one piece per component."""
    per_face = RULESET.replace("    attributes: {on_play: text}", "    faces: [up, down]\n    attributes: {on_play: {type: text, per_face: true}}")
    per_face = per_face.replace("        on_play: gold(current_role) += 1", '        on_play: ["gold(current_role) += 1", "gold(current_role) -= 1"]')
    per_face = per_face[:per_face.index("      - id: twice")] + per_face[per_face.index("zones:"):]
    with pytest.raises(RulesetError) as err:
        load(tmp_path, per_face)
    assert "ruleset.yaml:11:18: 'on_play' holds effect-language code: one piece per component, not one per face" in str(err.value)
    assert "syntax error" not in str(err.value)


def test_the_log_names_a_card_performed_from_a_hidden_hand_only_as_hidden(tmp_path: Path) -> None:
    """The log is every seat's: a card whose program runs while it lies in its owner's hidden hand is not named."""
    hidden = RULESET.replace("  hand: {kind: hand, per: role}", "  hand: {kind: hand, per: role, hidden: others}")
    hidden = hidden.replace("        move(x in hand(current_role) where x == c, played)\n        perform(c, on_play)\n",
                            "        perform(c, on_play)\n        move(x in hand(current_role) where x == c, played)\n")
    game = load(tmp_path, hidden)
    s = game.new_state(players=2, seed=0, record=True)
    s.apply("choose coin")
    assert "the on_play of a hidden component takes effect" in s.log and gold(game, s, 1)
    assert not any("coin" in line for line in s.log if "takes effect" in line)


def test_a_question_a_program_asks_says_whose_program_asks(tmp_path: Path, mode: str) -> None:
    """The 'twice' card's question read only "play a card twice", as if the turn asked it; a question asked inside a
    component's program (or a status's hook) now ends with whose it is."""
    game = load(tmp_path)
    s = game.new_state(players=2, seed=0)
    assert s.pending.prompt == "play a card"  # the turn's own question
    s.apply("choose twice")
    assert s.pending.prompt == "play a card twice (asked by twice's on_play)"
    assert s.observation(1)["choice"]["prompt"] == "play a card twice (asked by twice's on_play)"
