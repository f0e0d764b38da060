"""Monster Expedition's public board: 800 x 640 for every mode and player count, read on a phone (the display,
the hunt's dice, the players; the results at the end), the parts a lesson may point at, and the board in words."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.games.monster_expedition.drawing.common import (
    BIG,
    DIE_COLOURS,
    P_H,
    P_W,
    REGION_COLOURS,
    REGION_INK,
    SMALL,
    SYMBIOSIS_WORDS,
    TRADER_FRAME,
    camp_levels,
    draw_wrapped,
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
from bot.games.monster_expedition.drawing.players import draw_players
from bot.games.monster_expedition.rules.view_types import MonsterView
from bot.i18n import DEFAULT_LANGUAGE, counted, deferred
from rendering import kit
from rendering.wording import translate

P_CARD_W, P_CARD_H, P_GAP = 148, 100, 8
P_COLUMNS, P_ROWS = 5, 2


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
        offer, face = kit.fitted(trader_offer(card, lang), P_CARD_W - 8, SMALL, "semibold", 14)
        draw.text((P_CARD_W / 2, 66), offer, font=face, fill=kit.INK, anchor="mm")
        return
    region = str(card.get("region"))
    draw.rectangle((0, 0, P_CARD_W, 30), fill=REGION_COLOURS[region])
    ink = REGION_INK[region]
    draw.text((6, 15), f"{card['level']} {region_letter(region, lang)}", font=kit.font(BIG, "bold"), fill=ink,
              anchor="lm")
    symbiosis_badge(draw, (P_CARD_W - 18, 15), str(card.get("symbiosis")), radius=15, lang=lang)
    size, name = kit.fit_lines(str(card["name"]), P_CARD_W - 10, 2, (20, SMALL), "semibold")
    y = 34 if len(name) > 1 else 44
    for line in name[:2]:
        draw.text((5, y), line, font=kit.font(size, "semibold"), fill=kit.INK, role="card")
        y += size + 2
    points, face = kit.fitted(translate("monster.board.card_points", lang, points=card["vp"], caged=card["caged_vp"]),
                              P_CARD_W - 10, SMALL, "regular", 14)
    draw.text((5, P_CARD_H - 23), points, font=face, fill=kit.INK)


def _p_display(image: Image.Image, draw: kit.Draw, view: MonsterView, top: int, rows: int = P_ROWS) -> int:
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


def _p_legend(draw: kit.Draw, view: MonsterView, top: int) -> int:
    """What the cards' letters and badges mean, in one line under the display, and the deck on the right."""
    lang = language(view)
    y = top + 11
    key, x = _p_legend_key(lang, kit.in_palette(P_W))
    kit.blit(draw.canvas, key.face.image, (0, y - LEGEND_ABOVE), key.ink)
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


def _marked(view: MonsterView, part: str) -> bool:
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
        symbiosis_badge(draw, (x, y), symbol, radius=15, lang=lang)
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


def _p_hunt(image: Image.Image, draw: kit.Draw, view: MonsterView, top: int) -> int:
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


def _p_solo(draw: kit.Draw, solo: dict[str, Any], top: int, lang: str = DEFAULT_LANGUAGE) -> int:
    title = translate("monster.board.expedition_title", lang, number=solo["expedition"], title=solo["title"])
    y = draw_wrapped(draw, 12, top, title, P_W - 24, kit.ORANGE, "bold", BIG, "title")
    progress = solo.get("progress_text") or ""
    facts = translate("monster.board.solo_facts", lang, goal=solo["victory"].rstrip("."), progress=progress)
    if solo.get("crate_value"):
        facts += translate("monster.board.solo_crates", lang, crates=solo["crates"], value=solo["crate_value"])
    facts += translate("monster.board.solo_lose_at", lang, count=solo["loss_display"])
    return draw_wrapped(draw, 12, y, facts, P_W - 24) + 6


def _p_headline(view: MonsterView) -> str:
    if not view.get("over"):
        return str(view["turn"])
    return translate("monster.board.game_over", language(view), result=result_headline(view))


def render_image(view: MonsterView) -> Image.Image:
    """The public board before encoding (the benchmark times the encoding of exactly this image): 800 x 640, or
    square when the players' long names need the room (drawn again taller: only such boards pay twice); with the
    parts a lesson points at marked (the view's `marks`)."""
    image, parts = _p_drawn(view)
    kit.draw_marks(image, parts, view.get("marks") or ())
    return image


def part_boxes(view: MonsterView) -> dict[str, kit.Box]:
    """Where the public board of `view` draws each part a lesson may point at, by `kit.part_key`: the Wilderness
    (`wilderness`), the deck count under it (`deck`), the hunt band (`hunt`), the players' blocks (`players`) and
    each player's (`player@<seat>`)."""
    image, parts = _p_drawn(view)
    kit.recycle(image)
    return parts


def _p_drawn(view: MonsterView) -> tuple[Image.Image, dict[str, kit.Box]]:
    """The public board without marks, and where it drew its parts."""
    view = localized(view)
    with kit.noting_parts() as parts:
        image = kit.board_fitting(lambda height: _p_board(view, height),
                                  kit.TALL_HEIGHT if _p_long_names(view) else P_H)
    return image, dict(parts)


def _p_long_names(view: MonsterView) -> bool:
    """Whether a name of three or four players takes two lines in its column: then every board of the match is
    tall (one size for the whole match), as the players' blocks may need the room."""
    players = view["players"]
    column_w = (P_W - 24 - 8) // 2
    return len(players) > 2 and any(len(kit.name_lines(str(p["name"]), column_w - 48)) > 1 for p in players)


def _p_board(view: MonsterView, height: int) -> tuple[Image.Image, int]:
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
            y = draw_wrapped(draw, 12, y, str(view["turn"]), P_W - 24, kit.INK, "semibold") + 6
    if not view.get("over"):  # at the end the dice no longer matter: the results take the room
        y = _p_display(image, draw, view, y)
        y = _p_hunt(image, draw, view, y)
        return image, draw_players(draw, view, y, height) - 8
    # the results first, then the wilderness as the game left it, when there is room for it
    y = draw_players(draw, view, y)
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


def render(view: MonsterView) -> bytes:
    """The public board: 800 x 640 in every mode, display, dice and players; the results at the end."""
    return kit.finish(render_image(view))


def alt_text(view: MonsterView) -> str:
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
    for seat in ranked_seats(view):  # at the end best first, as the final board and the result list them
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
        names = ", ".join(translate("monster.alt.trader", lang, offer=trader_offer(c, lang))
                          if c.get("kind") == "trader" else
                          translate("monster.alt.card", lang, name=c["name"], level=c["level"],
                                    region=region_label(str(c["region"]), lang), points=c["vp"])
                          for c in view["display"])
        parts.append(translate("monster.alt.display", lang, cards=names or translate("monster.alt.empty", lang)))
    return kit.clip_alt(parts)
