"""The Expedition (Lowtek Games): a small tactical game on a 3x3 grid of planets and moons, 1-3 players."""

from bot.games.the_expedition.game import GAME, TheExpedition

__all__ = ["GAME", "TheExpedition"]
