"""Command-line tools a designer reaches for: --version, list --format json, sweep --out,
simulate --games FILE.csv (with a command that replays each game) and ``rulecraft new``."""

from __future__ import annotations

import csv
import json
import re
import shlex
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main
import engine
from engine.core.confine import allowing
from engine.core.paths import find_ruleset, schemas_dir


def run(*args: str, input: str | None = None) -> Result:
    """Invoke the CLI; fails the test on any traceback."""
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_version_prints_the_installed_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.output == f"rulecraft {version('rulecraft')}\n"


def test_list_as_json_names_every_builtin_with_its_players_and_variants() -> None:
    result = run("list", "--format", "json")
    assert result.exit_code == 0
    entries = json.loads(result.output)
    assert [e["name"] for e in entries] == engine.builtin_names()
    cards = next(e for e in entries if e["name"] == "iconoclasm-cards")
    game = engine.load("iconoclasm-cards")
    assert cards == {"name": "iconoclasm-cards", "title": game.title, "players": list(game.player_counts),
                     "variants": list(game.available_variants)}


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_sweep_out_writes_the_table_to_a_file(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"sweep.{fmt}"
    args = ("sweep", "tutorial-tiles", "board_size=[3, 4]", "-n", "4", "--format", fmt)
    result = run(*args, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.output == f"report written to {out}\n"
    written = out.read_text(encoding="utf-8")
    if fmt == "json":
        assert [r["value"] for r in json.loads(written)["runs"]] == ["3", "4"]
    elif fmt == "csv":
        assert written == run(*args).output  # the same table as on stdout
    else:
        assert "board_size" in written and "3 (baseline)" in written


def _games(tmp_path: Path, *args: str) -> list[dict[str, str]]:
    path = tmp_path / "games.csv"
    result = run("simulate", *args, "--games", str(path))
    assert result.exit_code == 0, result.output
    assert f"games written to {path}" in result.output
    with path.open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_simulate_games_csv_has_one_row_per_game(tmp_path: Path) -> None:
    rows = _games(tmp_path, "tutorial-tiles", "-n", "6", "--agents", "random,greedy", "--players", "2")
    assert len(rows) == 6
    assert list(rows[0]) == ["game", "seed", "seat 1", "seat 2", "winner", "length", "score 1", "score 2",
                             "winners", "draw", "return 1", "return 2", "turns", "replay"]
    assert [r["game"] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    assert {(r["seat 1"], r["seat 2"]) for r in rows} == {("random", "greedy")}
    report = json.loads(run("simulate", "tutorial-tiles", "-n", "6", "--agents", "random,greedy", "--format", "json").output)
    assert sum(r["winner"] == "2" for r in rows) == report["wins_by_seat"]["2"]


@pytest.mark.parametrize("args", [
    ("tutorial-tiles", "--agents", "random,greedy", "--set", "board_size=4"),
    ("iconoclasm-cards", "--players", "3", "--variant", "chain-reactions"),
])
def test_simulate_games_csv_replay_command_plays_that_exact_game(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Running a row's command plays the same game: same actions count, winner and scores."""
    rows = _games(tmp_path, *args, "-n", "3", "--seed", "4")
    for row in rows:
        words = shlex.split(row["replay"])
        assert words[:2] == ["rulecraft", "play"] and "--seed" in words and row["seed"] in words
        played = run(*words[1:])
        assert played.exit_code == 0, played.output
        moves = [line for line in played.output.splitlines() if line.startswith("seat ") and "]: " in line]
        assert len(moves) == int(row["length"])
        seats = sum(1 for key in row if key.startswith("score "))
        scores = ", ".join(rf"seat {s}( \([^)]*\))?: {row[f'score {s}']}" for s in range(1, seats + 1))  # (its roles)
        assert re.search(f"scores: {scores}", played.output), played.output


def _extending(tmp_path: Path, scoring: str = "") -> tuple[Path, Path]:
    """A copy of the tutorial in ``base/`` and a ruleset beside it that extends it (``extends: ../base``)."""
    base, big = tmp_path / "base", tmp_path / "big"
    base.mkdir(parents=True)
    big.mkdir()
    (base / "ruleset.yaml").write_text(find_ruleset("tutorial-tiles").read_text(encoding="utf-8"), encoding="utf-8")
    (big / "ruleset.yaml").write_text(f"name: big\nextends: ../base\n{scoring}", encoding="utf-8")
    return base, big


def test_the_commands_that_play_a_game_again_name_the_folders_and_budgets_the_run_was_given(tmp_path: Path) -> None:
    """A ruleset read with --allow (or run with --limit) was printed a command without them: the CSV's replay
    and validate's 'watch it' were refused as printed (the base outside the folders it may read), or played under
    other budgets."""
    base, big = _extending(tmp_path)
    rows = _games(tmp_path, str(big), "--allow", str(base), "--limit", "steps=90000", "-n", "2", "--seed", "4")
    for row in rows:
        words = shlex.split(row["replay"])
        assert words[words.index("--allow") + 1] == str(base.resolve()) and "steps=90000" in words
        played = run(*words[1:])
        assert played.exit_code == 0, played.output
        assert re.search(rf"scores: seat 1( \([^)]*\))?: {row['score 1']}", played.output), played.output
    failing = _extending(tmp_path / "failing", "scoring:\n  by+:\n    - 10 / (count(t in board) - count(t in board))\n")[1]
    told = run("validate", str(failing), "--allow", str(failing.parent / "base"))
    assert told.exit_code == 1 and "division by zero" in told.output, told.output
    again = shlex.split(re.search(r"watch it: (.*)\)$", told.output, re.M).group(1))
    watched = run(*again[1:])
    assert "outside the folders" not in watched.output
    assert "division by zero" in watched.output, watched.output


def test_simulate_games_csv_with_compare_holds_both_runs_each_row_playing_its_own_game(tmp_path: Path) -> None:
    rows = _games(tmp_path, "tutorial-tiles", "-n", "3", "--seed", "4", "--compare-set", "board_size=4")
    assert [(r["run"], r["game"]) for r in rows] == [("this run", "1"), ("this run", "2"), ("this run", "3"),
                                                     ("other", "1"), ("other", "2"), ("other", "3")]
    assert [r["seed"] for r in rows[:3]] == [r["seed"] for r in rows[3:]]  # the same seeds
    for row in rows:
        assert ("--set board_size=4" in row["replay"]) == (row["run"] == "other")
        played = run(*shlex.split(row["replay"])[1:])
        assert re.search(rf"scores: seat 1( \([^)]*\))?: {row['score 1']}, seat 2( \([^)]*\))?: {row['score 2']}",
                         played.output), played.output


def test_simulate_games_csv_has_winners_a_draw_flag_and_returns_as_plain_values(tmp_path: Path) -> None:
    """The winner column mixes numbers and text (1 2 (draw), none); beside it, columns that need no parsing."""
    rows = _games(tmp_path, "tic-tac-toe", "-n", "30", "--seed", "1")
    kinds = {r["winner"].endswith("(draw)") or r["winner"] == "none" for r in rows}
    assert kinds == {True, False}  # some games are won, some not
    for row in rows:
        winners = row["winner"].removesuffix(" (draw)")
        assert row["winners"] == ("" if winners == "none" else winners)
        assert row["draw"] == str(row["winner"].endswith("(draw)"))
        returns = [float(row["return 1"]), float(row["return 2"])]
        won = [int(seat) for seat in row["winners"].split()]
        assert all(returns[seat - 1] > 0 for seat in won) and sum(returns) in (0.0, 1.0)


def test_simulate_games_is_the_number_of_games_as_sweep_and_check_spell_it(tmp_path: Path) -> None:
    """``simulate --games 100`` was refused ('not a .csv file'), where ``sweep --games 100`` and ``check --games 100``
    count the games: it counts them too, and a file ending .csv still gets the rows."""
    result = run("simulate", "tutorial-tiles", "--games", "7", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 7
    both = run("simulate", "tutorial-tiles", "--games", "7", "-n", "8")
    assert both.exit_code == 2 and "-n says 8 games and --games 7: give the number once" in both.output
    neither = run("simulate", "tutorial-tiles", "--games", "rows.txt")
    assert neither.exit_code == 2 and "'rows.txt' is neither a number of games nor a .csv file to write them to" in neither.output


def test_simulate_games_refuses_a_missing_folder_before_playing(tmp_path: Path) -> None:
    result = run("simulate", "tutorial-tiles", "--games", str(tmp_path / "nowhere" / "games.csv"))
    assert result.exit_code == 2
    assert f"there is no folder {tmp_path / 'nowhere'} to write the games in" in result.output
    assert "games in" not in result.output.split("Error")[0]  # nothing was simulated


@pytest.mark.parametrize("command, flag, what", [
    (("simulate", "tutorial-tiles"), "--out", "the report"),
    (("simulate", "tutorial-tiles"), "--html", "the report"),
    (("sweep", "tutorial-tiles", "board_size=[4, 5]"), "--out", "the table"),
])
def test_a_report_file_in_a_missing_folder_is_refused_before_playing(
    tmp_path: Path, command: tuple[str, ...], flag: str, what: str,
) -> None:
    # they played every game, then failed to write: "cannot write ...: No such file or directory (nothing was written)"
    result = run(*command, "-n", "3", flag, str(tmp_path / "nowhere" / "report.txt"))
    assert result.exit_code == 2
    assert f"there is no folder {tmp_path / 'nowhere'} to write {what} in" in result.output
    assert "games in" not in result.output and "nothing was written" not in result.output


# ---------------------------------------------------------------- rulecraft new


def test_new_copies_the_tutorial_validates_it_and_runs_its_scenario(tmp_path: Path) -> None:
    folder = tmp_path / "my-game"
    result = run("new", str(folder))
    assert result.exit_code == 0, result.output
    assert "ok: " in result.output and "1 scenario passes" in result.output
    ruleset = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    assert "\nname: my-game\n" in ruleset
    schema_line = ruleset.splitlines()[0].split("=", 1)[1]
    assert (folder / schema_line).resolve() == (schemas_dir() / "ruleset.schema.json").resolve()
    scenarios = list((folder / "scenarios").glob("*.yaml"))
    assert scenarios and all("\nruleset: ..\n" in p.read_text(encoding="utf-8") for p in scenarios)
    assert engine.load(str(folder)).name == "my-game"
    assert run("check", str(folder)).exit_code == 0
    assert run("validate", str(folder)).exit_code == 0

def test_new_s_help_names_the_default_it_copies() -> None:
    # it said "default: the smallest built-in one", but the default is the ruleset saying `starter: true` (the
    # tutorial), not the smallest (tic-tac-toe's YAML is smaller)
    from cli.new import smallest_builtin

    starter = smallest_builtin()
    assert "\nstarter: true" in find_ruleset(starter).read_text(encoding="utf-8")
    assert "default: the built-in ruleset that says 'starter: true'" in " ".join(run("new", "--help").output.split())


def test_new_from_a_ruleset_file_of_another_name_makes_its_ruleset_yaml(tmp_path: Path) -> None:
    # --from docs/examples/wide-tiles.yaml copied it as wide-tiles.yaml (with every scenario of docs/examples),
    # then failed: "my-wide/ruleset.yaml: No such file or directory"
    source = Path(__file__).resolve().parents[1] / "docs" / "examples" / "wide-tiles.yaml"
    folder = tmp_path / "my-wide"
    result = run("new", str(folder), "--from", str(source))
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml")) == ["ruleset.yaml", "scenarios/starts.yaml"]
    assert engine.load(folder).name == "my-wide"


@pytest.mark.parametrize("name", ["2048", "0x1f", "2001-01-01"])
def test_new_names_a_ruleset_that_reads_as_a_number_or_a_date_as_text(tmp_path: Path, name: str) -> None:
    result = run("new", str(tmp_path / name))
    assert result.exit_code == 0, result.output
    assert f"\nname: '{name}'\n" in (tmp_path / name / "ruleset.yaml").read_text(encoding="utf-8")
    assert engine.load(str(tmp_path / name)).name == name


def test_new_from_a_ruleset_with_included_files_points_them_at_the_fragment_schema(tmp_path: Path) -> None:
    folder = tmp_path / "spells"
    result = run("new", str(folder), "--from", "spell-cycles")
    assert result.exit_code == 0, result.output
    first = (folder / "spells.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert (folder / first.split("=", 1)[1]).resolve() == (schemas_dir() / "fragment.schema.json").resolve()


def test_new_writes_a_starter_scenario_when_the_source_has_none(tmp_path: Path) -> None:
    source = tmp_path / "bare"
    source.mkdir()
    text = (Path(engine.core.paths.find_ruleset("tutorial-tiles"))).read_text(encoding="utf-8")
    (source / "ruleset.yaml").write_text(text, encoding="utf-8")
    result = run("new", str(tmp_path / "fresh"), "--from", str(source))
    assert result.exit_code == 0, result.output
    assert "scenarios/starts.yaml" in result.output
    assert run("check", str(tmp_path / "fresh")).exit_code == 0


@pytest.mark.parametrize("name, message", [
    ("My_Game", "'My_Game' is not a ruleset name"),
    ("iconica", "'iconica' is the name of a built-in ruleset"),
])
def test_new_refuses_bad_names(tmp_path: Path, name: str, message: str) -> None:
    result = run("new", str(tmp_path / name))
    assert result.exit_code == 1
    assert message in result.output
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("folder", [".", "/"])
def test_new_refuses_a_folder_with_no_name_of_its_own(folder: str) -> None:
    """``rulecraft new .`` said "'' is not a ruleset name"."""
    result = run("new", folder)
    assert result.exit_code == 1
    assert f"'{Path(folder)}' names no new folder: give the new ruleset's folder, as rulecraft new my-game" in result.output


def test_new_refuses_a_folder_inside_one_that_does_not_exist(tmp_path: Path) -> None:
    result = run("new", str(tmp_path / "no-such-dir" / "my-game"))
    assert result.exit_code == 1
    assert f"there is no folder {tmp_path / 'no-such-dir'} to make my-game in" in result.output
    assert not (tmp_path / "no-such-dir").exists()


def test_new_refuses_a_path_that_climbs_out_of_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    """'new nothere/../../y' said only 'nothere/../../y: No such file or directory': the check of the folder it goes
    in read the path with its '..' taken away, as the system does not."""
    result = run("new", str(tmp_path / "nothere" / ".." / "y"))
    assert result.exit_code == 1
    assert (f"there is no folder {tmp_path / 'nothere' / '..'} (each folder a '..' follows must be there) to make y in"
            in " ".join(result.output.split()))
    assert not (tmp_path / "y").exists()


def test_new_refuses_an_existing_folder(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    result = run("new", str(tmp_path / "taken"))
    assert result.exit_code == 1
    assert "already exists" in result.output


def test_new_refuses_a_link_to_nothing_as_an_existing_folder(tmp_path: Path) -> None:
    """A link to a missing folder does not exist for Path.exists(): new went on and mkdir failed, "taken: File exists"."""
    (tmp_path / "taken").symlink_to(tmp_path / "gone")
    result = run("new", str(tmp_path / "taken"))
    assert result.exit_code == 1
    assert f"{tmp_path / 'taken'} already exists (a link); give a new folder" in result.output
    assert not (tmp_path / "gone").exists()


def test_new_leaves_no_half_made_folder_when_copying_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.new

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli.new, "_keep_base", full_disk)
    with pytest.raises(OSError):
        cli.new.create(tmp_path / "my-game")
    assert not (tmp_path / "my-game").exists()


# ---------------------------------------------------------------- no internal names in output


def test_state_repr_says_which_game_and_who_is_to_play() -> None:
    state = engine.load("tutorial-tiles").new_state(players=2, seed=3)
    role = state.current_role
    assert repr(state) == f"<tutorial-tiles, 2 players, turn {state.turn_number}: {role} (seat 1) to play>"
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    winners = " and ".join(f"seat {w}" for w in state.outcome.winners)
    assert repr(state) == f"<tutorial-tiles, 2 players, over after {state.turn_number} turns: {winners} won>"


def test_hidden_roles_stay_hidden_in_the_repr() -> None:
    state = engine.load("iconoclasm", "hidden-deities").new_state(players=3, seed=2)
    assert repr(state) == f"<iconoclasm, 3 players, turn {state.turn_number}: seat {state.current_player} to play>"


def test_a_counter_shown_false_is_not_drawn_with_the_board() -> None:
    from cli.zone_listing import counters

    state = engine.load("nine-domains").new_state(players=2, seed=1)
    game = state.game
    assert game.counters["elements_ignored"].shown is False
    lines = [str(line) for line in counters(state)]
    assert not any(line.startswith("elements_ignored") for line in lines)
    game.counters["elements_ignored"].shown = True  # the same game with the flag on shows it
    try:
        assert "elements_ignored: 0" in [str(line) for line in counters(state)]
    finally:
        game.counters["elements_ignored"].shown = False


@pytest.mark.parametrize("ruleset", ["tutorial-tiles", "nine-domains"])
def test_simulation_report_speaks_english_not_yaml_keys(ruleset: str) -> None:
    result = run("simulate", ruleset, "-n", "3")
    assert result.exit_code == 0
    assert "running_score" not in result.output
    assert "final margin in the running score" in result.output


def test_the_cli_writes_through_its_own_streams_not_click_get_text_stream() -> None:
    """csv output goes through a buffer (and --out), not click's get_text_stream, which newer clicks deprecate."""
    cli = Path(__file__).resolve().parent.parent / "cli"
    assert [p.name for p in cli.glob("*.py") if "get_text_stream" in p.read_text(encoding="utf-8")] == []


def test_new_from_a_ruleset_that_extends_a_path_keeps_its_base(tmp_path: Path) -> None:
    source = tmp_path / "mine" / "wide"
    source.mkdir(parents=True)
    (tmp_path / "mine" / "base").mkdir()
    base = Path(engine.core.paths.find_ruleset("tutorial-tiles")).read_text(encoding="utf-8")
    (tmp_path / "mine" / "base" / "ruleset.yaml").write_text(base.replace("name: tutorial-tiles", "name: base"), encoding="utf-8")
    (source / "ruleset.yaml").write_text("name: wide\nextends: ../base\noptions:\n  board_size: {default: 4}\n", encoding="utf-8")
    copy = tmp_path / "elsewhere" / "wider"
    copy.parent.mkdir()
    refused = run("new", str(tmp_path / "elsewhere" / "refused"), "--from", str(source))  # the base is outside
    assert refused.exit_code == 1 and "extended ruleset '../base' is outside the folders" in refused.output
    result = run("new", str(copy), "--from", str(source), "--allow", str(tmp_path / "mine" / "base"))
    assert result.exit_code == 0, result.output
    assert "extends: ../../mine/base\n" in (copy / "ruleset.yaml").read_text(encoding="utf-8")
    with allowing([tmp_path / "mine" / "base"]):
        assert engine.load(str(copy)).options["board_size"] == 4


def test_the_new_example_in_the_docs_is_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "rulesets.md").read_text(encoding="utf-8")
    shown = doc.split("```text\n$ rulecraft new my-game\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    assert run("new", "my-game").output == shown


def test_new_from_a_ruleset_outside_says_to_allow_its_folder_next_time(tmp_path: Path) -> None:
    """The copy of a ruleset extending '../base' validated under --allow, but 'next:' said to validate it without."""
    base, variant = tmp_path / "shared" / "base", tmp_path / "shared" / "variant"
    base.mkdir(parents=True)
    variant.mkdir()
    (base / "ruleset.yaml").write_text(Path(engine.core.paths.find_ruleset("tutorial-tiles")).read_text(encoding="utf-8"))
    (variant / "ruleset.yaml").write_text("name: variant\nextends: ../base\n", encoding="utf-8")
    result = run("new", str(tmp_path / "mine"), "--from", str(variant), "--allow", str(tmp_path / "shared"))
    assert result.exit_code == 0, result.output
    said = f"rulecraft validate {tmp_path / 'mine'} --allow {tmp_path / 'shared'} && "
    assert said in result.output, result.output
    assert run("validate", str(tmp_path / "mine"), "--allow", str(tmp_path / "shared")).exit_code == 0


def test_check_invariants_shows_its_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # simulate and sweep drew a progress bar on a terminal's stderr; check --invariants --games 100000 drew nothing
    import io

    from rich.console import Console

    from cli import console, render

    drawn = io.StringIO()

    def terminal(width: int | None = None, file: io.StringIO | None = None, stderr: bool = False) -> Console:
        """stderr as a terminal whose screen is ``drawn``; stdout as before."""
        return Console(file=drawn, force_terminal=True, width=100) if stderr else console.make_console(width, file)

    monkeypatch.setattr(render, "make_console", terminal)
    result = run("check", "--invariants", "tutorial-tiles", "--games", "3", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "tutorial-tiles, 2 players" in drawn.getvalue() and "tutorial-tiles, 2 players" not in result.output


@pytest.mark.parametrize("given, key", [("rulesets/tutorial-tiles/ruleset.yaml", "title"),
                                        ("rulesets/iconica/statuses.yaml", "statuses")])
def test_check_given_a_ruleset_file_says_it_is_no_scenario(given: str, key: str) -> None:
    """``rulecraft check my-game/ruleset.yaml`` ran the ruleset as a scenario file: "'ruleset' is a required
    property", then every ruleset key as an unknown one, and never that a scenario file was wanted."""
    result = run("check", str(Path(__file__).resolve().parent.parent / given))
    assert result.exit_code == 1, result.output
    assert f"this is a ruleset or a file one includes (it has '{key}:'), not a scenario file" in result.output
    assert "rulecraft check --invariants RULESET" in result.output
    assert "required property" not in result.output and "unknown key" not in result.output


def test_a_new_key_on_a_component_says_where_the_attribute_is_declared(tmp_path: Path) -> None:
    """A designer giving a new card a key its kind does not declare (an extending ruleset's 'bonus: 3') was told only
    "card has no attribute 'bonus'": neither what the kind has nor where a new attribute goes."""
    folder = tmp_path / "bonus-cards"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: bonus-cards\nextends: nine-domains\ncomponents:\n  card:\n    instances+:\n"
        "      - {id: extra, value: 1, sign: plain, special: true, bonus: 3}\n", encoding="utf-8")
    result = run("validate", str(folder))
    assert result.exit_code == 1
    assert "ruleset.yaml:6:59: card has no attribute 'bonus'" in result.output, result.output
    assert ("card's attributes: beats, loses_to, modifier, on_win, rule, sign, special, value; a new one is declared "
            "first, under 'components: card: attributes:' as 'bonus: TYPE'") in result.output, result.output


def test_a_value_a_pattern_cannot_hold_names_the_values_and_the_free_ones(tmp_path: Path) -> None:
    """A spell asking for an empty square ('pattern: [blue, none, blue]') was told only "unknown colour 'none' in an
    item of pattern": not which colours there are, nor that '_' and '$NAME' are what a pattern may hold besides."""
    folder = tmp_path / "hollow-spells"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: hollow-spells\nextends: spell-cycles\ncomponents:\n  spell:\n    instances+:\n"
        "      - {id: Hollow, pattern: [blue, none, blue], cost: 0, rule: x, effect: pass}\n", encoding="utf-8")
    result = run("validate", str(folder))
    assert result.exit_code == 1
    assert ("ruleset.yaml:6:38: unknown colour 'none' in an item of pattern (colour is one of red, yellow, green, blue, white, "
            "black; or '_' (any colour), '$' and a word (one colour, whichever, the same wherever the word is) or '.' "
            "(an empty square))") in result.output, result.output


@pytest.mark.parametrize("spell, message", [
    ("{id: Well, pattern: [blue, blue, blue, blue, .], shape: walled, cost: 0, rule: x, effect: pass}", None),
    ("{id: Well, pattern: [blue, ., blue], shape: winding, cost: 0, rule: x, effect: pass}",
     "ruleset.yaml:8:29: Well's 'pattern' asks for an empty square ('.'), which only a line or a template of top pieces "
     "can hold, not the chain 'winding'"),
    ("{id: Well, pattern: [., .], cost: 0, rule: x, effect: pass}",
     "ruleset.yaml:8:29: Well's 'pattern' lists only empty squares ('.'): a pattern needs at least one piece to find"),
])
def test_a_pattern_asks_for_an_empty_square_with_a_dot(tmp_path: Path, spell: str, message: str | None) -> None:
    """A spell could not ask for an empty square: 'none' was refused as an unknown colour and '.' too; now '.' is an
    empty square in a line or a template of top pieces, and refused where no empty square can lie."""
    folder = tmp_path / "walled"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "name: walled\nextends: spell-cycles\nshapes:\n  walled: {kind: template, cells: [[1, 0], [0, 1], [2, 1], [1, 2], [1, 1]]}\n"
        f"components:\n  spell:\n    instances+:\n      - {spell}\n", encoding="utf-8")
    result = run("validate", str(folder))
    if message is None:
        assert result.exit_code == 0, result.output
        explained = run("explain", str(folder)).output
        assert "Well: blue, blue, blue, blue, an empty square in the shape 'walled'" in explained, explained
    else:
        assert result.exit_code == 1 and message in result.output, result.output


def test_check_invariants_counts_one_game_in_the_singular() -> None:
    """hardening.md's `--seed 5 --games 1`, which plays one game again, printed '1 games'."""
    result = run("check", "--invariants", "tic-tac-toe", "--seed", "5", "--games", "1")
    assert result.exit_code == 0, result.output
    assert "  2 players: 1 game, " in result.output, result.output


def test_validate_s_advice_to_check_an_invariant_names_the_folders_the_run_was_allowed(tmp_path: Path) -> None:
    """'rulecraft check --invariants PATH plays many games checking it' left out --allow: for a ruleset extending a
    folder beside it, the command given was refused as printed; and a path with a space was printed unquoted."""
    base, big = _extending(tmp_path / "my games", "invariants+:\n  nothing in a hand: sum(count(t in hand(r)) for r in roles) == 0\n")
    told = run("validate", str(big), "--allow", str(base))
    assert told.exit_code == 1, told.output
    advice = re.search(r"\((rulecraft check --invariants .*) plays many games checking it\)", told.output).group(1)
    checked = run(*shlex.split(advice)[1:], "--games", "1")
    assert "outside the folders" not in checked.output
    assert "invariant 'nothing in a hand' broken" in checked.output, checked.output


def test_a_run_of_one_game_says_one_game_everywhere(tmp_path: Path) -> None:
    """simulate -n 1 printed '1 games' in its title, its balance line and its timing."""
    from click.testing import CliRunner

    from cli.main import main

    result = CliRunner().invoke(main, ["simulate", "tic-tac-toe", "-n", "1", "--games", str(tmp_path / "g.csv")])
    assert result.exit_code == 0, result.output
    assert "1 game," in result.output and "1 game could miss" in result.output and "1 game written" in result.output, result.output
    assert "1 games" not in result.output, result.output
