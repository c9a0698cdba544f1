"""The rules of a contest, by which two components fight: overrides, strength with modifiers, tie-breaks.

The rules (:class:`ContestRules`) are declared by a ``contest:`` section, for
every fight of the ruleset, wherever the fighters lie::

    contest:
      strength: c.value          # the settings of the contest step, from strength to roll
      modifier: modifier
      in_play: [board, hand]     # the zones whose components' modifiers count
      ties: [bonus, reroll]

The pipeline for two components: (1) overrides — ``beats`` / ``loses_to``
decide alone when they point one way; (2) strength = ``strength`` + the sum
of the ``modifier`` of every component lying in an ``in`` zone (its own
included; with the section, in an ``in_play`` zone), the higher wins; (3) on equal strength the tie-breaks in the
order of ``ties``: ``bonus`` (the larger sum of modifiers wins), ``identical``
(two components with the same id: nobody wins), ``symbol`` (the earlier
value of the symbol's type wins), ``reroll`` (the tied components roll their
die again, until one is higher, at most ``REROLLS`` times; without ``roll``,
a d6).  With ``roll``, each component fighting in a slot rolls the die once
and adds it to its strength (``strength(c)`` reads it while the contest
runs; the log shows ``7 (4 and a d6 of 3)``).  A tie that survives them all is won by
nobody.  With more than two players, a component wins when it wins against
every other.  Every fight is explained in the log.

A modifier reads the slots: ``if target in slot_neighbours(self) then 1 else 0``
gives +1 to the components beside it in its row; ``if target == slot_next(self)
then 2 else 0`` gives +2 to the next component played in its slot.  A modifier
may read ``strength()`` one level deep: while the strength a modifier reads is
being computed, a further ``strength()`` gives the base strength only — so two
components that each copy the other's strength see each other's base strength,
never loop.

>>> Fight(None, "identical cards").text
'identical cards'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.blocks.card_code import CardCode, card_code
from engine.blocks.hooks import label, tell_as_hidden
from engine.core.errors import EffectRuntimeError, did_you_mean
from engine.core.facedown import told_name
from engine.lang.fixed import PairTable
from engine.lang.types import ANY_COMPONENT

if TYPE_CHECKING:
    from engine.blocks.context import BuildContext, StateView


TIE_BREAKS = ("bonus", "identical", "symbol", "reroll")


REROLLS = 20  # a reroll tie-break gives up after this many equal rolls: nobody wins


class Rolls(NamedTuple):
    """The contest's slice of the state: the (component, die) pairs rolled in the slot being fought."""

    rolled: tuple[tuple[int, int], ...] | None = None
    block = "contest"
    saved = ("contest rolls",)


NESTING = 2  # strength computations in progress at once: a modifier's strength() reads, one level deep (see the module)


NO_OVERRIDES = (False, False)  # neither fighter wins whatever the strengths


class Fight(NamedTuple):
    """How one pair fought: the winning component (None: nobody) and why, in words."""

    winner: int | None
    text: str


RULES = ("strength", "modifier", "beats", "loses_to", "symbol", "ties", "roll")
"""The settings saying how two components fight: the ``contest:`` section's, or a contest step's own."""


class ContestRules:
    """How two components fight: overrides, strength with modifiers, then tie-breaks (see the module).

    Declared once, by the ``contest:`` section or by a contest step that writes the settings itself, and read
    by the step, ``contest_winner()``, ``strength()`` and ``modifier_of()``.  The modifiers counted are those of
    the components in each seated role's instance of the zone ``in_zone`` (a step's own rules: the zone it
    fights in), else those of the components in the zones the section lists in ``in_play``.

    Example: the section ``contest: {strength: c.value, ties: [reroll]}`` gives rules under which
    ``duel(s, a, b)`` is the higher value of ``a`` and ``b``, a tie rolled off.
    """

    def __init__(self, b: "BuildContext", spec: Any, in_zone: dict[str, int] | None) -> None:
        g = self.game = b.game
        self.in_zone = in_zone
        self.in_play = self._in_play(b, spec) if in_zone is None else ()
        compiled, n = b.expression(spec.get("strength", "0"), "int", bind={"c": ANY_COMPONENT}, pos=b.pos(spec, "strength"))
        self.strength, self.strength_slots = compiled.fn, n
        # a strength that is one printed attribute of c (say c.value) is read from the attribute's table, not run
        self.strength_table = compiled.table[1] if compiled.table is not None and compiled.table[0] == 0 else None
        self.strength_text = b.describe(spec.get("strength", "0"))
        self.strength_source, self.strength_pos = str(spec.get("strength", "0")), b.pos(spec, "strength")
        none = CardCode((None,) * len(g.component_names), 2, fixed=True)
        self.modifier = card_code(b, str(spec["modifier"]), "int", "target", b.pos(spec, "modifier")) if "modifier" in spec else none
        self.beats = card_code(b, str(spec["beats"]), "bool", "other", b.pos(spec, "beats")) if "beats" in spec else none
        self.loses_to = card_code(b, str(spec["loses_to"]), "bool", "other", b.pos(spec, "loses_to")) if "loses_to" in spec else none
        # Overrides that read only printed attributes give one answer per pair of components (and faces) shown:
        # each pair's is worked out the first time it fights, then kept.
        self.overrides_fixed = self.beats.fixed and self.loses_to.fixed
        self.overrides_known: dict[tuple[int, int, int, int], tuple[bool, bool]] = {}
        # by component: whether it carries override code (two components carrying none fight by strength)
        self.overriding = tuple(x is not None or y is not None for x, y in zip(self.beats.fns, self.loses_to.fns))
        fns = self.modifier.fns  # modifiers reading only printed attributes: kept per (giver, target) the same way
        self.modifier_table = PairTable(lambda s, e: fns[e[0]](s, e), self.modifier.slots) if self.modifier.fixed else None
        # The components carrying a modifier: usually far fewer than those in play, so a bonus looks for them.
        self.givers = tuple(c for c, fn in enumerate(fns) if fn is not None)
        self.in_play_set = frozenset(self.in_play)
        self.live: dict[tuple[str, ...], frozenset[int]] = {}  # a step's own rules: per seating, the zones in play
        self.symbol_rank = self._symbol_ranks(b, spec)
        ties = b.setting(spec, "ties", list(TIE_BREAKS))
        if not isinstance(ties, list) or any(t not in TIE_BREAKS for t in ties) or len(set(ties)) != len(ties):
            b.error(b.pos(spec, "ties"), f"'ties' must list tie-breaks, each at most once, among {', '.join(TIE_BREAKS)}, not {ties!r}")
            ties = [t for t in TIE_BREAKS if t != "symbol" or self.symbol_rank is not None]  # reported once, not again
        if "symbol" in ties and self.symbol_rank is None:
            b.error(b.pos(spec, "ties"), "the 'symbol' tie-break needs 'symbol: ATTRIBUTE'",
                    None if "ties" in spec else f"without 'ties', every tie-break applies in turn: {', '.join(TIE_BREAKS)}; "
                    "list those you want, say ties: [bonus, reroll]")
        self.ties: tuple[str, ...] = tuple(ties)
        self.sides = b.int_setting(spec, "roll", 0) or 0
        if self.sides < 0 or self.sides > 1000:
            b.error(b.pos(spec, "roll"), f"'roll' is the number of sides of the die each fighter adds (0: none; at most 1000), not {self.sides}")
            self.sides = 0
        self.computing = 0  # strength computations in progress (see ``computed``)

    def _in_play(self, b: "BuildContext", spec: Any) -> tuple[int, ...]:
        """The zone instances whose components' modifiers count (``in_play``; every role's of a per-role zone)."""
        g, listed = self.game, spec.get("in_play", [])
        if not isinstance(listed, list):
            b.error(b.pos(spec, "in_play"), "'in_play' must list zones, say [board] or [hand, played]")
            return ()
        zones: list[int] = []
        for i, name in enumerate(listed):
            if str(name) not in g.zone_specs:
                b.error(b.pos(listed, i), f"unknown zone '{name}'", did_you_mean(str(name), g.zone_specs))
                continue
            zones += [z for (zone, _), z in g.zone_index.items() if zone == str(name)]
        if "modifier" in spec and "in_play" not in spec:
            b.error(b.pos(spec, "modifier"), "'modifier' needs 'in_play': the zones whose components' modifiers count",
                    "say in_play: [board], or [played] for every role's played pile")
        return tuple(zones)

    def _symbol_ranks(self, b: "BuildContext", spec: Any) -> list[int] | None:
        """Per component, the place of its symbol in the symbol's type (0 is best)."""
        if "symbol" not in spec:
            return None
        g, name = self.game, str(spec["symbol"])
        type_name = g.attribute_types.get(name)
        if type_name not in g.types:
            b.error(b.pos(spec, "symbol"), f"'symbol' must name an attribute of a declared type, not '{name}'",
                    did_you_mean(name, [a for a, t in g.attribute_types.items() if t in g.types]))
            return None
        order = g.types[type_name]
        values = g.attributes[name][0]
        return [order.index(v) if v in order else len(order) for v in values]

    # -- the pipeline

    def bonus(self, s: "StateView", c: int) -> int:
        """The sum of the modifiers every component in play gives ``c`` (summed in the order of the components).

        Only the components carrying a modifier are looked at: a bonus asks where
        each of them lies rather than reading every component in play.
        """
        total = 0
        if not self.givers:
            return total
        in_zone, zone_of, table = self.in_zone, s.zone_of, self.modifier_table
        live = self.in_play_set if in_zone is None else self.live.get(s.positions)
        if live is None:
            live = self.live[s.positions] = frozenset(in_zone[role] for role in s.positions)
        fns = self.modifier.fns
        env = [None] * self.modifier.slots  # modifiers are expressions: one list of locals serves every giver
        giver = -1
        try:
            for giver in self.givers:
                if zone_of[giver] not in live:
                    continue
                if table is not None:
                    total += table(s, giver, c) or 0
                else:
                    env[0], env[1] = giver, c
                    total += fns[giver](s, env) or 0
        except EffectRuntimeError as err:  # a giver's own code: not told at its line where it lies hidden
            tell_as_hidden(s, giver, "modifier of {}", None, err)
            raise
        return total

    def base(self, s: "StateView", c: int) -> int:
        """``c``'s base strength, the ``strength`` expression's value for it.

        A strength of none (a component of a kind without the attribute read, an
        instance with nothing written for it) is an error at the expression, as
        everywhere none is used as a number.
        """
        value = self._strength_of(s, c)
        if value is None:
            raise self._no_strength(c)
        return value

    def _strength_of(self, s: "StateView", c: int) -> int | None:
        """The ``strength`` expression's value for ``c`` (None: it gives none)."""
        table = self.strength_table
        if table is not None:
            return table[s.face[c]][c]
        env = [None] * self.strength_slots
        env[0] = c
        return self.strength(s, env)

    def _no_strength(self, c: int) -> EffectRuntimeError:
        """The error of a strength of none for ``c``."""
        return EffectRuntimeError(
            f"the strength of {self.game.piece_names[c]} is none: '{self.strength_source}' gives nothing for it, "
            "and a contest needs a number (give every component that fights a value, or write a strength that "
            "gives one for each, say 'if c.value == none then 0 else c.value')", self.strength_pos)

    @staticmethod
    def rolled(s: "StateView", c: int) -> int:
        """The die ``c`` rolled in the fight going on, or in the last ``contest_winner()`` fight (0: none)."""
        part = s.slices.get(Rolls.block)
        if part is not None and part.rolled:
            for cid, value in part.rolled:  # a few fighters: a loop, not a search
                if cid == c:
                    return value
        return 0

    def computed(self, s: "StateView", c: int) -> int:
        """``c``'s strength with every modifier in play (and its die, during a fight), as ``strength(c)`` reads it.

        Past ``NESTING`` computations in progress (a modifier reading a strength
        whose modifiers read strengths), it is the base strength alone.
        """
        if self.computing >= NESTING:
            return self.base(s, c) + self.rolled(s, c)
        self.computing += 1
        try:
            return self.base(s, c) + self.rolled(s, c) + self.bonus(s, c)
        finally:
            self.computing -= 1

    def measure(self, s: "StateView", c: int, known: dict[int, tuple[int, int, int]]) -> tuple[int, int, int]:
        """``c``'s strength in the fight going on, the bonus in it and its die: measured once per fight, kept in ``known``.

        The same sums as :meth:`computed` (the contest measures at the top level, never inside a modifier).
        """
        found = known.get(c)
        if found is None:
            die = self.rolled(s, c) if self.sides else 0  # without a die of their own, fighters roll only to break ties
            self.computing += 1
            try:
                base = self._strength_of(s, c)
                if base is None:
                    raise self._no_strength(c)
                bonus = self.bonus(s, c) if self.givers and self.computing <= NESTING else 0
            finally:
                self.computing -= 1
            found = known[c] = (base + die + bonus, bonus, die)
        return found

    def measure_both(self, s: "StateView", a: int, b: int, known: dict[int, tuple[int, int, int]],
                     givers: list[int] | None = None) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """``measure(a)`` and ``measure(b)``: the modifiers in play found once and run for both, giver by giver.

        Only when neither was measured and both strengths are one printed attribute each (else one by one).
        ``givers``: the components carrying a modifier in play, as :meth:`givers_in_play` lists them, when the
        caller has them.
        """
        table = self.strength_table
        if table is None or a in known or b in known:
            return self.measure(s, a, known), self.measure(s, b, known)
        face = s.face
        base_a, base_b = table[face[a]][a], table[face[b]][b]
        if base_a is None or base_b is None:  # the error, where measuring one by one raises it
            return self.measure(s, a, known), self.measure(s, b, known)
        da, db = (self.rolled(s, a), self.rolled(s, b)) if self.sides else (0, 0)
        xa = xb = 0
        if not self.givers or self.computing >= NESTING:
            givers = []
        elif givers is None:
            givers = self.givers_in_play(s)
        if givers:
            self.computing += 1
            giver = -1
            try:
                pairs = self.modifier_table
                if pairs is not None:
                    for giver in givers:
                        xa += pairs(s, giver, a) or 0
                        xb += pairs(s, giver, b) or 0
                else:
                    fns, env = self.modifier.fns, [None] * self.modifier.slots
                    for giver in givers:
                        fn = fns[giver]
                        env[0], env[1] = giver, a
                        xa += fn(s, env) or 0
                        env[0], env[1] = giver, b
                        xb += fn(s, env) or 0
            except EffectRuntimeError as err:  # a giver's own code (see bonus)
                tell_as_hidden(s, giver, "modifier of {}", None, err)
                raise
            finally:
                self.computing -= 1
        found_a = known[a] = (base_a + da + xa, xa, da)
        found_b = known[b] = (base_b + db + xb, xb, db)
        return found_a, found_b

    def givers_in_play(self, s: "StateView") -> list[int]:
        """The components carrying a modifier that lie in play now, in the order of the components."""
        in_zone, zone_of = self.in_zone, s.zone_of
        live = self.in_play_set if in_zone is None else self.live.get(s.positions)
        if live is None:
            live = self.live[s.positions] = frozenset(in_zone[role] for role in s.positions)
        return [giver for giver in self.givers if zone_of[giver] in live]

    def given(self, s: "StateView", giver: int, target: int) -> int:
        """What ``giver``'s modifier adds to ``target`` (``modifier_of``); 0 past ``NESTING`` computations in progress."""
        if self.modifier.fns[giver] is None or self.computing >= NESTING:
            return 0
        self.computing += 1
        try:
            return self.modifier(s, giver, target) or 0
        except EffectRuntimeError as err:  # its own code (see bonus)
            tell_as_hidden(s, giver, "modifier of {}", None, err)
            raise
        finally:
            self.computing -= 1

    def _reroll(self, s: "StateView", a: int, b: int, known: dict[int, tuple[int, int, int]]) -> tuple[int | None, str]:
        """Roll the tied components' dice again until one is higher: the winner (None: still tied) and the rolls."""
        sides = self.sides or 6
        said: list[str] = []
        for _ in range(REROLLS):
            ra, rb = s.roll(sides), s.roll(sides)
            said.append(f"{ra} to {rb}")
            if ra != rb:
                part = s.slices.get(Rolls.block)
                rolls = dict(part.rolled or ()) if part is not None else {}
                if self.sides:  # the new dice count from now on, as their strength
                    rolls[a], rolls[b] = ra, rb
                    s.slices[Rolls.block] = Rolls(tuple(rolls.items()))
                    known.clear()
                return (a if ra > rb else b), f"rerolled d{sides}: {', '.join(said)}"
        return None, f"rerolled d{sides}: {', '.join(said)}, always equal"

    def duel(self, s: "StateView", a: int, b: int) -> int | None:
        """``contest_winner(a, b)``: the two fight once, wherever they lie, the fight logged; the winner (None: nobody).

        With ``roll``, each first rolls its die; those dice stay part of ``strength()`` until the next fight.
        """
        if self.sides:
            s.slices[Rolls.block] = Rolls(((a, s.roll(self.sides)), (b, s.roll(self.sides))))
        fight = self.fight(s, a, b, "contest" if s.log is not None else None)
        if s.log is not None:
            s.log.append(fight.text)
        return fight.winner

    def fight(self, s: "StateView", a: int, b: int, where: str | None,
              known: dict[int, tuple[int, int, int]] | None = None) -> Fight:
        """Which of two components wins, and why in words, starting with ``where`` they fight (None: no words, nothing logs it).

        ``known`` keeps the strengths measured in the fight going on, for the next pair and the margin.
        """
        names, explain = self.game.piece_names, where is not None
        if explain and (told_name(s, a) is not None or told_name(s, b) is not None):
            return self._unseen_fight(s, a, b, where, known)
        a_wins, b_wins = self._overrides(s, a, b)
        if a_wins != b_wins:
            w, l = (a, b) if a_wins else (b, a)
            return Fight(w, f"{self._head(s, a, b, where)}: {names[w]} beats {names[l]} whatever the strength" if explain else "")
        known = {} if known is None else known
        (sa, xa, da), (sb, xb, db) = self.measure_both(s, a, b, known)
        head = f"{self._head(s, a, b, where)}: strength {_die(sa, xa, da, self.sides)} to {_die(sb, xb, db, self.sides)}" if explain else ""
        if sa != sb:
            w = a if sa > sb else b
            return Fight(w, f"{head}; {names[w]} is stronger and wins" if explain else "")
        for tie in self.ties:
            if tie == "bonus" and xa != xb:
                w = a if xa > xb else b
                return Fight(w, f"{head}; a tie, and {names[w]} has the greater bonus and wins" if explain else "")
            if tie == "identical" and names[a] == names[b]:
                return Fight(None, f"{head}; identical cards: nobody wins" if explain else "")
            if tie == "symbol" and self.symbol_rank is not None and self.symbol_rank[a] != self.symbol_rank[b]:
                w = a if self.symbol_rank[a] < self.symbol_rank[b] else b
                return Fight(w, f"{head}; a tie, and {names[w]} has the better symbol and wins" if explain else "")
            if tie == "reroll":
                w, said = self._reroll(s, a, b, known)
                if w is not None:
                    return Fight(w, f"{head}; a tie, {said}: {names[w]} wins" if explain else "")
                return Fight(None, f"{head}; a tie, {said}: nobody wins" if explain else "")
        return Fight(None, f"{head}; a tie nothing breaks: nobody wins" if explain else "")

    def _unseen_fight(self, s: "StateView", a: int, b: int, where: str,
                      known: dict[int, tuple[int, int, int]] | None) -> Fight:
        """A fight of a component some seat does not see where it lies (a hand): the log, which every seat reads, says
        who fought and who won, each as :func:`label` names it, but not their strengths or what broke a tie."""
        winner = self.fight(s, a, b, None, known).winner
        won = "nobody wins" if winner is None else f"{label(s, winner)} wins"
        return Fight(winner, f"{where}: {label(s, a)} against {label(s, b)}: {won}")

    def quiet_duel(self, s: "StateView", a: int, b: int, known: dict[int, tuple[int, int, int]],
                   givers: list[int] | None = None) -> tuple[int | None, int]:
        """The winner of ``a`` against ``b`` (None: nobody) and the strength it won by, with no words: what
        :meth:`fight` finds, and the margin of the strengths it compared (a tie goes through :meth:`fight`).

        ``givers`` as for :meth:`measure_both`.
        """
        a_wins, b_wins = self._overrides(s, a, b)
        if a_wins == b_wins:
            (sa, _, _), (sb, _, _) = self.measure_both(s, a, b, known, givers)
            if sa != sb:
                return (a, sa - sb) if sa > sb else (b, sb - sa)
            winner = self.fight(s, a, b, None, known).winner  # the tie-breaks (a reroll measures again)
        else:
            winner = a if a_wins else b
        if winner is None:
            return None, 0
        (sa, _, _), (sb, _, _) = self.measure_both(s, a, b, known, givers)
        return winner, (sa - sb if winner == a else sb - sa)

    def _overrides(self, s: "StateView", a: int, b: int) -> tuple[bool, bool]:
        """Whether ``a``, and whether ``b``, wins whatever the strengths (``beats`` / ``loses_to``)."""
        overriding = self.overriding
        if not (overriding[a] or overriding[b]):
            return NO_OVERRIDES
        if not self.overrides_fixed:
            return self._override_code(s, a, b)
        face = s.face
        key = (a, b, face[a], face[b])
        found = self.overrides_known.get(key)
        if found is None:
            found = self.overrides_known[key] = self._override_code(s, a, b)
        return found

    def _override_code(self, s: "StateView", a: int, b: int) -> tuple[bool, bool]:
        holder = a  # whose own code runs (not told at its line where it lies hidden)
        try:
            a_wins = bool(self.beats(s, a, b))
            if not a_wins:
                holder = b
                a_wins = bool(self.loses_to(s, b, a))
            holder = b
            b_wins = bool(self.beats(s, b, a))
            if not b_wins:
                holder = a
                b_wins = bool(self.loses_to(s, a, b))
        except EffectRuntimeError as err:
            tell_as_hidden(s, holder, "override of {}", None, err)
            raise
        return a_wins, b_wins

    def _head(self, s: "StateView", a: int, b: int, where: str | None) -> str:
        """The start of a fight's explanation: ``left: Card (Role) against Other (Role)`` (no role for an unowned one)."""
        return f"{where}: {self._named(s, a)} against {self._named(s, b)}"

    def _named(self, s: "StateView", c: int) -> str:
        role = self.game.zone_owner[s.zone_of[c]]
        return self.game.piece_names[c] if role is None else f"{self.game.piece_names[c]} ({role})"

    @property
    def in_play_names(self) -> list[str]:
        """The section's ``in_play`` zones by name, each once (empty for a step's own rules)."""
        return list(dict.fromkeys(self.game.zone_spec_of[z].name for z in self.in_play))

    def details(self) -> list[str]:
        """What every component's code does in a fight, in English."""
        lines = [f"{name} beats other when {text}" for name, text in self.beats.texts]
        lines += [f"{name} loses to other when {text}" for name, text in self.loses_to.texts]
        lines += [f"{name} adds to the strength of target: {text}" for name, text in self.modifier.texts]
        return lines

    def describe(self) -> str:
        """The pipeline in words: ``overrides ...; else the greater strength wins (...); on a tie: ...``."""
        parts = ["overrides ('beats' / 'loses_to' on the components) decide alone",
                 f"else the greater strength wins ({self.strength_text} plus every modifier in play)"]
        words: dict[str, str] = {"bonus": "the greater bonus", "identical": "identical components: nobody wins",
                                 "symbol": "the better symbol", "reroll": f"the higher of a d{self.sides or 6} rolled again"}
        if self.sides:
            parts[1] = f"else the greater strength wins ({self.strength_text} plus every modifier in play plus a d{self.sides} each)"
        parts.append("on a tie: " + ", then ".join(words[t] for t in self.ties))
        return "; ".join(parts)


def compile_section(b: "BuildContext") -> None:
    """The ``contest:`` section: the contest's rules, for the contest steps and ``contest_winner()`` (before the turn)."""
    if "contest" not in b.tree:
        return
    spec = b.tree.get("contest")
    if not hasattr(spec, "get"):
        b.error(b.pos(b.tree, "contest"), "'contest' must be a mapping like {strength: c.value, ties: [reroll]}")
        spec = {}
    else:
        b.unknown_keys(spec, (*RULES, "in_play"), "contest")
    b.game.parts["contest"] = ContestRules(b, spec, None)


def _sum(total: int, bonus: int) -> str:
    return f"{total}" if bonus == 0 else f"{total - bonus}{bonus:+d}={total}"


def _die(total: int, bonus: int, die: int, sides: int) -> str:
    """A fighter's strength in words: with a die, the total and how it is made.

    >>> _die(5, 2, 0, 0), _die(9, 2, 4, 6)
    ('3+2=5', '9 (3+2=5 and a d6 of 4)')
    """
    return f"{total} ({_sum(total - die, bonus)} and a d{sides} of {die})" if sides else _sum(total, bonus)
