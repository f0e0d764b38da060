"""The turn (cover, refresh, any order, first turn with all three) and the Move action."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction, NotYourTurn
from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.board import BASECAMP

from .helpers import act, code_of, fresh, give, options


def test_the_first_turn_takes_all_three_actions_in_any_order() -> None:
    state = fresh()
    kinds = {a["type"] for a in GAME.legal_actions(state, 0)}
    assert kinds == {"move", "play", "gather"}
    assert state["players"][0]["token"] == "all"
    state = act(state, {"type": "gather"})  # at the basecamp: nothing to gather, but the action is taken
    assert state["turn"]["remaining"] == ["move", "play"]


def test_only_the_seat_to_act_may_act() -> None:
    state = fresh()
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, {"type": "gather"}, Rng(1, 1))


def finish_turn(state: dict) -> dict:
    """Take the remaining actions simply: gather, move to the first destination, play and be done."""
    while GAME.to_act(state) == (state["turn"]["seat"],) and state["turn"]["phase"] == "actions":
        seat = state["turn"]["seat"]
        legal = GAME.legal_actions(state, seat)
        skip = next((a for a in legal if a.get("option") in ("skip", "done", "stop", "confirm")), None)
        state = act(state, skip or legal[0])
        if state["turn"]["seat"] != seat:
            break
    return state


def test_the_token_must_cover_a_different_action_each_turn() -> None:
    state = fresh(1)
    state["players"][0]["token"] = "move"
    state["turn"].update({"phase": "start", "remaining": []})
    legal = GAME.legal_actions(state, 0)
    assert {"type": "cover", "action": "move"} not in legal
    assert {"type": "cover", "action": "play"} in legal and {"type": "refresh"} in legal
    with pytest.raises(IllegalAction, match="other than move"):
        act(state, {"type": "cover", "action": "move"})
    state = act(state, {"type": "cover", "action": "play"})
    assert state["turn"]["remaining"] == ["move", "gather"]
    assert state["players"][0]["token"] == "play"


def test_actions_skip_is_an_alias_of_cover() -> None:
    state = fresh(1)
    state["players"][0]["token"] = "move"
    state["turn"].update({"phase": "start", "remaining": []})
    state = act(state, {"type": "skip", "action": "gather"})
    assert state["turn"]["remaining"] == ["move", "play"]


def test_refresh_returns_cards_and_workers_and_the_next_turn_takes_all_three() -> None:
    state = fresh(1)
    player = state["players"][0]
    player["active"] = [{"card": player["hand"].pop(), "worker": None}]
    colour = next(c for c, n in player["workers"].items() if n)
    player["workers"][colour] -= 1
    player["active"].append({"card": player["hand"].pop(), "worker": colour})
    player["token"] = "gather"
    state["turn"].update({"phase": "start", "remaining": []})
    state = act(state, {"type": "refresh"})
    player = state["players"][0]
    assert len(player["hand"]) == 2 and player["active"] == [] and sum(player["workers"].values()) == 2
    assert player["token"] == "all"  # solo: the next turn is already under way, with all three actions
    assert state["turn"]["remaining"] == ["move", "play", "gather"]


def test_play_with_an_empty_hand_is_skipped_and_the_turn_ends() -> None:
    state = fresh(2)
    state["players"][0]["hand"] = []
    state["turn"]["remaining"] = ["play", "gather"]
    state = act(state, {"type": "gather"})
    assert state["turn"]["seat"] == 1


def test_the_first_move_starts_from_the_basecamp_links_and_never_returns() -> None:
    state = fresh(1)
    moves = [a["space"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"]
    assert BASECAMP not in moves
    assert set(state["spaces"]) >= set(moves)
    assert {"a5", "b5", "c5"} <= set(moves)
    assert "e5" not in moves  # e5 is not linked and the card space d5 walls it off within range


def reveal_all(state: dict) -> None:
    for space in state["spaces"].values():
        space["revealed"] = True
        space["map_token"] = False


def test_range_is_one_to_three_and_card_spaces_block() -> None:
    state = fresh(1)
    reveal_all(state)
    state["players"][0]["at"] = "e5"
    moves = {a["space"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"}
    # e5's neighbours: d5 (cards), e4, d4 (odd-r layout); three steps reach no further than this set.
    assert moves == {"e4", "d4", "e3", "d3", "c3", "e2", "c2"}


def test_mechs_may_be_passed_but_not_shared() -> None:
    state = fresh(2)
    reveal_all(state)
    state["players"][0]["at"] = "e5"
    state["players"][1]["at"] = "e4"
    moves = {a["space"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"}
    assert "e4" not in moves and "e3" in moves


def test_entering_a_face_down_location_ends_the_move_and_reveals_it() -> None:
    state = fresh(1)
    reveal_all(state)
    state["spaces"]["d4"].update({"revealed": False, "map_token": True})
    state["spaces"]["e4"].update({"revealed": False, "map_token": True})
    state["players"][0]["at"] = "e5"
    moves = {a["space"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"}
    assert moves == {"e4", "d4"}  # both face down: the move stops on entering either
    tile = state["spaces"]["d4"]["tile"]
    value = GAME.comp.locations[tile].corruption
    state["bag"] = [{"id": f"power-2-{i}", "colour": "power", "value": 2} for i in range(6)]
    state = act(state, {"type": "move", "space": "d4"})
    space = state["spaces"]["d4"]
    assert space["revealed"] and not space["map_token"]
    assert state["players"][0]["map_tokens"] == 1
    drawn = sum(t["value"] for t in space["corruption"])
    assert drawn >= value and drawn - 2 < value  # drew one at a time until the total reached the value


def test_location_20_takes_the_20_token_and_an_empty_bag_exposes_the_benefit() -> None:
    state = fresh(1)
    reveal_all(state)
    code20 = code_of(state, 20)
    state["spaces"][code20].update({"revealed": False, "map_token": True})
    from bot.games.expeditions.rules.engine import Engine

    from .helpers import COMP

    engine = Engine(COMP, state, Rng(1, 1))
    engine.reveal(code20)
    assert [t["id"] for t in state["spaces"][code20]["corruption"]] == ["token20"]
    assert state["reserve"] == []
    other = next(c for c, s in state["spaces"].items() if COMP.locations[s["tile"]].region == "N" and c != code20)
    state["spaces"][other]["revealed"] = False
    state["bag"] = []
    engine.reveal(other)
    assert state["spaces"][other]["corruption"] == []
    view = GAME.view(state, None)
    entry = next(s for s in view["map"]["spaces"] if s["code"] == other)
    assert entry["cleared_exposed"] is True


def test_stay_is_offered_only_when_nothing_is_reachable() -> None:
    state = fresh(1)
    reveal_all(state)
    state["players"][0]["at"] = "e5"
    for code in state["spaces"]:
        if code != "e5":
            state["players"].append({**state["players"][0], "name": code, "at": code})
    moves = [a for a in GAME.legal_actions(state, 0) if a["type"] == "move"]
    assert moves == [{"type": "move", "space": "stay"}]
    state = act(state, {"type": "move", "space": "stay"})
    assert state["players"][0]["at"] == "e5" and "move" not in state["turn"]["remaining"]


def test_move_accepts_a_revealed_location_number() -> None:
    state = fresh(1)
    tile = state["spaces"]["a5"]["tile"]
    state = act(state, {"type": "move", "location": tile})
    assert state["players"][0]["at"] == "a5"
    assert options(state) == []


def test_a_card_in_hand_can_be_given_for_setup_checks() -> None:
    state = fresh(1)
    give(state, 0, "it-compass")
    assert "it-compass" in state["players"][0]["hand"]


def test_the_turn_after_an_all_three_turn_covers_an_action_and_may_not_refresh() -> None:
    """Issue 10's repro: 2 players, seed 9; seat 1 takes all three, then seat 0, then seat 1 may not refresh."""
    state = GAME.setup("standard", ["P0", "P1"], Rng(9, 0), {})
    first = state["turn"]["seat"]
    state = finish_turn(state)
    second = state["turn"]["seat"]
    assert second != first
    state = finish_turn(state)
    assert state["turn"]["seat"] == first and state["turn"]["phase"] == "start"
    assert state["players"][first]["token"] == "all"
    legal = [a for a in GAME.legal_actions(state, first) if a["type"] != "odin"]  # Odin's Wrath is any time
    assert legal == [{"type": "cover", "action": a} for a in ("move", "play", "gather")]
    with pytest.raises(IllegalAction, match="^Your last turn took all three actions, so this turn your token must "
                                            r"cover Move, Play or Gather \(/mech actions skip:...\); you may refresh "
                                            "again from your next turn.$"):
        act(state, {"type": "refresh"})
    state = finish_turn(act(state, {"type": "cover", "action": "play"}))
    assert state["turn"]["seat"] == second
    state = finish_turn(act(state, {"type": "cover", "action": "move"}))
    assert state["turn"]["seat"] == first and state["players"][first]["token"] == "play"
    assert {"type": "refresh"} in GAME.legal_actions(state, first)  # from a Move/Play/Gather box it may
