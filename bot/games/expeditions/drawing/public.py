"""Expeditions board image: the hex map, face-up cards, glory board, pending choice and one mat per player.

Draws from the view dict only (never imports the rules), so what the image shows is exactly what the viewer may see.
"""

from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import deferred
from rendering import kit
from rendering.caches import LruCache, footprint
from rendering.wording import translate, translate_plural

HEX_R = 74
HEX_W = math.sqrt(3) * HEX_R
MAP_LEFT = 24
MAP_TOP = 20
MAP_WIDTH = int(HEX_W * 5.5) + 2 * MAP_LEFT
SIDE_LEFT = MAP_WIDTH + 16
MAT_HEIGHT = 238
POWER = kit.ORANGE  # orange corruption and power track
GUILE = kit.TURQUOISE  # turquoise corruption and guile track
BOTH = kit.WINE  # the 20 token, paid with power and guile
REGION_FILL = {"south": kit.SAND, "central": kit.MEADOW, "north": kit.FROST}
HIDDEN_FILL = {"south": kit.SAND_DARK, "central": kit.MEADOW_DARK, "north": kit.FROST_DARK}
CARD_FILL = {"item": kit.PARCHMENT, "meteorite": kit.LILAC, "quest": kit.PEACH, "character": kit.ICE_BLUE,
             "companion": kit.ICE_BLUE}
WORKER = {"red": kit.VERMILLION, "blue": kit.BLUE, "green": kit.BLUISH_GREEN, "yellow": kit.YELLOW}
REGION_WORDS = {"south": deferred("expeditions.region.south"), "central": deferred("expeditions.region.central"),
                "north": deferred("expeditions.region.north")}
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


def language(view: dict[str, Any]) -> str:
    """The table's language: every word the board draws is in it (the view's names and texts already are)."""
    return str(view.get("language") or "en")


def _word(table: dict[str, str], key: str, lang: str) -> str:
    return translate(table[key], lang) if key in table else key


def money(n: int, lang: str) -> str:
    return translate("expeditions.money", lang, n=n)


def stars_text(n: int, lang: str) -> str:
    return translate_plural("expeditions.board.stars", n, lang)


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


def draw_map(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
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


def side_layout(view: dict[str, Any], top: int) -> SideColumn:
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
    if view.get("outcome"):
        result_layout(column, view, lang)
    elif view.get("pending"):
        pending_layout(column, view, lang)
    else:
        face_up_layout(column, view, lang)
    return column


def face_up_layout(column: SideColumn, view: dict[str, Any], lang: str) -> None:
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


def result_layout(column: SideColumn, view: dict[str, Any], lang: str) -> None:
    """The end: the winner in words, then every player best first with their money and glory."""
    column.text(translate("expeditions.board.final_result", lang), (26,), "bold", kit.YELLOW, gap=4)
    outcome = view["outcome"]
    verdict = str(outcome.get("verdict") or str(outcome["summary"]).split(" Scores:")[0])
    lines = kit.sentences_that_fit(verdict, int(column.width), 2, 24)  # the scores are listed below, best first
    column.items.append(SideText(column.left, column.y, lines, 24, "semibold", kit.INK, 30))
    column.skip(30 * len(lines) + 4)
    for _, player in _p_places(view):
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


def pending_layout(column: SideColumn, view: dict[str, Any], lang: str) -> None:
    """The decision being made: who and what (whole), then each option (whole, on up to two lines)."""
    pending = view["pending"]
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


def render_detail(view: dict[str, Any]) -> bytes:
    """The full-size detail board for one view: header, map with names, side panel, then a mat per player."""
    return kit.encode_detail(detail_image(view))


def detail_image(view: dict[str, Any]) -> Image.Image:
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
    turn = view["turn"] if not view.get("outcome") else _p_headline(view)
    kit.header_band(draw, kit.WIDTH, view.get("title", "Expeditions"), turn, view["last_move"], turn_style, scores)
    draw_map(draw, view, header)
    draw_side(draw, side, header, mats_top - 8)
    places = {s["code"]: f"{s['code']}: {s['label']} {s['name']}" for s in view["map"]["spaces"] if s.get("label")}
    places["basecamp"] = translate("expeditions.board.basecamp", lang)
    ranked = [player for _, player in _p_places(view)] if view.get("outcome") else players  # the end: best first
    for index, player in enumerate(ranked):
        where = places.get(player["at"], player["at"])
        draw_mat(draw, player, mats_top + index * MAT_HEIGHT, player["seat"] == current, where, lang)
    return image



# --- the public board: 800 x 640 for every player count, read on a phone --------------------------------------

P_W, P_H = kit.PHONE_WIDTH, 640
P_HEX_W = 92
P_HEX_R = P_HEX_W / math.sqrt(3)
P_TOP = kit.HEADER_H + 6
P_SIDE = int(12 + 5.5 * P_HEX_W) + 14
SMALL, BIG = kit.SMALL, kit.BIG
_P_BASECAMP_Y = P_TOP + 8 * P_HEX_R + 22
_P_BASECAMP_BOX = (0, math.floor(_P_BASECAMP_Y) - 21, P_SIDE, math.ceil(_P_BASECAMP_Y) + 21)
"""The basecamp strip under the map: its centre line and what a change of mechs repaints."""


def _p_centre(row: int, col: int) -> tuple[float, float]:
    x = 12 + P_HEX_W / 2 + col * P_HEX_W + (P_HEX_W / 2 if row % 2 else 0)
    y = P_TOP + P_HEX_R + row * 1.5 * P_HEX_R
    return x, y


@lru_cache(maxsize=64)
def _p_hex(row: int, col: int) -> tuple[tuple[float, float], ...]:
    x, y = _p_centre(row, col)
    r = P_HEX_R - 2
    return tuple((x + r * math.cos(math.radians(60 * i - 30)), y + r * math.sin(math.radians(60 * i - 30)))
                 for i in range(6))


CACHED_SPACE_BYTES, CACHED_LAYER_BYTES = 12 << 20, 8 << 20
"""A worker keeps ~12 MB of map spaces (a space is ~45 KB with its palette copy: a few hundred, the spaces of the maps
in play) and ~8 MB of whole map layers (0.5 MB each, in the boards' palette: the latest maps of some fifteen
matches), the least recently used going first."""
_SPACES: LruCache[str, tuple[kit.Face, Image.Image, tuple[int, int]]] = LruCache(CACHED_SPACE_BYTES)


@dataclass(frozen=True)
class _Layer:
    """A map layer and what it was built from (each space's key and the basecamp), so the next state's layer can
    be made from it by repainting only what a move changed."""

    face: kit.Face
    spaces: tuple[str, ...]
    mechs: tuple[int, ...]


_LAYERS: LruCache[tuple[tuple[str, ...], tuple[int, ...], bool], _Layer] = LruCache(
    CACHED_LAYER_BYTES, lambda layer: footprint(layer.face))
_LAYERS_LOCK = threading.Lock()
"""A layer is repainted in place: a board drawn in a thread (a test, a runtime-registered game's pool) must not
copy one while another repaints it."""


def _p_space_face(space: dict[str, Any], key: str) -> tuple[kit.Face, Image.Image, tuple[int, int]]:
    """One map space drawn once per process on a transparent piece (a space looks the same until its corruption,
    mech, card or side changes): the piece, its mask and where it goes on the board."""
    recording = kit.is_recording()  # a piece built for a test carries what it drew; a worker's needs no record
    cached = f"{key} (recorded)" if recording else key
    found = _SPACES.get(cached)
    if found is None:
        left, top, right, bottom = _p_space_box(space["row"], space["col"])
        origin = (left, top)
        image = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
        with kit.building(image) if recording else contextlib.nullcontext(kit.Recording()) as drawn:
            _p_space(kit.Draw(image), space, origin)
        # Everything on a space is opaque (shapes are not anti-aliased, letters sit on them): a 1-bit mask pastes
        # it at a third of the cost of its alpha channel, and thresholding that all-or-nothing alpha (no dithering)
        # takes a twentieth of the time dithering it would.
        mask = image.getchannel("A").convert("1", dither=Image.Dither.NONE)
        found = (kit.Face(image.convert("RGB"), drawn), mask, origin)
        _SPACES.put(cached, found)
    return found


def _p_map_layer(view: dict[str, Any]) -> kit.Face:
    """The map, the basecamp and the legend on the board's background, built from cached spaces; the same layer
    comes back as long as nothing on the map changes (most steps of a turn), and a move's new layer is the
    previous one with only the changed spaces repainted."""
    lang = language(view)
    spaces = view["map"]["spaces"]
    if lang != "en":  # a space's words (and so its cached piece) are in the board's language
        spaces = [{**space, "language": lang} for space in spaces]
    mechs = tuple(view["map"]["basecamp"]["mechs"])
    recording = kit.is_recording()  # a layer built for a test carries what it drew; a worker's needs no record
    keys = tuple(repr(space) for space in spaces)  # each space as its piece is cached
    key = (keys, mechs, recording)
    layer = _LAYERS.get(key)
    if layer is None:
        image = None if recording else _p_repainted(spaces, keys, mechs)
        drawn = kit.Recording()
        if image is None:
            image, drawn = _p_built(spaces, keys, mechs, recording)
        layer = _Layer(kit.Face(image, drawn), keys, mechs)
        _LAYERS.put(key, layer)
    return layer.face


def _p_built(spaces: list[dict[str, Any]], keys: tuple[str, ...], mechs: tuple[int, ...], recording: bool
             ) -> tuple[Image.Image, kit.Recording]:
    """A map layer drawn whole: the background, every space, the basecamp."""
    base = _p_base(_spaces_language(spaces))
    image = base.image.copy()
    with kit.building(image) if recording else contextlib.nullcontext(kit.Recording()) as drawn:
        kit.replay(base)
        for space, key in zip(spaces, keys, strict=True):
            face, mask, origin = _p_space_face(space, key)
            kit.blit(image, face.image, origin, mask)
            kit.replay(face, origin)
        _p_basecamp(kit.Draw(image), list(mechs), _spaces_language(spaces))
    return image, drawn


def _spaces_language(spaces: list[dict[str, Any]]) -> str:
    """The language a map's spaces are drawn in (English when they do not say)."""
    return str(spaces[0].get("language") or "en") if spaces else "en"


def _p_repainted(spaces: list[dict[str, Any]], keys: tuple[str, ...], mechs: tuple[int, ...]
                 ) -> Image.Image | None:
    """The cached layer nearest to this map (fewest spaces changed: a move changes one or two), taken out of the
    cache and repainted in place where the spaces and the basecamp changed; None when no cached layer is near
    enough. (In place: a copy of a 1.5 MB layer costs more in fresh memory than the repaint itself.)"""
    best, best_key, changed = None, None, len(keys) // 4 + 1
    for layer_key, layer in _LAYERS.items():
        # (not a layer drawn while recording, for a test or a glossary: its pieces were drawn apart, not pasted)
        if not layer_key[2] and len(layer.spaces) == len(keys):
            differing = sum(1 for old, new in zip(layer.spaces, keys, strict=True) if old != new)
            if differing < changed:
                best, best_key, changed = layer, layer_key, differing
    if best is None:
        return None
    _LAYERS.pop(best_key)
    image = best.face.image
    basecamp = mechs != best.mechs
    for space, old, new in zip(spaces, best.spaces, keys, strict=True):
        if old != new:
            box = _p_space_box(space["row"], space["col"])
            _p_recompose(image, spaces, keys, box)
            basecamp = basecamp or box[3] > _P_BASECAMP_BOX[1]  # the basecamp is drawn over the map's foot
    if basecamp:
        _p_recompose(image, spaces, keys, _P_BASECAMP_BOX)
        _p_basecamp(kit.Draw(image), list(mechs), _spaces_language(spaces))
    return image


def _p_recompose(image: Image.Image, spaces: list[dict[str, Any]], keys: tuple[str, ...],
                 box: tuple[int, int, int, int]) -> None:
    """Draw `box` of the layer again as a whole build draws it: the background, then every space reaching into
    it in map order (a space's card overhangs its neighbours' edges), so repainting one space is exact."""
    region = _p_base(_spaces_language(spaces)).image.crop(box)
    for space, key in zip(spaces, keys, strict=True):
        left, top, right, bottom = _p_space_box(space["row"], space["col"])
        if left < box[2] and box[0] < right and top < box[3] and box[1] < bottom:
            face, mask, origin = _p_space_face(space, key)
            kit.blit(region, face.image, (origin[0] - box[0], origin[1] - box[1]), mask)
    kit.blit(image, region, box[:2])


@lru_cache(maxsize=64)
def _p_space_box(row: int, col: int) -> tuple[int, int, int, int]:
    """Where a space's piece goes on the board (as `_p_space_face` places it)."""
    x, y = _p_centre(row, col)
    left, top = math.floor(x - P_HEX_W / 2) - 2, math.floor(y - P_HEX_R) - 2
    return left, top, left + int(P_HEX_W) + 6, top + int(2 * P_HEX_R) + 6


def _p_space(draw: kit.Draw, space: dict[str, Any], origin: tuple[int, int] = (0, 0)) -> None:
    """One map space as a location tile: its region's colour and landscape, its number on top and its name across
    the middle; the mech and the top corruption below. A face-down tile shows its region and map token."""
    row, col = space["row"], space["col"]
    lang = str(space.get("language") or "en")
    ox, oy = origin
    x, y = _p_centre(row, col)
    x, y = x - ox, y - oy
    points = [(px - ox, py - oy) for px, py in _p_hex(row, col)]
    if space["kind"] == "cards":
        draw.polygon(points, fill=kit.SLOT, outline=kit.INK_MUTED)
        card = space.get("card")
        box = (x - 42, y - 38, x + 42, y + 38)
        if card is None:
            draw.text((x, y), translate("expeditions.board.empty", lang), font=kit.font(SMALL), fill=kit.INK_MUTED,
                      anchor="mm")
            return
        draw.rounded_rectangle(box, radius=6, fill=CARD_FILL.get(card["kind"], kit.INK), outline=kit.INK_DARK)
        draw.rectangle((box[0] + 2, box[1] + 2, box[2] - 2, box[1] + 8), fill=WORKER.get(card["colour"], kit.GREY))
        size, name = kit.fit_lines(card["name"], 80, 3, (SMALL,), "semibold")
        y0 = y + 4 - len(name) * (size + 1) / 2
        for index, line in enumerate(name):
            draw.text((x, y0 + index * (size + 1) + size / 2), line, font=kit.font(size, "semibold"),
                      fill=kit.INK_DARK, anchor="mm", role="card")
        return
    kind = space["kind"]
    mech = space.get("mech")
    if not space["revealed"]:
        draw.polygon(points, fill=HIDDEN_FILL[kind], outline=kit.INK_MUTED)
        _p_mech_ring(draw, points, mech)
        kit.terrain(draw, (x, y - 30), kind, 34, kit.INK_MUTED)
        draw.text((x, y - 4), space["code"], font=kit.font(BIG, "bold"), fill=kit.INK, anchor="mm")
        items = ([("mech", mech)] if mech is not None else []) + ([("map", None)] if space["map_token"] else [])
        _p_row(draw, x, y + 24, items, lang)
        return
    draw.polygon(points, fill=REGION_FILL[kind], outline=kit.INK_DARK)
    _p_mech_ring(draw, points, mech)
    weight, name = _p_place_name(str(space["name"]), lang)
    tall = len(name) > 2  # a long name takes a third line: the number goes up, one piece below
    draw.text((x, y - (41 if tall else 36)), str(space["location"]), font=kit.font(SMALL, "bold"),
              fill=kit.INK_DARK, anchor="mm")
    name_y = y - (25 if tall else 18 if len(name) > 1 else 6)
    step = 18 if tall else 19  # three lines sit closer, clear of the piece below
    for index, line in enumerate(name):
        draw.text((x, name_y + index * step), line, font=kit.font(SMALL, weight), fill=kit.INK_DARK, anchor="mm",
                  role="card")
    tokens = space["corruption"][-(1 if mech is not None or tall else 2):]
    items = ([("mech", mech)] if mech is not None else []) + [("corruption", t) for t in tokens]
    if items:
        _p_row(draw, x, y + (36 if tall else 31), items[:1] if tall else items, lang)
    elif space.get("cleared_exposed"):
        draw.text((x, y + (36 if tall else 26)), translate("expeditions.board.clear", lang),
                  font=kit.font(SMALL, "bold"),
                  fill=kit.LEAF_DARK, anchor="mm")
    else:
        kit.terrain(draw, (x, y + 32), kind, 34)


@lru_cache(maxsize=256)
def _p_place_name(name: str, language: str) -> tuple[str, tuple[str, ...]]:
    """A location's name on its tile, whole: two lines in semibold, else in the narrower regular weight across
    the tile's full width, else three lines; a word broken at `language`'s breaks (kept per language: the first
    board a worker drew once decided the breaks of every later one, "Versun-kene" or "Ver-sunkene")."""
    with kit.hyphenating(language):
        tries = [(weight, kit.lines(name, width, SMALL, weight)) for weight, width in (("semibold", 84),
                                                                                    ("regular", 88))]
    whole = len(name.split())
    for weight, lines in tries:  # every word whole on two lines
        if len(lines) <= 2 and len(" ".join(lines).split()) == whole:
            return weight, lines
    for weight, lines in tries:  # a word broken between its syllables
        if len(lines) <= 2:
            return weight, lines
    return tries[-1]


def _p_mech_ring(draw: kit.Draw, points: list[tuple[float, float]], mech: Any) -> None:
    """A tile with a mech on it ringed in its player's colour, inside a dark edge: a player finds their own mech at
    a glance on a phone (the piece alone was one small token among the corruption)."""
    if mech is None:
        return
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    inset = [(x + (cx - x) * 0.06, y + (cy - y) * 0.06) for x, y in points]
    draw.polygon(inset, outline=kit.player_style(int(mech)).colour, width=6)
    draw.polygon(points, outline=kit.INK_DARK, width=2)


def _p_row(draw: kit.Draw, x: float, row: float, items: list[tuple[str, Any]], lang: str = "en") -> None:
    """The pieces on a space, side by side and centred: a mech (its player's shape and letter), corruption tokens
    (their value on the colour that pays them), a map token (its letter on a tile, the legend's letter: M, K)."""
    widths = {"mech": 36, "corruption": 22, "map": 22}
    total = sum(widths[kind] for kind, _ in items) + 2 * (len(items) - 1)
    left = x - total / 2
    for kind, item in items:
        if kind == "mech":
            kit.draw_token(draw, (left + 18, row), 19, kit.player_style(int(item)), width=3)
        elif kind == "corruption":
            colour, value = item
            cx = left + 11
            fill = {"power": POWER, "guile": GUILE}.get(colour, BOTH)
            draw.ellipse((cx - 11, row - 11, cx + 11, row + 11), fill=fill, outline=kit.INK_DARK)
            kit.mark("corruption", (cx - 11, row - 11, cx + 11, row + 11))
            draw.text((cx, row), str(value), font=kit.font(SMALL, "bold"),
                      fill=kit.INK if colour == "both" else kit.INK_DARK, anchor="mm", role="label")
        else:
            draw.rectangle((left, row - 11, left + 22, row + 11), fill=kit.MAP_TOKEN, outline=kit.INK_DARK)
            kit.mark("map token", (left, row - 11, left + 22, row + 11))
            draw.text((left + 11, row), translate("expeditions.board.map_letter", lang), font=kit.font(SMALL, "bold"),
                      fill=kit.INK_DARK, anchor="mm", role="label")
        left += widths[kind] + 2


def _p_basecamp(draw: kit.Draw, mechs: list[int], lang: str = "en") -> None:
    y = _P_BASECAMP_Y
    draw.rounded_rectangle((12, y - 20, 12 + 150 + 40 * len(mechs), y + 20), radius=8, fill=kit.CAMP_BROWN)
    word, face = kit.fitted(translate("expeditions.board.basecamp", lang), 106, SMALL, "bold", 12)
    draw.text((22, y), word, font=face, fill=kit.INK, anchor="lm")
    for index, seat in enumerate(mechs):
        kit.draw_token(draw, (138 + index * 40, y), 17, kit.player_style(seat), width=2)


@lru_cache(maxsize=4)
def _p_base(lang: str = "en") -> kit.Face:
    """The board's background with the legend under the map: the same for every board of a language."""
    image = kit.new_layer((P_W, P_H))
    with kit.building(image) as drawn:
        _p_legend(kit.Draw(image), P_LEGEND_TOP, lang)
    return kit.Face(image, drawn)


def _p_legend(draw: kit.Draw, top: int, lang: str = "en") -> None:
    """What the map's colours and drawings mean, in two lines under it."""
    face = kit.font(SMALL)
    x, y = 12, top + 11
    paid = translate("expeditions.board.legend_paid", lang)
    draw.text((x, y), paid, font=face, fill=kit.INK_MUTED, anchor="lm")
    x += kit.measure(paid, SMALL) + 18
    for fill, word in ((POWER, translate("expeditions.resource.power", lang)),
                       (GUILE, translate("expeditions.resource.guile", lang)),
                       (BOTH, translate("expeditions.board.legend_both", lang))):
        draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=fill, outline=kit.INK_DARK)
        kit.mark("legend", (x - 10, y - 10, x + 10, y + 10))
        draw.text((x + 15, y), word, font=face, fill=kit.INK_MUTED, anchor="lm")
        x += 15 + kit.measure(word, SMALL) + 22
    x, y = 12, y + 26
    for kind in ("south", "central", "north"):
        draw.rounded_rectangle((x, y - 11, x + 34, y + 11), radius=5, fill=REGION_FILL[kind])
        kit.terrain(draw, (x + 17, y + (4 if kind == "south" else 0)), kind, 26)
        kit.mark("legend", (x, y - 11, x + 34, y + 11))
        word = translate(REGION_WORDS[kind], lang)
        draw.text((x + 40, y), word, font=face, fill=kit.INK_MUTED, anchor="lm")
        x += 40 + kit.measure(word, SMALL) + 16
    draw.text((x, y), translate("expeditions.board.legend_hidden", lang), font=face, fill=kit.INK_MUTED, anchor="lm")


@lru_cache(maxsize=4)
def _p_legend_right(lang: str = "en") -> float:
    """Where the legend's second line ends (`_p_legend`): it may reach into the side column, under the map."""
    x = 12.0
    for kind in ("south", "central", "north"):
        x += 40 + kit.measure(translate(REGION_WORDS[kind], lang), SMALL) + 16
    return x + kit.measure(translate("expeditions.board.legend_hidden", lang), SMALL)


P_LEGEND_TOP = int(P_TOP + 8 * P_HEX_R + 48)
"""The legend's top under the map."""
P_LEGEND_ROW = (P_LEGEND_TOP + 11 + 26 - 11, P_LEGEND_TOP + 11 + 26 + 11)
"""The top and bottom of the legend's second line."""


@lru_cache(maxsize=256)
def _p_outline(row: int, col: int, colour: str) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """A space's outline in a player's colour on a white edge, drawn straight in the boards' palette (lines are not
    anti-aliased: the same pixels as drawn on the board): the piece, its 1-bit mask and its place. A worker draws
    every space's in every colour at its start (`warm_up`)."""
    left, top, right, bottom = _p_space_box(row, col)
    size = (right - left + 8, bottom - top + 8)
    points = [(x - left + 4, y - top + 4) for x, y in _p_hex(row, col)]
    line = [*points, points[0], points[1]]
    piece = Image.new("P", size, 0)
    piece.putpalette(kit.board_palette().getpalette() or [])
    draw = kit.Draw(piece)
    draw.line(line, fill=kit.HIGHLIGHT, width=6, joint="curve")
    draw.line(line, fill=colour, width=3, joint="curve")
    mask = Image.new("1", size, 0)
    cover = ImageDraw.Draw(mask)
    cover.line(line, fill=1, width=6, joint="curve")
    cover.line(line, fill=1, width=3, joint="curve")
    return piece, mask, (left - 4, top - 4)


MAP_SIZE = 5
"""The map's rows and columns (the rulebook's 5 x 5 grid of spaces)."""


def warm_up() -> None:
    """What a render worker draws at its start, so that no board pays for it: the outline that marks a reachable
    space, for every space in every player colour (150 pieces, ~1.5 MB, ~25 ms; drawing one costs a board ~0.13 ms,
    and a move's board outlines up to a dozen)."""
    for row in range(MAP_SIZE):
        for col in range(MAP_SIZE):
            for style in kit.PLAYER_STYLES:
                _p_outline(row, col, style.colour)


def _p_reachable(draw: kit.Draw, view: dict[str, Any]) -> None:
    """The spaces the player to move can move to, outlined in their colour, and a word on it by the basecamp."""
    reachable = set(view.get("reachable") or ())
    current = view.get("current")
    if not reachable or current is None or view.get("closed"):  # (a table closed early: nobody moves)
        return
    style = kit.player_style(int(current["seat"]))
    for space in view["map"]["spaces"]:
        if space["code"] in reachable:
            outline, mask, origin = _p_outline(space["row"], space["col"], style.colour)
            kit.blit(draw._image, outline, origin, mask)
    x, y = P_SIDE - 12, _P_BASECAMP_Y
    left = 12 + 150 + 40 * len(view["map"]["basecamp"]["mechs"]) + 12  # clear of the basecamp
    size, lines = kit.fit_lines(translate("expeditions.board.outlined", language(view)), x - left, 2, (SMALL,))
    for index, line in enumerate(lines[:2]):
        draw.text((x, y - 10 * (len(lines[:2]) - 1) + 20 * index), line, font=kit.font(size), fill=kit.INK,
                  anchor="rm")


def _p_text(draw: kit.Draw, x: float, y: float, text: str, width: int, fill: str = kit.INK,
            weight: str = "regular") -> float:
    for line in kit.lines(text, width, SMALL, weight):
        draw.text((x, y), line, font=kit.font(SMALL, weight), fill=fill)
        y += SMALL + 4
    return y


def _p_player_head(draw: kit.Draw, player: dict[str, Any], x: int, y: float, width: int, score: str) -> float:
    """Token, name (one or two lines) and score: on the name's last line when both fit, else on a line below."""
    kit.draw_token(draw, (x + 18, y + 17), 17, kit.player_style(player["seat"]), width=2)
    names = kit.name_lines(player["name"], width - 46)
    for line in names:
        draw.text((x + 42, y), line, font=kit.font(BIG, "bold"), fill=kit.INK, role="name")
        y += 28
    if kit.measure(names[-1], BIG, "bold") + 16 + kit.measure(score, BIG, "bold") <= width - 46:
        draw.text((x + width - 2, y - 28), score, font=kit.font(BIG, "bold"), fill=kit.INK, anchor="ra", role="score")
        return y + 2
    draw.text((x + 42, y), score, font=kit.font(BIG, "bold"), fill=kit.INK, role="score")
    return y + 30


def _p_side(draw: kit.Draw, view: dict[str, Any], height: int = P_H) -> float:
    """The players down the side column (token, name, score, facts); returns the y below them. On a tall board
    (long names: `render_image`) the players the side column has no room for go under the map, two abreast."""
    x, width = P_SIDE, P_W - 12 - P_SIDE
    y: float = P_TOP
    current = view["current"]["seat"] if view.get("current") else None
    lang = language(view)
    under = [12.0, 12.0 + (P_W - 32) // 2 + 8]  # the columns under the map, on a tall board
    lowest = y
    legend_right = _p_legend_right(lang)
    for player in view["players"]:
        score = f"{money(player['score'], lang)} · {stars_text(player['stars'], lang)}"
        token = player.get("token_text") or ""
        facts = [translate("expeditions.board.fact_power", lang, n=player["power"]),
                 translate("expeditions.board.fact_guile", lang, n=player["guile"]),
                 translate("expeditions.board.fact_hand", lang, n=len(player["hand"]))]
        if token and len(view["players"]) <= 3:  # with four or five players the token stays in the detail board
            facts.append(token)
        # The legend's second line may reach into the side column: a player whose token (or text, where the line
        # reaches that far: German) would cover it starts below it.
        reach = _p_player_height(player, width, score, facts) - 10 if legend_right > x + 42 else 36
        if legend_right > x and y < P_LEGEND_ROW[1] and y + reach > P_LEGEND_ROW[0]:
            y = P_LEGEND_ROW[1] + 4
        if height > P_H and under and y + _p_player_height(player, width, score, facts) > height - 8:
            x, width, y = int(under.pop(0)), (P_W - 32) // 2, P_LEGEND_ROW[1] + 16
        start = y
        y = _p_player_head(draw, player, x, y, width, score)
        y = _p_text(draw, x + 42, y, kit.facts_line(facts), width - 46, kit.INK_MUTED)
        if player["seat"] == current:
            style = kit.player_style(player["seat"])
            draw.rounded_rectangle((x - 6, start - 4, x + width + 4, y + 2), radius=8, outline=style.colour, width=3)
        kit.note_part("player", (x - 6, start - 4, x + width + 4, y + 2), int(player["seat"]))
        y += 10
        lowest = max(lowest, y)
    if view["end"]["triggered_by"] is not None:
        lowest = _p_text(draw, x, y, translate("expeditions.board.final_round", lang), width, kit.YELLOW, "bold")
    return max(lowest, y)


def _p_player_height(player: dict[str, Any], width: int, score: str, facts: list[str]) -> float:
    """How tall `_p_player_head` and the facts under it draw a player in a column `width` px wide."""
    names = kit.name_lines(player["name"], width - 46)
    beside = kit.measure(names[-1], BIG, "bold") + 16 + kit.measure(score, BIG, "bold") <= width - 46
    facts_lines = kit.lines(kit.facts_line(facts), width - 46, SMALL)
    return 28 * len(names) + (2 if beside else 30) + (SMALL + 4) * len(facts_lines) + 10


def _p_places(view: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The players best first with their places (the same money and glory total share a place)."""
    ranked = sorted(view["players"], key=lambda p: (-p["score"], -p["tiebreak"]))
    return [(1 + sum(1 for o in ranked if (o["score"], o["tiebreak"]) > (p["score"], p["tiebreak"])), p)
            for p in ranked]


def _p_results(draw: kit.Draw, view: dict[str, Any], left: int, columns: int, height: int = P_H) -> float:
    """The end: every player ranked (a medal with the place) with where their money came from, in `columns`
    columns from `left` (one beside the map for one or two players, two across the board for more, with the
    glory board under them). Returns the y below."""
    column_w = (P_W - 12 - left - 8 * (columns - 1)) // columns
    lang = language(view)
    y_of = [float(P_TOP)] * columns
    row_top = float(P_TOP)
    for index, (place, player) in enumerate(_p_places(view)):
        column = index % columns
        x = left + column * (column_w + 8)
        top = y_of[column] if columns == 1 else row_top
        if len(view["players"]) > 1:
            kit.medal(draw, (x + 17, top + 26), 16, place)
            x += 34
        y = _p_player_head(draw, player, x, top, column_w - (34 if len(view["players"]) > 1 else 0),
                           money(player["score"], lang))
        parts = player["score_parts"]
        text_w = column_w - 46 - (34 if len(view["players"]) > 1 else 0)
        y = _p_text(draw, x + 42, y, translate("expeditions.board.result_parts", lang,
                                                parts=money_parts(parts, lang), glory=player["tiebreak"]), text_w)
        if columns == 1:
            starred = [g["title"] for g in view["glory"] for seat in g["stars"] if seat == player["seat"]]
            if starred:
                room = int((height - 8 - y) // (SMALL + 4))  # the lines left above the board's foot
                for count in range(len(starred), 0, -1):  # whole titles only: the rest counted
                    rest = len(starred) - count
                    stars = translate("expeditions.board.stars_on", lang, titles="; ".join(starred[:count])) + (
                        " " + translate("expeditions.board.more", lang, n=rest) if rest else "")
                    if len(kit.lines(stars, text_w, SMALL)) <= room:
                        y = _p_text(draw, x + 42, y, stars, text_w, kit.YELLOW)
                        break
        y_of[column] = y + 12
        if columns > 1 and column == columns - 1:
            row_top = max(y_of)
    return max(y_of)


def _p_glory(draw: kit.Draw, view: dict[str, Any], top: float) -> float:
    """The glory board at the end: each category with the stars placed on it, as the players' pieces; returns the
    y below it."""
    lang = language(view)
    draw.text((12, top), translate("expeditions.board.glory_title", lang), font=kit.font(BIG, "bold"),
              fill=kit.YELLOW, role="title")
    draw.text((P_W - 12, top + 4), translate("expeditions.board.glory_ties", lang), font=kit.font(SMALL),
              fill=kit.INK_MUTED, anchor="ra")
    y0 = top + 34
    rows = (len(view["glory"]) + 1) // 2
    column_w = (P_W - 24 - 16) // 2
    for index, glory in enumerate(view["glory"]):
        column, row = index // rows, index % rows
        x, y = 12 + column * (column_w + 16), y0 + row * 38
        stars = glory["stars"]
        pieces_w = 38 * len(stars)
        size, lines = kit.fit_lines(str(glory["title"]), column_w - pieces_w - 8, 2, (SMALL, 16, 14))
        for index, line in enumerate(lines[:2]):  # a long (German) title on two lines, never cut
            draw.text((x, y + 17 + (index - (len(lines[:2]) - 1) / 2) * (size + 2)), line, font=kit.font(size),
                      fill=kit.INK if stars else kit.INK_MUTED, anchor="lm")
        for number, seat in enumerate(stars):
            kit.draw_token(draw, (x + column_w - 18 - 38 * (len(stars) - 1 - number), y + 17), 17,
                           kit.player_style(int(seat)), width=2)
    return y0 + rows * 38


def money_parts(parts: dict[str, Any], lang: str = "en") -> str:
    """Where a final score came from, in dollars as the rulebook counts them."""
    return translate("expeditions.board.money_parts", lang, coins=money(parts["coins"], lang),
                     upgrades=money(parts["upgrades"], lang), corruption=money(parts["corruption"], lang),
                     stars=money(parts["stars"], lang))



def _p_summary(view: dict[str, Any]) -> str:
    """The result in words for the alt text (one player: their final score, not a "win")."""
    if len(view["players"]) == 1:
        player = view["players"][0]
        return translate("expeditions.board.alone_result", language(view), name=player["name"],
                         money=money(player["score"], language(view)))
    return str(view["outcome"]["summary"])


def render_image(view: dict[str, Any]) -> Image.Image:
    """The public board before encoding (the benchmark times the encoding of exactly this image): 800 x 640, or
    square when the players' long names need the room (drawn again taller: only such boards pay twice); with the
    parts a lesson points at marked (the view's `marks`)."""
    image, parts = _p_drawn(view)
    kit.draw_marks(image, parts, view.get("marks") or ())
    return image


def part_boxes(view: dict[str, Any]) -> dict[str, kit.Box]:
    """Where the public board of `view` draws each part a lesson may point at, by `kit.part_key`: the map (`map`),
    the spaces the player to move can reach (`reachable`), each player's mech (`mech@<seat>`), the basecamp
    (`basecamp`), the corruption's colours in the legend (`corruption_key`), the players down the side (`players`)
    and each player's (`player@<seat>`). A final board of results has none of them."""
    image, parts = _p_drawn(view)
    kit.recycle(image)
    return parts


def _p_drawn(view: dict[str, Any]) -> tuple[Image.Image, dict[str, kit.Box]]:
    """The public board without marks, and where it drew its parts."""
    with kit.noting_parts() as parts:
        image = kit.board_fitting(lambda height: _p_board(view, height),
                                  kit.TALL_HEIGHT if _p_long_names(view) else P_H)
    return image, dict(parts)


def _p_long_names(view: dict[str, Any]) -> bool:
    """Whether, with three players or more, a name takes three lines in the side column: then every board of the
    match is tall (one size for the whole match), as the players may need the room."""
    players = view["players"]
    width = P_W - 12 - P_SIDE - 46
    return len(players) > 2 and any(len(kit.name_lines(str(p["name"]), width)) > 2 for p in players)


def _p_board(view: dict[str, Any], height: int) -> tuple[Image.Image, float]:
    """The public board `height` px tall, and the y below its players (the side column, or the results)."""
    kit.forget_parts()  # (a board drawn again taller notes them again)
    if view.get("outcome") and len(view["players"]) > 2:  # the results take the whole board
        image, draw = kit.new_canvas(height, P_W)
    else:
        with _LAYERS_LOCK:
            layer = _p_map_layer(view)
            image = kit.taller(layer.image, height)
        kit.replay(layer)
        draw = kit.Draw(image)
    current = view["current"]["seat"] if view.get("current") else None
    style = kit.player_style(current) if current is not None else None
    if view.get("outcome"):
        best = max(view["players"], key=lambda p: (p["score"], p["tiebreak"]))
        style = kit.player_style(best["seat"])
        kit.phone_header(draw, P_W, _p_headline(view), why_over(view), style,  # (the result once: headline)
                         view.get("language", "en"))
        if len(view["players"]) <= 2:  # room beside the final map
            return image, _p_results(draw, view, P_SIDE, 1, height) - 12
        return image, _p_glory(draw, view, _p_results(draw, view, 12, 2, height) + 4)
    kit.phone_header(draw, P_W, _p_headline(view), view["last_move"], style, view.get("language", "en"))
    _p_reachable(draw, view)
    _p_note_parts(view)
    bottom = _p_side(draw, view, height)
    kit.note_part("players", (P_SIDE - 6, P_TOP - 4, P_W - 8, bottom - 8))
    return image, bottom


def _p_note_parts(view: dict[str, Any]) -> None:
    """Where the map, the spaces the player to move can reach, each mech, the basecamp and the corruption's key
    are (rendering/parts.py)."""
    kit.note_part("map", (12, P_TOP, 12 + 5.5 * P_HEX_W, P_TOP + 8 * P_HEX_R))
    reachable = set(view.get("reachable") or ())
    boxes = []
    for space in view["map"]["spaces"]:
        corners = _p_hex(space["row"], space["col"])
        box = (min(x for x, _ in corners), min(y for _, y in corners), max(x for x, _ in corners),
               max(y for _, y in corners))
        if space["code"] in reachable:
            boxes.append(box)
        if space.get("mech") is not None:
            kit.note_part("mech", box, int(space["mech"]))
    if boxes:
        kit.note_part("reachable", (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                                    max(b[3] for b in boxes)))
    mechs = view["map"]["basecamp"]["mechs"]
    basecamp = (12, _P_BASECAMP_Y - 20, 12 + 150 + 40 * len(mechs), _P_BASECAMP_Y + 20)
    kit.note_part("basecamp", basecamp)
    for seat in mechs:
        kit.note_part("mech", basecamp, int(seat))
    kit.note_part("corruption_key", (12, P_LEGEND_TOP, _p_legend_first_right(language(view)), P_LEGEND_TOP + 22))


@lru_cache(maxsize=4)
def _p_legend_first_right(lang: str = "en") -> float:
    """Where the legend's first line, the corruption's colours (`_p_legend`), ends."""
    x = 12 + kit.measure(translate("expeditions.board.legend_paid", lang), SMALL) + 18
    for word in (translate("expeditions.resource.power", lang), translate("expeditions.resource.guile", lang),
                 translate("expeditions.board.legend_both", lang)):
        x += 15 + kit.measure(word, SMALL) + 22
    return x - 22


def why_over(view: dict[str, Any]) -> str:
    """A final board's caption: why the expedition ended (who placed their last star, then everyone's one more
    turn) before the last moves, which alone never said it."""
    seat = (view.get("end") or {}).get("triggered_by")
    if seat is None:
        return str(view["last_move"])
    name = next(p["name"] for p in view["players"] if p["seat"] == seat)
    if len(view["players"]) > 1:
        why = translate("expeditions.board.why_over", language(view), who=name)
    else:
        why = translate("expeditions.board.why_over_alone", language(view), who=name)
    return f"{why} {view['last_move']}".strip()


def _p_headline(view: dict[str, Any]) -> str:
    lang = language(view)
    if view.get("outcome"):
        if len(view["players"]) == 1:
            return translate("expeditions.board.headline_alone", lang, money=money(view["players"][0]["score"], lang))
        winners = [p["name"] for p in view["players"] if p["seat"] in view["outcome"]["winners"]]
        word = translate("expeditions.word.and", lang)
        if len(winners) == 1:
            return translate("expeditions.board.headline_wins", lang, names=winners[0])
        return translate("expeditions.board.headline_win", lang, names=f" {word} ".join(winners))
    return str(view["turn"])


def render(view: dict[str, Any]) -> bytes:
    """The public board: 800 x 640 for 1-5 players, the map and the players; the results at the end."""
    return kit.finish(render_image(view))


def alt_text(view: dict[str, Any]) -> str:
    """The board in words for the image's description (everything here is public in Expeditions)."""
    lang = language(view)
    parts = [f"{view.get('title') or 'Expeditions'}."]
    if view.get("outcome"):  # the result once, whole ("Game over: Ada wins with $80. Scores: ..."), no headline
        parts.append(translate("expeditions.turn.game_over_summary", lang, summary=_p_summary(view)))
    else:
        parts.append(_p_headline(view) + ".")
    if view.get("last_move"):
        parts.append(translate("expeditions.board.alt_last_move", lang, move=view["last_move"]))
    places = {s["code"]: f"{s['label']} {s['name']}" for s in view["map"]["spaces"] if s.get("label")}
    ranked = [player for _, player in _p_places(view)] if view.get("outcome") else view["players"]
    for player in ranked:  # at the end best first, as the final board and the result list them
        where = (translate("expeditions.place.basecamp", lang) if player["at"] == "basecamp"
                 else places.get(player["at"], player["at"]))
        text = translate("expeditions.board.alt_player", lang, name=player["name"], money=money(player["score"], lang),
                         stars=stars_text(player["stars"], lang), power=player["power"], guile=player["guile"])
        if view.get("outcome") and player.get("score_parts"):
            text += " " + translate("expeditions.board.alt_parts", lang, parts=money_parts(player["score_parts"], lang),
                                    glory=player["tiebreak"])
        parts.append(translate("expeditions.board.alt_at", lang, text=text, place=where))
    cards = ", ".join(c["name"] for c in view["face_up"] if c)
    if cards:
        parts.append(translate("expeditions.board.alt_face_up", lang, cards=cards))
    return kit.clip_alt(parts)
