"""The pieces the kit draws (no image assets): a player's token, panels, dice, planets and moons, terrain, medals
and pawns and cubes, most drawn once per process and pasted.

Kept apart because they are the shared vocabulary of shapes every game's board is built from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.canvas import Draw, blit
from rendering.recorder import Face, building, is_recording, mark
from rendering.style import (
    BACKGROUND,
    BAD,
    BLUE,
    BRONZE,
    DIE_BLACK,
    GOLD,
    GOOD_TEXT,
    INK,
    INK_DARK,
    INK_MUTED,
    PANEL,
    PANEL_LIGHT,
    RUST,
    RUST_DARK,
    RUST_LIGHT,
    SILVER,
    SILVER_DARK,
    SILVER_LIGHT,
    SILVER_MEDAL,
    SMALL,
    TERRAIN_INK,
    VERMILLION,
    PlayerStyle,
    rgb,
)
from rendering.typeset import font


def draw_token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, style: PlayerStyle,
               label: str | None = None, outline: str = INK_DARK, width: int = 3) -> None:
    """A player's piece: their shape in their colour with their letter on it.

    On a board the piece is drawn once per process and pasted (a board has a dozen of them); a test that
    records sees it drawn in place."""
    image = getattr(draw, "_image", None)
    if not is_recording() and image is not None and image.mode in ("RGB", "P"):
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
    image = Image.new("RGB", (size + 2 * pad, size + 2 * pad), rgb(background))
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
            veil = Image.new("RGB", image.size, rgb(background))
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
    image = Image.new("RGB", (2 * half_w, 2 * half_h), rgb(background))
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
                      (0, 0, 0, 0) if background is None else rgb(background))
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

