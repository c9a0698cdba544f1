"""An error shown at the table tells no seat what it may not see (engine/core/errors.py, ``told_to_seats``).

A card's program that failed while the card lay in a hidden hand was told to every seat with the card's own name
or the position of its own code ("ruleset.yaml:10:34: division by zero" is the gem's line), and a bot's move that
failed was quoted whole ("the ruleset failed while playing 'choose gem'"): ``rulecraft play`` printed both to the
human, the server's table answered them to every page.  Now the seats read the move as the others see it and the
failure at the ``perform`` that ran the hidden card; ``str(err)`` keeps the whole message for the designer
(``rulecraft replay``, ``simulate``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from cli.main import main
from engine.core.errors import EffectRuntimeError, told_to_seats

RULESET = """\
name: secret-failures
players: [2]
programs: [on_play]
components:
  card:
    attributes: {on_play: text}
    instances:
      - id: gem
        on_play: |
          gold(current_role) = 1 / gold(nth(roles, 2))
      - id: ruby
        on_play: |
          gold(current_role) = 2 / gold(nth(roles, 2))
zones:
  hand: {kind: hand, per: role, hidden: HIDDEN}
  played: {kind: pile}
counters:
  gold: {per: role}
setup: |
  move(c in cards, hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        let c = choose(x in hand(current_role), text = "play a card")
        perform(c, on_play)
        move(x in hand(current_role) where x == c, played)
end:
  when: count(played) >= 2
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def write(tmp_path: Path, hidden: str = "others") -> Path:
    path = tmp_path / "ruleset.yaml"
    path.write_text(RULESET.replace("HIDDEN", hidden), encoding="utf-8")
    return path


def failure(path: Path) -> EffectRuntimeError:
    state = engine.load(str(path)).new_state(players=2, seed=0)
    with pytest.raises(EffectRuntimeError) as err:
        state.apply("choose gem")
    return err.value


def test_a_hidden_cards_failure_is_told_at_its_perform_without_its_name_or_its_line(tmp_path: Path) -> None:
    err = failure(write(tmp_path))
    assert "ruleset.yaml:10:" in str(err) and "division by zero" in str(err)  # the designer's
    told = told_to_seats(err)
    line = RULESET.splitlines().index("        perform(c, on_play)") + 1
    assert told.startswith(f"{tmp_path / 'ruleset.yaml'}:{line}:9: the on_play of a hidden component failed"), told
    assert ":10:" not in told and "gem" not in told and "division" not in told


def test_an_open_cards_failure_is_told_whole(tmp_path: Path) -> None:
    err = failure(write(tmp_path, "none"))
    assert told_to_seats(err) == str(err) and ":10:" in str(err)


def test_play_tells_a_bots_failed_move_as_the_human_sees_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", str(write(tmp_path)), "--seed", "1", "--seat", "1=random",
                                       "--seat", "2=human"], input="quit\n")
    said = " ".join(result.output.split())
    assert "the ruleset failed while playing 'choose a card from hand of" in said, said
    assert "a hidden component failed" in said
    assert "gem" not in said and "ruby" not in said and "division" not in said


def test_a_tables_bot_move_that_fails_is_told_as_every_seat_sees_it(tmp_path: Path) -> None:
    from cli.web.tables import Table, TableError

    path = write(tmp_path)
    table = Table.new("t1", str(path), engine.load(str(path)), players=2, seed=1, bots={1: "random"})
    with pytest.raises(TableError) as err:
        table.advance()
    assert "the ruleset failed while playing 'choose a card from hand of" in str(err.value)
    assert "gem" not in str(err.value) and "ruby" not in str(err.value) and ":10:" not in str(err.value)


def test_a_message_naming_components_in_a_hidden_hand_names_them_to_the_seats_as_hidden(tmp_path: Path) -> None:
    """``place()`` of a whole hidden hand listed its tiles by name ("place() selected 5 components (Sun-1, ...)")."""
    import shutil

    folder = tmp_path / "tiles"
    shutil.copytree(Path(__file__).resolve().parents[2] / "rulesets" / "sealed-tiles", folder)
    ruleset = folder / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text().replace("place(first(played(r)), ", "place(x in hand(r), "))
    game = engine.load(str(folder))
    state = game.new_state(players=2, seed=3)
    with pytest.raises(EffectRuntimeError) as err:
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])
    names = {game.describe_piece(c, 0) for c in range(len(game.piece_names))} | set(game.piece_names)
    assert "place() selected" in str(err.value) and any(name in str(err.value) for name in names)
    told = told_to_seats(err.value)
    assert "place() selected" in told and "(a hidden component); it needs exactly one" in told, told
    assert not any(name in told for name in names), told


@pytest.mark.parametrize("agent", ["greedy", "ismcts:10"])
def test_a_bot_whose_search_meets_a_failing_card_stops_the_game_and_keeps_its_log(tmp_path: Path, agent: str) -> None:
    """A bot trying its moves on copies ran into the ruleset's failure: rulecraft play ended with the error, quoting
    the bot's hidden card's own line (ruby's, 13:34), and wrote no --log."""
    log = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", str(write(tmp_path)), "--seed", "1", "--seat", f"1={agent}",
                                       "--seat", "2=human", "--log", str(log)], input="")
    said = " ".join(result.output.split())
    assert f"[{agent}] could not decide: the ruleset failed while it tried its moves" in said, said
    assert "a hidden component failed" in said and "the game stops here" in said
    assert ":10:" not in said and ":13:" not in said and "gem" not in said and "ruby" not in said
    assert result.exit_code == 1 and log.exists()


def test_a_hint_whose_search_meets_a_failing_card_is_no_hint_and_the_game_goes_on(tmp_path: Path) -> None:
    """'hint' ended rulecraft play with the hint agent's error, and the --log was not written."""
    log = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", str(write(tmp_path)), "--seed", "1", "--seat", "1=human",
                                       "--seat", "2=random", "--hint-agent", "greedy", "--log", str(log)],
                                input="hint\nquit\n")
    said = " ".join(result.output.split())
    assert "no hint (greedy): the ruleset failed while it tried the moves:" in said, said
    assert "a hidden component failed" in said and log.exists()
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "seat 1>" in said.split("no hint")[1]  # asked again: the game goes on


STATUSES = """\
name: secret-statuses
players: [2]
components:
  card:
    instances: [{id: gem}, {id: ruby}]
zones:
  hand: {kind: hand, per: role, hidden: HIDDEN}
  played: {kind: pile}
counters:
  gold: {per: role}
statuses:
  Cursed:
    on:
      on_end: |
        gold(current_role) = 1 / gold(nth(roles, 2))
  Blessed:
    on:
      on_end: |
        gold(current_role) = 2 / gold(nth(roles, 2))
setup: |
  move(c in cards, hand(nth(roles, 1)))
  for c in cards where c.id == "gem":
    give(c, Cursed)
  for c in cards where c.id == "ruby":
    give(c, Blessed)
turn:
  - do:
      effect: |
        let c = choose(x in hand(current_role), text = "lift a card's spell")
        remove(c, Cursed)
        remove(c, Blessed)
        move(x in hand(current_role) where x == c, played)
end:
  when: count(played) >= 2
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


@pytest.mark.parametrize("hidden", ["others", "none"])
def test_a_status_hook_failing_on_a_hidden_card_does_not_say_which_status_it_is(tmp_path: Path, hidden: str) -> None:
    """A status's on_end failing on a card in a hidden hand was told at the status's own line (Cursed's, so the gem),
    then without any position; it is told at the code that ended it."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(STATUSES.replace("HIDDEN", hidden), encoding="utf-8")
    err = failure(path)
    line = STATUSES.splitlines().index("        gold(current_role) = 1 / gold(nth(roles, 2))") + 1
    assert f"ruleset.yaml:{line}:" in str(err) and "division by zero" in str(err)  # the designer's
    told = told_to_seats(err)
    if hidden == "none":
        assert told == str(err)
    else:
        at = STATUSES.splitlines().index("        remove(c, Cursed)") + 1  # where, not which: the code that ended it
        assert told.startswith(f"{path}:{at}:9: the on_end of a status on a hidden component failed (what went wrong is kept"), told
        assert f":{line}:" not in told and "division" not in told and "Cursed" not in told


def test_a_status_hook_a_step_runs_on_a_hidden_card_is_told_at_the_step(tmp_path: Path) -> None:
    """A ``statuses`` step running a hook that fails on a card in a hidden hand: told at the step (was: without a
    position)."""
    path = tmp_path / "ruleset.yaml"
    text = (STATUSES.replace("      on_end: |", "      on_tick: |")
            .replace("\nend:", "\n  - statuses: {hook: on_tick}\nend:"))
    path.write_text(text.replace("HIDDEN", "others"), encoding="utf-8")
    err = failure(path)  # the gem is played; the ruby's status, in the hand, fails
    assert "division by zero" in str(err)  # the designer's
    told = told_to_seats(err)
    at = text.splitlines().index("  - statuses: {hook: on_tick}") + 1
    assert told.startswith(f"{path}:{at}:5: the on_tick of a status on a hidden component failed"), told


def test_numbers_too_many_does_not_quote_a_hidden_card_s_value_to_the_seats(tmp_path: Path) -> None:
    """``numbers(1, c.reach)`` of a card in a hidden hand quoted the card's value to every seat ('numbers(1, 50000)
    would list 50000 numbers': the gem's reach, so the gem); the seats read that it would list too many."""
    path = tmp_path / "ruleset.yaml"
    text = (RULESET.replace("attributes: {on_play: text}", "attributes: {on_play: text, reach: int}")
            .replace("      - id: gem\n", "      - id: gem\n        reach: 50000\n")
            .replace("      - id: ruby\n", "      - id: ruby\n        reach: 60000\n")
            .replace("        perform(c, on_play)\n", "        gold(current_role) = count(numbers(1, c.reach))\n"))
    path.write_text(text.replace("HIDDEN", "others"), encoding="utf-8")
    err = failure(path)
    assert "numbers(1, 50000) would list 50000 numbers" in str(err)  # the designer's
    told = told_to_seats(err)
    assert told.endswith("numbers() would list more than 10000 numbers") and "50000" not in told, told


METERS = """\
name: secret-meters
players: [2]
components:
  card:
    attributes: {fresh: int}
    instances: [{id: gem, fresh: 5}, {id: ruby, fresh: 2}]
zones:
  hand: {kind: hand, per: role, hidden: HIDDEN}
  played: {kind: pile}
counters:
  gold: {per: role}
meters:
  wear:
    per: card
    start: self.fresh
    max: 9
    thresholds:
      - below: 3
        do: |
          gold(current_role) = 1 / gold(nth(roles, 2))
      - below: 1
        do: |
          gold(current_role) = 2 / gold(nth(roles, 2))
setup: |
  move(c in cards, hand(nth(roles, 1)))
turn:
  - do:
      effect: |
        let c = choose(x in hand(current_role), text = "wear a card")
        lose(wear(c), 3)
        move(x in hand(current_role) where x == c, played)
end:
  when: count(played) >= 2
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


@pytest.mark.parametrize("hidden", ["others", "none"])
def test_a_meter_threshold_failing_on_a_hidden_card_does_not_say_which_threshold(tmp_path: Path, hidden: str) -> None:
    """The gem (5 wear) crosses 'below 3', the ruby (2) 'below 1': a failure told at the threshold's own line said which
    card it was, in a hand hidden from the others."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(METERS.replace("HIDDEN", hidden), encoding="utf-8")
    err = failure(path)
    line = METERS.splitlines().index("          gold(current_role) = 1 / gold(nth(roles, 2))") + 1
    assert f"ruleset.yaml:{line}:" in str(err) and "division by zero" in str(err)  # the designer's
    told = told_to_seats(err)
    if hidden == "none":
        assert told == str(err)
    else:
        at = METERS.splitlines().index("        lose(wear(c), 3)") + 1  # the code that wore it
        assert told.startswith(f"{path}:{at}:9: the wear threshold of a hidden component failed (what went wrong is kept"), told
        assert f":{line}:" not in told and "division" not in told


TILES = METERS.replace("{id: ruby, fresh: 2}", "{id: ruby, fresh: 6}").replace("""    thresholds:
      - below: 3
        do: |
          gold(current_role) = 1 / gold(nth(roles, 2))
      - below: 1
        do: |
          gold(current_role) = 2 / gold(nth(roles, 2))
""", """    tiles: {2: trap, 3: snare}
    kinds:
      trap: {on_damage: "gold(current_role) = 1 / gold(nth(roles, 2))"}
      snare: {on_damage: "gold(current_role) = 2 / gold(nth(roles, 2))"}
""")


def test_a_meter_tile_failing_under_a_hidden_card_does_not_say_which_tile(tmp_path: Path) -> None:
    """The gem's marker lands on the trap (2), the ruby's on the snare (3): each tile's own line said which card."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(TILES.replace("HIDDEN", "others"), encoding="utf-8")
    err = failure(path)
    line = TILES.splitlines().index('      trap: {on_damage: "gold(current_role) = 1 / gold(nth(roles, 2))"}') + 1
    assert f"ruleset.yaml:{line}:" in str(err)  # the designer's
    told = told_to_seats(err)
    at = TILES.splitlines().index("        lose(wear(c), 3)") + 1
    assert told.startswith(f"{path}:{at}:9: the tile under the marker of a hidden component failed (what went wrong is kept"), told
    assert f":{line}:" not in told and "division" not in told and "trap" not in told


FACE_DOWN = """\
name: secret-pieces
players: [2]
types:
  side: [North, South]
roles:
  of: side
  seating:
    2: [1, 2]
programs: [on_play]
components:
  piece:
    attributes: {side: side, on_play: text}
    instances:
      - id: Marshal
        side: North
        on_play: |
          gold(current_role) = 1 / gold(South)
      - id: Scout
        side: North
        on_play: |
          gold(current_role) = 2 / gold(South)
counters:
  gold: {per: role}
board: {kind: square-grid, width: 3, height: 3}
face_down: true
setup: |
  place(p in supply where p.id == "Marshal", (0, 0))
  place(p in supply where p.id == "Scout", (2, 0))
  turn_down(p in board, seen_by = North)
turn:
  - do:
      effect: |
        let p = choose(x in board where x.side == current_role, text = "use a piece")
        perform(p, on_play)
end:
  when: gold(North) > 5
scoring:
  rank: r in roles
  by: [gold(r)]
  points: key
"""


def test_a_face_down_piece_s_failing_program_is_told_at_its_perform_by_its_back(tmp_path: Path) -> None:
    """Only a hidden zone hid a program's line: the Marshal's, face down on the board, was told at ':17:' (its own)."""
    path = tmp_path / "ruleset.yaml"
    path.write_text(FACE_DOWN, encoding="utf-8")
    state = engine.load(str(path)).new_state(players=2, seed=0)
    with pytest.raises(EffectRuntimeError) as err:
        state.apply("choose face-down piece of North at 0,0")
    assert "ruleset.yaml:17:" in str(err.value)  # the designer's
    told = told_to_seats(err.value)
    line = FACE_DOWN.splitlines().index("        perform(p, on_play)") + 1
    assert told.startswith(f"{path}:{line}:9: the on_play of face-down piece of North failed"), told
    assert ":17:" not in told and "Marshal" not in told


HIDDEN_FIGHTS = """\
name: secret-wins
extends: nine-domains
zones:
  played: {kind: pile, per: role, hidden: others}
components:
  card:
    instances+:
      - replace: "5"
        add:
          - {id: "5", count: 2, value: 5, sign: plain, special: false, on_win: "elements_ignored = 1 / (margin - margin)"}
"""


def test_a_win_effect_failing_in_a_hidden_row_is_told_without_its_line(tmp_path: Path) -> None:
    """Cards played into a row hidden from the others fight there: the 5's win effect failing was told to every seat
    at its own line (':10:', so the 5 won); it is told at the contest step, whose row it was."""
    import random

    path = tmp_path / "ruleset.yaml"
    path.write_text(HIDDEN_FIGHTS, encoding="utf-8")
    state, choose = engine.load(str(path)).new_state(players=2, seed=0), random.Random(0)
    with pytest.raises(EffectRuntimeError) as err:
        while state.outcome is None:
            state.play(choose.randrange(len(state.legal_actions())))
    assert "ruleset.yaml:10:" in str(err.value) and "division by zero" in str(err.value)  # the designer's
    told = told_to_seats(err.value)
    steps = (Path(__file__).resolve().parents[2] / "rulesets" / "nine-domains" / "ruleset.yaml").read_text().splitlines()
    at = next(i for i, row in enumerate(steps, 1) if row.strip().startswith("- contest:"))  # told at the step that ran it
    assert f"nine-domains/ruleset.yaml:{at}:5: the win effect of a hidden component failed (what went wrong is kept" in told, told
    assert ":10:" not in told and "division" not in told


def test_a_modifier_failing_in_a_hidden_hand_is_told_at_the_fight_without_its_line(tmp_path: Path) -> None:
    """Skirmish's drummers lift their side's soldier from the hand, hidden from the others: a drummer's modifier
    failing was told to every seat at its own line (':48:', the N-drummer's), so North held it."""
    import random
    import shutil

    folder = tmp_path / "skirmish"
    shutil.copytree(Path(__file__).resolve().parents[2] / "docs" / "examples" / "skirmish", folder)
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    written = "        modifier: if owner(target) == owner(self) and target != self then 1 else 0\n"
    at = text.index(written, text.index("id: N-drummer"))  # the North drummer's own, not the South one's
    path.write_text(text[:at] + written.replace("then 1 else", "then 1 / (target.value - target.value) else")
                    + text[at + len(written):], encoding="utf-8")
    line = text[:at].count("\n") + 1
    state, choose = engine.load(str(folder)).new_state(players=2, seed=0), random.Random(0)
    with pytest.raises(EffectRuntimeError) as err:
        while not state.is_terminal:
            state.play(choose.randrange(len(state.legal_actions())))
    assert f"ruleset.yaml:{line}:" in str(err.value) and "division by zero" in str(err.value)  # the designer's
    told = told_to_seats(err.value)
    call = next(i for i, row in enumerate(text.splitlines(), 1) if "contest_winner(n, s)" in row)
    assert told.startswith(f"{path}:{call}:") and "the modifier of a hidden component failed" in told, told
    assert f":{line}:" not in told and "division" not in told and "drummer" not in told


def test_an_override_failing_on_a_hidden_fighter_is_told_at_the_fight_without_its_line(tmp_path: Path) -> None:
    """Skirmish with its fronts hidden from the others: the North pike's 'beats' failing was told at its own line."""
    import random
    import shutil

    folder = tmp_path / "skirmish"
    shutil.copytree(Path(__file__).resolve().parents[2] / "docs" / "examples" / "skirmish", folder)
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8").replace("  front: {kind: pile, per: role}",
                                                    "  front: {kind: pile, per: role, hidden: others}")
    written = "        beats: other.arm == horse\n"
    at = text.index(written, text.index("id: N-pike"))
    path.write_text(text[:at] + "        beats: 1 / (other.value - other.value) == 1\n" + text[at + len(written):],
                    encoding="utf-8")
    line = text[:at].count("\n") + 1
    game = engine.load(str(folder))
    for seed in range(20):  # until the pike fights
        state, choose = game.new_state(players=2, seed=seed), random.Random(seed)
        try:
            while not state.is_terminal:
                state.play(choose.randrange(len(state.legal_actions())))
        except EffectRuntimeError as err:
            assert f"ruleset.yaml:{line}:" in str(err)  # the designer's
            told = told_to_seats(err)
            assert "the override of a hidden component failed" in told and f":{line}:" not in told, told
            return
    pytest.fail("the pike never fought")
