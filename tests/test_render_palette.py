"""A board's PNG in the boards' fixed palette looks as drawn (issue 25): the named colours come out exactly, and
only anti-aliased edges move, and by less than the 64-colour quantisation per board they replace moved them."""

from __future__ import annotations

import importlib
import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageColor

from bot.core import find_game
from rendering import kit
from rendering.glyphs import drawable_view
from tests.test_render_boards import NAMES, random_game

CASES = [("the-expedition", "standard", 3), ("the-expedition", "abstract", 2), ("monster-expedition", "standard", 4),
         ("expeditions", "standard", 5)]


def test_every_named_colour_is_in_the_palette_and_maps_to_itself() -> None:
    named = []
    for name in kit.BOARD_MODULES:
        module = importlib.import_module(f"rendering.{name}")
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        named += [ImageColor.getrgb(colour) for colour in re.findall(r'"(#[0-9A-Fa-f]{6})"', source)]
    assert len(set(named)) >= 30
    probe = Image.new("RGB", (len(named), 1))
    probe.putdata(named)
    assert kit.board_indexed(probe).convert("RGB").tobytes() == bytes(channel for rgb in named for channel in rgb)


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_boards_in_the_palette_look_as_drawn(game_key: str, mode: str, players: int) -> None:
    game = find_game(game_key)
    module = importlib.import_module(f"rendering.{game_key.replace('-', '_')}")
    states = random_game(game_key, mode, NAMES[:players], 8)
    for state in (states[0], states[len(states) // 2], states[-1]):
        image = module.render_image(drawable_view(game.view(state, None)))
        png = kit.encode_board(image)
        assert len(png) <= 200_000
        back = Image.open(io.BytesIO(png)).convert("RGB")
        difference = ImageChops.difference(image, back)
        octree = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        worst = max(band.getextrema()[1] for band in difference.split())
        worst_before = max(band.getextrema()[1] for band in ImageChops.difference(image, octree.convert("RGB"))
                           .split())
        exact = difference.convert("L").histogram()[0] / (image.width * image.height)
        assert worst <= min(48, worst_before), (worst, worst_before)
        assert exact >= 0.9, exact
