"""A member's own commands (issue 34): /games lists every game they sit in, across servers, privately; /me notify
chooses how and when they are told it is their turn, and /me show says what they chose.

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
from bot.features.personal import GameList, GameRow, Prefs
from bot.features.quiet import zone_names
from bot.features.wording import duration_text, game_title, names_and
from bot.i18n import translate
from bot.service import InvalidControl
from cogs.common import NO_PINGS, reader_language, safe_name, safe_text, service_of, stopped
from cogs.controls import register_control
from cogs.lobby import message_parts
from cogs.table import acknowledge, tell

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


# --------------------------------------------------------------------------------------------- /me


NOTIFY_CHOICES = [app_commands.Choice(name="A ping in the game's channel", value="channel"),
                  app_commands.Choice(name="A DM with the board", value="dm"),
                  app_commands.Choice(name="Both", value="both")]


def prefs_text(prefs: Prefs, dm_refused: bool, language: str) -> str:
    """What the member chose, in their language (the defaults said as such)."""
    told = {"channel": translate("personal.me.notify.channel", language),
            "dm": translate("personal.me.notify.dm", language),
            "both": translate("personal.me.notify.both", language)}[prefs.notify]
    if prefs.reminder_hours is None:
        reminders = translate("personal.me.reminders.server", language)
    elif prefs.reminder_hours == 0:
        reminders = translate("personal.me.reminders.off", language)
    else:
        reminders = translate("personal.me.reminders.every", language,
                              hours=duration_text(prefs.reminder_hours, language))
    window = prefs.window
    if window is not None:
        quiet = translate("personal.me.quiet", language, start=f"{window[1]:02d}:00", end=f"{window[2]:02d}:00",
                          zone=window[0])
    elif prefs.time_zone is not None:
        quiet = translate("personal.me.quiet.none_zone", language, zone=prefs.time_zone)
    else:
        quiet = translate("personal.me.quiet.none", language)
    heads_up = (translate("personal.me.heads_up.on", language) if prefs.heads_up
                else translate("personal.me.heads_up.off", language))
    lines = [translate("personal.me.heading", language), told, reminders, quiet, heads_up]
    if dm_refused:
        lines.append(translate("personal.me.dm_refused", language))
    return "\n".join(lines)


async def zone_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """IANA time zones containing what was typed ("berl" offers Europe/Berlin), at most 25."""
    typed = current.strip().replace(" ", "_").lower()
    found = [name for name in zone_names() if typed in name.lower()]
    found.sort(key=lambda name: (not name.lower().rsplit("/", 1)[-1].startswith(typed), name))
    return [app_commands.Choice(name=name, value=name) for name in found[:25]]


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class MeCommands(commands.GroupCog, group_name="me",
                 group_description="How and when you are told it is your turn, on every server"):
    """A member's own preferences, kept across servers."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="show", description="How and when you are told it is your turn")
    async def show(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        prefs, dm_refused = await personal.my_prefs(service_of(interaction), interaction.user.id)
        await tell(interaction, prefs_text(prefs, dm_refused, reader_language(interaction)))

    @app_commands.command(name="notify", description="Choose how and when you are told it is your turn, everywhere")
    @app_commands.describe(how="How you are told it is your turn",
                           reminders="Hours between reminders in all your games (1-48; 0: none)",
                           server_reminders="Back to each server's reminder interval",
                           time_zone="Your time zone, for quiet hours (such as Europe/Berlin)",
                           quiet_from="Quiet hours begin at this hour of your day (0-23): reminders wait",
                           quiet_until="Quiet hours end at this hour of your day (0-23)",
                           heads_up="A DM when the player before you starts their turn",
                           reset="Forget every choice: back to the servers' ways")
    @app_commands.choices(how=NOTIFY_CHOICES)
    @app_commands.autocomplete(time_zone=zone_autocomplete)
    async def notify(self, interaction: discord.Interaction, how: str | None = None, reminders: float | None = None,
                     server_reminders: bool = False, time_zone: str | None = None,
                     quiet_from: app_commands.Range[int, 0, 23] | None = None,
                     quiet_until: app_commands.Range[int, 0, 23] | None = None, heads_up: bool | None = None,
                     reset: bool = False) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        prefs = await personal.change_prefs(service.store, interaction.user.id, notify=how, reminder_hours=reminders,
                                            server_reminders=server_reminders, time_zone=time_zone,
                                            quiet_from=quiet_from, quiet_until=quiet_until, heads_up=heads_up,
                                            reset=reset)
        _, dm_refused = await personal.my_prefs(service, interaction.user.id)
        language = reader_language(interaction)
        saved = translate("personal.me.saved", language)
        await tell(interaction, f"{saved}\n{prefs_text(prefs, dm_refused, language)}")


async def setup(bot: commands.Bot) -> None:
    register_control("jump", r"", press_jump, private=True)
    await bot.add_cog(PersonalCommands(bot))
    await bot.add_cog(MeCommands(bot))
