"""Code that reads only its locals' printed attributes is worked out once per pair of components (engine.lang.fixed)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.blocks.contest import Contest
from engine.blocks.contest_rules import ContestRules
from engine.lang.fixed import reads_only_locals
from engine.lang.parser import parse_expression
from engine.lang.scope import Scope
from engine.lang.types import ANY_COMPONENT


def _scope(game: engine.Game) -> Scope:
    scope = Scope(game.vocab)
    scope.bind("self", ANY_COMPONENT)
    scope.bind("other", ANY_COMPONENT)
    return scope


@pytest.mark.parametrize("code", [
    'other.id == "5"',
    'not (other.id in ["3", "4", "5", "4-"])',
    "self.value + 1 > other.value and self.sign == plus",
    "if self.special then specials_per_player else -1",
    "(self.value, other.value) == (1, 2)",
])
def test_printed_attributes_options_and_operators_are_fixed(code: str) -> None:
    game = engine.load("nine-domains")
    assert reads_only_locals(parse_expression(code), _scope(game))


@pytest.mark.parametrize("code", [
    "row_of(self) == 3",                     # where the component lies
    "count(c in hand(East)) > 2",            # a zone's contents
    "other in discard",                      # a shared zone named outright: its contents too
    'other.id == "5" or self in pile1',
    "elements_ignored == 1",                 # a counter
    "other == slot_next(self)",              # another slot
    "unknown_name == 1",                     # a name that means nothing is not taken for a constant
    "self.nothing == 1",
])
def test_code_that_reads_the_state_is_not_fixed(code: str) -> None:
    game = engine.load("nine-domains")
    assert not reads_only_locals(parse_expression(code), _scope(game))


def _contest(game: engine.Game) -> ContestRules:
    return next(step for step in game.steps if isinstance(step, Contest)).rules


def test_the_nine_domains_overrides_are_kept_per_pair_and_those_reading_the_row_are_not(tmp_path: Path) -> None:
    assert _contest(engine.load("nine-domains")).overrides_fixed
    (tmp_path / "late-zero").mkdir()
    (tmp_path / "late-zero" / "ruleset.yaml").write_text(
        "name: late-zero\nextends: nine-domains\ncomponents:\n  card:\n    instances+:\n"
        "      replace: \"0\"\n      add:\n"
        "        - {id: \"0\", count: 2, value: 0, sign: plain, special: false,\n"
        "           beats: 'other.id == \"5\" and row_of(self) == 2'}\n")
    late = engine.load(str(tmp_path / "late-zero" / "ruleset.yaml"))
    assert not _contest(late).overrides_fixed
    # in the first round the 0 does not beat the 5 any more: the 5 is stronger
    s = late.new_state(players=2, seed=3, record=True)
    for text in ["commit 0 to left", "commit 1 to middle", "commit 2 to right",
                 "commit 5 to left", "commit 1 to middle", "commit 2 to right"]:
        s.apply(text)
    assert any("0 (East) against 5 (West): strength 0 to 5; 5 is stronger" in line for line in s.log)


def test_a_kept_filter_asks_again_for_a_face_it_has_not_seen() -> None:
    from types import SimpleNamespace

    from engine.lang.fixed import FixedFilter

    shown = [["a", "a", "b"], ["b", "a", "a"]]  # [face][component]: component 0 shows b on its second face
    keep = FixedFilter(lambda s, e: [0, 1, 2], lambda s, e: shown[s.face[e[1]]][e[1]] == e[0], 1, (0,))
    s = SimpleNamespace(face=[0, 0, 0], game=SimpleNamespace(face_count=[2, 2, 2]))
    assert keep.items(s, ["a", None]) == [0, 1]
    s.face[0] = 1  # turned over
    assert keep.items(s, ["a", None]) == [1]
    assert keep.items(s, ["b", None]) == [0, 2]


def test_a_setup_dealing_by_printed_attributes_deals_the_same_cards_as_the_rules_say() -> None:
    game = engine.load("nine-domains")
    for seed in range(20):
        s = game.new_state(players=2, seed=seed)
        for role in ("East", "West"):
            hand = [game.piece_names[c] for c in s.zones[game.zone_index[("hand", role)]]]
            assert hand[:6] == ["0", "1", "2", "3", "4", "5"]  # one of each base card, in the order dealt
            assert len(set(hand[6:])) == 3 and all(h not in hand[:6] for h in hand[6:])  # three specials


def test_modifiers_reading_only_printed_attributes_are_kept_per_pair_and_still_count(tmp_path: Path) -> None:
    # every modifier card lifts each base 3 in play by 1 (no slot read): one answer per pair, in every state
    lift = "'if target.value == 3 and not target.special then 1 else 0'"
    cards = "".join(f"      - replace: \"{c}\"\n        add:\n          - {{id: \"{c}\", value: {v}, sign: {g}, special: true, modifier: {lift}}}\n"
                    for c, v, g in [("1-", 1, "minus"), ("1+", 1, "plus"), ("2+", 2, "plus"), ("4+", 4, "plus")])
    (tmp_path / "lift").mkdir()
    (tmp_path / "lift" / "ruleset.yaml").write_text(
        "name: lift\nextends: nine-domains\ncomponents:\n  card:\n    instances+:\n" + cards)
    game = engine.load(str(tmp_path / "lift" / "ruleset.yaml"))
    assert _contest(game).modifier_table is not None and _contest(engine.load("nine-domains")).modifier_table is None
    for seed in range(30):  # a game where East plays a modifier card with a base 3 beside it in round 1
        s = game.new_state(players=2, seed=seed, record=True)
        east = [game.piece_names[c] for c in s.zones[game.zone_index[("hand", "East")]]]
        lifter = next((c for c in east if c in ("1-", "1+", "2+", "4+")), None)
        if lifter is None:
            continue
        for text in ["commit 3 to left", f"commit {lifter} to middle", "commit 0 to right",
                     "commit 4 to left", "commit 0 to middle", "commit 1 to right"]:
            s.apply(text)
        assert any("left: 3 (East) against 4 (West): strength 3+1=4 to 4" in line for line in s.log)
        return
    raise AssertionError("no seed dealt East a modifier card")


def test_a_kept_filter_stops_early_only_when_no_component_can_raise() -> None:
    """``first`` (``move(..., zone, n)``) stops at the n-th item when the mask was filled for every component without
    an error; a component whose test raises still raises at its item, as listing every item would."""
    from types import SimpleNamespace

    import pytest

    from engine.core.errors import EffectRuntimeError
    from engine.lang.fixed import FixedFilter

    def where(s: object, e: list[int]) -> bool:
        if e[1] == e[0]:
            raise EffectRuntimeError("no value here")
        return e[1] % 2 == 0

    s = SimpleNamespace(face=[0] * 6, game=SimpleNamespace(face_count=[1] * 6))
    keep = FixedFilter(lambda s, e: [4, 3, 2, 1, 0], where, 1, (0,))
    count = lambda s, e: 1  # noqa: E731
    assert keep.first(s, [9, None], count) == [4] and (9,) in keep.whole  # nothing raises: the first even one
    assert keep.items(s, [9, None]) == [4, 2, 0]
    with pytest.raises(EffectRuntimeError):  # 1 raises, after the first even one: listed all the same
        keep.first(s, [1, None], count)
    assert (1,) not in keep.whole and keep.first(s, [5, None], count) == [4]
