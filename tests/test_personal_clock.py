"""Clocks for long games (issue 34): `/game new clock:72+24`, each seat's time left on its board, the deadline
when the time of the player to move runs out, a server default; through the offline Discord on a fake clock."""

from __future__ import annotations

from pathlib import Path

from bot.app import create_bot
from bot.offline import DiscordHarness
from tests.clock import START, FakeClock
from tests.test_personal_games import take_in, to_move

HOUR = 3600
STARTED = int(START.timestamp())


async def timer_of(discord_: DiscordHarness, channel: str) -> tuple[int, dict[str, int]]:
    match = await discord_.bot.service.current(discord_.channel(channel).id)  # type: ignore[attr-defined]
    pending = await discord_.bot.service.store.pending_work(match.id)  # type: ignore[attr-defined]
    (timer,) = [work for work in pending if work.kind == "timer"]
    return timer.due_at, timer.payload["banks"]


def board_text(discord_: DiscordHarness, channel: str) -> str:
    return [m for m in discord_.channel_messages(channel) if m.files][-1].content


async def test_a_clock_charges_each_move_adds_the_increment_up_to_the_bank_and_shows_on_the_board(
        database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        discord_.channel("tavern", guild=discord_.guild_named("Second Server"))
        lobby = await discord_.command("game new", {"game": "test-nim", "seed": 4, "clock": "72+24"}, user=alice,
                                       channel="tavern")
        assert "Clock: 3 days per player, 24 h added after each move (never above 3 days)." in (
            lobby.public()[-1].content)
        await discord_.command("game join", user=bob, channel="tavern")
        await discord_.command("game start", user=alice, channel="tavern")
        first = await to_move(discord_, "tavern")
        names = {alice.id: "Alice", bob.id: "Bob"}
        players = {alice.id: alice, bob.id: bob}
        second = bob.id if first == alice.id else alice.id
        full = {"0": 72 * HOUR, "1": 72 * HOUR}
        assert await timer_of(discord_, "tavern") == (STARTED + 72 * HOUR, full)
        assert f"{names[first]} runs out <t:{STARTED + 72 * HOUR}:R>" in board_text(discord_, "tavern")
        assert f"{names[second]} 3 days" in board_text(discord_, "tavern")
        clock.advance(10)  # 10 h taken, 24 h added: back to the bank's 72 h
        await take_in(discord_, "tavern", players[first])
        now = STARTED + 10 * HOUR
        assert await timer_of(discord_, "tavern") == (now + 72 * HOUR, full)
        clock.advance(50)  # 50 h taken, 24 h added: 46 h left
        await take_in(discord_, "tavern", players[second])
        now += 50 * HOUR
        seat = "1" if second == bob.id else "0"
        due, banks = await timer_of(discord_, "tavern")
        assert due == now + 72 * HOUR and banks == {**full, seat: 46 * HOUR}
        assert "⏱ Time left: " in board_text(discord_, "tavern")
        assert f"{names[second]} 46 h" in board_text(discord_, "tavern")
        games = (await discord_.command("games", user=alice, channel=discord_.dm(alice))).one().content
        assert f"clock runs out <t:{now + 72 * HOUR}:R>" in games


async def test_a_bad_clock_is_refused_and_a_server_sets_one_for_new_games(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, admin = discord_.user("alice"), discord_.user("admin", manage_guild=True)
        for options, refusal in (({"clock": "soon"}, "“soon” is not a clock: write a bank of 1 to 720 hours"),
                                 ({"clock": "72+100"}, "“72+100” is not a clock"),
                                 ({"clock": "72+24", "timer": 12.0}, "A game has a clock or a deadline per turn")):
            answer = (await discord_.command("game new", {"game": "test-nim", **options}, user=alice)).one()
            assert answer.ephemeral and answer.content.startswith(refusal), answer.content
        assert await discord_.bot.service.open_match(discord_.default_channel.id) is None  # type: ignore[attr-defined]
        done = (await discord_.command("settings clock", {"clock": "48+12"}, user=admin)).one().content
        assert done.startswith("New games play on a clock of 48+12 hours (bank + hours added per move).")
        assert "\n- Clock for new games (`/settings clock`): 48+12 hours (bank + hours added per move)\n" in done
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        match = await discord_.bot.service.open_match(discord_.default_channel.id)  # type: ignore[attr-defined]
        assert match.options["clock"] == [48.0, 12.0]
        await discord_.command("game abandon", user=alice)
        lounge = await discord_.command("game new", {"game": "test-nim", "timer": 6.0}, user=alice, channel="lounge")
        match = await discord_.bot.service.open_match(discord_.channel("lounge").id)  # type: ignore[attr-defined]
        assert "clock" not in match.options and lounge.public(), "a deadline per turn chosen: no clock"


async def test_when_the_time_of_the_player_to_move_runs_out_the_servers_timer_policy_applies(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21, "clock": "2"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        late = await to_move(discord_, "general")
        version = (await discord_.bot.service.current(discord_.default_channel.id)).version  # type: ignore[attr-defined]
        clock.advance(1.9)
        await discord_.bot.run_due_work()
        assert await to_move(discord_, "general") == late
        clock.advance(0.2)
        await discord_.bot.run_due_work()
        match = await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]
        assert match.version > version and await to_move(discord_, "general") != late
        name = next(seat.name for seat in match.seats if seat.user_id == late)
        note = board_text(discord_, "general")
        assert note.startswith(f"⏰ {name} did not move within 2 h: a normal computer player took the turn.")
        assert "runs out <t:" in note and f"{name} 0 h" in note, "their time is spent (no hours added per move)"


async def test_time_away_is_not_charged_to_the_clock(database: Path) -> None:
    """A member away (/me away) keeps their clock: the deadline waits, and the days away are not taken from the bank
    when they come back and move."""
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim", "seed": 4, "clock": "72+0"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        first = await to_move(discord_, "general")
        players = {alice.id: alice, bob.id: bob}
        mover = players[first]
        seat = "0" if (await discord_.bot.service.current(discord_.channel("general").id)  # type: ignore[attr-defined]
                       ).seats[0].user_id == first else "1"
        clock.advance(2)  # 2 h taken, then 3 days away, back after them
        await discord_.command("me away", {"days": 3}, user=mover)
        clock.advance(72 + 3)
        await take_in(discord_, "general", mover)
        _, banks = await timer_of(discord_, "general")
        assert banks[seat] == 72 * HOUR - 5 * HOUR  # 2 h before and 3 h after: not the 72 h away
