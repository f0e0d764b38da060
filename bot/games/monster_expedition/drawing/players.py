"""The public board's players: each player's block (piece, name, score, camps and counts, or at the end the
points' sources and the cages revealed), two columns, kept drawn between boards."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from bot.games.monster_expedition.drawing.common import (
    BIG,
    P_H,
    P_W,
    REGION_COLOURS,
    REGION_INK,
    SMALL,
    draw_wrapped,
    language,
    ranked_seats,
    region_letter,
)
from bot.games.monster_expedition.rules.view_types import MonsterView
from bot.i18n import DEFAULT_LANGUAGE, counted, deferred
from rendering import kit
from rendering.caches import lru_bytes
from rendering.wording import translate, translate_plural


def _place(view: MonsterView, seat: int) -> int:
    """A seat's place on the final board: behind every seat with more points, or as many points and higher camps in
    all (the rulebook's tie-break); seats tied on both share a place, as they share the win."""
    levels = view["result"].get("camp_levels") or [0] * len(view["scores"])

    def key(other: int) -> tuple[int, int]:
        return int(view["result"]["scores"][other]), int(levels[other])

    return 1 + sum(1 for other in range(len(view["result"]["scores"])) if key(other) > key(seat))


def _p_camps(draw: kit.Draw, x: float, y: float, camps: Camps, lang: str = DEFAULT_LANGUAGE) -> float:
    """A player's three camp levels as chips in the regions' colours ("A 5"; a final camp is framed)."""
    for region, level, final in camps:
        chip = _p_camp_chip(region, level, final, lang)
        kit.paste(draw.canvas, chip, (round(x), round(y)))
        x += chip.image.width + 6
    return x


@lru_cache(maxsize=64)
def _p_camp_chip(region: str, level: int, final: bool, lang: str = DEFAULT_LANGUAGE) -> kit.Face:
    """One camp's chip, drawn once per process on the board's background."""
    text = f"{region_letter(region, lang)} {level}"
    width = kit.measure(text, SMALL, "bold") + 14
    image = Image.new("RGB", (width + 1, 25), kit.BACKGROUND)
    with kit.building(image) as drawn:
        draw = kit.Draw(image)
        draw.rounded_rectangle((0, 0, width, 24), radius=6, fill=REGION_COLOURS[region],
                               outline=kit.INK if final else None, width=2)
        draw.text((width / 2, 12), text, font=kit.font(SMALL, "bold"), fill=REGION_INK[region], anchor="mm",
                  role="label")
        kit.mark("camp", (0, 0, width, 24))
    return kit.Face(image, drawn)


Camps = tuple[tuple[str, int, bool], ...]
"""A player's three camps as their chips show them: (region, level, final)."""
Lines = tuple[tuple[str, str], ...]
"""A final board's lines under a player's name, with their colours."""


def draw_players(draw: kit.Draw, view: MonsterView, top: int, height: int | None = None) -> int:
    """The players' blocks from `top`, two columns; returns the y below the lowest. Given the board's `height`, a
    game of two or three leaves no band of the board empty: each block lists its monsters in the room below."""
    lang = language(view)
    standard = view["mode"] == "standard"
    active = view.get("active")
    over = bool(view.get("over"))
    scores = {s["seat"]: s for s in view["scores"]}
    column_w = (P_W - 24 - 8) // 2 if len(view["players"]) > 1 else P_W - 24
    y_of = [top, top]
    by_seat = {int(p["seat"]): p for p in view["players"]}
    ranked = over and standard
    room = _p_room_for_lists(view, top, height, column_w) if height and not over and 2 <= len(by_seat) <= 3 else {}
    for index, player in enumerate(by_seat[s] for s in ranked_seats(view)):  # at the end, best first
        column = index % 2 if len(view["players"]) > 1 else 0
        x, y = 12 + column * (column_w + 8), y_of[column]
        style = kit.player_style(int(player["seat"]))
        start = y
        place = _place(view, int(player["seat"])) if ranked else 0
        score = scores.get(player["seat"], {})
        if ranked:
            message = (deferred("monster.board.points_winner") if player["seat"] in view["result"]["winners"]
                       else deferred("monster.score.final"))
            score_text = translate(message, lang, points=score["total"])
        elif standard:
            score_text = str(score.get("text", ""))
        else:
            score_text = counted("cage", int(player["cages"]), lang)
        lines: Lines = ()
        camps: Camps = ()
        facts = ""
        if over:
            lines = _p_final_lines(player, standard, lang)
        else:
            camps, facts = _p_camps_and_facts(player, standard, lang)
            lines = _p_monster_lines(player, lang, room.get(int(player["seat"]), 0), column_w - 46)
        shown = (str(player["name"]), score_text, place, style, column_w, lines, camps, facts, lang)
        if kit.is_recording() or over:  # (a test sees every text and token drawn in place; a final board's blocks
            y = _p_draw_player(draw, x, y, *shown)  # are drawn once: kept, they would cost a copy more)
        else:
            face = _p_player_block(*shown, kit.in_palette(P_W))
            kit.blit(draw.canvas, face.image, (x - BLOCK_LEFT, y - BLOCK_TOP))
            y += face.image.height - BLOCK_TOP - 1
        if standard and player["seat"] == active and not over:
            draw.rounded_rectangle((x - 6, start - 6, x + column_w + 2, y + 2), radius=8, outline=style.colour,
                                   width=3)
        kit.note_part("player", (x - 6, start - 6, x + column_w + 2, y + 2), int(player["seat"]))
        y_of[column] = y + 8
    kit.note_part("players", (6, top - 6, P_W - 6, max(y_of) - 6))
    return max(y_of)


def _p_camps_and_facts(player: dict[str, Any], standard: bool, lang: str) -> tuple[Camps, str]:
    """A player's camp levels and the line of counts beside them (monsters, sets, crests)."""
    camps = tuple((region, int(player["camps"][region]["level"]), bool(player["camps"][region]["final"]))
                  for region in ("aerie", "depths", "forest"))
    facts_list = [counted("monster", len(player["monsters"]), lang),
                  translate_plural("monster.count.set", int(player["symbiosis_sets"]), lang)]
    if standard:
        facts_list.append(counted("crest", int(player["crests"]), lang))
    return camps, kit.facts_line(facts_list)


def _p_room_for_lists(view: MonsterView, top: int, height: int, column_w: int) -> dict[int, int]:
    """How many lines of its monsters each player's block may add without the blocks reaching past `height`: the
    room below each column (measured on the blocks without a list), shared by the blocks in it."""
    lang = language(view)
    standard = view["mode"] == "standard"
    scores = {s["seat"]: s for s in view["scores"]}
    seats = ranked_seats(view)
    by_seat = {int(p["seat"]): p for p in view["players"]}
    bottoms = [top, top]
    in_column: list[list[int]] = [[], []]
    for index, seat in enumerate(seats):
        player = by_seat[seat]
        score_text = str(scores.get(player["seat"], {}).get("text", "")) if standard else \
            counted("cage", int(player["cages"]), lang)
        camps, facts = _p_camps_and_facts(player, standard, lang)
        recorded = kit.checkpoint()  # (measured only: the block is drawn in place below)
        face = _p_player_block(str(player["name"]), score_text, 0, kit.player_style(seat), column_w, (), camps,
                               facts, lang, kit.in_palette(P_W))
        kit.rewind(recorded)
        bottoms[index % 2] += face.image.height - BLOCK_TOP - 1 + 8
        in_column[index % 2].append(seat)
    line = SMALL + 4
    return {seat: max(0, (height - 8 - bottoms[column]) // len(in_column[column]) // line)
            for column in (0, 1) for seat in in_column[column]}


def _p_monster_lines(player: dict[str, Any], lang: str, max_lines: int, width: int) -> Lines:
    """A player's monsters (name and points) in at most `max_lines` wrapped lines, whole names only: those that
    do not fit are counted ("and 3 more")."""
    names = [f"{m['name']} {m['vp']}" for m in player["monsters"]]
    for count in range(len(names), 0, -1) if max_lines > 0 else ():
        listed = ", ".join(names[:count])
        if count < len(names):
            listed += " " + translate_plural("monster.board.monsters_more", len(names) - count, lang)
        text = translate("monster.board.monsters_list", lang, monsters=listed)
        if len(kit.lines(text, width, SMALL)) <= max_lines:
            return ((text, kit.INK_MUTED),)
    return ()


def _p_final_lines(player: dict[str, Any], standard: bool, lang: str) -> Lines:
    """A player's lines on the final board: where the points came from, the cages revealed, the monsters."""
    parts = translate("monster.board.points_parts", lang, monsters=player["monster_points"],
                      cages=player.get("cage_points", 0))
    if not standard:
        parts = translate("monster.board.points_monsters", lang, points=player["monster_points"])
    lines = [(parts, kit.INK)]
    cages = ", ".join(f"{c['name']} {c.get('caged_vp', '')}".strip() for c in player.get("cages_revealed", []))
    if cages:
        lines.append((translate("monster.board.cages_list", lang, cages=cages), kit.ORANGE))
    monsters = ", ".join(f"{m['name']} {m['vp']}" for m in player["monsters"])
    if monsters:
        lines.append((translate("monster.board.monsters_list", lang, monsters=monsters), kit.INK_MUTED))
    return tuple(lines)


BLOCK_LEFT, BLOCK_TOP = 3, 0
"""How far a player's block reaches left of and above its corner (its piece's square, whose ink starts at the
corner's row: the hunt band's dice reach down to just above it); it reaches 1 px right of its column and down to
its last line, clear of the highlight drawn around it and of the next block."""
CACHED_BLOCKS_BYTES = 1 << 20
"""Players' blocks (10-60 KB each, in the boards' palette): a move changes the mover's, so the other players'
blocks are pasted as the board before had them."""


@lru_cache(maxsize=2)
def _p_blank(in_palette: bool) -> Image.Image:
    """A public board's empty background."""
    return kit.new_layer((P_W, P_H))


@lru_bytes(CACHED_BLOCKS_BYTES)
def _p_player_block(name: str, score_text: str, place: int, style: kit.PlayerStyle, column_w: int, lines: Lines,
                    camps: Camps, facts: str, lang: str, in_palette: bool) -> kit.Face:
    """One player's block of the players' panel, drawn on the board's background as the board draws it in place,
    from BLOCK_LEFT, BLOCK_TOP before its corner."""
    image = _p_blank(in_palette).crop((0, 0, BLOCK_LEFT + column_w + 1, P_H))  # (its column only: half the bytes)
    draw = kit.Draw(image)
    bottom = _p_draw_player(draw, BLOCK_LEFT, BLOCK_TOP, name, score_text, place, style, column_w, lines, camps,
                            facts, lang)
    return kit.Face(image.crop((0, 0, BLOCK_LEFT + column_w + 1, bottom + 1)), kit.Recording())


def _p_draw_player(draw: kit.Draw, x: int, y: int, name: str, score_text: str, place: int,
                   style: kit.PlayerStyle, column_w: int, lines: Lines, camps: Camps, facts: str, lang: str) -> int:
    """One player's block with its corner at (x, y): medal (at the end), piece, name, score, then the final lines
    or the camps and facts; returns the y below it."""
    indent = 42
    if place:  # the place as a medal beside the player's piece
        kit.medal(draw, (x + 17, y + 26), 16, place)
        kit.draw_token(draw, (x + 52, y + 17), 17, style, width=2)
        indent = 76
    else:
        kit.draw_token(draw, (x + 18, y + 17), 17, style, width=2)
    names = kit.name_lines(name, column_w - indent - 6)
    for line in names:
        draw.text((x + indent, y), line, font=kit.font(BIG, "bold"), fill=kit.INK, role="name")
        y += 28
    room = column_w - indent - 4 - kit.measure(names[-1], BIG, "bold") - 16
    if kit.measure(score_text, BIG, "bold") <= room:  # the score on the name's last line when both fit
        draw.text((x + column_w - 4, y - 28), score_text, font=kit.font(BIG, "bold"), fill=kit.INK, anchor="ra",
                  role="score")
    else:
        draw.text((x + indent, y), score_text, font=kit.font(BIG, "bold"), fill=kit.INK, role="score")
        y += 30
    text_x, text_w = x + 42, column_w - 46
    for text, fill in lines:
        y = draw_wrapped(draw, text_x, y, text, text_w, fill)
    if camps:
        after = _p_camps(draw, text_x, y + 1, camps, lang) + 8
        if after + kit.measure(facts.replace("\u00a0", " "), SMALL) <= x + column_w - 2:
            draw.text((after, y + 1), facts, font=kit.font(SMALL), fill=kit.INK_MUTED)
            y += 28
        else:
            y = draw_wrapped(draw, text_x, y + 28, facts, text_w, kit.INK_MUTED)
    return y
