"""Who plays which seat, and a seat's part of a decision (a simultaneous one too).

>>> assign_seats(["2=greedy"], 3)
{1: 'human', 2: 'greedy', 3: 'random'}
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable

from engine.core.actions import Action
from engine.core.information import determinize, has_hidden_information
from engine.core.numerals import in_digits, not_digits, odd_digits
from engine.core.showtext import players as players_text
from engine.runner.agents.registry import Agent

if TYPE_CHECKING:
    from engine.model.game import Game
    from engine.model.state import State


def assign_seats(entries: Iterable[str], players: int) -> dict[int, str]:
    """Who plays each seat, from ``N=WHO`` entries (``human`` or an agent spec, unchecked): seat 1 is human and
    the others random unless an entry says otherwise.

    Raises ValueError naming a malformed entry, a seat the game lacks or a seat named twice.

    >>> assign_seats(["2=greedy"], 3)
    {1: 'human', 2: 'greedy', 3: 'random'}
    >>> assign_seats(["2=human", "2=random"], 2)
    Traceback (most recent call last):
    ValueError: seat 2 is named twice (2=human, 2=random): say once who plays it
    """
    seats = {seat: "human" if seat == 1 else "random" for seat in range(1, players + 1)}
    given: dict[int, str] = {}
    for entry in entries:
        number, sep, who = entry.partition("=")
        if not sep or not in_digits(number) or not number.strip().isdigit():  # no sign, the digits 0-9 ('٢' is not)
            odd = f": {not_digits(number)}" if sep and odd_digits(number) else ""
            raise ValueError(f"'{entry}' is not SEAT=WHO (e.g. 2=human or 1=random){odd}")
        seat = int(number)
        if not 1 <= seat <= players:
            raise ValueError(f"there is no seat {seat} with {players_text(players)}")
        if seat in given:
            raise ValueError(f"seat {seat} is named twice ({given[seat]}, {entry.strip()}): say once who plays it")
        given[seat] = entry.strip()
        seats[seat] = who.strip()
    return seats

def default_search(game: "Game", budget: str = "200") -> str:
    """The search bot that suits a game: ``ismcts`` where some seat may not see everything, else ``mcts``.

    Example: ``default_search(engine.load("my-game"))`` is ``"ismcts:200"`` for a game with hidden hands.
    """
    return f"{'ismcts' if has_hidden_information(game) else 'mcts'}:{budget}"


def detach(action: Action) -> Action:
    """The same decision, no longer tied to the (sampled) state that listed it."""
    return Action(action.step, action.args)


def refuse_no_seat(state: "State", agent: str) -> None:
    """Raise ValueError when no seat decides now — the game is over, or it waits for a chance result — so no agent
    may choose.

    >>> import engine
    >>> s = engine.load(engine.builtin_names()[0]).new_state(players=2, seed=1)
    >>> refuse_no_seat(s, "random") is None
    True
    """
    if state.chance is not None:
        raise ValueError(f"{agent} was asked to choose at a chance node (state.current_player is engine.CHANCE): "
                         "no seat decides there; apply one of state.chance_outcomes(), or "
                         "engine.runner.agents.sample_chance(state, rng.random) to draw one by its probability")
    if state.outcome is not None:
        raise ValueError(f"{agent} was asked to choose in a game that is over (state.is_terminal): no seat decides")


def choose_for_seat(agent: Agent, state: "State", seat: int, rng: random.Random) -> Action:
    """``seat``'s part of the decision now, chosen by ``agent`` — at a SIMULTANEOUS node, without any other seat's
    sealed choice.

    For the seat to move this is ``agent.choose(state)``.  For a later seat of a
    simultaneous round, the seats before it are played at random on a
    determinization from its view (their choices are sealed: whatever they are,
    ``seat`` sees the same), and ``agent`` chooses there; the answer is one of
    ``state.legal_actions(seat)``, for :meth:`State.apply_joint`.

    Example: ``{seat: choose_for_seat(bots[seat], state, seat, rng) for seat in state.simultaneous_seats()}``
    is a joint action (see :func:`joint_choice`).
    """
    if seat == state.seat_to_move:
        return agent.choose(state)
    if seat not in state.simultaneous_seats():
        raise ValueError(f"seat {seat} has no decision now (deciding: {', '.join(map(str, state.simultaneous_seats() or (state.seat_to_move,)))})")
    view = determinize(state, seat, rng)
    while view.seat_to_move != seat:
        view.play(rng.randrange(len(view.legal_actions())))
    text = str(agent.choose(view))
    for action in state.legal_actions(seat):
        if str(action) == text:
            return action
    raise ValueError(f"{agent.name} chose '{text}' for seat {seat}, which is not one of its actions")


def joint_choice(agents: "dict[int, Agent]", state: "State", rng: random.Random) -> dict[int, Action]:
    """Every deciding seat's action at a SIMULTANEOUS node, each chosen by its own agent without the others' (see
    :func:`choose_for_seat`); elsewhere the one action of the seat to move.  Apply it with ``state.apply_joint``."""
    refuse_no_seat(state, "joint_choice")
    seats = state.simultaneous_seats() or (state.seat_to_move,)
    missing = [str(seat) for seat in seats if seat not in agents]
    if missing:
        raise ValueError(f"joint_choice needs an agent for every deciding seat ({', '.join(map(str, seats))}): "
                         f"none for {', '.join(missing)}")
    return {seat: choose_for_seat(agents[seat], state, seat, rng) for seat in seats}
