"""Monster Expedition's /game rules pages: the how-to-play per mode, a page per part of a turn, and the solo
campaign's expeditions built from the game's own data."""

from __future__ import annotations

from bot.core.pages import FIRST_PAGE, MODES_PAGE, Page
from bot.games.monster_expedition.rules.catalog import catalog
from bot.games.monster_expedition.rules.solo import special_rules_text, victory_text
from bot.i18n import deferred, translate

PAGES = (
    Page(FIRST_PAGE, deferred("rules.page.how"), picture=True),
    Page("dice", deferred("rules.page.dice")),
    Page("spend", deferred("rules.page.spend")),
    Page("improve", deferred("rules.page.improve")),
    Page("end", deferred("rules.page.end"), modes=frozenset({"standard"})),
    Page("expeditions", deferred("rules.page.expeditions"), modes=frozenset({"solo"})),
    Page("rulings", deferred("rules.page.rulings")),
    Page(MODES_PAGE, deferred("rules.page.modes")),
)
HOW_TO_PLAY = {
    "standard": deferred("rules.monster_expedition.how"),
    "solo": deferred("rules.monster_expedition.how_solo"),
}
"""Each mode's one-screen how-to-play."""
DETAIL = {
    "dice": deferred("rules.monster_expedition.dice"),
    "spend": deferred("rules.monster_expedition.spend"),
    "improve": deferred("rules.monster_expedition.improve"),
    "end": deferred("rules.monster_expedition.end"),
    "rulings": deferred("rules.monster_expedition.rulings"),
}
"""The pages that are one catalogue message each."""


def how_to_play(mode: str, language: str) -> str:
    """The one-screen how-to-play of a mode."""
    return translate(HOW_TO_PLAY[mode], language)


def expeditions(mode: str, language: str) -> str:
    """The solo campaign: each expedition's goal and special rules."""
    cat = catalog()
    lines = [translate("rules.monster_expedition.expeditions", language)]
    for number, expedition in sorted(cat.expeditions.items()):
        specials = " ".join(special_rules_text(expedition, cat, language))
        lines.append(f"{number}. {expedition.titles[language]}: {victory_text(expedition, language)} {specials}"
                     .rstrip())
    return "\n".join(lines)


def page_text(mode: str, page_key: str, language: str) -> str:
    """The words of one of the game's own pages (not the how-to-play, not the modes)."""
    if page_key == "expeditions":
        return expeditions(mode, language)
    return translate(DETAIL[page_key], language)
