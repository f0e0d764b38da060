"""The /leaderboard image: a server's top players of one game and the asker's own row, legible on a phone.

800 px wide like every public board (shown 400 points wide): names and ratings at the headline size, nothing under
the body size (rendering/style.py `min_sizes`). The view is plain data built by the bot; nothing here knows Discord.
"""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal

from rendering import kit
from rendering.wording import translate, translate_plural

ROW_H = 54
GAP = 14


def render(view: dict[str, Any]) -> bytes:
    """`view`: {"title", "subtitle", "rows": [{"place", "name", "rating", "games", "asker"}], "note", "language"}."""
    language = str(view.get("language") or "en")
    with kit.hyphenating(language):
        return _render(view, language)


def _render(view: dict[str, Any], language: str) -> bytes:
    rows: list[dict[str, Any]] = list(view.get("rows", []))
    width = kit.PHONE_WIDTH
    height = max(kit.HEADER_H + 2 * GAP + ROW_H * max(len(rows), 1) + (GAP if _detached(rows) else 0) + 40,
                 width // 2)
    image, draw = kit.new_canvas(height, width)
    title = view.get("title") or translate("rating.image.default_title", language)
    kit.phone_header(draw, width, str(title), str(view.get("subtitle", "")), None, language)
    y = kit.HEADER_H + GAP
    if not rows:
        draw.text((24, y + 10), str(view.get("note") or translate("rating.image.nobody", language)),
                  font=kit.font(kit.BIG), fill=kit.INK, role="headline")
    for index, row in enumerate(rows):
        if index and row["place"] != rows[index - 1]["place"] + 1:
            y += GAP  # the asker's own row, apart from the top ten
        fill = kit.PANEL_LIGHT if row.get("asker") else kit.PANEL
        kit.rounded_panel(draw, (12, y, width - 12, y + ROW_H - 6), fill=fill)
        middle = y + (ROW_H - 6) / 2
        draw.text((30, middle), f"{row['place']}.", font=kit.font(kit.BIG, "bold"), fill=kit.INK_MUTED,
                  anchor="lm", role="score")
        rating = rating_text(row["rating"], language)
        games = translate_plural("rating.image.games", int(row["games"]), language)
        right = width - 30
        draw.text((right, middle), rating, font=kit.font(kit.BIG, "bold"), fill=kit.INK, anchor="rm", role="score")
        games_right = right - kit.measure(rating, kit.BIG, "bold") - 24
        draw.text((games_right, middle), games, font=kit.font(kit.SMALL), fill=kit.INK_MUTED, anchor="rm")
        name_room = games_right - kit.measure(games, kit.SMALL) - 24 - 100
        name = str(row["name"])
        colour = kit.HIGHLIGHT if row.get("asker") else kit.INK
        if kit.measure(name, kit.BIG, "bold") <= name_room:
            draw.text((100, middle), name, font=kit.font(kit.BIG, "bold"), fill=colour, anchor="lm", role="name")
        else:  # a long name goes on two lines, whole (names are never cut)
            first, *rest = kit.name_lines(name, name_room)
            draw.text((100, middle - 1), first, font=kit.font(kit.BIG, "bold"), fill=colour, anchor="ls",
                      role="name")
            draw.text((100, middle + 1), " ".join(rest), font=kit.font(kit.BIG, "bold"), fill=colour, anchor="lt",
                      role="name")
        y += ROW_H
    note = str(view.get("note") or "")
    if rows and note:
        draw.text((24, height - 28), note, font=kit.font(kit.SMALL), fill=kit.INK_MUTED, anchor="lm")
    return kit.encode_board(image)


def _detached(rows: list[dict[str, Any]]) -> bool:
    return any(i and row["place"] != rows[i - 1]["place"] + 1 for i, row in enumerate(rows))


def rating_text(rating: float, language: str) -> str:
    """A rating with one decimal, as the language writes it ("12.3", "12,3")."""
    return format_decimal(rating, format="#,##0.0", locale=language)


def alt_text(view: dict[str, Any]) -> str:
    """The leaderboard in words for the attachment's description."""
    language = str(view.get("language") or "en")
    parts = [f"{view.get('title') or translate('rating.image.default_title', language)}."]
    parts += [translate_plural("rating.image.alt_row", int(row["games"]), language, place=str(row["place"]),
                               name=row["name"], rating=rating_text(row["rating"], language))
              for row in view.get("rows", [])]
    return kit.clip_alt(parts)
