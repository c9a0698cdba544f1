"""Compile a composed ruleset tree into an immutable :class:`~engine.game.Game`.

This is where the meaning checks live: every name resolves, tables are
complete, values have the declared types, every piece of effect-language text
parses and type-checks, and setup works for every declared player count.
Problems are collected (not raised one by one) so ``rulecraft validate``
reports them all, each at its ``file:line:col``.

Example::

    game = build_game(compose(find_ruleset("my-game")))   # RulesetError lists every problem
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import keyword
import re
from typing import Any, Callable, Iterable, Iterator

from engine.blocks import (  # noqa: F401  (register the step kinds)
    action_roll, casting, clash, contest, delayed, dice, draft, exchange, final_acts, groups, meters, placement, slots,
    statuses, steps, switch, track,
)
from engine.blocks.clash import OUTCOMES, ClashTable
from engine.blocks.grid import ADJACENCY, SquareGrid
from engine.blocks.hexgrid import HexGrid
from engine.blocks.majority import SupportTable
from engine.blocks.outcome import Goals, Ranking
from engine.blocks.patterns import read_shapes
from engine.blocks.steps import STEP_KINDS
from engine.counters import compile_counters, declare_counters
from engine.errors import DiagnosticSink, EffectRuntimeError, RulecraftError, RulesetError, SourcePos, did_you_mean
from engine.game import LIST_OF, Game, Program, RoleSpec, ZoneSpec
from engine.lang.defined import define_functions
from engine.lang.parser import TOO_DEEP, parse_expression, parse_program
from engine.lang.scope import Compiled, Scope
from engine.lang.types import ANY, ANY_COMPONENT, BOOL, INT, Type
from engine.vocabulary import build_vocabulary
from engine.yamlsource import Mapping, Sequence, Text, describe_kind

PARSE_CACHE = 20_000
_PARSED: dict[Any, Any] = {}  # syntax trees of code read from files, by text and position (loading again parses nothing)
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
MAX_PLAYERS = 100
MAX_HEX_RADIUS = 100
MAX_CELLS = 10_000
MAX_COPIES = 10_000
RESERVED = {"where", "in", "and", "or", "not", "if", "then", "else", "elif", "for", "let", "roll", "repeat", "pass",
            "true", "false", "none", "odd", "even"}
SUPPLY = "supply"
BOARD = "board"
TABLE = "table"  # an attribute holding structured YAML that a building block reads (code can't)
PLAIN_TYPES = ("int", "text", "bool", TABLE)


def build_game(tree: Mapping) -> Game:
    """Compile a composed tree (see :func:`engine.compose.compose`); raises RulesetError listing every problem."""
    b = Builder(tree)
    try:
        b.build()
    except RecursionError:  # a safety net: code that nests too deeply is reported where it is when possible
        b.error(tree.pos if isinstance(tree, Mapping) else None, TOO_DEEP)
    if b.sink.items and b.game.set_options:
        shown = " ".join(f"--set {name}={text}" for name, text in b.game.set_options.items())
        b.error(None, f"note: these options were set from outside the ruleset's files: {shown}")
    b.sink.raise_if_any()
    return b.game


def content_hash(tree: Any) -> str:
    """A short hash of a ruleset's meaning (its composed tree), used by saves and replays."""
    text = json.dumps(tree, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def compile_condition(game: Game, text: str, where: str = "<expression>") -> Program:
    """Compile a boolean effect-language condition against a game (raises RulesetError)."""
    from engine.errors import remember_source

    remember_source(where, text)
    sink = DiagnosticSink()
    node = parse_expression(text, lambda line, col: SourcePos(where, line, col))
    scope = Scope(game.vocab, sink)
    scope.pure = True
    try:
        compiled = node.compile(scope)
        if not BOOL.accepts(compiled.type):
            sink.error(node.pos, f"a condition must be true or false, but '{node.describe()}' is {compiled.type}")
        sink.raise_if_any()
        return Program(compiled.fn, scope.slots, text, node.describe())
    except RecursionError:
        raise RulesetError.at(node.pos, TOO_DEEP) from None


def _bound_test(fn: Callable[[Any, list[Any]], Any], slots: int) -> Callable[[Any, int], bool]:
    """A condition of ``self`` as a plain ``test(state, item)``."""

    def test(s: Any, item: int) -> bool:
        env: list[Any] = [None] * slots
        env[0] = item
        return bool(fn(s, env))

    return test


class Builder:
    """Compiles one ruleset; steps and blocks call back into it for settings and code."""

    def __init__(self, tree: Mapping) -> None:
        self.tree = tree
        self.sink = DiagnosticSink()
        name = tree.get("name")
        self.game = Game(
            name=str(name) if name else "unnamed",
            title=str(tree.get("title") or name or "unnamed"),
            version=tree.get("version", 1) if isinstance(tree.get("version", 1), int) else 1,
            description=str(tree.get("description") or ""),
            source=tree.pos.file if isinstance(tree, Mapping) else "<ruleset>",
            content_hash=content_hash(_without(tree, ("variants", "selected_variants", "set_options"))),
        )

    # ------------------------------------------------------------ reporting

    def error(self, pos: SourcePos | None, message: str, hint: str | None = None) -> None:
        self.sink.error(pos, message, hint)

    def pos(self, node: Any, key: str | int | None = None) -> SourcePos | None:
        if key is not None and isinstance(node, (Mapping, Sequence)):
            try:
                return node.pos_of(key)  # type: ignore[arg-type]
            except (KeyError, IndexError):
                return node.pos
        return getattr(node, "pos", None)

    def unknown_keys(self, spec: Mapping, allowed: Iterable[str], what: str) -> None:
        allowed = list(allowed)
        for key in spec:
            if key not in allowed:
                self.error(spec.key_pos.get(key, spec.pos), f"unknown setting '{key}' in {what}",
                           did_you_mean(key, allowed) or f"known: {', '.join(allowed)}")

    # ------------------------------------------------------------ whole ruleset

    def build(self) -> None:
        t = self.tree
        g = self.game
        g.variants = tuple(str(v) for v in t.get("selected_variants", ()) or ())
        g.set_options = {str(k): str(v) for k, v in (t.get("set_options") or {}).items()}
        variants = t.get("variants") or {}
        if isinstance(variants, Mapping):
            g.available_variants = {str(k): str((v or {}).get("description", "")) if isinstance(v, Mapping) else "" for k, v in variants.items()}
        self._players()
        self._options()
        self._types()
        self._components()
        self._display()
        self._board()
        self._roles()
        self._teams()
        self._zones()
        declare_counters(self)
        meters.declare_meter(self)
        statuses.declare_statuses(self)
        g.slots = slots.read_slots(self, t.get("slots"), self.pos(t, "slots"))
        g.first_seat = self.int_setting(t, "first_seat", 1)
        too_few = [n for n in g.player_counts if not 1 <= g.first_seat <= n]
        if too_few:
            self.error(self.pos(t, "first_seat"), f"first_seat is {g.first_seat}, but a {too_few[0]}-player game has no seat {g.first_seat}")
        self._check_names()
        g.vocab = build_vocabulary(g)
        self._opaque_options()
        meters.attach(self)
        statuses.attach(self)
        define_functions(self)
        compile_counters(self)
        self._owner_known()
        self.game.shapes = read_shapes(self)
        meters.compile_meter(self)
        statuses.compile_statuses(self)
        self._clash_tables()
        self._support_tables()
        self._setup()
        self._turn()
        statuses.check_hooks(self)
        self._end()
        self._outcomes()
        self._running_score()
        self._invariants()
        if not self.sink.items:
            self._dry_run_setups()

    def _players(self) -> None:
        players = self.tree.get("players")
        if not isinstance(players, list) or not players or not all(isinstance(p, int) and p >= 1 for p in players):
            self.error(self.pos(self.tree, "players"), "'players' must be a list of player counts, like [2, 3, 4]")
            self.game.player_counts = (2,)
            return
        if max(players) > MAX_PLAYERS:  # seats, roles and states are sized by it
            self.error(self.pos(self.tree, "players"), f"a game has at most {MAX_PLAYERS} players, not {max(players)}")
            self.game.player_counts = (2,)
            return
        self.game.player_counts = tuple(sorted(set(players)))

    def _options(self) -> None:
        options = self.tree.get("options") or {}
        for name, spec in options.items():
            self.check_identifier(name, options.key_pos.get(name), "option")
            if isinstance(spec, Mapping) and "default" in spec:
                self.game.options[name] = _plain(spec["default"])
                self.game.option_docs[name] = str(spec.get("doc") or "")
            else:
                self.game.options[name] = _plain(spec)

    def _types(self) -> None:
        seen: dict[str, str] = {}
        for name, values in (self.tree.get("types") or {}).items():
            if not isinstance(values, list) or not values:
                self.error(self.pos(self.tree["types"], name), f"type '{name}' must list its values")
                continue
            for i, value in enumerate(values):
                value = str(value)
                pos = self.pos(values, i)
                self.check_identifier(value, pos, "value")
                if value in seen:
                    self.error(pos, f"value '{value}' is already defined in type '{seen[value]}'")
                seen[value] = name
            self.game.types[name] = tuple(str(v) for v in values)

    def _check_names(self) -> None:
        """Every name a ruleset defines means one thing: values, options, collections, zones, built-ins."""
        from engine.lang.functions import FUNCTIONS
        from engine.vocabulary import BUILT_IN_NAMES, PLURAL_SUFFIX

        t = self.tree
        defined: dict[str, str] = {n: "a built-in name" for n in BUILT_IN_NAMES}
        defined.update({n: "a built-in function" for n in FUNCTIONS})
        entries: list[tuple[str, str, SourcePos | None]] = []
        for type_name, values in (t.get("types") or {}).items():
            for i, value in enumerate(values if isinstance(values, list) else []):
                entries.append((str(value), f"a value of type '{type_name}'", self.pos(values, i)))
        for name in t.get("options") or {}:
            entries.append((str(name), "an option", t["options"].key_pos.get(name)))
        for kind in t.get("components") or {}:
            entries.append((kind + PLURAL_SUFFIX, f"the collection of all {kind}{PLURAL_SUFFIX}", t["components"].key_pos.get(kind)))
        for zone in t.get("zones") or {}:
            entries.append((str(zone), "a zone", t["zones"].key_pos.get(zone)))
        for counter in t.get("counters") or {}:
            entries.append((str(counter), "a counter", t["counters"].key_pos.get(counter)))
        statuses_ = t.get("statuses")
        for status in statuses_ if isinstance(statuses_, Mapping) else {}:
            entries.append((str(status), "a status", statuses_.key_pos.get(status)))
        for name, what, pos in entries:
            if name in defined:
                self.error(pos, f"the name '{name}' is already {defined[name]}; pick another name for this {what.split(' of ')[0].removeprefix('a ').removeprefix('an ')}")
            else:
                defined[name] = what

    def _opaque_options(self) -> None:
        """Options holding null, a decimal or a mapping: settings may read them, code cannot compute with them.

        (Their type would otherwise be "any", which the checker trusts, and
        ``count(...) - option`` would fail only when run.)
        """
        for name, value in self.game.options.items():
            if value is None or isinstance(value, (float, dict)):
                kind = describe_kind(value)
                self.game.vocab.define_constant(name, Type(f"option holding {kind}"), value, f"the option {name}")

    def named_entries(self, section: str, what: str, example: str) -> Iterator[tuple[str, Mapping, SourcePos | None]]:
        """The ``NAME: {settings}`` entries of a top-level section: each name checked, each value a mapping."""
        tree = self.tree.get(section) or {}
        for name, spec in tree.items():
            pos = tree.key_pos.get(name)
            self.check_identifier(name, pos, what)
            if not isinstance(spec, Mapping):
                self.error(pos, f"{what} '{name}' must be a mapping such as {example}")
                continue
            yield str(name), spec, pos

    def check_identifier(self, name: str, pos: SourcePos | None, what: str) -> None:
        if not IDENTIFIER.match(str(name)) or name in RESERVED or keyword.iskeyword(str(name)) and name != "None":
            self.error(pos, f"{what} name '{name}' must be a single word (letters, digits, _) and not a keyword")

    # ------------------------------------------------------------ components

    def _components(self) -> None:
        g = self.game
        kinds = self.tree.get("components") or {}
        if not kinds:
            self.error(self.tree.pos, "a ruleset needs 'components'")
        attr_decls: dict[str, tuple[str, bool]] = {}
        for kind, spec in kinds.items():
            self.check_identifier(kind, kinds.key_pos.get(kind), "component kind")
            faces = tuple(str(f) for f in spec.get("faces") or ["face"])
            for i, face in enumerate(faces):
                if face in faces[:i]:
                    self.error(self.pos(spec.get("faces"), i), f"face '{face}' of {kind} is listed twice")
            g.face_names[kind] = faces
            attrs = self._attribute_decls(kind, spec, attr_decls)
            for i, inst in enumerate(spec.get("instances") or []):
                self._instance(kind, faces, attrs, inst, self.pos(spec["instances"], i))
        for attr, (type_name, _) in attr_decls.items():
            g.attribute_types[attr] = type_name
        most = max(map(len, g.face_names.values()), default=1)
        for table in g.attributes.values():  # a row per face even when no component has that many (or none at all)
            while len(table) < most:
                table.append([None] * len(g.component_names))

    def _attribute_decls(self, kind: str, spec: Mapping, decls: dict[str, tuple[str, bool]]) -> dict[str, tuple[str, bool]]:
        attrs: dict[str, tuple[str, bool]] = {}
        raw = spec.get("attributes") or {}
        for name, decl in raw.items():
            self.check_identifier(name, raw.key_pos.get(name), "attribute")
            type_name = str(decl.get("type") if isinstance(decl, Mapping) else decl)
            per_face = bool(decl.get("per_face", False)) if isinstance(decl, Mapping) else False
            if type_name not in self.game.types and type_name not in PLAIN_TYPES:
                self.error(self.pos(decl, "type") if isinstance(decl, Mapping) else self.pos(raw, name),
                           f"unknown type '{type_name}'", did_you_mean(type_name, [*self.game.types, *PLAIN_TYPES]))
            if isinstance(decl, Mapping) and self.bool_setting(decl, "list", False):
                type_name = LIST_OF + type_name
            if name in decls and decls[name][0] != type_name:
                self.error(raw.key_pos.get(name), f"attribute '{name}' has type {decls[name][0]} in another kind")
            attrs[name] = decls[name] = (type_name, per_face)
            self.game.attributes.setdefault(name, [])
        return attrs

    def _instance(self, kind: str, faces: tuple[str, ...], attrs: dict[str, tuple[str, bool]], inst: Any, pos: SourcePos | None) -> None:
        per_face = [a for a, (_, pf) in attrs.items() if pf]
        values: dict[str, list[Any]] = {}
        copies: int | None = None  # `count: N` makes N identical components sharing the id
        if isinstance(inst, str):
            parts = inst.split("/")
            if len(per_face) != 1 or len(parts) != len(faces):
                self.error(pos, f"'{inst}' must name one value per face ({'/'.join(faces)}) of a kind with one per-face attribute")
                return
            values[per_face[0]] = parts
            ident = str(inst)
        elif isinstance(inst, Mapping):
            ident = str(inst.get("id", ""))
            if not ident:
                self.error(inst.pos, "a component needs an 'id'")
                return
            if "count" in inst:
                copies = self.int_setting(inst, "count", 1)
                if copies > MAX_COPIES:  # each copy is a component of every state
                    self.error(inst.pos_of("count"), f"at most {MAX_COPIES} copies of one component, not {copies}")
                    copies = 1
            for attr, value in inst.items():
                if attr in ("id", "count"):
                    continue
                if attr not in attrs:
                    self.error(inst.key_pos.get(attr), f"{kind} has no attribute '{attr}'", did_you_mean(attr, attrs))
                    continue
                if attrs[attr][1]:
                    if not isinstance(value, list) or len(value) != len(faces):
                        self.error(inst.pos_of(attr), f"'{attr}' is per face: give one value per face ({', '.join(faces)})")
                        continue
                    values[attr] = list(value)
                else:
                    values[attr] = [value] * len(faces)
        else:
            self.error(pos, "a component is 'Front/Back' text or a mapping with an 'id'")
            return
        for attr, vals in values.items():
            type_name = attrs[attr][0]
            for v in vals:
                self.check_value(v, type_name, pos, attr)
        face_values = {a: values[a] for a in per_face if a in values}
        if copies is None:
            self._add_component(kind, ident, faces, face_values, values, pos)
            return
        if ident in self.game.identical:
            self.error(pos, f"component '{ident}' is listed twice")
            return
        first = len(self.game.component_names)
        for k in range(1, copies + 1):
            self._add_component(kind, f"{ident}-{k}", faces, face_values, values, pos, piece_name=ident)
        self.game.identical[ident] = tuple(range(first, len(self.game.component_names)))

    def check_value(self, value: Any, type_name: str, pos: SourcePos | None, what: str) -> None:
        g = self.game
        if type_name.startswith(LIST_OF):
            if not isinstance(value, list):
                self.error(pos, f"{what} must be a list, like [a, b], not '{value}'")
                return
            for item in value:
                self.check_value(item, type_name.removeprefix(LIST_OF), getattr(item, "pos", pos), f"an item of {what}")
            return
        if type_name in g.types:
            if str(value) not in g.types[type_name]:
                self.error(pos, f"unknown {type_name} '{value}' in {what}", did_you_mean(str(value), g.types[type_name]))
        elif type_name == "int" and not (isinstance(value, int) and not isinstance(value, bool)):
            self.error(pos, f"{what} must be a whole number, not '{value}'")
        elif type_name == "bool" and not isinstance(value, bool):
            self.error(pos, f"{what} must be true or false, not '{value}'")
        elif type_name == TABLE and not isinstance(value, (Mapping, Sequence)):
            self.error(pos, f"{what} must be a mapping or a list (a table read by a building block), not '{value}'")

    def _add_component(self, kind: str, ident: str, faces: tuple[str, ...], face_values: dict[str, list[Any]],
                       values: dict[str, list[Any]], pos: SourcePos | None, piece_name: str | None = None) -> None:
        g = self.game
        if ident in g.component_ids or ident in g.identical:
            self.error(pos, f"component '{ident}' is listed twice")
            return
        cid = len(g.component_names)
        g.component_ids[ident] = cid
        g.component_names.append(ident)
        g.piece_names.append(piece_name or ident)
        g.component_kind.append(kind)
        g.kinds.setdefault(kind, []).append(cid)
        g.face_count.append(len(faces))
        for attr, table in g.attributes.items():
            while len(table) < len(faces):
                table.append([None] * cid)
            for f, row in enumerate(table):
                vals = values.get(attr)
                row.append(_plain(vals[f]) if vals and f < len(vals) else None)
        labels = tuple("/".join(str(v[f]) for v in face_values.values()) or faces[f] for f in range(len(faces)))
        g.face_labels.append(labels)
        seen: dict[str, int] = {}
        for f, label in enumerate(labels):
            seen.setdefault(label, f)
        g.distinct_faces.append(tuple(sorted(seen.values())))
        g.piece_options.append(tuple((cid, f) for f in g.distinct_faces[-1]))

    # ------------------------------------------------------------ board, roles, zones

    def _board(self) -> None:
        spec = self.tree.get("board")
        if spec is None:
            return
        kind = self.choice(spec, "kind", ("square-grid", "hex"), "square-grid")
        stacking = self.bool_setting(spec, "stacking", False)
        if kind == "hex":
            self.unknown_keys(spec, ("kind", "radius", "stacking"), "a hex board")
            radius = self.int_setting(spec, "radius", 4)
            if radius > MAX_HEX_RADIUS:  # the board's cells are built at once
                self.error(self.pos(spec, "radius"), f"a hex board's radius is at most {MAX_HEX_RADIUS}, not {radius}")
                radius = 4
            self.game.grid = HexGrid(radius, stacking)
            return
        self.unknown_keys(spec, ("kind", "max_width", "max_height", "width", "height", "adjacency", "stacking"), "board")
        adjacency = self.choice(spec, "adjacency", tuple(ADJACENCY), "orthogonal")
        width, height = self.int_setting(spec, "width", 0), self.int_setting(spec, "height", 0)
        if (width > 0) != (height > 0):
            self.error(self.pos(spec, "width" if "width" in spec else "height"), "a fixed board needs both 'width' and 'height'")
            width = height = 0
        if width * height > MAX_CELLS:  # the board's cells are built at once
            self.error(self.pos(spec, "width"), f"a fixed board has at most {MAX_CELLS} cells, not {width * height}")
            width = height = 0
        if width and ("max_width" in spec or "max_height" in spec):
            self.error(self.pos(spec, "max_width" if "max_width" in spec else "max_height"),
                       "'max_width' and 'max_height' limit a growing board; a fixed board ('width', 'height') has its own edges")
        self.game.grid = SquareGrid(adjacency, self.int_setting(spec, "max_width", 0), self.int_setting(spec, "max_height", 0),
                                    width, height, stacking)

    def _roles(self) -> None:
        g = self.game
        spec = self.tree.get("roles")
        if spec is None:
            g.roles = RoleSpec("seat", tuple(f"seat{i}" for i in range(1, max(g.player_counts) + 1)), {},
                               {n: tuple(i if i <= n else 0 for i in range(1, max(g.player_counts) + 1)) for n in g.player_counts})
            return
        self.unknown_keys(spec, ("of", "shuffle", "hidden", "seating"), "roles")
        type_name = str(spec.get("of", ""))
        if type_name not in g.types:
            self.error(self.pos(spec, "of"), f"roles must be 'of' a declared type, not '{type_name}'", did_you_mean(type_name, g.types))
            return
        values = g.types[type_name]
        seating: dict[int, tuple[int, ...]] = {}
        raw = spec.get("seating") or {}
        for count in g.player_counts:
            row = raw.get(str(count))
            if row is None:
                self.error(self.pos(spec, "seating"), f"roles.seating has no entry for {count} players")
                continue
            seats = tuple(0 if s == "absent" else s for s in row)
            pos = self.pos(raw, str(count))
            if len(seats) != len(values):
                self.error(pos, f"seating for {count} players lists {len(seats)} seats but there are {len(values)} roles ({', '.join(values)})")
            elif not all(isinstance(s, int) for s in seats) or sorted(set(seats) - {0}) != list(range(1, count + 1)):
                self.error(pos, f"seating for {count} players must use seats 1..{count} (or 'absent'), each at least once")
            seating[count] = seats
        g.roles = RoleSpec(type_name, values, self._shuffled(spec, values), seating, self.bool_setting(spec, "hidden", False))

    def _shuffled(self, spec: Mapping, values: tuple[str, ...]) -> dict[int, frozenset[str]]:
        """``roles.shuffle``: per player count, the roles dealt at random.

        ``true`` (all), ``false`` (none), a list of roles, or a mapping of
        those by player count with an optional ``default``:
        ``{default: [A, B, C], 5: true}``.
        """
        raw = spec.get("shuffle", False)
        by_count = raw if isinstance(raw, Mapping) else Mapping(self.pos(spec, "shuffle") or spec.pos)
        for key in by_count:
            if key != "default" and not (key.isdigit() and int(key) in self.game.player_counts):
                self.error(by_count.key_pos.get(key), f"shuffle key '{key}' must be 'default' or a declared player count")
        default = by_count.get("default", False) if isinstance(raw, Mapping) else raw
        default_pos = self.pos(by_count, "default") if isinstance(raw, Mapping) else self.pos(spec, "shuffle")
        shuffled = {}
        for count in self.game.player_counts:
            key = str(count)
            value, pos = (by_count[key], self.pos(by_count, key)) if key in by_count else (default, default_pos)
            shuffled[count] = self._role_set(value, values, pos)
        return shuffled

    def _role_set(self, value: Any, values: tuple[str, ...], pos: SourcePos | None) -> frozenset[str]:
        """``true``: every role; ``false``: none; a list: those roles (each checked)."""
        if isinstance(value, bool):
            return frozenset(values) if value else frozenset()
        if not isinstance(value, list):
            self.error(pos, "'shuffle' is true, false or a list of roles (or a mapping of those by player count)")
            return frozenset()
        for i, role in enumerate(value):
            if str(role) not in values:
                self.error(self.pos(value, i), f"unknown role '{role}'", did_you_mean(str(role), values))
        return frozenset(str(r) for r in value)

    def _teams(self) -> None:
        """``teams``: per player count, the seats of each team (every seat in exactly one)."""
        g = self.game
        raw = self.tree.get("teams") or {}
        for key, teams in raw.items():
            pos = raw.pos_of(key)
            if not (key.isdigit() and int(key) in g.player_counts):
                self.error(raw.key_pos.get(key), f"teams key '{key}' must be a declared player count")
                continue
            count = int(key)
            ok = isinstance(teams, list) and all(isinstance(t, list) and t and all(isinstance(x, int) and not isinstance(x, bool) for x in t) for t in teams)
            seats = sorted(x for t in teams for x in t) if ok else []
            if not ok or seats != list(range(1, count + 1)):
                self.error(pos, f"teams for {count} players must list every seat 1..{count} exactly once, like [[1, 3], [2, 4]]")
                continue
            g.teams[count] = tuple(tuple(int(x) for x in t) for t in teams)

    def _zones(self) -> None:
        g = self.game
        self._add_zone(ZoneSpec(SUPPLY, "supply", False, "none"))
        if g.grid is not None:
            self._add_zone(ZoneSpec(BOARD, "board", False, "none"))
            g.board_zone = g.zone_index[(BOARD, None)]
        zones = self.tree.get("zones") or {}
        for name, spec in zones.items():
            self.check_identifier(name, zones.key_pos.get(name), "zone")
            if name in (SUPPLY, BOARD):
                self.error(zones.key_pos.get(name), f"'{name}' is a built-in zone")
                continue
            self.unknown_keys(spec, ("kind", "per", "hidden", "owner_known", "show"), f"zone '{name}'")
            kind = self.choice(spec, "kind", ("pile", "hand"), "pile")
            per = self.choice(spec, "per", ("role", "shared"), "shared")
            hidden = self.choice(spec, "hidden", ("none", "others", "order", "all"), "none")
            self._add_zone(ZoneSpec(str(name), kind, per == "role", hidden, self._shown(spec)))

    def _shown(self, spec: Mapping) -> tuple[str, ...]:
        """``show: [attribute, ...]``: what the terminal shows beside each component of the zone."""
        shown = spec.get("show") or []
        for i, attr in enumerate(shown):
            if attr not in self.game.attributes:
                self.error(self.pos(shown, i), f"unknown attribute '{attr}'", did_you_mean(str(attr), self.game.attributes))
        return tuple(str(a) for a in shown if a in self.game.attributes)

    def _display(self) -> None:
        """``display: {VALUE: {style: bold, short: A}}``: how values look in the terminal."""
        display = self.tree.get("display") or {}
        known = {v for values in self.game.types.values() for v in values}
        for value, spec in display.items():
            if value not in known:
                self.error(display.key_pos.get(value), f"unknown value '{value}'", did_you_mean(str(value), known))
                continue
            self.unknown_keys(spec, ("style", "short"), f"the display of '{value}'")
            self.game.display[str(value)] = {k: str(v) for k, v in spec.items()}

    def _owner_known(self) -> None:
        """``owner_known: CONDITION`` on a hidden per-role zone: components (``self``) everyone knows stay with that role."""
        zones = self.tree.get("zones") or {}
        for name, spec in zones.items():
            if not isinstance(spec, Mapping) or "owner_known" not in spec or str(name) not in self.game.zone_specs:
                continue
            pos = self.pos(spec, "owner_known")
            compiled, slots = self.expression(spec["owner_known"], "bool", bind={"self": ANY_COMPONENT}, pos=pos)
            zone = self.game.zone_specs[str(name)]
            if zone.hidden == "none" or not zone.per_role:
                self.error(pos, f"'owner_known' is for hidden zones kept per role, and zone '{name}' is not one")
            replaced = dataclasses.replace(zone, owner_known=_bound_test(compiled.fn, slots))
            self.game.zone_specs[str(name)] = replaced
            self.game.zone_spec_of = [replaced if z is zone else z for z in self.game.zone_spec_of]

    def _add_zone(self, spec: ZoneSpec) -> None:
        g = self.game
        g.zone_specs[spec.name] = spec
        owners: tuple[str | None, ...] = g.roles.values if spec.per_role and g.roles else (None,)
        for owner in owners:
            g.zone_index[(spec.name, owner)] = len(g.zone_names)
            g.zone_names.append(spec.name if owner is None else f"{spec.name} of {owner}")
            g.zone_spec_of.append(spec)
            g.zone_owner.append(owner)

    # ------------------------------------------------------------ settings used by blocks

    def choice(self, spec: Mapping, key: str, allowed: tuple[str, ...], default: str) -> str:
        value = spec.get(key, default)
        if str(value) not in allowed:
            self.error(self.pos(spec, key), f"'{key}' must be one of {', '.join(allowed)}, not '{value}'",
                       did_you_mean(str(value), allowed))
            return default
        return str(value)

    def setting(self, spec: Mapping, key: str, default: Any) -> Any:
        """A literal value or the name of an option (whose default is used)."""
        value = spec.get(key, default)
        if isinstance(value, str):
            if value in self.game.options:
                return self.game.options[value]
            self.error(self.pos(spec, key), f"unknown option '{value}'", did_you_mean(value, self.game.options))
            return default
        return _plain(value)

    def int_setting(self, spec: Mapping, key: str, default: int) -> int:
        value = self.setting(spec, key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            self.error(self.pos(spec, key), f"'{key}' must be a whole number (or an option holding one), not {value!r}")
            return default
        return value

    def bool_setting(self, spec: Mapping, key: str, default: bool) -> bool:
        value = self.setting(spec, key, default)
        if not isinstance(value, bool):
            self.error(self.pos(spec, key), f"'{key}' must be true or false (or an option holding one), not {value!r}")
            return default
        return value

    def zone_ref(self, spec: Mapping, key: str) -> "ZoneRef":
        name = str(spec.get(key, ""))
        if name not in self.game.zone_specs:
            self.error(self.pos(spec, key), f"unknown zone '{name}'", did_you_mean(name, self.game.zone_specs))
            return ZoneRef(name, lambda s: 0)
        if self.game.zone_specs[name].per_role:
            by_role = {role: i for (zone, role), i in self.game.zone_index.items() if zone == name}
            return ZoneRef(name, lambda s: by_role[s.order[s.turn]])
        fixed = self.game.zone_index[(name, None)]
        return ZoneRef(name, lambda s: fixed)

    def require_board(self, spec: Mapping, key: str) -> None:
        if self.game.grid is None:
            self.error(self.pos(spec, key), "this step needs a 'board'")
        elif spec.get(key, BOARD) != BOARD:
            self.error(self.pos(spec, key), f"'{key}' must be the board")

    def clash_table(self, spec: Mapping, key: str) -> ClashTable:
        name = str(spec.get(key, ""))
        table = self.game.clash_tables.get(name)
        if table is None:
            self.error(self.pos(spec, key), f"unknown clash table '{name}'", did_you_mean(name, self.game.clash_tables))
            return ClashTable(name, {}, (False, False))
        return table

    def face_attribute(self, spec: Mapping, key: str) -> list[list[Any]]:
        name = str(spec.get(key, ""))
        if name not in self.game.attributes:
            self.error(self.pos(spec, key), f"unknown attribute '{name}'", did_you_mean(name, self.game.attributes))
            return [[None] * len(self.game.component_names)] * 2
        return self.game.attributes[name]

    # ------------------------------------------------------------ effect-language code

    def parse(self, text: Any, pos: SourcePos | None, program: bool = False) -> Any:
        source = _code_text(text)
        locate = text.locate if isinstance(text, Text) else (lambda line, col: pos or SourcePos(self.game.source, 1, 1))
        key = (source, program, text.__getnewargs__()[1:]) if isinstance(text, Text) else None
        if key is not None and key in _PARSED:
            return _PARSED[key]  # the same code at the same place in the same file: the same tree
        try:
            node = parse_program(source, locate) if program else parse_expression(source, locate)
        except RulesetError as err:
            self.sink.extend(err)
            return None
        except RecursionError:
            self.error(text.pos if isinstance(text, Text) else pos, TOO_DEEP)
            return None
        if key is not None:
            if len(_PARSED) >= PARSE_CACHE:
                _PARSED.clear()
            _PARSED[key] = node
        return node

    def compile_node(self, node: Any, scope: Scope) -> Compiled:
        """``node.compile(scope)``, reporting code that nests too deeply instead of crashing."""
        try:
            return node.compile(scope)
        except RecursionError:
            self.error(node.pos, TOO_DEEP)
            return Compiled(ANY, lambda s, e: None)

    def expression(self, text: Any, want: str | None = None, bind: dict[str, Type] | None = None,
                   pos: SourcePos | None = None) -> tuple[Compiled, int]:
        """Compile an expression; ``want`` is 'bool' or 'int'; ``bind`` pre-binds names to slots 0, 1, ..."""
        node = self.parse(text, pos)
        scope = Scope(self.game.vocab, self.sink)
        scope.pure = True
        for name, type_ in (bind or {}).items():
            scope.bind(name, type_)
        if node is None:
            return Compiled(BOOL, lambda s, e: False), 1
        compiled = self.compile_node(node, scope)
        wanted = {"bool": BOOL, "int": INT}.get(want or "")
        if wanted is not None and not wanted.accepts(compiled.type):
            what = "true or false" if wanted is BOOL else "a number"
            try:
                self.error(node.pos, f"this must be {what}, but '{node.describe()}' is {compiled.type}")
            except RecursionError:
                self.error(node.pos, TOO_DEEP)
        return compiled, max(scope.slots, 1)

    def describe(self, text: Any) -> str:
        """The English of code that ``expression`` already checked (errors are not reported twice)."""
        try:
            node = parse_expression(_code_text(text))
            node.compile(Scope(self.game.vocab, DiagnosticSink()))  # names the ruleset's own functions in English
            return node.describe()
        except (RulesetError, RecursionError):
            return str(text)

    def program(self, text: Any, pos: SourcePos | None, bind: dict[str, Type] | None = None) -> Program:
        """Compile a program; ``bind`` pre-binds names to slots 0, 1, ... (set them in the environment before running)."""
        node = self.parse(text, pos, program=True)
        if node is None:
            return Program(lambda s, e: None, max(len(bind or ()), 1))
        scope = Scope(self.game.vocab, self.sink)
        for name, type_ in (bind or {}).items():
            scope.bind(name, type_)
        compiled = self.compile_node(node, scope)
        try:
            description = node.describe()
        except RecursionError:
            description = str(text)
        return Program(compiled.fn, max(scope.slots, 1), str(text), description)

    # ------------------------------------------------------------ sections with code

    def _clash_tables(self) -> None:
        g = self.game
        tables = self.tree.get("clash_tables") or {}
        for name, spec in tables.items():
            self.unknown_keys(spec, ("of", "missing", "outcomes"), f"clash table '{name}'")
            type_name = str(spec.get("of", ""))
            values = g.types.get(type_name)
            if values is None:
                self.error(self.pos(spec, "of"), f"unknown type '{type_name}'", did_you_mean(type_name, g.types))
                continue
            missing = None
            if "missing" in spec:
                missing = OUTCOMES[self.choice(spec, "missing", tuple(OUTCOMES), "nothing")]
            outcomes: dict[tuple[str, str], tuple[bool, bool]] = {}
            rows = spec.get("outcomes") or {}
            for row, cols in rows.items():
                if row not in values:
                    self.error(rows.key_pos.get(row), f"unknown {type_name} '{row}'", did_you_mean(row, values))
                    continue
                for col, word in (cols or {}).items():
                    if col not in values:
                        self.error(cols.key_pos.get(col), f"unknown {type_name} '{col}'", did_you_mean(col, values))
                        continue
                    if word not in OUTCOMES:
                        self.error(cols.pos_of(col), f"unknown outcome '{word}'", did_you_mean(str(word), OUTCOMES) or f"use one of {', '.join(OUTCOMES)}")
                        continue
                    outcomes[(row, col)] = OUTCOMES[word]
            if missing is None:
                gaps = [f"{a}/{b}" for a in values for b in values if (a, b) not in outcomes]
                if gaps:
                    self.error(self.pos(spec, "outcomes"), f"clash table '{name}' does not cover {len(gaps)} pairs ({', '.join(gaps[:4])}{', ...' if len(gaps) > 4 else ''})",
                               "list them, or say what missing pairs mean with 'missing: nothing'")
            g.clash_tables[name] = ClashTable(name, outcomes, missing)

    def _support_tables(self) -> None:
        """``support_tables``: majority with support (see :mod:`engine.blocks.majority`)."""
        g = self.game
        tables = self.tree.get("support_tables") or {}
        for name, spec in tables.items():
            self.unknown_keys(spec, ("of", "supporters", "neutral", "last_resort"), f"support table '{name}'")
            type_name = str(spec.get("of", ""))
            values = g.types.get(type_name)
            if values is None:
                self.error(self.pos(spec, "of"), f"unknown type '{type_name}'", did_you_mean(type_name, g.types))
                continue

            def known(value: Any, pos: SourcePos | None) -> str:
                if str(value) not in values:
                    self.error(pos, f"unknown {type_name} '{value}'", did_you_mean(str(value), values))
                return str(value)

            neutral = spec.get("neutral") or []
            neutral_set = frozenset(known(v, self.pos(neutral, i)) for i, v in enumerate(neutral))
            rows = spec.get("supporters") or {}
            supporters = {known(v, rows.key_pos.get(v)): tuple(known(x, self.pos(row, i)) for i, x in enumerate(row or []))
                          for v, row in rows.items()}
            g.support_tables[str(name)] = SupportTable(str(name), supporters, neutral_set, self.bool_setting(spec, "last_resort", True))

    def support_table(self, spec: Mapping, key: str) -> SupportTable:
        """The support table a step names."""
        name = str(spec.get(key, ""))
        table = self.game.support_tables.get(name)
        if table is None:
            self.error(self.pos(spec, key), f"unknown support table '{name}'", did_you_mean(name, self.game.support_tables))
            return SupportTable(name, {}, frozenset())
        return table

    def _setup(self) -> None:
        setup = self.tree.get("setup")
        if setup is None:
            return
        if isinstance(setup, str):
            self.game.setup["default"] = self.program(setup, self.pos(self.tree, "setup"))
            return
        for key, text in setup.items():
            if key != "default" and not (key.isdigit() and int(key) in self.game.player_counts):
                self.error(setup.key_pos.get(key), f"setup key '{key}' must be 'default' or a declared player count")
                continue
            self.game.setup[int(key) if key.isdigit() else key] = self.program(text, setup.pos_of(key))

    def _turn(self) -> None:
        turn = self.tree.get("turn")
        if not isinstance(turn, list) or not turn:
            self.error(self.pos(self.tree, "turn"), "'turn' must list the steps of a turn")
            return
        self._steps(turn, "")

    def _steps(self, entries: Sequence, phase: str) -> None:
        """Compile a list of steps; an entry ``{phase: NAME, steps: [...]}`` groups the steps of one phase."""
        for i, entry in enumerate(entries):
            pos = self.pos(entries, i)
            if isinstance(entry, Mapping) and "phase" in entry and not phase:
                self.unknown_keys(entry, ("phase", "steps"), "a phase")
                inner = entry.get("steps")
                if not isinstance(inner, list) or not inner:
                    self.error(entry.pos_of("phase"), "a phase lists its steps: {phase: NAME, steps: [...]}")
                    continue
                self._steps(inner, str(entry["phase"]))
                continue
            if not isinstance(entry, Mapping) or len(entry) != 1:
                self.error(pos, "each turn step is one 'kind: {settings}' entry, like '- place: {from: hand}'")
                continue
            kind, spec = next(iter(entry.items()))
            cls = STEP_KINDS.get(kind)
            if cls is None:
                self.error(entry.key_pos.get(kind, pos), f"unknown step '{kind}'", did_you_mean(kind, STEP_KINDS) or f"known: {', '.join(sorted(STEP_KINDS))}")
                continue
            if not isinstance(spec, Mapping):
                if spec is not None:
                    self.error(entry.pos_of(kind), f"the settings of step '{kind}' must be a mapping")
                spec = Mapping(entry.pos_of(kind))
            self.unknown_keys(spec, cls.keys, f"step '{kind}'")
            step = cls(len(self.game.steps), spec, entry.key_pos.get(kind, pos), self)
            step.phase = phase
            self.game.steps.append(step)

    def _end(self) -> None:
        end = self.tree.get("end")
        if not isinstance(end, Mapping) or "when" not in end:
            self.error(self.pos(self.tree, "end"), "'end' needs 'when: CONDITION'")
            self.game.end_condition = Program(lambda s, e: True, 1)
            return
        self.unknown_keys(end, ("when", "max_turns"), "end")
        compiled, slots = self.expression(end["when"], "bool", pos=end.pos_of("when"))
        self.game.end_condition = Program(compiled.fn, slots, str(end["when"]), self.describe(end["when"]))
        self.game.max_turns = self.int_setting(end, "max_turns", 1000)

    def _running_score(self) -> None:
        """``running_score``: a seat's score during play (``me`` is the seat), for bots and reports."""
        text = self.tree.get("running_score")
        if text is None:
            return
        compiled, slots = self.expression(text, "int", bind={"me": INT}, pos=self.pos(self.tree, "running_score"))
        self.game.running_score = Program(compiled.fn, slots, str(text), self.describe(text))

    def _invariants(self) -> None:
        """``invariants``: named conditions that must hold after every action (checked by tests and tools)."""
        invariants = self.tree.get("invariants") or {}
        for name, text in invariants.items():
            compiled, slots = self.expression(text, "bool", pos=invariants.pos_of(name))
            self.game.invariants[str(name)] = Program(compiled.fn, slots, str(text), self.describe(text))

    def _outcomes(self) -> None:
        covered: set[int] = set()
        for key, make in (("scoring", self._ranking), ("goals", self._goals)):
            spec = self.tree.get(key)
            if spec is None:
                continue
            counts = tuple(spec.get("players") or self.game.player_counts)
            overlap = covered & set(counts)
            if overlap:
                self.error(self.pos(spec, "players"), f"player counts {sorted(overlap)} already have an outcome")
            covered |= set(counts)
            block = make(spec)
            if block is not None:
                self.game.outcomes.append((counts, block))
        missing = [c for c in self.game.player_counts if c not in covered]
        if missing:
            self.error(self.tree.pos, f"no 'scoring' or 'goals' for {', '.join(map(str, missing))} players")

    def _ranking(self, spec: Mapping) -> Ranking | None:
        self.unknown_keys(spec, ("players", "rank", "by", "points", "to"), "scoring")
        node = self.parse(spec.get("rank", ""), spec.pos_of("rank") if "rank" in spec else spec.pos)
        from engine.lang.functions import as_selection

        if node is None:
            return None
        scope = Scope(self.game.vocab, self.sink)
        scope.pure = True
        sel = as_selection(node)
        parts = sel.compile_parts(scope)
        item_scope = scope.child()
        item_scope.locals[sel.var] = (parts.slot, parts.item_type)
        keys, texts = [], []
        for i, key in enumerate(spec.get("by") or []):
            k_node = self.parse(key, self.pos(spec["by"], i))
            if k_node is None:
                continue
            c = self.compile_node(k_node, item_scope)
            if not INT.accepts(c.type):
                self.error(k_node.pos, f"a ranking key must be a number, but '{k_node.describe()}' is {c.type}")
            keys.append(c.fn)
            texts.append(self.describe(key))
        to_node = self.parse(spec.get("to", sel.var), self.pos(spec, "to"))
        owner: Any = lambda s, e: None  # noqa: E731
        if to_node is not None:
            to = self.compile_node(to_node, item_scope)
            role = self.game.vocab.data.get("role_type")
            if not INT.accepts(to.type) and (role is None or not role.accepts(to.type)):
                self.error(to_node.pos, f"'to' must be the role (or the seat number) that gets the points, but '{to_node.describe()}' is {to.type}")
            owner = to.fn
        by_key = spec.get("points") == "key" and "key" not in self.game.options  # each item scores its first key
        points = [] if by_key else self.setting(spec, "points", [])
        if not isinstance(points, list) or not all(isinstance(p, int) for p in points):
            self.error(self.pos(spec, "points"), "'points' must be a list of numbers (or an option holding one), or 'key'")
            points = []
        return Ranking(parts.items, parts.slot, tuple(keys), tuple(points), owner, max(scope.slots, 1), tuple(texts), by_key)

    def _goals(self, spec: Mapping) -> Goals | None:
        self.unknown_keys(spec, ("players", "any_of"), "goals")
        names, tests = [], []
        slots = 1
        goals = spec.get("any_of") or {}
        for name, goal in goals.items():
            if not isinstance(goal, Mapping) or "when" not in goal:
                self.error(goals.key_pos.get(name), f"goal '{name}' needs 'when: CONDITION'")
                continue
            compiled, n = self.expression(goal["when"], "bool", pos=goal.pos_of("when"))
            names.append(str(name))
            tests.append(compiled.fn)
            slots = max(slots, n)
        return Goals(tuple(names), tuple(tests), slots)

    def _dry_run_setups(self) -> None:
        """Counts are consistent: set up a game for every player count and report what breaks."""
        for count in self.game.player_counts:
            try:
                self.game.new_state(players=count, seed=0)
            except EffectRuntimeError as err:
                self.error(err.pos or self.pos(self.tree, "setup"), f"setting up {_players(count)} fails: {err.message}")
            except RulecraftError as err:
                self.error(self.pos(self.tree, "setup"), f"setting up {_players(count)} fails: {err}")


class ZoneRef:
    """A zone named by a step; per-role zones resolve to the current role's."""

    def __init__(self, name: str, resolve: Callable[[Any], int]) -> None:
        self.name = name
        self.resolve = resolve

    def __call__(self, s: Any) -> int:
        return self.resolve(s)

    def describe(self, s: Any) -> str:
        return s.game.zone_names[self.resolve(s)]


def _players(count: int) -> str:
    return f"{count} player" if count == 1 else f"{count} players"


def _plain(value: Any) -> Any:
    """YAML nodes as plain Python values (Text -> str, Sequence -> list, Mapping -> dict)."""
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _without(tree: Mapping, keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: _plain(v) for k, v in tree.items() if k not in keys}


def _code_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

