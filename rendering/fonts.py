"""Which font draws which character: the shipped Latin font first (Source Sans Pro, from its PyPI package), then the
Noto fonts of the system (Debian's fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji) for what it lacks:
Chinese, Japanese and Korean, Arabic and Hebrew, full-width forms, emoji and symbols in players' names.

A word the Latin font draws whole (every label a board draws, nearly every name) never comes here beyond one set
look-up (`plain`). Any other word is cut into runs, each drawn by the first font that has its characters, and laid
out in visual order: right-to-left runs (Arabic, Hebrew) reversed, shaped by Raqm (HarfBuzz and FriBiDi, in
Pillow's wheels; FriBiDi is Debian's libfribidi0) so Arabic letters join. A fallback font is opened, and its
character map read, only when a character needs it: a worker that never meets a Chinese name never loads the CJK
font (its map alone takes ~0.4 s to read; a worker that has drawn names in every script keeps ~30 MB more).
"""

from __future__ import annotations

import bisect
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageFont, features

_LATIN_FILES = {"regular": "SourceSansPro-Regular.ttf", "semibold": "SourceSansPro-Semibold.ttf",
                "bold": "SourceSansPro-Bold.ttf"}


def latin_path(weight: str) -> str | None:
    """The shipped Latin font file of a weight (regular, semibold, bold), from the font-source-sans-pro package."""
    try:
        import font_source_sans_pro as fonts

        return f"{fonts.font_directory}/{_LATIN_FILES[weight]}"
    except (ImportError, AttributeError):  # pragma: no cover - a minimal install
        return None


def latin_paths() -> tuple[str, ...]:
    """Every shipped Latin font file, one per weight."""
    return tuple(path for weight in _LATIN_FILES if (path := latin_path(weight)) is not None)


@dataclass(frozen=True)
class Fallback:
    """A system font for characters the Latin font lacks: its file per weight (bold stands in for semibold; a
    font with one weight draws every weight), the face of a collection, and how it is laid out."""

    name: str
    files: dict[str, str] = field(hash=False)
    index: int = 0
    shaped: bool = False
    """Laid out by Raqm: letters that join (Arabic), marks, emoji sequences and flags."""
    scale: float = 1.0
    """Its size against the Latin font's: Arabic letters reach higher and lower than Latin ones, and CJK ones fill
    their em (at 0.85 and 0.92 a name's two lines, 28 px apart at 24 px, stay clear of each other); colour emoji
    are drawn smaller than their em."""
    bitmap_size: int = 0
    """A colour bitmap font (CBDT) has glyphs at this size only: drawn there, then scaled."""

    def file(self, weight: str) -> str:
        return self.files.get(weight) or self.files.get("bold" if weight == "semibold" else "regular") \
            or self.files["regular"]


FALLBACKS: tuple[Fallback, ...] = (
    Fallback("Noto Sans", {"regular": "NotoSans-Regular.ttf", "bold": "NotoSans-Bold.ttf"}),
    Fallback("Noto Sans Arabic", {"regular": "NotoSansArabic-Regular.ttf", "bold": "NotoSansArabic-Bold.ttf"},
             shaped=True, scale=0.85),
    Fallback("Noto Sans Hebrew", {"regular": "NotoSansHebrew-Regular.ttf", "bold": "NotoSansHebrew-Bold.ttf"},
             shaped=True),
    Fallback("Noto Color Emoji", {"regular": "NotoColorEmoji.ttf"}, shaped=True, scale=0.8, bitmap_size=109),
    Fallback("Noto Sans Symbols 2", {"regular": "NotoSansSymbols2-Regular.ttf"}),
    Fallback("Noto Sans Symbols", {"regular": "NotoSansSymbols-Regular.ttf", "bold": "NotoSansSymbols-Bold.ttf"}),
    Fallback("Noto Sans CJK JP", {"regular": "NotoSansCJK-Regular.ttc", "bold": "NotoSansCJK-Bold.ttc"},
             scale=0.92),
)
"""The fallback fonts, tried in this order for a character the Latin font lacks (Debian: fonts-noto-core for the
Noto Sans families, fonts-noto-color-emoji, fonts-noto-cjk; the CJK collection's Japanese face also draws Chinese,
Korean and the full-width forms)."""

FONT_DIRECTORIES = ("/usr/share/fonts", "/usr/local/share/fonts")
"""Where the fallback fonts are looked for (with any directories in EXPEDITION_FONT_DIRS, separated by ':')."""


@lru_cache(maxsize=1)
def _installed() -> dict[str, str]:
    """Font file name -> path, for every font file under the font directories (read once per process)."""
    roots = [*filter(None, os.environ.get("EXPEDITION_FONT_DIRS", "").split(":")), *FONT_DIRECTORIES]
    found: dict[str, str] = {}
    for root in roots:
        for directory, _, files in os.walk(root):
            for name in files:
                found.setdefault(name, os.path.join(directory, name))
    return found


def fallback_path(fallback: Fallback, weight: str = "regular") -> str | None:
    """Where a fallback font of `weight` is installed, if it is."""
    return _installed().get(fallback.file(weight))


def fallback_paths() -> dict[str, str | None]:
    """Each fallback font's regular file, or None where it is not installed (its characters are left out)."""
    return {fallback.name: fallback_path(fallback) for fallback in FALLBACKS}


class Coverage:
    """The characters a font has, as sorted ranges of code points (a CJK font's ~45,000 in a few KB)."""

    def __init__(self, codepoints: Sequence[int]) -> None:
        starts: list[int] = []
        ends: list[int] = []
        for codepoint in sorted(codepoints):
            if ends and codepoint == ends[-1] + 1:
                ends[-1] = codepoint
            else:
                starts.append(codepoint)
                ends.append(codepoint)
        self._starts, self._ends = tuple(starts), tuple(ends)

    def __contains__(self, codepoint: int) -> bool:
        at = bisect.bisect_right(self._starts, codepoint) - 1
        return at >= 0 and codepoint <= self._ends[at]


@lru_cache(maxsize=len(FALLBACKS))
def _coverage(fallback: Fallback) -> Coverage:
    """The characters a fallback font has (its regular weight's map), read the first time one is asked for."""
    path = fallback_path(fallback)
    if path is None:
        return Coverage(())
    with TTFont(path, lazy=True, fontNumber=fallback.index) as face:
        return Coverage([codepoint for codepoint in face.getBestCmap() if codepoint > 0x20])


@lru_cache(maxsize=1)
def latin_characters() -> frozenset[str]:
    """The characters every weight of the Latin font draws (read once per process from the fonts' maps)."""
    sets = []
    for path in latin_paths():
        with TTFont(path, lazy=True) as face:
            sets.append(frozenset(chr(codepoint) for codepoint in face.getBestCmap()))
    return frozenset.intersection(*sets) if sets else frozenset(map(chr, range(0x20, 0x7F)))


def plain(text: str) -> bool:
    """Whether the Latin font draws all of `text` (the fast path: every label, nearly every name)."""
    return text.isascii() or latin_characters().issuperset(text)


LATIN = -1
"""`font_for`'s answer for a character the Latin font draws."""


@lru_cache(maxsize=4096)
def font_for(character: str) -> int | None:
    """Which font draws a character: `LATIN`, an index into `FALLBACKS`, or None when no font has it."""
    if character in latin_characters():
        return LATIN
    codepoint = ord(character)
    for index, fallback in enumerate(FALLBACKS):
        if codepoint in _coverage(fallback):
            return index
    return None


def joins(character: str) -> bool:
    """A character drawn with the one before it, by that one's font: a combining mark, a zero-width joiner, a
    variation selector, a skin tone, an emoji tag (ZWJ sequences, keycaps and flags are shaped as one glyph)."""
    codepoint = ord(character)
    return (unicodedata.category(character) in ("Mn", "Me", "Cf") or 0x1F3FB <= codepoint <= 0x1F3FF
            or 0xFE00 <= codepoint <= 0xFE0F)


def drawable_character(character: str) -> bool:
    """Whether some font draws `character` (or it joins the one before it)."""
    return font_for(character) is not None or joins(character)


@dataclass(frozen=True)
class Run:
    """Characters drawn together by one font (`LATIN` or an index into `FALLBACKS`), in logical order, and
    whether they read right to left."""

    text: str
    font: int
    rtl: bool


def direction(text: str) -> str:
    """"R" if the first letter with a direction reads right to left (Arabic, Hebrew), "L" if left to right, "N"
    if none has one (digits, punctuation, emoji)."""
    for character in text:
        kind = unicodedata.bidirectional(character)
        if kind in ("R", "AL"):
            return "R"
        if kind == "L":
            return "L"
    return "N"


def has_rtl(text: str) -> bool:
    """Whether `text` holds a letter that reads right to left."""
    return not text.isascii() and any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def visual_order(directions: Sequence[str]) -> list[int]:
    """The order in which to lay out items (words of a line, runs of a word) left to right, on a page that reads
    left to right: each stretch from a right-to-left item to the last one that follows it with nothing but
    neutral items between (digits, punctuation, emoji) is reversed. A name in a sentence reads as a name does, and
    a number after it ("علي 12") stays after it, as a name set apart from its sentence would."""
    order = list(range(len(directions)))
    start = 0
    while start < len(directions):
        if directions[start] != "R":
            start += 1
            continue
        end = start
        for later in range(start + 1, len(directions)):
            if directions[later] == "R":
                end = later
            elif directions[later] == "L":
                break
        order[start:end + 1] = reversed(order[start:end + 1])
        start = end + 1
    return order


def runs(word: str) -> tuple[Run, ...]:
    """A word cut into runs by the font that draws each character, in visual order (left to right). A character
    no font has is left out, as is a joiner its run's font lacks."""
    pieces: list[tuple[int, str]] = []  # (font, characters), in reading order
    for character in word:
        font = pieces[-1][0] if pieces and joins(character) else font_for(character)
        if font is None:
            continue
        if pieces and pieces[-1][0] == font:
            pieces[-1] = (font, pieces[-1][1] + character)
        else:
            pieces.append((font, character))
    logical = [Run(kept, font, direction(kept) == "R") for font, text in pieces if (kept := _kept(text, font))]
    return tuple(logical[i] for i in visual_order(["R" if r.rtl else direction(r.text) for r in logical]))


def _kept(text: str, font: int) -> str:
    """A run's characters its font has: a joiner the font lacks would be drawn as its empty box."""
    if font == LATIN:
        return "".join(c for c in text if c in latin_characters())
    coverage = _coverage(FALLBACKS[font])
    return "".join(c for c in text if ord(c) in coverage)


SHAPING = features.check_feature("raqm")
"""Whether Pillow can shape text (Raqm with FriBiDi): without it Arabic is drawn letter by letter, reversed."""


@lru_cache(maxsize=64)
def fallback_face(font: int, size: int, weight: str) -> ImageFont.FreeTypeFont:
    """A fallback font's face at the size a board's text of `size` px draws it (a colour emoji font at its one
    bitmap size, scaled when drawn)."""
    fallback = FALLBACKS[font]
    path = fallback_path(fallback, weight) or fallback_path(fallback)
    if path is None:
        raise OSError(f"{fallback.name} is not installed")
    engine = ImageFont.Layout.RAQM if fallback.shaped and SHAPING else ImageFont.Layout.BASIC
    drawn_size = fallback.bitmap_size or max(1, round(size * fallback.scale))
    return ImageFont.truetype(path, drawn_size, index=fallback.index, layout_engine=engine)


def run_mask(run: Run, size: int, weight: str) -> tuple[Image.Image, tuple[int, int], float]:
    """A fallback run's mask ("L"), its offset from the pen at the baseline, and its advance, at a board text size
    of `size` px. A colour emoji is drawn at its bitmap size and scaled, its colours turned to shades of the
    text's ink (boards draw in a fixed palette)."""
    fallback = FALLBACKS[run.font]
    face = fallback_face(run.font, size, weight)
    text = run.text
    direction_ = "rtl" if run.rtl and SHAPING and fallback.shaped else None
    if run.rtl and direction_ is None:
        text = text[::-1]  # (no shaping: at least the letters in reading order)
    if not fallback.bitmap_size:
        core, offset = face.getmask2(text, "L", anchor="ls", direction=direction_)
        mask = Image.new("L", core.size)._new(core)
        return mask, offset, face.getlength(text, direction=direction_)
    core, (dx, dy) = face.getmask2(text, "RGBA", anchor="ls")
    colour = Image.new("RGBA", core.size)._new(core)
    scale = size * fallback.scale / fallback.bitmap_size
    shade = _shades(colour)
    width, height = max(1, round(shade.width * scale)), max(1, round(shade.height * scale))
    return (shade.resize((width, height), Image.Resampling.LANCZOS), (round(dx * scale), round(dy * scale)),
            face.getlength(text) * scale)


EMOJI_LIGHTEST = 0.35
"""How much ink the lightest part of a colour emoji keeps (white eyes, a pale petal): light parts stay visible as
lighter shades of the ink, dark and mid-tone parts take nearly all of it (the shade falls with the square of the
lightness), so an emoji reads as a solid shape with its details inside."""


def _shades(colour: Image.Image) -> Image.Image:
    """A colour glyph as a mask: its opacity, times how dark each pixel is (lightest `EMOJI_LIGHTEST`)."""
    darkness = colour.convert("L").point([round(255 * (1 - (1 - EMOJI_LIGHTEST) * (level / 255) ** 2))
                                          for level in range(256)])
    return ImageChops.multiply(darkness, colour.getchannel("A"))
