"""``rulecraft play`` with any mix of humans and bots: undo, hint, and the log they leave (through CliRunner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import render
from cli.main import main
from cli.play import RECENT
import engine
from engine.runner.agents import default_search, make_agent

RULESET = "iconoclasm-cards"
ALWAYS_FIRST = "1\n" * 300


def run(*args: str, input: str | None = None) -> Result:
    """Invoke the CLI; fails the test on any traceback or unexpected exception."""
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


BOTS = ["random", "greedy", "mcts:10", "ismcts:10"]
"""Every kind of agent engine.runner.agents offers (a broken one fails, it is not left out)."""


def replays_to_the_end(log: Path) -> bool:
    saved = json.loads(log.read_text())
    state = engine.load(saved["ruleset"], saved["variant"]).new_state(players=saved["players"], seed=saved["seed"])
    for text in saved["actions"]:
        state.apply(text)
    return state.is_terminal


# ---------------------------------------------------------------- seats


@pytest.mark.parametrize("bot", BOTS)
def test_a_human_against_any_bot(bot: str, tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    result = run("play", RULESET, "--seed", "3", "--seat", "1=human", "--seat", f"2={bot}", "--log", str(log),
                 input=ALWAYS_FIRST)
    assert result.exit_code == 0
    assert f"[{make_agent(bot, 0).name}]: place " in result.output
    assert "game over" in result.output and replays_to_the_end(log)


@pytest.mark.parametrize("bot", BOTS)
def test_bots_only(bot: str) -> None:
    result = run("play", RULESET, "--players", "3", "--seed", "1", "--seat", f"1={bot}", "--seat", "3=random")
    assert result.exit_code == 0
    assert "bots only" in result.output and "game over" in result.output


def test_each_bot_is_named_by_its_spec() -> None:
    """Regression: ``greedy:depth=30`` called itself ``greedy``, so two greedy bots of different depths (or a greedy hint
    beside a greedy seat) read alike; a search bot already showed its spec."""
    result = run("play", "tic-tac-toe", "--seed", "1", "--seat", "1=greedy:depth=30", "--seat", "2=greedy")
    assert result.exit_code == 0
    assert "[greedy:depth=30]: place X" in result.output and "[greedy]: place O" in result.output


def test_the_documented_seat_mix_is_accepted() -> None:
    result = run("play", RULESET, "--seat", "1=human", "--seat", "2=mcts:400", "--seed", "0", input="quit\n")
    assert result.exit_code == 0 and "humans at seat 1" in result.output


def test_a_misspelt_human_at_a_seat_is_told_the_word() -> None:
    result = run("play", RULESET, "--seat", "2=humn", input="quit\n")
    assert result.exit_code == 2
    assert " ".join(result.output.split()).endswith(
        "(searches also take :c=C and :depth=D, e.g. mcts:400:c=2:depth=60); or a person at the keyboard: did you mean 'human'?")


def test_two_humans_and_a_bot() -> None:
    result = run("play", RULESET, "--players", "3", "--seed", "2", "--seat", "2=human", input=ALWAYS_FIRST)
    assert result.exit_code == 0
    assert "humans at seat 1, 2" in result.output and "game over" in result.output


# ---------------------------------------------------------------- undo


def test_undo_takes_back_the_human_move_and_the_bot_replies() -> None:
    result = run("play", RULESET, "--seed", "5", input="1\nundo\nquit\n")
    assert result.exit_code == 0
    after = result.output.split("took back 2 moves, from 'place ", 1)[1]
    assert "' on" in after.splitlines()[0]  # the bot's reply is not spelled out (it may be a sealed choice)
    assert "turn 1: seat 1" in after  # the board is drawn again at the first turn


def test_undo_with_no_human_move_says_so() -> None:
    result = run("play", RULESET, "--seed", "5", input="undo\nquit\n")
    assert result.exit_code == 0
    assert "nothing to undo" in result.output


def test_undo_between_two_humans_takes_back_the_last_human_move() -> None:
    result = run("play", RULESET, "--players", "3", "--seed", "2", "--seat", "2=human", input="1\nundo\nquit\n")
    assert result.exit_code == 0
    assert "took back 1 move, from '" in result.output


def test_undo_by_another_human_does_not_tell_the_sealed_move_it_takes_back() -> None:
    """Two humans at one screen bidding sealed: Blue's undo printed "took back 1 move, from 'commit 0 to bid' on",
    Red's sealed bid; it is named as Blue sees it, and Red's own undo names Red's own bid."""
    bids = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "sealed-bids")
    said = run("play", bids, "--seed", "1", "--seat", "2=human", input="commit 0 to bid\nundo\nquit\n").output
    assert "took back 1 move, from 'commit a number to bid' on" in said and "commit 0 to bid' on" not in said, said
    said = run("play", bids, "--seed", "1", "--seat", "2=random", input="commit 0 to bid\nundo\nquit\n").output
    assert "took back 2 moves, from 'commit 0 to bid' on" in said, said


def test_a_number_that_is_also_an_answer_of_another_action_is_refused_as_ambiguous() -> None:
    """Bids of 0 to 3 listed as [1] commit 0 to bid, [2] commit 1 to bid...: typing 1 to bid one bid zero, the
    first action; it is refused, saying both readings, and the game waits. #2 is always the second of the list."""
    bids = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "sealed-bids")
    said = run("play", bids, "--seed", "1", "--seat", "2=human", input="1\n99\nquit\n").output
    assert "'1' is ambiguous: action [1] is 'commit 0 to bid', and 'commit 1 to bid' answers 1; type the whole " \
           "action, or #1 for [1]" in said, said
    assert "commits a number" not in said and "there is no action 99: choose one from 1 to 6" in said, said
    said = run("play", bids, "--seed", "1", "--seat", "2=human", input="#2\nquit\n").output
    assert "ambiguous" not in said and "Red commits a number face down to bid" in said, said


def test_a_game_with_undos_leaves_a_log_that_replays(tmp_path: Path) -> None:
    log, save = tmp_path / "game.json", tmp_path / "save.json"
    moves = f"1\n2\nundo\n3\nundo\nundo\nsave {save}\n" + ALWAYS_FIRST
    result = run("play", RULESET, "--seed", "8", "--log", str(log), input=moves)
    assert result.exit_code == 0
    assert result.output.count("took back") == 3
    assert json.loads(save.read_text())["actions"] == []  # every move was taken back before saving
    assert replays_to_the_end(log)
    assert run("replay", str(log)).exit_code == 0


def test_undo_after_loading_a_saved_game(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    run("play", RULESET, "--seed", "4", input=f"1\n1\nsave {save}\nquit\n")
    result = run("play", "--load", str(save), input="undo\nquit\n")
    assert result.exit_code == 0
    assert "took back 2 moves" in result.output


# ---------------------------------------------------------------- hint and help


def test_hint_names_a_legal_action_by_its_number() -> None:
    result = run("play", RULESET, "--seed", "5", "--hint-agent", "random", input="hint\nquit\n")
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if "hint (random): [" in line)
    number = int(line.split("[", 1)[1].split("]", 1)[0])
    listed = next(text for text in result.output.splitlines() if text.startswith(f"[{number}] "))
    assert listed.split("] ", 1)[1].strip() == line.split("] ", 1)[1].strip()


def test_hint_uses_the_search_that_suits_the_game() -> None:
    """ISMCTS where something is hidden (the card game's hands), plain MCTS for a game played in the open."""
    result = run("play", RULESET, "--seed", "5", input="hint\nhint\nquit\n")
    assert result.exit_code == 0
    assert result.output.count("hint (ismcts:200): [") == 2


def test_the_default_search_is_mcts_only_when_nothing_is_hidden(tmp_path: Path) -> None:
    assert default_search(engine.load(RULESET)) == "ismcts:200"
    assert default_search(engine.load("nine-domains")) == "ismcts:200"  # hands hidden and commits sealed
    open_game = tmp_path / "open.yaml"
    open_game.write_text("name: open\nextends: tutorial-tiles\nzones:\n  hand: {kind: hand, per: role, hidden: none}\n")
    assert default_search(engine.load(open_game)) == "mcts:200"


def test_an_unknown_hint_agent_is_a_usage_error() -> None:
    result = run("play", RULESET, "--hint-agent", "oracle")
    assert result.exit_code == 2
    assert "--hint-agent" in result.output


def test_help_explains_undo_and_hint() -> None:
    result = run("play", RULESET, "--seed", "5", input="help\nquit\n")
    assert "undo" in result.output and "hint" in result.output and "replaying" in result.output


# ---------------------------------------------------------------- a ruleset that fails while playing

FAILING = str(Path(__file__).parent / "data" / "failing-effect")


def test_a_move_the_ruleset_fails_on_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    result = run("play", FAILING, "--seed", "1", "--seat", "1=human", "--seat", "2=human", "--log", str(log),
                 input="choose A0\nchoose A1\n" + "choose B1\nchoose A1\n" * 3)
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "the ruleset failed while playing 'choose A0'" in said and "division by zero" in said
    assert "(the game is as it was before that move)" in said
    assert result.exit_code == 0 and "game over" in result.output and replays_to_the_end(log)


def test_a_bot_move_the_ruleset_fails_on_stops_the_game_and_keeps_it(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    result = run("play", FAILING, "--seed", "1", "--seat", "1=random", "--seat", "2=random", "--log", str(log))
    if "the ruleset failed" not in result.output:  # the bots never picked the failing choice: nothing to see
        assert result.exit_code == 0
        return
    assert "the game stops here" in result.output and result.exit_code == 1
    saved = json.loads(log.read_text())
    state = engine.load(FAILING).new_state(players=2, seed=1)
    for text in saved["actions"]:
        state.apply(text)
    assert not state.is_terminal


# ---------------------------------------------------------------- a game without decisions

NO_DECISIONS = str(Path(__file__).parent / "data" / "no-decisions")


def unheaded(output: str) -> str:
    """``play``'s output without the lines heading turns nobody human opened (``turn 4: seat 2 (Blue)``)."""
    return "\n".join(line for line in output.splitlines() if not re.fullmatch(r"turn \d+(: .*)?", line))


def test_a_game_without_decisions_shows_its_whole_log_and_replays_it(tmp_path: Path) -> None:
    # every step is automatic: the game is over once set up, and all of it is shown, not only its last lines
    log = tmp_path / "game.json"
    whole = engine.load(NO_DECISIONS).new_state(players=2, seed=3, record=True).log or []
    assert len(whole) > 8
    played = run("play", NO_DECISIONS, "--seed", "3", "--log", str(log), input="")
    assert played.exit_code == 0 and json.loads(log.read_text())["actions"] == []
    replayed = run("replay", str(log))
    expected = " ".join(" ".join(render.log_lines(whole)).split())
    for result in (played, replayed):
        assert expected in " ".join(unheaded(result.output).split()), result.output  # in order (the console wraps long lines)
        assert "seat 1 (Ash) wins" in result.output
    # each turn that asked nobody is headed with whose it was (it said 'turn 2' alone: the log held lengths only)
    assert re.search(r"^turn 2: seat 2 \(Oak\)$", played.output, re.M) and re.search(r"^turn 3: seat 1 \(Ash\)$", played.output, re.M)
    assert not re.search(r"^turn \d+$", played.output + replayed.output, re.M)


def test_a_bots_turn_that_logs_before_it_decides_is_headed_with_its_seat() -> None:
    """A bot's roll came under the human's last move with nothing saying a turn had passed (``Red chooses stop``,
    then ``a d6 is rolled: 4``, which was Blue's); a turn that starts with its move line is not headed again."""
    ladders = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "ladders")
    lines = run("play", ladders, "--seed", "3", input="2\n" * 12).output.splitlines()
    turn = lines.index("turn 2: seat 2 (Blue)")
    assert lines[turn - 1].endswith("Red chooses stop") and lines[turn + 1] == "  a d6 is rolled: 4"
    tic = run("play", "tic-tac-toe", "--seed", "3", input="1\n" * 9).output
    assert "seat 2 (O) [random]: place O" in tic and not re.search(r"^turn \d+: seat 2", tic, re.M)


def test_a_loaded_game_shows_only_the_end_of_its_log(tmp_path: Path) -> None:
    # its log was seen while it was played: only its last lines are shown again
    saved = tmp_path / "game.json"
    run("play", RULESET, "--seed", "3", "--seat", "1=human", "--seat", "2=human", input="1\n" * 10 + f"save {saved}\nquit\n")
    state = engine.load(RULESET).new_state(players=2, seed=3, record=True)
    for text in json.loads(saved.read_text())["actions"]:
        state.apply(text)
    lines = state.log or []
    assert len(lines) > RECENT
    shown = " ".join(unheaded(run("play", "--load", str(saved), input="quit\n").output).split())
    assert " ".join(" ".join(render.log_lines(lines[-RECENT:])).split()) in shown
    assert " ".join(lines[0].split()) not in shown


# ---------------------------------------------------------------- a game stopped before its end


def test_quitting_or_interrupting_keeps_the_game_so_far_in_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # --log was written only when the game ended: quit, or Ctrl-C while a bot thought ("Aborted!"), lost every move
    log = tmp_path / "game.json"
    quit_early = run("play", RULESET, "--seed", "4", "--log", str(log), input="1\nquit\n")
    assert quit_early.exit_code == 0 and "stopped; the game is not over" in quit_early.output
    kept = json.loads(log.read_text())["actions"]
    assert len(kept) >= 2 and f"saved {len(kept)} actions to {log}" in " ".join(quit_early.output.split())
    assert "seat 1 wins" not in run("play", "--load", str(log), input="quit\n").output  # it loads and goes on

    from cli.play import Session

    moves = Session.bot_turn

    def interrupted_later(self: Session, seat: int, bot: object) -> bool:
        if len(self.state.history or []) >= 3:
            raise KeyboardInterrupt
        return moves(self, seat, bot)

    monkeypatch.setattr(Session, "bot_turn", interrupted_later)
    bots = run("play", RULESET, "--seed", "4", "--seat", "1=random", "--log", str(log))
    assert bots.exit_code == 1 and "interrupted; the game is not over" in bots.output
    assert len(json.loads(log.read_text())["actions"]) == 3


def test_a_game_of_bots_ends_on_a_position_that_is_nobodys_own() -> None:
    # with bots only, the final position was drawn as seat 1 sees it: its hand "(yours)", the others' hidden
    result = run("play", "kuhn-poker", "--seed", "3", "--seat", "1=random", "--seat", "2=random")
    final = result.output.split("the final position")[1]
    assert result.exit_code == 0 and "(yours)" not in final and "hidden" not in final


def test_a_human_sees_every_hand_once_the_game_is_over() -> None:
    # the final position was drawn as the human's seat sees it: the cup that decided the call stayed "1 hidden"
    result = run("play", "liars-dice", "--seed", "11", "--seat", "2=random", input="1\n" * 40)
    during, final = result.output.split("the final position")
    assert result.exit_code == 0 and "cup of Second: 1 hidden" in during
    assert "hidden" not in final and "cup of Second:\n  die: pips" in final  # no line ends in a space


def test_a_bot_deciding_says_it_is_thinking_on_a_terminal() -> None:
    """A human waited in silence while a bot decided (a greedy bot took seconds a move on a long game without a
    running score): on a terminal a line says who is thinking (erased once its move is printed); a piped run shows
    nothing of it."""
    import io

    from cli.console import SafeConsole
    from cli.gamelog import GameLog
    from cli.play import Session, hint_agent, parse_seats

    def played(terminal: bool) -> str:
        out = io.StringIO()
        console = SafeConsole(markup=False, emoji=False, highlight=False, file=out, force_terminal=terminal, width=100)
        log = GameLog("tic-tac-toe", [], players=2, seed=0)
        game, state = log.start()
        bots = parse_seats(("1=greedy", "2=random"), 2, 0)
        session = Session(console, state, log, bots, hint_agent(game, "mcts:5", 0))
        session.show_hint()
        assert session.run()
        return out.getvalue()

    shown = played(terminal=True)
    assert "seat 1 (X) [greedy] is thinking..." in shown and "hint (mcts:5) is thinking..." in shown
    assert "seat 2 (O) [random] is" not in shown  # it decides at once
    assert "thinking" not in played(terminal=False)


# ---------------------------------------------------------------- how the end is said

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def test_a_drawn_game_is_said_as_a_draw_when_played_and_replayed(tmp_path: Path) -> None:
    # a full board of tic-tac-toe ended "seats 1 (X) and 2 (O) share the win", which players read as odd
    log = tmp_path / "game.json"
    played = run("play", "tic-tac-toe", "--seed", "21", "--seat", "1=random", "--seat", "2=random", "--log", str(log))
    for result in (played, run("replay", str(log))):
        assert "game over; scores: seat 1 (X): 0, seat 2 (O): 0\na draw: seats 1 (X) and 2 (O) tie\n" in result.output


def test_a_cooperative_win_is_said_as_a_win_together() -> None:
    result = run("play", str(EXAMPLES / "storm-watch"), "--players", "2", "--seed", "3", "--seat", "1=random",
                 "--seat", "2=random")
    assert "game over; scores: seat 1: 1, seat 2: 1\nseats 1 and 2 win together\n" in result.output


def test_a_team_that_wins_is_said_as_the_team_when_played_and_replayed(tmp_path: Path) -> None:
    # iconoclasm's teams: seats 1 and 3 win as a team; the end said "seats 1 (Fire) and 3 (Water) share the win",
    # as if they had tied against each other
    log = tmp_path / "game.json"
    played = run("play", "iconoclasm", "--variant", "teams", "--players", "4", "--seed", "3", "--seat", "1=random",
                 "--log", str(log))
    for result in (played, run("replay", str(log))):
        assert ("game over; scores: team 1 (seats 1 (Fire) and 3 (Water)): 1, team 2 (seats 2 (Earth) and 4 (Air)): 0\n"
                "team 1 wins: seats 1 (Fire) and 3 (Water)\n") in result.output  # each team's total, once


ASKED_BY_ANOTHER = """\
name: asked
players: [2]
counters:
  taken: {per: role}
turn:
  - do:
      effect: |
        let other = first(r in roles where seated(r) and r != current_role)
        if choose(a in ["allow", "refuse"], by = other, text = "allow the take?") == "allow":
          taken(current_role) += 1
end:
  when: turn >= 2
scoring:
  rank: r in roles where seated(r)
  by: [taken(r)]
  points: key
"""


def test_a_seat_asked_during_another_seats_turn_is_told_whose_turn_it_is(tmp_path: Path) -> None:
    """Seat 1 asked to allow seat 2's take (``choose(..., by = r)``) read 'turn 2: seat 1 to play', as if the turn
    were its own."""
    path = tmp_path / "asked.yaml"
    path.write_text(ASKED_BY_ANOTHER)
    result = run("play", str(path), "--seat", "1=human", "--seat", "2=human", input="1\n1\n")
    rules = [line.strip("─ ") for line in result.output.splitlines() if line.startswith("─")]
    assert rules[:2] == ["turn 1 of seat 1: seat 2 to decide", "turn 2 of seat 2: seat 1 to decide"], rules


def test_the_web_page_tells_a_seat_asked_during_another_seats_turn_whose_turn_it_is(tmp_path: Path) -> None:
    """The browser's line over the decision read 'turn 1: seat 2 to play' during seat 1's turn, as the terminal did."""
    from cli.web.view import situation

    path = tmp_path / "asked.yaml"
    path.write_text(ASKED_BY_ANOTHER)
    state = engine.load(str(path)).new_state(players=2, seed=0)
    assert situation(state, 2)[0] == "turn 1 of seat 1: seat 2 to decide"


def test_an_action_refused_names_the_legal_action_nearest_it() -> None:
    """A near miss ('chose N-foot-1', a letter short) was refused with the options alone, to be read through; the
    legal action nearest it is now suggested, as the web table suggests it (cli.menu.why_refused)."""
    skirmish = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "skirmish")
    result = run("play", skirmish, "--seed", "3", input="chose N-foot-1\nquit\n")
    assert "(did you mean 'choose N-foot-1'?)" in result.output


GROWING = """\
name: growing
players: [2]
components:
  coin:
    attributes: {value: int}
    instances: [{id: c0, value: 0}, {id: c1, value: 1}, {id: c2, value: 2}, {id: c3, value: 3}, {id: c4, value: 4},
                {id: c5, value: 5}]
board: {kind: square-grid, width: 10, height: 10}
zones:
  hand: {kind: hand, per: role}
turn:
  - do:
      effect: |
        move(x in supply, hand(current_role), 2)
  - place: {from: hand, touching: false}
end:
  when: count(board) >= 5
scoring:
  rank: r in roles
  by: [0]
  points: [1, 0]
"""
"""Each turn gives the player two more coins to place on any of 100 cells: its third turn offers 294 placements."""


def test_a_step_offering_more_actions_than_the_limit_stops_play_with_its_game_kept(tmp_path: Path) -> None:
    """Seat 1's second turn offered more placements than --limit actions: play stopped with the error's traceback
    as it drew the turn, and its --log was never written."""
    (tmp_path / "ruleset.yaml").write_text(GROWING)
    log = tmp_path / "game.json"
    result = run("play", str(tmp_path), "--seed", "1", "--limit", "actions=250", "--log", str(log), input="1\n" * 5)
    assert result.exit_code == 1
    assert "this step offers 294 actions, more than one decision may (limit actions=250" in result.output
    assert "the game stops here" in result.output
    assert len(json.loads(log.read_text())["actions"]) == 2


def test_a_save_of_one_action_says_action(tmp_path: Path) -> None:
    # "saved 1 actions to ..." after a single move
    saved = tmp_path / "one.json"
    result = run("play", RULESET, "--seed", "3", "--seat", "1=human", "--seat", "2=human", input=f"1\nsave {saved}\nquit\n")
    assert len(json.loads(saved.read_text())["actions"]) == 1
    assert f"saved 1 action to {saved}" in " ".join(result.output.split())


def test_a_pile_laid_on_its_top_is_listed_as_the_browser_lists_it(tmp_path: Path) -> None:
    """Take six lays each card on the top of its row (move(..., on_top = true)): the browser's table lists a row from
    the bottom up, as laid, but rulecraft play listed it top first, 'row3: 24, 21, 11, 7' for a row laid 7, 11, 21, 24.
    The terminal now tells the order as the page does, from the moves played (here, after a load and an undo, and in
    rulecraft replay too), and says so: 'row3 (from the bottom up): 7, 11, 21, 24'; a row of one card as it was."""
    take_six = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "take-six")
    log = tmp_path / "rows.json"
    played = run("play", take_six, "--players", "2", "--seed", "3", "--log", str(log), input="1\n" * 4 + "quit\n").output
    rows = [re.sub(r" \(seat\d\)", "", line) for line in played.splitlines() if line.startswith("row")]  # who laid each
    laid = [line for line in rows if "(from the bottom up): " in line]
    assert laid and "row3 (from the bottom up): 7, 11, 21, 24" in laid, rows
    for line in laid:
        cards = [int(card) for card in line.split(": ")[1].split(", ")]
        assert cards == sorted(cards), line  # each card laid higher than the one before it
    assert "row2: 38" in rows
    loaded = run("play", "--load", str(log), input="undo\nquit\n").output
    assert "row3 (from the bottom up): 7, 11 (seat1), 21 (seat2), 24 (seat2)" in loaded
    replayed = run("replay", str(log)).output
    assert "row3 (from the bottom up): 7, 11 (seat1), 21 (seat2), 24 (seat2)" in replayed


def test_a_turns_automatic_lines_are_printed_under_its_heading() -> None:
    """The dice a turn rolls as it begins were printed above the turn's heading, as if of the move before."""
    result = run("play", "iconica", "--players", "2", "--seed", "3", input="1\n1\n1\nquit\n")
    out = result.output
    heading = out.index("turn 2: seat 1 (Crimson) to play")
    assert heading < out.index("Crimson rolls white") and out.index("Azure rolls white") < heading
    assert out.count("Crimson rolls white") == 1


def test_the_state_notes_where_each_turn_begins_in_its_log() -> None:
    s = engine.load("iconica").new_state(players=2, seed=3, record=True)
    agent = make_agent("random", 1)
    while s.turn_number < 4:
        s.apply(agent.choose(s))
    assert s.log is not None and s.turn_starts is not None and sorted(s.turn_starts) == [1, 2, 3, 4]
    assert s.log[s.turn_starts[1].at - 1].startswith("roll-off") and " rolls white" in s.log[s.turn_starts[3].at]
    assert s.clone(record=True).turn_starts == s.turn_starts and s.clone().turn_starts is None


def test_an_action_whose_numbers_alone_are_wrong_is_told_the_one_of_its_words_nearest_in_numbers() -> None:
    """'place Black at 12,3' on a 9x9 board was told 'place Black at 2,3' (the text spelt most alike); the words come
    first, then the nearest numbers: 8,3, the cell of the board nearest 12,3; a bid too high, the highest."""
    from cli.menu import why_refused
    from engine.core.errors import IllegalActionError

    examples = Path(__file__).resolve().parent.parent / "docs" / "examples"
    for name, typed, told in [("gomoku", "place Black at 12,3", "place Black at 8,3"),
                              ("gomoku", "place Black at 4,-7", "place Black at 4,0"),
                              ("sealed-bids", "commit 40 to bid", None)]:
        state = engine.load(str(examples / name)).new_state(players=2, seed=1)
        with pytest.raises(IllegalActionError) as err:
            state.apply(typed)
        listed = [str(a) for a in state.legal_actions()]
        told = told or max(listed, key=lambda a: int(a.split()[1]))
        assert why_refused(state, typed, err.value).endswith(f"(did you mean '{told}'?)")


def test_an_action_typed_with_a_number_longer_than_python_reads_is_refused_and_the_game_kept(tmp_path: Path) -> None:
    """'place X at 999...9,0' with 5,000 nines: looking for the action of the nearest numbers read the number as a
    whole number, past the 4,300 digits Python reads, and play stopped with a ValueError's traceback, its game not
    written to --log (the server answered 500); the nearest is the cell of the largest numbers."""
    from cli.menu import why_refused
    from engine.core.errors import IllegalActionError

    huge = "9" * 5000
    log = tmp_path / "game.json"
    result = run("play", "tic-tac-toe", "--seed", "1", "--log", str(log),
                 input=f"place X at {huge},0\n#{huge}\n-{huge}\nplace X at 0,0\nquit\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "(did you mean 'place X at 2,0'?)" in result.output
    assert json.loads(log.read_text())["actions"][0] == "place X at 0,0"
    state = engine.load("tic-tac-toe").new_state(players=2, seed=1)
    with pytest.raises(IllegalActionError) as err:
        state.apply(f"place X at -{huge},1")
    assert why_refused(state, f"place X at -{huge},1", err.value).endswith("(did you mean 'place X at 0,1'?)")


def test_a_tricks_cards_say_who_played_each_at_the_terminal(tmp_path: Path) -> None:
    """The browser's table marks each card of a trick (a pile of nobody's, open to all) with the role that played it;
    rulecraft play listed 'trick: 2C, 4C, TC' alone. It now says 'trick: 2C (South), 4C (West), TC (North)', told
    from the moves as the log tells them ('hand of West: 4C -> trick'), after a load too; a pile of a role's own
    marks none."""
    hearts = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "hearts")
    log = tmp_path / "hearts.json"
    out = run("play", hearts, "--players", "4", "--seed", "3", "--seat", "1=random", "--watch", "--log", str(log)).output
    played_by: dict[str, str] = {}
    checked = 0
    for line in out.splitlines():
        if (moved := re.fullmatch(r"\s*hand of (\w+): (\w+) -> trick", line)):
            played_by[moved[2]] = moved[1]
        elif line.startswith("trick: "):
            cards = line[len("trick: "):].split(", ")
            assert all(re.fullmatch(r"\w+ \(\w+\)", card) for card in cards), line
            assert all(played_by[card.split()[0]] == card.split()[1].strip("()") for card in cards), line
            checked += len(cards) > 2
        elif line.startswith("won of "):
            assert "(" not in line, line
    assert checked > 5
    replayed = run("replay", str(log), "--watch").output
    assert "trick: 2C (South), 4C (West), TC (North)" in replayed


def test_replay_heads_each_turn_with_whose_it_is(tmp_path: Path) -> None:
    """``rulecraft replay`` printed each action and its lines with no turn between: Crazy Eights' seat 2 playing its
    only card unasked in the middle of seat 1's action read as seat 1's, and a turn's roll before its first action
    (Hex glyphs') as the setup's.  Each turn begun among the lines is headed, as ``play`` heads it."""
    log = tmp_path / "game.json"
    run("play", str(EXAMPLES / "crazy-eights"), "--seed", "5", "--log", str(log), input="1\n" * 6)
    lines = run("replay", str(log)).output.splitlines()
    third = lines.index("3. seat 1: choose A2")
    assert lines[third + 1:third + 6] == ["  seat1 chooses a card from hand of seat1", "  hand of seat1: A2 -> the top of discard",
                                          "turn 4: seat 2", "  seat2 chooses a card from hand of seat2 (the only option)",
                                          "  hand of seat2: B2 -> the top of discard"], lines
    run("play", "hex-glyphs", "--seed", "5", "--log", str(log), input="1\n" * 3)
    lines = run("replay", str(log)).output.splitlines()
    assert lines[5:8] == ["turn 1: seat 1 (Amber)", "  Amber rolls 6 (green)", "  bag: green -> pouch of Amber"], lines


def test_a_seat_asked_in_another_seats_turn_is_named_with_its_role_and_so_is_the_turns_seat() -> None:
    """Doubt asks each other player in turn whether they doubt the claim: the bots' lines read 'seat 2 [random]:
    choose doubt' (every other line 'seat 2 (East) [random]'), and the human's 'turn 2 (seat 2's): seat 1 to decide'."""
    doubt = Path(__file__).resolve().parent.parent / "docs" / "examples" / "doubt"
    result = run("play", str(doubt), "--players", "3", "--seed", "5", input="2\n" * 60)
    assert "seat 3 (South) [random]: choose pass" in result.output
    assert not re.search(r"seat \d \[random\]", result.output), result.output
    assert "turn 2 of seat 2 (East): seat 1 (North) to decide" in result.output
