"""/stats and /leaderboard: a player's record on this server, and a game's ratings as an image."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import find_game
from bot.features import stats
from cogs.common import NO_PINGS, safe_name, service_of
from cogs.lobby import GAME_CHOICES
from cogs.records import guild_of
from cogs.table import acknowledge, tell

UNRATED_NOTE = "Games with a computer player, a chosen seed or one player are unrated."


def stats_text(name: str, found: stats.PlayerStats) -> str:
    """A player's record in a few lines (the name already escaped)."""
    if not found.games and not found.progress:
        return f"{name} has no finished games on this server yet."
    lines = [f"**{name}**: {found.games} finished game{'s' if found.games != 1 else ''}, {found.wins} won"
             + (f"; favourite: {found.favourite}" if found.favourite else "")]
    for record in found.per_game:
        best = f", best score {record.best}" if record.best is not None else ""
        rating = (f", rating {record.rating:.1f} ({record.rated_games} rated)" if record.rating is not None
                  else ", unrated")
        lines.append(f"- {record.title}: {record.played} played, {record.wins} won{best}{rating}")
    lines += [f"- {line}" for line in found.progress]
    return "\n".join(lines)


class StatsCommands(commands.Cog):
    """Per-server records of play."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="Games, wins, best scores, ratings and solo progress")
    @app_commands.describe(player="Whose record (default: yours)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        await acknowledge(interaction)
        who = player or interaction.user
        found = await stats.player_stats(service_of(interaction), guild_of(interaction), who.id)
        await tell(interaction, stats_text(safe_name(who.display_name), found))

    @app_commands.command(name="leaderboard", description="The top players of a game on this server, as an image")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        guild_id = guild_of(interaction)
        chosen = find_game(game)
        top, mine = await stats.leaderboard(service, guild_id, chosen.key, interaction.user.id)
        if not top:  # an empty image in the channel helps nobody: say privately how a game gets rated
            await tell(interaction, f"Nobody is rated in {chosen.title} on this server yet: a rating comes with the "
                                    f"first finished game of two or more people. {UNRATED_NOTE}")
            return
        rows = [*top, mine] if mine is not None else top
        server = interaction.guild.name if interaction.guild is not None else "this server"
        view = {"title": f"{chosen.title}: leaderboard", "subtitle": f"{server} · openskill ratings (mu − 3σ)",
                "rows": [{"place": row.place, "name": row.name, "rating": row.rating,
                          "games": row.games, "asker": row.user_id == interaction.user.id} for row in rows],
                "note": UNRATED_NOTE}
        image = await service.render_pool.render_leaderboard(view)
        from rendering.leaderboard import alt_text

        rated = any(row.user_id == interaction.user.id for row in rows)
        mine_text = "" if rated else f" You are not rated in {chosen.title} yet. {UNRATED_NOTE}"
        await tell(interaction, f"The leaderboard for {chosen.title} is posted below.{mine_text}")
        file = discord.File(io.BytesIO(image), filename="leaderboard.png", description=alt_text(view))
        await interaction.followup.send(f"**{chosen.title}** leaderboard: {len(top)} rated player"
                                        f"{'s' if len(top) != 1 else ''} shown.", file=file,
                                        allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCommands(bot))
