"""What every cog shares: answering errors privately, posting boards, and the persistent board buttons.

Buttons are DynamicItems whose custom ids carry the match, the board version, the seat and the offer index,
so they keep working after a restart and a press on an old board is recognised as stale.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.core import JSON, RuleError, StaleBoard
from bot.service import Accepted, Board, BoardButton, BoardMenu, GameService, Player

if TYPE_CHECKING:
    from bot.app import ExpeditionBot

log = logging.getLogger(__name__)

APOLOGY = ("Sorry, something went wrong on our side. The error has been logged; /game board shows where the game "
           "stands.")

BUTTON_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True)


def service_of(interaction: discord.Interaction) -> GameService:
    client: ExpeditionBot = interaction.client  # type: ignore[assignment]
    return client.service


def player_of(interaction: discord.Interaction) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)


def channel_id_of(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise RuleError("Games are played in server channels; this command does not work here.")
    return interaction.channel_id


async def send_private(interaction: discord.Interaction, content: str, **extra: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already answered or deferred."""
    content = content[:1990]
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(content, ephemeral=True, **extra)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Rule errors privately with their message (a stale board also shows the current board); others logged."""
    try:
        if isinstance(error, StaleBoard):
            await send_current_board_privately(interaction, str(error))
        elif isinstance(error, RuleError):
            await send_private(interaction, str(error))
        else:
            log.error("Unexpected error in %s", _describe(interaction), exc_info=error)
            await send_private(interaction, APOLOGY)
    except discord.HTTPException:
        log.exception("Could not answer an interaction after an error")


def _describe(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
    return f"/{command}" if command else f"component {custom_id!r}"


async def send_current_board_privately(interaction: discord.Interaction, note: str) -> None:
    service = service_of(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        match = await service.current(channel_id_of(interaction))
    except RuleError:
        await interaction.followup.send(note, ephemeral=True)
        return
    board = await service.board(match)
    await interaction.followup.send(ephemeral=True, **board_message(board, note=note))


def board_content(board: Board, note: str | None = None) -> str:
    """The line under a board: what just happened, then whose turn with a ping (or the result)."""
    lines = [note] if note else []
    if board.headline:
        lines.append(board.headline)
    if board.mentions and not board.finished:
        pings = " ".join(f"<@{user_id}>" for user_id in board.mentions)
        lines.append(f"{pings} — {board.turn}")
    else:
        lines.append(f"**{board.turn}**" if board.finished else board.turn)
    return "\n".join(lines)[:1990]


def board_view(board: Board) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in board.buttons:
        view.add_item(ActionButton(button))
    if board.menu is not None:
        view.add_item(ActionMenu(board.menu))
    if board.match.state is not None:
        view.add_item(MineButton(board.match.id, row=4))
    return view


def board_message(board: Board, note: str | None = None) -> dict[str, Any]:
    """Keyword arguments for send/followup: content, the PNG and the buttons."""
    message: dict[str, Any] = {"content": board_content(board, note), "allowed_mentions": MENTION_USERS,
                               "view": board_view(board)}
    if board.image is not None:
        message["file"] = discord.File(io.BytesIO(board.image), filename="board.png")
    return message


async def post_board(interaction: discord.Interaction, board: Board) -> None:
    """Post a board publicly (the interaction already acknowledged), taking the buttons off the previous one first.

    Old buttons would be refused anyway (their board version is stale); removing them keeps the channel honest,
    and doing it first means two boards never both show buttons.
    """
    service = service_of(interaction)
    previous = await service.board_message(board.match.id)
    channel = interaction.channel
    if previous is not None and channel is not None and hasattr(channel, "get_partial_message"):
        try:
            await channel.get_partial_message(previous).edit(view=None)
        except discord.HTTPException as error:  # deleted, or no longer ours to edit: nothing to tidy
            log.debug("Could not remove the buttons of board message %s: %s", previous, error)
    message = await interaction.followup.send(wait=True, **board_message(board))
    await service.set_board_message(board.match.id, message.id)


async def post_accepted(interaction: discord.Interaction, accepted: Accepted) -> None:
    """After a committed move: defer (rendering can take a moment), then post the new board publicly."""
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
    board = await service_of(interaction).board(accepted.match, headline=accepted.headline)
    await post_board(interaction, board)


async def play(interaction: discord.Interaction, action: JSON) -> None:
    """The whole path of a game command: submit, and on success post the board. Errors go to the handler."""
    accepted = await service_of(interaction).act(channel_id_of(interaction), interaction.user.id, action)
    await post_accepted(interaction, accepted)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"xt:act:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<index>\d+)"):
    """One quick action under a board, valid for that board's version only."""

    def __init__(self, offer: BoardButton) -> None:
        self.offer = offer
        style = BUTTON_STYLES.get(offer.style, discord.ButtonStyle.secondary)
        custom_id = f"xt:act:{offer.match_id}:{offer.version}:{offer.seat}:{offer.index}"
        super().__init__(discord.ui.Button(label=offer.label[:80], emoji=offer.emoji, row=offer.row, style=style,
                                           custom_id=custom_id))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ActionButton:
        offer = BoardButton(item.label or "", int(match["match"]), int(match["version"]), int(match["seat"]),
                            int(match["index"]), None, "secondary", None)
        return cls(offer)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            accepted = await service_of(interaction).press(self.offer.match_id, self.offer.version, self.offer.seat,
                                                           self.offer.index, interaction.user.id)
            await post_accepted(interaction, accepted)
        except Exception as error:  # a button has no tree handler: answer here, never leave it unanswered
            await answer_error(interaction, error)


class ActionMenu(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"xt:pick:(?P<match>\d+):(?P<version>\d+):(?P<seat>\d+)"):
    """A select menu of actions under a board (a choice with many options), valid for that version only."""

    def __init__(self, menu: BoardMenu) -> None:
        self.menu = menu
        options = [discord.SelectOption(label=label[:100], value=str(index), emoji=emoji)
                   for index, (label, emoji) in enumerate(menu.labels)]
        super().__init__(discord.ui.Select(
            placeholder=menu.placeholder[:150], options=options, min_values=1, max_values=1, row=3,
            custom_id=f"xt:pick:{menu.match_id}:{menu.version}:{menu.seat}",
        ))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> ActionMenu:
        labels = tuple((option.label, None) for option in item.options)
        return cls(BoardMenu(item.placeholder or "", labels, int(match["match"]), int(match["version"]),
                             int(match["seat"])))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            index = int(self.item.values[0])
            accepted = await service_of(interaction).press(self.menu.match_id, self.menu.version, self.menu.seat,
                                                           index, interaction.user.id, from_menu=True)
            await post_accepted(interaction, accepted)
        except Exception as error:
            await answer_error(interaction, error)


class MineButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"xt:mine:(?P<match>\d+)"):
    """"Show mine": the presser's private view of the game, ephemerally."""

    def __init__(self, match_id: int, row: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(discord.ui.Button(label="Show mine", emoji="🔒", style=discord.ButtonStyle.secondary,
                                           row=row, custom_id=f"xt:mine:{match_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> MineButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            text = await service_of(interaction).mine_in_match(self.match_id, interaction.user.id)
            await send_private(interaction, text)
        except Exception as error:
            await answer_error(interaction, error)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ActionButton, ActionMenu, MineButton)
