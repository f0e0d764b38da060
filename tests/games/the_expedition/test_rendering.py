"""The board image for a mid-game and a final position of every mode: the public board 800 x 650 and small, the
detail board 1280 px wide."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.core.rng import Rng
from bot.games.the_expedition.policies import greedy_action
from rendering import render_board, render_detail
from rendering.the_expedition import render

from .helpers import GAME


def _positions(mode: str, players: int, seed: int) -> tuple[dict, dict]:
    state = GAME.setup(mode, ["Alice", "Bob", "Chandra"][:players], Rng(seed, 0), {})
    chooser = random.Random(seed)
    middle = None
    step = 0
    while GAME.to_act(state) and step < 200:
        (seat,) = GAME.to_act(state)
        step += 1
        state = GAME.apply(state, seat, greedy_action(state, GAME.catalog, seat, chooser), Rng(seed, step)).state
        if step == 3 * players + 2:
            middle = state
    assert middle is not None and state["phase"] == "over"
    return middle, state


@pytest.mark.parametrize(("mode", "players"), [("standard", 3), ("abstract", 2), ("solo", 1), ("solo-hard", 1)])
def test_render_mid_game_and_final(mode: str, players: int) -> None:
    middle, final = _positions(mode, players, seed=11)
    for tag, state in (("mid", middle), ("final", final)):
        png = render_board("the-expedition", GAME.view(state, None))
        image = Image.open(io.BytesIO(png))
        image.load()
        assert image.size == (800, 650)
        assert len(png) < 200_000
        detail = Image.open(io.BytesIO(render_detail("the-expedition", GAME.view(state, None))))
        assert detail.width == 1280
        with open(f"/tmp/the-expedition-{mode}-{tag}.png", "wb") as handle:
            handle.write(png)


def test_render_placement_and_a_private_view() -> None:
    state = GAME.setup("standard", ["Alice", "Bob"], Rng(3, 0), {})
    png = render(GAME.view(state, None))
    assert Image.open(io.BytesIO(png)).size == (800, 650)
    with open("/tmp/the-expedition-placement.png", "wb") as handle:
        handle.write(png)
    seat = GAME.to_act(state)[0]
    assert render(GAME.view(state, seat))  # a seat's view draws too (the hand is never drawn)
