"""Replays that refuse to lie (engine.runner.replay, ``rulecraft replay``).

A replay records the ruleset's content hash and version and a short hash of
the position after every action.  It rebuilds the game exactly; it refuses a
ruleset whose content changed unless forced, and then reports the first
action that is refused or leads to another position than the one recorded.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.gamelog import GameLog, replay as gamelog_replay, ruleset_ref
from cli.main import main
import engine
from engine.model.savefile import SaveError
from engine.runner.replay import FORMAT, Replay, ReplayDiverged, RulesetChanged, checked_playout, replay, state_hash

ROOT = Path(__file__).resolve().parent.parent
CARDS_DIR = ROOT / "rulesets" / "iconoclasm-cards"
CLASH_ROW = "Fire:  {Earth: neighbour, Water: both, Air: placed}"


def finished_game(ruleset: str | Path = "iconoclasm-cards", players: int = 2, seed: int = 3) -> engine.State:
    game = engine.load(ruleset)
    state = game.new_state(players=players, seed=seed, record=True)
    k = 0
    while not state.is_terminal:
        actions = state.legal_actions()
        state.apply(actions[(seed + k) % len(actions)])
        k += 1
    return state


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture
def cards_copy(tmp_path: Path) -> Path:
    """A private copy of the card game, to change after a game was recorded."""
    folder = tmp_path / "cards"
    shutil.copytree(CARDS_DIR, folder)
    return folder / "ruleset.yaml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---------------------------------------------------------------- recording and reading


def test_a_finished_game_is_recorded_with_hash_version_and_positions(tmp_path: Path) -> None:
    state = finished_game()
    log = Replay.record(state, "iconoclasm-cards", seed=3)
    assert log.content_hash == state.game.content_hash and log.version == state.game.version
    assert log.actions == state.history and len(log.hashes) == len(log.actions) + 1
    assert log.hashes[-1] == state_hash(state) and all(len(h) == 12 for h in log.hashes)
    path = tmp_path / "game.json"
    log.write(path)
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["ruleset"] == "iconoclasm-cards"
    assert {"content_hash", "version", "variant", "players", "seed", "actions", "hashes"} <= set(data)
    again = Replay.read(path)
    assert (again.content_hash, again.version, again.hashes, again.actions) == (log.content_hash, log.version, log.hashes, log.actions)
    _, fresh = again.start()
    again.play(fresh)
    assert fresh == state


def test_replaying_rebuilds_the_game_bit_for_bit() -> None:
    state = finished_game(players=4, seed=8)
    log = Replay.record(state, "iconoclasm-cards", seed=8)
    _, fresh = log.start()
    seen: list[int] = []
    replay(fresh, log.actions, lambda number, text, seat: seen.append(number), log.hashes)
    assert seen == list(range(1, len(log.actions) + 1))
    assert fresh == state and fresh.to_json() == state.to_json()


def test_a_game_whose_dice_were_actions_is_recorded_and_replayed_not_played_on(tmp_path: Path) -> None:
    """Replay.record of a game made with explicit_chance=True raised ReplayDiverged ('roll 4' is not a legal action
    now): the replay set the game up without it.  It is recorded so, and replayed; play --load refuses to go on
    with it, as its dice would then roll themselves."""
    state = engine.load("iconica").new_state(players=2, seed=1, record=True, explicit_chance=True)
    while state.current_player != engine.CHANCE:
        state.apply(state.legal_actions()[0])
    state.apply("roll 4")
    state.apply("roll 2")
    Replay.record(state, "iconica", seed=1).write(tmp_path / "dice.json")
    assert json.loads((tmp_path / "dice.json").read_text())["explicit_chance"] is True
    log = Replay.read(tmp_path / "dice.json")
    _, again = log.start()
    log.play(again)
    assert again == state and again.explicit_chance and "roll 4" in again.history
    assert run("replay", str(tmp_path / "dice.json")).exit_code == 0
    refused = run("play", "--load", str(tmp_path / "dice.json"), input="quit\n")
    assert refused.exit_code == 1 and "rolled its dice as actions" in refused.output
    with pytest.raises(SaveError, match="'explicit_chance' must be true or false, not 'yes'"):
        Replay.from_json({**log.to_json(), "explicit_chance": "yes"}, "log.json")


def test_a_replay_recorded_under_another_built_in_name_or_seed_is_refused_saying_so() -> None:
    """Replay.record(tic-tac-toe's state, "kuhn-poker", ...) wrote a log that later read as 'ruleset kuhn-poker has
    changed since this game was recorded'; another seed was 'was it set up by hand?'."""
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1, record=True)
    state.apply("place X at 1,1")
    with pytest.raises(SaveError, match="^this is a game of tic-tac-toe, not of the built-in ruleset kuhn-poker"):
        Replay.record(state, "kuhn-poker", seed=1)
    with pytest.raises(SaveError, match="from seed 2 does not reach its position \\(was it set up with another seed"):
        Replay.record(state, "tic-tac-toe", seed=2)
    assert Replay.record(state, "tic-tac-toe", seed=1).actions == ["place X at 1,1"]
    numpy = pytest.importorskip("numpy")  # a NumPy seed was kept as one, and json.dumps refused the log
    assert json.loads(json.dumps(Replay.record(state, "tic-tac-toe", seed=numpy.int64(1)).to_json()))["seed"] == 1
    with pytest.raises(TypeError, match="^the seed is a whole number, not '1'$"):
        Replay.record(state, "tic-tac-toe", seed="1")  # type: ignore[arg-type]


def test_a_game_that_was_not_recorded_cannot_become_a_replay() -> None:
    state = engine.load("tutorial-tiles").new_state(players=2, seed=1)
    with pytest.raises(SaveError, match="not recorded"):
        Replay.record(state, "tutorial-tiles", seed=1)


def test_the_position_hash_ignores_the_rulesets_identity(cards_copy: Path) -> None:
    before = engine.load(cards_copy).new_state(players=3, seed=2)
    edit(cards_copy, "version: 1", "version: 2")
    after = engine.load(cards_copy).new_state(players=3, seed=2)
    assert before.game.content_hash != after.game.content_hash
    assert state_hash(before) == state_hash(after)
    after.apply(after.legal_actions()[0])
    assert state_hash(before) != state_hash(after)


def test_an_old_log_without_hashes_still_replays(tmp_path: Path) -> None:
    state = finished_game("tutorial-tiles", players=3, seed=2)
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"ruleset": "tutorial-tiles", "variant": [], "players": 3, "seed": 2,
                                "actions": state.history}))
    log = GameLog.read(path)
    assert log.content_hash is None and log.hashes == [] and not log.checked
    _, fresh = log.start()
    gamelog_replay(fresh, log.actions)
    assert fresh == state
    result = run("replay", str(path))  # it replays, saying plainly that it is checked less
    assert result.exit_code == 0 and "note: this is a format-1 log" in result.output
    resumed = run("play", "--load", str(path), input="quit\n")
    assert "note: this is a format-1 log" in resumed.output


def test_the_cli_names_still_work() -> None:
    assert GameLog is Replay
    assert ruleset_ref("tutorial-tiles") == "tutorial-tiles"
    assert ruleset_ref(str(CARDS_DIR)) == str(CARDS_DIR / "ruleset.yaml")


# ---------------------------------------------------------------- refusing to lie


def test_an_edited_but_legal_action_is_caught_by_its_position() -> None:
    state = finished_game(seed=5)
    log = Replay.record(state, "iconoclasm-cards", seed=5)
    _, probe = log.start()
    replay(probe, log.actions[:2])
    other = next(str(a) for a in probe.legal_actions() if str(a) != log.actions[2])
    log.actions[2] = other
    _, fresh = log.start()
    with pytest.raises(ReplayDiverged) as caught:
        log.play(fresh)
    assert caught.value.number == 3 and caught.value.action == other
    assert "leads to a position that differs from the recorded one" in str(caught.value)


def test_an_illegal_action_is_refused_with_its_number() -> None:
    log = Replay.record(finished_game(seed=4), "iconoclasm-cards", seed=4)
    log.actions[1] = "place nothing at 9,9"
    _, fresh = log.start()
    with pytest.raises(ReplayDiverged, match="action 2 'place nothing at 9,9' cannot be replayed"):
        log.play(fresh)


def test_a_wrong_starting_position_is_reported() -> None:
    log = Replay.record(finished_game(seed=4), "iconoclasm-cards", seed=4)
    log.seed = 5
    _, fresh = log.start()
    with pytest.raises(ReplayDiverged, match="the starting position differs from the recorded one") as caught:
        log.play(fresh)
    assert caught.value.number == 0


def test_a_changed_ruleset_is_refused_unless_forced(cards_copy: Path) -> None:
    log = Replay.record(finished_game(cards_copy, seed=6), ruleset_ref(str(cards_copy)), seed=6)
    edit(cards_copy, "version: 1", "version: 2")
    with pytest.raises(RulesetChanged) as refused:
        log.start()
    message = str(refused.value)
    assert "has changed since this game was recorded" in message
    assert "version 1" in message and "version 2" in message and log.content_hash in message
    game, fresh = log.start(force=True)
    assert log.changed(game) is not None
    log.play(fresh)  # only the version changed: every position is the same


def test_a_log_whose_variant_was_edited_says_the_variants_may_have_been_edited() -> None:
    """A log of the card game whose 'variant' was edited to another variant was refused as if the ruleset's files had
    changed; the message now names the variant and says the log's variants or options may have been edited."""
    game = engine.load("iconoclasm-cards")
    log = Replay.record(game.new_state(players=2, seed=3, record=True), "iconoclasm-cards", seed=3)
    log.variant = ["winner-takes-more"]
    with pytest.raises(RulesetChanged) as refused:
        log.start()
    assert f"(with variant {log.variant[0]}), or the variants or options the log names were edited" in str(refused.value)


def test_forcing_a_changed_clash_table_reports_the_first_action_that_diverges(cards_copy: Path) -> None:
    state = finished_game(cards_copy, players=4, seed=2)
    log = Replay.record(state, ruleset_ref(str(cards_copy)), seed=2)
    edit(cards_copy, CLASH_ROW, "Fire:  {Earth: placed, Water: nothing, Air: neighbour}")
    _, fresh = log.start(force=True)
    with pytest.raises(ReplayDiverged) as caught:
        log.play(fresh)
    first = caught.value.number
    assert 1 <= first <= len(log.actions)
    assert "differs from the recorded one" in str(caught.value) or "cannot be replayed" in str(caught.value)
    _, again = log.start(force=True)
    replay(again, log.actions[: first - 1], hashes=log.hashes[:first])  # everything before it still agrees


def test_forcing_a_smaller_grid_reports_the_first_refused_placement(cards_copy: Path) -> None:
    log = Replay.record(finished_game(cards_copy, players=4, seed=1), ruleset_ref(str(cards_copy)), seed=1)
    edit(cards_copy, "grid_width:\n    default: 7", "grid_width:\n    default: 2")
    _, fresh = log.start(force=True)
    with pytest.raises(ReplayDiverged, match="cannot be replayed: cell .* would make the board larger than 2x7") as caught:
        log.play(fresh)
    assert log.actions[caught.value.number - 1].startswith("place ")


def test_a_changed_ruleset_that_no_longer_loads_is_a_ruleset_error_even_when_forced(cards_copy: Path) -> None:
    log = Replay.record(finished_game(cards_copy, seed=1), ruleset_ref(str(cards_copy)), seed=1)
    edit(cards_copy, CLASH_ROW, CLASH_ROW.replace("Fire:", "Fier:"))
    with pytest.raises(engine.RulesetError, match="unknown element 'Fier'"):
        log.start(force=True)


# ---------------------------------------------------------------- damaged replay files


@pytest.mark.parametrize(
    "content, words",
    [
        ("not json", "not a JSON game log"),
        ("[]", "a game log is a JSON object"),
        ('{"ruleset": "tutorial-tiles", "players": 2, "seed": "x"}', "'seed' must be a number"),
        ('{"format": 99, "ruleset": "tutorial-tiles", "players": 2, "seed": 1}', "unknown game log format 99"),
        ('{"ruleset": "tutorial-tiles", "players": 2, "seed": 1, "actions": ["a"], "hashes": ["x"]}', "damaged"),
        ('{"ruleset": "tutorial-tiles", "players": 2, "seed": 1, "content_hash": 5}', "'content_hash' must be a string"),
        # a format-2 log with its positions deleted replayed as an old log, unchecked
        ('{"format": 2, "ruleset": "tutorial-tiles", "players": 2, "seed": 1, "actions": []}',
         "the log says 'format': 2 but has no 'hashes'"),
        ('{"ruleset": "tutorial-tiles", "content_hash": "abc", "version": 1, "players": 2, "seed": 1}',
         "the log has a 'content_hash'"),  # only format-2 logs do
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
    ],
)
def test_damaged_replays_are_refused_with_a_reason(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SaveError, match=words):
        Replay.read(path)
    result = run("replay", str(path))
    assert result.exit_code == 1 and words in result.stderr and str(path) in result.stderr


def test_non_utf8_and_oversized_replays_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"ruleset": "caf\xe9"}')
    with pytest.raises(SaveError, match="not a JSON game log"):
        Replay.read(path)
    path.write_bytes(b" " * (21 * 1024 * 1024))
    with pytest.raises(SaveError, match="at most 20 MB"):
        Replay.read(path)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    data=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
            st.sampled_from(["format", "ruleset", "variant", "players", "seed", "actions", "hashes", "content_hash",
                             "version", "x"]), inner, max_size=8),
        max_leaves=20,
    )
)
def test_any_json_is_a_replay_or_a_save_error(data: object) -> None:
    try:
        log = Replay.from_json(data, "<fuzz>")
    except SaveError as err:
        assert str(err).startswith("<fuzz>")
        return
    assert isinstance(log.players, int) and isinstance(log.actions, list)


# ---------------------------------------------------------------- failing games become replays


def test_a_failing_checked_game_becomes_a_replay(tmp_path: Path) -> None:
    game = engine.load("tutorial-tiles")
    result = checked_playout(game, players=2, seed=4, max_actions=3)
    assert not result.ok
    log = result.replay("tutorial-tiles", game)
    path = tmp_path / "failure.json"
    log.write(path)
    again = Replay.read(path)
    assert again.actions == result.actions and len(again.hashes) == 4
    _, fresh = again.start()
    again.play(fresh)


# ---------------------------------------------------------------- the command line


@pytest.fixture
def logged_game(tmp_path: Path, cards_copy: Path) -> Path:
    """A bots-only game of the private copy, logged by ``rulecraft play --log``."""
    log = tmp_path / "game.json"
    result = run("play", str(cards_copy), "--players", "4", "--seed", "2", "--seat", "1=random", "--log", str(log))
    assert result.exit_code == 0, result.output
    return log


@pytest.mark.parametrize("command", [["replay"], ["play", "--load"]])
def test_a_log_naming_a_ruleset_too_long_for_a_file_is_refused_by_the_logs_name(logged_game: Path,
                                                                                  command: list[str]) -> None:
    """A log whose 'ruleset' was 5,000 characters ended with only '/tmp/.../rrr...: File name too long'."""
    data = json.loads(logged_game.read_text())
    data["ruleset"] = "r" * 5000
    logged_game.write_text(json.dumps(data))
    result = run(*command, str(logged_game))
    assert result.exit_code == 1
    assert f"{logged_game}: the game log's ruleset 'rrr" in result.output
    assert "... (5,000 characters)' cannot be read: File name too long" in result.output


def test_play_log_writes_a_replay_with_hash_and_positions(logged_game: Path, cards_copy: Path) -> None:
    data = json.loads(logged_game.read_text())
    assert data["format"] == FORMAT and data["ruleset"] == str(cards_copy)
    assert data["content_hash"] == engine.load(cards_copy).content_hash and data["version"] == 1
    assert len(data["hashes"]) == len(data["actions"]) + 1
    result = run("replay", str(logged_game))
    assert result.exit_code == 0 and "warning" not in result.output


def test_replay_refuses_a_changed_ruleset_and_suggests_force(logged_game: Path, cards_copy: Path) -> None:
    edit(cards_copy, "version: 1", "version: 2")
    result = run("replay", str(logged_game))
    assert result.exit_code == 1
    assert "has changed since this game was recorded" in result.stderr and "--force" in result.stderr


def test_replay_force_on_a_harmless_change_replays_everything(logged_game: Path, cards_copy: Path) -> None:
    edit(cards_copy, "version: 1", "version: 2")
    result = run("replay", str(logged_game), "--force")
    assert result.exit_code == 0, result.output
    assert "warning: ruleset" in result.output and "still leads to the recorded position" in result.output


def test_replay_refuses_a_log_whose_version_was_edited(logged_game: Path) -> None:
    """Regression: a log whose 'version' was edited, its content hash left as recorded, replayed silently, though the
    hash covers the version (the log no longer says what it was recorded with); a save so edited is refused."""
    data = json.loads(logged_game.read_text())
    data["version"] = 5
    logged_game.write_text(json.dumps(data))
    result = run("replay", str(logged_game))
    assert result.exit_code == 1
    assert "the log says version 5 of 'iconoclasm-cards', but its content hash is that of version 1" in result.stderr, result.stderr
    forced = run("replay", str(logged_game), "--force")
    assert forced.exit_code == 0 and "warning: the log says version 5" in forced.output


def test_replay_force_reports_the_first_divergence(logged_game: Path, cards_copy: Path) -> None:
    edit(cards_copy, CLASH_ROW, "Fire:  {Earth: placed, Water: nothing, Air: neighbour}")
    result = run("replay", str(logged_game), "--force")
    assert result.exit_code == 1
    assert "first divergence: action " in result.stderr


def test_replay_of_an_edited_log_reports_the_divergence(logged_game: Path) -> None:
    data = json.loads(logged_game.read_text())
    data["hashes"][5] = "0" * 12
    logged_game.write_text(json.dumps(data))
    result = run("replay", str(logged_game))
    assert result.exit_code == 1
    assert f"action 5 '{data['actions'][4]}' leads to a position that differs" in result.stderr


@pytest.mark.parametrize("edit_log", [
    lambda data: data.update(seed=data["seed"] + 1),                     # another deal, every action still legal
    lambda data: data["hashes"].__setitem__(5, "0" * 12),               # a recorded position edited
], ids=["seed", "position"])
def test_play_load_refuses_an_edited_log_as_replay_does(logged_game: Path, edit_log: Callable[[dict], None]) -> None:
    data = json.loads(logged_game.read_text())
    edit_log(data)
    logged_game.write_text(json.dumps(data))
    assert run("replay", str(logged_game)).exit_code == 1
    result = run("play", "--load", str(logged_game), input="quit\n")
    assert result.exit_code == 1, result.output
    assert "differs from the recorded one" in result.stderr


def test_a_log_whose_variant_was_taken_out_says_the_log_may_have_been_edited() -> None:
    """A log of a variant whose 'variant' list was emptied was refused only as "ruleset 'iconoclasm' has changed
    since this game was recorded": the ruleset had not; the log names no variant, and says so now."""
    game = engine.load("iconoclasm", "short-game")
    log = Replay.record(game.new_state(players=2, seed=3, record=True), "iconoclasm", seed=3)
    assert log.variant == ["short-game"]
    log.variant = []
    with pytest.raises(RulesetChanged) as refused:
        log.start()
    assert "or the log was edited (it names no variant or option: one may have been taken out of it)" in str(refused.value)


@pytest.mark.parametrize(("edit", "said"), [
    ({"variant": ["nope"]}, "unknown variant 'nope'"),
    ({"set_options": {"foo": "1"}}, "no option 'foo' in this ruleset"),
])
def test_a_log_naming_an_unknown_variant_or_option_is_refused_with_its_file_name(
        tmp_path: Path, edit: dict[str, Any], said: str) -> None:
    """'rulecraft replay game.json' of a log whose variant was edited printed only "unknown variant 'nope' (...)":
    no file named it, since no ruleset file does.  The log's name now comes first, as for its other fields."""
    game = engine.load("tic-tac-toe")
    state = game.new_state(players=2, seed=3, record=True)
    state.apply(state.legal_actions()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**Replay.record(state, "tic-tac-toe", 3).to_json(), **edit}), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"{path}: the variants and options the game log names: " in result.output and said in result.output, result.output


def test_a_saved_position_given_as_a_log_is_named_for_what_it_is(tmp_path: Path) -> None:
    """state.to_json() given to replay or play --load was refused for its 'seed' ("'seed' must be a number, not
    None"), which told nothing of the mix-up."""
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    state.play(0)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(state.to_json()))
    with pytest.raises(SaveError, match=r"state.json: this is a saved position \(state.to_json\(\)\), not a game log"):
        Replay.read(saved)
