"""The /game command group: open a lobby, join, leave, start, see the board, your private view, the log, rules."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import all_games, find_game
from bot.service import MatchRecord
from cogs.common import (
    DYNAMIC_ITEMS,
    answer_error,
    channel_id_of,
    player_of,
    post_board,
    send_private,
    service_of,
)

GAME_CHOICES = [app_commands.Choice(name=game.title, value=game.key) for game in all_games()]


def lobby_text(match: MatchRecord, note: str | None = None) -> str:
    game = find_game(match.game)
    mode = game.mode(match.mode)
    seats = "\n".join(
        f"{index}. {seat.name}{' (host)' if seat.user_id == match.host_id else ''}"
        for index, seat in enumerate(match.seats, start=1)
    )
    count = (str(mode.min_players) if mode.min_players == mode.max_players
             else f"{mode.min_players}-{mode.max_players}")
    lines = [f"**{game.title}** — {mode.title} ({count} players)"]
    if note:
        lines.append(note)
    if match.status == "lobby":
        lines += [f"Seated:\n{seats}", "Join with the button or `/game join`; the host starts with Start or "
                  "`/game start`."]
    elif match.status == "abandoned":
        lines.append("This lobby was closed.")
    return "\n".join(lines)


def lobby_view(match: MatchRecord) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if match.status == "lobby":
        for what in ("join", "leave", "start"):
            view.add_item(LobbyButton(match.id, what))
    return view


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"xt:lobby:(?P<match>\d+):(?P<what>join|leave|start)"):
    """Join, Leave and Start under the lobby message."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, match_id: int, what: str) -> None:
        self.match_id = match_id
        self.what = what
        super().__init__(discord.ui.Button(label=what.capitalize(), style=self.STYLES[what],
                                           custom_id=f"xt:lobby:{match_id}:{what}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> LobbyButton:
        return cls(int(match["match"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            service = service_of(interaction)
            channel = channel_id_of(interaction)
            current = await service.open_match(channel)
            if current is None or current.id != self.match_id or current.status != "lobby":
                await send_private(interaction, "This lobby is closed. See the channel's game with /game board.")
                return
            if self.what == "join":
                match = await service.join(channel, player_of(interaction))
            elif self.what == "leave":
                match = await service.leave(channel, player_of(interaction))
            else:
                match = await service.start(channel, interaction.user.id)
            await interaction.response.edit_message(content=lobby_text(match), view=lobby_view(match))
            if match.status == "active":
                board = await service.board(match)
                await post_board(interaction, board)
        except Exception as error:
            await answer_error(interaction, error)


class AbandonButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"xt:abandon:(?P<match>\d+)"):
    """The confirmation under /game abandon."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(discord.ui.Button(label="Yes, abandon the game", style=discord.ButtonStyle.danger,
                                           custom_id=f"xt:abandon:{match_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> AbandonButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            service = service_of(interaction)
            channel = channel_id_of(interaction)
            current = await service.open_match(channel)
            if current is None or current.id != self.match_id:
                await send_private(interaction, "That game has already ended.")
                return
            can_manage = bool(interaction.permissions and interaction.permissions.manage_channels)
            match = await service.abandon(channel, interaction.user.id, can_manage_channel=can_manage)
            await interaction.response.edit_message(content="The game was abandoned.", view=None)
            title = find_game(match.game).title
            await interaction.followup.send(f"{interaction.user.display_name} abandoned the {title} game. "
                                            "Start a new one with /game new.")
        except Exception as error:
            await answer_error(interaction, error)


async def mode_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    game_key = getattr(interaction.namespace, "game", None)
    games = [find_game(game_key)] if game_key else all_games()
    choices = []
    for game in games:
        for mode in game.modes:
            label = f"{mode.title} ({mode.min_players}-{mode.max_players} players)" if len(games) == 1 else \
                f"{game.title}: {mode.title}"
            if current.lower() in label.lower() or current.lower() in mode.key:
                choices.append(app_commands.Choice(name=label[:100], value=mode.key))
    return choices[:25]


@app_commands.guild_only()
class GameCommands(commands.GroupCog, group_name="game", group_description="Start and manage a game here"):
    """The lobby and table commands shared by every game."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Open a lobby for a game in this channel")
    @app_commands.describe(game="Which game", mode="Standard, solo or a variant",
                           seed="A number for a reproducible shuffle and dice (tournaments, bug reports)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(mode=mode_autocomplete)
    async def new(self, interaction: discord.Interaction, game: str, mode: str | None = None,
                  seed: app_commands.Range[int, 0, 2**53] | None = None) -> None:
        service = service_of(interaction)
        match = await service.new_match(interaction.guild_id or 0, channel_id_of(interaction), game,
                                        player_of(interaction), mode=mode, seed=seed)
        if match.status == "active":
            await interaction.response.defer(thinking=True)
            board = await service.board(match)
            await post_board(interaction, board)
            return
        note = f"Seed {match.seed} chosen: shuffles and dice are reproducible." if match.seed_chosen else None
        await interaction.response.send_message(lobby_text(match, note), view=lobby_view(match))

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        match = await service_of(interaction).join(channel_id_of(interaction), player_of(interaction))
        await interaction.response.send_message(lobby_text(match, f"{interaction.user.display_name} joined."),
                                                view=lobby_view(match))

    @app_commands.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction) -> None:
        match = await service_of(interaction).leave(channel_id_of(interaction), player_of(interaction))
        await interaction.response.send_message(lobby_text(match, f"{interaction.user.display_name} left."),
                                                view=lobby_view(match))

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        match = await service.start(channel_id_of(interaction), interaction.user.id)
        await interaction.response.defer(thinking=True)
        board = await service.board(match)
        await post_board(interaction, board)

    @app_commands.command(name="board", description="Post this channel's board again")
    async def board(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        match = await service.current(channel_id_of(interaction))
        if match.status == "lobby":
            await interaction.response.send_message(lobby_text(match), view=lobby_view(match))
            return
        await interaction.response.defer(thinking=True)
        await post_board(interaction, await service.board(match))

    @app_commands.command(name="mine", description="Your private view of the game (only you see it)")
    async def mine(self, interaction: discord.Interaction) -> None:
        text = await service_of(interaction).mine(channel_id_of(interaction), interaction.user.id)
        await send_private(interaction, text)

    @app_commands.command(name="abandon", description="End this channel's game (host or channel managers)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        match = await service.current(channel_id_of(interaction))
        can_manage = bool(interaction.permissions and interaction.permissions.manage_channels)
        if not match.is_open:
            await send_private(interaction, "There is no unfinished game here to abandon.")
            return
        if interaction.user.id != match.host_id and not can_manage:
            await send_private(interaction, "Only the host, or someone who can manage this channel, can abandon "
                                            "the game.")
            return
        view = discord.ui.View(timeout=None)
        view.add_item(AbandonButton(match.id))
        await send_private(interaction, "Abandon this game for everyone? It cannot be resumed.", view=view)

    @app_commands.command(name="log", description="The last moves in words")
    @app_commands.describe(count="How many entries (1-50)")
    async def log(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 10) -> None:
        lines = await service_of(interaction).log(channel_id_of(interaction), count)
        await send_private(interaction, "\n".join(lines) if lines else "Nothing has happened yet.")

    @app_commands.command(name="rules", description="A summary of the rules of this channel's game")
    @app_commands.describe(game="A game to read about (default: this channel's)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        text = await service_of(interaction).rules(interaction.channel_id, game)
        embed = discord.Embed(description=text[:4000], colour=0xE69F00)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS, LobbyButton, AbandonButton)
    await bot.add_cog(GameCommands(bot))
