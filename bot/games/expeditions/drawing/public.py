"""Expeditions' public board: the map (bot/games/expeditions/drawing/public_map.py) and the players down the side
column, or the results at the end; the parts a lesson points at, and the board in words for its alt text."""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.games.expeditions.drawing.public_map import (
    BASECAMP_Y,
    BIG,
    LAYERS_LOCK,
    P_H,
    P_HEX_R,
    P_HEX_W,
    P_LEGEND_ROW,
    P_LEGEND_TOP,
    P_SIDE,
    P_TOP,
    P_W,
    SMALL,
    draw_reachable,
    hex_corners,
    legend_first_right,
    legend_second_right,
    map_layer,
)
from bot.games.expeditions.drawing.shared import (
    headline,
    language,
    money,
    money_parts,
    ranked_places,
    stars_text,
    why_over,
)
from bot.games.expeditions.rules.view_types import ExpeditionsView
from rendering import kit
from rendering.wording import translate


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


def _p_side(draw: kit.Draw, view: ExpeditionsView, height: int = P_H) -> float:
    """The players down the side column (token, name, score, facts); returns the y below them. On a tall board
    (long names: `render_image`) the players the side column has no room for go under the map, two abreast."""
    x, width = P_SIDE, P_W - 12 - P_SIDE
    y: float = P_TOP
    current = view["current"]["seat"] if view.get("current") else None
    lang = language(view)
    under = [12.0, 12.0 + (P_W - 32) // 2 + 8]  # the columns under the map, on a tall board
    lowest = y
    legend_right = legend_second_right(lang)
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


def _p_results(draw: kit.Draw, view: ExpeditionsView, left: int, columns: int, height: int = P_H) -> float:
    """The end: every player ranked (a medal with the place) with where their money came from, in `columns`
    columns from `left` (one beside the map for one or two players, two across the board for more, with the
    glory board under them). Returns the y below."""
    column_w = (P_W - 12 - left - 8 * (columns - 1)) // columns
    lang = language(view)
    y_of = [float(P_TOP)] * columns
    row_top = float(P_TOP)
    for index, (place, player) in enumerate(ranked_places(view)):
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


def _p_glory(draw: kit.Draw, view: ExpeditionsView, top: float) -> float:
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


def _p_summary(view: ExpeditionsView) -> str:
    """The result in words for the alt text (one player: their final score, not a "win")."""
    if len(view["players"]) == 1:
        player = view["players"][0]
        return translate("expeditions.board.alone_result", language(view), name=player["name"],
                         money=money(player["score"], language(view)))
    return str(view["outcome"]["summary"])


def render_image(view: ExpeditionsView) -> Image.Image:
    """The public board before encoding (the benchmark times the encoding of exactly this image): 800 x 640, or
    square when the players' long names need the room (drawn again taller: only such boards pay twice); with the
    parts a lesson points at marked (the view's `marks`)."""
    image, parts = _p_drawn(view)
    kit.draw_marks(image, parts, view.get("marks") or ())
    return image


def part_boxes(view: ExpeditionsView) -> dict[str, kit.Box]:
    """Where the public board of `view` draws each part a lesson may point at, by `kit.part_key`: the map (`map`),
    the spaces the player to move can reach (`reachable`), each player's mech (`mech@<seat>`), the basecamp
    (`basecamp`), the corruption's colours in the legend (`corruption_key`), the players down the side (`players`)
    and each player's (`player@<seat>`). A final board of results has none of them."""
    image, parts = _p_drawn(view)
    kit.recycle(image)
    return parts


def _p_drawn(view: ExpeditionsView) -> tuple[Image.Image, dict[str, kit.Box]]:
    """The public board without marks, and where it drew its parts."""
    with kit.noting_parts() as parts:
        image = kit.board_fitting(lambda height: _p_board(view, height),
                                  kit.TALL_HEIGHT if _p_long_names(view) else P_H)
    return image, dict(parts)


def _p_long_names(view: ExpeditionsView) -> bool:
    """Whether, with three players or more, a name takes three lines in the side column: then every board of the
    match is tall (one size for the whole match), as the players may need the room."""
    players = view["players"]
    width = P_W - 12 - P_SIDE - 46
    return len(players) > 2 and any(len(kit.name_lines(str(p["name"]), width)) > 2 for p in players)


def _p_board(view: ExpeditionsView, height: int) -> tuple[Image.Image, float]:
    """The public board `height` px tall, and the y below its players (the side column, or the results)."""
    kit.forget_parts()  # (a board drawn again taller notes them again)
    if view.get("outcome") and len(view["players"]) > 2:  # the results take the whole board
        image, draw = kit.new_canvas(height, P_W)
    else:
        with LAYERS_LOCK:
            layer = map_layer(view)
            image = kit.taller(layer.image, height)
        kit.replay(layer)
        draw = kit.Draw(image)
    current = view["current"]["seat"] if view.get("current") else None
    style = kit.player_style(current) if current is not None else None
    if view.get("outcome"):
        best = max(view["players"], key=lambda p: (p["score"], p["tiebreak"]))
        style = kit.player_style(best["seat"])
        kit.phone_header(draw, P_W, headline(view), why_over(view), style,  # (the result once: headline)
                         view.get("language", "en"))
        if len(view["players"]) <= 2:  # room beside the final map
            return image, _p_results(draw, view, P_SIDE, 1, height) - 12
        return image, _p_glory(draw, view, _p_results(draw, view, 12, 2, height) + 4)
    kit.phone_header(draw, P_W, headline(view), view["last_move"], style, view.get("language", "en"))
    draw_reachable(draw, view)
    _p_note_parts(view)
    bottom = _p_side(draw, view, height)
    kit.note_part("players", (P_SIDE - 6, P_TOP - 4, P_W - 8, bottom - 8))
    return image, bottom


def _p_note_parts(view: ExpeditionsView) -> None:
    """Where the map, the spaces the player to move can reach, each mech, the basecamp and the corruption's key
    are (rendering/parts.py)."""
    kit.note_part("map", (12, P_TOP, 12 + 5.5 * P_HEX_W, P_TOP + 8 * P_HEX_R))
    reachable = set(view.get("reachable") or ())
    boxes = []
    for space in view["map"]["spaces"]:
        corners = hex_corners(space["row"], space["col"])
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
    basecamp = (12, BASECAMP_Y - 20, 12 + 150 + 40 * len(mechs), BASECAMP_Y + 20)
    kit.note_part("basecamp", basecamp)
    for seat in mechs:
        kit.note_part("mech", basecamp, int(seat))
    kit.note_part("corruption_key", (12, P_LEGEND_TOP, legend_first_right(language(view)), P_LEGEND_TOP + 22))


def render(view: ExpeditionsView) -> bytes:
    """The public board: 800 x 640 for 1-5 players, the map and the players; the results at the end."""
    return kit.finish(render_image(view))


def alt_text(view: ExpeditionsView) -> str:
    """The board in words for the image's description (everything here is public in Expeditions)."""
    lang = language(view)
    parts = [f"{view.get('title') or 'Expeditions'}."]
    if view.get("outcome"):  # the result once, whole ("Game over: Ada wins with $80. Scores: ..."), no headline
        parts.append(translate("expeditions.turn.game_over_summary", lang, summary=_p_summary(view)))
    else:
        parts.append(headline(view) + ".")
    if view.get("last_move"):
        parts.append(translate("expeditions.board.alt_last_move", lang, move=view["last_move"]))
    places = {s["code"]: f"{s['label']} {s['name']}" for s in view["map"]["spaces"] if s.get("label")}
    ranked = [player for _, player in ranked_places(view)] if view.get("outcome") else view["players"]
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
