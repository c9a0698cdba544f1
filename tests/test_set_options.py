"""Options set from outside a ruleset's files: ``--set NAME=VALUE`` and ``engine.load(..., set_options=...)``.

A designer tries a changed rule without writing a file; the change travels
with everything the run produces (saves, replays, reports, worker processes)
and is refused where it does not fit.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main
import engine
from engine.compiling.loading import parse_set_options
from engine.core.compose import compose
from engine.core.set_options import apply_options
from engine.core.errors import RulesetError
from engine.model.savefile import SaveError
from engine.runner.replay import Replay, checked_playout

RULESET = "iconoclasm-cards"
TEXT = """\
name: r
players: [2]
options:
  width: {default: 7, doc: How wide.}
  label: plain
  ratio: 0.5
  anything: null
  table: {default: {a: 1, b: 2}}
variants:
  wide: {options: {width: {default: 9}}}
"""


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def tree_with(**set_options: str) -> dict:
    return apply_options(compose("r.yaml", text=TEXT), set_options)


def error_with(**set_options: str) -> RulesetError:
    """The error of options set on the command line (``--set``)."""
    with pytest.raises(RulesetError) as info:
        apply_options(compose("r.yaml", text=TEXT), set_options, dict.fromkeys(set_options, "--set"))
    return info.value


# --- the tree --------------------------------------------------------------------------------


def test_a_set_value_replaces_the_default_and_keeps_the_doc() -> None:
    tree = tree_with(width="4")
    assert tree["options"]["width"] == {"default": 4, "doc": "How wide."}
    assert tree["set_options"] == {"width": "4"}


def test_an_option_without_default_is_replaced_whole() -> None:
    assert tree_with(label="fancy")["options"]["label"] == "fancy"


def test_a_decimal_takes_a_whole_number_and_null_takes_anything() -> None:
    options = tree_with(ratio="2", anything="[1, 2]")["options"]
    assert options["ratio"] == 2 and options["anything"] == [1, 2]


def test_a_mapping_value_replaces_the_default_whole() -> None:
    assert tree_with(table="{c: 3}")["options"]["table"] == {"default": {"c": 3}}
    assert tree_with(table="{}")["options"]["table"] == {"default": {}}


def test_values_are_recorded_in_one_normal_form() -> None:
    assert tree_with(width="04", label="'on'")["set_options"] == {"width": "4", "label": "'on'"}


def test_a_set_option_goes_on_top_of_the_variants() -> None:
    tree = apply_options(compose("r.yaml", ["wide"], text=TEXT), {"width": "5"})
    assert tree["options"]["width"]["default"] == 5


@pytest.mark.parametrize(
    "text, key",
    [
        (TEXT + "set_options: {width: '9'}\n", "set_options"),
        (TEXT + "selected_variants: [wide]\n", "selected_variants"),
        (TEXT.replace("wide: {options:", "wide: {set_options: {width: '9'}, options:"), "set_options"),
    ],
)
def test_the_keys_the_loader_fills_in_cannot_be_written(text: str, key: str) -> None:
    with pytest.raises(RulesetError, match=f"'{key}' is filled in by the loader") as info:
        compose("r.yaml", text=text)
    assert info.value.diagnostics[0].pos is not None and info.value.diagnostics[0].pos.file == "r.yaml"


def test_nothing_set_leaves_the_tree_alone() -> None:
    tree = compose("r.yaml", text=TEXT)
    assert apply_options(tree, {}) is tree


def test_an_unknown_option_is_refused_with_the_known_ones_and_a_guess() -> None:
    diagnostic = error_with(widht="4").diagnostics[0]
    assert diagnostic.pos is None
    assert diagnostic.message == "--set widht=4: no option 'widht' in this ruleset (options: width, label, ratio, anything, table)"
    assert diagnostic.hint == "did you mean 'width'?"


def test_a_value_of_another_kind_is_refused_naming_the_option_and_the_value() -> None:
    """It was told at '--set width:1:1:', the value only on the line below."""
    err = error_with(width="four")
    assert err.diagnostics[0].pos is None
    assert err.format() == "--set width=four: option 'width' holds a whole number (7 in the ruleset), not text"
    assert "not a decimal number" in error_with(width="7.5").diagnostics[0].message
    assert "not true/false" in error_with(width="yes").diagnostics[0].message


def test_a_list_of_another_kind_of_item_is_refused_where_it_was_written() -> None:
    """set_options={'rank_points': '[a, b]'} passed, to fail in an invariant of the ruleset ('p' is a text) far from where it was set."""
    with pytest.raises(RulesetError) as info:
        engine.load(RULESET, set_options={"rank_points": "[a, b]"})
    assert info.value.format().splitlines()[0] == (
        "set_options['rank_points'] = '[a, b]': option 'rank_points' holds a list of whole numbers ([4, 3, 2, 1] in the ruleset), "
        "not a list with text: 'a'")
    assert engine.load(RULESET, set_options={"rank_points": "[5, 3]"}).options["rank_points"] == [5, 3]


def test_a_ruleset_without_options_says_so() -> None:
    with pytest.raises(RulesetError, match="options: none: this ruleset declares no options"):
        apply_options(compose("r.yaml", text="name: r\nplayers: [2]\n"), {"x": "1"})


@pytest.mark.parametrize(
    "texts, expected",
    [
        (["a=1"], {"a": "1"}),
        (["a = [1, 2]", "b=x=y"], {"a": "[1, 2]", "b": "x=y"}),
        (["a=1", "a = 1"], {"a": "1"}),
    ],
)
def test_parse_set_options(texts: list[str], expected: dict[str, str]) -> None:
    assert parse_set_options(texts) == expected


def test_an_option_set_twice_to_two_values_is_refused() -> None:
    """``--set need=1 --set need=5`` kept the last silently."""
    with pytest.raises(ValueError, match="^need is set twice, to 1 and to 5: give it once$"):
        parse_set_options(["need=1", "need=5"])


@pytest.mark.parametrize("text", ["a", "=1", " =1"])
def test_parse_set_options_refuses_text_without_a_name_and_value(text: str) -> None:
    with pytest.raises(ValueError, match="is not NAME=VALUE"):
        parse_set_options([text])


# --- the game --------------------------------------------------------------------------------


def test_a_set_option_changes_the_game_that_is_played() -> None:
    game = engine.load(RULESET, set_options={"grid_width": "3", "grid_height": "3"})
    assert game.set_options == {"grid_width": "3", "grid_height": "3"}
    assert game.content_hash != engine.load(RULESET).content_hash
    widths = set()
    for seed in range(20):
        result = checked_playout(game, 2, seed)
        assert result.ok, result.problem()
        state = game.new_state(players=2, seed=seed)
        for action in result.actions:
            state.apply(action)
            xs = [x for x, _ in state.grid]
            widths.add(max(xs) - min(xs) + 1 if xs else 0)
    assert max(widths) == 3  # the 3x3 limit is reached and never passed


def test_a_value_the_ruleset_cannot_use_is_reported_where_it_is_used_with_a_note() -> None:
    with pytest.raises(RulesetError) as info:
        engine.load(RULESET, set_options={"grid_width": "-3"})
    text = info.value.format()
    assert "'max_width' must be a whole number, 0 or more (or an option holding one), not -3" in text
    assert "note: these options were set from outside the ruleset's files: set_options['grid_width'] = '-3'" in text


def test_a_save_keeps_the_options_and_refuses_a_game_without_them() -> None:
    game = engine.load(RULESET, set_options={"rank_points": "[5, 3, 1, 0]"})
    state = game.new_state(players=2, seed=1)
    state.apply(state.legal_actions()[0])
    data = state.to_json()
    assert data["set_options"] == {"rank_points": "[5, 3, 1, 0]"}
    assert game.state_from_json(data) == state
    with pytest.raises(SaveError, match=r"played with options set rank_points=\[5, 3, 1, 0\], not none"):
        engine.load(RULESET).state_from_json(data)
    assert "set_options" not in engine.load(RULESET).new_state(players=2, seed=1).to_json()


def test_a_replay_records_the_options_and_plays_back_with_them(tmp_path: Path) -> None:
    game = engine.load(RULESET, set_options={"grid_width": "3"})
    state = game.new_state(players=2, seed=5, record=True)
    choose = random.Random(5)
    while not state.is_terminal:
        state.apply(choose.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    Replay.record(state, RULESET, seed=5).write(path)
    assert json.loads(path.read_text())["set_options"] == {"grid_width": "3"}
    log = Replay.read(path)
    again_game, again = log.start()
    log.play(again)
    assert again_game.set_options == {"grid_width": "3"} and again == state


def test_a_save_loads_in_a_game_with_the_same_options_however_they_were_written() -> None:
    state = engine.load(RULESET, set_options={"grid_width": "04"}).new_state(players=2, seed=1)
    again = engine.load(RULESET, set_options={"grid_width": "4"})
    assert again.state_from_json(state.to_json()) == state


def test_a_replay_with_damaged_options_is_refused() -> None:
    data = {"ruleset": RULESET, "players": 2, "seed": 0, "set_options": ["grid_width=3"]}
    with pytest.raises(SaveError, match="'set_options' must map option names to values written as text"):
        Replay.from_json(data, "log.json")


# --- the command line ------------------------------------------------------------------------


def test_simulate_with_a_set_option_names_it_and_plays_it_in_every_worker() -> None:
    args = ["simulate", RULESET, "-n", "24", "--set", "grid_width=3", "--format", "json"]
    one, two = run(*args), run(*args, "--jobs", "2")
    assert one.exit_code == 0, one.output
    report = json.loads(one.output)
    assert report["set_options"] == {"grid_width": "3"}
    assert json.loads(two.output) == report  # workers load the ruleset with the option too
    plain = json.loads(run("simulate", RULESET, "-n", "24", "--format", "json").output)
    assert plain["length"] != report["length"]
    assert run("simulate", RULESET, "-n", "4", "--set", "grid_width=3").output.startswith(
        f"{RULESET} (grid_width=3), 2 players, 4 games"
    )


def test_simulate_compare_set_runs_the_other_options_on_the_same_seeds() -> None:
    result = run("simulate", RULESET, "-n", "30", "--compare-set", "grid_width=3", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["set_options"] == {} and data["compare"]["set_options"] == {"grid_width": "3"}
    text = run("simulate", RULESET, "-n", "10", "--compare-set", "grid_width=3").output
    assert f"compared with {RULESET} (grid_width=3), same seeds" in text


@pytest.mark.parametrize("flag", ["--set", "--compare-set"])
def test_a_set_without_a_value_is_a_usage_error(flag: str) -> None:
    result = run("simulate", RULESET, "-n", "2", flag, "grid_width")
    assert result.exit_code == 2
    assert f"Invalid value for {flag}: 'grid_width' is not NAME=VALUE" in result.output


def test_an_unknown_option_on_the_command_line_exits_1_with_a_guess() -> None:
    result = run("bench", RULESET, "--playouts", "2", "--set", "grid_widht=3")
    assert result.exit_code == 1
    assert "no option 'grid_widht' in this ruleset" in result.output and "did you mean 'grid_width'?" in result.output


def test_explain_marks_the_options_that_were_set() -> None:
    result = run("explain", RULESET, "--set", "grid_width=5")
    assert "grid_width = 5 (set with --set)" in result.output
    assert "grid_height = 7:" in result.output


def test_bench_reports_the_options_set() -> None:
    result = run("bench", RULESET, "--playouts", "3", "--repeat", "1", "--set", "grid_width=4", "--format", "json")
    assert json.loads(result.output)["set_options"] == {"grid_width": "4"}


def test_check_invariants_with_a_set_option() -> None:
    result = run("check", "--invariants", RULESET, "--games", "3", "--players", "2", "--set", "grid_width=3")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{RULESET} (grid_width=3): checking")


def test_check_scenarios_refuse_a_set_option() -> None:
    scenarios = Path(__file__).resolve().parent.parent / "rulesets" / RULESET / "scenarios"
    result = run("check", str(scenarios), "--set", "grid_width=3")
    assert result.exit_code == 2 and "--set goes with --invariants" in result.output


def test_a_game_saved_with_options_loads_with_them(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run("play", RULESET, "--seed", "3", "--set", "grid_width=3", input=f"1\nsave {save}\nquit\n")
    assert result.exit_code == 0, result.output
    assert "(grid_width=3): 2 players, seed 3" in result.output
    loaded = run("play", "--load", str(save), input="quit\n")
    assert loaded.exit_code == 0, loaded.output
    assert "(grid_width=3): 2 players, seed 3" in loaded.output
    assert "(grid_width=3): 2 players, seed 3" in run("replay", str(save)).output
    refused = run("play", "--load", str(save), "--set", "grid_width=4")
    assert refused.exit_code == 2 and "--load takes the ruleset, variants, options" in refused.output


def test_the_python_api_may_pass_values_instead_of_text() -> None:
    game = engine.load(RULESET, set_options={"grid_width": 4, "rank_points": [5, 3, 1, 0]})
    assert game.options["grid_width"] == 4 and game.set_options == {"grid_width": "4", "rank_points": "[5, 3, 1, 0]"}


def _cyclic() -> list:
    items: list = []
    items.append(items)
    return items


@pytest.mark.parametrize(("value", "message"), [
    (object(), "a value set from Python is null, true or false, a number, a text, or a list or mapping of them, not object"),
    ({1, 2}, "not set {1, 2}"),
    (b"4", "not bytes b'4'"),
    ({1: 2}, "not dict {1: 2}"),
    (_cyclic(), "the value nests too deeply (limit yaml_depth=200"),
    (10 ** 200, "has more than 100 digits (limit integer_digits=100"),
    ([1, 10 ** 200], "has more than 100 digits (limit integer_digits=100"),
], ids=["object", "set", "bytes", "number-keys", "cyclic", "huge", "huge-item"])
def test_a_python_value_yaml_could_not_write_is_refused_by_name(value: object, message: str) -> None:
    """engine.load(..., set_options=...) took any Python value: an object or a cyclic list crashed with
    yaml's RepresenterError or RecursionError, a set or bytes was taken as it was, 10 ** 200 passed the digit limit."""
    with pytest.raises(RulesetError, match=re.escape(message)):
        apply_options(compose("r.yaml", text=TEXT), {"anything": value})


def test_a_python_value_reads_as_the_yaml_it_writes() -> None:
    numpy = pytest.importorskip("numpy")
    tree = apply_options(compose("r.yaml", text=TEXT), {"anything": (1, "on", None), "width": numpy.int64(4)})
    assert tree["options"]["anything"] == [1, "on", None] and tree["options"]["width"]["default"] == 4
    assert tree["set_options"] == {"anything": "[1, 'on', null]", "width": "4"}
    with pytest.raises(RulesetError, match="an option is named by its text, not 1"):
        engine.load(RULESET, set_options={1: "4"})  # type: ignore[dict-item]


@pytest.mark.parametrize("given", ["width=4", ["width=4"], [("width", "4")]])
def test_set_options_that_are_no_mapping_are_refused_by_name(given: object) -> None:
    """engine.load(NAME, set_options="width=4"), as --set writes it, crashed with "AttributeError: 'str' object has
    no attribute 'items'" (a list of pairs likewise)."""
    with pytest.raises(RulesetError, match=re.escape(f"set_options maps option names to their values ({{'width': '4'}}), "
                                                     f"not {given!r}")):
        engine.load(RULESET, set_options=given)  # type: ignore[arg-type]


def test_a_number_for_a_text_option_gets_a_hint_to_quote_it() -> None:
    diagnostic = error_with(label="5").diagnostics[0]
    assert diagnostic.message == "--set label=5: option 'label' holds text ('plain' in the ruleset), not a whole number"
    assert diagnostic.hint == "to mean text, quote it: --set label=\"'5'\""
    assert tree_with(label="'5'")["options"]["label"] == "5"


def test_the_python_api_is_answered_in_its_own_words_not_the_command_lines() -> None:
    with pytest.raises(RulesetError) as unknown:
        engine.load(RULESET, set_options={"grid_widht": "3"})
    assert str(unknown.value).startswith("set_options['grid_widht'] = '3': no option 'grid_widht' in this ruleset")
    with pytest.raises(RulesetError) as quoted:
        apply_options(compose("r.yaml", text=TEXT), {"label": "5"})
    assert quoted.value.diagnostics[0].hint == "to mean text, quote it: set_options['label'] = \"'5'\""
    for err in (unknown, quoted):
        assert "--set" not in err.value.format()


@pytest.mark.parametrize(("args", "words"), [
    (["simulate", RULESET, "-n", "2", "--set", "grid_width=-3"], "set from outside the ruleset's files: --set grid_width=-3"),
    (["simulate", RULESET, "-n", "2", "--compare-set", "grid_width=-3"], "files: --compare-set grid_width=-3"),
    (["sweep", RULESET, "grid_height=[3, 4]", "-n", "2", "--set", "grid_width=-3"], "files: --set grid_width=-3"),
    (["sweep", RULESET, "grid_height=[3, 4]", "-n", "2", "--set", "grid_widht=3"], "--set grid_widht=3: no option"),
])
def test_the_command_line_is_answered_in_its_flags_words(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 1 and words in result.output and "set_options" not in result.output, result.output


@pytest.mark.parametrize(("args", "label"), [
    (["simulate", RULESET, "-n", "2", "--compare-set", "grid_widht=3"], "--compare-set grid_widht=3: no option"),
    (["simulate", RULESET, "-n", "2", "--compare-set", "grid_width=three"], "--compare-set grid_width=three: option"),
    (["sweep", RULESET, "grid_width=[3, three]", "-n", "2"], "sweep grid_width=three: option"),
])
def test_a_wrong_value_names_the_flag_or_the_sweep_that_gave_it(args: list[str], label: str) -> None:
    result = run(*args)
    assert result.exit_code == 1 and label in result.output and "--set" not in result.output, result.output


def test_validate_names_the_option_and_the_value_it_was_given() -> None:
    """'rulecraft validate --set grid_width=three' was told at '--set grid_width:1:1:', which says neither the value
    nor that it was an option set (the value showed only under it)."""
    result = run("validate", RULESET, "--set", "grid_width=three")
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[0] == ("--set grid_width=three: option 'grid_width' holds a whole number "
                                             "(7 in the ruleset), not text")


def test_a_sweep_value_meant_as_text_is_told_to_quote_it_in_its_list() -> None:
    with pytest.raises(RulesetError) as err:
        apply_options(compose("r.yaml", text=TEXT), {"label": "4"}, {"label": "sweep"})
    assert err.value.diagnostics[0].hint == "to mean text, quote it: '4'"


def test_a_die_with_no_faces_is_one_problem_not_one_more_at_every_use_of_outcome() -> None:
    """'--set die_colours=[]' (no Knucklebone) was told at the faces, then again as 'cannot compare a colour with an
    int' at each use of the value rolled, which nothing had made a number."""
    import engine
    from engine.core.errors import RulesetError

    with pytest.raises(RulesetError) as info:
        engine.load("spell-cycles", set_options={"die_colours": "[]"})
    found = [d.message for d in info.value.diagnostics if not d.message.startswith("note: ")]
    assert found == ["'faces' must list the value on each face of the die (or name an option holding the list)"]


def test_an_empty_points_option_is_named_as_the_reason_a_ranking_pays_nothing() -> None:
    """'--set rank_points=[]' was told to "add 'points'", which the ruleset has: the option it names is empty."""
    with pytest.raises(RulesetError) as info:
        engine.load("iconoclasm-cards", set_options={"rank_points": "[]"})
    (problem,) = [d for d in info.value.diagnostics if not d.message.startswith("note: ")]
    assert problem.message.startswith("this ranking pays no points")
    assert problem.hint == ("the option 'rank_points' it names holds an empty list: give it the points paid by place "
                            "([1, 0, 0, 0] lets the first-ranked win)")  # up to four seats


@pytest.mark.parametrize("players, first", [("[1]", "[1]"), ("[2, 3]", "[1, 0, 0]"), ("[2]", "[1, 0]")])
def test_the_points_a_hint_offers_have_a_place_per_seat(tmp_path: Path, players: str, first: str) -> None:
    """The hints for a ranking paying nothing offered '[1, 0]' whatever the seats: two places for a game alone."""
    broken = Path(__file__).parent / "data" / "broken" / "scoring-without-points.yaml"
    path = tmp_path / "ruleset.yaml"
    path.write_text(broken.read_text(encoding="utf-8").replace("players: [2]", f"players: {players}"), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    (problem,) = [d for d in info.value.diagnostics if not d.message.startswith("note: ")]
    assert problem.hint.startswith(f"add 'points', the points paid by place: {first} lets the first-ranked win; ")


@pytest.mark.parametrize("points, held", [("[0, 0, 0]", ""), ("rank_points", "the option 'rank_points' holds [0, 0, 0]: ")])
def test_a_ranking_paying_0_to_every_place_is_refused_at_validate(tmp_path: Path, points: str, held: str) -> None:
    """'points: [0, 0, 0]' loaded and simulated: nobody could ever lead, so every game was a win shared by all."""
    text = (Path(__file__).resolve().parents[1] / "rulesets" / "tutorial-tiles" / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("  points: rank_points\n", f"  points: {points}\n").replace("default: [3, 1, 0]", "default: [0, 0, 0]")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        engine.load(path)
    (problem,) = [d for d in info.value.diagnostics if "ranking" in d.message]
    assert problem.message == (f"{held}this ranking pays 0 points to every place, so nobody can ever lead: every game would "
                               "end with all the seats sharing the win") and problem.pos.line == text[:text.index(f"  points: {points}")].count("\n") + 1
    assert "winners: first-ranked" in problem.hint
    if held:
        engine.load(path, set_options={"rank_points": "[1, 0, 0]"})  # paying the first place: it loads
    path.write_text(text.replace(f"  points: {points}\n", f"  points: {points}\n  winners: first-ranked\n"), encoding="utf-8")
    engine.load(path)  # the ranking itself decides who wins: the points are only shown


def test_a_misspelt_face_of_a_die_gets_a_suggestion() -> None:
    with pytest.raises(RulesetError) as info:
        engine.load("spell-cycles", set_options={"die_colours": "[red, blu]"})
    (problem,) = [d for d in info.value.diagnostics if not d.message.startswith("note: ")]
    assert problem.message.endswith("'blu' is not one of colour's values") and problem.hint == "did you mean 'blue'?"


def test_the_option_s_value_in_the_ruleset_is_written_as_in_yaml() -> None:
    """``--set chain_reactions=null`` said "holds true/false (False in the ruleset)": Python's word for YAML's false."""
    with pytest.raises(RulesetError) as info:
        engine.load(RULESET, set_options={"chain_reactions": "null"})
    assert "option 'chain_reactions' holds true/false (false in the ruleset), not null" in str(info.value)
