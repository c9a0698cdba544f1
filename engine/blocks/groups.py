"""Pattern groups: the ``form_groups`` step (forming, connecting, deforming, reforming).

A group is a set of cells given by offsets from an anchor (``pattern``), all
filled with pieces that are not yet in a group.  When a placement completes
one, it forms: the majority of an attribute among its pieces (ties broken by
a support table, see :mod:`engine.blocks.majority`) decides its owner; a
marker of that value moves from one zone to another (``marker: {from, to}``)
and every piece turns to the group face (``face``).  An unresolved tie (or no
value that may win) forms nothing.  Groups never overlap.  When several
groups could form, the player chooses which forms first (a decision), then
the rest are checked again.  When the winner has no marker left,
``if_no_marker: win`` ends the game at once with that value's seat winning
(a value nobody plays: a draw); ``no-group`` forms nothing.

With ``connect``, two groups of different markers that touch, or are linked
by a path of free pieces whose value is listed in ``through`` (default: every
non-neutral value), clash (with ``touch_through: true``, groups touch only
where one of the two pieces touching is of a ``through`` value: neutral
pieces meeting do not connect them): the pieces of both groups are counted together and
the support table decides between the two markers' values (``contenders:
all`` lets every value contend).  The loser deforms (``deform``): its marker
goes back, its own pieces go to ``own``, neutral pieces to ``neutral``, the
rest turn to ``free_face`` and stay.  The winner reforms (``reform``): the
own piece closest to the loser's anchor (ties: the leftmost seen from there;
the anchor last) goes to ``to`` and a ``with`` piece taken from the first of
the ``from`` zones that has one takes its place; then its majority is decided
again (latent clash): another value swaps the marker, only neutral pieces
dissolve the group, a tie changes nothing.  An unresolved external clash
deforms both.  Two connected groups of the same marker end the game with
that value winning (``if_same: win``).  Forming and connecting repeat until
nothing is pending; the player orders several pending clashes.

Groups live in ``State.groups`` (anchor cell -> marker component) and
``State.members`` (cell -> anchor).  Text forms of the decisions:
``form group at 1,0`` and ``clash 1,0 with 4,-2`` (the anchors).

Example (YAML)::

    - form_groups:
        pattern: [[0, 0], [1, 0], [0, 1], [1, 1]]   # a 2x2 square on a square grid
        attribute: colour
        support: colour-support
        face: back
        free_face: front
        marker: {from: reserve, to: scored}
        connect: {contenders: groups, if_same: win}
        deform: {own: removed, neutral: reserve}
        reform: {with: Grey, from: [reserve], to: removed}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import MOST_TEXTS, Texts, board_cells
from engine.blocks.group_links import GroupLinks, Neighbours
from engine.blocks.group_shapes import Cell, Pair
from engine.blocks.majority import Verdict, support_table
from engine.blocks.outcome import Outcome
from engine.blocks.placement import Placed
from engine.blocks.pointsboard import PointsBoard
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace
from engine.core.errors import EffectRuntimeError, SourcePos
from engine.core.yamlsource import Mapping
from engine.lang.types import INT, STR, Enum
from engine.lang.budgets import refill

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, GameView, StateView, ZoneRef

PASS_STEPS = 100
"""The steps of the budget one pass of settling (a group formed, a clash settled) counts as: a pass does the work of
many steps of effect code, and a cycle of passes should stop in a fraction of a second."""


class GroupWork(NamedTuple):
    """The groups block's slice of the state: its work in progress while the pieces around a placed one settle."""

    forming: tuple[Cell, ...] | None = None  # anchors of groups that may form
    linking: tuple[Cell, ...] | None = None  # cells to look for new connections from
    clashes: tuple[tuple[Cell, Cell], ...] | None = None  # pairs of connected groups still to clash
    block = "groups"
    saved = ("forming", "linking", "clashes")


NO_WORK = GroupWork()


def _work(s: "StateView") -> GroupWork:
    return s.slices.get(GroupWork.block, NO_WORK)


class Settling:
    """The groups' work while the pieces around a placed one settle, changed in place; it goes into the state (as a
    :class:`GroupWork`) only when the player must choose what forms or clashes next.

    >>> work = Settling.of(GroupWork(((1, 0),), (), ()))
    >>> work.forming.append((2, 0)); work.kept()
    GroupWork(forming=((1, 0), (2, 0)), linking=(), clashes=())
    """

    __slots__ = ("forming", "linking", "clashes")

    def __init__(self, forming: list[Cell] | None, linking: list[Cell] | None, clashes: list[Pair] | None) -> None:
        self.forming = forming
        self.linking = linking
        self.clashes = clashes

    @classmethod
    def of(cls, work: GroupWork) -> "Settling":
        """The work a state keeps, to change in place."""
        return cls(*(None if part is None else list(part) for part in work))

    def kept(self) -> GroupWork:
        """The work as the state keeps it."""
        return GroupWork(*(None if part is None else tuple(part) for part in (self.forming, self.linking, self.clashes)))


@step_kind
class FormGroups(GroupLinks, Step):
    """The ``form_groups`` step: groups of pieces filling a pattern of cells form around the piece just placed; a
    support table decides their owner, who puts a marker on them (with ``connect``, ``deform`` and ``reform`` for
    groups that join, break up and form again).

    Built from, e.g., ``- form_groups: {pattern: [[0, 0], [1, 0], [0, 1]], attribute: side, support: support}``.
    The groups' cells are :class:`~engine.blocks.group_shapes.GroupShapes`, their verdicts and links
    :class:`~engine.blocks.group_links.GroupLinks`; this class reads the step and settles the board.
    """
    kind = "form_groups"
    keys = ("if", "pattern", "attribute", "support", "face", "free_face", "marker", "order", "if_no_marker",
            "connect", "deform", "reform", "on_clash")

    def __init__(self, index: int, spec: "Mapping", pos: SourcePos, b: "BuildContext") -> None:
        super().__init__(index, spec, pos, b)
        if b.game.grid is None:
            b.error(pos, "the 'form_groups' step needs a 'board'")
        elif isinstance(b.game.grid, PointsBoard):
            b.error(pos, "the 'form_groups' step lays a pattern of cells on a grid; a board of points has none")
        self.pattern: tuple[Cell, ...] = self._pattern(spec, b)
        self.values = b.face_attribute(spec, "attribute")
        # per face, per component: the weight of the value shown, so that the sum of a group's weights tells which
        # values it holds how often (each value is a power of a base larger than a group's size)
        base, shown = len(self.pattern) + 1, dict.fromkeys(v for row in self.values for v in row)
        self.weights = {v: base ** i for i, v in enumerate(shown)}
        self.weight = [[self.weights[v] for v in row] for row in self.values]
        self.attribute = str(spec.get("attribute", ""))
        self.table = support_table(b, spec, "support")
        self.face_name = str(spec.get("face", ""))
        self.group_face = self._face(spec, "face", b)
        self.free_face = self._face(spec, "free_face", b) if "free_face" in spec else [0] * len(b.game.component_kind)
        marker = spec.get("marker")
        if not isinstance(marker, Mapping):
            b.error(b.pos(spec, "marker"), "'marker' needs 'from' and 'to' zones, like {from: stock, to: claimed}")
            marker = spec
        self.marker_from = b.zone_ref(marker, "from")
        self.marker_to = b.zone_ref(marker, "to")
        self.player_orders = b.choice(spec, "order", ("player", "fixed"), "player") == "player"
        self.no_marker_wins = b.choice(spec, "if_no_marker", ("win", "no-group"), "win") == "win"
        self._anchor_cache: dict[Cell, tuple[Cell, ...]] = {}
        self._member_cache: dict[Cell, tuple[Cell, ...]] = {}
        self._member_sets: dict[Cell, frozenset[Cell]] = {}
        self._ring_cache: dict[Cell, tuple[Cell, ...]] = {}
        self._around_cache: dict[Cell, tuple[tuple[Cell, frozenset[Cell], frozenset[Cell]], ...]] = {}
        self._overlap_cache: dict[Cell, tuple[tuple[Cell, frozenset[Cell]], ...]] = {}
        self._verdicts: dict[int, Verdict] = {}
        self._nearest_cache: dict[tuple[Cell, Cell], tuple[Cell, ...]] = {}
        self._wins: dict[int, bool] = {}
        self._clash_verdicts: dict[tuple[int, int, tuple[Any, Any] | None], Verdict] = {}
        self.connects = "connect" in spec
        connect = self._section(spec, "connect", ("through", "contenders", "if_same", "touch_through"), b)
        kinds = b.game.types.get(b.game.attribute_types.get(self.attribute, ""), ())
        through = connect.get("through")
        if through is None:
            self.through = frozenset(v for v in kinds if v not in self.table.neutral)
        else:
            if not isinstance(through, list):
                b.error(b.pos(connect, "through"), "'through' lists the values of pieces a path may run through, like [A, B]")
                through = []
            for i, v in enumerate(through):
                b.check_value(v, b.game.attribute_types.get(self.attribute, "text"), b.pos(through, i), "through")
            self.through = frozenset(str(v) for v in through)
        # per face, per component: whether a free piece showing that face is one a path may run through
        self.passable = [[v in self.through for v in row] for row in self.values]
        self.touch_through = b.bool_setting(connect, "touch_through", False)
        self.neighbours = Neighbours(b.game.grid.neighbours if b.game.grid is not None else lambda cell: ())
        self.walled, self._around_by_walls = getattr(b.game.grid, "walled", False), {}
        contenders = connect.get("contenders", "groups")
        if isinstance(contenders, str) and contenders in b.game.options:  # an option naming the choice
            connect = Mapping(connect.pos)
            connect.add("contenders", b.game.options[str(contenders)], None, b.pos(spec["connect"], "contenders"))
        self.all_contend = b.choice(connect, "contenders", ("groups", "all"), "groups") == "all"
        self.same_wins = b.choice(connect, "if_same", ("win", "nothing"), "win") == "win"
        deform = self._section(spec, "deform", ("marker", "own", "neutral"), b)
        self.deform_marker = b.zone_ref(deform, "marker") if "marker" in deform else self.marker_from
        self.deform_own = b.zone_ref(deform, "own") if "own" in deform else None
        self.deform_neutral = b.zone_ref(deform, "neutral") if "neutral" in deform else None
        self.reforms = "reform" in spec
        reform = self._section(spec, "reform", ("with", "from", "to"), b)
        self.reform_with = str(reform.get("with", ""))
        if self.reforms and self.reform_with not in b.game.identical and self.reform_with not in b.game.component_ids:
            b.error(b.pos(reform, "with"), f"unknown component '{self.reform_with}'",
                    "name the piece that replaces one of the winner's pieces (an id or the id of identical copies)")
        self.reform_from = self._zones(reform, "from", b)
        self.reform_to = b.zone_ref(reform, "to") if "to" in reform else None
        if self.reforms and self.reform_to is None:
            b.error(b.pos(spec, "reform"), "'reform' needs 'to': the zone the replaced piece goes to")
        type_name = b.game.attribute_types.get(self.attribute, "")
        value_type = Enum(type_name) if type_name in b.game.types else STR
        self.on_clash = (b.program(spec["on_clash"], b.pos(spec, "on_clash"), bind={"winner": value_type, "loser": value_type, "margin": INT})
                         if "on_clash" in spec else None)

    @staticmethod
    def _section(spec: "Mapping", key: str, allowed: tuple[str, ...], b: "BuildContext") -> "Mapping":
        section = spec.get(key)
        if section is None:
            return Mapping(b.pos(spec, key) or spec.pos)
        if not isinstance(section, Mapping):
            b.error(b.pos(spec, key), f"'{key}' must be a mapping of settings ({', '.join(allowed)})")
            return Mapping(b.pos(spec, key) or spec.pos)
        b.unknown_keys(section, allowed, f"'{key}' of form_groups")
        return section

    @staticmethod
    def _zones(spec: "Mapping", key: str, b: "BuildContext") -> tuple["ZoneRef", ...]:
        """One zone name or a list of them, each checked where it is written."""
        raw = spec.get(key, [])
        refs = []
        for i, name in enumerate(raw if isinstance(raw, list) else [raw]):
            one = Mapping(b.pos(raw, i) if isinstance(raw, list) else b.pos(spec, key))
            one.add(key, name, None, one.pos)
            refs.append(b.zone_ref(one, key))
        return tuple(refs)

    @staticmethod
    def _face(spec: "Mapping", key: str, b: "BuildContext") -> list[int]:
        """Per component: the index of the face named by ``spec[key]`` (0 for kinds without it)."""
        face = str(spec.get(key, ""))
        kinds, faces = b.game.component_kind, b.game.face_names
        if not any(face in f for f in faces.values()):
            b.error(b.pos(spec, key), f"no component has a face '{face}'")
        return [faces[k].index(face) if face in faces[k] else 0 for k in kinds]

    @staticmethod
    def _pattern(spec: "Mapping", b: "BuildContext") -> tuple[Cell, ...]:
        raw = spec.get("pattern")
        ok = isinstance(raw, list) and raw and all(
            isinstance(o, list) and len(o) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in o) for o in raw
        )
        if not ok:
            b.error(b.pos(spec, "pattern"), "'pattern' must list the cells of a group as [x, y] offsets from its anchor, like [[0, 0], [1, 0]]")
            return ((0, 0),)
        cells = tuple((int(o[0]), int(o[1])) for o in raw)
        if len(set(cells)) != len(cells):
            b.error(b.pos(spec, "pattern"), "'pattern' lists a cell twice")
        return cells

    # -- flow: pending work lives in the state's GroupWork slice

    def enter(self, s: "StateView") -> bool:
        placed = s.slices.get(Placed.block)
        if placed is None or s.cell_of[placed.cid] is None:
            return False
        cell = s.cell_of[placed.cid]
        forming = self.candidates(s, (cell,))
        if forming and self.connects:
            work = Settling(forming, [cell], [])
        elif forming:
            work = Settling(forming, None, None)
        elif self.connects and (pairs := self.links(s, (cell,))):
            work = Settling([], [], pairs)  # what settling finds first, found already
        else:  # most placements: no group forms, no clash: nothing to settle
            s.slices.pop(GroupWork.block, None)
            return False
        return self._settle(s, work)

    def _settle(self, s: "StateView", work: Settling) -> bool:
        """Do what needs no choice; True while the player must choose which group forms or clashes next (``work`` is
        then kept in the state).

        Each pass forms a group or settles a clash and counts as :data:`PASS_STEPS` steps: rules under which groups
        form and break up without end (a deform that sends no piece away, so the same group forms again) stop with
        an error once the passes after one decision add up to more than the step budget (``Limits.steps``).
        """
        passes, most = 0, s.game.limits.steps // PASS_STEPS
        while s.outcome is None:
            passes += 1
            if passes > most:
                raise self._endless(s)
            if work.forming:
                ready = work.forming = [a for a in work.forming if self.fillable(s, a) and self.verdict(s, a).winner is not None]
                if len(ready) > 1 and self.player_orders:
                    s.slices[GroupWork.block] = work.kept()
                    return True
                if ready:
                    self._form(s, work, ready.pop(0))
                continue
            if not self.connects:
                break
            assert work.linking is not None and work.clashes is not None
            if work.linking:
                work.clashes += [p for p in self.links(s, work.linking) if p not in work.clashes]
                work.linking = []
            groups = s.groups
            clashes = work.clashes = [p for p in work.clashes if p[0] in groups and p[1] in groups]
            same = next((p for p in clashes if self.marker_value(s, p[0]) == self.marker_value(s, p[1])), None)
            if same is not None and self.same_wins:
                value = self.marker_value(s, same[0])
                at = s.game.cell_text
                self._win(s, value, f"two {value} groups at {at(same[0], brackets=True)} and {at(same[1], brackets=True)} "
                                    "are connected")
                break
            if len(clashes) > 1 and self.player_orders:
                s.slices[GroupWork.block] = work.kept()
                return True
            if not clashes:
                break
            self._clash(s, work, *clashes.pop(0))
        s.slices.pop(GroupWork.block, None)
        return False

    def _endless(self, s: "StateView") -> EffectRuntimeError:
        """The error of a settling that never ends (see :meth:`_settle`)."""
        limit = s.game.limits.steps
        return EffectRuntimeError(
            f"groups keep forming and breaking up: more than {limit // PASS_STEPS:,} forms and clashes after one "
            f"decision, at {PASS_STEPS} steps each (limit steps={limit:,}; raise it with --limit steps=N); a 'deform' "
            f"that sends pieces away ends such a cycle", self.pos)

    def actions(self, s: "StateView") -> ActionSpace:
        work = _work(s)
        if work.forming:
            return ListSpace(self, [(a,) for a in work.forming])
        return ListSpace(self, list(work.clashes))

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        work = Settling.of(_work(s))
        if len(args) == 1:
            assert work.forming is not None
            work.forming = [a for a in work.forming if a != args[0]]
            self._form(s, work, args[0])
        else:
            assert work.clashes is not None
            work.clashes = [p for p in work.clashes if p != args]
            self._clash(s, work, *args)
        return not self._settle(s, work)

    # -- consequences

    def _win(self, s: "StateView", value: Any, why: str) -> None:
        """End the game at once: ``value``'s seat (or its team) wins (a value nobody plays: a draw)."""
        seat = s.seat_of.get(str(value), 0)
        scores = tuple(1 if i + 1 == seat else 0 for i in range(s.players))
        text = f"{why}: {value} wins" + ("" if seat else " (played by nobody: a draw)")
        s.outcome = s.game.team_outcome(Outcome.from_scores(scores, text=text, ended="end condition"), s.players)
        s.note(lambda: f"game over: {text}")

    def _take_marker(self, s: "StateView", value: Any, anchor: Cell) -> int | None:
        """A marker of ``value`` from the marker zone for the group at ``anchor``, or None (and, with
        ``if_no_marker: win``, the game ends)."""
        values = self.values
        marker = next((c for c in s.zones[self.marker_from(s)] if values[s.face[c]][c] == value), None)
        if marker is None:
            why = f"at {s.game.cell_text(anchor, brackets=True)}"
            if self.no_marker_wins:
                self._win(s, value, f"{value} would place another marker {why} with none left")
            else:
                s.note(lambda: f"{value} has no marker left {why}")
        return marker

    def _form(self, s: "StateView", work: Settling, anchor: Cell) -> None:
        verdict = self.verdict(s, anchor)
        winner = verdict.winner
        marker = self._take_marker(s, winner, anchor)
        if marker is None:
            return
        s.move(marker, self.marker_to(s))
        s.groups[anchor] = marker
        group_face, grid, members = self.group_face, s.grid, s.members
        for cell in self.members(anchor):
            c = grid[cell]
            s.show(c, group_face[c])
            members[cell] = anchor
        if self.connects:
            assert work.linking is not None
            work.linking.append(self.members(anchor)[0])
        g = self.game
        s.note(lambda: f"a group forms at {s.game.cell_text(anchor, brackets=True)}: {verdict.explain()} — {winner} wins ({verdict.decided_by}); "
                       f"{g.piece_names[marker]} placed")

    def _clash(self, s: "StateView", work: Settling, a: Cell, b: Cell) -> None:
        """The external clash of two connected groups: the loser deforms, the winner reforms."""
        va, vb = self.marker_value(s, a), self.marker_value(s, b)
        verdict = self.clash_verdict(s, a, b, None if self.all_contend else (va, vb))

        def head() -> str:
            at = s.game.cell_text
            return (f"external clash of the {va} group at {at(a, brackets=True)} and the {vb} group at "
                    f"{at(b, brackets=True)}: {verdict.sums()}")

        if verdict.winner not in (va, vb):
            outcome = "no winner" if verdict.winner is None else f"{verdict.winner} leads neither group"
            s.note(lambda: f"{head()} — {outcome}: both groups deform")
            self._deform(s, work, a, va)
            self._deform(s, work, b, vb)
            return
        winner, loser, lost = (a, b, vb) if verdict.winner == va else (b, a, va)
        s.note(lambda: f"{head()} ({verdict.decided_by})")
        if self.on_clash is not None:
            self._on_clash(s, verdict.winner, lost, verdict.totals.get(verdict.winner, 0) - verdict.totals.get(lost, 0))
        self._deform(s, work, loser, lost)
        if self.reforms:
            self._reform(s, work, winner, loser)

    def _on_clash(self, s: "StateView", winner: Any, loser: Any, margin: int) -> None:
        """Run ``on_clash`` with the clash's ``winner``, ``loser`` and ``margin`` bound."""
        program = self.on_clash
        assert program is not None
        refill(s)
        env = [None] * program.slots
        env[0], env[1], env[2] = winner, loser, margin
        program.fn(s, env)

    def _deform(self, s: "StateView", work: Settling, anchor: Cell, value: Any) -> None:
        """The group at ``anchor`` breaks up: marker back, own pieces and neutral pieces away, the rest stay free."""
        g = self.game
        marker = s.groups.pop(anchor)
        s.move(marker, self.deform_marker(s))
        own, neutral, neutrals = self.deform_own, self.deform_neutral, self.table.neutral
        values, face, grid, members, free_face = self.values, s.face, s.grid, s.members, self.free_face
        gone: dict[str, int] | None = {} if s.log is not None else None  # the pieces sent away, told only in a log
        freed = []
        for cell in self.members(anchor):
            del members[cell]
            c = grid[cell]
            v = values[face[c]][c]
            target = own if v == value else neutral if v in neutrals else None
            if target is None:
                s.show(c, free_face[c])
                freed.append(cell)
            else:
                s.move(c, target(s))
                if gone is not None:
                    key = f"{g.piece_names[c]} to {target.name}"
                    gone[key] = gone.get(key, 0) + 1
        self._changed(s, work, anchor, freed)
        s.note(lambda: f"the {value} group at {s.game.cell_text(anchor, brackets=True)} deforms: {g.piece_names[marker]} back to the "
                       f"{self.deform_marker.name}" + "".join(f", {n} {what}" for what, n in (gone or {}).items()))

    def _changed(self, s: "StateView", work: Settling, anchor: Cell, freed: Iterable[Cell]) -> None:
        """The pieces of the group at ``anchor`` left it: groups may form around them (what ``candidates`` finds from
        its cells) and paths may run through the ``freed`` ones."""
        assert work.forming is not None and work.linking is not None
        forming, free = work.forming, s.grid.keys() - s.members.keys()  # a set of the free cells keeps their hashes
        forming += [a for a, cells in self.overlapping(anchor) if cells <= free and a not in forming]
        work.linking += freed

    def _reform(self, s: "StateView", work: Settling, anchor: Cell, deformed: Cell) -> None:
        """The winner gives up one own piece for a neutral one, then its majority is decided again."""
        g = self.game
        value = self.marker_value(s, anchor)
        cell = next((c for c in self.nearest(anchor, deformed) if self.value(s, c) == value), None)
        replacement = self._replacement(s)
        if cell is not None and replacement is not None:
            old = s.grid[cell]
            assert self.reform_to is not None
            s.move(old, self.reform_to(s))
            s.place(replacement, cell, self.group_face[replacement])
            s.note(lambda: f"the {value} group at {s.game.cell_text(anchor, brackets=True)} reforms: {g.piece_names[old]} at "
                           f"{s.game.cell_text(cell, brackets=True)} goes to {self.reform_to.name if self.reform_to else ''}, {g.piece_names[replacement]} takes its place")
        elif cell is not None:
            s.note(lambda: f"the {value} group at {s.game.cell_text(anchor, brackets=True)} cannot reform: no {self.reform_with} "
                           f"is left in {' or '.join(z.name for z in self.reform_from)}")
        verdict = self.verdict(s, anchor)
        if verdict.decided_by == "no contender":
            marker = s.groups.pop(anchor)
            s.move(marker, self.deform_marker(s))
            for c in self.members(anchor):
                del s.members[c]
                s.show(s.grid[c], self.free_face[s.grid[c]])
            self._changed(s, work, anchor, self.members(anchor))
            s.note(lambda: f"latent clash at {s.game.cell_text(anchor, brackets=True)}: no value can lead; the group dissolves "
                           f"and {g.piece_names[marker]} goes back")
        elif verdict.winner is None or verdict.winner == value:
            s.note(lambda: f"latent clash at {s.game.cell_text(anchor, brackets=True)}: {verdict.explain()} — the group keeps {value}")
        else:
            new = self._take_marker(s, verdict.winner, anchor)
            if new is None:
                return
            old_marker = s.groups[anchor]
            s.move(old_marker, self.deform_marker(s))
            s.move(new, self.marker_to(s))
            s.groups[anchor] = new
            s.note(lambda: f"latent clash at {s.game.cell_text(anchor, brackets=True)}: {verdict.explain()} — {verdict.winner} "
                           f"wins ({verdict.decided_by}); {g.piece_names[new]} replaces {g.piece_names[old_marker]}")

    def _replacement(self, s: "StateView") -> int | None:
        """The first ``with`` piece in the ``from`` zones, in order."""
        g = self.game
        ids = g.identical.get(self.reform_with) or (g.component_ids[self.reform_with],)
        for zone in self.reform_from:
            z = zone(s)
            found = next((c for c in ids if s.zone_of[c] == z), None)
            if found is not None:
                return found
        return None

    def establish(self, s: "StateView", anchor: Cell, marker: int) -> str | None:
        """Put a formed group into a position (scenarios): its pieces turn, its marker goes out; a problem in words, or None.

        Example: ``step.establish(s, (0, 0), marker)`` with every cell of the pattern around 0,0 filled.
        """
        cells = self.members(anchor)
        if not all(c in s.grid and c not in s.members for c in cells):
            return f"a group at {s.game.cell_text(anchor, brackets=True)} needs its {len(cells)} cells filled with pieces in no other group"
        s.move(marker, self.marker_to(s))
        s.groups[anchor] = marker
        for cell in cells:
            s.members[cell] = anchor
            s.show(s.grid[cell], self.group_face[s.grid[cell]])
        return None

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``form group at X,Y`` for every cell, and ``clash X,Y with X,Y`` for every two cells (in board order);
        on a board with more than :data:`MOST_TEXTS` pairs of cells the clashes are not listed (a hex board of radius
        100 has 459 million pairs: listing them took every byte of memory)."""
        cells = sorted(board_cells(game))
        forms = [self.format((cell,)) for cell in cells]
        pairs = len(cells) * (len(cells) - 1) // 2
        if pairs > MOST_TEXTS:
            return Texts(tuple(forms), unlisted=f"which two groups clash ('clash X,Y with X,Y'): {pairs:,} pairs of cells, "
                                                f"more than {MOST_TEXTS:,}")
        return Texts((*forms, *(self.format((a, b)) for i, a in enumerate(cells) for b in cells[i + 1:])))

    def format(self, args: tuple[Any, ...]) -> str:
        if len(args) == 1:
            return f"form group at {self.game.cell_text(args[0])}"
        return f"clash {self.game.cell_text(args[0])} with {self.game.cell_text(args[1])}"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        legal = [str(a) for a in self.actions(s)]
        what = "which group forms first" if _work(s).forming else "which clash resolves first"
        return f"'{text}' is not possible now; choose {what}: {', '.join(legal)}"

    def describe(self) -> str:
        order = "the player chooses which forms first" if self.player_orders else "they form in board order"
        text = (f"when a placement fills a group of {len(self.pattern)} cells with pieces in no group, it forms: "
                f"the majority of {self.attribute} (ties: support table {self.table.name}) places its marker and the pieces "
                f"turn to their {self.face_name} face; if several could form, {order}")
        text += ("; a value that would place a marker with none left wins the game at once" if self.no_marker_wins
                 else "; a value with no marker left forms no group")
        if self.connects:
            who = "every value" if self.all_contend else "only the two markers' values"
            touch = f" (where a piece of {', '.join(sorted(self.through))} touches)" if self.touch_through else ""
            text += (f"; groups of different markers that touch{touch} or are linked by free pieces of {', '.join(sorted(self.through))} "
                     f"clash, counting both groups' pieces ({who} contend): the loser deforms")
            if self.reforms:
                text += f" and the winner gives up its piece closest to the loser for a {self.reform_with}, then its majority is decided again"
            if self.on_clash is not None:
                text += f"; when a clash has a winner, first: {self.on_clash.description}"
            if self.same_wins:
                text += "; two connected groups of the same marker win the game for it"
        return text


BLOCK = declare(Block(
    "groups",
    slices=(GroupWork,),
    steps={
        "form_groups": {
            "description": ("Groups of pieces filling a pattern of cells form around the piece just placed; a "
                            "support table decides their owner."),
            "$ref": "#/$defs/formGroupsStep",
        },
    },
    defs={
        "formGroupsStep": {
            "description": ("`form_groups: {pattern: [[0, 0], [1, 0], ...], attribute: A, support: T, face: F, "
                            "marker: {from: Z1, to: Z2}}`."),
            "type": "object",
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
                "pattern": {
                    "description": "The cells of a group as [x, y] offsets from its anchor.",
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
                },
                "attribute": {
                    "description": "The attribute whose majority decides the group's owner.",
                    "type": "string",
                },
                "support": {
                    "description": "The support table breaking ties (declared under `support_tables`).",
                    "type": "string",
                },
                "face": {"description": "The face the group's pieces turn to.", "type": "string"},
                "marker": {
                    "description": ("The winner's marker (a component whose attribute is the winning value) moves "
                                    "from one zone to another."),
                    "type": "object",
                    "properties": {
                        "from": {"description": "The zone the markers wait in.", "$ref": "#/$defs/zoneName"},
                        "to": {"description": "The zone a placed marker goes to.", "$ref": "#/$defs/zoneName"},
                    },
                    "required": ["from", "to"],
                    "additionalProperties": False,
                },
                "order": {
                    "description": ("`player`: when several groups could form, the player chooses which forms "
                                    "first; `fixed`: board order."),
                    "enum": ["player", "fixed"],
                    "default": "player",
                },
                "if_no_marker": {
                    "description": ("When the winner has no marker left: `win` (it wins the game at once) or "
                                    "`no-group`."),
                    "enum": ["win", "no-group"],
                    "default": "win",
                },
                "free_face": {
                    "description": ("The face pieces turn back to when their group breaks up (default: their first "
                                    "face)."),
                    "type": "string",
                    "examples": ["single"],
                },
                "connect": {
                    "description": ("External clash: groups of different markers that touch, or are linked by a "
                                    "path of free pieces, clash; both groups' pieces are counted together."),
                    "type": "object",
                    "properties": {
                        "through": {
                            "description": ("The attribute values of free pieces a path may run through (default: "
                                            "every non-neutral value of the support table)."),
                            "type": "array",
                            "items": {"type": "string"},
                        },
                        "contenders": {
                            "description": ("`groups`: only the two markers' values may win (the others only "
                                            "support); `all`: every value contends (or an option name)."),
                            "type": "string",
                            "default": "groups",
                        },
                        "if_same": {
                            "description": ("Two connected groups of the same marker: `win` (that value wins at "
                                            "once) or `nothing`."),
                            "enum": ["win", "nothing"],
                            "default": "win",
                        },
                        "touch_through": {
                            "description": ("Two groups touch only where one of the two pieces touching has a "
                                            "`through` value (neutral pieces meeting do not connect them): "
                                            "true/false or an option name."),
                            "$ref": "#/$defs/flag",
                            "default": False,
                        },
                    },
                    "additionalProperties": False,
                },
                "deform": {
                    "description": ("What happens to the loser of an external clash: its marker, own pieces and "
                                    "neutral pieces go to these zones; the rest turn to `free_face` and stay."),
                    "type": "object",
                    "properties": {
                        "marker": {
                            "description": "Where the loser's marker goes (default: the marker's `from` zone).",
                            "$ref": "#/$defs/zoneName",
                        },
                        "own": {
                            "description": "Where the loser's own pieces go (default: they stay).",
                            "$ref": "#/$defs/zoneName",
                        },
                        "neutral": {
                            "description": "Where neutral pieces go (default: they stay).",
                            "$ref": "#/$defs/zoneName",
                        },
                    },
                    "additionalProperties": False,
                },
                "reform": {
                    "description": ("The winner of an external clash replaces its own piece closest to the loser "
                                    "(ties: leftmost seen from the loser; its anchor last) by a `with` piece, then "
                                    "its majority is decided again (latent clash)."),
                    "type": "object",
                    "properties": {
                        "with": {
                            "description": ("The component (or identical copies' id) that takes the replaced "
                                            "piece's place."),
                            "type": "string",
                            "examples": ["Crown"],
                        },
                        "from": {
                            "description": "The zone, or zones in order, the replacement is taken from.",
                            "oneOf": [
                                {"$ref": "#/$defs/zoneName"},
                                {"type": "array", "items": {"$ref": "#/$defs/zoneName"}},
                            ],
                        },
                        "to": {"description": "Where the replaced piece goes.", "$ref": "#/$defs/zoneName"},
                    },
                    "required": ["with", "from", "to"],
                    "additionalProperties": False,
                },
                "on_clash": {
                    "description": ("A program run when an external clash has a winner, before the loser deforms: "
                                    "`winner` and `loser` are the two groups' values, `margin` the winner's total "
                                    "minus the loser's (`damage(first(b in banners where b.colour == loser), margin)`)."),
                    "$ref": "#/$defs/program",
                },
            },
            "required": ["pattern", "attribute", "support", "face", "marker"],
            "additionalProperties": False,
        },
    },
))
