"""A variant named twice or a name left empty beside a '+' is refused with the same message wherever variants are
named: each command's ``--variant`` (and ``--compare-variant``), a scenario's ``variant:``, the web page's
``?variant=`` and the OpenSpiel game's ``variant`` parameter.  All of them were accepted silently (``a+a`` played
``a`` once, ``a+`` played ``a``, ``+`` played the ruleset as written)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.core.errors import RulesetError
from engine.core.paths import find_ruleset

RULESET = "iconica"
VARIANT = "seat-one-starts"
TWICE = f"variant '{VARIANT}' is given twice: give it once"


def empty(text: str) -> str:
    return f"'{text}' leaves a variant name empty: variants are names joined by '+' (a+b), a name on each side of every '+'"


SLIPS = [([f"{VARIANT}+{VARIANT}"], TWICE), ([VARIANT, VARIANT], TWICE), (["+"], empty("+")),
         ([f"{VARIANT}+"], empty(f"{VARIANT}+")), ([f"+{VARIANT}"], empty(f"+{VARIANT}")),
         ([f"{VARIANT}++{VARIANT}"], empty(f"{VARIANT}++{VARIANT}"))]


@pytest.mark.parametrize(("texts", "message"), SLIPS)
def test_the_engine_refuses_a_name_twice_or_empty(texts: list[str], message: str) -> None:
    with pytest.raises(RulesetError) as caught:
        engine.load(RULESET, texts)
    assert str(caught.value) == message


def test_blank_text_names_no_variant_and_spaces_around_a_name_are_dropped() -> None:
    assert engine.load(RULESET, "").variants == engine.load(RULESET, [" ", ""]).variants == ()
    assert engine.load(RULESET, f" {VARIANT} ").variants == (VARIANT,)


@pytest.mark.parametrize("command", [
    ["play", RULESET, "--seat", "1=random", "--seat", "2=random"], ["simulate", RULESET, "-n", "1"],
    ["compile", RULESET], ["explain", RULESET], ["bench", RULESET, "--playouts", "1"],
    ["check", "--invariants", RULESET, "--games", "1"],
])
@pytest.mark.parametrize(("texts", "message"), [SLIPS[1], SLIPS[3]])
def test_every_command_taking_variants_says_the_same(command: list[str], texts: list[str], message: str) -> None:
    result = CliRunner().invoke(main, [*command, *(arg for text in texts for arg in ("--variant", text))])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert message in result.output


def test_compare_variant_says_the_same() -> None:
    result = CliRunner().invoke(main, ["simulate", RULESET, "-n", "1", "--compare-variant", "+"])
    assert result.exit_code == 1 and empty("+") in result.output, result.output


def test_a_scenario_names_its_variant_line(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    shutil.copytree(find_ruleset("iconoclasm").parent, folder)
    scenario = folder / "scenarios" / "setup-start-hexes-dealt.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("variant: dealt-start", "variant: dealt-start+"),
                        encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(scenario)])
    assert result.exit_code == 1 and f"setup-start-hexes-dealt.yaml:8:10: {empty('dealt-start+')}" in result.output, \
        result.output


def page_client() -> Any:
    """The web server's test client (the test is skipped without the web extra)."""
    testclient = pytest.importorskip("starlette.testclient")
    from cli.web.app import create_app

    return testclient.TestClient(create_app(None), follow_redirects=False)


@pytest.mark.parametrize(("query", "message"), [
    (f"{VARIANT}%2B{VARIANT}", TWICE), (f"{VARIANT}&variant={VARIANT}", TWICE), ("%2B", empty("+")),
    (f"{VARIANT}%2B", empty(f"{VARIANT}+")),
    # a '+' typed in the address arrived as a space: 'a+a' was an unknown variant 'a a', '+' no variant at all
    (f"{VARIANT}+{VARIANT}", TWICE), ("+", empty("+")),
])
def test_the_page_says_the_same(query: str, message: str) -> None:
    response = page_client().get(f"/play/{RULESET}?variant={query}")
    assert response.status_code == 400
    assert message.replace("'", "&#x27;") in response.text


def test_a_plus_typed_in_the_address_joins_variants() -> None:
    """The web page's documented ``variant=a+b``, typed in an address, was read as the unknown variant 'a b'."""
    client = page_client()
    response = client.get("/watch/iconoclasm-cards?variant=small-grid+winner-takes-more")
    assert response.status_code == 303, response.text
    table = client.get(f"/api/tables/{response.headers['location'].rsplit('/', 1)[1]}").json()
    assert "small-grid+winner-takes-more" in table["subtitle"]


@pytest.mark.parametrize(("variant", "message"), [(f"{VARIANT}+{VARIANT}", TWICE), (f"{VARIANT}+", empty(f"{VARIANT}+"))])
def test_the_openspiel_game_says_the_same(variant: str, message: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from engine.rl.openspiel import load_game

    with pytest.raises(RulesetError, match=f"^{re.escape(message)}$"):
        pyspiel.load_game(f"rulecraft(ruleset={RULESET},variant={variant})")
    with pytest.raises(RulesetError) as caught:
        load_game(RULESET, variant="+")  # a game string cannot hold it: OpenSpiel reads '+' alone as a number
    assert str(caught.value) == empty("+")
