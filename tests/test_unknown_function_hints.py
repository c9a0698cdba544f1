"""An unknown function's message points at ``functions:``: a function of the ruleset's own not written yet, one defined
further down the section than the function calling it, and one calling itself are each said as they are."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cli.main import main


def validate(tmp_path: Path, text: str) -> list[str]:
    """The message lines ``rulecraft validate`` gives a ruleset extending the tutorial with ``text`` added."""
    path = tmp_path / "hints.yaml"
    path.write_text("name: hints\nextends: tutorial-tiles\n" + text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    lines = result.output.replace(f"{tmp_path}/", "").splitlines()
    return [line for line in lines if line.startswith("hints.yaml")]


def test_a_function_nobody_defined_points_at_functions(tmp_path: Path) -> None:
    found = validate(tmp_path, "setup:\n  - name: deal\n    do: move(t in hand(opponent(Sun)), hand(Sun))\n")
    assert found == ["hints.yaml:5:24: unknown function 'opponent' (a ruleset defines its own functions under "
                     "'functions:', like 'opponent(role r): EXPRESSION')"]


def test_a_function_defined_below_its_caller_is_said_to_be_further_down(tmp_path: Path) -> None:
    found = validate(tmp_path, "functions:\n  ahead(role r): later(r) + 1\n  later(role r): 1\n")
    assert found == ["hints.yaml:4:18: unknown function 'later' ('later' is defined further down under 'functions:': a "
                     "function may use only the functions defined above it, so move 'later' above the one calling it)"]


def test_a_function_calling_itself_is_said_to_call_itself(tmp_path: Path) -> None:
    found = validate(tmp_path, "functions:\n  again(int n): again(n) + 1\n")
    assert found == ["hints.yaml:4:17: unknown function 'again' (a function may not call itself: 'again' can use only "
                     "the functions defined above it)"]


def test_code_after_the_section_is_not_told_a_defined_function_is_further_down(tmp_path: Path) -> None:
    """The hints about the section's order are for the section only: a typo elsewhere is still a near miss."""
    found = validate(tmp_path, "functions:\n  later(role r): 1\nsetup:\n  - name: deal\n    do: 'if latter(Sun) > 0: pass'\n")
    assert found == ["hints.yaml:7:13: unknown function 'latter' (did you mean 'later'?)"]


def test_a_call_of_a_function_whose_body_has_an_error_points_at_that_error(tmp_path: Path) -> None:
    """A function whose body did not compile was told unknown at each call, as if never written ("unknown function
    'worth' (a ruleset defines its own functions under 'functions:', like ...)"): the designer looked for a typo there."""
    found = validate(tmp_path, "functions:\n  worth(int n): if n > 1 then 2 elif n > 0 then 1 else 0\n"
                               "  twice(int n): 2 * worth(n)\n")
    assert found[1:] == ["hints.yaml:5:21: unknown function 'worth' ('worth' is written under 'functions:', but its "
                         "expression has a problem, reported there)"]
