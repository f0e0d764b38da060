"""The look every board shares: the named colours, the sizes that keep a board legible on a phone, and the
players' identities (a colour, a letter and a shape per seat).

Kept apart because everything else draws with these, and because the boards' fixed palette is read from the colours
written here (rendering/encoding.py): a colour a renderer needs is named here, never written in a renderer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import ImageColor

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
DIE_BLACK = "#0E0F14"  # black dice (a die of the darker kind)
PIP = INK
SLOT = "#23283A"  # an empty card space, a hex without a tile
TRACK_EMPTY = "#454C63"  # the unfilled steps of a power or guile track
TURQUOISE = "#3CC8C8"  # a second resource's colour beside power's
WINE = "#8B1E3F"  # a token paid with two resources
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
RUST = "#B0703C"  # planets, earthy places
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


OPENED_COLUMN = 800
"""How wide a phone shows an image its player tapped open, in points (held sideways, or the image zoomed to the
screen): a detail board is asked for and opened, never read in the chat column (RENDERING.md keeps what a player
must read at 400 points on the public board, and puts the rest on the detail board)."""


def opened_min_sizes(width: int) -> tuple[int, int]:
    """(body, headline) font sizes in px for an image `width` px wide that is read opened (a detail board): 9 and
    12 points once shown `OPENED_COLUMN` points wide (15 and 20 px at the detail board's 1280)."""
    return math.ceil(9 * width / OPENED_COLUMN), math.ceil(12 * width / OPENED_COLUMN)


BIG_ROLES = frozenset({"headline", "title", "name", "score"})
"""Text roles that must be at least the headline size on a phone (player names, scores, the turn, a title)."""


PHONE_WIDTH = 800
"""Every public board is 800 px wide: shown 400 points wide, 2 px are one point."""
SMALL, BIG = min_sizes(PHONE_WIDTH)
"""18 px and 24 px at 800 wide: the smallest text, and the smallest headline, name and score."""


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


@lru_cache(maxsize=256)
def rgb(colour: Any) -> Any:
    """A named colour as an (r, g, b) tuple (anything else as it is), parsed once."""
    return ImageColor.getcolor(colour, "RGB") if isinstance(colour, str) else colour
