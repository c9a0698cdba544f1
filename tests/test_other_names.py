"""Other names of a component (``also:``): a rulebook's ``*`` for the card ``star``, accepted wherever a user writes a
component's name (actions, scenario positions, ``explain --component``) while the log and saves keep the id."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main

RULESET = """\
name: names
players: [2]
components:
  card:
    attributes: {value: int}
    instances:
      - {id: star, value: 0, also: "*"}
      - {id: one, value: 1, also: [ace, "1"]}
counters:
  power: {per: card}
turn:
  - do: {effect: pass}
end:
  when: turn >= 2
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


def problems(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "ruleset.yaml").write_text(text)
    with pytest.raises(engine.RulesetError) as err:
        engine.load(tmp_path)
    return [f"{d.pos.line}: {d.message}" for d in err.value.diagnostics]


def test_an_action_may_name_a_card_as_the_rulebook_prints_it() -> None:
    s = engine.load("nine-domains").new_state(players=2, seed=3, record=True)  # East holds the star
    s.apply("commit * to left")
    assert s.history == ["commit star to left"]


def test_a_refusal_quotes_the_action_as_typed_and_changes_nothing() -> None:
    s = engine.load("nine-domains").new_state(players=2, seed=1)  # East holds no star
    before = s.to_json()
    with pytest.raises(engine.IllegalActionError, match=r"^'commit \* to left' is not legal: commit one of 0, 1, "):
        s.apply("commit * to left")
    assert s.to_json() == before


def test_other_names_are_read_from_the_ruleset(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    assert engine.load(tmp_path).other_names == {"*": "star", "ace": "one", "1": "one"}


@pytest.mark.parametrize(("star", "one", "message"), [
    ("[one]", "[ace]", "7: 'one' is the id of a component, so it cannot also name star"),
    ('"two words"', "[ace]", "7: other name 'two words' of star must be one word (no spaces)"),
    ("[ace]", "[ace]", "8: 'ace' already names star, so it cannot also name one"),
])
def test_an_other_name_that_could_mean_two_things_is_refused(tmp_path: Path, star: str, one: str, message: str) -> None:
    text = RULESET.replace('also: "*"', f"also: {star}").replace('also: [ace, "1"]', f"also: {one}")
    assert problems(tmp_path, text) == [message]


def test_explain_finds_a_component_by_its_other_name() -> None:
    result = CliRunner().invoke(main, ["explain", "nine-domains", "--component", "*"])
    assert result.exit_code == 0 and result.output.startswith("star — a card\nalso written: * (in actions and positions)\n")


def test_a_scenario_comparing_an_id_with_an_other_name_is_told_to_write_the_id(tmp_path: Path) -> None:
    from engine.runner.scenario import run_scenario

    scenario = tmp_path / "star.yaml"
    scenario.write_text('name: the star in hand\nruleset: nine-domains\nplayers: 2\nposition:\n  zones:\n'
                        '    hand(East): ["*", "0", "2"]\n    hand(West): [4-, 1-, "3"]\n'
                        'expect:\n  - count(c in hand(East) where c.id == "*") == 1\n'
                        '  - count(c in hand(East) where c.id == "star") == 1\n')
    failures = run_scenario(scenario).failures
    assert len(failures) == 1 and 'note: "*" is another name of star (also:), for actions and positions; code ' \
        'compares ids: write "star"' in failures[0]


def test_a_positions_counter_may_name_its_owner_by_an_other_name(tmp_path: Path) -> None:
    from engine.runner.scenario import run_scenario

    (tmp_path / "ruleset.yaml").write_text(RULESET)
    (tmp_path / "case.yaml").write_text('name: power\nruleset: ruleset.yaml\nplayers: 2\nposition:\n  counters:\n'
                                        '    power(ace): 3\nexpect:\n  - power(first(c in cards where c.id == "one")) == 3\n')
    result = run_scenario(tmp_path / "case.yaml")
    assert result.passed, result.failures
