"""/explore: The Expedition's commands. Each handler only turns options into an action for the service."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.names import contains, fold
from bot.games.the_expedition import GAME
from bot.games.the_expedition.rules.grid import DIRECTIONS
from bot.games.the_expedition.rules.words import pts
from bot.i18n import language_of
from cogs.common import answers_in_time, channel_id_of, service_of
from cogs.table import play

DIRECTION_CHOICES = [app_commands.Choice(name=direction, value=direction) for direction in DIRECTIONS]


def location_id(text: str) -> str:
    """Accept a location's id or its printed name in any language (any case or accents), as a player types it."""
    wanted = fold(text)
    for location in GAME.catalog.locations:
        if wanted == fold(location.id) or wanted in {fold(name) for name in location.names.texts}:
            return location.id
    return text.strip()


@answers_in_time
async def placeable_locations(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Only the empty locations the player may place on now, named in the reader's language (the rules re-check
    on submit)."""
    try:
        seen = await service_of(interaction).seen(channel_id_of(interaction), interaction.user.id)
    except Exception:  # autocomplete must never fail loudly; the command itself explains problems
        return []
    if seen.game is not GAME or seen.state is None or seen.seat is None:
        return []
    choices = []
    for action in GAME.legal_actions(seen.state, seen.seat):
        if action["type"] == "place":
            location = GAME.catalog.location(action["location"])
            language = language_of(interaction.locale)
            label = f"{location.names[language]} ({pts(location.points)(language)})"
            if contains(current, label):
                choices.append(app_commands.Choice(name=label, value=location.id))
    return choices[:25]


@app_commands.guild_only()
class ExploreCommands(commands.GroupCog, group_name="explore", group_description="Play The Expedition"):
    """Setup placement and moving your explorer."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="place", description="Place your explorer on an empty location (setup)")
    @app_commands.describe(location="An empty location")
    @app_commands.autocomplete(location=placeable_locations)
    async def place(self, interaction: discord.Interaction, location: str) -> None:
        await play(interaction, {"type": "place", "location": location_id(location)})

    @app_commands.command(name="move", description="Move your explorer one step and mark the location you left")
    @app_commands.describe(direction="up, down, left or right (diagonals only where a location allows it)")
    @app_commands.choices(direction=DIRECTION_CHOICES)
    async def move(self, interaction: discord.Interaction, direction: str) -> None:
        await play(interaction, {"type": "move", "direction": direction})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ExploreCommands(bot))
