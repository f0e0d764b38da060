"""What the public view gives the board: the action token in words as it bears on a player's turn, and the spaces
the player to move can reach."""

from __future__ import annotations

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.views import token_text


def _words(state: dict) -> list[str]:
    return [p["token_text"] for p in GAME.view(state, None)["players"]]


def test_the_token_says_nothing_before_a_first_turn_and_never_all_three_when_one_must_be_covered() -> None:
    state = GAME.setup("standard", ["A", "B", "C"], Rng(5, 0), {})
    first = state["turn"]["seat"]
    assert _words(state) == ["", "", ""]  # no "refreshed" nor "all 3 actions" before anyone moved
    assert GAME.turn_text(state).endswith("Move and Play and Gather, in any order")  # (the turn line says it)
    step = 0
    while state["turn"]["seat"] == first:  # the first player's whole first turn
        step += 1
        state = GAME.apply(state, first, GAME.legal_actions(state, first)[0], Rng(5, step)).state
    assert token_text(state, first) == "covers one next turn"
    second = state["turn"]["seat"]
    assert token_text(state, second) == ""  # a first turn: the turn line says all three
    while state["turn"]["seat"] != first:  # round the table back to the first player
        seat = state["turn"]["seat"]
        step += 1
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], Rng(5, step)).state
    assert state["turn"]["phase"] == "start"
    assert token_text(state, first) == "covers one this turn"  # must cover one now: not "all 3 actions"
    assert GAME.turn_text(state).endswith(": choose an action to cover")  # and no "or refresh": it is not legal
    assert not any(a["type"] == "refresh" for a in GAME.legal_actions(state, first))
    state = GAME.apply(state, first, {"type": "cover", "action": "gather"}, Rng(5, step + 1)).state
    assert token_text(state, first) == "Gather covered"


def test_a_refresh_reads_as_all_three_next_turn() -> None:
    state = GAME.setup("standard", ["A", "B"], Rng(9, 0), {})
    seat = state["turn"]["seat"]
    state["players"][seat]["token"] = "move"
    state["turn"]["phase"] = "start"
    state["turns_taken"] = 2
    state = GAME.apply(state, seat, {"type": "refresh"}, Rng(9, 1)).state
    assert token_text(state, seat) == "refreshed: all 3 next turn"
    state["over"] = True
    assert token_text(state, seat) == ""  # the game is over: there is no next turn to speak of


def test_the_reachable_spaces_are_the_legal_moves_while_the_move_is_to_take() -> None:
    state = GAME.setup("standard", ["A", "B"], Rng(3, 0), {})
    seat = state["turn"]["seat"]
    view = GAME.view(state, None)
    moves = sorted(a["space"] for a in GAME.legal_actions(state, seat) if a["type"] == "move")
    assert moves and sorted(view["reachable"]) == moves
    move = next(a for a in GAME.legal_actions(state, seat) if a["type"] == "move")
    state = GAME.apply(state, seat, move, Rng(3, 1)).state
    assert GAME.view(state, None)["reachable"] == []  # the move is taken (or a choice is pending)
