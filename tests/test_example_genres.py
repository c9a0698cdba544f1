"""Games of genres the shipped rulesets lack, written from the docs alone, in docs/examples: random games of each that
end by their own rule and keep the invariants (their scenario files run with every example's, in
tests/test_mechanisms_table.py).

Pig (docs/examples/pig) is a push-your-luck dice game: a turn is a run of rolls, each another turn by
``play_again()``, banked or lost on a 1.  Trumps (docs/examples/trumps) is a trick-taking game with follow-suit and
a trump suit turned up; the trick's winner leads the next with ``play_next(ROLE)``.  Hex (docs/examples/hex) is the
connection game on a rhombus of hexes (``board: {kind: hex, width, height}``), won by a group of stones
(``group_of``) reaching both of a player's edges.  Going once (docs/examples/going-once) is an open auction: bids from
``numbers(FROM, TO)``, a pass final for the lot, the buyer opening the next lot with ``play_next``.
Dominoes (docs/examples/dominoes) is the block game: the line of play is a one-row board growing at both ends, a
tile's two faces its two ways round (played beside OpenSpiel's in tests/test_example_dominoes.py).  Home run
(docs/examples/home-run) is a roll-and-move race in the manner of Ludo: a loop of squares as a one-row board, a counter
of the squares each piece has gone, two pieces of a colour stacked on a square a block, a piece landing on a single
one sending it back to its yard.  Market row (docs/examples/market-row) is a deck-builder: each player's deck, hand
and discard pile are zones of their own, the discard shuffled into a new deck when the deck runs out, a row of
cards for sale refilled from a face-down market, and action cards each running their own program (``perform``).  Crazy Eights (docs/examples/crazy-eights) is a shedding game: each
card is played on top of the discard pile (``move(..., on_top = true)``) and matched by suit or rank, an eight names
the suit to follow with a marker.  Sealed bids (docs/examples/sealed-bids) is an auction whose bids are sealed
together and revealed at once (``commit: {numbers: ...}``, ``committed_number``).  Memory (docs/examples/memory) lays
its tiles face down on the board (``face_down: true``, ``turn_down``, ``turn_up``, ``face_up``): a pair turned up is
taken, two that differ are shown until the next player turns up a tile.  Hidden duel (docs/examples/hidden-duel) is a
tiny duel in the manner of Stratego: each side's pieces are turned down for their own side (``seen_by``), and a
fight turns both up for good.  Yacht (docs/examples/yacht) is a roll-and-keep dice game: five dice tossed in an open
tray (their faces shown and logged), kept one by one in a ``while`` loop the player ends by passing (a die kept before
may be thrown again), and scored in the twelve boxes of the classic sheet by a
function that takes any list of dice (``list of die ds``).  Nine Men's Morris (docs/examples/morris) plays on a board of
24 points and the lines joining them (``board: {kind: points}``, each point named and placed on a 7x7 lattice, the
links its lines); a mill asks the same player which man to remove (played beside OpenSpiel's in tests/test_example_morris.py).
Storm watch (docs/examples/storm-watch) is cooperative: the players win or lose together (``goals``) against a storm
deck that grows fiercer, its rise cards putting the cards turned so far back on top of the deck.  Go
(docs/examples/go) on 5x5: groups and liberties with ``group_of``, a ko point in two counters, a forced pass asked with
``choose(..., optional = true, always_ask = true)``, the area counted by covering the empty points with tokens whose
groups are the empty regions (played beside OpenSpiel's in tests/test_example_go.py).  Gem merchants (docs/examples/gem-merchants) is an
engine-builder in the manner of Splendor: gems taken from a bank, cards bought from three open rows with discounts
from the cards owned and gold for what is short, reserving, patrons, and a last round once someone reaches 15.  Frontiers (docs/examples/frontiers) is an
area-control game in the manner of Risk: nine lands on a board of points whose links are the borders (each land names its point with an attribute of type cell), regions' bonus armies,
battles of dice compared in pairs, conquests moved into, one fortifying move, and a player without land out
(``leave``).  Chess (docs/examples/chess) says "no move may leave one's king attacked" with functions that read the
position after a move without making it (played beside OpenSpiel's in tests/test_example_chess.py).  Homestead
(docs/examples/homestead) is worker placement in the manner of Agricola: action spaces are components with a capacity,
a cost and a program of their own, workers move from a family's ``home`` to ``out`` and back when the round ends, and
every second round a harvest feeds the family or hands out begging cards.  Routes (docs/examples/routes) is a
route-building game in the manner of Ticket to Ride: the routes are components naming two points of a board of points
(two attributes of type cell), claimed by spending cards of their colour, and secret tickets score by whether a
player's own routes join two cities (``reachable``).  The Game of the Amazons (docs/examples/amazons) and Pentago
(docs/examples/pentago, a quadrant turned by ``place_each``) are played beside OpenSpiel's in
tests/test_example_amazons.py and tests/test_example_pentago.py, and so is Hearts (docs/examples/hearts: three cards
passed the way the deal says, the two of clubs leading, hearts broken, shooting the moon) in
tests/test_example_hearts.py.  Quoridor (docs/examples/quoridor) lays its squares, grooves and posts on one 17x17
board, and refuses a wall that leaves a pawn no way to its row with ``walk`` (played beside OpenSpiel's in
tests/test_example_quoridor.py).  Leduc poker (docs/examples/leduc) is two betting rounds with a public card turned
up between them, a choice of fold, call or raise offered while each applies (played beside OpenSpiel's in
tests/test_example_leduc.py).  Orchard (docs/examples/orchard) is a drafting game in the manner of Sushi Go: every
player picks a card from the hand they hold, then the hands are passed on; a round of picks is one turn each, its last
turn (``turn % player_count == 0``) passing the hands, scoring a deal whose hands ran out, and naming the next round's
opener, one seat on (``play_next``).  Fleet (docs/examples/fleet) is a tiny Battleship: ships placed in secret by choosing
chart tokens, one per cell (an attribute of type cell), from a hand the rival does not see into a hidden fleet; a shot
marks the cell and opens its token, and a hit fires again (``play_again``).  Oh Hell (docs/examples/oh-hell) is trick-taking with bids: a turn is a bid
or a card as a counter says, the last bidder may not make the bids add up, and the deal, needed by the setup and after
every hand, is written once as a component's program (``perform``).  Meadows (docs/examples/meadows) lays tiles
with matching edges in the manner of Carcassonne: a tile's four faces are its quarter turns, a place step's
``refuse_if_after`` judges the tile just laid (``placed``), a tile that fits nowhere makes the step pass, and a
region of a terrain is found with ``reachable`` through the edges that show it.
Court letters (docs/examples/court-letters) is
a game of rounds in the manner of Love Letter: a player knocked out of a round leaves the turn order (``leave``), so
their turns are passed over, and everyone is dealt in again for the next round (``rejoin``), its winner opening it.
Take six (docs/examples/take-six) is a card-placing game in the manner of 6 nimmt!: every player seals a card at once
(``commit``), and the last player's turn places the revealed cards from the lowest up, asking the owner of a card lower
than every row which row it takes (``choose(..., by = r)``); its cards' ids are their numbers, written as numbers in
its scenarios.  Column climb (docs/examples/column-climb) is a push-your-luck dice game in the manner of Can't Stop: a
marker per player per column and the turn's climb are counters kept per key (``key: 2..12``).  Glance
(docs/examples/glance) is a two-player card game in the manner of Love Letter whose Priest shows the rival's hand to
its player alone (``show(hand(them), to = me)``), known until the card leaves the hand.  Fireworks (docs/examples/fireworks) is cooperative in the manner of
Hanabi: each hand is held facing away (``hidden: owner``), so a player plays a card by its place in the hand, and a hint
moves the cards it names to the front (``move(..., on_top = true)``) and says how many.  Sleuth (docs/examples/sleuth)
is a deduction game in the manner of Clue: a suggestion names values of a type, heard by every seat; the first player
after the suggester who can disprove it shows one card to the suggester alone; a wrong accusation leaves the turn
order, and a game in which every accusation was wrong has no winner (``nobody_wins``).  Codebreak
(docs/examples/codebreak) is code-breaking in the manner of Mastermind: a code of four pegs moved in order from a box only
its setter sees into a pile only they see, each guess answered by two public counters that functions work out place by
place (``nth``) and colour by colour; the guesser plays again until the code is found or the guesses run out, then the
roles swap.  Paths (docs/examples/paths) is a tile-laying game in the manner of Tsuro: a tile goes only on the square
in front of its player's marker (``place: {cells: ...}``), turned as they like (its faces are its quarter turns), and
the step's ``then`` moves every marker along the paths it now faces, one leaving the board out (``leave``).  Quarto
(docs/examples/quarto) has each player place the piece the rival chose for them: the piece chosen waits in a zone the
next turn's place step takes it from, and sixteen pieces are every combination of four yes-or-no attributes (``each``).
Manhunt (docs/examples/manhunt) is hidden movement in the manner of Scotland Yard: a map whose links have kinds (taxi,
bus, underground: ``links: {Taxi: ...}``, ``neighbours(p, k)``), a fugitive who is a card in a hidden hand rather than a
piece, the ticket heard by all and the place chosen unseen (``always_ask``), and a trace put down on set rounds.
Cribbage, the show (docs/examples/cribbage-show) scores fifteens, pairs, runs and flushes by every way to take some
cards together (``combinations``), and its two cards laid in the crib are one choice among every pair of the hand.
Blocks (docs/examples/blocks) lays polyominoes in the manner of Blokus Duo: every way to lay a piece is a list of the
cells it covers, built by one comprehension of three loops (``for a in corners(r) for o in numbers(0, 7) for i in
...``), a piece touching its colour only at corners.  Caravan (docs/examples/caravan) is a betting race in the manner of
Camel Up: the track a one-row board with stacking, a camel moved with the camels on top of it (``place_each``, from
the bottom up), a pyramid of dice drawn from a shuffled pile, bets paid by the camels' places in the race.  Crossings (docs/examples/crossings) is a roll-and-write game in the
manner of Qwixx: each sheet a pair of counters per role keyed by row, every player asked in turn (``choose(..., by =
r)``) to mark the same white sum.  Missions (docs/examples/missions) is a game of hidden sides in the manner of The
Resistance: sides dealt face down and shown spy to spy, votes put down unseen and turned up together, mission cards
always asked for, the winning side winning together.
Ladders (docs/examples/ladders) is the race docs/tutorial.md writes from an empty file: a roll-again loop kept in a
counter, ladders and snakes as components read by a function (tests/test_tutorial.py builds it step by step).
Light trails (docs/examples/trails) is a game of light cycles in the manner of Tron: every square a rider leaves is
marked with its trail by a counter keyed by the board's cells (``key: cell``), no piece, and a rider may not enter a
marked square; its question says where the rider stands (``text = "... {rider} ..."``).
Expeditions (docs/examples/expeditions) is hand management in the manner of Lost Cities: each player's expeditions
are zones kept per role and colour (``expedition: {per: role, key: colour}``, ``expedition(r, Sea)``), the four
discard piles zones kept per colour (``discard: {key: colour}``), and the draw refuses the pile just discarded to.
Rummy (docs/examples/rummy) melds as docs/rulesets.md says: as many
meld zones as a game may fill, kept per number (``meld: {key: 1..12}``), each new meld offered whole among the ``combinations`` of the hand
that form one, a card laid off then the meld it fits.  Landlords (docs/examples/landlords) is roll-and-move trading in
the manner of Monopoly: each player's square a counter, lots in the bank or a player's deeds (``owner``), rent doubled
for a whole street, a player who cannot pay out (``leave``).  Golf (docs/examples/golf) is a patience for one player,
won by a goal (``goals``), its seven columns kept per number (``key: 1..7``): a column's top card goes on the waste one above or below it, and turning the next stock card
is the pass of an optional choice.
Tally sheet (docs/examples/tally-sheet) is a small roll-and-write game: each sheet one counter per role kept by row and
number (``key: [colour, 1..6]``, ``marked(r, Red, 4)``), a mark and the bonuses it pays one procedure with typed
parameters (``procedures:``) that every turn runs.
Walled Reversi (docs/examples/walled-reversi) is Othello on a board walls part into rooms, an overlay of the shipped
othello adding ``walls:`` alone: a bracketed line ends at a wall, a diagonal's too where a wall line runs through
the corner it passes.
Bazaar (docs/examples/bazaar) is set collection with trading: a trade is offered to one rival, who accepts or
refuses it by a choice of their own (the offer itself, or pass: ``choose(x in [[want, give]], by = rival, optional =
true, always_ask = true)``), and sets are sold at a price that falls with every sale.  Tickers (docs/examples/tickers)
is a stock market: prices and each investor's shares are counters kept per key (``key: stock``), two dice move one
price, a bust and a split are one procedure, and a trade is asked as a deal (buy or sell) then the stock.  Peloton
(docs/examples/peloton) is a race in the manner of Flamme Rouge: each rider's own deck of movement cards, a hand of
four, one card sealed by every rider at once (``commit``), the riders moved from the front back
(``sorted(x in players(), by = square(x), highest_first = true)``), two to a square, slipstream and fatigue cards.
Doubt (docs/examples/doubt) is a bluffing game in the manner of Cheat: cards laid face down in a zone only their
player sees, claimed as the rank due, every other player asked in seat order from the next whether they doubt it.
Aether (docs/examples/aether) is no new genre but the card game for five with a fifth element, written as a file
that extends iconoclasm-cards (``element+``, ``instances+``, the clash table's rows merged key by key).
Freight (docs/examples/freight) is pick-up-and-deliver on a map: trucks are pieces on a board of points that may not
share a town, crates components naming the town they wait at and the one they go to (two attributes of type cell),
delivered as soon as their truck reaches it.  Orders (docs/examples/orders) is a programming game in the manner of
RoboRally: three orders sealed by every player at once, one per register (``commit`` into ``slots``), run on the
round's last turn register by register, the robots in seat order; a robot's heading is a counter and the square ahead
a cell literal (``(x, y)``).  Guilds (docs/examples/guilds) is role selection in the manner of Puerto Rico: the offices
are a type, the ones taken this round a counter per office (``key: office``), an office run for every player from its
taker on (``sorted(..., by = ...)``, ``choose(..., by = r)``), coins piling on offices nobody took.  Halves
(docs/examples/halves) is divide-and-choose: the divider lays each good turned up on one of two piles, the rival
takes a pile (``choose(..., by = rival)``), and each good scores for whoever holds more of it.
Tug (docs/examples/tug) is a tug-of-war over five flags in the manner of Battle Line: each player's laid cards one
zone, the flag a card stands at a counter kept per card (``flag_of: {per: card}``), a full flag going to the stronger
side (three of a suit, a run), a tie to the side finished first (a counter per flag, ``key: 1..5``).
Stone (docs/examples/stone), like Aether, is no new genre but the board game for five deities, Stone joining the
support cycle, written as a file that extends iconoclasm (``deity+``, the support table's rows merged key by key, the
form_groups step merged by name, ``variants-: [teams]``, the base's one-program setup written whole).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import engine
from tests.oracle import EXAMPLES, games as how_many, needs_oracle, pyspiel
from engine.runner.simulate import simulate
from tests.conftest import player_counts, shipped_game

GAMES = ("pig", "trumps", "hex", "going-once", "dominoes", "home-run", "market-row", "crazy-eights", "sealed-bids", "memory", "hidden-duel",
         "yacht", "morris", "storm-watch", "go", "gem-merchants", "frontiers",
         "chess", "walled-reversi", "homestead", "routes", "tables", "amazons", "pentago", "hearts", "quoridor", "leduc", "orchard",
         "fleet", "oh-hell", "meadows", "court-letters", "take-six", "column-climb", "glance", "fireworks", "sleuth",
         "codebreak", "paths", "quarto", "manhunt", "cribbage-show", "blocks", "caravan", "crossings", "missions", "ladders", "trails",
         "expeditions", "rummy", "landlords", "golf", "tally-sheet", "bazaar", "tickers", "peloton", "doubt", "aether",
         "freight", "orders", "guilds", "halves", "stone", "tug")
SLOW = {"quoridor", "chess", "blocks"}  # a random game takes about a second (each wall, each man's moves tried on a
                                        # copy, each way to lay each piece listed): fewer


def example(name: str) -> engine.Game:
    """The example ``name`` compiled once per test process (a game never changes): the parametrisation, each
    test of it and the other modules' tests of the examples share one, where each compiled it again (about 0.1 s
    of CPU each).

    Example: ``example("chess").player_counts``.
    """
    return shipped_game(str(EXAMPLES / name))



@pytest.mark.parametrize("name, players", [(g, n) for g in GAMES for n in player_counts(str(EXAMPLES / g))])
def test_random_games_end_by_their_rule_and_keep_the_invariants(name: str, players: int) -> None:
    """Random games run through ``simulate`` (3, chess and quoridor 1; ``EXAMPLE_GAMES=N`` plays N, as
    docs/hardening.md says), and random games played here with the invariants checked after every action (5, the
    slow two 2), each ending by a rule of its own.  The games checked here are the stronger check of the same
    property, so ``simulate`` plays a few (it played 10 and 3, more than half of the test's time)."""
    game = example(name)
    games, checked = (how_many("EXAMPLE_GAMES", 1), 2) if name in SLOW else (how_many("EXAMPLE_GAMES", 3), 5)
    report = simulate(game, players=players, n=games, seed=0, agents="random")
    assert report.games == games
    for seed in range(checked):
        s = game.new_state(players=players, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
            assert game.broken_invariants(s) == []
        assert s.outcome.ended in ("end condition", "no legal move")  # by a rule: 'when', or end: no_move



@needs_oracle
def test_hex_plays_as_openspiels() -> None:
    """200 random games on 5x5 beside OpenSpiel's hex(board_size=5): the same free hexes (OpenSpiel numbers them row
    by row: r * 5 + q), the same player to move, the same end and winner (its first player joins top and bottom,
    as Red does)."""
    game, theirs = example("hex"), pyspiel.load_game("hex(board_size=5)")
    for seed in range(200):
        rng = random.Random(seed)
        s, o = game.new_state(players=2, seed=seed), theirs.new_initial_state()
        while not o.is_terminal():
            assert not s.is_terminal and s.current_player - 1 == o.current_player(), (seed, str(o))
            ours = {a.args[-1][1] * 5 + a.args[-1][0]: a for a in s.legal_actions()}
            assert sorted(ours) == sorted(o.legal_actions()), (seed, str(o))
            move = rng.choice(sorted(ours))
            s.apply(ours[move])
            o.apply_action(move)
        assert s.is_terminal and s.returns() == [1.0 if r > 0 else 0.0 for r in o.returns()], (seed, str(o))


def test_hex_on_the_usual_11x11_board_has_stones_enough_to_end() -> None:
    """With 50 stones each, 11x11 games ran out of stones and passed to the turn limit (and out of the step budget);
    every random game must end by a connection."""
    game = engine.load(EXAMPLES / "hex", None, {"size": "11"})
    for seed in range(3):
        s, rng = game.new_state(players=2, seed=seed), random.Random(seed)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
        assert s.outcome.ended == "end condition" and sorted(s.returns()) == [0.0, 1.0]


def test_a_deck_shuffled_during_play_says_so_in_the_log() -> None:
    """Market row shuffles a player's discards into a new deck: the log said they went to the deck, then that five
    were drawn, with no word that the deck was shuffled (swap() and shuffle() wrote no line; move() does)."""
    game = example("market-row")
    state, rng = game.new_state(players=2, seed=1, record=True), random.Random(1)
    while not state.is_terminal and not any(" -> deck of " in line for line in state.log or []):
        state.apply(rng.choice(state.legal_actions()))
    log = state.log or []
    refilled = next(i for i, line in enumerate(log) if " -> deck of " in line)
    assert log[refilled + 1] == f"{log[refilled].rsplit(' -> ', 1)[1]} is shuffled"
    setup = game.new_state(players=2, seed=1, record=True).log or []
    assert not any("shuffled" in line for line in setup)  # the setup's shuffles, before play, are not told


def test_placing_several_pieces_says_copies_of_one_would_do(tmp_path: Path) -> None:
    """Storm watch's setup written `place(h in supply where h.kind == "house", c)` was told only "place() selected 6
    components; it needs exactly one", and not that copies of one piece (count:) are placed one at a time, which the
    docs did not say either: Morris and Go were first written with a `first(...)` inside the selection, quadratic."""
    from click.testing import CliRunner

    from cli.main import main

    folder = tmp_path / "storm"
    shutil.copytree(EXAMPLES / "storm-watch", folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    old = 'place(h in houses where h == first(x in supply where x.kind == "house"), c)'
    assert old in text
    ruleset.write_text(text.replace(old, 'place(h in supply where h.kind == "house", c)'), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(ruleset)])
    assert result.exit_code == 1 and ("place() selected 6 components (Mill, Bakery, Chapel, Forge, ...); it needs exactly "
                                      "one, or copies of one piece (count:), any of which it places") in result.output


def test_homestead_rewards_planning() -> None:
    """A worker-placement game where placing well matters: the greedy bot, which looks one move ahead at the score
    (people, huts, fields, begging), beats a random one in most of 40 games."""
    report = simulate(example("homestead"), players=2, n=40, seed=0, agents="greedy,random")
    assert report.games == 40 and report.wins_by_seat[1] >= 30, report.wins_by_seat
