"""Tug, the fourth game: a game package that lives in the test suite, found by the registry through
$EXPEDITION_TABLE_GAMES=tests.fourth_game (tests/test_fourth_game.py plays it through the offline Discord).

Every part of a game in one folder: the rules (game.py), the computer players and hints beside them (bots.py),
the drawing (drawing.py), the slash command group (commands.py), the /game rules pages (rules_pages.py) and the
words (locales/<lang>/LC_MESSAGES/tug.po, read by words.py)."""

from bot.core import GamePackage
from tests.fourth_game.game import GAME, Tug

PACKAGE = GamePackage(
    game=GAME,
    group="tug",
    drawing="tests.fourth_game.drawing",
    commands="tests.fourth_game.commands",
    rules_pages="tests.fourth_game.rules_pages",
)

__all__ = ["GAME", "PACKAGE", "Tug"]
