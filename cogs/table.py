"""Table manners: how a move reaches the channel.

- Answer first, then work: every interaction is acknowledged (a private "thinking…" for a slash command, a silent
  update for a button or menu) before anything is committed or rendered, so Discord's 3-second limit holds at any
  load.
- One board message per turn: while the same player goes on, the current board message is edited in place; a new
  board message is posted only when the seats to move change or the game ends. The previous board loses its
  controls first, so two boards never both show buttons.
- Pings only in a newly created message and only for the player to move (`allowed_mentions` names them), or, on
  the final board, for every seated person; an edit never carries a mention, and every name is escaped.
- One desk per match serialises its board messages and coalesces edits: while one edit is on the wire, further
  moves of the same turn only mark the board dirty, and the next edit shows the latest state. A busy channel thus
  needs at most one new message per turn and one edit in flight.
- A committed move stands whatever Discord does next (issue 23). A turn's new board is owed from the move's own
  transaction (bot/features/outbox.py); posting it is retried (Discord's `retry_after`, server errors), falls back
  to what the channel allows (the board in words when images are not allowed), and what still fails stays owed: the
  scheduler delivers it later, pings included. The mover is told the move stands, never "Sorry"; while a channel
  refuses the bot, each player's next interaction there shows them privately where the game stands.

Also here, because every cog answers through them: the lobby message, and answering errors privately (a stale
board is answered with the current board).
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, cast

import aiohttp
import discord
from discord import app_commands

from bot.core import RuleError, StaleBoard, find_game, package_for_group
from bot.features import outbox, personal
from bot.features.community import lobby_closes_at
from bot.i18n import LANGUAGE_NAMES, translate, translate_plural
from bot.service import (
    Accepted,
    Board,
    GameService,
    MatchRecord,
    StoreDamaged,
    StoreUnavailable,
    WorkerBusy,
    mode_title,
    storage_full,
)
from bot.settings import hours_text
from cogs.common import (
    NO_PINGS,
    button,
    channel_id_of,
    fit,
    literal,
    now_of,
    pings,
    plain,
    reader_language,
    safe_name,
    safe_text,
    send_private,
    service_of,
    stopped,
)

if TYPE_CHECKING:
    from bot.features.scheduler import Scheduler

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
BOARDS_KEPT = 64  # the latest boards kept for the DMs that carry them (an image each: about 100 kB)
STORE_NOT_ANSWERING = translate("error.store_not_answering")  # in English; each reader gets their language
STORE_DAMAGED = translate("error.store_damaged")  # in English; each reader gets their language

APOLOGY = translate("error.apology")
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
    user: discord.ClientUser | None

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


def table_bot(client: discord.Client) -> TableBot:
    """The client the cogs are loaded in, as they use it: bot/app.py's ExpeditionBot (a layer above the cogs, which
    never import it) is the one client that loads them."""
    return cast(TableBot, client)


# --------------------------------------------------------------------------------------------- message content


BOARD_CHARS = 1990
"""What a board message's words hold (Discord's 2,000, less a margin)."""


def board_content(board: Board, *, ping: bool, note: str | None = None) -> str:
    """The text of a board message: what happened this turn, then whose turn it is (pinged only when `ping`)."""
    lines = [safe_text(note)] if note else []
    if board.finished and ping and board.mentions:  # the end of a game reaches every seated person (issue 33)
        lines.append(translate("table.final_ping", board.match.language,
                               mentions=" ".join(f"<@{user_id}>" for user_id in board.mentions)))
    if board.headline:
        lines.append(safe_text(board.headline))
    turn = safe_text(board.turn)
    if board.finished:
        lines.append(f"**{turn}**")
    elif ping and board.mentions:
        lines.append(f"{' '.join(f'<@{user_id}>' for user_id in board.mentions)} — {turn}")
    else:
        lines.append(turn)
    if board.note:  # features' words under the board (lessons' ideas, a teaching table's choice, clocks: bot/features)
        lines.append(safe_text(board.note))
    # The end kept: whose turn it is matters more than the oldest step of the story.
    return fit("\n".join(lines), BOARD_CHARS, keep="end")


BOARD_REPOSTED = translate("table.board_reposted")  # in English; a table hears it in its own language


def board_message(board: Board, *, ping: bool, note: str | None = None, controls: bool = True,
                  image: bool = True) -> dict[str, Any]:
    """Keyword arguments for a new board message or an edit: content, the image with its alt text, the controls.

    Without `image` (a channel that does not let the bot attach files) the board comes in words above the text."""
    content = board_content(board, ping=ping, note=note)
    if not image and board.alt_text:
        words = literal(board.alt_text)
        content = f"{words[:1990 - len(content) - 1]}\n{content}" if len(content) < 1900 else content
    message: dict[str, Any] = {
        "content": content,
        "allowed_mentions": pings(board.mentions) if ping else NO_PINGS,
        "view": board_view(board) if controls else None,
    }
    if image and board.image is not None:
        message["file"] = discord.File(io.BytesIO(board.image), filename=BOARD_FILE,
                                       description=plain(board.alt_text) or None)
    return message


def board_view(board: Board) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for offer in board.buttons:
        view.add_item(button(f"xt:act:{offer.match_id}:{offer.version}:{offer.seat}:{offer.index}", offer.label,
                             style=BUTTON_STYLES.get(offer.style, discord.ButtonStyle.secondary),
                             emoji=offer.emoji, row=offer.row))
    if board.menu is not None:
        menu = board.menu
        descriptions = list(menu.descriptions) + [None] * (len(menu.labels) - len(menu.descriptions))
        options = [discord.SelectOption(label=plain(label)[:100], value=str(index), emoji=emoji,
                                        description=plain(description)[:100] if description else None)
                   for index, ((label, emoji), description) in enumerate(zip(menu.labels, descriptions,
                                                                             strict=True))]
        view.add_item(discord.ui.Select(placeholder=plain(menu.placeholder)[:150], options=options, min_values=1,
                                        max_values=1, row=3,
                                        custom_id=f"xt:pick:{menu.match_id}:{menu.version}:{menu.seat}"))
    if board.match.state is not None:
        language = board.match.language
        view.add_item(button(f"xt:mine:{board.match.id}", translate("table.button.mine", language), emoji="🔒",
                             row=4))
        view.add_item(button(f"xt:detail:{board.match.id}", translate("table.button.details", language),
                             emoji="🔍", row=4))
        view.add_item(button(f"xt:whats:{board.match.id}", translate("table.button.whats_this", language),
                             emoji="❓", row=4))  # issue 33: every label explained (cogs/teaching.py)
    return stopped(view)


async def lobby_content(service: GameService, match: MatchRecord, note: str | None = None) -> str:
    """The lobby message, with when it closes if nobody starts it (a Discord timestamp: each reader's own time)."""
    closes = await lobby_closes_at(service, match.id) if match.status == "lobby" else None
    return lobby_text(match, note, closes)


def lobby_text(match: MatchRecord, note: str | None = None, closes: datetime | None = None) -> str:
    """The lobby message, in the table's language."""
    language = match.language
    game = find_game(match.game)
    mode = game.mode(match.mode)
    host = translate("lobby.host_mark", language)
    seats = "\n".join(
        f"{index}. {safe_name(seat.name)}{host if seat.user_id == match.host_id else ''}"
        for index, seat in enumerate(match.seats, start=1)
    )
    title = mode_title(mode, language)
    if mode.min_players == mode.max_players:
        count = translate_plural("lobby.heading.players", mode.min_players, language, title=game.title, mode=title)
    else:
        count = translate("lobby.heading.players_range", language, title=game.title, mode=title,
                          low=mode.min_players, high=mode.max_players)
    lines = [count, mode.summary_in(language), translate("lobby.language", language, name=LANGUAGE_NAMES[language])]
    if match.seed_chosen:  # on every update of the lobby, not only the first: who joins later sees it too
        lines.append(translate("lobby.seed_chosen", language))
    if note:
        lines.append(note)
    timer = match.options.get("timer_hours")
    if timer is not None:  # chosen with /game new timer: (the server's own timer is in /settings)
        lines.append(translate("lobby.timer", language, hours=hours_text(float(timer), language)) if timer
                     else translate("lobby.timer_off", language))
    clock = match.options.get("clock")
    if clock:  # issue 34: a bank of hours per player, and the hours added after each move
        bank, added = (hours_text(float(hours), language) for hours in clock)
        lines.append(translate("lobby.clock", language, bank=bank, added=added) if clock[1]
                     else translate("lobby.clock_no_added", language, bank=bank))
    if match.status == "lobby":
        lines += [translate("lobby.seated", language, seats=seats), translate("lobby.how_to_join", language)]
        if closes is not None:
            lines.append(translate("lobby.closes", language, when=discord.utils.format_dt(closes, "R")))
    elif match.status == "abandoned":
        lines.append(translate("lobby.closed", language))
    else:
        lines += [translate("lobby.seated", language, seats=seats), translate("lobby.started", language)]
    return safe_text("\n".join(lines))


def lobby_view(match: MatchRecord) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if match.status == "lobby":
        language = match.language
        for what, label, style in (
                ("join", translate("lobby.button.join", language), discord.ButtonStyle.success),
                ("leave", translate("lobby.button.leave", language), discord.ButtonStyle.secondary),
                ("start", translate("lobby.button.start", language), discord.ButtonStyle.primary)):
            view.add_item(button(f"xt:lobby:{match.id}:{what}", label, style=style))
    return stopped(view)


# --------------------------------------------------------------------------------------------- when Discord fails

UNKNOWN_CHANNEL = 10003
UNKNOWN_WEBHOOK = 10015  # an interaction's token expired (15 minutes): post in the channel instead
MISSING_PERMISSIONS = 50013
SEND_TRIES = 3
INLINE_WAIT_SECONDS = 5.0  # the longest a post waits in place before leaving the rest to the outbox


class Undeliverable(Exception):
    """A message Discord would not take: `gone` (the channel was deleted), `closed` (the bot may not post there),
    or `unavailable` (rate limits or server errors outlasted the retries; `retry_after` when Discord said)."""

    def __init__(self, kind: str, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.retry_after = retry_after


def retry_after_of(error: BaseException) -> float | None:
    """How long Discord asked to wait (a 429), if it said."""
    wait = getattr(error, "retry_after", None)
    if isinstance(wait, int | float):
        return float(wait)
    headers = getattr(getattr(error, "response", None), "headers", None) or {}
    header = headers.get("Retry-After")
    try:
        return float(header) if header is not None else None
    except (TypeError, ValueError):
        return None


def _passing(error: BaseException) -> bool:
    """A failure worth trying again: rate limited, a server error, the network."""
    if isinstance(error, discord.RateLimited | discord.DiscordServerError | aiohttp.ClientError | TimeoutError):
        return True
    return isinstance(error, discord.HTTPException) and (error.status == 429 or error.status >= 500)


async def send_with_retries(send: Callable[[], Awaitable[discord.Message]], *, tries: int = SEND_TRIES
                            ) -> discord.Message:
    """`send()` again after a rate limit or a server error (waiting what Discord asks, else 1, 2... s, at most
    INLINE_WAIT_SECONDS); Undeliverable once the tries are spent or Discord refuses for good."""
    for attempt in range(tries):
        try:
            return await send()
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise Undeliverable("gone", f"the channel no longer exists ({error.text})") from error
            raise
        except discord.Forbidden:
            raise
        except Exception as error:
            if not _passing(error):
                raise
            wait = retry_after_of(error)
            if attempt == tries - 1 or (wait is not None and wait > INLINE_WAIT_SECONDS):
                raise Undeliverable("unavailable", f"Discord did not take it ({type(error).__name__}: {error})",
                                    wait) from error
            await asyncio.sleep(wait if wait is not None else float(2 ** attempt))
    raise AssertionError("unreachable")  # pragma: no cover


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
            await where_it_stands(interaction)
        return True


async def where_it_stands(interaction: discord.Interaction) -> None:
    """After the acknowledgement: a player in a channel that refuses the bot is shown the board privately."""
    desk: BoardDesk | None = getattr(interaction.client, "desk", None)
    if desk is None or not desk.closed:
        return
    try:
        await desk.tell_where_it_stands(interaction)
    except Exception:  # a courtesy: it must never cost the interaction itself
        log.exception("Could not show the board privately in channel %s", interaction.channel_id)


async def tell(interaction: discord.Interaction, text: str) -> None:
    """The private one-line answer to a command (it replaces the private "thinking…")."""
    if is_component(interaction):
        return  # a press is answered by the board it changes
    await interaction.followup.send(fit(safe_text(text)), ephemeral=True, allowed_mentions=NO_PINGS)


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
        self.closed: dict[int, str] = {}  # channels that refused the bot's last board, and why
        self._told: set[tuple[int, int, int]] = set()  # (channel, user, match version) shown privately
        self.channel_gone: Callable[[int], Awaitable[None]] | None = None  # set by cogs/delivery.py
        self._desks: dict[int, _MatchDesk] = {}
        self._watchers: dict[int, list[Callable[[], Awaitable[bool]]]] = {}
        self.edits_sent = 0  # for the benchmark and tests: how many in-place edits actually went out
        self.edits_coalesced = 0
        self._shown: OrderedDict[int, Board] = OrderedDict()  # the latest board shown per match (`shown`)

    def shown(self, match: MatchRecord) -> Board | None:
        """The board this process last showed for the match, if it is of the match's version: a DM carries it
        rather than drawing the board the channel already has again."""
        board = self._shown.get(match.id)
        return board if board is not None and board.match.version == match.version else None

    def _keep(self, board: Board) -> None:
        self._shown[board.match.id] = board
        self._shown.move_to_end(board.match.id)
        while len(self._shown) > BOARDS_KEPT:
            self._shown.popitem(last=False)

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
                   note: str | None = None, claimed: tuple[Any, ...] = (),
                   owed_only: bool = False) -> discord.Message | None:
        """Post a new board message for the match (the turn passed, or someone asked for the board); it delivers
        the boards the match owes (their pings included) and is None when Discord would not take it (they stay
        owed). `claimed`: owed items the caller (the scheduler) already holds. `owed_only`: post only the boards
        still owed (None when another poster delivered them first, or holds them)."""
        posted: list[discord.Message | None] = [None]

        async def work(desk: _MatchDesk) -> None:
            async with desk.lock:
                desk.dirty = False  # the new board shows the latest state anyway
                posted[0] = await self._post(match_id, interaction=interaction, ping=ping, note=note,
                                             claimed=claimed, owed_only=owed_only)
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
        self._keep(board)
        message = board_message(board, ping=False)
        file = message.pop("file", None)
        try:
            await self._channel(match.channel_id).get_partial_message(message_id).edit(
                attachments=[file] if file is not None else [], **message)
            self.edits_sent += 1
        except discord.NotFound:  # someone deleted the board: post it again, without pinging anyone twice
            await self._post(match_id, ping=False, note=translate("table.board_reposted", match.language))

    async def _post(self, match_id: int, *, interaction: discord.Interaction | None = None, ping: bool = True,
                    note: str | None = None, claimed: tuple[Any, ...] = (),
                    owed_only: bool = False) -> discord.Message | None:
        now = now_of(self.client)
        owed = await outbox.take(self.service, match_id, now, claimed)
        if owed.held_elsewhere:  # another process (or the scheduler) is posting this very board right now
            log.info("The board of match %s is being posted elsewhere", match_id)
            return None
        if owed_only and not owed.items:  # delivered meanwhile, by another process or the scheduler
            return None
        match = await self.service.match(match_id)
        await self._strip(await self.service.board_message(match_id), match.channel_id)
        board = await personal.channel_pings(self.service, await self.service.board(match))  # issue 34: DM only
        self._keep(board)
        ping = ping or bool(owed.user_ids)  # a turn's ping that never arrived comes with the next new board
        try:
            sent = await self._posted_before(match.channel_id, board_content(board, ping=ping, note=note),
                                             owed.maybe_posted_since(now))
            if sent is None:  # (taking the items recorded this try: a retry after a crash looks first)
                sent = await self._send(match.channel_id, board, ping=ping, note=note, interaction=interaction,
                                        nonce=owed.nonce)
        except Undeliverable as error:
            log.warning("The board of match %s could not be posted in channel %s: %s", match_id, match.channel_id,
                        error)
            await outbox.failed(self.service, owed, str(error), now, error.retry_after)
            if error.kind == "closed":
                self.closed[match.channel_id] = str(error)
            elif error.kind == "gone" and self.channel_gone is not None:
                await self.channel_gone(match.channel_id)
            return None
        self.closed.pop(match.channel_id, None)
        await self.service.set_board_message(match_id, sent.id, match.version)
        await outbox.delivered(self.service, owed, match.version, now)
        return sent

    async def _posted_before(self, channel_id: int, content: str, since: int | None) -> discord.Message | None:
        """An owed board that may have reached Discord `since` then, before the process (or the database) died: the
        message, if the channel shows it (posted by the bot since, ending with the same words), so it is not posted
        twice."""
        me = getattr(self.client.user, "id", None)
        if since is None or me is None:
            return None
        after = discord.Object(id=discord.utils.time_snowflake(datetime.fromtimestamp(since - 60, UTC)))
        try:
            async for message in self._channel(channel_id).history(limit=100, after=after):
                if message.author.id == me and message.content.endswith(content):
                    log.info("The owed board of channel %s was posted before a restart: not posting it again",
                             channel_id)
                    return message
        except discord.NotFound as error:
            raise Undeliverable("gone", f"the channel no longer exists ({error.text})") from error
        except discord.HTTPException as error:  # cannot look: post it (a double board beats a lost one)
            log.info("Could not read channel %s's history: %s", channel_id, error)
        return None

    async def _send(self, channel_id: int, board: Board, *, ping: bool, note: str | None,
                    interaction: discord.Interaction | None, nonce: str | None = None) -> discord.Message:
        """The board as a new message: retried, then in words when the channel takes no image; Undeliverable."""
        answering = [interaction]  # the interaction's followup, until its token has expired

        async def send(image: bool) -> discord.Message:
            message = board_message(board, ping=ping, note=note, image=image)  # a fresh file for every try
            view: discord.ui.View | None = message["view"]
            if view is not None:
                view.stop()  # routed by cogs.controls; a finished view is not kept in memory per message
            if answering[0] is not None:
                try:
                    return await answering[0].followup.send(wait=True, **message)
                except discord.NotFound as error:
                    if error.code != UNKNOWN_WEBHOOK:
                        raise
                    answering[0] = None
                    message = board_message(board, ping=ping, note=note, image=image)
            if nonce:  # an owed board: a resend after a crash returns the message Discord already has
                return await self._channel(channel_id).send(nonce=nonce, **message)
            return await self._channel(channel_id).send(**message)

        for image in ((True, False) if board.image is not None else (False,)):
            try:
                return await send_with_retries(functools.partial(send, image))
            except discord.Forbidden as error:
                if image and error.code == MISSING_PERMISSIONS:
                    log.info("Channel %s takes no image from the bot: the board goes in words", channel_id)
                    continue
                raise Undeliverable("closed", f"the bot may not post there ({error.text})") from error
        raise AssertionError("unreachable")  # pragma: no cover

    async def tell_where_it_stands(self, interaction: discord.Interaction) -> None:
        """In a channel that refused the bot's last board: the player sees the current board privately, once per
        board (the interaction is already acknowledged)."""
        channel_id = interaction.channel_id
        if channel_id is None or channel_id not in self.closed:
            return
        match = await self.service.open_match(channel_id)
        if match is None or match.state is None:
            return
        key = (channel_id, interaction.user.id, match.version)
        if key in self._told:
            return
        self._told.add(key)
        note = translate("table.shown_to_you_alone", reader_language(interaction))
        board = await self.service.board(match)
        try:
            await interaction.followup.send(ephemeral=True, **board_message(board, ping=False, note=note))
        except discord.Forbidden:  # no files from the bot here either: the board in words
            await interaction.followup.send(ephemeral=True, **board_message(board, ping=False, note=note,
                                                                            image=False))

    async def _strip(self, previous: int | None, channel_id: int) -> None:
        """The previous board message loses its controls."""
        if previous is None:
            return
        try:
            await self._channel(channel_id).get_partial_message(previous).edit(view=None)
        except discord.HTTPException as error:  # deleted, or no longer ours to edit: nothing to tidy
            log.debug("Could not remove the controls of board message %s: %s", previous, error)


def desk_of(interaction: discord.Interaction) -> BoardDesk:
    return table_bot(interaction.client).desk


# --------------------------------------------------------------------------------------------- moves


MOVE_STANDS = translate("table.move_stands")  # in English; the mover reads it in their language


async def publish(interaction: discord.Interaction, accepted: Accepted) -> None:
    """After a committed move: a private line for a command, then a new board or the current one updated.

    The move is committed: whatever fails from here on, the mover is told it stands (never "Sorry"), and an owed
    board stays in the outbox until it is posted."""
    match = accepted.match
    desk = desk_of(interaction)
    posted: object = None
    try:
        new = accepted.new_board or await service_of(interaction).board_style(match.guild_id) == "step"
        language = reader_language(interaction)
        where = translate("table.new_board_below", language) if new else translate("table.board_updated", language)
        try:
            await tell(interaction, accepted.acknowledgement_in(language) + "\n" + where)
        except discord.HTTPException:  # the board matters more than the private line: go on
            log.warning("Could not tell the mover of match %s what the move did", match.id)
        if new:
            # A step of the same player's turn (the "step" style) gets its own board but pings nobody: a ping is for
            # the turn passing to someone.
            posted = await desk.post(match.id, interaction=interaction, ping=accepted.new_board)
        else:
            await desk.refresh(match.id)
            posted = True
    except Exception:  # the move is committed: report, and never apologise for it
        log.exception("Showing the committed move of match %s failed", match.id)
    if posted is None:
        try:
            await interaction.followup.send(translate("table.move_stands", reader_language(interaction)),
                                            ephemeral=True, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("Could not tell the mover of match %s that the move stands", match.id)


async def play(interaction: discord.Interaction, action: dict[str, Any]) -> None:
    """The whole path of a game command: acknowledge, submit, publish. Errors go to the tree's handler."""
    await acknowledge(interaction)
    root = interaction.command.root_parent if isinstance(interaction.command, app_commands.Command) else None
    package = package_for_group(root.name) if root is not None else None
    game_key = package.key if package is not None else None
    accepted = await service_of(interaction).act(channel_id_of(interaction), interaction.user.id, action,
                                                 game_key=game_key)
    await publish(interaction, accepted)


async def post_board(interaction: discord.Interaction, match_id: int, *, ping: bool = True,
                     note: str | None = None) -> None:
    """A new board message for the match in answer to this interaction (acknowledged first if it was not)."""
    await acknowledge(interaction)
    if not is_component(interaction):
        await tell(interaction, translate("table.board_below", reader_language(interaction)) if note is None
                   else note)
    await desk_of(interaction).post(match_id, interaction=interaction, ping=ping)


async def send_current_board_privately(interaction: discord.Interaction, note: str) -> None:
    """A refused press or command on an old board: the current board, to the presser only."""
    service = service_of(interaction)
    await acknowledge(interaction)
    try:
        match = await service.current(channel_id_of(interaction))
    except Exception:
        await interaction.followup.send(safe_text(note), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    try:  # an image the presser asked for: pressing an old board a hundred times holds a small share of the workers
        board = await service.board(match, asked=True, member=interaction.user.id) if match.state is not None \
            else None
    except WorkerBusy:
        board = None
    if board is None:
        await interaction.followup.send(safe_text(note), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    await interaction.followup.send(ephemeral=True, **board_message(board, ping=False, note=note))


# --------------------------------------------------------------------------------------------- errors


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Rule errors privately with their message (a stale board also shows the current board); others logged."""
    try:
        if isinstance(error, StaleBoard):
            await send_current_board_privately(interaction, error.text(interaction.locale))
        elif isinstance(error, RuleError):
            await send_private(interaction, error.text(interaction.locale))
        elif storage_full(error):  # no room to write: nothing was saved, and /game board would fail the same way
            log.error("The game store is full: %s failed to write", _describe(interaction), exc_info=error)
            await send_private(interaction, translate("error.store_full", reader_language(interaction)))
        elif isinstance(error, StoreDamaged):  # a malformed file: no retry helps, the bot's operator must act
            log.error("%s (in %s)", error, _describe(interaction))
            await send_private(interaction, translate("error.store_damaged", reader_language(interaction)))
        elif isinstance(error, StoreUnavailable):  # past the database's deadline: nothing of it was applied
            log.warning("The game store did not answer %s in time: %s", _describe(interaction), error)
            await send_private(interaction, translate("error.store_not_answering", reader_language(interaction)))
        else:
            log.error("Unexpected error in %s", _describe(interaction), exc_info=error)
            await send_private(interaction, translate("error.apology", reader_language(interaction)))
    except discord.HTTPException:
        log.exception("Could not answer an interaction after an error")


def _describe(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
    return f"/{command}" if command else f"component {custom_id!r}"
