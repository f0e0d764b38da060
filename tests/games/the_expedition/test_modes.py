"""Solo Mode (Automations, 9 rounds, the harder option) and Abstract Mode (the open market), with exact outcomes."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.games.the_expedition import TheExpedition
from bot.games.the_expedition.rules import rules
from bot.games.the_expedition.rules.catalog import AutomationCard
from tests.reading import read

from .helpers import CELL, GAME, arranged, automation, catalog_with_automations, kinds, move, owners

CATALOG = GAME.catalog


def solo_game(*cards: AutomationCard) -> TheExpedition:
    return TheExpedition(catalog_with_automations(*cards))


SHUTTLE = automation("shuttle", 0, ("right", "left") * 6)  # marks only Luna and Saturn
BOUNCER = automation("bouncer", 8, ("left", "right") * 6)  # marks only Neptune and Jupiter


# --- solo --------------------------------------------------------------------------------------------------------


def test_solo_setup_places_the_automations_first_and_the_player_last_and_first_to_move() -> None:
    state = GAME.setup("solo", ["Alice"], Rng(4, 0), {})
    a1, a2 = state["automations"]
    assert a1["cell"] == CATALOG.automation(a1["card"]).start
    assert a2["cell"] == CATALOG.automation(a2["card"]).start
    assert state["order"] == ["p0", "a2", "a1"]
    assert len(state["players"][0]["hand"]) == 3 and len(state["undealt"]) == 6
    assert GAME.to_act(state) == (0,)
    with pytest.raises(IllegalAction, match="already has an explorer"):
        GAME.apply(state, 0, {"type": "place", "location": state["grid"][a1["cell"]]}, Rng(4, 1))
    assert len(GAME.legal_actions(state, 0)) == 7
    state = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0], Rng(4, 1)).state
    assert state["phase"] == "play" and state["round"] == 1 and GAME.to_act(state) == (0,)
    assert read(GAME.turn_text(state)) == "Alice to move (round 1 of 9)"


def test_the_automation_cards_are_announced_in_order_before_the_player_places() -> None:
    state = GAME.setup("solo", ["Alice"], Rng(3, 0), {})
    a1, a2 = (CATALOG.automation(a["card"]) for a in state["automations"])
    where = [CATALOG.location(state["grid"][card.start]).name for card in (a1, a2)]
    assert read(GAME.turn_text(state)) == (f"Alice to place their explorer on an empty location (Automation cards "
                                           f"revealed: Automation 1 is {a1.name}, starting on {where[0]}; Automation 2 "
                                           f"is {a2.name}, starting on {where[1]})")


def test_automations_may_start_on_the_same_location() -> None:
    game = solo_game(automation("x", 4, ("up",) * 9), automation("y", 4, ("down",) * 9))
    state = game.setup("solo", ["Alice"], Rng(0, 0), {})
    assert [a["cell"] for a in state["automations"]] == [4, 4]
    assert len(game.legal_actions(state, 0)) == 8


def test_after_the_player_automation_2_then_automation_1_move_mark_and_remove() -> None:
    # Automation 1 walks up from Europa into Saturn (which can't be entered from below: it ignores that);
    # Automation 2 walks down from Europa into Jupiter and straight out again (it ignores gravity too).
    game = solo_game(automation("climber", 4, ("up", "down", "up") * 3),
                     automation("diver", 4, ("down", "left", "right") * 3))
    state = arranged(("Alice",), "solo", cells={"p0": CELL["luna"]}, game=game,
                     automations={"a1": ("climber", 4, 0), "a2": ("diver", 4, 0)}, markers={4: ["p0"]})
    state, events = move(state, 0, "down", game)
    assert [(e["kind"], e["who"]) for e in events] == [("moved", "p0"), ("moved", "a2"), ("moved", "a1")]
    assert events[1]["removed"] == ["p0"] and events[2]["removed"] == ["a2"]
    assert owners(state, "europa") == ["a1"]
    assert rules.participant(state, "a1")["cell"] == CELL["saturn"]
    assert rules.participant(state, "a2")["cell"] == CELL["jupiter"]
    assert read(game.describe(state, events[2])) == ("Automation 1 moved up to Saturn and marked Europa, removing "
                                               "Automation 2's marker; 8 moves left on its card.")
    state, events = move(state, 0, "right", game)
    assert rules.participant(state, "a2")["cell"] == CELL["mars"]  # left Jupiter at once
    assert owners(state, "jupiter") == ["a2"]
    assert state["round"] == 3 and game.to_act(state) == (0,)


def test_a_printed_move_off_the_grid_is_used_up_and_marks_nothing() -> None:
    game = solo_game(automation("edge", 3, ("left", "right") + ("up", "down") * 4), SHUTTLE)
    state = arranged(("Alice",), "solo", cells={"p0": CELL["neptune"]}, game=game,
                     automations={"a1": ("edge", 3, 0), "a2": ("shuttle", 0, 0)})
    state, events = move(state, 0, "up", game)
    blocked = events[-1]
    assert blocked == {"kind": "automation_blocked", "who": "a1", "direction": "left", "cell": 3, "moves_left": 9}
    assert rules.participant(state, "a1")["cell"] == 3 and owners(state, "io") == []
    assert read(game.describe(state, blocked)) == (
        "Automation 1 can't move left off the grid: it stays on Io and marks nothing; 9 moves left on its card.")


def test_an_automation_out_of_moves_triggers_the_end_and_the_others_get_a_final_turn() -> None:
    game = solo_game(automation("short", 3, ("right", "left")), SHUTTLE)
    state = arranged(("Alice",), "solo", cells={"p0": CELL["neptune"]}, game=game,
                     automations={"a1": ("short", 3, 0), "a2": ("shuttle", 0, 0)})
    state, _ = move(state, 0, "up", game)  # round 1: Automation 1 uses its first move
    state, events = move(state, 0, "down", game)  # round 2: its last move
    assert events[-1] == {"kind": "end_triggered", "who": "a1", "reason": "out_of_moves"}
    assert state["end"]["final_turns_left"] == 2
    state, events = move(state, 0, "up", game)  # round 3: Alice's and Automation 2's final turns only
    assert [(e["kind"], e.get("who")) for e in events] == [("moved", "p0"), ("moved", "a2"), ("game_over", None)]
    assert rules.participant(state, "a1")["moves_used"] == 2
    assert state["result"]["reason"] == "final_turns"


def test_solo_lasts_nine_rounds() -> None:
    game = solo_game(SHUTTLE, BOUNCER)
    state = arranged(("Alice",), "solo", cells={"p0": CELL["io"]}, game=game,
                     automations={"a1": ("shuttle", 0, 0), "a2": ("bouncer", 8, 0)})
    for turn in range(9):
        assert game.to_act(state) == (0,) and state["round"] == turn + 1
        state, events = move(state, 0, "right" if turn % 2 == 0 else "left", game)
    assert kinds(events)[-1] == "game_over" and state["result"]["reason"] == "rounds"
    assert rules.participant(state, "a1")["moves_used"] == 9
    assert state["end"] is None


def test_an_automation_placing_all_its_markers_triggers_the_end() -> None:
    sweeper = automation("sweeper", 0, ("right", "right", "down", "left", "left", "down", "up"))
    game = solo_game(sweeper, BOUNCER)
    state = arranged(("Alice",), "solo", cells={"p0": CELL["neptune"]}, game=game,
                     automations={"a1": ("sweeper", 0, 0), "a2": ("bouncer", 8, 0)})
    for turn in range(6):
        state, events = move(state, 0, "up" if turn % 2 == 0 else "down", game)
    assert events[-1] == {"kind": "end_triggered", "who": "a1", "reason": "markers"}
    assert rules.markers_left(state, game.catalog, "a1") == 0


def _solo_result(mode: str, player_cells: list[int], player_cards: list[str]) -> tuple[rules.JSON, object]:
    state = arranged(("Alice",), mode, cells={"p0": 4}, markers={
        **{cell: ["p0"] for cell in player_cells}, CELL["mars"]: ["a1"], CELL["jupiter"]: ["a2"]})
    state["players"][0]["scored"] = player_cards
    rules.finish(state, CATALOG, "rounds", [])
    return state, GAME.outcome(state)


def test_solo_scores_and_whether_the_player_beat_the_automations() -> None:
    # Alice: Neptune 3 + Mercury 1 + Supply Chain 2 = 6 > Automation 2 (Jupiter 3) and Automation 1 (Mars 2).
    state, outcome = _solo_result("solo", [CELL["neptune"], CELL["mercury"]], ["supply-chain"])
    assert outcome.scores == {0: 6} and outcome.winners == (0,)
    assert read(outcome.summary).startswith("Alice beat the Automations!")
    view = GAME.view(state, None)
    assert view["result"]["player_won"] is True
    # The added challenge counts only her expedition points: 2 < 3, so Automation 2 wins.
    state, outcome = _solo_result("solo-hard", [CELL["neptune"], CELL["mercury"]], ["supply-chain"])
    assert outcome.scores == {0: 2} and outcome.winners == ()
    assert read(str(outcome.summary)) == (
        "Alice did not beat the Automations: Automation 2 won. The game ended: the 9 rounds were over. Automation 2: "
        "3 pts (3 from locations, 1 marker on the grid); Alice: 2 pts (expeditions only; 4 location points not "
        "counted, 2 markers on the grid); Automation 1: 2 pts (2 from locations, 1 marker on the grid).")
    assert read(GAME.describe(state, {"kind": "game_over", "winners": ["a2"]})) == ("Game over: Alice did not beat the "
                                                                              "Automations: Automation 2 won.")
    # A tie on points with an Automation goes to the tie-breaks: Alice has more markers, so she wins.
    state, outcome = _solo_result("solo", [CELL["luna"], CELL["mercury"], CELL["io"]], [])
    assert outcome.scores == {0: 3} and outcome.winners == (0,)


# --- abstract ----------------------------------------------------------------------------------------------------


def test_abstract_setup_lays_out_a_market_of_one_plus_players() -> None:
    state = GAME.setup("abstract", ["A", "B", "C"], Rng(8, 0), {})
    assert len(state["market"]) == 4 and len(state["draw_pile"]) == 5
    assert all(p["hand"] == [] for p in state["players"])
    public = GAME.view(state, None)
    assert [c["id"] for c in public["market"]] == state["market"]
    assert public["draw_pile"] == 5
    assert not any(card in str(public) for card in state["draw_pile"])


def test_any_player_scores_market_cards_and_each_is_replaced_in_its_slot() -> None:
    state = arranged(cells={"p0": CELL["neptune"], "p1": CELL["io"]}, mode="abstract",
                     market=["outposts", "corner-stations", "supply-chain"], draw_pile=["moon-survey", "wide-reach"],
                     markers={0: ["p0"], 2: ["p0"], 3: ["p1"], 6: ["p1"], 7: ["p1"]})
    state, events = move(state, 0, "up")  # Alice marks Neptune: her third corner
    assert kinds(events) == ["moved", "expedition_scored", "market_refilled"]
    assert events[1]["source"] == "market" and events[2] == {"kind": "market_refilled", "card": "moon-survey",
                                                             "slot": 1}
    assert state["market"] == ["outposts", "moon-survey", "supply-chain"]
    assert state["draw_pile"] == ["wide-reach"]
    assert state["players"][0]["scored"] == ["corner-stations"]
    # Bob re-marks Io: Io, Mars and Jupiter make a group of three, one short of Supply Chain.
    state, events = move(state, 1, "right")
    assert "expedition_scored" not in kinds(events)
    state, _ = move(state, 0, "left")
    state, events = move(state, 1, "left")  # Bob marks Europa, next to Io: a group of four
    scored = [e["card"] for e in events if e["kind"] == "expedition_scored"]
    assert scored == ["supply-chain"]
    assert state["market"] == ["outposts", "moon-survey", "wide-reach"] and state["draw_pile"] == []


def test_with_the_draw_pile_empty_the_market_shrinks() -> None:
    state = arranged(cells={"p0": CELL["neptune"], "p1": CELL["io"]}, mode="abstract",
                     market=["outposts", "corner-stations", "supply-chain"], draw_pile=[],
                     markers={0: ["p0"], 2: ["p0"]})
    state, events = move(state, 0, "up")
    assert kinds(events) == ["moved", "expedition_scored", "market_shrank"]
    assert state["market"] == ["outposts", "supply-chain"]
    assert read(GAME.describe(state, events[-1])) == "The draw pile is empty: the market shrinks."


def test_with_the_market_empty_play_goes_on_until_the_markers_end_it() -> None:
    # The last market card goes to Alice; nothing is left to complete, yet the game goes on.
    state = arranged(cells={"p0": CELL["neptune"], "p1": CELL["io"]}, mode="abstract",
                     market=["corner-stations"], draw_pile=[], markers={0: ["p0"], 2: ["p0"], 1: ["p0"], 4: ["p0"]})
    state, events = move(state, 0, "up")  # her fifth marker, and her only expedition
    assert kinds(events) == ["moved", "expedition_scored", "market_shrank"]
    assert state["market"] == [] and state["phase"] == "play" and GAME.to_act(state) == (1,)
    assert GAME.view(state, None)["market"] == []
    assert "Abstract Mode: there are no secret cards" in GAME.private_text(state, 0)
    state, events = move(state, 1, "down")
    assert kinds(events) == ["moved"]
    state, events = move(state, 0, "down")  # back onto Neptune, marking Titan: her sixth marker
    assert events[-1] == {"kind": "end_triggered", "who": "p0", "reason": "markers"}
    state, events = move(state, 1, "right")
    assert kinds(events)[-1] == "game_over"
    assert state["result"]["scores"]["p0"] == {"locations": 12, "expeditions": 4, "markers": 6, "total": 16}


def test_a_card_new_to_the_market_is_first_checked_at_the_end_of_the_next_turn() -> None:
    # Alice already holds three moons; Moon Survey arrives this turn and is hers only at the end of a later turn.
    state = arranged(cells={"p0": CELL["neptune"], "p1": CELL["mars"]}, mode="abstract",
                     market=["corner-stations", "star-crossing", "wide-reach"], draw_pile=["moon-survey"],
                     markers={0: ["p0"], 2: ["p0"], 3: ["p0"], 5: ["p0"]})
    state, events = move(state, 0, "up")
    assert [e["card"] for e in events if e["kind"] == "expedition_scored"] == ["corner-stations"]
    assert "moon-survey" in state["market"]
    state, _ = move(state, 1, "right")
    state, events = move(state, 0, "down")
    assert [e["card"] for e in events if e["kind"] == "expedition_scored"] == ["moon-survey"]


def test_abstract_private_text_ranks_the_market_by_closeness() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": 0}, mode="abstract",
                     market=["outposts", "corner-stations", "gas-giants"], draw_pile=["moon-survey"],
                     markers={2: ["p0"], 8: ["p0"]})
    text = GAME.private_text(state, 0)
    assert text.index("Corner Stations") < text.index("Outposts") < text.index("Gas Giants")
    assert "Now: 2 of 3 corners." in text
    assert [c["id"] for c in GAME.view(state, 0)["market_progress"]] == ["outposts", "corner-stations",
                                                                         "gas-giants"]
