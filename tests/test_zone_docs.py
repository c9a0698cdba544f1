"""A zone takes ``doc:`` as options and counters do, and ``rulecraft explain`` shows it.

``zones: {home: {kind: pile, per: role, doc: x}}`` was refused ("unknown key 'doc' in zone 'home'") though
``counters: {gold: {doc: x}}`` and ``options: {bonus: {doc: x}}`` were read and explained.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import engine
from cli.main import main

RULESET = """\
name: zone-docs
players: [2]
components:
  token:
    instances: [{id: a}, {id: b}]
zones:
  home: {kind: pile, per: role, doc: where a player's rescued tokens rest}
  pool: {kind: pile, doc: the tokens still in play}
counters:
  gold: {per: role, doc: coins in hand}
setup: |
  move(c in tokens, pool)
turn:
  - do:
      effect: |
        move(c in pool, home(current_role))
end:
  when: count(pool) == 0
scoring:
  rank: r in roles
  by: [count(home(r))]
  points: key
"""


def test_a_zone_s_doc_is_read_and_explained(tmp_path: Path) -> None:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET, encoding="utf-8")
    game = engine.load(str(path))
    assert game.zone_specs["home"].doc == "where a player's rescued tokens rest"
    result = CliRunner().invoke(main, ["explain", str(path)])
    assert result.exit_code == 0, result.output
    assert "home: a pile, one per role" in result.output and "— where a player's rescued tokens rest" in result.output
    assert "— the tokens still in play" in result.output and "— coins in hand" in result.output
