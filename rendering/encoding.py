"""From a drawn board to PNG bytes: the boards' fixed palette (built from the named colours), mapping to it, and the
encoders (a public board in the palette, compressed in reusable bands; any image as plain PNG).

Kept apart because the palette is a process-wide fact every canvas, cached piece and encoder agrees on.
"""

from __future__ import annotations

import importlib.util
import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageColor

from rendering import png
from rendering.style import BACKGROUND, PANEL, PANEL_LIGHT, rgb

KIT_COLOUR_MODULES = ("rendering.style", "rendering.leaderboard")
"""The drawing kit's modules whose colours join the games' drawings' in the boards' palette."""
SURFACES = (BACKGROUND, PANEL, PANEL_LIGHT)
"""What most text and shapes are drawn on: their anti-aliased edges blend towards these."""
BLEND_LEVELS = (1 / 2, 1 / 4, 3 / 4, 1 / 8, 3 / 8, 5 / 8, 7 / 8)
"""Blends of every named colour with each surface, taken in this order until the palette's 256 are full."""
BOARD_COMPRESSION = 3
"""zlib level of a board's PNG, chosen by measurement (boards of every game, this palette): level 1 takes ~2.0 ms for
~38 KB, 3 ~2.3 ms for ~34 KB, 6 ~5 ms for ~29 KB, 9 ~35 ms for ~26 KB; a board is encoded after every move."""


def colour_sources() -> list[Path]:
    """The source files whose "#RRGGBB" colours make the palette: the kit's, then each game's drawing (a package's
    every module), in the order the games were found (the same in every process)."""
    import rendering  # (the package's table of drawings; this module is one of its kit's)

    paths: list[Path] = []
    for name in (KIT_COLOUR_MODULES[0], *rendering.drawing_modules(), *KIT_COLOUR_MODULES[1:]):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ModuleNotFoundError(name)
        origin = Path(spec.origin)
        paths += sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
    return paths


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """The boards' fixed palette: every colour the renderers name, then its anti-aliasing blends with the surfaces.

    A fresh quantisation per board (an octree of its pixels) cost more than compressing the board; mapping to a
    known palette costs a sixth of it, and the boards' flat colours come out exactly (the 64-colour octree moved
    them). Built from the sources, so a colour a renderer adds is in it."""
    named: list[tuple[int, int, int]] = []
    for path in colour_sources():
        source = path.read_text(encoding="utf-8")
        for written in re.findall(r"#[0-9A-Fa-f]{6}\b", source):
            colour = ImageColor.getrgb(written)[:3]  # (#RRGGBB: no alpha)
            if colour not in named:
                named.append(colour)
    colours: list[tuple[int, ...]] = list(named[:256])
    surfaces = [ImageColor.getrgb(surface) for surface in SURFACES]
    for level in BLEND_LEVELS:
        for surface in surfaces:
            for colour in named:
                blend = tuple(round(s + (c - s) * level) for s, c in zip(surface, colour, strict=True))
                if len(colours) < 256 and blend not in colours:
                    colours.append(blend)
    while True:  # Pillow maps through a cache of colour cells: a blend sharing a named colour's cell may take it
        palette = Image.new("P", (1, 1))
        palette.putpalette([channel for colour in colours for channel in colour])
        probe = Image.new("RGB", (len(named), 1))
        probe.putdata(named)
        mapped = list(probe.quantize(palette=palette, dither=Image.Dither.NONE).tobytes())
        taken = {index for index, wanted in zip(mapped, range(len(named)), strict=True) if index != wanted}
        if not taken:
            return palette
        colours = [colour for index, colour in enumerate(colours) if index not in taken]


def board_indexed(image: Image.Image) -> Image.Image:
    """A board mapped to the boards' palette, each pixel to the nearest colour (no dithering: flat colours stay
    flat); a board drawn in the palette already is."""
    if image.mode == "P":
        return image
    return image.quantize(palette=board_palette(), dither=Image.Dither.NONE)


def compress_board(indexed: Image.Image) -> bytes:
    """The PNG of a board already mapped to the palette (the floor bench_render measures a board against)."""
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=BOARD_COMPRESSION)
    return buffer.getvalue()


def encode_board(image: Image.Image) -> bytes:
    """A public board's PNG: in the boards' fixed palette (flat colours and anti-aliased text look the same, and
    it compresses to a third of the bytes of RGB), compressed in bands of rows that earlier boards' bands are
    reused for (rendering/png.py: consecutive boards of a match share most of their rows)."""
    return png.encode(board_indexed(image), BOARD_COMPRESSION)


DETAIL_BYTES = 200_000
"""The most a detail board's PNG should take (the boards' limit). The band encoder gives a detail board ~25 % more
bytes than the 128-colour octree at zlib level 6 it replaced (the benchmark's boards: median 95-100 KB, the largest
~183 KB, German five-player boards); one it makes larger is compressed again at zlib level 6, which
takes a fifth off for 20-35 ms more."""


def encode_detail(image: Image.Image) -> bytes:
    """A detail board's PNG (full size, asked for now and then): in the boards' palette and compressed by the same
    encoder as a public board, but every band afresh and none kept, so a detail board's ~2,000 rows never push the
    public boards' bands out of the encoder's cache (a detail board seldom repeats another's rows anyway). A board
    that comes out too large is compressed again at zlib level 6 (`DETAIL_BYTES`)."""
    indexed = board_indexed(image)
    encoded = png.encode(indexed, BOARD_COMPRESSION, reuse=False)
    if len(encoded) <= DETAIL_BYTES:
        return encoded
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=6)
    return min(encoded, buffer.getvalue(), key=len)


@lru_cache(maxsize=512)
def palette_index(colour: Any) -> int:
    """A colour's index in the boards' palette: the one mapping the RGB board would give it (a named colour's own
    index)."""
    if isinstance(colour, int):
        return colour
    probe = Image.new("RGB", (1, 1), rgb(colour))
    index = board_indexed(probe).getpixel((0, 0))
    assert isinstance(index, int), "a palette image's pixel is its index"
    return index


def encode_png(image: Image.Image, *, optimize: bool = False) -> bytes:
    """PNG bytes. zlib level 6 costs a quarter of `optimize=True`'s time for a file only ~3% larger, and a board is
    encoded after every move."""
    buffer = io.BytesIO()
    if optimize:
        image.save(buffer, format="PNG", optimize=True)
    else:
        image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()

