"""What both of Monster Expedition's boards draw alike: the words in the table's language (regions, camp levels,
the view localized), the colours, the symbiosis badge, the trader's offer, the result's headline and the order of
the players at the end, and the public board's frame."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw

from bot.games.monster_expedition.rules.view_types import MonsterView
from bot.i18n import DEFAULT_LANGUAGE, counted, deferred, language_of
from rendering import kit
from rendering.wording import translate

REGION_COLOURS = {"aerie": kit.YELLOW, "depths": kit.BLUE, "forest": kit.BLUISH_GREEN, "all": kit.REDDISH_PURPLE}
REGION_INK = {"aerie": kit.INK_DARK, "depths": kit.INK, "forest": kit.INK_DARK, "all": kit.INK_DARK}
REGION_LABEL = {"aerie": deferred("region.aerie"), "depths": deferred("region.depths"),
                "forest": deferred("region.forest"), "all": deferred("region.all")}
"""The rulebook's region names (a card's band and the phone board's camp line use the short ones)."""
REGION_SHORT = {"aerie": deferred("region.aerie"), "depths": deferred("region.depths"),
                "forest": deferred("monster.region.forest_short"), "all": deferred("monster.region.all_short")}
FINAL_LEVEL = 8


def language(view: Mapping[str, Any]) -> str:
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


def localized(view: MonsterView) -> MonsterView:
    """The view with its sentences and card names in the table's language (the game's view carries every
    language's words; its own fields are English)."""
    lang = language(view)
    if lang == DEFAULT_LANGUAGE or view.get("localized") == lang:
        return view
    shown: MonsterView = {**view, "localized": lang}
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
SYMBIOSIS_COLOURS = {"red": kit.VERMILLION, "purple": kit.REDDISH_PURPLE, "white": kit.INK}
TRADER_FRAME = kit.INK_MUTED
"""The Monster Trader belongs to nobody: framed in a neutral colour, never a player's."""
SYMBIOSIS_LETTERS = {"red": deferred("monster.letter.red"), "purple": deferred("monster.letter.purple"),
                     "white": deferred("monster.letter.white")}
"""Each symbiosis symbol carries a letter as well as its colour, so no player has to tell the colours apart
(R/P/W in English, R/L/W in German; the split wild one a star)."""
REGION_LETTERS = {"aerie": deferred("monster.letter.aerie"), "depths": deferred("monster.letter.depths"),
                  "forest": deferred("monster.letter.forest")}
SYMBIOSIS_WORDS = {"red": deferred("monster.symbiosis.red"), "purple": deferred("monster.symbiosis.purple"),
                   "white": deferred("monster.symbiosis.white"), "wild": deferred("monster.symbiosis.wild")}


def symbiosis_badge(draw: ImageDraw.ImageDraw, centre: tuple[int, int], symbol: str, radius: int = 17,
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


def trader_offer(card: dict[str, Any], lang: str) -> str:
    """The Monster Trader's offer in words ("6 cages for 40"), on its card and in the board's description."""
    return translate("monster.board.trader_offer", lang, cages=counted("cage", 6, lang), cost=card.get("cost", 40))


def result_headline(view: MonsterView) -> str:
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


def ranked_seats(view: MonsterView) -> list[int]:
    """The seats in the order the final results list them: best first as the game ranks them (seat order before
    the end, or when the view has no ranking)."""
    seats = [int(p["seat"]) for p in view["players"]]
    ranking = view.get("ranking") if view.get("over") else None
    return [int(s) for s in ranking] if ranking and sorted(ranking) == sorted(seats) else seats


# --- the public board: 800 x 640 for every mode and player count, read on a phone -----------------------------

P_W, P_H = kit.PHONE_WIDTH, 640
SMALL, BIG = kit.SMALL, kit.BIG


def draw_wrapped(draw: kit.Draw, x: int, y: int, text: str, width: int, fill: str = kit.INK,
                 weight: str = "regular", size: int = SMALL, role: str = "text") -> int:
    """Wrapped text (never cut; a monster's points stay beside it); returns the y below it."""
    for line in kit.lines(text, width, size, weight):
        draw.text((x, y), line, font=kit.font(size, weight), fill=fill, role=role)
        y += size + 4
    return y
