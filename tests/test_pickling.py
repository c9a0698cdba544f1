"""A compiled game pickles as what it was loaded from and is loaded again when read (engine.compiling.loading)."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random
import shutil
from pathlib import Path

import pytest

import engine
from engine.compiling import loading
from engine.compiling.loading import GameRef
from engine.core.errors import RulecraftError
from engine.runner.simulate import play_game
from tests.conftest import shipped_game


def _fresh_process_result(data: bytes) -> tuple[str, list[float]]:
    """In a spawned process: read a pickled game and play one random game of it."""
    game = pickle.loads(data)
    return game.content_hash, play_game(game, 2, 5, ("random", "random")).returns


@pytest.mark.parametrize("name", ["tic-tac-toe", "nine-domains", "iconoclasm"])
def test_a_game_pickled_and_read_plays_the_same_games(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = shipped_game(name)
    monkeypatch.setattr(loading, "_loaded", {})  # as in another process: nothing loaded yet
    copy = pickle.loads(pickle.dumps(game))
    assert copy is not game and copy.content_hash == game.content_hash
    players = min(game.player_counts)
    assert [play_game(copy, players, seed, ("random",) * players).returns for seed in range(5)] == \
        [play_game(game, players, seed, ("random",) * players).returns for seed in range(5)]


def test_variants_and_options_set_from_outside_travel_with_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    game = engine.load("connect-four", set_options={"columns": "5", "rows": "4"})
    monkeypatch.setattr(loading, "_loaded", {})
    copy = pickle.loads(pickle.dumps(game))
    assert (copy.set_options, copy.options["columns"], copy.variants) == ({"columns": "5", "rows": "4"}, 5, ())
    varied = engine.load("iconoclasm-cards", "small-grid")
    assert pickle.loads(pickle.dumps(varied)).variants == ("small-grid",)


def test_a_spawned_process_loads_the_game_itself() -> None:
    game = shipped_game("tic-tac-toe")
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        content_hash, returns = pool.apply(_fresh_process_result, (pickle.dumps(game),))
    assert content_hash == game.content_hash
    assert returns == play_game(game, 2, 5, ("random", "random")).returns


def test_a_game_whose_file_changed_since_it_was_pickled_is_refused(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ruleset.yaml"
    shutil.copy(shipped_game("tic-tac-toe").source, path)
    data = pickle.dumps(engine.load(path))
    path.write_text(path.read_text(encoding="utf-8").replace("name:", "name: renamed #", 1), encoding="utf-8")
    monkeypatch.setattr(loading, "_loaded", {})
    with pytest.raises(RulecraftError, match="changed since the game was loaded"):
        pickle.loads(data)


def test_a_built_in_ruleset_travels_by_name_and_another_by_path(tmp_path: Path) -> None:
    """A built-in ruleset is found by name wherever the package is installed on the other side."""
    assert GameRef.of(shipped_game("tic-tac-toe")).source == "tic-tac-toe"
    path = tmp_path / "ruleset.yaml"
    shutil.copy(shipped_game("tic-tac-toe").source, path)
    assert GameRef.of(engine.load(path)).source == str(path)


def test_a_game_loaded_by_a_relative_path_is_read_again_from_another_folder(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A pickled game names its file by absolute path: a process working elsewhere (a pool, a cluster) finds it."""
    (tmp_path / "mine").mkdir()
    shutil.copy(shipped_game("tic-tac-toe").source, tmp_path / "mine" / "ruleset.yaml")
    monkeypatch.chdir(tmp_path)
    game = engine.load("mine")
    data = pickle.dumps(game)
    monkeypatch.chdir(tmp_path / "mine")
    monkeypatch.setattr(loading, "_loaded", {})
    assert pickle.loads(data).content_hash == game.content_hash


def test_a_game_loaded_with_leave_to_read_a_folder_takes_it_along(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game loaded inside ``allowing([...])``, as docs/api.md says to, then pickled after the block (sent to a
    pool or a cluster) was refused on the other side: "included file ... is outside the folders it may be read
    from", since the reference named only the folders allowed when it was pickled."""
    from engine.core.confine import allowing

    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "options.yaml").write_text("options:\n  grid_width: {default: 5}\n", encoding="utf-8")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "ruleset.yaml").write_text(
        "name: shared-cards\nextends: iconoclasm-cards\ninclude: [../shared/options.yaml]\n", encoding="utf-8")
    with allowing([tmp_path / "shared"]):
        game = engine.load(tmp_path / "game")
    state = game.new_state(players=2, seed=1)
    monkeypatch.setattr(loading, "_loaded", {})  # as in another process: nothing loaded yet
    copy = pickle.loads(pickle.dumps(game))
    assert copy is not game and (copy.content_hash, copy.options["grid_width"]) == (game.content_hash, 5)
    monkeypatch.setattr(loading, "_loaded", {})
    assert pickle.loads(pickle.dumps(state)) == state


def test_a_process_loads_each_reference_once() -> None:
    game = shipped_game("tic-tac-toe")
    data = pickle.dumps(game)
    assert pickle.loads(data) is pickle.loads(data)


def _play_out(state: engine.State, seed: int) -> engine.State:
    picks = random.Random(seed)
    while not state.is_terminal:
        actions = state.legal_actions()
        state.apply(actions[picks.randrange(len(actions))])
    return state


@pytest.mark.parametrize("name", ["tic-tac-toe", "nine-domains", "iconica", "spell-cycles", "liars-dice"])
def test_a_state_pickled_anywhere_in_a_game_plays_on_as_the_original(name: str) -> None:
    """A state travels as its save: equal, with the same legal actions, and the same rest of the game."""
    game = shipped_game(name)
    players = min(game.player_counts)
    for seed in range(2):
        state = game.new_state(players=players, seed=seed)
        choose = random.Random(seed)
        while not state.is_terminal:
            copy = pickle.loads(pickle.dumps(state))
            assert copy == state and list(map(str, copy.legal_actions())) == list(map(str, state.legal_actions()))
            if choose.random() < 0.2:
                assert _play_out(copy, seed) == _play_out(state.clone(), seed)
            actions = state.legal_actions()
            state.apply(actions[choose.randrange(len(actions))])


def test_a_recorded_state_pickled_keeps_its_log_and_history() -> None:
    """A researcher pickling a recorded state (multiprocessing, Ray) gets back how the game got there too."""
    state = engine.load("tutorial-tiles").new_state(players=2, seed=1, record=True)
    state.play(0)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.history == state.history and copy.log == state.log
    assert copy.history and copy.history is not state.history
    plain = pickle.loads(pickle.dumps(engine.load("tutorial-tiles").new_state(players=2, seed=1)))
    assert plain.history is None and plain.log is None


def _chosen_in_a_fresh_process(data: bytes) -> bytes:
    """In a spawned process: read a pickled state and send back its third legal action, pickled."""
    return pickle.dumps(pickle.loads(data).legal_actions()[2])


@pytest.mark.parametrize("name", ["tic-tac-toe", "nine-domains", "iconoclasm-cards", "liars-dice", "spell-cycles"])
def test_actions_pickle_and_apply_to_a_state_of_another_load_as_to_their_own(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pickling an action raised "Can't pickle local object 'Builder.zone_ref.<locals>.<lambda>'", so an agent in a
    multiprocessing or Ray task could not send back its choice; and a state refused an action of another load of the
    same ruleset.  Now each action (turn steps', choices', chance results with explicit chance) pickles, and applies to
    the original state, to a pickled copy of it and to a state of another load the same as the action itself."""
    game = shipped_game(name)
    players = min(n for n in game.player_counts if n > 1)
    state = game.new_state(players=players, seed=3, explicit_chance=True)
    monkeypatch.setattr(loading, "_loaded", {})  # as in another process: nothing loaded yet
    other = pickle.loads(pickle.dumps(state))
    assert other.game is not game
    choose = random.Random(3)
    for _ in range(40):
        if state.is_terminal:
            break
        action = state.legal_actions()[choose.randrange(len(state.legal_actions()))]
        copy = pickle.loads(pickle.dumps(action))
        assert str(copy) == str(action)
        here = state.clone()
        here.apply(copy)
        other.apply(action)
        state.apply(action)
        assert here == state and other.to_json() == state.to_json()


@pytest.mark.parametrize("name, players, kind", [("iconoclasm", 3, "switch_role"), ("iconica", 4, "team_order")])
def test_actions_of_every_kind_of_step_pickle(name: str, players: int, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the steps that kept their game (place, move, ...) had actions that pickled: Iconoclasm's switch_role
    ('keep') and Iconica's team_order with 4 ('Amber first') raised "cannot be pickled (its step is no step of a game's
    turn)", decisions an agent in another process could not send back.  Every step knows its game now."""
    game = shipped_game(name)
    state = game.new_state(players=players, seed=0)
    monkeypatch.setattr(loading, "_loaded", {})  # as in another process: nothing loaded yet
    other = pickle.loads(pickle.dumps(state))
    choose, kinds = random.Random(0), set()
    for _ in range(30):
        actions = state.legal_actions()
        action = actions[choose.randrange(len(actions))]
        kinds.add(getattr(action.step, "kind", None))  # an answer to a choice: none
        other.apply(pickle.loads(pickle.dumps(action)))
        state.apply(action)
        assert other.to_json() == state.to_json()
    assert kind in kinds


def test_a_joint_action_of_pickled_actions_applies_as_one_action_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """apply took an action read back from a pickle, apply_joint refused it: "'commit 3- to left' is not a legal
    action of seat 1 now", to the state it was listed by as to another load.  An action of another ruleset still is."""
    game = shipped_game("nine-domains")
    state = game.new_state(players=2, seed=1)
    monkeypatch.setattr(loading, "_loaded", {})
    other = pickle.loads(pickle.dumps(state))
    joint = {seat: state.legal_actions(seat)[-1] for seat in state.simultaneous_seats()}
    sent = {seat: pickle.loads(pickle.dumps(action)) for seat, action in joint.items()}
    assert len(joint) == 2 and all(action.step.game is not game for action in sent.values())
    here = state.clone()
    here.apply_joint(sent)
    other.apply_joint(sent)
    state.apply_joint(joint)
    assert here == state and other.to_json() == state.to_json()
    foreign = shipped_game("sealed-tiles").new_state(players=2, seed=1)
    before = foreign.clone()
    with pytest.raises(RulecraftError, match="is not a legal action of seat 1 now"):
        foreign.apply_joint({seat: pickle.loads(pickle.dumps(action)) for seat, action in joint.items()})
    assert foreign == before


@pytest.mark.parametrize("variants, options, told", [
    (["short"], {}, r"there variants short, no option set; here no variant, no option set"),
    ([], {"start_essence": "9"}, r"there no variant, options start_essence=9; here no variant, no option set")])
def test_an_action_of_the_ruleset_with_other_variants_or_options_is_refused_without_advice_to_send_its_text(
        variants: list[str], options: dict[str, str], told: str) -> None:
    """A pickled action of Spell Cycles' 'short' variant given to a state of the plain game was refused with the advice
    to apply its text, which would play it as a move of another game; it now says the rules differ."""
    sent = engine.load("spell-cycles", variants, options).new_state(players=2, seed=1).legal_actions()[0]
    state = shipped_game("spell-cycles").new_state(players=2, seed=1)
    before = state.clone()
    with pytest.raises(RulecraftError, match=f"with other variants or options \\({told}\\), a game of other rules$"):
        state.apply(pickle.loads(pickle.dumps(sent)))
    assert state == before


@pytest.mark.parametrize("name", ["tic-tac-toe", "nine-domains", "iconoclasm-cards", "spell-cycles"])
def test_the_legal_actions_pickle_as_the_list_of_them(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pickling state.legal_actions() raised "Can't pickle local object 'Builder.zone_ref.<locals>.<lambda>'": a task
    could send back one action, not the list it worked out.  The list comes back as a list of those actions, each
    applying to a state of another load; a copy of the space, deep or not, is the space itself, its actions its
    state's."""
    state = shipped_game(name).new_state(players=2, seed=1)
    space = state.legal_actions()
    monkeypatch.setattr(loading, "_loaded", {})
    back = pickle.loads(pickle.dumps(space))
    assert type(back) is list and [str(a) for a in back] == space.texts()
    other = pickle.loads(pickle.dumps(state))
    other.apply(back[-1])
    state.apply(space[-1])
    assert other.to_json() == state.to_json()
    assert copy.copy(space) is space and copy.deepcopy(space) is space


def test_an_action_travels_back_from_a_spawned_process() -> None:
    state = shipped_game("tic-tac-toe").new_state(players=2, seed=1)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        data = pool.apply(_chosen_in_a_fresh_process, (pickle.dumps(state),))
    action = pickle.loads(data)
    assert str(action) == str(state.legal_actions()[2])
    state.apply(action)
    assert state.turn_number == 2


def test_an_action_of_another_ruleset_is_still_refused_and_one_of_no_turn_step_says_how_to_send_it() -> None:
    from engine.core.actions import Action

    state = shipped_game("tic-tac-toe").new_state(players=2, seed=1)
    foreign = shipped_game("connect-four").new_state(players=2, seed=1).legal_actions()[0]
    before = state.clone()
    with pytest.raises(RulecraftError, match="listed by a state of another game"):
        state.apply(pickle.loads(pickle.dumps(foreign)))
    assert state == before

    class Stepless:
        def format(self, args: tuple[object, ...]) -> str:
            return "pass"

    with pytest.raises(TypeError, match=r"^the action 'pass' cannot be pickled .*send its text, str\(action\)"):
        pickle.dumps(Action(Stepless(), ("pass",)))
