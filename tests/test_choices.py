"""Choices inside effects: ``choose(...)`` pauses an effect for a player's answer.

The effect runs on the state and pauses at the question: while the answer
is pending the state shows what the effect has done so far, and a save holds
the position before the effect with the answers given so far.  Each answer is
a legal action of the deciding seat and resumes the effect where it stopped
(nothing runs twice); clones, loaded saves and other threads get there by
replaying; the finished effect is the same as if it had run straight through
with those answers.
"""

from __future__ import annotations

import gc
import dataclasses
import random
import re
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.blocks import asking, choice_labels, choices
from engine.core.errors import EffectRuntimeError, IllegalActionError, RulesetError
from engine.core.showtext import as_one_line
from engine.runner.agents import make_agent

try:
    import greenlet
except ImportError:  # pragma: no cover - the tests of coroutines are skipped
    greenlet = None

RULESET = """\
name: choose-demo
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
components:
  card:
    attributes: {value: int}
    instances:
      - {id: c1, value: 1}
      - {id: c2, value: 2}
      - {id: c3, value: 3}
      - {id: c4, value: 4}
      - {id: c5, value: 5}
zones:
  hand: {kind: hand, per: role, hidden: others}
  discard: {kind: pile}
counters:
  gold: {per: role}
setup: |
  SETUP
turn:
  - do:
      effect: |
        gold(current_role) += 1
        let c = choose(c in hand(current_role))
        move(c, discard)
        gold(current_role) += c.value
        let d = choose(x in [1, 2, 3], by = if current_role == A then B else A)
        gold(current_role) += d * 10
end:
  when: count(c in hand(A)) + count(c in hand(B)) == 0
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""

DEAL = "move(c in cards where c.value <= 2, hand(A))\n  move(c in cards where c.value > 2, hand(B))"


def build(tmp_path: Path, setup: str = DEAL) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", setup))
    return engine.load(path)


@pytest.fixture
def game(tmp_path: Path) -> engine.Game:
    return build(tmp_path)


def test_each_choice_is_an_action_of_the_deciding_seat(game: engine.Game) -> None:
    s = game.new_state(players=2, record=True)
    assert s.current_player == 1 and s.legal_actions().texts() == ["choose c1", "choose c2"]
    s.apply("choose c2")
    assert s.current_player == 2 and s.legal_actions().texts() == ["choose 1", "choose 2", "choose 3"]
    assert s.observation(2)["choice"]["options"] == ["1", "2", "3"] and s.observation(1)["choice"] is None
    s.apply("3")  # the bare option is understood too
    assert s.counters == [33, 1] and s.current_role == "B"  # B's effect has begun: it waits for B's choice
    # the hand is hidden from B: the choice is logged without the card, which the move into the open pile then shows
    assert s.log == ["gold of A: 0 -> 1", "A chooses a card from hand of A", "hand of A: c2 -> discard", "gold of A: 1 -> 3",
                     "B chooses 3",
                     "gold of A: 3 -> 33", "gold of B: 0 -> 1"]


def test_a_paused_effect_shows_its_work_and_saves_the_position_before_it(game: engine.Game) -> None:
    s = game.new_state(players=2)
    before = s.to_json()["counters"]
    s.apply("choose c1")
    assert s.counters == [2, 0] and s.observation(1)["zones"]["discard"] == ["c1"]
    assert s.to_json()["counters"] == before == [0, 0] and len(s.to_json()["pending"]["tape"]) == 1


def test_a_wrong_answer_is_refused_and_changes_nothing(game: engine.Game) -> None:
    s = game.new_state(players=2)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="the options are: choose c1, choose c2"):
        s.apply("choose c4")
    assert s.to_json() == before


def test_a_pending_choice_saves_and_continues_the_same(game: engine.Game) -> None:
    s = game.new_state(players=2)
    s.apply("choose c2")
    loaded = game.state_from_json(s.to_json())
    assert loaded == s and loaded.current_player == 2
    s.apply("choose 1")
    loaded.apply("choose 1")
    assert loaded == s


def test_one_option_is_taken_without_asking_and_none_when_empty(game: engine.Game) -> None:
    s = game.new_state(players=2)
    for text in ["choose c1", "choose 1", "choose c3", "choose 1", "choose 1"]:
        s.apply(text)  # A's last card is c2: no question, only B's answer is asked
    assert s.counters == [2 + 10 + 3 + 10, 4 + 10 + 1] and s.current_player == 2  # B's next effect has begun


def test_the_text_of_a_choice_is_the_question_the_player_reads(tmp_path: Path) -> None:
    """Without ``text`` the question is the selection in English; ``text = "..."`` (written in quotes) replaces it."""
    assert build(tmp_path).new_state(players=2).pending.prompt == "choose c in the hand of the current role"
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("choose(c in hand(current_role))",
                                                           'choose(c in hand(current_role), text = "discard a card")'))
    assert engine.load(path).new_state(players=2).pending.prompt == "discard a card"
    from cli.explain import explain

    assert any('chosen by the current player (asked as "discard a card")' in line for line in explain(engine.load(path)))
    path.write_text(RULESET.replace("SETUP", DEAL).replace("choose(c in hand(current_role))",
                                                           "choose(c in hand(current_role), text = first(discard).id)"))
    with pytest.raises(RulesetError, match=r"ruleset.yaml:\d+:\d+: the text of choose\(\) is the question as written: "
                                           r"put it in quotes"):
        engine.load(path)


def test_a_question_fills_in_the_values_of_the_moment(tmp_path: Path) -> None:
    """``text = "... {gold(current_role)} ..."``: the code in braces is read when the question is asked (it was shown
    with its braces, so a question could not say how many coins the player had); a hidden card in it is named as
    every seat may know it, since every seat sees what is being decided."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace(
        "choose(c in hand(current_role))",
        'choose(c in hand(current_role), text = "you hold {count(hand(current_role))} cards, {gold(current_role)} '
        'gold, first {first(hand(current_role))}, last {last}: discard one {}")').replace(
        "gold(current_role) += 1\n", "gold(current_role) += 1\n        let last = first(discard)\n"))
    game = engine.load(path)
    s = game.new_state(players=2)
    assert s.pending.prompt == "you hold 2 cards, 1 gold, first a card from hand of A, last none: discard one {}"
    s.apply("choose c2")
    s.apply("choose 1")
    assert s.pending.prompt == "you hold 3 cards, 1 gold, first a card from hand of B, last c2: discard one {}"
    from cli.explain import explain

    assert any('(asked as "you hold {count(hand(current_role))} cards' in line
               for line in explain(game))


def test_a_question_names_the_component_its_code_runs_for_and_keeps_the_positions_checksum() -> None:
    """``choose(foes(self))`` in a character's action asked ``choose foe of self``: the player reads the character
    (``choose foe of Crimson's Aelin``), at the terminal, on the page, in a refusal and after a save is loaded, while
    the position keeps the words it always kept (its checksum: saved games paused there still replay)."""
    game = engine.load("iconica")
    s = game.new_state(players=2, seed=3)
    while s.pending is None or s.pending.prompt != "choose foe of self":
        s.apply(s.legal_actions()[0])
    words = s.pending.words
    assert words == "choose foe of Crimson's Aelin"
    assert s.to_json()["pending"]["prompt"] == "choose foe of self"
    assert s.observation(s.seat_to_move)["choice"]["prompt"] == words
    assert game.state_from_json(s.to_json()).pending.words == words
    with pytest.raises(IllegalActionError, match=re.escape(f"does not answer the question ({words})")):
        s.apply("choose nobody")


@pytest.mark.parametrize("code, message", [
    ("{c}", r":27:66: unknown name 'c'"),  # at the c (each was told a column to its right)
    ("{gold(current_role) +}", r":27:85: in braces of the question: syntax error: the text ends too early"),
    ("{choose(x in [1, 2])}", r":27:66: choose\(\) asks a player, which a condition or score can't do"),
    ("{roll(d6)}", r":27:66: roll"),
    # a brace without its pair: the question was shown with it and the code after it as written
    ("{gold(current_role) coins", r":27:65: the question's '\{' opens braces it never closes, so the players would read"),
    ("gold}", r":27:69: the question's '}' closes braces it never opened"),
    ("{{gold(current_role)}}", r":27:65: the question's '\{' opens braces it never closes"),
])
def test_a_mistake_in_the_braces_of_a_question_is_reported_where_it_is_written(tmp_path: Path, code: str,
                                                                               message: str) -> None:
    """The code in a question's braces is checked when the ruleset loads, at its own line and column; it may only
    read the position (it is read each time the question is shown)."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("choose(c in hand(current_role))",
                                                           f'choose(c in hand(current_role), text = "discard {code}?")'))
    with pytest.raises(RulesetError, match=r"ruleset.yaml" + message):
        engine.load(path)


@pytest.mark.parametrize("question, shown", [("pick\\nnext:", "\\\\n"), ("pick \\x1b[2J", "\\\\x1b"),
                                             ("pi\\u200bck", "\\\\u200b")])
def test_a_question_holding_a_line_break_or_an_unseen_character_is_refused_where_written(tmp_path: Path, question: str,
                                                                                      shown: str) -> None:
    """A line break in the question printed a line of its own under it at rulecraft play, looking like the start of
    the options; a control or invisible character made the question read otherwise than written."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("choose(c in hand(current_role))",
                                                           f'choose(c in hand(current_role), text = "{question}")'))
    with pytest.raises(RulesetError, match=r"ruleset.yaml:\d+:\d+: the question of choose\(\) holds a line break, a "
                                           rf"control or an invisible character \({shown}\): it is one line"):
        engine.load(path)


def test_a_text_offered_as_an_option_stands_in_one_line(tmp_path: Path) -> None:
    """A text holding a line break, offered by choose, printed the rest of it as a line of its own in the list of
    actions and in the log ('X chooses line', then '[2] place X at 0,0'), faking an action; it is now written with
    its line break and other unseen characters as escapes, in quotes, which is also how it is typed."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace(
        "choose(c in hand(current_role))",
        'choose(c in hand(current_role))\n        let w = choose(w in ["take\\n[2] choose c2", "x\\u200by", "pass"])'))
    s = engine.load(path).new_state(players=2, record=True)
    s.apply("choose c1")
    assert s.legal_actions().texts() == ['choose "take\\n[2] choose c2"', 'choose "x\\u200by"', "choose pass"]
    s.apply('choose "take\\n[2] choose c2"')
    assert all("\n" not in line for line in s.log) and 'A chooses "take\\n[2] choose c2"' in s.log
    texts = ["a\nb", "a\\nb", '"a\\nb"', '"a\nb"']  # a line break, a backslash, quotes: four options, four texts
    assert choice_labels.distinct_options(texts, choice_labels.plain_label, None)[1] == [
        '"a\\nb"', "a\\nb", '"\\"a\\\\nb\\""', '"\\"a\\nb\\""']


def test_braces_with_nothing_to_fill_in_are_words_of_the_question(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("choose(c in hand(current_role))",
                                                           'choose(c in hand(current_role), text = "discard a card {} or { }")'))
    assert engine.load(path).new_state(players=2).pending.prompt == "discard a card {} or { }"


def test_choose_in_setup_is_a_positioned_error(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"ruleset.yaml:\d+:\d+: .*choose\(\) needs a player to decide"):
        build(tmp_path, "let c = choose(c in cards)")


def test_choose_in_a_condition_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("when: count(c in hand(A))", "when: choose(x in [1, 2]) == 1 or count(c in hand(A))"))
    with pytest.raises(RulesetError, match="choose\\(\\) asks a player, which a condition or score can't do"):
        engine.load(path)


@pytest.mark.parametrize("spec", ["random", "mcts:20", "ismcts:20"])
def test_agents_play_games_with_choices_to_the_end(game: engine.Game, spec: str) -> None:
    agent = make_agent(spec, seed=3)
    s = game.new_state(players=2, seed=5, record=True)
    while not s.is_terminal:
        s.apply(agent.choose(s))
    replayed = game.new_state(players=2, seed=5)
    for text in s.history:
        replayed.apply(text)
    assert replayed == s and sum(s.counters) >= 2 * 10 + 15


def test_random_answers_match_a_straight_run(game: engine.Game) -> None:
    rng = random.Random(7)
    s = game.new_state(players=2, seed=1)
    while not s.is_terminal:
        s.apply(rng.choice(list(s.legal_actions())))
        assert s.pending is None or s.current_player == s.pending.seat
    assert all(v >= 0 for v in s.counters) and s.outcome is not None


@pytest.fixture(params=["coroutines", "replaying"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of pausing: coroutines (the default) and replaying (without the greenlet package)."""
    monkeypatch.setattr(choices, "_REPLAYING", request.param == "replaying")
    return str(request.param)


def counting_runs(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count how often the turn's effect is started (from its beginning)."""
    step = game.steps[0]
    program, runs = step.effect("effect"), [0]

    def counted(s: object, e: list[object]) -> None:
        runs[0] += 1
        program(s, e)

    monkeypatch.setattr(step, "effect", lambda key: counted)
    return runs


def test_an_answer_resumes_the_effect_where_it_stopped(game: engine.Game, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    runs = counting_runs(game, monkeypatch)
    s = game.new_state(players=2, record=True)  # set up the long way: not a copy of a start kept by an earlier test
    s.apply("choose c2")
    s.apply("choose 3")
    assert s.counters[0] == 33
    assert runs[0] == (2 if mode == "coroutines" else 4)  # A's effect once, B's begun; replaying: again at each answer


def test_a_clone_of_a_paused_state_goes_its_own_way(game: engine.Game, mode: str) -> None:
    s = game.new_state(players=2, seed=3)
    s.apply("choose c2")
    twin = s.clone()
    twin.apply("choose 1")
    assert s.current_player == 2 and s.counters == [3, 0]  # the pause shows the effect's work so far, either way
    s.apply("choose 2")
    assert (twin.counters[0], s.counters[0]) == (13, 23)
    again = s.clone()
    assert again == s and again.to_json() == s.to_json()


def test_a_save_loaded_while_an_effect_waits_plays_on_as_the_game_saved(game: engine.Game, mode: str) -> None:
    """The first answer of a turn notes the turn's decision outside the effect; a second question waits at the
    position before the effect, and a game loaded from a save must keep that note too (replaying once lost it)."""
    for seed in range(4):
        rng = random.Random(seed)
        s = game.new_state(players=2, seed=seed)
        while not s.is_terminal:
            i = rng.randrange(len(s.legal_actions()))
            loaded = game.state_from_json(s.to_json())
            s.play(i)
            loaded.play(i)
            assert loaded == s and loaded.to_json() == s.to_json()


def test_the_modes_play_the_same_games(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    def play() -> list[object]:
        rng = random.Random(11)
        s = game.new_state(players=2, seed=2, record=True)
        saves = []
        while not s.is_terminal:
            s.apply(rng.choice(list(s.legal_actions())))
            saves.append((s.to_json(), s.observation(1), s.log[:]))  # at a pause too: what the effect did so far
        return [s.log, s.history, saves]

    straight = play()
    monkeypatch.setattr(choices, "_REPLAYING", True)
    assert play() == straight


def test_an_effect_paused_on_one_thread_is_answered_on_another(game: engine.Game) -> None:
    s = game.new_state(players=2)
    s.apply("choose c2")
    done: list[object] = []
    worker = threading.Thread(target=lambda: done.append(s.apply("choose 3")))
    worker.start()
    worker.join()
    assert done == [None] and s.counters == [33, 1] and s.current_player == 2  # B's effect, begun on the other thread
    s.apply("choose c3")  # and resumed here
    assert s.counters == [33, 4] and s.current_player == 1


def test_an_error_after_a_choice_leaves_the_state_at_the_choice(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL).replace("gold(current_role) += d * 10", "gold(current_role) += 10 / (d - 1)"))
    s = engine.load(path).new_state(players=2)
    s.apply("choose c2")
    before = s.to_json()
    with pytest.raises(EffectRuntimeError, match="division by zero"):
        s.apply("choose 1")
    assert s.to_json() == before and s.current_player == 2
    s.apply("choose 2")
    assert s.counters[0] == 13


# ------------------------------------------------------------------ effects that cannot choose run directly

TWO_EFFECTS = RULESET.replace("""turn:
  - do:""", """turn:
  - do:
      effect: |
        gold(current_role) += count(c in hand(current_role))
        if gold(current_role) > 30:
          gold(current_role) -= 1
  - do:""")


def test_an_effect_that_cannot_choose_runs_directly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(TWO_EFFECTS.replace("SETUP", DEAL))
    game = engine.load(path)
    assert [asking.runs_directly(game, i, "effect") for i in range(2)] == [True, False]

    started: list[int] = []
    begin = choices._begin
    monkeypatch.setattr(choices, "_begin", lambda s, pending, *rest: started.append(pending.step) or begin(s, pending, *rest))

    def play() -> list[object]:
        rng = random.Random(4)
        s = game.new_state(players=2, seed=6, record=True)
        saves = []
        while not s.is_terminal:
            s.apply(rng.choice(list(s.legal_actions())))
            saves.append(s.to_json())
        return [s.log, s.history, saves, s.counters]

    direct = play()
    assert started and set(started) == {1}  # only the choosing effect ran as a coroutine
    started.clear()
    monkeypatch.setattr(choices, "runs_directly", lambda game, step, key: False)  # every effect as a coroutine
    assert play() == direct and set(started) == {0, 1}


def test_an_effect_that_may_run_a_choosing_hook_does_not_run_directly() -> None:
    game = engine.load("iconica")
    kinds = {type(step).__name__: i for i, step in enumerate(game.steps)}
    # damage() may run a tile's on_damage, which asks its owner whether to parry
    assert not asking.runs_directly(game, kinds["Statuses"], "hooks")
    assert asking.may_ask(game.vocab, frozenset({"runs"})) and not asking.may_ask(game.vocab, frozenset())
    # with no hook to run, the statuses step only counts and ends statuses: no code runs
    assert asking.runs_directly(game, kinds["Statuses"], "turns")


def test_each_spell_is_known_to_choose_or_not() -> None:
    game = engine.load("spell-cycles")
    cast = next(i for i, step in enumerate(game.steps) if step.kind == "cast")
    effects = game.steps[cast].effects
    direct = {cid: asking.runs_directly(game, cast, ("effect", cid)) for cid, fn in enumerate(effects.fns) if fn}
    assert set(direct.values()) == {True, False}  # some spells choose (a target), others never do


def test_a_coroutine_left_on_a_thread_is_kept_while_the_thread_lives_then_let_go(game: engine.Game) -> None:
    """An effect paused on another thread and answered here cannot be ended from here: it is kept while its thread
    lives (ending it would run its cleanup there, on a live state), and let go once that thread has ended, so a
    long-lived server whose worker threads come and go does not keep every paused effect for ever."""
    s = game.new_state(players=2)
    paused: list[object] = []
    release = threading.Event()

    def begin() -> None:
        s.apply("choose c2")  # pauses at B's choice, on this thread
        paused.append(s.tape.run)  # type: ignore[union-attr]
        release.wait()

    worker = threading.Thread(target=begin, daemon=True)
    worker.start()
    try:
        while not paused and worker.is_alive():
            time.sleep(0.001)
        s.apply("choose 3")  # answered here: the coroutine cannot resume on this thread
        assert s.counters == [33, 1]
        kept = [run for runs in choices._ORPHANS.values() for run in runs]
        assert any(run is paused[0] for run in kept)
    finally:
        release.set()
        worker.join()
    with choices._ORPHANS_LOCK:
        choices._let_go_of_ended_threads()  # as the next orphaning does
    assert not any(run is paused[0] for runs in choices._ORPHANS.values() for run in runs)
    assert set(choices._ORPHANS) <= {t.ident for t in threading.enumerate()}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.integers(-9, 99), st.integers(-9, 99)), st.integers(), st.text(max_size=3),
                          st.just((1, [2]))), max_size=30))
def test_the_labels_of_options_read_back_as_written(values: list[object]) -> None:
    """The labels kept for cells are those worked out afresh (a cell as x,y, anything else as written, a text
    that cannot stand so in one line, or empty, or with spaces at an end, in quotes, with escapes), also once the kept ones were forgotten, and each label is offered once."""
    choice_labels.CELL_LABELS.update({(i, -i): f"{i},{-i}" for i in range(5000 - len(choice_labels.CELL_LABELS))})  # forget soon
    label = choice_labels.labeller(None)
    fresh = [",".join(map(str, v)) if isinstance(v, tuple) else str(v) if str(v).isprintable() and str(v) == str(v).strip()
             and str(v) and not (len(str(v)) > 1 and str(v)[0] == str(v)[-1] == '"') else
             '"' + as_one_line(str(v).replace("\\", "\\\\").replace('"', '\\"')) + '"' for v in values]
    assert [label(None, v) for v in values] == fresh
    options, labels = choice_labels.distinct_options(values, label, None)  # type: ignore[arg-type]
    assert labels == list(dict.fromkeys(fresh)) and [fresh[values.index(o)] for o in options] == labels


# ------------------------------------------------------------------ the position before a paused effect, kept lazily


def test_an_answer_copies_no_position(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each effect copies the position before it once, as it begins; what its answers note outside it (the turn of
    the last decision) is kept as data, put on a copy only when that position is read (a save, a clone's replay)."""
    from engine.model.state import State

    clone, copies, begun = State.clone, [0], [0]

    def counted(self: State, record: bool = False) -> State:
        copies[0] += 1
        return clone(self, record)

    rng = random.Random(2)
    s = game.new_state(players=2, seed=4, record=True)  # set up the long way: its first effect runs on this state
    begin = choices._begin  # an effect that may choose begins (from the copy made of the position before it)
    monkeypatch.setattr(choices, "_begin", lambda *args: begun.__setitem__(0, begun[0] + 1) or begin(*args))
    monkeypatch.setattr(State, "clone", counted)
    while not s.is_terminal:
        s.play(rng.randrange(len(s.legal_actions())))
    assert begun[0] > 3 and copies[0] == begun[0]
    assert s.to_json() == game.state_from_json(s.to_json()).to_json()


def test_a_dropped_copy_keeps_no_position_and_plays_the_same(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy its maker drops once played on (``dropped``: a search's rollout) copies no position before an effect
    that runs as a coroutine, notes nothing at its pauses, and plays the game a kept copy plays; a copy of it made
    while an effect waits cannot go on, and says so."""
    from engine.model.state import State

    start = game.new_state(players=2, seed=5)
    kept, dropped = start.clone(), start.clone()
    dropped.dropped = True
    clone, copies = State.clone, {False: 0, True: 0}

    def counted(self: State, record: bool = False) -> State:
        copies[self.dropped] += 1
        return clone(self, record)

    monkeypatch.setattr(State, "clone", counted)
    a, b = random.Random(4), random.Random(4)
    bare = 0  # the pauses of effects begun on the dropped copy
    while not kept.is_terminal:
        kept.play(a.randrange(len(kept.legal_actions())))
        dropped.play(b.randrange(len(dropped.legal_actions())))
        if dropped.pending is not None and dropped.pending.base is None:
            bare += 1
            assert dropped.pending.noted == ()
    assert copies[False] > 3 and copies[True] == 0 and bare > 3
    assert dropped == kept and dropped.dropped and not dropped.clone().dropped
    paused = game.new_state(players=2, seed=5)
    paused.play(0)
    paused.play(0)  # B's effect begins on it: it waits at A's question
    paused.dropped = True
    paused.play(0)
    paused.play(0)
    assert paused.pending is not None and paused.pending.base is None
    with pytest.raises(RuntimeError, match="marked dropped"):
        paused.clone().play(0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), nudges=st.lists(st.sampled_from(["none", "decided", "rng"]), min_size=12, max_size=12))
def test_saves_of_paused_effects_keep_what_answers_note_outside_them(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                                                    nudges: list[str]) -> None:
    """A save at every pause, loaded and played on like the state it came from, stays the same: the position before
    the effect has what the decisions (and anything else) changed while it waited, put on it when it is read."""
    game = engine.load(build_path(tmp_path_factory.mktemp("choose")))
    rng = random.Random(seed)
    s = game.new_state(players=2, seed=seed, record=True)  # set up the long way (see test_an_answer_copies_no_position)
    for nudge in nudges:
        if s.is_terminal:
            break
        loaded = game.state_from_json(s.to_json())
        for state in (s, loaded):  # a change made outside the effect while it waits, on both alike
            if nudge == "decided":
                state.decided = seed % 7
            elif nudge == "rng":
                state.rng = seed
        i = rng.randrange(len(s.legal_actions()))
        s.play(i)
        loaded.play(i)
        assert loaded.to_json() == s.to_json() and loaded == s
        assert s.pending is None or s.clone().to_json() == s.to_json()


def build_path(folder: Path) -> Path:
    path = folder / "ruleset.yaml"
    path.write_text(RULESET.replace("SETUP", DEAL))
    return path


# ------------------------------------------------------------------ effects that ask before changing anything

ASKING_FIRST = RULESET.replace("""        gold(current_role) += 1
        let c = choose(c in hand(current_role))
        move(c, discard)
        gold(current_role) += c.value
        let d = choose(x in [1, 2, 3], by = if current_role == A then B else A)
        gold(current_role) += d * 10
""", """        let r = ROLL
        let c = choose(c in hand(current_role))
        gold(current_role) += r
        if c != none:
          move(c, discard)
          gold(current_role) += c.value * 10
""")


def asking_first(tmp_path: Path, roll: str = "0", setup: str = DEAL, replace: tuple[str, str] = ("", "")) -> engine.Game:
    path = tmp_path / "ruleset.yaml"
    path.write_text(ASKING_FIRST.replace("ROLL", roll).replace("SETUP", setup).replace(*replace))
    return engine.load(path)


@pytest.mark.parametrize(("effect", "first"), [
    ("let c = choose(c in hand(current_role))\nmove(c, discard)", True),
    ("let n = count(c in hand(current_role))\nlet c = choose(c in hand(current_role) where c.value > n)\nmove(c, discard)", True),
    ("gold(current_role) += 1\nlet c = choose(c in hand(current_role))\nmove(c, discard)", False),
    ("let c = choose(c in hand(current_role))\nlet d = choose(x in [1, 2])\nmove(c, discard)", False),
    ("for x in [1, 2]:\n  let c = choose(c in hand(current_role))\n  move(c, discard)", False),
    ("repeat 2:\n  let c = choose(c in hand(current_role))\n  move(c, discard)", False),
    ("while count(c in hand(current_role)) > 0:\n  let c = choose(c in hand(current_role))\n  move(c, discard)", False),
    ("gold(current_role) += 0", None),
])
def test_which_effects_ask_before_changing_anything(tmp_path: Path, effect: str, first: bool | None) -> None:
    """An effect with one choose, written before any change and outside loops, asks first; a loop may run a change
    written after its choose before the choose asks again."""
    body = "\n".join("        " + line for line in effect.splitlines())
    text = RULESET.replace("SETUP", DEAL).split("turn:")[0] + "turn:\n  - do:\n      effect: |\n" + body + "\n" + \
        "end:" + RULESET.split("end:")[1]
    path = tmp_path / "ruleset.yaml"
    path.write_text(text)
    game = engine.load(path)
    if first is None:
        assert asking.runs_directly(game, 0, "effect")
    else:
        assert not asking.runs_directly(game, 0, "effect") and asking.asks_first(game, 0, "effect") is first


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), roll=st.sampled_from(["0", "roll(d6)"]), replaying=st.booleans())
def test_asking_first_plays_the_games_a_coroutine_plays(tmp_path_factory: pytest.TempPathFactory, seed: int, roll: str,
                                                       replaying: bool) -> None:
    """Logs, histories, saves at every decision, clones answered on their own and saves loaded and played on: the same
    whether the effect waits at the position before it (asking first) or runs as a coroutine (or replaying); an
    effect that rolls before it asks runs as a coroutine."""
    game = asking_first(tmp_path_factory.mktemp("first"), roll)
    assert asking.asks_first(game, 0, "effect")

    def play() -> list[object]:
        rng = random.Random(seed)
        s = game.new_state(players=2, seed=seed, record=True)
        seen: list[object] = []
        while not s.is_terminal:
            i = rng.randrange(len(s.legal_actions()))
            twin, loaded = s.clone(), game.state_from_json(s.to_json())
            s.play(i)
            twin.play(i)
            loaded.play(i)
            assert twin == s and loaded == s and loaded.to_json() == s.to_json()
            seen += [s.to_json(), list(s.log or ()), s.pending is not None and s.pending.here]
        return [s.log, s.history, seen]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(choices, "_REPLAYING", replaying)
        here = play()
        patch.setattr(choices, "asks_first", lambda game, step, key: False)
        assert play()[:2] == here[:2]
    assert any(here[2][2::3]) is (roll == "0")  # the pause waits at the position before the effect, unless dice rolled


def test_an_effect_that_asks_first_copies_no_position_while_it_waits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While such an effect waits, the state is the position before it: no copy, no coroutine.  An answer given by
    ``play`` (whose caller drops a state the ruleset fails in) copies nothing; a choice taken without asking (one
    option) copies the position once, as an answer given by ``apply`` does (what an error puts back)."""
    from engine.model.state import State

    game = asking_first(tmp_path)
    clone, copies, answers = State.clone, [0], [0]

    def counted(self: State, record: bool = False) -> State:
        copies[0] += 1
        return clone(self, record)

    passed, forced = choices.Tape.passed, [0]

    def counted_pass(self: choices.Tape, s: State) -> None:
        forced[0] += self.start is None  # a choice taken without asking, where the effect had changed nothing yet
        passed(self, s)

    monkeypatch.setattr(choices, "_begin", lambda *args: pytest.fail("an effect that asks first ran as a coroutine"))
    monkeypatch.setattr(choices.Tape, "passed", counted_pass)
    rng = random.Random(5)
    s = game.new_state(players=2, seed=5, record=True)
    monkeypatch.setattr(State, "clone", counted)
    while not s.is_terminal:
        assert s.pending is not None and s.pending.here and s.tape is None
        assert set(vars(s.pending)) == {f.name for f in dataclasses.fields(choices.Pending)}  # made field by field
        s.play(rng.randrange(len(s.legal_actions())))
        answers[0] += 1
    assert answers[0] >= 3 and forced[0] and copies[0] == forced[0]
    s, copies[0], forced[0] = game.new_state(players=2, seed=5, record=True), 0, 0
    while not s.is_terminal:
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))], undo=False)
    assert copies[0] == forced[0]  # the same without undo
    s, copies[0], forced[0], answers[0] = game.new_state(players=2, seed=5, record=True), 0, 0, 0
    while not s.is_terminal:
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
        answers[0] += 1
    assert copies[0] == 2 * answers[0] + forced[0]  # apply's own copy, and the answer's


def test_an_error_in_an_effect_that_asked_first_leaves_the_state_at_the_choice(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """As a coroutine's error does: the state is back at the choice (with what taking the decision noted), and the
    choice can be answered again."""
    game = asking_first(tmp_path, replace=("c.value * 10", "10 / (c.value - 1)"))

    def after_error() -> list[object]:
        s = game.new_state(players=2, record=True)
        before = s.to_json()
        with pytest.raises(EffectRuntimeError, match="division by zero"):
            s.apply("choose c1")
        assert s.pending is not None and s.current_player == 1 and s.to_json()["board"] == before["board"]
        at_error = [s.to_json(), list(s.log or ()), s.pending.here]
        s.apply("choose c2")
        assert s.counters[0] == 10
        return [*at_error, s.to_json(), s.log]

    here = after_error()
    assert here[2] is True
    monkeypatch.setattr(choices, "asks_first", lambda game, step, key: False)
    coroutine = after_error()
    assert coroutine[2] is False and coroutine[:2] + coroutine[3:] == here[:2] + here[3:]


def test_an_error_after_a_forced_choice_puts_the_position_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An effect that asks first but went past its choice without asking (one option) may have changed the game: an
    error then puts back the position the effect began from (copied as the choice was taken, with the dice rolled
    before put back), as a coroutine's copy does."""
    game = asking_first(tmp_path, roll="roll(d6)", replace=("c.value * 10", "10 / (c.value - 1)"),
                        setup="move(c in cards where c.value == 1, hand(B))\n  move(c in cards where c.value != 1, hand(A))")

    def after_error() -> list[object]:
        s = game.new_state(players=2, seed=3, record=True)
        with pytest.raises(EffectRuntimeError, match="division by zero"):
            s.apply("choose c3")  # A's effect finishes; B's begins: its only card is taken without asking
        return [s.to_json(), s.log]

    here = after_error()
    monkeypatch.setattr(choices, "asks_first", lambda game, step, key: False)
    assert after_error() == here


@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 3)), st.integers(0, 3)), max_size=12))
def test_distinct_cells_read_back_as_listed(values: list) -> None:
    """Options give what labelling each one gives; a repeated offer of distinct cells, labelled once, is read
    back in C (the list offered is the options)."""
    def listed(values: list) -> tuple[list, list]:
        options, labels, seen = [], [], set()
        for v in values:
            text = None if v is None else choice_labels.plain_label(None, v)
            if v is not None and text not in seen:
                seen.add(text)
                options.append(v)
                labels.append(text)
        return options, labels

    want = listed(values)
    assert choice_labels.distinct_options(list(values), choice_labels.plain_label, None) == want
    cells = list(dict.fromkeys(v for v in values if isinstance(v, tuple)))
    choice_labels.distinct_options(list(cells), choice_labels.plain_label, None)  # labels them
    options, labels = choice_labels.distinct_options(cells, choice_labels.plain_label, None)
    assert (options, labels) == listed(cells) and options is cells  # read back: the list itself, not a new one


DISCS = """\
name: faced-choices
players: [2]
types:
  colour: [Black, White]
components:
  disc:
    faces: [dark, light]
    attributes:
      colour: {type: colour, per_face: true}
    instances:
      - {id: disc, colour: [Black, White], count: 8}
board: {kind: square-grid, width: 3, height: 3, stacking: true}
roles: {of: colour, seating: {2: [1, 2]}}
zones:
  stock: {kind: hand, per: role}
setup: |
  place(d in supply where d.id == "disc", (1, 1))
  flip(d in board)
  place(d in supply where d.id == "disc", (1, 1))
  move(d in supply, stock(Black), 2)
  flip(d in stock(Black))
  move(d in supply, stock(Black), 1)
  move(d in supply, stock(White), 2)
turn:
  - do:
      effect: |
        let d = choose(x in board)
        move(y in discs where y == d, stock(current_role))
  - do:
      effect: |
        let e = choose(x in stock(current_role))
        move(y in discs where y == e, supply)
end: {when: count(d in board) == 0, max_turns: 10}
scoring: {rank: r in roles, by: [count(d in stock(r))], points: [1, 0]}
"""


def test_copies_showing_different_faces_are_different_options_named_by_the_face(tmp_path: Path) -> None:
    """Black's stock held discs showing White and one showing Black: 'identical copies are one option' made them one,
    taken without asking, so Black could never choose which to give up."""
    from engine.blocks.enumeration import choice_texts
    from engine.rl.actions import ActionTable

    (tmp_path / "ruleset.yaml").write_text(DISCS, encoding="utf-8")
    game = engine.load(tmp_path)
    s = game.new_state(players=2, seed=1, record=True)
    assert [str(a) for a in s.legal_actions()] == ["choose disc at 1,1:2", "choose disc at 1,1"]  # the place tells them apart
    s.apply("choose disc at 1,1")  # the top one, showing Black: Black's stock holds two discs showing White, two Black
    assert sorted(str(a) for a in s.legal_actions()) == ["choose disc as Black", "choose disc as White"]  # copies alike: once
    s.apply("choose disc as White")
    assert "Black chooses disc as White" in s.log
    stock = s.zones[game.zone_index[("stock", "Black")]]
    assert sorted(game.face_labels[c][s.face[c]] for c in stock) == ["Black", "Black", "White"]
    assert {"choose disc as Black", "choose disc as White"} <= set(choice_texts(game).texts)
    assert len(ActionTable(game).legal(s)) == 2  # White's turn: the last disc on the board, taken; then its stock's two


WHILE_STOPPED = """\
        while gold(current_role) < 100:
          let c = choose(c in hand(current_role), optional = true)
          if c == none:
            gold(current_role) += 100
          else:
            move(c, discard)
            gold(current_role) += c.value
"""


def test_a_while_loop_asks_until_the_player_passes(tmp_path: Path, mode: str) -> None:
    """``while``: a loop whose end the player decides (discard cards until you pass), asked again after each change,
    in both ways of pausing, and saved in the middle."""
    text = RULESET.replace("SETUP", DEAL).split("turn:")[0] + "turn:\n  - do:\n      effect: |\n" + WHILE_STOPPED + \
        "end:" + RULESET.split("end:")[1]
    (tmp_path / "ruleset.yaml").write_text(text)
    game = engine.load(tmp_path)
    s = game.new_state(players=2, record=True)
    assert s.legal_actions().texts() == ["choose c1", "choose c2", "choose pass"]
    s.apply("choose c2")
    assert s.current_role == "A" and s.legal_actions().texts() == ["choose c1", "choose pass"]
    saved = s.to_json()
    s.apply("choose c1")
    assert s.current_role == "B"  # A's hand is empty: the loop asked nothing more (a single 'pass' is not asked)
    again = game.state_from_json(saved)
    again.apply("choose pass")
    assert again.current_role == "B" and again.to_json()["counters"][0] == 102


def _waiting_coroutines() -> int:
    """The coroutines of this process that have not ended (paused ones, and the idle ones kept for the next effect)."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, greenlet.greenlet) and not o.dead)


@pytest.mark.skipif(greenlet is None, reason="without greenlet every answer replays: no coroutine to keep")
def test_copies_dropped_while_their_effect_waits_are_let_go(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A paused coroutine and its state hold each other through the coroutine's frame, which the garbage collector
    cannot see into: every copy of a state answered once and dropped at the next question stayed in memory for good
    (a search leaves thousands: 1,634 after 20 decisions of mcts:50 on docs/examples/frontiers).  Past
    ``PAUSED_MOST`` the coroutine waiting longest is ended."""
    monkeypatch.setattr(choices, "PAUSED_MOST", 4)
    base = game.new_state(players=2, seed=3)
    before = _waiting_coroutines()
    for _ in range(40):
        copy = base.clone()
        copy.apply("choose c2")  # paused at B's question
    del copy
    assert _waiting_coroutines() - before <= 4 + 1


@pytest.mark.skipif(greenlet is None, reason="without greenlet every answer replays: no coroutine to keep")
def test_a_state_whose_coroutine_was_ended_plays_on_the_same(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A state still in use whose waiting coroutine was ended (others paused since) replays its effect when answered,
    as a clone does, and ends where it would have."""
    monkeypatch.setattr(choices, "PAUSED_MOST", 2)
    base = game.new_state(players=2, seed=3, record=True)
    first = base.clone(record=True)
    first.apply("choose c2")
    shown = (first.to_json(), first.observation(2), first.counters[:])
    others = [base.clone() for _ in range(4)]
    for other in others:
        other.apply("choose c2")
    assert first.tape is None or first.tape.run is None or first.tape.run.dead  # its coroutine was ended
    assert (first.to_json(), first.observation(2), first.counters) == shown  # and nothing it had done was undone
    first.apply("choose 1")
    twin = base.clone(record=True)
    twin.apply("choose c2")
    twin.apply("choose 1")
    assert first == twin and first.counters == twin.counters == [13, 1] and first.log == twin.log


ASKED_IN_WHERE = """\
name: asked-in-where
players: [2]
components:
  card:
    instances: [{id: A}, {id: B}, {id: C}]
zones:
  row: {kind: pile}
  held: {kind: hand}
setup: |
  move(c in supply, row)
turn:
  - do:
      effect: |
        move(c in row where c == choose(x in row, always_ask = true), held)
end:
  when: count(row) == 0
scoring: {rank: r in roles, by: [0], points: key}
"""


def test_a_choice_in_a_where_is_refused_where_written(tmp_path: Path) -> None:
    """``move(c in row where c == choose(x in row))`` asked the player once for every card of the row: answered
    ``choose B``, the game asked again (for the next card) and moved nothing, and nothing said why."""
    (tmp_path / "ruleset.yaml").write_text(ASKED_IN_WHERE)
    with pytest.raises(RulesetError) as err:
        engine.load(tmp_path)
    assert "ruleset.yaml:14:34: choose() in the condition after 'where' would ask the player once for every item the " \
           "selection looks at (ask once before it and keep the answer: let p = choose(...)" in err.value.format()
    (tmp_path / "ruleset.yaml").write_text(ASKED_IN_WHERE.replace(
        "        move(c in row where c == choose(x in row, always_ask = true), held)",
        "        let p = choose(x in row where x != none, always_ask = true)\n        move(c in row where c == p, held)"))
    s = engine.load(tmp_path).new_state(players=2, seed=1)
    s.apply("choose B")
    assert s.observation(1)["zones"]["held"] == ["B"]
