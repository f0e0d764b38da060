"""Expeditions' /game rules pages: the how-to-play and a page per action of a turn, each one catalogue message."""

from __future__ import annotations

from bot.core.pages import FIRST_PAGE, Page
from bot.i18n import deferred, translate

PAGES = (
    Page(FIRST_PAGE, deferred("rules.page.how"), picture=True),
    Page("token", deferred("rules.page.token")),
    Page("move", deferred("rules.page.move")),
    Page("play", deferred("rules.page.play")),
    Page("gather", deferred("rules.page.gather")),
    Page("scoring", deferred("rules.page.scoring")),
    Page("rulings", deferred("rules.page.rulings")),
)
DETAIL = {
    "token": deferred("rules.expeditions.token"),
    "move": deferred("rules.expeditions.move"),
    "play": deferred("rules.expeditions.play"),
    "gather": deferred("rules.expeditions.gather"),
    "scoring": deferred("rules.expeditions.scoring"),
    "rulings": deferred("rules.expeditions.rulings"),
}
"""The pages that are one catalogue message each."""


def how_to_play(mode: str, language: str) -> str:
    """The one-screen how-to-play (Expeditions has one mode)."""
    return translate("rules.expeditions.how", language)


def page_text(mode: str, page_key: str, language: str) -> str:
    """The words of one of the game's pages (not the how-to-play)."""
    return translate(DETAIL[page_key], language)
