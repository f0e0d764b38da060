"""Start-up: games left waiting for a computer player when the bot stopped go on by themselves, then the scheduler's
first pass handles what fell due while the bot was down.

Once the bot is ready (the first time only: discord.py fires `on_ready` again after a reconnect), the bot turns
that were due are played and told in a new board pinging the next person, a board left behind (the process stopped
after the computer players' turns or a game's final move were committed, before their board) is posted once, and
tables of bots alone pick up their round-by-round loop (bot/features/autoplay.py `resume_tables`,
bot/features/outbox.py `post_boards_left_behind`). Then the scheduler runs its first pass at once: the reminders,
turn timers, lobby expiries and owed boards that fell due during the downtime, instead of a poll interval later.
"""

from __future__ import annotations

import logging

from discord.ext import commands

from bot.features import autoplay, outbox
from cogs.lobby import drive_bot_table
from cogs.table import TableBot, table_bot

log = logging.getLogger(__name__)


class Resume(commands.Cog):
    """Resumes the bots' turns, then runs the scheduler's first pass, once per process."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.done = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self.done:
            return
        self.done = True
        bot = self.bot

        async def post(match_id: int) -> None:
            await bot.desk.post(match_id)

        async def deliver(match_id: int) -> bool:
            return await bot.desk.post(match_id, owed_only=True) is not None

        try:
            resumed = await autoplay.resume_tables(bot.service, post,
                                                   lambda match_id: drive_bot_table(bot, match_id))
            if resumed:
                log.info("Resumed the computer players of %d game(s): %s", len(resumed), resumed)
            posted = await outbox.post_boards_left_behind(bot.service, post, deliver)
            if posted:
                log.info("Posted the boards left behind of %d game(s): %s", len(posted), posted)
        except Exception:  # the database went away for a moment: the scheduler's passes still run
            log.exception("Resuming the games left waiting failed")
        await bot.scheduler.first_pass()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Resume(table_bot(bot)))
