"""``rulecraft validate``: every problem in a ruleset (or scenario), positioned.

A path may be a ruleset (``ruleset.yaml`` or its folder), a fragment that a
ruleset includes (then the including ruleset is validated), or a scenario
file.  A ruleset is checked as it is and with each of its variants, and then
played: random games per player count (the ruleset as written ``SEEDS`` of
them, each variant one), so that code which only fails when it runs (a
division by zero in a score, a step budget run out) is reported too, with the
command that plays that game again, and so is an ``end: when`` that none of a
player count's games met (each stopped at the turn limit).  A game random
players rarely finish may be judged as players trying to win play it
(``validate_path(path, agent="greedy")``, ``rulecraft validate --agents
greedy``): where every random game of a player count stopped at the turn
limit, that agent plays those games again, and ``end: when`` is reported only
if its games never end either.  The agent plays only there, so a searching
bot costs nothing where random games end (its every game of a long ruleset's
ten variants took ten minutes).

Example::

    for diagnostic in validate_path("rulesets/my-game"):
        print(diagnostic.format())      # file:line:col: message, the line, a caret
"""

from __future__ import annotations

import re
import shlex
from functools import lru_cache
from pathlib import Path
from typing import Callable

from engine.compiling.blame import blame_extension
from engine.compiling.loading import GameRef
from engine.compiling.vocabulary import ENGINE_FUNCTIONS
from engine.core.compose import compose, replacements, variant_names
from engine.core.errors import AgentError, Diagnostic, EffectRuntimeError, RulecraftError, RulesetError, SourcePos, did_you_mean
from engine.core.paths import RULESET_FILE, files_below
from engine.model.game import Game
from engine.runner.moved_again import moved_again
from engine.runner.shared_games import compiled, one_compile_per_game
from engine.runner.simulate import play_command, play_game
from engine.core.yamlsource import Mapping, load_yaml
from engine.lang.defined import parse_signature
from engine.lang.parser import parse_program

Watch = Callable[[str], None]
"""Told what ``validate`` plays next, a line for a progress display (``"my-game: 2 players, seed 1, random"``)."""



def validate_path(path: str, set_options: dict[str, str] | None = None, agent: str = "random",
                  watch: Watch | None = None) -> list[Diagnostic]:
    """All diagnostics for one path (empty when valid); ``set_options`` (``{"width": "9"}``, as ``--set`` gives them)
    set options of a ruleset as written and of each of its variants before they are checked; ``agent`` (an agent
    spec, ``greedy``) plays again every seat of the games of a player count whose random games never ended;
    ``watch`` is told of each game before it is played (a progress line: ``"my-game (variant 'wide'): 3 players,
    seed 0, random"``)."""
    p = Path(path)
    if p.is_dir() and not (p / RULESET_FILE).exists():
        return _validate_scenario_folder(p, agent, watch)
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
    return validate_ruleset(p, set_options, agent, watch)


def _validate_scenario_folder(folder: Path, agent: str = "random", watch: Watch | None = None) -> list[Diagnostic]:
    """A folder without a ruleset of its own: every ruleset in its subfolders (``rulesets/``) and every scenario
    file below it (``my-game/scenarios``), the scenarios checked without running them.

    A folder with neither is one problem: ``validate_path("my-game/notes")`` says so.
    """
    from engine.runner.scenario import scenario_files, validate_scenario

    rulesets = files_below(folder, RULESET_FILE)
    files = scenario_files([folder])
    if not rulesets and not files:
        return [Diagnostic(None, f"folder '{folder}' has no {RULESET_FILE} and no scenario files (*.yaml with 'ruleset:')")]
    with one_compile_per_game():  # one compile per game for the rulesets and the scenarios that play them
        found = [d for ruleset in rulesets for d in validate_path(str(ruleset), agent=agent, watch=watch)]
        found += [d for file in files for d in validate_scenario(file)]
    once: dict[tuple[str, int, int, str], Diagnostic] = {}
    for d in found:  # a ruleset's problem once, not again for each of its scenarios
        once.setdefault(_place(d), d)
    return list(once.values())


def _place(d: Diagnostic) -> tuple[str, int, int, str]:
    """What makes two diagnostics the same problem: the file (however reached), the line, the column, the message."""
    return (str(Path(d.pos.file).resolve()), d.pos.line, d.pos.col, d.message) if d.pos else ("", 0, 0, d.message)


def validate_ruleset(path: Path, set_options: dict[str, str] | None = None, agent: str = "random",
                     watch: Watch | None = None) -> list[Diagnostic]:
    """Check a ruleset and each of its variants (with ``set_options`` set, ``agent`` and ``watch`` as
    :func:`validate_path` has them); diagnostics are not repeated. An option only some variants declare is set in those (a name
    none declares is refused)."""
    found = _check(path, [], _for_base(path, set_options), agent, watch)
    if found:
        return found
    seen: set[str] = set()
    try:
        names = variant_names(path)
    except RulesetError as err:
        return err.diagnostics
    for name in names:
        for d in _check(path, [name], _declared(path, [name], set_options), agent, watch):
            key = d.headline()
            if key not in seen:
                seen.add(key)
                found.append(_with_variant(d, name))
    return found


def _with_variant(d: Diagnostic, name: str) -> Diagnostic:
    """``d``, found only with variant ``name``, saying so.  A top-level key the base does not have was written in the
    variant (the base alone had no problem), so it is reported there, not "in the top level".

    >>> _with_variant(Diagnostic(None, "unknown key 'doc' in the top level", "known keys: name, description"), "wide").headline()
    "unknown key 'doc' in variant 'wide' (a variant's keys are the ruleset's own sections: known keys: name, description)"
    """
    if d.message.startswith("unknown key ") and d.message.endswith(" in the top level"):
        hint = f"a variant's keys are the ruleset's own sections: {d.hint}" if d.hint and d.hint.startswith("known keys") else d.hint
        return Diagnostic(d.pos, d.message.removesuffix(" in the top level") + f" in variant '{name}'", hint)
    return Diagnostic(d.pos, f"{d.message} (with variant '{name}')", d.hint)


def _declared(path: Path, variants: list[str], set_options: dict[str, str] | None) -> dict[str, str] | None:
    """The ``set_options`` the ruleset with ``variants`` declares: a variant that drops an option (``options: null``)
    is checked without it, as it plays, not refused for a setting meant for the others.

    Example::

        _declared(path, ["fixed"], {"need": "2"})   # {} when the variant 'fixed' says options: null
    """
    if not set_options:
        return set_options
    try:
        options = compose(path, variants).get("options")
    except (RulesetError, RecursionError):
        return set_options  # _check reports what is wrong
    return {name: value for name, value in set_options.items() if isinstance(options, Mapping) and name in options}


def _for_base(path: Path, set_options: dict[str, str] | None) -> dict[str, str] | None:
    """The ``set_options`` to check the ruleset as written with: those it declares, and those no variant declares
    either (refused there, with their did-you-mean); an option only a variant adds is left to that variant."""
    if not set_options:
        return set_options
    try:
        names = variant_names(path)
    except RulesetError:
        return set_options  # the check of the ruleset says what is wrong
    own = _declared(path, [], set_options) or {}
    elsewhere = {option for name in names for option in _declared(path, [name], set_options) or {}}
    return {option: value for option, value in set_options.items() if option in own or option not in elsewhere}


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
            tree = compose(p, variants)
            suffix = f" (with variant '{variants[0]}')" if variants else ""
            for note in replacements(tree):
                found.setdefault(str(note), Diagnostic(note.pos, f"{note}{suffix}"))
            for pos, text in [*unset_attributes(tree), *built_ins_replaced(tree), *unnamed_zones(tree), *moved_again(tree)]:
                found.setdefault(text, Diagnostic(pos, f"{text}{suffix}"))
    except (RulesetError, RecursionError):
        return []
    return list(found.values())


def built_ins_replaced(tree: Mapping) -> list[tuple[SourcePos | None, str]]:
    """Each function or procedure the ruleset defines under the name of one of the engine's own: its code calls the
    ruleset's (a ruleset written before the engine had that function keeps working), and the engine's is out of its
    reach.

    >>> tree = load_yaml("r.yaml", "functions: {'sgn(int n)': n * 2, 'twice(int n)': n * 2}\\nprocedures: {'say(int n)': pass}")
    >>> [text for _, text in built_ins_replaced(tree)]  # doctest: +NORMALIZE_WHITESPACE
    ["function 'sgn' has the name of a built-in function (sgn(NUMBER) -> int): this ruleset's code calls its own",
     "procedure 'say' has the name of a built-in function (say(TEXT)): this ruleset's code calls its own"]
    """
    engine_functions = {f.name: f for f in ENGINE_FUNCTIONS}
    found = []
    for section, what in (("functions", "function"), ("procedures", "procedure")):
        defined = tree.get(section)
        for key in defined if isinstance(defined, Mapping) else ():
            signature = parse_signature(str(key))
            known = engine_functions.get(signature[0]) if signature is not None else None
            if known is not None:
                found.append((defined.key_pos.get(key), f"{what} '{known.name}' has the name of a built-in function "
                                                        f"({known.signature}): this ruleset's code calls its own"))
    return found


def unnamed_zones(tree: Mapping) -> list[tuple[SourcePos | None, str]]:
    """Each zone that no step, setting or code names: nothing is ever put there or read from it (one left over from an
    earlier draft, or misspelt where it is used, which that place reports).

    >>> tree = load_yaml("r.yaml", "zones: {deck: {kind: pile}, used: {kind: pile}}\\nsetup: shuffle(deck)\\n")
    >>> [text for _, text in unnamed_zones(tree)]
    ["zone 'used' is named by no step, setting or code, so nothing is ever put there"]
    """
    zones = tree.get("zones")
    if not isinstance(zones, Mapping):
        return []
    named = _names_said({key: value for key, value in tree.items() if key != "zones"})
    return [(zones.key_pos.get(name), f"zone '{name}' is named by no step, setting or code, so nothing is ever put "
                                      "there") for name in zones if name not in named]


def unset_attributes(tree: Mapping) -> list[tuple[SourcePos | None, str]]:
    """Each attribute a kind declares that none of its components gives a value: every one reads ``none`` (a value
    left out is none, so a kind's optional attribute is simply not written; one that none has is likely forgotten).
    A kind written in the shorthand (``Front/Back``) is left alone.

    >>> tree = load_yaml("r.yaml", "components: {card: {attributes: {cost: int, power: int}, instances: [{id: a, cost: 1}]}}")
    >>> [text for _, text in unset_attributes(tree)]
    ["attribute 'power' of card is given by no card, so every card reads none"]

    An attribute ``each`` gives (a deck made of every rank of every suit) is given:

    >>> unset_attributes(load_yaml("r.yaml", "components: {card: {attributes: {rank: int}, instances: "
    ...                                      "[{each: {rank: [1, 2]}, id: '{rank}'}]}}"))
    []

    and so is one with a ``default``:

    >>> unset_attributes(load_yaml("r.yaml", "components: {card: {attributes: {cost: {type: int, default: 0}}, "
    ...                                      "instances: [{id: a}]}}"))
    []
    """
    kinds = tree.get("components")
    found = []
    for kind, spec in kinds.items() if isinstance(kinds, Mapping) else ():
        attributes = spec.get("attributes") if isinstance(spec, Mapping) else None
        instances = spec.get("instances") if isinstance(spec, Mapping) else None
        if not isinstance(attributes, Mapping) or not isinstance(instances, list) or not instances:
            continue
        if not all(isinstance(i, Mapping) for i in instances):
            continue  # the shorthand gives a face attribute by the text alone
        given = {name for i in instances for name in [*i, *(i.get("each") if isinstance(i.get("each"), Mapping) else ())]}
        given |= {name for name, decl in attributes.items() if isinstance(decl, Mapping) and "default" in decl}
        found += [(attributes.key_pos.get(name), f"attribute '{name}' of {kind} is given by no {kind}, so every {kind} "
                                                 "reads none") for name in attributes if name not in given]
    return found


def _check(path: Path, variants: list[str], set_options: dict[str, str] | None = None,
           agent: str = "random", watch: Watch | None = None) -> list[Diagnostic]:
    try:
        game = compiled(path, variants, set_options, dict.fromkeys(set_options or {}, "--set"))
    except RulesetError as err:
        return err.diagnostics
    except RulecraftError as err:
        return [Diagnostic(SourcePos(str(path), 1, 1), str(err))]
    except RecursionError:
        return [Diagnostic(SourcePos(str(path), 1, 1), "the ruleset nests too deeply to check")]
    seeds = 1 if variants else SEEDS
    if watch is not None:
        watch = _naming(watch, f"{game.name} (variant '{'+'.join(variants)}')" if variants else game.name)
    failures, endless = played(game, seeds, watch=watch)
    if endless and not failures and agent != "random":
        failures, endless = played(game, seeds, agent, endless, watch)
    tree = compose(path, variants)  # as written, no option set: read by each check below
    return _unread_options(path, tree) + _unread_hooks(path, tree) + (
        failures or _never_ending(path, tree, game, endless, agent) or _broken_at_setup(path, tree, game))


def _naming(watch: Watch, name: str) -> Watch:
    """``watch``, told the game's ``name`` before each game.

    >>> _naming(print, "my-game")("2 players, seed 0, random")
    my-game: 2 players, seed 0, random
    """
    return lambda what: watch(f"{name}: {what}")


def _unread_options(path: Path, tree: Mapping) -> list[Diagnostic]:
    """A problem at each option that no code, setting or variant names: setting it (a variant, ``--set``, a sweep)
    would change nothing, as a misspelt one in a file that extends another (``grid_widht: {default: 4}``) does.

    What the ``options`` entries themselves say (their docs) does not count; a base's option is reported at the
    line of ``path`` that caused it (``tree``, the ruleset composed with the variants checked).
    """
    options = tree.get("options")
    if not isinstance(options, Mapping):
        return []
    named = names_in([value for key, value in tree.items() if key not in ("options", _VARIANTS)])
    variants = tree.get(_VARIANTS)  # what a variant changes may read an option; its own 'options:' declare them
    if isinstance(variants, Mapping):
        named |= names_in([{key: value for key, value in body.items() if not str(key).startswith("options")}
                           if isinstance(body, Mapping) else body for body in variants.values()])
    found = [Diagnostic(options.key_pos.get(name) or SourcePos(str(path), 1, 1),
                        f"option '{name}' is read nowhere: no code or setting names it, so setting it changes nothing",
                        did_you_mean(name, [other for other in options if other != name])
                        or f"name it in code or in a setting, such as max_turns: {name}; or remove it")
             for name in options if name not in named]
    return blame_extension(path, RulesetError(found)).diagnostics if found else []


ENGLISH = frozenset({"description", "title", "doc", "text"})
"""Keys whose values are English for readers: a name written there names nothing the game runs."""


def _unread_hooks(path: Path, tree: Mapping) -> list[Diagnostic]:
    """A problem at each text attribute whose values are code but which no step, section or code outside the
    components names: nothing runs its programs (a contest runs ``on_win`` because its step says ``on_win: on_win``;
    ``perform(c, on_play)`` runs one ``programs:`` lists).  Only what settings and code say names it: not a key
    (``do: {effect: ...}`` runs no attribute ``effect``), nor English (a description, a doc, a card's rule).  A base's
    attribute is reported at the line of ``path`` that caused it (``tree``, composed with the variants checked).
    """
    kinds = tree.get("components")
    if not isinstance(kinds, Mapping):
        return []
    named = _names_said({key: value for key, value in tree.items() if key not in ("components", _VARIANTS)})
    named |= _names_said([value for spec in kinds.values() if isinstance(spec, Mapping)  # a program may perform another
                          for i in spec.get("instances") or [] if isinstance(i, Mapping)
                          for value in i.values() if _is_code(value)])
    found: list[Diagnostic] = []
    for kind, spec in kinds.items():
        attributes = spec.get("attributes") if isinstance(spec, Mapping) else None
        if not isinstance(attributes, Mapping):
            continue
        instances = [i for i in spec.get("instances") or [] if isinstance(i, Mapping)]
        texts = [name for name, type_ in attributes.items() if type_ == "text"]
        run = [name for name in texts if name in named and any(isinstance(i.get(name), str) for i in instances)]
        for name in texts:
            if name in named or not any(_is_code(i.get(name)) for i in instances):
                continue
            found.append(Diagnostic(
                attributes.key_pos.get(name) or SourcePos(str(path), 1, 1),
                f"attribute '{name}' of {kind} holds code, but no step, section or code names it, so nothing runs it",
                (f"steps or code here run {', '.join(run)}; " if run else "")
                + f"a step runs the attribute its settings name, like a contest's 'on_win: on_win', and "
                  f"perform(c, {name}) runs one 'programs: [{name}]' lists"))
    return blame_extension(path, RulesetError(found)).diagnostics if found else []


def _is_code(value: object) -> bool:
    """Whether a value is a program of the effect language (text that only reads as English is not).

    >>> _is_code("move(t in supply, hand(owner(self)), 1)"), _is_code("Its owner takes a token."), _is_code(3)
    (True, False, False)
    """
    return isinstance(value, str) and bool(value.strip()) and _parses(value)


@lru_cache(maxsize=4096)
def _parses(text: str) -> bool:
    """Whether ``text`` parses as a program: asked again of the same texts for the ruleset and each variant, and
    English fails only after lark has tried it, so each answer is kept."""
    try:
        parse_program(text)
    except RulecraftError:
        return False
    return True


def _names_said(node: object) -> set[str]:
    """Every name written in ``node``'s values at any depth, but for its keys and its English (:data:`ENGLISH`).

    >>> sorted(_names_said({"do": {"effect": "perform(self, on_win)", "doc": "the effect of on_lose"}}))
    ['on_win', 'perform', 'self']
    """
    if isinstance(node, str):
        return set(NAME.findall(node))
    if isinstance(node, dict):
        return set().union(*(_names_said(value) for key, value in node.items() if key not in ENGLISH))
    if isinstance(node, (list, tuple)):
        return set().union(*map(_names_said, node))
    return set()


def names_in(node: object) -> set[str]:
    """Every name written in ``node``'s texts and keys, at any depth.

    >>> sorted(names_in({"end": {"max_turns": "rounds", "when": "turn > 2 and bonus(r)"}}))
    ['and', 'bonus', 'end', 'max_turns', 'r', 'rounds', 'turn', 'when']
    """
    if isinstance(node, str):
        return set(NAME.findall(node))
    if isinstance(node, dict):
        return set().union(*(names_in(key) | names_in(value) for key, value in node.items()))
    if isinstance(node, (list, tuple)):
        return set().union(*map(names_in, node))
    return set()


NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_VARIANTS = "variants"
"""A name as code and settings write one."""


def _never_ending(path: Path, tree: Mapping, game: Game, counts: list[int], agent: str = "random") -> list[Diagnostic]:
    """A problem at ``end: when`` when every game of some player count (``counts``) stopped at the turn limit: the
    random games, and those ``agent`` played again when it is not random.  The condition never held, so the game
    never ends by its own rules (a simulation of it would report the turn limit's results).  A base's ``when`` is
    reported at the line of ``path`` that caused it.

    Random players may never finish a game that players trying to win do (an attack they rarely choose well): the
    hint says how to have other bots judge it (``rulecraft validate --agents greedy``)."""
    if not counts:
        return []
    end = tree.get("end")
    pos = end.pos_of("when") if isinstance(end, Mapping) else None
    ref = GameRef.of(game)
    again = play_command(ref.source, ref.variants, dict(ref.set_options), counts[0], 0, [agent] * counts[0],
                         ref.allowed, ref.limits)
    games = "the random games" if agent == "random" else f"the random games nor in those {agent} played"
    hint = "the game must end by its own rules; the turn limit only stops a game that would not"
    if agent == "random":
        hint += ("; if only random players fail to end it, have other bots play those games again: "
                 "rulecraft validate --agents greedy (or mcts:50)")
    found = Diagnostic(pos or SourcePos(str(path), 1, 1),
                       f"'end: when' never held in {games} of {' or '.join(map(str, counts))} players: "
                       f"each stopped at the turn limit (max_turns {game.max_turns}) (watch one: {again})", hint)
    return blame_extension(path, RulesetError([found])).diagnostics


def _broken_at_setup(path: Path, tree: Mapping, game: Game) -> list[Diagnostic]:
    """The invariants that do not hold once the game is set up (seed 0), each at the line declaring it (a base's
    reported at the line of ``path`` that caused it, as a load reports it); one per invariant, naming the counts.

    ``rulecraft check --invariants`` soaks them over many games; this catches a change that breaks one at once
    (a variant dealing fewer cards than an invariant counts, say).
    """
    if not game.invariants:
        return []
    broken: dict[str, list[int]] = {}
    for players in game.player_counts:
        try:
            state = game.new_state(players=players, seed=0)
        except RulecraftError:
            continue  # a setup that fails is reported when the game is played
        for name in game.broken_invariants(state):
            broken.setdefault(name, []).append(players)
    if not broken:
        return []
    declared = tree.get("invariants")
    checked = shlex.quote(str(path.parent if path.name == RULESET_FILE else path))
    allow = "".join(f" --allow {shlex.quote(folder)}" for folder in GameRef.of(game).allowed)  # as the run read it
    found = []
    for name, counts in broken.items():
        pos = declared.key_pos.get(name) if isinstance(declared, Mapping) else None
        found.append(Diagnostic(pos or SourcePos(str(path), 1, 1),
                                f"invariant '{name}' does not hold once {' or '.join(map(str, counts))} players are set up",
                                f"rulecraft check --invariants {checked}{allow}"
                                " plays many games checking it"))
    return blame_extension(path, RulesetError(found)).diagnostics


SEEDS = 4
"""Random games ``validate`` plays per player count of the ruleset as written (seeds 0, 1, ...); each variant plays one.

Code that fails in one game in three (a score that divides by the seat of a role that may be absent) is
found 4 times in 5 by 4 games, once in 3 by one.  Measured on the shipped rulesets: the three more games
add under 0.1 s to the slowest one's ``validate`` (3 s, ten variants); playing 4 for each of its ten
variants too would add 0.8 s.
"""


def played(game: Game, seeds: int = 1, agent: str = "random", counts: list[int] | None = None,
           watch: Watch | None = None) -> tuple[list[Diagnostic], list[int]]:
    """What goes wrong in ``seeds`` games per player count (seeds 0, 1, ...; every count of the game unless
    ``counts``), every seat played by ``agent`` (random players unless told): the first failure, where its code is; and
    the player counts in which every game stopped at the turn limit (none when a game failed).  ``watch`` is told of
    each game before it is played (``"3 players, seed 0, greedy"``).

    Example::

        played(engine.load("my-game"), SEEDS)   # ([], []) when every such game runs to an end of its own
    """
    limited = dict.fromkeys(counts or game.player_counts, 0)
    for seed in range(seeds):
        for players in limited:
            specs = [agent] * players
            if watch is not None:
                watch(f"{players} players, seed {seed}, {agent}")
            try:
                limited[players] += play_game(game, players, seed, specs).turn_limit
            except RulecraftError as err:
                ref = GameRef.of(game)  # the game named as a simulation names a failing game
                again = play_command(ref.source, ref.variants, dict(ref.set_options), players, seed, specs,
                                     ref.allowed, ref.limits)
                if isinstance(err, AgentError):  # the agent's fault: the ruleset is not blamed, at no line of it
                    return [Diagnostic(None, f"{err} (in a game of {players} players; watch it: {again})",
                                       f"the ruleset was not judged by {agent}: mend the agent, or have another "
                                       "play validate's games")], []
                pos = err.pos if isinstance(err, EffectRuntimeError) and err.pos else SourcePos(game.source, 1, 1)
                message = err.message if isinstance(err, EffectRuntimeError) else str(err)
                games = "a random game" if agent == "random" else f"a game played by {agent}"
                return [Diagnostic(pos, f"{message} (in {games} of {players} players; watch it: {again})")], []
    return [], [players for players, stopped in limited.items() if stopped == seeds]


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
