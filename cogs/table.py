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

Also here, because every cog answers through them: the lobby message, and answering errors privately (a stale
board is answered with the current board).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core import RuleError, StaleBoard, find_game
from bot.features.community import lobby_closes_at
from bot.service import Accepted, Board, GameService, MatchRecord
from bot.settings import hours_text
from cogs.common import NO_PINGS, button, channel_id_of, pings, safe_name, safe_text, send_private, service_of, stopped

if TYPE_CHECKING:
    from bot.features.scheduler import Scheduler

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
APOLOGY = ("Sorry, something went wrong on our side. The error has been logged; /game board shows where the game "
           "stands.")
BUTTON_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class TableBot(Protocol):
    """What the cogs use of the bot that loads them (bot/app.py's ExpeditionBot; the cogs never import it)."""

    service: GameService
    desk: BoardDesk
    scheduler: Scheduler

    def get_partial_messageable(self, id: int) -> discord.PartialMessageable: ...


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


BOARD_REPOSTED = "The board message was deleted, so the board is posted again here."


def board_message(board: Board, *, ping: bool, note: str | None = None, controls: bool = True) -> dict[str, Any]:
    """Keyword arguments for a new board message or an edit: content, the image with its alt text, the controls."""
    message: dict[str, Any] = {
        "content": board_content(board, ping=ping, note=note),
        "allowed_mentions": pings(board.mentions) if ping and not board.finished else NO_PINGS,
        "view": board_view(board) if controls else None,
    }
    if board.image is not None:
        message["file"] = discord.File(io.BytesIO(board.image), filename=BOARD_FILE,
                                       description=board.alt_text or None)
    return message


def board_view(board: Board) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for offer in board.buttons:
        view.add_item(button(f"xt:act:{offer.match_id}:{offer.version}:{offer.seat}:{offer.index}", offer.label,
                             style=BUTTON_STYLES.get(offer.style, discord.ButtonStyle.secondary),
                             emoji=offer.emoji, row=offer.row))
    if board.menu is not None:
        menu = board.menu
        options = [discord.SelectOption(label=label[:100], value=str(index), emoji=emoji)
                   for index, (label, emoji) in enumerate(menu.labels)]
        view.add_item(discord.ui.Select(placeholder=menu.placeholder[:150], options=options, min_values=1,
                                        max_values=1, row=3,
                                        custom_id=f"xt:pick:{menu.match_id}:{menu.version}:{menu.seat}"))
    if board.match.state is not None:
        view.add_item(button(f"xt:mine:{board.match.id}", "Show mine", emoji="🔒", row=4))
        view.add_item(button(f"xt:detail:{board.match.id}", "Details", emoji="🔍", row=4))
    return stopped(view)


async def lobby_content(service: GameService, match: MatchRecord, note: str | None = None) -> str:
    """The lobby message, with when it closes if nobody starts it (a Discord timestamp: each reader's own time)."""
    closes = await lobby_closes_at(service, match.id) if match.status == "lobby" else None
    return lobby_text(match, note, closes)


def lobby_text(match: MatchRecord, note: str | None = None, closes: datetime | None = None) -> str:
    game = find_game(match.game)
    mode = game.mode(match.mode)
    seats = "\n".join(
        f"{index}. {safe_name(seat.name)}{' (host)' if seat.user_id == match.host_id else ''}"
        for index, seat in enumerate(match.seats, start=1)
    )
    count = (str(mode.min_players) if mode.min_players == mode.max_players
             else f"{mode.min_players}-{mode.max_players}")
    lines = [f"**{game.title}** — {mode.title} ({count} {'player' if count == '1' else 'players'})"]
    if match.seed_chosen:  # on every update of the lobby, not only the first: who joins later sees it too
        lines.append(f"Seed {match.seed} chosen: shuffles and dice are reproducible.")
    if note:
        lines.append(note)
    timer = match.options.get("timer_hours")
    if timer is not None:  # chosen with /game new timer: (the server's own timer is in /settings)
        lines.append(f"Turn timer: {hours_text(float(timer))} per turn." if timer else "Turn timer: off for this game.")
    if match.status == "lobby":
        lines += [f"Seated:\n{seats}", "Join with the button or `/game join`; the host starts with Start or "
                  "`/game start`."]
        if closes is not None:
            lines.append(f"The lobby closes {discord.utils.format_dt(closes, 'R')} if nobody starts it.")
    elif match.status == "abandoned":
        lines.append("This lobby was closed.")
    else:
        lines += [f"Seated:\n{seats}", "The game has started: the board is below."]
    return "\n".join(lines)


def lobby_view(match: MatchRecord) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if match.status == "lobby":
        for what, style in (("join", discord.ButtonStyle.success), ("leave", discord.ButtonStyle.secondary),
                            ("start", discord.ButtonStyle.primary)):
            view.add_item(button(f"xt:lobby:{match.id}:{what}", what.capitalize(), style=style))
    return stopped(view)


# --------------------------------------------------------------------------------------------- acknowledging


def is_component(interaction: discord.Interaction) -> bool:
    return interaction.type is discord.InteractionType.component


async def acknowledge(interaction: discord.Interaction) -> None:
    """The first response, before any work: private "thinking…" for a command, a silent update for a control."""
    if interaction.response.is_done():
        return
    if is_component(interaction):
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


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
            await self._post(match_id, ping=False, note=BOARD_REPOSTED)

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
        # A step of the same player's turn (the "step" style) gets its own board but pings nobody: a ping is for
        # the turn passing to someone.
        await desk.post(match.id, interaction=interaction, ping=accepted.new_board)
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


# --------------------------------------------------------------------------------------------- errors


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
