"""The Expedition's public board: 800 x 650 in every mode and player count, read on a phone: the 3x3 grid of
planets and moons with explorers, markers and the latest steps on the left, the scores, the market and the round
down the side column, the piece legend at its foot; and the board in words (alt text) and where it draws its parts.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.the_expedition.drawing.shared import (
    ARROWS,
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
from rendering.caches import lru_bytes
from rendering.kit import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    INK_DARK,
    INK_MUTED,
    PANEL_LIGHT,
    YELLOW,
    PlayerStyle,
    draw_token,
    font,
    player_style,
)
from rendering.wording import translate, translate_plural

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
    kit.paste(draw.canvas, body, (24 - body.image.width // 2, 22 - body.image.height // 2))
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


def _p_draw_grid(draw: kit.Draw, view: ExpeditionView, tiles: Tiles) -> None:
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
        kit.paste(draw.canvas, face, (x0, y0))
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


def _p_draw_side(draw: kit.Draw, view: ExpeditionView, height: int = P_H) -> int:
    """The scores down the side column of a board `height` px tall; returns the y below them."""
    over = view["over"]
    x, right = P_SIDE, P_W - 12
    width = right - x
    y = P_GRID_TOP
    detail = _p_final_detail(view, height) if over else 2
    for place, entry in ranked(view):
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
            shown = [translate_plural("expedition.board.markers_left", left, lang(view))]
            if view["mode"] != "abstract":
                shown.append(translate_plural("expedition.board.cards_in_hand", entry["hand_size"], lang(view)))
            if entry.get("scored"):
                shown.append(translate("expedition.board.scored_count", lang(view), count=len(entry["scored"])))
            if entry.get("held"):
                shown.append(translate("expedition.board.held", lang(view)))
            y = _p_side_line(draw, x + 42, y, kit.facts_line(shown), width - 46)
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


def _p_final_lines(view: ExpeditionView, entry: View, detail: int) -> list[tuple[str, str]]:
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


def _p_final_detail(view: ExpeditionView, height: int = P_H) -> int:
    """The most detail (2, 1, 0) at which every participant's final lines fit the side column of a board `height`
    px tall."""
    width = P_W - 12 - P_SIDE
    for detail in (2, 1, 0):
        y = P_GRID_TOP
        for _, entry in ranked(view):
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


def _p_legend(image: Image.Image, draw: kit.Draw, view: ExpeditionView, top: int) -> None:
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


def _p_headline(view: ExpeditionView) -> str:
    if not view["over"]:
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
    return translate_plural("expedition.board.over.wins", len(winners), lang(view), names=and_listed(view, winners))


def _p_turn_style(view: ExpeditionView) -> PlayerStyle | None:
    if view["over"]:
        winners = view.get("result", {}).get("winners", [])
        return style_of(view, winners[0]) if len(winners) == 1 else None
    return style_of(view, view.get("current"))


def render_image(view: ExpeditionView) -> Image.Image:
    """The public board before encoding (the benchmark times the encoding of exactly this image): 800 x 650, or
    square when the players' long names need the room (drawn again taller: only such boards pay twice); with the
    parts a lesson points at marked (the view's `marks`)."""
    image, parts = _p_drawn(view)
    kit.draw_marks(image, parts, view.get("marks") or ())
    return image


def part_boxes(view: ExpeditionView) -> dict[str, kit.Box]:
    """Where the public board of `view` draws each part a lesson may point at, by `kit.part_key`: the grid
    (`grid`), the tile of each player's explorer (`explorer@<seat>`), the scores down the side (`players`) and each
    player's (`player@<seat>`)."""
    image, parts = _p_drawn(view)
    kit.recycle(image)
    return parts


def _p_drawn(view: ExpeditionView) -> tuple[Image.Image, dict[str, kit.Box]]:
    """The public board without marks, and where it drew its parts."""
    view = in_words(view)
    with kit.noting_parts() as parts:
        image = kit.board_fitting(lambda height: _p_board(view, height),
                                  kit.TALL_HEIGHT if _p_long_names(view) else P_H)
    return image, dict(parts)


def _p_long_names(view: ExpeditionView) -> bool:
    """Whether, with three players or more, a name takes three lines in the side column: then every board of the
    match is tall (one size for the whole match), as the scores may need the room."""
    entries = view["participants"]
    width = P_W - 12 - P_SIDE - 46
    return len(entries) > 2 and any(len(kit.name_lines(str(e["name"]), width)) > 2 for e in entries)


def _p_board(view: ExpeditionView, height: int) -> tuple[Image.Image, int]:
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


def render(view: ExpeditionView) -> bytes:
    """The public board: 800 x 640 in every mode, the grid on the left, explorers and scores on the right."""
    return kit.finish(render_image(view))


def alt_text(view: ExpeditionView) -> str:
    """The board in words for the image's description: turn, last move, scores and the grid (public facts)."""
    view = in_words(view)
    parts = [f"{view['title']}, {view['mode_title']}.", _p_headline(view) + "."]
    if view["last_move"]:
        parts.append(translate("expedition.alt.last_move", lang(view), text=view["last_move"]))
    names = {entry["id"]: entry["name"] for entry in view["participants"]}
    for _, entry in ranked(view):  # at the end best first, as the final board and the result list them
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
