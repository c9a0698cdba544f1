"""The effect language's own functions, which need no game: every ruleset's vocabulary holds them.

>>> by_name(LANGUAGE)["count"].signature
'count(x in COLLECTION [where CONDITION]) -> int'
"""

from __future__ import annotations

from engine.lang.functions import Abs, Count, Fold, Function, Quantifier, Reachable, RollValue, Sgn, by_name
from engine.lang.list_functions import Combinations, Listed, Nth, Numbers, Sorted

__all__ = ["LANGUAGE", "by_name"]


LANGUAGE: tuple[Function, ...] = (
    Count("count", "count(x in COLLECTION [where CONDITION]) -> int",
          "How many items of a collection (that satisfy the condition).",
          "count(c in board where c.value == v)"),
    Fold("sum", "sum(VALUE for x in COLLECTION [where CONDITION]) or sum(A, B, ...) -> int",
         "The total of a value over the selected items (0 when none).",
         "sum(c.value for c in hand(r))"),
    Fold("max", "max(VALUE for x in COLLECTION [where CONDITION]) or max(A, B, ...) -> int",
         "The largest value over the selected items (0 when none).",
         "max(count(c in board where c.value == r) for r in roles)", combine=max, words="the largest of"),
    Fold("min", "min(VALUE for x in COLLECTION [where CONDITION]) or min(A, B, ...) -> int",
         "The smallest value over the selected items (0 when none).",
         "min(count(c in hand(r)) for r in roles)", combine=min, words="the smallest of"),
    Quantifier("any", "any(x in COLLECTION where TEST) or any(TEST for x in COLLECTION [where CONDITION]) -> bool",
               "Whether some item passes the test.",
               "any(r in roles where largest_group(c in board where c.value == r) >= 3)"),
    Quantifier("all", "all(x in COLLECTION where TEST) or all(TEST for x in COLLECTION [where CONDITION]) -> bool",
               "Whether every item passes the test (true when there are none).",
               "all(count(c in board where c.value == r) == 3 for r in roles)", every=True),
    Abs("abs", "abs(NUMBER) -> int", "The number without its sign.", "abs(score(1) - score(2))"),
    Sgn("sgn", "sgn(NUMBER) -> int", "The sign of the number: 1 when it is above 0, -1 below, 0 for 0.",
        "sgn(b.x - a.x)"),
    Nth("nth", "nth(LIST, N) -> item", "The N-th item of a list (1 is the first), or none when the list is shorter.",
        "nth(place_points, 1) == 3"),
    Sorted("sorted", "sorted(LIST [, highest_first = true]) or sorted(VALUE for x in COLLECTION [where CONDITION] [, "
           "highest_first = true]) -> list of int, or sorted(x in COLLECTION [where CONDITION], by = KEY [, "
           "highest_first = true]) -> list", "The numbers in order, lowest first (or highest first); with by, the items "
           "themselves, ordered by their keys.", "sorted(c.rank for c in hand(r), highest_first = true)"),
    Listed("list", "list(VALUE for x in COLLECTION [where CONDITION]) -> list", "The value for each selected item, in "
           "order (or the items selected, without VALUE).", "list((c.x, c.y + 1) for c in cells_of(p))"),
    Combinations("combinations", "combinations(LIST, K) -> list of lists", "Every way to take K items of a list or "
                 "a zone, each a list in the order the items lie (none when K is larger than the list).",
                 "max(sum(c.rank for c in h) for h in combinations(hand(r), 3))"),
    Numbers("numbers", "numbers(FROM, TO) -> list of int", "The whole numbers from FROM to TO, both included (none "
            "when TO is smaller).", "choose(n in numbers(1, count(deck)))"),
    RollValue("roll", "roll(DIE [, by = ROLE]) -> int", "Roll a die (d6, d8, ...) with the game's seeded generator (by: "
              "the role the log says rolls it).", "roll(d6) + 1"),
    Reachable("reachable", "reachable(CELL, ENDS for x in COLLECTION [where CONDITION]) -> list of cell",
              "The cells a walk from CELL reaches through the selected items, each joining the cells its ENDS list "
              "(CELL first).", "reachable(c, [x.a, x.b] for x in hand(r))"),
)
"""The language's own functions: they need no game, and every ruleset may call them."""
