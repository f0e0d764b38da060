"""Monster Expedition's detail board, shown privately on demand: 1280 px wide, every card, camp, die and monster
in full, from the public view only."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.monster_expedition.drawing.common import (
    DIE_COLOURS,
    REGION_COLOURS,
    REGION_INK,
    SYMBIOSIS_WORDS,
    TRADER_FRAME,
    camp_level,
    language,
    localized,
    ranked_seats,
    region_label,
    region_letter,
    region_short,
    result_headline,
    symbiosis_badge,
    trader_offer,
)
from bot.games.monster_expedition.rules.view_types import MonsterView
from bot.i18n import DEFAULT_LANGUAGE, counted, deferred
from rendering import kit
from rendering.wording import translate, translate_plural

DIE_WORDS = {"yellow": deferred("monster.colour.yellow"), "blue": deferred("monster.colour.blue"),
             "green": deferred("monster.colour.green"), "black": deferred("monster.colour.black")}

MARGIN = 24
CARD_W, CARD_H, CARD_GAP = 236, 176, 12
DIE = 58


_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))


@lru_cache(maxsize=4096)
def _width(text: str, size: int, weight: str = "regular") -> int:
    """Text width in pixels, cached: the same names and labels come back on every board."""
    return kit.text_width(_MEASURE, text, kit.font(size, weight))


@lru_cache(maxsize=2048)
def _fit(text: str, max_width: int, size: int, weight: str = "regular", min_size: int = 16) -> int:
    """The largest font size (down to min_size) in which `text` fits `max_width`."""
    while size > min_size and _width(text, size, weight) > max_width:
        size -= 1
    return size


@lru_cache(maxsize=1024)
def _wrap(text: str, max_width: int, size: int, weight: str = "regular") -> tuple[str, ...]:
    return tuple(kit.wrap(_MEASURE, text, max_width, kit.font(size, weight)))


def _ability(card: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """The card's ability line, from the game's data in the table's language."""
    texts = card.get("ability_texts") or {}
    return str(card.get("ability_text") or texts.get(lang) or texts.get(DEFAULT_LANGUAGE) or "")


def _card(draw: kit.Draw, x: int, y: int, card: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> None:
    if card.get("kind") == "trader":
        kit.rounded_panel(draw, (x, y, x + CARD_W, y + CARD_H), fill=kit.PANEL_LIGHT, outline=TRADER_FRAME, width=3)
        draw.text((x + CARD_W / 2, y + 40), translate("monster.board.trader_top", lang), font=kit.font(30, "bold"),
                  fill=kit.INK, anchor="mm")
        draw.text((x + CARD_W / 2, y + 74), translate("monster.board.trader_bottom", lang),
                  font=kit.font(30, "bold"), fill=kit.INK, anchor="mm")
        draw.text((x + CARD_W / 2, y + 124), trader_offer(card, lang), font=kit.font(26, "semibold"),
                  fill=kit.INK, anchor="mm")
        return
    region = str(card.get("region"))
    kit.rounded_panel(draw, (x, y, x + CARD_W, y + CARD_H), fill=kit.PANEL_LIGHT)
    draw.rounded_rectangle((x, y, x + CARD_W, y + 50), radius=14, fill=REGION_COLOURS[region])
    draw.rectangle((x, y + 36, x + CARD_W, y + 50), fill=REGION_COLOURS[region])
    draw.text((x + 12, y + 25), str(card["level"]), font=kit.font(40, "bold"), fill=REGION_INK[region], anchor="lm")
    room = CARD_W - (124 if card.get("crest") is not None else 84)  # clear of the level and the crest token
    full = region_label(region, lang)
    label = full if kit.measure(full, 18, "semibold") <= room else region_short(region, lang)
    label, face = kit.fitted(label, room, 24, "semibold", 18)
    draw.text((x + CARD_W - 12, y + 25), label, font=face, fill=REGION_INK[region], anchor="rm")
    # The name stays clear of the symbiosis badge below its right end ("Echoseeschlange" ran under it at 27 px).
    name_font = kit.font(_fit(str(card["name"]), CARD_W - 64, 27, "semibold", 18), "semibold")
    draw.text((x + 10, y + 58), str(card["name"]), font=name_font, fill=kit.INK)
    points = translate("monster.board.card_points", lang, points=card["vp"], caged=card["caged_vp"])
    draw.text((x + 10, y + 92), points, font=kit.font(_fit(points, CARD_W - 60, 24, "regular", 16)), fill=kit.INK)
    symbiosis_badge(draw, (x + CARD_W - 26, y + 106), str(card.get("symbiosis")), lang=lang)
    ability = _ability(card, lang)
    if ability:
        draw.text((x + 10, y + 136), ability, font=kit.font(_fit(ability, CARD_W - 20, 23, "regular", 18)),
                  fill=kit.ORANGE)
    crest = card.get("crest")
    if crest is not None:  # the crest owner's token (colour, shape and letter) in the band, clear of the text
        draw.ellipse((x + 84 - 22, y + 25 - 22, x + 84 + 22, y + 25 + 22), fill=kit.PANEL)  # stands out on any band
        kit.draw_token(draw, (x + 84, y + 25), 18, kit.player_style(int(crest)), outline=kit.INK, width=2)


def _die(draw: kit.Draw, x: int, y: int, die: dict[str, Any], faded: bool = False,
         banked: bool = False) -> None:
    """A die of the detail board's tray: the kit's drawn die (pips on a black die, the number on a coloured one)."""
    colour = str(die["colour"])
    fill, ink = DIE_COLOURS.get(colour, DIE_COLOURS["black"])
    state = "lost" if faded else "banked" if banked else "rolled"
    face = kit.die_face(DIE, int(die["value"]), fill, ink, colour == "black", state, kit.PANEL)
    kit.paste(draw.canvas, face, (x - 3, y - 3))


def _section_title(draw: kit.Draw, y: int, title: str, right: str = "") -> int:
    draw.text((MARGIN, y), title, font=kit.font(30, "bold"), fill=kit.INK)
    if right:
        draw.text((kit.WIDTH - MARGIN, y + 4), right, font=kit.font(26), fill=kit.INK_MUTED, anchor="ra")
    return y + 44


def _display_height(count: int) -> int:
    rows = max(1, (count + 4) // 5)
    return 44 + rows * (CARD_H + CARD_GAP)


def _draw_display(draw: kit.Draw, y: int, view: MonsterView) -> int:
    lang = language(view)
    facts = [translate("monster.board.deck", lang, count=view["deck_size"]),
             translate("monster.board.reserve", lang, count=view["reserve_size"]),
             translate("monster.board.round", lang, round=view["round"])]
    if view.get("last_round"):
        facts.append(translate("monster.board.last_round", lang))
    y = _section_title(draw, y, translate("monster.board.wilderness", lang,
                                          cards=counted("card", len(view["display"]), lang)), " · ".join(facts))
    if not view["display"]:
        draw.text((MARGIN, y + 10), translate("monster.board.display_empty", lang), font=kit.font(26),
                  fill=kit.INK_MUTED)
    for index, card in enumerate(view["display"]):
        col, row = index % 5, index // 5
        _card(draw, MARGIN + col * (CARD_W + CARD_GAP), y + row * (CARD_H + CARD_GAP), card, lang)
    return y + max(1, (len(view["display"]) + 4) // 5) * (CARD_H + CARD_GAP)


def _draw_tray(draw: kit.Draw, y: int, view: MonsterView) -> int:
    tray = view["tray"]
    lang = language(view)
    kit.rounded_panel(draw, (MARGIN, y, kit.WIDTH - MARGIN, y + 170))
    region = tray.get("region")
    if region is None:
        draw.text((MARGIN + 20, y + 20), translate("monster.board.no_hunt_tray", lang), font=kit.font(28, "semibold"),
                  fill=kit.INK_MUTED)
        return y + 170 + 16
    title = translate("monster.board.hunting_from", lang, region=region_label(region, lang),
                      total=tray["banked_total"])
    if tray.get("remaining") is not None:
        title = translate("monster.board.hunt_value", lang, region=region_label(region, lang),
                          value=tray["hunting_value"], left=tray["remaining"])
    if tray.get("misthrows"):
        title += translate_plural("monster.board.misthrows", int(tray["misthrows"]), lang)
    title, face = kit.fitted(title, kit.WIDTH - 2 * MARGIN - 40, 28, "semibold", 18)
    draw.text((MARGIN + 20, y + 12), title, font=face, fill=kit.INK)
    row_y = y + 60
    banked_word = translate("monster.board.banked", lang)
    draw.text((MARGIN + 20, row_y + DIE / 2), banked_word, font=kit.font(24), fill=kit.INK_MUTED, anchor="lm")
    x = max(MARGIN + 120, MARGIN + 20 + _width(banked_word, 24) + 16)
    for die in tray["banked"]:
        _die(draw, x, row_y, die, banked=True)
        x += DIE + 8
    for die in tray["lost"]:
        _die(draw, x, row_y, die, faded=True)
        x += DIE + 8
    x = max(x + 30, 700)
    if tray["rolled"]:
        rolled_word = translate("monster.board.rolled", lang)
        draw.text((x, row_y + DIE / 2), rolled_word, font=kit.font(24), fill=kit.INK_MUTED, anchor="lm")
        x += max(86, _width(rolled_word, 24) + 16)
        for die in tray["rolled"]:
            if x + DIE > kit.WIDTH - MARGIN - 10:
                break
            _die(draw, x, row_y, die)
            x += DIE + 8
    used = ", ".join(str(n) for n in tray["banked_numbers"]) or translate("monster.board.none", lang)
    note = translate("monster.board.numbers_used", lang, numbers=used)
    if tray["lost"]:
        note += translate("monster.board.struck_out", lang)
    note, face = kit.fitted(note, kit.WIDTH - 2 * MARGIN - 40, 22, "regular", 16)
    draw.text((MARGIN + 20, y + 132), note, font=face, fill=kit.INK_MUTED)
    return y + 170 + 16


CHIPS_PER_ROW, CHIP_ROW, CHIP_H = 2, 54, 48
"""A player's monsters on the detail board: two to a row, so each name and its points are drawn at least at the
phone's smallest size for a 1280 px image (29 px: 9 px once shown 400 wide; four to a row made them ~4 px)."""
CHIP_TEXT = kit.min_sizes(kit.WIDTH)[0]


def _player_height(player: dict[str, Any]) -> int:
    rows = max(1, -(-len(player["monsters"]) // CHIPS_PER_ROW))
    return 178 + rows * CHIP_ROW + 8


def _draw_player(draw: kit.Draw, y: int, player: dict[str, Any], active: bool, score: str,
                 show_crests: bool, lang: str = DEFAULT_LANGUAGE) -> int:
    height = _player_height(player)
    style = kit.player_style(int(player["seat"]))
    kit.rounded_panel(draw, (MARGIN, y, kit.WIDTH - MARGIN, y + height),
                      outline=style.colour if active else None, width=4)
    kit.draw_token(draw, (MARGIN + 34, y + 34), 20, style)
    name, name_face = kit.fitted(translate("monster.board.player_set", lang, name=player["name"], set=player["set"]),
                                 420, 30, "bold", 16)
    draw.text((MARGIN + 66, y + 16), name, font=name_face, fill=kit.INK)
    if active:  # the outline is in the player's colour; the word says it for everyone
        left = MARGIN + 66 + kit.measure(name, int(name_face.size), "bold") + 16
        to_play = translate("monster.board.to_play", lang)
        badge = max(104, _width(to_play, 22, "bold") + 20)
        draw.rounded_rectangle((left, y + 16, left + badge, y + 50), radius=8, fill=kit.INK)
        draw.text((left + badge / 2, y + 33), to_play, font=kit.font(22, "bold"), fill=kit.INK_DARK, anchor="mm")
    facts = f"{score} · " + translate_plural("monster.count.symbiosis_set", int(player["symbiosis_sets"]), lang)
    if show_crests:
        facts += " · " + counted("crest", int(player["crests"]), lang)
    draw.text((kit.WIDTH - MARGIN - 20, y + 20), facts, font=kit.font(24, "semibold"), fill=kit.INK, anchor="ra")
    camp_w = (kit.WIDTH - 2 * MARGIN - 40 - 2 * 12) // 3
    for index, region in enumerate(("aerie", "depths", "forest")):
        camp = player["camps"][region]
        cx = MARGIN + 20 + index * (camp_w + 12)
        cy = y + 62
        kit.rounded_panel(draw, (cx, cy, cx + camp_w, cy + 104), fill=kit.PANEL_LIGHT, radius=10)
        draw.rectangle((cx, cy + 8, cx + 10, cy + 96), fill=REGION_COLOURS[region])
        title, face = kit.fitted(translate("monster.board.camp_side", lang, region=region_label(region, lang),
                                           side=camp["side"]), camp_w - 34, 26, "bold", 18)
        draw.text((cx + 22, cy + 8), title, font=face, fill=kit.INK)
        draw.text((cx + 22, cy + 42), camp_level(camp, lang), font=kit.font(24), fill=kit.INK)
        dice = translate("monster.board.camp_dice", lang, die=translate(DIE_WORDS[str(camp["die"])], lang),
                         black=camp["black"])
        bonus = (translate("monster.board.bonus", lang, value=camp["bonus"]) if camp.get("bonus")
                 else translate("monster.board.no_bonus", lang))
        line, face = kit.fitted(dice + bonus, camp_w - 34, 22, "regular", 16)
        draw.text((cx + 22, cy + 72), line, font=face, fill=kit.ORANGE if camp.get("bonus") else kit.INK_MUTED)
    chip_y = y + 178
    if not player["monsters"]:
        draw.text((MARGIN + 20, chip_y), translate("monster.board.no_monsters", lang), font=kit.font(CHIP_TEXT),
                  fill=kit.INK_MUTED)
    chip_w = (kit.WIDTH - 2 * MARGIN - 40 - (CHIPS_PER_ROW - 1) * 10) // CHIPS_PER_ROW
    middle = CHIP_H // 2
    for index, monster in enumerate(player["monsters"]):
        col, row = index % CHIPS_PER_ROW, index // CHIPS_PER_ROW
        mx, my = MARGIN + 20 + col * (chip_w + 10), chip_y + row * CHIP_ROW
        monster_region = str(monster["region"])
        draw.rounded_rectangle((mx, my, mx + chip_w, my + CHIP_H), radius=8, fill=kit.PANEL_LIGHT)
        draw.rounded_rectangle((mx, my, mx + 40, my + CHIP_H), radius=8, fill=REGION_COLOURS[monster_region])
        draw.text((mx + 20, my + middle), region_letter(monster_region, lang), font=kit.font(CHIP_TEXT, "bold"),
                  fill=REGION_INK[monster_region], anchor="mm")
        symbiosis_badge(draw, (mx + 66, my + middle), str(monster["symbiosis"]), radius=20, lang=lang)
        label, face = kit.fitted(f"{monster['name']} {monster['vp']}", chip_w - 100, CHIP_TEXT + 1, "regular",
                                 CHIP_TEXT)
        draw.text((mx + 96, my + middle), label, font=face, fill=kit.INK, anchor="lm")
    return y + height + 12


def _solo_lines(solo: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The expedition panel's text, wrapped to the panel: goal, progress, then the special rules."""
    progress = solo.get("progress_text") or ""
    facts = [translate("monster.board.progress", lang, progress=progress).rstrip(),
             translate("monster.board.lose_at", lang, count=solo["loss_display"])]
    if solo.get("crate_value"):
        facts.append(translate("monster.board.crates", lang, crates=solo["crates"], value=solo["crate_value"]))
    lines = [translate("monster.board.goal", lang, goal=solo["victory"]), " · ".join(facts),
             *solo.get("special_rules", [])]
    return [w for line in lines for w in _wrap(line, kit.WIDTH - 2 * MARGIN - 40, 24)]


def _solo_height(solo: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> int:
    return 62 + 32 * len(_solo_lines(solo, lang)) + 16


def _draw_solo(draw: kit.Draw, y: int, solo: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> int:
    wrapped = _solo_lines(solo, lang)
    height = _solo_height(solo, lang) - 16
    kit.rounded_panel(draw, (MARGIN, y, kit.WIDTH - MARGIN, y + height), outline=kit.ORANGE, width=3)
    title, face = kit.fitted(translate("monster.board.expedition_title", lang, number=solo["expedition"],
                                       title=solo["title"]), kit.WIDTH - 2 * MARGIN - 40, 30, "bold", 18)
    draw.text((MARGIN + 20, y + 12), title, font=face, fill=kit.ORANGE)
    for index, line in enumerate(wrapped):
        draw.text((MARGIN + 20, y + 56 + 32 * index), line, font=kit.font(24), fill=kit.INK)
    return y + height + 16


LEGEND_H = 40


def _draw_legend(draw: kit.Draw, y: int, show_crests: bool, lang: str = DEFAULT_LANGUAGE) -> int:
    """One line that explains the symbols: symbiosis letters, region letters and the crest tokens."""
    face = kit.font(22)
    x = MARGIN
    heading = translate("monster.board.symbiosis", lang)
    draw.text((x, y + 18), heading, font=face, fill=kit.INK_MUTED, anchor="lm")
    x += _width(heading, 22) + 22
    for symbol in ("red", "purple", "white", "wild"):
        word = (translate("monster.board.wild_any", lang) if symbol == "wild"
                else translate(SYMBIOSIS_WORDS[symbol], lang))
        symbiosis_badge(draw, (x, y + 18), symbol, radius=14, lang=lang)
        draw.text((x + 20, y + 18), word, font=face, fill=kit.INK_MUTED, anchor="lm")
        x += 20 + _width(word, 22) + 30
    text = translate("monster.board.region_legend", lang)
    draw.text((x - 8, y + 18), text, font=face, fill=kit.INK_MUTED, anchor="lm")
    x += _width(text, 22) + 14
    if show_crests:
        crest = translate("monster.board.crest", lang)
        draw.text((x, y + 18), crest, font=face, fill=kit.INK_MUTED, anchor="lm")
        x += _width(crest, 22) + 22
        kit.draw_token(draw, (x, y + 18), 14, kit.player_style(0), outline=kit.INK, width=2)
        draw.text((x + 20, y + 18), translate("monster.board.its_owner", lang), font=face, fill=kit.INK_MUTED,
                  anchor="lm")
    return y + LEGEND_H


def _result_lines(view: MonsterView) -> tuple[str, list[str], bool]:
    text = result_headline(view)
    lang = language(view)
    if view["mode"] == "solo":
        solo = view["solo"]
        won = solo["outcome"] == "won"
        detail = solo["reason"][:1].upper() + solo["reason"][1:]
    else:
        result = view["result"]
        names = [p["name"] for p in view["players"]]
        detail = " · ".join(translate("monster.summary.score", lang, who=names[s],
                                      points=translate("monster.vp", lang, points=result["scores"][s]),
                                      monsters=result["monster_points"][s], cages=result["cage_points"][s])
                            for s in ranked_seats(view))
        if result.get("tie_break_used"):
            detail += translate("monster.board.tie_broken", lang)
        won = True
    return text, list(_wrap(detail, kit.WIDTH - 2 * MARGIN - 40, 26, "semibold")), won


def _result_height(view: MonsterView) -> int:
    return 86 + 34 * len(_result_lines(view)[1]) + 16


def _draw_result(draw: kit.Draw, y: int, view: MonsterView) -> int:
    text, lines, won = _result_lines(view)
    height = _result_height(view) - 16
    kit.rounded_panel(draw, (MARGIN, y, kit.WIDTH - MARGIN, y + height), fill=kit.GOOD if won else kit.BAD)
    text, face = kit.fitted(text, kit.WIDTH - 2 * MARGIN - 40, 40, "bold", 24)  # (a long name shrinks)
    draw.text((MARGIN + 20, y + 14), text, font=face, fill=kit.INK_DARK)
    for index, line in enumerate(lines):
        draw.text((MARGIN + 20, y + 72 + 34 * index), line, font=kit.font(26, "semibold"), fill=kit.INK_DARK)
    return y + height + 16


def _draw_solo_header(draw: kit.Draw, view: MonsterView, turn_style: kit.PlayerStyle | None) -> int:
    """The header band with the expedition's goal progress across the full width instead of a score column."""
    bottom = kit.header_band(draw, kit.WIDTH, view.get("title", "Monster Expedition"), _headline(view),
                             str(view.get("last_move") or ""), turn_style, [])
    draw.rectangle((0, bottom, kit.WIDTH, bottom + SOLO_ROW), fill=kit.PANEL)
    score = view["scores"][0]
    kit.draw_token(draw, (MARGIN + 16, bottom - 20), 16, kit.player_style(0))
    label = f"{score['name']}  {score['text']}"
    label, face = kit.fitted(label, kit.WIDTH - 2 * MARGIN - 44, 28, "semibold", 16)
    draw.text((MARGIN + 40, bottom - 36), label, font=face, fill=kit.INK)
    return bottom + SOLO_ROW


SOLO_ROW = 8


def _headline(view: MonsterView) -> str:
    """The header's big line: whose turn and what to do, or at the end just who won (the scores are below it)."""
    if not view.get("over") or view["mode"] == "solo":
        return str(view["turn"])
    return translate("monster.board.game_over", language(view), result=result_headline(view))


def render_detail(view: MonsterView) -> bytes:
    """The full-size detail board as a PNG, 1280 px wide, from the public view: every card, camp and monster."""
    return kit.encode_detail(detail_image(view))


def detail_image(view: MonsterView) -> Image.Image:
    """The detail board drawn, in the boards' palette (`render_detail` encodes it)."""
    view = localized(view)
    lang = language(view)
    players = view["players"]
    solo = view.get("solo")
    standard = view["mode"] == "standard"
    header = 150 + SOLO_ROW if solo else 150 + 44 * ((len(view["scores"]) + 2) // 3)
    height = header + 16 + (_result_height(view) if view.get("over") else 0)
    height += _display_height(len(view["display"])) + LEGEND_H + 12 + (0 if view.get("over") else 186)
    height += sum(_player_height(p) + 12 for p in players)
    if solo:
        height += _solo_height(solo, lang)
    height += 16
    image, draw = kit.new_canvas(height)
    active = view.get("active")
    turn_style = kit.player_style(int(active)) if active is not None else None
    if solo:
        y = _draw_solo_header(draw, view, turn_style) + 16
    else:
        scores = [(kit.player_style(int(s["seat"])), str(s["name"]), str(s["text"])) for s in view["scores"]]
        y = kit.header_band(draw, kit.WIDTH, view.get("title", "Monster Expedition"), _headline(view),
                            str(view.get("last_move") or ""), turn_style, scores) + 16
    if view.get("over"):
        y = _draw_result(draw, y, view)
    if solo:
        y = _draw_solo(draw, y, solo, lang)
    y = _draw_display(draw, y, view)
    y = _draw_legend(draw, y, standard, lang) + 12
    if not view.get("over"):  # at the end the dice no longer matter
        y = _draw_tray(draw, y, view)
    by_seat = {int(p["seat"]): p for p in players}
    for player in (by_seat[s] for s in ranked_seats(view)):  # at the end, best first
        score_text = next((s["text"] for s in view["scores"] if s["seat"] == player["seat"]), "")
        if not standard:
            score_text = counted("cage", int(player["cages"]), lang)
        y = _draw_player(draw, y, player, standard and player["seat"] == active, score_text, standard, lang)
    return image.crop((0, 0, kit.WIDTH, min(height, y + 8)))
