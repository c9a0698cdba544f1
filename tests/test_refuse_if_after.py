"""A turn step's ``refuse_if_after``: an action is refused by the position it would leave (engine.blocks.refusals).

Two small rulesets: a step's own actions (a placement that may not leave a mark in the middle cell) and a
``choose`` in the middle of an effect (two numbers whose sum may not pass a limit: the first is offered only
when some second keeps the sum within it).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.core.errors import IllegalActionError, RulesetError
from tests.conftest import shipped_game

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"

PLACING = """\
name: placing
players: [2]
types: {mark: [X, O]}
components:
  token:
    attributes: {mark: mark}
    instances: [{id: X, mark: X, count: 5}, {id: O, mark: O, count: 4}]
board: {kind: square-grid, width: 3, height: 3, adjacency: all}
roles: {of: mark, seating: {2: [1, 2]}}
zones:
  marks: {kind: hand, per: role}
setup: |
  for r in roles:
    move(t in tokens where t.mark == r, marks(r))
turn:
  - place: {from: marks, face: as-is, touching: false}
    refuse_if_after: {when: "at(1, 1) != none and at(1, 1).mark == actor", because: the middle cell is nobody's}
end:
  when: count(empty_cells) <= 1
scoring:
  rank: r in roles
  by: [0]
  points: key
"""

SUMS = """\
name: sums
players: [2]
types: {side: [A, B]}
roles: {of: side, seating: {2: [1, 2]}}
counters:
  total: {per: role}
turn:
  - do:
      effect: |
        let a = choose(n in numbers(1, 6), text = "the first number")
        let b = choose(n in [3, 4], text = "the second number")
        total(current_role) += a + b
    refuse_if_after: total(actor) > 6 * turn
end:
  when: turn >= 6
scoring:
  rank: r in roles
  by: [total(r)]
  points: key
"""


def _ruleset(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_step_s_action_the_position_after_refuses_is_not_listed_and_is_refused_typed(tmp_path: Path) -> None:
    s = engine.load(_ruleset(tmp_path, PLACING)).new_state(players=2, seed=1)
    texts = s.legal_actions().texts()
    assert len(texts) == 8 and not any(t.endswith("at 1,1") for t in texts), texts
    with pytest.raises(IllegalActionError, match="'place X at 1,1' is refused: the middle cell is nobody's"):
        s.apply("place X at 1,1")
    assert s.turn_number == 1 and not s.grid  # nothing changed


def test_an_early_choice_is_offered_only_when_some_later_answers_are_allowed(tmp_path: Path) -> None:
    s = engine.load(_ruleset(tmp_path, SUMS)).new_state(players=2, seed=1)
    assert s.legal_actions().texts() == ["choose 1", "choose 2", "choose 3"]  # 4 + 3 passes 6
    with pytest.raises(IllegalActionError, match=r"'choose 5' is refused: after it, .*\(refuse_if_after: total\(actor\) > 6 \* turn\)"):
        s.apply("choose 5")
    s.apply("choose 3")  # the second is then 3 alone (3 + 4 passes 6): taken without asking
    assert s.current_role == "B" and len(s.legal_actions()) == 6  # on turn 2 the limit is 12


@pytest.mark.parametrize("text", [PLACING, SUMS.replace("total(actor) > 6 * turn", "total(actor) % 7 < 3")])
def test_no_listed_action_leads_to_a_refused_position_over_random_playouts(tmp_path: Path, text: str) -> None:
    """Property: in random games, once a decision's step is done (no question of its effect left), the position is
    one the condition allows for the role who decided (these conditions read only what the next turn's start keeps)."""
    game = engine.load(_ruleset(tmp_path, text))
    refusal = next(step.refusal for step in game.steps if step.refusal is not None)
    for seed in range(20):
        rng, s = random.Random(seed), game.new_state(players=2, seed=seed)
        while not s.is_terminal:
            actor = s.current_role
            s.play(rng.randrange(len(s.legal_actions())))
            if s.pending is None or s.current_role != actor:
                assert not refusal.refuses(s, actor), seed


def test_a_step_whose_every_action_is_refused_passes_instead_of_asking_with_nothing_to_offer(tmp_path: Path) -> None:
    """A place step whose every placement refuse_if_after refuses (a tile that fits nowhere) left the player asked
    with no legal action: ``rulecraft validate`` crashed with a ValueError from the random player.  Without
    ``end: {no_move: ...}`` the step now passes, as it does with nothing to place, and the log says why; the
    generated turn and the loop over the steps alike."""
    one_each = PLACING.replace("at(1, 1) != none and at(1, 1).mark == actor", "count(t in board where t.mark == actor) > 1")
    one_each = one_each.replace("the middle cell is nobody's", "one mark each")
    path = _ruleset(tmp_path, one_each.replace("count(empty_cells) <= 1", "turn >= 6"))
    walked = engine.load(path)
    object.__setattr__(walked, "turn", None)  # a built game cannot change: this one is the test's own
    object.__setattr__(walked, "act", None)
    for game in (engine.load(path), walked):
        s = game.new_state(players=2, seed=1, record=True)
        s.apply("place X at 0,0")
        s.apply("place O at 2,2")  # then each has a mark down, and every other placement is refused
        assert s.is_terminal and s.turn_number == 6 and len(s.grid) == 2
        assert s.log.count("X has nothing to do that the rules allow (one mark each) and passes") == 2
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0


def test_a_later_step_whose_every_action_is_refused_passes_in_a_ruleset_with_no_move(tmp_path: Path) -> None:
    """``end: {no_move: loses}`` judges the turn's first decision only; a later step of the turn whose every action
    was refused left the player asked with no legal action.  It passes now."""
    twice = PLACING.replace("    refuse_if_after: {when: \"at(1, 1) != none and at(1, 1).mark == actor\", because: the middle cell is nobody's}",
                            "  - place: {from: marks, face: as-is, touching: false}\n"
                            "    refuse_if_after: {when: \"count(t in board where t.mark == actor) > 1\", because: one mark each}")
    path = _ruleset(tmp_path, twice.replace("  when: count(empty_cells) <= 1", "  when: turn >= 2\n  no_move: loses"))
    s = engine.load(path).new_state(players=2, seed=1, record=True)
    s.apply("place X at 0,0")
    assert s.current_role == "O" and "X has nothing to do that the rules allow (one mark each) and passes" in s.log


def test_a_place_step_s_condition_names_the_piece_placed(tmp_path: Path) -> None:
    """A place step's refuse_if_after could not name the piece its action placed: a tile laid with matching edges
    was judged by checking every tile of the board against its neighbours (four times slower than checking the new
    one).  ``placed`` is that piece (none for a pass); on any other step it is no name."""
    text = PLACING.replace("at(1, 1) != none and at(1, 1).mark == actor", "placed.cell.x == 1 and placed.cell.y == 1")
    text = text.replace("face: as-is, touching: false}", "face: as-is, touching: false, optional: true}")
    s = engine.load(_ruleset(tmp_path, text)).new_state(players=2, seed=1)
    texts = s.legal_actions().texts()
    assert "pass" in texts and len(texts) == 9 and not any(t.endswith("at 1,1") for t in texts), texts
    with pytest.raises(IllegalActionError, match="'place X at 1,1' is refused: the middle cell is nobody's"):
        s.apply("place X at 1,1")
    s.apply("place X at 0,0")
    assert s.current_role == "O" and not any(t.endswith("at 1,1") for t in s.legal_actions().texts())
    with pytest.raises(RulesetError, match=r"unknown name 'placed' \('placed' is the piece a 'place' step placed: it "
                                           r"is known in that step's 'refuse_if_after' only\)"):  # it said no more
        engine.load(_ruleset(tmp_path, SUMS.replace("total(actor) > 6 * turn", "placed == none")))


def test_chess_never_lists_a_move_that_leaves_the_mover_s_king_attacked() -> None:
    """Property, on the example: after every move of random games the side that moved is not in check."""
    game = shipped_game(str(EXAMPLES / "chess"))
    refusal = game.steps[0].refusal
    for seed in range(2):
        rng, s = random.Random(seed), game.new_state(players=2, seed=seed)
        for _ in range(200):
            if s.is_terminal:
                break
            actor = s.current_role
            s.play(rng.randrange(len(s.legal_actions())))
            if s.pending is None and not s.is_terminal:
                assert not refusal.refuses(s, actor), (seed, s.turn_number)


def test_the_play_command_refuses_a_typed_refused_action_with_the_rule(tmp_path: Path) -> None:
    path = _ruleset(tmp_path, PLACING)
    result = CliRunner().invoke(main, ["play", str(path), "--seed", "1"], input="place X at 1,1\nquit\n")
    assert "Traceback" not in result.output
    assert "'place X at 1,1' is refused: the middle cell is nobody's" in result.output, result.output


@pytest.mark.parametrize(("key", "said"), [
    ("refuse_if_after: 'actor =='", "ruleset.yaml:13:29: syntax error: the text ends too early"),
    ("refuse_if_after: {because: a rule}", "ruleset.yaml:13:22: turn/0/refuse_if_after: 'when' is a required property"),
    ("refuse_if_after: {when: actor == A, since: x}", "ruleset.yaml:13:41: unknown key 'since' in turn/0/refuse_if_after"),
    ("refuse_if_after: 'actor + 1'", "ruleset.yaml:13:29: this must be true or false, but 'actor plus 1' is int"),
])
def test_a_bad_condition_is_reported_at_its_place(tmp_path: Path, key: str, said: str) -> None:
    text = SUMS.replace("    refuse_if_after: total(actor) > 6 * turn", f"    {key}")
    with pytest.raises(RulesetError) as err:
        engine.load(_ruleset(tmp_path, text))
    assert said in str(err.value), str(err.value)


def test_listing_changes_nothing_of_the_real_state(tmp_path: Path) -> None:
    """The options are tried on copies: the position, its generator and its log stay as they were."""
    s = engine.load(_ruleset(tmp_path, PLACING)).new_state(players=2, seed=3, record=True)
    s.apply("place X at 0,0")
    before, log = s.clone(), list(s.log or [])
    s._actions = None  # listed anew
    assert len(s.legal_actions()) == 7
    assert s == before and s.rng == before.rng and s.log == log


DICE = SUMS.replace('''        let a = choose(n in numbers(1, 6), text = "the first number")
        let b = choose(n in [3, 4], text = "the second number")
        total(current_role) += a + b''', '''        let a = choose(n in numbers(1, 6), text = "a number")
        total(current_role) += a + roll(d6)''').replace("total(actor) > 6 * turn", "total(actor) % 2 == 1")


def test_a_copy_rolls_its_own_dice_so_the_options_tell_nothing_of_the_game_s(tmp_path: Path) -> None:
    """A die rolled after the choice (an odd total refused): the second player's options are the same whatever the
    game's seed, though the dice the game rolls next differ."""
    game = engine.load(_ruleset(tmp_path, DICE))
    offered = set()
    for seed in range(12):
        s = game.new_state(players=2, seed=seed)
        s.play(0)
        offered.add(tuple(s.legal_actions().texts()))
    assert len(offered) == 1 and len(next(iter(offered))) == 3, offered


def test_trials_that_never_end_are_stopped_by_the_step_budget(tmp_path: Path) -> None:
    """Forty questions of two options each, every ending refused: the trials stop with an error, not in 2**40 runs."""
    text = SUMS.replace('''        let a = choose(n in numbers(1, 6), text = "the first number")
        let b = choose(n in [3, 4], text = "the second number")
        total(current_role) += a + b''', '''        for i in numbers(1, 40):
          total(current_role) += choose(n in [1, 2], text = "a bit")''').replace("total(actor) > 6 * turn", "true")
    with pytest.raises(RulesetError, match=r"a game of 2 players, set up, fails before anyone decides: ran out of the step budget of its trials \(10 times "
                                           r"the limit steps=100,000; raise it with --limit steps=N\) \(met trying an option"):
        engine.load(_ruleset(tmp_path, text))


def test_a_sealed_step_refuses_the_key(tmp_path: Path) -> None:
    """The seats decide a sealed step together, unseen: its decisions cannot be judged one by one."""
    text = (Path(__file__).resolve().parent.parent / "rulesets" / "sealed-tiles" / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("  - commit: {from: hand, to: sealed, face: choose}\n",
                        "  - commit: {from: hand, to: sealed, face: choose}\n    refuse_if_after: count(empty_cells) == 0\n")
    folder = tmp_path / "sealed"
    folder.mkdir()
    with pytest.raises(RulesetError, match="step 'commit' is sealed .*: refuse_if_after cannot judge its decisions one by one"):
        engine.load(_ruleset(folder, text))


def test_the_actor_is_who_answers_a_choice_asked_of_another_role_and_a_copy_keeps_the_reason(tmp_path: Path) -> None:
    """``choose(..., by = ROLE)``: the condition judges the role who answers; a clone (a search's copy) refuses a
    typed refused answer with the rule too."""
    text = SUMS.replace('''        let a = choose(n in numbers(1, 6), text = "the first number")
        let b = choose(n in [3, 4], text = "the second number")
        total(current_role) += a + b''', '''        let a = choose(n in [1, 2, 3], by = other_side(current_role), text = "a gift")
        total(other_side(current_role)) += a''').replace("total(actor) > 6 * turn", "total(actor) == 2")
    text = text.replace("turn:\n", "functions:\n  other_side(side r): if r == A then B else A\nturn:\n")
    s = engine.load(_ruleset(tmp_path, text)).new_state(players=2, seed=1)
    assert s.current_player == 2 and s.legal_actions().texts() == ["choose 1", "choose 3"]
    copy = s.clone()
    with pytest.raises(IllegalActionError, match=r"'choose 2' is refused: after it, .*total\(actor\) == 2"):
        copy.apply("choose 2")


# Two numbers again, the second of three: after a first 2, a second 5 passes the limit (2 + 5 > 6) and is refused.
THREE_SECONDS = SUMS.replace("n in [3, 4]", "n in [3, 4, 5]").replace(
    "refuse_if_after: total(actor) > 6 * turn",
    "refuse_if_after: {when: total(actor) > 6 * turn, because: a total may not pass six a turn}")
REASON = "'choose 5' is refused: a total may not pass six a turn (refuse_if_after: total(actor) > 6 * turn)"


@pytest.fixture(params=["coroutines", "replaying"])
def effects_run(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Effects paused at a choice by a coroutine (greenlet), or replayed after each answer (without it)."""
    from engine.blocks import choices

    monkeypatch.setattr(choices, "_REPLAYING", request.param == "replaying")
    return str(request.param)


def test_a_loaded_state_waiting_at_a_choice_refuses_a_refused_option_with_the_rule(tmp_path: Path, effects_run: str) -> None:
    """A save (or a pickled state: a worker process's copy) read back while effects replay lost the options the rule
    refused (they are not written: loading runs the effect to its pause again, which did not try them), so 'choose 5'
    got the generic 'does not answer the question' instead of the rule's reason."""
    game = engine.load(_ruleset(tmp_path, THREE_SECONDS))
    s = game.new_state(players=2, seed=1)
    s.apply("choose 2")
    loaded = game.state_from_json(s.to_json())
    assert loaded.legal_actions().texts() == s.legal_actions().texts() == ["choose 3", "choose 4"]
    with pytest.raises(IllegalActionError) as refused:
        loaded.apply("choose 5")
    assert str(refused.value) == REASON
    loaded.apply("choose 4")
    assert loaded.current_role == "B" and loaded.counters == [6, 0]


def test_play_load_refuses_a_refused_option_with_the_rule(tmp_path: Path, effects_run: str) -> None:
    """The command line: a game saved half-way through a move, loaded with play --load, a refused answer typed.  (The
    log play --load reads is replayed action by action, which tries the options as the game did: this kept the
    reason before loaded states did too.)"""
    path, saved = _ruleset(tmp_path, THREE_SECONDS), tmp_path / "game.json"
    first = CliRunner().invoke(main, ["play", str(path), "--seed", "1"], input=f"choose 2\nsave {saved}\nquit\n")
    assert "saved 1 action" in first.output, first.output
    result = CliRunner().invoke(main, ["play", "--load", str(saved)], input="choose 5\nchoose 4\nquit\n")
    assert "Traceback" not in result.output and (result.exception is None or isinstance(result.exception, SystemExit))
    assert REASON in result.output, result.output
    assert "does not answer the question" not in result.output


@pytest.mark.parametrize("declared, name, own", [
    ("functions:\n  placed(int n): n\n", "placed", "a function 'placed'"),
    ("counters:\n  placed: {}\n", "placed", "'placed' (the placed)"),
    ("options:\n  actor: {default: 0}\n", "actor", "'actor' (the option actor)"),
])
def test_a_given_name_the_ruleset_defines_too_is_refused_where_read(tmp_path: Path, declared: str, name: str,
                                                                     own: str) -> None:
    """'placed' (the piece placed) and 'actor' hid a function, counter or option of the ruleset of that name."""
    text = PLACING.replace("turn:\n", declared + "turn:\n", 1).replace(
        "at(1, 1) != none and at(1, 1).mark == actor", f"{name} == none")
    with pytest.raises(RulesetError) as info:
        engine.load(_ruleset(tmp_path, text))
    first = info.value.diagnostics[0]
    line = next(n for n, written in enumerate(text.splitlines(), 1) if "refuse_if_after" in written)
    assert (first.pos.line, first.pos.col) == (line, 30)  # where the condition reads the name
    assert first.message.startswith(f"'{name}' here is the name this code is given (")
    assert f"but this ruleset also defines {own}: code could not tell them apart" in first.message


def test_the_ruleset_s_function_of_a_given_name_is_called_and_unread_names_clash_with_nothing(tmp_path: Path) -> None:
    text = PLACING.replace("turn:\n", "functions:\n  placed(int n): n\ncounters:\n  actor: {}\nturn:\n", 1).replace(
        "at(1, 1) != none and at(1, 1).mark == actor", "placed(3) == 3 and at(1, 1) != none")
    s = engine.load(_ruleset(tmp_path, text)).new_state(players=2, seed=1)
    assert len(s.legal_actions().texts()) == 8  # the function was called: the middle cell refused
