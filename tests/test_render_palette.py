"""A board's PNG in the boards' fixed palette looks as drawn (issue 25): the named colours come out exactly, and
only anti-aliased edges move, and by less than the 64-colour quantisation per board they replace moved them."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
from PIL import Image, ImageChops, ImageColor

from bot.core import find_game
from rendering import clear_caches, drawing, kit
from rendering.encoding import colour_sources
from rendering.glyphs import drawable_view
from tests.test_render_boards import NAMES, random_game

CASES = [("the-expedition", "standard", 3), ("the-expedition", "abstract", 2), ("monster-expedition", "standard", 4),
         ("expeditions", "standard", 5)]


def test_every_named_colour_is_in_the_palette_and_maps_to_itself() -> None:
    named = []
    for path in colour_sources():
        source = path.read_text(encoding="utf-8")
        named += [ImageColor.getrgb(colour) for colour in re.findall(r'"(#[0-9A-Fa-f]{6})"', source)]
    assert len(set(named)) >= 30
    probe = Image.new("RGB", (len(named), 1))
    probe.putdata(named)
    assert kit.board_indexed(probe).convert("RGB").tobytes() == bytes(channel for rgb in named for channel in rgb)


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_boards_in_the_palette_look_as_drawn(game_key: str, mode: str, players: int) -> None:
    """A public board is drawn straight in the palette (issue 25): pixel for pixel the board drawn in RGB and mapped
    to the palette, whose named colours come out exactly and whose anti-aliased edges move less than a 64-colour
    quantisation per board moved them."""
    game = find_game(game_key)
    module = drawing(game_key)
    states = random_game(game_key, mode, NAMES[:players], 8)
    for state in (states[0], states[len(states) // 2], states[-1]):
        view = drawable_view(game.view(state, None))
        clear_caches()
        with kit.drawn_in_rgb():
            image = module.render_image(view)
        clear_caches()
        board = module.render_image(view)
        assert (image.mode, board.mode) == ("RGB", "P")
        assert board.tobytes() == kit.board_indexed(image).tobytes()
        png = kit.encode_board(board)
        assert png == kit.encode_board(image)
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


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_a_match_drawn_in_the_palette_with_warm_caches_is_the_match_drawn_in_rgb(game_key: str, mode: str,
                                                                                  players: int) -> None:
    """Every board of a match in turn, as one worker draws them (word patches, palette pieces and layers kept from
    the boards before), equals the same board drawn in RGB and mapped."""
    game = find_game(game_key)
    module = drawing(game_key)
    views = [drawable_view(game.view(state, None)) for state in random_game(game_key, mode, NAMES[:players], 6)]
    views = views[:: max(1, len(views) // 30)] + views[-2:]
    clear_caches()
    with kit.drawn_in_rgb():
        wanted = [kit.board_indexed(module.render_image(view)).tobytes() for view in views]
    clear_caches()
    for view, expected in zip(views, wanted, strict=True):
        board = module.render_image(view)
        assert board.mode == "P" and board.tobytes() == expected
        kit.recycle(board)


def test_a_word_on_a_mixed_background_is_blended_in_rgb_and_mapped() -> None:
    """Text over two colours (a badge's letter on a split disc, a word across a panel's edge) cannot be one patch
    of palette indices: it is blended where it lies, as on an RGB board."""
    boards = []
    for rgb in (True, False):
        clear_caches()
        with kit.drawn_in_rgb() if rgb else contextlib.nullcontext():
            image, draw = kit.new_canvas(120, kit.PHONE_WIDTH)
            draw.rectangle((0, 0, 199, 119), fill=kit.PANEL)
            draw.text((180, 40), "across the edge", font=kit.font(24, "bold"), fill=kit.YELLOW)
            draw.text((10, 80), "on the panel", font=kit.font(18), fill=kit.INK, anchor="lm")
            draw.text((150, 100), "multi\nline", font=kit.font(18), fill=kit.INK)  # Pillow's own text path
            kit.draw_token(draw, (190, 20), 17, kit.player_style(1))
        boards.append(kit.board_indexed(image))
    assert boards[0].tobytes() == boards[1].tobytes()
    drawn = {colour for _, colour in boards[1].convert("RGB").getcolors() or []}
    assert {ImageColor.getrgb(kit.SKY_BLUE), ImageColor.getrgb(kit.YELLOW), ImageColor.getrgb(kit.INK)} <= drawn
