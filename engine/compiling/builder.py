"""Compile a composed ruleset tree into an immutable :class:`~engine.model.game.Game`.

This is where the meaning checks live: every name resolves, tables are
complete, values have the declared types, every piece of effect-language text
parses and type-checks, and setup works for every declared player count.
Problems are collected (not raised one by one) so ``rulecraft validate``
reports them all, each at its ``file:line:col``.

The :class:`Builder` runs the sections in order (:meth:`Builder.build`); each
section is read by its own module in :mod:`engine.compiling` (components,
seating, zones, outcomes, ...), and building blocks read their settings
through the builder's helpers (:meth:`Builder.setting`,
:meth:`Builder.zone_ref`, :meth:`Builder.expression`, ...).

Example::

    game = build_game(compose(find_ruleset("my-game")))   # RulesetError lists every problem
"""

from __future__ import annotations

import hashlib
import json
import keyword
import re
import unicodedata
from collections.abc import Hashable
from typing import Any, Iterable, Iterator

from engine.blocks.block import run_phase
from engine.blocks.catalogue import all_blocks, offer_functions
from engine.blocks.asking import note_asking
from engine.blocks.context import ZoneRef
from engine.blocks.counters import compile_counters, declare_counters
from engine.compiling.cell_attributes import read_cell_attributes
from engine.compiling.components import check_value, check_written_name, read_components
from engine.compiling.names import check_names, declare_opaque_options, read_options, read_types, report_misused_options
from engine.compiling.option_checks import compile_option_checks, refuse_failed_checks
from engine.compiling.outcomes import compile_end, compile_invariants, compile_outcomes, compile_running_score, dry_run_setups
from engine.compiling.seating import read_players, read_roles, read_teams
from engine.compiling import turn_code
from engine.compiling.turn import compile_setup, compile_turn
from engine.compiling.vocabulary import build_vocabulary
from engine.compiling.zones import BOARD, compile_owner_known, read_board, read_display, read_zones
from engine.core import limits
from engine.core.set_options import set_in_words
from engine.core.errors import DiagnosticSink, RulesetError, SourcePos, did_you_mean
from engine.core.showtext import one_line
from engine.core.yamlsource import Mapping, Sequence, Text, plain
from engine.lang.codegen import finish
from engine.lang.defined import code_text, define_functions
from engine.lang.procedures import define_procedures
from engine.lang.parser import RESERVED, TOO_DEEP, counting_code, parse_expression, parse_program, spend_code
from engine.lang.program import Program
from engine.lang.scope import DRAWS, Compiled, Scope
from engine.lang.types import ANY, BOOL, INT, NONE_T, Type
from engine.model.game import ROLL_OFFS, Game

PARSE_CACHE = 20_000
_PARSED: dict[Any, Any] = {}  # syntax trees of code read from files, by text and position (loading again parses nothing)
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
WORD = re.compile(r"[^\W\d]\w*\Z")
"""A name of letters of any script, digits and _ (``Zürich``), as the effect language reads one: a point's name may
be one; the other names keep to ``IDENTIFIER`` (actions, patterns and meters read them as ASCII)."""
DIE_NAME = re.compile(r"d[0-9]+\Z")
"""A name the effect language reads as a die (``d6``)."""


def word_hint(name: str, any_script: bool = False) -> str | None:
    """What to write for ``name``, which is no name in code: its words joined by _, its letters without their
    accents unless ``any_script``; None when that is no better.

    >>> word_hint("Zürich"), word_hint("St. Gallen", any_script=True), word_hint("2 d")
    ("write Zurich (only a point's name may hold letters beyond A-Z, a-z)", 'write St_Gallen', 'write _2_d')
    >>> word_hint("from"), word_hint("if")
    ("'from' is a keyword (Python's, which code keeps free): write from_ or another word", "'if' is a keyword of the effect language: write if_ or another word")
    """
    if name in RESERVED or (keyword.iskeyword(name) and name != "None"):
        whose = "of the effect language" if name in RESERVED else "(Python's, which code keeps free)"
        return f"'{name}' is a keyword {whose}: write {name}_ or another word"
    text = unicodedata.normalize("NFC" if any_script else "NFKD", name)
    if not any_script:
        text = "".join(c for c in text if not unicodedata.combining(c)).encode("ascii", "replace").decode()
    word = re.sub(r"\W+", "_", text, flags=0 if any_script else re.ASCII).strip("_")
    word = f"_{word}" if word[:1].isdigit() else word
    if not word or word == name or not (WORD if any_script else IDENTIFIER).match(word) or word in RESERVED \
            or keyword.iskeyword(word):
        return None
    beyond = "" if any_script or name.isascii() else " (only a point's name may hold letters beyond A-Z, a-z)"
    return f"write {word}{beyond}"


def build_game(tree: Mapping) -> Game:
    """Compile a composed tree (see :func:`engine.core.compose.compose`); raises RulesetError listing every problem."""
    b = Builder(tree)
    try:
        with counting_code():
            b.build()
    except RecursionError:  # a safety net: code that nests too deeply is reported where it is when possible
        b.error(tree.pos if isinstance(tree, Mapping) else None, TOO_DEEP)
    report_misused_options(b)
    if b.sink.items and b.game.set_options:
        b.error(None, f"note: these options were set from outside the ruleset's files: {set_in_words(b.tree['set_options'])}")
    b.sink.raise_if_any()
    b.game.finish()
    return b.game


def content_hash(tree: Any) -> str:
    """A short hash of a ruleset's meaning (its composed tree), used by saves and replays."""
    text = json.dumps(tree, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Builder:
    """Compiles one ruleset; steps and blocks call back into it for settings and code."""

    def __init__(self, tree: Mapping) -> None:
        self.tree = tree
        self.sink = DiagnosticSink(misused={})
        self.cell_places: dict[tuple[str, int], list[SourcePos | None | list[SourcePos | None]]] = {}  # (attribute,
        # component): where each face's cell (of a list of cells: each item) is written, read once the board is
        # (engine.compiling.cell_attributes)
        self.board_refused = False  # the board's size was refused (said there): see has_edges
        self.id_shapes: dict[str, str] = {}  # each component id (a piece's name for copies) by its skeleton: ids
        # that look alike are refused (engine.compiling.components)
        name = tree.get("name")
        self.game = Game(
            name=str(name) if name else "unnamed",
            title=str(tree.get("title") or name or "unnamed"),
            version=tree.get("version", 1) if isinstance(tree.get("version", 1), int) else 1,
            description=str(tree.get("description") or ""),
            source=tree.pos.file if isinstance(tree, Mapping) else "<ruleset>",
            content_hash=content_hash(_without(tree, ("variants", "selected_variants", "set_options", "replaced"))),
        )

    # ------------------------------------------------------------ reporting

    def error(self, pos: SourcePos | None, message: str, hint: str | None = None) -> None:
        """Record a problem at ``pos`` and go on (``rulecraft validate`` reports them all)."""
        self.sink.error(pos, message, hint)

    def pos(self, node: Any, key: str | int | None = None) -> SourcePos | None:
        """Where ``node[key]`` (or ``node`` itself) was written: its value, else its key, else the node; None if unknown."""
        if key is not None and isinstance(node, (Mapping, Sequence)):
            try:
                return node.pos_of(key)  # type: ignore[arg-type]
            except (KeyError, IndexError):
                return node.pos
        return getattr(node, "pos", None)

    def has_edges(self) -> bool:
        """Whether the board has fixed edges (width and height, a hex board, a board of points), or is taken to: a
        square board refused for its size is built growing, and a setting that needs edges says nothing of it then,
        the size being the one fault to mend (``board: {width: 10001, height: 1}`` is not also refused for
        ``touching: false``).  False without a board."""
        grid = self.game.grid
        return grid is not None and (grid.fixed or self.board_refused)

    def check_value(self, value: Any, type_name: str, pos: SourcePos | None, what: str) -> None:
        """Report ``value`` unless it is a value of the declared type ``type_name`` (see engine.compiling.components)."""
        check_value(self, value, type_name, pos, what)

    def unknown_keys(self, spec: Mapping, allowed: Iterable[str], what: str) -> None:
        """Report each key of ``spec`` not in ``allowed`` (with a "did you mean", else the known keys)."""
        allowed = list(allowed)
        for key in spec:
            if key not in allowed:
                self.error(spec.key_pos.get(key, spec.pos), f"unknown setting '{key}' in {what}",
                           did_you_mean(key, allowed) or f"known: {', '.join(allowed)}")

    # ------------------------------------------------------------ whole ruleset

    def build(self) -> None:
        """Read every section into ``self.game``, in dependency order (names before the code that uses them).

        The blocks' sections are read by the blocks' own hooks, at the phases of
        :data:`engine.blocks.block.PHASES`; the builder names no block.
        """
        t = self.tree
        g = self.game
        g.variants = tuple(str(v) for v in t.get("selected_variants", ()) or ())
        g.set_options = {str(k): str(v) for k, v in (t.get("set_options") or {}).items()}
        g.replaced = tuple((getattr(note, "pos", None), str(note)) for note in t.get("replaced") or ())
        variants = t.get("variants") or {}
        if isinstance(variants, Mapping):
            g.available_variants = {str(k): str((v or {}).get("description", "")) if isinstance(v, Mapping) else "" for k, v in variants.items()}
        if "title" in t:  # the first line of play's header and the page's: a line break forged a line below it
            check_written_name(self, g.title.strip(), self.pos(t, "title"), "the title", "as the first line of a game",
                               line_breaks_only=True)
        read_players(self)
        read_options(self)
        read_types(self)
        read_components(self)
        read_display(self)
        read_board(self)
        read_cell_attributes(self)
        read_roles(self)
        read_teams(self)
        read_zones(self)
        declare_counters(self)
        blocks = all_blocks()  # importing every block module also registers its step kinds
        run_phase(blocks, "declare", self)
        roll_off = t.get("first_seat")
        roll_off = self.game.options.get(roll_off, roll_off) if isinstance(roll_off, str) else roll_off
        if roll_off in ROLL_OFFS:  # every seat rolls a die; the lowest (highest) starts
            g.first_roll = str(roll_off).removesuffix("-roll")
        else:
            g.first_seat = self.int_setting(t, "first_seat", 1)
        most = max(g.player_counts, default=1)  # a seat some player counts lack is refused when such a game is set up
        if not 1 <= g.first_seat <= most:
            self.error(self.pos(t, "first_seat"), f"first_seat is {g.first_seat}, but a {most}-player game has no seat {g.first_seat}")
        check_names(self)
        g.vocab = build_vocabulary(g)
        offer_functions(g.vocab, t)
        declare_opaque_options(self)
        run_phase(blocks, "attach", self)
        define_functions(self)
        define_procedures(self)
        compile_counters(self)
        compile_owner_known(self)
        run_phase(blocks, "compile", self)
        compile_setup(self)
        compile_turn(self)
        run_phase(blocks, "check", self)
        compile_end(self)
        compile_outcomes(self)
        compile_running_score(self)
        compile_invariants(self)
        checks = compile_option_checks(self)
        generated = turn_code.generate(g) if not self.sink.items else None
        if generated is not None:
            g.turn, g.act = generated
        if not self.sink.items and not self.sink.misused:  # an option misused is reported after the build, at its value
            if not refuse_failed_checks(self, checks):  # a refused value may be why a setup would fail
                dry_run_setups(self)

    # ------------------------------------------------------------ names

    def named_entries(self, section: str, what: str, example: str,
                      read_as: str | None = None) -> Iterator[tuple[str, Mapping, SourcePos | None]]:
        """The ``NAME: {settings}`` entries of a top-level section: each name checked (``read_as`` as for
        :meth:`check_identifier`), each value a mapping."""
        tree = self.tree.get(section) or {}
        for name, spec in tree.items():
            pos = tree.key_pos.get(name)
            self.check_identifier(name, pos, what, read_as=read_as)
            if not isinstance(spec, Mapping):
                self.error(pos, f"{what} '{name}' must be a mapping such as {example}")
                continue
            yield str(name), spec, pos

    def check_identifier(self, name: str, pos: SourcePos | None, what: str, any_script: bool = False,
                         read_as: str | None = None) -> None:
        """Report ``name`` unless it is one word the effect language can use (``big_2``, not ``big 2`` or ``if``);
        ``any_script``: its letters may be of any script (``Zürich``), else only A-Z and a-z.  ``read_as``: how code
        uses such a name, ``{n}`` standing for it (``"called ({n}())"``), for a name that may not look like a die:
        code reads ``d6`` as the die (a bare one where it is defined, as an option or a point is read, but never in
        a call or as what ``=`` changes)."""
        text = str(name)
        if read_as is not None and DIE_NAME.match(text):
            self.error(pos, f"{what} name '{text}' reads as a die in code ({text}: a {text[1:]}-sided die), so the {what} "
                            f"could not be {read_as.format(n=text)}", f"pick another name, such as die{text[1:]} or {text}_")
            return
        if (WORD if any_script else IDENTIFIER).match(text) and text not in RESERVED \
                and not (keyword.iskeyword(text) and text != "None"):
            return
        self.error(pos, f"{what} name '{one_line(text)}' must be a single word (letters, digits, _) and not a keyword",
                   word_hint(text, any_script))

    # ------------------------------------------------------------ settings used by blocks

    def choice(self, spec: Mapping, key: str, allowed: tuple[str, ...], default: str) -> str:
        """``spec[key]``, one of ``allowed`` (``default`` when absent; reported, and ``default``, when not allowed)."""
        value = spec.get(key, default)
        if str(value) not in allowed:
            self.error(self.pos(spec, key), f"'{key}' must be one of {', '.join(allowed)}, not '{value}'",
                       did_you_mean(str(value), allowed))
            return default
        return str(value)

    def setting(self, spec: Mapping, key: str, default: Any, expected: str | None = None) -> Any:
        """A literal value or the name of an option (whose default is used); ``expected`` says what else it may be."""
        value = spec.get(key, default)
        if isinstance(value, str):
            if value in self.game.options:
                return self.game.options[value]
            hint = did_you_mean(value, self.game.options)
            if hint is None and expected:
                hint = f"'{key}' is {expected}, or the name of an option"
            self.error(self.pos(spec, key), f"unknown option '{value}'", hint)
            return default
        return plain(value)

    def int_setting(self, spec: Mapping, key: str, default: int, negative: bool = False) -> int:
        """A whole number >= 0 (any whole number with ``negative``), written as a number or the name of an option
        holding one."""
        value = self.setting(spec, key, default, "a whole number")
        if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not negative):
            wrong_kind = not isinstance(value, int) or isinstance(value, bool)  # a negative number is wrong where used
            if wrong_kind and isinstance(spec.get(key), str) \
                    and self.sink.option_misused(str(spec[key]), self.pos(spec, key), "a whole number"):
                return default
            least = "" if negative else ", 0 or more"
            self.error(self.pos(spec, key), f"'{key}' must be a whole number{least} (or an option holding one), "
                                            f"not {value!r}")
            return default
        return value

    def bool_setting(self, spec: Mapping, key: str, default: bool) -> bool:
        """true or false, written as such or as the name of an option holding one."""
        value = self.setting(spec, key, default, "true or false")
        if not isinstance(value, bool):
            if isinstance(spec.get(key), str) and self.sink.option_misused(str(spec[key]), self.pos(spec, key), "true or false"):
                return default
            self.error(self.pos(spec, key), f"'{key}' must be true or false (or an option holding one), not {value!r}")
            return default
        return value

    def zone_ref(self, spec: Mapping, key: str, offered: bool = False) -> ZoneRef:
        """The zone ``spec[key]`` names; a per-role zone resolves to the one of the role whose turn it is.

        ``offered``: the step offers the zone's components by name (``place R3 at 1,0``, ``commit R3 to pick``), so
        a zone held facing away from its owner (``hidden: owner``) is refused: its owner, the one offered them, may not
        know them (a ``choose()`` among them stops the game alike).
        """
        name = str(spec.get(key, ""))
        if name not in self.game.zone_specs:
            self.error(self.pos(spec, key), f"unknown zone '{name}'", did_you_mean(name, self.game.zone_specs))
            return ZoneRef(name, lambda s: 0)
        if offered and self.game.zone_specs[name].hidden == "owner":
            self.error(self.pos(spec, key), f"this step offers the components of '{name}' by name, and '{name}' is held "
                                            "facing away from its owner (hidden: owner), who may not know them",
                       f"play one by its place in a do step: let i = choose(n in numbers(1, count({name}(current_role)))) "
                       f"then nth({name}(current_role), i)")
        keyed = self.game.zone_specs[name]
        if keyed.keys:
            example = f"{name}(current_role, {keyed.key_texts[0]})" if keyed.per_role else f"{name}({keyed.key_texts[0]})"
            self.error(self.pos(spec, key), f"zone '{name}' is kept per key ({keyed.key_of}): a step names one zone",
                       f"name one in a do step's code, like {example}")
            first = next(i for (zone, _), i in self.game.zone_index.items() if zone == name)
            return ZoneRef(name, lambda s: first)
        if self.game.zone_specs[name].per_role:
            by_role = {role: i for (zone, role), i in self.game.zone_index.items() if zone == name}
            return ZoneRef(name, lambda s: by_role[s.acting_role], by_role)
        fixed = self.game.zone_index[(name, None)]
        return ZoneRef(name, lambda s: fixed)

    def require_board(self, spec: Mapping, key: str) -> None:
        """Report a step that needs the board in a ruleset without one, or whose ``key`` names another zone."""
        if self.game.grid is None:
            self.error(self.pos(spec, key), "this step needs a 'board'")
        elif spec.get(key, BOARD) != BOARD:
            self.error(self.pos(spec, key), f"'{key}' must be the board")

    def face_attribute(self, spec: Mapping, key: str) -> list[list[Any]]:
        """The values of the attribute ``spec[key]`` names, by face then component id."""
        name = str(spec.get(key, ""))
        if name not in self.game.attributes:
            self.error(self.pos(spec, key), f"unknown attribute '{name}'", did_you_mean(name, self.game.attributes))
            return [[None] * len(self.game.component_names)] * 2
        values = self.game.attributes[name]
        if all(isinstance(v, Hashable) for row in values for v in row):
            return values
        # a value that is none, as a list written for one, is reported with its component: here it is none
        return [[v if isinstance(v, Hashable) else None for v in row] for row in values]

    # ------------------------------------------------------------ effect-language code

    @staticmethod
    def _key(text: Any, program: bool) -> Any:
        """What a tree of ``text`` is kept by: its code, where it is written, and the limits the parser checks it
        against (the digits of its numbers, its length); None for code not read from a file."""
        if not isinstance(text, Text):
            return None
        in_force = limits.current()
        return code_text(text), program, text.__getnewargs__()[1:], in_force.integer_digits, in_force.code_length

    def parse(self, text: Any, pos: SourcePos | None, program: bool = False) -> Any:
        """The syntax tree of effect-language ``text`` (a program when ``program``); None, reported, when it does not parse.

        Trees of code read from files are kept by text and position, so loading a ruleset again parses nothing.
        """
        source = code_text(text)
        locate = text.locate if isinstance(text, Text) else (lambda line, col: pos or SourcePos(self.game.source, 1, 1))
        key = self._key(text, program)
        try:
            if key is not None and key in _PARSED:
                spend_code(len(source.strip()), locate)  # counted as when parsed: the limit holds whatever was kept
                return _PARSED[key]  # the same code at the same place in the same file: the same tree
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

    def compile_node(self, node: Any, scope: Scope, nested: bool = True) -> Compiled:
        """``node.compile(scope)``, reporting code that nests too deeply instead of crashing.

        ``nested``: other code may run this code (a hook that a change runs); False for a step's own program,
        which only its step runs (see :func:`engine.blocks.choices.may_ask`).
        """
        try:
            compiled = finish(node.compile(scope), node.pos, scope)
        except RecursionError:
            self.error(node.pos, TOO_DEEP)
            return Compiled(ANY, lambda s, e: None)
        if nested:
            note_asking(self.game.vocab, scope.reach)
        if DRAWS in scope.reach:
            self.game.vocab.data[DRAWS] = True  # the ruleset's code may draw at random (see engine.rl.chance.may_draw)
        return compiled

    def expression(self, text: Any, want: str | None = None, bind: dict[str, Type] | None = None,
                   pos: SourcePos | None = None) -> tuple[Compiled, int]:
        """Compile an expression; ``want`` is 'bool' or 'int'; ``bind`` pre-binds names to slots 0, 1, ..."""
        node = self.parse(text, pos)
        scope = Scope(self.game.vocab, self.sink)
        scope.pure = True
        for name, type_ in (bind or {}).items():
            scope.give(name, type_)
        if node is None:
            return Compiled(BOOL, lambda s, e: False), 1
        compiled = self.compile_node(node, scope)
        wanted = {"bool": BOOL, "int": INT}.get(want or "")
        if wanted is BOOL and compiled.type == NONE_T:  # none: read as false without a word
            self.error(node.pos, "this must be true or false, not none", "write false if it never holds")
        elif wanted is not None and not wanted.accepts(compiled.type):
            what = "true or false" if wanted is BOOL else "a number"
            try:
                self.error(node.pos, f"this must be {what}, but '{node.describe()}' is {compiled.type}")
            except RecursionError:
                self.error(node.pos, TOO_DEEP)
        return compiled, max(scope.slots, 1)

    def describe(self, text: Any) -> str:
        """The English of code that ``expression`` already checked (errors are not reported twice)."""
        try:
            node = _PARSED.get(self._key(text, False)) or parse_expression(code_text(text))  # parsed once, as a rule
            node.compile(Scope(self.game.vocab, DiagnosticSink()))  # names the ruleset's own functions in English
            return node.describe()
        except (RulesetError, RecursionError):
            return str(text)

    def program(self, text: Any, pos: SourcePos | None, bind: dict[str, Type] | None = None, nested: bool = True) -> Program:
        """Compile a program; ``bind`` pre-binds names to slots 0, 1, ... (set them in the environment before running).

        ``nested=False``: only the step that compiles it runs it (never a hook of other code; see ``compile_node``).
        """
        node = self.parse(text, pos, program=True)
        if node is None:
            return Program(lambda s, e: None, max(len(bind or ()), 1))
        scope = Scope(self.game.vocab, self.sink)
        for name, type_ in (bind or {}).items():
            scope.give(name, type_)
        compiled = self.compile_node(node, scope, nested)
        try:
            description = node.describe()
        except RecursionError:
            description = str(text)
        return Program(compiled.fn, max(scope.slots, 1), str(text), description, frozenset(scope.reach))


def _without(tree: Mapping, keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: plain(v) for k, v in tree.items() if k not in keys}



