"""A wall clock that steps back (issue 32): after it ran a week ahead and was put right, 1-hour turn timers stayed
silent ~7.6 days and reminders ~8 days, because their due times were planned on the clock that was ahead. The
scheduler notices the step (wall clock against monotonic clock, or work done "later" than now after a restart) and
moves that work back, so it falls due about on time."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness
from tests.clock import FakeClock
from tests.tables import current_match, player_to_move

pytestmark = pytest.mark.usefixtures("thread_bots")  # a computer player plays a turn whose deadline passed

WEEK = 7 * 24.0


def reminders(discord_: DiscordHarness, channel: object) -> list:
    return [m for m in discord_.channel_messages(channel) if "your turn in" in m.content]


async def test_timers_and_reminders_planned_while_the_clock_ran_a_week_ahead_fall_due_on_time(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.bot.run_due_work()  # the scheduler has seen the clock
        clock.step(WEEK)  # the clock runs a week ahead...
        await discord_.bot.run_due_work()
        timed, reminded = discord_.default_channel, discord_.channel("reminded")
        for channel, options in ((timed, {"game": "the-expedition", "seed": 21, "timer": 1.0}),
                                 (reminded, {"game": "test-nim", "seed": 4})):
            await discord_.command("game new", options, user=alice, channel=channel)
            await discord_.command("game join", user=bob, channel=channel)
            await discord_.command("game start", user=alice, channel=channel)
        late = await player_to_move(discord_, [alice, bob])
        before = await current_match(discord_)
        clock.step(-WEEK)  # ...and is put right
        clock.advance(0.5)
        assert await discord_.bot.run_due_work() == 0, "nothing is due half an hour into the turn"
        clock.advance(0.6)
        assert await discord_.bot.run_due_work() == 1, "the 1-hour timer, 1.1 hours into the turn"
        after = await current_match(discord_)
        assert after.version > before.version and await player_to_move(discord_, [alice, bob]) is not late
        clock.advance(10.8)
        await discord_.bot.run_due_work()
        assert reminders(discord_, reminded) == [], "11.9 hours into the turn"
        clock.advance(0.2)
        await discord_.bot.run_due_work()
        (sent,) = reminders(discord_, reminded)
        assert "(12 h so far)" in sent.content


async def test_a_step_back_while_the_bot_was_down_is_noticed_at_its_first_pass(database: Path) -> None:
    clock = FakeClock()
    clock.step(WEEK)  # the clock is a week ahead while the bot runs...
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21, "timer": 1.0}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)  # the lobby's expiry is done, "a week from now"
        await discord_.bot.run_due_work()
    clock.step(-WEEK)  # ...and is put right while it is stopped
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        late = await player_to_move(discord_, [discord_.user("alice"), discord_.user("bob")])
        before = await current_match(discord_)
        assert await discord_.bot.run_due_work() == 0  # the first pass, at start
        clock.advance(0.9)
        assert await discord_.bot.run_due_work() == 0
        clock.advance(0.2)
        assert await discord_.bot.run_due_work() == 1, "the 1-hour timer, counted from the restart"
        assert (await current_match(discord_)).version > before.version
        assert await player_to_move(discord_, [discord_.user("alice"), discord_.user("bob")]) is not late


async def test_a_step_forward_or_a_slow_pass_moves_nothing(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim", "seed": 4, "timer": 2.0}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        store = discord_.bot.store
        await discord_.bot.run_due_work()
        planned = sorted((w.kind, w.due_at) for w in await store.pending_work((await current_match(discord_)).id))
        clock.step(-0.05)  # three minutes back: NTP's business, not a step
        clock.advance(1)
        await discord_.bot.run_due_work()
        clock.step(0.5)  # forward (a suspended machine looks the same): due work is rightly due
        await discord_.bot.run_due_work()
        assert sorted((w.kind, w.due_at) for w in await store.pending_work((await current_match(discord_)).id)) == \
            planned
