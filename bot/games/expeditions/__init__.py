"""Expeditions (Stonemaier Games): engine building and exploration with mechs, for 1-5 players."""

from pathlib import Path

from bot.core import GamePackage
from bot.games.expeditions.rules.game import ExpeditionsGame

GAME = ExpeditionsGame()

PACKAGE = GamePackage(
    game=GAME,
    group="mech",
    drawing="bot.games.expeditions.drawing",
    commands="bot.games.expeditions.commands",
    rules_pages="bot.games.expeditions.rules_pages",
    locales=Path(__file__).parent / "locales",
)

__all__ = ["GAME", "PACKAGE", "ExpeditionsGame"]
