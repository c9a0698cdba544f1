"""Hostile rulesets that once hung the machine or exhausted its memory: each now stops at a named limit.

Every test runs ``rulecraft`` in a child process (see ``budget_cli.py``;
forked from one that has imported the command, a new interpreter in two of
them) and checks that it ends within 2 s of processor time and 300 MB with
a positioned error, exit status 1 and no traceback.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import pytest

import engine
from engine.core import limits
from engine.core.errors import EffectRuntimeError

from budget_cli import BASE, run_cli, write_ruleset


def _with(extra: str) -> str:
    """The small valid ruleset with ``extra`` added at its end."""
    return BASE + extra


def test_an_aliased_long_text_counts_its_length_each_time(tmp_path: Path) -> None:
    text = "x: &big " + "y" * 1_000_000 + "\ny: [" + ", ".join(["*big"] * 2000) + "]\n"
    path = write_ruleset(tmp_path, text)
    # A new interpreter, as a user starts it (the other tests fork theirs from one that has imported the command).
    run_cli(["validate", str(path)], fresh=True).assert_refused(str(path), "too much text", "yaml_text")


def test_merge_keys_count_the_entries_they_copy(tmp_path: Path) -> None:
    entries = ", ".join(f"k{i}: {i}" for i in range(1000))
    text = f"a: &a {{{entries}}}\n" + "".join(f"b{i}: {{<<: [*a, *a, *a, *a]}}\n" for i in range(400))
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(str(path), "yaml_nodes")


def test_many_counted_components_stop_at_the_total(tmp_path: Path) -> None:
    coins = ", ".join(f"{{id: c{i}, value: 1, count: 10000}}" for i in range(1000))
    path = write_ruleset(tmp_path, _components(BASE, coins))
    run_cli(["validate", str(path)]).assert_refused(str(path), "components in all", "--limit components=N")


def test_shuffling_a_large_zone_over_and_over_stops_at_the_step_budget(tmp_path: Path) -> None:
    """Each shuffle reordered 10,000 coins for one step of the budget: 100,000 of them ran for half an hour."""
    text = _components(BASE, "{id: c, value: 1, count: 10000}").replace(
        "  hand: {kind: hand, per: role}\n", "  hand: {kind: hand, per: role}\n  deck: {kind: pile}\n", 1)
    text = text.replace("setup: |\n", "setup: |\n  move(c in coins, deck)\n  repeat 100000:\n    shuffle(deck)\n", 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(f"{path}:26", "step budget in this shuffle", "--limit steps=N")


def test_the_place_of_components_in_a_large_zone_spends_the_step_budget(tmp_path: Path) -> None:
    """position(c) and following(c) look through the zone for c: an end condition summing them over 10,000 coins
    looked at 100 million components per test (most of a second) for 10,000 steps, so validate passed it, and a
    game of 1,000 turns tested it for ten minutes."""
    text = _components(BASE, "{id: c, value: 1, count: 10000}").replace(
        "  hand: {kind: hand, per: role}\n", "  hand: {kind: hand, per: role}\n  deck: {kind: pile}\n", 1)
    text = text.replace("setup: |\n", "setup: |\n  move(c in coins, deck)\n", 1)
    text = text.replace("  when: all(", "  when: sum(position(c) + position(following(c)) for c in coins) < 0 or all(", 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(f"{path}:30", "step budget in this position()", "--limit steps=N")


@pytest.mark.parametrize("collection", ["deck", "coins"])
def test_membership_in_a_large_zone_spends_the_step_budget(tmp_path: Path, collection: str) -> None:
    """'c in deck' (or in every coin) looked through 10,000 coins for no step of the budget: 50,000 of them took
    12 s of validate."""
    text = _components(BASE, "{id: c, value: 1, count: 10000}").replace(
        "  hand: {kind: hand, per: role}\n", "  hand: {kind: hand, per: role}\n  deck: {kind: pile}\n  spare: {kind: pile}\n", 1)
    text = text.replace("setup: |\n", "setup: |\n  move(c in coins, deck)\n  let top = first(x in spare)\n  repeat 50000:\n"
                        f"    if top in {collection}:\n      pass\n", 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(f"{path}:28", "step budget in this 'in' test", "--limit steps=N")


def test_a_long_chain_pattern_stops_at_the_step_budget(tmp_path: Path) -> None:
    """pattern_count of a chain of 16 wildcards looked at every path of stones on the board (7 s for 40 stones
    on a hex board of radius 4; three times longer for each two more), spending a step per stone read."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "hex-triads" / "ruleset.yaml").read_text()
    wild = ", ".join(['"_"'] * 30)
    text = text.replace("  radius: 2", "  radius: 4").replace("count: 12}", "count: 30}")
    text = text.replace("shapes:\n", "shapes:\n  path: {kind: chain}\n", 1)
    text = re.sub(r"(?m)^  when: .*$", f'  when: pattern_count("path", s.colour for s in board, [{wild}]) < 0', text)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(str(path), "step budget in this search for a chain", "--limit steps=N")


def test_a_turn_limit_of_a_billion_is_refused_at_its_value(tmp_path: Path) -> None:
    """An end that never comes with max_turns: 1000000000 made validate's random game pass turn after turn for hours."""
    text = BASE.replace("end:\n  when: all(count(t in hand(r)) == 0 for r in roles)\n",
                        "end:\n  when: count(t in board) < 0\n  max_turns: 1000000000\n", 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(f"{path}:26", "at most 10,000 turns, not 1,000,000,000",
                                                     "--limit turns=N")


def _components(base: str, coins: str) -> str:
    """``base`` with a second component kind, ``coin``, holding ``coins``."""
    kind = f"  coin:\n    attributes: {{value: int}}\n    instances: [{coins}]\n"
    return base.replace("board:", kind + "board:", 1)


def _doubling(levels: int) -> str:
    """Functions that each call the one before twice: f<levels> makes 2**levels calls."""
    lines = ["functions:", "  f1(int n): n + 1"]
    lines += [f"  f{k}(int n): f{k - 1}(n) + f{k - 1}(n) - f{k - 1}(n)" for k in range(2, levels + 1)]
    return "\n".join(lines) + "\n"


def test_functions_calling_each_other_twice_stop_at_the_step_budget(tmp_path: Path) -> None:
    text = _with(_doubling(40)).replace("setup: |\n", "setup: |\n  gold = f40(1)\n")
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)], fresh=True).assert_refused(str(path), "step budget", "call of 'f", "--limit steps=N")


def test_listing_numbers_over_and_over_stops_at_the_step_budget(tmp_path: Path) -> None:
    """numbers(1, 10000) made its list of 10,000 for nothing: a loop of 99,000 passes listing it each time spent
    99,000 steps and took 75 s for validate (a setup a player count, and its games)."""
    text = BASE.replace("setup: |\n", "setup: |\n  repeat 99000:\n    let all = numbers(1, 10000)\n", 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(f"{path}:21", "step budget in this numbers()", "--limit steps=N")


def test_numbers_listed_in_a_condition_spend_the_step_budget(tmp_path: Path) -> None:
    """The same in code that changes nothing, whose generated source listed the numbers itself: an end condition
    listing 10,000 numbers 90,000 times took over a minute for each test."""
    text = BASE.replace("  when: all(", "  when: sum(sum(nth(numbers(1, 10000), 1) for k in numbers(1, 9000)) "
                                         "for j in numbers(1, 10)) > 0 and all(", 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(f"{path}:25", "step budget in this numbers()", "--limit steps=N")


def test_combinations_of_long_lists_spend_a_step_per_item(tmp_path: Path) -> None:
    """combinations(numbers(1, 10000), 9999) makes 10,000 lists, within the most allowed, of 9,999 items each: they
    were charged 10,000 steps, 10% of the budget, for 800 MB and 8 s."""
    text = BASE.replace("setup: |\n", "setup: |\n  let n = count(h in combinations(numbers(1, 10000), 9999))\n", 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(f"{path}:20", "step budget in this combinations()",
                                                    "--limit steps=N")


def test_a_costly_end_condition_that_passes_validate_cannot_hang_simulate(tmp_path: Path) -> None:
    text = _with(_doubling(40)).replace("  when: all(", "  when: f40(count(t in board)) < 0 or all(")
    path = write_ruleset(tmp_path, text)
    ended = run_cli(["validate", str(path)])
    assert ended.code in (0, 1)
    ended.assert_bounded()
    run_cli(["simulate", str(path), "-n", "1"]).assert_refused(str(path), "step budget")


def test_selections_nested_through_functions_stop_at_the_step_budget(tmp_path: Path) -> None:
    coins = "{id: c, value: 1, count: 200}"
    functions = (
        "functions:\n"
        "  g1(int n): count(c in coins where c.value == n)\n"
        "  g2(int n): count(c in coins where g1(c.value) == n)\n"
        "  g3(int n): count(c in coins where g2(c.value) == n)\n"
    )
    text = _components(BASE, coins) + functions
    text = text.replace("  when: all(", "  when: g3(1) < 0 or all(")
    path = write_ruleset(tmp_path, text)
    run_cli(["simulate", str(path), "-n", "1"]).assert_refused(str(path), "step budget", "selection")


def test_functions_whose_calls_are_written_inline_many_times_over_compile_quickly(tmp_path: Path) -> None:
    """Each call written inline compiled the body again, and the calls in it were tried inline in turn: twelve
    functions each listing the one before six times (a 700-byte ruleset) compiled 6**12 bodies, for hours."""
    lines = ["functions:", "  g1(int n): '[" + ", ".join(["n"] * 6) + "]'"]
    lines += [f"  g{k}(int n): '[" + ", ".join([f"g{k - 1}(n)"] * 6) + "]'" for k in range(2, 13)]
    path = write_ruleset(tmp_path, _with("\n".join(lines) + "\n"))
    ended = run_cli(["validate", str(path)])
    assert ended.code == 0, ended.out + ended.err
    ended.assert_bounded()


def _wide(count: int) -> str:
    """A list of ``count`` comparisons of ``n``: thousands of syntax nodes of straight-line code."""
    return "[" + ", ".join(f"n > {i}" for i in range(count)) + "] == []"


@pytest.mark.parametrize("how", ["where", "function", "for"])
def test_a_loop_pass_running_thousands_of_nodes_spends_steps_for_them(tmp_path: Path, how: str) -> None:
    """A step paid for one loop pass or one call however long the code it ran: a condition after 'where' (or a
    function's body, or a 'for' body) of 2,000 comparisons, for each of 10,000 coins, made one test of the end
    condition (or the setup) run 20 million comparisons within its 100,000 steps: validate took 40 s for a 30 KB
    ruleset, and each more kilobyte of code made it longer."""
    text = _components(BASE, "{id: c, value: 1, count: 10000}")
    if how == "where":
        text = text.replace("  when: all(", f"  when: count(c in coins where {_wide(2000).replace('n >', 'c.value >')}) < 0 or all(")
    elif how == "function":
        text = text.replace("  when: all(", "  when: count(c in coins where big(c.value)) < 0 or all(")
        text += f"functions:\n  big(int n): '{_wide(2000)}'\n"
    else:
        body = "".join(f"    gold = gold + {i % 3} - {i % 3}\n" for i in range(1000))
        text = text.replace("setup: |\n", f"setup: |\n  for c in coins:\n{body}", 1)
    path = write_ruleset(tmp_path, text)
    # A fifth of the budget: the work up to it (2 million comparisons) stays well within the bound on time, which
    # 20 million comparisons (the code charged one step) would still pass many times over.
    run_cli(["validate", str(path), "--limit", "steps=20000"]).assert_refused(str(path), "step budget", "--limit steps=N")


ENDLESS = """\
name: endless
players: [2]
components:
  card:
    instances: [{id: a}, {id: b}]
zones:
  hand: {kind: hand, per: role}
setup: move(c in cards, hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        while true:
          let c = choose(x in hand(nth(roles, 1)), always_ask = true, text = "pick")
end:
  when: false
scoring:
  rank: r in roles
  by: [0]
  points: key
"""


@pytest.mark.parametrize("command", ["validate", "simulate"])
def test_a_loop_that_asks_at_every_pass_stops_at_its_answers_limit(tmp_path: Path, command: str) -> None:
    """The same loop under the default limits stops at its 500th answer, named, in seconds."""
    path = write_ruleset(tmp_path, ENDLESS)
    args = [command, str(path), *(["-n", "1"] if command == "simulate" else [])]
    run_cli(args, timeout=30).assert_refused(f"{path}:13", "answered 500 times in one run", "--limit answers=N")


@pytest.mark.parametrize("command", ["validate", "simulate"])
def test_a_loop_that_asks_at_every_pass_stops_at_the_step_budget(tmp_path: Path, command: str) -> None:
    """Each answer resumed the paused effect with the whole step budget anew, so 'while true:' around a choose never
    ran out: validate and simulate ran for ever (without greenlet, each answer replays the effect from its start
    under one budget, which ran out).  The budget is now the effect's, its answers included, in both ways.  (The
    ``answers`` limit stops such a loop sooner: raised here, the step budget must still stop it.)"""
    path = write_ruleset(tmp_path, ENDLESS)
    args = [command, str(path), "--limit", "steps=20000", "--limit", "answers=1000000",
            *(["-n", "1"] if command == "simulate" else [])]
    run_cli(args, timeout=30).assert_refused(f"{path}:13", "step budget", "--limit steps=N")


def test_a_piece_of_code_a_megabyte_long_is_refused_unparsed(tmp_path: Path) -> None:
    """A list of 300,000 ones in end.when (a 900 KB ruleset) took 36 s and 530 MB to parse, compile and describe."""
    ones = "[" + ", ".join(["1"] * 300_000) + "]"
    path = write_ruleset(tmp_path, _with("").replace("  when: all(", f"  when: count(x in {ones}) < 0 or all("))
    run_cli(["validate", str(path)]).assert_refused(f"{path}:25", "this code is 900,064 characters long",
                                                 "--limit code_length=N")


def test_long_code_is_parsed_once_and_its_length_checked_under_the_limit_in_force(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The English of an end condition parsed its code again (a 100,000-character condition took 3 s of validate,
    half of it parsing twice); and a tree kept from a load under a raised code_length was used under the default."""
    import engine
    import engine.compiling.builder as builder

    ones = "[" + ", ".join(["1"] * 20_000) + "]"
    path = write_ruleset(tmp_path, _with("").replace("  when: all(", f"  when: count(x in {ones}) < 0 or all("))
    real, parsed = builder.parse_expression, []
    monkeypatch.setattr(builder, "parse_expression", lambda text, *rest: parsed.append(len(text)) or real(text, *rest))
    engine.load(str(path))
    assert sum(1 for n in parsed if n > 50_000) == 1, parsed
    with pytest.raises(engine.RulesetError, match="limit code_length=50,000"):
        with limits.using(limits.parse_limits(["code_length=50000"])):
            engine.load(str(path))


def _many_functions(count: int) -> str:
    """The small ruleset with ``count`` functions of about a kilobyte of code each (lines 28 on, one a line)."""
    body = " or ".join(f"n == {i}" for i in range(100))
    return _with("functions:\n" + "".join(f"  f{k}(int n): {body}\n" for k in range(count)))


def test_the_code_of_a_ruleset_in_all_is_bounded(tmp_path: Path) -> None:
    """Each piece of code was bounded (code_length) but not their sum: 20 programs of 110 KB each (a 2 MB ruleset)
    kept validate parsing for 17 s of processor time. Past code_total, the code is not parsed, and said so once."""
    path = write_ruleset(tmp_path, _many_functions(40))
    ended = run_cli(["validate", str(path), "--limit", "code_total=20000"])
    ended.assert_refused(f"{path}:", "this ruleset's code passes 20,000 characters in all here", "--limit code_total=N")
    assert "1 problem in 1 file" in ended.out + ended.err  # once, not for each function past it
    first = int(re.search(r"ruleset.yaml:(\d+):", ended.out + ended.err).group(1))  # type: ignore[union-attr]
    assert 28 < first < 28 + 40  # at the function that passes the total, not at the ruleset's first line
    assert run_cli(["validate", str(path)]).code == 0  # 40 KB of code: far within the default


def test_the_code_total_counts_code_a_load_before_kept_parsed(tmp_path: Path) -> None:
    """Trees of code are kept between loads: the second load of a ruleset reads its code from them, and is held to
    the same total."""
    import engine

    path = write_ruleset(tmp_path, _many_functions(40))
    engine.load(str(path))
    with pytest.raises(engine.RulesetError, match="limit code_total=20,000"):
        with limits.using(limits.parse_limits(["code_total=20000"])):
            engine.load(str(path))


def test_functions_may_not_call_each_other_too_deeply(tmp_path: Path) -> None:
    lines = ["functions:", "  h1(int n): n + 1"] + [f"  h{k}(int n): h{k - 1}(n)" for k in range(2, 201)]
    path = write_ruleset(tmp_path, _with("\n".join(lines) + "\n"))
    run_cli(["validate", str(path)]).assert_refused(str(path), "calls functions", "call_depth")


def test_an_include_graph_that_doubles_at_each_level_stops_at_the_file_limit(tmp_path: Path) -> None:
    for level in range(40):
        write_ruleset(tmp_path, f"include: [f{level + 1}.yaml, f{level + 1}.yaml]\n", f"f{level}.yaml")
    write_ruleset(tmp_path, "a: 1\n", "f40.yaml")
    path = write_ruleset(tmp_path, _with("include: [f0.yaml]\n"))
    run_cli(["validate", str(path)]).assert_refused(str(tmp_path / "f"), "reads more than 1,000 files", "--limit includes=N")


def test_a_hundred_thousand_includes_stop_at_the_file_limit(tmp_path: Path) -> None:
    write_ruleset(tmp_path, "a: 1\n", "part.yaml")
    path = write_ruleset(tmp_path, _with("include: [" + ", ".join(["part.yaml"] * 100_000) + "]\n"))
    run_cli(["simulate", str(path), "-n", "1"]).assert_refused(str(path), "reads more than 1,000 files")


def test_three_thousand_variants_are_refused_at_once(tmp_path: Path) -> None:
    variants = "".join(f"  v{i}: {{description: variant {i}}}\n" for i in range(3000))
    path = write_ruleset(tmp_path, _with("variants:\n" + variants))
    run_cli(["validate", str(path)]).assert_refused(str(path), "3,000 variants", "--limit variants=N")


def test_a_long_requires_chain_is_refused_without_recursing(tmp_path: Path) -> None:
    variants = "  v0: {}\n" + "".join(f"  v{i}: {{requires: [v{i - 1}]}}\n" for i in range(1, 150))
    path = write_ruleset(tmp_path, _with("variants:\n" + variants))
    run_cli(["simulate", str(path), "--variant", "v149", "-n", "1"]).assert_refused(
        str(path), "chain of more than 50 variants", "requires_depth")
    ended = run_cli(["simulate", str(path), "--variant", "v149", "-n", "1", "--limit", "requires_depth=200"])
    assert ended.code == 0, ended.out + ended.err


def test_a_requires_chain_three_thousand_deep_is_refused(tmp_path: Path) -> None:
    variants = "  v0: {}\n" + "".join(f"  v{i}: {{requires: [v{i - 1}]}}\n" for i in range(1, 3000))
    path = write_ruleset(tmp_path, _with("variants:\n" + variants))
    ended = run_cli(["simulate", str(path), "--variant", "v2999", "-n", "1", "--limit", "variants=5000"])
    ended.assert_refused(str(path), "requires_depth")
    raised = ["--limit", "variants=5000", "--limit", "requires_depth=5000"]
    ended = run_cli(["simulate", str(path), "--variant", "v2999", "-n", "1", *raised])
    ended.assert_refused(str(path), "too deeply to follow")


def test_an_unknown_limit_is_a_usage_error_with_a_hint(tmp_path: Path) -> None:
    path = write_ruleset(tmp_path, BASE)
    ended = run_cli(["validate", str(path), "--limit", "stpes=5"])
    assert ended.code == 2 and "unknown limit 'stpes' (did you mean 'steps'?)" in ended.err, ended.err
    ended = run_cli(["validate", str(path), "--limit", "steps=-1"])
    assert ended.code == 2 and "must be a whole number from 1 up" in ended.err, ended.err


def test_a_limit_set_for_one_run_reaches_the_worker_processes(tmp_path: Path) -> None:
    text = BASE.replace("setup: |\n", "setup: |\n  repeat 500:\n    gold += 1\n")
    path = write_ruleset(tmp_path, text)
    assert run_cli(["simulate", str(path), "-n", "4", "--jobs", "2"]).code == 0
    ended = run_cli(["simulate", str(path), "-n", "4", "--jobs", "2", "--limit", "steps=100"])
    ended.assert_refused(str(path), "step budget", "limit steps=100;")


def test_the_hardening_page_lists_every_limit_with_its_default_and_meaning() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "hardening.md").read_text(encoding="utf-8")
    rows = {name: f"{default} | {meaning}" for name, default, meaning in re.findall(r"^\| `(\w+)` \| ([\d,]+) \| (.+) \|$", page, re.M)}
    defaults = limits.Limits()
    assert sorted(rows) == sorted(limits.NAMES)
    for name in limits.NAMES:
        assert rows[name] == f"{getattr(defaults, name):,} | {limits.DESCRIPTIONS[name]}"


def test_a_game_log_stops_at_its_line_limit(tmp_path: Path) -> None:
    """A turn of 'repeat 30000:' around two counter changes logged 60,000 lines, every turn to the turn limit:
    'rulecraft play' (and the server, and replays) kept all 60 million of them, several gigabytes, while the game
    itself stays within its step budget.  Past ``log_lines`` a game's later lines are left out, a line says so, and
    the game's end is still logged."""
    text = (ENDLESS.replace("name: endless", "name: chatty").replace("when: false", "when: turn > 40")
            .replace("counters:", "").replace("zones:", "counters:\n  gold: {per: role}\nzones:"))
    text = text.replace("""        while true:
          let c = choose(x in hand(nth(roles, 1)), always_ask = true, text = "pick")""", """        repeat 30:
          gold(current_role) += 1""")
    path = write_ruleset(tmp_path, text)
    with limits.using(limits.Limits(log_lines=500)):
        game = engine.load(path)
    state = game.new_state(players=2, seed=1, record=True)
    assert state.outcome is not None and len(state.log) == 502
    assert state.log[500] == ("... the log stops here: it has 500 lines, and the game's later lines are left out "
                              "(limit log_lines=500; raise it with --limit log_lines=N)")
    assert state.log[-1].startswith("game over")


def test_counter_changes_stop_being_logged_at_the_limit_within_a_turn(tmp_path: Path) -> None:
    """One action's loop of counter changes (up to the step budget, dozens a step) logged millions of lines before
    the turn's end cut them: 3.6 million, 424 MB, in one turn.  They now stop at the limit as they come."""
    text = ENDLESS.replace("zones:", "counters:\n  gold: {per: role}\nzones:").replace(
        "        while true:\n", "        repeat 3000:\n          gold(current_role) += 1\n        while true:\n")
    path = write_ruleset(tmp_path, text)
    with limits.using(limits.Limits(log_lines=500)):
        game = engine.load(path)
    state = game.new_state(players=2, seed=1, record=True)
    assert state.pending is not None and len(state.log) == 501  # paused in the turn's effect, at its choose


def test_a_limit_of_too_many_digits_says_so() -> None:
    """A 19-digit value was told 'must be a whole number from 1 up', which it is."""
    from engine.core.limits import parse_limits

    with pytest.raises(ValueError, match="steps=9999999999999999999: the value has more than 18 digits$"):
        parse_limits(["steps=" + "9" * 19])
    assert parse_limits(["steps=" + "0" * 30 + "5"]).steps == 5  # zeros in front count for nothing


@pytest.mark.parametrize("counters", [
    "  mark: {per: coin, key: coin}\n",  # 10,000 coins keyed by every coin: 100,000,000 values
    "".join(f"  c{i}: {{per: coin}}\n" for i in range(200)),  # 200 counters of 10,000 coins each
], ids=["keyed-by-its-own-kind", "many-counters-per-coin"])
def test_counters_keeping_too_many_values_stop_at_the_limit(tmp_path: Path, counters: str) -> None:
    """A counter per coin keyed by every coin made a tuple of 100 million owners: 34 s and 3 GB, then a MemoryError's
    traceback; many counters per component, or statuses (one value per component each), added up alike."""
    text = _components(BASE, "{id: c, value: 1, count: 10000}").replace("counters:\n", "counters:\n" + counters, 1)
    path = write_ruleset(tmp_path, text)
    run_cli(["validate", str(path)]).assert_refused(str(path), "counter_values=1,000,000", "--limit counter_values=N")


def test_statuses_of_every_component_stop_at_the_counter_values_limit(tmp_path: Path) -> None:
    statuses = "statuses:\n" + "".join(f"  s{i}: {{}}\n" for i in range(200))
    path = write_ruleset(tmp_path, _components(BASE, "{id: c, value: 1, count: 10000}") + statuses)
    run_cli(["validate", str(path)]).assert_refused(str(path), "200 statuses", "--limit counter_values=N")


def _wide_placements() -> str:
    """A place step offering 11 different coins and the tiles' faces on each cell of a 100x100 board: 140,000
    actions."""
    text = _components(BASE, ", ".join(f"{{id: c{i}, value: {i}}}" for i in range(11)))
    text = text.replace("board: {kind: square-grid, max_width: 3, max_height: 3, adjacency: orthogonal}",
                        "board: {kind: square-grid, width: 100, height: 100}", 1)
    text = text.replace("    move(t in tiles where t.front.symbol == r, hand(r))\n",
                        "    move(t in tiles where t.front.symbol == r, hand(r))\n  move(c in coins, hand(nth(roles, 1)))\n", 1)
    return text.replace("  - place: {from: hand, face: choose}", "  - place: {from: hand, face: choose, touching: false}", 1)


@pytest.mark.parametrize("command", [["validate"], ["simulate", "-n", "1", "--agents", "mcts:20,random"],
                                     ["bench", "--playouts", "1"]], ids=["validate", "mcts", "bench"])
def test_a_step_offering_too_many_actions_stops_at_the_limit(tmp_path: Path, command: list[str]) -> None:
    """A place step offering 2,500 coins on 10,000 cells, 25 million placements: a search bot listed every one (a
    MemoryError's traceback after 50 s and 3.8 GB), and so did rulecraft play's observation (over two minutes
    and 2 GB before the first prompt); random games picked among them lazily, so validate said ok."""
    path = write_ruleset(tmp_path, _wide_placements())
    run_cli([command[0], str(path), *command[1:]]).assert_refused(
        f"{path}:27", "this step offers 140,000 actions", "--limit actions=N")


def test_the_actions_limit_is_raised_for_one_run_and_the_python_api_is_told(tmp_path: Path) -> None:
    path = write_ruleset(tmp_path, _wide_placements())
    state = engine.load(path).new_state(players=2, seed=0)
    with pytest.raises(EffectRuntimeError, match="this step offers 140,000 actions"):
        state.legal_actions()
    with limits.using(limits.parse_limits(["actions=200000"])):
        assert len(engine.load(path).new_state(players=2, seed=0).legal_actions()) == 140_000


def test_counters_past_the_counter_values_limit_are_told_in_one_error_naming_them(tmp_path: Path) -> None:
    """200 counters of 10,000 coins each: the limit's error came once for each of the 100 counters past it."""
    counters = "".join(f"  c{i}: {{per: coin}}\n" for i in range(200))
    text = _components(BASE, "{id: c, value: 1, count: 10000}").replace("counters:\n", "counters:\n" + counters, 1)
    result = run_cli(["validate", str(write_ruleset(tmp_path, text))])
    assert result.code == 1 and result.err.count("--limit counter_values=N") + result.out.count("--limit counter_values=N") == 1
    said = result.out + result.err
    assert "counter 'c100', counter 'c101', counter 'c102', counter 'c103', counter 'c104' and 9" in said, said
    assert " more (10" in said and "1 problem in 1 file" in said, said


def test_functions_called_deeper_than_python_follows_stop_with_an_error_at_a_call(tmp_path: Path) -> None:
    """With call_depth raised far past its default, a chain of functions each calling the one before went deeper
    than Python's stack: a RecursionError's traceback as the end condition was tested (a chain of 700 under
    --limit call_depth=100000). The stack is made short here, so that a chain of 200 is too deep."""
    lines = ["functions:", "  h1(int n): n + 1"] + [f"  h{k}(int n): h{k - 1}(n) + 1" for k in range(2, 201)]
    text = _with("\n".join(lines) + "\n").replace("  when: all(", "  when: h200(count(t in board)) < 0 or all(")
    path = write_ruleset(tmp_path, text)
    with limits.using(limits.parse_limits(["call_depth=1000"])):
        state = engine.load(path).new_state(players=2, seed=0)
        before = state.to_json()
        action = state.legal_actions()[0]
        depth = len(inspect.stack(0))
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(depth + 100)
        try:
            with pytest.raises(EffectRuntimeError, match=r"the call of 'h\d+' is nested deeper than Python can follow"
                                                         r".*call_depth=1,000") as err:
                state.apply(action)
        finally:
            sys.setrecursionlimit(old)
    assert err.value.pos is not None and err.value.pos.file == str(path)
    assert state.to_json() == before


SLOW_END = """\
name: slow-end
players: [2]
types:
  side: [A, B]
roles:
  of: side
  seating:
    2: [1, 2]
functions:
  f(int k): sum(j * k for j in numbers(1, 150))
counters:
  n: {per: role, start: 0}
turn:
  - do:
      effect: |
        let x = choose(k in [1, 2], always_ask = true)
        n(current_role) += x
end:
  max_turns: 10000
  when: sum(f(k) for k in numbers(1, 300)) < 0
scoring:
  rank: r in roles
  by: [n(r)]
  points: [1, 0]
"""


def test_a_game_whose_every_turn_does_a_budgets_work_stops_at_the_games_total(tmp_path: Path) -> None:
    """Each test of the end condition stays within its own step budget (some 90,000 steps), but ten thousand turns of
    it took a minute of CPU for one game (validate plays four): the steps a game spends in all are bounded too.  (Each
    test lists 300 numbers, and 150 in each of 300 calls, a step each, and looks at each number listed, a step each.)"""
    path = tmp_path / "ruleset.yaml"
    path.write_text(SLOW_END, encoding="utf-8")
    with limits.using(limits.parse_limits(["game_steps=2000000"])):
        game = engine.load(path)
    s = game.new_state(players=2, seed=1)
    with pytest.raises(EffectRuntimeError, match=r"this game has spent 2,\d{3},\d{3} steps in all by turn \d+, "
                                                         r"more than one game may \(limit game_steps=2,000,000; raise it "
                                                         r"with --limit game_steps=N\)"):
        while not s.is_terminal:
            s.play(0)
    assert 20 <= s.turn_number <= 30  # about 90,000 steps a turn


def _full_board(side: int, end: str) -> str:
    """A game whose setup fills a board of ``side`` x ``side`` with pieces, noting its positions (``repetition:``)."""
    pieces = "".join(f"      - {{id: p{x}_{y}, colour: B, px: {x}, py: {y}}}\n" for x in range(side) for y in range(side))
    return f"""\
name: full-board
players: [2]
types:
  colour: [B, W]
components:
  stone:
    attributes: {{colour: colour, px: int, py: int}}
    instances:
{pieces}      - {{id: W, colour: W, px: 0, py: 0, count: 4}}
board: {{kind: square-grid, width: {side + 1}, height: {side + 1}, adjacency: orthogonal}}
roles:
  of: colour
  seating: {{2: [1, 2]}}
zones:
  pool: {{kind: hand, per: role}}
repetition: {{}}
setup: |
  for r in roles:
    move(t in stones where t.colour == r, pool(r))
  place_each((x.px, x.py) for x in pool(B))
turn:
  - place: {{from: pool, touching: false}}
end:
  when: {end}
scoring:
  rank: s in roles
  by: [0]
  points: [1, 0]
"""


def test_times_seen_spends_a_step_for_each_piece_it_reads(tmp_path: Path) -> None:
    """times_seen() reads every piece on the board and spent one step: on a board of 2,500 pieces a call took
    40 ms, and an end condition calling it for each of 9,000 numbers ran for minutes within its 100,000 steps."""
    path = write_ruleset(tmp_path, _full_board(20, "count(n in numbers(1, 9000) where times_seen() > 5) > 0"))
    run_cli(["validate", str(path)]).assert_refused(
        f"{path}:{20 * 20 + 24}", "step budget in this times_seen(), which reads every piece")
