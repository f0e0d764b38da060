"""The named parts of a public board, and the marks a lesson draws on them (issue 33: "the bot explains each idea
pointing at the part of the board, which the board marks").

A renderer notes where it draws each part a lesson may point at (`note_part`: the hunt band, a player's block)
while it lays the board out, inside `noting_parts()`; nothing is noted outside one. The view's `marks` (each a
part's name, the seat whose part it is for a player's part, and the number of the message's line that names it)
are then drawn over the finished board by `draw_marks`: a thick dashed outline, white dashes over dark ones so it
reads on every colour of the board and without telling colours apart, and a numbered badge at its corner.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from PIL import Image

from rendering.canvas import Draw
from rendering.recorder import Box
from rendering.style import HIGHLIGHT, INK_DARK, SMALL
from rendering.typeset import font

DASH, GAP = 14, 8
"""A mark's dashes and the gaps between them, in px along its outline."""
OUTLINE_W = 4
"""The white dashes' width (over a dark outline 2 px wider, so they read on white and on dark alike)."""
BADGE_R = 16
"""The badge's radius: its number is drawn at the smallest legible size."""
MARGIN = 3
"""How far outside its part a mark is drawn (clear of the part's own frame: the outline of the player to move)."""

_NOTED: ContextVar[dict[str, Box] | None] = ContextVar("noted_parts", default=None)


def part_key(name: str, seat: int | None = None) -> str:
    """How a part is keyed: its name, and for a player's own part the seat (`player@0`)."""
    return name if seat is None else f"{name}@{seat}"


@contextlib.contextmanager
def noting_parts() -> Iterator[dict[str, Box]]:
    """Collect where the boards drawn inside the block put their named parts (part key -> box)."""
    noted: dict[str, Box] = {}
    token = _NOTED.set(noted)
    try:
        yield noted
    finally:
        _NOTED.reset(token)


def note_part(name: str, box: Box, seat: int | None = None) -> None:
    """Note where the board draws a part (nothing happens outside `noting_parts`)."""
    noted = _NOTED.get()
    if noted is not None:
        noted[part_key(name, seat)] = box


def forget_parts() -> None:
    """Forget the parts noted so far (a board drawn again taller notes them again)."""
    noted = _NOTED.get()
    if noted is not None:
        noted.clear()


def marked_box(parts: Mapping[str, Box], mark: Mapping[str, Any]) -> Box | None:
    """The box of the part a view's mark names (a player's part by its seat), None when this board has none."""
    seat = mark.get("seat")
    name = str(mark.get("part", ""))
    if seat is not None and (box := parts.get(part_key(name, int(seat)))) is not None:
        return box
    return parts.get(name)


def draw_marks(image: Image.Image, parts: Mapping[str, Box], marks: Sequence[Mapping[str, Any]]) -> None:
    """Outline each marked part of the finished board and number it with its line's number; a part this board
    does not draw is left out."""
    if not marks:
        return
    draw = Draw(image)
    width, height = image.size
    badges: list[tuple[float, float, str]] = []
    for mark in marks:
        box = marked_box(parts, mark)
        if box is None:
            continue
        left, top = max(2.0, box[0] - MARGIN), max(2.0, box[1] - MARGIN)
        right, bottom = min(width - 3.0, box[2] + MARGIN), min(height - 3.0, box[3] + MARGIN)
        corners = [(left, top), (right, top), (right, bottom), (left, bottom), (left, top)]
        draw.line(corners, fill=INK_DARK, width=OUTLINE_W + 2, joint="curve")
        for start, end in itertools.pairwise(corners):
            _dashes(draw, start, end)
        x = min(max(left, BADGE_R + 2), width - BADGE_R - 3)  # on the top left corner, inside the image
        y = min(max(top, BADGE_R + 2), height - BADGE_R - 3)
        badges.append((x, y, str(mark.get("badge", ""))))
    for x, y, number in badges:  # over every outline
        draw.ellipse((x - BADGE_R, y - BADGE_R, x + BADGE_R, y + BADGE_R), fill=HIGHLIGHT, outline=INK_DARK,
                     width=3)
        draw.text((x, y), number, font=font(SMALL, "bold"), fill=INK_DARK, anchor="mm", role="label")


def _dashes(draw: Draw, start: tuple[float, float], end: tuple[float, float]) -> None:
    """White dashes along one side of a mark's outline."""
    (x0, y0), (x1, y1) = start, end
    length = max(abs(x1 - x0), abs(y1 - y0))
    at = 0.0
    while at < length:
        upto = min(at + DASH, length)
        draw.line((x0 + (x1 - x0) * at / length, y0 + (y1 - y0) * at / length,
                   x0 + (x1 - x0) * upto / length, y0 + (y1 - y0) * upto / length), fill=HIGHLIGHT, width=OUTLINE_W)
        at = upto + GAP
