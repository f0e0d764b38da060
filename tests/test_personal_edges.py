"""Issue 34's edges (review 13): a member away who moves is back everywhere, and only if the move stands; /me away
cannot flood the tables nor overlap itself; the end of a game reaches members told by DM; the clock's line is on
every board; DMs that can never arrive are given up; labels keep names as typed; the channel is not told about a
member's DM settings; the heads-up follows the game's order; the turn's reads stay few. Through the offline
Discord on a fake clock, on both engines."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.core import StaleBoard, find_game
from bot.core.rng import Rng
from bot.features.personal import parse_clock
from bot.offline import DiscordHarness, FakeUser
from bot.store import Store
from tests.clock import START, FakeClock
from tests.test_personal_away import deadlines, told
from tests.test_personal_games import open_game, take_in, to_move

HOUR = 3600
STARTED = int(START.timestamp())


async def alice_to_move_at_both(discord_: DiscordHarness) -> tuple[FakeUser, FakeUser]:
    """Alice to move at a table of each server (24 h a turn), all at the start of the clock."""
    alice, bob = discord_.user("alice"), discord_.user("bob")
    discord_.channel("tavern", guild=discord_.guild_named("Second Server"))
    for channel in ("tavern", "general"):
        await open_game(discord_, channel, [alice, bob], timer=24)
        if await to_move(discord_, channel) != alice.id:
            await take_in(discord_, channel, bob)
    return alice, bob


def service_of(discord_: DiscordHarness) -> Any:
    return discord_.bot.service  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------- 1: away, then a move


async def test_moving_while_away_brings_the_members_other_games_back_too(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, _bob = await alice_to_move_at_both(discord_)
        await discord_.command("me away", {"days": 3}, user=alice)
        until = STARTED + 72 * HOUR
        assert await deadlines(discord_, "general") == [("remind", until + 12 * HOUR), ("timer", until + 24 * HOUR)]
        clock.advance(24)
        await take_in(discord_, "tavern", alice)  # she is back: her move says so
        assert (await discord_.command("me back", user=alice)).one().content.startswith("You are not away")
        assert await deadlines(discord_, "general") == [("remind", STARTED + 36 * HOUR),
                                                        ("timer", STARTED + 48 * HOUR)], (
            "her other table waits no longer: moved back by the two days not taken, as /me back does")


async def test_a_move_refused_as_stale_ends_no_time_away(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, _bob = await alice_to_move_at_both(discord_)
        await discord_.command("me away", {"days": 3}, user=alice)
        clock.advance(24)
        service = service_of(discord_)
        match = await service.current(discord_.channel("tavern").id)
        game = find_game(match.game)
        seat = match.seat_of(alice.id)
        action = game.legal_actions(match.state, seat)[0]
        applied = game.apply(match.state, seat, action, Rng(4, match.version))
        await service.store.record(match.id, match.version, "chat", text="another process wrote first")
        with pytest.raises(StaleBoard):
            await service.tables.commit_move(match, state=applied.state, status="active", seat=seat,
                                             user_id=alice.id, action=action)
        assert await service.store.current_away(alice.id, STARTED + 24 * HOUR) == (STARTED, STARTED + 72 * HOUR)
        assert await deadlines(discord_, "general") == [("remind", STARTED + 84 * HOUR),
                                                        ("timer", STARTED + 96 * HOUR)], "still frozen"


# --------------------------------------------------------------------------------------------- 2: away floods


async def test_me_away_and_back_cannot_flood_the_tables(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, _bob = await alice_to_move_at_both(discord_)
        for _ in range(10):
            await discord_.command("me away", {"days": 1}, user=alice)
            await discord_.command("me back", user=alice)
        assert len(told(discord_, "tavern")) == 2 and len(told(discord_, "general")) == 2, (
            "one time away and one return told; the other presses refused")
        refused = (await discord_.command("me away", {"days": 1}, user=alice)).one()
        assert refused.ephemeral and refused.content == (
            f"You started a time away less than an hour ago (each one tells all your tables): try again "
            f"<t:{STARTED + HOUR}:R>. Nothing was changed.")
        clock.advance(1)
        assert (await discord_.command("me away", {"days": 1}, user=alice)).one("followup").content.startswith(
            "You are away until"), "an hour later"
        assert len(told(discord_, "tavern")) == 3


async def test_two_times_away_never_overlap(store: Store) -> None:
    assert await store.start_away(7, 1_000, 2_000) is True
    assert await store.start_away(7, 1_500, 9_000, [(1, 5)]) is False, "one under way: the second changes nothing"
    assert await store.away_seconds_since(7, 0) == 1_000
    assert await store.current_away(7, 1_600) == (1_000, 2_000)
    await store.end_away(7, 1_700)
    assert await store.start_away(7, 1_800, 2_800) is True, "after it ended, a new one may begin"


# --------------------------------------------------------------------------------------------- 3, 5, 10: told


async def finish(discord_: DiscordHarness, channel: str, players: dict[int, FakeUser]) -> None:
    for _ in range(40):
        match = await service_of(discord_).current(discord_.channel(channel).id)
        if match.status != "active":
            return
        await take_in(discord_, channel, players[await to_move(discord_, channel)])
    raise AssertionError("the game did not end")


async def test_the_end_of_a_game_pings_a_member_told_by_dm_alone(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "dm"}, user=alice)
        await open_game(discord_, "general", [alice, bob])
        await finish(discord_, "general", {alice.id: alice, bob.id: bob})
        final = [m for m in discord_.channel_messages("general") if m.files][-1]
        assert set(final.notified) == {alice.id, bob.id}, "no DM says a game ended: the final board pings her"


async def test_the_clock_line_stays_on_an_edited_board_and_comes_with_a_dm(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "both"}, user=alice)
        await discord_.command("game new", {"game": "test-nim", "seed": 4, "clock": "72+24"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        if await to_move(discord_, "general") != alice.id:
            await take_in(discord_, "general", bob)
        await discord_.bot.run_due_work()
        (dm,) = discord_.channel_messages(discord_.dm(alice))
        assert "⏱ Time left: " in dm.content and f"runs out <t:{STARTED + 72 * HOUR}:R>" in dm.content
        board = [m for m in discord_.channel_messages("general") if m.files][-1]
        desk = discord_.bot.desk  # type: ignore[attr-defined]
        await desk.refresh((await service_of(discord_).current(board.channel_id)).id)
        assert desk.edits_sent == 1
        assert "⏱ Time left: " in discord_.world.get_message(board.id).content, "an edit keeps the line"


async def test_a_refused_heads_up_is_not_told_to_the_channel(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"heads_up": True}, user=alice)
        discord_.refuse_dms(alice)
        await open_game(discord_, "general", [alice, bob])
        if await to_move(discord_, "general") == bob.id:
            await take_in(discord_, "general", bob)
        await take_in(discord_, "general", alice)  # Bob's turn: Alice is next, her heads-up is refused
        before = len(discord_.channel_messages("general"))
        for _ in range(3):
            await discord_.bot.run_due_work()
        assert len(discord_.channel_messages("general")) == before, "nothing says her DMs refuse the bot"
        assert "do not accept messages" in (await discord_.command("me show", user=alice)).one().content


# --------------------------------------------------------------------------------------------- 8: given up


async def dm_items(discord_: DiscordHarness, channel: str) -> list[Any]:
    match = await service_of(discord_).current(discord_.channel(channel).id)
    return [work for work in await service_of(discord_).store.pending_work(match.id)
            if work.kind in ("dm", "dm_refused")]


async def test_a_dm_to_a_channel_that_is_gone_is_given_up_not_retried_for_ever(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "dm"}, user=alice)
        await discord_.command("games", user=alice, channel=discord_.dm(alice))  # her DM channel is known
        await open_game(discord_, "general", [alice, bob])
        if await to_move(discord_, "general") == alice.id:
            await take_in(discord_, "general", alice)
        discord_.dm(alice).deleted = True  # her account was deleted: Discord forgets the channel (404)
        await take_in(discord_, "general", bob)
        for _ in range(3):
            await discord_.bot.run_due_work()
            clock.advance(1)
        assert [(work.kind, work.payload["what"]) for work in await dm_items(discord_, "general")] == [
            ("dm", "reminder")], "the turn's DM is done; only its reminder (a new try later) waits"
        match = await service_of(discord_).current(discord_.channel("general").id)
        assert match.status == "active", "the game's channel is not taken for gone"


# --------------------------------------------------------------------------------------------- 9: labels


async def test_the_games_menu_keeps_names_as_typed(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("cool_guy", global_name="cool_guy *2*")
        discord_.channel("tavern", guild=discord_.guild_named("my_server"))
        await open_game(discord_, "tavern", [alice, bob])
        if await to_move(discord_, "tavern") == alice.id:
            await take_in(discord_, "tavern", alice)
        answer = (await discord_.command("games", user=alice)).one()
        assert [(o["label"], o["description"]) for o in answer.select_options("xt:jump")] == [
            ("Test Nim — my_server", "cool_guy *2* to move")]


# --------------------------------------------------------------------------------------------- 12: heads-up order


def test_the_heads_up_follows_the_games_own_order() -> None:
    game = find_game("the-expedition")
    state = game.setup("standard", ["Ada", "Bo", "Cy"], Rng(3), {})
    state = {**state, "phase": "play", "order": ["p2", "a0", "p0", "p1"], "current": 0}
    assert game.next_to_act(state) == (0,), "after seat 2 and the Automation comes seat 0, not seat 3 % 3"
    state = {**state, "phase": "placement", "placement": [1, 2, 0], "placed": 0}
    assert game.next_to_act(state) == (2,), "the placement order"


# --------------------------------------------------------------------------------------------- 15, 17: reads


async def test_a_turn_change_reads_the_members_once_and_a_dm_draws_no_board(database: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("me notify", {"how": "dm", "heads_up": True}, user=alice)
        await open_game(discord_, "general", [alice, bob])
        service = service_of(discord_)
        calls: list[str] = []
        for name in ("member", "current_away", "members"):
            original = getattr(service.store, name)

            async def counted(*args: Any, _name: str = name, _original: Any = original, **kwargs: Any) -> Any:
                calls.append(_name)
                return await _original(*args, **kwargs)

            monkeypatch.setattr(service.store, name, counted)
        for _ in range(4):
            await take_in(discord_, "general", alice if await to_move(discord_, "general") == alice.id else bob)
        assert "member" not in calls and "current_away" not in calls, calls
        assert calls.count("members") <= 4 * 3, "the planner's two hooks and the board's pings: one read each"
        drawn: list[int] = []
        board = service.board

        async def counted_board(match: Any) -> Any:
            drawn.append(match.id)
            return await board(match)

        monkeypatch.setattr(service, "board", counted_board)
        await discord_.bot.run_due_work()
        assert discord_.channel_messages(discord_.dm(alice))[-1].files, "the DM carries the board"
        assert drawn == [], "the board the channel shows, not drawn again"


# --------------------------------------------------------------------------------------------- 16: /games reads


async def test_games_without_reminders_reads_when_each_turn_began_in_one_query(database: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        admin = discord_.user("admin", manage_guild=True)
        await discord_.command("settings reminders", {"hours": 0.0}, user=admin)
        channels = ["general", "tavern", "lounge"]
        for channel in channels:
            await open_game(discord_, channel, [alice, bob])
        for channel in channels:  # Alice moves: Bob's turn everywhere
            if await to_move(discord_, channel) == bob.id:
                await take_in(discord_, channel, bob)
            await take_in(discord_, channel, alice)
        service = service_of(discord_)
        began = []  # the log's time (the store's own clock) of each move that passed the turn to Bob
        for channel in channels:
            match = await service.current(discord_.channel(channel).id)
            passed = [e for e in await service.store.events(match.id) if e.kind == "action"
                      and e.seat == match.seat_of(alice.id)][-1]
            began.append(int(datetime.fromisoformat(passed.created_at).replace(tzinfo=UTC).timestamp()))
        read: list[int] = []
        events = service.store.events

        async def counted(match_id: int, *args: Any, **kwargs: Any) -> Any:
            read.append(match_id)
            return await events(match_id, *args, **kwargs)

        monkeypatch.setattr(service.store, "events", counted)
        listed = (await discord_.command("games", user=alice)).one().content
        assert sorted(int(when) for when in re.findall(r"Bob to move since <t:(\d+):R>", listed)) == sorted(began)
        assert read == [], "no log read per game"


# --------------------------------------------------------------------------------------------- 33, 38: one place


def test_no_clock_is_parsed_in_one_place() -> None:
    assert parse_clock("0") is None and parse_clock(" 0 ") is None and parse_clock("") is None
    assert parse_clock("72+24") == (72.0, 24.0)


async def test_the_language_a_member_last_used_is_noted_by_the_store_and_kept_later(store: Store) -> None:
    store.note_language(7, "de")
    assert (await store.member(7)).language == "de", "read at once, before it is kept"
    assert (await store.members([7]))[7].language == "de"
    assert await store.flush_languages() == 1
    assert await store.flush_languages() == 0, "kept once"
    store.note_language(7, "de")
    assert await store.flush_languages() == 0, "the same language again writes nothing"
