"""/me away and /me back (issue 34): a member's turn deadlines and reminders wait in all their games across servers,
each table is told until when, moving or /me back ends it, a yearly budget the server sets; on a fake clock."""

from __future__ import annotations

from pathlib import Path

from bot.app import create_bot
from bot.offline import DiscordHarness, FakeUser
from tests.clock import START, FakeClock
from tests.test_personal_games import open_game, take_in, to_move

HOUR = 3600
STARTED = int(START.timestamp())


async def deadlines(discord_: DiscordHarness, channel: str) -> list[tuple[str, int]]:
    match = await discord_.bot.service.current(discord_.channel(channel).id)  # type: ignore[attr-defined]
    pending = await discord_.bot.service.store.pending_work(match.id)  # type: ignore[attr-defined]
    return [(work.kind, work.due_at) for work in pending if work.kind in ("timer", "remind")]


async def two_tables(discord_: DiscordHarness) -> tuple[FakeUser, FakeUser]:
    """Alice to move at a table of the second server (24 h a turn), Bob at one of the first."""
    alice, bob = discord_.user("alice"), discord_.user("bob")
    discord_.channel("tavern", guild=discord_.guild_named("Second Server"))
    await open_game(discord_, "tavern", [alice, bob], timer=24)
    await open_game(discord_, "general", [bob, alice], timer=24)
    if await to_move(discord_, "tavern") != alice.id:
        await take_in(discord_, "tavern", bob)
    if await to_move(discord_, "general") != bob.id:
        await take_in(discord_, "general", alice)
    return alice, bob


def told(discord_: DiscordHarness, channel: str) -> list[str]:
    return [m.content for m in discord_.channel_messages(channel) if " away until " in m.content
            or " is back" in m.content]


async def test_away_freezes_the_members_deadlines_in_all_their_games_and_tells_each_table(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = await two_tables(discord_)
        assert await deadlines(discord_, "tavern") == [("remind", STARTED + 12 * HOUR), ("timer", STARTED + 24 * HOUR)]
        bobs = await deadlines(discord_, "general")
        answer = (await discord_.command("me away", {"days": 3}, user=alice,
                                         channel=discord_.dm(alice))).one("followup")
        until = STARTED + 72 * HOUR
        assert answer.ephemeral and answer.content.startswith(f"You are away until <t:{until}:F>: your turn deadlines "
                                                              "and reminders in all your games under way (2) wait")
        assert told(discord_, "tavern") == [f"Alice is away until <t:{until}:F>: their turn deadlines and reminders "
                                            "wait until then."]
        assert len(told(discord_, "general")) == 1 and told(discord_, "general")[0].startswith("Alice is away")
        assert await deadlines(discord_, "tavern") == [("remind", until + 12 * HOUR), ("timer", until + 24 * HOUR)]
        assert await deadlines(discord_, "general") == bobs, "Bob's turn runs on"
        clock.advance(30)
        await discord_.bot.run_due_work()
        assert await to_move(discord_, "tavern") == alice.id, "no computer player took her turn"
        await take_in(discord_, "general", bob)  # the turn passes to Alice while she is away
        now = int(clock().timestamp())
        assert await deadlines(discord_, "general") == [("remind", now + 12 * HOUR + until - now),
                                                        ("timer", now + 24 * HOUR + until - now)]
        clock.advance(72 + 24 - 30 - 1)  # an hour before her first deadline, frozen for three days
        await discord_.bot.run_due_work()
        assert await to_move(discord_, "tavern") == alice.id
        assert ("timer", until + 24 * HOUR) in await deadlines(discord_, "tavern"), "still owed at its frozen time"


async def test_moving_or_me_back_ends_the_time_away(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, _bob = await two_tables(discord_)
        await discord_.command("me away", {"days": 3}, user=alice)
        clock.advance(24)
        back = (await discord_.command("me back", user=alice)).one("followup")
        assert back.content == "Welcome back: your turn deadlines and reminders run again."
        now = int(clock().timestamp())
        assert await deadlines(discord_, "tavern") == [("remind", now + 12 * HOUR), ("timer", now + 24 * HOUR)], (
            "moved back by the two days not taken")
        assert told(discord_, "tavern")[-1] == "Alice is back: their turn deadlines and reminders run again."
        assert (await discord_.command("me back", user=alice)).one().content.startswith("You are not away")
        await discord_.command("me away", {"days": 2}, user=alice)
        await take_in(discord_, "tavern", alice)
        assert (await discord_.command("me back", user=alice)).one().content.startswith("You are not away"), (
            "her move ended it")


async def test_a_time_away_is_refused_beyond_fourteen_days_or_the_servers_yearly_budget(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, _bob = await two_tables(discord_)
        admin = discord_.user("admin", manage_guild=True)
        await discord_.command("settings away", {"days": 5}, user=admin)
        refused = (await discord_.command("me away", {"days": 6}, user=alice)).one()
        assert refused.ephemeral and refused.content == (
            "That is more than your servers allow: 5 days away a year, 5 of them left. Nothing was changed.")
        await discord_.command("me away", {"days": 3}, user=alice)
        clock.advance(24)
        await discord_.command("me back", user=alice)  # one day taken
        before = await deadlines(discord_, "tavern")
        again = (await discord_.command("me away", {"days": 5}, user=alice)).one().content
        assert again == "That is more than your servers allow: 5 days away a year, 4 of them left. Nothing was changed."
        assert await deadlines(discord_, "tavern") == before, "nothing changed"
        clock.advance(24 * 365)
        assert (await discord_.command("me away", {"days": 5}, user=alice)).one("followup").content.startswith(
            "You are away until"), "a year later the budget is whole again"


async def test_away_holds_reminders_by_dm_too(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = await two_tables(discord_)
        await discord_.command("me notify", {"how": "dm", "reminders": 6.0}, user=alice)
        await take_in(discord_, "tavern", alice)  # her next turn is planned with a reminder by DM
        await take_in(discord_, "tavern", bob)
        match = await discord_.bot.service.current(discord_.channel("tavern").id)  # type: ignore[attr-defined]

        async def dm_reminders() -> list[int]:
            pending = await discord_.bot.service.store.pending_work(match.id)  # type: ignore[attr-defined]
            return [w.due_at for w in pending if w.kind == "dm" and w.payload.get("what") == "reminder"]

        assert await dm_reminders() == [STARTED + 6 * HOUR]
        await discord_.command("me away", {"days": 2}, user=alice)
        assert await dm_reminders() == [STARTED + 6 * HOUR + 48 * HOUR]
