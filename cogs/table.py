"""Table manners: how a move reaches the channel.

- Answer first, then work: every interaction is acknowledged (a private "thinking…" for a slash command, a silent
  update for a button or menu) before anything is committed or rendered, so Discord's 3-second limit holds at any
  load.
- One board message per turn: while the same player goes on, the current board message is edited in place; a new
  board message is posted only when the seats to move change or the game ends. The previous board loses its
  controls first, so two boards never both show buttons.
- Pings only in a newly created message and only for the player to move (`allowed_mentions` names them); an edit
  never carries a mention, and every name in a message is escaped.
- One desk per match serialises its board messages and coalesces edits: while one edit is on the wire, further
  moves of the same turn only mark the board dirty, and the next edit shows the latest state. A busy channel thus
  needs at most one new message per turn and one edit in flight.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot.service import Accepted, Board, GameService
from cogs.common import NO_PINGS, channel_id_of, pings, safe_text, service_of

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"


# --------------------------------------------------------------------------------------------- message content


def board_content(board: Board, *, ping: bool, note: str | None = None) -> str:
    """The text of a board message: what happened this turn, then whose turn it is (pinged only when `ping`)."""
    names = [seat.name for seat in board.match.seats]
    lines = [note] if note else []
    if board.headline:
        lines.append(safe_text(board.headline, names))
    turn = safe_text(board.turn, names)
    if board.finished:
        lines.append(f"**{turn}**")
    elif ping and board.mentions:
        lines.append(f"{' '.join(f'<@{user_id}>' for user_id in board.mentions)} — {turn}")
    else:
        lines.append(turn)
    text = "\n".join(lines)
    if len(text) > 1990:  # keep the end: whose turn it is matters more than the oldest step of the story
        text = "…" + text[-1989:]
    return text


def board_message(board: Board, *, ping: bool, note: str | None = None, controls: bool = True) -> dict[str, Any]:
    """Keyword arguments for a new board message or an edit: content, the image with its alt text, the controls."""
    from cogs.controls import board_view

    message: dict[str, Any] = {
        "content": board_content(board, ping=ping, note=note),
        "allowed_mentions": pings(board.mentions) if ping and not board.finished else NO_PINGS,
        "view": board_view(board) if controls else None,
    }
    if board.image is not None:
        message["file"] = discord.File(io.BytesIO(board.image), filename=BOARD_FILE,
                                       description=board.alt_text or None)
    return message


# --------------------------------------------------------------------------------------------- acknowledging


def is_component(interaction: discord.Interaction) -> bool:
    return interaction.type is discord.InteractionType.component


async def acknowledge(interaction: discord.Interaction, *, private: bool = False) -> None:
    """The first response, before any work: private "thinking…" for a command, a silent update for a control (or,
    for a control answered only to its presser (`private`), a "thinking…" only they see)."""
    if interaction.response.is_done():
        return
    if is_component(interaction) and not private:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


class AnswerFirstTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every slash command is acknowledged (a private "thinking…") before its callback
    runs, so no command, present or future, waits on the database, the render pool or Discord before Discord's
    3-second limit. (Controls are acknowledged by their router, cogs/controls.py; autocomplete, which cannot be
    deferred, answers within its own budget: cogs.common.answers_in_time.)"""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is discord.InteractionType.application_command:
            await acknowledge(interaction)
        return True


async def tell(interaction: discord.Interaction, text: str) -> None:
    """The private one-line answer to a command (it replaces the private "thinking…")."""
    if is_component(interaction):
        return  # a press is answered by the board it changes
    await interaction.followup.send(text[:1990], ephemeral=True, allowed_mentions=NO_PINGS)


# --------------------------------------------------------------------------------------------- the desk


@dataclass
class _MatchDesk:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    dirty: bool = False
    users: int = 0


class BoardDesk:
    """One per bot: serialises each match's board messages and coalesces in-place edits."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self._desks: dict[int, _MatchDesk] = {}
        self._watchers: dict[int, list[Callable[[], Awaitable[bool]]]] = {}
        self.edits_sent = 0  # for the benchmark and tests: how many in-place edits actually went out
        self.edits_coalesced = 0

    async def _with_desk(self, match_id: int, work: Callable[[_MatchDesk], Awaitable[None]]) -> None:
        desk = self._desks.setdefault(match_id, _MatchDesk())
        desk.users += 1
        try:
            await work(desk)
        finally:
            desk.users -= 1
            if desk.users == 0 and not desk.lock.locked():
                self._desks.pop(match_id, None)

    def watch(self, match_id: int, hook: Callable[[], Awaitable[bool]]) -> None:
        """Run `hook` after each later board change of the match until it returns True: a message about the game
        (an undo request) tidies itself once a move made it moot. Kept in memory; after a restart a press on it
        still gets the right answer."""
        self._watchers.setdefault(match_id, []).append(hook)

    async def _run_watchers(self, match_id: int) -> None:
        hooks = self._watchers.pop(match_id, [])
        waiting = []
        for hook in hooks:
            try:
                done = await hook()
            except Exception:  # a tidy-up must never break the move that triggered it
                log.exception("A board watcher of match %s failed", match_id)
                done = True
            if not done:
                waiting.append(hook)
        if waiting:
            self._watchers.setdefault(match_id, []).extend(waiting)

    async def refresh(self, match_id: int) -> None:
        """Show the match's latest state on its current board message (edited in place, no ping)."""

        async def work(desk: _MatchDesk) -> None:
            desk.dirty = True
            if desk.lock.locked():
                self.edits_coalesced += 1
                return  # the edit under way will show the latest state
            async with desk.lock:
                await self._drain(match_id, desk)

        await self._with_desk(match_id, work)
        await self._run_watchers(match_id)

    async def post(self, match_id: int, *, interaction: discord.Interaction | None = None, ping: bool = True,
                   note: str | None = None) -> discord.Message | None:
        """Post a new board message for the match (the turn passed, or someone asked for the board)."""
        posted: list[discord.Message | None] = [None]

        async def work(desk: _MatchDesk) -> None:
            async with desk.lock:
                desk.dirty = False  # the new board shows the latest state anyway
                posted[0] = await self._post(match_id, interaction=interaction, ping=ping, note=note)
                await self._drain(match_id, desk)

        await self._with_desk(match_id, work)
        await self._run_watchers(match_id)
        return posted[0]

    async def _drain(self, match_id: int, desk: _MatchDesk) -> None:
        while desk.dirty:
            desk.dirty = False
            await self._edit(match_id)

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def _edit(self, match_id: int) -> None:
        match = await self.service.match(match_id)
        message_id = await self.service.board_message(match_id)
        if message_id is None:
            await self._post(match_id, ping=False)
            return
        board = await self.service.board(match)
        message = board_message(board, ping=False)
        file = message.pop("file", None)
        try:
            await self._channel(match.channel_id).get_partial_message(message_id).edit(
                attachments=[file] if file is not None else [], **message)
            self.edits_sent += 1
        except discord.NotFound:  # someone deleted the board: post it again, without pinging anyone twice
            await self._post(match_id, ping=False)

    async def _post(self, match_id: int, *, interaction: discord.Interaction | None = None, ping: bool = True,
                    note: str | None = None) -> discord.Message:
        match = await self.service.match(match_id)
        await self._strip_previous(match_id, match.channel_id)
        board = await self.service.board(match)
        message = board_message(board, ping=ping, note=note)
        view: discord.ui.View | None = message["view"]
        if view is not None:
            view.stop()  # routed by cogs.controls; a finished view is not kept in memory per message
        if interaction is not None:
            sent = await interaction.followup.send(wait=True, **message)
        else:
            sent = await self._channel(match.channel_id).send(**message)
        await self.service.set_board_message(match_id, sent.id, match.version)
        return sent

    async def _strip_previous(self, match_id: int, channel_id: int) -> None:
        previous = await self.service.board_message(match_id)
        if previous is None:
            return
        try:
            await self._channel(channel_id).get_partial_message(previous).edit(view=None)
        except discord.HTTPException as error:  # deleted, or no longer ours to edit: nothing to tidy
            log.debug("Could not remove the controls of board message %s: %s", previous, error)


def desk_of(interaction: discord.Interaction) -> BoardDesk:
    return interaction.client.desk  # type: ignore[attr-defined,no-any-return]


# --------------------------------------------------------------------------------------------- moves


async def publish(interaction: discord.Interaction, accepted: Accepted) -> None:
    """After a committed move: a private line for a command, then a new board or the current one updated."""
    match = accepted.match
    names = [seat.name for seat in match.seats]
    desk = desk_of(interaction)
    if accepted.new_board or await service_of(interaction).board_style(match.guild_id) == "step":
        await tell(interaction, safe_text(accepted.acknowledgement, names) + "\nA new board is posted below.")
        await desk.post(match.id, interaction=interaction)
    else:
        await tell(interaction, safe_text(accepted.acknowledgement, names) + "\nThe board above is updated.")
        await desk.refresh(match.id)


async def play(interaction: discord.Interaction, action: dict[str, Any]) -> None:
    """The whole path of a game command: acknowledge, submit, publish. Errors go to the tree's handler."""
    await acknowledge(interaction)
    root = interaction.command.root_parent if interaction.command is not None else None
    game_key = GROUP_GAMES.get(root.name if root is not None else "")
    accepted = await service_of(interaction).act(channel_id_of(interaction), interaction.user.id, action,
                                                 game_key=game_key)
    await publish(interaction, accepted)


GROUP_GAMES = {"explore": "the-expedition", "hunt": "monster-expedition", "mech": "expeditions"}


async def post_board(interaction: discord.Interaction, match_id: int, *, ping: bool = True,
                     note: str | None = None) -> None:
    """A new board message for the match in answer to this interaction (acknowledged first if it was not)."""
    await acknowledge(interaction)
    if not is_component(interaction):
        await tell(interaction, "The board is posted below." if note is None else note)
    await desk_of(interaction).post(match_id, interaction=interaction, ping=ping)


async def send_current_board_privately(interaction: discord.Interaction, note: str) -> None:
    """A refused press or command on an old board: the current board, to the presser only."""
    service = service_of(interaction)
    await acknowledge(interaction)
    try:
        match = await service.current(channel_id_of(interaction))
    except Exception:
        await interaction.followup.send(note, ephemeral=True, allowed_mentions=NO_PINGS)
        return
    if match.state is None:
        await interaction.followup.send(note, ephemeral=True, allowed_mentions=NO_PINGS)
        return
    board = await service.board(match)
    await interaction.followup.send(ephemeral=True, **board_message(board, ping=False, note=note))
