"""The board image for a mid-game and a final position of every mode: the public board 800 x 650 and small, the
detail board 1280 px wide."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.core.rng import Rng
from bot.games.the_expedition.drawing import render
from bot.games.the_expedition.rules.policies import greedy_action
from rendering import render_board, render_detail

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


def test_the_board_marks_every_step_the_header_tells() -> None:
    """A solo turn is the player's step and then each Automation's: each gets its arrow, in its mover's colour, on
    the border it crossed (the header tells the first of them; before, only the last step had an arrow)."""
    from PIL import ImageColor

    from bot.games.the_expedition import drawing as board
    from rendering.kit import AUTOMATON_STYLES, player_style

    state = GAME.setup("solo", ["Alice"], Rng(5, 0), {})
    chooser = random.Random(5)
    step = 0
    while GAME.to_act(state):
        step += 1
        state = GAME.apply(state, 0, greedy_action(state, GAME.catalog, 0, chooser), Rng(5, step)).state
        moves = GAME.view(state, None)["last_moves"]
        borders = {frozenset((m["from_cell"], m["to_cell"])) for m in moves}
        if len(moves) == 3 and len(borders) == 3 and state["phase"] == "play":
            break
    else:
        pytest.fail("no solo turn with three steps across three borders")
    image = Image.open(io.BytesIO(render_board("the-expedition", GAME.view(state, None)))).convert("RGB")
    colours = {"p0": player_style(0).colour, "a1": AUTOMATON_STYLES[0].colour, "a2": AUTOMATON_STYLES[1].colour}

    def box(cell: int) -> tuple[int, int, int, int]:
        row, column = divmod(cell, 3)
        x = board.P_GRID_LEFT + column * (board.P_TILE_W + board.P_GAP)
        y = board.P_GRID_TOP + row * (board.P_TILE_H + board.P_GAP)
        return x, y, x + board.P_TILE_W, y + board.P_TILE_H

    for move in moves:
        (fx0, fy0, fx1, fy1), (tx0, ty0, tx1, ty1) = box(move["from_cell"]), box(move["to_cell"])
        x = (fx1 + tx0) // 2 if tx0 > fx0 else (tx1 + fx0) // 2 if tx0 < fx0 else (fx0 + fx1) // 2
        y = (fy1 + ty0) // 2 if ty0 > fy0 else (ty1 + fy0) // 2 if ty0 < fy0 else (fy0 + fy1) // 2
        assert image.getpixel((x, y)) == ImageColor.getrgb(colours[move["who"]]), move
