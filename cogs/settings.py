"""/settings: how this server hosts games (issue 12). Manage Server only; every answer is private.

Reminder interval, turn timer and its policy, board style, games in threads, the channels where games may start,
each game's default mode and how long a lobby waits. Values are checked here and explained when refused.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import RuleError, all_games, find_game
from bot.features.community import settings_for, update_setting
from bot.features.personal import clock_text, parse_clock
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, Text, deferred, translate
from bot.service import mode_players, mode_title
from bot.settings import (
    BOARD_STYLES,
    LIMITS,
    MAX_HOURS,
    TIMER_POLICIES,
    WHAT_LOBBY_EXPIRY,
    WHAT_REMINDERS,
    WHAT_TIMER,
    ServerSettings,
    check_hours,
    check_limit,
    hours_text,
)
from cogs.common import reader_language, send_private, service_of

# The limits' ranges as Discord checks them: the highest values are bot/settings.LIMITS (the one place they live).
MOST_BOARD_SECONDS = LIMITS["board_repost_seconds"]
MOST_REPLAY_MINUTES = LIMITS["replay_minutes"]
MOST_LOBBIES = LIMITS["lobby_limit"]
MOST_THREADS = LIMITS["threads_per_hour"]
GAME_CHOICES = [app_commands.Choice(name=game.title, value=game.key) for game in all_games()]
POLICY_TEXT = {"bot": deferred("settings.policy.bot"), "skip": deferred("settings.policy.skip")}
STYLE_TEXT = {"turn": deferred("settings.style.turn"), "step": deferred("settings.style.step")}
"""The message ids of each timer policy and board style in words."""
LANGUAGE_CHOICES = [app_commands.Choice(name=LANGUAGE_NAMES[language], value=language) for language in LANGUAGES]


class NeedsManageServer(app_commands.CheckFailure):
    def __init__(self) -> None:
        self.refusal = Text.of("settings.refuse.manage_server")  # worded for the reader by the bot's error handler
        super().__init__(str(self.refusal))


def describe(settings: ServerSettings, language: str = "en") -> str:
    """Every setting and its value, in words (in the reader's `language`)."""
    policy = translate(POLICY_TEXT[settings.timer_policy], language)
    reminders = (translate("settings.show.reminders_every", language,
                           hours=hours_text(settings.reminder_hours, language))
                 if settings.reminder_hours else translate("settings.off", language))
    timer = (translate("settings.show.timer_on", language, hours=hours_text(settings.timer_hours, language),
                       policy=policy)
             if settings.timer_hours else translate("settings.show.timer_off", language, policy=policy))
    channels = ", ".join(f"<#{channel}>" for channel in settings.game_channels) or \
        translate("settings.show.any_channel", language)
    modes = ", ".join(f"{find_game(key).title}: {_mode_title(key, mode, language)}"
                      for key, mode in sorted(settings.default_modes.items()) if _known_game(key)) \
        or translate("settings.show.first_modes", language)
    table_language = (LANGUAGE_NAMES[settings.language] if settings.language in LANGUAGES
                      else translate("settings.show.language_discord", language))
    return "\n".join([
        translate("settings.show.heading", language),
        translate("settings.show.reminders", language, value=reminders),
        translate("settings.show.timer", language, value=timer),
        translate("settings.show.board", language, value=translate(STYLE_TEXT[settings.board_style], language)),
        translate("settings.show.threads", language, value=translate("settings.on", language) if settings.threads
                  else translate("settings.off", language)),
        translate("settings.show.teach", language, value=translate("settings.on", language) if settings.teach
                  else translate("settings.off", language)),
        translate("settings.show.channels", language, value=channels),
        translate("settings.show.modes", language, value=modes),
        translate("settings.show.lobby_expiry", language, value=hours_text(settings.lobby_expiry_hours, language)),
        translate("settings.show.away", language, days=f"{settings.away_days:g}"),
        translate("settings.show.clock", language, clock=clock_text(settings.clock)) if len(settings.clock) == 2
        else translate("settings.show.clock_off", language),
        translate("settings.show.language", language, value=table_language),
        limits_line(settings, language),
    ])


def limits_line(settings: ServerSettings, language: str) -> str:
    """The limits on what one member posts, as /settings show lists them."""
    minutes = " " + translate("settings.unit.minutes", language)
    return translate("settings.show.limits", language, board=_limit(settings.board_repost_seconds, language, " s"),
                     replay=_limit(settings.replay_minutes, language, minutes),
                     lobbies=_limit(settings.lobby_limit, language),
                     threads=_limit(settings.threads_per_hour, language))


def _limit(value: int, language: str, unit: str = "") -> str:
    """A limit's number with its unit ("60 s"), or "no limit" for 0."""
    return f"{value}{unit}" if value else translate("settings.no_limit", language)


def _mode_title(game_key: str, mode_key: str, language: str = "en") -> str:
    """A mode as the lobby names it ("Solo campaign"); a key no longer among the game's modes as it is."""
    return next((str(mode_title(mode, language)) for mode in find_game(game_key).modes if mode.key == mode_key),
                mode_key)


def _known_game(key: str) -> bool:
    try:
        find_game(key)
    except RuleError:
        return False
    return True


async def mode_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    key = getattr(interaction.namespace, "game", None)
    if not key:
        return []
    language = reader_language(interaction)
    return [app_commands.Choice(name=mode_players(mode, language)[:100], value=mode.key)
            for mode in find_game(key).modes if current.lower() in mode.key][:25]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCommands(commands.GroupCog, group_name="settings",
                       group_description="How this server hosts games (Manage Server)"):
    """The server's settings; shown and changed privately."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # default_permissions only hides the command; a server can re-grant it, so the permission is checked too.
        if not (interaction.permissions and interaction.permissions.manage_guild):
            raise NeedsManageServer()
        return True

    async def _change(self, interaction: discord.Interaction, key: str, value: Any, done: str) -> None:
        settings = await update_setting(service_of(interaction), interaction.guild_id or 0, key, value)
        await send_private(interaction, f"{done}\n\n{describe(settings, reader_language(interaction))}")

    @app_commands.command(name="show", description="List this server's settings")
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await settings_for(service_of(interaction), interaction.guild_id or 0)
        await send_private(interaction, describe(settings, reader_language(interaction)))

    @app_commands.command(name="reminders", description="Hours before the player to move is reminded (0: off)")
    @app_commands.describe(hours=f"0.25 to {MAX_HOURS} hours between reminders; 0 turns reminders off")
    async def reminders(self, interaction: discord.Interaction, hours: float) -> None:
        value = check_hours(hours, WHAT_REMINDERS, allow_off=True)
        language = reader_language(interaction)
        await self._change(interaction, "reminder_hours", value,
                           translate("settings.done.reminders", language, hours=hours_text(value, language))
                           if value else translate("settings.done.reminders_off", language))

    @app_commands.command(name="timer", description="A deadline per turn, and what happens when it passes")
    @app_commands.describe(hours=f"0.25 to {MAX_HOURS} hours per turn; 0 turns the timer off",
                           policy="bot: a normal computer player plays the turn; skip: the turn is skipped where "
                                  "the game allows a pass")
    @app_commands.choices(policy=[app_commands.Choice(name=name, value=name) for name in TIMER_POLICIES])
    async def timer(self, interaction: discord.Interaction, hours: float, policy: str | None = None) -> None:
        value = check_hours(hours, WHAT_TIMER, allow_off=True)
        language = reader_language(interaction)
        if policy is not None:
            if policy not in TIMER_POLICIES:
                raise RuleError("settings.refuse.policy", choices=", ".join(TIMER_POLICIES))
            await update_setting(service_of(interaction), interaction.guild_id or 0, "timer_policy", policy)
        await self._change(interaction, "timer_hours", value,
                           translate("settings.done.timer", language, hours=hours_text(value, language))
                           if value else translate("settings.done.timer_off", language))

    @app_commands.command(name="board", description="One board message per turn, or a new one per move")
    @app_commands.describe(style="turn: one message per turn, updated in place; step: a new message every move")
    @app_commands.choices(style=[app_commands.Choice(name=name, value=name) for name in BOARD_STYLES])
    async def board(self, interaction: discord.Interaction, style: str) -> None:
        if style not in BOARD_STYLES:
            raise RuleError("settings.refuse.style", choices=", ".join(BOARD_STYLES))
        await self._change(interaction, "board_style", style,
                           translate("settings.done.board", reader_language(interaction),
                                     style=translate(STYLE_TEXT[style], reader_language(interaction))))

    @app_commands.command(name="away", description="Days a year each member may be away (/me away), deadlines frozen")
    @app_commands.describe(days="0 to 365 days a year; 0: members may not go away")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 365]) -> None:
        await self._change(interaction, "away_days", float(days),
                           translate("settings.done.away", reader_language(interaction), days=days))

    @app_commands.command(name="clock", description="A clock for new games instead of a deadline per turn")
    @app_commands.describe(clock="A bank of hours + hours added per move, such as 72+24; 0: no clock")
    async def clock(self, interaction: discord.Interaction, clock: str) -> None:
        language = reader_language(interaction)
        chosen = parse_clock(clock)
        if chosen is None:
            await self._change(interaction, "clock", None, translate("settings.done.clock_off", language))
            return
        await self._change(interaction, "clock", chosen,
                           translate("settings.done.clock", language, clock=clock_text(chosen)))

    @app_commands.command(name="threads", description="Open every new game in a thread of its channel")
    @app_commands.describe(enabled="True: every new game gets a thread of its own; "
                                   "False: games are played in the channel itself")
    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        language = reader_language(interaction)
        await self._change(interaction, "threads", enabled,
                           translate("settings.done.threads_on", language) if enabled else
                           translate("settings.done.threads_off", language))

    @app_commands.command(name="teach", description="Make every new game a teaching table")
    @app_commands.describe(enabled="True: new games' boards explain each idea when it first comes up; "
                                   "False: normal tables")
    async def teach(self, interaction: discord.Interaction, enabled: bool) -> None:
        language = reader_language(interaction)
        await self._change(interaction, "teach", enabled,
                           translate("settings.done.teach_on", language) if enabled else
                           translate("settings.done.teach_off", language))

    @app_commands.command(name="channels", description="Choose the channels where games may start")
    @app_commands.describe(action="add or remove a channel, or clear the list (games start anywhere)",
                           channel="The channel to add or remove")
    @app_commands.choices(action=[app_commands.Choice(name=name, value=name) for name in ("add", "remove", "clear")])
    async def channels(self, interaction: discord.Interaction, action: str,
                       channel: discord.TextChannel | None = None) -> None:
        current = (await settings_for(service_of(interaction), interaction.guild_id or 0)).game_channels
        language = reader_language(interaction)
        if action == "clear":
            await self._change(interaction, "game_channels", None, translate("settings.done.channels_any", language))
            return
        if channel is None:
            raise RuleError("settings.refuse.name_channel", action=action)
        if action == "add":
            if channel.id in current:
                raise RuleError("settings.refuse.channel_listed", channel=channel.mention)
            await self._change(interaction, "game_channels", (*current, channel.id),
                               translate("settings.done.channel_added", language, channel=channel.mention))
            return
        if channel.id not in current:
            raise RuleError("settings.refuse.channel_not_listed", channel=channel.mention)
        await self._change(interaction, "game_channels", tuple(c for c in current if c != channel.id) or None,
                           translate("settings.done.channel_removed", language, channel=channel.mention))

    @app_commands.command(name="mode", description="The mode /game new uses for a game when none is given")
    @app_commands.describe(game="Which game", mode="Its default mode (leave out to go back to the first mode)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(mode=mode_autocomplete)
    async def mode(self, interaction: discord.Interaction, game: str, mode: str | None = None) -> None:
        chosen = find_game(game)
        settings = await settings_for(service_of(interaction), interaction.guild_id or 0)
        modes = dict(settings.default_modes)
        language = reader_language(interaction)
        if mode is None:
            modes.pop(chosen.key, None)
            done = translate("settings.done.mode_first", language, title=chosen.title,
                             mode=mode_title(chosen.modes[0], language))
        else:
            picked = chosen.mode(mode)  # a LobbyError lists the modes there are
            modes[chosen.key] = picked.key
            done = translate("settings.done.mode", language, title=chosen.title, mode=mode_title(picked, language))
        await self._change(interaction, "default_modes", modes or None, done)

    @app_commands.command(name="lobby-expiry", description="Hours before a lobby that never started is closed")
    @app_commands.describe(hours=f"1 to {MAX_HOURS} hours")
    async def lobby_expiry(self, interaction: discord.Interaction, hours: float) -> None:
        value = check_hours(hours, WHAT_LOBBY_EXPIRY, allow_off=False, low=1)
        language = reader_language(interaction)
        await self._change(interaction, "lobby_expiry_hours", value,
                           translate("settings.done.lobby_expiry", language, hours=hours_text(value, language)))

    @app_commands.command(name="limits", description="What one member's commands may post publicly (0: no limit)")
    @app_commands.describe(board_seconds="Seconds before /game board posts the same board again (default 60)",
                           replay_minutes="Minutes between public replays in a channel (default 5)",
                           lobbies="Open lobbies one member may host at once (default 3)",
                           threads_per_hour="Game threads one member may open in an hour (default 5)")
    async def limits(self, interaction: discord.Interaction,
                     board_seconds: app_commands.Range[int, 0, MOST_BOARD_SECONDS] | None = None,
                     replay_minutes: app_commands.Range[int, 0, MOST_REPLAY_MINUTES] | None = None,
                     lobbies: app_commands.Range[int, 0, MOST_LOBBIES] | None = None,
                     threads_per_hour: app_commands.Range[int, 0, MOST_THREADS] | None = None) -> None:
        chosen = {"board_repost_seconds": board_seconds, "replay_minutes": replay_minutes, "lobby_limit": lobbies,
                  "threads_per_hour": threads_per_hour}
        changes = {key: check_limit(key, value) for key, value in chosen.items() if value is not None}
        service, guild_id = service_of(interaction), interaction.guild_id or 0
        for key, value in changes.items():
            await update_setting(service, guild_id, key, value)
        settings = await settings_for(service, guild_id)
        language = reader_language(interaction)
        done = translate("settings.done.limits", language) if changes else ""
        await send_private(interaction, f"{done}\n\n{describe(settings, language)}".strip())

    @app_commands.command(name="language", description="The language new tables play in")
    @app_commands.describe(language="English or Deutsch (leave out to follow the server's Discord language)")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        reader = reader_language(interaction)
        if language is None:
            done = translate("settings.done.language_discord", reader)
        else:
            done = translate("settings.done.language", reader, name=LANGUAGE_NAMES.get(language, language))
        await self._change(interaction, "language", language, done)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCommands(bot))
