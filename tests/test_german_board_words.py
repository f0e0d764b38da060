"""Issue 33 item 10 (German that reads as German): a board's legend names the letters its tiles show.

The Expeditions legend says which letter marks a map token ("M map token", "K Kartenmarker"); the tiles of the
public board and the detail board must draw that same letter in both languages (German boards once said
"K Kartenmarker" under tiles showing "M")."""

from __future__ import annotations

import copy
import re

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import find_game
from bot.i18n import translate
from rendering import kit, render_board, render_detail
from tests.test_render_boards import random_game

NAMES = ["Ada", "Bo"]
MAP_TOKEN_WORD = {"en": "map token", "de": "Kartenmarker"}


def drawn_texts(language: str, detail: bool) -> list[str]:
    """Every text the first Expeditions board draws (all face-down tiles carry their map token then)."""
    game = find_game("expeditions")
    state = random_game("expeditions", "standard", NAMES, 5, language=language)[0]
    view = {**game.view(copy.deepcopy(state), None), "language": language}
    with kit.recording() as drawn:
        (render_detail if detail else render_board)("expeditions", view)
    return [text.text for text in drawn]


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_legend_letter_is_the_letter_on_the_tiles(language: str) -> None:
    word = MAP_TOKEN_WORD[language]
    public = drawn_texts(language, detail=False)
    legends = [found.group(1) for text in public for found in [re.search(rf"(\w+) {word}$", text)] if found]
    assert legends, f"no legend naming the {word} on the board"
    letter = legends[0]
    assert public.count(letter) >= 3, f"the legend says {letter} {word}, the tiles show {sorted(set(public))}"
    assert drawn_texts(language, detail=True).count(letter) >= 3
    assert letter == translate("expeditions.board.map_letter", language)


def test_the_german_map_letter_is_not_a_region_letter() -> None:
    """In German M is the middle region ("M?" on a face-down tile): a map token is K."""
    assert translate("expeditions.board.map_letter", "de") == "K"
    assert translate("expeditions.board.map_letter", "en") == "M"
