"""Go on 5x5 (docs/examples/go), a game written from the docs alone, played beside OpenSpiel's ``go(board_size=5)``:
captures by liberties, no suicide, a single-stone ko, a pass, two passes or 50 moves ending the game, area scoring
with a komi of 7.5.  OpenSpiel numbers a point ``row * 5 + column`` (``B c2``: column c, row 2; 25 is the pass), our
cells are ``column,row`` from 0.  Its scenarios and random games are tested with the other genres'
(tests/test_example_genres.py)."""

from __future__ import annotations

import random


from tests.oracle import EXAMPLES, games, needs_oracle, pyspiel
from tests.conftest import shipped_game




def _theirs(text: str) -> int:
    """OpenSpiel's number of our action: ``choose 2,1`` is point 7, ``choose pass`` 25."""
    if text == "choose pass":
        return 25
    x, y = map(int, text.split()[1].split(","))
    return y * 5 + x


@needs_oracle
def test_go_plays_as_openspiels() -> None:
    """30 random games beside OpenSpiel's go(board_size=5): the same legal points and pass, the same player to move,
    the same end and winner (the area with a komi of 7.5).  Every one of them captures, passes and meets an empty
    point it may not play (suicide or ko); 3 end by 50 moves, the others by two passes; Black wins 10.  ``GO_GAMES=N``
    plays N (100 agree)."""
    game, theirs = shipped_game(str(EXAMPLES / "go")), pyspiel.load_game("go(board_size=5)")
    winners = set()
    for seed in range(games("GO_GAMES", 30)):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours = {_theirs(text): text for text in s.legal_actions().texts()}
            assert sorted(ours) == sorted(o.legal_actions()), (seed, str(o))
            move = rng.choice(sorted(ours))
            s.apply(ours[move])
            o.apply_action(move)
        assert s.is_terminal and s.returns() == [1.0 if r > 0 else 0.0 for r in o.returns()], (seed, str(o))
        winners.add(s.returns().index(1.0))
    assert winners == {0, 1}
