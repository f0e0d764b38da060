"""Monster Expedition's board image: display, dice tray, camps and scores, drawn from the public view only."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT_LANGUAGE, counted, deferred, language_of
from rendering import kit
from rendering.caches import lru_bytes
from rendering.wording import translate, translate_plural

REGION_COLOURS = {"aerie": kit.YELLOW, "depths": kit.BLUE, "forest": kit.BLUISH_GREEN, "all": kit.REDDISH_PURPLE}
REGION_INK = {"aerie": kit.INK_DARK, "depths": kit.INK, "forest": kit.INK_DARK, "all": kit.INK_DARK}
REGION_LABEL = {"aerie": deferred("region.aerie"), "depths": deferred("region.depths"),
                "forest": deferred("region.forest"), "all": deferred("region.all")}
"""The rulebook's region names (a card's band and the phone board's camp line use the short ones)."""
REGION_SHORT = {"aerie": deferred("region.aerie"), "depths": deferred("region.depths"),
                "forest": deferred("monster.region.forest_short"), "all": deferred("monster.region.all_short")}
FINAL_LEVEL = 8


def language(view: dict[str, Any]) -> str:
    """The table's language, which every word on the board is in (English when the view does not say)."""
    return language_of(view.get("language") or DEFAULT_LANGUAGE)


def region_label(region: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return translate(REGION_LABEL[region], lang)


def region_short(region: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return translate(REGION_SHORT[region], lang)


def region_letter(region: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The letter on a card's band and a camp chip: A/D/F in English, H/T/Z in German; * for all regions."""
    return translate(REGION_LETTERS[region], lang) if region in REGION_LETTERS else "*"


def camp_level(camp: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """A camp's equipment level, written as the messages write it: "level 3 of 8", "level 8 of 8 (final)"."""
    message = deferred("monster.camp_level.final") if camp["final"] else deferred("monster.camp_level")
    return translate(message, lang, level=int(camp["level"]), final=FINAL_LEVEL)


def camp_levels(player: dict[str, Any], board: bool = False, lang: str = DEFAULT_LANGUAGE) -> str:
    """Every camp's level in one line: "camp levels: Aerie 4, Depths 6, Forest 8 (final)" (on a board, a level
    and its "(final)" never split over two lines)."""
    final = ("\u00a0" if board else " ") + translate("monster.board.final", lang)
    return translate("monster.board.camp_levels", lang, camps=", ".join(
        f"{region_short(r, lang)} {c['level']}" + (final if c["final"] else "") for r, c in player["camps"].items()))


def localized(view: dict[str, Any]) -> dict[str, Any]:
    """The view with its sentences and card names in the table's language (the game's view carries every
    language's words; its own fields are English)."""
    lang = language(view)
    if lang == DEFAULT_LANGUAGE or view.get("localized") == lang:
        return view
    shown = {**view, "localized": lang}
    words = (view.get("words") or {}).get(lang)
    if words:
        shown["turn"] = view["turn"] if view.get("closed") else words["turn"]
        if view.get("last_move") == words.get("english_last_move"):  # the service did not tell the move itself
            shown["last_move"] = words["last_move"]
        shown["log"] = words["log"]
        shown["scores"] = [{**score, "text": text} for score, text in zip(view["scores"], words["scores"],
                                                                           strict=False)]
        if view.get("solo") and words.get("solo"):
            shown["solo"] = {**view["solo"], **words["solo"]}
    shown["display"] = [_card_in(card, lang) for card in view["display"]]
    shown["players"] = [{**player, "monsters": [_card_in(c, lang) for c in player["monsters"]],
                         "cages_revealed": [_card_in(c, lang) for c in player.get("cages_revealed", [])]}
                        for player in view["players"]]
    return shown


def _card_in(card: dict[str, Any], lang: str) -> dict[str, Any]:
    names = card.get("names") or {}
    texts = card.get("ability_texts") or {}
    return {**card, "name": names.get(lang, card.get("name")), "ability_text": texts.get(lang, "")}
DIE_COLOURS = {"yellow": (kit.YELLOW, kit.INK_DARK), "blue": (kit.BLUE, kit.INK), "green": (kit.BLUISH_GREEN,
                                                                                             kit.INK_DARK),
               "black": (kit.DIE_BLACK, kit.INK)}
DIE_WORDS = {"yellow": deferred("monster.colour.yellow"), "blue": deferred("monster.colour.blue"),
             "green": deferred("monster.colour.green"), "black": deferred("monster.colour.black")}
SYMBIOSIS_COLOURS = {"red": kit.VERMILLION, "purple": kit.REDDISH_PURPLE, "white": kit.INK}
TRADER_FRAME = kit.INK_MUTED
"""The Monster Trader belongs to nobody: framed in a neutral colour, never a player's."""

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


SYMBIOSIS_LETTERS = {"red": deferred("monster.letter.red"), "purple": deferred("monster.letter.purple"),
                     "white": deferred("monster.letter.white")}
"""Each symbiosis symbol carries a letter as well as its colour, so no player has to tell the colours apart
(R/P/W in English, R/L/W in German; the split wild one a star)."""
REGION_LETTERS = {"aerie": deferred("monster.letter.aerie"), "depths": deferred("monster.letter.depths"),
                  "forest": deferred("monster.letter.forest")}
SYMBIOSIS_WORDS = {"red": deferred("monster.symbiosis.red"), "purple": deferred("monster.symbiosis.purple"),
                   "white": deferred("monster.symbiosis.white"), "wild": deferred("monster.symbiosis.wild")}


def _symbiosis_badge(draw: ImageDraw.ImageDraw, centre: tuple[int, int], symbol: str, radius: int = 17,
                     lang: str = DEFAULT_LANGUAGE) -> None:
    """A symbiosis symbol: a disc in its colour with its letter (R, P, W); the split wild one shows all three
    colours and a star."""
    x, y = centre
    box = (x - radius, y - radius, x + radius, y + radius)
    if symbol == "wild":  # the split symbol: every colour at once
        for index, colour in enumerate(SYMBIOSIS_COLOURS.values()):
            draw.pieslice(box, start=-90 + 120 * index, end=30 + 120 * index, fill=colour)
        inner = radius * 0.66
        draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=kit.INK)
    elif symbol in SYMBIOSIS_COLOURS:
        draw.ellipse(box, fill=SYMBIOSIS_COLOURS[symbol])
    else:
        return
    draw.ellipse(box, outline=kit.INK_DARK, width=2)
    kit.mark("symbiosis", box)
    letter = translate(SYMBIOSIS_LETTERS[symbol], lang) if symbol in SYMBIOSIS_LETTERS else "*"
    size = int(radius * (2.1 if symbol == "wild" else 1.25))
    dy = radius * 0.42 if symbol == "wild" else 0  # an asterisk sits high in the font
    draw.text((x, y + dy), letter, font=kit.font(size, "bold"), fill=kit.INK_DARK, anchor="mm", role="label")


def _trader_offer(card: dict[str, Any], lang: str) -> str:
    return translate("monster.board.trader_offer", lang, cages=counted("cage", 6, lang), cost=card.get("cost", 40))


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> None:
    if card.get("kind") == "trader":
        kit.rounded_panel(draw, (x, y, x + CARD_W, y + CARD_H), fill=kit.PANEL_LIGHT, outline=TRADER_FRAME, width=3)
        draw.text((x + CARD_W / 2, y + 40), translate("monster.board.trader_top", lang), font=kit.font(30, "bold"),
                  fill=kit.INK, anchor="mm")
        draw.text((x + CARD_W / 2, y + 74), translate("monster.board.trader_bottom", lang),
                  font=kit.font(30, "bold"), fill=kit.INK, anchor="mm")
        draw.text((x + CARD_W / 2, y + 124), _trader_offer(card, lang), font=kit.font(26, "semibold"),
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
    _symbiosis_badge(draw, (x + CARD_W - 26, y + 106), str(card.get("symbiosis")), lang=lang)
    ability = _ability(card, lang)
    if ability:
        draw.text((x + 10, y + 136), ability, font=kit.font(_fit(ability, CARD_W - 20, 23, "regular", 18)),
                  fill=kit.ORANGE)
    crest = card.get("crest")
    if crest is not None:  # the crest owner's token (colour, shape and letter) in the band, clear of the text
        draw.ellipse((x + 84 - 22, y + 25 - 22, x + 84 + 22, y + 25 + 22), fill=kit.PANEL)  # stands out on any band
        kit.draw_token(draw, (x + 84, y + 25), 18, kit.player_style(int(crest)), outline=kit.INK, width=2)


def _die(draw: ImageDraw.ImageDraw, x: int, y: int, die: dict[str, Any], faded: bool = False,
         banked: bool = False) -> None:
    """A die of the detail board's tray: the kit's drawn die (pips on a black die, the number on a coloured one)."""
    colour = str(die["colour"])
    fill, ink = DIE_COLOURS.get(colour, DIE_COLOURS["black"])
    state = "lost" if faded else "banked" if banked else "rolled"
    face = kit.die_face(DIE, int(die["value"]), fill, ink, colour == "black", state, kit.PANEL)
    kit.paste(draw._image, face, (x - 3, y - 3))  # type: ignore[attr-defined]


def _section_title(draw: ImageDraw.ImageDraw, y: int, title: str, right: str = "") -> int:
    draw.text((MARGIN, y), title, font=kit.font(30, "bold"), fill=kit.INK)
    if right:
        draw.text((kit.WIDTH - MARGIN, y + 4), right, font=kit.font(26), fill=kit.INK_MUTED, anchor="ra")
    return y + 44


def _display_height(count: int) -> int:
    rows = max(1, (count + 4) // 5)
    return 44 + rows * (CARD_H + CARD_GAP)


def _draw_display(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> int:
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


def _draw_tray(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> int:
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


def _player_height(player: dict[str, Any]) -> int:
    rows = max(1, (len(player["monsters"]) + 3) // 4)
    return 178 + rows * 40 + 8


def _draw_player(draw: ImageDraw.ImageDraw, y: int, player: dict[str, Any], active: bool, score: str,
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
        draw.text((MARGIN + 20, chip_y), translate("monster.board.no_monsters", lang), font=kit.font(22),
                  fill=kit.INK_MUTED)
    chip_w = (kit.WIDTH - 2 * MARGIN - 40 - 3 * 10) // 4
    for index, monster in enumerate(player["monsters"]):
        col, row = index % 4, index // 4
        mx, my = MARGIN + 20 + col * (chip_w + 10), chip_y + row * 40
        monster_region = str(monster["region"])
        draw.rounded_rectangle((mx, my, mx + chip_w, my + 34), radius=8, fill=kit.PANEL_LIGHT)
        draw.rounded_rectangle((mx, my, mx + 26, my + 34), radius=8, fill=REGION_COLOURS[monster_region])
        draw.text((mx + 13, my + 17), region_letter(monster_region, lang), font=kit.font(20, "bold"),
                  fill=REGION_INK[monster_region], anchor="mm")
        _symbiosis_badge(draw, (mx + 44, my + 17), str(monster["symbiosis"]), radius=14, lang=lang)
        label, face = kit.fitted(f"{monster['name']} {monster['vp']}", chip_w - 70, 22, "regular", 13)
        draw.text((mx + 64, my + 17), label, font=face, fill=kit.INK, anchor="lm")
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


def _draw_solo(draw: ImageDraw.ImageDraw, y: int, solo: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> int:
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


def _draw_legend(draw: ImageDraw.ImageDraw, y: int, show_crests: bool, lang: str = DEFAULT_LANGUAGE) -> int:
    """One line that explains the symbols: symbiosis letters, region letters and the crest tokens."""
    face = kit.font(22)
    x = MARGIN
    heading = translate("monster.board.symbiosis", lang)
    draw.text((x, y + 18), heading, font=face, fill=kit.INK_MUTED, anchor="lm")
    x += _width(heading, 22) + 22
    for symbol in ("red", "purple", "white", "wild"):
        word = (translate("monster.board.wild_any", lang) if symbol == "wild"
                else translate(SYMBIOSIS_WORDS[symbol], lang))
        _symbiosis_badge(draw, (x, y + 18), symbol, radius=14, lang=lang)
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


def _result_headline(view: dict[str, Any]) -> str:
    """The result in one line: who won, or whether the solo expedition was won."""
    lang = language(view)
    if view["mode"] == "solo":
        solo = view["solo"]
        message = (deferred("monster.board.expedition_won") if solo["outcome"] == "won"
                   else deferred("monster.board.expedition_lost"))
        return translate(message, lang, number=solo["expedition"])
    winners = ""
    for seat in view["result"]["winners"]:
        name = view["players"][seat]["name"]
        winners = translate("monster.and", lang, first=winners, second=name) if winners else name
    message = (deferred("monster.board.wins_one") if len(view["result"]["winners"]) == 1
               else deferred("monster.board.wins_many"))
    return translate(message, lang, winners=winners)


def _result_lines(view: dict[str, Any]) -> tuple[str, list[str], bool]:
    text = _result_headline(view)
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
                            for s in _ranked_seats(view))
        if result.get("tie_break_used"):
            detail += translate("monster.board.tie_broken", lang)
        won = True
    return text, list(_wrap(detail, kit.WIDTH - 2 * MARGIN - 40, 26, "semibold")), won


def _place(view: dict[str, Any], seat: int) -> int:
    """A seat's place on the final board: behind every seat with more points, or as many points and higher camps in
    all (the rulebook's tie-break); seats tied on both share a place, as they share the win."""
    levels = view["result"].get("camp_levels") or [0] * len(view["scores"])

    def key(other: int) -> tuple[int, int]:
        return int(view["result"]["scores"][other]), int(levels[other])

    return 1 + sum(1 for other in range(len(view["result"]["scores"])) if key(other) > key(seat))


def _ranked_seats(view: dict[str, Any]) -> list[int]:
    """The seats in the order the final results list them: best first as the game ranks them (seat order before
    the end, or when the view has no ranking)."""
    seats = [int(p["seat"]) for p in view["players"]]
    ranking = view.get("ranking") if view.get("over") else None
    return [int(s) for s in ranking] if ranking and sorted(ranking) == sorted(seats) else seats


def _result_height(view: dict[str, Any]) -> int:
    return 86 + 34 * len(_result_lines(view)[1]) + 16


def _draw_result(draw: ImageDraw.ImageDraw, y: int, view: dict[str, Any]) -> int:
    text, lines, won = _result_lines(view)
    height = _result_height(view) - 16
    kit.rounded_panel(draw, (MARGIN, y, kit.WIDTH - MARGIN, y + height), fill=kit.GOOD if won else kit.BAD)
    text, face = kit.fitted(text, kit.WIDTH - 2 * MARGIN - 40, 40, "bold", 24)  # (a long name shrinks)
    draw.text((MARGIN + 20, y + 14), text, font=face, fill=kit.INK_DARK)
    for index, line in enumerate(lines):
        draw.text((MARGIN + 20, y + 72 + 34 * index), line, font=kit.font(26, "semibold"), fill=kit.INK_DARK)
    return y + height + 16


def _draw_solo_header(draw: ImageDraw.ImageDraw, view: dict[str, Any], turn_style: kit.PlayerStyle | None) -> int:
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


def _headline(view: dict[str, Any]) -> str:
    """The header's big line: whose turn and what to do, or at the end just who won (the scores are below it)."""
    if not view.get("over") or view["mode"] == "solo":
        return str(view["turn"])
    return translate("monster.board.game_over", language(view), result=_result_headline(view))


def render_detail(view: dict[str, Any]) -> bytes:
    """The full-size detail board as a PNG, 1280 px wide, from the public view: every card, camp and monster."""
    return kit.encode_detail(detail_image(view))


def detail_image(view: dict[str, Any]) -> Image.Image:
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
    for player in (by_seat[s] for s in _ranked_seats(view)):  # at the end, best first
        score_text = next((s["text"] for s in view["scores"] if s["seat"] == player["seat"]), "")
        if not standard:
            score_text = counted("cage", int(player["cages"]), lang)
        y = _draw_player(draw, y, player, standard and player["seat"] == active, score_text, standard, lang)
    return image.crop((0, 0, kit.WIDTH, min(height, y + 8)))


# --- the public board: 800 x 640 for every mode and player count, read on a phone -----------------------------

P_W, P_H = kit.PHONE_WIDTH, 640
P_CARD_W, P_CARD_H, P_GAP = 148, 100, 8
P_COLUMNS, P_ROWS = 5, 2
SMALL, BIG = kit.SMALL, kit.BIG


def _p_text(draw: kit.Draw, x: float, y: float, text: str, width: int, fill: str = kit.INK,
            weight: str = "regular", size: int = SMALL, role: str = "text") -> float:
    """Wrapped text (never cut; a monster's points stay beside it); returns the y below it."""
    for line in kit.lines(text, width, size, weight):
        draw.text((x, y), line, font=kit.font(size, weight), fill=fill, role=role)
        y += size + 4
    return y


@lru_cache(maxsize=512)
def _p_card_face(card_key: tuple[Any, ...]) -> kit.Face:
    """A display card at phone size, built once per process: level, region, symbiosis, whole name, points."""
    image = Image.new("RGB", (P_CARD_W, P_CARD_H), kit.PANEL_LIGHT)
    with kit.building(image) as drawn:
        _p_draw_card(kit.Draw(image), dict(card_key))
    return kit.Face(image, drawn)


def _p_draw_card(draw: kit.Draw, card: dict[str, Any]) -> None:
    lang = language(card)
    if card.get("kind") == "trader":
        draw.rectangle((0, 0, P_CARD_W - 1, P_CARD_H - 1), outline=TRADER_FRAME, width=3)
        # (the lines sit high: an affordable trader gets the tick in the bottom right corner, clear of its price)
        draw.text((P_CARD_W / 2, 19), translate("monster.board.trader_top", lang), font=kit.font(BIG, "bold"),
                  fill=kit.INK, anchor="mm", role="name")
        draw.text((P_CARD_W / 2, 43), translate("monster.board.trader_bottom", lang), font=kit.font(BIG, "bold"),
                  fill=kit.INK, anchor="mm", role="name")
        offer, face = kit.fitted(_trader_offer(card, lang), P_CARD_W - 8, SMALL, "semibold", 14)
        draw.text((P_CARD_W / 2, 66), offer, font=face, fill=kit.INK, anchor="mm")
        return
    region = str(card.get("region"))
    draw.rectangle((0, 0, P_CARD_W, 30), fill=REGION_COLOURS[region])
    ink = REGION_INK[region]
    draw.text((6, 15), f"{card['level']} {region_letter(region, lang)}", font=kit.font(BIG, "bold"), fill=ink,
              anchor="lm")
    _symbiosis_badge(draw, (P_CARD_W - 18, 15), str(card.get("symbiosis")), radius=15, lang=lang)
    size, name = kit.fit_lines(str(card["name"]), P_CARD_W - 10, 2, (20, SMALL), "semibold")
    y = 34 if len(name) > 1 else 44
    for line in name[:2]:
        draw.text((5, y), line, font=kit.font(size, "semibold"), fill=kit.INK, role="card")
        y += size + 2
    points, face = kit.fitted(translate("monster.board.card_points", lang, points=card["vp"], caged=card["caged_vp"]),
                              P_CARD_W - 10, SMALL, "regular", 14)
    draw.text((5, P_CARD_H - 23), points, font=face, fill=kit.INK)


def _p_display(image: Image.Image, draw: kit.Draw, view: dict[str, Any], top: int, rows: int = P_ROWS) -> int:
    cards = view["display"]
    room = P_COLUMNS * rows
    shown = cards if len(cards) <= room else cards[: room - 1]
    affordable = set(view["tray"].get("affordable") or ())
    lang = language(view)
    for index, card in enumerate(shown):
        column, row = index % P_COLUMNS, index // P_COLUMNS
        x, y = 12 + column * (P_CARD_W + P_GAP), top + row * (P_CARD_H + P_GAP)
        key = tuple(sorted([*((k, v) for k, v in card.items() if k not in UNDRAWN), ("language", lang)]))
        kit.paste(image, _p_card_face(key), (x, y))
        crest = card.get("crest")
        if crest is not None:  # the crest owner's token in the band
            draw.ellipse((x + 82 - 20, y + 15 - 20, x + 82 + 20, y + 15 + 20), fill=kit.PANEL)
            kit.draw_token(draw, (x + 82, y + 15), 17, kit.player_style(int(crest)), outline=kit.INK, width=2)
        if card.get("id") in affordable:  # what the player to move can buy now: a frame and a tick
            draw.rectangle((x - 3, y - 3, x + P_CARD_W + 2, y + P_CARD_H + 2), outline=kit.GOOD_TEXT, width=3)
            _p_tick(draw, (x + P_CARD_W - 14, y + P_CARD_H - 13))
    if len(cards) > room:
        x, y = 12 + (P_COLUMNS - 1) * (P_CARD_W + P_GAP), top + (rows - 1) * (P_CARD_H + P_GAP)
        kit.rounded_panel(draw, (x, y, x + P_CARD_W, y + P_CARD_H), fill=kit.PANEL, radius=8)
        draw.text((x + P_CARD_W / 2, y + P_CARD_H / 2),
                  translate("monster.board.more", lang, count=len(cards) - room + 1), font=kit.font(BIG, "bold"),
                  fill=kit.INK, anchor="mm")
    if not cards:
        draw.text((12, top + 10), translate("monster.board.display_empty", lang), font=kit.font(SMALL),
                  fill=kit.INK_MUTED)
    kit.note_part("wilderness", (12, top, 12 + P_COLUMNS * (P_CARD_W + P_GAP) - P_GAP,
                                 top + rows * (P_CARD_H + P_GAP) - P_GAP))
    return _p_legend(draw, view, top + rows * (P_CARD_H + P_GAP) - 2)


def _p_tick(draw: kit.Draw, centre: tuple[float, float], radius: int = 11) -> None:
    """The mark of a card the player to move can afford: a tick in a green disc (shape and colour)."""
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=kit.GOOD_TEXT, outline=kit.INK_DARK)
    draw.line([(x - radius * 0.5, y), (x - radius * 0.1, y + radius * 0.45), (x + radius * 0.55, y - radius * 0.45)],
              fill=kit.INK_DARK, width=3)
    kit.mark("tick", (x - radius, y - radius, x + radius, y + radius))


def _p_legend(draw: kit.Draw, view: dict[str, Any], top: int) -> int:
    """What the cards' letters and badges mean, in one line under the display, and the deck on the right."""
    lang = language(view)
    y = top + 11
    key, x = _p_legend_key(lang, kit.in_palette(P_W))
    kit.blit(draw._image, key.face.image, (0, y - LEGEND_ABOVE), key.ink)  # type: ignore[attr-defined]
    kit.replay(key.face, (0, y - LEGEND_ABOVE))
    deck = translate("monster.board.phone_deck", lang, count=view["deck_size"])
    round_ = translate("monster.board.phone_round", lang, round=view["round"])
    last = [translate("monster.board.last_round", lang)] if view.get("last_round") else []
    # The longest that fits beside the legend: in the last round the deck is empty, so it goes first, then the round.
    choices = [" · ".join([deck, round_, *last]), " · ".join([round_, *last]), " · ".join(last or [round_])]
    if _marked(view, "deck"):  # a lesson points at the deck: it stays whatever else is left out
        choices = [" · ".join([deck, round_, *last]), " · ".join([deck, *last]), deck]
    facts = next((text for text in choices if x + kit.measure(text, SMALL, "semibold") <= P_W - 12), choices[-1])
    if not view.get("over") or _marked(view, "deck"):  # (the deck no longer matters at the end, but to a lesson)
        facts, face = kit.fitted(facts, P_W - 12 - int(x), SMALL, "semibold", 12)  # (a face of the fitted size)
        draw.text((P_W - 12, y), facts, font=face, fill=kit.INK, anchor="rm")
        kit.note_part("deck", (P_W - 12 - kit.measure(facts, face.size, "semibold"), y - 13, P_W - 12, y + 13))
    return top + 24


def _marked(view: dict[str, Any], part: str) -> bool:
    """Whether a lesson marks `part` on this board (rendering/parts.py): then the board draws it."""
    return any(mark.get("part") == part for mark in view.get("marks") or ())


LEGEND_ABOVE, LEGEND_BELOW = 15, 16
"""How far the legend's badges and words reach above and below its line's middle."""


@dataclass(frozen=True)
class LegendKey:
    """The legend's letters and badges, the same on every board of a language: drawn once on the background, with
    the mask of what they ink (pasted through it, the badges' tops leave the frame of an affordable card above them
    as drawing them there does)."""

    face: kit.Face
    ink: Image.Image


@lru_cache(maxsize=8)
def _p_legend_key(lang: str, in_palette: bool) -> tuple[LegendKey, int]:
    """The legend's key and the x where the facts beside it may start."""
    image = kit.new_layer((P_W, LEGEND_ABOVE + LEGEND_BELOW))  # (in the palette or not, as `in_palette` says)
    with kit.building(image) as drawn:
        x = _p_draw_legend_key(kit.Draw(image), LEGEND_ABOVE, lang)
    image = image.crop((0, 0, x, image.height))
    return LegendKey(kit.Face(image, drawn), kit.ink_mask(image)), x


def _p_draw_legend_key(draw: kit.Draw, y: int, lang: str) -> int:
    """The region letters and the symbiosis badges with their words, on the line whose middle is `y`."""
    face = kit.font(SMALL)
    x = 12
    text = translate("monster.board.phone_region_legend", lang)
    draw.text((x, y), text, font=face, fill=kit.INK_MUTED, anchor="lm")
    x += kit.measure(text, SMALL) + 20
    for symbol in ("red", "purple", "white", "wild"):
        word = translate(SYMBIOSIS_WORDS[symbol], lang)
        _symbiosis_badge(draw, (x, y), symbol, radius=15, lang=lang)
        draw.text((x + 19, y), word, font=face, fill=kit.INK_MUTED, anchor="lm")
        x += 19 + kit.measure(word, SMALL) + 20
    return x


HUNT_H = 52
DIE_PX = 40
"""The hunt band under the display: the dice drawn at 20 points on a phone."""


def _p_dice(image: Image.Image, dice: list[dict[str, Any]], x: float, y: int, state: str) -> float:
    for die in dice:
        if x + DIE_PX > P_W - 12:  # (no room left on the band)
            break
        colour = str(die["colour"])
        fill, ink = DIE_COLOURS.get(colour, DIE_COLOURS["black"])
        face = kit.die_face(DIE_PX, int(die["value"]), fill, ink, colour == "black", state)
        kit.paste(image, face, (round(x), y))
        x += face.image.width + 4
    return x


def _p_words(draw: kit.Draw, x: float, y: float, text: str, fill: str = kit.INK_MUTED,
             weight: str = "regular") -> float:
    """Words along the hunt band; never past its right edge (smaller there, or left out when nothing fits)."""
    room = P_W - 12 - x
    if kit.measure(text, SMALL, weight) <= room:
        draw.text((x, y), text, font=kit.font(SMALL, weight), fill=fill, anchor="lm")
        return x + kit.measure(text, SMALL, weight) + 8
    if room < 60:
        return P_W
    text, face = kit.fitted(text, int(room), SMALL, weight, 12)
    draw.text((x, y), text, font=face, fill=fill, anchor="lm")
    return x + room + 8


def _p_hunt(image: Image.Image, draw: kit.Draw, view: dict[str, Any], top: int) -> int:
    """The hunt drawn as dice: banked (framed), rolled, lost to a misthrow (struck out); while a player picks a
    camp, that player's three camps and the dice each would roll; while buying, what is left to spend."""
    tray = view["tray"]
    lang = language(view)
    region = tray.get("region")
    middle = top + HUNT_H // 2
    dice_y = middle - (DIE_PX + 6) // 2
    x: float = 12
    kit.note_part("hunt", (8, top + 2, P_W - 8, top + HUNT_H - 4))
    if region is None:
        active = view.get("active")
        if active is None or view.get("phase") != "camp":
            _p_words(draw, x, middle, translate("monster.board.no_hunt", lang), kit.INK, "semibold")
            return top + HUNT_H
        player = next(p for p in view["players"] if int(p["seat"]) == int(active))
        x = _p_words(draw, x, middle, translate("monster.board.camps", lang), kit.INK, "semibold")
        for region_key in ("aerie", "depths", "forest"):
            camp = player["camps"][region_key]
            colour = str(camp["die"])
            fill, ink = DIE_COLOURS.get(colour, DIE_COLOURS["black"])
            x = _p_words(draw, x, middle, region_short(region_key, lang), kit.INK, "semibold") - 2
            kit.paste(image, kit.die_face(DIE_PX - 8, 0, fill, ink, False, label=region_letter(region_key, lang)),
                      (round(x), dice_y + 4))
            x += DIE_PX - 8 + 8
            x = _p_words(draw, x, middle, translate("monster.board.plus_black", lang, count=camp["black"])) + 10
        return top + HUNT_H
    hunt = translate("monster.board.hunt", lang, region=region_short(region, lang))
    x = _p_words(draw, x, middle, hunt, kit.INK, "semibold")
    if tray["banked"]:
        x = _p_dice(image, tray["banked"], x, dice_y, "banked")
        x = _p_words(draw, x, middle, f"= {tray['banked_total']}", kit.INK, "bold") + 6
    if tray.get("remaining") is not None:
        left = translate("monster.board.left_to_spend", lang, left=tray["remaining"], value=tray["hunting_value"])
        priced = left + translate("monster.board.cage_costs", lang, cost=10)
        if tray.get("cage_affordable") and x + kit.measure(priced, SMALL, "semibold") <= P_W - 12:
            left = priced  # (the cage's price, a reminder, goes before the text would shrink below 9 points)
        x = _p_words(draw, x, middle, left, kit.INK, "semibold")
    elif tray["rolled"]:
        x = _p_words(draw, x, middle, translate("monster.board.rolled_word", lang) if tray["banked"]
                     else translate("monster.board.rolled_none_banked", lang))
        x = _p_dice(image, tray["rolled"], x, dice_y, "rolled") + 6
    if tray.get("lost") and x + kit.measure(translate("monster.board.lost", lang), SMALL) + DIE_PX < P_W - 12:
        x = _p_words(draw, x, middle, translate("monster.board.lost", lang))
        _p_dice(image, tray["lost"], x, dice_y, "lost")
    return top + HUNT_H


def _p_camps(draw: kit.Draw, x: float, y: float, camps: Camps, lang: str = DEFAULT_LANGUAGE) -> float:
    """A player's three camp levels as chips in the regions' colours ("A 5"; a final camp is framed)."""
    for region, level, final in camps:
        chip = _p_camp_chip(region, level, final, lang)
        kit.paste(draw._image, chip, (round(x), round(y)))  # type: ignore[attr-defined]
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


def _p_players(draw: kit.Draw, view: dict[str, Any], top: int, height: int | None = None) -> int:
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
    for index, player in enumerate(by_seat[s] for s in _ranked_seats(view)):  # at the end, best first
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
            kit.blit(draw._image, face.image, (x - BLOCK_LEFT, y - BLOCK_TOP))  # type: ignore[attr-defined]
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


def _p_room_for_lists(view: dict[str, Any], top: int, height: int, column_w: int) -> dict[int, int]:
    """How many lines of its monsters each player's block may add without the blocks reaching past `height`: the
    room below each column (measured on the blocks without a list), shared by the blocks in it."""
    lang = language(view)
    standard = view["mode"] == "standard"
    scores = {s["seat"]: s for s in view["scores"]}
    seats = _ranked_seats(view)
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
        y = _p_text(draw, text_x, y, text, text_w, fill)
    if camps:
        after = _p_camps(draw, text_x, y + 1, camps, lang) + 8
        if after + kit.measure(facts.replace("\u00a0", " "), SMALL) <= x + column_w - 2:
            draw.text((after, y + 1), facts, font=kit.font(SMALL), fill=kit.INK_MUTED)
            y += 28
        else:
            y = _p_text(draw, text_x, y + 28, facts, text_w, kit.INK_MUTED)
    return y


def _p_solo(draw: kit.Draw, solo: dict[str, Any], top: int, lang: str = DEFAULT_LANGUAGE) -> int:
    y = _p_text(draw, 12, top, translate("monster.board.expedition_title", lang, number=solo["expedition"],
                                         title=solo["title"]), P_W - 24, kit.ORANGE, "bold", BIG, "title")
    progress = solo.get("progress_text") or ""
    facts = translate("monster.board.solo_facts", lang, goal=solo["victory"].rstrip("."), progress=progress)
    if solo.get("crate_value"):
        facts += translate("monster.board.solo_crates", lang, crates=solo["crates"], value=solo["crate_value"])
    facts += translate("monster.board.solo_lose_at", lang, count=solo["loss_display"])
    return int(_p_text(draw, 12, y, facts, P_W - 24)) + 6


def _p_headline(view: dict[str, Any]) -> str:
    if not view.get("over"):
        return str(view["turn"])
    return translate("monster.board.game_over", language(view), result=_result_headline(view))


def render_image(view: dict[str, Any]) -> Image.Image:
    """The public board before encoding (the benchmark times the encoding of exactly this image): 800 x 640, or
    square when the players' long names need the room (drawn again taller: only such boards pay twice); with the
    parts a lesson points at marked (the view's `marks`)."""
    image, parts = _p_drawn(view)
    kit.draw_marks(image, parts, view.get("marks") or ())
    return image


def part_boxes(view: dict[str, Any]) -> dict[str, kit.Box]:
    """Where the public board of `view` draws each part a lesson may point at, by `kit.part_key`: the Wilderness
    (`wilderness`), the deck count under it (`deck`), the hunt band (`hunt`), the players' blocks (`players`) and
    each player's (`player@<seat>`)."""
    image, parts = _p_drawn(view)
    kit.recycle(image)
    return parts


def _p_drawn(view: dict[str, Any]) -> tuple[Image.Image, dict[str, kit.Box]]:
    """The public board without marks, and where it drew its parts."""
    view = localized(view)
    with kit.noting_parts() as parts:
        image = kit.board_fitting(lambda height: _p_board(view, height),
                                  kit.TALL_HEIGHT if _p_long_names(view) else P_H)
    return image, dict(parts)


def _p_long_names(view: dict[str, Any]) -> bool:
    """Whether a name of three or four players takes two lines in its column: then every board of the match is
    tall (one size for the whole match), as the players' blocks may need the room."""
    players = view["players"]
    column_w = (P_W - 24 - 8) // 2
    return len(players) > 2 and any(len(kit.name_lines(str(p["name"]), column_w - 48)) > 1 for p in players)


def _p_board(view: dict[str, Any], height: int) -> tuple[Image.Image, int]:
    """The public board `height` px tall, and the lowest y its players' blocks reach."""
    kit.forget_parts()  # (a board drawn again taller notes them again)
    lang = language(view)
    image, draw = kit.new_canvas(height, P_W)
    active = view.get("active")
    style = kit.player_style(int(active)) if active is not None else None
    if view.get("over") and view["mode"] == "standard" and len(view["result"]["winners"]) == 1:
        style = kit.player_style(int(view["result"]["winners"][0]))
    solo = view.get("solo")
    last = str(view.get("last_move") or "")
    if solo and view.get("over"):  # why the expedition ended, in the header; what comes next under the goal
        last = f"{solo['reason'][:1].upper()}{solo['reason'][1:]}".rstrip(".") + "."
    kit.phone_header(draw, P_W, _p_headline(view), last, style, lang)
    y = kit.HEADER_H + 8
    if solo:
        y = _p_solo(draw, solo, y, lang)
        if view.get("over"):
            y = int(_p_text(draw, 12, y, str(view["turn"]), P_W - 24, kit.INK, "semibold")) + 6
    if not view.get("over"):  # at the end the dice no longer matter: the results take the room
        y = _p_display(image, draw, view, y)
        y = _p_hunt(image, draw, view, y)
        return image, _p_players(draw, view, y, height) - 8
    # the results first, then the wilderness as the game left it, when there is room for it
    y = _p_players(draw, view, y)
    rows = next((rows for rows in range(P_ROWS, 0, -1) if height - y >= _display_h(rows)), 0)
    if rows:
        _p_display(image, draw, view, height - _display_h(rows) + 4, rows)
    return image, y - 8


UNDRAWN = frozenset({"crest", "names", "ability_texts"})
"""A display card's fields that are not drawn on its face (the crest token is drawn over it; the names and ability
texts of every language are picked into "name" and "ability_text")."""


def _display_h(rows: int) -> int:
    """The display's height in `rows` rows of cards with its legend line, a margin above and one below (a badge's
    letter stays clear of the edge)."""
    return rows * (P_CARD_H + P_GAP) + 24 + 8 + 20


def render(view: dict[str, Any]) -> bytes:
    """The public board: 800 x 640 in every mode, display, dice and players; the results at the end."""
    return kit.finish(render_image(view))


def alt_text(view: dict[str, Any]) -> str:
    """The board in words for the image's description (public facts only: cage counts, never their faces before
    the end)."""
    view = localized(view)
    lang = language(view)
    modes = {"standard": deferred("monster.mode.standard"), "solo": deferred("monster.mode.solo")}
    mode = translate(modes[view["mode"]], lang) if view["mode"] in modes else view["mode"]  # the lobby's titles
    parts = [f"Monster Expedition, {mode}.", _p_headline(view) + "."]
    if view.get("solo") and view.get("over"):
        reason = str(view["solo"]["reason"])
        parts += [f"{reason[:1].upper()}{reason[1:]}".rstrip(".") + ".", str(view["turn"])]
    if view.get("last_move"):
        parts.append(translate("monster.alt.last_move", lang, move=view["last_move"]))
    scores = {s["seat"]: s for s in view["scores"]}
    by_seat = {int(player["seat"]): player for player in view["players"]}
    for seat in _ranked_seats(view):  # at the end best first, as the final board and the result list them
        player = by_seat[seat]
        text = translate("monster.alt.player", lang, name=player["name"], points=player["monster_points"],
                         cages=counted("cage", int(player["cages"]), lang))
        if view.get("over") and player["cages"]:
            text += translate("monster.alt.worth", lang, points=player.get("cage_points", 0))
        if view.get("over") and view["mode"] == "standard":  # a player without cages has a total too
            text += translate("monster.alt.total", lang, points=scores[player["seat"]]["total"])
        parts.append(text + f"; {camp_levels(player, lang=lang)}.")
    if view.get("solo"):
        parts.append(translate("monster.board.expedition_title", lang, number=view["solo"]["expedition"],
                               title=view["solo"]["progress_text"]) + ".")
    if not view.get("over"):
        names = ", ".join(translate("monster.alt.trader", lang, offer=_trader_offer(c, lang))
                          if c.get("kind") == "trader" else
                          translate("monster.alt.card", lang, name=c["name"], level=c["level"],
                                    region=region_label(str(c["region"]), lang), points=c["vp"])
                          for c in view["display"])
        parts.append(translate("monster.alt.display", lang, cards=names or translate("monster.alt.empty", lang)))
    return kit.clip_alt(parts)
