"""A restart while a computer player is to move: the bot turns go on by themselves once the new bot is ready, told
in exactly one new board pinging the person to move, even when two processes start on one database at once."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.core.bots import Budget
from bot.core.seats import is_bot
from bot.features import autoplay
from bot.games.the_expedition import GAME
from bot.games.the_expedition.rules.policies import greedy_action
from bot.offline import DiscordHarness, World
from bot.store import is_postgres_url
from bot.store.records import MatchRecord
from tests.clock import FakeClock
from tests.reading import read
from tests.tables import current_match


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Bots think in a thread with a small iteration budget; a table of bots alone does not pause between rounds."""
    monkeypatch.setattr(autoplay, "LIVE_BUDGET", Budget(seconds=5.0, iterations=15))
    monkeypatch.setattr(autoplay, "BOT_ROUND_PAUSE", 0.0)
    with ThreadPoolExecutor(max_workers=1) as pool:
        autoplay.use_executor(pool)
        yield
        autoplay.use_executor(None)


async def _raw_sql(database: Path | str, statement: str) -> None:
    """A statement run on the database directly, below the Store."""
    if is_postgres_url(database):
        import asyncpg

        connection = await asyncpg.connect(str(database))
        try:
            await connection.execute(statement)
        finally:
            await connection.close()
        return
    with sqlite3.connect(database) as raw:
        raw.execute(statement)


def _boards(discord_: DiscordHarness) -> list[object]:
    return [m for m in discord_.channel_messages() if m.files]


@contextlib.asynccontextmanager
async def _two_processes_start(database: Path, world: World) -> AsyncIterator[DiscordHarness]:
    """Two bot processes start on one database at once, each resuming when it is ready; yields the first."""
    async with DiscordHarness(create_bot(database), world=world, ready=False) as first, \
            DiscordHarness(create_bot(database), world=world, ready=False) as second:
        for harness in (first, second):
            harness.bot._handle_ready()
            harness.bot.dispatch("ready")
        await asyncio.gather(first.settle(), second.settle())
        yield first


async def _alice_moved_then_the_bots_are_due(discord_: DiscordHarness, second_level: str) -> tuple[Any, MatchRecord]:
    """Alice against a normal bot and a `second_level` one: her move is committed, then the process stops before
    the bots play theirs (the service's own commit, without the bot turns that normally follow it)."""
    alice = discord_.user("alice")
    await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
    await discord_.command("game add-bot", {"level": "normal"}, user=alice)
    await discord_.command("game add-bot", {"level": second_level}, user=alice)
    await discord_.command("game start", user=alice)
    stopped = await current_match(discord_)
    seat = GAME.to_act(stopped.state)[0]
    assert stopped.user_at(seat).user_id == alice.id
    while not is_bot(stopped.user_at(GAME.to_act(stopped.state)[0]).user_id):
        action = greedy_action(stopped.state, GAME.catalog, seat, random.Random(1))
        stopped = (await discord_.bot.service.commit(stopped, alice.id, action, stopped.version)).match
    return alice, stopped


async def test_bot_turns_due_when_the_bot_stopped_are_played_once_after_a_restart(database: Path) -> None:
    world = World()
    async with DiscordHarness(create_bot(database), world=world) as discord_:
        alice, stopped = await _alice_moved_then_the_bots_are_due(discord_, "hard")
        boards_before = len(_boards(discord_))
    # Two processes start on the same database at once: each resumes when it is ready.
    async with _two_processes_start(database, world) as first:
        resumed = await current_match(first)
        assert resumed.status == "active"
        waiting = GAME.to_act(resumed.state)[0]
        assert resumed.user_at(waiting).user_id == alice.id, "every bot turn was played"
        moves = [e for e in await first.bot.service.store.events(resumed.id) if e.kind == "action"]
        bot_moves = [e.seat for e in moves if e.seq > stopped.version]
        assert bot_moves and set(bot_moves) == {1, 2}, "both bots took their turns"
        assert await first.bot.service.replayed_state(resumed.id) == resumed.state, "nothing applied twice"
        new_boards = _boards(first)[boards_before:]
        assert len(new_boards) == 1, "exactly one new board"
        assert new_boards[0].notified == (alice.id,)
        assert "🤖 Bot 2 (normal)" in new_boards[0].content and "🤖 Bot 3 (hard)" in new_boards[0].content
        # A reconnect fires on_ready again: nothing more happens.
        first.bot.dispatch("ready")
        await first.settle()
        assert len(_boards(first)) == boards_before + 1


async def test_a_table_of_bots_alone_goes_on_to_the_end_after_a_restart(database: Path) -> None:
    world = World()
    async with DiscordHarness(create_bot(database), world=world) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "the-expedition", "seed": 8}, user=alice)
        await discord_.command("game add-bot", {"level": "normal"}, user=alice)
        await discord_.command("game add-bot", {"level": "easy"}, user=alice)
        await discord_.command("game leave", user=alice)
        lobby_match = await current_match(discord_)
        service = discord_.bot.service
        # Started, then stopped before its first round was played (no table loop runs in this process).
        started = await service.start(lobby_match.channel_id, lobby_match.host_id)
        assert autoplay.all_bots(started) and autoplay.bot_to_move(started) is not None
    async with DiscordHarness(create_bot(database), world=world) as restarted:
        finished = await current_match(restarted)
        for _ in range(1200):  # the table plays in the background: wait for it (60 s at most)
            if finished.status != "active":
                break
            await asyncio.sleep(0.05)
            finished = await current_match(restarted)
        assert finished.status == "finished" and GAME.outcome(finished.state) is not None
        assert finished.version > started.version
        assert all(m.notified == () for m in restarted.channel_messages()), "bots are never pinged"
        assert await restarted.bot.service.replayed_state(finished.id) == finished.state


async def test_a_board_left_behind_by_bot_turns_is_posted_once_after_a_restart(database: Path) -> None:
    """The process stopped after the computer players' turns were committed but before their board was posted: the
    next start posts the current board once, pinging only the person to move (two processes starting together)."""
    world = World()
    async with DiscordHarness(create_bot(database), world=world) as discord_:
        alice, stopped = await _alice_moved_then_the_bots_are_due(discord_, "easy")
        stopped = await autoplay.after_move(discord_.bot.service, stopped)  # the bots' turns, committed; then the stop
        assert stopped.user_at(GAME.to_act(stopped.state)[0]).user_id == alice.id
        boards_before = len(_boards(discord_))
    async with _two_processes_start(database, world) as first:
        assert (await current_match(first)).version == stopped.version, "nothing was played again"
        new_boards = _boards(first)[boards_before:]
        assert len(new_boards) == 1, "exactly one new board"
        assert new_boards[0].notified == (alice.id,)
        assert f"<@{alice.id}> — " in new_boards[0].content
        assert "🤖 Bot 2 (normal)" in new_boards[0].content and "🤖 Bot 3 (easy)" in new_boards[0].content
        assert new_boards[0].button_labels()[-3:] == ["Show mine", "Details", "What's this?"]
    async with DiscordHarness(create_bot(database), world=world) as again:  # the board is current now
        await again.settle()
        assert len(_boards(again)) == boards_before + 1


async def test_a_final_board_never_posted_is_posted_once_after_a_restart(database: Path) -> None:
    """The process stopped between a game's final move and its final board: the next start posts the final board
    once, pinging every seated person (the end of a game reaches them all, issue 33: here Alice), and a game whose
    final board was posted is left alone."""
    world = World()
    async with DiscordHarness(create_bot(database), world=world) as discord_:
        alice, match = await _alice_moved_then_the_bots_are_due(discord_, "easy")
        service = discord_.bot.service
        while match.status == "active":  # the rest of the game committed, no board posted (then the stop)
            match = await autoplay.after_move(service, match)
            if match.status == "active":
                seat = GAME.to_act(match.state)[0]
                action = greedy_action(match.state, GAME.catalog, seat, random.Random(2))
                match = (await service.commit(match, alice.id, action, match.version)).match
        assert match.status == "finished"
        boards_before = len(_boards(discord_))
    async with _two_processes_start(database, world) as first:
        new_boards = _boards(first)[boards_before:]
        assert len(new_boards) == 1, "exactly one new board"
        assert new_boards[0].notified == (alice.id,)
        assert new_boards[0].content.endswith(f"**{read(GAME.outcome(match.state).summary)}**")  # the result, in bold
    async with DiscordHarness(create_bot(database), world=world) as again:  # the final board is posted now
        await again.settle()
        assert len(_boards(again)) == boards_before + 1


async def test_a_board_left_behind_and_owed_is_posted_once_by_the_start_up_and_the_first_pass(database: Path) -> None:
    """The board left behind is owed too (the outbox), and its grace passed while the bot was down: two processes
    start together, each posting boards left behind and then running the scheduler's first pass at once, which
    delivers owed boards. One board, one ping."""
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        alice, stopped = await _alice_moved_then_the_bots_are_due(discord_, "easy")
        stopped = await autoplay.after_move(discord_.bot.service, stopped)
        owed = [w for w in await discord_.bot.service.store.pending_work(stopped.id) if w.kind == "board"]
        assert owed, "the bots' board is owed"
        boards_before = len(_boards(discord_))
    clock.advance(1)
    async with DiscordHarness(create_bot(database, clock=clock), world=world, ready=False) as first, \
            DiscordHarness(create_bot(database, clock=clock), world=world, ready=False) as second:
        for harness in (first, second):
            harness.bot._handle_ready()
            harness.bot.dispatch("ready")
        await asyncio.gather(first.settle(), second.settle())
        assert first.bot.scheduler.passes == second.bot.scheduler.passes == 1
        new_boards = _boards(first)[boards_before:]
        assert len(new_boards) == 1, "exactly one new board"
        assert new_boards[0].notified == (alice.id,)
        assert [w for w in await first.bot.service.store.pending_work(stopped.id) if w.kind == "board"] == []


async def test_no_board_is_posted_for_games_whose_board_version_was_never_kept(database: Path) -> None:
    """A database from before migration 6 kept no board version: a board it shows may be behind or not, nobody can
    tell, so a start posts nothing for it (no stale ping for a game long over, nor a board twice)."""
    world = World()
    async with DiscordHarness(create_bot(database), world=world) as discord_:
        alice, stopped = await _alice_moved_then_the_bots_are_due(discord_, "easy")
        service = discord_.bot.service
        stopped = await autoplay.after_move(service, stopped)
        await discord_.command("game new", {"game": "the-expedition", "seed": 3}, user=alice, channel="over")
        await discord_.command("game add-bot", {"level": "easy"}, user=alice, channel="over")
        await discord_.command("game start", user=alice, channel="over")
        over = await service.current(discord_.channel("over").id)
        while over.status == "active":  # finished, its final board never posted
            over = await autoplay.after_move(service, over)
            if over.status == "active":
                seat = GAME.to_act(over.state)[0]
                action = greedy_action(over.state, GAME.catalog, seat, random.Random(2))
                over = (await service.commit(over, alice.id, action, over.version)).match
        for match in (stopped, over):  # as the version before migration 6 left them; their boards already delivered
            for work in await service.store.pending_work(match.id):
                await service.store.finish_work(work.id, datetime.now(UTC))
        await _raw_sql(database, "UPDATE matches SET board_version = NULL")
        seen = {name: len(discord_.channel_messages(name)) for name in ("general", "over")}
    async with DiscordHarness(create_bot(database), world=world) as again:
        await again.settle()
        assert {name: len(again.channel_messages(name)) for name in seen} == seen


async def test_a_board_left_behind_that_another_process_delivers_meanwhile_is_not_posted_again(
        database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer players' turns were committed and their board is owed; a running process's scheduler delivers
    it at the very moment a starting process is about to post it as a board left behind: one board, one ping."""
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as running:
        alice, stopped = await _alice_moved_then_the_bots_are_due(running, "easy")
        stopped = await autoplay.after_move(running.bot.service, stopped)  # (their poster stopped before posting)
        boards_before = len(_boards(running))
        clock.advance(1)  # the owed board's grace is over: the running process's next pass delivers it
        async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world,
                                  ready=False) as starting:
            post = starting.bot.desk.post
            passes = []

            async def the_other_delivers_first(match_id: int, **options: Any) -> Any:
                if not passes:
                    passes.append(await running.bot.run_due_work())
                return await post(match_id, **options)

            monkeypatch.setattr(starting.bot.desk, "post", the_other_delivers_first)
            starting.bot._handle_ready()
            starting.bot.dispatch("ready")
            await starting.settle()
            assert passes == [1], "the running process delivered the owed board"
            new_boards = _boards(starting)[boards_before:]
            assert len(new_boards) == 1, "exactly one new board"
            assert new_boards[0].notified == (alice.id,)
            assert (await current_match(starting)).version == stopped.version
