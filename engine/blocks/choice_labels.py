"""What the options of a ``choose`` are called, and what each seat sees of them.

An option reads as action text by what it is: a component by name (by name
and place on a board, by the face it shows where copies differ), a cell as
``x,y`` or by the board's name for it, anything else as written; options
with one label are one choice (:func:`distinct_options`).  A component that
lies where some seat cannot see it is told to everyone else by kind and
place (:func:`unseen_words`: ``a card from hand of A``).  A choice of one
option is taken without asking (:class:`ForcedPicks` tells it in a view of
the move), and an answer is a typed label (:func:`parse`) or an action of
:data:`CHOICE`.

>>> plain_label(None, (3, 4)), distinct_options([7, None, 7, 8], plain_label, None)
('3,4', ([7, 8], ['7', '8']))
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.blocks.cellnames import PLAIN
from engine.core.actions import find_text, normalise
from engine.core.errors import IllegalActionError
from engine.core.facedown import NOBODY, hidden_from, public_name
from engine.core.information import SEEN, zone_view
from engine.core.showtext import as_one_line
from engine.lang.types import BOOL, DIE, ZONE, Component, ListOf

if TYPE_CHECKING:
    from engine.blocks.choices import Pending
    from engine.blocks.context import StateView


CHOOSE_WORD = "choose"
"""The word that starts the answer to a choice an effect asks: ``choose NAME``."""


class ChoiceFormatter:
    """Formats the actions that answer a pending choice: ``choose NAME``."""

    index = -1
    sealed = False  # choices are made in the open

    def format(self, args: tuple[Any, ...]) -> str:
        return f"{CHOOSE_WORD} {args[0]}"

    def public_format(self, args: tuple[Any, ...]) -> str:
        """Choices are made in the open (what is chosen is usually what the effect then shows)."""
        return self.format(args)

    def __reduce__(self) -> str:
        """Pickled by name: an answer to a choice pickled and loaded again is an answer of every state's choice
        (a copy of the formatter made it one of none).

        >>> import pickle
        >>> pickle.loads(pickle.dumps(CHOICE)) is CHOICE
        True
        """
        return "CHOICE"


CHOICE = ChoiceFormatter()


class ForcedPicks:
    """The options one state's ``choose`` calls take as their one option, without asking: a forced choice is no
    decision, but its seat did play the piece (a simulation counts it as used).  While watched (``with``), each such
    call on that very state (not on a search's copy, nor again when an effect is replayed to an answer) taking a
    component adds ``(seat, component, its zone then)`` to :attr:`picks`; one state per thread is watched at a time.
    With ``telling``, each forced choice also adds to :attr:`told` the line a view shows for it (the log has none: a
    choice nobody made), ``A chooses Oak (the only option)``, with where it falls in the log (see :meth:`merged`).

    Example: ``with ForcedPicks(state) as forced: state.apply(action)``, then ``forced.picks`` (clear it to go on).
    """

    __slots__ = ("state", "picks", "before", "telling", "told")
    _watched = threading.local()  # .now: the ForcedPicks watching on this thread (effects' coroutines run on it too)

    def __init__(self, state: "StateView", telling: bool = False) -> None:
        self.state = state
        self.picks: list[tuple[int, int, int]] = []
        self.before: ForcedPicks | None = None
        self.telling = telling
        self.told: list[tuple[int, str]] = []  # (the log's length when the choice was taken, its line)

    def merged(self, log: Sequence[str], start: int) -> list[str]:
        """The log's lines from ``start`` with each forced choice told (:attr:`told`) where it was taken: what a
        view shows of a move; the log itself is left as it is.

        >>> forced = ForcedPicks(None, telling=True); forced.told = [(3, "A chooses Oak (the only option)")]
        >>> forced.merged(["x", "a", "b", "c"], 1)
        ['a', 'b', 'A chooses Oak (the only option)', 'c']
        """
        lines = list(log[start:])
        for at, line in reversed(self.told):
            lines.insert(max(at - start, 0), line)
        return lines

    def __enter__(self) -> "ForcedPicks":
        self.before = getattr(self._watched, "now", None)
        self._watched.now = self
        return self

    def __exit__(self, *exc: object) -> None:
        self._watched.now = self.before

    @classmethod
    def note(cls, s: "StateView", role: Any, value: Any, label: str, components: bool) -> None:
        """``role`` took ``value`` (labelled ``label``; a component's id when ``components``) as the one option of a
        choose call on ``s`` (kept if ``s`` is watched; told only where ``s`` keeps a log: a paused effect rebuilt
        runs again without one, its choices told when first taken)."""
        watch = getattr(cls._watched, "now", None)
        if watch is None or watch.state is not s:
            return
        if components:
            seat = s.seat_of.get(role, 0) if role is not None else 0
            watch.picks.extend((seat, cid, s.zone_of[cid]) for cid in picked(value))
        if watch.telling and s.log is not None:
            who = f"{role} chooses" if role is not None else "chosen:"
            watch.told.append((len(s.log), f"{who} {seen_label(s, value, label, components)} (the only option)"))


def picked(value: Any) -> tuple[int, ...]:
    """The components an option of a choice among components names: itself, or each of a list of them (a choice
    among ``combinations(hand(r), 2)``); none for a pass.

    >>> picked(4), picked([4, 7]), picked(None)
    ((4,), (4, 7), ())
    """
    if value is None:
        return ()
    return tuple(c for c in value if c is not None) if isinstance(value, (list, tuple)) else (value,)


def options_picked(options: Sequence[Any]) -> list[int]:
    """Every component the options of a choice among components (or lists of them) name, each once per option."""
    return [c for o in options for c in picked(o)]


def chosen_components(pending: Pending, label: str) -> tuple[int, ...]:
    """The components an answer to ``pending`` picks (none when its options are not components).

    >>> from engine.blocks.choices import Pending
    >>> chosen_components(Pending(0, "effect", (), options=(4, 7), labels=("a", "b"), components=True), "b")
    (7,)
    >>> chosen_components(Pending(0, "effect", (), options=([4, 7], [4, 9]), labels=("[a, b]", "[a, c]"), components=True), "[a, c]")
    (4, 9)
    """
    if not pending.components or label not in pending.labels:
        return ()  # not a component
    return picked(pending.options[pending.labels.index(label)])


def parse(s: "StateView", text: str) -> str:
    """The label a typed answer names (``choose NAME`` or just ``NAME``); raises with the options."""
    pending = s.pending
    assert pending is not None
    labels = pending.labels
    found = find_text(text, [*labels, *(f"{CHOOSE_WORD} {label}" for label in labels)])
    if found is not None:
        return labels[found % len(labels)]
    wanted = normalise(text)
    for label in pending.refused:
        if wanted in (normalise(label), normalise(f"{CHOOSE_WORD} {label}")):
            raise IllegalActionError(s.game.steps[pending.step].refusal.reason(text))
    options = ", ".join(f"{CHOOSE_WORD} {label}" for label in pending.labels)
    unquoted = _unquoted(text, labels)
    hint = f" (an option is written as listed, without quotes: {CHOOSE_WORD} {unquoted})" if unquoted else ""
    raise IllegalActionError(f"'{text}' does not answer the question ({pending.words}); the options are: {options}{hint}")


def _unquoted(text: str, labels: Sequence[str]) -> str | None:
    """The option ``text`` names once the quotes around its answer are taken off (``choose "Yes"``, written as a YAML
    file quotes an id that YAML would read as true), when one does; None otherwise.

    >>> _unquoted('choose "Yes"', ["Yes", "No"]), _unquoted("'No'", ["Yes", "No"]), _unquoted('"Maybe"', ["Yes"])
    ('Yes', 'No', None)
    """
    answer = text.strip()
    if answer.startswith(CHOOSE_WORD + " "):
        answer = answer[len(CHOOSE_WORD):].strip()
    if len(answer) < 2 or answer[0] != answer[-1] or answer[0] not in "\"'":
        return None
    found = find_text(answer[1:-1], list(labels))
    return labels[found] if found is not None else None


def labeller(item: Any) -> Any:
    """How an option reads in action text: as the effect language writes it -- components and zones by name, cells
    as x,y, truth values ``true``/``false``, dice ``d6``, a list as its items in brackets -- the rest as written.

    >>> labeller(BOOL)(None, True), labeller(DIE)(None, 8), labeller(ListOf(BOOL))(None, [True, False])
    ('true', 'd8', '[true, false]')
    >>> from engine.lang.types import STR
    >>> labeller(ListOf(STR))(None, ["take", "pass"]), labeller(ListOf(ListOf(STR)))(None, [[7, 8], [5]])
    ('[take, pass]', '[[7, 8], [5]]')
    """
    if isinstance(item, Component):
        return component_label
    if item is ZONE:
        return zone_label
    if item is BOOL:
        return lambda s, v: "true" if v else "false"
    if item is DIE:
        return lambda s, v: f"d{v}"
    if isinstance(item, ListOf):  # each item as it reads alone: [Wool, Grain], not Python's ['Wool', 'Grain']
        inner = labeller(item.item)
        return lambda s, v: f"[{', '.join(_in_list(inner(s, x), x) for x in v)}]" if isinstance(v, list) else inner(s, v)
    return plain_label


def _in_list(text: str, value: Any) -> str:
    """An item's label in a list's: one that would read as several items, or none, in quotes (``["a, b"]`` is not
    ``[a, b]``: a choice offering both offered one of them), a text's or a component's alike; a cell, ``0,1``, and a
    list, as they are.

    >>> _in_list("Wool", "Wool"), _in_list("a, b", "a, b"), _in_list("", ""), _in_list('say "x]"', 'say "x]"')
    ('Wool', '"a, b"', '""', '"say \\\\"x]\\\\""')
    >>> _in_list("0,1", (0, 1)), _in_list("a, b", 7)
    ('0,1', '"a, b"')
    """
    if isinstance(value, (tuple, list)) or isinstance(value, str) and text != value:  # a text its label quotes already
        return text
    if text and text == text.strip() and not any(c in text for c in ',[]"'):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


CELL_LABELS: dict[tuple[Any, ...], str] = {}
"""The labels of the cells (tuples) offered so far: the same few are offered at every decision."""


def plain_label(s: "StateView", value: Any) -> str:
    """A value as action text: a cell as x,y (as the board names it, where it does), anything else as written; a text
    that cannot stand so in one line (or is empty, or has spaces at an end: typed, it would read as another or none)
    in quotes, its line breaks and unseen characters written as escapes (a line break would print a line of its own,
    looking like another action or a line of the log), and its backslashes and quotes too, so that no other text
    reads the same.

    >>> plain_label(None, (3, 4)), plain_label(None, 7), plain_label(None, "take\\n[2] pass")
    ('3,4', '7', '"take\\\\n[2] pass"')
    >>> plain_label(None, "take\\\\n[2] pass"), plain_label(None, '"take"'), plain_label(None, ""), plain_label(None, " a")
    ('take\\\\n[2] pass', '"\\\\"take\\\\""', '""', '" a"')
    """
    if not isinstance(value, tuple):
        text = str(value)
        if text.isprintable() and text and text == text.strip() and not (len(text) > 1 and text[0] == text[-1] == '"'):
            return text
        return '"' + as_one_line(text.replace("\\", "\\\\").replace('"', '\\"')) + '"'
    if s is not None and s.game.cell_names is not PLAIN and len(value) == 2:  # the board names its cells: e2
        try:
            return s.game.cell_text(value)
        except TypeError:  # a pair holding something unhashable
            return ",".join(map(str, value))
    try:
        text = CELL_LABELS.get(value)
    except TypeError:  # a tuple holding something unhashable
        return ",".join(map(str, value))
    if text is None:
        if len(CELL_LABELS) >= 4096:
            CELL_LABELS.clear()
        text = CELL_LABELS[value] = ",".join(map(str, value))
    return text


UNSEEN_ZONES = ("others", "all", "owner")
"""The ``hidden`` settings of zones some seat cannot see into (a zone whose order alone is hidden shows what it holds)."""


def unseen_words(s: "StateView", cid: Any, apart: bool = False) -> str | None:
    """How a chosen component reads to every seat when some seat cannot see it where it lies: ``a card from hand of
    A`` (its kind and its zone, not its name); None when everyone sees it (on the board, in an open zone, in a zone
    whose order alone is hidden).  The log and the other seats' view of a choice say this instead of its name.
    ``apart``: it was chosen among components lying in several such zones (see :func:`lying_apart`), so its zone
    would tell where the others may not look: ``a card``, its kind alone."""
    if not isinstance(cid, int) or isinstance(cid, bool) or s.cell_of[cid] is not None:
        return None
    zone = s.zone_of[cid]
    if s.game.zone_spec_of[zone].hidden not in UNSEEN_ZONES:
        return None
    kind = s.game.component_kind[cid]
    article = 'an' if kind[:1].lower() in 'aeiou' else 'a'
    return f"{article} {kind}" if apart else f"{article} {kind} from {s.game.zone_names[zone]}"


def held_away_from(s: "StateView", options: list[Any], role: Any) -> str | None:
    """The name of the zone ``hidden: owner`` that belongs to ``role`` and holds one of the ``options``: a choice
    among them would name to its owner what the owner may not see; None when there is none.

    >>> class Spec: hidden = "owner"
    >>> class Game: zone_spec_of, zone_owner, zone_names = [Spec], ["A"], ["hand of A"]
    >>> class S: game, zone_of, cell_of = Game, [0, 0], [None, None]
    >>> held_away_from(S, [0, None], "A"), held_away_from(S, [1], "B")
    ('hand of A', None)
    """
    g = s.game
    for o in options_picked(options):
        if s.cell_of[o] is None:
            zone = s.zone_of[o]
            if g.zone_spec_of[zone].hidden == "owner" and g.zone_owner[zone] == role:
                return g.zone_names[zone]
    return None


def hides_a_component(s: "StateView", pending: Pending) -> bool:
    """Whether some of the pending choice's options are components lying where some seat cannot see them (what
    :func:`unseen_words` tells by kind and place); worked out once per pending choice (its options stay put)."""
    hides = pending.hides
    if hides is None:
        specs, zone_of, cell_of = s.game.zone_spec_of, s.zone_of, s.cell_of
        hides = pending.components and any(cell_of[o] is None and specs[zone_of[o]].hidden in UNSEEN_ZONES
                                           for o in options_picked(pending.options))
        object.__setattr__(pending, "hides", hides)
    return hides


def seen_label(s: "StateView", value: Any, label: str, components: bool, apart: bool = False) -> str:
    """An answer as the log says it: its label, or what every seat may know of a component it picks (unseen_words;
    ``apart``: picked among components lying in several unseen zones); a list of components, each so.

    >>> class Spec: hidden = "others"
    >>> class Game: zone_spec_of, zone_names, component_kind, piece_names = [Spec], ["hand of A"], ["card"] * 2, ["x", "y"]
    >>> class S: game, zone_of, cell_of = Game, [0, 0], [None, None]
    >>> seen_label(S, [0, 1], "[x, y]", True), seen_label(S, 1, "y", False)
    ('[a card from hand of A, a card from hand of A]', 'y')
    """
    if not components:
        return label
    if isinstance(value, (list, tuple)):  # a list of them (a tuple, read back from a save)
        words = [unseen_words(s, c, apart) for c in value]
        if all(w is None for w in words):
            return label
        return f"[{', '.join(w or component_label(s, c) for w, c in zip(words, value))}]"
    return unseen_words(s, value, apart) or label


def listed_as_seen(s: "StateView", options: list[Any], labels: list[str], role: Any) -> tuple[list[Any], list[str]]:
    """Options among components, listed by label when the chooser does not see the order some of them lie in (a
    deck searched through, a hand whose order is hidden from its owner): that order would tell the chooser what it
    may not know (the next draw).  Otherwise in the order they lie in.

    >>> class Spec: hidden = "none"
    >>> class Game: zone_spec_of = [Spec]
    >>> class S: game, zone_of = Game, [0, 0]
    >>> listed_as_seen(S, [1, 0], ["b", "a"], None)
    ([1, 0], ['b', 'a'])
    """
    specs, zone_of, named = s.game.zone_spec_of, s.zone_of, options_picked(options)
    if all(specs[zone_of[o]].hidden == "none" for o in named):
        return options, labels
    seat = s.seat_of.get(role, 0) if role is not None else 0
    if all(zone_view(s, zone_of[o], seat) == SEEN for o in named):
        return options, labels
    listed = sorted(zip(labels, options), key=lambda pair: pair[0])
    return [o for _, o in listed], [text for text, _ in listed]


def public_choice(s: "StateView", label: str) -> str | None:
    """How answering the pending choice with ``label`` reads to the seats that do not make it, when it picks a
    component some of them cannot see (``choose a card from hand of A``); None when the answer reads as it is."""
    pending = s.pending
    if pending is None or not pending.components:
        return None
    if label not in pending.labels:
        return None
    value = pending.options[pending.labels.index(label)]
    if value is None:
        return None
    words = seen_label(s, value, label, True, lying_apart(s, pending.options))
    return None if words == label else f"{CHOOSE_WORD} {words}"


def component_label(s: "StateView", cid: int) -> str:
    """A component by name; one on the board by name and place (``stone at 3,4``; ``:2``: second from the top of a stack;
    a face-down piece by its back, ``face-down tile at 3,4``, whoever chooses: the log shows every seat the answer)."""
    name = s.game.piece_names[cid]
    cell = s.cell_of[cid]
    if cell is None:
        return name
    name = public_name(s, cid, name)
    depth = s.stack(cell).index(cid)
    names = s.game.cell_names
    at = f"{cell[0]},{cell[1]}" if names is PLAIN else names.text(cell)
    return f"{name} at {at}" + (f":{depth + 1}" if depth else "")


def face_shown(s: "StateView", cid: int) -> str:
    """The label of the face a component shows (``B`` for a token showing its face labelled B)."""
    return s.game.face_labels[cid][s.face[cid]]


def faced_label(s: "StateView", cid: int) -> str:
    """A component by name and the face it shows (``token as B``, ``token as B at 3,4``), where its name alone
    would not tell it from a copy showing another face."""
    text = component_label(s, cid)
    if hidden_from(s, cid, NOBODY):  # a face-down piece shows no face
        return text
    name = s.game.piece_names[cid]
    return f"{name} as {face_shown(s, cid)}{text[len(name):]}"


def distinct_options(values: list[Any], label: Any, s: "StateView") -> tuple[list[Any], list[str]]:
    """The options with one per label (identical copies of a component showing the same face in the same zone are one
    choice; copies showing different faces are told apart by the face, ``token as B``, and copies lying in different
    zones by the zone, ``tile from left``, as taking one from a pile is not taking one from another); none is never
    an option.

    Cells whose labels are all kept already and differ (the usual offer of cells) are read in C:

    >>> distinct_options([(0, 1), (2, 0)], plain_label, None), distinct_options([(0, 1), (2, 0), None], plain_label, None)
    (([(0, 1), (2, 0)], ['0,1', '2,0']), ([(0, 1), (2, 0)], ['0,1', '2,0']))
    """
    if label is plain_label and (s is None or s.game.cell_names is PLAIN):
        try:
            known = list(map(CELL_LABELS.get, values))
        except TypeError:  # an unhashable value
            known = [None]
        if None not in known and len(set(known)) == len(known):
            return values, known  # type: ignore[return-value]
    options: list[Any] = []
    labels: list[str] = []
    seen: dict[str, Any] = {}  # each label's first option
    faced: set[str] = set()  # labels shared by components showing different faces
    zoned: set[str] = set()  # labels shared by components lying in different zones
    for v in values:
        if v is None:
            continue
        text = label(s, v)
        first = seen.get(text)
        if first is None:
            seen[text] = v
            options.append(v)
            labels.append(text)
        elif label is component_label:
            if text not in faced and face_shown(s, v) != face_shown(s, first):
                faced.add(text)
            if text not in zoned and s.cell_of[v] is None and s.zone_of[v] != s.zone_of[first]:
                zoned.add(text)
    if faced or zoned:  # copies that look different, or lie apart, are different options: their labels say how
        return distinct_options(values, lambda s, v: told_label(s, v, faced, zoned), s)
    return options, labels


def zone_label(s: "StateView", zone: Any) -> str:
    """A zone as action text: its name (``discard``, ``hand of A``), not the number the state keeps it under, which
    a choice among piles offered as ``choose 1``, ``choose 2``."""
    return s.game.zone_names[zone] if isinstance(zone, int) and not isinstance(zone, bool) else str(zone)


def lying_apart(s: "StateView", options: Any) -> bool:
    """Whether the components among ``options`` lie in more than one zone some seat cannot see into: a choice naming
    one of them (a card named among every card of a sort, wherever each lies) would tell the other seats which of
    those zones holds it, were its zone said.

    >>> class Spec: hidden = "others"
    >>> class Game: zone_spec_of = [Spec, Spec]
    >>> class S: game, zone_of, cell_of = Game, [0, 1, 1], [None, None, None]
    >>> lying_apart(S, [0, 1, None]), lying_apart(S, [1, 2])
    (True, False)
    """
    specs, zone_of, cell_of = s.game.zone_spec_of, s.zone_of, s.cell_of
    zones = {zone_of[o] for o in options_picked(options) if cell_of[o] is None and specs[zone_of[o]].hidden in UNSEEN_ZONES}
    return len(zones) > 1


def told_label(s: "StateView", cid: int, faced: set[str], zoned: set[str]) -> str:
    """A component's label told apart from its copies: by the face it shows when its name is in ``faced``, by the
    zone it lies in (``tile from left``) when its name is in ``zoned``."""
    name = component_label(s, cid)
    text = faced_label(s, cid) if name in faced else name
    return f"{text} from {s.game.zone_names[s.zone_of[cid]]}" if name in zoned and s.cell_of[cid] is None else text
