"""A public board's PNG compressed in bands that later boards reuse (rendering/png.py) decodes to the board as drawn,
whatever bands it took from earlier boards, and is the same file however warm the bands were."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from bot.core import find_game
from rendering import clear_caches, drawing, kit, png
from rendering.glyphs import drawable_view
from tests.test_render_boards import NAMES, random_game


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _compressed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the bands compressed anew (the rest were taken from earlier boards)."""
    compressed = [0]
    real = png._compressor

    class Counting:
        def __init__(self, level: int) -> None:
            self._inner = real(level)

        def compress(self, data: bytes) -> bytes:
            compressed[0] += 1
            return self._inner.compress(data)  # type: ignore[no-any-return]

        def flush(self, mode: int = zlib.Z_FINISH) -> bytes:
            return self._inner.flush(mode)  # type: ignore[no-any-return]

    monkeypatch.setattr(png, "_compressor", Counting)
    return compressed


@pytest.mark.parametrize(("game_key", "mode", "players"), [("expeditions", "standard", 3),
                                                            ("monster-expedition", "standard", 2),
                                                            ("the-expedition", "solo", 1)])
def test_consecutive_boards_decode_to_the_boards_drawn_and_reuse_bands(game_key: str, mode: str, players: int,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    game = find_game(game_key)
    module = drawing(game_key)
    states = random_game(game_key, mode, NAMES[:players], 3)
    middle = len(states) // 2
    views = [drawable_view(game.view(state, None)) for state in (*states[middle:middle + 6], states[-1])]
    clear_caches()
    compressed = _compressed(monkeypatch)
    bands = 0
    files = []
    for view in views:
        image = module.render_image(view)
        data = png.encode(image, kit.BOARD_COMPRESSION)
        back = _decoded(data)
        assert (back.mode, back.size) == ("P", image.size)
        assert back.tobytes() == image.tobytes()
        assert back.getpalette() == image.getpalette()
        assert len(data) <= 200_000
        files.append(data)
        bands += -(-image.height // png.BAND_ROWS)
        kit.recycle(image)
    assert 0 < compressed[0] < 0.8 * bands  # later boards took bands the earlier ones had
    png._BANDS.clear()  # every band compressed anew: the same files
    assert [png.encode(module.render_image(view), kit.BOARD_COMPRESSION) for view in views] == files


def test_a_board_is_the_file_pillow_would_write_but_for_the_compressed_bytes() -> None:
    game = find_game("expeditions")
    view = drawable_view(game.view(random_game("expeditions", "standard", NAMES[:2], 4)[-1], None))
    image = drawing("expeditions").render_image(view)
    ours, pillows = _decoded(png.encode(image, 3)), _decoded(kit.compress_board(image))
    assert ours.tobytes() == pillows.tobytes() and ours.getpalette() == pillows.getpalette()
    assert ours.info == pillows.info


def test_isal_deflates_a_board_to_zlibs_size_and_zlib_stands_in_without_it(monkeypatch: pytest.MonkeyPatch
                                                                             ) -> None:
    """ISA-L (a dependency) compresses the bands: the file is within a few per cent of Pillow's at the boards' zlib
    level (bands add a few), and decodes to the same board; without ISA-L the standard library's zlib writes the
    same pixels."""
    assert png.deflate is not None, "python-isal is a dependency of the project (pyproject.toml)"
    game = find_game("monster-expedition")
    states = random_game("monster-expedition", "standard", NAMES[:3], 6)
    module = drawing("monster-expedition")
    for state in (states[len(states) // 2], states[-1]):
        image = module.render_image(drawable_view(game.view(state, None)))
        pillows = kit.compress_board(image)
        for deflate in (png.deflate, None):
            monkeypatch.setattr(png, "deflate", deflate)
            png._BANDS.clear()
            ours = png.encode(image, kit.BOARD_COMPRESSION)
            assert _decoded(ours).tobytes() == image.tobytes()
            assert len(ours) <= 1.12 * len(pillows)  # (bands cost a few per cent: measured +3-8 %)
        monkeypatch.undo()


def test_the_same_rows_at_another_width_are_not_taken_for_each_other() -> None:
    """A band is kept by its rows' checksum, length and width: 16 rows 800 wide are the bytes of 32 rows 400 wide,
    but their rows start elsewhere."""
    rng = random.Random(5)
    palette = [rng.randrange(256) for _ in range(3 * 200)]
    pixels = bytes(rng.randrange(200) for _ in range(800 * 16))
    wide, narrow = Image.new("P", (800, 16)), Image.new("P", (400, 32))
    for image in (wide, narrow):
        image.putpalette(palette)
        image.frombytes(pixels)
    for image in (wide, narrow, wide):
        assert _decoded(png.encode(image, 3)).tobytes() == pixels


def test_images_it_does_not_handle_are_left_to_pillow() -> None:
    rgb = Image.new("RGB", (40, 30), "#E69F00")
    few = Image.new("P", (40, 30), 1)
    few.putpalette([0, 0, 0, 255, 255, 255])
    see_through = Image.new("P", (40, 30), 3)
    see_through.putpalette(list(range(256)) * 3)
    see_through.info["transparency"] = 3
    for image in (rgb, few, see_through):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=3)
        assert png.encode(image, 3) == buffer.getvalue()


def test_the_checksums_of_two_parts_make_the_whole_ones() -> None:
    rng = random.Random(3)
    for _ in range(200):
        first = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 3000)))
        second = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 70000, 7)))
        assert png._adler_combined(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(
            first + second)


def test_the_kept_bands_stay_within_their_bytes() -> None:
    clear_caches()
    rng = random.Random(9)
    palette = [rng.randrange(256) for _ in range(3 * 256)]
    image = Image.new("P", (800, 640))
    image.putpalette(palette)
    for _ in range(30):
        image.frombytes(bytes(rng.randrange(256) for _ in range(800)) * 640)
        png.encode(image, 1)
    assert 0 < png._BANDS.bytes <= png.BANDS_KEPT_BYTES
