"""A simulation report as one self-contained HTML page: inline SVG charts and the text report, nothing fetched.

``rulecraft simulate ... --html report.html`` writes it, and the page's
balance tab shows the same page.  Charts: each seat's win rate with its 95%
interval (the mean seat's win rate as a dashed line), each seat's mean points
with its 95% interval when a result paid different points in different games
(beside the compared run's, with --compare), histograms of game length in
actions and (when they differ) in turns, the win rate of each role dealt at
random and of each component held as the game started (a secret side), and
the components used most with their users' win rates.

Typical use::

    report = engine.runner.simulate.simulate(engine.load("my-game"), 2, 100, 0, ["random"])
    Path("report.html").write_text(report_html(report))
"""

from __future__ import annotations

import io
from cli import balance, render, report_tables
from engine.core.showtext import html_safe as escape
from engine.runner.comparison import Comparison
from engine.runner.report import SimulationReport
from engine.runner.significance import Points, Rate, binned

WIDTH = 560
BAR = "#4c72b0"


def report_html(report: SimulationReport, comparison: Comparison | None = None, seconds: float | None = None) -> str:
    """The whole page."""
    title = report_tables.run_title(report)
    points = points_chart(report, comparison)
    turns = [length_histogram(report, turns=True)] if report.turn_counts != report.length_counts else []
    dealt = [chart for chart in (role_chart(report), held_chart(report)) if chart]
    charts = [win_rate_chart(report), *([points] if points else []), length_histogram(report), *turns, *dealt,
              usage_chart(report)]
    text = report_text(report, comparison)
    played = report.games * (2 if comparison else 1)
    timing = f"<p class=note>{played} game{'s' * (played != 1)} in {seconds:.2f} s</p>" if seconds is not None else ""
    verdicts = [line for line in (balance.seat_balance_line(report), balance.agent_verdict(report)) if line]
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>{timing}"
        + "".join(f"<p class=verdict>{escape(line)}</p>" for line in verdicts)
        + "".join(f"<figure>{chart}</figure>" for chart in charts)
        + f"<h2>the full report</h2><pre>{escape(text)}</pre></body></html>\n"
    )


STYLE = ("body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:62em}"
         "figure{margin:1em 0;overflow-x:auto}svg text{font-size:12px;fill:#222}pre{font-size:12px;overflow-x:auto}"
         f"svg.chart{{max-width:100%;height:auto;min-width:{WIDTH * 3 // 4}px}}"  # a phone: shrunk a little, then scrolled
         ".note{color:#666}.verdict{font-weight:bold}")


def report_text(report: SimulationReport, comparison: Comparison | None = None) -> str:
    """The report ``rulecraft simulate`` prints, as plain text."""
    buffer = io.StringIO()
    console = render.make_console(width=120, file=buffer)
    for part in report_tables.simulation_report(report, comparison):
        console.print(part)
    return buffer.getvalue()


def win_rate_chart(report: SimulationReport) -> str:
    """A bar per seat: its win rate, a whisker for the 95% interval, a dashed line at the mean seat's rate."""
    labels = [seat_label(report, seat) for seat in report.win_rate]
    return rates_chart(labels, list(report.win_rate.values()), report.mean_seat_win_rate,
                       "win rate per seat, with 95% intervals")


def seat_label(report: SimulationReport, seat: int) -> str:
    """``seat 1 (greedy)``, or ``seat 1`` when the run turned the bots round (every seat played each)."""
    return f"seat {seat}" if report.rotated else f"seat {seat} ({report.agents[seat - 1]})"


def role_chart(report: SimulationReport) -> str:
    """A bar per role dealt at random: how often the seat playing it won, with its 95% interval, a dashed line at the
    rate of a role over all; '' unless the roles were dealt to different seats (``roles_dealt``)."""
    if not report.roles_dealt:
        return ""
    rates = report.win_rate_by_role
    return rates_chart(list(rates), list(rates.values()), report.role_baseline,
                       "win rate per role dealt (the seat that played it), with 95% intervals")


def held_chart(report: SimulationReport, shown: int = 15) -> str:
    """A bar per component held as the game started (the ``shown`` held most): how often the seat holding it won, with
    its 95% interval; '' unless some component was held by different seats (``held_at_random``)."""
    if not report.held_at_random:
        return ""
    uses = sorted(report.held_uses, key=lambda u: (-u.users.trials, u.name))[:shown]
    return rates_chart([u.name for u in uses], [u.users for u in uses], report.baseline,
                       "win rate per component held as the game started, with 95% intervals")


def rates_chart(labels: list[str], rates: list[Rate], baseline: float | None, title: str) -> str:
    """A bar per label: its rate, a whisker for the 95% interval, a dashed line at ``baseline`` (none when None).

    >>> rates_chart(["a"], [Rate(1, 2)], 0.5, "t").count("<rect")
    1
    """
    row, left = 28, _label_column(labels, 140)
    height = 40 + row * len(rates)
    scale = (WIDTH - left - 60) / 1.0
    parts = [_svg(height, title)]
    for i, (label, rate) in enumerate(zip(labels, rates)):
        y = 30 + i * row
        parts.append(f'<text x="{left - 8}" y="{y + 14}" text-anchor="end">{escape(_fitted(label, left))}</text>')
        parts.append(f'<rect x="{left}" y="{y + 2}" width="{rate.rate * scale:.1f}" height="18" fill="{BAR}"/>')
        low, high = left + rate.low * scale, left + rate.high * scale
        parts.append(f'<line x1="{low:.1f}" x2="{high:.1f}" y1="{y + 11}" y2="{y + 11}" stroke="#111" stroke-width="2"/>')
        parts.append(f'<text x="{high + 6:.1f}" y="{y + 15}">{rate.rate:.1%}</text>')
    if baseline is not None:
        mean = left + baseline * scale
        parts.append(f'<line x1="{mean:.1f}" x2="{mean:.1f}" y1="26" y2="{height - 6}" stroke="#c44" stroke-dasharray="4 3"/>')
    parts.append("</svg>")
    return "".join(parts)


OTHER_BAR = "#dd8452"


def points_chart(report: SimulationReport, comparison: Comparison | None = None) -> str:
    """A bar per seat: its mean points, a whisker for the 95% interval; with a comparison that has the points, the
    other run's bar below it.  '' when the points say no more than who won (neither run's results paid varying
    points).

    >>> from engine.runner.report import GameResult
    >>> games = [GameResult((1,), (1.0, 0.0), 9, scores=(1, 0)), GameResult((1,), (1.0, 0.0), 9, scores=(2, 0))]
    >>> "mean points per seat" in points_chart(SimulationReport("g", [], 2, ["random"] * 2, 0, [], games))
    True
    """
    if not report.points_vary and (comparison is None or comparison.points is None):
        return ""
    runs = [("this run", BAR, report.points_paid)]
    if comparison is not None and comparison.points is not None:
        runs.append(("other", OTHER_BAR, comparison.other.points_paid))
    labels = [seat_label(report, seat) for seat in report.seats]
    row, left = 22, _label_column(labels, 140)
    height = 40 + row * len(runs) * len(labels) + 8 * len(labels)
    values = [x for _, _, paid in runs for p in paid.values() for x in (p.low, p.high, p.mean)]
    low, high = min(0.0, *values), max(0.0, *values)
    scale = (WIDTH - left - 60) / ((high - low) or 1.0)
    zero = left + (0 - low) * scale
    title = "mean points per seat, with 95% intervals" + (" (this run, and the other below)" if len(runs) > 1 else "")
    parts = [_svg(height, title)]
    for i, (seat, label) in enumerate(zip(report.seats, labels)):
        top = 30 + i * (row * len(runs) + 8)
        parts.append(f'<text x="{left - 8}" y="{top + 13}" text-anchor="end">{escape(_fitted(label, left))}</text>')
        for j, (name, colour, paid) in enumerate(runs):
            parts.append(_points_bar(paid[seat], top + j * row, zero, scale, colour, name))
    parts.append(f'<line x1="{zero:.1f}" x2="{zero:.1f}" y1="26" y2="{height - 6}" stroke="#111"/>')
    parts.append("</svg>")
    return "".join(parts)


def _points_bar(paid: Points, y: float, zero: float, scale: float, colour: str, run: str) -> str:
    """One run's bar of a seat's mean points, from 0, with its interval's whisker and the mean written after it."""
    mean = zero + paid.mean * scale
    start, width = min(zero, mean), abs(mean - zero)
    a, b = zero + paid.low * scale, zero + paid.high * scale
    return (f'<rect x="{start:.1f}" y="{y + 2}" width="{width:.1f}" height="15" fill="{colour}">'
            f"<title>{escape(run)}: mean {paid.mean:.2f} ({paid.low:.2f} – {paid.high:.2f}) over {paid.games} games"
            f"</title></rect>"
            f'<line x1="{a:.1f}" x2="{b:.1f}" y1="{y + 9.5}" y2="{y + 9.5}" stroke="#111" stroke-width="2"/>'
            f'<text x="{max(b, mean, zero) + 6:.1f}" y="{y + 14}">{paid.mean:.2f}</text>')


def length_histogram(report: SimulationReport, bins: int = 20, turns: bool = False) -> str:
    """How many games lasted how many actions (or ``turns``), in up to ``bins`` equal bins."""
    unit = "turns" if turns else "actions"
    rows = binned(report.turn_counts if turns else report.length_counts, bins)
    low, high = (rows[0][0], rows[-1][1]) if rows else (0, 0)
    height, base, left = 200, 170, 40
    top = max((games for _, _, games in rows), default=1) or 1
    bar = (WIDTH - left - 10) / max(len(rows), 1)
    parts = [_svg(height, f"game length in {unit}")]
    for i, (start, last, count) in enumerate(rows):
        h = count / top * (base - 40)
        span = f"{start}" if start == last else f"{start}–{last}"
        parts.append(f'<rect x="{left + i * bar:.1f}" y="{base - h:.1f}" width="{bar - 2:.1f}" height="{h:.1f}" fill="{BAR}">'
                     f"<title>{span} {unit[:-1] if span == '1' else unit}: {count} game{'s' * (count != 1)}</title></rect>")
    parts.append(f'<text x="{left}" y="{base + 16}">{low}</text>')
    parts.append(f'<text x="{WIDTH - 10}" y="{base + 16}" text-anchor="end">{high} {unit}</text>')
    parts.append(f'<text x="{left - 6}" y="{base - (base - 40) + 4}" text-anchor="end">{top}</text>')
    parts.append("</svg>")
    return "".join(parts)


def usage_chart(report: SimulationReport, shown: int = 15) -> str:
    """The ``shown`` components used most: a bar for their uses, their users' win rate beside it."""
    uses = sorted((u for u in report.content_uses if u.uses), key=lambda u: (-u.uses, u.name))[:shown]
    row, left = 22, _label_column([u.name for u in uses], 170)
    height = 40 + row * max(len(uses), 1)
    most = max((u.uses for u in uses), default=1)
    said = [f"{u.uses} ({f'{u.users.rate:.0%} won' if u.users.trials else '-'})" + (f" {u.flag}" if u.flag else "")
            for u in uses]
    after = 10 + LABEL_CHAR * max(map(len, said), default=0)  # room for the longest words after a bar ('... strong')
    scale = (WIDTH - left - after) / most
    parts = [_svg(height, f"components used most (of {len(report.content_uses)}): uses, and their users' win rate")]
    if not uses:
        parts.append('<text x="10" y="40">no decision used a component</text>')
    for i, (use, words) in enumerate(zip(uses, said)):
        y = 30 + i * row
        parts.append(f'<text x="{left - 8}" y="{y + 13}" text-anchor="end">{escape(_fitted(use.name, left))}</text>')
        parts.append(f'<rect x="{left}" y="{y + 2}" width="{use.uses * scale:.1f}" height="15" fill="{BAR}"/>')
        parts.append(f'<text x="{left + use.uses * scale + 6:.1f}" y="{y + 13}">{escape(words)}</text>')
    parts.append("</svg>")
    return "".join(parts)


LABEL_CHAR = 7.0
"""A 12-pixel character's width, about, or a little more, in SVG units: the room a bar's label takes."""


def _label_column(labels: list[str], least: int) -> int:
    """Where a chart's bars start: room for its longest label, at least ``least``, at most half the chart.

    >>> _label_column(["seat 1 (random)"], 140), _label_column(["seat 1 (" + "x" * 40 + ")"], 140)
    (140, 280)
    """
    wanted = 12 + LABEL_CHAR * max((len(label) for label in labels), default=0)
    return int(min(max(least, wanted), WIDTH // 2))


def _fitted(label: str, left: int) -> str:
    """``label``, cut with '…' to the room left of a bar starting at ``left``.

    >>> _fitted("short", 140), len(_fitted("x" * 60, 280))
    ('short', 38)
    """
    most = int((left - 12) / LABEL_CHAR)
    return label if len(label) <= most else label[:most - 1] + "…"


def _svg(height: int, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}">'
            f'<text x="4" y="16" style="font-weight:bold">{escape(title)}</text>')
