"""What Expeditions' public and detail boards share: the game's colours, the table's language, money and stars in
words, and the result (the players' places, the headline, why the expedition ended: the glossary reads it too)."""

from __future__ import annotations

from typing import Any

from bot.games.expeditions.rules.view_types import ExpeditionsView
from rendering import kit
from rendering.wording import translate, translate_plural

POWER = kit.ORANGE  # orange corruption and power track
GUILE = kit.TURQUOISE  # turquoise corruption and guile track
BOTH = kit.WINE  # the 20 token, paid with power and guile
REGION_FILL = {"south": kit.SAND, "central": kit.MEADOW, "north": kit.FROST}
HIDDEN_FILL = {"south": kit.SAND_DARK, "central": kit.MEADOW_DARK, "north": kit.FROST_DARK}
CARD_FILL = {"item": kit.PARCHMENT, "meteorite": kit.LILAC, "quest": kit.PEACH, "character": kit.ICE_BLUE,
             "companion": kit.ICE_BLUE}
WORKER = {"red": kit.VERMILLION, "blue": kit.BLUE, "green": kit.BLUISH_GREEN, "yellow": kit.YELLOW}


def language(view: ExpeditionsView) -> str:
    """The table's language: every word the board draws is in it (the view's names and texts already are)."""
    return str(view.get("language") or "en")


def money(n: int, lang: str) -> str:
    return translate("expeditions.money", lang, n=n)


def stars_text(n: int, lang: str) -> str:
    return translate_plural("expeditions.board.stars", n, lang)


def money_parts(parts: dict[str, Any], lang: str = "en") -> str:
    """Where a final score came from, in dollars as the rulebook counts them."""
    return translate("expeditions.board.money_parts", lang, coins=money(parts["coins"], lang),
                     upgrades=money(parts["upgrades"], lang), corruption=money(parts["corruption"], lang),
                     stars=money(parts["stars"], lang))


def ranked_places(view: ExpeditionsView) -> list[tuple[int, dict[str, Any]]]:
    """The players best first with their places (the same money and glory total share a place)."""
    ranked = sorted(view["players"], key=lambda p: (-p["score"], -p["tiebreak"]))
    return [(1 + sum(1 for o in ranked if (o["score"], o["tiebreak"]) > (p["score"], p["tiebreak"])), p)
            for p in ranked]


def why_over(view: ExpeditionsView) -> str:
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


def headline(view: ExpeditionsView) -> str:
    """The line over both boards: whose turn it is, or at the end who won (one player: their money in all)."""
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
