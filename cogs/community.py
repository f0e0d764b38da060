"""Community play in the channel (issue 12): reminders with a mute button, turn timers, kicking and rejoining,
games opened in threads, and the channels and default modes a server allows.

The /game subcommands (kick, rejoin) are declared in cogs/lobby.py's group and delegate here; the work itself is
bot/features/community.py, run on the bot's clock by bot/features/scheduler.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import discord
from discord.ext import commands

from bot.core import JSON, RuleError, find_game
from bot.features import community, outbox
from bot.features.community import LOBBY_EXPIRY, REMIND, TIMER, settings_for
from bot.features.scheduler import Due
from bot.features.wording import duration_text, game_title, names_and
from bot.i18n import language_of, said, translate
from bot.settings import WHAT_TIMER, ServerSettings, check_hours
from cogs.common import (
    NO_PINGS,
    button,
    channel_id_of,
    pings,
    plain,
    player_of,
    safe_name,
    safe_text,
    send_private,
    service_of,
    stopped,
)
from cogs.controls import register_control
from cogs.table import (
    TableBot,
    Undeliverable,
    acknowledge,
    desk_of,
    lobby_content,
    lobby_text,
    lobby_view,
    send_with_retries,
    table_bot,
    tell,
)

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week without messages: games last days (one of Discord's four choices)


# --------------------------------------------------------------------------------------------- /game new


@dataclass(frozen=True)
class NewGame:
    """How /game new opens a game here, after the server's settings: mode, options, and in a thread or not."""

    mode: str | None
    options: JSON
    thread: bool


def _parent_id(interaction: discord.Interaction) -> int:
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return channel.parent_id
    return channel_id_of(interaction)


async def prepare_new_game(interaction: discord.Interaction, game: str, mode: str | None, timer: float | None,
                           thread: bool | None) -> NewGame:
    """Apply the server's settings to /game new: allowed channels, default mode, threads, a per-game timer."""
    settings = await settings_for(service_of(interaction), interaction.guild_id or 0)
    if settings.game_channels and _parent_id(interaction) not in settings.game_channels:
        where = ", ".join(f"<#{channel}>" for channel in settings.game_channels)
        raise RuleError("community.refuse.channels", channels=where)
    in_thread = isinstance(interaction.channel, discord.Thread)
    if in_thread and thread:
        raise RuleError("community.refuse.already_thread")
    options: JSON = {}
    if timer is not None:
        options["timer_hours"] = check_hours(timer, WHAT_TIMER, allow_off=True)
    key = find_game(game).key
    return NewGame(mode or settings.default_modes.get(key), options,
                   bool(thread if thread is not None else settings.threads) and not in_thread)


def thread_name(title: str, host_name: str) -> str:
    """ "Test Nim — Alice": the game and its host (Discord allows 100 characters; a thread's name is shown
    as it is, on one line)."""
    return plain(f"{title} — {said(host_name)}")[:100]


async def open_in_thread(interaction: discord.Interaction, game: str, plan: NewGame, seed: int | None) -> None:
    """/game new in a new public thread of this channel: the lobby is posted there, the channel told where."""
    parent = interaction.channel
    if not isinstance(parent, discord.TextChannel):
        raise RuleError("community.refuse.no_threads_here")
    if interaction.app_permissions is not None and not interaction.app_permissions.create_public_threads:
        raise RuleError("community.refuse.thread_permission")
    service = service_of(interaction)
    host = player_of(interaction)
    title = find_game(game).title
    try:
        thread = await parent.create_thread(name=thread_name(title, host.name), type=discord.ChannelType.public_thread,
                                            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                                            reason=translate("community.thread.reason",
                                                             language_of(plan.options.get("language")), game=title))
    except discord.Forbidden:
        raise RuleError("community.refuse.thread_permission") from None
    await community.thread_opened(service, thread.id, interaction.guild_id or 0, parent.id, host.user_id)
    try:
        match = await service.new_match(interaction.guild_id or 0, thread.id, game, host, mode=plan.mode, seed=seed,
                                        options=plan.options)
    except Exception:
        await thread.delete()  # a refused game leaves no empty thread behind
        raise
    table = match.language
    if match.status == "active":
        await desk_of(interaction).post(match.id, note=translate("community.thread.started", table))
    else:
        sent = await thread.send(await lobby_content(service, match), view=lobby_view(match),
                                 allowed_mentions=NO_PINGS)
        await service.set_board_message(match.id, sent.id)
    await tell(interaction, translate("community.thread.open", language_of(interaction.locale),
                                      thread=thread.mention))
    await parent.send(translate("community.thread.announce", table, name=safe_name(host.name),
                                game=game_title(find_game(game), table), thread=thread.mention),
                      allowed_mentions=NO_PINGS)


# --------------------------------------------------------------------------------------------- kick and rejoin


async def kick_player(interaction: discord.Interaction, player: discord.Member | discord.User) -> None:
    """/game kick: a normal computer player takes the seat, publicly; it plays at once if the seat is to move."""
    await acknowledge(interaction)
    can_manage = bool(interaction.permissions and interaction.permissions.manage_channels)
    done = await community.kick(service_of(interaction), channel_id_of(interaction), interaction.user.id, player.id,
                                can_manage_channel=can_manage)
    name = safe_name(done.name)
    await tell(interaction, translate("community.kick.done", language_of(interaction.locale), name=name))
    announce = translate("community.kick.announce", done.match.language,
                         actor=safe_name(interaction.user.display_name), name=name)
    if done.host_passed:  # host powers follow the seat: the table hears who has them now
        announce += "\n" + safe_text(done.host_passed)
    await interaction.followup.send(announce, allowed_mentions=NO_PINGS)
    if done.bot_moved:
        await desk_of(interaction).post(done.match.id)
    else:  # the seating changed the match's version: the board's buttons are rebound to it
        await desk_of(interaction).refresh(done.match.id)


async def rejoin_seat(interaction: discord.Interaction) -> None:
    """/game rejoin: the kicked member takes their seat back from the computer player."""
    await acknowledge(interaction)
    match = await community.rejoin(service_of(interaction), channel_id_of(interaction), interaction.user.id)
    name = safe_name(interaction.user.display_name)
    await tell(interaction, translate("community.rejoin.done", language_of(interaction.locale)))
    await interaction.followup.send(translate("community.rejoin.announce", match.language, name=name),
                                    allowed_mentions=NO_PINGS)
    await desk_of(interaction).refresh(match.id)  # the board's buttons are rebound to the new version


# --------------------------------------------------------------------------------------------- reminders


def reminder_view(match_id: int, turn: int, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(f"xt:mute:{match_id}:{turn}", translate("reminder.button.mute", language), emoji="🔕"))
    return stopped(view)


def stalled_text(reminder: community.Reminder) -> str:
    """The stall notice, in the table's language."""
    match = reminder.match
    language = match.language
    host = next((said(seat.name) for seat in match.seats if seat.user_id == match.host_id), None)
    values = {"game": game_title(find_game(match.game), language), "names": names_and(reminder.names, language),
              "hours": duration_text(round(reminder.waited_hours), language)}
    if host is None:
        text = translate("reminder.stalled_no_host", language, **values)
    else:
        text = translate("reminder.stalled", language, host=host, **values)
    return safe_text(text)


def reminder_message(reminder: community.Reminder) -> dict[str, Any]:
    """The reminder (or the stall notice, pinging the host unless the host is the one stalling) as `send`'s
    keyword arguments. Its words come from the item alone, so a resend says exactly the same."""
    if reminder.stalled:
        host = reminder.match.host_id
        if host in reminder.user_ids or host <= 0:
            return {"content": stalled_text(reminder), "allowed_mentions": NO_PINGS}
        return {"content": f"<@{host}> {stalled_text(reminder)}", "allowed_mentions": pings([host])}
    language = reminder.match.language
    title = game_title(find_game(reminder.match.game), language)
    mentions = " ".join(f"<@{user_id}>" for user_id in reminder.user_ids)
    return {"content": translate("reminder.waiting", language, mentions=mentions, game=title,
                                 hours=duration_text(round(reminder.waited_hours), language)),
            "view": reminder_view(reminder.match.id, reminder.turn, language),
            "allowed_mentions": pings(reminder.user_ids)}


async def already_posted(bot: TableBot, channel: discord.PartialMessageable, content: str, since: int) -> bool:
    """Whether the bot posted exactly this in the channel since `since` (epoch seconds, the item's last try): a try
    that reached Discord before the process died, found after Discord stopped remembering its nonce."""
    after = discord.Object(id=discord.utils.time_snowflake(datetime.fromtimestamp(since - 60, UTC)))
    me = bot.user.id if bot.user is not None else None
    async for message in channel.history(limit=100, after=after):
        if message.author.id == me and message.content == content:
            return True
    return False


async def send_reminder(bot: TableBot, work: Due, now: datetime) -> None:
    """A due reminder, at least once and not twice: the item is done only once Discord has the message, the
    message carries the item's nonce, and a try the item's record shows is looked for before sending again."""
    reminder = await community.take_reminder(bot.service, work, now)
    if reminder is None:
        return
    channel_id = reminder.match.channel_id
    channel = bot.get_partial_messageable(channel_id)
    message = reminder_message(reminder)
    try:
        if work.attempted_at is not None and await already_posted(bot, channel, message["content"],
                                                                  work.attempted_at):
            log.info("Reminder %s was posted before a restart: not posting it again", work.id)
        else:
            await community.reminder_sending(bot.service, reminder, now)
            await send_with_retries(lambda: channel.send(nonce=reminder.nonce, **message))
    except (Undeliverable, discord.HTTPException) as error:
        if isinstance(error, Undeliverable) and error.kind == "gone":
            if bot.desk.channel_gone is not None:
                await bot.desk.channel_gone(channel_id)
            return
        retry_after = error.retry_after if isinstance(error, Undeliverable) else None
        log.info("Could not remind in channel %s (tried again later): %s", channel_id, error)
        await community.reminder_failed(bot.service, reminder, now, str(error),
                                        outbox.retry_delay(work.attempts, retry_after))
        return
    await community.reminder_sent(bot.service, reminder, now)


async def press_mute(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    muted = await community.mute_turn(service_of(interaction), fields["match"], fields["turn"], interaction.user.id,
                                      channel_id=channel_id_of(interaction))
    reader = language_of(interaction.locale)
    await send_private(interaction, translate("reminder.muted", reader) if muted else
                       translate("reminder.nothing_to_mute", reader))


# --------------------------------------------------------------------------------------------- timers and lobbies


async def apply_timer(bot: TableBot, work: Due, now: datetime) -> None:
    if await channel_gone_unseen(bot, work.channel_id):  # no move is played where nobody can see it
        return
    timed_out = await community.play_overdue_turn(bot.service, work, now)
    if timed_out is not None:
        await bot.desk.post(timed_out.match.id,
                            note=safe_text(timed_out.note(timed_out.match.language)))


async def channel_gone_unseen(bot: TableBot, channel_id: int | None) -> bool:
    """Whether Discord says the channel no longer exists (deleted while the bot was away, so no event came): its
    game is then ended. Any other answer (no access, Discord unwell) is not taken for gone."""
    if channel_id is None:
        return False
    try:
        await bot.fetch_channel(channel_id)
    except discord.NotFound:
        if bot.desk.channel_gone is not None:
            await bot.desk.channel_gone(channel_id)
        return True
    except discord.HTTPException:
        return False
    return False


async def expire_lobby(bot: TableBot, work: Due, now: datetime) -> None:
    match = await community.expire_lobby(bot.service, work, now)
    if match is None:
        return
    hours = float(work.payload.get("hours", ServerSettings().lobby_expiry_hours))  # as set when it opened
    note = translate("community.lobby.expired", match.language, hours=duration_text(hours, match.language))
    channel = bot.get_partial_messageable(match.channel_id)
    message_id = await bot.service.board_message(match.id)
    try:
        if message_id is not None:
            await channel.get_partial_message(message_id).edit(content=lobby_text(match, note), view=None,
                                                               allowed_mentions=NO_PINGS)
        else:
            await channel.send(lobby_text(match, note), allowed_mentions=NO_PINGS)
    except discord.HTTPException as error:
        log.info("Could not show the expired lobby of match %s: %s", match.id, error)


async def setup(bot: commands.Bot) -> None:
    register_control("mute", r"(?P<match>[0-9]{1,20}):(?P<turn>[0-9]{1,20})", press_mute, private=True)
    owner = table_bot(bot)

    async def on_remind(work: Due, now: datetime) -> None:
        await send_reminder(owner, work, now)

    async def on_timer(work: Due, now: datetime) -> None:
        await apply_timer(owner, work, now)

    async def on_lobby_expiry(work: Due, now: datetime) -> None:
        await expire_lobby(owner, work, now)

    owner.scheduler.handle(REMIND, on_remind)
    owner.scheduler.handle(TIMER, on_timer)
    owner.scheduler.handle(LOBBY_EXPIRY, on_lobby_expiry)
