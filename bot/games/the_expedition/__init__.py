"""The Expedition (Lowtek Games): a small tactical game on a 3x3 grid of planets and moons, 1-3 players."""

from bot.core import GamePackage
from bot.games.the_expedition.rules.game import GAME, TheExpedition

PACKAGE = GamePackage(
    game=GAME,
    group="explore",
    drawing="bot.games.the_expedition.drawing",
    commands="bot.games.the_expedition.commands",
    rules_pages="bot.games.the_expedition.rules_pages",
)

__all__ = ["GAME", "PACKAGE", "TheExpedition"]
