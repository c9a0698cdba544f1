"""``rulecraft validate``: every problem in a ruleset (or scenario), positioned.

A path may be a ruleset (``ruleset.yaml`` or its folder), a fragment that a
ruleset includes (then the including ruleset is validated), or a scenario
file.  A ruleset is checked as it is and with each of its variants, and then
played: one random game per player count (seed 0), so that code which only
fails when it runs (a division by zero in a score, a step budget run out) is
reported too, with the command that plays that game again.

Example::

    for diagnostic in validate_path("rulesets/my-game"):
        print(diagnostic.format())      # file:line:col: message, the line, a caret
"""

from __future__ import annotations

from pathlib import Path

from engine.compiling.loading import GameRef, load_path
from engine.core.compose import compose, replacements, variant_names
from engine.core.errors import Diagnostic, EffectRuntimeError, RulecraftError, RulesetError, SourcePos
from engine.core.paths import RULESET_FILE
from engine.model.game import Game
from engine.runner.simulate import play_command, play_game
from engine.core.yamlsource import Mapping, load_yaml



def validate_path(path: str) -> list[Diagnostic]:
    """All diagnostics for one path (empty when valid)."""
    p = Path(path)
    if p.is_dir() and not (p / RULESET_FILE).exists():
        return _validate_scenario_folder(p)
    if p.is_dir():
        p = p / RULESET_FILE
    try:
        doc = load_yaml(p)
    except RulesetError as err:
        return err.diagnostics
    if isinstance(doc, Mapping) and "ruleset" in doc:  # rulesets have no 'ruleset:' key
        from engine.runner.scenario import validate_scenario

        return validate_scenario(p)
    if not (isinstance(doc, Mapping) and "name" in doc):
        owner = _including_ruleset(p)
        if owner is None or not _includes(owner, p):
            return [Diagnostic(SourcePos(str(p), 1, 1), "not a ruleset (no 'name:'), a scenario (no 'ruleset:'), or a file a ruleset includes")]
        p = owner
    return validate_ruleset(p)


def _validate_scenario_folder(folder: Path) -> list[Diagnostic]:
    """A folder without a ruleset of its own: every ruleset in its subfolders (``rulesets/``) and every scenario
    file below it (``my-game/scenarios``), the scenarios checked without running them.

    A folder with neither is one problem: ``validate_path("my-game/notes")`` says so.
    """
    from engine.runner.scenario import scenario_files, validate_scenario

    rulesets = sorted(folder.rglob(RULESET_FILE))
    files = scenario_files([folder])
    if not rulesets and not files:
        return [Diagnostic(None, f"folder '{folder}' has no {RULESET_FILE} and no scenario files (*.yaml with 'ruleset:')")]
    found = [d for ruleset in rulesets for d in validate_path(str(ruleset))] + [d for file in files for d in validate_scenario(file)]
    once: dict[tuple[str, int, int, str], Diagnostic] = {}
    for d in found:  # a ruleset's problem once, not again for each of its scenarios
        once.setdefault(_place(d), d)
    return list(once.values())


def _place(d: Diagnostic) -> tuple[str, int, int, str]:
    """What makes two diagnostics the same problem: the file (however reached), the line, the column, the message."""
    return (str(Path(d.pos.file).resolve()), d.pos.line, d.pos.col, d.message) if d.pos else ("", 0, 0, d.message)


def validate_ruleset(path: Path) -> list[Diagnostic]:
    """Check a ruleset and each of its variants; diagnostics are not repeated."""
    found = _check(path, [])
    if found:
        return found
    seen: set[str] = set()
    try:
        names = variant_names(path)
    except RulesetError as err:
        return err.diagnostics
    for name in names:
        for d in _check(path, [name]):
            key = d.headline()
            if key not in seen:
                seen.add(key)
                found.append(Diagnostic(d.pos, f"{d.message} (with variant '{name}')", d.hint))
    return found


def notes_for_path(path: str) -> list[Diagnostic]:
    """What a valid ruleset's overlays replace (``status 'Sting' replaces the one from my-game (...)``), on its own
    and with each variant; none for a scenario or an invalid ruleset.

    Example::

        for note in notes_for_path("my-game-hard"):
            print(note.headline())      # my-game-hard/ruleset.yaml:4:3: status 'Sting' replaces the one from my-game (...)
    """
    p = Path(path)
    p = p / RULESET_FILE if p.is_dir() else p
    try:
        names = variant_names(p)
        found: dict[str, Diagnostic] = {}
        for variants in [[], *([name] for name in names)]:
            for note in replacements(compose(p, variants)):
                suffix = f" (with variant '{variants[0]}')" if variants else ""
                found.setdefault(str(note), Diagnostic(note.pos, f"{note}{suffix}"))
    except (RulesetError, RecursionError):
        return []
    return list(found.values())


def _check(path: Path, variants: list[str]) -> list[Diagnostic]:
    try:
        game = load_path(path, variants)
    except RulesetError as err:
        return err.diagnostics
    except RulecraftError as err:
        return [Diagnostic(SourcePos(str(path), 1, 1), str(err))]
    except RecursionError:
        return [Diagnostic(SourcePos(str(path), 1, 1), "the ruleset nests too deeply to check")]
    return played(game)


def played(game: Game) -> list[Diagnostic]:
    """What goes wrong in one random game per player count (seed 0): the first failure, where its code is.

    Example::

        played(engine.load("my-game"))   # [] when every such game runs to its end
    """
    for players in game.player_counts:
        specs = ["random"] * players
        try:
            play_game(game, players, 0, specs)
        except RulecraftError as err:
            ref = GameRef.of(game)  # the game named as a simulation names a failing game
            again = play_command(ref.source, ref.variants, dict(ref.set_options), players, 0, specs)
            pos = err.pos if isinstance(err, EffectRuntimeError) and err.pos else SourcePos(game.source, 1, 1)
            message = err.message if isinstance(err, EffectRuntimeError) else str(err)
            return [Diagnostic(pos, f"{message} (in a random game of {players} players; watch it: {again})")]
    return []


def _includes(owner: Path, fragment: Path) -> bool:
    """Whether composing ``owner`` reads ``fragment`` (every node remembers its file)."""
    try:
        tree = compose(owner)
    except RulesetError:
        return True  # the owner's own errors will be reported when it is validated
    wanted = str(fragment.resolve())
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        pos = getattr(node, "pos", None)
        if pos is not None and str(Path(pos.file).resolve()) == wanted:
            return True
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _including_ruleset(path: Path) -> Path | None:
    """The nearest ``ruleset.yaml`` above a fragment file."""
    for folder in path.resolve().parents:
        candidate = folder / RULESET_FILE
        if candidate.is_file() and candidate != path.resolve():
            return candidate
    return None
