"""Issue 10's Expeditions text defects: no "gains 0 power", decisions in plain words, a repeated sentence said once,
and every player's score in the result; names typed in any case or without accents are found."""

from __future__ import annotations

import pytest

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.game import _without_repeats
from tests.reading import read

from .helpers import act, fresh, give


def test_a_gain_of_nothing_says_why_instead_of_gains_zero() -> None:
    state = fresh()
    assert read(GAME.describe(state, {"kind": "gained", "seat": 0, "what": "power", "n": 0})) == \
        "P0 is already at 10 power: nothing gained."
    assert read(GAME.describe(state, {"kind": "gained", "seat": 1, "what": "map_token", "n": 0})) == \
        "P1 gains no map token: the supply is empty."
    assert read(GAME.describe(state, {"kind": "gained", "seat": 0, "what": "power", "n": 2})) == "P0 gains 2 power."


def test_decisions_with_no_option_or_declined_are_not_told() -> None:
    """Nothing happened: "has no item to upgrade" or "chooses not to vanquish" would only pad a turn's story."""
    state = fresh()
    for kind, decision in (("no_choice", "upgrade"), ("no_choice", "solve"), ("no_choice", "boast"),
                           ("skipped", "activate_adjacent"), ("skipped", "vanquish")):
        assert read(GAME.describe(state, {"kind": kind, "seat": 0, "decision": decision})) == ""


def test_a_sentence_repeated_in_a_row_is_said_once_with_a_count() -> None:
    assert _without_repeats(["P0 has no item to upgrade.", "P0 has no item to upgrade.", "P0 gains $1.",
                             "P0 gains $1.", "P0 gains $1.", "P0 has no item to upgrade."]) == [
        "P0 has no item to upgrade (twice).", "P0 gains $1 (3 times).", "P0 has no item to upgrade."]


def test_the_result_gives_every_players_score_best_first() -> None:
    state = fresh(3)
    for player, coins in zip(state["players"], (12, 30, 21), strict=True):
        player["coins"] = coins
    state["over"] = True
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,)
    # Each score says where it came from, as the final board does (the message gave the totals only).
    summary = "P1 wins with $30. Scores: P1 $30 (coins $30), P2 $21 (coins $21), P0 $12 (coins $12)."
    assert read(outcome.summary) == summary
    assert read(GAME.turn_text(state)) == f"Game over: {summary}"
    state["players"][0]["stars"] = 2
    stars = q.score_parts(GAME.comp, state["players"][0])["stars"]
    assert stars > 0 and f"P0 ${12 + stars} (coins $12 + stars ${stars})" in read(GAME.outcome(state).summary)


def test_a_card_named_in_any_case_or_with_a_typographic_apostrophe_is_played() -> None:
    state = fresh(1)
    card_id = next(c for c, card in GAME.comp.cards.items() if card.name == "Cartographer's Kit")
    give(state, 0, card_id)
    state = act(state, {"type": "play", "card": "  CARTOGRAPHER’S   kit"})  # as a phone keyboard types it
    assert card_id not in state["players"][0]["hand"]
    assert any(entry["card"] == card_id for entry in state["players"][0]["active"])


def test_an_option_label_typed_in_another_case_is_accepted() -> None:
    state = fresh(1)
    state = act(state, {"type": "play", "card": state["players"][0]["hand"][0]})
    pending = GAME.choice_options(state, 0)
    assert pending, "playing a card asks for its core value and/or a worker"
    option_id, label = pending[0]
    assert GAME.normalise(state, 0, {"type": "choose", "option": f"  {label.swapcase()} "}) == \
        {"type": "choose", "option": option_id}


def test_a_reshuffle_of_one_card_is_a_deck_of_1_card() -> None:
    state = fresh()
    assert read(GAME.describe(state, {"kind": "deck_reshuffled", "cards": 1})) == \
        "The discard pile is shuffled into a new deck of 1 card."
    assert read(GAME.describe(state, {"kind": "deck_reshuffled", "cards": 7})) == \
        "The discard pile is shuffled into a new deck of 7 cards."


def test_the_headline_names_the_actions_left_and_does_not_say_in_any_order_of_one() -> None:
    state = fresh()
    turn = state["turn"]
    turn["phase"], turn["pending"] = "actions", None
    turn["remaining"] = ["move", "play", "gather"]
    assert read(GAME.turn_text(state)) == "P0: Move and Play and Gather, in any order"
    turn["remaining"] = ["gather"]
    assert read(GAME.turn_text(state)) == "P0: Gather, the turn's last action"


def test_the_last_star_of_a_one_player_game_says_who_takes_the_last_turn() -> None:
    """Alone at the table, the fourth star was told as "everyone takes one more turn, Alice last"."""
    alone, two = GAME.setup("standard", ["Alice"], Rng(1, 0), {}), fresh()
    assert read(GAME.describe(alone, {"kind": "end_triggered", "seat": 0})) == \
        "Alice placed their last star: Alice takes one more turn."
    assert read(GAME.describe(two, {"kind": "end_triggered", "seat": 1})) == \
        "P1 placed their last star: everyone takes one more turn, P1 last."


def test_the_game_over_line_of_the_log_names_the_winner() -> None:
    """The log's last line read "The expedition is over." and never said who won (the board left the result out of
    its story, counting on the log to keep it)."""
    state = fresh()
    state["over"] = True
    state["players"][0]["coins"], state["players"][1]["coins"] = 3, 9
    assert read(GAME.describe(state, {"kind": "game_over"})) == "The expedition is over: P1 wins with $9."


def test_alone_the_result_is_the_score_not_a_win() -> None:
    state = fresh(players=1)
    state["over"] = True
    state["players"][0]["coins"] = 12
    assert read(GAME.describe(state, {"kind": "game_over"})) == "The expedition is over: P0 ends the game with $12."
    assert read(GAME.outcome(state).summary).startswith("P0 ends the game with $12. Scores: P0 $12")


@pytest.mark.parametrize(("seed", "last_move"), [(3, "Ada moves to 7 C Glass Marsh."), (1, "")])
def test_the_last_move_of_the_game_leaves_the_result_to_the_final_board_and_the_log_keeps_it(seed: int,
                                                                                             last_move: str) -> None:
    """The final board's second line repeated the headline's winner ("The expedition is over: Ada wins with
    $91."): the board's last move leaves it out (nothing else told: nothing), the log keeps it."""
    from tests.test_render_boards import random_game

    final = random_game("expeditions", "standard", ["Ada", "Bo"], seed)[-1]
    assert final["over"]
    winner = GAME.outcome(final).summary.split(". Scores:")[0]
    assert final["log"][-1] == f"The expedition is over: {winner}."
    assert read(final["last_move"]) == last_move
