"""The turn order: leaving it (``leave(ROLE)``, ``has_left(ROLE)``), another turn (``play_again()``) and a chosen next
role (``play_next(ROLE)``) (engine/blocks/seat_functions.py, State.next_turn)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.core import limits
from engine.runner.scenario import run_scenario

LEAVE = Path(__file__).parent / "data" / "leave"


def tiles_with(tmp_path: Path, turn: str, end: str = "all(count(t in hand(r)) == 0 or has_left(r) for r in roles)") -> engine.Game:
    """The tutorial for three with ``turn`` (YAML) instead of its own, ending when ``end`` holds."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(f"name: t\nextends: tutorial-tiles\nplayers: [3]\nturn:\n{turn}end: {{when: '{end}'}}\n", encoding="utf-8")
    return engine.load(path)


@pytest.mark.parametrize("path", sorted((LEAVE / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_leave_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


def test_a_role_that_leaves_in_its_own_turn_skips_the_rest_of_it(tmp_path: Path) -> None:
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if count(t in hand(current_role)) == 2 and current_role == Star: leave(Star)'}\n"
                                "  - clash: {table: beats, attribute: symbol, order: player}\n")
    s = game.new_state(players=3, seed=0, record=True)
    s.apply("place Sun/Star as Sun at 0,0")
    s.apply("place Star/Moon as Star at -1,0")  # Star leaves before its clash: Sun's tile stays Sun
    assert s.log[-1] == "Star leaves the turn order" and s.current_role == "Moon"
    assert [str(a) for a in s.legal_actions()][0].startswith("place Moon/")
    s.apply("place Moon/Moon as Moon at 0,1")
    assert s.current_role == "Sun"  # Star is passed over
    again = game.state_from_json(s.to_json())
    assert again.current_role == "Sun" and game.compile_condition("has_left(Star)").test(again)


def test_when_every_role_has_left_the_game_ends(tmp_path: Path) -> None:
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n  - do: {effect: 'leave(current_role)'}\n",
                      end="all(count(t in hand(r)) == 0 for r in roles)")
    s = game.new_state(players=3, seed=0, record=True)
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.is_terminal and s.outcome.ended == "nobody is left in the turn order"


def test_leave_needs_a_role(tmp_path: Path) -> None:
    with pytest.raises(engine.RulesetError, match="role"):
        tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n  - do: {effect: 'leave(3)'}\n")


# ------------------------------------------------------------ rejoin(ROLE): a role that left comes back

def test_a_role_that_rejoins_takes_its_turns_again(tmp_path: Path) -> None:
    """Out of a round, dealt in for the next: Star leaves on turn 1 and rejoins on turn 3, so turn 4 is Sun's (Star
    passed over while out) and turn 5 Star's again.  Before rejoin() a role that left was out for good."""
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if turn == 1: leave(Star)\n\n      if turn == 3: rejoin(Star)'}\n")
    s = game.new_state(players=3, seed=0, record=True)
    s.apply(s.legal_actions()[0])  # Sun: Star leaves
    assert s.current_role == "Moon"
    s.apply(s.legal_actions()[0])  # Moon
    assert s.current_role == "Sun"
    s.apply(s.legal_actions()[0])  # Sun: Star rejoins
    assert s.log[-1] == "Star rejoins the turn order" and not game.compile_condition("has_left(Star)").test(s)
    assert s.current_role == "Star"
    assert game.state_from_json(s.to_json()) == s


def test_rejoin_of_a_role_that_has_not_left_changes_nothing(tmp_path: Path) -> None:
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n  - do: {effect: 'rejoin(Star)'}\n")
    s = game.new_state(players=3, seed=0, record=True)
    s.apply(s.legal_actions()[0])
    assert "Star rejoins the turn order" not in s.log and s.current_role == "Star"


def test_rejoin_is_refused_in_a_game_of_sealed_rounds(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: t\nextends: sealed-tiles\nturn+:\n  - do: {effect: 'rejoin(current_role)'}\n", encoding="utf-8")
    with pytest.raises(engine.RulesetError, match=r"rejoin\(\) can't be used in a ruleset with a 'reveal' step"):
        engine.load(path)


# ------------------------------------------------------------ play_again(): the same role takes the next turn too

AGAIN_IF_SUN = "  - place: {from: hand, face: choose}\n  - do: {effect: 'if current_role == Sun and turn == 1: play_again()'}\n"


def test_play_again_gives_the_role_the_next_turn_too(tmp_path: Path) -> None:
    game = tiles_with(tmp_path, AGAIN_IF_SUN)
    s = game.new_state(players=3, seed=0, record=True)
    assert s.current_role == "Sun"
    s.apply("place Sun/Star as Sun at 0,0")
    assert "Sun plays again" in s.log
    assert s.current_role == "Sun" and s.turn_number == 2  # another turn: counted as one
    s.apply(s.legal_actions()[0])
    assert s.current_role == "Star"  # once only: then the turn order goes on as before


def test_a_turn_to_play_again_is_kept_by_a_save(tmp_path: Path) -> None:
    """The turn is given when the turn ends: a save made in between (at the turn's second placement) keeps it."""
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if current_role == Sun and turn == 1: play_again()'}\n"
                                "  - place: {from: hand, face: choose}\n")
    s = game.new_state(players=3, seed=0)
    s.apply("place Sun/Star as Sun at 0,0")
    loaded = game.state_from_json(s.to_json())
    assert loaded == s
    loaded.apply("place Sun/Moon as Sun at 1,0")
    assert loaded.current_role == "Sun" and loaded.turn_number == 2
    loaded.apply("place Sun/Sun as Sun at 0,1")
    loaded.apply("place Star/Star as Star at -1,0")
    assert loaded.current_role == "Star"


def test_a_role_that_plays_again_and_leaves_is_passed_over(tmp_path: Path) -> None:
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if current_role == Sun: play_again(); leave(Sun)'}\n")
    s = game.new_state(players=3, seed=0)
    s.apply("place Sun/Star as Sun at 0,0")
    assert s.current_role == "Star"


def test_play_again_takes_no_argument(tmp_path: Path) -> None:
    with pytest.raises(engine.RulesetError, match=r"play_again\(\) takes 0 arguments"):
        tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n  - do: {effect: 'play_again(Sun)'}\n")


# ------------------------------------------------------------ play_next(ROLE): a chosen role takes the next turn

def test_play_next_gives_the_next_turn_to_the_role_and_the_order_goes_on_from_it(tmp_path: Path) -> None:
    """Sun, Star, Moon: Sun's first turn hands the next to Moon, after whom Sun plays again (the order goes on)."""
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if current_role == Sun and turn == 1: play_next(Moon)'}\n")
    s = game.new_state(players=3, seed=0, record=True)
    s.apply("place Sun/Star as Sun at 0,0")
    assert "Moon plays next" in s.log and s.current_role == "Moon" and s.turn_number == 2
    s.apply(s.legal_actions()[0])
    assert s.current_role == "Sun"  # once only: after Moon comes Sun, as before
    again = game.state_from_json(s.to_json())
    assert again == s


def test_the_last_of_play_next_and_play_again_decides(tmp_path: Path) -> None:
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if current_role == Sun and turn == 1: play_next(Moon); play_again()'}\n")
    s = game.new_state(players=3, seed=0)
    s.apply("place Sun/Star as Sun at 0,0")
    assert s.current_role == "Sun"
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if current_role == Sun and turn == 1: play_again(); play_next(Moon)'}\n")
    s = game.new_state(players=3, seed=0)
    s.apply("place Sun/Star as Sun at 0,0")
    assert s.current_role == "Moon"


def test_play_next_of_a_role_that_left_changes_nothing(tmp_path: Path) -> None:
    game = tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n"
                                "  - do: {effect: 'if current_role == Sun: leave(Moon); play_next(Moon)'}\n")
    s = game.new_state(players=3, seed=0)
    s.apply("place Sun/Star as Sun at 0,0")
    assert s.current_role == "Star"


@pytest.mark.parametrize("call, count", [("play_next()", 0), ("play_next(Sun, Moon)", 2)])
def test_play_next_with_a_wrong_number_of_arguments_is_told_not_a_crash(tmp_path: Path, call: str, count: int) -> None:
    with pytest.raises(engine.RulesetError, match=rf"play_next\(\) takes 1 argument, not {count}"):
        tiles_with(tmp_path, f"  - place: {{from: hand, face: choose}}\n  - do: {{effect: '{call}'}}\n")


def test_play_next_needs_a_role(tmp_path: Path) -> None:
    with pytest.raises(engine.RulesetError, match=r"the role of play_next\(\) must be a symbol, but '2' is an int"):
        tiles_with(tmp_path, "  - place: {from: hand, face: choose}\n  - do: {effect: 'play_next(2)'}\n")


def test_play_again_in_setup_is_refused_naming_what_chooses_who_starts(tmp_path: Path) -> None:
    """In setup, play_again() gave the first role two turns (the note is read when a turn ends); it now stops the
    setup with an error naming first_seat and play_next."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: t\nextends: tutorial-tiles\nplayers: [3]\nsetup+:\n  after: deal\n  add:\n"
                    "    - name: start\n      do: play_again()\n", encoding="utf-8")
    with pytest.raises(engine.RulesetError, match=r"ruleset.yaml:8:11: setting up 3 players fails: play_again\(\) gives "
                                                  r"the next turn during play, not in setup: the first turn goes to the "
                                                  r"ruleset's first_seat .*, or to the role setup names with "
                                                  r"play_next\(ROLE\)"):
        engine.load(path)


def test_play_next_in_setup_gives_the_first_turn(tmp_path: Path) -> None:
    """A setup part 'play_next(Moon)' used to log 'Moon plays next' while Sun took the first turn and Moon only the
    second; now Moon takes the first turn and the order goes on from it, whatever the deal of the roles."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: t\nextends: tutorial-tiles\nplayers: [3]\nsetup+:\n  after: deal\n  add:\n"
                    "    - name: start\n      do: play_next(Moon)\n", encoding="utf-8")
    game = engine.load(path)
    for seed in range(3):
        s = game.new_state(players=3, seed=seed, record=True)
        assert s.current_role == "Moon" and s.turn_number == 1 and "Moon takes the first turn" in s.log
        after = s.order[(s.order.index("Moon") + 1) % 3]
        s.apply(s.legal_actions()[0])
        assert s.current_role == after
        assert game.state_from_json(s.to_json()) == s


def test_a_budget_run_out_by_turns_nobody_can_play_says_so(tmp_path: Path) -> None:
    """Once nobody can place, turns pass without a decision inside the last action, sharing its step budget, and the
    error pointed at whatever code happened to run out of it (the scoring's ranking): it now says how many turns
    passed since the last decision and which end a ruleset whose players may all be stuck needs."""
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: stuck\nextends: tutorial-tiles\nend:\n  when: count(t in tiles where t.symbol == Sun) > 100\n"
                    "  max_turns: 10000\n  stalled: false\n", encoding="utf-8")
    with limits.using(limits.parse_limits(["steps=2000"])):
        s = engine.load(path).new_state(players=2, seed=1)
    with pytest.raises(engine.RulecraftError, match=r"step budget .*; \d+ turns passed since the last decision, "
                                                     r"nobody able to act: .* end: \{stalled: true\}"):
        while not s.is_terminal:
            s.play(0)


def test_a_usual_turn_passes_without_reading_the_turn_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """While no role left the turn order, plays again or plays next, the end of a turn passes it to the next role
    straight away (every playout and search rollout ends each turn so): the same games, no look at the turn order."""
    from engine.model.state import State

    game = engine.load("tutorial-tiles")
    plain = [game.new_state(players=3, seed=seed) for seed in range(3)]
    for s in plain:
        while s.outcome is None:
            s.play(s.turn_number % len(s.legal_actions()))

    def unread(self: State) -> None:
        raise AssertionError("the turn order was read at the end of a usual turn")

    monkeypatch.setattr(State, "next_turn", unread)
    monkeypatch.setattr(State, "left_roles", unread)
    for seed, expected in enumerate(plain):
        s = game.new_state(players=3, seed=seed)
        while s.outcome is None:
            s.play(s.turn_number % len(s.legal_actions()))
        assert s == expected
