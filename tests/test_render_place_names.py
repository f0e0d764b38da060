"""The Expedition's location names on the public board are at least the headline size on a phone (12 points at 400
wide: `kit.BIG` px), the longest ("Neptune", "Mercury") included, and clear of their body and points disc.

(The names once dropped to ~21 px beside their body; since 3582021 they start nearer the body and keep 24-26 px.
This pins it, in both languages, for every location of the data file.)"""

from __future__ import annotations

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import find_game
from bot.games.the_expedition.drawing import in_words
from rendering import kit, render_board
from tests.test_render_boards import random_game
from tests.test_render_layout import overlap


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_location_name_keeps_the_headline_size_beside_its_body(language: str) -> None:
    game = find_game("the-expedition")
    sizes: dict[str, int] = {}
    for seed in range(1, 9):  # (each match deals nine of the locations)
        state = random_game(game.key, "standard", ["Bo", "Ziggy"], seed, language)[0]
        view = {**game.view(state, None), "language": language}
        names = {cell["location"]["name"] for cell in in_words(view)["grid"]}
        with kit.recording() as drawn:
            render_board(game.key, view)
        for text in drawn:
            if text.text in names and text.role == "card":
                sizes[text.text] = min(sizes.get(text.text, 99), text.size)
                assert not any(overlap(text.box, mark.box) for mark in drawn.marks), text
                assert not any(overlap(text.box, other.box) for other in drawn if other is not text), text
    assert len(sizes) >= 9
    assert {"Neptune", "Mercury"} <= set(sizes) if language == "en" else {"Neptun", "Merkur"} <= set(sizes)
    assert min(sizes.values()) >= kit.BIG, sizes
