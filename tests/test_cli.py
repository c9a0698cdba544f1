"""The ``rulecraft`` command line, driven through click's CliRunner.

Every command is checked for its exit status, the shape of its output, and
that no Python traceback ever reaches the user.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from cli.main import main
import engine

RULESET = "iconoclasm-cards"
RULESET_DIR = Path(__file__).resolve().parent.parent / "rulesets" / RULESET
ALWAYS_FIRST = "1\n" * 300


def run(*args: str, input: str | None = None) -> Result:
    """Invoke the CLI; fails the test on any traceback or unexpected exception."""
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def assert_usage_error(result: Result, message: str) -> None:
    """Exit 2 with ``message`` (click also exits 2 for an unknown option, so the code alone proves little)."""
    assert result.exit_code == 2, result.output
    assert f"Error: {message}" in result.output, result.output


@pytest.fixture
def broken_ruleset(tmp_path: Path) -> Path:
    """A copy of the built-in ruleset with 'Fire' misspelt as 'Fier' in the clash table."""
    folder = tmp_path / "broken"
    shutil.copytree(RULESET_DIR, folder)
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    row = "Earth: {Water: neighbour, Air: both, Fire: placed}"
    assert row in text
    path.write_text(text.replace(row, row.replace("Fire", "Fier")), encoding="utf-8")
    return path


@pytest.fixture
def played_log(tmp_path: Path) -> Path:
    """The log of a whole game where the human always picked action 1."""
    log = tmp_path / "game.json"
    result = run("play", RULESET, "--seed", "5", "--log", str(log), input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    return log


# ---------------------------------------------------------------- list, schema, explain


def test_list_shows_the_builtin_ruleset() -> None:
    result = run("list")
    assert result.exit_code == 0
    assert RULESET in result.output
    assert "1, 2, 3, 4" in result.output


@pytest.mark.parametrize("args", [("list",), ("simulate", "spell-cycles", "-n", "3")])
def test_tables_cut_no_name(args: tuple[str, ...]) -> None:
    # at 80 columns long names were cut: list's "extra-credit-v2-ran…" (a variant to type back), simulate's
    # per-component rows "Tithe-of-…", "black-med…"
    result = run(*args)
    assert result.exit_code == 0 and "…" not in result.output


@pytest.mark.parametrize("kind", ["ruleset", "scenario"])
def test_schema_prints_valid_json(kind: str) -> None:
    result = run("schema", kind)
    assert result.exit_code == 0
    assert json.loads(result.output)["$schema"].startswith("https://json-schema.org/")


def test_schema_defaults_to_the_ruleset_schema() -> None:
    assert run("schema").output == run("schema", "ruleset").output


def test_explain_mentions_options_and_steps() -> None:
    game = engine.load(RULESET)
    result = run("explain", RULESET)
    assert result.exit_code == 0
    for name, doc in game.option_docs.items():
        assert f"{name} = " in result.output
    for step in game.steps:
        assert step.describe_with_condition() in result.output
    assert "Scoring" in result.output and "Variants" in result.output


def test_explain_says_which_placements_count_once_only_triggering_holds() -> None:
    """Linking two groups of one marker is no clash: the explanation says only forming or clashing counts."""
    result = run("explain", "iconoclasm")
    assert "only a placement that makes a later step act (forms a group, or makes two groups of different markers clash)" \
        in " ".join(result.output.split())


def test_explain_says_a_value_with_every_marker_out_wins_when_it_would_place_another() -> None:
    """``if_no_marker: win`` ends the game (a third icon, in the seed game); the explanation said nothing of it."""
    said = " ".join(run("explain", "iconoclasm").output.split())
    assert "a value that would place a marker with none left wins the game at once" in said


def test_explain_with_a_variant_shows_its_options() -> None:
    result = run("explain", RULESET, "--variant", "chain-reactions")
    assert "chain_reactions = true" in result.output
    assert "selected: chain-reactions" in result.output


@pytest.mark.parametrize("args, message", [
    (("--players", "9"), "--players is for --observation: the summary covers every player count"),
    (("--players", "3"), "--players is for --observation: the summary covers every player count"),
    (("--component", "x", "--observation"),
     "--component shows a card and --observation the learning environment: give one of them"),
])
def test_explain_refuses_flags_it_would_ignore(args: tuple[str, ...], message: str) -> None:
    # explain iconoclasm --players 9 printed the summary, exit 0; --observation silently won over --component
    assert_usage_error(run("explain", RULESET, *args), message)
    assert "With --observation: the number of players" in " ".join(run("explain", "--help").output.split())


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_commands_help_shows_an_example(command: str) -> None:
    # explain, play, replay, bench, compile, serve, list, schema and validate showed none
    lines = run(command, "--help").output.splitlines()
    assert any(line.startswith(f"  rulecraft {command}") for line in lines), "\n".join(lines)


def test_validate_checks_a_folder_of_scenarios(tmp_path: Path) -> None:
    # it read FOLDER/ruleset.yaml: "cannot read '.../scenarios/ruleset.yaml': No such file or directory"
    folder = tmp_path / "scenarios"
    shutil.copytree(RULESET_DIR / "scenarios", folder)
    assert run("validate", str(folder)).output == f"ok: {folder}\n"
    first = sorted(folder.glob("*.yaml"))[0]
    first.write_text(first.read_text(encoding="utf-8").replace(f"ruleset: {RULESET}", "ruleset: no-such-game", 1),
                     encoding="utf-8")
    result = run("validate", str(folder))
    assert result.exit_code == 1 and f"{first}:" in result.output and "unknown ruleset 'no-such-game'" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("validate", str(empty))
    assert result.exit_code == 1
    assert f"folder '{empty}' has no ruleset.yaml and no scenario files (*.yaml with 'ruleset:')" in result.output


def test_validate_checks_a_folder_of_rulesets_each_problem_once(tmp_path: Path) -> None:
    # a folder of ruleset folders (rulesets/) was "cannot read 'rulesets/ruleset.yaml'"; then it was "ok" having
    # checked only the scenarios, a broken ruleset reported once per scenario of it
    shutil.copytree(RULESET_DIR, tmp_path / "cards")
    shutil.copytree(RULESET_DIR.parent / "tic-tac-toe", tmp_path / "marks")
    ruleset = tmp_path / "marks" / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("players: [2]", "players: [two]", 1), encoding="utf-8")
    result = run("validate", str(tmp_path))
    assert result.exit_code == 1 and f"{ruleset}:" in result.output
    assert result.output.count("'two' is not a whole number") == 1 and "1 problem in 1 file" in result.output


def test_validate_says_yaml_read_a_word_as_true_or_false(tmp_path: Path) -> None:
    """`answer: [yes, no]` under types was "true is not a text": the designer wrote yes, and nothing said that YAML
    reads yes, no, on and off as true and false, nor how to keep the word."""
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text("name: words\nextends: tutorial-tiles\ntypes:\n  answer: [yes, no]\n  mark: [\"on\", off]\n",
                       encoding="utf-8")
    result = run("validate", str(ruleset))
    output = " ".join(result.output.split())
    assert result.exit_code == 1
    assert 'ruleset.yaml:4:12: types/answer/0: true is not a text (YAML reads yes as true: write "yes" in quotes' in output
    assert 'types/answer/1: false is not a text (YAML reads no as false: write "no" in quotes to mean the word)' in output
    assert 'types/mark/1: false is not a text (YAML reads off as false' in output and "types/mark/0" not in output


def test_an_unknown_ruleset_is_a_message_not_a_traceback() -> None:
    result = run("explain", "iconoclasm-card")
    assert result.exit_code == 1
    assert "did you mean 'iconoclasm-cards'" in result.stderr


def test_an_unknown_variant_is_refused() -> None:
    result = run("explain", RULESET, "--variant", "nope")
    assert result.exit_code == 1
    assert "nope" in result.stderr


# ---------------------------------------------------------------- validate


def test_validate_a_valid_ruleset() -> None:
    result = run("validate", str(RULESET_DIR))
    assert result.exit_code == 0
    assert f"ok: {RULESET_DIR}" in result.output


def test_validate_a_broken_ruleset_points_at_the_mistake(broken_ruleset: Path) -> None:
    line = next(i for i, text in enumerate(broken_ruleset.read_text().splitlines(), 1) if "Fier" in text)
    result = run("validate", str(broken_ruleset), str(RULESET_DIR))
    assert result.exit_code == 1
    assert f"{broken_ruleset}:{line}:" in result.output
    assert "did you mean 'Fire'" in result.output
    assert "^" in result.output
    assert "1 problem in 1 file" in result.output


@pytest.mark.parametrize("variant", [None, "hard"])
def test_validate_plays_a_game_and_reports_code_that_fails_only_when_it_runs(tmp_path: Path, variant: str | None) -> None:
    """A running score dividing by zero compiled fine; only a simulation found it, and named no game."""
    folder = tmp_path / "zero"
    folder.mkdir()
    score = "10 / (board_size - 4)" if variant else "10 / (count(t in board) - 1)"
    hard = "variants:\n  hard:\n    options:\n      board_size: {default: 4}\n" if variant else ""
    (folder / "ruleset.yaml").write_text(f"name: zero\nextends: tutorial-tiles\nrunning_score: {score}\n{hard}",
                                         encoding="utf-8")
    result = run("validate", str(folder))
    assert result.exit_code == 1, result.output
    chosen = f" --variant {variant}" if variant else ""
    command = f"rulecraft play {folder / 'ruleset.yaml'}{chosen} --players 2 --seed 0 --seat 1=random --seat 2=random"
    assert f"{folder / 'ruleset.yaml'}:3:" in result.output and "^" in result.output
    assert f"division by zero (in a random game of 2 players; watch it: {command})" in " ".join(result.output.split())


def test_validate_plays_more_than_one_seed_and_names_the_game_that_failed(tmp_path: Path) -> None:
    """A running score that divides by the seat of a role absent from some 2-player games: seed 0 seats every
    role it needs, so validate said ok, and only check --invariants or simulate found it."""
    folder = tmp_path / "absent"
    folder.mkdir()
    score = "sum(count(t in board where t.symbol == r) for r in roles where seat(r) == me) + 6 / seat(Star)"
    (folder / "ruleset.yaml").write_text(f"name: absent\nextends: tutorial-tiles\nrunning_score: {score}\n", encoding="utf-8")
    result = run("validate", str(folder))
    assert result.exit_code == 1, result.output
    command = f"rulecraft play {folder / 'ruleset.yaml'} --players 2 --seed 3 --seat 1=random --seat 2=random"
    assert f"division by zero (in a random game of 2 players; watch it: {command})" in " ".join(result.output.split())


def test_validate_reports_an_end_that_never_holds(tmp_path: Path) -> None:
    """An 'end: when' that no random game met said 'ok': every game passed turn after turn to max_turns, and only
    a simulation's report ("games stopped by the turn limit") told the designer."""
    endless = tmp_path / "endless.yaml"
    endless.write_text("name: endless\nextends: tutorial-tiles\nend:\n  when: turn > 5000\n  stalled: false\n",
                       encoding="utf-8")
    result = run("validate", str(endless))
    assert result.exit_code == 1, result.output
    command = f"rulecraft play {endless} --players 2 --seed 0 --seat 1=random --seat 2=random"
    assert f"{endless}:4:9: 'end: when' never held in the random games of 2 or 3 players: each stopped at the turn " \
           f"limit (max_turns 1000) (watch one: {command})" in " ".join(result.output.split())
    assert run("validate", str(RULESET_DIR)).exit_code == 0  # a game that ends by its rules is not told so


RACE = """\
name: race
players: [2]
types:
  side: [A, B]
roles: {of: side, seating: {2: [1, 2]}}
counters:
  track: {per: role}
turn:
  - do:
      effect: |
        if choose(x in ["run", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]) == "run":
          track(current_role) += 1
end:
  when: any(track(r) >= 10 for r in roles)
  max_turns: MAX
scoring:
  rank: r in roles where seated(r)
  by: [track(r)]
  points: [1, 0]
running_score: sum(track(r) for r in roles where seat(r) == me)
"""


def test_validate_judges_the_end_with_the_agents_it_is_told(tmp_path: Path) -> None:
    """A race that random players seldom finish (one option in twelve runs) was refused by validate with no way to
    have players who try to win judge it: --agents plays validate's games with another bot, and the message says so."""
    race = tmp_path / "race.yaml"
    race.write_text(RACE.replace("MAX", "60"), encoding="utf-8")
    result = run("validate", str(race))
    assert result.exit_code == 1, result.output
    told = " ".join(result.output.split())
    assert "'end: when' never held in the random games of 2 players" in told
    assert "have other bots play those games again: rulecraft validate --agents greedy (or mcts:50)" in told
    result = run("validate", str(race), "--agents", "greedy")
    assert result.exit_code == 0 and result.output == f"ok: {race}\n", result.output
    race.write_text(RACE.replace("MAX", "12"), encoding="utf-8")  # too short even for players who run every turn
    told = " ".join(run("validate", str(race), "--agents", "greedy").output.split())
    command = f"rulecraft play {race} --players 2 --seed 0 --seat 1=greedy --seat 2=greedy"
    assert f"'end: when' never held in the random games nor in those greedy played of 2 players: each stopped at the turn " \
           f"limit (max_turns 12) (watch one: {command}) (the game must end by its own rules; the turn limit only " \
           "stops a game that would not)" in told
    assert_usage_error(run("validate", str(race), "--agents", "greedy,random"),
                       "Invalid value for --agents: 'greedy,random': validate plays every player count, so one agent "
                       "plays every seat (e.g. --agents greedy)")
    assert_usage_error(run("validate", str(race), "--agents", "grody"), "Invalid value for --agents: unknown agent 'grody'")
    assert_usage_error(run("validate", str(race), "--agents", "random", "greedy"),  # 'greedy' read as a ruleset
                       "Invalid value for 'PATHS...': no file or folder 'greedy', and no built-in ruleset of that name "
                       "('greedy' is an agent: --agents takes one, which plays every seat (--agents greedy))")


def test_validate_plays_its_agent_only_where_random_games_never_ended(tmp_path: Path) -> None:
    """``validate --agents greedy`` had the bot play every game of every variant and player count: ten minutes
    without a word for the shipped ruleset with ten variants and four counts, where random games all ended.  The
    agent now plays again only the games of a count whose random games all stopped at the turn limit: an agent that
    fails whenever asked is never asked of a ruleset whose random games end, and is of the race they never finish."""
    bots = tmp_path / "bots.py"
    bots.write_text("class Broken:\n    def choose(self, state):\n        return 1 / 0\n", encoding="utf-8")
    agent = f"{bots}:Broken"
    assert run("validate", str(RULESET_DIR), "--agents", agent).output == f"ok: {RULESET_DIR}\n"
    race = tmp_path / "race.yaml"
    race.write_text(RACE.replace("MAX", "60"), encoding="utf-8")
    result = run("validate", str(race), "--agents", agent)
    assert result.exit_code == 1 and "ZeroDivisionError" in result.output, result.output
    assert f"{race}:1:1" not in result.output and "the ruleset was not judged by" in result.output, result.output


def test_validate_tells_what_it_plays(tmp_path: Path) -> None:
    """validate_path tells a watcher each game before it plays it, naming the ruleset, the variant, the count, the
    seed and the agent: the CLI shows it as a status line on a terminal while a long validate runs."""
    from engine.runner.validate import SEEDS, validate_path

    race = tmp_path / "race.yaml"
    race.write_text(RACE.replace("MAX", "60") + "variants:\n  long:\n    end: {max_turns: 61}\n", encoding="utf-8")
    told: list[str] = []
    validate_path(str(race), agent="greedy", watch=told.append)
    base = [f"race: 2 players, seed {seed}, random" for seed in range(SEEDS)]
    again = [f"race: 2 players, seed {seed}, greedy" for seed in range(SEEDS)]
    assert told == base + again + ["race (variant 'long'): 2 players, seed 0, random",
                                   "race (variant 'long'): 2 players, seed 0, greedy"]


def test_validate_reports_an_option_nothing_reads(tmp_path: Path) -> None:
    """A file extending the card game with 'grid_widht: {default: 4}' (a misspelt option: a new one) validated ok,
    and every run, --set and sweep of it changed nothing."""
    typo = tmp_path / "typo.yaml"
    typo.write_text("name: typo\nextends: iconoclasm-cards\noptions:\n  grid_widht: {default: 4}\n", encoding="utf-8")
    result = run("validate", str(typo))
    assert result.exit_code == 1, result.output
    assert f"{typo}:4:3: option 'grid_widht' is read nowhere: no code or setting names it, so setting it changes " \
           "nothing (did you mean 'grid_width'?)" in " ".join(result.output.split())
    spare = tmp_path / "spare.yaml"
    spare.write_text("name: spare\nextends: tutorial-tiles\noptions:\n  bonus: {default: 2, doc: bonus points}\n",
                     encoding="utf-8")
    assert "such as max_turns: bonus; or remove it" in " ".join(run("validate", str(spare)).output.split())
    read = tmp_path / "read.yaml"
    read.write_text("name: read\nextends: tutorial-tiles\noptions:\n  rounds: 30\nend:\n  max_turns: rounds\n",
                    encoding="utf-8")
    assert run("validate", str(read)).exit_code == 0


def test_validate_json_shape(broken_ruleset: Path) -> None:
    result = run("validate", "--format", "json", str(RULESET_DIR), str(broken_ruleset))
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["valid"] is False
    good, bad = data["files"]
    assert good == {"path": str(RULESET_DIR), "valid": True, "diagnostics": [], "notes": []}
    assert bad["valid"] is False
    assert bad["diagnostics"][0]["hint"] == "did you mean 'Fire'?"
    assert set(bad["diagnostics"][0]) == {"file", "line", "col", "message", "hint"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "Missing argument 'PATHS...'"),
        (["no/such/ruleset.yaml"], "Invalid value for 'PATHS...': Path 'no/such/ruleset.yaml' does not exist."),
    ],
)
def test_validate_usage_errors_exit_2(args: list[str], message: str) -> None:
    assert_usage_error(run("validate", *args), message)


@pytest.mark.parametrize("command", ["check", "play", "simulate"])
def test_an_example_named_by_its_path_in_a_clone_is_given_its_whole_path_elsewhere(
        command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's 'rulecraft play docs/examples/kalah', typed outside the clone."""
    from engine.core.paths import rulesets_dir

    monkeypatch.chdir(tmp_path)
    result = run(command, "docs/examples/kalah")
    assert result.exit_code in (1, 2)
    whole = rulesets_dir().parent / "docs" / "examples" / "kalah"
    assert f"(it is in Rulecraft's own folder: give its whole path, {whole})" in " ".join(result.output.split())
@pytest.mark.parametrize("command", ["validate", "check"])
def test_a_builtin_named_by_its_path_in_a_clone_is_named_alone_elsewhere(command: str, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the README's first ten minutes, from a scratch folder
    paths = "'PATHS...'" if command == "validate" else "'[PATHS]...'"
    assert_usage_error(run(command, "rulesets/tic-tac-toe/scenarios"),
                       f"Invalid value for {paths}: Path 'rulesets/tic-tac-toe/scenarios' does not exist (tic-tac-toe "
                       "is a built-in ruleset: name it alone, as in rulecraft validate tic-tac-toe or rulecraft check "
                       "tic-tac-toe).")


# ---------------------------------------------------------------- play and replay


def test_play_a_whole_game_always_choosing_the_first_action(played_log: Path) -> None:
    log = json.loads(played_log.read_text())
    assert log["ruleset"] == RULESET and log["players"] == 2 and log["seed"] == 5 and log["variant"] == []
    game = engine.load(RULESET)
    state = game.new_state(players=2, seed=5)
    for text in log["actions"]:
        state.apply(text)
    assert state.is_terminal


def test_play_prints_board_actions_bot_moves_and_outcome() -> None:
    result = run("play", RULESET, "--seed", "5", input=ALWAYS_FIRST)
    assert result.exit_code == 0
    assert "[1] place " in result.output
    assert "[random]: " in result.output
    assert "y\\x" in result.output
    # each seat's elements, as its turns name them ("turn 1: seat 1 (Water) to play"): two each with two players
    assert "game over; scores: seat 1 (Water, Fire): 6, seat 2 (Earth, Air): 4\nseat 1 (Water, Fire) wins" in result.output
    # the numbers in brackets of the log's ranking ("1. Water [4, 3, 1]: ...") are said in words, from the game's 'by'
    assert ("in the ranking, the [ ] of each e in roles hold: the number of c in board where the element of c is e, "
            "then (breaking ties) the size of the largest connected group") in " ".join(result.output.split())


def test_an_illegal_entry_is_refused_with_a_reason_and_asked_again() -> None:
    result = run("play", RULESET, "--seed", "5", input="place nothing at 9,9\n999\n" + ALWAYS_FIRST)
    assert result.exit_code == 0
    reason = result.output.split("place nothing at 9,9", 1)[1].splitlines()[1]
    assert "'nothing'" in reason  # the engine's reason names what is wrong
    assert "there is no action 999" in result.output
    assert "game over" in result.output


def test_help_and_quit() -> None:
    result = run("play", RULESET, "--seed", "5", input="help\nquit\n")
    assert result.exit_code == 0
    assert "save FILE" in result.output
    assert "stopped; the game is not over" in result.output


def test_the_end_of_input_quits() -> None:
    result = run("play", RULESET, "--seed", "5", input="1\n")
    assert result.exit_code == 0
    assert "stopped" in result.output


def test_save_then_load_and_let_bots_finish(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    result = run("play", RULESET, "--players", "3", "--seed", "2", input=f"1\nsave {save}\nquit\n")
    assert result.exit_code == 0
    saved = json.loads(save.read_text())
    assert saved["players"] == 3 and len(saved["actions"]) >= 2
    result = run("play", "--load", str(save), "--seat", "1=random")
    assert result.exit_code == 0
    assert "game over" in result.output


def test_a_log_names_a_ruleset_path_absolutely_and_keeps_the_variant(tmp_path: Path) -> None:
    log = tmp_path / "bots.json"
    result = run("play", str(RULESET_DIR), "--variant", "chain-reactions", "--seat", "1=random", "--log", str(log))
    assert result.exit_code == 0
    saved = json.loads(log.read_text())
    assert saved["ruleset"] == str(RULESET_DIR / "ruleset.yaml")
    assert saved["variant"] == ["chain-reactions"]
    assert run("replay", str(log)).exit_code == 0


def test_play_usage_errors() -> None:
    assert_usage_error(run("play"), "give a RULESET (or --load SAVE.json)")
    assert_usage_error(run("play", RULESET, "--players", "9"),
                       "Invalid value for --players: iconoclasm-cards is played by 1, 2, 3, 4 players, not 9")
    assert_usage_error(run("play", RULESET, "--seat", "5=human"),
                       "Invalid value for --seat: there is no seat 5 with 2 players")
    assert_usage_error(run("play", RULESET, "--seat", "2=human", "--seat", "2=random"),
                       "Invalid value for --seat: seat 2 is named twice (2=human, 2=random): say once who plays it")
    assert_usage_error(run("play", RULESET, "--seat", "2=mcts:5:c=2:c=3"),
                       "Invalid value for --seat: 'mcts:5:c=2:c=3' gives its exploration constant c twice: give it once")
    assert_usage_error(run("play", RULESET, "--seat", "2=mcts:5:width=3"),  # was "gives its budget twice"
                       "Invalid value for --seat: 'mcts:5:width=3' has no setting 'width': a search takes N iterations "
                       "or Ts seconds, c=C and depth=D (e.g. mcts:400:c=2:depth=60)")
    assert_usage_error(run("play", RULESET, "--seat", "2=oracle"),
                       "Invalid value for --seat: unknown agent 'oracle'; known agents: random")


def test_load_and_a_ruleset_together_is_a_usage_error(played_log: Path) -> None:
    assert_usage_error(run("play", RULESET, "--load", str(played_log)),
                       "--load takes the ruleset, variants, options, players and seed from the file; give none of them")


def test_replay_a_saved_log(played_log: Path) -> None:
    actions = json.loads(played_log.read_text())["actions"]
    result = run("replay", str(played_log))
    assert result.exit_code == 0
    assert f"{len(actions)}. seat " in result.output
    assert actions[-1] in result.output
    assert "game over; scores:" in result.output


def test_replay_step_waits_between_actions(played_log: Path) -> None:
    result = run("replay", str(played_log), "--step", input="\n" * 3)
    assert result.exit_code == 0
    assert result.output.count("(Enter for the next action)") >= 3


def test_replay_refuses_an_illegal_action_with_its_number(played_log: Path) -> None:
    log = json.loads(played_log.read_text())
    log["actions"][1] = "place nothing at 9,9"
    played_log.write_text(json.dumps(log))
    result = run("replay", str(played_log))
    assert result.exit_code == 1
    assert "action 2 'place nothing at 9,9' cannot be replayed" in result.stderr


@pytest.mark.parametrize("content", ["not json", '{"ruleset": "iconoclasm-cards"}', "[]"])
def test_replay_refuses_a_damaged_log(tmp_path: Path, content: str) -> None:
    log = tmp_path / "bad.json"
    log.write_text(content)
    result = run("replay", str(log))
    assert result.exit_code == 1
    assert str(log) in result.stderr


# ---------------------------------------------------------------- simulate and bench


def test_simulate_json_keys() -> None:
    result = run("simulate", RULESET, "-n", "10", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert {"games", "wins_by_seat", "draws", "mean_length", "win_rate", "win_rate_by_agent", "first_player",
            "lead_changes", "margin", "content", "kinds"} <= set(data)
    assert data["games"] == 10
    assert sum(data["wins_by_seat"].values()) + data["draws"] + data["no_winner"] == 10
    assert "compare" not in data


def test_simulate_does_not_depend_on_jobs() -> None:
    args = ["simulate", RULESET, "-n", "12", "--players", "3", "--seed", "4", "--format", "json"]
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.output) == json.loads(two.output)


def test_simulate_text_report() -> None:
    result = run("simulate", RULESET, "-n", "5", "--players", "4")
    assert result.exit_code == 0
    for words in ("95% interval", "median", "first player", "lead changes", "final margin", "per component", "strong:"):
        assert words in result.output
    assert all(name in result.output for name in engine.load(RULESET).component_names)
    assert "playing" not in result.output  # no progress bar when the output is not a terminal


def test_simulate_reports_each_seat_s_points_when_a_result_pays_different_points(tmp_path: Path) -> None:
    """Backgammon scores a win 1, a gammon 2, a backgammon 3: simulate's table gave only win rates, so how often each
    seat scored 2 or 3 and its mean points were in the --games CSV alone.  The text report (and --out, the HTML page)
    has a table of each seat's mean points with a 95% interval and the share of games paying each value; JSON and CSV
    have them by name.  Tic-tac-toe (a win 1, else 0) reports nothing new."""
    tables = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "tables")
    args = ("simulate", tables, "-n", "8", "--seed", "1")
    data = json.loads(run(*args, "--format", "json").output)
    assert [sum(data["points"][seat]["counts"].values()) for seat in ("1", "2")] == [8, 8]
    assert set(data["points"]["1"]["counts"]) | set(data["points"]["2"]["counts"]) == {"0", "1", "2", "3"}
    for paid in data["points"].values():
        mean = sum(int(value) * n for value, n in paid["counts"].items()) / 8
        assert paid["mean"] == pytest.approx(mean) and paid["low"] <= mean <= paid["high"]
    result = run(*args, "--html", str(tmp_path / "report.html"), "--out", str(tmp_path / "report.txt"))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert "points per seat" in text and "share of the seat's games" in text
    seat2 = next(line for line in text.splitlines() if line.startswith("│ 2 ") and "–" in line and "random" not in line)
    assert f"{data['points']['2']['mean']:.2f}" in seat2 and f"{data['points']['2']['counts']['3'] / 8:.1%}" in seat2
    assert "points per seat" in (tmp_path / "report.html").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(run(*args, "--format", "csv").output)))
    assert ["points", "1.counts", "2", str(data["points"]["1"]["counts"]["2"])] in rows
    plain = run("simulate", "tic-tac-toe", "-n", "10", "--seed", "1")
    assert plain.exit_code == 0 and "points per seat" not in plain.output
    assert "points" not in json.loads(run("simulate", "tic-tac-toe", "-n", "10", "--format", "json").output)


def test_simulate_compare_gives_each_seat_s_mean_points_when_a_result_pays_different_points(tmp_path: Path) -> None:
    """--compare tested win rates, draws and length only: a designer changing how Backgammon pays (a gammon 2) could
    not see the mean points move between the runs.  The comparison now has each seat's mean points in both runs, their
    difference and Welch's p (text, JSON, CSV, the HTML page's report and a chart of both runs); a game paying only a
    win or a loss shows nothing new."""
    tables = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "tables")
    args = ("simulate", tables, "-n", "4", "--seed", "1", "--compare-set", "ask_forced=true")
    data = json.loads(run(*args, "--format", "json").output)
    other = json.loads(run("simulate", tables, "-n", "4", "--seed", "1", "--set", "ask_forced=true", "--format", "json").output)
    paid = data["compare"]["points"]
    for seat in ("1", "2"):
        assert paid[seat]["this"] == pytest.approx(data["points"][seat]["mean"])
        assert paid[seat]["other"] == pytest.approx(other["points"][seat]["mean"])
        assert paid[seat]["difference"] == pytest.approx(paid[seat]["this"] - paid[seat]["other"]) and 0 <= paid[seat]["p"] <= 1
    assert paid["1"]["difference"] != 0  # the seeds' games went otherwise: the runs differ
    result = run(*args, "--out", str(tmp_path / "report.txt"), "--html", str(tmp_path / "report.html"))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report.txt").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if "seat 1 mean points" in line)
    assert f"{paid['1']['this']:.2f}" in row and f"{paid['1']['other']:.2f}" in row and f"{paid['1']['difference']:+.2f}" in row
    assert "Welch's t-test for length and mean points" in text
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "seat 1 mean points" in page and "mean points per seat, with 95% intervals (this run, and the other below)" in page
    rows = list(csv.reader(io.StringIO(run(*args, "--format", "csv").output)))
    assert ["compare", "points.1", "p", str(paid["1"]["p"])] in rows
    # only one run pays varying points: how they move is still the point
    either = json.loads(run("simulate", "tic-tac-toe", "-n", "4", "--compare", "kuhn-poker", "--format", "json").output)
    assert set(either["compare"]["points"]) == {"1", "2"} and "points" not in either
    plain = run("simulate", "tic-tac-toe", "-n", "4", "--compare", "tic-tac-toe", "--html", str(tmp_path / "plain.html"))
    assert plain.exit_code == 0 and "mean points" not in plain.output
    assert "mean points" not in (tmp_path / "plain.html").read_text(encoding="utf-8")
    assert "points" not in json.loads(run("simulate", "tic-tac-toe", "-n", "4", "--compare", "tic-tac-toe",
                                          "--format", "json").output)["compare"]


def test_simulate_html_charts_each_seat_s_mean_points_only_when_they_vary(tmp_path: Path) -> None:
    """The HTML page charted win rates, lengths and components: the points a seat's results paid were in its text
    alone.  A chart of each seat's mean points with its 95% interval is drawn when they vary, and not otherwise."""
    from cli.web.charts import points_chart
    from engine.runner.simulate import simulate

    report = simulate(engine.load("kuhn-poker"), 2, 6, 0, "random")
    chart = points_chart(report)
    assert "mean points per seat, with 95% intervals" in chart and "other below" not in chart
    for seat, paid in report.points.items():
        assert f"this run: mean {paid.mean:.2f} ({paid.low:.2f} – {paid.high:.2f}) over 6 games" in chart
    assert points_chart(simulate(engine.load("tic-tac-toe"), 2, 6, 0, "random")) == ""


def test_simulate_points_of_many_values_give_their_range() -> None:
    """A count of discs pays dozens of values: a column each would fill the screen, so their range is given."""
    from cli.render import make_console
    from cli.report_tables import MAX_POINT_COLUMNS, points_table
    from engine.runner.significance import Points

    many = {value: 1 for value in range(10, 11 + MAX_POINT_COLUMNS)}
    buffer = io.StringIO()
    make_console(width=100, file=buffer).print(points_table({1: Points(many), 2: Points({10: 2})}))
    assert f"10 – {10 + MAX_POINT_COLUMNS}" in buffer.getvalue() and f"{MAX_POINT_COLUMNS + 1} different values" in buffer.getvalue()
    assert "│ 11 " not in buffer.getvalue()


def test_simulate_says_when_the_ranking_order_placed_items_tied_on_every_key(tmp_path: Path) -> None:
    """``points: [1, 0]`` on keys that always tie: seat 1 takes every game by the order ``rank`` lists the roles,
    and the report says so (it read as seat 1 winning 100% of games); ``points: key`` scores the tie as a draw."""
    tie = tmp_path / "tie.yaml"
    tie.write_text("name: always-tie\nextends: tic-tac-toe\nscoring:\n  rank: r in roles\n  by: [0]\n  points: [1, 0]\n",
                   encoding="utf-8")
    result = run("simulate", str(tie), "-n", "6", "--seed", "1")
    assert result.exit_code == 0 and "ties placed by order: 6 (100.0%)" in result.output, result.output
    assert "winners: first-ranked" in result.output
    data = json.loads(run("simulate", str(tie), "-n", "6", "--format", "json").output)
    assert data["games_tied_by_order"] == 6 and data["wins_by_seat"]["1"] == 6
    tie.write_text(tie.read_text(encoding="utf-8").replace("[1, 0]", "key"), encoding="utf-8")
    result = run("simulate", str(tie), "-n", "6", "--seed", "1")
    assert "shared wins (draws): 6" in result.output and "ties placed by order" not in result.output


def test_explain_says_items_tied_on_every_key_keep_the_order_of_the_ranking(tmp_path: Path) -> None:
    """Regression: explain listed the keys and the points by rank, and not that items tied on every key keep the
    order 'rank' lists them (seat 1's role first), so a ruleset whose keys always tie read as fair."""
    tie = tmp_path / "tie.yaml"
    tie.write_text("name: always-tie\nextends: tic-tac-toe\nscoring:\n  rank: r in roles\n  by: [0]\n  points: [1, 0]\n",
                   encoding="utf-8")
    result = run("explain", str(tie))
    assert "items still tied keep the order of r in roles (the first listed takes the better place)" in result.output
    assert "still tied" not in run("explain", "tic-tac-toe").output  # points: key scores a tie alike


class _Bar:
    """A stand-in for the progress bar: what it was told."""

    def __init__(self, console: object) -> None:
        self.updates: list[dict[str, object]] = []
        BARS.append(self)

    def __enter__(self) -> "_Bar":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: int) -> int:
        return 0

    def update(self, task: int, **changes: object) -> None:
        self.updates.append(changes)


BARS: list[_Bar] = []


@pytest.mark.parametrize(("n", "jobs", "counted"), [(1, "1", True), (1, "2", True), (12, "1", False), (4, "2", False)])
def test_a_few_games_show_the_decisions_of_the_game_being_played(monkeypatch: pytest.MonkeyPatch, n: int, jobs: str,
                                                                  counted: bool) -> None:
    """Regression: the bar counted games only, so 'simulate -n 1' with a slow bot showed nothing but the clock until
    the end; a few games played in this process now show the decisions of the one being played."""
    from cli import console, render

    monkeypatch.setattr(console, "progress_bar", _Bar)
    made = render.make_console
    monkeypatch.setattr(render, "make_console", lambda **kw: made(**kw, file=io.StringIO()) if "file" not in kw else made(**kw))
    monkeypatch.setattr(console.SafeConsole, "is_terminal", property(lambda self: True))
    BARS.clear()
    result = run("simulate", "tic-tac-toe", "-n", str(n), "--seed", "1", "--jobs", jobs)
    assert result.exit_code == 0, result.output
    said = [str(u["description"]) for u in BARS[0].updates if "description" in u]
    assert ("playing tic-tac-toe: game 1, decision 1" in said) == counted, said
    assert BARS[0].updates[-1]["completed"] == n


def test_a_solo_simulation_does_not_say_the_ruleset_lacks_a_running_score() -> None:
    assert engine.load(RULESET).running_score is not None  # it has one; one player has nobody to lead
    result = run("simulate", RULESET, "-n", "3", "--players", "1")
    assert result.exit_code == 0 and "games nobody won" in result.output
    assert "lead changes" not in result.output and "first player" not in result.output


def test_simulate_agents_per_seat() -> None:
    result = run("simulate", RULESET, "-n", "4", "--agents", "random, random", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.output)["agents"] == ["random", "random"]
    result = run("simulate", RULESET, "-n", "4", "--agents", "random,random,random")
    assert result.exit_code == 2
    assert "one per seat (2), not 3" in result.output


def test_simulate_csv_has_one_value_per_row() -> None:
    result = run("simulate", RULESET, "-n", "6", "--format", "csv")
    assert result.exit_code == 0
    rows = list(csv.reader(io.StringIO(result.output)))
    assert rows[0] == ["section", "item", "statistic", "value"]
    assert all(len(row) == 4 for row in rows)
    assert ["run", "", "games", "6"] in rows
    cards = {row[1] for row in rows if row[0] == "content"}
    assert cards == set(engine.load(RULESET).component_names)


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_simulate_out_writes_the_report_to_a_file(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"report.{fmt}"
    result = run("simulate", RULESET, "-n", "4", "--format", fmt, "--out", str(out))
    assert result.exit_code == 0
    assert result.output.strip() == f"report written to {out}"
    text = out.read_text(encoding="utf-8")
    assert {"text": "95% interval", "json": '"wins_by_seat"', "csv": "section,item,statistic,value"}[fmt] in text


@pytest.mark.parametrize("command", [["simulate", RULESET, "-n", "4"], ["sweep", RULESET, "grid_width=[4, 5]", "-n", "2"]])
def test_out_ending_in_json_or_csv_writes_that_format_unless_format_says_otherwise(tmp_path: Path,
                                                                                  command: list[str]) -> None:
    csv_header = "grid_width,section,item" if command[0] == "sweep" else "section,item"
    for name, first in (("report.json", "{"), ("report.CSV", csv_header), ("report.txt", RULESET)):
        out = tmp_path / name
        assert run(*command, "--out", str(out)).exit_code == 0
        assert out.read_text(encoding="utf-8").startswith(first), name
    out = tmp_path / "table.json"
    assert run(*command, "--format", "text", "--out", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8").startswith(RULESET)


@pytest.mark.parametrize("command", [["simulate", "tic-tac-toe", "-n", "2"], ["sweep", RULESET, "grid_width=[4, 5]", "-n", "1"]])
def test_a_search_given_seconds_is_said_not_to_repeat_for_its_seed(command: list[str]) -> None:
    timed = run(*command, "--agents", "mcts:0.001s,random", "--format", "json")
    assert timed.exit_code == 0
    assert "note: mcts:0.001s searches for a time" in timed.stderr and "will not give the same report" in timed.stderr
    counted = run(*command, "--agents", "mcts:3,random", "--format", "json")
    assert counted.exit_code == 0 and "note:" not in counted.stderr


def test_simulate_compare_variant_on_the_same_seeds() -> None:
    args = ["simulate", RULESET, "-n", "30", "--players", "4", "--format", "json"]
    result = run(*args, "--compare-variant", "winner-takes-more")
    assert result.exit_code == 0
    compared = json.loads(result.output)["compare"]
    assert compared["variants"] == ["winner-takes-more"]
    assert all(d["difference"] == 0 and d["p"] == 1.0 for d in compared["seats"].values())


def test_simulate_compare_text_marks_significant_differences() -> None:
    result = run("simulate", RULESET, "-n", "60", "--compare", RULESET, "--compare-variant", "winner-takes-more")
    assert result.exit_code == 0
    assert "compared with iconoclasm-cards (variant winner-takes-more)" in result.output
    draws = next(line for line in result.output.splitlines() if "draws " in line and "points" in line)
    assert draws.rstrip(" │").endswith("*")  # 2 players: the new points table breaks every tie


def test_simulate_compare_usage_errors(tmp_path: Path) -> None:
    # was "tutorial-tiles is not played by 4 players": neither the counts it is played by nor what to give
    assert_usage_error(run("simulate", RULESET, "-n", "2", "--players", "4", "--compare", "tutorial-tiles"),
                       "Invalid value for --compare: tutorial-tiles is played by 2, 3 players, not 4: "
                       "give --players 2 or 3, a count both are played by")
    three = tmp_path / "three.yaml"
    three.write_text("name: three-tiles\nextends: tutorial-tiles\nplayers: [3]\n", encoding="utf-8")
    assert_usage_error(run("simulate", "tic-tac-toe", "-n", "2", "--compare", str(three)),
                       "Invalid value for --compare: three-tiles is played by 3 players, not 2: "
                       "it shares no player count with tic-tac-toe")
    result = run("simulate", RULESET, "-n", "2", "--compare-variant", "nope")
    assert result.exit_code == 1 and "nope" in result.stderr


def test_simulate_rejects_unknown_agents() -> None:
    result = run("simulate", RULESET, "--agents", "oracle")
    assert result.exit_code == 2
    assert "known agents: random" in result.output


def test_bench_json_keys() -> None:
    result = run("bench", RULESET, "--playouts", "5", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["playouts"] == 5 and data["playouts_per_second"] > 0 and data["actions_per_game"] > 0


def test_bench_an_agent_without_iterations() -> None:
    result = run("bench", RULESET, "--agent", "greedy", "--decisions", "2")
    assert result.exit_code == 0
    assert "decisions/s" in result.output and "iterations/s" not in result.output


def test_bench_mcts_iterations_per_second() -> None:
    result = run("bench", RULESET, "--agent", "mcts:20", "--decisions", "2", "--repeat", "1", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["agent"] == "mcts:20" and data["iterations_per_second"] > 0
    text = run("bench", RULESET, "--agent", "mcts:20", "--decisions", "2", "--repeat", "1").output
    assert "iterations/s (20 per decision)" in text


def test_bench_of_one_run_says_one_run() -> None:
    """``--repeat 1`` printed "(fastest of 1 runs)"."""
    for args in (("--playouts", "5"), ("--agent", "greedy", "--decisions", "2")):
        output = run("bench", RULESET, *args, "--repeat", "1").output
        assert "(one run)" in output and "fastest of 1" not in output, output


@pytest.mark.parametrize("args", [("--decisions", "3"), ("--agent", "random", "--playouts", "3")])
def test_bench_refuses_a_count_it_would_ignore(args: tuple[str, ...]) -> None:
    # bench X --decisions 3 timed 500 random playouts; bench X --agent random --playouts 3 timed 10 decisions
    assert_usage_error(run("bench", RULESET, *args),
                       "--playouts times random games, without --agent; --decisions goes with --agent")


def test_bench_rejects_unknown_agents() -> None:
    result = run("bench", RULESET, "--agent", "oracle")
    assert result.exit_code == 2
    assert "known agents" in result.output


@pytest.mark.parametrize(("args", "flag"), [
    (("--playouts", "10000001"), "--playouts"),
    (("--repeat", "101"), "--repeat"),
    (("--agent", "random", "--decisions", "10001"), "--decisions"),
    (("--agent", "mcts:1e9s"), "--agent"),
])
def test_bench_caps_its_counts(args: tuple[str, ...], flag: str) -> None:
    # bench X --playouts 99999999999 (or an agent thinking 1e9 s a decision) was accepted and ran for ever
    result = run("bench", RULESET, *args)
    assert result.exit_code == 2 and flag in result.output and "Traceback" not in result.output


def test_invariants_and_agents_cap_their_counts() -> None:
    # check --invariants X --games 99999999999 and simulate --agents mcts:1e9s were accepted
    checked = run("check", "--invariants", RULESET, "--games", "10000001")
    assert checked.exit_code == 2 and "10000000" in checked.output
    searched = run("simulate", RULESET, "-n", "1", "--agents", "mcts:1e9s")
    assert searched.exit_code == 2 and "at most 3,600 seconds per decision" in searched.output


# ---------------------------------------------------------------- check


def test_check_passes_on_the_builtin_scenarios() -> None:
    result = run("check", str(RULESET_DIR / "scenarios"))
    assert result.exit_code == 0
    assert "PASS" in result.output and "FAIL" not in result.output
    assert " 0 failed" in result.output


def test_check_reports_a_failing_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text(
        "name: wrong expectation\nruleset: iconoclasm-cards\nplayers: 4\nexpect:\n  - count(c in board) == 5\n"
    )
    result = run("check", str(scenario), "--verbose")
    assert result.exit_code == 1
    assert "FAIL wrong expectation" in result.output
    assert "count(c in board) == 5" in result.output


def test_check_an_empty_folder_is_a_usage_error(tmp_path: Path) -> None:
    assert_usage_error(run("check", str(tmp_path)), f"no scenario files (*.yaml with 'ruleset:') in {tmp_path}")
    assert "--invariants" not in run("check", str(tmp_path)).output  # no ruleset there to play


def test_check_a_ruleset_without_scenarios_says_how_to_play_its_random_games() -> None:
    """'rulecraft check docs/examples/arena' (a ruleset with no scenario files) said only that there were none."""
    arena = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "arena")
    assert_usage_error(run("check", arena), f"no scenario files (*.yaml with 'ruleset:') in {arena}; to play random "
                                            f"games of a ruleset checking its invariants: rulecraft check --invariants {arena}")


def test_validate_and_check_take_a_built_in_ruleset_by_name() -> None:
    validated = CliRunner().invoke(main, ["validate", "tic-tac-toe"])
    assert validated.exit_code == 0 and "ok: " in validated.output and "tic-tac-toe" in validated.output
    checked = CliRunner().invoke(main, ["check", "tic-tac-toe"])
    assert checked.exit_code == 0 and ", 0 failed" in checked.output
    typo = CliRunner().invoke(main, ["validate", "tic-tac-to"])
    assert typo.exit_code == 2 and "Traceback" not in typo.output
    assert "no built-in ruleset of that name (did you mean 'tic-tac-toe'?)" in typo.output


def test_a_game_of_one_player_is_announced_in_the_singular(tmp_path: Path) -> None:
    """'Iconoclasm: 1 players, seed 2' at the head of play and replay."""
    log = tmp_path / "solo.json"
    result = run("play", "iconoclasm-cards", "--players", "1", "--seed", "2", "--log", str(log), input=ALWAYS_FIRST * 40)
    first = result.output.splitlines()[0]
    assert ": 1 player, seed 2;" in first, first
    assert ": 1 player, seed 2," in run("replay", str(log)).output.splitlines()[0]


def test_messages_about_a_game_for_one_player_say_one_player(tmp_path: Path) -> None:
    """'no scoring or goals for 1 players', 'solo is played by 1 players, not 2': the singular now."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: solo\nplayers: [1]\nturn:\n  - do: {effect: pass}\nend:\n  when: true\n")
    result = run("validate", str(tmp_path))
    assert "no 'scoring' or 'goals' for 1 player (" in result.output, result.output
    with (tmp_path / "ruleset.yaml").open("a") as f:
        f.write("scoring:\n  rank: r in roles\n  by: [1]\n  points: key\n")
    result = run("play", str(tmp_path), "--players", "2")
    assert "solo is played by 1 player, not 2" in " ".join(result.output.split()), result.output


@pytest.mark.parametrize("command, option", [("simulate", "--agents"), ("sweep", "--agents"), ("play", "--seat"),
                                             ("bench", "--agent")])
def test_every_option_naming_an_agent_lists_the_same_agents(command: str, option: str) -> None:
    # sweep's --agents said only "One agent for every seat, or one per seat", play's --seat "human or an agent",
    # bench's --agent "e.g. mcts:400, or random": only simulate's help told a file's class could play
    options = " ".join(run(command, "--help").output.split("Options:", 1)[1].split())
    shown = options.split(f"{option} ", 1)[1].split(" --", 1)[0]
    assert all(kind in shown for kind in ("random", "greedy", "mcts:N", "ismcts:N", "policy:FILE", "my_bots.py:Cautious"))


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_option_says_what_it_is_for(command: str) -> None:
    # serve --port and the --format of list, validate and bench showed a bare "[default: ...]"
    bare = [p.opts[0] for p in main.commands[command].params if isinstance(p, click.Option) and not p.help]
    assert bare == []


def test_the_hardening_page_names_every_command_taking_limit() -> None:
    # docs/hardening.md listed the commands with --limit without compile
    page = (Path(__file__).resolve().parent.parent / "docs" / "hardening.md").read_text(encoding="utf-8")
    listed = page.split("`--limit NAME=VALUE` changes it for one run on every\ncommand that loads rulesets (", 1)[1].split(")", 1)[0]
    taking = [name for name, command in main.commands.items()
              if any("--limit" in p.opts for p in command.params if isinstance(p, click.Option))]
    assert [name for name in taking if f"`{name}`" not in listed] == []


def test_validate_checks_the_game_with_options_set(tmp_path: Path) -> None:
    """validate had no --set: a designer could not check that the game still plays with an option changed (a zero
    that a score divides by is found only when the game is played with it)."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: shares\nplayers: [2]\noptions:\n  parts: {default: 2}\nturn:\n  - do: {effect: pass}\n"
        "end:\n  when: true\nscoring:\n  rank: r in roles\n  by: [12 / parts]\n  points: key\n")
    assert run("validate", str(tmp_path)).output.strip() == f"ok: {tmp_path}"
    assert run("validate", str(tmp_path), "--set", "parts=3").output.strip() == f"ok: {tmp_path} (with parts=3)"
    result = run("validate", str(tmp_path), "--set", "parts=0")
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and "set from outside the ruleset's files: --set parts=0" in text, result.output
    assert "ruleset.yaml:11:11: a game of 2 players, set up, fails before anyone decides: division by zero" in text, result.output
    result = run("validate", str(tmp_path), "--set", "prats=3")
    assert result.exit_code == 1 and "no option 'prats' in this ruleset" in result.output and "did you mean 'parts'" in result.output
    assert "is not NAME=VALUE" in run("validate", str(tmp_path), "--set", "parts").output


def test_an_option_set_from_the_command_line_is_told_as_read_and_once() -> None:
    """``--set board_size=0x10`` was said back as written (it is 16); ``--set board_size=3 --set board_size=5`` kept
    the last silently; an error on the second line of a value's YAML read ``--set rank_points:2:4:``."""
    assert run("validate", "tutorial-tiles", "--set", "board_size=0x10").output.strip().endswith(
        "tutorial-tiles (with board_size=16)")
    assert_usage_error(run("simulate", "tutorial-tiles", "--set", "board_size=3", "--set", "board_size=5"),
                       "Invalid value for --set: board_size is set twice, to 3 and to 5: give it once")
    result = run("validate", "tutorial-tiles", "--set", "rank_points=[3, 1, 0\n, x")
    assert result.exit_code == 1 and result.output.startswith("--set rank_points (line 2, column 4): invalid YAML"), \
        result.output


def test_a_path_whose_last_part_is_misspelt_is_told_the_name_there(tmp_path: Path) -> None:
    """'validate my-game/ruleset.yml' and 'check my-game/scenario' said only "Path ... does not exist"."""
    (tmp_path / "ruleset.yaml").write_text("name: x\n")
    (tmp_path / "scenarios").mkdir()
    assert "does not exist (did you mean 'ruleset.yaml'?)." in run("validate", str(tmp_path / "ruleset.yml")).output
    assert "does not exist (did you mean 'scenarios'?)." in run("check", str(tmp_path / "scenario")).output


def test_validate_set_checks_a_variant_without_the_option_as_it_plays(tmp_path: Path) -> None:
    """validate --set parts=3 of a valid ruleset whose variant drops the option (options: null) failed: "no option
    'parts' in this ruleset ... (with variant 'fixed')". The variant is checked without it, as it plays."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: shares\nplayers: [2]\noptions:\n  parts: {default: 2}\nturn:\n  - do: {effect: pass}\n"
        "end:\n  when: true\nscoring:\n  rank: r in roles\n  by: [12 / parts]\n  points: key\n"
        "variants:\n  fixed:\n    description: halves\n    options: null\n    scoring: {rank: r in roles, by: [6], points: key}\n"
        "  other:\n    description: the same\n    end: {when: true}\n")
    result = run("validate", str(tmp_path), "--set", "parts=3")
    assert (result.exit_code, result.output.strip()) == (0, f"ok: {tmp_path} (with parts=3)"), result.output
    result = run("validate", str(tmp_path), "--set", "part=3")  # a misspelt option is still refused
    assert result.exit_code == 1 and "did you mean 'parts'" in result.output, result.output


def test_validate_set_checks_an_option_only_a_variant_declares(tmp_path: Path) -> None:
    """validate --set parts=0 of a ruleset whose variant alone declares 'parts' was refused at the ruleset as written
    ("no option 'parts' in this ruleset"), so the variant could not be checked with it; a name no variant declares is
    still refused."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: shares\nplayers: [2]\nturn:\n  - do: {effect: pass}\n"
        "end:\n  when: true\nscoring:\n  rank: r in roles\n  by: [6]\n  points: key\n"
        "variants:\n  split:\n    description: shares\n    options:\n      parts: {default: 2}\n"
        "    scoring: {rank: r in roles, by: [12 / parts], points: key}\n")
    assert run("validate", str(tmp_path), "--set", "parts=3").output.strip() == f"ok: {tmp_path} (with parts=3)"
    result = run("validate", str(tmp_path), "--set", "parts=0")
    assert result.exit_code == 1 and "division by zero (with variant 'split')" in " ".join(result.output.split()), result.output
    result = run("validate", str(tmp_path), "--set", "prats=3")
    assert result.exit_code == 1 and "no option 'prats' in this ruleset" in result.output, result.output


def test_validate_reports_an_option_a_variant_declares_and_nothing_reads(tmp_path: Path) -> None:
    """An option declared in a variant and read nowhere was not reported: the variant's own 'options:' entry, part
    of the ruleset's text, counted as a reading of it."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: shares\nplayers: [2]\nturn:\n  - do: {effect: pass}\n"
        "end:\n  when: true\nscoring:\n  rank: r in roles\n  by: [6]\n  points: key\n"
        "variants:\n  split:\n    description: shares\n    options:\n      parts: {default: 2}\n"
        "  used:\n    description: read\n    options:\n      halves: {default: 2}\n    scoring: {rank: r in roles, by: [halves], points: key}\n")
    result = run("validate", str(tmp_path))
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and "ruleset.yaml:15:7: option 'parts' is read nowhere" in text, result.output
    assert "(with variant 'split')" in text and "'halves'" not in text, result.output


def test_agents_of_several_seats_written_with_a_space_are_told_the_comma() -> None:
    result = run("simulate", "tutorial-tiles", "--agents", "greedy random", "-n", "2")
    assert_usage_error(result, "Invalid value for --agents: unknown agent 'greedy random'")
    assert " ".join(result.output.split()).endswith(
        "(the agents of several seats are separated by commas: greedy,random)")


@pytest.mark.parametrize(("args", "told"), [
    (["simulate", "tutorial-tiles", "--agents", "greedy", "random"],
     "Got unexpected extra argument (random): --agents takes one value: separate the agents of several seats by "
     "commas, without spaces (--agents greedy,random)"),
    (["sweep", "tutorial-tiles", "grid_width=[4, 5]", "--agents=greedy", "random", "mcts:4"],
     "Got unexpected extra arguments (random mcts:4): --agents takes one value: separate the agents of several "
     "seats by commas, without spaces (--agents greedy,random,mcts:4)"),
    (["simulate", "tutorial-tiles", "--set", "board_size", "4"],
     "Got unexpected extra argument (4): --set takes NAME=VALUE as one word: --set board_size=4"),
    (["new", "my", "game"], "Got unexpected extra argument (game): NAME takes one word: put a name with spaces in "
     "quotes ('my game'), or join its words (my-game)"),
    (["play", "tutorial-tiles", "--seat", "1=greedy", "2=random"],
     "Got unexpected extra argument (2=random): --seat takes one value: give it again for each "
     "(--seat 1=greedy --seat 2=random)"),
])
def test_an_options_values_separated_by_spaces_are_told_how_to_write_them(args: list[str], told: str) -> None:
    """``--agents greedy random`` unquoted got only click's "Got unexpected extra argument (random)"."""
    result = run(*args)
    assert_usage_error(result, told)


def test_the_games_bar_shows_the_time_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of slow games (one long game between search bots) showed a bar standing at 0% and '-:--:--' left for
    minutes: the bar now shows the time spent too, which keeps moving."""
    import re

    from rich.console import Console

    from cli import render

    screen = io.StringIO()
    made = render.make_console
    monkeypatch.setattr(render, "make_console", lambda stderr=False, **kw: Console(file=screen, force_terminal=True, width=120)
                        if stderr else made(**kw))
    assert run("simulate", "tic-tac-toe", "-n", "3").exit_code == 0
    assert "playing tic-tac-toe" in screen.getvalue()
    assert re.search(r"(-:--:--|\d:\d\d:\d\d)\S* +\S*\d:\d\d:\d\d", screen.getvalue()), screen.getvalue()


@pytest.mark.parametrize("module", ["cli", "cli.main"])
def test_python_dash_m_runs_the_command(module: str) -> None:
    """``python -m cli.main ...`` printed nothing and exited 0 (the module had no entry of its own): where the console
    script is not on the path, ``python -m cli`` (or ``cli.main``) is the command."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0 and done.stdout.startswith("rulecraft "), (done.stdout, done.stderr)


def test_check_of_a_folder_compiles_each_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """rulecraft check compiled a scenario's ruleset again for every scenario of a folder (a folder of thirty scenarios
    of one game, thirty compiles): each game, the same variants and options, is compiled once per run now."""
    compiled = _count_compiles(monkeypatch)
    folder = Path(__file__).resolve().parent.parent / "rulesets" / "tic-tac-toe" / "scenarios"
    result = run("check", str(folder))
    files = len(list(folder.glob("*.yaml")))
    assert result.exit_code == 0 and f"{files} passed, 0 failed" in result.output
    assert files > 1 and len(compiled) == 1
    compiled.clear()
    assert run("check", str(folder)).exit_code == 0 and len(compiled) == 1  # once per run, not once per process


def _count_compiles(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The paths of the rulesets compiled by what shares compiled games (check, validate), as they are compiled."""
    import engine.runner.shared_games

    compiled: list[Path] = []
    real = engine.runner.shared_games.load_path

    def load_path(path: Path, *args: object) -> engine.Game:
        compiled.append(path)
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.runner.shared_games, "load_path", load_path)
    return compiled


def test_validate_of_a_folder_compiles_a_ruleset_once_for_its_check_and_its_scenarios(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """validate of a folder of rulesets checked each ruleset, then compiled it again for its scenarios (the shipped
    folder took 64 s, 'validate exited 124' where a check timed it): one compile serves both now."""
    shutil.copytree(Path(__file__).resolve().parent.parent / "rulesets" / "tic-tac-toe", tmp_path / "games" / "ttt")
    for scenario in (tmp_path / "games" / "ttt" / "scenarios").glob("*.yaml"):  # each plays the copy
        scenario.write_text(scenario.read_text(encoding="utf-8").replace("ruleset: tic-tac-toe", "ruleset: .."),
                            encoding="utf-8")
    compiled = _count_compiles(monkeypatch)
    result = run("validate", str(tmp_path / "games"))
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "games" / "ttt" / "scenarios").glob("*.yaml"))) > 1
    assert [path.name for path in compiled] == ["ruleset.yaml"]  # no variants, no scenario sets an option
