"""The board image: a mid-game and a final position for each mode render to readable PNGs of the right size."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.monster_expedition import GAME
from rendering.monster_expedition import render

from .helpers import playout

ALL_WON = {"won": list(range(1, 11))}


def _mid(final_steps: list, mode: str, players: int, seed: int, styles: list[str], options: dict | None = None):
    cut = max(1, len(final_steps) // 2)
    state, _ = playout(mode, players, seed, styles, options=options, cap=cut)
    return state


@pytest.mark.parametrize(("mode", "players", "seed", "options"), [
    ("standard", 2, 3, None), ("standard", 4, 5, None),
    ("solo", 1, 2, {"expedition": 9, "profiles": [ALL_WON]}), ("solo", 1, 4, {"expedition": 2, "profiles": [ALL_WON]}),
])
def test_mid_game_and_final_boards_render(mode: str, players: int, seed: int, options: dict | None) -> None:
    final, steps = playout(mode, players, seed, ["greedy", "cautious"], options=options)
    middle = _mid(steps, mode, players, seed, ["greedy", "cautious"], options)
    for label, state in (("mid", middle), ("final", final)):
        view = GAME.view(state, None)
        png = render(view)
        image = Image.open(io.BytesIO(png))
        image.load()
        assert image.width == 1280 and len(png) < 300_000
        with open(f"/tmp/monster-expedition-{mode}-{players}p-seed{seed}-{label}.png", "wb") as handle:
            handle.write(png)
