"""Select menus and buttons under the board: every pending choice as a menu of exactly its legal options, moves and
plays in a menu when they do not fit as buttons, and choices typed by their label."""

from __future__ import annotations

import random

import pytest

from bot.core import is_steps
from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.policies import planned_action

from .helpers import act, fresh, fx, give, in_actions, place, resolve


def _after(state: dict, seat: int, action: dict) -> dict:
    applied = GAME.apply_unworded(state, seat, action, Rng(0, 0)).state
    return {k: v for k, v in applied.items() if k not in ("log", "last_move")}


def test_every_legal_choice_is_offered_once_as_the_first_step_of_an_offer_in_labels_that_fit_a_phone() -> None:
    """Buttons and the menu offer whole plays (issue 33: compounds of legal steps), and every legal choice is the
    first step of an offer (or has the outcome of one: a core value that gains nothing is "Done"); every offer is
    applied by the rules; at most five buttons a row in three rows, labels of 25 characters or fewer, nothing
    offered twice, the destinations always in the menu."""
    rnd = random.Random(2)
    state = GAME.setup("standard", ["A", "B", "C"], Rng(2, 0), {})
    kinds, menus_of_moves, compounds = set(), 0, 0
    for step in range(1, 250):
        if state["over"]:
            break
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        menu = GAME.choice_menu(state, seat)
        buttons = GAME.quick_actions(state, seat)
        options = list(menu.options) if menu is not None else []
        assert len(buttons) <= 15 and len(options) <= 25
        assert all((b.row or 0) <= 2 for b in buttons)
        assert all(sum(1 for b in buttons if (b.row or 0) == row) <= 5 for row in range(3))
        assert all(len(b.label) <= 25 for b in buttons) and all(len(o.label) <= 25 for o in options)
        offered = [b.action for b in buttons] + [o.action for o in options]
        assert len(offered) == len({repr(a) for a in offered})  # nothing offered twice
        firsts = [a["steps"][0] if is_steps(a) else a for a in offered]
        compounds += sum(1 for a in offered if is_steps(a))
        assert all(first in legal for first in firsts)
        outcomes = {repr(_after(state, seat, first)) for first in firsts}
        for action in legal:
            assert action in firsts or repr(_after(state, seat, action)) in outcomes, action
        for action in offered:
            GAME.apply(state, seat, action, Rng(2, step))  # the rules take every offer
        if state["turn"]["pending"]:
            kinds.add(state["turn"]["pending"]["kind"])
        moves = [a for a in legal if a["type"] == "move"]
        if len(moves) > 1:
            menus_of_moves += 1
            assert not any(b.action["type"] == "move" for b in buttons)
        state = GAME.apply(state, seat, planned_action(GAME, state, seat, rnd), Rng(2, step)).state
    assert {"play_steps", "vanquish", "take_card", "boast"} <= kinds and menus_of_moves > 5 and compounds > 50


def test_the_actions_fill_the_menu_and_spill_onto_buttons_when_they_overflow_it() -> None:
    state = in_actions(fresh(1), ("move", "play", "gather"))
    for card in ("it-compass", "it-lantern", "it-gauntlet", "it-whistle", "it-kit", "it-forge", "it-drum", "it-owl"):
        give(state, 0, card)
    place(state, 0, 5)
    for space in state["spaces"].values():
        space["revealed"] = True
    menu = GAME.choice_menu(state, 0)
    assert menu is not None and len(menu.options) == 25
    moves = {o.action["space"] for o in menu.options if o.action["type"] == "move"}
    assert moves == {code for code, _ in GAME.legal_destinations(state, 0)}
    buttons = GAME.quick_actions(state, 0)
    assert buttons and not any(b.action["type"] == "move" for b in buttons)
    firsts = [(a["steps"][0] if is_steps(a) else a) for a in [b.action for b in buttons] + [o.action for o in
                                                                                          menu.options]]
    assert {"type": "gather"} in firsts


def test_a_sweep_is_led_one_toggle_at_a_time_through_the_menu() -> None:
    state, _ = resolve(in_actions(fresh(1)), fx({"sweep": True}))
    menu = GAME.choice_menu(state, 0)
    assert menu is not None and menu.placeholder.startswith("Pick the face-up cards")
    toggle = menu.options[0].action
    state = act(state, toggle)
    menu = GAME.choice_menu(state, 0)
    assert menu is not None and menu.options[0].label.startswith("Keep")
    assert [b.label for b in GAME.quick_actions(state, 0)] == ["Sweep 1 card"]  # the way out: a button


def test_a_choice_may_be_typed_by_its_label_and_a_stray_choice_is_explained() -> None:
    state, _ = resolve(in_actions(fresh(1)), fx({"or": [[{"power": 2}], [{"guile": 2}]]}))
    state = act(state, {"type": "choose", "option": "+2 GUILE"})
    assert state["players"][0]["guile"] == 2
    with pytest.raises(IllegalAction, match="no choice waiting"):
        act(state, {"type": "choose", "option": "core"})
