"""``rulecraft new``: start a ruleset folder from a copy of another ruleset.

The copy keeps the source's files (the ruleset, the files it includes, its
scenario files), renames the ruleset, points each file's schema line at the
installed schemas and each scenario at the new folder, then validates the
result and runs its scenarios, so a designer starts from something that passes.

Example::

    $ rulecraft new my-game                      # a copy of the built-in starter (`starter: true`)
    $ rulecraft new my-variant --from another-game
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.errors import RulecraftError
from engine.core.paths import RULESET_FILE, builtin_names, find_ruleset, schemas_dir
from engine.core.showtext import players as players_text
from engine.core.yamlsource import yaml_text


SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=\S*?(\w+)\.schema\.json\s*$", re.MULTILINE)
NAME_LINE = re.compile(r"^name:.*$", re.MULTILINE)
STARTER_LINE = re.compile(r"^starter:\s*true\b.*\n", re.MULTILINE)  # the built-in `new` copies by default
RULESET_LINE = re.compile(r"^ruleset:.*$", re.MULTILINE)
EXTENDS_LINE = re.compile(r"^extends:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(?:#.*)?$", re.MULTILINE)
STARTER_SCENARIO = """\
# yaml-language-server: $schema={schema}
# A scenario: set up a position (or a seed), play actions, state what must hold.
# Run it with: rulecraft check {folder}
name: the game starts with {players_text}
ruleset: {ruleset}
players: {players}
seed: 1
actions: []
expect:
  - player_count == {players}
"""


@dataclass
class NewRuleset:
    """What ``new`` made: the files written, and how validation and the scenarios went."""

    folder: Path
    files: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    scenarios_passed: int = 0
    scenario_failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The new ruleset validates and every scenario passes."""
        return not self.problems and not self.scenario_failures


def smallest_builtin() -> str:
    """The built-in ruleset to start from by default: the one that says ``starter: true``, else the one with the
    fewest bytes of YAML (scenarios aside).

    >>> smallest_builtin() in builtin_names()
    True
    """
    starters = [name for name in builtin_names() if STARTER_LINE.search(find_ruleset(name).read_text(encoding="utf-8"))]
    if starters:
        return starters[0]

    def size(name: str) -> int:
        folder = find_ruleset(name).parent
        return sum(p.stat().st_size for p in folder.rglob("*.yaml") if "scenarios" not in p.relative_to(folder).parts)

    return min(builtin_names(), key=size)


def create(folder: Path, source: str | None = None) -> NewRuleset:
    """Copy the ruleset ``source`` (a built-in name or a path; default :func:`smallest_builtin`) into the new
    folder ``folder``, then check it.

    The ruleset is named after the folder.  Raises RulecraftError when the
    folder already exists or the folder it goes in does not, or its name is not a ruleset name or is a built-in's.
    When copying fails part-way, the folder is removed again; a complete copy
    that does not pass is kept, with its problems in the result.

    >>> import tempfile
    >>> made = create(Path(tempfile.mkdtemp()) / "my-game")
    >>> made.ok, sorted(p.name for p in made.files)
    (True, ['ruleset.yaml', 'sun-beats-moon.yaml'])
    """
    from engine.runner.scenario import scenario_files  # loads the compiler: only when a ruleset is made

    name = folder.name
    if not name:  # '.' or '/': a folder that is there already, with no name of its own
        raise RulecraftError(f"'{folder}' names no new folder: give the new ruleset's folder, as rulecraft new my-game")
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        raise RulecraftError(f"'{name}' is not a ruleset name: use lower-case letters, digits and '-' (my-game)")
    if name in builtin_names():
        raise RulecraftError(f"'{name}' is the name of a built-in ruleset, which the name would mean on the command line; choose another")
    if folder.exists() or folder.is_symlink():  # a link to nothing too: mkdir would fail on it with "File exists"
        raise RulecraftError(f"{folder} already exists{' (a link)' * folder.is_symlink()}; give a new folder")
    if not folder.parent.is_dir():  # a mistyped path is not made into folders nobody asked for
        where = folder.parent if ".." not in folder.parent.parts else f"{folder.parent} (each folder a '..' follows must be there)"
        raise RulecraftError(f"there is no folder {where} to make {name} in; create it first")
    origin = find_ruleset(source or smallest_builtin()).resolve()
    sources = _files_of(origin)
    made = NewRuleset(folder)
    folder.mkdir()
    try:
        for path in sources:  # a ruleset kept in a file of another name (my-variant.yaml) becomes ruleset.yaml
            target = folder / (RULESET_FILE if path == origin else path.relative_to(origin.parent))
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            made.files.append(target)
        for target in made.files:
            _adapt(target, folder, name, is_ruleset=target == folder / RULESET_FILE)
        _keep_base(folder / RULESET_FILE, origin.parent)
        if not scenario_files([folder]):
            made.files.append(_starter_scenario(folder))
    except BaseException:  # a half-made copy (a full disk, Ctrl-C ...) is not left behind
        shutil.rmtree(folder, ignore_errors=True)
        raise
    _check(made)
    return made


def _files_of(ruleset: Path) -> list[Path]:
    """The ruleset file, every file it includes and its scenario files (all inside its folder).

    A ruleset in a file of another name than ruleset.yaml shares its folder with others: their scenarios stay.
    """
    from engine.core.compose import compose
    from engine.runner.scenario import scenario_files

    tree = compose(ruleset)
    files = {ruleset} | {Path(f).resolve() for f in _source_files(tree)}
    if ruleset.name == RULESET_FILE:
        files |= {p.resolve() for p in scenario_files([ruleset.parent])}
    return sorted(f for f in files if f.is_relative_to(ruleset.parent))


def _source_files(node: object) -> set[str]:
    """The files the nodes of a composed tree were read from."""
    from engine.core.yamlsource import Mapping

    found: set[str] = set()
    if isinstance(node, Mapping):
        found.add(node.pos.file)
        for value in node.values():
            found |= _source_files(value)
    elif isinstance(node, list):
        for value in node:
            found |= _source_files(value)
    return found


def _adapt(path: Path, folder: Path, name: str, is_ruleset: bool) -> None:
    """Point the schema line at the installed schemas; rename the ruleset (no longer the starter); aim scenarios at
    the new folder."""
    text = path.read_text(encoding="utf-8")
    text = SCHEMA_LINE.sub(lambda m: f"# yaml-language-server: $schema={_schema_path(path, m.group(1))}", text, count=1)
    if is_ruleset:
        text = NAME_LINE.sub(f"name: {yaml_text(name)}", text, count=1)  # quoted when it would read as a number (2048)
        text = STARTER_LINE.sub("", text, count=1)
    elif RULESET_LINE.search(text):
        text = RULESET_LINE.sub(f"ruleset: {_relative(folder, path.parent)}", text, count=1)
    path.write_text(text, encoding="utf-8")


def _keep_base(ruleset: Path, origin: Path) -> None:
    """A copied ``extends: PATH`` (relative to the source's folder) points at the same base from the copy."""
    text = ruleset.read_text(encoding="utf-8")
    found = EXTENDS_LINE.search(text)
    if found is None or found.group(1) in builtin_names():
        return
    base = find_ruleset(found.group(1), relative_to=origin)
    line = f"extends: {_relative(base.parent if base.name == RULESET_FILE else base, ruleset.parent)}"
    ruleset.write_text(text[:found.start()] + line + text[found.end():], encoding="utf-8")


def _schema_path(path: Path, kind: str) -> str:
    """The schema of ``kind`` as a path relative to ``path``'s folder (absolute across drives)."""
    from engine.compiling.schema import SCHEMAS

    schema = schemas_dir() / SCHEMAS.get(kind, SCHEMAS["ruleset"])
    return _relative(schema, path.parent)


def _relative(target: Path, start: Path) -> str:
    try:
        return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()
    except ValueError:  # another drive
        return target.resolve().as_posix()


def _starter_scenario(folder: Path) -> Path:
    """A first scenario for a ruleset that came without any."""
    from engine.compiling.loading import load_path
    from engine.compiling.schema import SCHEMAS

    players = min(load_path(folder / RULESET_FILE).player_counts)
    path = folder / "scenarios" / "starts.yaml"
    path.parent.mkdir()
    schema = _relative(schemas_dir() / SCHEMAS["scenario"], path.parent)
    path.write_text(STARTER_SCENARIO.format(schema=schema, folder=folder.name, players=players, players_text=players_text(players), ruleset=".."),
                    encoding="utf-8")
    return path


def _check(made: NewRuleset) -> None:
    """Validate the new ruleset and run its scenarios."""
    from engine.runner.scenario import run_scenario, scenario_files
    from engine.runner.shared_games import one_compile_per_game
    from engine.runner.validate import validate_path

    made.problems = [d.format() for d in validate_path(str(made.folder))]
    if made.problems:
        return
    with one_compile_per_game():
        for path in scenario_files([made.folder]):
            result = run_scenario(path)
            if result.passed:
                made.scenarios_passed += 1
            else:
                made.scenario_failures += [f"{path}: {failure}" for failure in result.failures]
