"""Tug's board, drawn with the platform's kit: the turn and the last pull in the header band, then the rope's track
of 9 cells with each player's end in their colour, the marker on its cell, and who is tired under each name.

Pure: it reads the public view (`Tug.view` plus the table's "language" and the caption "last_move") and the game's
words, never the rules' state, the store or Discord."""

from __future__ import annotations

from typing import Any

from rendering import kit
from rendering.glossary.entries import Glossary
from tests.fourth_game.words import say

View = dict[str, Any]

HEIGHT = 330
"""The public board's height (800 wide, as every public board): the tests know a Tug board by its size."""
DETAIL_HEIGHT = 420
CELL_GAP = 8
MARKER = kit.VERMILLION
"""The marker's colour (the tests look for it at the marker's cell)."""


def in_words(view: View) -> View:
    """The view with what the board says in its table's language: the headline ("turn") and each player's state."""
    language = str(view.get("language") or "en")
    names = list(view["players"])
    winner = view.get("winner")
    if winner is not None:
        turn = say("tug.summary", language, name=names[winner])
    else:
        seat = int(view["to_move"])
        turn = say("tug.turn.tired" if view["tired"][seat] else "tug.turn", language, name=names[seat],
                   left=view["pulls_left"])
    states = [say("tug.board.tired" if tired else "tug.board.rested", language) for tired in view["tired"]]
    return {**view, "turn": turn, "states": states}


def track_box(width: int, top: int, cell: int) -> tuple[float, float, float, float]:
    """Where the track draws `cell` (0-8) on a board `width` wide whose track starts at `top`."""
    size = (width - 48 - 8 * CELL_GAP) / 9
    left = 24 + cell * (size + CELL_GAP)
    return left, top, left + size, top + min(size, 70)


def draw_board(draw: kit.Draw, view: View, width: int, top: int) -> None:
    """The track, the marker, the players' ends and their names under them."""
    track_top = top + 40
    for cell in range(9):
        box = track_box(width, track_top, cell)
        fill = kit.player_style(0 if cell == 0 else 1).colour if cell in (0, 8) else kit.PANEL
        kit.rounded_panel(draw, box, fill=fill, radius=10)
        if cell == 4:
            draw.line(((box[0] + box[2]) / 2, box[1] + 6, (box[0] + box[2]) / 2, box[3] - 6), fill=kit.INK_MUTED,
                      width=3)
    rope_y = (track_box(width, track_top, 0)[1] + track_box(width, track_top, 0)[3]) / 2
    draw.line((24, rope_y, width - 24, rope_y), fill=kit.SAND, width=6)
    marker = track_box(width, track_top, int(view["marker"]))
    centre = ((marker[0] + marker[2]) / 2, (marker[1] + marker[3]) / 2)
    draw.ellipse((centre[0] - 22, centre[1] - 22, centre[0] + 22, centre[1] + 22), fill=MARKER, outline=kit.INK_DARK,
                 width=3)
    kit.note_part("marker", marker)
    under = track_box(width, track_top, 0)[3] + 24
    for seat, name in enumerate(view["players"]):
        x, anchor = (24, "la") if seat == 0 else (width - 24, "ra")
        kit.draw_token(draw, (x + 22 if seat == 0 else x - 22, under + 22), 22, kit.player_style(seat))
        text_x = x + 56 if seat == 0 else x - 56
        draw.text((text_x, under), str(name), font=kit.font(kit.BIG, "bold"), fill=kit.INK, anchor=anchor,
                  role="name")
        draw.text((text_x, under + kit.BIG + 10), view["states"][seat], font=kit.font(kit.SMALL), fill=kit.INK_MUTED,
                  anchor=anchor)


def public_image(view: View) -> Any:
    view = in_words(view)
    language = str(view.get("language") or "en")
    image, draw = kit.new_canvas(HEIGHT, kit.PHONE_WIDTH)
    style = kit.player_style(int(view["to_move"])) if view.get("winner") is None else None
    top = kit.phone_header(draw, kit.PHONE_WIDTH, view["turn"], str(view.get("last_move") or ""), style, language)
    draw_board(draw, view, kit.PHONE_WIDTH, top)
    return image


def render(view: View) -> bytes:
    """The public board as PNG bytes (800 x 330, in the boards' palette)."""
    return kit.encode_board(public_image(view))


def render_detail(view: View) -> bytes:
    """The full-size board (1280 x 420, shown privately on demand): the turn over the same track, wider."""
    view = in_words(view)
    image, draw = kit.new_canvas(DETAIL_HEIGHT, kit.WIDTH)
    draw.rectangle((0, 0, kit.WIDTH, kit.HEADER_H), fill=kit.PANEL)
    draw.text((24, 30), view["turn"], font=kit.font(kit.BIG, "bold"), fill=kit.INK, role="headline")
    draw_board(draw, view, kit.WIDTH, kit.HEADER_H)
    return kit.encode_detail(image)


def alt_text(view: View) -> str:
    """The board in words: the turn, where the marker is, and who is tired."""
    view = in_words(view)
    language = str(view.get("language") or "en")
    parts = [f"{view['title']}.", f"{view['turn']}.",
             say("tug.alt.marker", language, cell=int(view["marker"]) + 1, first=view["players"][0],
                 second=view["players"][1])]
    parts += [f"{name}: {state}." for name, state in zip(view["players"], view["states"], strict=True)]
    return kit.clip_alt(parts)


def part_boxes(view: View) -> dict[str, kit.Box]:
    """Where the public board draws the parts a lesson may point at: the marker's cell (`marker`)."""
    with kit.noting_parts() as parts:
        kit.recycle(public_image(view))
    return dict(parts)


GLOSSARY = Glossary("tug", (), name_keys=frozenset({"players", "title"}), worded=in_words)
"""The board draws names and sentences only (the turn, the last pull, "tired"/"rested"): nothing a reader needs
explained, so no entries. (An entry's meaning is a catalogue message the platform words; until game packages have
catalogue domains, a test game's entries could not be worded.)"""
