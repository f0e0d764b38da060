"""The scheduler's first pass comes as soon as the bot is ready: what fell due while the bot was down (a reminder, a
turn timer, a lobby's expiry) is handled at once, not a poll interval later, and only once (a reconnect's second
`on_ready` runs no second pass)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness, World
from bot.store import MatchRecord
from tests.clock import FakeClock

pytestmark = pytest.mark.usefixtures("thread_bots")

POLL_SECONDS = 3600.0  # the loop's next pass comes long after the test: every pass seen here is the first


async def channel_match(discord_: DiscordHarness, name: str) -> MatchRecord:
    return await discord_.bot.service.current(discord_.channel(name).id)  # type: ignore[attr-defined]


async def test_work_due_while_the_bot_was_down_is_handled_once_as_soon_as_it_is_ready(database: Path) -> None:
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        for name, options in (("reminded", {"game": "test-nim", "seed": 4}),  # a reminder at 12 h
                              ("timed", {"game": "the-expedition", "seed": 21, "timer": 2.0})):  # a 2 h turn timer
            await discord_.command("game new", options, user=alice, channel=name)
            await discord_.command("game join", user=bob, channel=name)
            await discord_.command("game start", user=alice, channel=name)
        await discord_.command("game new", {"game": "test-nim"}, user=carol, channel="lobby")  # closes after 24 h
        reminded = await channel_match(discord_, "reminded")
        mover = reminded.user_at(find_game(reminded.game).to_act(reminded.state)[0]).user_id
        timed = await channel_match(discord_, "timed")
    clock.advance(25)  # every deadline passes while the bot is down

    bot = create_bot(database, clock=clock, poll_seconds=POLL_SECONDS)
    async with DiscordHarness(bot, world=world) as restarted:  # ready, and settled: nothing else is awaited here
        reminders = [m for m in restarted.channel_messages("reminded") if "your turn in" in m.content]
        assert [m.notified for m in reminders] == [(mover,)], "the reminder due during the downtime, at once"
        played = await channel_match(restarted, "timed")
        assert played.version > timed.version, "the overdue turn was played"
        assert [m.content[:1] for m in restarted.channel_messages("timed") if m.content.startswith("⏰")] == ["⏰"]
        assert (await channel_match(restarted, "lobby")).status == "abandoned", "the lobby expired"
        assert bot.scheduler.passes == 1
        seen = {name: len(restarted.channel_messages(name)) for name in ("reminded", "timed", "lobby")}

        restarted.bot.dispatch("ready")  # a reconnect: discord.py fires on_ready again
        await restarted.settle()
        assert bot.scheduler.passes == 1, "no second first pass"
        assert {name: len(restarted.channel_messages(name)) for name in seen} == seen
        assert await bot.run_due_work() == 0, "nothing was left for the next pass"


async def test_without_a_polling_loop_passes_run_only_when_asked(database: Path) -> None:
    """`poll_seconds=None` (tests, embedders): no pass at start either; `run_due_work` is every pass."""
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        await discord_.command("game new", {"game": "test-nim"}, user=discord_.user("carol"), channel="lobby")
    clock.advance(25)
    bot = create_bot(database, clock=clock, poll_seconds=None)
    async with DiscordHarness(bot, world=world) as restarted:
        assert bot.scheduler.passes == 0
        assert (await channel_match(restarted, "lobby")).status == "lobby"
        assert await bot.run_due_work() == 1
        assert (await channel_match(restarted, "lobby")).status == "abandoned"
