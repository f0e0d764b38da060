"""The board image renders mid-game and at the end: the public board 800 x 640 and small, the detail 1280 wide."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.drawing import render, render_detail
from bot.games.expeditions.rules.policies import greedy_action, play_game


def check_png(data: bytes, name: str, view: dict | None = None) -> None:
    with open(f"/tmp/expeditions-{name}.png", "wb") as handle:
        handle.write(data)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.size == (800, 640) and len(data) < 200_000
    if view is not None:
        assert Image.open(io.BytesIO(render_detail(view))).width == 1280


def test_render_mid_game_with_a_pending_choice_and_a_final_position() -> None:
    rnd = random.Random(5)
    state = GAME.setup("standard", ["Alice", "Bob", "Chandra"], Rng(5, 0), {})
    step = 0
    while step < 60 or not state["turn"]["pending"]:
        seat = GAME.to_act(state)[0]
        step += 1
        state = GAME.apply(state, seat, greedy_action(GAME, state, seat, rnd), Rng(5, step)).state
    check_png(render(GAME.view(state, None)), "mid", GAME.view(state, None))
    check_png(render(GAME.view(state, 0)), "mid-seat0")
    final, _ = play_game(GAME, 5, 2, policy="greedy")
    assert final["over"]
    check_png(render(GAME.view(final, None)), "final", GAME.view(final, None))


def test_render_the_opening_solo() -> None:
    state = GAME.setup("standard", ["Solo"], Rng(1, 0), {})
    check_png(render(GAME.view(state, None)), "solo")
