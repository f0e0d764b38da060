"""The shared drawing kit: palette, player identities, fonts, the header band, cards, tokens and PNG encoding.

Every game's renderer draws with these so that the same player looks the same in every game and every image
reads on a phone: large type, an opaque background, and identity by colour *and* letter/shape (Okabe-Ito palette,
safe for colour-blind players).
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import itertools
import math
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyphen
from PIL import Image, ImageColor, ImageDraw, ImageFont

from rendering.caches import kept_lru

# Okabe-Ito, the colour-blind-safe palette.
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"

BACKGROUND = "#1E2230"  # opaque, readable on Discord's dark and light themes alike
PANEL = "#2A3042"
PANEL_LIGHT = "#394159"
INK = "#F4F1EA"
INK_MUTED = "#AEB4C4"
INK_DARK = "#14161F"
HIGHLIGHT = "#FFFFFF"
GOOD = BLUISH_GREEN
BAD = VERMILLION

# The games' own colours: every renderer takes its colours from these names (the palette a board is quantised to
# is built from the constants of this module, and a test checks that no renderer writes a colour of its own).
DIE_BLACK = "#0E0F14"  # Monster Expedition's black hunting dice
PIP = INK
SLOT = "#23283A"  # an empty card space, a hex without a tile
TRACK_EMPTY = "#454C63"  # the unfilled steps of a power or guile track
TURQUOISE = "#3CC8C8"  # Expeditions' guile and the corruption paid with guile
WINE = "#8B1E3F"  # Expeditions' 20 token, paid with power and guile
SAND = "#C9A86A"  # the south: plains and desert
MEADOW = "#6FA86B"  # the centre: woods and meadows
FROST = "#7D93B8"  # the north: mountains and ice
SAND_DARK = "#5A4B32"  # the same regions face down
MEADOW_DARK = "#34503A"
FROST_DARK = "#3A4560"
TERRAIN_INK = "#2B2A24"  # the small drawings on a tile (dunes, trees, peaks), dark on any region's fill
PARCHMENT = "#E8DCC0"  # card faces
LILAC = "#D9C9E8"
PEACH = "#F2D0B8"
ICE_BLUE = "#CFE3F0"
MAP_TOKEN = "#D8C7A0"
CAMP_BROWN = "#4A4034"
LEAF_DARK = "#1B4D2A"
GREY = "#888888"
RUST = "#B0703C"  # The Expedition's planets
RUST_LIGHT = "#D9955A"
RUST_DARK = "#7A4A26"
SILVER = "#9AA6BC"  # ... and moons
SILVER_LIGHT = "#C9D1E0"
SILVER_DARK = "#646E84"
CARD_FACE = INK
CARD_BACK = "#3C5A8C"
GOOD_TEXT = "#3FD0A4"  # a lighter bluish green for text: the palette's #009E73 is too dark on the tiles
GOLD = "#E8C547"  # ranks on a final board
SILVER_MEDAL = "#C0C6D0"
BRONZE = "#C08457"

WIDTH = 1280
"""The detail board's width: the full-size board a player opens on demand."""

PHONE_COLUMN = 400
"""How wide Discord shows an image in a phone's chat column, in points."""


def min_sizes(width: int) -> tuple[int, int]:
    """(body, headline) font sizes in px for an image `width` px wide: 9 and 12 points once shown 400 points
    wide, so nothing is under 9 points and the headline, names and scores are at least 12 on a phone."""
    return math.ceil(9 * width / PHONE_COLUMN), math.ceil(12 * width / PHONE_COLUMN)


BIG_ROLES = frozenset({"headline", "title", "name", "score"})
"""Text roles that must be at least the headline size on a phone (player names, scores, the turn, a title)."""


Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class DrawnText:
    """One piece of text drawn on a board: its font size in px, its role, the text itself, where its line starts
    (its anchor's y) and the box its ink covers (tests check legibility, overlaps and that nothing runs off)."""

    size: int
    role: str
    text: str
    top: float = 0.0
    box: Box = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Mark:
    """A piece drawn on a board that text must not run into: a player's token, a die, a badge, a card."""

    kind: str
    box: Box


class Recording(list[DrawnText]):
    """The texts drawn inside `recording()` (a list, as the legibility tests read it) and the marks beside them."""

    def __init__(self) -> None:
        super().__init__()
        self.marks: list[Mark] = []
        self.canvas: tuple[int, int] | None = None

    def shifted(self, dx: float, dy: float) -> tuple[list[DrawnText], list[Mark]]:
        def move(box: Box) -> Box:
            return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy

        return ([DrawnText(t.size, t.role, t.text, t.top + dy, move(t.box)) for t in self],
                [Mark(m.kind, move(m.box)) for m in self.marks])


_RECORDER: ContextVar[Recording | None] = ContextVar("text_recorder", default=None)


@contextlib.contextmanager
def recording() -> Iterator[Recording]:
    """Collect every text and mark drawn by boards rendered inside the block (tests assert the legibility limits
    and the absence of overlaps on it). Costs nothing when no test records."""
    drawn = Recording()
    token = _RECORDER.set(drawn)
    try:
        yield drawn
    finally:
        _RECORDER.reset(token)


def is_recording() -> bool:
    """Whether a test is recording what boards draw (a cache may keep pieces built for it apart)."""
    return _RECORDER.get() is not None


def mark(kind: str, box: Box) -> None:
    """Note a token, die or badge for the overlap tests (nothing happens outside a recording)."""
    drawn = _RECORDER.get()
    if drawn is not None:
        drawn.marks.append(Mark(kind, box))


@dataclass(frozen=True)
class Face:
    """A cached piece of board (a card face, a tile, a static layer) with what was drawn on it, so a test that
    records sees its texts and marks wherever it is pasted, even when the piece was built by an earlier board."""

    image: Image.Image
    drawn: Recording


@contextlib.contextmanager
def building(image: Image.Image) -> Iterator[Recording]:
    """Record what is drawn on a cached piece while it is built (once per process)."""
    drawn = Recording()
    drawn.canvas = image.size
    token = _RECORDER.set(drawn)
    try:
        yield drawn
    finally:
        _RECORDER.reset(token)


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
        return kept[1]  # type: ignore[no-any-return]
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


def replay(face: Face, xy: tuple[int, int] = (0, 0), kind: str = "") -> None:
    """Inside a recording, note what was drawn on a cached piece at its place on the board (a board that starts
    from a copy of a cached layer calls this itself)."""
    drawn = _RECORDER.get()
    if drawn is not None:
        texts, marks = face.drawn.shifted(*xy)
        drawn.extend(texts)
        drawn.marks.extend(marks)
        if kind:
            drawn.marks.append(Mark(kind, (xy[0], xy[1], xy[0] + face.image.width, xy[1] + face.image.height)))


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

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: Any = None, *args: Any,
             role: str = "text", **kwargs: Any) -> None:
        if (not args and not kwargs and isinstance(text, str) and "\n" not in text and self.fontmode == "L"
                and isinstance(font, ImageFont.FreeTypeFont) and (anchor is None or anchor[1] in _VERTICAL_ANCHORS)
                and font.path in _WEIGHT_OF):
            # A board is mostly words it drew before (names, labels, the words of the last move): each word's
            # mask is rasterised once per process and blended where the line puts it; a line is measured as the
            # sum of its words, so measuring and drawing agree to the pixel.
            if not text:
                return
            width, words, inked = _layout(font, text, "a" if anchor is None else anchor[1])
            horizontal = "l" if anchor is None else anchor[0]
            x = float(xy[0]) - (width / 2 if horizontal == "m" else width if horizontal == "r" else 0)
            y = round(xy[1])
            if self.mode == "P":
                _indexed_line(self._image, x, y, inked, _rgb(fill))
            else:
                colour = _ink(self, fill)
                bitmap = self.draw.draw_bitmap
                for mask, offset, dx, dy in words:
                    bitmap((round(x + offset) + dx, y + dy), mask, colour)
            drawn = _RECORDER.get()
            if drawn is not None:
                boxes = [(round(x + o) + dx, y + dy, round(x + o) + dx + m.size[0], y + dy + m.size[1])
                         for m, o, dx, dy in words]
                box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                       max(b[3] for b in boxes)) if boxes else (x, y, x, y)
                drawn.append(DrawnText(int(font.size), role, text, float(xy[1]), box))
            return
        drawn = _RECORDER.get()
        if drawn is not None and text:
            box = self.textbbox(xy, text, font=font, anchor=anchor)
            drawn.append(DrawnText(int(getattr(font, "size", 10)), role, str(text), float(xy[1]), box))
        if self.mode == "P" and text:  # anti-aliased: blended in RGB where it lies
            left, top, right, bottom = self.textbbox(xy, text, font=font, anchor=anchor)
            area = (math.floor(left) - 2, math.floor(top) - 2, math.ceil(right) + 2, math.ceil(bottom) + 2)

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
            self._image.im.paste(_rgb(fill) if self.mode == "RGB" else palette_index(fill), box)
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


@lru_cache(maxsize=256)
def _rgb(colour: Any) -> Any:
    return ImageColor.getcolor(colour, "RGB") if isinstance(colour, str) else colour


_INKS: dict[tuple[str, Any], int] = {}


def _ink(draw: ImageDraw.ImageDraw, fill: Any) -> int:
    """The drawing ink of a colour, looked up once per image mode (PIL parses the colour string every call)."""
    key = (draw.mode, fill)
    ink = _INKS.get(key)
    if ink is None:
        ink_value, fill_ink = draw._getink(fill)
        ink = _INKS[key] = fill_ink if ink_value is None else ink_value
    return ink


LINES_KEPT = 1024
"""Lines and wrapped texts kept per cache (~1 KB each with what they hold): the labels every board draws and a
few boards of each live match; a line seen again after that is laid out again from cached words (tens of
microseconds)."""
NEW_WORDS_KEPT = 2048
"""Word masks kept besides the warmed vocabulary (~1.2 KB each: ~2.5 MB), twice as many widths: the words a match
brings, above all its players' names in a few faces each. A word dropped and seen again is rasterised again
(50-150 µs). With these bounds a worker's text caches are full after ~150 matches of each game (issue 25)."""


@lru_cache(maxsize=LINES_KEPT)
def _layout(face: ImageFont.FreeTypeFont, text: str, vertical: str) -> tuple[int, tuple[tuple[Any, float, int, int],
                                                                                      ...], Inked]:
    """A line's width and its words: (mask, x from the line's start, mask offset) each, cached per line; and its
    inked words for a board drawn in the palette (`Inked`)."""
    size, weight = int(face.size), _WEIGHT_OF[face.path]
    space = _word_width(" ", size, weight)
    x = words_width = 0.0
    words = []
    parts = text.split(" ")
    for word in parts:
        if word:
            mask, (dx, dy) = _word_mask(face, word, vertical)
            words.append((mask, x, dx, dy))
            width = _word_width(word, size, weight)
            x += width
            words_width += width
        x += space
    return math.ceil(words_width + space * (len(parts) - 1)), tuple(words), _inked(words)


Inked = tuple[int, int, bool, tuple[tuple[Any, float, int, int, int, int], ...]]
"""A line's words that leave ink, for `_indexed_line`: the top and bottom of their masks (from the line's y), whether
their masks are clear of each other wherever the line starts (a pixel apart before rounding), and each word as
(mask, x from the line's start, mask offset x, y, width, height)."""


def _inked(words: list[tuple[Any, float, int, int]]) -> Inked:
    inked = tuple((mask, offset, dx, dy, *mask.size) for mask, offset, dx, dy in words
                  if mask.size[0] and mask.size[1])
    if not inked:
        return 0, 0, True, ()
    clear = all(after[1] + after[2] - (before[1] + before[2] + before[4]) >= 1
                for before, after in itertools.pairwise(inked))
    return min(w[3] for w in inked), max(w[3] + w[5] for w in inked), clear, inked


def warm_word(face: ImageFont.FreeTypeFont, word: str, vertical: str = "a") -> None:
    """Rasterise and measure a word ahead of the first board that draws it (rendering.vocabulary), kept for the life
    of the process: the warmed vocabulary is fixed by its files, so it cannot grow a worker."""
    _word_mask.keep(face, word, vertical)  # type: ignore[attr-defined]
    _word_width.keep(word, int(face.size), _WEIGHT_OF.get(face.path, "regular"))  # type: ignore[attr-defined]


@kept_lru(NEW_WORDS_KEPT)
def _word_mask(face: ImageFont.FreeTypeFont, word: str, vertical: str) -> tuple[Any, tuple[int, int]]:
    """A word's anti-aliased mask and offset from its left edge at the `vertical` anchor (faces are cached, so the
    same object every time)."""
    if word[:1] in TURNED_ARROWS and face.path in _WEIGHT_OF:
        return _turned_arrow_mask(face, word, vertical)
    return face.getmask2(word, "L", anchor="l" + vertical)


TURNED_ARROWS = {"↗": 45, "↖": 135, "↙": 225, "↘": 315}
"""The diagonal arrows, as "→" turned counterclockwise by so many degrees: the shipped fonts have ← ↑ → ↓ only, and
a diagonal move would otherwise show the font's empty box."""


def _turned_arrow_mask(face: ImageFont.FreeTypeFont, word: str, vertical: str) -> tuple[Any, tuple[int, int]]:
    """A word that starts with a diagonal arrow ("↘", "↘,"): "→" turned about its centre, then the rest."""
    anchor = "l" + vertical
    core, (ax, ay) = face.getmask2("→", "L", anchor=anchor)
    arrow = Image.new("L", core.size)._new(core)
    turned = arrow.rotate(TURNED_ARROWS[word[0]], resample=Image.Resampling.BICUBIC, expand=True)
    ink = turned.getbbox() or (0, 0, turned.width, turned.height)
    centre_x, centre_y = ax + arrow.width / 2, ay + arrow.height / 2  # turned about the arrow's centre
    pieces = [(turned.crop(ink), round(centre_x - turned.width / 2) + ink[0],
               round(centre_y - turned.height / 2) + ink[1])]
    if word[1:]:
        rest, (rx, ry) = face.getmask2(word[1:], "L", anchor=anchor)
        pieces.append((Image.new("L", rest.size)._new(rest), round(face.getlength("→")) + rx, ry))
    left, top = min(x for _, x, _ in pieces), min(y for _, _, y in pieces)
    right = max(x + piece.width for piece, x, _ in pieces)
    bottom = max(y + piece.height for piece, _, y in pieces)
    mask = Image.new("L", (right - left, bottom - top), 0)
    for piece, x, y in pieces:
        mask.paste(255, (x - left, y - top), piece)
    return mask.im, (left, top)


@dataclass(frozen=True)
class PlayerStyle:
    """How a seat is drawn: a colour, a letter and a shape, so identity never rests on colour alone."""

    colour: str
    letter: str
    shape: str  # circle, square, triangle, diamond, hexagon, star
    ink: str  # text colour that reads on `colour`


PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle(ORANGE, "A", "circle", INK_DARK),
    PlayerStyle(SKY_BLUE, "B", "square", INK_DARK),
    PlayerStyle(BLUISH_GREEN, "C", "triangle", INK_DARK),
    PlayerStyle(REDDISH_PURPLE, "D", "diamond", INK_DARK),
    PlayerStyle(YELLOW, "E", "hexagon", INK_DARK),
    PlayerStyle(VERMILLION, "F", "star", INK_DARK),
)
"""Seat 0 is always orange circle A, seat 1 sky-blue square B, and so on, in every game."""

AUTOMATON_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle(BLUE, "1", "hexagon", INK),
    PlayerStyle(REDDISH_PURPLE, "2", "star", INK_DARK),
)
"""Non-human opponents (solo Automations): blue and reddish purple, far from seat 0's orange for every kind of
colour vision, and with their own shapes and numbers."""


def player_style(seat: int) -> PlayerStyle:
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


_FILES = {"regular": "SourceSansPro-Regular.ttf", "semibold": "SourceSansPro-Semibold.ttf",
          "bold": "SourceSansPro-Bold.ttf"}


def _font_path(weight: str) -> str | None:
    try:
        import font_source_sans_pro as fonts

        return f"{fonts.font_directory}/{_FILES[weight]}"
    except (ImportError, AttributeError):  # pragma: no cover - a minimal install
        return None


def font_paths() -> tuple[str, ...]:
    """Every shipped font file (rendering.glyphs reads which characters they can draw)."""
    return tuple(path for weight in _FILES if (path := _font_path(weight)) is not None)


_WEIGHT_OF = {path: weight for weight in _FILES if (path := _font_path(weight)) is not None}
"""Font file -> weight, so a face's text widths can be looked up in the cache by (size, weight)."""


def font(size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """A shipped font (Source Sans Pro from its PyPI package; Pillow's own scalable font as a fallback).

    Weights: regular, semibold, bold. Never depends on fonts that happen to be installed on the machine. One face
    object per (size, weight), however it is asked for (`font(18)` is `font(18, "regular")`): the word masks are
    cached per face object.
    """
    return _font(size, weight)


@lru_cache(maxsize=128)
def _font(size: int, weight: str) -> ImageFont.FreeTypeFont:
    path = _font_path(weight)
    try:
        if path is None:
            raise OSError("no shipped font")
        # Basic layout (FreeType with kerning): the fonts are Latin, and it lays text out 3-4 times faster than
        # Raqm, which matters for every new word on a board.
        return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
    except OSError:  # pragma: no cover - fallback for a minimal install
        return ImageFont.load_default(size=size)  # type: ignore[return-value]


BLOCKS_KEPT = 16
"""Freed image memory Pillow keeps for the next image. By default it returns every block to the system, so each
new canvas (2 MB) comes back as fresh pages and faults them in: 4 ms for a canvas and its copy, a third of a
board's encoding, against 0.2 ms when the blocks are reused."""


MALLOC_KEPT = 256 << 20
"""Freed memory the C allocator keeps in a render worker instead of handing it back to the system (glibc)."""


def keep_freed_memory() -> bool:
    """Let the C allocator reuse freed memory in this process (glibc only; True when it took the setting).

    By default glibc maps every block over 128 KB afresh and returns it when freed, so each board's palette image,
    the quantiser's tables and the PNG encoder's buffers come back as new pages: about 780 page faults (3 MB of
    zeroed memory) per board, as much in the encoding as in the drawing. Kept, they are reused."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    m_trim_threshold, m_mmap_threshold = -1, -3
    return bool(mallopt(m_mmap_threshold, 32 << 20)) and bool(mallopt(m_trim_threshold, MALLOC_KEPT))


FREED_KEPT_AFTER_TRIM = 8 << 20
"""Free memory left at the top of the heap when a worker hands the rest back (a few boards' worth of canvases and
encoder buffers, still reused without page faults: a public board drawn in the palette is 0.5 MB and needs no
full-size RGB copy or quantiser tables)."""


def release_freed_memory() -> bool:
    """Hand the freed memory glibc keeps back to the system but `FREED_KEPT_AFTER_TRIM` (True when it did).

    `keep_freed_memory` makes glibc reuse freed blocks, but a worker that draws every match of its bot frees
    blocks of every size, and the holes between live ones were never returned: a worker grew by ~1 MB per match
    (200 MB per 100 Expeditions matches). A render worker calls this every few boards (~2 ms, 0.1 ms a board)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return False
    trim.argtypes = (ctypes.c_size_t,)
    return bool(trim(FREED_KEPT_AFTER_TRIM))


def warm_up() -> None:
    """Load every font face once and let Pillow and the C allocator reuse freed memory (a render worker calls this
    when it starts, so no board pays for either)."""
    Image.core.set_blocks_max(BLOCKS_KEPT)
    keep_freed_memory()
    _hyphenators()
    board_palette()
    for weight in ("regular", "semibold", "bold"):
        for size in range(12, 44):
            font(size, weight)


_IN_RGB: ContextVar[bool] = ContextVar("boards_in_rgb", default=False)


@contextlib.contextmanager
def drawn_in_rgb() -> Iterator[None]:
    """Draw public boards and their layers in RGB inside the block, mapped to the palette only when encoded (as
    before issue 25): the reference the tests compare the boards drawn in the palette against. Clear the caches
    around it (`rendering.clear_caches`): cached layers keep the mode they were drawn in."""
    token = _IN_RGB.set(True)
    try:
        yield
    finally:
        _IN_RGB.reset(token)


def in_palette(width: int) -> bool:
    """Whether a canvas `width` px wide is drawn straight in the boards' palette: a public board (PHONE_WIDTH
    wide) is, so it needs no mapping when encoded; a detail board (full size, on demand) is drawn in RGB."""
    return width == PHONE_WIDTH and not _IN_RGB.get()


def _blank(size: tuple[int, int], colour: str, indexed: bool) -> Image.Image:
    if not indexed:
        return Image.new("RGB", size, colour)
    image = Image.new("P", size, palette_index(colour))
    image.putpalette(board_palette().palette)
    return image


def new_canvas(height: int, width: int = WIDTH) -> tuple[Image.Image, Draw]:
    """A blank board (a public board's canvas comes back from the last one encoded: see `recycle`), in the boards'
    palette when it is a public board (`in_palette`)."""
    indexed = in_palette(width)
    image = _spare((width, height), "P" if indexed else "RGB")
    if image is None:
        image = _blank((width, height), BACKGROUND, indexed)
    else:
        image.im.paste(palette_index(BACKGROUND) if indexed else _rgb(BACKGROUND), (0, 0, width, height))
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


_SPARES: list[Image.Image] = []
SPARES_KEPT = 2
"""Canvases kept for the next boards. A new 2 MB canvas is fresh memory whenever a smaller image (a new word's
mask, a new map space) took the block the last canvas left: faulting it in costs 0.3-3 ms, a third of a board's
encoding, against a fill or a copy into a canvas already in use."""


_SPARES_LOCK = threading.Lock()


def _spare(size: tuple[int, int], mode: str) -> Image.Image | None:
    with _SPARES_LOCK:
        for index, image in enumerate(_SPARES):
            if image.size == size and image.mode == mode:
                return _SPARES.pop(index)
    return None


def recycle(image: Image.Image) -> None:
    """Hand a public board's canvas back once it is encoded (the renderers' `render` does, and nothing else holds
    the image then); the next board draws into it."""
    with _SPARES_LOCK:
        if (image.mode in ("RGB", "P") and len(_SPARES) < SPARES_KEPT
                and all(spare is not image for spare in _SPARES)):
            _SPARES.append(image)


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
    return _ink(_MEASURE_DRAW, ink)


@lru_cache(maxsize=512)
def palette_index(colour: Any) -> int:
    """A colour's index in the boards' palette: the one mapping the RGB board would give it (a named colour's own
    index)."""
    if isinstance(colour, int):
        return colour
    probe = Image.new("RGB", (1, 1), _rgb(colour))
    return board_indexed(probe).getpixel((0, 0))  # type: ignore[return-value]


def finish(image: Image.Image) -> bytes:
    """A public board's PNG; its canvas is recycled for the next board."""
    try:
        return encode_board(image)
    finally:
        recycle(image)


@kept_lru(2 * NEW_WORDS_KEPT)
def _word_width(word: str, size: int, weight: str) -> float:
    face = font(size, weight)
    if word[:1] in TURNED_ARROWS:  # drawn as a turned "→" (see _word_mask)
        return face.getlength("→") + face.getlength(word[1:])
    return face.getlength(word)


@lru_cache(maxsize=NEW_WORDS_KEPT)
def measure(text: str, size: int, weight: str = "regular") -> int:
    """Text width in px as `Draw.text` lays it out (word by word), cached per process: the same names and labels
    come back on every board of a match, and a new sentence is measured from words already measured."""
    words = text.split(" ")
    return math.ceil(sum(_word_width(w, size, weight) for w in words if w)
                     + _word_width(" ", size, weight) * (len(words) - 1))


def text_width(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont) -> int:
    size = getattr(face, "size", None)
    weight = _WEIGHT_OF.get(getattr(face, "path", ""))
    if size is not None and weight is not None:
        return measure(text, int(size), weight)
    left, _, right, _ = draw.textbbox((0, 0), text, font=face)
    return int(right - left)


def fit_text(draw: ImageDraw.ImageDraw, text: str, max_width: int, size: int, weight: str = "regular",
             min_size: int = 16) -> ImageFont.FreeTypeFont:
    """The largest font (down to min_size) in which `text` fits `max_width`."""
    while size > min_size and text_width(draw, text, font(size, weight)) > max_width:
        size -= 1
    return font(size, weight)


def ellipsize(draw: ImageDraw.ImageDraw, text: str, max_width: int, face: ImageFont.FreeTypeFont) -> str:
    """`text` cut to fit `max_width` with an ellipsis (detail boards only: the public board never cuts a name).

    Binary search on cached widths: a handful of measurements instead of one per dropped character."""
    if text_width(draw, text, face) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(draw, text[:middle] + "…", face) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low] + "…"


def wrap(draw: ImageDraw.ImageDraw, text: str, max_width: int, face: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy word wrap to `max_width` pixels (a word wider than the line stays whole on its own line)."""
    size, weight = getattr(face, "size", None), _WEIGHT_OF.get(getattr(face, "path", ""))
    if size is not None and weight is not None:
        return list(_wrapped(text, max_width, int(size), weight))
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in (w for w in paragraph.split(" ") if w):  # (a no-break space keeps words together)
            candidate = f"{line} {word}".strip()
            if line and text_width(draw, candidate, face) > max_width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


@lru_cache(maxsize=LINES_KEPT // 2)
def _wrapped(text: str, max_width: int, size: int, weight: str) -> tuple[str, ...]:
    """`wrap` on running word widths, for the shipped fonts (a word wider than the line stays whole)."""
    return _greedy(text, max_width, size, weight, split_long=False, keep_numbers=False)


@lru_cache(maxsize=LINES_KEPT)
def lines(text: str, max_width: int, size: int, weight: str = "regular", keep_numbers: bool = False
          ) -> tuple[str, ...]:
    """Word wrap on cached widths; a word wider than the line is split with a hyphen (never cut or ellipsized).
    With `keep_numbers` (a list of names and their points) a number that does not fit takes the word before it
    to the next line ("Felsenharpyie 4", never a lone "4" under its monster), at the cost of a line now and then."""
    return _greedy(text, max_width, size, weight, split_long=True, keep_numbers=keep_numbers)


_NUMBER = re.compile(r"[($+\u2212-]?\d[\d.,;:)%]*")
"""A number with its signs ("4", "12),", "$159."): with `keep_numbers` it stays on the line of the word before it."""


def _greedy(text: str, max_width: int, size: int, weight: str, split_long: bool, keep_numbers: bool
            ) -> tuple[str, ...]:
    """Greedy word wrap. A line's width is kept as the running sum of its words' widths (as `measure` adds them,
    so the two agree to the pixel) instead of measuring every candidate line anew: a new sentence costs one lookup
    per word."""
    width_of, ceil, number = _word_width, math.ceil, _NUMBER.fullmatch  # (looked up once: a board wraps dozens)
    space = width_of(" ", size, weight)
    out: list[str] = []
    for paragraph in text.split("\n"):
        words: list[str] = []
        widths: list[float] = []
        words_width = 0.0
        for word in paragraph.split(" "):
            if not word:  # (a no-break space keeps words together)
                continue
            while split_long and ceil(width_of(word, size, weight)) > max_width and len(word) > 1:
                if words:
                    out.append(" ".join(words))
                    words, widths, words_width = [], [], 0.0
                cut = _hyphen_cut(word, max_width, size, weight)
                out.append(word[:cut] if word[cut - 1] == "-" else word[:cut] + "-")
                word = word[cut:]
            width = width_of(word, size, weight)
            if words and ceil(words_width + width + space * len(words)) > max_width:
                if (keep_numbers and len(words) > 1 and number(word) and not number(words[-1])
                        and ceil(widths[-1] + width + space) <= max_width):
                    out.append(" ".join(words[:-1]))
                    words, widths, words_width = [words[-1]], [widths[-1]], widths[-1]
                else:
                    out.append(" ".join(words))
                    words, widths, words_width = [], [], 0.0
            words.append(word)
            widths.append(width)
            words_width += width
        out.append(" ".join(words))
    return tuple(out)


def _hyphen_cut(word: str, max_width: int, size: int, weight: str) -> int:
    """Where to break a word too wide for its line, leaving the first part fitting with its hyphen: after a hyphen
    the word has, else at the last break English hyphenation allows ("Clock-work", "Whis-per-ing"), else German
    (some monsters are: "Echo-see-schlange"); failing all, after the most letters that fit."""
    own = [i + 1 for i, ch in enumerate(word[:-1]) if ch == "-"]
    for breaks in (own, *(hyphenator.positions(word) for hyphenator in _hyphenators())):
        for cut in sorted(breaks, reverse=True):
            head = word[:cut] if word[cut - 1] == "-" else word[:cut] + "-"
            if measure(head, size, weight) <= max_width:
                return cut
    cut = len(word) - 1
    while cut > 1 and measure(word[:cut] + "-", size, weight) > max_width:
        cut -= 1
    return cut


@lru_cache(maxsize=1)
def _hyphenators() -> tuple[pyphen.Pyphen, ...]:
    """English, then German hyphenation patterns (pyphen's copy of LibreOffice's dictionaries; at least three
    letters after a break), loaded once per process."""
    return pyphen.Pyphen(lang="en_US", right=3), pyphen.Pyphen(lang="de_DE", right=3)


def facts_line(facts: Sequence[str]) -> str:
    """Facts joined with " · ", each kept whole on a line when wrapped ("3 markers left" never splits) and the dot
    ending a line rather than starting the next."""
    return "\u00a0· ".join(fact.replace(" ", "\u00a0") for fact in facts)


def fit_lines(text: str, max_width: int, max_lines: int, sizes: Sequence[int], weight: str = "regular"
              ) -> tuple[int, tuple[str, ...]]:
    """The largest size of `sizes` (largest first) at which `text` wraps into `max_lines`, with its lines; the
    smallest size's lines when none does (the caller makes room: nothing is ever cut)."""
    for size in sizes:
        wrapped = lines(text, max_width, size, weight)
        if len(wrapped) <= max_lines:
            return size, wrapped
    return sizes[-1], lines(text, max_width, sizes[-1], weight)


def sentences_that_fit(text: str, max_width: int, max_lines: int, size: int) -> tuple[str, ...]:
    """The leading whole sentences of `text` that wrap into `max_lines` (the rest stays in the detail board):
    shortened by dropping sentences, never by cutting one."""
    parts = [p.strip() for p in text.replace("! ", "!|").replace(". ", ".|").split("|") if p.strip()]
    kept: tuple[str, ...] = ()
    for count in range(1, len(parts) + 1):
        wrapped = lines(" ".join(parts[:count]), max_width, size)
        if len(wrapped) > max_lines:
            break
        kept = wrapped
    if not kept and parts:  # one sentence longer than the room: its words wrap onto the lines there are
        kept = lines(parts[0], max_width, size)[:max_lines]
    return kept


def draw_token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, style: PlayerStyle,
               label: str | None = None, outline: str = INK_DARK, width: int = 3) -> None:
    """A player's piece: their shape in their colour with their letter on it.

    On a board the piece is drawn once per process and pasted (a board has a dozen of them); a test that
    records sees it drawn in place."""
    image = getattr(draw, "_image", None)
    if _RECORDER.get() is None and image is not None and image.mode in ("RGB", "P"):
        sprite = token_sprite(radius, style, label, outline, width)
        half = sprite.width // 2
        blit(image, sprite, (round(centre[0]) - half, round(centre[1]) - half), sprite)
        return
    _draw_token(draw, centre, radius, style, label, outline, width)


@lru_cache(maxsize=256)
def token_sprite(radius: float, style: PlayerStyle, label: str | None, outline: str, width: int) -> Image.Image:
    """A player's piece on a transparent square (ceil(radius) + width + 2 from its centre to each side)."""
    half = math.ceil(radius) + width + 2
    sprite = Image.new("RGBA", (2 * half, 2 * half), (0, 0, 0, 0))
    _draw_token(Draw(sprite), (half, half), radius, style, label, outline, width)
    return sprite


def _draw_token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, style: PlayerStyle,
                label: str | None, outline: str, width: int) -> None:
    x, y = centre
    r = radius
    points: Sequence[tuple[float, float]]
    if style.shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=style.colour, outline=outline, width=width)
    elif style.shape == "square":
        draw.rectangle((x - r * 0.88, y - r * 0.88, x + r * 0.88, y + r * 0.88), fill=style.colour,
                       outline=outline, width=width)
    else:
        if style.shape == "triangle":
            points = [(x, y - r), (x + r * 0.95, y + r * 0.75), (x - r * 0.95, y + r * 0.75)]
        elif style.shape == "diamond":
            points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
        elif style.shape == "hexagon":
            points = [(x - r, y), (x - r / 2, y - r * 0.87), (x + r / 2, y - r * 0.87), (x + r, y),
                      (x + r / 2, y + r * 0.87), (x - r / 2, y + r * 0.87)]
        else:  # star
            import math

            points = []
            for i in range(10):
                angle = -math.pi / 2 + i * math.pi / 5
                rr = r if i % 2 == 0 else r * 0.5
                points.append((x + rr * math.cos(angle), y + rr * math.sin(angle)))
        draw.polygon(points, fill=style.colour, outline=outline, width=width)
    mark("token", (x - r, y - r, x + r, y + r))
    text = style.letter if label is None else label
    if text:
        face = font(max(12, int(r * 1.1)), "bold")
        dy = r * 0.15 if style.shape == "triangle" else 0
        draw.text((x, y + dy), text, font=face, fill=style.ink, anchor="mm", role="label")


def rounded_panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: str = PANEL,
                  outline: str | None = None, width: int = 2, radius: int = 14) -> None:
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def header_band(draw: ImageDraw.ImageDraw, width: int, title: str, turn: str, last_move: str,
                turn_style: PlayerStyle | None, scores: Sequence[tuple[PlayerStyle, str, str]],
                top: int = 0) -> int:
    """The band that answers, at a glance: whose turn, what just happened, who is winning.

    `scores` holds (style, name, score text) per player. Returns the y just below the band.
    """
    height = 150 + 44 * ((len(scores) + 2) // 3)
    draw.rectangle((0, top, width, top + height), fill=PANEL)
    x = 24
    if turn_style is not None:
        draw_token(draw, (x + 22, top + 42), 22, turn_style)
        x += 58
    room = width - x - 24 - measure(title, 26, "semibold") - 24  # the turn stops short of the title on the right
    turn_text, turn_face = fitted(turn, room, 40, "bold", 16)
    if turn_text != turn and " (" in turn:  # too long even small: the aside goes (the log below tells it)
        turn_text, turn_face = fitted(turn.split(" (")[0], room, 40, "bold", 16)
    draw.text((x, top + 18), turn_text, font=turn_face, fill=INK)
    draw.text((width - 24, top + 24), title, font=font(26, "semibold"), fill=INK_MUTED, anchor="ra")
    move_text, move_face = fitted(last_move, width - 48, 28, "regular", 20)
    if move_text != last_move:  # whole sentences only (the log below has the rest): a name is never cut
        move_text = " ".join(sentences_that_fit(last_move, width - 48, 1, 20))
    draw.text((24, top + 76), move_text, font=move_face, fill=INK_MUTED)
    column = (width - 48) // 3
    for index, (style, name, score) in enumerate(scores):
        cx = 24 + (index % 3) * column
        cy = top + 126 + (index // 3) * 44
        draw_token(draw, (cx + 16, cy + 4), 16, style)
        label = f"{name}  {score}"
        label_text, label_face = fitted(label, column - 50, 28, "semibold", 16)
        draw.text((cx + 40, cy - 12), label_text, font=label_face, fill=INK)
    return top + height


def encode_png(image: Image.Image, *, optimize: bool = False) -> bytes:
    """PNG bytes. zlib level 6 costs a quarter of `optimize=True`'s time for a file only ~3% larger, and a board is
    encoded after every move."""
    buffer = io.BytesIO()
    if optimize:
        image.save(buffer, format="PNG", optimize=True)
    else:
        image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def add_footer(png: bytes, text: str) -> bytes:
    """The same image with a strip of text added below it (the chosen seed on a final board, for instance)."""
    with Image.open(io.BytesIO(png)) as original:
        base = original.convert("RGB")
    strip = 56
    image = Image.new("RGB", (base.width, base.height + strip), PANEL)
    image.paste(base, (0, 0))
    draw = ImageDraw.Draw(image)
    draw.text((24, base.height + strip // 2), text, font=font(26), fill=INK_MUTED, anchor="lm")
    return encode_png(image)


# --- the public board, designed for a phone's 400-point column ------------------------------------------------

PHONE_WIDTH = 800
"""Every public board is 800 px wide: shown 400 points wide, 2 px are one point."""
SMALL, BIG = min_sizes(PHONE_WIDTH)
"""18 px and 24 px at 800 wide: the smallest text, and the smallest headline, name and score."""
HEADER_H = 104


def phone_header(draw: Draw, width: int, headline: str, last_move: str, style: PlayerStyle | None) -> int:
    """The fixed-height band on top of every public board: whose turn (their token and the headline, large) and
    the last move in words. Returns the band's bottom."""
    draw.rectangle((0, 0, width, HEADER_H), fill=PANEL)
    x = 14
    if style is not None:
        draw_token(draw, (x + 20, 30), 20, style)
        x += 50
    size, head = fit_lines(headline, width - x - 14, 1, (30, 28, 26, BIG), "bold")
    if len(head) > 2 and " (" in headline:  # too long for two lines: the aside goes (the detail board has it)
        size, head = fit_lines(headline.split(" (")[0], width - x - 14, 1, (30, 28, 26, BIG), "bold")
    head = head[:2]
    y = 8
    for line in head:
        draw.text((x, y), line, font=font(size, "bold"), fill=INK, role="headline")
        y += size + 4
    room = 1 if len(head) > 1 else 2
    y = max(y, 54)  # below the turn token
    for line in sentences_that_fit(last_move, width - 28, room, SMALL):
        draw.text((14, y + 2), line, font=font(SMALL), fill=INK_MUTED)
        y += SMALL + 4
    return HEADER_H


def name_lines(name: str, max_width: int, size: int = BIG) -> tuple[str, ...]:
    """A player's name on at most two lines, whole (a word too long for a line is split with a hyphen)."""
    return lines(name, max_width, size, "bold")


BOARD_MODULES = ("kit", "the_expedition", "monster_expedition", "expeditions", "leaderboard")
"""The modules whose colours make the boards' palette (every "#RRGGBB" written in them)."""
SURFACES = (BACKGROUND, PANEL, PANEL_LIGHT)
"""What most text and shapes are drawn on: their anti-aliased edges blend towards these."""
BLEND_LEVELS = (1 / 2, 1 / 4, 3 / 4, 1 / 8, 3 / 8, 5 / 8, 7 / 8)
"""Blends of every named colour with each surface, taken in this order until the palette's 256 are full."""
BOARD_COMPRESSION = 3
"""zlib level of a board's PNG, chosen by measurement (boards of every game, this palette): level 1 takes ~2.0 ms for
~38 KB, 3 ~2.3 ms for ~34 KB, 6 ~5 ms for ~29 KB, 9 ~35 ms for ~26 KB; a board is encoded after every move."""


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """The boards' fixed palette: every colour the renderers name, then its anti-aliasing blends with the surfaces.

    A fresh quantisation per board (an octree of its pixels) cost more than compressing the board; mapping to a
    known palette costs a sixth of it, and the boards' flat colours come out exactly (the 64-colour octree moved
    them). Built from the sources, so a colour a renderer adds is in it."""
    named: list[tuple[int, int, int]] = []
    for name in BOARD_MODULES:
        source = (Path(__file__).parent / f"{name}.py").read_text(encoding="utf-8")
        for written in re.findall(r"#[0-9A-Fa-f]{6}\b", source):
            colour = ImageColor.getrgb(written)
            if colour not in named:
                named.append(colour)  # type: ignore[arg-type]
    colours = named[:256]
    surfaces = [ImageColor.getrgb(surface) for surface in SURFACES]
    for level in BLEND_LEVELS:
        for surface in surfaces:
            for colour in named:
                blend = tuple(round(s + (c - s) * level) for s, c in zip(surface, colour, strict=True))
                if len(colours) < 256 and blend not in colours:
                    colours.append(blend)  # type: ignore[arg-type]
    while True:  # Pillow maps through a cache of colour cells: a blend sharing a named colour's cell may take it
        palette = Image.new("P", (1, 1))
        palette.putpalette([channel for colour in colours for channel in colour])
        probe = Image.new("RGB", (len(named), 1))
        probe.putdata(named)  # type: ignore[arg-type]
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
    it compresses to a third of the bytes of RGB)."""
    return compress_board(board_indexed(image))


def clip_alt(parts: Sequence[str], limit: int = 1000) -> str:
    """Alt text from sentences, keeping whole sentences within Discord's `limit` characters."""
    out = ""
    for part in parts:
        candidate = f"{out} {part}".strip() if out else part
        if len(candidate) > limit:
            break
        out = candidate
    return out


def fitted(text: str, max_width: int, size: int, weight: str = "regular", min_size: int = 14
           ) -> tuple[str, ImageFont.FreeTypeFont]:
    """`text` and the largest face (down to `min_size`) in which it fits `max_width`: detail boards shrink a name
    rather than cut it. Only a text too long even at `min_size` (a sentence, not a name) is cut with an ellipsis."""
    while size > min_size and measure(text, size, weight) > max_width:
        size -= 1
    face = font(size, weight)
    if measure(text, size, weight) <= max_width:
        return text, face
    return ellipsize(_MEASURE_DRAW, text, max_width, face), face


def whole_items(items: Sequence[str], max_width: int, size: int, weight: str = "regular") -> str:
    """As many whole items as fit, comma-separated, then "+N more": a list is shortened by dropping names, never by
    cutting one."""
    for count in range(len(items), -1, -1):
        rest = len(items) - count
        text = ", ".join(items[:count]) + (f" +{rest} more" if rest else "")
        if measure(text, size, weight) <= max_width:
            return text
    return f"{len(items)} cards"


_MEASURE_DRAW = ImageDraw.Draw(Image.new("RGB", (1, 1)))


# --- drawn pieces: dice, planets and moons, terrain, medals (no image assets: the kit draws every icon) -----------

_PIP_SPOTS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
              4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
              6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}
"""Where the pips of an ordinary die sit, in thirds of its face from the centre."""


@lru_cache(maxsize=512)
def die_face(size: int, value: int, fill: str, ink: str, pips: bool, state: str = "rolled",
             background: str = BACKGROUND, label: str = "") -> Face:
    """A die showing `value`, drawn once per process on `background`: pips for an ordinary six-sided die (1-6),
    the number for a die whose faces go past 6. `state` is "rolled", "banked" (a bright frame: set aside) or "lost"
    (dimmed and struck through: gone to a misthrow). With a `label` the die shows it instead (a die not rolled
    yet, named by its region's letter)."""
    pad = 3
    image = Image.new("RGB", (size + 2 * pad, size + 2 * pad), _rgb(background))
    with building(image) as drawn:
        draw = Draw(image)
        box = (pad, pad, pad + size - 1, pad + size - 1)
        if state == "banked":
            draw.rounded_rectangle((0, 0, size + 2 * pad - 1, size + 2 * pad - 1), radius=size // 4 + 2,
                                   fill=GOOD_TEXT)
        edge = INK_MUTED if fill == DIE_BLACK else INK_DARK
        draw.rounded_rectangle(box, radius=size // 5, fill=fill, outline=edge, width=2)
        centre = pad + (size - 1) / 2
        if label:
            draw.text((centre, centre), label, font=font(max(SMALL, int(size * 0.56)), "bold"), fill=ink,
                      anchor="mm", role="label")
        elif pips and 1 <= value <= 6:
            step, radius = size * 0.27, max(2.5, size * 0.085)
            for dx, dy in _PIP_SPOTS[value]:
                x, y = centre + dx * step, centre + dy * step
                draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=ink)
        else:
            draw.text((centre, centre), str(value), font=font(max(12, int(size * 0.62)), "bold"), fill=ink,
                      anchor="mm", role="label")
        if state == "lost":
            veil = Image.new("RGB", image.size, _rgb(background))
            image.paste(Image.blend(image, veil, 0.55))
            draw = Draw(image)
            draw.line((pad + 4, pad + 4, pad + size - 5, pad + size - 5), fill=BAD, width=4)
            draw.line((pad + 4, pad + size - 5, pad + size - 5, pad + 4), fill=BAD, width=4)
        mark("die", (0, 0, image.width, image.height))
    return Face(image, drawn)


@lru_cache(maxsize=64)
def body_face(radius: int, kind: str, background: str) -> Face:
    """A planet or a moon as a body, drawn once per process on `background`: a planet is a rust-coloured globe
    with cloud bands and a ring, a moon a grey globe with craters; both lit from the upper left."""
    ring = kind == "planet"
    half_w = int(radius * (1.55 if ring else 1.0)) + 3
    half_h = radius + 3
    image = Image.new("RGB", (2 * half_w, 2 * half_h), _rgb(background))
    with building(image) as drawn:
        draw = Draw(image)
        cx, cy, r = half_w, half_h, radius
        light, base, dark = (RUST_LIGHT, RUST, RUST_DARK) if ring else (SILVER_LIGHT, SILVER, SILVER_DARK)
        if ring:  # the back half of the ring, behind the globe
            draw.arc((cx - r * 1.5, cy - r * 0.42, cx + r * 1.5, cy + r * 0.42), 180, 360, fill=INK_MUTED, width=3)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=dark)
        draw.ellipse((cx - r, cy - r, cx + r * 0.78, cy + r * 0.78), fill=base)  # lit side
        draw.ellipse((cx - r * 0.7, cy - r * 0.7, cx - r * 0.15, cy - r * 0.15), fill=light)  # highlight
        if ring:
            for offset in (-0.35, 0.1, 0.5):  # cloud bands
                y = cy + offset * r
                half = math.sqrt(max(0.0, r * r - (y - cy) ** 2)) * 0.9
                draw.line((cx - half, y, cx + half * 0.7, y), fill=light if offset < 0 else dark, width=3)
            draw.arc((cx - r * 1.5, cy - r * 0.42, cx + r * 1.5, cy + r * 0.42), 0, 180, fill=INK, width=3)
        else:
            for fx, fy, fr in ((0.35, 0.3, 0.22), (-0.3, 0.45, 0.14), (0.1, -0.4, 0.12)):  # craters
                x, y, cr = cx + fx * r, cy + fy * r, fr * r
                draw.ellipse((x - cr, y - cr, x + cr, y + cr), fill=dark)
        mark(kind, (cx - r, cy - r, cx + r, cy + r))
    return Face(image, drawn)


def terrain(draw: ImageDraw.ImageDraw, centre: tuple[float, float], kind: str, width: float,
            ink: str = TERRAIN_INK) -> None:
    """A region's landscape in a few strokes, `width` px across, centred on `centre`: dunes in the south, trees
    in the centre, snowy peaks in the north (drawn into a tile's cached piece, under its text)."""
    x, y = centre
    w = width
    if kind == "south":
        for dx, dy in ((-0.28, 0.0), (0.22, -0.12)):
            left, top = x + dx * w - w * 0.25, y + dy * w - w * 0.12
            draw.arc((left, top, left + w * 0.5, top + w * 0.3), 200, 340, fill=ink, width=2)
    elif kind == "central":
        for dx, scale in ((-0.3, 0.8), (0.0, 1.0), (0.3, 0.8)):
            tx, h = x + dx * w, w * 0.3 * scale
            draw.polygon([(tx, y - h), (tx + h * 0.45, y + h * 0.2), (tx - h * 0.45, y + h * 0.2)], fill=ink)
            draw.line((tx, y + h * 0.2, tx, y + h * 0.45), fill=ink, width=2)
    else:
        for dx, scale in ((-0.2, 1.0), (0.22, 0.75)):
            px, h = x + dx * w, w * 0.36 * scale
            base = y + w * 0.12
            draw.polygon([(px, base - h), (px + h * 0.8, base), (px - h * 0.8, base)], fill=ink)
            draw.polygon([(px, base - h), (px + h * 0.27, base - h * 0.66), (px - h * 0.27, base - h * 0.66)],
                         fill=INK)


MEDALS = {1: GOLD, 2: SILVER_MEDAL, 3: BRONZE}


def medal(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, place: int) -> None:
    """A final board's place: a medal with its number (gold, silver, bronze, then plain), ribbon above."""
    x, y = centre
    r = radius
    draw.polygon([(x - r * 0.7, y - r * 1.45), (x - r * 0.1, y - r * 1.45), (x + r * 0.25, y - r * 0.6),
                  (x - r * 0.35, y - r * 0.6)], fill=BLUE)
    draw.polygon([(x + r * 0.1, y - r * 1.45), (x + r * 0.7, y - r * 1.45), (x + r * 0.35, y - r * 0.6),
                  (x - r * 0.25, y - r * 0.6)], fill=VERMILLION)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=MEDALS.get(place, PANEL_LIGHT), outline=INK_DARK, width=2)
    mark("medal", (x - r, y - r * 1.45, x + r, y + r))
    draw.text((x, y + 1), str(place), font=font(max(12, int(r * 1.2)), "bold"),
              fill=INK_DARK if place in MEDALS else INK, anchor="mm", role="label")


@lru_cache(maxsize=128)
def piece_face(kind: str, size: int, style: PlayerStyle, background: str | None = None) -> Face:
    """A game piece in a player's colour with their letter, drawn once per process, on a transparent square (or on
    `background`): "pawn", a standing figure (an explorer, a mech: the piece that moves), or "cube", a block with
    its top and side faces (a marker left behind). The two differ by shape, not only by colour."""
    pad = 3
    side = size + 2 * pad
    image = Image.new("RGBA" if background is None else "RGB", (side, side),
                      (0, 0, 0, 0) if background is None else _rgb(background))
    with building(image) as drawn:
        draw = Draw(image)
        s = size
        left, top = pad, pad
        if kind == "pawn":
            head = s * 0.2
            cx = left + s / 2
            body = [(cx - s * 0.2, top + s * 0.34), (cx + s * 0.2, top + s * 0.34), (left + s * 0.98, top + s - 2),
                    (left + s * 0.02, top + s - 2)]
            draw.polygon(body, fill=style.colour, outline=INK_DARK, width=2)
            draw.ellipse((cx - head, top, cx + head, top + 2 * head), fill=style.colour, outline=INK_DARK,
                         width=2)
            label_y = top + s * 0.7
        else:
            depth = s * 0.2
            front = (left, top + depth, left + s - depth, top + s - 1)
            draw.polygon([(left, top + depth), (left + depth, top), (left + s - 1, top), (left + s - depth,
                                                                                          top + depth)],
                         fill=style.colour, outline=INK_DARK)
            draw.polygon([(left + s - depth, top + depth), (left + s - 1, top), (left + s - 1, top + s - depth - 1),
                          (left + s - depth, top + s - 1)], fill=INK_DARK, outline=INK_DARK)
            draw.rectangle(front, fill=style.colour, outline=INK_DARK, width=2)
            label_y = (front[1] + front[3]) / 2
            cx = (front[0] + front[2]) / 2
        mark(kind, (left, top, left + s, top + s))
        draw.text((cx, label_y), style.letter, font=font(max(SMALL, int(s * 0.42)), "bold"), fill=style.ink,
                  anchor="mm", role="label")
    return Face(image, drawn)

