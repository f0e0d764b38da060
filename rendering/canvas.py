"""Canvases and how a board is drawn on them: `Draw` (Pillow's ImageDraw drawing one-line text from cached word
masks, and plain fills and palette colours fast), pasting cached pieces, drawing straight in the boards' palette,
and recycling a public board's canvas once it is encoded.

Kept apart because this is where the palette, the text caches and the test recorder meet: a renderer asks for a
canvas and draws; how its pixels get there is decided here.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

from rendering.encoding import board_indexed, board_palette, encode_board, palette_index
from rendering.fonts import plain
from rendering.recorder import DrawnText, Face, checkpoint, current_recording, replay, rewind
from rendering.style import BACKGROUND, PHONE_WIDTH, WIDTH, rgb
from rendering.typeset import WEIGHT_OF, Inked, layout


def paste(canvas: Image.Image, face: Face, xy: tuple[int, int], kind: str = "", mask: bool = False) -> None:
    """Paste a cached piece (through its own transparency when `mask`); inside a recording its texts and marks are
    replayed at their place on the board (and the piece itself is a mark of `kind` when given)."""
    blit(canvas, face.image, xy, face.image if mask else None)
    replay(face, xy, kind)


def blit(canvas: Image.Image, piece: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None) -> None:
    """`canvas.paste(piece, xy, mask)` for a board's own pieces, without Pillow's per-call checks and conversions
    (a board pastes dozens): the piece has the canvas's mode (or RGBA onto RGB), the mask is 1, L or RGBA, and
    whatever falls outside the canvas is clipped. Onto a board drawn in the palette (`indexed`) the piece goes in
    its palette version, mapped once per piece; a mask with soft edges is blended in RGB where it lies."""
    x, y = xy
    box = (x, y, x + piece.width, y + piece.height)
    if canvas.mode == "P":
        if mask is not None and not _all_or_nothing(mask):
            _through_rgb(canvas, box, lambda region, at: region.paste(
                piece if piece.mode != "P" else piece.convert("RGB"), at, mask))
            return
        piece = indexed(piece)
    elif piece.mode == "P":  # a palette layer onto an RGB canvas (a board drawn in RGB for a test)
        piece = piece.convert("RGB")
    if mask is None:
        canvas.im.paste(piece.im, box)
    else:
        canvas.im.paste(piece.im, box, mask.im)


def ink_mask(piece: Image.Image) -> Image.Image:
    """A mask ("1") of a piece's pixels that differ from its background (its top-left pixel's colour): a piece
    drawn once on the board's plain background and pasted through it leaves whatever else lies there as drawing the
    piece there would (its anti-aliased edges were blended on that background when it was drawn)."""
    background = piece.getpixel((0, 0))
    if piece.mode == "P":
        indices = Image.frombytes("L", piece.size, piece.tobytes())
        return indices.point([0 if value == background else 255 for value in range(256)], "1")
    difference = ImageChops.difference(piece.convert("RGB"), Image.new("RGB", piece.size, background))
    red, green, blue = difference.split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue).point([0] + [255] * 255, "1")


_INDEXED_KEY = "board palette version"
"""Where a piece keeps its palette version (in its `info`, with the pixel store it was mapped from, so a copy or a
crop, which shares the `info` but not the pixels, maps itself anew)."""


def indexed(piece: Image.Image) -> Image.Image:
    """A piece (a card face, a tile, a token) in the boards' palette, mapped once and kept with it: a board drawn in
    the palette pastes it as bytes. Pieces are never drawn on after they are first pasted (they are cached)."""
    if piece.mode == "P":
        return piece
    kept = piece.info.get(_INDEXED_KEY)
    if kept is not None and kept[0] is piece.im:
        return kept[1]
    mapped = board_indexed(piece if piece.mode == "RGB" else piece.convert("RGB"))
    piece.info[_INDEXED_KEY] = (piece.im, mapped)
    return mapped


_BINARY_KEY = "all or nothing"


def _all_or_nothing(mask: Image.Image) -> bool:
    """Whether a mask only keeps or drops pixels (no soft edge to blend): then pasting a palette piece through it
    gives the palette version of the RGB paste. Pillow's shapes are not anti-aliased, so most masks are."""
    if mask.mode == "1":
        return True
    kept = mask.info.get(_BINARY_KEY)
    if kept is not None and kept[0] is mask.im:
        return bool(kept[1])
    alpha = mask.getchannel("A") if mask.mode in ("RGBA", "LA") else mask
    binary = mask.mode in ("RGBA", "LA", "L") and sum(alpha.histogram()[1:255]) == 0
    mask.info[_BINARY_KEY] = (mask.im, binary)
    return binary


def _through_rgb(canvas: Image.Image, box: tuple[int, int, int, int],
                 paint: Callable[[Image.Image, tuple[int, int]], None]) -> None:
    """Draw what needs blending (soft edges on a mixed background) onto a palette board: its `box` in RGB (the
    palette's colours, which the drawn board has there), painted by `paint(region, where box starts in it)`, and
    mapped back."""
    left, top = max(0, box[0]), max(0, box[1])
    right, bottom = min(canvas.width, box[2]), min(canvas.height, box[3])
    if right <= left or bottom <= top:
        return
    region = canvas.crop((left, top, right, bottom)).convert("RGB")
    paint(region, (box[0] - left, box[1] - top))
    canvas.im.paste(board_indexed(region).im, (left, top, right, bottom))


_VERTICAL_ANCHORS = frozenset("amsd")
"""Anchors whose height comes from the font's metrics, not the text's ink: the same for every word of a line."""


class Draw(ImageDraw.ImageDraw):
    """ImageDraw that draws one-line text from cached per-word glyph masks and records what it draws in tests.

    Roles: headline, title, name, score (the big ones), text, card, label (a letter on a token).

    On a board drawn in the palette (mode P) colours are palette indices and words are pasted as patches of them
    (see `_indexed_line`), so the board is in its encoding's palette as soon as it is drawn."""

    def __init__(self, im: Image.Image, mode: str | None = None) -> None:
        super().__init__(im, mode)
        if im.mode == "P":
            self.fontmode = "L"  # anti-aliased words, as on an RGB board (Pillow thresholds text on P images)

    @property
    def canvas(self) -> Image.Image:
        """The image drawn on, for pasting cached pieces onto it (Pillow keeps it only as a private attribute)."""
        return self._image

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: Any = None, *args: Any,
             role: str = "text", **kwargs: Any) -> None:
        if (not args and not kwargs and isinstance(text, str) and "\n" not in text and self.fontmode == "L"
                and isinstance(font, ImageFont.FreeTypeFont) and (anchor is None or anchor[1] in _VERTICAL_ANCHORS)
                and font.path in WEIGHT_OF):
            # A board is mostly words it drew before (names, labels, the words of the last move): each word's
            # mask is rasterised once per process and blended where the line puts it; a line is measured as the
            # sum of its words, so measuring and drawing agree to the pixel.
            if not text:
                return
            width, words, inked = layout(font, text, "a" if anchor is None else anchor[1])
            horizontal = "l" if anchor is None else anchor[0]
            x = float(xy[0]) - (width / 2 if horizontal == "m" else width if horizontal == "r" else 0)
            y = round(xy[1])
            if self.mode == "P":
                _indexed_line(self._image, x, y, inked, rgb(fill))
            else:
                colour = _ink(self, fill)
                bitmap = self.draw.draw_bitmap
                for mask, offset, dx, dy in words:
                    bitmap((round(x + offset) + dx, y + dy), mask, colour)
            drawn = current_recording()
            if drawn is not None:
                boxes = [(round(x + o) + dx, y + dy, round(x + o) + dx + m.size[0], y + dy + m.size[1])
                         for m, o, dx, dy in words]
                box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                       max(b[3] for b in boxes)) if boxes else (x, y, x, y)
                drawn.append(DrawnText(int(font.size), role, text, float(xy[1]), box))
            return
        if (not args and not kwargs and isinstance(text, str) and "\n" not in text and anchor is not None
                and anchor[1] in "tb" and isinstance(font, ImageFont.FreeTypeFont) and font.path in WEIGHT_OF
                and not plain(text)):
            # A name in fonts of several scripts (rendering/fonts.py) is drawn from its words' masks whatever the
            # anchor: set at the ascender, moved so its ink's top (t) or bottom (b) is where it was asked.
            _, _, (top, bottom, _, _) = layout(font, text, "a")
            self.text((xy[0], xy[1] - (top if anchor[1] == "t" else bottom)), text, fill, font, anchor[0] + "a",
                      role=role)
            return
        drawn = current_recording()
        if drawn is not None and text:
            box = self.textbbox(xy, text, font=font, anchor=anchor)
            drawn.append(DrawnText(int(getattr(font, "size", 10)), role, str(text), float(xy[1]), box))
        if self.mode == "P" and text:  # anti-aliased: blended in RGB where it lies
            box = self.textbbox(xy, text, font=font, anchor=anchor)
            area = (math.floor(box[0]) - 2, math.floor(box[1]) - 2, math.ceil(box[2]) + 2, math.ceil(box[3]) + 2)

            def paint(region: Image.Image, at: tuple[int, int]) -> None:
                ImageDraw.Draw(region).text((xy[0] + at[0] - area[0], xy[1] + at[1] - area[1]), text, fill, font,
                                            anchor, *args, **kwargs)

            _through_rgb(self._image, area, paint)
            return
        super().text(xy, text, fill, font, anchor, *args, **kwargs)

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        """On a board drawn in the palette a colour is its palette index (Pillow would add it to the image's own
        palette): the named colours are in it exactly, and shapes are not anti-aliased."""
        if self.mode != "P" or (ink is None and fill is None):
            return super()._getink(ink, fill)
        return (None if ink is None else palette_index(ink)), (None if fill is None else palette_index(fill))


    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        """A large plain fill (a board's bands and panels) is pasted as a colour: a quarter of the time Pillow's
        rectangle takes to fill it line by line, and the same pixels."""
        box = _fill_box(xy) if fill is not None and outline is None and self.mode in ("RGB", "P") else None
        if box is not None:
            self._image.im.paste(rgb(fill) if self.mode == "RGB" else palette_index(fill), box)
            return
        super().rectangle(xy, fill, outline, width)


_FAST_FILL = 10_000
"""Pixels from which a plain rectangle is pasted rather than drawn (below it the call itself costs more)."""


def _fill_box(xy: Any) -> tuple[int, int, int, int] | None:
    """The paste box (right and bottom exclusive) of a rectangle drawn with whole-pixel corners, if large."""
    if len(xy) == 2:
        (left, top), (right, bottom) = xy
    elif len(xy) == 4:
        left, top, right, bottom = xy
    else:
        return None
    if not all(type(v) is int for v in (left, top, right, bottom)) or right < left or bottom < top:
        return None
    if (right - left + 1) * (bottom - top + 1) < _FAST_FILL:
        return None
    return left, top, right + 1, bottom + 1


INKS: dict[tuple[str, Any], int] = {}
"""Each colour's drawing ink per image mode (`_ink`), a handful of entries: one per colour the boards name."""


def _ink(draw: ImageDraw.ImageDraw, fill: Any) -> int:
    """The drawing ink of a colour, looked up once per image mode (PIL parses the colour string every call)."""
    key = (draw.mode, fill)
    ink = INKS.get(key)
    if ink is None:
        ink_value, fill_ink = draw._getink(fill)
        found = fill_ink if ink_value is None else ink_value
        if found is None:
            raise ValueError(f"no ink for the colour {fill!r}")
        ink = INKS[key] = found
    return ink


_IN_RGB: ContextVar[bool] = ContextVar("boards_in_rgb", default=False)


@contextlib.contextmanager
def drawn_in_rgb() -> Iterator[None]:
    """Draw boards (public and detail) and their layers in RGB inside the block, mapped to the palette only when
    encoded (as before issue 25): the reference the tests compare the boards drawn in the palette against. Clear
    the caches around it (`rendering.clear_caches`): cached layers keep the mode they were drawn in."""
    token = _IN_RGB.set(True)
    try:
        yield
    finally:
        _IN_RGB.reset(token)


def in_palette(width: int) -> bool:
    """Whether a canvas `width` px wide is drawn straight in the boards' palette: a public board (PHONE_WIDTH
    wide) and a detail board (WIDTH, full size, on demand) are, so they need no mapping when encoded."""
    return width in (PHONE_WIDTH, WIDTH) and not _IN_RGB.get()


def _blank(size: tuple[int, int], colour: str, indexed: bool) -> Image.Image:
    if not indexed:
        return Image.new("RGB", size, colour)
    image = Image.new("P", size, palette_index(colour))
    palette = board_palette().palette
    assert palette is not None, "the boards' palette is a palette image"
    image.putpalette(palette)
    return image


def new_canvas(height: int, width: int = WIDTH) -> tuple[Image.Image, Draw]:
    """A blank board (a public board's canvas comes back from the last one encoded: see `recycle`), in the boards'
    palette when it is a public board (`in_palette`)."""
    indexed = in_palette(width)
    image = _spare((width, height), "P" if indexed else "RGB")
    if image is None:
        image = _blank((width, height), BACKGROUND, indexed)
    else:
        image.im.paste(palette_index(BACKGROUND) if indexed else rgb(BACKGROUND), (0, 0, width, height))
    return image, Draw(image)


def new_layer(size: tuple[int, int], colour: str = BACKGROUND) -> Image.Image:
    """A blank layer for a public board (its map, its grid: drawn once and copied into every board), in the boards'
    palette like the boards (`in_palette`), so a board starts as a copy of bytes that need no mapping."""
    return _blank(size, colour, in_palette(size[0]))


def canvas_from(layer: Image.Image) -> Image.Image:
    """A board starting as a copy of a cached layer (the map, the grid), drawn into a recycled canvas when there
    is one."""
    image = _spare(layer.size, layer.mode)
    if image is None:
        return layer.copy()
    blit(image, layer, (0, 0))
    return image


def taller(layer: Image.Image, height: int) -> Image.Image:
    """A board starting as a cached layer with room below it: `height` px tall, the rest the background (a board
    whose players' long names need more room than its usual size: see `TALL_HEIGHT`)."""
    if height <= layer.height:
        return canvas_from(layer)
    image, _ = new_canvas(height, layer.width)
    blit(image, layer, (0, 0))
    return image


TALL_HEIGHT = PHONE_WIDTH
"""The height of a public board whose players' names need more room than its usual height gives (a name of 32
characters, Discord's longest, on two or three lines): square, the tallest a board may be and stay landscape."""


SPARES: list[Image.Image] = []
"""The canvases handed back by `recycle`, waiting for the next board (at most `SPARES_KEPT`)."""
SPARES_KEPT = 2
"""Canvases kept for the next boards. A new 2 MB canvas is fresh memory whenever a smaller image (a new word's
mask, a new map space) took the block the last canvas left: faulting it in costs 0.3-3 ms, a third of a board's
encoding, against a fill or a copy into a canvas already in use."""


_SPARES_LOCK = threading.Lock()


def _spare(size: tuple[int, int], mode: str) -> Image.Image | None:
    with _SPARES_LOCK:
        for index, image in enumerate(SPARES):
            if image.size == size and image.mode == mode:
                return SPARES.pop(index)
    return None


def recycle(image: Image.Image) -> None:
    """Hand a public board's canvas back once it is encoded (the renderers' `render` does, and nothing else holds
    the image then); the next board draws into it."""
    with _SPARES_LOCK:
        if (image.mode in ("RGB", "P") and len(SPARES) < SPARES_KEPT
                and all(spare is not image for spare in SPARES)):
            SPARES.append(image)


def _indexed_line(canvas: Image.Image, x: float, y: int, inked: Inked, ink: Any) -> None:
    """A line's words onto a board drawn in the palette, the line starting at `x`, each word where an RGB board puts
    it: on a plain background (nearly always) each word as a patch of palette indices, blended and mapped once per
    word, ink and background; on a mixed background, or where two words' masks may overlap, blended there in RGB."""
    line_top, line_bottom, clear, words = inked
    if not words:
        return
    first, last = words[0], words[-1]
    box = (round(x + first[1]) + first[2], y + line_top, round(x + last[1]) + last[2] + last[4], y + line_bottom)
    core = canvas.im
    if clear and box[0] >= 0 and box[1] >= 0 and box[2] <= core.size[0] and box[3] <= core.size[1]:
        low, high = core.crop(box).getextrema()
        if low == high:  # (a word's patch is its whole box: where its mask is 0, the background it lies on)
            paste = core.paste
            for mask, offset, dx, dy, width, height in words:
                left, top = round(x + offset) + dx, y + dy
                paste(_word_patch(mask, ink, low), (left, top, left + width, top + height))
            return
    box = (min(round(x + w[1]) + w[2] for w in words), box[1],
           max(round(x + w[1]) + w[2] + w[4] for w in words), box[3])

    def paint(region: Image.Image, at: tuple[int, int]) -> None:
        bitmap = Image.core.draw(region.im, 0).draw_bitmap
        colour = _rgb_ink(ink)
        for mask, offset, dx, dy, _, _ in words:
            bitmap((round(x + offset) + dx - box[0] + at[0], y + dy - box[1] + at[1]), mask, colour)

    _through_rgb(canvas, box, paint)


WORD_PATCHES = 2048
"""Words kept as palette patches per ink and background (a few hundred bytes each, ~2 MB in all): the words of
the boards of the latest matches."""


@lru_cache(maxsize=WORD_PATCHES)
def _word_patch(mask: Any, ink: Any, background: int) -> Any:
    """A word's mask as palette indices: `ink` on the palette colour `background`."""
    return mask.point(_blend_levels(ink, background), "L")


@lru_cache(maxsize=1024)
def _blend_levels(ink: Any, background: int) -> list[int]:
    """The palette index of `ink` drawn at each of the 256 mask levels onto the palette colour `background`
    (Pillow's own blend, as on an RGB board, then mapped as the RGB board would be)."""
    channels = board_palette().getpalette() or []
    row = Image.new("RGB", (256, 1), tuple(channels[3 * background:3 * background + 3]))
    levels = Image.new("L", (256, 1))
    levels.putdata(range(256))
    Image.core.draw(row.im, 0).draw_bitmap((0, 0), levels.im, _rgb_ink(ink))
    return list(board_indexed(row).tobytes())


def _rgb_ink(ink: Any) -> int:
    """An RGB colour as Pillow's drawing ink for an RGB image."""
    return _ink(_RGB_DRAW, ink)


def finish(image: Image.Image) -> bytes:
    """A public board's PNG; its canvas is recycled for the next board."""
    try:
        return encode_board(image)
    finally:
        recycle(image)


_RGB_DRAW = ImageDraw.Draw(Image.new("RGB", (1, 1)))
"""Where an RGB colour's drawing ink is looked up (`_rgb_ink`)."""


def board_fitting(draw_board: Callable[[int], tuple[Image.Image, float]], height: int) -> Image.Image:
    """A public board drawn `height` tall, or drawn again square (`TALL_HEIGHT`) when what it drew ran below
    (long names): only such boards pay twice, and the recording keeps the second drawing alone."""
    recorded = checkpoint()
    image, bottom = draw_board(height)
    if bottom > height:
        recycle(image)
        rewind(recorded)
        image, _ = draw_board(TALL_HEIGHT)
    return image
