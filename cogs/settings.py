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
from bot.settings import BOARD_STYLES, MAX_HOURS, TIMER_POLICIES, ServerSettings, check_hours, hours_text
from cogs.common import send_private, service_of

GAME_CHOICES = [app_commands.Choice(name=game.title, value=game.key) for game in all_games()]
POLICY_TEXT = {"bot": "a normal computer player plays the turn",
               "skip": "the turn is skipped where the game allows a pass, else a computer player plays it"}
STYLE_TEXT = {"turn": "one board message per turn, updated as the turn goes on",
              "step": "a new board message after every move"}


class NeedsManageServer(app_commands.CheckFailure):
    def __init__(self) -> None:
        super().__init__("Only members with the Manage Server permission can see or change the bot's settings.")


def describe(settings: ServerSettings) -> str:
    """Every setting and its value, in words."""
    reminders = (f"every {hours_text(settings.reminder_hours)}; after three, the channel is told the game stalled"
                 if settings.reminder_hours else "off")
    timer = (f"{hours_text(settings.timer_hours)} per turn; then {POLICY_TEXT[settings.timer_policy]}"
             if settings.timer_hours else f"off (when on: {POLICY_TEXT[settings.timer_policy]})")
    channels = ", ".join(f"<#{channel}>" for channel in settings.game_channels) or "any channel"
    modes = ", ".join(f"{find_game(key).title}: {_mode_title(key, mode)}"
                      for key, mode in sorted(settings.default_modes.items()) if _known_game(key)) \
        or "each game's first mode"
    return "\n".join([
        "**This server's settings**",
        f"- Reminders (`/settings reminders`): {reminders}",
        f"- Turn timer (`/settings timer`): {timer}",
        f"- Board style (`/settings board`): {STYLE_TEXT[settings.board_style]}",
        f"- Games in threads (`/settings threads`): {'on' if settings.threads else 'off'}",
        f"- Channels where games may start (`/settings channels`): {channels}",
        f"- Default modes (`/settings mode`): {modes}",
        f"- Lobbies expire after (`/settings lobby-expiry`): {hours_text(settings.lobby_expiry_hours)}",
    ])


def _mode_title(game_key: str, mode_key: str) -> str:
    """A mode as the lobby names it ("Solo campaign"); a key no longer among the game's modes as it is."""
    return next((mode.title for mode in find_game(game_key).modes if mode.key == mode_key), mode_key)


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
    return [app_commands.Choice(name=f"{mode.title} ({mode.min_players}-{mode.max_players} players)", value=mode.key)
            for mode in find_game(key).modes if current.lower() in mode.key][:25]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCommands(commands.GroupCog, group_name="settings",
                       group_description="How this server hosts games (Manage Server)"):
    """The server's settings; shown and changed privately."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        # default_permissions only hides the command; a server can re-grant it, so the permission is checked too.
        if not (interaction.permissions and interaction.permissions.manage_guild):
            raise NeedsManageServer()
        return True

    async def _change(self, interaction: discord.Interaction, key: str, value: Any, done: str) -> None:
        settings = await update_setting(service_of(interaction), interaction.guild_id or 0, key, value)
        await send_private(interaction, f"{done}\n\n{describe(settings)}")

    @app_commands.command(name="show", description="List this server's settings")
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await settings_for(service_of(interaction), interaction.guild_id or 0)
        await send_private(interaction, describe(settings))

    @app_commands.command(name="reminders", description="Hours before the player to move is reminded (0: off)")
    @app_commands.describe(hours=f"0.25 to {MAX_HOURS} hours between reminders; 0 turns reminders off")
    async def reminders(self, interaction: discord.Interaction, hours: float) -> None:
        value = check_hours(hours, "The reminder interval", allow_off=True)
        await self._change(interaction, "reminder_hours", value,
                           f"Reminders every {hours_text(value)} from the next turn on." if value else
                           "Reminders are off from the next turn on.")

    @app_commands.command(name="timer", description="A deadline per turn, and what happens when it passes")
    @app_commands.describe(hours=f"0.25 to {MAX_HOURS} hours per turn; 0 turns the timer off",
                           policy="bot: a normal computer player plays the turn; skip: the turn is skipped where "
                                  "the game allows a pass")
    @app_commands.choices(policy=[app_commands.Choice(name=name, value=name) for name in TIMER_POLICIES])
    async def timer(self, interaction: discord.Interaction, hours: float, policy: str | None = None) -> None:
        value = check_hours(hours, "A turn timer", allow_off=True)
        if policy is not None:
            if policy not in TIMER_POLICIES:
                raise RuleError(f"The timer policy is one of: {', '.join(TIMER_POLICIES)}.")
            await update_setting(service_of(interaction), interaction.guild_id or 0, "timer_policy", policy)
        await self._change(interaction, "timer_hours", value,
                           f"Turn timer: {hours_text(value)} per turn, from the next turn on." if value else
                           "The turn timer is off (games opened with /game new timer: keep their own).")

    @app_commands.command(name="board", description="One board message per turn, or a new one per move")
    @app_commands.describe(style="turn: one message per turn, updated in place; step: a new message every move")
    @app_commands.choices(style=[app_commands.Choice(name=name, value=name) for name in BOARD_STYLES])
    async def board(self, interaction: discord.Interaction, style: str) -> None:
        if style not in BOARD_STYLES:
            raise RuleError(f"The board style is one of: {', '.join(BOARD_STYLES)}.")
        await self._change(interaction, "board_style", style, f"Board style: {STYLE_TEXT[style]}.")

    @app_commands.command(name="threads", description="Open every new game in a thread of its channel")
    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self._change(interaction, "threads", enabled,
                           "New games open in a thread of the channel." if enabled else
                           "New games are played in the channel itself (/game new thread:true still opens one).")

    @app_commands.command(name="channels", description="Choose the channels where games may start")
    @app_commands.describe(action="add or remove a channel, or clear the list (games start anywhere)",
                           channel="The channel to add or remove")
    @app_commands.choices(action=[app_commands.Choice(name=name, value=name) for name in ("add", "remove", "clear")])
    async def channels(self, interaction: discord.Interaction, action: str,
                       channel: discord.TextChannel | None = None) -> None:
        current = (await settings_for(service_of(interaction), interaction.guild_id or 0)).game_channels
        if action == "clear":
            await self._change(interaction, "game_channels", None, "Games may start in any channel.")
            return
        if channel is None:
            raise RuleError(f"Name the channel to {action}: /settings channels action:{action} channel:#games.")
        if action == "add":
            if channel.id in current:
                raise RuleError(f"{channel.mention} is already on the list.")
            await self._change(interaction, "game_channels", (*current, channel.id),
                               f"Games may start in {channel.mention} (and its threads).")
            return
        if channel.id not in current:
            raise RuleError(f"{channel.mention} is not on the list; /settings show lists it.")
        await self._change(interaction, "game_channels", tuple(c for c in current if c != channel.id) or None,
                           f"{channel.mention} is off the list.")

    @app_commands.command(name="mode", description="The mode /game new uses for a game when none is given")
    @app_commands.describe(game="Which game", mode="Its default mode (leave out to go back to the first mode)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(mode=mode_autocomplete)
    async def mode(self, interaction: discord.Interaction, game: str, mode: str | None = None) -> None:
        chosen = find_game(game)
        settings = await settings_for(service_of(interaction), interaction.guild_id or 0)
        modes = dict(settings.default_modes)
        if mode is None:
            modes.pop(chosen.key, None)
            done = f"{chosen.title} starts in its first mode ({chosen.modes[0].key}) unless /game new names one."
        else:
            picked = chosen.mode(mode)  # a LobbyError lists the modes there are
            modes[chosen.key] = picked.key
            done = f"{chosen.title} now starts in: {picked.title} (unless /game new names another mode)."
        await self._change(interaction, "default_modes", modes or None, done)

    @app_commands.command(name="lobby-expiry", description="Hours before a lobby that never started is closed")
    @app_commands.describe(hours=f"1 to {MAX_HOURS} hours")
    async def lobby_expiry(self, interaction: discord.Interaction, hours: float) -> None:
        value = check_hours(hours, "The lobby expiry", allow_off=False, low=1)
        await self._change(interaction, "lobby_expiry_hours", value,
                           f"Lobbies opened from now on expire after {hours_text(value)}.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCommands(bot))
