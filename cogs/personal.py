"""A member's own commands (issue 34): /games lists every game they sit in, across servers, privately.

The personal commands work wherever the member is, in a server's channel and, with the app user-installed, in the
bot's DMs and their private channels (`allowed_installs` and `allowed_contexts`): they only read and answer
privately, and moves stay in the game's channel. The work is bot/features/personal.py.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import find_game
from bot.features import personal
from bot.features.personal import GameList, GameRow
from bot.features.wording import game_title, names_and
from bot.i18n import translate
from bot.service import InvalidControl
from cogs.common import NO_PINGS, reader_language, safe_name, safe_text, service_of, stopped
from cogs.controls import register_control
from cogs.lobby import message_parts
from cogs.table import acknowledge

JUMP = "xt:jump"
"""The custom id of the menu under /games (the chosen option is the match's number)."""


def when(epoch: int, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time and language ("3 hours ago")."""
    return discord.utils.format_dt(datetime.fromtimestamp(epoch, UTC), style)


def channel_mention(channel_id: int) -> str:
    return f"<#{channel_id}>"


def server_name(client: discord.Client, guild_id: int, language: str) -> str:
    guild = client.get_guild(guild_id)
    return safe_name(guild.name) if guild is not None else translate("personal.games.other_server", language)


def turn_words(row: GameRow, language: str) -> str:
    if row.yours:
        return translate("personal.games.your_turn", language)
    return translate("personal.games.their_turn", language, names=names_and(row.to_move, language))


def board_link(row: GameRow, language: str) -> str:
    url = row.jump_url()
    if url is None:
        return translate("personal.games.no_board", language)
    return translate("personal.games.board_link", language, url=url)


def game_line(client: discord.Client, number: int, row: GameRow, language: str) -> str:
    """One game under way: the game, where, whose turn since when, the deadline, the link to its board."""
    match = row.match
    parts = [turn_words(row, language)]
    if row.since is not None:
        parts[0] += " " + translate("personal.games.since", language, when=when(row.since))
    if row.deadline is not None:
        parts.append(translate("personal.games.deadline", language, when=when(row.deadline)))
    parts.append(board_link(row, language))
    text = translate("personal.games.row", language, number=number,
                     game=game_title(find_game(match.game), language),
                     server=server_name(client, match.guild_id, language), channel=channel_mention(match.channel_id),
                     state=" · ".join(parts))
    return safe_text(text, [seat.name for seat in match.seats])


def finished_line(client: discord.Client, number: int, row: GameRow, language: str) -> str:
    """One finished game: the game, where, how the member did, when it ended, the link to its final board."""
    match = row.match
    result = row.result
    if result is None:
        outcome = translate("personal.games.ended", language)
    else:
        outcome = (translate("personal.games.won", language) if result.won
                   else translate("personal.games.not_won", language))
        if result.score is not None:
            outcome += " " + translate("personal.games.score", language, score=result.score)
    parts = [outcome]
    if row.since is not None:
        parts.append(translate("personal.games.finished_at", language, when=when(row.since)))
    parts.append(board_link(row, language))
    text = translate("personal.games.row", language, number=number,
                     game=game_title(find_game(match.game), language),
                     server=server_name(client, match.guild_id, language), channel=channel_mention(match.channel_id),
                     state=" · ".join(parts))
    return safe_text(text, [seat.name for seat in match.seats])


def games_text(client: discord.Client, found: GameList, language: str, *, ended: bool) -> str:
    """The whole private list, in the reader's language."""
    if not found.rows:
        return translate("personal.games.none_ended", language) if ended else translate("personal.games.none",
                                                                                         language)
    line = finished_line if ended else game_line
    count = len(found.rows) + found.more
    heading = (translate("personal.games.heading_ended", language, count=count) if ended
               else translate("personal.games.heading", language, count=count))
    lines = [heading] + [line(client, number, row, language) for number, row in enumerate(found.rows, start=1)]
    if found.more:
        lines.append(translate("personal.games.more", language, count=found.more))
    return "\n".join(lines)


def jump_menu(client: discord.Client, found: GameList, language: str) -> discord.ui.View:
    """A menu of the listed games (at most 25, Discord's limit): choosing one answers with the way to its board."""
    options = []
    for row in found.rows:
        match = row.match
        label = f"{game_title(find_game(match.game), language)} — {server_name(client, match.guild_id, language)}"
        description = (turn_words(row, language) if row.match.status == "active"
                       else translate("personal.games.ended", language))
        options.append(discord.SelectOption(label=discord.utils.remove_markdown(label)[:100], value=str(match.id),
                                            description=discord.utils.remove_markdown(description)[:100]))
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id=JUMP, placeholder=translate("personal.games.menu", language)[:150],
                                    options=options, min_values=1, max_values=1))
    return stopped(view)


async def press_jump(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    """A game chosen in the menu: its link, with a button that goes to its board (only for a game of theirs)."""
    values = getattr(item, "values", None) or []
    if len(values) != 1 or not re.fullmatch(r"[0-9]{1,19}", values[0]):
        raise InvalidControl()
    row = await personal.seated_game(service_of(interaction), interaction.user.id, int(values[0]))
    if row is None:
        raise InvalidControl()
    language = reader_language(interaction)
    title = game_title(find_game(row.match.game), language)
    where = server_name(interaction.client, row.match.guild_id, language)
    url = row.jump_url()
    view = discord.ui.View(timeout=None)
    if url is not None:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                                        label=translate("personal.games.go", language)))
    text = translate("personal.games.jump", language, game=title, server=where,
                     channel=channel_mention(row.match.channel_id), link=board_link(row, language))
    await interaction.followup.send(text, view=stopped(view), ephemeral=True, allowed_mentions=NO_PINGS)


class PersonalCommands(commands.Cog):
    """A member's own commands, the same in every server and in DMs."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Every game you sit in, on every server: yours to move first")
    @app_commands.describe(ended="Your latest finished games instead, with results")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def games(self, interaction: discord.Interaction, ended: bool = False) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        language = reader_language(interaction)
        found = (await personal.my_finished_games(service, interaction.user.id) if ended
                 else await personal.my_games(service, interaction.user.id))
        parts = message_parts(games_text(interaction.client, found, language, ended=ended))
        for index, part in enumerate(parts):
            menu = jump_menu(interaction.client, found, language) if found.rows and index == len(parts) - 1 else None
            extra: dict[str, Any] = {"view": menu} if menu is not None else {}
            await interaction.followup.send(part, ephemeral=True, allowed_mentions=NO_PINGS, **extra)


async def setup(bot: commands.Bot) -> None:
    register_control("jump", r"", press_jump, private=True)
    await bot.add_cog(PersonalCommands(bot))
