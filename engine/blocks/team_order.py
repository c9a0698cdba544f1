"""The ``team_order`` step: at the start of its turn, a team chooses which of its roles acts first.

With teams (``teams:``) whose roles follow each other in the turn order, the
team's turn is the run of its roles.  When this step is reached in the first
of them, the current seat chooses, for the team, which of the team's roles
still to play this turn acts now; that role swaps places with the current one
in the turn order, and the other roles of the run follow.  In the later roles
of the run, with one role left, or without teams, the step does nothing.

Example (YAML)::

    - team_order: {}

Text form: ``ROLE first`` (``B first``).

>>> TeamOrder.keys
('if',)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.blocks.block import Block, declare
from engine.blocks.enumeration import Texts
from engine.blocks.steps import Step, step_kind
from engine.core.actions import ActionSpace, ListSpace

if TYPE_CHECKING:
    from engine.blocks.context import GameView, StateView


@step_kind
class TeamOrder(Step):
    """The ``team_order`` step: at the start of a team's turn (its roles following each other in the turn order), the
    team chooses which of its roles acts first (``B first``).

    Built from ``- team_order: {}``.
    """
    kind = "team_order"

    def candidates(self, s: "StateView") -> list[str]:
        """The team's roles still to act this turn, the current one first; empty when there is nothing to choose."""
        teams = s.game.teams.get(s.players)
        if not teams:
            return []
        team = {seat: i for i, seats in enumerate(teams) for seat in seats}
        order, turn = s.order, s.turn
        mine = team[s.seat_of[order[turn]]]
        if len(order) < 2 or team[s.seat_of[order[turn - 1]]] == mine:
            return []  # not the first of the team's run (or everyone is on one team)
        run = []
        for role in order[turn:]:
            if team[s.seat_of[role]] != mine:
                break
            run.append(role)
        return run if len(run) > 1 else []

    def enter(self, s: "StateView") -> bool:
        return bool(self.candidates(s))

    def actions(self, s: "StateView") -> ActionSpace:
        return ListSpace(self, [(role,) for role in self.candidates(s)])

    def apply(self, s: "StateView", args: tuple[Any, ...]) -> bool:
        first = args[0]
        old = s.order[s.turn]
        if first != old:
            order = list(s.order)
            i = order.index(first)
            order[s.turn], order[i] = first, old
            s.order = tuple(order)
            s._actions = None
        s.note(lambda: f"{first} acts first in the team's turn")
        return True

    # -- text

    def action_texts(self, game: "GameView") -> Texts:
        """``ROLE first`` for every role."""
        return Texts(tuple(self.format((role,)) for role in (game.roles.values if game.roles is not None else ())))

    def format(self, args: tuple[Any, ...]) -> str:
        return f"{args[0]} first"

    def why_illegal(self, s: "StateView", text: str) -> str | None:
        legal = ", ".join(str(a) for a in self.actions(s))
        return f"'{text}' is not possible now; choose one of: {legal}"

    def describe(self) -> str:
        return "at the start of a team's turn, the team chooses which of its players acts first; the others follow"


BLOCK = declare(Block(
    "team_order",
    steps={
        "team_order": {
            "description": ("At the start of a team's turn (its roles following each other in the turn order), the "
                            "team chooses which of its roles acts first (`B first`)."),
            "$ref": "#/$defs/teamOrderStep",
        },
    },
    defs={
        "teamOrderStep": {
            "description": ("`team_order: {}`: at the start of a team's turn the current seat chooses, for the "
                            "team, which of the team's roles acts first (`B first`); the chosen role swaps places "
                            "with the current one in the turn order."),
            "type": ["object", "null"],
            "properties": {
                "if": {"description": "Do this step only when the condition holds.", "$ref": "#/$defs/condition"},
            },
            "additionalProperties": False,
        },
    },
))
