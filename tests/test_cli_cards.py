"""``rulecraft explain --component`` (alias ``--character``) and ``play`` drawing components on their meters."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from cli.main import main


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_explain_a_character_as_a_card() -> None:
    result = run("explain", "iconica", "--character", "Kestra")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Kestra — a character (2 copies)"
    assert "faction: Legion" in lines and "health: 110" in lines
    assert "health meter: 110 start · 100 · 90 · 80 reaction 10 · 70 · 60 · 50 · 40 parry · 30 · 20 · 10 · 0 skull" in lines
    assert any(line.startswith("  reaction 10 at 80: R-N: when an opponent's action") for line in lines)
    assert "1 Needle Cut: deal 20 damage to the foe of this character chosen by the current player (with the white die)" in lines
    assert any(line.startswith("4 [break] Drain Edge:") and line.endswith("(with the white or black die)") for line in lines)
    assert "strength: +10 damage against Hexers and Dreamweavers" in lines
    assert lines[-1].startswith("final act — Parting Cut: deal 20 damage")


def test_explain_a_character_with_a_delayed_action_and_any_case() -> None:
    result = run("explain", "iconica", "--component", "quill")
    assert result.exit_code == 0
    assert "later: deal 40 damage to target" in result.output


def test_explain_an_unknown_component_is_a_message() -> None:
    result = run("explain", "iconica", "--character", "Kestr")
    assert result.exit_code == 1
    assert "iconica has no component 'Kestr' (did you mean 'Kestra'?)" in result.output


def test_an_unknown_component_of_a_hundred_thousand_characters_is_quoted_cut() -> None:
    """The name typed was quoted whole: a message of 100,032 characters."""
    result = run("explain", "tic-tac-toe", "--component", "a" * 100_000)
    assert result.exit_code == 1
    assert result.output == f"tic-tac-toe has no component '{'a' * 59}... (100,002 characters)\n"


def test_an_empty_component_name_is_refused_not_read_as_no_option() -> None:
    """``--component ''`` printed the whole summary, as if the option had not been given, with exit status 0."""
    for name in ("", "  "):
        result = run("explain", "tic-tac-toe", "--component", name)
        assert result.exit_code == 2, result.output
        assert "Invalid value for --component: an empty text names no component" in result.output
        assert "Players" not in result.output


def test_explain_the_ruleset_shows_statuses_the_meter_and_phases() -> None:
    out = run("explain", "iconica").output
    for words in ("Statuses", "Poison (major, negative; lasts until removed)", "Meter", "antidote: prevents and removes Poison",
                  "opening phase:", "closing phase:", "Functions", "foe of c: every f in characters where"):
        assert words in out, words


def test_explain_reads_back_the_code_of_a_status_that_has_a_text() -> None:
    """A status with a 'text' was listed by its text alone: its hooks, the code that runs, were never read back,
    though docs/characters.md says explain lists statuses as it does actions (the code in English)."""
    lines = run("explain", "iconica").output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  Frostbite (unique, negative;"))
    assert lines[at + 1:at + 3] == ["    before_roll: deal 10 damage (status) to self",
                                    "    on_act: roll a d6 — on 1 to 2: the action fails; on 3 to 6: do nothing"]


def test_play_draws_each_character_on_its_meter_and_the_dice() -> None:
    result = run("play", "iconica", "--seed", "3", input="1\n" * 12 + "quit\n")
    out = result.output
    assert "dice: white" in out
    assert "party of Crimson (yours):" in out
    assert "█" in out and "skull" not in out.split("party of Crimson")[0]
    assert "health: Aelin-1" not in out  # the meter's counter is drawn with its components, not listed


def test_play_two_against_two() -> None:
    result = run("play", "iconica", "--players", "4", "--seed", "5", input="1\n" * 20 + "quit\n")
    assert result.exit_code == 0
    for role in ("Crimson", "Amber", "Azure", "Jade"):
        assert f"party of {role}" in result.output


# ---------------------------------------------------------------- docs/characters.md stays true

ROOT = Path(__file__).resolve().parent.parent
WALKTHROUGH = ROOT / "docs" / "characters.md"


def _fenced(text: str, opening: str) -> str:
    """The body of the first fenced block whose body starts with ``opening``."""
    start = text.index(opening)
    return text[start:text.index("```", start)]


def test_the_walkthrough_shows_the_card_explain_prints() -> None:
    shown = _fenced(WALKTHROUGH.read_text(encoding="utf-8"), "Ysolde — a character")
    printed = run("explain", "iconica", "--character", "Ysolde").output.splitlines()
    missing = [line for line in shown.splitlines() if line.strip() != "..." and line not in printed]
    assert not missing, missing


def test_the_walkthrough_quotes_the_shipped_character_and_scenario() -> None:
    doc = WALKTHROUGH.read_text(encoding="utf-8")
    character = (ROOT / "rulesets" / "iconica" / "characters" / "ysolde.yaml").read_text(encoding="utf-8")
    scenario = (ROOT / "rulesets" / "iconica" / "scenarios" / "walkthrough-ysolde.yaml").read_text(encoding="utf-8")
    for part in ("  Frostbite:\n    kind: unique\n    lasts: 2\n", "          1:\n            name: Chill Touch\n",
                 '          - {vs: "has(target, Frostbite)", do: "damage(target, 10)"'):
        assert part in doc and part in character, part
    quoted = _fenced(doc, "name: Ysolde and Frostbite")
    for line in quoted.splitlines():
        assert line in scenario.splitlines(), line


def test_the_walkthrough_quotes_the_reprisal_ruleset_and_its_scenario() -> None:
    doc = WALKTHROUGH.read_text(encoding="utf-8")
    folder = ROOT / "tests" / "data" / "reprisal"
    ruleset = (folder / "ruleset.yaml").read_text(encoding="utf-8").splitlines()
    scenario = (folder / "scenarios" / "final-act-strikes-back.yaml").read_text(encoding="utf-8").splitlines()
    for opening, source in (("statuses:\n  Marked:", ruleset), ("        actions:\n          1: {name: Brand", ruleset),
                            ("position:\n  zones:\n    party(Crimson): [Kestra, Vex]\n    party(Azure): [Warden", scenario)):
        for line in _fenced(doc, opening).splitlines():
            assert line in source, line


def test_play_shows_a_status_with_no_hooks_on_its_bearer() -> None:
    from engine.blocks.meters import draw
    from engine.blocks.statuses import give
    from engine.compiling.loading import load_path

    game = load_path(ROOT / "tests" / "data" / "reprisal" / "ruleset.yaml")
    s = game.new_state(2, seed=1)
    warden = game.component_ids["Warden"]
    def meter_line() -> str:
        drawing = draw(s, 1)
        assert drawing is not None
        return "".join(text for text, _ in drawing.components[warden])

    assert "Marked" not in meter_line()
    give(s, warden, "Marked")
    assert meter_line().endswith("  Marked")
