"""Issue 10's The Expedition defects: endless back-and-forth games end by repetition, the end is told with the real
counts (expeditions completed, markers on the grid), and the new solo rulings are stated."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.errors import GameOver
from bot.games.the_expedition import TheExpedition
from bot.games.the_expedition.rules import rules
from tests.reading import read

from .helpers import CELL, GAME, arranged, automation, catalog_with_automations, kinds, move

CATALOG = GAME.catalog


def _back_and_forth(state: rules.JSON, moves: int) -> tuple[rules.JSON, list[rules.JSON], int]:
    """Alice steps right/left between Europa and Titan, Bob between Luna and Saturn, until the game ends."""
    events: list[rules.JSON] = []
    for number in range(1, moves + 1):
        seat = (number - 1) % 2
        direction = "right" if (number - 1) % 4 < 2 else "left"
        state, events = move(state, seat, direction)
        if state["phase"] == "over":
            return state, events, number
    return state, events, moves


def test_the_third_occurrence_of_a_position_ends_the_game_scored_as_it_stands() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": CELL["luna"]})
    state, events, played = _back_and_forth(state, 100)
    # Moves 1-4 mark Europa, Luna, Titan and Saturn; the position after move 4 (Alice to move) comes back after
    # move 8 and a third time after move 12.
    assert played == 12
    assert kinds(events) == ["moved", "game_over"]
    assert state["result"]["reason"] == "repetition"
    scores = rules.final_scores(state, CATALOG)
    assert {pid: s["markers"] for pid, s in scores.items()} == {"p0": 2, "p1": 2}
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert ("The game ended: the same position arose for the third time, so the game was scored as it stood."
            in str(outcome.summary))
    with pytest.raises(GameOver):
        move(state, 1, "right")


def test_a_position_seen_twice_does_not_end_the_game() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": CELL["luna"]})
    state, _, played = _back_and_forth(state, 11)
    assert played == 11 and state["phase"] == "play"
    assert max(state["positions"].values()) == 2


@pytest.mark.parametrize("mode", ["standard", "abstract", "solo", "solo-hard"])
def test_rules_text_states_the_repetition_ruling(mode: str) -> None:
    assert ("Repetition (the rulebook sets no limit): when the same position (explorers, markers, scored and held "
            "cards, the player to move) arises for the third time, the game ends at once and is scored as it "
            "stands.") in GAME.rules_text(mode)


@pytest.mark.parametrize("mode", ["solo", "solo-hard"])
def test_rules_text_states_the_solo_rulings(mode: str) -> None:
    text = GAME.rules_text(mode)
    assert ("The 9-round limit ends the game even when the end was triggered during round 9: no explorer moves "
            "more than 9 times.") in text
    assert "An Automation that places its last marker triggers the end like a player." in text


def test_completing_two_expeditions_in_one_move_is_told_as_three_completed() -> None:
    state = arranged(("Alice", "Bob"), cells={"p0": CELL["neptune"], "p1": CELL["europa"]},
                     markers={0: ["p0"], 2: ["p0"], 3: ["p0"], 5: ["p0"]})
    state["players"][0]["scored"] = ["gas-giants"]
    state["players"][0]["hand"] = ["corner-stations", "outposts"]
    state, events = move(state, 0, "up")
    assert kinds(events) == ["moved", "expedition_scored", "expedition_scored", "end_triggered"]
    assert read(GAME.describe(state, events[-1])) == ("Alice completed 3 expeditions: the end is triggered, everyone "
                                                "else gets one final turn.")
    state, _ = move(state, 1, "left")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert "The game ended: Alice completed 3 expeditions and then every other explorer had a final turn." in \
        read(outcome.summary)


def test_the_summary_counts_markers_on_the_grid_and_an_automation_places_its_last_marker() -> None:
    state = arranged(("Alice",), "solo-hard", cells={"p0": 4}, markers={CELL["mars"]: ["a1"], 1: ["p0"]})
    state["end"] = {"by": "a1", "reason": "markers", "final_turns_left": 0}
    rules.finish(state, CATALOG, "final_turns", [])
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert "Automation 1 placed its last marker and then every other explorer had a final turn." in str(outcome.summary)
    assert "(2 from locations, 1 marker on the grid)" in str(outcome.summary)
    assert read(str(outcome.summary)).endswith("Automation 2: 0 pts (0 from locations, 0 markers on the grid).")
    assert read(GAME.describe(state, {"kind": "end_triggered", "who": "a1", "reason": "markers"})).startswith(
        "Automation 1 placed its last marker: the end is triggered")


@pytest.mark.parametrize("typed", ["MARS", " mars ", "Märs"])
def test_a_location_typed_in_any_case_or_with_accents_is_found(typed: str) -> None:
    state = GAME.setup("standard", ["Alice", "Bob"], rules.Rng(3, 0), {})
    seat = GAME.to_act(state)[0]
    free = [CATALOG.location(state["grid"][c]).id for c in rules.empty_locations(state)]
    assert "mars" in free
    applied = GAME.apply(state, seat, {"type": "place", "location": typed}, rules.Rng(0, 1))
    assert applied.events[0]["location"] == "mars"


def test_an_automation_marking_where_its_marker_already_is_reads_its() -> None:
    state = arranged(("Alice",), "solo", cells={"p0": 4})
    event = {"kind": "moved", "who": "a1", "direction": "up", "from_cell": 3, "to_cell": 0, "from_location": "io",
             "to_location": "luna", "marked": False, "removed": [], "moves_left": 1}
    assert read(GAME.describe(state, event)) == ("Automation 1 moved up to Luna and marked Io (its marker was already "
                                           "there); 1 move left on its card.")


def _automation_2_runs_out_in_round_9() -> tuple[TheExpedition, dict[str, Any]]:
    """Alice solo against a shuttling Automation 1 and an Automation 2 whose card runs out in round 9."""
    shuttle = automation("shuttle", 0, ("right", "left") * 6)
    nine = automation("nine", 8, ("left", "right") * 4 + ("left",))  # out of moves in round 9
    game = TheExpedition(catalog_with_automations(shuttle, nine))
    return game, arranged(("Alice",), "solo", cells={"p0": CELL["io"]}, game=game,
                          automations={"a1": ("shuttle", 0, 0), "a2": ("nine", 8, 0)})


def test_an_end_triggered_in_round_9_still_ends_with_round_9() -> None:
    """RULINGS: no explorer moves more than 9 times, even when Automation 2 triggers the end in round 9 and the
    player would otherwise be owed a final turn in a 10th round."""
    game, state = _automation_2_runs_out_in_round_9()
    for turn in range(9):
        assert game.to_act(state) == (0,) and state["round"] == turn + 1
        state, events = move(state, 0, "right" if turn % 2 == 0 else "left", game)
    assert [(e["kind"], e.get("who")) for e in events] == [
        ("moved", "p0"), ("moved", "a2"), ("end_triggered", "a2"), ("moved", "a1"), ("game_over", None)]
    assert state["result"]["reason"] == "rounds" and state["round"] == 9
    assert state["end"] == {"by": "a2", "reason": "out_of_moves", "final_turns_left": 1}
    assert rules.participant(state, "a1")["moves_used"] == 9


def test_a_solo_end_trigger_names_who_really_gets_a_final_turn() -> None:
    """The solo log said "everyone else gets one final turn (within the 9 rounds)" even when the 9 rounds ended
    the game first and the player got no final turn: it names who moves before the end."""
    game, state = _automation_2_runs_out_in_round_9()
    for turn in range(9):
        state, events = move(state, 0, "right" if turn % 2 == 0 else "left", game)
    assert read(game.describe(state, events[2])) == (
        "Automation 2 is out of moves: the end is triggered in round 9, the last: Automation 1 takes its turn, then "
        "the game ends.")
    assert read(game.describe(state, {"kind": "end_triggered", "who": "a1", "reason": "markers"})) == (
        "Automation 1 placed its last marker: the end is triggered on the last turn of the 9 rounds, so the game "
        "ends now.")


def test_a_solo_end_trigger_before_the_last_round_gives_the_others_their_final_turns() -> None:
    game = TheExpedition(catalog_with_automations(automation("short", 3, ("right", "left")),
                                                  automation("shuttle", 0, ("right", "left") * 6)))
    state = arranged(("Alice",), "solo-hard", cells={"p0": CELL["neptune"]}, game=game,
                     automations={"a1": ("short", 3, 0), "a2": ("shuttle", 0, 0)})
    state, _ = move(state, 0, "up", game)
    state, events = move(state, 0, "down", game)  # round 2: Automation 1 uses its last move
    assert read(game.describe(state, events[-1])) == ("Automation 1 is out of moves: the end is triggered: Alice and "
                                                "Automation 2 each get one final turn, then the game ends.")


def test_the_games_last_move_onto_gravity_promises_no_next_turn() -> None:
    """The last move of the game said "Jupiter's gravity holds them next turn": there is no next turn."""
    state = arranged(("Alice", "Bob"), "standard", cells={"p0": CELL["io"], "p1": CELL["luna"]})
    event = {"kind": "moved", "who": "p0", "direction": "up", "from_cell": 3, "to_cell": 0, "from_location": "io",
             "to_location": "luna", "marked": True, "removed": [], "held": True}
    assert read(GAME.describe(state, event)).endswith("Luna's gravity holds them next turn.")
    state["phase"] = "over"
    assert read(GAME.describe(state, event)) == "Alice moved up to Luna and marked Io."
