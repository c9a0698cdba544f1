"""Engine contracts: observation hides what it must, saves refuse what doesn't fit, refusals explain."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core.errors import IllegalActionError, SetupError
from engine.model.savefile import SaveError
from tests.conftest import shipped_game


def test_observation_hides_other_hands_and_deck_order(cards: engine.Game) -> None:
    state = cards.new_state(players=4, seed=2)
    me = state.current_player
    seen = state.observation(me)
    mine = [z for z, v in seen["zones"].items() if z.startswith("hand") and isinstance(v, list)]
    hidden = [z for z, v in seen["zones"].items() if z.startswith("hand") and isinstance(v, dict)]
    assert len(mine) == 1 and len(hidden) == 3
    assert all(seen["zones"][z] == {"hidden": 4} for z in hidden)
    assert seen["legal_actions"] and not state.observation(me % 4 + 1)["legal_actions"]
    solo = cards.new_state(players=1, seed=2).observation(1)
    assert solo["zones"]["deck"] == {"hidden": 15}


def test_observations_do_not_depend_on_hidden_cards(cards: engine.Game) -> None:
    """Two states that differ only in another seat's hand look the same to this seat."""
    a = cards.new_state(players=4, seed=2)
    b = a.clone()
    me = a.current_player
    other = next(z for z, owner in enumerate(cards.zone_owner) if owner and a.seat_of[owner] not in (me, 0))
    b.zones[other].reverse()
    seen_a, seen_b = a.observation(me), b.observation(me)
    assert seen_a == seen_b


def test_action_text_round_trips_and_short_forms(cards: engine.Game) -> None:
    state = cards.new_state(players=4, seed=2)
    for action in state.legal_actions():
        assert state.parse_action(str(action)) == action
        assert state.parse_action("  " + str(action).upper().replace(" AT ", " at (") + ") ") == action


def test_refusals_name_the_reason(cards: engine.Game) -> None:
    state = cards.new_state(players=4, seed=2)
    role = state.current_role
    other_card = next(
        cards.component_names[c] for z, owner in enumerate(cards.zone_owner) if owner not in (None, role) for c in state.zones[z]
    )
    with pytest.raises(IllegalActionError, match="is not in hand of"):
        state.apply(f"place {other_card} at 0,0")
    with pytest.raises(IllegalActionError, match="did you mean"):
        state.apply("place Fire/Wter as Fire at 0,0")
    with pytest.raises(IllegalActionError, match="first piece goes at 0,0"):
        state.apply(f"{state.legal_actions()[0]}".replace("at 0,0", "at 3,3"))
    with pytest.raises(IllegalActionError, match="is not a placement"):
        state.apply("dance")


def test_a_refusal_at_an_optional_placement_shows_a_placement_and_pass() -> None:
    """The optional step offers `pass` first: the example written is still a placement, not 'place '."""
    game = engine.load("spell-cycles", "accelerando")
    state = game.new_state(players=2, seed=3)
    state.apply(next(t for t in state.legal_actions().texts() if t.startswith("place ")))
    while "pass" not in state.legal_actions().texts():  # the Refresh of later turns buys the second pyramid
        state.apply(next(t for t in state.legal_actions().texts() if t.startswith(("place ", "advance"))))
    with pytest.raises(IllegalActionError) as refused:
        state.apply("cast Spark")
    assert re.search(r"is not a placement; write it like 'place \S+ at \d+,\d+' \(or 'pass'\)", str(refused.value))


def test_actions_from_an_old_position_are_refused(cards: engine.Game) -> None:
    state = cards.new_state(players=4, seed=2)
    first = state.legal_actions()[0]
    state.apply(first)
    with pytest.raises(IllegalActionError):
        state.apply(first)


def test_saves_refuse_another_ruleset_or_damage(cards: engine.Game) -> None:
    state = cards.new_state(players=3, seed=4)
    state.apply(state.legal_actions()[0])
    data = json.loads(json.dumps(state.to_json()))
    assert cards.state_from_json(data) == state
    for broken, message in [
        ({**data, "ruleset": "other-game"}, "from ruleset 'other-game'"),
        ({**data, "content_hash": "0" * 16}, "has changed since this state was saved"),
        ({**data, "zones": data["zones"][:-1]}, "do not hold every component"),
        ({**data, "face": [9] * 16}, "faces do not match"),
        ({**data, "face": "nonsense"}, "damaged or incomplete"),
        ({k: v for k, v in data.items() if k != "turn"}, "damaged or incomplete"),
        ([1, 2, 3], "must be a JSON object"),
    ]:
        with pytest.raises(SaveError, match=message):
            cards.state_from_json(broken)
    variant = engine.load("iconoclasm-cards", "small-grid")
    with pytest.raises(SaveError, match="variants"):
        variant.state_from_json(data)


def test_event_log_explains_changes_in_words(cards: engine.Game) -> None:
    state = cards.new_state(players=2, seed=3, record=True)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert any("flipped from" in line and "clash with" in line for line in state.log)
    assert state.log[-1].startswith("game over:")
    assert len(state.history) > 16


def test_wrong_player_count_is_refused(cards: engine.Game) -> None:
    with pytest.raises(SetupError, match="is played by 1, 2, 3, 4 players, not 5"):
        cards.new_state(players=5)


def test_two_player_scores_sum_both_hands(cards: engine.Game) -> None:
    state = cards.new_state(players=2, seed=8)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    outcome = state.outcome
    assert sum(outcome.scores) == 4 + 3 + 2 + 1
    for seat in (1, 2):
        mine = [r for r, s in state.seat_of.items() if s == seat]
        assert outcome.scores[seat - 1] == sum(outcome.points[r] for r in mine)


def test_place_without_a_face_when_only_one_can_show(cards: engine.Game, tmp_path) -> None:
    from engine.runner.scenario import run_scenario

    scenario = tmp_path / "single.yaml"
    scenario.write_text(
        "ruleset: iconoclasm-cards\nplayers: 4\nposition:\n  seats: {Fire: 1, Water: 2, Earth: 3, Air: 4}\n"
        "  zones:\n    hand(Fire): [Fire/Fire, Fire/Water]\n    hand(Water): [Water/Water]\n"
        "actions:\n  - place Fire/Fire at 0,0\n  - place Water/Water at 1,0\n"
        "expect:\n  - at(0, 0).id == \"Fire/Fire\"\n"
    )
    assert run_scenario(scenario).passed
    state = cards.new_state(players=4, seed=2)
    double = next(cards.component_names[c] for c in state.zones[cards.zone_index[("hand", state.current_role)]] if "/" in cards.component_names[c] and len(set(cards.component_names[c].split("/"))) == 2)
    with pytest.raises(IllegalActionError, match="say which face"):
        state.apply(f"place {double} at 0,0")


def test_a_round_in_which_nobody_can_act_ends_the_game(tmp_path) -> None:
    from engine.runner.scenario import run_scenario

    scenario = tmp_path / "stall.yaml"
    scenario.write_text(
        "ruleset: iconoclasm-cards\nplayers: 4\nposition:\n  seats: {Fire: 1, Water: 2, Earth: 3, Air: 4}\n"
        "  zones:\n    hand(Fire): [Fire/Fire]\n"
        "actions:\n  - place Fire/Fire at 0,0\n"
        "expect:\n  - is_over\n  - turn < 10\n"
    )
    result = run_scenario(scenario)
    assert result.passed, result.failures


def test_roles_listed_under_shuffle_are_dealt_at_random_and_the_others_keep_their_place() -> None:
    game = engine.load("iconoclasm", "hidden-deities")  # shuffle: {default: [four roles], 2: [two pairs], 5: true}
    three = [game.new_state(players=3, seed=seed) for seed in range(30)]
    assert all(s.seat_of["Spirit"] == 0 for s in three)  # not listed: stays in its (absent) place
    assert len({tuple(sorted(s.seat_of.items())) for s in three}) > 10
    assert all([s.seat_of[r] for r in s.order] == [1, 2, 3] for s in three)  # seats keep their turn order
    two = [game.new_state(players=2, seed=seed).seat_of for seed in range(10)]
    assert all(seats["Fire"] == seats["Water"] and seats["Earth"] == seats["Air"] for seats in two)  # pairs dealt as one
    assert {seats["Fire"] for seats in two} == {1, 2}
    five = {game.new_state(players=5, seed=seed).seat_of["Spirit"] for seed in range(30)}
    assert len(five) > 2  # true for 5 players: every role is dealt


def test_a_compiled_game_cannot_be_changed() -> None:
    game = engine.load("tutorial-tiles")
    with pytest.raises(AttributeError, match="a compiled game cannot change: 'max_turns' was set after it was built"):
        game.max_turns = 3
    assert game.max_turns != 3
    changed = dataclasses.replace(game, max_turns=3)  # a changed copy is the way
    assert changed.max_turns == 3 and changed.built


def test_effects_log_what_they_flip_place_and_move(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """place(), flip() and move() made by effects during play are logged; a move names components only where they
    go into the open (a tile from a hidden hand into the open supply is seen there by everyone) or leave it (a tile
    taken from the open supply into a hidden hand was seen by everyone as it lay there)."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: logged\nextends: tutorial-tiles\nturn+:\n  - do:\n      effect: |\n"
        "        flip(t in board where t.cell == (0, 0))\n"
        "        move(t in hand(current_role), supply, 1)\n"
        "        place(t in supply where t.id == \"Moon/Star\", (0, 1))\n"
        "        move(t in board where t.cell == (0, 1), supply)\n"
        "        move(t in supply, hand(current_role), 1)\n"
        "        move(t in hand(current_role), hand(current_role), 1)\n"
    )
    state = engine.load(tmp_path).new_state(players=2, seed=1, record=True)
    state.apply("place Sun/Moon as Sun at 0,0")
    log = state.log or []
    assert "Sun/Moon at (0,0) turned over, now Moon" in log
    assert "hand of Sun: Sun/Sun -> supply" in log  # into the open supply: by name (it was "1 component")
    taken = [line for line in log if line.startswith("supply: ") and line.endswith(" -> hand of Sun")]
    assert len(taken) == 1 and "component" not in taken[0]  # out of the open supply: by name (it was "1 component")
    assert "hand of Sun: 1 component -> hand of Sun" in log  # from a hidden hand into a hidden hand: a count only
    assert "Moon/Star as Moon is put at (0,1)" in log
    assert "the board: Moon/Star -> supply" in log  # the board and the supply are open: by name


def test_a_ranking_selects_with_where(tmp_path: Path) -> None:
    # scoring.rank is a selection: 'where' keeps the seated symbols only, so Moon, nobody's with two players, is not ranked
    path = tmp_path / "ruleset.yaml"
    path.write_text("name: seated-only\nextends: tutorial-tiles\nscoring:\n  rank: s in roles where seated(s)\n")
    game = engine.load(path)
    s = game.new_state(players=2, seed=1)
    while not s.is_terminal:
        s.apply(next(iter(s.legal_actions())))
    assert s.outcome is not None and len(s.outcome.ranking) == 2
    assert set(s.outcome.ranking) == {role for role, seat in s.seat_of.items() if seat}


@pytest.mark.parametrize("action", [3, None, [0]], ids=repr)
def test_apply_refuses_what_is_not_an_action_saying_what_it_takes(cards: engine.Game, action: object) -> None:
    state = cards.new_state(players=2, seed=2)
    before = state.clone()
    with pytest.raises(TypeError, match=r"apply\(\) takes one of legal_actions\(\) or its text, not .* \(play\(i\) applies"):
        state.apply(action)  # type: ignore[arg-type]
    assert state == before


@pytest.mark.parametrize(("seats", "message"), [
    ({"Sun": 1, "Comet": 2}, r"seats names 'Comet', which is not a role \(roles: Sun, Moon, Star\)"),
    ([1, 2], "seats is a mapping of roles to seats"),
    ({"Sun": True}, r"seats gives Sun True: a seat is a whole number from 1 to 2 \(0 for absent\)"),
    ({"Sun": 2.0}, "seats gives Sun 2.0: a seat is a whole number"),
    ({"Sun": -1}, "seats gives Sun -1: a seat is a whole number from 1 to 2"),
    ({"Sun": 3}, r"Sun cannot be at seat 3: with 2 players the roles are dealt to the seats 1, 2, absent"),
])
def test_a_deal_naming_no_role_is_refused_by_name(seats: object, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        engine.load("tutorial-tiles").new_state(players=2, seed=1, seats=seats)  # type: ignore[arg-type]


def test_a_game_shows_in_one_line_at_the_prompt() -> None:
    """repr(game), what a notebook or the REPL prints for ``game``, dumped every compiled field: 160,380 characters
    for Spell Cycles, 261,890 for Iconica."""
    assert repr(engine.load("spell-cycles", "duel", set_options={"line_length": "6"})) == \
        "<Game spell-cycles, variant duel, set line_length=6, for 2, 3, 4, 5 players>"
    assert max(len(repr(shipped_game(name))) for name in engine.builtin_names()) < 100


def test_legal_actions_show_how_many_and_the_first_few_at_the_prompt() -> None:
    """state.legal_actions() at the prompt showed "<engine.core.actions.ProductSpace object at 0x7f...>"."""
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    assert repr(state.legal_actions()) == "<9 actions: 'place X at 0,0', 'place X at 1,0', 'place X at 2,0', ...>"
    assert repr(state.legal_actions(2)) == "<0 actions>"


def test_a_game_keys_a_dict_and_a_cache() -> None:
    """docs/api.md calls a Game immutable, but it was unhashable (a dataclass comparing every field): {game: ...} and
    functools.cache over a game raised "TypeError: unhashable type: 'Game'", and == compared the compiled steps."""
    import functools

    game = engine.load("tic-tac-toe")

    @functools.cache
    def moves(g: engine.Game) -> int:
        return len(g.new_state(players=2, seed=1).legal_actions())

    assert {game: 1}[game] == 1 and moves(game) == moves(game) == 9
    assert game == game


@pytest.mark.parametrize("seat", [0, 3, -1, "1", True, 1.0])
def test_a_seat_the_game_lacks_is_refused_not_shown_an_empty_view(seat: object) -> None:
    """legal_actions(True) and legal_actions(1.0) listed seat 1's actions (True == 1), as observation() refuses them."""
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    for ask in (state.observation, state.legal_actions):
        with pytest.raises(ValueError, match=r"there is no seat .*: the seats are 1 to 2"):
            ask(seat)  # type: ignore[arg-type]


def test_any_whole_number_type_names_a_seat() -> None:
    numpy = pytest.importorskip("numpy")
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    assert state.observation(numpy.int64(2)) == state.observation(2)


@pytest.mark.parametrize("players", [2.0, True, "2"])
def test_a_player_count_that_is_not_a_whole_number_is_refused(players: object) -> None:
    """new_state(players=2.0) passed '2.0 in (2,)' and failed in the setup: liars-dice with TypeError
    "can't multiply sequence by non-int of type 'float'"."""
    with pytest.raises(SetupError, match=re.escape(f"liars-dice is played by 2 players, not {players!r}")):
        engine.load("liars-dice").new_state(players=players, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("dice", [["3"], [1.5], [None], [True], 5, "35"])
def test_loaded_dice_that_are_not_whole_numbers_are_refused_by_name(dice: object) -> None:
    """new_state(dice=["3"]) failed deep in the first roll with "'<=' not supported between 'int' and 'str'"."""
    with pytest.raises(TypeError, match=re.escape(f"dice must be a list of whole numbers (the results of the next rolls), not {dice!r}")):
        engine.load("liars-dice").new_state(players=2, seed=1, dice=dice)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 1.5, None, True])  # True was taken as seed 1
def test_a_seed_that_is_not_a_whole_number_is_refused_by_name(seed: object) -> None:
    with pytest.raises(TypeError, match=f"seed must be a whole number, not {re.escape(repr(seed))}"):
        engine.load("tic-tac-toe").new_state(players=2, seed=seed)  # type: ignore[arg-type]


def test_play_counts_from_the_end_as_legal_actions_does_and_refuses_a_missing_number_by_name() -> None:
    game = engine.load(Path(__file__).parent / "data" / "watched-meters")  # its first step may pass: 'pass', then places
    state = game.new_state(players=game.player_counts[0], seed=1, record=True)
    legal = state.legal_actions()
    assert str(legal[0]) == "pass" and len(legal) > 2
    for index in (-1, -2, -len(legal)):
        played, applied = state.clone(record=True), state.clone(record=True)
        played.play(index)
        applied.apply(legal[index])
        assert played == applied and played.history == applied.history, index
    for index in (len(legal), -len(legal) - 1):
        refused = state.clone()
        with pytest.raises(IndexError, match=f"no legal action number {index}: there are {len(legal)} "):
            refused.play(index)
        assert refused == state


def test_play_refuses_a_truth_value_and_roll_a_die_that_is_no_die_with_the_state_unchanged() -> None:
    """play(True) played action 1 (True is 1 to Python); roll('x') raised a MemoryError, roll(0) gave 0 and roll(-1)
    gave 0, and a die of more sides than the generator's 2**64 numbers showed only some of them; cell_text(None) said "'NoneType' object is not subscriptable"."""
    game = engine.load("tic-tac-toe")
    state = game.new_state(players=2, seed=1)
    before = state.clone()
    with pytest.raises(TypeError, match=r"^play\(\) takes the number of a legal action \(a whole number\), not True$"):
        state.play(True)
    for sides, error, told in (("x", TypeError, "is a whole number, not 'x'"), (2.0, TypeError, "not 2.0"),
                               (True, TypeError, "not True"), (0, ValueError, "at least one side, not 0"),
                               (-1, ValueError, "not -1"), (2 ** 64 + 1, ValueError, "at most 2\\*\\*64 sides")):
        with pytest.raises(error, match=told):
            state.roll(sides)  # type: ignore[arg-type]
    assert state == before
    assert 1 <= state.roll(6) <= 6 and state.roll(1) == 1 and 1 <= state.roll(2 ** 64) <= 2 ** 64
    with pytest.raises(TypeError, match=r"^cell_text\(\) takes a cell, two whole numbers \(x, y\), not None$"):
        game.cell_text(None)  # type: ignore[arg-type]
    for odd in ("x", (1, 2, 3)):  # a text's letters read as x and y; a third number dropped
        with pytest.raises(TypeError, match=r"^cell_text\(\) takes a cell"):
            game.cell_text(odd)  # type: ignore[arg-type]
    assert game.cell_text((1, 2)) == game.cell_text([1, 2]) == "1,2"  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", ["banner-clash", "breakthrough", "nine-domains", "othello"])  # each kind of list
def test_legal_actions_indexed_past_their_end_or_by_a_non_number_say_so(ruleset: str) -> None:
    """legal_actions()[7] of seven said only 'IndexError: 7' (or 'list index out of range'), ['x'] "'<' not
    supported between instances of 'str' and 'int'"."""
    from engine.core.actions import ChainSpace, EmptySpace, ListSpace

    legal = engine.load(ruleset).new_state(players=2, seed=1).legal_actions()
    count = len(legal)
    assert str(legal[-1]) == str(legal[count - 1]) == str(list(legal)[-1])
    for index in (count, -count - 1):
        with pytest.raises(IndexError, match=f"^there is no legal action number {index}: there are {count} \\(0 to {count - 1}\\)$"):
            legal[index]
    for index in ("x", 1.5):
        with pytest.raises(TypeError, match=f"^legal actions are numbered by whole numbers, not {type(index).__name__} "):
            legal[index]
    chained = ChainSpace(None, ListSpace(None, [("pass",)]), ListSpace(None, [(1,), (2,)]))
    assert chained[-1].args == (2,)
    with pytest.raises(IndexError, match="^there is no legal action number 3: there are 3 \\(0 to 2\\)$"):
        chained[3]
    with pytest.raises(IndexError, match="^there is no legal action number 0: there are none now$"):
        EmptySpace()[0]


def test_an_action_listed_by_another_load_of_the_ruleset_is_applied_as_its_text_and_of_another_game_refused() -> None:
    """An action object of another load's state ('place X at 1,1', legal here) was refused as 'not a legal action now'
    and no more: each load compiles steps of its own, and an action belongs to its load's.  Then it was refused
    saying to apply its text; now a load of the same files, variants and options applies it as its text (as a
    pickled action is read back), and another game's action is refused saying so."""
    here, there = engine.load("tic-tac-toe").new_state(players=2, seed=0), engine.load("tic-tac-toe").new_state(players=2, seed=0)
    assert here.game is not there.game
    here.apply(there.legal_actions()[4])
    assert here.turn_number == 2 and list(here.grid) == [(1, 1)]
    before = here.clone()
    with pytest.raises(IllegalActionError, match=r"^there is no X left in marks of O$"):  # read as its text: not legal
        here.apply(there.game.new_state(players=2, seed=0).legal_actions()[4])
    assert here == before
    wide = engine.load("connect-four", set_options={"columns": "8"}).new_state(players=2, seed=0)
    narrow = engine.load("connect-four").new_state(players=2, seed=0)
    before = narrow.clone()
    with pytest.raises(IllegalActionError, match=r"^'place Red at 0,0' is not a legal action now: this action was listed by "
                                                 r"a state of connect-four with other variants or options .* a game of other rules$"):
        narrow.apply(wide.legal_actions()[0])  # its text would be taken as a move of another game: no advice to send it
    with pytest.raises(IllegalActionError, match=r"listed by a state of another game .* state.apply\(str\(action\)\)$"):
        narrow.apply(here.legal_actions()[0])
    assert narrow == before
    with pytest.raises(IllegalActionError, match=r"^'place X at 0,0' is not a legal action now$"):  # its own, no longer legal
        here.apply(here.game.new_state(players=2, seed=0).legal_actions()[0])


def test_a_copied_action_and_a_pickled_answer_to_a_choice_stay_legal() -> None:
    """copy.deepcopy of an action copied its step, and a pickled 'choose pass' its formatter: either was then
    refused as not a legal action, of a state whose legal action it was."""
    import copy
    import pickle

    board = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    move = board.legal_actions()[4]
    assert copy.deepcopy([move])[0] in board.legal_actions() and copy.copy(move) is move
    board.apply(copy.deepcopy(move))
    cards = engine.load("kuhn-poker").new_state(players=2, seed=1)
    answer = pickle.loads(pickle.dumps(cards.legal_actions()[0]))
    assert answer in cards.legal_actions()
    cards.apply(answer)


def test_an_observation_from_a_numpy_seat_is_json_ready() -> None:
    numpy = pytest.importorskip("numpy")
    state = engine.load("tutorial-tiles").new_state(players=2, seed=1)
    seen = state.observation(numpy.int64(1))
    assert seen == state.observation(1) and type(seen["player"]) is int
    json.dumps(seen)


@pytest.mark.parametrize("call", [lambda g: g.read_cell(None), lambda g: g.read_cell(5),
                                  lambda g: g.compile_condition(None), lambda g: g.compile_condition(5)])
def test_the_games_readers_of_text_say_what_they_take(call: Any) -> None:
    """read_cell(None) and compile_condition(5) failed inside: 'NoneType' object has no attribute 'strip' (or
    'splitlines'), as the other calls of the API say what they take."""
    with pytest.raises(TypeError, match=r"takes (a text such as '4,1' or 'e2'|the condition's text), not (None|5)"):
        call(engine.load("tic-tac-toe"))
