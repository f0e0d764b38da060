"""Turn DMs and heads-ups (issue 34): through the outbox, in the member's language, falling back to the channel's
ping when their DMs refuse the bot (said once), and exactly once across crashes; through the offline Discord."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness, FakeUser, InteractionFailed, World
from tests.clock import FakeClock
from tests.test_personal_games import link, open_game, take_in, to_move
from tests.test_reminder_kills import LEASE, Clock, ClockedWorld, Crash


async def alice_to_move(discord_: DiscordHarness, channel: str, alice: FakeUser, bob: FakeUser) -> None:
    """Bob moves if he must, so that the turn passes to Alice (a new board, and her DM planned with it)."""
    if await to_move(discord_, channel) == alice.id:
        await take_in(discord_, channel, alice)
    await take_in(discord_, channel, bob)
    assert await to_move(discord_, channel) == alice.id


def dms(discord_: DiscordHarness, user: FakeUser) -> list:
    return discord_.channel_messages(discord_.dm(user))


async def test_a_member_told_by_dm_gets_the_board_and_a_link_once_and_no_ping_in_the_channel(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "dm"}, user=alice, channel=discord_.dm(alice))
        tavern = discord_.channel("tavern", guild=discord_.guild_named("Second Server"))
        await open_game(discord_, "tavern", [alice, bob])
        await alice_to_move(discord_, "tavern", alice, bob)
        board = [m for m in discord_.channel_messages("tavern") if m.files][-1]
        assert board.notified == (), "told by DM alone: no ping in the channel"
        await discord_.bot.run_due_work()
        sent = dms(discord_, alice)
        assert len(sent) == 1 and sent[0].content == (
            f"It is your turn in **Test Nim** — Second Server, <#{tavern.id}>.\nThe board: {link(discord_, 'tavern')}")
        assert [f.filename for f in sent[0].files] == ["board.png"]
        await discord_.bot.run_due_work()
        assert len(dms(discord_, alice)) == 1, "once"
        await take_in(discord_, "tavern", alice)  # Bob's turn: nothing for him (he kept the channel's ping)
        await discord_.bot.run_due_work()
        assert dms(discord_, bob) == [] and len(dms(discord_, alice)) == 1


async def test_a_dm_is_in_the_language_of_the_client_the_member_last_used(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "both"}, user=alice)
        await open_game(discord_, "general", [alice, bob])
        discord_.user("alice", locale="de")
        await discord_.command("games", user=alice)  # her client is German now
        await alice_to_move(discord_, "general", alice, bob)
        board = [m for m in discord_.channel_messages("general") if m.files][-1]
        assert board.notified == (alice.id,), "both: pinged in the channel too"
        await discord_.bot.run_due_work()
        assert [m.content.split("\n")[0] for m in dms(discord_, alice)] == [
            f"Du bist am Zug in **Test Nim** — Test Server, <#{discord_.channel('general').id}>."]


async def test_refused_dms_fall_back_to_the_channels_ping_said_once(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "dm"}, user=alice)
        discord_.refuse_dms(alice)
        await open_game(discord_, "general", [alice, bob])
        await alice_to_move(discord_, "general", alice, bob)
        await discord_.bot.run_due_work()  # the DM is refused: the channel owes her the ping ...
        assert [m for m in discord_.channel_messages("general") if "could not reach you" in m.content] == []
        await discord_.bot.run_due_work()  # ... said at the next pass
        refused = [m for m in discord_.channel_messages("general") if "could not reach you" in m.content]
        assert len(refused) == 1 and refused[0].notified == (alice.id,)
        assert refused[0].content == (
            f"<@{alice.id}> — it is your turn in Test Nim (a DM could not reach you: you are pinged here from now on; "
            "/me show says more)."), "the channel is not told that her privacy settings refuse the bot"
        assert dms(discord_, alice) == []
        await take_in(discord_, "general", alice)
        await take_in(discord_, "general", bob)
        board = [m for m in discord_.channel_messages("general") if m.files][-1]
        assert board.notified == (alice.id,), "pinged in the channel from then on"
        await discord_.bot.run_due_work()
        assert len([m for m in discord_.channel_messages("general") if "could not reach you" in m.content]) == 1
        shown = (await discord_.command("me show", user=alice)).one().content
        assert shown.endswith("so you are pinged in the game's channel instead. Allow DMs from this server's members "
                              "(or add the app to your account), then choose again with /me notify.")
        discord_.refuse_dms(alice, False)
        await discord_.command("me notify", {"how": "dm"}, user=alice)  # tries DMs again
        assert "do not accept" not in (await discord_.command("me show", user=alice)).one().content


async def test_a_heads_up_when_the_player_before_starts_their_turn(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        await discord_.command("me notify", {"heads_up": True}, user=carol)
        await open_game(discord_, "general", [alice, bob, carol])
        match = await discord_.bot.service.open_match(discord_.channel("general").id)  # type: ignore[attr-defined]
        users = {seat.seat: seat.user_id for seat in match.seats}
        for _ in range(3):
            if users[(list(users.values()).index(carol.id) - 1) % 3] == await to_move(discord_, "general"):
                break
            moving = await to_move(discord_, "general")
            await take_in(discord_, "general", next(u for u in (alice, bob, carol) if u.id == moving))
        moving = await to_move(discord_, "general")
        before = next(u for u in (alice, bob) if u.id == moving)
        await discord_.bot.run_due_work()
        assert [m.content.split("\n")[0] for m in dms(discord_, carol)] == [
            f"Heads-up: {before.global_name} just began their turn in **Test Nim** — Test Server, "
            f"<#{discord_.channel('general').id}>. You are next."]


def said(discord_world: Any, user_ids: list[int]) -> Counter[int]:
    """How many turn DMs each member got."""
    counts: Counter[int] = Counter()
    for channel in discord_world.dm_channels.values():
        if channel.recipient.id in user_ids:
            counts[channel.recipient.id] += len([m for m in discord_world.channel_messages(channel.id)
                                                 if "It is your turn" in m.content])
    return counts


@pytest.mark.parametrize("nonce_seconds", [300.0, 30.0], ids=["Discord remembers the nonce", "it forgot"])
async def test_kills_while_sending_dms_lose_none_and_double_none(database: Path, nonce_seconds: float) -> None:
    """Ten members told by DM, each to move at a table of their own; the bot is killed eight times while it sends
    (before Discord has a DM, and after Discord created it but before the bot heard back) and started again on the
    same database and Discord: in the end each member has had their DM exactly once."""
    clock = Clock()
    world = ClockedWorld(clock)
    rng = random.Random(34)
    members = []
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        for table in range(10):
            member, guest = discord_.user(f"member{table}"), discord_.user(f"guest{table}")
            await discord_.command("me notify", {"how": "dm", "reminders": 0.0}, user=member)
            await open_game(discord_, f"table-{table}", [member, guest])
            if await to_move(discord_, f"table-{table}") != member.id:
                await take_in(discord_, f"table-{table}", guest)
            members.append(member.id)
    world.nonce_window = timedelta(seconds=nonce_seconds)
    kills = passes = 0
    while passes < 100:
        passes += 1
        if kills < 8:
            world.arm(at=rng.randint(1, 2), when=rng.choice(["before", "after"]))
        bot = create_bot(database, clock=clock, poll_seconds=None)
        try:
            async with DiscordHarness(bot, world=world):
                handled = await bot.run_due_work()  # type: ignore[attr-defined]
        except (Crash, InteractionFailed):
            kills += 1
            handled = -1
            await bot.close()
        world.disarm()
        if handled == 0 and not await pending_dms(database):
            break
        clock.advance(LEASE)
    assert kills == 8
    assert said(world, members) == Counter({member: 1 for member in members})


async def pending_dms(database: Path | str) -> list[Any]:
    from bot.store import Store

    store = await Store.open(database)
    try:
        return await store.pending_work_of([*range(1, 100)], ("dm",))
    finally:
        await store.close()


async def test_two_bot_processes_passing_at_once_send_each_dm_once(database: Path) -> None:
    """Two bot processes on one database (PostgreSQL: several shards) run their passes at the same moment: each
    DM is claimed by one of them only."""
    world = World()
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as first:
        members = []
        for table in range(4):
            member, guest = first.user(f"member{table}"), first.user(f"guest{table}")
            await first.command("me notify", {"how": "dm"}, user=member)
            await open_game(first, f"table-{table}", [member, guest])
            if await to_move(first, f"table-{table}") != member.id:
                await take_in(first, f"table-{table}", guest)
            members.append(member.id)
        async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world,
                                  close_bot=True) as second:
            handled = await asyncio.gather(first.bot.run_due_work(), second.bot.run_due_work(),  # type: ignore[attr-defined]
                                           first.bot.run_due_work())  # type: ignore[attr-defined]
            assert sum(handled) == 4
    assert said(world, members) == Counter({member: 1 for member in members})


async def test_a_member_told_by_dm_alone_is_reminded_by_dm_and_the_stall_is_told_in_the_channel(
        database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "dm", "reminders": 6.0}, user=alice)
        await open_game(discord_, "general", [alice, bob])
        await alice_to_move(discord_, "general", alice, bob)
        await discord_.bot.run_due_work()
        general = discord_.channel("general").id
        for count in (1, 2, 3):
            clock.advance(6)
            await discord_.bot.run_due_work()
            reminded = [m for m in dms(discord_, alice) if m.content.startswith("Reminder:")]
            assert len(reminded) == count
        assert reminded[0].content.split("\n")[0] == (
            f"Reminder: your turn in **Test Nim** — Test Server, <#{general}> is still waiting.")
        assert not [m for m in discord_.channel_messages("general") if "your turn in" in m.content], (
            "no reminder pings her in the channel")
        clock.advance(6)
        await discord_.bot.run_due_work()
        assert "has stalled" in discord_.channel_messages("general")[-1].content
        clock.advance(60)
        await discord_.bot.run_due_work()
        assert len([m for m in dms(discord_, alice) if m.content.startswith("Reminder:")]) == 3
