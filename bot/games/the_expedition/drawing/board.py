"""The Expedition's board image: the 3x3 grid of planets and moons, explorers, markers, cards and scores.

Takes the game's view dict only (public or a seat's); draws one PNG 1280 px wide, laid out for a phone first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rendering import kit
from rendering.caches import lru_bytes
from rendering.kit import (
    AUTOMATON_STYLES,
    BACKGROUND,
    HIGHLIGHT,
    INK,
    INK_DARK,
    INK_MUTED,
    PANEL,
    PANEL_LIGHT,
    WIDTH,
    YELLOW,
    PlayerStyle,
    draw_token,
    font,
    header_band,
    player_style,
    rounded_panel,
    text_width,
    wrap,
)
from rendering.wording import translate, translate_plural

View = dict[str, Any]

MARGIN = 24
GAP = 16
GRID_GAP = 28  # wide enough for the last-move pointers drawn across the tile borders
TILE_W = (WIDTH - 2 * MARGIN - 2 * GRID_GAP) // 3
TILE_H = 300
HEADER_COLUMN = (WIDTH - 48) // 3 - 50  # the room kit.header_band gives one score entry
ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→",
          "up-left": "↖", "up-right": "↗", "down-left": "↙", "down-right": "↘"}
PLANET = kit.RUST
MOON = kit.SILVER
CARD_FACE = kit.CARD_FACE
CARD_BACK = kit.CARD_BACK
GOOD_TEXT = kit.GOOD_TEXT  # a lighter bluish green: the palette's #009E73 is too dark for text on the tiles
KIND_WORDS = {"planet": "expedition.kind.planet", "moon": "expedition.kind.moon"}
DIRECTION_WORDS = {"up": "choice.up", "down": "choice.down", "left": "choice.left", "right": "choice.right",
                   "up-left": "choice.up-left", "up-right": "choice.up-right", "down-left": "choice.down-left",
                   "down-right": "choice.down-right"}


def pts(count: int, language: str = "en") -> str:
    """ "1 pt", "3 pts" / "1 Pkt.", "3 Pkt."."""
    return translate_plural("expedition.pts", count, language)


def lang(view: View) -> str:
    """The table's language (the service sets it; English when absent)."""
    return str(view.get("language") or "en")


def worded(value: Any, language: str) -> Any:
    """Message JSON from the view (see bot/games/the_expedition/words.py) in `language`: {"message": id,
    "values": ...} translated, {"en": ..., "de": ...} picked; anything else as it is (numbers stay numbers)."""
    if isinstance(value, dict):
        if "message" in value:
            values = {name: worded(item, language) for name, item in value.get("values", {}).items()}
            text = translate(value["message"], language, **values)
            return text[:1].upper() + text[1:] if value.get("capitalized") else text
        if "en" in value:
            return value.get(language) or value["en"]
    return value


MODE_TITLES = {"standard": "expedition.mode.standard", "abstract": "expedition.mode.abstract",
               "solo": "expedition.mode.solo", "solo-hard": "expedition.mode.solo-hard"}


def _card_in(card: View, language: str) -> View:
    card = dict(card)
    if "names" in card:
        card["name"] = worded(card["names"], language)
    if "words" in card:
        card["text"] = worded(card["words"], language)
    if "progress" in card:
        card["progress"] = [{**p, "text": worded(p["words"], language)} if "words" in p else p
                            for p in card["progress"]]
    return card


def in_words(view: View) -> View:
    """The view with every text the game put into it worded in the table's language (its names, conditions,
    sentences, rules), so the drawing below reads plain strings. The English view is returned as it is."""
    language = lang(view)
    words = view.get("words")
    if language == "en" or not isinstance(words, dict):
        return view
    shown = dict(view)
    shown["turn"] = worded(words["turn"], language)
    # The service may put its own story in "last_move" (already in the table's language): keep that one.
    if view.get("last_move") == worded(words["last_move"], "en"):
        shown["last_move"] = worded(words["last_move"], language)
    shown["log"] = [worded(sentence, language) for sentence in words.get("log", [])]
    shown["mode_title"] = translate(MODE_TITLES.get(view["mode"], "expedition.mode.standard"), language)
    shown["grid"] = [{**cell, "location": {**cell["location"], "name": worded(cell["location"]["names"], language),
                                           "rule": worded(cell["location"]["rule_words"], language)}}
                     for cell in view["grid"]]
    participants = []
    for entry in view["participants"]:
        entry = dict(entry)
        if entry["kind"] == "automation":
            entry["name"] = translate("expedition.automation.name", language, number=entry["number"])
            entry["card"] = {**entry["card"], "name": worded(entry["card"]["names"], language)}
        for key in ("scored", "unscored"):
            if key in entry:
                entry[key] = [_card_in(card, language) for card in entry[key]]
        participants.append(entry)
    shown["participants"] = participants
    for key in ("market", "market_progress", "hand"):
        if key in view:
            shown[key] = [_card_in(card, language) for card in view[key]]
    if "result" in view:
        shown["result"] = {**view["result"], "summary": worded(view["result"]["summary_words"], language)}
    return shown


def style_of(view: View, pid: str | None) -> PlayerStyle | None:
    """The drawing style of a participant: seat styles for players, the Automaton styles for Automations."""
    if pid is None:
        return None
    for entry in view["participants"]:
        if entry["id"] == pid:
            if entry["kind"] == "automation":
                return AUTOMATON_STYLES[(entry["number"] - 1) % len(AUTOMATON_STYLES)]
            return player_style(entry["seat"])
    return None


@lru_cache(maxsize=64)
def tile_face(name: str, kind: str, points: int, rule: str, language: str = "en", in_palette: bool = False) -> kit.Face:
    """A location tile without pieces: the same location looks the same in every image (built once). For a board
    drawn in the palette it is kept mapped to it, and only so (a quarter of the RGB tile's 470 KB)."""
    image = Image.new("RGB", (TILE_W, TILE_H), PANEL_LIGHT)
    with kit.building(image) as drawn:
        _draw_tile(kit.Draw(image), name, kind, points, rule, language)
    return kit.Face(kit.board_indexed(image) if in_palette else image, drawn)


def _draw_tile(draw: kit.Draw, name: str, kind: str, points: int, rule: str, language: str) -> None:
    body = kit.body_face(26, kind, PANEL_LIGHT)
    kit.paste(draw._image, body, (46 - body.image.width // 2, 46 - body.image.height // 2))  # type: ignore[attr-defined]
    title, face = kit.fitted(name, TILE_W - 190, 40, "bold", 20)
    draw.text((92, 14), title, font=face, fill=INK)
    draw.text((92, 58), translate(KIND_WORDS[kind], language), font=font(24), fill=INK_MUTED)
    cx, cy = TILE_W - 50, 46
    draw.ellipse((cx - 34, cy - 34, cx + 34, cy + 34), fill=YELLOW, outline=INK_DARK, width=3)
    draw.text((cx, cy - 6), str(points), font=font(40, "bold"), fill=INK_DARK, anchor="mm")
    draw.text((cx, cy + 22), translate("expedition.board.pts_short", language), font=font(17, "semibold"),
              fill=INK_DARK, anchor="mm")
    if rule:
        lines = wrap(draw, rule, TILE_W - 32, font(26, "semibold"))[:2]
        for index, line in enumerate(lines):
            draw.text((16, 96 + index * 32), line, font=font(26, "semibold"), fill=YELLOW)


def _tile_box(cell: int, top: int) -> tuple[int, int, int, int]:
    row, column = divmod(cell, 3)
    x = MARGIN + column * (TILE_W + GRID_GAP)
    y = top + row * (TILE_H + GRID_GAP)
    return x, y, x + TILE_W, y + TILE_H


def _move_pointer(draw: ImageDraw.ImageDraw, move: View, top: int, slot: int, style: PlayerStyle) -> None:
    """The mover's token on the border it crossed, pointing into the location it moved to (the last move shown
    without relying on colour: shape, letter and direction)."""
    fx0, fy0, fx1, fy1 = _tile_box(move["from_cell"], top)
    tx0, ty0, tx1, ty1 = _tile_box(move["to_cell"], top)
    dx = (tx0 > fx0) - (tx0 < fx0)
    dy = (ty0 > fy0) - (ty0 < fy0)
    # Where the two tiles meet: between them on the crossed axis; on the other axis a spot kept free of text.
    x = (fx1 + tx0) / 2 if dx > 0 else (tx1 + fx0) / 2 if dx < 0 else fx0 + TILE_W - 118 - slot * 52
    y = (fy1 + ty0) / 2 if dy > 0 else (ty1 + fy0) / 2 if dy < 0 else fy0 + 206 - slot * 42
    if dx and dy:  # a diagonal step: the corner where the four tiles meet
        x += slot * 8
    radius = 21
    length = radius + 26
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm, dy / norm
    tip = (x + ux * length, y + uy * length)
    base = (x + ux * (radius - 4), y + uy * (radius - 4))
    side = (-uy * 15, ux * 15)
    triangle = [tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])]
    draw.polygon(triangle, fill=style.colour, outline=INK_DARK, width=3)
    draw.ellipse((x - radius - 4, y - radius - 4, x + radius + 4, y + radius + 4), fill=HIGHLIGHT)
    draw_token(draw, (x, y), radius, style, width=3)


def _draw_grid(image: Image.Image, draw: ImageDraw.ImageDraw, view: View, top: int) -> int:
    legal = {move["to_cell"]: move["direction"] for move in view["legal_moves"]}
    free = set(view.get("empty_cells", []))
    for entry in view["grid"]:
        cell = entry["cell"]
        x0, y0, x1, y1 = _tile_box(cell, top)
        location = entry["location"]
        kit.paste(image, tile_face(location["name"], location["kind"], location["points"], location["rule"],
                                   lang(view), image.mode == "P"), (x0, y0))
        if cell in free:
            draw.text((x1 - 16, y1 - 16), translate("expedition.board.free", lang(view)), font=font(28, "bold"),
                      fill=GOOD_TEXT,
                      anchor="rd")
        if cell in legal:
            direction = legal[cell]
            draw.text((x1 - 16, y0 + 160), f"{ARROWS[direction]} {translate(DIRECTION_WORDS[direction], lang(view))}",
                      font=font(28, "bold"), fill=GOOD_TEXT, anchor="ra")
        # Markers (cubes), oldest first, along the bottom left: the owner's shape and letter.
        for index, owner in enumerate(entry["markers"]):
            style = style_of(view, owner)
            if style is not None:
                cx, cy = x0 + 44 + index * 62, y1 - 46
                face = kit.piece_face("cube", 54, style)
                kit.paste(image, face, (cx - face.image.width // 2, cy - face.image.height // 2), mask=True)
        # Explorers, standing figures, along the bottom right.
        for index, owner in enumerate(entry["explorers"]):
            style = style_of(view, owner)
            if style is not None:
                cx = x1 - 50 - index * 78
                face = kit.piece_face("pawn", 72, style)
                kit.paste(image, face, (cx - face.image.width // 2, y1 - 52 - face.image.height // 2), mask=True)
    crossings: dict[frozenset[int], int] = {}
    for move in view["last_moves"]:
        style = style_of(view, move["who"])
        if style is None:
            continue
        border = frozenset((move["from_cell"], move["to_cell"]))
        slot = crossings.get(border, 0)
        crossings[border] = slot + 1
        _move_pointer(draw, move, top, slot, style)
    return top + 3 * TILE_H + 2 * GRID_GAP


def _section_title(draw: ImageDraw.ImageDraw, text: str, top: int) -> int:
    draw.text((MARGIN, top), text, font=font(30, "bold"), fill=INK)
    return top + 44


def _draw_card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: View) -> None:
    """An expedition card face: name, points and condition."""
    x0, y0, x1, _ = box
    rounded_panel(draw, box, fill=CARD_FACE, outline=INK_DARK, width=3)
    cx = x1 - 34
    draw.ellipse((cx - 24, y0 + 10, cx + 24, y0 + 58), fill=YELLOW, outline=INK_DARK, width=2)
    draw.text((cx, y0 + 34), str(card["points"]), font=font(32, "bold"), fill=INK_DARK, anchor="mm")
    name, name_face = kit.fitted(card["name"], x1 - x0 - 84, 28, "bold", 16)
    draw.text((x0 + 14, y0 + 14), name, font=name_face, fill=INK_DARK)
    body = font(23)
    for index, line in enumerate(wrap(draw, card["text"], x1 - x0 - 28, body)[:3]):
        draw.text((x0 + 14, y0 + 62 + index * 28), line, font=body, fill=INK_DARK)


def _draw_card_back(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], label: str) -> None:
    rounded_panel(draw, box, fill=CARD_BACK, outline=INK, width=2, radius=8)
    x0, y0, x1, y1 = box
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), label, font=font(22, "bold"), fill=INK, anchor="mm")


def _draw_participants(draw: ImageDraw.ImageDraw, view: View, top: int) -> int:
    top = _section_title(draw, translate("expedition.board.explorers", lang(view)), top)
    language = lang(view)
    for _, entry in _p_ranked(view):  # at the end, best first
        style = style_of(view, entry["id"])
        scored = entry.get("scored", [])
        unscored = entry.get("unscored", []) if view["phase"] == "over" else []  # revealed at the end
        height = 104 + 38 * (len(scored) + len(unscored))
        current = entry["id"] == view.get("current")
        rounded_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + height), fill=PANEL,
                      outline=HIGHLIGHT if current else None, width=3)
        if style is not None:
            draw_token(draw, (MARGIN + 40, top + 40), 26, style)
        name = (translate("expedition.board.name_to_move", lang(view), name=entry["name"])
                if current and view["phase"] != "over"
                else entry["name"])
        name, face = kit.fitted(name, 560, 32, "bold", 16)
        draw.text((MARGIN + 80, top + 14), name, font=face, fill=INK)
        score = entry["score"]
        total = pts(score["total"], language)
        if entry["kind"] == "automation":
            detail = translate("expedition.board.detail.automation", lang(view), points=total)
        elif view["mode"] == "solo-hard":
            detail = translate("expedition.board.detail.solo_hard", lang(view), points=total)
        else:
            detail = translate("expedition.board.detail.player", lang(view), points=total, locations=score["locations"],
                         expeditions=score["expeditions"])
        draw.text((MARGIN + 80, top + 56), detail, font=font(26), fill=INK_MUTED)
        right = WIDTH - MARGIN - 20
        markers = translate("expedition.board.detail.markers_left", lang(view), left=entry["markers_left"],
                      total=view["markers_per_player"])
        draw.text((right, top + 16), markers, font=font(26, "semibold"), fill=INK, anchor="ra")
        if entry["kind"] == "player":
            extra = []
            if entry.get("held"):
                extra.append(translate("expedition.board.held", lang(view)))
            if view["mode"] not in ("abstract",) and view["phase"] != "over":
                extra.append(translate_plural("expedition.board.secret_cards", entry["hand_size"], language))
            draw.text((right, top + 56), " · ".join(extra), font=font(26), fill=INK_MUTED, anchor="ra")
            backs = entry.get("hand_size", 0) if view["mode"] != "abstract" and view["phase"] != "over" else 0
            for index in range(backs):
                x = right - 380 - index * 40
                _draw_card_back(draw, (x, top + 52, x + 32, top + 92), "")
        else:
            card = entry["card"]
            left = card["moves_left"]
            moves_left = translate_plural("expedition.board.card_moves_left", left, language, card=card["name"])
            draw.text((right, top + 56), moves_left, font=font(26), fill=INK_MUTED, anchor="ra")
        for index, card in enumerate([*scored, *unscored]):
            x, y = MARGIN + 80, top + 94 + index * 38  # one per line: the whole condition stays readable
            done = index < len(scored)
            draw.text((x, y - 2), "✓" if done else "×", font=font(28, "bold"), fill=GOOD_TEXT if done else INK_MUTED)
            values = {"name": card["name"], "points": pts(card["points"], language), "condition": card["text"]}
            text = (translate("expedition.board.card_line", lang(view), **values) if done
                    else translate("expedition.board.card_line.unscored", lang(view), **values))
            text, face = kit.fitted(text, WIDTH - 2 * MARGIN - 130, 24, "regular", 16)
            draw.text((x + 28, y), text, font=face, fill=INK if done else INK_MUTED)
        top += height + 12
    return top


def _draw_market(draw: ImageDraw.ImageDraw, view: View, top: int) -> int:
    cards = view.get("market", [])
    top = _section_title(draw, translate_plural("expedition.board.market_title", view.get("draw_pile", 0), lang(view)),
                         top)
    if not cards:
        draw.text((MARGIN, top), translate("expedition.board.market_empty", lang(view)), font=font(26), fill=INK_MUTED)
        return top + 44
    per_row = min(4, len(cards))
    width = (WIDTH - 2 * MARGIN - (per_row - 1) * GAP) // per_row
    height = 156
    for index, card in enumerate(cards):
        row, column = divmod(index, per_row)
        x = MARGIN + column * (width + GAP)
        y = top + row * (height + GAP)
        _draw_card(draw, (x, y, x + width, y + height), card)
    rows = (len(cards) + per_row - 1) // per_row
    return top + rows * (height + GAP)


def _draw_automation_cards(draw: ImageDraw.ImageDraw, view: View, top: int) -> int:
    automations = [e for e in view["participants"] if e["kind"] == "automation"]
    title = translate("expedition.board.automation_cards", lang(view), round=view.get("round", 0),
                      rounds=view.get("rounds", 0))
    top = _section_title(draw, title, top)
    width = (WIDTH - 2 * MARGIN - GAP) // 2
    height = 230
    for index, entry in enumerate(sorted(automations, key=lambda e: e["number"])):
        card = entry["card"]
        style = style_of(view, entry["id"])
        x0 = MARGIN + index * (width + GAP)
        rounded_panel(draw, (x0, top, x0 + width, top + height), fill=PANEL)
        if style is not None:
            draw_token(draw, (x0 + 34, top + 34), 22, style)
        draw.text((x0 + 66, top + 14), f"{entry['name']}: {card['name']}", font=font(28, "bold"), fill=INK)
        draw.text((x0 + 66, top + 52), translate("expedition.board.moves_used", lang(view), used=card["moves_used"],
                                           count=len(card["path"])), font=font(24), fill=INK_MUTED)
        size = 48
        gx, gy = x0 + 20, top + 84
        for cell in range(9):
            row, column = divmod(cell, 3)
            draw.rectangle((gx + column * size, gy + row * size, gx + (column + 1) * size - 2,
                            gy + (row + 1) * size - 2), fill=PANEL_LIGHT)
        points = [(gx + (c % 3) * size + size / 2 - 1, gy + (c // 3) * size + size / 2 - 1)
                  for c in card["path_cells"]]
        used = card["moves_used"]
        colour = style.colour if style is not None else INK
        if len(points) > 1:
            draw.line(points[: used + 1], fill=INK_MUTED, width=4)
            draw.line(points[used:], fill=colour, width=6)
        sx, sy = points[0]
        draw.text((sx, sy), "S", font=font(26, "bold"), fill=INK, anchor="mm")
        px, py = points[used]
        draw.ellipse((px - 9, py - 9, px + 9, py + 9), fill=colour, outline=INK_DARK, width=2)
        moves = [ARROWS[m] for m in card["path"]]
        text_x = gx + 3 * size + 24
        line_face = font(30, "bold")
        for index_move, arrow in enumerate(moves):
            row, column = divmod(index_move, 6)
            ax, ay = text_x + column * 40, gy + row * 44
            if index_move == used:  # the next printed move, boxed
                draw.rounded_rectangle((ax - 6, ay - 2, ax + 30, ay + 38), radius=6, fill=YELLOW)
            fill = INK_MUTED if index_move < used else INK_DARK if index_move == used else INK
            draw.text((ax, ay), arrow, font=line_face, fill=fill)
        if used < len(card["path"]):
            upcoming = card["path"][used]
            draw.text((text_x, gy + 96), translate("expedition.board.next", lang(view), arrow=ARROWS[upcoming],
                                             direction=translate(DIRECTION_WORDS[upcoming], lang(view))),
                      font=font(26, "semibold"), fill=INK)
        else:
            draw.text((text_x, gy + 96), translate("expedition.board.out_of_moves", lang(view)),
                      font=font(26, "semibold"),
                      fill=INK)
    return top + height + GAP


def _draw_log(draw: ImageDraw.ImageDraw, view: View, top: int) -> int:
    lines: list[str] = []
    face = font(24)
    for sentence in view.get("log", []):
        lines += wrap(draw, sentence, WIDTH - 2 * MARGIN - 40, face)
    if not lines:
        return top
    lines = lines[-8:]
    height = 24 + 32 * len(lines)
    rounded_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + height), fill=PANEL)
    for index, line in enumerate(lines):
        draw.text((MARGIN + 20, top + 12 + index * 32), line, font=face, fill=INK)
    return top + height + GAP


def _draw_result(draw: ImageDraw.ImageDraw, view: View, top: int) -> int:
    result = view["result"]
    names = {entry["id"]: entry["name"] for entry in view["participants"]}
    winners = [names[w] for w in result["winners"]]
    if view["mode"] in ("solo", "solo-hard"):
        if not result.get("player_won"):
            headline = translate("expedition.board.result.automations_win", lang(view))
        elif len(winners) == 1:
            headline = translate("expedition.board.result.you_beat", lang(view))
        else:
            headline = translate("expedition.board.result.shared_automation", lang(view))
    elif len(winners) == 1:
        headline = translate("expedition.board.result.wins", lang(view), name=winners[0])
    else:
        headline = translate("expedition.board.result.shared", lang(view), names=_and(view, winners))
    face = font(24)
    lines = wrap(draw, result["summary"], WIDTH - 2 * MARGIN - 40, face)
    height = 80 + 32 * len(lines)
    rounded_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + height), fill=PANEL, outline=YELLOW, width=4)
    headline, headline_face = kit.fitted(headline, WIDTH - 2 * MARGIN - 40, 40, "bold", 24)  # (a long name shrinks)
    draw.text((MARGIN + 20, top + 14), headline, font=headline_face, fill=YELLOW)
    for index, line in enumerate(lines):
        draw.text((MARGIN + 20, top + 70 + index * 32), line, font=face, fill=INK)
    return top + height + GAP


def _header_scores(draw: ImageDraw.ImageDraw, view: View) -> list[tuple[PlayerStyle, str, str]]:
    scores = []
    for entry in view["participants"]:
        style = style_of(view, entry["id"])
        if style is not None:
            left = entry["markers_left"]
            total = pts(entry["score"]["total"], lang(view))
            long = translate_plural("expedition.board.header_score", left, lang(view), points=total)
            fits = text_width(draw, f"{entry['name']}  {long}", font(28, "semibold")) <= HEADER_COLUMN
            short = translate("expedition.board.header_score.short", lang(view), points=total, left=left)
            scores.append((style, entry["name"], long if fits else short))
    return scores


def render_detail(view: View) -> bytes:
    """The full-size detail board as PNG bytes: header (turn, last move, scores), the grid, explorers, the cards
    with their conditions, the log and the result."""
    return kit.encode_detail(detail_image(view))


def detail_image(view: View) -> Image.Image:
    """The detail board drawn, in the boards' palette (`render_detail` encodes it)."""
    view = in_words(view)
    canvas, draw = kit.new_canvas(4000)
    over = view["phase"] == "over"
    turn_style = None
    if over and len(view.get("result", {}).get("winners", [])) == 1:
        turn_style = style_of(view, view["result"]["winners"][0])
    elif not over:
        turn_style = style_of(view, view.get("current"))
    title = f"{view['title']} · {view['mode_title']}"
    turn = view["turn"] if not over else translate("expedition.board.game_over", lang(view))
    top = header_band(draw, WIDTH, title, turn, view["last_move"] or "", turn_style, _header_scores(draw, view))
    top += GAP
    if over:
        top = _draw_result(draw, view, top)
    top = _draw_grid(canvas, draw, view, top) + GAP
    top = _draw_log(draw, view, top)
    if "market" in view:
        top = _draw_market(draw, view, top) + GAP
    if view["mode"] in ("solo", "solo-hard"):
        top = _draw_automation_cards(draw, view, top)
    top = _draw_participants(draw, view, top)
    return canvas.crop((0, 0, WIDTH, top + MARGIN))


# --- the public board: 800 x 640 for every mode and player count, read on a phone -----------------------------

P_W, P_H = kit.PHONE_WIDTH, 650
P_TILE_W, P_TILE_H, P_GAP = 178, 170, 8
P_GRID_LEFT, P_GRID_TOP = 12, kit.HEADER_H + 8
P_SIDE = P_GRID_LEFT + 3 * P_TILE_W + 2 * P_GAP + 12
SMALL, BIG = kit.SMALL, kit.BIG


def _p_box(cell: int) -> tuple[int, int, int, int]:
    row, column = divmod(cell, 3)
    x = P_GRID_LEFT + column * (P_TILE_W + P_GAP)
    y = P_GRID_TOP + row * (P_TILE_H + P_GAP)
    return x, y, x + P_TILE_W, y + P_TILE_H


@lru_cache(maxsize=64)
def _p_tile(name: str, kind: str, points: int, rule: str) -> kit.Face:
    """A location tile at phone size, built once per process: kind disc, name, points and the whole rule."""
    image = Image.new("RGB", (P_TILE_W, P_TILE_H), PANEL_LIGHT)
    with kit.building(image) as drawn:
        _p_draw_tile(kit.Draw(image), name, kind, points, rule)
    return kit.Face(image, drawn)


def _p_draw_tile(draw: kit.Draw, name: str, kind: str, points: int, rule: str) -> None:
    """A location at phone size: the planet or moon drawn as a body, its name and its points beside it, its rule
    below (two lines: the narrower regular weight when semibold needs three)."""
    body = kit.body_face(13, kind, PANEL_LIGHT)
    kit.paste(draw._image, body, (24 - body.image.width // 2, 22 - body.image.height // 2))  # type: ignore[attr-defined]
    draw.text((NAME_LEFT, 4), name, font=font(_name_size(name), "bold"), fill=INK, role="card")
    cx, cy = P_TILE_W - 18, 22
    draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=YELLOW, outline=INK_DARK, width=2)
    draw.text((cx, cy), str(points), font=font(BIG, "bold"), fill=INK_DARK, anchor="mm", role="score")
    if rule:
        lines = kit.lines(rule, P_TILE_W - 12, SMALL, "semibold")
        weight = "semibold" if len(lines) <= 2 else "regular"
        for index, line in enumerate(kit.lines(rule, P_TILE_W - 12, SMALL, weight)):
            draw.text((6, 50 + index * 20), line, font=font(SMALL, weight), fill=YELLOW)


NAME_LEFT = 49
"""Where a location's name starts on a phone tile: right of a small body, so that the longest shipped names
("Neptune", "Mercury") keep the headline size, 12 points on a phone, between the body and the points disc."""
NAME_ROOM = P_TILE_W - NAME_LEFT - 37


def _name_size(name: str) -> int:
    """The largest bold size, 26 down to 24 px (below that only for a name an owner made longer), at which a
    location's name fits between its body and points."""
    size = 26
    while size > SMALL and kit.measure(name, size, "bold") > NAME_ROOM:
        size -= 1
    return size


CACHED_GRID_BYTES = 6 << 20
"""The empty grids of the ~10 latest matches (0.5 MB each, in the boards' palette): a match's grid never changes, but
a worker draws every match its bot hosts, so the grids of matches long over must go."""


Tiles = tuple[tuple[str, str, int, str], ...]
"""A match's nine tiles in cell order: (name, kind, points, rule) each."""


@lru_bytes(CACHED_GRID_BYTES)
def _p_grid(tiles: Tiles) -> kit.Face:
    """The whole empty grid of a match (its nine tiles never move during the match), built once and copied."""
    image = kit.new_layer((P_W, P_H), BACKGROUND)
    with kit.building(image) as drawn:
        for cell, tile in enumerate(tiles):
            x0, y0, _, _ = _p_box(cell)
            kit.paste(image, _p_tile(*tile), (x0, y0))
    return kit.Face(image, drawn)


POINTER_SLOTS = (0, -44, 44)
"""Where along a border the arrows of steps across it sit (px from its middle): up to three in one action."""


def _p_pointer(draw: ImageDraw.ImageDraw, move: View, style: PlayerStyle, slot: int = 0, arrived: int = 0) -> None:
    """One step: an arrow in the mover's colour on the crossed border, pointing into the new location, and the new
    location outlined (shape, letter and direction say it without colour); a second step into the same location
    outlines it just inside the first one's outline."""
    fx0, fy0, fx1, fy1 = _p_box(move["from_cell"])
    tx0, ty0, tx1, ty1 = _p_box(move["to_cell"])
    inset = 2 - 5 * arrived
    draw.rectangle((tx0 - inset, ty0 - inset, tx1 + inset, ty1 + inset), outline=style.colour, width=4)
    dx = (tx0 > fx0) - (tx0 < fx0)
    dy = (ty0 > fy0) - (ty0 < fy0)
    if not dx and not dy:
        return
    along = POINTER_SLOTS[slot % len(POINTER_SLOTS)]
    x = (fx1 + tx0) / 2 if dx > 0 else (tx1 + fx0) / 2 if dx < 0 else (fx0 + fx1) / 2 + along
    y = (fy1 + ty0) / 2 if dy > 0 else (ty1 + fy0) / 2 if dy < 0 else (fy0 + fy1) / 2 + along
    if dx and dy:  # a diagonal step: the corner where four tiles meet, the arrows one beside the other
        x += along / 4
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm, dy / norm
    tip = (x + ux * 16, y + uy * 16)
    side = (-uy * 13, ux * 13)
    base = (x - ux * 12, y - uy * 12)
    draw.polygon([tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])],
                 fill=style.colour, outline=HIGHLIGHT, width=2)


def _rule_third_line_room(rule: str) -> int | None:
    """The width free right of a tile rule's third line, as the tile draws it; None when the rule takes two lines
    or fewer (they end above the label's spot)."""
    lines = kit.lines(rule, P_TILE_W - 12, SMALL, "semibold") if rule else ()
    if len(lines) <= 2:
        return None
    lines = kit.lines(rule, P_TILE_W - 12, SMALL, "regular")
    if len(lines) <= 2:
        return None
    return P_TILE_W - 12 - kit.measure(lines[2], SMALL) - 8


def _p_piece(image: Image.Image, centre: tuple[int, int], style: PlayerStyle, explorer: bool) -> None:
    """An explorer (a standing figure) or a marker (a cube), in its owner's colour with their letter: the two
    differ by shape as well as colour (the legend under the scores says which is which)."""
    face = _p_piece_face(style, explorer)
    half = face.image.width // 2
    kit.paste(image, face, (centre[0] - half, centre[1] - half), mask=True)


PIECE_HALF = 21
"""Half a piece's side: 36 px pieces with their margin."""


def _p_piece_face(style: PlayerStyle, explorer: bool) -> kit.Face:
    return kit.piece_face("pawn" if explorer else "cube", 2 * PIECE_HALF - 6, style)


def _p_draw_grid(draw: kit.Draw, view: View, tiles: Tiles) -> None:
    legal = {move["to_cell"]: move["direction"] for move in view["legal_moves"]}
    free = set(view.get("empty_cells", []))
    kit.note_part("grid", (*_p_box(0)[:2], *_p_box(8)[2:]))
    for entry in view["grid"]:
        x0, y0, x1, y1 = _p_box(entry["cell"])
        cell = entry["cell"]
        for explorer in entry["explorers"]:  # a player's explorer: the tile it stands on
            if str(explorer).startswith("p") and str(explorer)[1:].isdigit():
                kit.note_part("explorer", (x0, y0, x1, y1), int(str(explorer)[1:]))
        markers = tuple(s for s in (style_of(view, o) for o in entry["markers"]) if s is not None)
        explorers = tuple(s for s in (style_of(view, o) for o in entry["explorers"]) if s is not None)
        crowded = len(markers) + len(explorers) > 2  # the second and third explorers go up a row
        label = (translate("expedition.board.go", lang(view), arrow=ARROWS[legal[cell]]) if cell in legal
                 else translate("expedition.board.free", lang(view)) if cell in free else "")
        spot, anchor = (0.0, 0.0), ""
        if label:  # between the markers and the explorers, or above the markers when the bottom row is full
            low = explorers[:1] if crowded else explorers
            free_left, free_right = x0 + 2 + 40 * len(markers), x1 - 2 - 42 * len(low)
            if kit.measure(label, BIG, "bold") + 8 <= free_right - free_left:
                spot, anchor = ((free_left + free_right) / 2, y1 - 22), "mm"
            elif (room := _rule_third_line_room(entry["location"]["rule"])) is not None and (
                    room >= kit.measure(label, BIG, "bold") + 8 and not (crowded and len(explorers) > 1)):
                # A three-line rule (German is longer) reaches the left spot: the label goes right of its last line.
                spot, anchor = (x1 - 6, y1 - 64), "rm"
            else:
                spot, anchor = (x0 + 6, y1 - 64), "lm"
        if not (label or markers or explorers):
            continue  # the grid layer shows the bare tile
        face = _p_cell(tiles, kit.in_palette(P_W), (x0, y0, x1, y1), label, (spot[0] - x0, spot[1] - y0), anchor,
                       markers, explorers, crowded)
        kit.paste(draw._image, face, (x0, y0))
    # Every step of the latest action (a solo turn: the player's, then each Automation's), so the arrows show what
    # the header tells; steps across the same border sit side by side.
    crossings: dict[frozenset[int], int] = {}
    arrivals: dict[int, int] = {}
    for move in view["last_moves"]:
        style = style_of(view, move["who"])
        if style is None:
            continue
        border = frozenset((move["from_cell"], move["to_cell"]))
        slot = crossings.get(border, 0)
        crossings[border] = slot + 1
        arrived = arrivals.get(move["to_cell"], 0)
        arrivals[move["to_cell"]] = arrived + 1
        _p_pointer(draw, move, style, slot, arrived)


def _p_side_line(draw: kit.Draw, x: int, y: int, text: str, width: int, fill: str = INK_MUTED,
                 weight: str = "regular") -> int:
    for line in kit.lines(text, width, SMALL, weight):
        draw.text((x, y), line, font=font(SMALL, weight), fill=fill)
        y += SMALL + 4
    return y


def _and(view: View, names: list[str]) -> str:
    """ "A and B" / "A und B"."""
    if len(names) < 2:
        return "".join(names)
    return translate("expedition.list.and", lang(view), head=", ".join(names[:-1]), last=names[-1])


def _p_cards(cards: list[View]) -> str:
    """ "Gas Giants 3, Moon Survey 3": each card's name whole on one line with its points (no-break spaces), never
    "Gas" / "Giants 3"."""
    return ", ".join(f"{card['name']} {card['points']}".replace(" ", "\u00a0") for card in cards)


CACHED_CELLS_BYTES = 3 << 20
"""Grid cells with their pieces and label (30 KB each, in the boards' palette): a move changes two or three of the
nine, so most of a board's cells are pasted as the board before had them."""


@lru_bytes(CACHED_CELLS_BYTES)
def _p_cell(tiles: Tiles, in_palette: bool, box: tuple[int, int, int, int], label: str, spot: tuple[float, float],
            anchor: str, markers: tuple[PlayerStyle, ...], explorers: tuple[PlayerStyle, ...], crowded: bool
            ) -> kit.Face:
    """One cell of the grid as a board shows it: its tile (from the match's grid layer) with the markers along the
    bottom left, the explorers along the bottom right and the label at `spot` (from the cell's corner). Drawn as it
    would be on the board: every piece and word lies inside the cell, and the cell's corner is at even pixels, so
    rounding puts them on the same pixels."""
    x0, y0, x1, y1 = box
    image = _p_grid(tiles).image.crop(box)  # (in the palette or not, as `in_palette` says: a key of its own)
    with kit.building(image) as drawn:
        draw = kit.Draw(image)
        if label:
            draw.text(spot, label, font=font(BIG, "bold"), fill=GOOD_TEXT, anchor=anchor)
        width, height = x1 - x0, y1 - y0
        for index, style in enumerate(markers):  # cubes: square plates along the bottom left, oldest first
            _p_piece(image, (22 + index * 40, height - 22), style, explorer=False)
        for index, style in enumerate(explorers):  # explorers, standing figures, along the bottom right
            cx = width - 22 - index * 42
            cy = height - 22 - (40 if crowded and index >= 1 else 0)
            if crowded and index >= 1:
                cx = width - 22 - (index - 1) * 42
            _p_piece(image, (cx, cy), style, explorer=True)
    return kit.Face(image, drawn)


def _p_draw_side(draw: kit.Draw, view: View, height: int = P_H) -> int:
    """The scores down the side column of a board `height` px tall; returns the y below them."""
    over = view["phase"] == "over"
    x, right = P_SIDE, P_W - 12
    width = right - x
    y = P_GRID_TOP
    detail = _p_final_detail(view, height) if over else 2
    for place, entry in _p_ranked(view):
        style = style_of(view, entry["id"])
        score = entry["score"]
        score_text = pts(score["total"], lang(view))
        names = kit.name_lines(entry["name"], width - 46)
        top = y
        if place:  # at the end, the place as a medal in place of the token (the name and order say who)
            kit.medal(draw, (x + 17, y + 20), 16, place)
        elif style is not None:
            draw_token(draw, (x + 18, y + 17), 17, style, width=2)
        for index, line in enumerate(names):
            draw.text((x + 42, y + index * 28), line, font=font(BIG, "bold"), fill=INK, role="name")
        y += 28 * len(names)
        beside = kit.measure(names[-1], BIG, "bold") + kit.measure(score_text, BIG, "bold") + 12 <= width - 46
        if beside:  # the score on the name's last line when both fit, else on a line of its own
            draw.text((right - 4, y - 28), score_text, font=font(BIG, "bold"), fill=INK, anchor="ra", role="score")
        else:
            draw.text((x + 42, y), score_text, font=font(BIG, "bold"), fill=INK, role="score")
            y += 30
        left = entry["markers_left"]
        if entry["kind"] == "automation":
            card = entry["card"]
            upcoming = card["path"][card["moves_used"]] if card["moves_left"] else None
            left = card["moves_left"]
            if upcoming:
                facts = translate_plural("expedition.board.automation_next", left, lang(view), card=card["name"],
                                         arrow=ARROWS[upcoming])
            else:
                facts = translate("expedition.board.automation_done", lang(view), card=card["name"])
            y = _p_side_line(draw, x + 42, y, facts, width - 46)
        elif over:
            for text, fill in _p_final_lines(view, entry, detail):
                y = _p_side_line(draw, x + 42, y, text, width - 46, fill)
        else:
            facts = [translate_plural("expedition.board.markers_left", left, lang(view))]
            if view["mode"] != "abstract":
                facts.append(translate_plural("expedition.board.cards_in_hand", entry["hand_size"], lang(view)))
            if entry.get("scored"):
                facts.append(translate("expedition.board.scored_count", lang(view), count=len(entry["scored"])))
            if entry.get("held"):
                facts.append(translate("expedition.board.held", lang(view)))
            y = _p_side_line(draw, x + 42, y, kit.facts_line(facts), width - 46)
        if place and style is not None:  # the player's piece under the medal
            draw_token(draw, (x + 18, top + 58), 17, style, width=2)
            y = max(y, top + 78)
        if entry["id"] == view.get("current") and not over:
            draw.rounded_rectangle((x - 6, top - 6, right + 2, y + 2), radius=8, outline=HIGHLIGHT, width=2)
        if str(entry["id"]).startswith("p") and str(entry["id"])[1:].isdigit():
            kit.note_part("player", (x - 6, top - 6, right + 2, y + 2), int(str(entry["id"])[1:]))
        y += 10 if over else 14
    kit.note_part("players", (x - 6, P_GRID_TOP - 6, right + 2, y - 8))
    if "market" in view and not over:
        market = translate("expedition.board.market", lang(view), count=view.get("draw_pile", 0))
        y = _p_side_line(draw, x, y, market, width, INK,
                         "bold")
        for card in view["market"]:
            worth = kit.facts_line([pts(card["points"], lang(view))])  # "3 pts", whole
            y = _p_side_line(draw, x + 8, y, f"{card['name']} · {worth}", width - 8, INK)
    if view["mode"] in ("solo", "solo-hard") and not over:
        rounds = view.get("rounds", 0)  # round 0 is the placement, before the first round
        line = (translate("expedition.board.round", lang(view), round=view["round"], rounds=rounds) if view.get("round")
                else translate("expedition.board.placement_rounds", lang(view), rounds=rounds))
        y = _p_side_line(draw, x, y, line, width, INK, "bold")
    return y


def _p_final_lines(view: View, entry: View, detail: int) -> list[tuple[str, str]]:
    """A player's lines under their name on the final board: where the points came from, the expeditions scored
    and those not; with less `detail` (2, 1, 0) the cards not scored, then those scored, are counted instead of
    named so that every player fits."""
    score = entry["score"]
    if entry["kind"] == "automation":
        return []
    if view["mode"] == "solo-hard":
        lines = [(translate("expedition.board.final.solo_hard", lang(view), expeditions=score["expeditions"]), INK)]
    else:
        lines = [(translate("expedition.board.final.player", lang(view), locations=score["locations"],
                      expeditions=score["expeditions"]), INK)]
    scored, unscored = entry.get("scored") or [], entry.get("unscored") or []
    if scored:
        lines.append(("✓ " + (_p_cards(scored) if detail >= 1
                              else translate("expedition.board.scored_count", lang(view), count=len(scored))),
                      GOOD_TEXT))
    if unscored:
        count = kit.facts_line([translate_plural("count.card", len(unscored), lang(view))])  # "3 cards", whole
        cards = _p_cards(unscored) if detail >= 2 else count
        lines.append((translate("expedition.board.unscored", lang(view), cards=cards),
                      INK_MUTED))
    return lines


def _p_final_detail(view: View, height: int = P_H) -> int:
    """The most detail (2, 1, 0) at which every participant's final lines fit the side column of a board `height`
    px tall."""
    width = P_W - 12 - P_SIDE
    for detail in (2, 1, 0):
        y = P_GRID_TOP
        for _, entry in _p_ranked(view):
            names = kit.name_lines(entry["name"], width - 46)
            top = y
            y += 28 * len(names)
            score = pts(entry["score"]["total"], lang(view))
            if kit.measure(names[-1], BIG, "bold") + kit.measure(score, BIG, "bold") + 12 > width - 46:
                y += 30
            for text, _ in _p_final_lines(view, entry, detail):
                y += (SMALL + 4) * len(kit.lines(text, width - 46, SMALL))
            y = max(y, top + 78) + 10
        if y <= height - 4:
            return detail
    return 0


def _p_ranked(view: View) -> list[tuple[int, View]]:
    """The participants with their places: at the end best first (the winners, then by points, markers on the grid
    and expedition points, the rulebook's tie-breaks), each with its place (tied on all three share one); before the
    end in seat order, with place 0."""
    entries = list(view["participants"])
    if view["phase"] != "over" or len(entries) < 2:
        return [(0, entry) for entry in entries]
    winners = set(view.get("result", {}).get("winners", []))

    def key(entry: View) -> tuple[bool, int, int, int]:  # the rulebook's order: points, markers, expedition points
        score = entry["score"]
        return (entry["id"] not in winners, -int(score["total"]), -int(score.get("markers", 0)),
                -int(score.get("expeditions", 0)))

    entries.sort(key=key)
    return [(1 + sum(1 for other in entries if key(other) < key(entry)), entry) for entry in entries]


def _p_legend(image: Image.Image, draw: kit.Draw, view: View, top: int) -> None:
    """Which piece is which: the explorer (a figure) and a marker (a cube), in the colour of the player to move."""
    style = style_of(view, view.get("current")) or player_style(0)
    x = P_SIDE
    for explorer, word in ((True, translate("expedition.board.legend.explorer", lang(view))),
                           (False, translate("expedition.board.legend.marker", lang(view)))):
        _p_piece(image, (x + 18, top + 18), style, explorer)
        draw.text((x + 40, top + 18), word, font=font(SMALL), fill=INK_MUTED, anchor="lm")
        x += 40 + kit.measure(word, SMALL) + 14


P_LEGEND_TOP = P_H - 44
"""The piece legend's row at the foot of the side column."""


def _p_headline(view: View) -> str:
    if view["phase"] != "over":
        return str(view["turn"])
    result = view["result"]
    names = {entry["id"]: entry["name"] for entry in view["participants"]}
    winners = [names[w] for w in result["winners"]]
    if view["mode"] in ("solo", "solo-hard"):
        if not result.get("player_won"):
            return translate("expedition.board.over.automations_win", lang(view))
        if len(winners) == 1:
            return translate("expedition.board.over.you_beat", lang(view))
        return translate("expedition.board.over.shared", lang(view))
    return translate_plural("expedition.board.over.wins", len(winners), lang(view), names=_and(view, winners))


def _p_turn_style(view: View) -> PlayerStyle | None:
    if view["phase"] == "over":
        winners = view.get("result", {}).get("winners", [])
        return style_of(view, winners[0]) if len(winners) == 1 else None
    return style_of(view, view.get("current"))


def render_image(view: View) -> Image.Image:
    """The public board before encoding (the benchmark times the encoding of exactly this image): 800 x 650, or
    square when the players' long names need the room (drawn again taller: only such boards pay twice); with the
    parts a lesson points at marked (the view's `marks`)."""
    image, parts = _p_drawn(view)
    kit.draw_marks(image, parts, view.get("marks") or ())
    return image


def part_boxes(view: View) -> dict[str, kit.Box]:
    """Where the public board of `view` draws each part a lesson may point at, by `kit.part_key`: the grid
    (`grid`), the tile of each player's explorer (`explorer@<seat>`), the scores down the side (`players`) and each
    player's (`player@<seat>`)."""
    image, parts = _p_drawn(view)
    kit.recycle(image)
    return parts


def _p_drawn(view: View) -> tuple[Image.Image, dict[str, kit.Box]]:
    """The public board without marks, and where it drew its parts."""
    view = in_words(view)
    with kit.noting_parts() as parts:
        image = kit.board_fitting(lambda height: _p_board(view, height),
                                  kit.TALL_HEIGHT if _p_long_names(view) else P_H)
    return image, dict(parts)


def _p_long_names(view: View) -> bool:
    """Whether, with three players or more, a name takes three lines in the side column: then every board of the
    match is tall (one size for the whole match), as the scores may need the room."""
    entries = view["participants"]
    width = P_W - 12 - P_SIDE - 46
    return len(entries) > 2 and any(len(kit.name_lines(str(e["name"]), width)) > 2 for e in entries)


def _p_board(view: View, height: int) -> tuple[Image.Image, int]:
    """The public board `height` px tall, and the y below the scores down its side."""
    kit.forget_parts()  # (a board drawn again taller notes them again)
    tiles = tuple((e["location"]["name"], e["location"]["kind"], e["location"]["points"], e["location"]["rule"])
                  for e in sorted(view["grid"], key=lambda e: e["cell"]))
    grid = _p_grid(tiles)
    image = kit.taller(grid.image, height)
    kit.replay(grid)
    draw = kit.Draw(image)
    kit.phone_header(draw, P_W, _p_headline(view), view["last_move"] or "", _p_turn_style(view), lang(view))
    _p_draw_grid(draw, view, tiles)
    bottom = _p_draw_side(draw, view, height)
    if bottom <= height - (P_H - P_LEGEND_TOP):  # (a final board's scores may need the room)
        _p_legend(image, draw, view, height - (P_H - P_LEGEND_TOP))
    return image, bottom


def render(view: View) -> bytes:
    """The public board: 800 x 640 in every mode, the grid on the left, explorers and scores on the right."""
    return kit.finish(render_image(view))


def alt_text(view: View) -> str:
    """The board in words for the image's description: turn, last move, scores and the grid (public facts)."""
    view = in_words(view)
    parts = [f"{view['title']}, {view['mode_title']}.", _p_headline(view) + "."]
    if view["last_move"]:
        parts.append(translate("expedition.alt.last_move", lang(view), text=view["last_move"]))
    names = {entry["id"]: entry["name"] for entry in view["participants"]}
    for _, entry in _p_ranked(view):  # at the end best first, as the final board and the result list them
        where = next((g["location"]["name"] for g in view["grid"] if entry["id"] in g["explorers"]), None)
        where_words = (translate("expedition.alt.at", lang(view), location=where) if where is not None
                       else translate("expedition.alt.off_grid", lang(view)))
        parts.append(translate("expedition.alt.participant", lang(view), name=entry["name"],
                         points=pts(entry["score"]["total"], lang(view)), where=where_words,
                         markers=translate_plural("expedition.board.markers_left", entry["markers_left"],
                                                  lang(view))))
    for row in range(3):
        cells = []
        for g in sorted(view["grid"], key=lambda e: e["cell"])[row * 3:row * 3 + 3]:
            marks = ", ".join(names.get(m, m) for m in g["markers"])
            cell = f"{g['location']['name']} {g['location']['points']}"
            cells.append(translate("expedition.alt.marked_by", lang(view), cell=cell, names=marks) if marks else cell)
        parts.append(translate("expedition.alt.row", lang(view), number=row + 1, cells="; ".join(cells)))
    return kit.clip_alt(parts)
