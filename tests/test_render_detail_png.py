"""A detail board (the full-size board a player asks for) is drawn in the boards' fixed palette and encoded by the
band encoder, as a public board is (issue 25): a valid PNG in that palette, at most 200 KB, pixel for pixel the
board drawn in RGB and mapped, within the phone boards' palette tolerance of the RGB drawing
(tests/test_render_palette.py) and with more pixels exact than the 128-colour octree it replaces."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.core import find_game
from rendering import clear_caches, drawing, encoding, kit, render_board, render_detail
from rendering.bands import FOOTER_H, add_footer
from rendering.glyphs import drawable_view
from tests.test_render_boards import NAMES, random_game

CASES = [("the-expedition", "standard", 3), ("the-expedition", "abstract", 2), ("the-expedition", "solo-hard", 1),
         ("monster-expedition", "standard", 4), ("monster-expedition", "solo", 1), ("expeditions", "standard", 5)]


def _worst(difference: Image.Image) -> int:
    return max(band.getextrema()[1] for band in difference.split())


def _exact(drawn: Image.Image, encoded: Image.Image) -> float:
    """The share of pixels the encoding left exactly as drawn."""
    red, green, blue = ImageChops.difference(drawn, encoded).split()
    moved = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return moved.histogram()[0] / (drawn.width * drawn.height)


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_a_detail_board_is_a_png_in_the_palette_that_looks_as_drawn(game_key: str, mode: str, players: int) -> None:
    game = find_game(game_key)
    module = drawing(game_key)
    states = random_game(game_key, mode, NAMES[:players], 8)
    palette = kit.board_palette().getpalette()
    for state in (states[0], states[len(states) // 2], states[-1]):
        view = game.view(state, None)
        clear_caches()
        with kit.drawn_in_rgb():
            drawn = module.detail_image(drawable_view(view))
        clear_caches()
        board = module.detail_image(drawable_view(view))
        assert (drawn.mode, board.mode) == ("RGB", "P")
        assert board.tobytes() == kit.board_indexed(drawn).tobytes()
        png = render_detail(game_key, view)
        assert len(png) <= encoding.DETAIL_BYTES == 200_000
        with Image.open(io.BytesIO(png)) as check:
            check.verify()
        decoded = Image.open(io.BytesIO(png))
        assert decoded.format == "PNG" and decoded.mode == "P" and decoded.size == drawn.size
        assert decoded.getpalette() == palette
        assert decoded.tobytes() == board.tobytes()
        back = decoded.convert("RGB")
        worst = _worst(ImageChops.difference(drawn, back))
        octree = drawn.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        worst_phone = _worst(ImageChops.difference(drawn, octree.convert("RGB")))  # the phone boards' tolerance
        assert worst <= min(48, worst_phone), (worst, worst_phone)
        before = drawn.quantize(128, method=Image.Quantize.FASTOCTREE).convert("RGB")  # the detail board's before
        exact, exact_before = (_exact(drawn, encoded) for encoded in (back, before))
        assert exact >= max(0.9, exact_before), (exact, exact_before)


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES[::2])
def test_detail_boards_between_public_boards_with_warm_caches_are_the_boards_drawn_in_rgb(
        game_key: str, mode: str, players: int) -> None:
    """A worker draws detail boards between the public boards of many matches: with every cache warm from the
    boards before (word patches, palette pieces, layers), a detail board is still the RGB drawing mapped."""
    game = find_game(game_key)
    module = drawing(game_key)
    views = [drawable_view(game.view(state, None)) for state in random_game(game_key, mode, NAMES[:players], 6)]
    views = views[:: max(1, len(views) // 8)] + views[-1:]
    clear_caches()
    with kit.drawn_in_rgb():
        wanted = [kit.board_indexed(module.detail_image(view)).tobytes() for view in views]
    clear_caches()
    for view, expected in zip(views, wanted, strict=True):
        render_board(game_key, view)
        assert module.detail_image(view).tobytes() == expected


def test_a_detail_board_too_large_for_the_band_encoder_is_compressed_again_harder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A detail board the band encoder makes larger than `DETAIL_BYTES` is compressed again at zlib level 6: fewer
    bytes, the same pixels in the same palette (every board counts as too large here)."""
    game = find_game("expeditions")
    view = game.view(random_game("expeditions", "standard", NAMES[:5], 8)[-1], None)
    banded = render_detail("expeditions", view)
    monkeypatch.setattr(encoding, "DETAIL_BYTES", 0)
    harder = render_detail("expeditions", view)
    assert len(harder) < 0.9 * len(banded)
    first, second = (Image.open(io.BytesIO(data)) for data in (banded, harder))
    assert second.mode == "P" and second.getpalette() == first.getpalette()
    assert second.tobytes() == first.tobytes()


@pytest.mark.parametrize("render", [render_board, render_detail])
def test_a_footer_keeps_a_board_in_the_palette(render: Callable[[str, dict[str, Any]], bytes]) -> None:
    """The chosen seed's footer under a final board (public or detail) leaves it in the boards' palette, at most
    200 KB: the board's own pixels, then the strip drawn in RGB as the footer was before, and mapped."""
    game = find_game("the-expedition")
    view = game.view(random_game("the-expedition", "solo-hard", NAMES[:1], 8)[-1], None)
    board = render(game.key, view)
    footed = add_footer(board, "Played with the chosen seed 3.")
    assert len(footed) <= 200_000
    image = Image.open(io.BytesIO(footed))
    assert image.mode == "P" and image.getpalette() == kit.board_palette().getpalette()
    with Image.open(io.BytesIO(board)) as drawn:
        before = Image.new("RGB", (drawn.width, drawn.height + FOOTER_H), kit.PANEL)
        before.paste(drawn.convert("RGB"), (0, 0))
    ImageDraw.Draw(before).text((24, drawn.height + FOOTER_H // 2), "Played with the chosen seed 3.",
                                font=kit.font(max(26, kit.min_sizes(drawn.width)[0])), fill=kit.INK_MUTED,
                                anchor="lm")  # (at least the phone minimum for the width: 29 px on a detail)
    strip = (0, drawn.height, drawn.width, drawn.height + FOOTER_H)
    assert image.crop(strip).tobytes() == kit.board_indexed(before.crop(strip)).tobytes()
    assert image.crop((0, 0, drawn.width, drawn.height)).tobytes() == Image.open(io.BytesIO(board)).tobytes()
