"""What a seat may not know reaches it nowhere: not in ``play --watch``, not in the browser's view.

The observation (``State.observation``) says what each seat sees; the terminal and the page draw more than the
observation lists (a zone's shown attributes, the counters), so each of those must keep to it.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

import engine
from budget_cli import BASE, write_ruleset
from cli import zone_listing
from cli.main import main
from cli.web.view import table_html

ORDER_HIDDEN = BASE.replace(
    "  hand: {kind: hand, per: role}\n", "  hand: {kind: hand, per: role, hidden: order, show: [symbol]}\n").replace(
    "    move(t in tiles where t.front.symbol == r, hand(r))\n",
    "    move(t in tiles where t.front.symbol == r, hand(r))\n    shuffle(hand(r))\n")
"""Each seat holds its own tiles, shuffled: it knows which, not in what order; the hand shows each tile's symbol."""


def test_a_hand_whose_order_is_hidden_is_listed_in_no_order_but_the_observations(tmp_path: Path) -> None:
    """A zone with ``hidden: order`` and ``show:`` was listed in its real order (the shuffled deck's order, to its
    owner), on the terminal and the page, though the observation lists it by name."""
    game = engine.load(str(write_ruleset(tmp_path, ORDER_HIDDEN)))
    hand = game.zone_names.index("hand of Sun")
    shuffled = 0
    for seed in range(6):
        state = game.new_state(players=2, seed=seed)
        seen = state.observation(1)["zones"]["hand of Sun"]
        shuffled += seen != [game.piece_names[c] for c in state.zones[hand]]
        terminal = [line.plain.split(":")[0].strip() for line in zone_listing.zones(state, 1)[1:3]]
        assert terminal == seen, (seed, terminal, seen)
        page = re.findall(r'data-name="([^"]+)"', table_html(state, 1))
        assert page[:2] == seen, (seed, page, seen)
    assert shuffled, "no seed dealt a hand out of the observation's order: the test proves nothing"


def test_counters_of_hidden_roles_do_not_tell_which_roles_are_played(tmp_path: Path) -> None:
    """With hidden roles, a counter per role listed only the roles seated, so three players of four-plus roles
    learnt which one nobody plays (the zones of every role are drawn for that reason)."""
    path = write_ruleset(tmp_path, "name: favoured\nextends: iconoclasm\ncounters:\n  favour: {per: role, start: 0}\n")
    lines = set()
    for seed in range(3):
        ended = CliRunner().invoke(main, ["play", str(path), "--variant", "hidden-deities", "--players", "3",
                                          "--seed", str(seed), "--watch"], input="quit\n")
        assert ended.exception is None or isinstance(ended.exception, SystemExit), ended.output
        lines |= {line for line in ended.output.splitlines() if line.startswith("favour:")}
    assert len(lines) == 1, lines
    roles = engine.load(str(path), ["hidden-deities"]).roles
    assert roles is not None
    assert all(f"{role} 0" in next(iter(lines)) for role in roles.values), lines


MARKED = BASE.replace("  gold: {start: 2}\n", "  gold: {start: 2}\n  marked: {per: tile, start: 0}\n").replace(
    "  hand: {kind: hand, per: role}\n", "  hand: {kind: hand, per: role, hidden: others}\n").replace(
    "    move(t in tiles where t.front.symbol == r, hand(r))\n",
    "    move(t in tiles where t.front.symbol == r, hand(r))\n  marked(first(t in hand(Moon))) += 1\n")
"""Moon's hand is hidden from Sun; a counter marks one tile of it."""


def test_a_counter_of_a_component_a_seat_cannot_see_reaches_that_seat_nowhere(tmp_path: Path) -> None:
    """A counter per component named the component it marks, though it lay in a hand hidden from the seat: the
    observation (and so the reinforcement-learning environment), play --watch, the page and the log said which
    tile Moon holds."""
    game = engine.load(str(write_ruleset(tmp_path, MARKED)))
    state = game.new_state(players=2, seed=0, record=True)
    moon = game.zone_names.index("hand of Moon")
    tile = game.piece_names[state.zones[moon][0]]
    assert state.observation(2)["counters"]["marked"].get(tile) == 1  # Moon sees its own tile marked
    assert tile not in state.observation(1)["counters"]["marked"]
    assert not any(line.plain.startswith("marked:") for line in zone_listing.zones(state, 1))
    assert f"marked {tile}" not in re.sub(r"<[^>]+>", "", table_html(state, 1)).replace(":", "")
    assert not any(tile in line for line in state.log or [] if line.startswith("marked")), state.log


def test_a_search_samples_which_hidden_component_is_marked_not_the_real_one(tmp_path: Path) -> None:
    """The determinizations a search plays on (ISMCTS, MCTS) dealt Moon's hidden tiles again but left each counter
    with its tile: every sample said which tile was marked, so a search bot playing Sun knew it."""
    import random

    from engine.core.information import determinize

    game = engine.load(str(write_ruleset(tmp_path, MARKED)))
    state = game.new_state(players=2, seed=0)
    moon, marked = game.zone_names.index("hand of Moon"), game.counters["marked"]
    held = [(c, state.counters[marked.index_of(c)]) for c in state.zones[moon]]
    assert sorted(v for _, v in held) == [0, 1]
    drawn = set()
    for seed in range(20):
        sample = determinize(state, 1, random.Random(seed))
        assert sample.observation(1) == state.observation(1)
        values = {c: sample.counters[marked.index_of(c)] for c in sample.zones[moon]}
        assert sorted(values.values()) == [0, 1]  # one tile of the hand is marked, as the rules make it
        drawn |= {c for c, v in values.items() if v}
    assert len(drawn) == 2, "every sample marked the same tile: the real one"
    mine = determinize(state, 2, random.Random(0))  # Moon sees its own hand: its marks stay where they are
    assert [(c, mine.counters[marked.index_of(c)]) for c in mine.zones[moon]] == held



def test_a_search_samples_which_face_down_piece_is_marked_not_the_real_one(tmp_path: Path) -> None:
    """Face-down pieces are dealt again among their cells in a search's samples, but each counter stayed with its
    piece: every sample of South's said North's knight was the marked piece."""
    import random

    from engine.core.information import determinize

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "hidden-duel" / "ruleset.yaml"
    text = example.read_text(encoding="utf-8").replace(
        "zones:\n  taken: {kind: pile}\n", "zones:\n  taken: {kind: pile}\ncounters:\n  marked: {per: piece, start: 0}\n").replace(
        "    turn_down(p in board where p.side == r, seen_by = r)\n",
        "    turn_down(p in board where p.side == r, seen_by = r)\n"
        "  marked(first(p in board where p.grade == Knight and p.side == North)) += 1\n")
    game = engine.load(str(write_ruleset(tmp_path, text)))
    state, marked = game.new_state(players=2, seed=0), game.counters["marked"]
    drawn = set()
    for seed in range(20):
        sample = determinize(state, 2, random.Random(seed))
        drawn |= {c for c in range(len(game.component_names)) if sample.counters[marked.index_of(c)]}
    assert len(drawn) > 1, "every sample marked the real piece"
    mine = determinize(state, 1, random.Random(0))  # North sees its own pieces: the mark stays on its knight
    assert [game.component_names[c] for c in range(len(game.component_names)) if mine.counters[marked.index_of(c)]] \
        == ["North-knight"]
