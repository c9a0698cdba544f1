"""``bench``: random playouts per second, or an agent's decisions and search iterations per second.

    $ rulecraft bench my-game --players 4
    $ rulecraft bench my-game --agent mcts:400 --decisions 20
"""

from __future__ import annotations

from typing import Any

import click
from click.core import ParameterSource

from cli.counts import Count, WHOLE, WholeRange
from cli.extra_words import SpacedValuesCommand
from cli.messages import echo, echo_json, fail
from cli.options import AGENT_KINDS_HELP, format_option, games_bar, load_game, pick_players, ruleset_options
from cli.options import agent_timeout_option
from cli.stop_signals import how_stopped
from engine.runner.backends import MAX_GAMES


MAX_BENCH_REPEATS = 100
"""The most times ``bench`` plays its games over (the fastest run counts)."""


MAX_BENCH_DECISIONS = 10_000
"""The most positions ``bench --agent`` times its agent on: each is played to and kept in memory first."""


@click.command(cls=SpacedValuesCommand)
@ruleset_options
@click.option("--playouts", type=Count(1, MAX_GAMES, "games"), default=500, show_default=True,
              help=f"Number of random games (without --agent; at most {MAX_GAMES:,}).")
@click.option("--seed", type=WHOLE, default=0, show_default=True,
              help="Seed of the games played (with --agent: of the games the positions come from).")
@click.option("--repeat", "repeats", type=WholeRange(1, MAX_BENCH_REPEATS), default=3, show_default=True,
              help="Play the games this many times; the fastest run counts (timing noise only slows runs down; "
                   f"at most {MAX_BENCH_REPEATS}).")
@click.option("--agent", "agent_spec", metavar="SPEC",
              help=f"Time this agent's decisions instead: decisions and search iterations per second; an agent "
                   f"{AGENT_KINDS_HELP}.")
@click.option("--decisions", type=WholeRange(1, MAX_BENCH_DECISIONS), default=10, show_default=True,
              help=f"With --agent: positions (from random games) the agent decides on (at most {MAX_BENCH_DECISIONS:,}).")
@format_option
@agent_timeout_option
def bench(
    ruleset: str, variants: tuple[str, ...], set_texts: tuple[str, ...], players: int | None, playouts: int, seed: int,
    repeats: int, agent_spec: str | None, decisions: int, fmt: str,
) -> None:
    """Measure random playouts per second, or an agent's speed (--agent mcts:400).

    \b
    rulecraft bench my-game --players 4
    rulecraft bench my-game --agent mcts:400 --decisions 20
    """
    from cli.agent_files import register_agent_files
    from engine.runner.agents import make_agent
    from engine.runner.bench import bench as run_bench
    from engine.runner.bench import bench_agent

    unused = "playouts" if agent_spec is not None else "decisions"
    if click.get_current_context().get_parameter_source(unused) is not ParameterSource.DEFAULT:
        raise click.UsageError("--playouts times random games, without --agent; --decisions goes with --agent")
    game = load_game(ruleset, variants, set_texts)
    count = pick_players(game, players)
    if agent_spec is not None:
        try:
            register_agent_files([agent_spec])
            make_agent(agent_spec, 0)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--agent") from None
        try:
            with games_bar(f"{game.name}, {agent_spec.strip()}", decisions * repeats) as advance:
                measured = bench_agent(game, count, agent_spec.strip(), decisions, seed, repeats,
                                       lambda done, total: advance(done * decisions * repeats // total))
        except KeyboardInterrupt:
            fail(f"interrupted ({how_stopped()}) during the first run: nothing was measured")
        _bench_agent(measured, fmt)
        if measured.get("partial"):
            fail(f"interrupted ({how_stopped()}): measured {measured['runs']} run{'s' * (measured['runs'] != 1)} of {repeats}")
        return
    try:
        with games_bar(f"{game.name}, {count} player{'s' * (count != 1)}", playouts * repeats) as advance:
            result = run_bench(game, count, playouts, seed, repeats, advance)
    except KeyboardInterrupt:
        fail(f"interrupted ({how_stopped()}) before a game was played: nothing was measured")
    if fmt == "json":
        echo_json(result)
    else:
        _bench_text(result)
    if result.get("partial"):
        fail(f"interrupted ({how_stopped()}): measured {result['runs']} run{'s' * (result['runs'] != 1)} of {result['playouts']} "
             f"playouts, not {repeats} of {playouts}")


def _fastest(runs: int) -> str:
    """``fastest of 3 runs``, or ``one run`` when there was one to choose from.

    >>> _fastest(3), _fastest(1)
    ('fastest of 3 runs', 'one run')
    """
    return f"fastest of {runs} runs" if runs != 1 else "one run"


def _bench_text(result: dict[str, Any]) -> None:
    """The line ``bench`` prints for random playouts."""
    runs = _fastest(result['repeats']) if not result.get("partial") else f"{result['runs']} run{'s' * (result['runs'] != 1)} measured"
    echo(
        f"{result['ruleset']}, {result['players']} player{'' if result['players'] == 1 else 's'}: {result['playouts']} random playouts in "
        f"{result['seconds']:.2f} s ({runs}): {result['playouts_per_second']:.0f} playouts/s "
        f"(median run {result['median_playouts_per_second']:.0f}), "
        f"{result['actions_per_game']:.1f} actions per game, {result['actions_per_second']:.0f} actions/s "
        f"(Python {result['python']})"
    )


def _bench_agent(result: dict[str, Any], fmt: str) -> None:
    if fmt == "json":
        echo_json(result)
        return
    iterations = result["iterations_per_second"]
    searched = f", {iterations:.0f} iterations/s ({result['iterations_per_decision']:.0f} per decision)" if iterations else ""
    echo(
        f"{result['ruleset']}, {result['players']} player{'' if result['players'] == 1 else 's'}: {result['agent']} "
        f"decided {result['decisions']} positions in {result['seconds']:.2f} s ({_fastest(result.get('runs', result['repeats']))}): "
        f"{result['decisions_per_second']:.2f} decisions/s{searched} (Python {result['python']})"
    )
