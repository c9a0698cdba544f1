"""``rulecraft explain``: a ruleset's rules summarised in English, section by section.

Everything is read from the compiled game, so the summary is always the rules
the engine actually plays.

Example::

    for line in explain(engine.load("my-game/ruleset.yaml")):
        print(line)
    for line in explain_component(game, "Scout"):   # one component's card
        print(line)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from cli.zone_listing import place_name
from engine.blocks.outcome import Goals, Ranking
from engine.core.errors import RulecraftError, did_you_mean
from engine.core.facedown import FaceDown
from engine.core.showtext import cut
from engine.lang.defined import Defined

if TYPE_CHECKING:
    from engine import Game

HIDDEN = {
    "none": "open to all",
    "others": "contents hidden from other seats",
    "order": "order and contents hidden",
    "all": "hidden from everyone",
    "owner": "held facing away: contents seen by every seat but its owner's",
}


def explain(game: Game) -> list[str]:
    """The whole summary as lines; section titles are unindented, their items indented."""
    lines = [f"{game.title} ({game.name}, version {game.version})"]
    if game.description:
        lines.append(game.description.strip())
    for title, section in SECTIONS:
        body = section(game)
        if body:
            lines += ["", title] + [f"  {line}" for line in body]
    return lines


def _players(game: Game) -> list[str]:
    return [", ".join(map(str, game.player_counts))]


def _options(game: Game) -> list[str]:
    return [
        f"{name} = {_value(value)}{' (set with --set)' * (name in game.set_options)}: "
        f"{_one_line(game.option_docs.get(name, ''))}".rstrip(": ")
        + (f" (it must hold that {game.option_checks[name]})" if name in game.option_checks else "")
        for name, value in game.options.items()
    ]


def _types(game: Game) -> list[str]:
    return [f"{name}: {', '.join(values)}" for name, values in game.types.items()]


def _piece_counts(game: Game, ids: list[int]) -> list[str]:
    """Each distinct piece once, identical copies as ``13 x Name``, other names after it (``star (also *)``)."""
    counts: dict[str, int] = {}
    for cid in ids:
        counts[game.piece_names[cid]] = counts.get(game.piece_names[cid], 0) + 1
    also: dict[str, list[str]] = {}
    for other, ident in game.other_names.items():
        also.setdefault(ident, []).append(other)
    return [(name if n == 1 else f"{n} x {name}") + (f" (also {', '.join(also[name])})" if name in also else "")
            for name, n in counts.items()]


def _components(game: Game) -> list[str]:
    lines = []
    for kind, ids in game.kinds.items():
        faces = game.face_names.get(kind, ())
        lines.append(f"{len(ids)} {kind}" + (f", faces {' / '.join(faces)}" if len(faces) > 1 else ""))
        lines.append("  " + ", ".join(_piece_counts(game, ids)))
    return lines


def _board(game: Game) -> list[str]:
    grid = game.grid
    if grid is None:
        return []
    turning = ["its pieces may lie face down (turn_down, turn_up): a seat that may not see one sees only its back"]
    named = [game.cell_names.describe()] if game.cell_names.describe() else []
    return [grid.describe(), *named, *(turning if FaceDown.block in game.parts else [])]


def _hidden(spec: Any) -> str:
    """What the seats see of a zone: a role's own zone ``hidden: order`` shows its owner what it holds (a bag of
    one's own chips: explain said "order and contents hidden").

    >>> from types import SimpleNamespace
    >>> _hidden(SimpleNamespace(hidden="order", per_role=True)), _hidden(SimpleNamespace(hidden="order", per_role=False))
    ('order hidden, contents seen by its owner only', 'order and contents hidden')
    """
    if spec.hidden == "order" and spec.per_role:
        return "order hidden, contents seen by its owner only"
    return HIDDEN.get(spec.hidden, spec.hidden)


def _per_key(spec: Any) -> str:
    """How many zones a zone kept per key (``key:``) is, for its line.

    >>> from types import SimpleNamespace
    >>> _per_key(SimpleNamespace(name="pile", key_texts=("X", "Y"), key_of="hue", per_role=False))
    ', one per hue (pile(X), ...)'
    >>> _per_key(SimpleNamespace(name="column", key_texts=("1", "2"), key_of="1..2", per_role=False))
    ', one per number 1..2 (column(1), ...)'
    >>> _per_key(SimpleNamespace(name="row", key_texts=("X", "Y"), key_of="hue", per_role=True))
    " and hue (row(ROLE, X), ...; row(ROLE) the role's)"

    """
    if not spec.key_texts:
        return ""
    what = f"number {spec.key_of}" if ".." in spec.key_of else spec.key_of
    if spec.per_role:
        return f" and {what} ({spec.name}(ROLE, {spec.key_texts[0]}), ...; {spec.name}(ROLE) the role's)"
    return f", one per {what} ({spec.name}({spec.key_texts[0]}), ...)"


def _zones(game: Game) -> list[str]:
    return [
        f"{spec.name}: a {spec.kind}{', one per role' if spec.per_role else ''}{_per_key(spec)}, {_hidden(spec)}"
        f"{f', refilled from the {spec.refill} (shuffled) when a draw runs short' if spec.refill else ''}"
        f"{f' — {spec.doc}' if spec.doc else ''}"
        for spec in game.zone_specs.values()
    ]


def _drawing(game: Game) -> list[str]:
    """How ``play`` and the web page draw the game, when the ruleset says (``display``, the board's ``y_axis: up``,
    ``lines_every``, ``thin``): none of it changes a rule.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(grid=SimpleNamespace(y_up=False, lines_every=3, thin="odd"),
    ...                        display={"North": {"short": "x", "style": "dim"}, "South": {"colour": "#c00"}})
    >>> for line in _drawing(game): print(line)
    the board: a heavier line every 3 cells (lines_every: 3); the odd columns and rows thin, a piece there a bar (thin: odd)
    North: short text x, style dim (drawn faint)
    South: colour #c00
    """
    grid = game.grid
    board = [*(["row 0 at the bottom (y_axis: up)"] if getattr(grid, "y_up", False) else []),
             *([f"a heavier line every {every} cells (lines_every: {every})"] if (every := getattr(grid, "lines_every", 0)) else []),
             *([f"the {thin} columns and rows thin, a piece there a bar (thin: {thin})"] if (thin := getattr(grid, "thin", "")) else [])]
    lines = [f"the board: {'; '.join(board)}"] if board else []
    for name, hint in game.display.items():
        said = [f"{word} {hint[key] if key != 'style' else hint[key].replace('_', ' ')}"  # a style's underscores read as spaces
                for key, word in (("short", "short text"), ("style", "style"), ("colour", "colour")) if key in hint]
        faint = " (drawn faint)" if "dim" in hint.get("style", "").split() else ""
        lines.append(f"{name}: {', '.join(said)}{faint}")
    return lines


def _counters(game: Game) -> list[str]:
    owners = {"role": "one per role", "game": "one for the whole game"}
    book = game.parts.get("statuses")
    elsewhere = {**(book.by_name if book else {}), **(game.parts.get("meters") or {})}  # listed under Statuses, Meters
    return [
        f"{name}: {_counted(owners.get(spec.per, f'one per {spec.per}'), spec.key_of)}{f' — {spec.doc}' if spec.doc else ''}"
        for name, spec in game.counters.items() if name not in elsewhere
    ]


def _counted(owners: str, key_of: str) -> str:
    """Whose a counter is, and for which keys when it has them.

    >>> _counted("one per role", "hue"), _counted("one for the whole game", "2..12"), _counted("one per role", "")
    ('one per role and hue', 'one for each of 2..12', 'one per role')
    >>> _counted("one for the whole game", "cell")
    'one for each cell'
    """
    if not key_of:
        return owners
    if owners.endswith("whole game"):
        return f"one for each of {key_of}" if ".." in key_of else f"one for each {key_of}"
    return f"{owners} and {key_of}" if ".." not in key_of else f"{owners}, for each of {key_of}"


def _roles(game: Game) -> list[str]:
    roles = game.roles
    if roles is None:
        return []
    hidden = "; each seat knows only its own" if roles.hidden else ""
    order = "" if any(roles.shuffled.values()) else ", in this order"
    lines = [f"the {roles.type_name} values {', '.join(roles.values)}{order}{hidden}"]
    for players, seats in sorted(roles.seating.items()):
        who = ", ".join(f"seat {s}" if s else "nobody" for s in seats)
        lines.append(f"{players} player{'s' if players != 1 else ''}: positions played by {who}{_dealt(roles.values, roles.groups(players))}")
        teams = game.teams.get(players)
        if teams:
            lines.append("  in teams: " + " against ".join(f"team {n} (seat{'s' * (len(team) > 1)} {' and '.join(map(str, team))})"
                                                             for n, team in enumerate(teams, 1))
                         + "; a team's seats pool their points and win together")
    lines.append(f"a roll-off decides who plays first: every seat rolls a die, the {game.first_roll} roll starts (tied seats roll again)"
                 if game.first_roll else f"seat {game.first_seat} plays first")
    return lines


def _dealt(values: tuple[str, ...], groups: tuple[tuple[str, ...], ...]) -> str:
    """Which roles are dealt at random to those positions (nothing when none are).

    >>> _dealt(("A", "B", "C"), (("A",), ("B",)))
    '; A, B dealt at random among their positions'
    >>> _dealt(("A", "B", "C", "D"), (("A", "C"), ("B", "D")))
    '; A & C, B & D dealt at random among their positions, each pair as one'
    """
    if not groups:
        return ""
    if len(groups) == len(values):
        return "; the roles dealt to positions at random"
    if any(len(group) > 1 for group in groups):
        return f"; {', '.join(' & '.join(g) for g in groups)} dealt at random among their positions, each {'pair' if len(groups[0]) == 2 else 'group'} as one"
    return f"; {', '.join(g[0] for g in groups)} dealt at random among their positions"


def _setup(game: Game) -> list[str]:
    """One program as it is; one per player count with the counts first and the ``default`` last, as "otherwise"."""
    if list(game.setup) == ["default"]:
        return [game.setup["default"].description]
    keys = sorted(game.setup, key=lambda key: (key == "default", 0 if key == "default" else key))
    return [f"{_counts(key)}: {game.setup[key].description}" for key in keys]


def _turn(game: Game) -> list[str]:
    lines = []
    phase = ""
    for i, step in enumerate(game.steps, 1):
        if step.phase != phase:
            phase = step.phase
            lines.append(f"{phase} phase:" if phase else "then:")
        indent = "  " if phase else ""
        lines.append(f"{indent}{i}. {step.describe_with_condition()}")
        lines += [f"{indent}   {line}" for line in step.details()]
    return lines


def _functions(game: Game) -> list[str]:
    """Each function the ruleset defines, as its calls read, and what it means."""
    return [f"{fn.heading()}: {fn.meaning}" for fn in game.vocab.functions.values()
            if isinstance(fn, Defined) and fn.kind == "function"]


def _procedures(game: Game) -> list[str]:
    """Each procedure the ruleset defines, as its calls read, and what it does."""
    return [f"{fn.heading()}: {fn.meaning}" for fn in game.vocab.functions.values() if isinstance(fn, Defined) and fn.kind == "procedure"]


def _meter(game: Game) -> list[str]:
    meter = game.parts.get("meter")
    if meter is None:
        return []
    lines = [f"the {meter.counter.name} of each {meter.counter.per}, in tiles of {meter.size}, from its start down to the {meter.bottom} at 0"]
    if meter.unstoppable:
        lines.append(f"nothing prevents what comes from: {', '.join(sorted(meter.unstoppable))}")
    return lines + meter.describe()


def _meters(game: Game) -> list[str]:
    """Each named meter: who carries one, its range, then its tiles and thresholds."""
    lines = []
    for name, meter in (game.parts.get("meters") or {}).items():
        lines.append(f"{name}: {meter.summary}{f' — {meter.counter.doc}' if meter.counter.doc else ''}")
        if meter.shared:
            lines.append("  special tiles: " + ", ".join(f"{kind} {n}".strip() + f" at {at}" for at, (kind, n) in sorted(meter.shared.items())))
        elif meter.tiles:
            lines.append("  special tiles: each carrier's own (explain --component shows them)")
        lines += [f"  {line}" for line in meter.describe()]
    return lines


def _statuses(game: Game) -> list[str]:
    """Each status; under one whose text speaks for it, its hooks' code read back in English, as a character's
    actions are, so the designer sees what the code does beside what the text says."""
    book = game.parts.get("statuses")
    lines: list[str] = []
    for status in book.statuses if book else ():
        lines.append(status.describe())
        if status.text:
            lines += [f"  {hook}: {hook_code.words}" for hook, hook_code in status.hooks.items()]
    return lines


def _programs(game: Game) -> list[str]:
    """What each component's own program does (``programs:``, run by ``perform``), in English, by attribute."""
    lines: list[str] = []
    for attribute, code in (game.parts.get("programs") or {}).items():
        lines += [f"{name}'s {attribute}: {words}" for name, words in code.texts]
    return lines


def _slots(game: Game) -> list[str]:
    slots = game.parts.get("slots")
    return [slots.describe()] if slots else []


def _contest(game: Game) -> list[str]:
    """The rules every contest fights by, when a ``contest:`` section declares them (a step's own are under Turn)."""
    rules = game.parts.get("contest")
    if rules is None or rules.in_zone is not None:
        return []
    where = rules.in_play_names
    lines = [rules.describe()] + ([f"the modifiers counted: those of the components in {', '.join(where)}"] if where else [])
    return lines + rules.details()


def _clash_tables(game: Game) -> list[str]:
    lines = []
    for name, table in game.parts.get("clash", {}).items():
        lines.append(f"{name}:")
        lines += [f"  {line}" for line in table.describe()]
    return lines


def _support_tables(game: Game) -> list[str]:
    lines = []
    for name, table in game.parts.get("majority", {}).items():
        lines.append(f"{name}:")
        lines += [f"  {line}" for line in table.describe()]
    return lines


def _end(game: Game) -> list[str]:
    if game.end_condition is None:
        return []
    stalled = ", or when a whole round of turns goes by in which nobody can do anything" if game.end_when_stalled else ""
    stuck = {"loses": "; a player with no legal move on their turn loses",
             "draw": "; when a player has no legal move on their turn, the game is drawn",
             "passes": "; a player with no legal move on their turn passes"}.get(game.no_move, "")
    if game.end_condition.description == "false" and game.no_move in ("loses", "draw"):
        result = "that player loses" if game.no_move == "loses" else "a draw"
        return [f"only when the player to move has no legal move ({result}), or after {game.max_turns} turns{stalled}"]
    if game.end_condition.description == "false":
        return [f"only when a step of the turn ends it (see Turn), or after {game.max_turns} turns{stalled}{stuck}"]
    return [f"when {game.end_condition.description}, or after {game.max_turns} turns{stalled}{stuck}"]


def _scoring(game: Game) -> list[str]:
    lines = []
    for counts, block in game.outcomes:
        who = ", ".join(map(str, counts)) + (" player" if counts == (1,) else " players")
        lines.append(f"{who}:")
        lines += [f"  {line}" for line in _block(block)]
    return lines


def _block(block: Ranking | Goals) -> list[str]:
    if isinstance(block, Goals):
        return [f"every seat wins if any of these goals holds at the end: {', '.join(block.names)}"]
    each = f" each {block.items_text}" if block.items_text else ""  # the name the keys use: "each s in roles"
    ranks = [f"rank{each} by {block.key_texts[0]}"] if block.key_texts else []
    ranks += [f"ties broken by {key}" for key in block.key_texts[1:]]
    who = ("the seats of the items ranked first (tied on every key) win" if block.first_ranked
           else "the seats with the most points win together, as one side" if block.together
           else "the seats with the most points win")
    if block.nobody_text:
        who += f", unless {block.nobody_text}: then nobody wins"
    if block.by_key:
        ties = " (the tie-breaks score nothing)" if len(block.key_texts) > 1 else ""
        return ranks + [f"each scores what it is ranked by{ties}; {who}"]
    pays = ", ".join(map(str, block.points))
    listed = f"of {block.items_text}" if block.items_text else "they are listed in"
    order = (["items still tied share their place: each is paid the first place they share"] if block.first_ranked
             else [f"items still tied keep the order {listed} (the first listed takes the better place)"])
    return ranks + order + [f"points by rank: {pays}; {who}"]


def _replaced(game: Game) -> list[str]:
    return [f"{note} at {pos.file}:{pos.line}" if pos else note for pos, note in game.replaced]


def _variants(game: Game) -> list[str]:
    lines = [f"{name}: {_one_line(doc)}" for name, doc in game.available_variants.items()]
    if game.variants:
        lines.append(f"selected: {' + '.join(game.variants)}")
    return lines or ["none"]


def _counts(key: int | str) -> str:
    return "otherwise" if key == "default" else f"{key} player{'s' if key != 1 else ''}"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(_value, value)) + "]"
    return str(value)


def _one_line(text: str) -> str:
    return " ".join(text.split())


SECTIONS: list[tuple[str, Callable[[Game], list[str]]]] = [
    ("Players", _players),
    ("Options", _options),
    ("Types", _types),
    ("Components", _components),
    ("Board", _board),
    ("Zones", _zones),
    ("Drawing (in play and on the web page; no rule changes)", _drawing),
    ("Counters", _counters),
    ("Roles and seating", _roles),
    ("Slots", _slots),
    ("Functions", _functions),
    ("Procedures", _procedures),
    ("Meter", _meter),
    ("Meters", _meters),
    ("Statuses", _statuses),
    ("Programs", _programs),
    ("Setup", _setup),
    ("Turn", _turn),
    ("Contest", _contest),
    ("Clash tables", _clash_tables),
    ("Support tables", _support_tables),
    ("End", _end),
    ("Scoring", _scoring),
    ("Variants", _variants),
    ("Replaced from the base", _replaced),
]


# ---------------------------------------------------------------- one component


def explain_component(game: Game, name: str) -> list[str]:
    """One component as a card: kind, attributes, its meter with the special tiles, and what the turn's steps read on it.

    Raises RulecraftError when no component has that name.
    """
    cid = _component(game, name)
    kind = game.component_kind[cid]
    piece = game.piece_names[cid]
    copies = len(game.identical.get(piece, ())) or 1
    lines = [f"{piece} — a {kind}" + (f" ({copies} copies)" if copies > 1 else "")]
    also = [other for other, ident in game.other_names.items() if ident == piece]
    if also:
        lines.append(f"also written: {', '.join(also)} (in actions and positions)")
    texts = []
    for attr, type_name in game.attribute_types.items():
        value = game.attributes[attr][0][cid]
        if value is None or type_name == "table":
            continue
        if attr in game.code_texts:  # code: its English
            english = game.code_texts[attr].get(piece) or game.code_texts[attr].get(game.component_names[cid])
            lines.append(f"{attr}: {english or 'see the turn'}")
        elif type_name == "text":
            texts.append(_one_line(str(value)))
        elif type_name in ("cell", "list of cell") and "cell" not in game.types:  # a point by its name
            lines.append(f"{attr}: {_value([place_name(game, c) for c in value] if isinstance(value, list) else place_name(game, value))}")
        else:
            lines.append(f"{attr}: {_value(value)}")
    lines += texts
    lines += _track(game, cid)
    read: dict[str, None] = {}
    for step in game.steps:
        for line in step.describe_component(cid):
            read.pop(line, None)  # a line several steps give (a last action in two phases) comes where it is last read
            read[line] = None
    this = f"this {kind}"
    return lines + [re.sub(r"\bself\b", this, line) for line in read]


def _component(game: Game, name: str) -> int:
    """The component a name means: a component's id or another name of it (``also:``), or the shared name of
    identical copies (any case)."""
    name = game.other_names.get(name, name)
    if name in game.component_ids:
        return game.component_ids[name]
    for cid, piece in enumerate(game.piece_names):
        if piece == name or piece.lower() == name.lower():
            return cid
    hint = did_you_mean(name, sorted(set(game.piece_names)))
    raise RulecraftError(f"{game.name} has no component {cut(repr(name), 60)}" + (f" ({hint})" if hint else ""))


def _track(game: Game, cid: int) -> list[str]:
    """The component's meters, start to bottom, with their special tiles and what each does."""
    meters = [m for m in (game.parts.get("meter"), *(game.parts.get("meters") or {}).values())
              if m is not None and m.counter.index_of(cid) is not None]
    if not meters:
        return []
    state = game.new_state(players=game.player_counts[0])
    lines = []
    for meter in meters:
        lines.append(f"{meter.counter.name} meter: " + " · ".join(meter.describe_track(state, cid)))
        for value, (kind, number) in sorted(meter.tiles.get(cid, meter.shared).items(), reverse=True):
            tile = kind + (f" {number}" if number else "")
            lines.append(f"  {tile} at {value}: {meter.kinds[kind].describe()}")
    return lines
