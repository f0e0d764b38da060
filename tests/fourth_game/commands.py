"""/tug: Tug's slash command group, a discord.py extension. The handler only turns the option into an action for
the platform's table (`cogs.table.play`), which checks it, commits it and posts the board."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table import play


@app_commands.guild_only()
class TugCommands(commands.GroupCog, group_name="tug", group_description="Play Tug"):
    """Pulling the rope."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="pull", description="Pull the marker 1 or 2 cells toward your end")
    @app_commands.describe(cells="1, or 2 when you are not tired")
    async def pull(self, interaction: discord.Interaction, cells: app_commands.Range[int, 1, 2]) -> None:
        await play(interaction, {"type": "pull", "cells": cells})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TugCommands(bot))
