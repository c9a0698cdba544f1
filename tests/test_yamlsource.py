"""Safe YAML loading with positions: engine/core/yamlsource.py."""

from __future__ import annotations

import pickle
import time
from pathlib import Path

import pytest

import engine
from engine.core import limits
from engine.core.errors import RulesetError, SourcePos
from engine.core.yamlsource import MAX_BYTES, Mapping, Sequence, Text, load_yaml, pos_of, walk_path


def at(line: int, col: int, file: str = "r.yaml") -> SourcePos:
    return SourcePos(file, line, col)


def error_of(text: str) -> tuple[SourcePos | None, str]:
    with pytest.raises(RulesetError) as info:
        load_yaml("r.yaml", text)
    diagnostic = info.value.diagnostics[0]
    return diagnostic.pos, diagnostic.message


# --- values and positions --------------------------------------------------------------------


NESTED = """\
name: demo
cards:
  - name: Fire
    cost: 2
    tags: [hot, "red"]
  - {name: Water, cost: 3}
"""


def test_scalar_types_and_containers() -> None:
    tree = load_yaml("r.yaml", "a: 1\nb: 2.5\nc: true\nd: null\ne: text\nf: 2001-12-14\ng: '1'\n")
    assert tree == {"a": 1, "b": 2.5, "c": True, "d": None, "e": "text", "f": "2001-12-14", "g": "1"}
    assert isinstance(tree, Mapping)
    assert isinstance(tree["e"], Text) and isinstance(tree["f"], Text) and isinstance(tree["g"], Text)
    assert type(tree["a"]) is int and type(tree["c"]) is bool


def test_positions_of_nested_nodes() -> None:
    tree = load_yaml("r.yaml", NESTED)
    cards = tree["cards"]
    assert isinstance(cards, Sequence)
    assert tree.pos == at(1, 1)
    assert tree.key_pos["cards"] == at(2, 1)
    assert cards.pos_of(1) == at(6, 5)
    assert cards[0].pos == at(3, 5)
    assert cards[0]["name"].pos == at(3, 11)
    assert cards[0].pos_of("cost") == at(4, 11)  # an int has no .pos: the mapping knows it
    assert cards[0]["tags"][1].pos == at(5, 17)  # a quoted scalar starts at its quote
    assert cards[1].pos_of("cost") == at(6, 25)


def test_walk_path_and_pos_of() -> None:
    tree = load_yaml("r.yaml", NESTED)
    assert walk_path(tree, ["cards", 0, "cost"]) == at(4, 11)
    assert walk_path(tree, ["cards", 1, "name"]) == at(6, 12)
    assert walk_path(tree, ["cards", 5, "name"]) == at(3, 3)  # the deepest node that exists
    assert walk_path(tree, []) == at(1, 1)
    assert pos_of(tree["cards"][0]["cost"], at(9, 9)) == at(9, 9)
    assert pos_of(tree["name"], at(9, 9)) == at(1, 7)


def test_mapping_pos_of_falls_back_to_the_mapping() -> None:
    tree = load_yaml("r.yaml", "a:\n  b: 1\n")
    assert tree["a"].pos_of("missing") == at(2, 3)


def test_anchored_and_tagged_scalars_start_after_their_properties() -> None:
    tree = load_yaml("r.yaml", 'a: &x "quoted"\nb: !!str 12\nc: *x\n')
    assert tree["a"].pos == at(1, 7)
    assert tree["a"].locate(1, 1) == at(1, 8)
    assert tree["b"] == "12" and tree["b"].pos == at(2, 10)
    assert tree.pos_of("c") == at(3, 4)  # where the alias is written


def test_text_given_is_registered_for_carets() -> None:
    with pytest.raises(RulesetError) as info:
        load_yaml("<memory>", "a: 1\nb: !foo x\n")
    assert "b: !foo x" in info.value.format()


def test_a_file_edited_between_two_loads_is_quoted_and_placed_as_it_now_is(tmp_path: Path) -> None:
    """The lines of a file were kept from the first message that quoted it: in a long-lived process (the server
    serving a ruleset as it is edited, a notebook), a later mistake was placed and quoted in the old lines — line 60,
    'by: [...]', for a slip on line 57's 'when:' after a line was added on top."""
    source = (Path(engine.__file__).parent.parent / "rulesets" / "tic-tac-toe" / "ruleset.yaml").read_text()
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(source.replace("t.mark == r, marks(r))", "t.mark == r, markz(r))"))
    with pytest.raises(RulesetError) as first:
        engine.load(str(ruleset))
    assert "markz(r))" in first.value.format()
    ruleset.write_text("# a line added on top\n" + source.replace("count(empty_cells) == 0", "count(empty_cellz) == 0"))
    with pytest.raises(RulesetError) as second:
        engine.load(str(ruleset))
    where = second.value.diagnostics[0].pos
    assert where is not None and (where.line, where.col) == (57, 51)
    assert "when: any(line(r) >= 3 for r in roles) or count(empty_cellz) == 0" in second.value.format()


def test_trees_pickle_with_positions() -> None:
    tree = load_yaml("r.yaml", "effect: |\n  one\n  two\nlist: [1]\n")
    copy = pickle.loads(pickle.dumps(tree))
    assert copy == tree
    assert copy.key_pos == tree.key_pos and copy["list"].item_pos == tree["list"].item_pos
    assert copy["effect"].locate(2, 1) == at(3, 3)


# --- Text.locate -----------------------------------------------------------------------------


def test_locate_in_plain_and_quoted_single_line() -> None:
    tree = load_yaml("r.yaml", "plain: gain 2\nquoted: 'gain 2'\n")
    assert tree["plain"].locate(1, 6) == at(1, 13)
    assert tree["quoted"].locate(1, 6) == at(2, 15)


LITERAL = """\
effects:
  burn: |
    when played:
      deal 2
    end
"""


def test_locate_inside_literal_block() -> None:
    block = load_yaml("r.yaml", LITERAL)["effects"]["burn"]
    assert block == "when played:\n  deal 2\nend\n"
    assert block.pos == at(2, 9)
    assert block.locate(1, 1) == at(3, 5)
    assert block.locate(2, 3) == at(4, 7)  # 'd' of deal, under its own indentation
    assert block.locate(3, 2) == at(5, 6)


def test_locate_literal_block_with_indentation_indicator_and_leading_blank() -> None:
    block = load_yaml("r.yaml", "a: |2\n\n     x\n    y\n")["a"]
    assert block == "\n   x\n  y\n"
    assert block.locate(2, 4) == at(3, 6)
    assert block.locate(3, 3) == at(4, 5)


def test_locate_in_folded_block_is_exact_on_its_first_line() -> None:
    block = load_yaml("r.yaml", "a: >\n  one two\n  three\n")["a"]
    assert block == "one two three\n"
    assert block.locate(1, 5) == at(2, 7)


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, tag",
    [
        ("x: !!python/object:os.system {}\n", "!!python/object:os.system"),
        ("x: !!python/name:os.system\n", "!!python/name:os.system"),
        ("x: !!python/object/apply:os.system [ls]\n", "!!python/object/apply:os.system"),
        ("x: !<tag:yaml.org,2002:python/object:os.system> {}\n", "!!python/object:os.system"),
    ],
)
def test_python_tags_are_refused(source: str, tag: str) -> None:
    pos, message = error_of(source)
    assert message == f"YAML tag '{tag}' is not allowed: rulesets cannot build Python objects"
    assert pos == at(1, 4)


@pytest.mark.parametrize("tag", ["!foo", "!!set", "!!binary", "!!omap", "!!timestamp"])
def test_other_tags_are_refused_by_name(tag: str) -> None:
    pos, message = error_of(f"a: 1\nb: {tag} x\n")
    assert f"YAML tag '{tag}' is not allowed" in message
    assert pos == at(2, 4)


def test_standard_tag_on_the_wrong_kind_is_refused() -> None:
    assert error_of("a: !!str {b: 1}\n") == (at(1, 4), "YAML tag '!!str' cannot be used on a mapping")
    assert error_of("a: !!int many\n") == (at(1, 4), "'many' is not a valid !!int")


BILLION_LAUGHS = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi")
)


def test_billion_laughs_is_refused_fast() -> None:
    start = time.perf_counter()
    pos, message = error_of(BILLION_LAUGHS)
    assert time.perf_counter() - start < 1.0
    assert message.startswith("aliases expand the document by too many nodes (alias bomb?): more than 200,000")
    assert pos is not None and pos.line == 6


def large_file(points: int) -> str:
    """A board of ``points`` points written out, four nodes each: ``p7: [7, 0]``."""
    return "points:\n" + "".join(f"  p{i}: [{i % 999}, {i // 999}]\n" for i in range(points))


TENTH = limits.Limits(yaml_nodes=limits.Limits().yaml_nodes // 10)
"""The node limit at a tenth (20,000), for the large files below: a tenth of their size (they took 11 s of CPU)."""


def test_a_large_file_written_out_loads_whatever_its_nodes() -> None:
    """A file of 240,000 nodes, none of them aliased (60,000 points, 1.2 MB), was refused as "too many nodes (alias
    bomb?)": only the nodes aliases add are limited; the file's size bounds the ones written out.  Checked at a
    tenth: 24,000 nodes written out, over a limit of 20,000."""
    with limits.using(TENTH):
        tree = load_yaml("r.yaml", large_file(6_000))
    assert len(tree["points"]) == 6_000 and tree["points"]["p5999"] == [5, 6]


def test_aliases_are_limited_in_a_large_file_too() -> None:
    start = time.perf_counter()
    with limits.using(TENTH):
        pos, message = error_of(large_file(6_000) + BILLION_LAUGHS)
    assert message.startswith("aliases expand the document by too many nodes (alias bomb?): more than 20,000")
    assert pos is not None and pos.line == 6_001 + 5  # the bomb's 5th line passes the lower limit
    assert time.perf_counter() - start < 60  # refused as read, not expanded (minutes and gigabytes)


DECK = """\
name: big-deck
players: [2]
types:
  colour: [Red, Blue]
roles:
  of: colour
  seating: {2: [1, 2]}
components:
  card:
    attributes: {colour: colour, value: int, rank: int, weight: int}
    instances:
%s
board: {kind: square-grid, width: 3, height: 3}
zones:
  pot: {kind: hand, per: role}
setup: |
  for r in roles:
    move(c in cards where c.colour == r, pot(r))
turn:
  - place: {from: pot, face: as-is}
end:
  when: true
scoring:
  rank: r in roles
  by: [count(c in pot(r))]
  points: key
"""


def test_the_most_components_a_ruleset_may_have_load(tmp_path: Path) -> None:
    """The most components a ruleset may have (limit components, 20,000), each written out with four attributes, was
    refused as an alias bomb: 1.3 MB, 220,000 nodes, over limit yaml_nodes (200,000).  Checked at a tenth of both
    limits (the whole took 8 s of CPU): 2,000 components, 22,000 nodes written out over a limit of 20,000."""
    default = limits.Limits()
    assert default.components * 11 > default.yaml_nodes  # the full-size file is over the node limit too
    cards = "\n".join(f"      - {{id: c{i}, colour: {('Red', 'Blue')[i % 2]}, value: {i % 13}, rank: {i % 7}, weight: {i % 5}}}"
                      for i in range(2_000))
    (tmp_path / "ruleset.yaml").write_text(DECK % cards, encoding="utf-8")
    with limits.using(limits.Limits(components=default.components // 10, yaml_nodes=default.yaml_nodes // 10)):
        assert len(engine.load(str(tmp_path)).component_names) == 2_000


def test_the_limit_counts_what_aliases_and_merge_keys_add() -> None:
    written = "a: [" + ", ".join(["1"] * 500) + "]\n"  # 502 nodes written out
    with limits.using(limits.Limits(yaml_nodes=100)):
        assert len(load_yaml("r.yaml", written + "b: &b [1, 2, 3]\nc: [*b, *b]\n")["a"]) == 500  # 8 added
        pos, message = error_of(written + "b: &b [" + ", ".join(["1"] * 60) + "]\nc: [*b, *b]\n")  # 122 added
        assert pos == at(3, 9) and message.startswith("aliases expand the document by too many nodes")
    merged = "d: &d {" + ", ".join(f"k{i}: {i}" for i in range(30)) + "}\n"  # 61 nodes; each merge adds 61 + 30
    with limits.using(limits.Limits(yaml_nodes=150)):
        assert error_of(merged + "e: {<<: *d}\nf: {<<: *d}\n")[0] == at(3, 9)  # 152: the aliases alone add 122


def test_aliases_within_the_limit_are_shared() -> None:
    tree = load_yaml("r.yaml", "base: &b {power: 1}\ncard: *b\n")
    assert tree["card"] == {"power": 1}
    assert tree.pos_of("card") == at(2, 7)


def test_recursive_alias_is_refused() -> None:
    pos, message = error_of("a: &x [1, *x]\n")
    assert message == "alias '*x' refers to no anchor defined before it"
    assert pos == at(1, 11)


def test_deep_nesting_is_refused() -> None:
    pos, message = error_of("[" * 5000 + "]" * 5000)
    assert message == "nesting deeper than 200 levels (limit yaml_depth=200; raise it with --limit yaml_depth=N)"
    assert pos == at(1, 202)


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, "- " * 5000 + "1\n", "{a: " * 5000 + "1" + "}" * 5000],
                         ids=["lists", "block-lists", "mappings"])
def test_nesting_past_pythons_stack_under_a_raised_limit_is_refused_at_a_position(text: str) -> None:
    """--limit yaml_depth=100000 let the tree be built past what Python's stack follows: a RecursionError and its
    traceback.  It is told at the deepest level the stack still reaches, in the file."""
    with limits.using(limits.parse_limits(["yaml_depth=100000"])):
        pos, message = error_of(text)
    assert message.startswith("nesting deeper than Python can follow (") and message.endswith(
        " levels here; the limit yaml_depth=100,000 allows more): nest less")
    assert pos.line == 1 and 200 < pos.col < 5000 * 4


def test_duplicate_keys_are_refused() -> None:
    assert error_of("a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n") == (
        at(5, 3),
        "duplicate key 'c' (first defined at line 3)",
    )
    assert error_of("3: a\n'3': b\n")[1] == "duplicate key '3' (first defined at line 1)"


def test_integer_and_word_keys_become_text() -> None:
    tree = load_yaml("r.yaml", "3: three\n4: four\non: hook\nyes: 1\n")
    assert list(tree) == ["3", "4", "on", "yes"]
    assert all(isinstance(key, Text) for key in tree)
    assert tree.key_pos["4"] == at(2, 1)


@pytest.mark.parametrize(
    "source, kind",
    [
        ("~: a\n", "null"),
        ("[1, 2]: a\n", "a list"),
        ("? {a: 1}\n: b\n", "a mapping"),
        ("1.5: a\n", "a decimal number"),
    ],
)
def test_other_keys_are_refused(source: str, kind: str) -> None:
    pos, message = error_of(source)
    assert message == f"a mapping key must be a name or a whole number, not {kind}"
    assert pos is not None and pos.line == 1


def test_merge_keys() -> None:
    tree = load_yaml("r.yaml", "base: &b {power: 1, cost: 2}\ncard:\n  <<: *b\n  cost: 5\n")
    assert tree["card"] == {"power": 1, "cost": 5}
    assert tree["card"].pos_of("power") == at(1, 18)
    assert tree["card"].pos_of("cost") == at(4, 9)
    message = "a '<<' merge key takes a mapping or a list of mappings"
    assert error_of("card:\n  <<: 3\n") == (at(2, 7), message)


@pytest.mark.parametrize(
    "source, pos, words",
    [
        ("a: 1\nb: [1, 2\nc: 3\n", at(3, 2), "did not find expected"),
        ("a: b: c\n", at(1, 5), "mapping values are not allowed"),
        ("a: 1\n b: 2\n", at(2, 3), "mapping values are not allowed"),
        ("a: 'open\n", at(2, 1), "found unexpected end of stream"),
        ("a: *nothing\n", at(1, 4), "alias '*nothing' refers to no anchor"),
        ("a: 1\n---\nb: 2\n", at(2, 1), "one YAML document"),
        ("a: 1\nb: \x07\n", at(2, 4), "character U+0007 is not allowed"),
    ],
)
def test_syntax_errors_have_positions(source: str, pos: SourcePos, words: str) -> None:
    got_pos, message = error_of(source)
    assert got_pos == pos
    assert words in message


def test_oversized_text_is_refused_before_parsing() -> None:
    pos, message = error_of("a" * (MAX_BYTES + 1))
    assert pos is None and "larger than 5 MB" in message


def test_non_utf8_file_is_refused_with_position(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nb: café\n".encode("latin-1"))
    with pytest.raises(RulesetError) as info:
        load_yaml(path)
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.pos == SourcePos(str(path), 2, 7)
    assert "not valid UTF-8: byte 0xe9" in diagnostic.message


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="cannot read .*nothing.yaml"):
        load_yaml(tmp_path / "nothing.yaml")


def test_empty_and_comment_only_files_are_none(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("")
    assert load_yaml(path) is None
    assert load_yaml("r.yaml", "# only a comment\n") is None


def test_file_positions_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("\ufeffa:\n  b: x\n", encoding="utf-8")
    assert load_yaml(path)["a"]["b"].pos == SourcePos(str(path), 2, 6)


def test_a_huge_line_is_quoted_as_a_short_window_around_the_error(tmp_path: Path) -> None:
    """An 85 KB line (one piece of code may hold 100,000 characters) with a mistake in its middle gives a message of a
    few hundred characters, caret on the mistake."""
    import engine

    line = "setup: " + "shuffle(supply); " * 2500 + "shufle(supply)" + "; shuffle(supply)" * 2500
    path = tmp_path / "ruleset.yaml"
    path.write_text(
        "name: long\nplayers: [2]\ncomponents:\n  card:\n    instances: [{id: a}]\n"
        f"{line}\nturn:\n  - draw: {{from: supply, to: supply}}\nend: {{when: true}}\n"
        "scoring: {rank: r in roles, by: [0], points: [1]}\n"
    )
    with pytest.raises(RulesetError) as err:
        engine.load(path)
    text = err.value.format()
    assert "unknown function 'shufle'" in text and len(text) < 600
    quoted, caret = text.splitlines()[-2:]
    assert quoted[caret.index("^"):].startswith("shufle(")


def test_columns_of_a_folded_scalar_map_to_the_line_they_came_from(tmp_path: Path) -> None:
    """YAML joins the lines of '>-' text with spaces; a column past the first line lands on the right source line."""
    path = tmp_path / "r.yaml"
    path.write_text("when: >-\n  count(a) > 1\n  and count(b) > 2\n")
    value = load_yaml(path)["when"]
    assert str(value) == "count(a) > 1 and count(b) > 2"
    col = str(value).index("count(b)") + 1
    assert value.locate(1, col) == SourcePos(str(path), 3, 7)
    assert value.locate(1, 1) == SourcePos(str(path), 2, 3)


def test_columns_past_a_more_indented_line_of_a_folded_block_map_to_their_line(tmp_path: Path) -> None:
    """A '>-' block keeps the line breaks around lines indented beyond it, as an expression's continuation lines
    often are; an error on such a line was placed at the '>-' itself (the value's second line was not walked)."""
    path = tmp_path / "r.yaml"
    path.write_text("f: >-\n  list(a + b\n       for b in xs)\n  + ys\n\n  and zs\n")
    value = load_yaml(path)["f"]
    assert str(value) == "list(a + b\n     for b in xs)\n+ ys\nand zs"
    assert value.locate(2, 6) == SourcePos(str(path), 3, 8)      # 'for'
    assert value.locate(3, 3) == SourcePos(str(path), 4, 5)      # 'ys'
    assert value.locate(4, 5) == SourcePos(str(path), 6, 7)      # 'zs', after a blank line
    assert pickle.loads(pickle.dumps(value)).locate(2, 6) == SourcePos(str(path), 3, 8)


def test_a_tab_in_the_indentation_is_named_as_such() -> None:
    """YAML says 'found character that cannot start any token' for a tab; the hint names the tab and the fix."""
    with pytest.raises(RulesetError) as info:
        load_yaml("r.yaml", "options:\n\tmost: 3\n")
    found = info.value.diagnostics[0]
    assert (str(found.pos), found.hint) == ("r.yaml:2:1", "YAML indents with spaces, never tabs: replace the tab with spaces")


@pytest.mark.parametrize(("char", "name"), [("\u2028", "line separator U+2028"), ("\u2029", "paragraph separator U+2029"),
                                            ("\x85", "next line U+0085")])
def test_a_line_break_editors_do_not_show_is_named_where_it_is(tmp_path: Path, char: str, name: str) -> None:
    # inside a comment it ended the comment: 'did not find expected <document start>', a line below the real one
    path = tmp_path / "r.yaml"
    path.write_text(f"# a note{char} more\nname: x\n", encoding="utf-8")
    for given in (None, path.read_text(encoding="utf-8")):
        with pytest.raises(RulesetError) as info:
            load_yaml(path, given)
        found = info.value.diagnostics[0]
        assert (found.pos, found.message.split(":")[0]) == (at(1, 9, str(path)), f"a {name}")


# --- each file parsed once a command ----------------------------------------------------------


def test_validate_parses_each_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """validate read a ruleset's file seven times, parsing it each time (a ruleset of 20,000 components: 14 s of
    processor time, 9 s now); a file read again with the same text and limits is parsed once."""
    import shutil

    from engine.core import yamlsource
    from engine.runner.validate import validate_path

    shutil.copytree(Path(engine.__file__).parent.parent / "rulesets" / "tutorial-tiles", tmp_path / "t")
    parsed: list[str] = []
    real = yamlsource._Builder.document
    monkeypatch.setattr(yamlsource._Builder, "document", lambda self: parsed.append(self.name) or real(self))
    assert validate_path(str(tmp_path / "t")) == []
    assert parsed and len(parsed) == len(set(parsed)), parsed
    again = len(parsed)
    with limits.using(limits.parse_limits(["yaml_nodes=50000"])):  # other limits: parsed under them
        load_yaml(tmp_path / "t" / "ruleset.yaml")
    (tmp_path / "t" / "ruleset.yaml").write_text((tmp_path / "t" / "ruleset.yaml").read_text() + "\n# changed\n")
    load_yaml(tmp_path / "t" / "ruleset.yaml")  # another text: parsed again
    assert len(parsed) == again + 2


def test_a_tree_read_again_is_not_one_a_caller_changed() -> None:
    text = "a: [1, {b: 2}]\nc: {d: [x]}\n"
    first = load_yaml("kept.yaml", text)
    assert isinstance(first, Mapping)
    first["a"].add(3, at(9, 9)); first["c"]["d"].clear(); first.add("e", 4, None, None)
    second = load_yaml("kept.yaml", text)
    assert second == {"a": [1, {"b": 2}], "c": {"d": ["x"]}} and second is not first
    assert second["a"].pos_of(1) == at(1, 8, "kept.yaml") and second["c"].pos == at(2, 4, "kept.yaml")
