"""An action the ruleset fails to carry out half-way changes nothing: ``State.apply`` and ``apply_joint`` put it back.

A card's program that adds 5 coins and then divides by a counter that is 0
raised its positioned error, but the state kept the 5 coins, the log lines and
the action in its history: the command line, the server and the RL environment
played on a copy, the Python API did not.  Playouts (``play``, ``apply(...,
undo=False)``) keep no copy: they drop a state the ruleset failed in.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

import engine
from engine.blocks import choices
from engine.core.errors import EffectRuntimeError

ROOT = Path(__file__).resolve().parents[2]

PROGRAMS = """\
name: failing-program
players: [2]
programs: [on_play]
components:
  card:
    attributes: {on_play: text}
    instances:
      - {id: plain}
      - {id: spare}
      - id: bad
        on_play: |
          gold(current_role) += 5
          gold(current_role) = 1 / gold(nth(roles, 2))
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
  when: count(played) >= 2
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


@pytest.mark.parametrize("replaying", [False, True], ids=["paused", "replayed"])
def test_an_answer_whose_effect_finishes_before_the_ruleset_fails_leaves_the_state_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replaying: bool) -> None:
    """The answer's effect runs to its end; the turn's next step then divides by zero.  The state must not be left
    with the effect's changes made and the choice asked again."""
    monkeypatch.setattr(choices, "_REPLAYING", replaying)
    path = tmp_path / "ruleset.yaml"
    path.write_text(PROGRAMS.replace("end:", "  - do:\n      effect: |\n        gold(current_role) += 1\n"
                                            "        gold(current_role) = 1 / (count(played) - count(played))\nend:"),
                    encoding="utf-8")
    s = engine.load(path).new_state(players=2, seed=0, record=True)
    before = s.clone(record=True)
    with pytest.raises(EffectRuntimeError, match="division by zero"):
        s.apply("choose plain")
    assert s == before and s.log == before.log and s.history == before.history
    assert s.legal_actions().texts() == before.legal_actions().texts()


def failing_bids(tmp_path: Path) -> engine.Game:
    """Sealed bids whose reveal, once both bids are in, takes the lot and then divides by zero."""
    text = (ROOT / "docs" / "examples" / "sealed-bids" / "ruleset.yaml").read_text(encoding="utf-8")
    last = "          move(l in block, lost, 1)\n"
    assert last in text
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace(last, last + "        coins(nth(roles, 1)) = 1 / (top() - top())\n"), encoding="utf-8")
    return engine.load(path)


@pytest.mark.parametrize("replaying", [False, True], ids=["paused", "replayed"])
def test_a_card_program_failing_after_a_change_leaves_the_state_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replaying: bool) -> None:
    monkeypatch.setattr(choices, "_REPLAYING", replaying)  # as without the greenlet package
    path = tmp_path / "ruleset.yaml"
    path.write_text(PROGRAMS, encoding="utf-8")
    s = engine.load(path).new_state(players=2, seed=0, record=True)
    before = s.clone(record=True)
    with pytest.raises(EffectRuntimeError, match="division by zero"):
        s.apply("choose bad")
    assert s == before and s.log == before.log and s.history == before.history
    s.apply("choose plain")  # and it plays on as if the failed action had not been tried
    assert s.history == ["choose plain"]


def test_a_reveal_failing_after_a_change_leaves_the_state_as_it_was(tmp_path: Path) -> None:
    s = failing_bids(tmp_path).new_state(players=2, seed=0, record=True)
    s.apply(s.legal_actions()[1])
    before = s.clone(record=True)
    with pytest.raises(EffectRuntimeError, match="division by zero"):
        s.apply(s.legal_actions()[0])
    assert s == before and s.log == before.log and s.history == before.history
    assert s.turn_starts and s.turn_starts == before.turn_starts  # kept beside the log, not put back from the copy


def test_a_joint_action_failing_takes_back_every_seats_decision(tmp_path: Path) -> None:
    s = failing_bids(tmp_path).new_state(players=2, seed=0, record=True)
    before = s.clone(record=True)
    with pytest.raises(EffectRuntimeError, match="division by zero"):
        s.apply_joint({1: s.legal_actions(1)[1], 2: s.legal_actions(2)[2]})
    assert s == before and s.log == before.log and s.history == before.history
    assert s.turn_starts and s.turn_starts == before.turn_starts


def test_a_playout_move_keeps_no_copy(tmp_path: Path) -> None:
    s = failing_bids(tmp_path).new_state(players=2, seed=0)
    s.play(1)
    before = s.clone()
    with pytest.raises(EffectRuntimeError):
        s.apply(s.legal_actions()[0], undo=False)
    assert s != before


@pytest.mark.parametrize("index", [1.5, "1", None])
def test_play_given_no_whole_number_says_what_it_takes(index: object) -> None:
    """play(1.5) said "tuple indices must be integers or slices, not float", play("1") "'<' not supported between
    instances of 'str' and 'int'": how a table inside was indexed, not what play() takes."""
    s = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    before = s.clone()
    with pytest.raises(TypeError, match=r"^play\(\) takes the number of a legal action \(a whole number\), not "):
        s.play(index)  # type: ignore[arg-type]
    assert s == before


def test_public_text_takes_an_action_or_its_text() -> None:
    """public_text(None) raised "AttributeError: 'NoneType' object has no attribute 'step'"; its text was refused so."""
    s = engine.load(ROOT / "docs" / "examples" / "crazy-eights").new_state(players=2, seed=3)
    text = str(s.legal_actions()[0])
    assert s.public_text(text) == s.public_text(s.legal_actions()[0]) == f"choose a card from hand of {s.current_role}"
    with pytest.raises(TypeError, match=r"^public_text\(\) takes one of legal_actions\(\) or its text, not NoneType None"):
        s.public_text(None)  # type: ignore[arg-type]


def test_public_text_refuses_an_action_that_is_not_legal_now() -> None:
    """An action listed at another position was written out whole ("choose 7/Hearts"): its card was no longer among the
    hidden options, so nothing hid it.  What an action hides depends on the position, so it must be legal there."""
    s = engine.load(ROOT / "docs" / "examples" / "crazy-eights").new_state(players=2, seed=3)
    stale = s.legal_actions()[0]
    s.apply(stale)
    if stale in s.legal_actions():  # pragma: no cover - the example's second decision is another hand's
        pytest.skip("the action is legal again")
    before = s.to_json()
    with pytest.raises(engine.IllegalActionError, match="is not a legal action now"):
        s.public_text(stale)
    assert s.to_json() == before


@pytest.mark.parametrize("args", [("x", "x", "x"), (999999, 999999, 999999), ()])
def test_an_action_made_up_by_hand_is_refused_as_not_legal(args: tuple) -> None:
    """An Action built by hand with arguments no listing holds was tested for legality by indexing with them, and
    apply and public_text raised Python's TypeError, IndexError or ValueError; it is an IllegalActionError."""
    from engine.core.actions import Action
    from engine.core.errors import IllegalActionError

    state = engine.load("iconoclasm-cards").new_state(players=2, seed=1)
    before = state.to_json()
    made_up = Action(state.legal_actions()[0].step, args)
    for call in (state.apply, state.public_text):
        with pytest.raises(IllegalActionError, match=r"^an action made up with the arguments .* \(no step writes "
                                                     r"them\) is not a legal action now"):
            call(made_up)
    assert state.to_json() == before


def _stale_and_now(name: str) -> tuple:
    """A state of ``name`` after its first legal action, and that action, no longer legal there."""
    state = engine.load(name).new_state(seed=1)
    for _ in range(6):
        first = state.legal_actions()[0]
        state.apply(first)
        if not state._offered(first) and state.outcome is None and state.chance is None:
            return state, first
    pytest.skip("no stale action found")  # pragma: no cover


@pytest.mark.parametrize("name", ["tic-tac-toe", "iconoclasm-cards", "nine-domains", "breakthrough", "iconica"])
def test_an_action_claiming_to_be_listed_now_is_tested_as_any_other(name: str) -> None:
    """An Action made by hand naming the state's own list as its origin (``Action(step, args, origin=...)``), or a
    listed action whose arguments (or step) were changed since, skipped the legality test: apply played a move no rule
    allows (a mark on a taken cell, a piece off the board).  Both are refused, the state unchanged."""
    from engine.core.actions import Action

    state, stale = _stale_and_now(name)
    before = state.to_json()
    legal = state.legal_actions()
    changed, renamed = legal[0], legal[1]
    changed.args = stale.args
    renamed.step = SimpleNamespace(index=0, sealed=False, format=lambda args: "something else",
                                   public_format=lambda args: "something else")  # its history would say another move
    for forged in (Action(stale.step, stale.args, origin=legal), Action(stale.step, stale.args, legal, 0), changed,
                   renamed):
        for call in (state.apply, state.public_text):
            with pytest.raises(engine.IllegalActionError, match="is not a legal action now"):
                call(forged)
        assert state.to_json() == before
    state.apply(state.legal_actions()[-1])  # what the list built plays as before


def test_arguments_that_claim_to_equal_anything_are_refused() -> None:
    """An argument whose ``__eq__`` is always true equalled a listed one, passed the legality test and failed inside
    with Python's TypeError; it is refused as not legal, the state unchanged."""
    from engine.core.actions import Action

    class Anything:
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 0

    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    before, step = state.to_json(), state.legal_actions()[0].step
    with pytest.raises(engine.IllegalActionError, match="is not a legal action now"):
        state.apply(Action(step, (Anything(), Anything(), Anything())))
    assert state.to_json() == before


def test_a_joint_action_made_up_by_hand_is_refused_and_changes_nothing() -> None:
    """``apply_joint`` raised Python's AttributeError for a seat given a number or None, and TypeError for an action
    whose arguments were made up (``("nope", "nope")``, or equal to anything), from deep inside; each is refused with
    a reason, the state unchanged."""
    from engine.core.actions import Action

    class Anything:
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 0

    state = engine.load("nine-domains").new_state(players=2, seed=1)
    while not state.simultaneous_seats():
        state.play(0)
    first, second = state.simultaneous_seats()
    mine, theirs = state.legal_actions(first)[0], state.legal_actions(second)[0]
    before = state.to_json()
    for given in (5, None):
        with pytest.raises(TypeError, match=r"^apply_joint\(\) takes for each seat one of legal_actions\(seat\)"):
            state.apply_joint({first: mine, second: given})
    changed = state.legal_actions(second)[0]
    changed.args = ("nope",) * len(changed.args)
    for made_up in (Action(theirs.step, (Anything(),) * len(theirs.args)), changed):
        with pytest.raises(engine.IllegalActionError, match=r"is not a legal action of seat 2 now"):
            state.apply_joint({first: mine, second: made_up})
    assert state.to_json() == before
    state.apply_joint({first: mine, second: theirs})


@pytest.mark.parametrize("given", [5, None, b"place X at 0,0"])
def test_parse_action_of_something_not_text_says_it_takes_text(given: object) -> None:
    """``parse_action(5)`` failed inside on a regular expression: "expected string or bytes-like object"."""
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    with pytest.raises(TypeError, match=r"^parse_action\(\) takes the text of an action, not "):
        state.parse_action(given)  # type: ignore[arg-type]
