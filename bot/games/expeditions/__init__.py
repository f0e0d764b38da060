"""Expeditions (Stonemaier Games): engine building and exploration with mechs, for 1-5 players."""

from bot.games.expeditions.game import ExpeditionsGame

GAME = ExpeditionsGame()

__all__ = ["GAME", "ExpeditionsGame"]
