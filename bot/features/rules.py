"""/game rules as pages a newcomer can read (issue 33 item 3): a one-screen "how to play" per game and mode (goal,
a turn, the end, scoring; at most 1,500 characters) beside a labelled picture of the board, then pages of detail
per phase or topic, the rulings the bot applies, and the modes. Each page is a button under the others.

The texts are catalogue messages (English and German). The picture is a real starting position of the game, drawn
by the render pool with its parts numbered (rendering/glossary/picture.py)."""

from __future__ import annotations

import importlib
from types import ModuleType

from bot.core import find_game, package_of
from bot.core.pages import FIRST_PAGE, MODES_PAGE, Page
from bot.games import pictures
from bot.i18n import translate
from bot.service import GameService, mode_line, mode_players
from bot.workers import Shelf

HOW_TO_PLAY_CHARS = 1500
"""The longest one-screen how-to-play (issue 33: it must fit a phone's screen)."""

__all__ = ["FIRST_PAGE", "HOW_TO_PLAY_CHARS", "Page", "has_pages", "how_to_play", "is_page", "page", "page_text",
           "pages", "title"]


def _pages_module(game_key: str) -> ModuleType | None:
    """The game package's rules pages module (`GamePackage.rules_pages`), or None for a game without pages."""
    package = package_of(game_key)
    if package is None or package.rules_pages is None:
        return None
    return importlib.import_module(package.rules_pages)


def has_pages(game_key: str) -> bool:
    """Whether the game has /game rules pages."""
    return _pages_module(game_key) is not None


def pages(game_key: str, mode: str) -> tuple[Page, ...]:
    """The pages of a game's rules that belong to `mode`, in the order of their buttons."""
    module = _pages_module(game_key)
    shown: tuple[Page, ...] = module.PAGES if module is not None else ()
    return tuple(page for page in shown if page.modes is None or mode in page.modes)


def is_page(game_key: str, mode: str, page_key: str) -> bool:
    """Whether a button's id names a page there is (ids can be tampered with)."""
    try:
        return has_pages(game_key) and find_game(game_key).mode(mode).key == mode and any(
            page.key == page_key for page in pages(game_key, mode))
    except Exception:
        return False


def page(game_key: str, mode: str, page_key: str) -> Page:
    return next(page for page in pages(game_key, mode) if page.key == page_key)


def title(game_key: str) -> str:
    return find_game(game_key).title


def how_to_play(game_key: str, mode: str, language: str) -> str:
    """The one-screen how-to-play of a mode."""
    module = _pages_module(game_key)
    assert module is not None, f"{game_key} has no rules pages"
    return str(module.how_to_play(mode, language))


def page_text(game_key: str, mode: str, shown: Page, language: str) -> str:
    """The words of one page in `language` (the how-to-play ends with where the other pages are)."""
    if shown.key == FIRST_PAGE:
        return how_to_play(game_key, mode, language) + "\n\n" + translate("rules.footer", language)
    if shown.key == MODES_PAGE:
        game = find_game(game_key)
        return "\n".join([translate("table.rules.modes", language),
                          *(mode_line(each, language) for each in game.modes)])
    module = _pages_module(game_key)
    assert module is not None, f"{game_key} has no rules pages"
    return str(module.page_text(mode, shown.key, language))


# ------------------------------------------------------------------------------------------ choosing and drawing


async def chosen(service: GameService, channel_id: int | None, game_name: str | None,
                 language: str) -> tuple[str, str, str] | None:
    """Which game and mode /game rules explains, and what to say first: the game named (its first mode), else the
    channel's game (its mode, said first), else None (the list of games)."""
    if game_name:
        game = find_game(game_name)
        return game.key, game.modes[0].key, ""
    match = None
    if channel_id is not None:
        match = await service.store.open_match(channel_id) or await service.store.latest_match(channel_id)
    if match is None or not has_pages(match.game):
        return None
    mode = find_game(match.game).mode(match.mode)
    here = translate("table.rules.this_mode", language, choice=mode_players(mode, language),
                     summary=mode.summary_in(language))
    return match.game, mode.key, here


PICTURES_KEPT_BYTES = 8 * 1024 * 1024
"""How many bytes of labelled pictures are kept (one is ~100-300 KB; a game's modes times the languages)."""
PICTURES = Shelf(PICTURES_KEPT_BYTES)
"""The labelled pictures drawn, by (game, mode, language): the position is always the same (`pictures.PICTURE_SEED`),
so each is drawn once, not on every look at the first page."""


async def labelled_board(service: GameService, game_key: str, mode: str, language: str, member: int) -> bytes:
    """The labelled picture of a starting position in the reader's language, for `member`: kept once drawn, and
    drawn in the render pool as an image they asked for (`GameService.asked_image`: behind the boards of moves,
    refused privately while they hold their share)."""
    key = (game_key, mode, language)
    return await PICTURES.kept_or_built(key, lambda: service.asked_image(
        member, lambda: service.render_pool.labelled(game_key, pictures.picture_view, game_key, mode, language),
        key=("rules picture", *key)))
