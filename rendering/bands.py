"""The bands around a board: the header that answers whose turn, what just happened and who is winning (the detail
board's and the public board's), a player's name in lines, and the footer strip added below a finished image.

Kept apart because every game's board starts with one of these headers, laid out the same way.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import translate
from rendering.canvas import Draw
from rendering.encoding import board_indexed, board_palette, encode_board, encode_detail, encode_png
from rendering.pieces import draw_token
from rendering.recorder import Face, building, replay
from rendering.style import BIG, INK, INK_MUTED, PANEL, PHONE_WIDTH, SMALL, PlayerStyle, min_sizes
from rendering.typeset import caption_lines, fit_lines, fitted, font, lines, measure, sentences_that_fit


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


FOOTER_H = 56
"""The footer strip's height, in px."""


def add_footer(png: bytes, text: str) -> bytes:
    """The same image with a strip of text added below it (the chosen seed on a final board, for instance), its
    text at least the phone's smallest size for the image's width and recorded like the board's own.

    A board in the boards' palette stays in it: the strip is drawn in RGB as before and mapped, and the board
    goes through its own encoder again (a public board's rows are the bands it was just encoded with). It used to
    come back as an RGB PNG: twice the bytes and 17-27 ms for a public board, 60-115 ms and up to 325 KB for a
    detail board. Any other image (a renderer registered at runtime) comes back as an RGB PNG."""
    with Image.open(io.BytesIO(png)) as original:
        original.load()
        boards = board_palette()
        in_palette = original.mode == "P" and original.getpalette() == boards.getpalette()
        base = original.copy() if in_palette else original.convert("RGB")
    strip = Image.new("RGB", (base.width, FOOTER_H), PANEL)
    with building(strip) as drawn:  # (a test recording the board sees the footer too, where it lies)
        Draw(strip).text((24, FOOTER_H // 2), text, font=font(max(26, min_sizes(base.width)[0])), fill=INK_MUTED,
                         anchor="lm", role="footer")
    replay(Face(strip, drawn), (0, base.height))
    if not in_palette:
        image = Image.new("RGB", (base.width, base.height + FOOTER_H), PANEL)
        image.paste(base, (0, 0))
        image.paste(strip, (0, base.height))
        return encode_png(image)
    image = Image.new("P", (base.width, base.height + FOOTER_H))
    assert boards.palette is not None, "the boards' palette is a palette image"
    image.putpalette(boards.palette)
    image.im.paste(base.im, (0, 0, base.width, base.height))
    image.im.paste(board_indexed(strip).im, (0, base.height, base.width, base.height + FOOTER_H))
    return encode_board(image) if base.width == PHONE_WIDTH else encode_detail(image)


HEADER_H = 104
"""The public board's header band, in px (`phone_header`): every public board's own drawing starts below it."""


def phone_header(draw: Draw, width: int, headline: str, last_move: str, style: PlayerStyle | None,
                 language: str = "en") -> int:
    """The fixed-height band on top of every public board: whose turn (their token and the headline, large) and
    the last move in words (`caption_lines`: whole, or its key event, "…", its newest sentences and where the rest
    is, in the table's `language`). Returns the band's bottom."""
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
    rest = translate("table.story.caption_rest", language)
    for line in caption_lines(last_move, width - 28, room, SMALL, rest):
        draw.text((14, y + 2), line, font=font(SMALL), fill=INK_MUTED, role="caption")
        y += SMALL + 4
    return HEADER_H


def name_lines(name: str, max_width: int, size: int = BIG) -> tuple[str, ...]:
    """A player's name on at most two lines, whole (a word too long for a line is split with a hyphen)."""
    return lines(name, max_width, size, "bold")

