"""Fonts, words and lines: the shipped faces, each word's mask and width cached per face, a line's layout as the
sum of its words (so measuring and drawing agree to the pixel), and wrapping, fitting and shortening text without
ever cutting a name.

Kept apart because these caches are what a render worker warms at its start (rendering/vocabulary.py) and bounds
for its whole life (issue 25): every text a board draws goes through them.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyphen
from PIL import Image, ImageDraw, ImageFont

from rendering.caches import kept_lru
from rendering.fonts import LATIN, has_rtl, joins, latin_path, latin_paths, plain, run_mask, runs, visual_order
from rendering.fonts import direction as reading_direction

LINES_KEPT = 1024
"""Lines and wrapped texts kept per cache (~1 KB each with what they hold): the labels every board draws and a
few boards of each live match; a line seen again after that is laid out again from cached words (tens of
microseconds)."""
NEW_WORDS_KEPT = 2048
"""Word masks kept besides the warmed vocabulary (~1.2 KB each: ~2.5 MB), twice as many widths: the words a match
brings, above all its players' names in a few faces each. A word dropped and seen again is rasterised again
(50-150 µs). With these bounds a worker's text caches are full after ~150 matches of each game (issue 25)."""


@lru_cache(maxsize=LINES_KEPT)
def layout(face: ImageFont.FreeTypeFont, text: str, vertical: str
           ) -> tuple[int, tuple[tuple[Any, float, int, int], ...], Inked]:
    """A line's width and its words: (mask, x from the line's start, mask offset) each, cached per line; and its
    inked words for a board drawn in the palette (`Inked`)."""
    size, weight = int(face.size), WEIGHT_OF[str(face.path)]
    space = word_width(" ", size, weight)
    if has_rtl(text):
        width, right_to_left = _right_to_left_layout(face, text, vertical, space)
        return width, right_to_left, _inked(list(right_to_left))
    x = words_width = 0.0
    words = []
    parts = text.split(" ")
    for word in parts:
        if word:
            mask, (dx, dy) = word_mask(face, word, vertical)
            words.append((mask, x, dx, dy))
            advance = word_width(word, size, weight)
            x += advance
            words_width += advance
        x += space
    return math.ceil(words_width + space * (len(parts) - 1)), tuple(words), _inked(words)


def _right_to_left_layout(face: ImageFont.FreeTypeFont, text: str, vertical: str, space: float
                          ) -> tuple[int, tuple[tuple[Any, float, int, int], ...]]:
    """`layout` of a line with right-to-left words (an Arabic or Hebrew name): its words, and the punctuation
    around them (a name's colon, its brackets), in visual order (rendering/fonts.py `visual_order`). The same
    width as the line laid out in reading order: the same words and spaces."""
    size, weight = int(face.size), WEIGHT_OF[str(face.path)]
    pieces: list[str | None] = []  # (None: a space)
    for index, word in enumerate(text.split(" ")):
        if index:
            pieces.append(None)
        pieces.extend(_bidi_segments(word))
    x = words_width = 0.0
    words = []
    for index in visual_order(["N" if piece is None else reading_direction(piece) for piece in pieces]):
        piece = pieces[index]
        if piece is None:
            x += space
            continue
        mask, (dx, dy) = word_mask(face, piece, vertical)
        words.append((mask, x, dx, dy))
        width = word_width(piece, size, weight)
        x += width
        words_width += width
    return math.ceil(words_width + space * pieces.count(None)), tuple(words)


def _bidi_segments(word: str) -> list[str]:
    """A word as its leading punctuation, its letters and its trailing punctuation ("(محمد):" -> "(", "محمد",
    "):"), each placed by its own direction; a mark or joiner stays with the letter it follows."""
    start, end = 0, len(word)
    while start < end and reading_direction(word[start]) == "N" and not joins(word[start]) and not (
            start + 1 < end and joins(word[start + 1])):
        start += 1
    while end > start and reading_direction(word[end - 1]) == "N" and not joins(word[end - 1]):
        end -= 1
    return [segment for segment in (word[:start], word[start:end], word[end:]) if segment]


Inked = tuple[int, int, bool, tuple[tuple[Any, float, int, int, int, int], ...]]
"""A line's words that leave ink, for a board drawn in the palette (rendering/canvas.py): the top and bottom of
their masks (from the line's y), whether their masks are clear of each other wherever the line starts (a pixel apart
before rounding), and each word as (mask, x from the line's start, mask offset x, y, width, height)."""


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
    word_mask.keep(face, word, vertical)
    word_width.keep(word, int(face.size), WEIGHT_OF.get(str(face.path), "regular"))


@kept_lru(NEW_WORDS_KEPT)
def word_mask(face: ImageFont.FreeTypeFont, word: str, vertical: str) -> tuple[Any, tuple[int, int]]:
    """A word's anti-aliased mask and offset from its left edge at the `vertical` anchor (faces are cached, so the
    same object every time)."""
    if word[:1] in TURNED_ARROWS and face.path in WEIGHT_OF:
        return _turned_arrow_mask(face, word, vertical)
    if not plain(word) and face.path in WEIGHT_OF:
        return _mixed_mask(face, word, vertical)
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
    return _composited(pieces)


def _composited(pieces: Sequence[tuple[Image.Image, int, int]]) -> tuple[Any, tuple[int, int]]:
    """Masks placed at their offsets (x, y) as one mask (its core image), and the offset of its top left corner."""
    left, top = min(x for _, x, _ in pieces), min(y for _, _, y in pieces)
    right = max(x + piece.width for piece, x, _ in pieces)
    bottom = max(y + piece.height for piece, _, y in pieces)
    mask = Image.new("L", (right - left, bottom - top), 0)
    for piece, x, y in pieces:
        mask.paste(255, (x - left, y - top), piece)
    return mask.im, (left, top)


MIXED_KEPT = 256
"""Words of several fonts kept as their pieces (`_mixed_pieces`), between measuring a word and drawing it."""


@lru_cache(maxsize=MIXED_KEPT)
def _mixed_pieces(word: str, size: int, weight: str) -> tuple[tuple[tuple[Image.Image, int, int], ...], float]:
    """A word the Latin font cannot draw whole, as runs of the fonts that draw them (rendering/fonts.py) in visual
    order: each run's mask with its x from the word's pen start and y from the baseline, and the word's advance."""
    face = font(size, weight)
    pen = 0.0
    pieces = []
    for run in runs(word):
        if run.font == LATIN:
            core, (dx, dy) = face.getmask2(run.text, "L", anchor="ls")
            mask, advance = Image.new("L", core.size)._new(core), face.getlength(run.text)
        else:
            mask, (dx, dy), advance = run_mask(run, size, weight)
        pieces.append((mask, round(pen) + dx, dy))
        pen += advance
    return tuple(pieces), pen


def _mixed_mask(face: ImageFont.FreeTypeFont, word: str, vertical: str) -> tuple[Any, tuple[int, int]]:
    """A word of several fonts as one mask, at the `vertical` anchor of the Latin face (see `_mixed_pieces`)."""
    pieces, _ = _mixed_pieces(word, int(face.size), WEIGHT_OF[str(face.path)])
    pieces = tuple(piece for piece in pieces if piece[0].width and piece[0].height)
    if not pieces:
        return Image.new("L", (0, 0)).im, (0, 0)
    mask, (left, top) = _composited(pieces)
    return mask, (left, top + baseline_below(face, vertical))


@lru_cache(maxsize=128)
def baseline_below(face: ImageFont.FreeTypeFont, vertical: str) -> int:
    """How far below a line's `vertical` anchor (a: ascender, m: middle, s: baseline, d: descender) its baseline
    lies, in the Latin face (where another font's run is set on it)."""
    return int(face.getbbox("H", anchor="l" + vertical)[3] - face.getbbox("H", anchor="ls")[3])


def font_paths() -> tuple[str, ...]:
    """Every shipped (Latin) font file, one per weight (rendering/fonts.py has the fallbacks)."""
    return latin_paths()


WEIGHT_OF = {path: weight for weight in ("regular", "semibold", "bold") if (path := latin_path(weight)) is not None}
"""Font file -> weight, so a face's text widths can be looked up in the cache by (size, weight)."""


def font(size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """A shipped font (Source Sans Pro from its PyPI package; Pillow's own scalable font as a fallback).

    Weights: regular, semibold, bold. Its text never depends on fonts that happen to be installed on the machine:
    only characters it lacks (other scripts, emoji) are drawn with the system's Noto fonts (rendering/fonts.py),
    through this face's words (`word_mask`, `word_width`). One face
    object per (size, weight), however it is asked for (`font(18)` is `font(18, "regular")`): the word masks are
    cached per face object.
    """
    return _font(size, weight)


@lru_cache(maxsize=128)
def _font(size: int, weight: str) -> ImageFont.FreeTypeFont:
    path = latin_path(weight)
    try:
        if path is None:
            raise OSError("no shipped font")
        # Basic layout (FreeType with kerning): the fonts are Latin, and it lays text out 3-4 times faster than
        # Raqm, which matters for every new word on a board.
        return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
    except OSError:  # pragma: no cover - fallback for a minimal install
        # Pillow types load_default as either kind of font; given a size, with FreeType, it is a FreeTypeFont.
        return ImageFont.load_default(size=size)  # type: ignore[return-value]

@kept_lru(2 * NEW_WORDS_KEPT)
def word_width(word: str, size: int, weight: str) -> float:
    face = font(size, weight)
    if word[:1] in TURNED_ARROWS:  # drawn as a turned "→" (see word_mask)
        return face.getlength("→") + face.getlength(word[1:])
    if not plain(word) and face.path in WEIGHT_OF:
        return _mixed_pieces(word, size, weight)[1]
    return face.getlength(word)


@lru_cache(maxsize=NEW_WORDS_KEPT)
def measure(text: str, size: int, weight: str = "regular") -> int:
    """Text width in px as `Draw.text` lays it out (word by word), cached per process: the same names and labels
    come back on every board of a match, and a new sentence is measured from words already measured."""
    words = text.split(" ")
    return math.ceil(sum(word_width(w, size, weight) for w in words if w)
                     + word_width(" ", size, weight) * (len(words) - 1))


def text_width(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont) -> int:
    size = getattr(face, "size", None)
    weight = WEIGHT_OF.get(getattr(face, "path", ""))
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
    size, weight = getattr(face, "size", None), WEIGHT_OF.get(getattr(face, "path", ""))
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
    return _greedy(text, max_width, size, weight, split_long=False)


def lines(text: str, max_width: int, size: int, weight: str = "regular") -> tuple[str, ...]:
    """Word wrap on cached widths; a word wider than the line is split with a hyphen (never cut or ellipsized),
    at the breaks of the language being drawn (`hyphenating`).
    A number stays on the line of its noun or unit and of the name or label before it (`glued`): "2 moves left",
    "Gas Giants 3", "Felsenharpyie 4", never a lone "2" or "3" at a line's end or start, at the cost of a shorter
    line now and then."""
    return _lines(text, max_width, size, weight, _HYPHENATION.get())


@lru_cache(maxsize=LINES_KEPT)
def _lines(text: str, max_width: int, size: int, weight: str, language: str) -> tuple[str, ...]:
    return _greedy(text, max_width, size, weight, split_long=True, language=language)


_HYPHENATION: ContextVar[str] = ContextVar("hyphenation_language", default="en")


@contextlib.contextmanager
def hyphenating(language: str) -> Iterator[None]:
    """Break the words too long for their line at `language`'s breaks inside the block (a board sets its table's
    language around its drawing: German words break by German rules, "Mes-sing", not "Mess-ing")."""
    token = _HYPHENATION.set(language)
    try:
        yield
    finally:
        _HYPHENATION.reset(token)


NUMBER = re.compile(r"[($+\u2212-]?\d[\d.,;:)%]*")
"""A number with its signs ("4", "12),", "$159."): it stays on the line of the word before it when that word ends
in a letter ("Gas Giants 3,", "Automation 2", "Stufe 4", "corruption $8")."""
COUNT = re.compile(r"[($+\u2212-]?\d+(?:[.,/]\d+)*[+%]?")
"""A number with nothing closing it ("2", "11+", "(3", "$4"): it stays on the line of the word after it when that
word starts with a letter or a unit ("2 moves left", "8 cards", "11+ points", "32 $")."""
UNITS = "$€%"
GLUED_KEPT = 4
"""At most so many words go down to the next line with the word that did not fit ("Player 1" with "gains")."""


def glued(before: str, after: str) -> bool:
    """Whether a line must not break between these two words: a number and its noun or unit ("2 moves left",
    "noch 4 Schritte", "32 $"), or a name or label and its number ("Gas Giants 3", "Automation 2", "Runde 4"). Of
    words held together by no-break spaces, the outer ones count."""
    left, right = before.rsplit("\u00a0", 1)[-1], after.split("\u00a0", 1)[0]
    if not left or not right:
        return False
    if (right[0].isalpha() or right[0] in UNITS) and COUNT.fullmatch(left):
        return True
    return left[-1].isalpha() and NUMBER.fullmatch(right) is not None


def _greedy(text: str, max_width: int, size: int, weight: str, split_long: bool,
            language: str = "en") -> tuple[str, ...]:
    """Greedy word wrap. A line's width is kept as the running sum of its words' widths (as `measure` adds them,
    so the two agree to the pixel) instead of measuring every candidate line anew: a new sentence costs one lookup
    per word."""
    width_of, ceil = word_width, math.ceil  # (looked up once: a board wraps dozens)
    space = width_of(" ", size, weight)
    out: list[str] = []
    for paragraph in text.split("\n"):
        words: list[str] = []
        widths: list[float] = []
        words_width = 0.0
        carried = 0  # words at the line's start that came down with the first word that did not fit
        pending = paragraph.split(" ")
        pending.reverse()
        while pending:
            word = pending.pop()
            if not word:  # (a no-break space keeps words together)
                continue
            if split_long and "\u00a0" in word and ceil(width_of(word, size, weight)) > max_width:
                # Words kept together that cannot share one line break at their spaces, not inside a word.
                pending.extend(reversed(word.split("\u00a0")))
                continue
            options: tuple[tuple[int, ...], ...] | None = None  # (the whole word's breaks: a rest keeps them)
            while split_long and ceil(width_of(word, size, weight)) > max_width and len(word) > 1:
                if words:
                    out.append(" ".join(words))
                    words, widths, words_width, carried = [], [], 0.0, 0
                options = word_breaks(word, language) if options is None else options
                cut = _hyphen_cut(word, options, max_width, size, weight)
                out.append(word[:cut] if word[cut - 1] == "-" else word[:cut] + "-")
                word = word[cut:]
                options = tuple(tuple(c - cut for c in breaks if c > cut) for breaks in options)
            width = width_of(word, size, weight)
            if words and ceil(words_width + width + space * len(words)) > max_width:
                kept = 0  # the words at the line's end glued to this one come down with it, if they fit there
                while (kept < min(GLUED_KEPT, len(words) - 1 - carried)  # (not all: a line of its own words)
                       and glued(words[-1 - kept], words[-kept] if kept else word)):
                    kept += 1
                while kept and ceil(sum(widths[-kept:]) + width + space * kept) > max_width:
                    kept -= 1
                out.append(" ".join(words[:len(words) - kept]))
                words, widths = words[len(words) - kept:], widths[len(widths) - kept:]
                words_width, carried = sum(widths), kept
            words.append(word)
            widths.append(width)
            words_width += width
        out.append(" ".join(words))
    return tuple(out)


def _hyphen_cut(word: str, options: tuple[tuple[int, ...], ...], max_width: int, size: int, weight: str) -> int:
    """Where to break a word too wide for its line, leaving the first part fitting with its hyphen: the last of its
    breaks (`word_breaks`, best first) that fits; failing all, after the most letters that fit."""
    for breaks in options:
        for cut in sorted(breaks, reverse=True):
            head = word[:cut] if word[cut - 1] == "-" else word[:cut] + "-"
            if measure(head, size, weight) <= max_width:
                return cut
    cut = len(word) - 1
    while cut > 1 and measure(word[:cut] + "-", size, weight) > max_width:
        cut -= 1
    return cut


def word_breaks(word: str, language: str) -> tuple[tuple[int, ...], ...]:
    """The places a word may break, best first: after a hyphen it has; then, for a word listed in hyphenation.txt
    for the language (German text: the German list; English text: the English list, then the German one for the
    German names some boards draw), its listed breaks (a compound's seams), then the syllables inside its parts;
    else the language's own hyphenation patterns only (German patterns split English words wrongly, "Be-ast",
    "He-art"; English ones German words, "Mess-ingkom-pass")."""
    own = tuple(i + 1 for i, ch in enumerate(word[:-1]) if ch == "-")
    if own:  # each part between hyphens breaks by its own rules too
        parts, start, inner = word.split("-"), 0, []
        for part in parts:
            for breaks in word_breaks(part, language)[:1]:
                inner += [start + cut for cut in breaks]
            start += len(part) + 1
        return own, tuple(inner)
    key = word.rstrip(",.;:!?)")
    if language != "de" and key in compound_breaks("en"):
        listed = compound_breaks("en")[key]
        inner = [cut for a, b in itertools.pairwise((0, *listed, len(word)))
                 for cut in english_breaks(word[a:b], a)]
        return listed, tuple(inner)
    seams = compound_breaks("de").get(key)
    if seams is not None:  # its seams first; a part too wide for the line alone breaks between its syllables
        german, inner, start = hyphenators()[1], [], 0
        for end in (*seams, len(word)):
            inner += [start + cut for cut in german.positions(word[start:end])]
            start = end
        return seams, without_lone_letters(inner, (0, *seams, len(word)))
    if language != "de":
        return (english_breaks(word),)
    return (without_lone_letters(hyphenators()[1].positions(word), (0, len(word))),)


ENGLISH_SUFFIXES = frozenset({"er", "ers", "er's", "ed", "es", "'s", "’s", "er’s"})
"""Endings English text never carries alone to the next line ("Mapmak-er's", "Mark-ers"): a break there leaves a
stub that reads as a fragment; the word breaks elsewhere or not at all. ("-ing" may go down, as dictionaries break
it: "Whisper-ing Falls" keeps a map space's name on two lines where "Whis-pering" took three.)"""


def english_breaks(word: str, offset: int = 0) -> tuple[int, ...]:
    """The English patterns' breaks in a word (three letters at least on each side), without the ones that would
    carry a bare suffix to the next line (`ENGLISH_SUFFIXES`); `offset` shifts them for a part of a longer word."""
    tail = word.rstrip(",.;:!?)")
    return tuple(offset + cut for cut in hyphenators()[0].positions(tail)
                 if tail[cut:].lower() not in ENGLISH_SUFFIXES and min(letters(tail[:cut]), letters(tail[cut:])) >= 3)


def letters(text: str) -> int:
    """How many letters a piece of a word has (an apostrophe is none: "p's" is a stub, "Eu" too short)."""
    return sum(ch.isalpha() for ch in text)


def without_lone_letters(cuts: Sequence[int], fixed: Sequence[int]) -> tuple[int, ...]:
    """The breaks that leave no single letter between them and their neighbours (or the `fixed` ones: the word's
    ends, a compound's seams): the German patterns put some ("Fort-s-chritt", "Ak-ti-o-nen"); both sides of a lone
    letter go. (English text keeps its patterns' breaks as they are: "Automa-ton".)"""
    every = sorted({*cuts, *fixed})
    lone = {cut for a, b in itertools.pairwise(every) if b - a < 2 for cut in (a, b)}
    return tuple(sorted(cut for cut in set(cuts) if cut not in lone))


HYPHENATION_EXCEPTIONS = Path(__file__).with_name("hyphenation.txt")
"""Words the patterns split wrongly, with "|" at their only breaks ("Obsidian|splitter", "Map|maker's"), in a
section per language: German first, then the words after a "[en]" line English."""


@lru_cache(maxsize=4)
def compound_breaks(language: str = "de") -> dict[str, tuple[int, ...]]:
    """Each word listed for `language` with the places it may break (its compound boundaries), loaded once per
    process: pyphen's patterns know syllables, not where a compound joins ("Obsidi-ansplitter", "Mapmak-er's")."""
    breaks: dict[str, tuple[int, ...]] = {}
    section = "de"
    for line in HYPHENATION_EXCEPTIONS.read_text(encoding="utf-8").splitlines():
        header = re.fullmatch(r"\[(\w+)\]", line.strip())
        if header:
            section = header.group(1)
        elif line.strip() and not line.startswith("#") and section == language:
            parts = line.strip().split("|")
            breaks["".join(parts)] = tuple(itertools.accumulate(len(part) for part in parts[:-1]))
    return breaks


@lru_cache(maxsize=1)
def hyphenators() -> tuple[pyphen.Pyphen, ...]:
    """English, then German hyphenation patterns (pyphen's copy of LibreOffice's dictionaries; at least three
    letters after a break, and in English before it too: "Ab-stract", "Au-tomation" leave a stub a board's narrow
    label reads badly), loaded once per process."""
    return pyphen.Pyphen(lang="en_US", left=3, right=3), pyphen.Pyphen(lang="de_DE", right=3)


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
    parts = split_sentences(text)
    kept: tuple[str, ...] = ()
    for count in range(1, len(parts) + 1):
        wrapped = lines(" ".join(parts[:count]), max_width, size)
        if len(wrapped) > max_lines:
            break
        kept = wrapped
    if not kept and parts:  # one sentence longer than the room: its words wrap onto the lines there are
        kept = lines(parts[0], max_width, size)[:max_lines]
    return kept

def split_sentences(text: str) -> list[str]:
    """`text` cut after each sentence's closing mark ("." or "!" followed by a space)."""
    return [p.strip() for p in text.replace("! ", "!|").replace(". ", ".|").split("|") if p.strip()]


def merged_repeats(parts: Sequence[str]) -> list[str]:
    """The same sentence told several times in a row once, with how often ("Bo is already at 10 power: nothing
    gained (×2)."): a final board once repeated it word for word."""
    out: list[str] = []
    counts: list[int] = []
    for part in parts:
        if out and part == out[-1]:
            counts[-1] += 1
        else:
            out.append(part)
            counts.append(1)
    return [part if count == 1 else f"{part[:-1]} (×{count}){part[-1]}" if part[-1] in ".!" else f"{part} (×{count})"
            for part, count in zip(out, counts, strict=True)]


def caption_lines(text: str, max_width: int, max_lines: int, size: int, rest: str) -> tuple[str, ...]:
    """The line under a board's headline: `text` whole when it fits in `max_lines`; else its first sentence (the
    turn's key event, which the story tells first), "…", the newest sentences that fit and `rest`, which says where
    the whole story is ("(the rest: /game log)"). Never cut silently, and never false to the picture: a piece that
    moved twice in a turn is told at its last move or not at all (the newest sentences are kept, not the oldest)."""
    parts = merged_repeats(split_sentences(text))
    whole = lines(" ".join(parts), max_width, size)
    if len(whole) <= max_lines or not parts:
        return whole
    kept: tuple[str, ...] = ()
    for start in range(len(parts), 0, -1):  # the newest sentences added one by one while they fit (few wraps)
        wrapped = lines(" ".join([parts[0], "…", *parts[start:], rest]), max_width, size)
        if len(wrapped) > max_lines:
            break
        kept = wrapped
    if kept:
        return kept
    words = parts[0].split()  # one sentence longer than the room: as many of its words as fit, then "…"
    for count in range(len(words) - 1, 0, -1):
        wrapped = lines(" ".join([*words[:count], "…", rest]), max_width, size)
        if len(wrapped) <= max_lines:
            return wrapped
    return lines(f"… {rest}", max_width, size)[:max_lines]


DOUBLED_STOP = re.compile(r"(?<![.])([.!?])\.$")
"""A full stop added after a sentence that already had its mark ("Du hast die Automaten geschlagen!." / "alle
6 Std.."), not an ellipsis."""


def clip_alt(parts: Sequence[str], limit: int = 1000) -> str:
    """Alt text from sentences, keeping whole sentences within Discord's `limit` characters; a sentence given a
    full stop after its own mark keeps only its own."""
    out = ""
    for part in parts:
        part = DOUBLED_STOP.sub(r"\1", part)
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
    return ellipsize(MEASURE_DRAW, text, max_width, face), face


MEASURE_DRAW = ImageDraw.Draw(Image.new("RGB", (1, 1)))
"""A drawing context for measuring text where no board is at hand (`ellipsize` and `wrap` take one)."""
