"""The balance figures of a simulation report in plain words: verdicts, the roles dealt, histograms of length.

A designer asks whether a seat has an advantage, whether the bots separate,
which role dealt at random wins more, how long games are; each function
answers one of those from a :class:`~engine.runner.report.SimulationReport`,
with the figure, its 95% interval (``54.0% ± 3.1%``) and what the test says
(``likely an advantage``, or how large a gap the run could have missed).

>>> p_text(0.0004), p_text(0.0461)
('p < 0.001', 'p = 0.046')
>>> rate_text(Rate(54, 100))
'54.0% ± 9.6%'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Column, Table
from rich.text import Text

from engine.core.showtext import and_list

from engine.runner.report import ALWAYS, NEVER, FirstPlayer, SimulationReport
from engine.runner.significance import ALPHA, STRONG, WEAK, Rate, binned, one_proportion_p

if TYPE_CHECKING:
    from engine.runner.sweep import Sweep

BAR_WIDTH = 30
"""The widest bar of a histogram, in characters."""

BINS = 10
"""A histogram has at most this many rows."""


def p_text(p: float) -> str:
    """A p-value as a reader takes it: three decimals, or ``p < 0.001``."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def rate_text(rate: Rate) -> str:
    """A rate and half its 95% interval's width: ``54.0% ± 3.1%``."""
    return f"{rate.rate:.1%} ± {rate.spread:.1%}"


def side_name(side: tuple[int, ...], teams: bool) -> str:
    """A side by its seats: ``seat 2``, or a team's ``seats 1 and 3``.

    >>> side_name((2,), False), side_name((1, 3), True)
    ('seat 2', 'seats 1 and 3')
    """
    if not teams:
        return f"seat {side[0]}"
    return f"seats {and_list([str(seat) for seat in side])}"


def seat_balance_line(report: SimulationReport, short: bool = False) -> str | None:
    """Each seat's (or team's) win rate with its interval, and whether they differ more than chance would make them:
    ``likely a seat advantage`` naming the side that won most, or no sign of one and the gap the run could miss
    (``short``: without the gap, nor the leading words).  None where :attr:`SimulationReport.seat_balance` is (one
    player, the seats together, different bots that kept their seats).

    >>> from engine.runner.report import GameResult
    >>> games = [GameResult((1,), (1.0, 0.0), 9, first=1)] * 60 + [GameResult((2,), (0.0, 1.0), 9, first=1)] * 40
    >>> seat_balance_line(SimulationReport("g", [], 2, ["random"] * 2, 0, [], games)).split(" (the")[0]
    'seat balance: seat 1 wins 60.0% ± 9.4%, seat 2 40.0% ± 9.4%: likely a seat advantage, to seat 1'
    """
    balance = report.seat_balance
    if balance is None:
        return None
    teams = bool(report.teams)
    names = [f"team {i} ({side_name(side, True)})" if teams else side_name(side, False)
             for i, side in enumerate(balance.sides, 1)]
    rates = [Rate(wins, balance.games) for wins in balance.wins]
    shares = [f"{name}{' wins' * (i == 0)} {rate_text(rate)}" for i, (name, rate) in enumerate(zip(names, rates))]
    what = "team" if teams else "seat"
    if balance.significant:
        verdict = (f"likely a {what} advantage, to {names[balance.most]} (the {what}s won more unevenly than chance "
                   f"would make them: {p_text(balance.p)})")
    elif short:
        verdict = f"no sign of a {what} advantage ({p_text(balance.p)})"
    else:
        verdict = (f"no sign of a {what} advantage ({p_text(balance.p)}); {balance.games} game{'s' * (balance.games != 1)} could miss a gap "
                   f"under about {balance.detectable * 100:.0f} points between two {what}s (more games see smaller ones)")
    if short:
        return f"{', '.join(shares)}: {verdict}"
    return f"{what} balance: {', '.join(shares)}: {verdict}"


def first_player_verdict(first: FirstPlayer) -> str:
    """What the first mover's advantage means: ``likely real`` or ``could be chance``, with its p-value.

    >>> first_player_verdict(FirstPlayer(Rate(60, 100), Rate(40, 100), 0.5))
    'p = 0.046: likely a real advantage'
    """
    if first.significant:
        return f"{p_text(first.p)}: likely a real {'advantage' if first.advantage > 0 else 'disadvantage'}"
    return f"{p_text(first.p)}: could be chance"


def _uneven(report: SimulationReport) -> str:
    """What a run of bots turned round the seats says when its games are no multiple of the seats: the turn was not
    completed, so the first bots played their first seats once more than the rest (empty when it was).

    >>> _uneven(SimulationReport("g", [], 2, ["greedy", "random"], 0, [], planned=7, rotated=True))[:44]
    ', but 7 games are no multiple of the 2 seats'
    """
    games = report.planned or report.games
    if not games % report.players:
        return ""
    return (f", but {games} games are no multiple of the {report.players} seats: the last turn round was cut short, "
            f"so some bots played a seat once more than the others (-n {games + report.players - games % report.players} "
            "turns them round evenly)")


def agent_verdict(report: SimulationReport) -> str | None:
    """Whether the bots of a run with different bots separate: the best and the worst bot's win rates per seat-game,
    and the test of the best one's against the rate of a seat-game over every bot (a one-proportion z-test: with two
    seats and no draw, one bot's wins are the other's losses, so the two are not two samples); a note on whether each
    bot kept its seat.  None when every seat has the same bot.

    >>> from engine.runner.report import GameResult
    >>> games = [GameResult((1,), (1.0, 0.0), 9, first=1)] * 60 + [GameResult((2,), (0.0, 1.0), 9, first=1)] * 40
    >>> agent_verdict(SimulationReport("g", [], 2, ["greedy", "random"], 0, [], games)).split(": skill")[0]
    'bots: greedy wins 60.0% ± 9.4% of its seat-games, random 40.0% ± 9.4%: the bots separate (p = 0.046)'
    """
    rates = report.win_rate_by_agent
    if len(rates) < 2 or not report.games:
        return None
    ordered = sorted(rates.items(), key=lambda item: -item[1].rate)
    (best, high), (worst, low) = ordered[0], ordered[-1]
    pooled = sum(rate.wins for rate in rates.values()) / max(sum(rate.trials for rate in rates.values()), 1)
    p = one_proportion_p(high.wins, high.trials, pooled)  # not best against worst as two samples: the same games
    figures = f"{best} wins {rate_text(high)} of its seat-games, {worst} {rate_text(low)}"
    if p < ALPHA:
        verdict = f"the bots separate ({p_text(p)}): skill changes the outcome"
    else:
        verdict = f"no sign the bots differ ({p_text(p)}): with these bots the outcome looks mostly luck"
    if report.rotated:
        return f"bots: {figures}: {verdict}; each bot played each seat in turn (--rotate-seats){_uneven(report)}"
    return (f"bots: {figures}: {verdict}; each bot kept its seat, so what a seat is worth counts as its bot's: "
            "--rotate-seats turns the bots round a seat each game")


def role_table(report: SimulationReport) -> Table | None:
    """The roles dealt at random, by how often the seat that played each won, highest first; None unless some role
    was dealt to different seats (:attr:`SimulationReport.roles_dealt`).

    >>> from engine.runner.report import GameResult
    >>> games = [GameResult((1,), (1.0, 0.0), 9, roles=(("North",), ("South",))),
    ...          GameResult((2,), (0.0, 1.0), 9, roles=(("South",), ("North",)))]
    >>> [column.header for column in role_table(SimulationReport("g", [], 2, ["random"] * 2, 0, [], games)).columns][:3]
    ['role', 'games', 'won']
    """
    if not report.roles_dealt:
        return None
    rates = report.win_rate_by_role
    table = Table(Column("role", overflow="fold"), "games", "won", "win rate", "95% interval", "flag",
                  title="per role dealt (the seat that played it: how often it won)")
    for role, rate in sorted(rates.items(), key=lambda item: (-item[1].rate, item[0])):
        mark = report.role_flag(role)
        table.add_row(role, str(rate.trials), str(rate.wins), f"{rate.rate:.1%}",
                      f"{rate.low:.1%} – {rate.high:.1%}", mark, style="bold" if mark else None)
    baseline = report.role_baseline
    table.caption = (f"{STRONG}: even the low end of the 95% interval is above {baseline:.1%} (how often the seat "
                     f"that played a role won, over every role); {WEAK}: even the high end is below it"
                     if baseline is not None else "not judged: the players win or lose together")
    return table


def sweep_balance(result: Sweep) -> list[str]:
    """A sweep's balance per value, a line each: every seat's (or team's) win rate with half its 95% interval, the
    first mover's advantage and whether a seat likely has one (as :func:`seat_balance_line` says it).

    Lines, not a table: with several seats a table of intervals was wider than a terminal's 80 columns.

    >>> from engine.runner.report import GameResult
    >>> from engine.runner.sweep import Sweep, SweepRun
    >>> games = [GameResult((1,), (1.0, 0.0), 9)] * 50 + [GameResult((2,), (0.0, 1.0), 9)] * 50
    >>> sweep_balance(Sweep("width", 0, [SweepRun("5", SimulationReport("g", [], 2, ["random"] * 2, 0, [], games))]))[1]
    '  width=5: seat 1 wins 50.0% ± 9.6%, seat 2 50.0% ± 9.6%: no sign of a seat advantage (p = 1.000)'
    """
    lines = [f"balance per value of {result.option} (win rates ± half their 95% interval):"]
    for run in result.runs:
        report = run.report
        parts = [seat_balance_line(report, short=True) or
                 ", ".join(f"seat {seat} {rate_text(rate)}" for seat, rate in report.win_rate.items())]
        mover = report.first_player
        if mover is not None:
            parts.append(f"first mover {mover.advantage * 100:+.1f} points ({first_player_verdict(mover)})")
        if report.games_at_turn_limit:  # a value under which the game does not end by its rule: said, not averaged in
            parts.append(f"{report.games_at_turn_limit} of {report.games} games stopped by the turn limit (end: "
                         "max_turns): their 'end: when' never held")
        lines.append(f"  {result.option}={run.value}: {'; '.join(parts)}")
    return lines


def held_table(report: SimulationReport) -> Table | None:
    """The components the seats held in their own zones as the games started (a hand dealt, a secret side), by how
    often the seat holding each won, highest first; None unless some component was held by different seats in
    different games (:attr:`SimulationReport.held_at_random`).

    >>> from engine.runner.report import GameResult
    >>> games = [GameResult((1,), (1.0, 0.0), 9, held=((0,), (1,))), GameResult((2,), (0.0, 1.0), 9, held=((1,), (0,)))]
    >>> report = SimulationReport("g", [], 2, ["random"] * 2, 0, [("A", "piece"), ("B", "piece")], games)
    >>> list(held_table(report).columns[0].cells)
    ['A', 'B']
    """
    if not report.held_at_random:
        return None
    kinds = len({use.kind for use in report.held_uses}) > 1
    table = Table(Column("component", overflow="fold"), *([Column("kind", overflow="fold")] if kinds else []),
                  "seat-games", "won", "95% interval", "flag", title="per component held as the game started")
    for use in sorted(report.held_uses, key=lambda u: (-u.users.rate, u.name)):
        rate = use.users
        table.add_row(use.name, *([use.kind] if kinds else []), str(rate.trials), f"{rate.rate:.1%}",
                      f"{rate.low:.1%} – {rate.high:.1%}", use.flag, style="bold" if use.flag else None)
    baseline = report.baseline
    table.caption = ("seat-games: the games a seat held it in its own zones (a hand, a secret side) as the game "
                     "started; won: the share of those that seat won. "
                     + (f"{STRONG}: even the low end of the 95% interval is above {baseline:.1%} (how often a seat "
                        f"wins, over all seats); {WEAK}: even the high end is below it" if baseline is not None
                        else "not judged: the players win or lose together"))
    return table


MOST_ANSWERS = 40
"""The answers a report's table shows at most; the rest are in ``--format json`` (``answers``)."""


def answer_table(report: SimulationReport) -> Table | None:
    """The answers to choices (words, numbers, components by name): how often each was taken when offered, how the seats that took
    it did, flagged ``never taken`` (a dominated option, if the bots play well), ``always taken``, ``strong`` or
    ``weak``; None when no such choice was asked.

    >>> from engine.runner.report import GameResult
    >>> games = [GameResult((1,), (1.0, 0.0), 9, answers=((("go or stop", "stop"),), ()),
    ...                     offered=((("go or stop", "go"), 1), (("go or stop", "stop"), 1)))]
    >>> table = answer_table(SimulationReport("g", [], 2, ["random"] * 2, 0, [], games))
    >>> list(table.columns[1].cells), list(table.columns[-1].cells)
    (['go', 'stop'], ['never taken', 'always taken'])
    """
    uses = report.answer_uses
    if not uses:
        return None
    table = Table(Column("choice", overflow="fold"), Column("answer", overflow="fold"), "offered", "taken", "share",
                  Column("won", no_wrap=True), Column("flag", no_wrap=True),  # the choice's words wrap instead
                  title="per answer to a choice")
    for use in uses[:MOST_ANSWERS]:
        won = rate_text(use.users) if use.users.trials else "-"
        table.add_row(use.choice, use.answer, str(use.offered), str(use.taken), f"{use.share:.1%}", won, use.flag,
                      style="bold" if use.flag else None)
    more = f"{len(uses) - MOST_ANSWERS} more answers in --format json (answers). " if len(uses) > MOST_ANSWERS else ""
    judged = (f"{STRONG}/{WEAK}: even the low end of the interval is above {report.baseline:.1%} (how often a seat "
              "wins), or even its high end below it" if report.baseline is not None else
              "not judged strong or weak: the players win or lose together")
    table.caption = (f"{more}share: taken when offered; won: the share of the seat-games in which a seat took it "
                     f"that it won, ± half its 95% interval; {NEVER}: offered, "
                     f"never taken (with bots that play well, an option a player may drop); {ALWAYS}: taken every "
                     f"time it was offered; {judged}")
    return table


def length_histogram(report: SimulationReport) -> list[Text]:
    """The histogram of game length in turns, or in actions when every game took the same turns; nothing when every
    game took the same actions too.

    >>> from engine.runner.report import GameResult
    >>> games = [GameResult((1,), (1.0, 0.0), 4, turns=2), GameResult((1,), (1.0, 0.0), 6, turns=2)]
    >>> length_histogram(SimulationReport("g", [], 2, ["random"] * 2, 0, [], games))[0].plain
    'games by length in actions:'
    """
    for counts, unit in ((report.turn_counts, "turns"), (report.length_counts, "actions")):
        if len(counts) > 1:
            return histogram(counts, unit)
    return []


def histogram(counts: dict[int, int], unit: str) -> list[Text]:
    """How many games took how many ``unit`` (turns, actions): a title line, then a bar per span, at most
    :data:`BINS` rows, the longest bar :data:`BAR_WIDTH` characters.

    >>> [line.plain for line in histogram({3: 1, 4: 3}, "turns")]
    ['games by length in turns:', '  3  ██████████                      1  (25.0%)', '  4  ██████████████████████████████  3  (75.0%)']
    """
    rows = binned(counts, BINS)
    if not rows:
        return []
    total = sum(games for _, _, games in rows)
    top = max(games for _, _, games in rows) or 1
    spans = [str(first) if first == last else f"{first}–{last}" for first, last, _ in rows]
    left, count = max(map(len, spans)), len(str(top))
    lines = [Text(f"games by length in {unit}:")]
    for span, (_, _, games) in zip(spans, rows):
        bar = "█" * round(games / top * BAR_WIDTH)
        line = Text(f"  {span:>{left}}  ")
        line.append(f"{bar:<{BAR_WIDTH}}", style="cyan")
        line.append(f"  {games:>{count}}  ({games / total:.1%})")
        lines.append(line)
    return lines
