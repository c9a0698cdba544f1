"""The server's HTML pages: the list of rulesets, a table, the rules, an error — every ruleset text escaped.

A table's page carries its first view inline (the board is an inline SVG
before any script runs); ``static/table.js`` then keeps it up to date.

>>> "&lt;b&gt;" in error_page("no <b>", 404)
True
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from engine.core.showtext import html_safe as escape, json_safe

if TYPE_CHECKING:
    from cli.web.catalog import Listed
    from engine import Game

AGENTS_HINT = "random, greedy, mcts:N, ismcts:N"


def page(title: str, body: str, script: str | None = None) -> str:
    """A whole page: the shared header, ``body``, and ``script`` (a file under /static) if any."""
    tail = f'<script src="/static/{script}"></script>' if script else ""
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel=stylesheet href="/static/style.css"></head><body>'
        '<header><a href="/" class="home">Rulecraft</a> <span class="sub">tabletop rulesets in the browser</span></header>'
        f'<div id="message" role="alert" hidden></div><main>{body}</main>{tail}</body></html>\n'
    )


def error_page(message: str, status: int) -> str:
    """A refusal in words, with the way back."""
    return page("Rulecraft: cannot do that", f'<h1>cannot do that ({status})</h1><pre class="error">{escape(message)}</pre>'
                '<p><a href="/">back to the rulesets</a></p>')


def index_page(games: list[tuple[str, Game | Listed | None, str]]) -> str:
    """The rulesets with links to play, watch, read and simulate each; a form for any settings; file loading.

    ``games``: (name, compiled game or its summary, or None when it does not load, why not).
    """
    rows = []
    for name, game, problem in games:
        n, u = escape(name), escape(quote(name, safe=""))  # u in links: a folder named 'a#b' or 'a?b' broke them
        if game is None:
            rows.append(f'<tr><td>{n}</td><td colspan=4 class="error">does not load: {escape(problem)}</td></tr>')
            continue
        players = min((c for c in game.player_counts if c >= 2), default=min(game.player_counts))
        variants = ", ".join(escape(v) for v in game.available_variants) or "-"
        rows.append(
            f'<tr data-ruleset="{n}"><td><b>{n}</b><br><small>{escape(game.title)}</small></td>'
            f'<td>{", ".join(map(str, game.player_counts))}</td><td><small>{variants}</small></td>'
            f'<td><a class="play" href="/play/{u}?players={players}">play</a> · '
            f'<a class="watch" href="/watch/{u}?players={players}">watch bots</a> · '
            f'<a href="/rules/{u}">rules</a> · <a href="/simulate/{u}?players={players}&amp;n=100">balance</a></td></tr>'
        )
    options = "".join(f"<option>{escape(name)}</option>" for name, game, _ in games if game is not None)
    body = f"""
<h1>Rulesets</h1>
<table class="rulesets"><thead><tr><th>ruleset</th><th>players</th><th>variants</th><th></th></tr></thead>
<tbody>{"".join(rows)}</tbody></table>
<h2>Start a game with settings</h2>
<form id="start" class="settings">
<label>ruleset <select name="ruleset">{options}</select></label>
<label>players <input name="players" size=3 placeholder="2"></label>
<label>seed <input name="seed" size=8 placeholder="random"></label>
<label>variant <input name="variant" placeholder="a+b"></label>
<label>options <textarea name="set" rows=2 cols=24 placeholder="NAME=VALUE, one per line"></textarea></label>
<label>seats <input name="seat" placeholder="2=greedy (seat 1 human, others random)"></label>
<button name="how" value="play">play</button>
<label>bots to watch <input name="agents" placeholder="random,greedy"></label>
<button name="how" value="watch">watch bots</button>
</form>
<p class="note">bots: {AGENTS_HINT}</p>
<h2>Open a game file</h2>
<form id="open" class="settings">
<label>a save or replay (rulecraft play's save FILE, --log FILE, or this page's save)
<input type="file" name="file" accept=".json,application/json"></label>
<button name="mode" value="play">continue it</button> <button name="mode" value="replay">replay it</button>
</form>"""
    return page("Rulecraft", body, "index.js")


def table_page(view: dict[str, Any], rules: list[str], game: Game, ruleset: str) -> str:
    """A table: board and zones, the situation, actions with a filter, the log; rules and balance tabs."""
    # a lone surrogate (a ruleset's say("\\ud800")) written as an escape: the page, UTF-8, failed to encode (a 500)
    data = json_safe(json.dumps(view, ensure_ascii=False)).replace("</", "<\\/")
    mode = view["mode"]
    seats = "".join(f'<option value="{s}"{" selected" * (s == view["seat"])}>{escape(view["seat_names"][str(s)])}</option>'
                    for s in view["seats"])
    if view["seat"] is None or view["everyone"]:  # a browser holding no seat: what every seat sees (bots only: every zone)
        label = "everyone: every zone" if view["everyone"] else "no seat: what every seat sees"
        seats = f'<option value=""{" selected" * (view["seat"] is None)}>{label}</option>' + seats
    if mode == "play":
        controls = f'<button id="undo"{" hidden" * bool(view["undo_refused"])}>undo</button>'
    elif mode == "watch":
        controls = ('<button id="playpause">pause</button> <button id="step">step</button> <button id="back">back</button> '
                    '<label>speed <input id="speed" type=range min=0 max=1500 step=100 value=1200></label>')
    else:
        controls = (f'<button id="prev">&lt; back</button> <input id="scrub" type=range min=0 max="{view["length"]}" '
                    f'value="{view["position"]}" aria-label="position in the replay"> <button id="next">forward &gt;</button> '
                    '<span id="position"></span>')
    variants = "+".join(game.variants)
    options = "\n".join(f"{k}={v}" for k, v in game.set_options.items())
    rules_text = "\n".join(rules)
    players = view["players"]
    body = f"""
<h1>{escape(game.title)} <small>{escape(view["subtitle"])}</small></h1>
<nav class="tabs"><button data-tab="table" class="active">table</button><button data-tab="rules">rules</button>
<button data-tab="balance">balance</button></nav>
<section id="tab-table" class="tab">
 <div class="toolbar">{controls} <label>seen by <select id="seat">{seats}</select></label>
  <a id="save" href="/api/tables/{escape(view["id"])}/save" download="{escape(ruleset)}-game.json">save game</a></div>
 <div id="invites"></div>
 <div id="way-back"></div>
 <div class="layout">
  <div id="view">{view["html"]}</div>
  <aside>
   <div id="situation" aria-live="polite" tabindex="-1">{"".join(f"<p>{escape(line)}</p>" for line in view["situation"])}</div>
   <p id="waiting" role="status" hidden></p>
   <div id="explanation"></div>
   <input id="filter" type=search placeholder="filter actions: type part of one" aria-label="filter actions">
   <ol id="actions"></ol>
   <h3>log</h3><div id="opening" hidden></div><ol id="log"></ol>
  </aside>
 </div>
</section>
<section id="tab-rules" class="tab" hidden><pre class="rules">{escape(rules_text)}</pre></section>
<section id="tab-balance" class="tab" hidden>
 <form id="simulate" class="settings" data-ruleset="{escape(ruleset)}">
  <input type=hidden name="players" value="{players}"><input type=hidden name="variant" value="{escape(variants)}">
  <input type=hidden name="set" value="{escape(options)}">
  <label>games <input name="n" value="100" size=5></label> <label>seed <input name="seed" value="0" size=5></label>
  <label>bots <input name="agents" value="random" placeholder="{AGENTS_HINT}"></label>
  <label title="each bot plays each seat in turn, so bots of different strength are told apart from the seats (simulate --rotate-seats)"><input type=checkbox name="rotate" value="1"> rotate seats</label>
  <button>simulate</button>
 </form>
 <iframe id="report" title="simulation report"></iframe>
</section>
<script type="application/json" id="initial">{data}</script>"""
    return page(f"{game.title}: Rulecraft", body, "table.js")


def invitation_page(game: Game, seat: int) -> str:
    """An invitation link's page: a button taking seat ``seat`` for this browser (the form posts to the same address)."""
    body = (f'<h1>{escape(game.title)}</h1><p>This link gives a browser seat {seat} at this table. The browser that '
            f'holds it now will not hold it any more.</p><form method="post"><button id="take">take seat {seat}</button></form>')
    return page(f"{game.title}: seat {seat}", body)


def rules_page(game: Game, lines: list[str]) -> str:
    """A ruleset's rules in English (``rulecraft explain``)."""
    body = f'<h1>{escape(game.title)}</h1><pre class="rules">{escape(chr(10).join(lines))}</pre>'
    return page(f"{game.title}: rules", body)
