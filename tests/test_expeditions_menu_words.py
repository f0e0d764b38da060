"""Every control under an Expeditions board says what kind of action it is and reads apart from the others (issue
33, a newcomer's menu): over positions of 2-4 player games the normal computer players play, in English and
German, no two controls of one board have the same label and description, and every menu entry and button of a
play, a move or Gather starts with its action's word ("Play Ada the Navigator", "Move: Riverside Camp", "Gather
here"; "Spielen: …", "Bewegen: …", "Sammeln am Standort")."""

from __future__ import annotations

import pytest

from bot.core import JSON, find_game, is_steps
from bot.i18n import translate
from tests.test_offers_complete import positions

TABLES = [(2, 11), (3, 12), (4, 13)]
STEP_TYPES = ("play", "move", "gather")


def _kind(action: JSON) -> str | None:
    """The action (play, move, gather) an offer takes, after the cover that may start it; None for a choice."""
    steps = list(action["steps"]) if is_steps(action) else [action]
    kinds = [step["type"] for step in steps if step["type"] in STEP_TYPES]
    return kinds[0] if kinds and steps[0]["type"] != "choose" else None


def _problems(state: JSON, seat: int, language: str) -> list[str]:
    game = find_game("expeditions")
    controls = [(b.label, None, b.action) for b in game.quick_actions(state, seat, language)]
    menu = game.choice_menu(state, seat, language)
    controls += [(e.label, e.description, e.action) for e in (menu.options if menu else ())]
    found = []
    seen: set[tuple[str, str | None]] = set()
    for label, description, action in controls:
        if (label, description) in seen:
            found.append(f"two controls read {label!r} / {description!r}")
        seen.add((label, description))
        kind = _kind(action)
        word = translate(f"expeditions.action.{kind}", language) if kind else None
        if word and not label.startswith(word):
            found.append(f"{label!r} ({kind}) does not start with {word!r}")
    return found


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("players", "seed"), TABLES)
def test_controls_say_their_action_and_read_apart(players: int, seed: int, language: str) -> None:
    problems = []
    for state, seat in positions("expeditions", "standard", players, seed):
        problems += _problems(state, seat, language)
    assert problems == []


def test_a_card_played_for_nothing_two_ways_says_which_spends_a_worker() -> None:
    """The first board of a 2-player game: Cora played for nothing keeping her green worker, or spending it."""
    game = find_game("expeditions")
    state, seat = next((state, seat) for state, seat in positions("expeditions", "standard", 2, 1)
                       if state["turn"]["phase"] == "actions")
    menu = game.choice_menu(state, seat, "en")
    assert menu is not None
    idle = [(e.label, e.description) for e in menu.options if "gains nothing" in (e.description or "")]
    assert ("Play Cora the Scout", "gains nothing") in idle
    assert ("Play Cora the Scout", "gains nothing, uses up the green worker") in idle
    assert [e.label for e in menu.options][-1:] != ["Gather"]
