"""Dominoes (docs/examples/dominoes), a game written from the docs alone, played beside OpenSpiel's
``python_block_dominoes``: the line of play is a one-row board growing at both ends, a tile's two faces its two ways
round.  Its scenarios and random games are tested with the other genres' (tests/test_example_genres.py)."""

from __future__ import annotations

import random
from typing import Any


from tests.oracle import EXAMPLES, games, needs_oracle, pyspiel
from tests.conftest import shipped_game


if pyspiel is not None:
    from open_spiel.python.games import block_dominoes


def _dominoes_moves(game: Any, s: Any) -> dict[tuple[str, tuple[int, ...]], list[str]]:
    """Each whole move of the seat deciding (a tile, then an end when asked) by the tile and the ends it leaves."""
    ends = [game.compile_condition(f"count(board) > 0 and {side} == {v}")
            for side in ("left_end().left", "right_end().right") for v in range(7)]

    def ends_of(state: Any) -> tuple[int, ...]:
        return tuple(sorted(i % 7 for i, e in enumerate(ends) if e.run(state)))

    moves: dict[tuple[str, tuple[int, ...]], list[str]] = {}
    for tile in s.legal_actions().texts():
        t = s.clone()
        t.apply(tile)
        asked = [] if t.is_terminal or t.current_player != s.current_player else t.legal_actions().texts()
        if asked and set(asked) <= {"choose left", "choose right"}:
            for side in asked:
                u = t.clone()
                u.apply(side)
                moves[(tile.split()[1], ends_of(u))] = [tile, side]
        else:
            moves[(tile.split()[1], ends_of(t))] = [tile]
    return moves


@needs_oracle
def test_dominoes_plays_as_openspiels() -> None:
    """30 random games beside OpenSpiel's python_block_dominoes, dealt the same hands: the same moves (a tile and
    the open ends it leaves: OpenSpiel names the end by its number, we by its side), the same player to move (a
    player who cannot lay passes), the same end and winner (the fewest pips; equal pips a draw).  Among them games
    that end by a player's last tile and games that end blocked, two draws (seeds 8 and 24), 21 with a pass and 14
    where a player is asked which end; ``DOMINOES_GAMES=N`` plays N (200 agree)."""
    game, theirs = shipped_game(str(EXAMPLES / "dominoes")), pyspiel.load_game("python_block_dominoes")
    ends = set()
    for seed in range(games("DOMINOES_GAMES", 30)):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        for seat in ("seat1", "seat2"):
            for cid in s.zones[game.zone_index[("hand", seat)]]:
                a, b = game.component_names[cid].split("-")
                o.apply_action(block_dominoes._DECK.index((float(a), float(b))))
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours, their = _dominoes_moves(game, s), {}
            for action in o.legal_actions():
                after = o.clone()
                after.apply_action(action)
                tile = block_dominoes._ACTIONS[action].tile
                their[(f"{int(tile[0])}-{int(tile[1])}", tuple(int(e) for e in after.open_edges))] = action
            assert sorted(ours) == sorted(their), (seed, str(o))
            move = rng.choice(sorted(ours))
            for text in ours[move]:
                s.apply(text)
            o.apply_action(their[move])
        r = o.returns()
        assert s.is_terminal and s.returns() == ([0.5, 0.5] if r[0] == r[1] else [float(x > 0) for x in r]), seed
        ends |= {"last tile" if [] in o.hands else "blocked", "draw" if r[0] == r[1] else "won"}
    assert ends == {"last tile", "blocked", "draw", "won"}, ends
