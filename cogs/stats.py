"""/stats and /leaderboard: a player's record on this server, and a game's ratings as an image."""

from __future__ import annotations

import io

import discord
from babel.numbers import format_decimal
from discord import app_commands
from discord.ext import commands

from bot.core import find_game
from bot.features import stats
from bot.features.wording import game_title
from bot.i18n import language_of, translate, translate_plural
from cogs.common import NO_PINGS, safe_name, service_of
from cogs.lobby import GAME_CHOICES
from cogs.records import guild_of
from cogs.table import acknowledge, tell


def unrated_note(language: str) -> str:
    return translate("rating.unrated_note", language)


def rating_text(rating: float, language: str) -> str:
    """A rating with one decimal, as the language writes it ("12.3", "12,3")."""
    return format_decimal(rating, format="#,##0.0", locale=language)


def stats_text(name: str, found: stats.PlayerStats, language: str = "en") -> str:
    """A player's record in a few lines in the reader's `language` (the name already escaped)."""
    if not found.games and not found.progress:
        return translate("stats.none", language, name=name)
    head = translate_plural("stats.summary", found.games, language, name=name, wins=found.wins)
    if found.favourite:
        head += translate("stats.favourite", language, game=found.favourite)
    lines = [head]
    for record in found.per_game:
        best = translate("stats.best", language, score=record.best) if record.best is not None else ""
        rating = (translate_plural("stats.rating", record.rated_games, language,
                                   rating=rating_text(record.rating, language))
                  if record.rating is not None else translate("stats.unrated", language))
        lines.append("- " + translate("stats.game_line", language, game=record.title, played=record.played,
                                      wins=record.wins) + best + rating)
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
        reader = language_of(interaction.locale)
        who = player or interaction.user
        found = await stats.player_stats(service_of(interaction), guild_of(interaction), who.id, reader,
                                         asker=interaction.user.id)
        await tell(interaction, stats_text(safe_name(who.display_name), found, reader))

    @app_commands.command(name="leaderboard", description="The top players of a game on this server, as an image")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await acknowledge(interaction)
        reader = language_of(interaction.locale)
        service = service_of(interaction)
        guild_id = guild_of(interaction)
        # No table here: the channel reads the server's language (its /settings language, else its Discord one).
        public = await service.table_language(guild_id, guild_locale=interaction.guild_locale)
        chosen = find_game(game)
        top, mine = await stats.leaderboard(service, guild_id, chosen.key, interaction.user.id, language=public)
        if not top:  # an empty image in the channel helps nobody: say privately how a game gets rated
            await tell(interaction, translate("rating.nobody", reader, game=game_title(chosen, reader),
                                              note=unrated_note(reader)))
            return
        rows = [*top, mine] if mine is not None else top
        server = interaction.guild.name if interaction.guild is not None else translate("rating.this_server", public)
        title = game_title(chosen, public)
        view = {"title": translate("rating.image.title", public, game=title),
                "subtitle": translate("rating.image.subtitle", public, server=server),
                "rows": [{"place": row.place, "name": row.name, "rating": row.rating,
                          "games": row.games, "asker": row.user_id == interaction.user.id} for row in rows],
                "note": unrated_note(public), "language": public}
        image = await service.asked_image(interaction.user.id, lambda: service.render_pool.render_leaderboard(view))
        from rendering.leaderboard import alt_text

        rated = any(row.user_id == interaction.user.id for row in rows)
        mine_text = "" if rated else " " + translate("rating.you_unrated", reader, game=game_title(chosen, reader),
                                                     note=unrated_note(reader))
        await tell(interaction, translate("rating.posted", reader, game=game_title(chosen, reader)) + mine_text)
        file = discord.File(io.BytesIO(image), filename="leaderboard.png", description=alt_text(view))
        await interaction.followup.send(translate_plural("rating.shown", len(top), public, game=title), file=file,
                                        allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCommands(bot))
