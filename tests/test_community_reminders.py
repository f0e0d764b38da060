"""Reminders, mute and the stall notice, on a fake clock, through the offline Discord harness (issue 12).

The scheduler's time is the clock the bot is given; a pass is `await bot.run_due_work()`. Every reminder is a new
message pinging only the player to move; restarts and concurrent passes never send one twice.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness, World
from tests.clock import START, FakeClock
from tests.tables import current_match, open_table, player_to_move


def board(discord_: DiscordHarness):
    """The latest board message (reminders come after it)."""
    return [m for m in discord_.channel_messages() if m.files][-1]


def reminders(discord_: DiscordHarness) -> list:
    return [m for m in discord_.channel_messages() if "your turn in" in m.content]


@pytest.mark.parametrize("host_stalls", [True, False])
async def test_the_player_to_move_is_reminded_after_twelve_hours_then_the_stall_is_announced(database: Path,
                                                                                           host_stalls: bool) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        if not host_stalls:
            await discord_.click(board(discord_), label="Take 1", user=users[0])
        mover = await player_to_move(discord_, users)
        assert (mover is users[0]) == host_stalls
        clock.advance(11.9)
        assert await discord_.bot.run_due_work() == 0
        assert reminders(discord_) == []
        clock.advance(0.2)
        await discord_.bot.run_due_work()
        sent = reminders(discord_)
        assert len(sent) == 1 and sent[0].notified == (mover.id,)
        assert sent[0].content.startswith(f"<@{mover.id}> — your turn in Test Nim is waiting (12 h so far)")
        assert sent[0].button_labels() == ["Mute for this turn"]
        await discord_.bot.run_due_work()
        assert len(reminders(discord_)) == 1, "one pass, one reminder"
        for count in (2, 3):
            clock.advance(12)
            await discord_.bot.run_due_work()
            assert len(reminders(discord_)) == count and reminders(discord_)[-1].notified == (mover.id,)
        clock.advance(12)
        await discord_.bot.run_due_work()
        stalled = discord_.channel_messages()[-1]
        assert "has stalled" in stalled.content and "/game kick" in stalled.content
        assert "/game abandon" in stalled.content
        host = users[0]
        assert stalled.notified == (() if mover is host else (host.id,)), "the host is told, unless they stall"
        assert stalled.content.endswith(
            "has not moved in 2 days. The host (Alice) can hand the seat to a computer player with /game kick, "
            "or end the game with /game abandon; anyone who can manage this channel can too.")
        clock.advance(100)
        await discord_.bot.run_due_work()
        assert discord_.channel_messages()[-1].id == stalled.id, "nothing after the stall notice"


async def test_a_move_replaces_the_turns_reminder_in_its_own_transaction(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        match = await current_match(discord_)
        pending = await discord_.bot.service.store.pending_work(match.id)
        assert [(w.kind, w.payload["count"], w.due_at) for w in pending] == [
            ("remind", 1, int((START + timedelta(hours=12)).timestamp()))]
        clock.advance(6)
        mover = await player_to_move(discord_, users)
        await discord_.click(board(discord_), label="Take 1", user=mover)
        after = await current_match(discord_)
        pending = await discord_.bot.service.store.pending_work(match.id)
        assert [(w.kind, w.payload["turn"], w.due_at) for w in pending] == [
            ("remind", after.version, int((START + timedelta(hours=18)).timestamp()))]
        clock.advance(6.5)
        await discord_.bot.run_due_work()
        assert reminders(discord_) == [], "the first turn's reminder went with the move"
        clock.advance(6)
        await discord_.bot.run_due_work()
        assert [m.notified for m in reminders(discord_)] == [((await player_to_move(discord_, users)).id,)]


async def test_mute_stops_this_turns_reminders_only_for_the_player_to_move(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        mover = await player_to_move(discord_, users)
        other = next(u for u in users if u is not mover)
        clock.advance(12)
        await discord_.bot.run_due_work()
        reminder = reminders(discord_)[0]
        refused = await discord_.click(reminder, label="Mute for this turn", user=other)
        assert refused.one().ephemeral and "Only the player these reminders are for" in refused.one().content
        muted = await discord_.click(reminder, label="Mute for this turn", user=mover)
        assert muted.one().ephemeral and muted.one().content.startswith("Muted")
        again = await discord_.click(reminder, label="Mute for this turn", user=mover)
        assert "nothing left to mute" in again.one().content
        clock.advance(60)
        await discord_.bot.run_due_work()
        assert len(reminders(discord_)) == 1 and "stalled" not in discord_.channel_messages()[-1].content
        await discord_.click(board(discord_), label="Take 1", user=mover)
        clock.advance(12)
        await discord_.bot.run_due_work()
        assert [m.notified for m in reminders(discord_)][-1] == (other.id,), "the next turn is reminded again"


async def test_a_restart_between_the_deadline_and_the_pass_sends_the_reminder_once(database: Path) -> None:
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        mover = await player_to_move(discord_, users)
    clock.advance(13)  # the deadline passes while the bot is down
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        assert await discord_.bot.run_due_work() == 1
        assert await discord_.bot.run_due_work() == 0
        assert [m.notified for m in reminders(discord_)] == [(mover.id,)]
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        assert await discord_.bot.run_due_work() == 0
        assert len(reminders(discord_)) == 1


async def test_two_passes_at_once_send_one_reminder(database: Path) -> None:
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as first:
        users = await open_table(first, "test-nim", 2, seed=4)
        mover = await player_to_move(first, users)
        clock.advance(12)
        handled = await asyncio.gather(first.bot.run_due_work(), first.bot.run_due_work())
        assert sorted(handled) == [0, 1]
        assert [m.notified for m in reminders(first)] == [(mover.id,)]
        # A second bot process on the same database: both pass at once, one reminder goes out.
        async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as second:
            clock.advance(12)
            handled = await asyncio.gather(first.bot.run_due_work(), second.bot.run_due_work(),
                                           first.bot.run_due_work(), second.bot.run_due_work())
            assert sum(handled) == 1
            assert [m.notified for m in reminders(first)] == [(mover.id,), (mover.id,)]


async def test_the_polling_loop_runs_passes_by_itself_and_stops_with_the_bot(database: Path) -> None:
    clock = FakeClock()
    bot = create_bot(database, clock=clock, poll_seconds=0.01)
    async with DiscordHarness(bot) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        mover = await player_to_move(discord_, users)
        loop_task = bot._scheduler_loop  # type: ignore[attr-defined]
        assert loop_task is not None and not loop_task.done()
        clock.advance(12)
        for _ in range(500):  # the loop's own passes, not run_due_work: wait until one has run
            if reminders(discord_):
                break
            await asyncio.sleep(0.01)
        assert [m.notified for m in reminders(discord_)] == [(mover.id,)]
    await asyncio.sleep(0)
    assert loop_task.cancelled() or loop_task.done()
