"""Agents of the user's own Python files on the command line: ``--agents my_bots.py:Cautious`` (cli/agent_files.py).

docs/api.md described an agent class for the Python API, and the command line knew only the built-in agents and
``policy:FILE``: ``rulecraft simulate my-game --agents my_bots.py:Cautious`` was "unknown agent".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main

BOTS = '''\
class First:
    """Always the first legal action."""

    def choose(self, state):
        return state.legal_actions()[0]


class Lucky:
    def __init__(self, rng):
        self.rng = rng

    def choose(self, state):
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]


class Broken:
    def choose(self, state):
        return 1 / 0


class Cheater:
    def choose(self, state):
        return "pass the salt"


class Greedy:
    def __init__(self, rng, depth):
        self.depth = depth

    def choose(self, state):
        return state.legal_actions()[0]


class Texter:
    def choose(self, state):
        return str(state.legal_actions()[0])


class Lookahead:
    """Tries the first action out on the state it is given, and forgets to take it back."""

    def choose(self, state):
        first = state.legal_actions()[0]
        state.apply(first)
        return first


class Quitter:
    """Ends the program, as a script's agent might when it is done."""

    def choose(self, state):
        raise SystemExit(3)


class Odd:
    """Returns something whose == and str() fail."""

    def choose(self, state):
        class Strange:
            def __eq__(self, other):
                raise RuntimeError("no comparing me")

            __hash__ = object.__hash__

            def __str__(self):
                raise RuntimeError("no writing me")

        return Strange()


class Meddler:
    """Changes what it reads of the state: whose seat is whose, the counters, the zones."""

    def choose(self, state):
        first = state.legal_actions()[0]
        state.seat_of.clear()
        state.zones[0].clear()
        state.counters[:] = [7] * len(state.counters)
        return first


class Hangs:
    """Never decides, and swallows every error (as a careless retry loop does)."""

    def choose(self, state):
        while True:
            try:
                sum(range(1000))
            except Exception:
                pass


def not_a_class(state):
    return None
'''


@pytest.fixture()
def bots(tmp_path: Path) -> Path:
    path = tmp_path / "my_bots.py"
    path.write_text(BOTS, encoding="utf-8")
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_a_class_of_the_users_file_plays_simulate_repeatably(bots: Path) -> None:
    args = ["simulate", "tic-tac-toe", "-n", "12", "--seed", "3", "--agents", f"{bots}:First,{bots}:Lucky", "--format", "json"]
    first, again = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["agents"] == [f"{bots}:First", f"{bots}:Lucky"] and report["games"] == 12
    assert json.loads(again.stdout) == report  # Lucky draws from the seeded generator it is given


def test_it_plays_a_seat_of_play_and_in_worker_processes(bots: Path) -> None:
    played = run("play", "tic-tac-toe", "--seed", "2", "--seat", f"1={bots}:First", "--seat", f"2={bots}:Lucky")
    assert played.exit_code == 0 and "game over" in played.output, played.output
    jobs = run("simulate", "tic-tac-toe", "-n", "8", "--jobs", "2", "--agents", f"{bots}:Lucky,random", "--format", "json")
    assert jobs.exit_code == 0 and json.loads(jobs.stdout)["games"] == 8, jobs.output


@pytest.mark.parametrize("spec, says", [
    ("{dir}/missing.py:First", "no file {dir}/missing.py (an agent from a file is PATH.py:ClassName"),
    ("{bots}", "'{bots}': name the agent class of {bots} too, as {bots}:ClassName"),
    ("{bots}:Frist", "{bots} has no 'Frist' (did you mean 'First'?)"),
    ("{bots}:not_a_class", "{bots}:not_a_class is not an agent class: an agent is a class with a choose(state) method"),
    ("{bots}:Greedy", "{bots}:Greedy() must take no argument, or one (a seeded random.Random), not 2 (rng, depth)"),
    ("{dir}/broken.py:X", "{dir}/broken.py failed to load: SyntaxError: '(' was never closed (line 2)")])
def test_a_bad_agent_file_is_refused_with_what_is_wrong(bots: Path, spec: str, says: str) -> None:
    (bots.parent / "broken.py").write_text("import random\nx = (\n", encoding="utf-8")
    spec, says = (text.format(dir=bots.parent, bots=bots) for text in (spec, says))
    result = run("simulate", "tic-tac-toe", "-n", "2", "--agents", spec)
    assert result.exit_code == 2 and says in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name, says", [
    ("Broken", "the agent {bots}:Broken failed in choose(): ZeroDivisionError: division by zero (line "
               f"{BOTS.splitlines().index('        return 1 / 0') + 1})"),
    ("Cheater", "the agent {bots}:Cheater chose 'pass the salt', which is not one of the legal actions"),
    ("Texter", "the agent {bots}:Texter chose the text 'place X at 0,0': return the action itself, the one of "
               "state.legal_actions() whose str() is that text"),
    # a sys.exit() in choose ended simulate silently with status 3, and play without writing its --log
    ("Quitter", "the agent {bots}:Quitter failed in choose(): SystemExit: 3 (line "
                f"{BOTS.splitlines().index('        raise SystemExit(3)') + 1})"),
    ("Odd", "the agent {bots}:Odd chose a Strange whose str() fails, which is not one of the legal actions")])
def test_an_agent_that_fails_or_cheats_is_told_without_a_traceback(bots: Path, name: str, says: str) -> None:
    result = run("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:{name}")
    assert result.exit_code == 1 and says.format(bots=bots) in result.output, result.output
    assert "Traceback" not in result.output


def test_an_agent_file_is_refused_on_a_ray_cluster_whose_workers_lack_it(bots: Path) -> None:
    result = run("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:First", "--backend", "ray")
    assert result.exit_code == 2 and "an agent from a file plays only on this machine" in result.output, result.output


def test_an_agent_file_loaded_leaves_the_known_agents_as_they_were(bots: Path) -> None:
    """Each file loaded was added to the kinds every 'unknown agent' message lists, so a long-lived process (the test
    run) told of files a run before had used."""
    from engine.runner.agents import make_agent

    assert run("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:First,random").exit_code == 0
    with pytest.raises(ValueError) as refused:
        make_agent("oracle", 0)
    assert str(bots) not in str(refused.value) and "policy:FILE (searches" in str(refused.value)


def test_an_agent_trying_a_move_out_on_the_state_it_is_given_changes_nothing_but_its_copy(bots: Path) -> None:
    """An agent applying an action to the state it was given used to play it in the game itself: at seat 2 of
    tic-tac-toe it placed an X for seat 1 each turn, and the game went on from there."""
    played = run("play", "tic-tac-toe", "--seed", "2", "--seat", f"1={bots}:First", "--seat", f"2={bots}:Lookahead",
                 "--log", str(bots.parent / "game.json"))
    assert played.exit_code == 0, played.output
    actions = json.loads((bots.parent / "game.json").read_text())["actions"]
    assert actions[:4] == ["place X at 0,0", "place O at 1,0", "place X at 2,0", "place O at 0,1"], actions


def test_an_agent_ending_the_program_stops_play_with_its_game_written(bots: Path) -> None:
    log = bots.parent / "game.json"
    played = run("play", "tic-tac-toe", "--seed", "2", "--seat", f"1={bots}:First", "--seat", f"2={bots}:Quitter",
                 "--log", str(log))
    assert played.exit_code == 1 and "SystemExit: 3" in played.output, played.output
    assert json.loads(log.read_text())["actions"] == ["place X at 0,0"]


def test_an_agent_changing_what_it_reads_of_the_state_changes_nothing_of_the_game(bots: Path) -> None:
    """The copy an agent was given shared whose seat is whose with the game: clearing it made simulate fail with a
    KeyError's traceback at the next move."""
    played = run("play", "tic-tac-toe", "--seed", "2", "--seat", f"1={bots}:First", "--seat", f"2={bots}:Meddler",
                 "--log", str(bots.parent / "game.json"))
    assert played.exit_code == 0, played.output
    actions = json.loads((bots.parent / "game.json").read_text())["actions"]
    assert actions[:4] == ["place X at 0,0", "place O at 1,0", "place X at 2,0", "place O at 0,1"], actions
    assert run("simulate", "iconica", "-n", "2", "--agents", f"{bots}:Meddler,random").exit_code == 0


def test_an_agent_that_hangs_is_stopped_after_its_time_and_told_as_its_fault(bots: Path) -> None:
    """A hanging choose() could only be stopped by Ctrl-C; each decision now has --agent-timeout seconds (60 unless
    told), past which the agent is stopped, its fault said, and play's game kept as it was before that decision."""
    import time

    log = bots.parent / "game.json"
    start = time.monotonic()
    played = run("play", "tic-tac-toe", "--seed", "2", "--seat", f"1={bots}:First", "--seat", f"2={bots}:Hangs",
                 "--log", str(log), "--agent-timeout", "0.5")
    says = f"the agent {bots}:Hangs took longer than 0.5 s to decide"
    assert played.exit_code == 1 and says in played.output and "ruleset failed" not in played.output, played.output
    assert json.loads(log.read_text())["actions"] == ["place X at 0,0"]
    simulated = run("simulate", "tic-tac-toe", "-n", "2", "--agents", f"{bots}:Hangs,random", "--agent-timeout", "0.5")
    assert simulated.exit_code == 1 and says in simulated.output and "Traceback" not in simulated.output
    assert time.monotonic() - start < 30
    assert "--agent-timeout SECONDS" in run("simulate", "--help").output
