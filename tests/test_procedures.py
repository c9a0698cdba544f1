"""Procedures a ruleset defines: ``procedures:``, programs with a name and typed parameters (engine/lang/procedures.py).

Before them a piece of a program several rules need was written once only as a component's program run by
``perform(c, ATTRIBUTE)``, with ``self`` its one argument (a component that only carries the code).  A procedure
takes typed arguments, checked at each call where it is written; its body may change the game, choose and run
procedures, itself included, bounded by the step budget and ``call_depth``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.blocks import choices
from engine.core import limits
from engine.core.errors import RulesetError

RULESET = """\
name: procedures-demo
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
counters:
  vp: {per: role}
  bonus: {per: role}
procedures:
  award(side r, int n): |
    vp(r) += n
    if n >= 5:
      bonus(r) += 1
  countdown(side r, int n):
    do: |
      if n > 0:
        vp(r) += 1
        countdown(r, n - 1)
    text: "{r} counts down from {n}"
  ask(side r): |
    let k = choose(x in numbers(1, 3), by = r, text = "how many")
    award(r, k)
turn:
  - do:
      effect: |
        EFFECT
end:
  when: turn > 2
scoring:
  rank: r in roles
  by: [vp(r)]
  points: key
"""


def load(tmp_path: Path, effect: str = "award(current_role, 5)", text: str = RULESET) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("EFFECT", effect.replace("\n", "\n        ")), encoding="utf-8")
    return engine.load(str(path))


def holds(game: engine.Game, state: engine.State, condition: str) -> bool:
    return bool(game.compile_condition(condition).test(state))


def errors(tmp_path: Path, old: str, new: str, effect: str = "award(current_role, 5)") -> str:
    with pytest.raises(RulesetError) as err:
        load(tmp_path, effect, RULESET.replace(old, new))
    return str(err.value)


def test_a_procedure_runs_with_the_arguments_of_its_call(tmp_path: Path) -> None:
    game = load(tmp_path, "award(current_role, 5)\ncountdown(current_role, 3)")
    s = game.new_state(players=2, seed=0, record=True)  # nobody decides: the game plays through its three turns
    assert holds(game, s, "vp(A) == 16 and bonus(A) == 2 and vp(B) == 8 and bonus(B) == 1")
    assert s.log[:3] == ["vp of A: 0 -> 5", "bonus of A: 0 -> 1", "vp of A: 5 -> 6"]  # no line of its own


@pytest.fixture(params=["coroutines", "replaying"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of pausing an effect at a choice: coroutines, and replaying (without the greenlet package)."""
    monkeypatch.setattr(choices, "_REPLAYING", request.param == "replaying")
    return str(request.param)


def test_a_procedure_that_chooses_pauses_its_caller_after_what_it_changed_first(tmp_path: Path, mode: str) -> None:
    """The change before the call is made once: the question inside the procedure comes after a change, which the
    effect calling it must know (it asked first and ran again from the start, adding the 1 twice, had it not)."""
    game = load(tmp_path, "vp(current_role) += 1\nask(current_role)")
    s = game.new_state(players=2, seed=0)
    assert [str(a) for a in s.legal_actions()] == ["choose 1", "choose 2", "choose 3"]
    s.apply("choose 2")
    assert holds(game, s, "vp(A) == 3")
    s.apply(s.clone().legal_actions()[0])
    assert holds(game, s, "vp(B) == 2")


def test_explain_lists_the_procedures_and_reads_each_call(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("EFFECT", "countdown(current_role, 2)"), encoding="utf-8")
    out = CliRunner().invoke(main, ["explain", str(path)]).output
    procedures = out[out.index("Procedures\n"):out.index("Turn\n")]
    assert "  do award of r, n: add n to the vp of r; then if n is at least 5: add 1 to the bonus of r\n" in procedures
    assert "  r counts down from n: if n is more than 0: add 1 to the vp of r; then r counts down from (n minus 1)" in procedures
    assert "1. the current role counts down from 2" in out


@pytest.mark.parametrize("effect, found", [
    ("award(current_role)", "ruleset.yaml:26:9: award() takes 2 arguments, not 1 (usage: award(side r, int n))"),
    ("award(current_role, A)", "ruleset.yaml:26:29: the argument 'n' of award() must be an int, but 'A' is a side"),
    ("award(3, 1)", "ruleset.yaml:26:15: the argument 'r' of award() must be a side, but '3' is an int"),
    ("let x = 1\nawrd(current_role, 1)", "ruleset.yaml:27:9: unknown function 'awrd' (did you mean 'award'?)"),
])
def test_a_call_with_the_wrong_arguments_is_refused_where_it_is_written(tmp_path: Path, effect: str, found: str) -> None:
    with pytest.raises(RulesetError) as err:
        load(tmp_path, effect)
    assert found in str(err.value)


def test_a_procedure_is_refused_where_nothing_may_change(tmp_path: Path) -> None:
    found = errors(tmp_path, "when: turn > 2", "when: award(A, 1) == none")
    assert "ruleset.yaml:28:9: award() is a procedure: it changes the game, which a condition or score can't do" in found
    found = errors(tmp_path, "procedures:\n", "functions:\n  f(side r): award(r, 1) == none\nprocedures:\n")
    assert ("ruleset.yaml:10:14: unknown function 'award' ('award' is a procedure (under 'procedures:'): it changes "
            "the game, which a function's body can't do)") in found


@pytest.mark.parametrize("old, new, found", [
    ("    award(r, k)\n", "    later(r)\n  later(side r): vp(r) += 1\n",
     "ruleset.yaml:22:5: unknown function 'later' ('later' is defined further down under 'procedures:': a procedure may "
     "use only the procedures defined above it and itself, so move 'later' above the one calling it)"),
    ("award(side r, int n): |", "award(sdie r, int n): |",
     "ruleset.yaml:10:9: unknown type 'sdie' for parameter 'r' (did you mean 'side'?)"),
    ("award(side r, int n): |", "award: |",
     "ruleset.yaml:10:3: 'award' needs its parameters: write award() for none, or like award(c) or award(role r, int n)"),
    ("award(side r, int n): |", "procedure award(side r, int n): |",
     "ruleset.yaml:10:3: 'procedure award(side r, int n)' must be written like name(c) or name(role r, int n) (leave out "
     "'procedure': write award(side r, int n))"),
    ("award(side r, int n): |", "vp(side r, int n): |",
     "ruleset.yaml:10:3: the name 'vp' is already defined (vp(ROLE) -> int: The vp of a role); pick another name for "
     "this procedure"),
    ("    vp(r) += n\n", "    vp(r) +=\n", "ruleset.yaml:11:13: syntax error"),
    ('    text: "{r} counts down from {n}"', '    text: "{r} counts down from {m}"',
     "ruleset.yaml:19:11: the text of procedure 'countdown' writes '{m}', which names none of its parameters"),
    ("    do: |\n      if n > 0:", "    done: |\n      if n > 0:", "ruleset.yaml:15:5: unknown key 'done' in procedures/countdown(side r, int n) (did you mean 'do'?)"),
    # a parameter written twice: the body read one, the calls bound another (the owner of vp() must be a seat, ...)
    ("award(side r, int n): |", "award(side r, int r): |",
     "ruleset.yaml:10:21: the parameter 'r' is written twice in 'award(side r, int r)': each parameter needs a name of "
     "its own"),
    # a parameter code reads as its own word: 'none' read as none in the body ('+' needs a number, not none)
    ("award(side r, int n): |\n    vp(r) += n", "award(side r, int none): |\n    vp(r) += none",
     "ruleset.yaml:10:21: the parameter 'none' is a word code reads as its own, so the body could not read it"),
])
def test_a_mistake_in_a_procedure_is_reported_at_its_line(tmp_path: Path, old: str, new: str, found: str) -> None:
    assert old in RULESET
    assert found in errors(tmp_path, old, new)


def test_a_procedure_calling_itself_without_end_stops_at_call_depth_with_an_error_at_the_call(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as err:  # loading plays the first turn: nobody decides before it ends
        load(tmp_path, "countdown(current_role, 60)")
    assert ("ruleset.yaml:18:9: a game of 2 players, set up, fails before anyone decides: procedures run inside each "
            "other more than 50 deep, at this call of 'countdown': does a procedure call itself without end? (limit "
            "call_depth=50; raise it with --limit call_depth=N)") in str(err.value)
    with limits.using(limits.parse_limits(["call_depth=70"])):
        game = load(tmp_path, "countdown(current_role, 60)")
        s = game.new_state(players=2, seed=0)
    assert holds(game, s, "vp(A) == 120 and vp(B) == 60")


def test_each_call_spends_steps_of_the_effect_s_budget(tmp_path: Path) -> None:
    """46 calls in a chain, no loop: 30 steps are too few, 100 enough."""
    with limits.using(limits.parse_limits(["steps=30"])):
        with pytest.raises(RulesetError) as err:
            load(tmp_path, "countdown(current_role, 45)")
    assert "ran out of its step budget in this call of procedure 'countdown' (limit steps=30;" in str(err.value)
    with limits.using(limits.parse_limits(["steps=100"])):
        assert load(tmp_path, "countdown(current_role, 45)").new_state(players=2, seed=0).is_terminal


def test_a_procedure_taking_a_built_in_name_is_noted_and_its_calls_say_it_is_the_rulesets_own(tmp_path: Path) -> None:
    """A procedure ``say(side r)`` takes the place of the built-in say(): a call written for the built-in was refused
    for its argument with no word of why, and validate noted the same for a function but not for a procedure."""
    text = RULESET.replace("procedures:\n", "procedures:\n  say(side r): |\n    vp(r) += 1\n")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("EFFECT", 'say("hello")'), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert ("the argument 'r' of say() must be a side, but '\"hello\"' is a text (this say() is the ruleset's own, "
            "'say(side r)' under 'procedures:', which takes the place of the built-in say(): rename it to call the "
            "built-in)") in result.output
    path.write_text(text.replace("EFFECT", "say(current_role)"), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert ("ruleset.yaml:10:3: procedure 'say' has the name of a built-in function (say(TEXT)): this ruleset's code "
            "calls its own") in result.output


def test_procedures_nested_past_python_s_stack_are_told_as_procedures(tmp_path: Path) -> None:
    """Under a call_depth raised far past its default, a procedure calling itself thousands of times over reaches
    Python's stack: it was told as "the ruleset's functions call each other too deeply"."""
    with limits.using(limits.parse_limits(["call_depth=100000", "steps=10000000"])):
        with pytest.raises(RulesetError) as err:
            load(tmp_path, "countdown(current_role, 50000)")
    assert ("the call of 'countdown' is nested deeper than Python can follow: the ruleset's procedures run inside each "
            "other too deeply (limit call_depth=100,000;") in str(err.value)
