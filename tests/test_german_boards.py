"""The Expedition's boards at a German table (issue 21): every word drawn on the public and the detail board, and the
alt text, is German in every mode; the same positions at an English table are English."""

from __future__ import annotations

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import find_game
from rendering import alt_text, kit, render_board, render_detail
from tests.language import english_left
from tests.test_render_layout import NAMES, positions_in

GAME = find_game("the-expedition")
ALLOWED = frozenset(word for name in NAMES for word in name.split())
"""The players' names (the layout test's, long on purpose)."""


def _words(language: str, mode: str, players: int) -> list[str]:
    found = []
    for state in positions_in(language, GAME.key, mode, players, seed=3)[::3]:
        for viewer in (None, 0):
            view = {**GAME.view(state, viewer), "language": language}
            with kit.recording() as drawn:
                render_detail(GAME.key, view)
                if viewer is None:
                    render_board(GAME.key, view)
            found += [text.text.replace("\u00a0", " ") for text in drawn]
            found.append(alt_text(GAME.key, view))
    return [text.replace("The Expedition", "") for text in found]  # the game's name, the same in German


@pytest.mark.parametrize(("mode", "players"), [("standard", 3), ("abstract", 2), ("solo", 1), ("solo-hard", 1)])
def test_the_expeditions_board_words_are_german_at_a_german_table(mode: str, players: int) -> None:
    german = _words("de", mode, players)
    left = {word: text for text in german for word in english_left(text, allowed=ALLOWED)}
    assert not left, left
    english = _words("en", mode, players)
    assert any(english_left(text, allowed=ALLOWED) for text in english)  # the net catches English where it is
    assert set(german) != set(english)
