"""The Expedition's rules, each with an exact expected outcome: setup, movement, location rules, marking, the end."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from bot.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from bot.core.rng import Rng
from bot.games.the_expedition import TheExpedition
from bot.games.the_expedition.rules import rules
from tests.reading import read

from .helpers import CELL, GAME, arranged, kinds, move, owners

CATALOG = GAME.catalog


# --- setup -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_placement_is_counter_clockwise_from_a_random_player_and_the_last_to_place_moves_first(seed: int) -> None:
    state = GAME.setup("standard", ["A", "B", "C"], Rng(seed, 0), {})
    first = state["placement"][0]
    assert state["placement"] == [first, (first - 1) % 3, (first - 2) % 3]
    last = state["placement"][-1]
    assert state["order"] == [f"p{last}", f"p{(last + 1) % 3}", f"p{(last + 2) % 3}"]
    for index, seat in enumerate(state["placement"]):
        assert GAME.to_act(state) == (seat,)
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], Rng(seed, index + 1)).state
    assert state["phase"] == "play"
    assert GAME.to_act(state) == (last,)


def test_the_last_placement_says_who_moves_first() -> None:
    state = GAME.setup("standard", ["Ann", "Ben", "Cy"], Rng(4, 0), {})
    names = ["Ann", "Ben", "Cy"]
    for index, seat in enumerate(state["placement"]):
        applied = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], Rng(4, index + 1))
        state = applied.state
        text = read(GAME.describe(state, applied.events[0]))
        last = index == len(state["placement"]) - 1
        assert text.endswith(f"{names[seat]} placed last, so {names[seat]} moves first; then play goes clockwise.") \
            is last
    assert read(GAME.turn_text(state)) == f"{names[state['placement'][-1]]} to move"


def test_the_first_placer_is_random() -> None:
    firsts = {GAME.setup("standard", ["A", "B", "C"], Rng(seed, 0), {})["placement"][0] for seed in range(40)}
    assert firsts == {0, 1, 2}


def test_deal_three_secret_cards_each_and_shuffle_the_grid() -> None:
    state = GAME.setup("standard", ["A", "B"], Rng(3, 0), {})
    hands = [p["hand"] for p in state["players"]]
    assert [len(h) for h in hands] == [3, 3]
    assert len(state["undealt"]) == 3
    assert sorted(hands[0] + hands[1] + state["undealt"]) == sorted(c.id for c in CATALOG.expeditions)
    assert sorted(state["grid"]) == sorted(loc.id for loc in CATALOG.locations)
    three = GAME.setup("standard", ["A", "B", "C"], Rng(3, 0), {})
    assert three["undealt"] == [] and all(len(p["hand"]) == 3 for p in three["players"])


def test_placement_goes_onto_empty_locations_only() -> None:
    state = GAME.setup("standard", ["A", "B"], Rng(5, 0), {})
    first = state["placement"][0]
    target = state["grid"][4]
    state = GAME.apply(state, first, {"type": "place", "location": target}, Rng(5, 1)).state
    second = state["placement"][1]
    with pytest.raises(IllegalAction, match="already has an explorer"):
        GAME.apply(state, second, {"type": "place", "location": target}, Rng(5, 2))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, first, {"type": "place", "location": state["grid"][0]}, Rng(5, 2))
    with pytest.raises(MalformedAction, match="no location called 'Pluto'"):
        GAME.apply(state, second, {"type": "place", "location": "Pluto"}, Rng(5, 2))
    assert len(GAME.legal_actions(state, second)) == 8
    name = CATALOG.location(state["grid"][0]).name.upper()  # a printed name in any case works too
    placed = GAME.apply(state, second, {"type": "place", "location": name}, Rng(5, 2)).state
    assert rules.participant(placed, f"p{second}")["cell"] == 0


def test_moving_during_setup_and_placing_during_play_are_refused() -> None:
    state = GAME.setup("standard", ["A", "B"], Rng(5, 0), {})
    seat = state["placement"][0]
    with pytest.raises(IllegalAction, match=r"Setup first: place your explorer with /explore place .*Empty "
                                            r"locations: (\w+, ){8}\w+\."):
        GAME.apply(state, seat, {"type": "move", "direction": "up"}, Rng(5, 1))
    playing = arranged(cells={"p0": 4, "p1": 0})
    with pytest.raises(IllegalAction, match=r"only during setup; now you move one step with /explore move .* "
                                            r"Your legal moves: down to Jupiter, left to Io, right to Titan\."):
        GAME.apply(playing, 0, {"type": "place", "location": "luna"}, Rng(5, 1))


# --- movement ----------------------------------------------------------------------------------------------------


def test_a_step_marks_the_location_left_and_explorers_may_share() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": CELL["titan"]})
    state, events = move(state, 0, "right")
    assert rules.participant(state, "p0")["cell"] == CELL["titan"]  # shared with Bob after setup
    assert owners(state, "europa") == ["p0"]
    assert events[0] == {"kind": "moved", "who": "p0", "direction": "right", "from_cell": 4, "to_cell": 5,
                         "from_location": "europa", "to_location": "titan", "marked": True, "removed": []}
    assert rules.markers_left(state, CATALOG, "p0") == 5
    assert GAME.to_act(state) == (1,)


def test_steps_off_the_grid_and_diagonals_elsewhere_are_refused() -> None:
    state = arranged(cells={"p0": CELL["luna"], "p1": CELL["neptune"]})
    assert [a["direction"] for a in GAME.legal_actions(state, 0)] == ["down", "right"]
    with pytest.raises(IllegalAction, match=r"leaves the grid\. Legal moves now: down \(to Io\), right"):
        move(state, 0, "up")
    with pytest.raises(IllegalAction, match="diagonally only"):
        move(state, 0, "down-right")
    with pytest.raises(MalformedAction, match="needs a direction"):
        GAME.apply(state, 0, {"type": "move", "direction": "north"}, Rng(0, 1))
    with pytest.raises(MalformedAction, match="needs a direction"):
        GAME.apply(state, 0, {"type": "move"}, Rng(0, 1))


def test_io_allows_leaving_diagonally_but_saturn_still_cannot_be_entered_from_below() -> None:
    state = arranged(cells={"p0": CELL["io"], "p1": CELL["neptune"]})
    directions = [a["direction"] for a in GAME.legal_actions(state, 0)]
    assert directions == ["up", "down", "right", "down-right"]  # up-right would enter Saturn from below
    with pytest.raises(IllegalAction, match="Saturn can't be entered from below"):
        move(state, 0, "up-right")
    state, _ = move(state, 0, "down-right")
    assert rules.participant(state, "p0")["cell"] == CELL["jupiter"]
    assert owners(state, "io") == ["p0"]


def test_saturn_cannot_be_entered_from_below_but_from_the_sides() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": CELL["luna"]})
    with pytest.raises(IllegalAction, match=r"Saturn can't be entered from below \(Can't be entered from below.\)"):
        move(state, 0, "up")
    state, _ = move(state, 0, "left")
    state, _ = move(state, 1, "right")  # from Luna, the left side
    assert rules.participant(state, "p1")["cell"] == CELL["saturn"]


def test_jupiter_holds_an_arriving_explorer_for_its_next_turn() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": CELL["luna"]})
    state, events = move(state, 0, "down")
    assert events[0]["held"] is True
    state, events = move(state, 1, "right")
    # Alice's turn comes round: she has no legal step, stays put, places no marker, and Bob is to move again.
    assert kinds(events) == ["moved", "stayed"]
    assert events[1] == {"kind": "stayed", "who": "p0", "reason": "gravity"}
    assert rules.participant(state, "p0")["cell"] == CELL["jupiter"]
    assert owners(state, "jupiter") == []
    assert GAME.to_act(state) == (1,)
    state, _ = move(state, 1, "right")
    assert [a["direction"] for a in GAME.legal_actions(state, 0)] == ["up", "left", "right"]
    state, _ = move(state, 0, "left")
    assert owners(state, "jupiter") == ["p0"]


def test_placing_on_jupiter_does_not_hold() -> None:
    state = GAME.setup("standard", ["A", "B"], Rng(2, 0), {})
    jupiter = state["grid"].index("jupiter")
    first, second = state["placement"]
    state = GAME.apply(state, first, {"type": "place", "location": "jupiter"}, Rng(2, 1)).state
    other = next(c for c in range(9) if c != jupiter)
    state = GAME.apply(state, second, {"type": "place", "location": state["grid"][other]}, Rng(2, 2)).state
    assert not rules.participant(state, f"p{first}")["held"]


# --- marking -----------------------------------------------------------------------------------------------------


def test_marking_removes_every_other_marker_and_returns_it() -> None:
    state = arranged(("Alice", "Bob", "Cleo"), cells={"p0": CELL["europa"], "p1": 0, "p2": 2},
                     markers={CELL["europa"]: ["p1", "p2"]})
    assert rules.markers_left(state, CATALOG, "p1") == 5
    state, events = move(state, 0, "right")
    assert owners(state, "europa") == ["p0"]
    assert events[0]["removed"] == ["p1", "p2"]
    assert rules.markers_left(state, CATALOG, "p1") == 6
    assert rules.markers_left(state, CATALOG, "p2") == 6


def test_marking_where_you_already_have_a_marker_places_no_new_one() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": 0}, markers={CELL["europa"]: ["p0"]})
    state, events = move(state, 0, "right")
    assert events[0]["marked"] is False
    assert rules.markers_left(state, CATALOG, "p0") == 5
    assert read(GAME.describe(state, events[0])).endswith("(their marker was already there).")


def test_luna_markers_are_never_removed() -> None:
    state = arranged(("Alice", "Bob", "Cleo"), cells={"p0": CELL["luna"], "p1": 8, "p2": 8},
                     markers={CELL["luna"]: ["p1", "p2"]})
    state, events = move(state, 0, "right")
    assert owners(state, "luna") == ["p1", "p2", "p0"]
    assert events[0]["removed"] == []


def test_titan_keeps_the_two_newest_markers() -> None:
    state = arranged(("Alice", "Bob", "Cleo"), cells={"p0": CELL["titan"], "p1": 0, "p2": 2},
                     markers={CELL["titan"]: ["p1", "p2"]})
    state, events = move(state, 0, "up")
    assert owners(state, "titan") == ["p2", "p0"]
    assert events[0]["removed"] == ["p1"]
    # Re-marking your own marker makes it the newest, so the other one goes next.
    state = arranged(("Alice", "Bob", "Cleo"), cells={"p0": CELL["titan"], "p1": 0, "p2": 2},
                     markers={CELL["titan"]: ["p0", "p1"]})
    state, events = move(state, 0, "up")
    assert owners(state, "titan") == ["p1", "p0"]
    assert events[0] == {**events[0], "marked": False, "removed": []}


# --- expeditions -------------------------------------------------------------------------------------------------


def test_an_expedition_is_scored_at_the_end_of_the_turn_and_revealed() -> None:
    # Alice holds two corners (Luna, Mercury); stepping off Neptune marks a third.
    state = arranged(cells={"p0": CELL["neptune"], "p1": CELL["europa"]},
                     markers={CELL["luna"]: ["p0"], CELL["mercury"]: ["p0"]},
                     hands={"p0": ["corner-stations", "moon-survey"], "p1": ["wide-reach"]})
    public = GAME.view(state, None)
    assert "corner-stations" not in str(public) and "Corner Stations" not in str(public)
    state, events = move(state, 0, "up")
    assert kinds(events) == ["moved", "expedition_scored"]
    assert events[1] == {"kind": "expedition_scored", "who": "p0", "card": "corner-stations", "points": 4,
                         "source": "hand"}
    assert rules.participant(state, "p0")["hand"] == ["moon-survey"]
    public = GAME.view(state, None)
    assert public["participants"][0]["scored"][0]["name"] == "Corner Stations"
    assert "moon-survey" not in str(public) and "wide-reach" not in str(public)
    assert read(GAME.describe(state, events[1])) == ("Alice completed the expedition Corner Stations (Markers in three "
                                               "corners.) for 4 points.")


def test_only_the_active_players_cards_are_checked() -> None:
    # Bob's markers already meet Supply Chain, but it is checked only at the end of one of Bob's own turns.
    state = arranged(cells={"p0": CELL["europa"], "p1": CELL["neptune"]},
                     markers={0: ["p1"], 1: ["p1"], 2: ["p1"], 5: ["p1"]}, hands={"p1": ["supply-chain"]})
    state, events = move(state, 0, "left")
    assert "expedition_scored" not in kinds(events)
    state, events = move(state, 1, "left")
    assert [e["card"] for e in events if e["kind"] == "expedition_scored"] == ["supply-chain"]


def test_a_condition_met_once_stays_scored_after_its_markers_are_removed() -> None:
    # Alice completes Corner Stations (Luna, Mercury, Neptune); Bob then removes her Mercury marker.
    state = arranged(cells={"p0": CELL["neptune"], "p1": CELL["mercury"]},
                     markers={CELL["luna"]: ["p0"], CELL["mercury"]: ["p0"]}, hands={"p0": ["corner-stations"]})
    state, events = move(state, 0, "up")
    assert [e["card"] for e in events if e["kind"] == "expedition_scored"] == ["corner-stations"]
    state, events = move(state, 1, "down")
    assert events[0]["removed"] == ["p0"] and owners(state, "mercury") == ["p1"]
    assert rules.final_scores(state, CATALOG)["p0"] == {"locations": 4, "expeditions": 4, "markers": 2, "total": 8}
    assert rules.participant(state, "p0")["scored"] == ["corner-stations"]
    assert rules.participant(state, "p0")["hand"] == []  # it can never be scored a second time
    state, events = move(state, 0, "down")
    assert "expedition_scored" not in kinds(events)


# --- the end -----------------------------------------------------------------------------------------------------


def test_two_expeditions_trigger_the_end_and_everyone_else_gets_one_final_turn() -> None:
    state = arranged(("Alice", "Bob", "Cleo"), cells={"p0": CELL["neptune"], "p1": CELL["europa"], "p2": 4},
                     markers={0: ["p0"], 2: ["p0"], 5: ["p0"]},
                     hands={"p0": ["corner-stations", "straight-route", "outposts"]})
    state["players"][0]["scored"] = ["gas-giants"]  # a first expedition completed earlier
    state["players"][0]["hand"] = ["corner-stations", "outposts"]
    state, events = move(state, 0, "up")
    assert kinds(events) == ["moved", "expedition_scored", "end_triggered"]
    assert events[-1] == {"kind": "end_triggered", "who": "p0", "reason": "expeditions", "count": 2}
    assert state["end"] == {"by": "p0", "reason": "expeditions", "final_turns_left": 2, "count": 2}
    assert read(GAME.turn_text(state)) == "Bob to move (final turn)"
    state, events = move(state, 1, "left")
    assert GAME.outcome(state) is None
    state, events = move(state, 2, "left")
    assert kinds(events)[-1] == "game_over"
    assert GAME.to_act(state) == ()
    with pytest.raises(GameOver):
        move(state, 0, "up")
    outcome = GAME.outcome(state)
    assert outcome is not None
    # Alice: Luna 1 + Mercury 1 + Titan 2 + Neptune 3 = 7 from locations; 3 + 4 from expeditions.
    assert outcome.scores[0] == 14
    assert "Alice completed 2 expeditions and then every other explorer had a final turn" in read(outcome.summary)


def test_when_the_second_player_triggers_the_end_the_third_and_then_the_first_get_their_final_turns() -> None:
    state = arranged(("Alice", "Bob", "Cleo"), cells={"p0": CELL["luna"], "p1": CELL["europa"], "p2": CELL["mars"]},
                     markers={0: ["p1"], 1: ["p1"], 2: ["p1"], 3: ["p1"], 8: ["p1"]})
    state, _ = move(state, 0, "right")
    state, events = move(state, 1, "right")  # Bob's sixth marker, on Europa
    assert events[-1] == {"kind": "end_triggered", "who": "p1", "reason": "markers"}
    assert GAME.to_act(state) == (2,) and read(GAME.turn_text(state)) == "Cleo to move (final turn)"
    state, events = move(state, 2, "up")
    assert GAME.to_act(state) == (0,) and state["phase"] == "play"
    state, events = move(state, 0, "down")
    assert kinds(events)[-1] == "game_over" and GAME.to_act(state) == ()
    assert state["turns"] == 4  # Bob never moved again


def test_placing_all_markers_triggers_the_end() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": CELL["luna"]},
                     markers={0: ["p0"], 1: ["p0"], 2: ["p0"], 3: ["p0"], 8: ["p0"]})
    state, events = move(state, 0, "right")
    assert events[-1] == {"kind": "end_triggered", "who": "p0", "reason": "markers"}
    state, events = move(state, 1, "down")
    assert kinds(events)[-2:] == ["moved", "game_over"]
    assert state["result"]["reason"] == "final_turns"


def _finished(scores: dict[str, tuple[int, int, int]]) -> tuple[list[str], str]:
    """Winners and summary for given (locations, expeditions, markers) per player, via the real scoring."""
    state = arranged(("Alice", "Bob", "Cleo")[: len(scores)], cells={pid: 4 for pid in scores})
    fake = {pid: {"locations": loc, "expeditions": exp, "markers": markers, "total": loc + exp}
            for pid, (loc, exp, markers) in scores.items()}
    winners = rules.winners_of(fake)
    state["phase"] = "over"
    state["result"] = {"reason": "final_turns", "scores": fake, "winners": winners}
    outcome = GAME.outcome(state)
    assert outcome is not None
    return winners, read(outcome.summary)


def test_tie_breaks_most_points_then_most_markers_then_expedition_points_then_shared() -> None:
    assert _finished({"p0": (9, 3, 4), "p1": (8, 3, 6)})[0] == ["p0"]
    winners, text = _finished({"p0": (9, 3, 4), "p1": (8, 4, 5)})
    assert winners == ["p1"] and "Bob wins on the tie-break: most markers on the grid" in read(text)
    winners, text = _finished({"p0": (9, 3, 5), "p1": (8, 4, 5)})
    assert winners == ["p1"] and "most expedition points" in text
    winners, text = _finished({"p0": (9, 3, 5), "p1": (9, 3, 5), "p2": (6, 3, 5)})
    assert winners == ["p0", "p1"] and text.startswith("Alice and Bob share the win")


def test_final_scores_count_locations_with_your_marker_plus_expeditions() -> None:
    state = arranged(cells={"p0": 4, "p1": 4}, markers={CELL["luna"]: ["p1", "p0"], CELL["neptune"]: ["p0"],
                                                        CELL["titan"]: ["p1"]})
    state["players"][0]["scored"] = ["supply-chain"]
    scores = rules.final_scores(state, CATALOG)
    assert scores["p0"] == {"locations": 4, "expeditions": 2, "markers": 2, "total": 6}
    assert scores["p1"] == {"locations": 3, "expeditions": 0, "markers": 2, "total": 3}


# --- protocol details --------------------------------------------------------------------------------------------


def test_apply_never_mutates_its_input_and_checks_the_seat() -> None:
    state = arranged(cells={"p0": 4, "p1": 0})
    before = copy.deepcopy(state)
    move(state, 0, "down")
    assert state == before
    with pytest.raises(NotYourTurn, match="It is Alice's turn"):
        move(state, 1, "down")
    with pytest.raises(MalformedAction):
        GAME.apply(state, 0, {"type": "jump"}, Rng(0, 1))
    with pytest.raises(MalformedAction):
        GAME.apply(state, 0, "up", Rng(0, 1))  # type: ignore[arg-type]


def test_quick_actions_offer_exactly_the_legal_moves() -> None:
    state = arranged(cells={"p0": CELL["io"], "p1": 8})
    buttons = GAME.quick_actions(state, 0)
    assert [(b.label, b.emoji, b.row) for b in buttons] == [
        ("Up: Luna", "⬆️", 0), ("Down: Mars", "⬇️", 0), ("Right: Europa", "➡️", 0), ("Down-right: Jupiter", "↘️", 1)]
    assert [b.action for b in buttons] == GAME.legal_actions(state, 0)
    assert GAME.quick_actions(state, 1) == []
    setup = GAME.setup("standard", ["A", "B", "C"], Rng(9, 0), {})
    seat = GAME.to_act(setup)[0]
    placement = GAME.quick_actions(setup, seat)
    assert len(placement) == 9 and all(b.action["type"] == "place" for b in placement)
    assert max(b.row or 0 for b in placement) == 1 and all(len(b.label) < 80 for b in placement)


def test_private_text_lists_the_hand_and_how_close_each_card_is() -> None:
    state = arranged(cells={"p0": CELL["europa"], "p1": 0},
                     markers={CELL["luna"]: ["p0"], CELL["mercury"]: ["p0"], CELL["saturn"]: ["p0"]},
                     hands={"p0": ["corner-stations", "gas-giants", "wide-reach"], "p1": ["outposts"]})
    text = GAME.private_text(state, 0)
    assert "**Corner Stations** (4 pts): Markers in three corners. Now: 2 of 3 corners." in text
    assert "**Gas Giants** (3 pts): Markers on Jupiter and Saturn. Now: 1 of 2 (have Saturn; missing Jupiter)." in text
    assert "Markers left: 3 of 6." in text
    assert "Your legal moves: up to Saturn" not in text  # Saturn can't be entered from below
    assert "Your legal moves: down to Jupiter, left to Io, right to Titan." in text
    assert "Outposts" not in text
    view = GAME.view(state, 0)
    assert [c["id"] for c in view["hand"]] == ["corner-stations", "gas-giants", "wide-reach"]
    assert view["hand"][0]["progress"] == [{"have": 2, "need": 3, "text": "2 of 3 corners", "met": False,
                                            "words": {"message": "expedition.progress.corners",
                                                      "values": {"have": 2, "count": 3}}}]
    assert "hand" not in GAME.view(state, None)


def test_rules_text_carries_the_rulings_for_each_mode() -> None:
    standard = GAME.rules_text("standard")
    assert "A player with no legal step stays put, places no marker, and the turn passes." in standard
    assert "Jupiter (planet, 3 pts): Can't be left the turn after arriving." in standard
    assert "9 rounds" in GAME.rules_text("solo") and "only your expedition points" in GAME.rules_text("solo-hard")
    assert "the market shrinks" in GAME.rules_text("abstract")


def test_if_edited_locations_wall_every_explorer_in_the_game_ends() -> None:
    """Unreachable with the shipped tiles (one entry restriction, one side); edited ones could block everyone."""
    walled = tuple(dataclasses.replace(loc, no_entry_from=("above", "below", "left", "right"))
                   for loc in CATALOG.locations)
    game = TheExpedition(dataclasses.replace(CATALOG, locations=walled))
    state = game.setup("standard", ["Alice", "Bob"], Rng(1, 0), {})
    for step_number, seat in enumerate(state["placement"], start=1):
        state = game.apply(state, seat, game.legal_actions(state, seat)[0], Rng(1, step_number)).state
    assert state["phase"] == "over" and state["result"]["reason"] == "stuck"
    assert [e["kind"] for e in state["last_events"]].count("stayed") == 4
    assert "no explorer could move any more" in str(game.outcome(state).summary)
