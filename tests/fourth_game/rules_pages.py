"""Tug's /game rules pages: the how-to-play (beside the labelled picture), a page on pulling and tiring, and the
modes page the platform words itself. Page titles are the platform's shared page titles."""

from __future__ import annotations

from bot.core.pages import FIRST_PAGE, MODES_PAGE, Page
from tests.fourth_game.game import CELLS, PULLS
from tests.fourth_game.words import say

PAGES = (
    Page(FIRST_PAGE, "rules.page.how", picture=True),
    Page("turn", "rules.page.turn"),
    Page(MODES_PAGE, "rules.page.modes"),
)


def how_to_play(mode: str, language: str) -> str:
    """The one-screen how-to-play (one mode)."""
    return say("tug.rules.how", language, cells=CELLS, pulls=PULLS)


def page_text(mode: str, page_key: str, language: str) -> str:
    """The words of Tug's own page (the turn: pulling and tiring)."""
    return say("tug.rules.turn", language)
