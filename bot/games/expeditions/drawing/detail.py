"""Expeditions' detail board, shown privately on demand: the hex map with the locations' names, the glory board and
the supply, the face-up cards or the choice under way, then one mat per player in full."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.expeditions.drawing.shared import (
    BOTH,
    CARD_FILL,
    GUILE,
    HIDDEN_FILL,
    POWER,
    REGION_FILL,
    WORKER,
    headline,
    language,
    money,
    ranked_places,
    stars_text,
)
from bot.games.expeditions.rules.view_types import ExpeditionsView
from bot.i18n import deferred
from rendering import kit
from rendering.wording import translate, translate_plural

HEX_R = 74
HEX_W = math.sqrt(3) * HEX_R
MAP_LEFT = 24
MAP_TOP = 20
MAP_WIDTH = int(HEX_W * 5.5) + 2 * MAP_LEFT
SIDE_LEFT = MAP_WIDTH + 16
MAT_HEIGHT = 238
REGION_LETTERS = {"south": deferred("expeditions.region.letter_s"), "central": deferred("expeditions.region.letter_c"),
                  "north": deferred("expeditions.region.letter_n")}
KIND_WORDS = {"item": deferred("expeditions.kind.item"), "meteorite": deferred("expeditions.kind.meteorite"),
              "quest": deferred("expeditions.kind.quest"), "character": deferred("expeditions.kind.character"),
              "companion": deferred("expeditions.kind.companion")}
COLOUR_WORDS = {"red": deferred("expeditions.colour.red"), "blue": deferred("expeditions.colour.blue"),
                "green": deferred("expeditions.colour.green"), "yellow": deferred("expeditions.colour.yellow")}
INITIALS = {"red": deferred("expeditions.board.initial.red"), "blue": deferred("expeditions.board.initial.blue"),
            "green": deferred("expeditions.board.initial.green"),
            "yellow": deferred("expeditions.board.initial.yellow")}
"""A worker's colour as the letter on its disc (German: R, B, Gr, Ge; green and yellow both start with G)."""


def _word(table: dict[str, str], key: str, lang: str) -> str:
    return translate(table[key], lang) if key in table else key


def whole_items(items: list[str], max_width: int, size: int, lang: str) -> str:
    """As many whole items as fit, comma-separated, then "+N more" in the board's language: a list is shortened by
    dropping names, never by cutting one."""
    for count in range(len(items), -1, -1):
        rest = len(items) - count
        text = ", ".join(items[:count]) + (" " + translate("expeditions.board.more", lang, n=rest) if rest else "")
        if kit.measure(text, size) <= max_width:
            return text
    return translate_plural("expeditions.board.cards", len(items), lang)


def hex_centre(row: int, col: int, top: int) -> tuple[float, float]:
    """Centre of a hex in the "odd-r" layout (odd rows half a hex to the right), the map starting at `top`."""
    x = MAP_LEFT + HEX_W / 2 + col * HEX_W + (HEX_W / 2 if row % 2 else 0)
    y = top + MAP_TOP + HEX_R + row * 1.5 * HEX_R
    return x, y


@lru_cache(maxsize=256)
def hex_points(row: int, col: int, top: int, shrink: float = 3.0) -> tuple[tuple[float, float], ...]:
    """The six corners of a pointy-top hex, a little inset so neighbours show a gap (cached: they never change)."""
    x, y = hex_centre(row, col, top)
    r = HEX_R - shrink
    return tuple((x + r * math.cos(math.radians(60 * i - 30)), y + r * math.sin(math.radians(60 * i - 30)))
                 for i in range(6))


def map_height() -> int:
    return int(MAP_TOP + HEX_R * 2 + 4 * 1.5 * HEX_R + 90)


def draw_corruption(draw: ImageDraw.ImageDraw, x: float, y: float, tokens: list[list[Any]]) -> None:
    """A stack of corruption tokens, bottom first, left to right; the rightmost is the top one."""
    size = TOKEN_R
    for index, (colour, value) in enumerate(tokens):
        cx = x + index * (size * 2 + 2)
        fill = {"power": POWER, "guile": GUILE}.get(colour, BOTH)
        draw.ellipse((cx - size, y - size, cx + size, y + size), fill=fill, outline=kit.INK_DARK, width=2)
        kit.mark("corruption", (cx - size, y - size, cx + size, y + size))
        label_colour = kit.INK if colour == "both" else kit.INK_DARK
        draw.text((cx, y), str(value), font=kit.font(16, "bold"), fill=label_colour, anchor="mm", role="label")


TOKEN_R = 13
"""A corruption token's radius on the detail map (its value in 16 px bold: 10 points once opened)."""
MECH_R = 16
"""A mech's radius on the detail map (its letter in 17 px bold)."""
NAME_W = 114
"""The room for a location's name across its tile (the hex is 128 px wide between its flat sides)."""


@lru_cache(maxsize=256)
def place_name(name: str) -> tuple[int, tuple[str, ...]]:
    """A location's name on its detail tile, whole and at least 15 px (9 points once opened): one line at 17 px,
    else two lines of whole words at 17, else one line down to 15 (a single long word), else broken between its
    syllables."""
    one = kit.lines(name, NAME_W, 17, "semibold")
    if len(one) == 1:
        return 17, one
    if len(one) == 2 and len(" ".join(one).split()) == len(name.split()):  # whole words on two lines
        return 17, one
    for size in (16, 15):
        if kit.measure(name, size, "semibold") <= NAME_W:
            return size, (name,)
    return kit.fit_lines(name, NAME_W, 2, (17, 16, 15), "semibold")


def draw_pieces(draw: ImageDraw.ImageDraw, x: float, y: float, mech: Any, tokens: list[list[Any]],
                map_token: bool, lang: str, word: str = "") -> None:
    """The pieces on a space in one row, centred: the mech (its player's shape and letter), then the corruption
    stack (bottom first, the top one rightmost), or the map token on a face-down tile, or a word ("cleared")."""
    widths = ([2 * MECH_R] if mech is not None else []) + ([len(tokens) * (2 * TOKEN_R + 2) - 2] if tokens else [])
    widths += ([26] if map_token else []) + ([kit.measure(word, 18, "bold")] if word else [])
    left = x - (sum(widths) + 4 * (len(widths) - 1)) / 2
    if mech is not None:
        kit.draw_token(draw, (left + MECH_R, y), MECH_R, kit.player_style(int(mech)), width=3)
        left += 2 * MECH_R + 4
    if tokens:
        draw_corruption(draw, left + TOKEN_R, y, tokens)
        left += len(tokens) * (2 * TOKEN_R + 2) + 2  # (the stack's last gap and the row's)
    if map_token:
        draw.rectangle((left, y - 11, left + 26, y + 11), fill=kit.MAP_TOKEN, outline=kit.INK_DARK, width=2)
        kit.mark("map token", (left, y - 11, left + 26, y + 11))
        draw.text((left + 13, y), translate("expeditions.board.map_letter", lang), font=kit.font(16, "bold"),
                  fill=kit.INK_DARK, anchor="mm", role="label")
    if word:
        draw.text((left, y), word, font=kit.font(18, "bold"), fill=kit.LEAF_DARK, anchor="lm")


def mech_ring(draw: ImageDraw.ImageDraw, row: int, col: int, top: int, mech: Any) -> None:
    """A tile with a mech on it ringed in its player's colour inside a dark edge: a player finds their own mech
    at a glance (the public board's ring)."""
    if mech is not None:
        draw.polygon(hex_points(row, col, top, 7.0), outline=kit.player_style(int(mech)).colour, width=6)
        draw.polygon(hex_points(row, col, top), outline=kit.INK_DARK, width=2)


def draw_space(draw: ImageDraw.ImageDraw, space: dict[str, Any], top: int, lang: str = "en") -> None:
    """One space: a card space shows its card; a face-down tile its region and map token; a location its label
    ("14 N") on top, its name (one or two lines) across the middle, then its mech and corruption in a row; every
    space its code at the foot."""
    row, col = space["row"], space["col"]
    x, y = hex_centre(row, col, top)
    points = hex_points(row, col, top)
    if space["kind"] == "cards":
        draw.polygon(points, fill=kit.SLOT, outline=kit.INK_MUTED)
        card = space.get("card")
        # The card stays inside its hex (a pointy-top hex narrows above and below), so no code or token is hidden.
        box = (x - 52, y - 46, x + 52, y + 46)
        if card is None:
            draw.rounded_rectangle(box, radius=8, outline=kit.INK_MUTED, width=2)
            draw.text((x, y), translate("expeditions.board.empty", lang), font=kit.font(20), fill=kit.INK_MUTED,
                      anchor="mm")
            return
        draw.rounded_rectangle(box, radius=8, fill=CARD_FILL.get(card["kind"], kit.INK), outline=kit.INK_DARK,
                               width=2)
        draw.rectangle((box[0] + 2, box[1] + 2, box[2] - 2, box[1] + 12), fill=WORKER.get(card["colour"], kit.GREY))
        size, lines = kit.fit_lines(card["name"], 98, 2, (19, 17, 15), "semibold")  # long German words hyphenate
        face = kit.font(size, "semibold")
        for index, line in enumerate(lines[:2]):
            draw.text((x, y - 18 + index * 21), line, font=face, fill=kit.INK_DARK, anchor="mm")
        kind, face = kit.fitted(f"#{space['slot'] + 1} {_word(KIND_WORDS, card['kind'], lang)}", 100, 16,
                                min_size=15)
        draw.text((x, y + 32), kind, font=face, fill=kit.INK_DARK, anchor="mm")
        return
    mech = space.get("mech")
    if not space["revealed"]:
        draw.polygon(points, fill=HIDDEN_FILL[space["kind"]], outline=kit.INK_MUTED)
        mech_ring(draw, row, col, top, mech)
        draw.text((x, y - 22), _word(REGION_LETTERS, space["kind"], lang) + "?", font=kit.font(34, "bold"),
                  fill=kit.INK_MUTED, anchor="mm")
        if mech is not None or space["map_token"]:
            draw_pieces(draw, x, y + 18, mech, [], bool(space["map_token"]), lang)
    else:
        draw.polygon(points, fill=REGION_FILL[space["kind"]], outline=kit.INK_DARK)
        mech_ring(draw, row, col, top, mech)
        draw.text((x, y - 47), space["label"], font=kit.font(28, "bold"), fill=kit.INK_DARK, anchor="mm")
        size, name = place_name(str(space["name"]))
        for index, line in enumerate(name):
            draw.text((x, y - (17 if len(name) == 1 else 26) + index * 18), line, font=kit.font(size, "semibold"),
                      fill=kit.INK_DARK, anchor="mm")
        tokens = space["corruption"][-(3 if mech is not None else 4):]  # the top of the stack
        cleared = translate("expeditions.board.cleared", lang) if space.get("cleared_exposed") else ""
        if mech is not None or tokens or cleared:
            draw_pieces(draw, x, y + 19, mech, tokens, False, lang, "" if tokens else cleared)
    draw.text((x, y + 50), space["code"], font=kit.font(20, "bold"),
              fill=kit.INK_DARK if space["revealed"] else kit.INK_MUTED, anchor="mm")


def draw_map(draw: ImageDraw.ImageDraw, view: ExpeditionsView, top: int) -> None:
    lang = language(view)
    for space in view["map"]["spaces"]:
        draw_space(draw, space, top, lang)
    reachable, current = set(view.get("reachable") or ()), view.get("current")
    if reachable and current is not None:  # where the player to move can move: outlined in their colour
        colour = kit.player_style(int(current["seat"])).colour
        for space in view["map"]["spaces"]:
            if space["code"] in reachable:
                points = list(hex_points(space["row"], space["col"], top))
                draw.line([*points, points[0], points[1]], fill=kit.HIGHLIGHT, width=7, joint="curve")
                draw.line([*points, points[0], points[1]], fill=colour, width=4, joint="curve")
    links = view["map"]["basecamp"]["links"]
    base_y = top + MAP_TOP + HEX_R * 2 + 4 * 1.5 * HEX_R + 40
    xs = [hex_centre(4, ord(code[0]) - ord("a"), top)[0] for code in links]
    left, right = min(xs) - 60, max(xs) + 60
    kit.rounded_panel(draw, (left, base_y - 28, right, base_y + 28), fill=kit.CAMP_BROWN, outline=kit.INK_MUTED)
    draw.text((left + 16, base_y), translate("expeditions.board.basecamp", lang), font=kit.font(24, "bold"),
              fill=kit.INK, anchor="lm")
    for index, seat in enumerate(view["map"]["basecamp"]["mechs"]):
        kit.draw_token(draw, (right - 26 - index * 44, base_y), 18, kit.player_style(seat))


@dataclass(frozen=True)
class SideText:
    """Lines of text the side panel draws, laid out before the panel (its height depends on them)."""

    x: float
    y: float
    lines: tuple[str, ...]
    size: int
    weight: str
    fill: str
    step: int
    role: str = "text"


@dataclass(frozen=True)
class SidePiece:
    """A player's piece the side panel draws (a star on the glory board, a player in the result)."""

    x: float
    y: float
    radius: int
    seat: int


class SideColumn:
    """The side panel's contents laid out top to bottom: every text wraps (whole words, at least 17 px) instead
    of being shrunk or cut, and the panel is as tall as what it holds."""

    def __init__(self, left: float, top: float, width: float) -> None:
        self.left, self.y, self.width = left, top, width
        self.items: list[SideText | SidePiece] = []

    def text(self, text: str, sizes: tuple[int, ...], weight: str = "regular", fill: str = kit.INK,
             indent: float = 0, room: float = 0, max_lines: int = 2, gap: int = 2, leading: int = 6,
             role: str = "text") -> float:
        """`text` on one line at the largest of `sizes` it fits in, else wrapped at the largest that takes at most
        `max_lines` lines (more lines at the smallest rather than a cut), in the width less `indent` and `room`
        (kept free on the right), `gap` px above the next; returns the y where it starts."""
        width = int(self.width - indent - room)
        size, lines = kit.fit_lines(text, width, 1, sizes, weight)  # one line if it fits at any of `sizes`
        if len(lines) > 1:
            size, lines = kit.fit_lines(text, width, max_lines, sizes, weight)
        start = self.y
        self.items.append(SideText(self.left + indent, start, lines, size, weight, fill, size + leading, role))
        self.y += len(lines) * (size + leading) + gap
        return start

    def piece(self, x: float, y: float, radius: int, seat: int) -> None:
        self.items.append(SidePiece(x, y, radius, seat))

    def skip(self, space: float) -> None:
        self.y += space


GLORY_PIECE = 15
"""A star's piece on the glory board (its letter in 16 px bold)."""


def side_layout(view: ExpeditionsView, top: int) -> SideColumn:
    """The glory board, the supply and the decision being made (or the face-up cards, or the result), laid out
    in the side panel from `top`."""
    left, right = SIDE_LEFT, kit.WIDTH - 20
    lang = language(view)
    column = SideColumn(left + 16, top + 26, right - left - 32)
    column.text(translate("expeditions.board.glory_basecamp", lang), (26,), "bold", gap=6)
    for glory in view["glory"]:
        pieces = (2 * GLORY_PIECE + 5) * len(glory["stars"])
        start = column.text(glory["title"], (22, 20, 18), room=pieces + 8, gap=6)
        for index, seat in enumerate(glory["stars"]):
            column.piece(right - 16 - GLORY_PIECE - index * (2 * GLORY_PIECE + 5), start + 13, GLORY_PIECE, seat)
    column.skip(8)
    supply = view["supply"]
    workers = " ".join(f"{_word(INITIALS, c, lang)}{n}" for c, n in supply["workers"].items())
    lines = [translate("expeditions.board.piles", lang, deck=view["deck_count"], discard=len(view["discard"]),
                       bag=view["bag"]["count"]),
             translate("expeditions.board.supply", lang, workers=workers, maps=supply["map_tokens"])]
    if view["end"]["triggered_by"] is not None:
        lines.append(translate("expeditions.board.final_round", lang))
    for line in lines:
        column.text(line, (22, 20, 18), fill=kit.INK_MUTED)
    column.skip(8)
    pending = view["pending"]
    if view.get("outcome"):
        result_layout(column, view, lang)
    elif pending:
        pending_layout(column, view, pending, lang)
    else:
        face_up_layout(column, view, lang)
    return column


def face_up_layout(column: SideColumn, view: ExpeditionsView, lang: str) -> None:
    """Each face-up card: its slot, name, kind and colour (in words: colour-blind safe), then its core value and
    ability (or its quest), whole on up to three lines."""
    column.text(translate("expeditions.board.face_up", lang), (24,), "bold", gap=4)
    for slot, card in enumerate(view["face_up"]):
        if card is None:
            continue
        title = (f"#{slot + 1} {card['name']} ({_word(KIND_WORDS, card['kind'], lang)}, "
                 f"{_word(COLOUR_WORDS, card['colour'], lang)})")
        column.text(title, (22, 20, 18), "semibold", gap=0)
        detail = translate("expeditions.board.card_core", lang, core=card["core"], ability=card["ability"])
        if card.get("quest"):
            detail = translate("expeditions.board.card_quest", lang, label=card["quest"]["label"],
                               cost=card["quest"]["cost"], reward=card["quest"]["reward"])
        column.text(detail, (19, 18, 17), fill=kit.INK_MUTED, indent=12, max_lines=3, gap=6, leading=4)


def result_layout(column: SideColumn, view: ExpeditionsView, lang: str) -> None:
    """The end: the winner in words, then every player best first with their money and glory."""
    column.text(translate("expeditions.board.final_result", lang), (26,), "bold", kit.YELLOW, gap=4)
    outcome = view["outcome"]
    verdict = str(outcome.get("verdict") or str(outcome["summary"]).split(" Scores:")[0])
    lines = kit.sentences_that_fit(verdict, int(column.width), 2, 24)  # the scores are listed below, best first
    column.items.append(SideText(column.left, column.y, lines, 24, "semibold", kit.INK, 30))
    column.skip(30 * len(lines) + 4)
    for _, player in ranked_places(view):
        line = translate("expeditions.board.result_line", lang, name=player["name"],
                         money=money(player["score"], lang), glory=player["tiebreak"])
        if kit.measure(line, 20) <= column.width - 38:
            start = column.text(line, (22, 20), indent=38, gap=4, role="score")
        else:  # a long name on its own lines (whole), the money and glory under it
            start = column.y
            for name_line in kit.name_lines(str(player["name"]), int(column.width - 38), 22):
                column.text(name_line, (22,), "bold", indent=38, gap=0, role="name")
            column.text(line.replace(str(player["name"]), "", 1).strip(), (22,), indent=38, gap=4, role="score")
        column.piece(column.left + 14, start + 15, GLORY_PIECE, int(player["seat"]))


def pending_layout(column: SideColumn, view: ExpeditionsView, pending: dict[str, Any], lang: str) -> None:
    """The decision being made (`pending`): who and what (whole), then each option (whole, on up to two lines)."""
    who = view["players"][pending["seat"]]["name"]
    column.text(f"{who}: {pending['prompt']}", (22, 20, 18), "semibold", kit.YELLOW, max_lines=3, gap=4)
    for option in pending["options"]:
        column.text("• " + option["label"], (20, 18, 17), gap=0)


def draw_side(draw: ImageDraw.ImageDraw, column: SideColumn, top: int, bottom: float) -> None:
    """The side panel from `top` to `bottom` and what `side_layout` put in it."""
    kit.rounded_panel(draw, (SIDE_LEFT, top + 12, kit.WIDTH - 20, bottom))
    for item in column.items:
        if isinstance(item, SidePiece):
            kit.draw_token(draw, (item.x, item.y), item.radius, kit.player_style(item.seat))
            continue
        face = kit.font(item.size, item.weight)
        for index, line in enumerate(item.lines):
            draw.text((item.x, item.y + index * item.step), line, font=face, fill=item.fill, role=item.role)


def draw_star(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, filled: bool) -> None:
    points = []
    for i in range(10):
        angle = -math.pi / 2 + i * math.pi / 5
        radius = r if i % 2 == 0 else r * 0.45
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    draw.polygon(points, fill=kit.YELLOW if filled else None, outline=kit.YELLOW, width=2)


def draw_bar(draw: ImageDraw.ImageDraw, x: int, y: int, label: str, value: int, colour: str) -> int:
    draw.text((x, y), label, font=kit.font(22, "semibold"), fill=kit.INK, anchor="lm")
    bx = x + 64
    for step in range(10):
        fill = colour if step < value else kit.TRACK_EMPTY
        draw.rectangle((bx + step * 17, y - 10, bx + step * 17 + 13, y + 10), fill=fill)
    draw.text((bx + 176, y), str(value), font=kit.font(22, "bold"), fill=kit.INK, anchor="lm")
    return bx + 206


def card_names(cards: list[dict[str, Any]], with_workers: bool = False, lang: str = "en") -> str:
    names = []
    for card in cards:
        mark = f" ({_word(INITIALS, card['worker'], lang)})" if with_workers and card.get("worker") else ""
        names.append(card["name"] + mark)
    return ", ".join(names) if names else "—"


def _tucked(player: dict[str, Any], width: int, lang: str = "en") -> str:
    """Quests, melds and upgrades: the counts, then as many whole card names as fit (the rest as "+N more")."""
    counts = translate("expeditions.board.tucked", lang, quests=len(player["quests"]), melds=len(player["melds"]),
                       upgrades=len(player["upgrades"]))
    names = [card["name"] for key in ("quests", "melds", "upgrades") for card in player[key]]
    if not names:
        return counts
    return f"{counts}: " + whole_items(names, width - kit.measure(f"{counts}: ", 22), 22, lang)


def draw_mat(draw: ImageDraw.ImageDraw, player: dict[str, Any], top: int, current: bool, where: str,
             lang: str = "en") -> None:
    style = kit.player_style(player["seat"])
    left, right = 20, kit.WIDTH - 20
    kit.rounded_panel(draw, (left, top, right, top + MAT_HEIGHT - 12), fill=kit.PANEL,
                      outline=style.colour if current else None, width=4)
    kit.draw_token(draw, (left + 30, top + 30), 20, style)
    title = f"{player['name']} · {player['mech']['name']}"
    title, face = kit.fitted(title, 560, 28, "bold", 16)
    draw.text((left + 60, top + 12), title, font=face, fill=kit.INK)
    token = player.get("token_text") or ""
    summary = money(player["score"], lang) + ("   " + translate("expeditions.board.token", lang, token=token)
                                              if token else "")
    draw.text((right - 16, top + 14), summary, font=kit.font(26, "semibold"), fill=kit.INK, anchor="ra")
    stars_right = right - 32 - kit.text_width(draw, summary, kit.font(26, "semibold"))
    total = player["stars"] + player["stars_left"]
    for index in range(total):
        draw_star(draw, stars_right - 12 - (total - 1 - index) * 30, top + 30, 13, index < player["stars"])
    y = top + 70
    x = draw_bar(draw, left + 16, y, translate("expeditions.board.power_short", lang), player["power"], POWER)
    x = draw_bar(draw, x + 10, y, translate("expeditions.board.guile_short", lang), player["guile"], GUILE)
    info = translate("expeditions.board.mat_info", lang, money=money(player["coins"], lang),
                     maps=player["map_tokens"], corruption=player["corruption_count"])
    if player["token20"]:
        info += " +20"
    draw.text((x + 10, y), info, font=kit.font(22, "semibold"), fill=kit.INK, anchor="lm")
    wx = right - 16 - 56 * len(player["workers"])
    for colour, count in player["workers"].items():
        # The worker's colour carries its initial too (R, B, G, Y; German R, B, Gr, Ge), so it reads without
        # telling colours apart: 16 px on a 32 px disc (10 points once opened).
        initial = _word(INITIALS, colour, lang)
        draw.ellipse((wx, y - 16, wx + 32, y + 16), fill=WORKER.get(colour, kit.GREY), outline=kit.INK_DARK, width=2)
        draw.text((wx + 16, y), initial, font=kit.font(17 if len(initial) == 1 else 16, "bold"),
                  fill=kit.INK if colour == "blue" else kit.INK_DARK, anchor="mm")
        draw.text((wx + 36, y), str(count), font=kit.font(22, "bold"), fill=kit.INK, anchor="lm")
        wx += 56
    face = kit.font(22)
    width = right - left - 150
    rows = [(translate("expeditions.board.hand", lang),
             whole_items([c["name"] for c in player["hand"]], width, 22, lang) or "—"),
            (translate("expeditions.board.active", lang),
             whole_items(card_names(player["active"], True, lang).split(", "), width, 22, lang)),
            (translate("expeditions.board.tucked_row", lang), _tucked(player, width, lang))]
    y = top + 96
    for label, text in rows:
        draw.text((left + 16, y), label, font=kit.font(22, "bold"), fill=kit.INK_MUTED)
        text, face = kit.fitted(text, width, 22, "regular", 15)
        draw.text((left + 110, y), text, font=face, fill=kit.INK)
        y += 32
    draw.text((left + 16, y), translate("expeditions.board.at", lang, place=where), font=kit.font(22),
              fill=kit.INK_MUTED)


def render_detail(view: ExpeditionsView) -> bytes:
    """The full-size detail board for one view: header, map with names, side panel, then a mat per player."""
    return kit.encode_detail(detail_image(view))


def detail_image(view: ExpeditionsView) -> Image.Image:
    """The detail board drawn, in the boards' palette (`render_detail` encodes it)."""
    players = view["players"]
    header = 150 + 44 * ((len(players) + 2) // 3)
    side = side_layout(view, header)
    mats_top = max(header + map_height(), math.ceil(side.y) + 20)  # a side panel taller than the map pushes the mats
    height = mats_top + MAT_HEIGHT * len(players) + 16
    image, draw = kit.new_canvas(height)
    current = view["current"]["seat"] if view.get("current") else None
    lang = language(view)
    scores = [(kit.player_style(p["seat"]), p["name"], f"{money(p['score'], lang)} · {stars_text(p['stars'], lang)}")
              for p in players]
    turn_style = kit.player_style(current) if current is not None else None
    turn = view["turn"] if not view.get("outcome") else headline(view)
    kit.header_band(draw, kit.WIDTH, view.get("title", "Expeditions"), turn, view["last_move"], turn_style, scores)
    draw_map(draw, view, header)
    draw_side(draw, side, header, mats_top - 8)
    places = {s["code"]: f"{s['code']}: {s['label']} {s['name']}" for s in view["map"]["spaces"] if s.get("label")}
    places["basecamp"] = translate("expeditions.board.basecamp", lang)
    ranked = [player for _, player in ranked_places(view)] if view.get("outcome") else players  # the end: best first
    for index, player in enumerate(ranked):
        where = places.get(player["at"], player["at"])
        draw_mat(draw, player, mats_top + index * MAT_HEIGHT, player["seat"] == current, where, lang)
    return image
