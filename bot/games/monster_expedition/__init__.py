"""Monster Expedition (AMIGO 2020): the rules, the solo campaign and the views, for the platform to host."""

from bot.games.monster_expedition.game import GAME, MonsterExpedition
from bot.games.monster_expedition.solo import campaign_text
from bot.games.monster_expedition.views import capturable_monsters

__all__ = ["GAME", "MonsterExpedition", "campaign_text", "capturable_monsters"]
