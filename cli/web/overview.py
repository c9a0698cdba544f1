"""A game without a board: its table as a box per zone, with how many components lie there, as HTML that wraps to
the window's width (two boxes a row on a phone, more on a wider screen).

It was an SVG of four boxes a row, 640 pixels wide whatever the window: on a phone its last boxes were cut off,
reached only by scrolling the drawing sideways.

Typical use::

    state = engine.load("my-card-game").new_state(players=2, seed=1)
    zones_overview(state.game, state.observation(1)["zones"])   # '<div class="board table" ...><div class="zone-box open" data-zone="deck">...'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cli.zone_listing import holds_nothing
from engine.core.showtext import html_safe as escape

if TYPE_CHECKING:
    from engine import Game


def zones_overview(game: Game, seen: dict[str, Any]) -> str:
    """The table as a box per zone, with how many components lie there as a seat sees it (a hidden zone holding none
    too, as an open one: a deck drawn to its end, a hand played out; a zone the ruleset does not
    have ``shown``, and the built-in supply, only while it holds something: a box saying "supply: 0 components" stood
    in every game that keeps nothing there); nothing at all when there is no box to draw (a game kept on counters
    alone, its scores and nothing else, drew an empty box).

    >>> from types import SimpleNamespace as S
    >>> game = S(zone_names=["supply", "deck", "hand"], zone_spec_of=[S(shown=True, kind=k) for k in ("supply", "pile", "hand")])
    >>> html = zones_overview(game, {"supply": [], "deck": {"hidden": 9}, "hand": ["A", "B"]})
    >>> 'data-zone="supply"' in html, html.count('class="zone-box'), '9 hidden' in html, '2 components' in html
    (False, 2, True, True)
    >>> 'title="deck: 0 components"' in zones_overview(game, {"supply": [], "deck": {"hidden": 0}, "hand": []})  # drawn out
    True
    """
    quiet = {name for zi, name in enumerate(game.zone_names)
             if not game.zone_spec_of[zi].shown or game.zone_spec_of[zi].kind == "supply"}
    shown = [(name, content) for name, content in seen.items() if not holds_nothing(content) or name not in quiet]
    if not shown:
        return ""
    parts = ['<div class="board table" role="list" aria-label="the table\'s zones">']
    for name, content in shown:
        hidden = isinstance(content, dict) and content["hidden"] > 0  # a hidden zone holding nothing: 0 components
        count = content["hidden"] if isinstance(content, dict) else len(content)
        words = f"{count} hidden" if hidden else f"{count} component{'s' * (count != 1)}"
        parts.append(f'<div class="zone-box {"hidden" if hidden else "open"}" role="listitem" data-zone="{escape(name)}" '
                     f'title="{escape(name)}: {words}"><b class="zone-name">{escape(name)}</b>'
                     f'<small class="zone-count">{words}</small></div>')
    parts.append("</div>")
    return "".join(parts)
