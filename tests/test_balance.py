"""The balance questions ``simulate`` and ``sweep`` answer, on games whose answer is known.

A fair coin (the first seat calls heads or tails, heads wins for it), a game the first seat is favoured in (each
seat in turn says "go" or "stop", the first to stop wins: the first seat wins 2 games in 3), roles dealt at random
of which one always wins, and a card game whose best card is dealt at random (kuhn-poker: the King's holder wins
most).  Before, a report gave the first mover's advantage without saying whether it could be chance, no verdict on
the seats, no length in turns nor a histogram, no win rate per role dealt nor per card held (which secret side wins
more had no figure), and a sweep gave no interval per value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import engine
from cli.balance import histogram, seat_balance_line
from cli.main import main
from cli.web.charts import report_html
from engine.runner.report import GameResult, SimulationReport
from engine.runner.significance import chi_square_p, even_chance_p
from engine.runner.simulate import simulate

COIN = """\
name: coin
players: [2]
counters:
  heads: {min: 0}
  called: {min: 0}
turn:
  - do:
      effect: |
        if choose(w in ["heads", "tails"]) == "heads":
          heads += 1
        called += 1
end:
  when: called > 0
scoring:
  rank: r in roles
  by:
    - if (heads > 0) == (r == nth(roles, 1)) then 1 else 0
  points: key
"""

FIRST_STOP = """\
name: first-stop
players: [2]
options:
  first_seat: {default: 1, doc: The seat that speaks first.}
first_seat: first_seat
counters:
  stops: {per: role, min: 0}
turn:
  - do:
      effect: |
        if choose(w in ["go", "stop"]) == "stop":
          stops(current_role) += 1
end:
  when: any(stops(r) > 0 for r in roles)
  max_turns: 200
scoring:
  rank: r in roles
  by: [stops(r)]
  points: key
"""

DEALT = """\
name: dealt
players: [2]
types: {side: [North, South]}
roles: {of: side, shuffle: true, seating: {2: [1, 2]}}
counters:
  moves: {min: 0}
turn:
  - do:
      effect: |
        let w = choose(w in ["a", "b"])
        moves += 1
end:
  when: moves >= 2
scoring:
  rank: r in roles
  by: [if r == North then 1 else 0]
  points: key
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / f"{text.split()[1]}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result


def words(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- the tests behind the verdicts


def test_the_chi_square_tail_matches_its_tables() -> None:
    assert chi_square_p(3.841458820694124, 1) == pytest.approx(0.05)
    assert chi_square_p(9.487729036781154, 4) == pytest.approx(0.05)
    assert chi_square_p(11.070497693516351, 5) == pytest.approx(0.05)
    assert chi_square_p(20.090235029663233, 8) == pytest.approx(0.01)
    assert even_chance_p([163, 137]) == pytest.approx(0.1333, abs=1e-4)


def test_a_fair_coin_shows_no_advantage_and_its_first_mover_is_not_called_significant(tmp_path: Path) -> None:
    """163 heads in 300 calls: the first mover's test took its 163 wins and its rival's 137 as two samples and called
    the gap significant (p 0.034); they are one sample (p 0.133), as the seats' own test says."""
    report = simulate(engine.load(write(tmp_path, COIN)), players=2, n=300, seed=0)
    assert report.wins_by_seat == {1: 163, 2: 137}
    first, seats = report.first_player, report.seat_balance
    assert first is not None and seats is not None
    assert first.p == pytest.approx(0.1333, abs=1e-4) and not first.significant and first.expected == 0.5
    assert seats.p == pytest.approx(first.p) and not seats.significant
    text = words(run("simulate", str(write(tmp_path, COIN)), "-n", "300").output)
    assert "advantage +8.7 points (p = 0.133: could be chance)" in text
    assert ("seat balance: seat 1 wins 54.3% ± 5.6%, seat 2 45.7% ± 5.6%: no sign of a seat advantage (p = 0.133); "
            "300 games could miss a gap under about 11 points between two seats") in text


def test_a_seat_the_rules_favour_is_found_and_named(tmp_path: Path) -> None:
    report = simulate(engine.load(write(tmp_path, FIRST_STOP)), players=2, n=300, seed=0)
    assert report.wins_by_seat == {1: 195, 2: 105}  # 2 in 3 expected
    assert report.seat_balance is not None and report.seat_balance.significant and report.seat_balance.most == 0
    text = words(run("simulate", str(write(tmp_path, FIRST_STOP)), "-n", "300").output)
    assert "(p < 0.001: likely a real advantage)" in text
    assert ("seat balance: seat 1 wins 65.0% ± 5.4%, seat 2 35.0% ± 5.4%: likely a seat advantage, to seat 1 "
            "(the seats won more unevenly than chance would make them: p < 0.001)") in text


def test_a_team_s_balance_is_told_of_the_teams() -> None:
    games = [GameResult((1, 3), (0.5, 0.0, 0.5, 0.0), 9, team_win=True)] * 70 + \
            [GameResult((2, 4), (0.0, 0.5, 0.0, 0.5), 9, team_win=True)] * 30
    report = SimulationReport("g", [], 4, ["random"] * 4, 0, [], games, teams=((1, 3), (2, 4)))
    assert seat_balance_line(report) == (
        "team balance: team 1 (seats 1 and 3) wins 70.0% ± 8.8%, team 2 (seats 2 and 4) 30.0% ± 8.8%: likely a team "
        "advantage, to team 1 (seats 1 and 3) (the teams won more unevenly than chance would make them: p < 0.001)")


def test_no_seat_verdict_when_the_seats_have_different_bots(tmp_path: Path) -> None:
    """The seats' wins measure the bots then: the report says whether the bots separate instead."""
    path = write(tmp_path, FIRST_STOP)
    report = simulate(engine.load(path), players=2, n=50, seed=0, agents="greedy,random")
    assert report.seat_balance is None
    text = words(run("simulate", str(path), "-n", "50", "--agents", "greedy,random").output)
    assert "seat balance" not in text and "bots: " in text and "--rotate-seats turns the bots round a seat each game" in text


# ---------------------------------------------------------------- length


def test_the_length_in_turns_and_its_histogram(tmp_path: Path) -> None:
    path = write(tmp_path, FIRST_STOP)
    report = simulate(engine.load(path), players=2, n=300, seed=0)
    assert report.turn_counts == {1: 137, 2: 83, 3: 49, 4: 17, 5: 7, 6: 3, 7: 2, 8: 1, 10: 1}  # halving each turn
    output = run("simulate", str(path), "-n", "300").output
    assert "game length in turns: mean 2.0, median 2, stdev 1.3, min 1, max 10" in output
    assert "games by length in turns:\n   1  ██████████████████████████████  137  (45.7%)\n" in output
    assert "   9                                    0  (0.0%)\n  10                                    1  (0.3%)\n" in output
    data = json.loads(run("simulate", str(path), "-n", "300", "--format", "json").output)
    assert data["turn_counts"]["1"] == 137 and data["length_counts"] == data["turn_counts"]
    assert data["turns"]["max"] == 10
    assert "game length in turns" in report_html(report) or "game length in actions" in report_html(report)


def test_a_histogram_bins_long_games_at_most_ten_rows() -> None:
    lines = [line.plain for line in histogram({n: 1 for n in range(10, 40)}, "actions")]
    assert lines[0] == "games by length in actions:" and len(lines) == 11
    assert lines[1].startswith("  10–12  ") and lines[-1].startswith("  37–39  ")


# ---------------------------------------------------------------- roles and secret sides


def test_a_role_dealt_at_random_that_always_wins_is_found(tmp_path: Path) -> None:
    path = write(tmp_path, DEALT)
    report = simulate(engine.load(path), players=2, n=200, seed=0)
    assert report.roles_dealt and report.seat_balance is not None and not report.seat_balance.significant
    north, south = report.win_rate_by_role["North"], report.win_rate_by_role["South"]
    assert (north.wins, north.trials, south.wins, south.trials) == (200, 200, 0, 200)
    assert report.role_flag("North") == "strong" and report.role_flag("South") == "weak"
    output = run("simulate", str(path), "-n", "200").output
    assert "per role dealt (the seat that played it: how often it won)" in output
    assert "│ North │ 200   │ 200 │ 100.0%   │ 98.1% – 100.0% │ strong │" in output
    data = json.loads(run("simulate", str(path), "-n", "200", "--format", "json").output)
    assert data["win_rate_by_role"]["South"]["wins"] == 0 and data["win_rate_by_role"]["South"]["flag"] == "weak"
    assert "win rate per role dealt" in report_html(report)


def test_roles_every_game_deals_alike_get_no_table() -> None:
    """tic-tac-toe's X is always seat 1: a table per role would repeat the seats'."""
    report = simulate("tic-tac-toe", n=20, seed=0)
    assert not report.roles_dealt and set(report.win_rate_by_role) == {"X", "O"}
    assert "per role dealt" not in run("simulate", "tic-tac-toe", "-n", "20").output


def test_the_card_dealt_at_random_that_wins_most_is_found() -> None:
    """kuhn-poker deals each seat one card of three: the King's holder should win most, the Jack's least."""
    report = simulate("kuhn-poker", n=1000, seed=0)
    held = {use.name: use for use in report.held_uses}
    assert report.held_at_random and set(held) == {"Jack", "Queen", "King"}
    assert (held["King"].users.wins, held["King"].users.trials) == (543, 683)
    assert (held["King"].flag, held["Queen"].flag, held["Jack"].flag) == ("strong", "", "weak")
    output = run("simulate", "kuhn-poker", "-n", "1000").output
    assert "per component held as the game started" in output and "│ King      │ 683        │ 79.5% │" in output
    assert "win rate per component held as the game started" in report_html(report)


def test_a_secret_side_dealt_as_a_card_gets_its_win_rate(tmp_path: Path) -> None:
    from tests.test_secret_sides import SIDES

    path = tmp_path / "sides.yaml"
    path.write_text(SIDES.replace("WINNERS", "together"), encoding="utf-8")
    report = simulate(engine.load(path), players=4, n=100, seed=0)
    held = {use.name: use.users for use in report.held_uses}
    assert held["LoyalBadge"].trials == 300 and held["SpyBadge"].trials == 100
    assert held["LoyalBadge"].rate > held["SpyBadge"].rate


def test_a_component_every_seat_holds_as_every_game_starts_gets_no_row(tmp_path: Path) -> None:
    """A ballot dealt to every seat beside the secret badge: its holders are all the seats, a row that said only the
    mean win rate (each of a werewolf game's seven pointing marks had one)."""
    from tests.test_secret_sides import SIDES

    text = SIDES.replace("WINNERS", "together").replace(
        "    instances: [{id: LoyalBadge, side: Loyal, count: 3}, {id: SpyBadge, side: Spy}]\n",
        "    instances: [{id: LoyalBadge, side: Loyal, count: 3}, {id: SpyBadge, side: Spy}]\n  ballot:\n"
        "    instances: [{id: Aye, count: 4}]\n").replace(
        "    move(b in deal, allegiance(r), 1)\n", "    move(b in deal, allegiance(r), 1)\n    move(y in supply, allegiance(r), 1)\n")
    path = tmp_path / "sides.yaml"
    path.write_text(text, encoding="utf-8")
    report = simulate(engine.load(path), players=4, n=20, seed=0)
    assert report.held_by_every_seat == {"Aye"}
    assert {use.name for use in report.held_uses} == {"LoyalBadge", "SpyBadge"}


# ---------------------------------------------------------------- sweep


def test_a_sweep_gives_each_value_its_intervals_and_verdict(tmp_path: Path) -> None:
    path = write(tmp_path, FIRST_STOP)
    output = words(run("sweep", str(path), "first_seat=[1, 2]", "-n", "300").output)
    assert "balance per value of first_seat (win rates ± half their 95% interval):" in output
    assert ("first_seat=1: seat 1 wins 65.0% ± 5.4%, seat 2 35.0% ± 5.4%: likely a seat advantage, to seat 1") in output
    assert "first_seat=2: seat 1 wins " in output and "likely a seat advantage, to seat 2" in output
    data = json.loads(run("sweep", str(path), "first_seat=[1, 2]", "-n", "300", "--format", "json").output)
    assert [run["seat_balance"]["significant"] for run in data["runs"]] == [True, True]
    assert data["runs"][1]["first_player"]["significant"] and data["runs"][0]["turns"]["min"] == 1


# ---------------------------------------------------------------- answers to choices among words


PICK = """\
name: pick
players: [2]
counters:
  lost: {min: 0}
  asked: {min: 0}
turn:
  - do:
      effect: |
        if choose(w in ["win", "lose"], text = "the outcome") == "lose":
          lost += 1
        asked += 1
end:
  when: asked > 0
scoring:
  rank: r in roles
  by:
    - if (lost == 0) == (r == nth(roles, 1)) then 1 else 0
  points: key
"""


def test_an_answer_a_good_bot_never_takes_is_flagged_never_taken(tmp_path: Path) -> None:
    """A choice among words was a dead end for the report ("no decision used a component"): which answer is taken,
    and whether taking it wins, had no figure."""
    path = write(tmp_path, PICK)
    report = simulate(engine.load(path), players=2, n=40, seed=0, agents="greedy")
    uses = {use.answer: use for use in report.answer_uses}
    assert (uses["win"].offered, uses["win"].taken, uses["win"].flag) == (40, 40, "always taken")
    assert (uses["lose"].offered, uses["lose"].taken, uses["lose"].flag) == (40, 0, "never taken")
    output = run("simulate", str(path), "-n", "40", "--agents", "greedy").output
    assert "per answer to a choice" in output
    assert "│ lose   │ 40      │ 0     │ 0.0%   │ -             │ never taken  │" in output
    data = json.loads(run("simulate", str(path), "-n", "40", "--agents", "greedy", "--format", "json").output)
    won = data["answers"]["the outcome"]["win"]
    assert won == {"offered": 40, "taken": 40, "share": 1.0, "wins": 40, "trials": 40, "rate": 1.0, "low": won["low"],
                   "high": 1.0, "flag": "always taken"}
    rows = run("simulate", str(path), "-n", "40", "--agents", "greedy", "--format", "csv").output.splitlines()
    assert "answers,the outcome.lose,flag,never taken" in rows and "seat_balance,wins,1,40" in rows


def test_random_bots_take_each_answer_about_as_often_and_its_takers_win_as_it_decides(tmp_path: Path) -> None:
    report = simulate(engine.load(write(tmp_path, COIN)), players=2, n=300, seed=0)
    heads, tails = report.answer_uses
    assert (heads.answer, heads.offered, heads.taken, tails.taken) == ("heads", 300, 163, 137)
    assert heads.users.rate == 1.0 and tails.users.rate == 0.0 and (heads.flag, tails.flag) == ("strong", "weak")


# ---------------------------------------------------------------- bots turned round the seats


def test_bots_turned_round_the_seats_are_measured_apart_from_the_seats(tmp_path: Path) -> None:
    """With each bot kept in its seat, greedy at seat 1 of the first-to-stop game won its seat's advantage too, and the
    seats could not be measured at all; turned round, every seat plays each bot in turn."""
    path = write(tmp_path, FIRST_STOP)
    kept = simulate(engine.load(path), players=2, n=300, seed=0, agents="greedy,random")
    turned = simulate(engine.load(path), players=2, n=300, seed=0, agents="greedy,random", rotate=True)
    assert [r.agents for r in turned.results[:3]] == [("greedy", "random"), ("random", "greedy"), ("greedy", "random")]
    assert kept.win_rate_by_agent["greedy"].rate == 1.0  # it stops at once, first: every game
    assert turned.win_rate_by_agent["greedy"].trials == 300 and turned.win_rate_by_agent["greedy"].rate < 0.8
    assert kept.seat_balance is None and turned.seat_balance is not None and turned.seat_balance.most == 0
    output = words(run("simulate", str(path), "-n", "300", "--agents", "greedy,random", "--rotate-seats",
                       "--games", str(tmp_path / "games.csv")).output)
    assert "the bots (greedy, random) turned round one seat a game" in output
    assert "each bot played each seat in turn (--rotate-seats)" in output and "seat balance: seat 1 wins" in output
    rows = (tmp_path / "games.csv").read_text(encoding="utf-8").splitlines()
    assert rows[2].split(",")[2:4] == ["random", "greedy"] and rows[2].endswith("--seat 1=random --seat 2=greedy")
    data = json.loads(run("simulate", str(path), "-n", "30", "--agents", "greedy,random", "--rotate-seats",
                          "--format", "json").output)
    assert data["rotated"] is True and data["seat_balance"] is not None
    same = simulate(engine.load(path), players=2, n=30, seed=0, agents="random", rotate=True)
    assert not same.rotated  # one bot in every seat: nothing to turn round


def test_the_bots_test_counts_each_game_once() -> None:
    """Two bots, 60 games to 40: the best against the worst as two samples counted every game twice (p 0.005); the best
    bot against the rate of a seat-game over both is the one test those games make (p 0.046)."""
    from cli.balance import agent_verdict

    games = [GameResult((1,), (1.0, 0.0), 9, first=1)] * 60 + [GameResult((2,), (0.0, 1.0), 9, first=1)] * 40
    text = agent_verdict(SimulationReport("g", [], 2, ["greedy", "random"], 0, [], games))
    assert text is not None and "the bots separate (p = 0.046)" in text
    even = [GameResult((1,), (1.0, 0.0), 9, first=1)] * 55 + [GameResult((2,), (0.0, 1.0), 9, first=1)] * 45
    text = agent_verdict(SimulationReport("g", [], 2, ["greedy", "random"], 0, [], even))
    assert text is not None and "no sign the bots differ (p = 0.317): with these bots the outcome looks mostly luck" in text


def test_a_choice_of_many_answers_is_not_counted_answer_by_answer(tmp_path: Path) -> None:
    """An amount chosen from many would be a row per amount in every report, and kept in every game's result."""
    many = ", ".join(str(n) for n in range(21))
    path = write(tmp_path, PICK.replace('choose(w in ["win", "lose"], text = "the outcome") == "lose"',
                                        f'choose(w in [{many}], text = "the outcome") == 0'))
    assert simulate(engine.load(path), players=2, n=5, seed=0).answer_uses == []
    twenty = ", ".join(str(n) for n in range(20))
    path.write_text(PICK.replace('choose(w in ["win", "lose"], text = "the outcome") == "lose"',
                                 f'choose(w in [{twenty}], text = "the outcome") == 0'), encoding="utf-8")
    assert len(simulate(engine.load(path), players=2, n=5, seed=0).answer_uses) == 20


def test_bots_turned_round_a_number_of_games_that_is_no_multiple_of_the_seats_say_the_turn_was_cut_short(
        tmp_path: Path) -> None:
    """--rotate-seats turns the bots one seat a game, so 7 games of 2 seats give greedy seat 1 four times and seat 2
    three: the report said each bot played each seat in turn, as if evenly; it now says the turn was cut short."""
    path = write(tmp_path, FIRST_STOP)
    odd = words(run("simulate", str(path), "-n", "7", "--agents", "greedy,random", "--rotate-seats").output)
    assert ("each bot played each seat in turn (--rotate-seats), but 7 games are no multiple of the 2 seats: the last "
            "turn round was cut short, so some bots played a seat once more than the others (-n 8 turns them round "
            "evenly)") in odd
    even = words(run("simulate", str(path), "-n", "8", "--agents", "greedy,random", "--rotate-seats").output)
    assert "each bot played each seat in turn (--rotate-seats)" in even and "no multiple" not in even
