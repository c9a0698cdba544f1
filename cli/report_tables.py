"""Simulation reports and sweeps as rich tables for the terminal: win rates per seat and agent with intervals, the
first mover, game length, content used and flagged, a comparison's differences, a sweep's runs side by side.

>>> percent(0.5), percent(1 / 3)
('50.0%', '33.3%')

Typical use::

    for part in simulation_report(report, comparison):   # rulecraft simulate
        console.print(part)
    console.print(sweep_table(result))                    # rulecraft sweep
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.table import Column, Table
from rich.text import Text

from cli.render import run_changes
from engine.runner.comparison import Comparison, Difference
from engine.runner.report import ContentUse, SimulationReport
from engine.runner.significance import ALPHA, STRONG, UNUSED, WEAK, Points, Rate, Summary

if TYPE_CHECKING:
    from engine.runner.sweep import Sweep


def simulation_report(report: SimulationReport, comparison: Comparison | None = None) -> list[RenderableType]:
    """A simulation report as tables and lines, most telling first."""
    from cli import balance  # its verdicts use this module's words

    parts: list[RenderableType] = [Text(partial_note(report), style="bold")] if report.partial else []
    parts.append(_seat_table(report))
    if len(set(report.agents)) > 1:
        parts.append(_agent_table(report))
        bots = balance.agent_verdict(report)
        if bots is not None:
            parts.append(bots)
    if report.points is not None:
        parts.append(points_table(report.points))
    parts.extend(_summary_lines(report))
    if report.games:
        parts.extend(balance.length_histogram(report))
    for table in (balance.role_table(report), balance.held_table(report), balance.answer_table(report)):
        if table is not None:
            parts.append(table)
    if report.no_decisions:
        parts.append("per component: not counted: no game had a decision, and only decisions (playing, picking, "
                     "casting) count as using a component")
    elif not report.content_uses:
        parts.append("per component: none: the ruleset has no components")
    elif not any(use.uses for use in report.content_uses):
        parts.append("per component: no decision used a component (the choices were among words or numbers), "
                     + ("so the answers above are what there is to compare" if report.answer_uses
                        else "so there is nothing to compare"))
    else:
        parts.append(_content_table(report.content_uses, "component", report))
        if len(report.kind_uses) > 1:
            parts.append(_content_table(report.kind_uses, "kind", report))
        parts.append(Text(_flag_legend(report), style="dim"))
    if comparison is not None:
        parts.append(_comparison_table(report, comparison))
    return parts


def partial_note(report: SimulationReport) -> str:
    """The mark of an interrupted run's report."""
    why = "stopped by a game that failed" if report.failed is not None else "interrupted"
    return (f"PARTIAL REPORT: {why} after {report.games} of {report.planned} games; "
            "the figures cover only the games finished")


def percent(x: float) -> str:
    """``0.125`` -> ``12.5%``."""
    return f"{x:.1%}"


def interval(rate: Rate) -> str:
    """``28.7% – 41.8%``: a rate's 95% interval."""
    return f"{rate.low:.1%} – {rate.high:.1%}"


def run_title(report: SimulationReport) -> str:
    """``my-game (variant a+b, width=4), 2 players, 1000 games, seed 0``."""
    return f"{report.ruleset}{run_changes(report.variants, report.set_options)}, {report.players} player{'s' * (report.players != 1)}, {_games(report.games)}, seed {report.seed}"


def _seat_table(report: SimulationReport) -> Table:
    table = Table("seat", "agent", "wins", "win rate", "95% interval", "mean return", title=run_title(report))
    for seat, rate in report.win_rate.items():
        mean = report.mean_returns[seat]
        agent = "each in turn" if report.rotated else report.agents[seat - 1]
        table.add_row(str(seat), agent, str(rate.wins), percent(rate.rate), interval(rate), f"{mean:.3f}")
    if report.rotated:
        table.caption = (f"the bots ({', '.join(report.agents)}) turned round one seat a game: each seat played each "
                         "bot in turn")
    return table


MAX_POINT_COLUMNS = 6
"""With more different points values than this (a count of discs), the table gives their range, not a column each."""


def points_table(points: dict[int, Points]) -> Table:
    """Each seat's mean points with its 95% interval, and the share of its games that paid each value (a column per
    value, from the lowest; with more than ``MAX_POINT_COLUMNS`` values, their range instead).

    >>> table = points_table({1: Points({0: 3, 2: 1}), 2: Points({0: 1, 1: 3})})
    >>> [column.header for column in table.columns], [cell for cell in table.columns[-1].cells]
    (['seat', 'mean', '95% interval', '0', '1', '2'], ['25.0%', '0.0%'])
    """
    values = sorted({value for paid in points.values() for value in paid.counts})
    many = len(values) > MAX_POINT_COLUMNS
    shown = [] if many else [f"{value:g}" for value in values]
    table = Table("seat", "mean", "95% interval", *(["range"] if many else shown),
                  title="points per seat (a result paid different points in different games)")
    for seat, paid in points.items():
        spread = [f"{min(paid.counts):g} – {max(paid.counts):g}"] if many else [
            percent(paid.counts.get(value, 0) / max(paid.games, 1)) for value in values]
        table.add_row(str(seat), f"{paid.mean:.2f}", f"{paid.low:.2f} – {paid.high:.2f}", *spread)
    table.caption = (f"{len(values)} different values: how many games paid each is in --format json (points.SEAT.counts)"
                     if many else "each value's column: the share of the seat's games that paid it that many points")
    return table


def _agent_table(report: SimulationReport) -> Table:
    table = Table("agent", "seat-games", "wins", "win rate", "95% interval", title="by agent")
    for spec, rate in report.win_rate_by_agent.items():
        table.add_row(spec, str(rate.trials), str(rate.wins), percent(rate.rate), interval(rate))
    return table


def _summary_lines(report: SimulationReport) -> list[str]:
    from cli import balance

    if not report.games:  # a run stopped before its first game ended: no figure means anything
        return ["no game finished: nothing to sum up"]
    n = max(report.games, 1)
    if report.together:  # a cooperative game: every seat wins, or none does
        won = report.games - report.no_winner
        lines = [f"won together: {won} ({won / n:.1%}); lost together: {report.no_winner} ({report.no_winner / n:.1%})"]
    else:
        lines = [f"shared wins (draws): {report.draws} ({report.draws / n:.1%}); games nobody won: {report.no_winner}"]
    if report.games_tied_by_order:
        tied = report.games_tied_by_order
        lines.append(f"ties placed by order: {tied} ({tied / n:.1%}): items of two seats tied on every key of the "
                     "ranking, and the one 'rank' lists first took the better place; add a key to break such ties, "
                     "or 'winners: first-ranked' to make them shared wins")
    if report.games_at_turn_limit:
        stopped = report.games_at_turn_limit
        lines.append(f"games stopped by the turn limit (end: max_turns): {stopped} ({stopped / n:.1%}): "
                     "their 'end: when' never held")
    first, undecided, sealed = report.first_player, report.games_without_decisions, report.games_opened_sealed
    if report.players > 1 and report.no_decisions:
        lines.append("first player: none: no game had a decision (every step ran on its own), so no seat moved first")
    elif report.together:
        lines.append("first player: not measured: the players win or lose together")
    elif report.players > 1 and not report.seats_measured:
        lines.append(f"first player: not measured: the seats have different bots ({', '.join(report.agents)}), so who won "
                     "says more of the bots than of moving first; give every seat the same bot to measure it, or "
                     "turn the bots round (--rotate-seats)")
    elif report.players > 1 and first is None:
        lines.append("first player: none: every game opened with a sealed decision, every seat choosing at once, "
                     "so no seat moved first")
    elif first is not None:
        without = [f"{undecided} had no decision"] * bool(undecided) + [f"{sealed} opened with a sealed one"] * bool(sealed)
        moved = report.games - undecided - sealed
        lines.append(
            f"first player: the seat that moved first won {percent(first.first.rate)} ({interval(first.first)}); "
            f"each {'seat of another team' if report.teams else 'other seat'} {percent(first.others.rate)} ({interval(first.others)}): "
            f"advantage {first.advantage * 100:+.1f} points ({balance.first_player_verdict(first)})"
            + (f" (over the {_games(moved)} with a first mover; {', '.join(without)})" if without else "")
        )
    seats = balance.seat_balance_line(report)
    if seats is not None:
        lines.append(seats)
    lines.append(f"game length in actions: {_summary(report.length)}")
    lines.append(f"game length in turns: {_summary(report.turns)}")
    changes, margin = report.lead_changes, report.margin
    if changes is not None:
        steady = report.games_without_lead_change
        lines.append(f"lead changes per game: {_summary(changes)}; none in {steady} games ({steady / n:.1%})")
    elif report.players > 1 and not report.together:
        lines.append("lead changes: not counted (the ruleset declares no running score to say who leads)")
    if margin is not None:
        score = "the running score" if changes is not None else "the final score"
        lines.append(f"final margin in {score} (how far the top seat or team finished ahead of the next): {_summary(margin)}")
    return lines


def _games(n: int) -> str:
    """``1 game``, ``2 games``."""
    return f"{n} game" if n == 1 else f"{n} games"


def _summary(s: Summary) -> str:
    return f"mean {s.mean:.1f}, median {s.median:g}, stdev {s.stdev:.1f}, min {s.min:g}, max {s.max:g}"


def _content_table(uses: list[ContentUse], what: str, report: SimulationReport) -> Table:
    """Content by its users' win rate, highest first; flagged rows in bold (a kind column if there are several)."""
    kinds = len(report.kind_uses) > 1 and what != "kind"
    names = [Column(what, overflow="fold"), *([Column("kind", overflow="fold")] if kinds else [])]  # wrapped, never cut
    table = Table(*names, "uses", "games", "users", "won", "95% interval", "flag", title=f"per {what}")
    for use in sorted(uses, key=lambda u: (-u.users.rate, u.name)):
        users = use.users
        won = (percent(users.rate), interval(users)) if users.trials else ("-", "-")
        cells = [use.name, *([use.kind] if kinds else []), str(use.uses), str(use.games), str(users.trials), *won]
        table.add_row(*cells, use.flag, style="bold" if use.flag else None)
    return table


def _flag_legend(report: SimulationReport) -> str:
    mean = percent(report.mean_seat_win_rate)
    sides = not report.teams and report.tally.team_wins > 0  # sides dealt in secret won together
    judged = (f"{STRONG}: even the low end of that 95% interval is above {mean} (how often a seat wins, over all "
              f"seats); {WEAK}: even the high end is below it" if report.baseline is not None else
              f"no {STRONG} or {WEAK} in a cooperative game: every seat shares each result, so its users' wins say how "
              "long games ran, not what the item is worth")
    return (
        f"users: the seat-games in which a seat used the item; won: the share of those "
        f"{'its team won alone' if report.teams else 'it (or its side, winners: together) won alone' if sides else 'it won alone'}. "
        f"{judged}; {UNUSED}: no decision used it (a kind no decision used at all, such as cards the game turns up "
        "itself, is not flagged)."
    )


def _comparison_table(report: SimulationReport, comparison: Comparison) -> Table:
    other = comparison.other
    changes = run_changes(other.variants, other.set_options)
    table = Table("", "this run", "other", "difference", "p", title=f"compared with {other.ruleset}{changes}, same seeds")
    rows = [(f"seat {seat} win rate", d, True) for seat, d in comparison.seats.items()]
    rows += [("draws", comparison.draws, True), ("mean length", comparison.length, False)]
    for label, d, is_rate in rows:
        shown = (percent(d.this), percent(d.other), f"{d.difference * 100:+.1f} points") if is_rate else (
            f"{d.this:.1f}", f"{d.other:.1f}", f"{d.difference:+.1f}"
        )
        _add_difference(table, label, shown, d)
    for seat, d in (comparison.points or {}).items():
        _add_difference(table, f"seat {seat} mean points", (f"{d.this:.2f}", f"{d.other:.2f}", f"{d.difference:+.2f}"), d)
    tested = "length and mean points" if comparison.points is not None else "length"
    table.caption = f"* significant (p < {ALPHA:g}): two-proportion z-test for rates, Welch's t-test for {tested}"
    return table


def _add_difference(table: Table, label: str, shown: tuple[str, str, str], d: Difference) -> None:
    """A row of the comparison: the figure in each run, their difference, and its p-value (bold and `` *`` when
    significant)."""
    mark = " *" if d.significant else ""
    table.add_row(label, *shown, f"{d.p:.3f}{mark}", style="bold" if d.significant else None)


MAX_VALUE_WIDTH = 30
"""A swept value up to this long keeps its line in a narrow terminal (the figures' headers wrap instead)."""


def sweep_table(result: Sweep) -> Table:
    """One row per value of the swept option: seat win rates, or the sides' where the ruleset makes sides (teams,
    roles dealt at random, a side dealt in secret: :attr:`SimulationReport.side_win_rate`), (and, when a result paid
    different points in different games of some run, each seat's mean points), draws and mean length, marked where
    they differ from the baseline run's (p < 0.05)."""
    first = result.runs[0].report
    others = {k: v for k, v in first.set_options.items() if k != result.option}
    title = (f"{first.ruleset}{run_changes(first.variants, others)}, {first.players} player{'s' * (first.players != 1)}, "
             f"{first.planned or first.games} games per value, seed {first.seed}")
    sides = list(dict.fromkeys(side for run in result.runs for side in run.report.side_win_rate))
    seats = sides or [f"seat {seat}" for seat in first.seats]
    points = [f"seat {seat} mean points" for seat in first.seats] if result.points_vary else []
    labels = [f"{run.value} (baseline)" if index == result.baseline else run.value for index, run in enumerate(result.runs)]
    value = Column(result.option, min_width=min(max(map(len, [result.option, *labels])), MAX_VALUE_WIDTH))
    rows = []
    for run in result.runs:
        report, comparison = run.report, run.comparison
        if sides:
            rates = report.side_win_rate
            cells = [_marked(percent(rates[side].rate), comparison.sides.get(side) if comparison else None)
                     if side in rates else "-" for side in sides]
        else:
            cells = [_marked(percent(rate.rate), comparison.seats[seat] if comparison else None)
                     for seat, rate in report.win_rate.items()]
        if points:
            paid = comparison.points if comparison else None
            cells += [_marked(f"{p.mean:.2f}", paid[seat] if paid else None) for seat, p in report.points_paid.items()]
        cells.append(_marked(percent(report.draws / max(report.games, 1)), comparison.draws if comparison else None))
        cells.append(_marked(f"{report.length.mean:.1f}", comparison.length if comparison else None))
        rows.append(cells)
    headers = [*seats, *points, "draws", "mean length"]  # a figure keeps its line, its mark too; headers wrap instead
    figures = [Column(header, min_width=max(len(row[i]) for row in rows)) for i, header in enumerate(headers)]
    table = Table(value, *figures, title=title)
    for index, (cells, label) in enumerate(zip(rows, labels)):
        table.add_row(label, *cells, style="bold" if index == result.baseline else None)
    tested = "length and mean points" if points else "length"
    table.caption = (f"* differs from the baseline ({result.baseline_value}) with p < {ALPHA:g}: "
                     f"two-proportion z-test for rates, Welch's t-test for {tested}")
    if result.partial:
        last = result.runs[-1].report
        why = "stopped by a game that failed" if result.failed is not None else "interrupted"
        table.caption = (f"PARTIAL: {why} in the run of {result.runs[-1].value} ({last.games} of {last.planned} games), "
                         f"{len(result.runs)} of {result.planned} values run; nothing is compared")
    return table


def _marked(figure: str, difference: Difference | None) -> str:
    """``figure``, with `` *`` when it differs significantly from the baseline's."""
    return f"{figure} *" if difference is not None and difference.significant else figure
