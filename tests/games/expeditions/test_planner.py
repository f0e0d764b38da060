"""The turn planner: it decides from what its seat can see, values quests and the 20 token below what solving or
vanquishing brings (so it never keeps them for later), and places a star when it can."""

from __future__ import annotations

import random

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules import policies as p

from .helpers import COMP, fresh, give, in_actions, place


def _hidden(state: dict) -> tuple[list[str], dict[str, int]]:
    return state["deck"], {c: s["tile"] for c, s in state["spaces"].items() if not s["revealed"]}


def test_the_seat_view_redraws_only_what_no_seat_can_see() -> None:
    state = fresh(2)
    guess = p.seat_view(COMP, state, random.Random(1))
    deck, tiles = _hidden(state)
    guessed_deck, guessed_tiles = _hidden(guess)
    assert sorted(guessed_deck) == sorted(deck) and guessed_deck != deck
    assert guessed_tiles.keys() == tiles.keys() and guessed_tiles != tiles
    for code, tile in guessed_tiles.items():  # a face-down tile stays in its region
        assert COMP.locations[tile].region == COMP.locations[tiles[code]].region
    for key in ("players", "face_up", "bag", "glory", "turn"):
        assert guess[key] == state[key]


def test_the_plan_does_not_depend_on_the_deck_order_or_face_down_tiles() -> None:
    state = fresh(3, seed=4)
    other = GAME.setup("standard", ["P0", "P1", "P2"], Rng(4, 0), {})
    other.update({k: state[k] for k in ("players", "turn", "face_up")})
    random.Random(9).shuffle(other["deck"])
    north = [code for code, space in other["spaces"].items() if COMP.locations[space["tile"]].region == "N"]
    first_tile = other["spaces"][north[0]]["tile"]
    other["spaces"][north[0]]["tile"] = other["spaces"][north[1]]["tile"]
    other["spaces"][north[1]]["tile"] = first_tile
    assert _hidden(other) != _hidden(state)
    first = p.planned_action(GAME, state, 0, random.Random(5))
    assert p.planned_action(GAME, other, 0, random.Random(5)) == first


def test_a_held_quest_is_worth_less_than_solving_it() -> None:
    state = in_actions(fresh(1))
    give(state, 0, "qu-02", "hand")  # location 2: 2 guile, reward $3 and a blue worker
    place(state, 0, 2)
    state["players"][0]["guile"] = 2
    held = p.planner_estimate(COMP, state, 0)
    assert p.held_quests_value(COMP, state, 0) > 0
    solved = GAME.apply(in_actions(state, ("play",)), 0, {"type": "play", "card": "qu-02"}, Rng(1, 1)).state
    solved = GAME.apply(solved, 0, {"type": "choose", "option": "activate"}, Rng(1, 2)).state
    solved = GAME.apply(solved, 0, {"type": "choose", "option": "card:qu-02"}, Rng(1, 3)).state
    assert solved["players"][0]["quests"] == ["qu-02"]
    assert p.planner_estimate(COMP, solved, 0) > held


def test_the_20_token_is_out_of_reach_once_another_player_holds_it() -> None:
    state = fresh(2)
    state["players"][0].update(power=10, guile=10)
    assert p.goal_progress(COMP, state, 0, "token20") > 0.5
    state["players"][1]["corruption"].append(state["reserve"].pop())
    assert p.goal_progress(COMP, state, 0, "token20") == 0.0


def test_the_planner_places_a_star_when_it_can() -> None:
    state = in_actions(fresh(1))
    state["players"][0].update(map_tokens=5, stars=3)
    state["glory"].update(corruption=[0], cards=[0], melds=[0])
    place(state, 0, 19)  # Moon Orchard: boast, $1
    state = GAME.apply(state, 0, {"type": "gather"}, Rng(1, 1)).state
    assert state["turn"]["pending"]["kind"] == "boast"
    assert p.planned_action(GAME, state, 0, random.Random(1)) == {"type": "choose", "option": "glory:workers"}
