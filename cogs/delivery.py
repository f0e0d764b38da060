"""Delivery (issue 23): owed boards reach their channel in the end, and a game whose channel is gone ends.

- The scheduler hands over every `board` item the live path did not deliver within its grace (a post that failed,
  a process that died between the commit and the post): the board is posted then, with the ping it owes, and
  tried again later (doubling from 30 s, or Discord's `retry_after`) until Discord takes it.
- A deleted channel or thread (Discord's CHANNEL_DELETE or THREAD_DELETE, or a send answered with 404 Unknown
  Channel) ends its game as abandoned: its reminders and timers are cancelled in the same transaction, so no
  computer player goes on playing there unseen, and /game history lists it.
"""

from __future__ import annotations

import logging
from datetime import datetime

import discord
from discord.ext import commands

from bot.core import RuleError
from bot.features import outbox
from bot.features.community import BOARD
from bot.features.scheduler import Due
from bot.i18n import translate
from cogs.table import TableBot, table_bot

log = logging.getLogger(__name__)


async def deliver_board(bot: TableBot, work: Due, now: datetime) -> None:
    """A board the live path did not deliver: post it now, pinging whom it owes (done, or owed again later)."""
    match_id = await outbox.due_from_scheduler(bot.service, work, now)
    if match_id is not None:
        await bot.desk.post(match_id, claimed=(work,))


async def end_games_in(bot: TableBot, channel_ids: list[int]) -> list[int]:
    """Abandon the unfinished games of these channels (deleted); returns the matches ended."""
    ended = []
    for channel_id in channel_ids:
        bot.desk.closed.pop(channel_id, None)
        found = await bot.service.open_match(channel_id)
        if found is None:
            continue
        try:  # the log's line, in the table's language
            match = await bot.service.abandon(channel_id, 0, can_manage_channel=True,
                                              text=translate("delivery.channel_gone", found.language))
        except RuleError:  # it ended meanwhile
            continue
        log.info("Channel %s was deleted: its game #%s was abandoned", channel_id, match.id)
        ended.append(match.id)
    return ended


class Delivery(commands.Cog):
    """Listens for deleted channels and threads."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        # A channel's threads go with it, without events of their own: end theirs too.
        threads = [thread.id for thread in getattr(channel, "threads", [])]
        await end_games_in(self.bot, [channel.id, *threads])

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await end_games_in(self.bot, [payload.thread_id])


async def setup(bot: commands.Bot) -> None:
    owner = table_bot(bot)

    async def on_board(work: Due, now: datetime) -> None:
        await deliver_board(owner, work, now)

    async def gone(channel_id: int) -> None:
        await end_games_in(owner, [channel_id])

    owner.scheduler.handle(BOARD, on_board)
    owner.desk.channel_gone = gone
    await bot.add_cog(Delivery(owner))
