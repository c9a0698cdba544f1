"""The searches: MCTS on one determinization, ISMCTS on a fresh one each iteration, one tree per seat.

>>> from engine.runner.agents import make_agent
>>> make_agent("ismcts:20", seed=0).name
'ismcts:20'
"""

from __future__ import annotations

import math
import random
from itertools import repeat
from typing import TYPE_CHECKING, Any, Callable, Iterator

from engine.blocks.choice_labels import CHOICE, hides_a_component, public_choice
from engine.core.actions import Action
from engine.core.decisions import CHANCE
from engine.core.errors import EffectRuntimeError
from engine.core.information import determinize, determinizer, has_hidden_information
from engine.runner.agents.registry import Agent, agent_kind
from engine.runner.agents.rollouts import rollout, sample_chance
from engine.runner.agents.search_specs import SearchAgent, SearchSpec, logs_past

if TYPE_CHECKING:
    from engine.core.actions import ActionSpace
    from engine.model.state import State


ActionKey = tuple[int, tuple[Any, ...]]
"""An action as one seat observes it: its step and arguments, or, for another seat's sealed decision, its step
and its public text (``commit a card``).  The same in every determinization, and faster than text."""


class _Node:
    """A node of one seat's tree: the history as that seat observed it; ``total`` sums the mover's returns.

    Where every seat has seen every decision so far, on MCTS's one determinization, the seats' trees are copies
    of each other, and one node stands for all of them; ``seats`` then holds each seat's own node (index 0
    unused) for what follows a decision that not every seat sees (see :meth:`MultiObserverSearch._iterate`).
    """

    __slots__ = ("action", "visits", "total", "available", "children", "seats")

    def __init__(self, action: Action | None) -> None:
        self.action = action  # the decision leading here (kept in the tree of the seat that made it)
        self.visits = 0
        self.total = 0.0
        self.available = 1  # iterations in which this action could be chosen at its parent
        self.children: dict[ActionKey, _Node] = {}
        self.seats: list[_Node] | None = None

    def split(self, players: int) -> list["_Node"]:
        """Each seat's own node from here on (index 0 unused), made the first time it is asked for."""
        if self.seats is None:
            self.seats = [_Node(None) for _ in range(players + 1)]
        return self.seats


Choices = tuple[int, Any, list[ActionKey], list["_Node | None"], list[int]]
"""What the mover may do at a position: the seat, the step deciding, the keys of its legal actions, the mover's
children for them (None: not expanded yet) and the indices of those not expanded, all in the legal order."""


class _Replay:
    """The way down one iteration of a fresh determinization: every action is played on the iteration's own sample.

    Example: ``walk = _Replay(determinize(state, me, rng)).play(key, 0)`` plays action 0 on that sample.
    """

    __slots__ = ("state",)

    def __init__(self, state: "State") -> None:
        self.state = state

    def choices(self, node: _Node | None, nodes: list[_Node]) -> Choices:
        """The :data:`Choices` at the sample's position, the children those of ``node`` (when None, of the
        mover's node among ``nodes``), looked up again at every step."""
        state = self.state
        mover = state.seat_to_move
        step, legal = _keys(state.legal_actions())
        children = (nodes[mover] if node is None else node).children
        found = [children.get(key) for key in legal]
        return mover, step, legal, found, [i for i, child in enumerate(found) if child is None]

    def expanded(self, node: _Node) -> None:
        """``node`` gained the child its choices show (nothing is kept here)."""

    def play(self, key: ActionKey, index: int) -> "_Replay":
        """On, after legal action ``index`` (its key ``key``)."""
        self.state.play(index)
        return self

    def resolve(self, key: ActionKey, action: Action) -> "_Replay":
        """On, after the chance result ``action`` (its key ``key``)."""
        self.state.apply(action, undo=False)
        return self

    def leaf(self) -> "State":
        """The state to roll out from (the sample itself: nothing else needs it)."""
        return self.state


KEPT_POSITIONS = 5_000
"""The most positions one MCTS search keeps (a state each, a few KB to tens of KB): past it, iterations play on."""


class _Position:
    """A position of the one determinization MCTS searches, kept with its legal keys and the positions after them.

    Playing the same actions on the same determinization leads to the same
    position, so an iteration walks down the positions earlier iterations
    reached instead of playing the tree's actions again: each edge is played
    once per search, and only the rollout's start is cloned.  A position's
    state is never changed.  Once the search keeps :data:`KEPT_POSITIONS`
    (``room`` is shared by all of its positions), a new position is not kept:
    the iteration goes on playing on a copy (:class:`_Replay`), as before.
    The position also keeps the mover's children for its legal keys (see
    :meth:`choices`), so a step down does not look them up one by one again.

    Example: ``root = _Position(determinize(state, me, rng)); child = root.play(root.choices(tree, [])[2][0], 0)``.
    """

    __slots__ = ("state", "after", "room", "_moves", "_node", "_size", "_choices")

    def __init__(self, state: "State", room: list[int] | None = None) -> None:
        self.state = state
        self.after: dict[ActionKey, _Position] = {}
        self.room = room if room is not None else [KEPT_POSITIONS]
        self._moves: tuple[int, Any, list[ActionKey], bool] | None = None  # mover, step, keys, whether no key repeats
        self._node: _Node | None = None  # whose children _choices holds, while it has _size of them
        self._size = 0
        self._choices: Choices | None = None

    def choices(self, node: _Node | None, nodes: list[_Node]) -> Choices:
        """The :data:`Choices` here, the children those of ``node`` (when None, of the mover's node among
        ``nodes``).  The legal keys are listed once; the children are looked up once, then kept as long as
        the node gains no child but through :meth:`expanded` (children are never taken away).  The lists are
        the caller's to change: an expansion fills its child in and takes its index out of the untried ones."""
        moves = self._moves
        if moves is None:
            step, legal = _keys(self.state.legal_actions())
            moves = self._moves = (self.state.seat_to_move, step, legal, len(set(legal)) == len(legal))
        mover, step, legal, unique = moves
        if node is None:
            node = nodes[mover]
        children = node.children
        if node is self._node and len(children) == self._size:
            return self._choices  # type: ignore[return-value]  # kept with _node
        found = [children.get(key) for key in legal]
        choices = mover, step, legal, found, [i for i, child in enumerate(found) if child is None]
        if unique:  # (an action listed twice has one child for both: looked up again each time)
            self._node, self._size, self._choices = node, len(children), choices
        return choices

    def expanded(self, node: _Node) -> None:
        """``node`` gained the child its choices (changed in place by the caller) now show."""
        if node is self._node:
            self._size += 1

    def play(self, key: ActionKey, index: int) -> _Walk:
        """The position after legal action ``index`` (its key ``key``), played the first time it is asked for."""
        child = self.after.get(key)
        return child if child is not None else self._reach(key, lambda s: s.play(index))

    def resolve(self, key: ActionKey, action: Action) -> _Walk:
        """The position after the chance result ``action`` (its key ``key``)."""
        child = self.after.get(key)
        return child if child is not None else self._reach(key, lambda s: s.apply(action, undo=False))

    def _reach(self, key: ActionKey, move: Callable[["State"], object]) -> _Walk:
        """The walk after ``move`` made on a copy of this position: kept as the position after ``key`` while there is
        room, else played on."""
        state = self.state.clone()
        move(state)
        if self.room[0] <= 0:
            return _Replay(state)
        self.room[0] -= 1
        child = self.after[key] = _Position(state, self.room)
        return child

    def leaf(self) -> "State":
        """A copy of the position to roll out from, its legal actions listed first: the copy and, if an iteration
        comes back, the position itself use the one list (spaces are never changed)."""
        state = self.state
        state.legal_actions()
        return state.clone()


_Walk = _Replay | _Position
"""How an iteration goes down from the root: on its own sample, or through the positions kept for one."""


def _keys(space: "ActionSpace") -> tuple[Any, list[ActionKey]]:
    """``space``'s step and the keys of its actions: no Action object per option."""
    step = space.step
    index = step.index
    return step, [(index, args) for args in space.all_args()]


class MultiObserverSearch(SearchAgent):
    """Information-set MCTS with one tree per seat (MO-ISMCTS; Cowling, Powley and Whitehouse, 2012).

    Every seat's decisions are chosen in that seat's own tree, whose nodes are
    the history *as that seat observed it*: another seat's sealed decision
    (a card committed face down) is one edge whatever was committed.  So no
    seat's choice ever depends on a choice another seat has sealed but not yet
    revealed — simultaneous decisions are searched as simultaneous, and hidden
    choices are not "answered" inside the tree.  Only the children legal in
    the current determinization compete, and UCB counts how often each child
    was available instead of the parent's visits.  Subclasses say which
    determinization each iteration searches (:meth:`starts`), and whether it is
    always the same one (``one_sample``): then, as long as every seat has seen
    every decision, the seats' trees are the same and are kept as one (see
    :meth:`_iterate`).
    """

    one_sample = False

    def starts(self, state: "State", me: int) -> Iterator[_Walk]:
        """Where each iteration starts down the trees, one after the other: a walk on the determinization it searches."""
        raise NotImplementedError

    def search(self, state: "State", running: Callable[[int], bool]) -> tuple[Action, int]:
        """The most visited action of the mover's tree after the iterations ``running`` allows, and how many ran."""
        me = state.seat_to_move
        try:
            trees, done = self.grow(state, running)
        except EffectRuntimeError as err:
            if not has_hidden_information(state.game):
                raise
            raise in_a_sample(err, me) from None
        best = max(trees[me].children.values(), key=lambda n: (n.visits, n.total))
        assert best.action is not None
        return best.action, done

    def grow(self, state: "State", running: Callable[[int], bool]) -> tuple[list[_Node], int]:
        """Every seat's tree (``trees[seat]``; index 0 unused) after the iterations ``running`` allows."""
        root, players = _Node(None), state.players
        if not self.one_sample:
            root.split(players)
        starts = self.starts(state, state.seat_to_move)
        done, logs = 0, self._logs
        while running(done):
            if done + 2 >= len(logs):  # a child is available at most once an iteration: its count's logarithm is listed
                logs = self._logs = logs_past(done + 2)
            self._iterate(root, players, next(starts))
            done += 1
        trees = root.seats or [root] * (players + 1)
        for tree in trees[1:]:
            tree.visits = done
        return trees, done

    def _iterate(self, root: _Node, players: int, walk: _Walk) -> None:
        """Descend every seat's tree along one history, expand one node, roll out and back the result up.

        On one determinization (``one_sample``), a history every seat has seen whole is one position, and the
        seats' nodes for it would be copies of each other: they are one node, and a step down is one step, until
        a decision comes that some seat does not see (a sealed step, a hidden draw).  There the node splits into
        a node per seat (:meth:`_Node.split`), and each seat goes down its own tree from then on.
        """
        rand, node, select = self.rng.random, root, self._select
        common: list[tuple[_Node, int]] = []  # the nodes entered while all seats share them, each with the seat that moved
        expanded = False
        while node.seats is None and (s := walk.state).outcome is None:
            chance = s.chance
            if chance is not None:
                if chance.hidden:
                    break
                action = sample_chance(s, rand)
                key = (CHANCE, action.args)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(None)
                node = child
                walk = walk.resolve(key, action)
                continue
            mover, step, legal, children, untried = walk.choices(node, [])
            if step.sealed or step is CHOICE and _hides_a_choice(s) or _hides_an_exchange(s, step):  # seen differently:
                break  # a tree per seat from here
            if untried:
                index = untried.pop(int(rand() * len(untried)))
                key = legal[index]
                child = children[index] = node.children[key] = _Node(Action(step, key[1]))
                walk.expanded(node)
                expanded = True
            else:
                index = select(children)  # type: ignore[arg-type]  # all expanded
                key, child = legal[index], children[index]
            common.append((child, mover))  # type: ignore[arg-type]
            node = child  # type: ignore[assignment]
            walk = walk.play(key, index)
            if expanded:
                break
        paths: list[list[tuple[_Node, int]]] = []
        if not expanded and walk.state.outcome is None:
            paths, walk = self._iterate_split(node.split(players), walk, rand)
        if walk.state.outcome is None:
            leaf = walk.leaf()
            leaf.dropped = True  # nobody reads it after the rollout: its effects keep no position to go back to
            returns = rollout(leaf, rand, self.spec.depth)
        else:
            returns = list(walk.state.outcome.returns)
        for node, mover in common:
            node.visits += 1
            node.total += returns[mover - 1]
        for path in paths:
            for node, mover in path:
                node.visits += 1
                node.total += returns[mover - 1]

    def _iterate_split(self, trees: list[_Node], walk: _Walk,
                       rand: Callable[[], float]) -> tuple[list[list[tuple[_Node, int]]], _Walk]:
        """Descend each seat's own tree from ``trees[seat]`` and expand one node: each seat's path (the nodes entered,
        each with the seat that moved into it), and the walk where the iteration stopped."""
        seats, select = range(1, len(trees)), self._select
        nodes = trees[:]
        paths: list[list[tuple[_Node, int]]] = [[] for _ in trees]
        while (s := walk.state).outcome is None:
            if s.chance is not None:  # the dice fall as they may: an edge of every seat's tree, with no statistics
                action = sample_chance(s, rand)
                key = (CHANCE, action.args)
                hidden, seer = s.chance.hidden, s.chance.seer
                for seat in seats:
                    seen = key if not hidden or seat == seer else (CHANCE, ())  # a hidden draw: only its drawer knows what
                    child = nodes[seat].children.get(seen)
                    if child is None:
                        child = nodes[seat].children[seen] = _Node(None)
                    nodes[seat] = child
                walk = walk.resolve(key, action)
                continue
            mover, step, legal, children, untried = walk.choices(None, nodes)
            expanded = bool(untried)
            if expanded:
                index = untried.pop(int(rand() * len(untried)))
                key = legal[index]
                own = nodes[mover]
                own.children[key] = _Node(Action(step, key[1]))
                children[index] = own.children[key]
                walk.expanded(own)
            else:
                index = select(children)  # type: ignore[arg-type]  # all expanded
                key = legal[index]
            public_key = _public_key(s, step, key)
            for seat in seats:
                seen = key if seat == mover else public_key
                child = nodes[seat].children.get(seen)
                if child is None:
                    child = nodes[seat].children[seen] = _Node(None)
                nodes[seat] = child
                paths[seat].append((child, mover))
            walk = walk.play(key, index)
            if expanded:
                break
        return paths, walk

    def _select(self, children: list[_Node]) -> int:
        """Among the children legal now, the index of the highest UCB with availability counts (each count's
        logarithm read from :func:`logs_past`'s list: the very values ``math.log`` gives, without a call)."""
        c, logs, sqrt = self.spec.exploration, self._logs, math.sqrt
        best, best_score = 0, -math.inf
        for i, child in enumerate(children):
            available = child.available = child.available + 1
            visits = child.visits
            score = child.total / visits + c * sqrt(logs[available] / visits)
            if score > best_score:
                best, best_score = i, score
        return best




SAMPLED = ("(while a search bot played seat {seat}'s move on a sample of the game: what that seat cannot see dealt "
           "again, each hidden component to some hidden place that held one of its kind, which may make a position "
           "the real game never reaches, such as one player's own tokens in another's hidden zone; a zone's "
           "'owner_known' keeps with their owner the components everyone knows stay there, or write the code to hold "
           "whatever a hidden zone holds)")
"""Said after an error a search met on its sample of what the deciding seat cannot see."""


def in_a_sample(err: EffectRuntimeError, seat: int) -> EffectRuntimeError:
    """``err``, met while searching on samples of what ``seat`` cannot see, saying so: the game itself may never fail.

    >>> print(in_a_sample(EffectRuntimeError("there is no hand of nothing"), 2).message[:80])
    there is no hand of nothing (while a search bot played seat 2's move on a sample
    """
    note = " " + SAMPLED.format(seat=seat)
    public = err.public + note if err.public is not None else None
    return EffectRuntimeError(err.message + note, err.pos, public)


def _hides_a_choice(s: "State") -> bool:
    """Whether the choice waiting now picks among components some seat cannot see (from a hidden hand, say): the
    other seats see it as :meth:`State.public_text` says, by the components' kind and place."""
    pending = s.pending
    hides = pending.hides  # kept on the choice once worked out: searches ask at every step down the tree
    return hides if hides is not None else hides_a_component(s, pending)


def _hides_an_exchange(s: "State", step: Any) -> bool:
    """Whether the decision waiting now swaps components between zones some seat sees neither of (two hidden
    hands): the other seats see it by the components' kind and place, as :meth:`State.public_text` says."""
    hides = getattr(step, "hides_now", None)
    return hides is not None and hides(s)


def _public_key(s: "State", step: Any, key: ActionKey) -> ActionKey:
    """The edge the seats that do not take decision ``key`` follow in their trees: a sealed decision's public text,
    a choice or an exchange of components they cannot see by their kind and place, anything else the decision itself."""
    if step.sealed:
        return (step.index, (step.public_format(key[1]),))
    if step is CHOICE and s.pending is not None and hides_a_component(s, s.pending):
        hidden = public_choice(s, str(key[1][0]))
        if hidden is not None:
            return (step.index, (hidden,))
    seen = getattr(step, "public_text_at", None)  # an exchange between hidden hands: by the cards' kind and place
    if seen is not None:
        public = seen(s, key[1])
        if public != step.format(key[1]):
            return (step.index, (public,))
    return key


class MCTSAgent(MultiObserverSearch):
    """UCT with uniformly random rollouts on one determinization per decision.

    The seat's unseen information is sampled once per decision, then searched
    with one tree per seat (see :class:`MultiObserverSearch`), so sealed
    decisions stay sealed even on a sample; children are expanded in a random
    order; the most visited root action is played.
    """

    one_sample = True

    def starts(self, state: "State", me: int) -> Iterator[_Walk]:
        """The one determinization of this decision, every iteration."""
        return repeat(_Position(determinize(state, me, self.rng)))


@agent_kind("mcts", "mcts:N, mcts:Ts")
def _mcts(argument: str | None, rng: random.Random) -> Agent:
    return MCTSAgent(rng, SearchSpec.parse("mcts", argument))




class ISMCTSAgent(MultiObserverSearch):
    """Multi-observer information-set MCTS: a fresh determinization of what the seat cannot see every iteration."""

    def starts(self, state: "State", me: int) -> Iterator[_Walk]:
        """A fresh determinization of what seat ``me`` cannot see, each iteration."""
        draw, rng = determinizer(state, me), self.rng
        while True:
            sample = draw(rng)
            sample.dropped = True  # one iteration plays on it, then drops it (see State.dropped)
            yield _Replay(sample)


@agent_kind("ismcts", "ismcts:N, ismcts:Ts")
def _ismcts(argument: str | None, rng: random.Random) -> Agent:
    return ISMCTSAgent(rng, SearchSpec.parse("ismcts", argument))


# ---------------------------------------------------------------- a saved policy
