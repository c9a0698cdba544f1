"""The error messages the docs show are real output: each is produced again and compared.

A block of output in ``docs/*.md`` is checked when the line just above its
fence names how it is made::

    <!-- output: NAME -->
    ```text
    $ rulecraft validate /tmp/my-cards
    ...
    ```

``NAME`` is one of:

* ``expression`` — the block is what ``engine.load("iconoclasm-cards")
  .compile_condition(text).format()`` prints, ``text`` being the expression
  quoted on the block's second line (as effects.md says);
* ``step-budget`` — the error of running the program ``repeat 200000: pass``
  (effects.md, "Errors while running");
* a name in :data:`BROKEN` — a copy of shipped files with a few exact edits,
  put where the doc says it is (``/tmp/my-cards``, ``rulesets/iconica``, ...);
  the block's first line is the command (``$ rulecraft ...``), run through
  click's ``CliRunner`` from a scratch directory standing in for the
  repository root (and for ``/`` in the paths under ``/tmp/``).

The whole block must equal the real output, so a doc that falls behind the
engine fails here. Every diagnostic-looking block (``file:line:col: ...``)
in the docs must be marked, and every recipe below must be used.
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
import engine
from engine.core.errors import DiagnosticSink, EffectRuntimeError
from engine.lang.parser import parse_program
from engine.lang.scope import Scope
from engine.model.game import Program

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
MARKED = re.compile(r"^<!-- output: ([\w-]+) -->\n```text\n(.*?)^```[ \t]*$", re.S | re.M)
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: ", re.M)
CARDS = "rulesets/iconoclasm-cards/ruleset.yaml"


@dataclass(frozen=True)
class Broken:
    """A copy of ``source`` (a file or folder of the repository) at ``to``, with ``edits``.

    Each edit is ``(file inside the copy, or "" for a copied file; old; new)``;
    ``old`` must occur exactly once, so a change to the shipped file that
    breaks the recipe fails loudly instead of showing something else.
    """

    source: str
    to: str
    edits: tuple[tuple[str, str, str], ...]


BROKEN: dict[str, Broken] = {
    # effects.md, "Static checks": the 3-player setup's place() lost a condition
    "setup-fails": Broken(CARDS, "/tmp/broken/ruleset.yaml", (
        ("", "place(c in cards where c.front.element == r and c.back.element == r, (0, 0))",
         "place(c in cards where c.front.element == r, (0, 0))"),
    )),
    # rulesets.md, "Scenarios": the clash example expects 3 Fire cards instead of 2
    "clash-wrong": Broken(
        "rulesets/iconoclasm-cards/scenarios/rulebook-clash-example.yaml", "/tmp/scenarios/clash-wrong.yaml", (
            ("", "count(c in board where c.element == Fire) == 2", "count(c in board where c.element == Fire) == 3"),
        )),
    # rulesets.md, "Checkpoints": a checkpoint and an expectation that do not hold
    "switch-wrong": Broken(
        "rulesets/iconoclasm/scenarios/three-players-switch.yaml", "/tmp/scenarios/switch-wrong.yaml", (
            ("", "      - keep\n      - switch to Air\n  - action: switch to Spirit", "      - keep\n  - action: switch to Spirit"),
            ("", "seat(Air) == 1 and seat(Earth) == 2 and seat(Water) == 3", "seat(Air) == 1 and seat(Earth) == 3 and seat(Water) == 3"),
        )),
    # rulesets.md, "Validate": five mistakes in a copy of the card game
    "five-mistakes": Broken(CARDS, "/tmp/my-cards/ruleset.yaml", (
        ("", "    for r in roles:\n      move(c in cards where c.front.element == r, hand(r))",
         "    for r in roles:\n      move(c in cards where c.front.colour == r, hand(r))"),
        ("", "    for r in roles where seated(r):\n      move(c in cards where c.front.element == r, hand(r))",
         "    for r in roles where seated(r):\n      move(c in cards where c.front.colour == r, hand(r))"),
        ("", "      from: hand\n      to: board", "      from: hands\n      to: board"),
        ("", "Fire:  {Earth: neighbour", "Fier:  {Earth: neighbour"),
        ("", "when: count(c in board) == count(c in cards)\n", "when: count(c in board) == count(c in cards) and turn\n"),
    )),
    # rulesets.md, "Validate": a shape error
    "shape-error": Broken(CARDS, "/tmp/shape/ruleset.yaml", (
        ("", "      face: choose          # the player chooses which face to show; after the\n", "      facing: up\n"),
    )),
    # characters.md, "Validate": two mistakes in Ysolde
    "ysolde-mistakes": Broken("rulesets/iconica", "rulesets/iconica", (
        ("characters/ysolde.yaml", "before_roll: damage(self, 10, status)", "before_roll: damage(self, 10)"),
        ("characters/ysolde.yaml", "50: reaction 10", "50: reacton 10"),
    )),
    # rulesets.md, "When a change breaks the base": an extending file gives an option a text
    "extends-breaks-base": Broken("docs/examples/wide-tiles.yaml", "/tmp/wide-tiles.yaml", (
        ("", "{default: 5}", "{default: wide}"),
    )),
    # rulesets.md, "Redefining a status ...": validate notes what an extending file replaces (no edit: the real output)
    "overlay-replaces": Broken("tests/data/overlays/replace", "tests/data/overlays/replace", ()),
    # rulesets.md, "meters": a meter read with a carrier of the wrong kind, and a counter that is no meter
    "standoff-mistakes": Broken("docs/examples/standoff", "/tmp/standoff", (
        ("ruleset.yaml", "lose(stamina(foe), 1, strike, by = current_role)", "lose(nerve(foe), 1, strike, by = current_role)"),
        ("ruleset.yaml", "gain(nerve(current_role), 1, rally)", "gain(resolve(current_role), 1, rally)"),
    )),
    # rulesets.md, "Shapes outside casting": a misspelt shape in a pattern function
    "hex-triads-triangel": Broken("docs/examples/hex-triads", "/tmp/hex-triads", (
        ("ruleset.yaml", 'pattern_pieces("triangle"', 'pattern_pieces("triangel"'),
    )),
    # tutorial.md, step 2: the function's parameter written without its type
    "ladders-untyped": Broken("docs/examples/ladders", "/tmp/ladders", (
        ("ruleset.yaml", "landing(int n):", "landing(n):"),
    )),
    # spells.md: a misspelt shape in the example spell
    "my-spells-tea": Broken("docs/examples/my-spells", "docs/examples/my-spells", (
        ("ruleset.yaml", "shape: tee", "shape: tea"),
    )),
}
SPECIAL = ("expression", "step-budget")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def marked_blocks() -> list[tuple[str, str, str]]:
    """(where in the docs, NAME, the block's text) for every marked block."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in MARKED.finditer(text):
            found.append((f"{doc.relative_to(ROOT)}:{_line_of(text, m.start())}", m.group(1), m.group(2)))
    return found


def _expression_output(shown: str) -> str:
    lines = shown.splitlines()
    assert len(lines) >= 2 and lines[1].startswith("    "), "an expression block quotes its expression on line 2"
    text = lines[1][4:]
    try:
        engine.load("iconoclasm-cards").compile_condition(text)
    except engine.RulesetError as err:
        return err.format()
    return f"(no error for {text!r})"


def _step_budget_output() -> str:
    game = engine.load("iconoclasm-cards")
    scope = Scope(game.vocab, DiagnosticSink())
    compiled = parse_program("repeat 200000: pass").compile(scope)
    assert not scope.sink.items
    try:
        Program(compiled.fn, max(scope.slots, 1)).run(game.new_state(players=4, seed=1))
    except EffectRuntimeError as err:
        return str(err)
    return "(no error)"


def _cli_output(recipe: Broken, shown: str, work: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    command = shown.splitlines()[0]
    assert command.startswith("$ rulecraft "), "a command's output starts with its command: '$ rulecraft ...'"
    target = work / recipe.to.lstrip("/")
    source = ROOT / recipe.source
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    for inside, old, new in recipe.edits:
        path = target / inside if inside else target
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{recipe.source}{'/' + inside if inside else ''} no longer holds {old!r} once"
        path.write_text(text.replace(old, new), encoding="utf-8")
    args = [f"{work}{a}" if a.startswith("/tmp/") else a for a in shlex.split(command)[2:]]
    monkeypatch.chdir(work)
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return command + "\n" + result.output.replace(f"{work}/tmp/", "/tmp/")


BLOCKS = marked_blocks()


@pytest.mark.parametrize(("where", "name", "shown"), BLOCKS, ids=[f"{w}:{n}" for w, n, _ in BLOCKS])
def test_the_shown_output_is_real(where: str, name: str, shown: str, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if name == "expression":
        real = _expression_output(shown)
    elif name == "step-budget":
        real = _step_budget_output()
    else:
        assert name in BROKEN, f"{where}: no recipe for '<!-- output: {name} -->' in tests/test_doc_output.py"
        real = _cli_output(BROKEN[name], shown, tmp_path, monkeypatch)
    assert shown.rstrip("\n") == real.rstrip("\n"), f"{where}: the doc shows other output than '{name}' gives"


def test_every_recipe_is_shown_once() -> None:
    names = [name for _, name, _ in BLOCKS]
    assert names.count("expression") >= 5 and names.count("step-budget") == 1, names
    for name in BROKEN:
        assert names.count(name) == 1, f"'<!-- output: {name} -->' should mark one block in docs/, not {names.count(name)}"


def test_every_error_example_is_marked() -> None:
    unmarked = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        marked = {m.start(2) for m in MARKED.finditer(text)}
        for m in FENCE.finditer(text):
            if m.start(1) not in marked and DIAGNOSTIC.search(m.group(1)):
                unmarked.append(f"{doc.relative_to(ROOT)}:{_line_of(text, m.start())}")
    assert not unmarked, f"output blocks with diagnostics but no '<!-- output: NAME -->' above them: {unmarked}"
