"""The shared drawing kit: palette, player identities, fonts, the header band, cards, tokens and PNG encoding.

Every game's renderer draws with these so that the same player looks the same in every game and every image
reads on a phone: large type, an opaque background, and identity by colour *and* letter/shape (Okabe-Ito palette,
safe for colour-blind players).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

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

WIDTH = 1280
"""Default image width: readable when Discord scales it to a 400-point phone column."""


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


@lru_cache(maxsize=64)
def font(size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """A shipped font (Source Sans Pro from its PyPI package; Pillow's own scalable font as a fallback).

    Weights: regular, semibold, bold. Never depends on fonts that happen to be installed on the machine.
    """
    try:
        import font_source_sans_pro as fonts

        name = {"regular": "SourceSansPro-Regular.ttf", "semibold": "SourceSansPro-Semibold.ttf",
                "bold": "SourceSansPro-Bold.ttf"}[weight]
        return ImageFont.truetype(f"{fonts.font_directory}/{name}", size)
    except (ImportError, OSError, AttributeError):  # pragma: no cover - fallback for a minimal install
        return ImageFont.load_default(size=size)  # type: ignore[return-value]


def new_canvas(height: int, width: int = WIDTH) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


def text_width(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont) -> int:
    left, _, right, _ = draw.textbbox((0, 0), text, font=face)
    return int(right - left)


def fit_text(draw: ImageDraw.ImageDraw, text: str, max_width: int, size: int, weight: str = "regular",
             min_size: int = 16) -> ImageFont.FreeTypeFont:
    """The largest font (down to min_size) in which `text` fits `max_width`."""
    while size > min_size and text_width(draw, text, font(size, weight)) > max_width:
        size -= 1
    return font(size, weight)


def ellipsize(draw: ImageDraw.ImageDraw, text: str, max_width: int, face: ImageFont.FreeTypeFont) -> str:
    if text_width(draw, text, face) <= max_width:
        return text
    while text and text_width(draw, text + "…", face) > max_width:
        text = text[:-1]
    return text + "…"


def wrap(draw: ImageDraw.ImageDraw, text: str, max_width: int, face: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy word wrap to `max_width` pixels."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if line and text_width(draw, candidate, face) > max_width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def draw_token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, style: PlayerStyle,
               label: str | None = None, outline: str = INK_DARK, width: int = 3) -> None:
    """A player's piece: their shape in their colour with their letter on it."""
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
    text = style.letter if label is None else label
    if text:
        face = font(max(12, int(r * 1.1)), "bold")
        dy = r * 0.15 if style.shape == "triangle" else 0
        draw.text((x, y + dy), text, font=face, fill=style.ink, anchor="mm")


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
    draw.text((x, top + 18), ellipsize(draw, turn, width - x - 260, font(40, "bold")), font=font(40, "bold"),
              fill=INK)
    draw.text((width - 24, top + 24), title, font=font(26, "semibold"), fill=INK_MUTED, anchor="ra")
    draw.text((24, top + 76), ellipsize(draw, last_move, width - 48, font(28)), font=font(28), fill=INK_MUTED)
    column = (width - 48) // 3
    for index, (style, name, score) in enumerate(scores):
        cx = 24 + (index % 3) * column
        cy = top + 126 + (index // 3) * 44
        draw_token(draw, (cx + 16, cy + 4), 16, style)
        label = f"{name}  {score}"
        draw.text((cx + 40, cy - 12), ellipsize(draw, label, column - 50, font(28, "semibold")),
                  font=font(28, "semibold"), fill=INK)
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
