"""The labelled picture of /game rules: a game's public board, drawn as the channel sees it, with a numbered callout
on each of its parts and a legend under it naming every number (issue 33 item 3).

The parts come from the game's glossary (`Glossary.parts`): the recorder says where the board drew each text and
piece, so the callouts follow the renderer's own layout. Sizes follow the boards' phone rules: the callouts'
numbers and the legend are at least the body size a board may use (9 points at 400 px wide)."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from bot.i18n import translate
from rendering import kit, render_board
from rendering.glossary.entries import Part
from rendering.glossary.reading import Reader, glossary_of, normal

CALLOUT_R = 15
"""A callout's radius: its number is drawn at the board's smallest legible size."""
LEGEND_GAP = 8
LEGEND_LINE = kit.SMALL + 6
HEADING = kit.SMALL + 4
CALLOUT_FILL = kit.VERMILLION
CALLOUT_INK = kit.INK


Box = tuple[float, float, float, float]


def part_box(part: Part, reader: Reader, drawn: kit.Recording) -> Box | None:
    """Where the board drew `part` (its first occurrence), or None when this board has none."""
    if part.kind == "mark":
        return next((mark.box for mark in drawn.marks if mark.kind == part.target), None)
    for text in drawn:
        if part.kind == "role" and text.role == part.target:
            return text.box
        if part.kind == "text" and re.fullmatch(part.target, normal(text.text)):
            return text.box
        if part.kind == "entry":
            entry = reader.entry_for(normal(text.text))
            if entry is not None and entry.message == part.target:
                return text.box
    return None


def callout_at(box: Box, taken: list[tuple[float, float]], drawn: kit.Recording,
               size: tuple[int, int]) -> tuple[float, float]:
    """A callout's centre beside `box` (left, above, right or below it, whichever covers the least of what the board
    drew and of the other callouts), inside the picture."""
    width, height = size
    left, top, right, bottom = box
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    gap = CALLOUT_R + 3
    candidates = [(left - gap, middle_y), (left + CALLOUT_R, top - gap), (right + gap, middle_y),
                  (left + CALLOUT_R, bottom + gap), (middle_x, top - gap), (left - gap, top)]
    boxes = [text.box for text in drawn] + [mark.box for mark in drawn.marks]
    boxes += [(x - CALLOUT_R, y - CALLOUT_R, x + CALLOUT_R, y + CALLOUT_R) for x, y in taken]

    def covered(centre: tuple[float, float]) -> float:
        x, y = centre
        mine = (x - CALLOUT_R, y - CALLOUT_R, x + CALLOUT_R, y + CALLOUT_R)
        outside = x < CALLOUT_R or y < CALLOUT_R or x > width - CALLOUT_R or y > height - CALLOUT_R
        return (10**6 if outside else 0) + sum(_overlap(mine, other) for other in boxes)

    return min(candidates, key=covered)


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def labelled(game_key: str, view: dict[str, Any], language: str) -> bytes:
    """The public board of `view` (drawn in its table's language) with its parts numbered, and the legend naming
    them in `language` under it, as PNG bytes. Blocking: a render worker draws it."""
    glossary = glossary_of(game_key)
    outer = kit.current_recording()
    with kit.recording() as drawn:
        board_png = render_board(game_key, view)
    if outer is not None:  # a test recording the picture sees the board's texts too, not only the legend's
        outer.extend(drawn)
        outer.marks.extend(drawn.marks)
    board = Image.open(io.BytesIO(board_png)).convert("RGB")
    reader = Reader(glossary, view)
    found = [(part, box) for part in glossary.parts if (box := part_box(part, reader, drawn)) is not None]
    if not found:  # (a game whose glossary names no parts: the board alone, not a legend heading over nothing)
        return kit.encode_png(board)
    column = (board.width - 3 * LEGEND_GAP) // 2
    with kit.hyphenating(language):  # (the legend is in the reader's language)
        legend = [(number, kit.lines(translate(part.name, language), column - 2 * CALLOUT_R - 10, kit.SMALL))
                  for number, (part, _) in enumerate(found, start=1)]
    half = (len(legend) + 1) // 2
    rows = [sum(len(lines) for _, lines in legend[:half]), sum(len(lines) for _, lines in legend[half:])]
    legend_h = HEADING + LEGEND_GAP * 3 + max(rows, default=0) * LEGEND_LINE + LEGEND_GAP * half
    image = Image.new("RGB", (board.width, board.height + legend_h), kit.BACKGROUND)
    image.paste(board, (0, 0))
    draw = kit.Draw(image)
    taken: list[tuple[float, float]] = []
    places = []
    for _, box in found:
        places.append(callout_at(box, taken, drawn, board.size))
        taken.append(places[-1])
    for (_, box), (x, y) in zip(found, places, strict=True):  # the leader lines first, under every callout
        draw.line((x, y, min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])), fill=CALLOUT_FILL, width=3)
    for number, (x, y) in enumerate(places, start=1):
        _callout(draw, x, y, number)
    top = board.height + LEGEND_GAP
    draw.text((LEGEND_GAP, top), translate("rules.picture.legend", language), font=kit.font(kit.SMALL, "bold"),
              fill=kit.INK, anchor="lt")
    for index, (number, lines) in enumerate(legend):
        left = LEGEND_GAP if index < half else LEGEND_GAP * 2 + column
        before = legend[:index] if index < half else legend[half:index]
        y = top + HEADING + LEGEND_GAP + sum(len(ls) * LEGEND_LINE + LEGEND_GAP for _, ls in before)
        _callout(draw, left + CALLOUT_R, y + CALLOUT_R - 2, number)
        for line_number, line in enumerate(lines):
            draw.text((left + 2 * CALLOUT_R + 8, y + line_number * LEGEND_LINE), line, font=kit.font(kit.SMALL),
                      fill=kit.INK, anchor="lt")
    return kit.encode_png(image)


def _callout(draw: kit.Draw, x: float, y: float, number: int) -> None:
    draw.ellipse((x - CALLOUT_R, y - CALLOUT_R, x + CALLOUT_R, y + CALLOUT_R), fill=CALLOUT_FILL,
                 outline=kit.INK, width=2)
    draw.text((x, y), str(number), font=kit.font(kit.SMALL, "bold"), fill=CALLOUT_INK, anchor="mm",
              role="label")
