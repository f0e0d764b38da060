"""Monster Expedition (AMIGO 2020): the rules, the solo campaign and the views, for the platform to host."""

from pathlib import Path

from bot.core import GamePackage
from bot.games.monster_expedition.rules.game import GAME, MonsterExpedition
from bot.games.monster_expedition.rules.solo import campaign_text
from bot.games.monster_expedition.rules.views import capturable_monsters

PACKAGE = GamePackage(
    game=GAME,
    group="hunt",
    drawing="bot.games.monster_expedition.drawing",
    commands="bot.games.monster_expedition.commands",
    rules_pages="bot.games.monster_expedition.rules_pages",
    locales=Path(__file__).parent / "locales",
)

__all__ = ["GAME", "PACKAGE", "MonsterExpedition", "campaign_text", "capturable_monsters"]
