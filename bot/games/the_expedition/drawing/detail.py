"""The Expedition's detail board, shown privately on demand: 1280 px wide, the header with every score, the grid of
location tiles with explorers and markers, the cards with their conditions, the Automations' cards, the log and
the result."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.the_expedition.drawing.shared import (
    ARROWS,
    DIRECTION_WORDS,
    GOOD_TEXT,
    View,
    and_listed,
    in_words,
    lang,
    pts,
    ranked,
    style_of,
)
from bot.games.the_expedition.rules.view_types import ExpeditionView
from rendering import kit
from rendering.kit import (
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
    rounded_panel,
    text_width,
    wrap,
)
from rendering.wording import translate, translate_plural

MARGIN = 24
GAP = 16
GRID_GAP = 28  # wide enough for the last-move pointers drawn across the tile borders
TILE_W = (WIDTH - 2 * MARGIN - 2 * GRID_GAP) // 3
TILE_H = 300
HEADER_COLUMN = (WIDTH - 48) // 3 - 50  # the room kit.header_band gives one score entry
CARD_FACE = kit.CARD_FACE
CARD_BACK = kit.CARD_BACK
KIND_WORDS = {"planet": "expedition.kind.planet", "moon": "expedition.kind.moon"}


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
    kit.paste(draw.canvas, body, (46 - body.image.width // 2, 46 - body.image.height // 2))
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


def _draw_grid(image: Image.Image, draw: ImageDraw.ImageDraw, view: ExpeditionView, top: int) -> int:
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


def _draw_participants(draw: ImageDraw.ImageDraw, view: ExpeditionView, top: int) -> int:
    top = _section_title(draw, translate("expedition.board.explorers", lang(view)), top)
    language = lang(view)
    for _, entry in ranked(view):  # at the end, best first
        style = style_of(view, entry["id"])
        scored = entry.get("scored", [])
        unscored = entry.get("unscored", []) if view["over"] else []  # revealed at the end
        height = 104 + 38 * (len(scored) + len(unscored))
        current = entry["id"] == view.get("current")
        rounded_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + height), fill=PANEL,
                      outline=HIGHLIGHT if current else None, width=3)
        if style is not None:
            draw_token(draw, (MARGIN + 40, top + 40), 26, style)
        name = (translate("expedition.board.name_to_move", lang(view), name=entry["name"])
                if current and not view["over"]
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
            if view["mode"] not in ("abstract",) and not view["over"]:
                extra.append(translate_plural("expedition.board.secret_cards", entry["hand_size"], language))
            draw.text((right, top + 56), " · ".join(extra), font=font(26), fill=INK_MUTED, anchor="ra")
            backs = entry.get("hand_size", 0) if view["mode"] != "abstract" and not view["over"] else 0
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


def _draw_market(draw: ImageDraw.ImageDraw, view: ExpeditionView, top: int) -> int:
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


def _draw_automation_cards(draw: ImageDraw.ImageDraw, view: ExpeditionView, top: int) -> int:
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


def _draw_log(draw: ImageDraw.ImageDraw, view: ExpeditionView, top: int) -> int:
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


def _draw_result(draw: ImageDraw.ImageDraw, view: ExpeditionView, top: int) -> int:
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
        headline = translate("expedition.board.result.shared", lang(view), names=and_listed(view, winners))
    face = font(24)
    lines = wrap(draw, result["summary"], WIDTH - 2 * MARGIN - 40, face)
    height = 80 + 32 * len(lines)
    rounded_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + height), fill=PANEL, outline=YELLOW, width=4)
    headline, headline_face = kit.fitted(headline, WIDTH - 2 * MARGIN - 40, 40, "bold", 24)  # (a long name shrinks)
    draw.text((MARGIN + 20, top + 14), headline, font=headline_face, fill=YELLOW)
    for index, line in enumerate(lines):
        draw.text((MARGIN + 20, top + 70 + index * 32), line, font=face, fill=INK)
    return top + height + GAP


def _header_scores(draw: ImageDraw.ImageDraw, view: ExpeditionView) -> list[tuple[PlayerStyle, str, str]]:
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


def render_detail(view: ExpeditionView) -> bytes:
    """The full-size detail board as PNG bytes: header (turn, last move, scores), the grid, explorers, the cards
    with their conditions, the log and the result."""
    return kit.encode_detail(detail_image(view))


def detail_image(view: ExpeditionView) -> Image.Image:
    """The detail board drawn, in the boards' palette (`render_detail` encodes it)."""
    view = in_words(view)
    canvas, draw = kit.new_canvas(4000)
    over = view["over"]
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

