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


def test_a_let_reading_a_later_let_is_told_that_lets_are_computed_in_order(tmp_path: Path) -> None:
    """It was told that 'b' exists only inside a loop naming it, as a name nothing makes is."""
    found = validate(tmp_path, "functions:\n  f(int n):\n    let:\n      a: b + 1\n      b: n\n    is: a\n")
    assert found == ["hints.yaml:6:10: unknown name 'b' ('b' is a let below this one: lets are computed in order, so "
                     "put 'b' above)"]


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


def test_a_function_whose_name_is_taken_is_told_so_at_its_calls(tmp_path: Path) -> None:
    """A function refused for its name (``tiles``, every tile) was told unknown at each call, with the hint to define
    it under 'functions:', where it is written."""
    found = validate(tmp_path, "functions:\n  tiles(role r): 1\n  twice(role r): 2 * tiles(r)\n")
    assert found[1:] == ["hints.yaml:5:22: unknown function 'tiles' ('tiles' is written under 'functions:', but its "
                         "name is taken, reported there: rename the function and its calls)"]


def test_a_call_of_a_function_taking_a_built_in_name_says_it_is_the_rulesets_own(tmp_path: Path) -> None:
    """A ruleset's own ``count(role r)`` takes the place of the built-in count(): the built-in's uses elsewhere are
    told they call the ruleset's."""
    found = validate(tmp_path, "functions:\n  count(role r): 1\nend:\n  when: count(hand(Sun)) == 0\n")
    assert ("hints.yaml:6:15: the argument 'r' of count() must be a symbol, but 'the hand of Sun' is a zone (this "
            "count() is the ruleset's own, 'count(role r)' under 'functions:', which takes the place of the built-in "
            "count(): rename it to call the built-in)") in found


def test_a_zone_parameter_is_told_to_be_a_list_of_what_it_holds(tmp_path: Path) -> None:
    found = validate(tmp_path, "functions:\n  total(zone z): 1\n")
    assert found == ["hints.yaml:4:9: unknown type 'zone' for parameter 'z' (a zone is given as the list of what it "
                     "holds: write 'list of tile z' (or 'list of component z'), and call it with the zone: "
                     "total(hand(r)))"]
    found = validate(tmp_path, "functions:\n  fits(tile c, zone z): 1\n")  # the zone's place among the arguments kept
    assert found[0].endswith("and call it with the zone: fits(c, hand(r)))"), found  # (it read fits(hand(r)))


def test_a_function_written_as_a_program_is_told_that_a_function_is_an_expression(tmp_path: Path) -> None:
    """A deal written once under 'functions:' for the setup and each new hand was told "syntax error: unexpected
    'shuffle'; expected ')', ...", which did not say that a function cannot change the game, nor how to write it once;
    and each call was then an unknown function. A body over several lines that is still one expression is fine."""
    found = validate(tmp_path, "functions:\n  deal(): |\n    move(t in tiles, supply)\n    shuffle(supply)\n"
                               "  many(): |\n    count(supply) >\n      2\n")
    assert found == ["hints.yaml:6:5: a function's body is one expression (a value or a condition), not a program: "
                     "lines that change the game (move, shuffle, a counter's '+=') run only in setup, a step's effect "
                     "and the other programs; write them there; to write them once, make it a procedure: move it "
                     "under 'procedures:' and run it as a line of a program"]
