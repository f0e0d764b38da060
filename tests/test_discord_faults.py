"""When Discord fails after a move is committed (issue 23): the move stands and the mover is told so, never "Sorry";
the new board and its ping are owed from the move's own transaction and delivered once Discord takes them (retried,
in words where images are refused, by the scheduler after a restart); a channel closed to the bot shows players the
board privately; a deleted channel or thread ends its game. The faults are the offline Discord's (planted
with `World.fail_next`, `World.deny`, `DiscordHarness.delete_channel`), each modelled on Discord's own answer.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness, FakeUser, InteractionFailed, Message, World
from bot.store import StoreUnavailable
from cogs.table import APOLOGY, MOVE_STANDS, STORE_NOT_ANSWERING, retry_after_of
from tests.tables import current_match, open_table, player_to_move

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"
CHANNEL_POST = "POST /channels/{channel_id}/messages"
ALWAYS = 10_000  # a fault planted for "every request from now on"


def with_files(body: dict) -> bool:
    return bool(body.get("attachments"))


def heal(world: World, faults: list | None = None) -> None:
    """Discord is back: the planted faults (these, or all) answer no more."""
    for fault in faults if faults is not None else world.faults:
        fault.left = 0


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The desk's waits between tries are real sleeps: keep them short (their length is not what is tested)."""
    import cogs.table

    real_sleep = cogs.table.asyncio.sleep

    async def short(seconds: float, *args: object) -> None:
        await real_sleep(min(seconds, 0.01))

    monkeypatch.setattr(cogs.table.asyncio, "sleep", short)


def boards(discord_: DiscordHarness) -> list[Message]:
    return [m for m in discord_.channel_messages() if "Take" in " ".join(m.button_labels()) or m.files]


async def owed_boards(discord_: DiscordHarness) -> list:
    match = await current_match(discord_)
    return [w for w in await discord_.bot.service.store.pending_work(match.id) if w.kind == "board"]  # type: ignore[attr-defined]


async def move(discord_: DiscordHarness, users: list[FakeUser]) -> tuple[FakeUser, object]:
    mover = await player_to_move(discord_, users)
    replies = await discord_.click(boards(discord_)[-1], label="Take 1", user=mover)
    return mover, replies


async def test_server_errors_on_the_new_board_are_retried_and_the_board_comes(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        fault = discord_.world.fail_next(FOLLOWUP, 503, times=2, when=with_files)
        _, replies = await move(discord_, users)
        nxt = await player_to_move(discord_, users)
        assert fault.met == 2
        new = [r for r in replies.public() if r.created][-1]
        assert new.created and new.notified == (nxt.id,), "the next player is pinged by the board that came"
        assert all(r.content not in (APOLOGY, MOVE_STANDS) for r in replies.messages())
        assert await owed_boards(discord_) == []


async def test_a_board_discord_will_not_take_stays_owed_and_comes_with_its_ping(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        before = len(boards(discord_))
        discord_.world.fail_next(FOLLOWUP, 503, times=ALWAYS, when=with_files)
        discord_.world.fail_next(CHANNEL_POST, 503, times=ALWAYS)
        _, replies = await move(discord_, users)
        nxt = await player_to_move(discord_, users)
        told = [r.content for r in replies.ephemeral()]
        assert MOVE_STANDS in told and APOLOGY not in told, "the mover knows the move stands"
        assert len(boards(discord_)) == before and not [r for r in replies.public() if r.created]
        owed = await owed_boards(discord_)
        assert len(owed) == 1 and owed[0].attempts == 1 and "503 Service Unavailable" in (owed[0].last_error or "")
        assert owed[0].payload["seats"] == [(await current_match(discord_)).seat_of(nxt.id)]
        clock.advance(31)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert len(boards(discord_)) == before and (await owed_boards(discord_))[0].attempts == 2
        heal(discord_.world)  # Discord is back
        clock.advance(61)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        posted = boards(discord_)[-1]
        assert len(boards(discord_)) == before + 1 and posted.notified == (nxt.id,), "the ping was not lost"
        assert await owed_boards(discord_) == []
        clock.advance(3600)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert len(boards(discord_)) == before + 1, "delivered once"


async def test_rate_limits_that_outlast_discord_py_leave_the_board_owed(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        # discord.py waits out a 429 and tries again, five times in all; the desk tries three times over.
        limited = discord_.world.fail_next(FOLLOWUP, 429, retry_after=0.5, times=15, when=with_files)
        _, replies = await move(discord_, users)
        assert limited.met == 15 and MOVE_STANDS in [r.content for r in replies.ephemeral()]
        assert len(await owed_boards(discord_)) == 1
        clock.advance(31)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert await owed_boards(discord_) == [] and boards(discord_)[-1].notified


def test_discords_retry_after_sets_the_next_try() -> None:
    from bot.features import outbox

    wait = retry_after_of(discord.RateLimited(40.0))
    assert wait == 40.0 and outbox.retry_delay(0, wait) == 40.0
    assert [outbox.retry_delay(n) for n in range(9)] == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]


async def test_without_attach_files_the_board_comes_in_words(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        discord_.world.deny(discord_.default_channel.id, "attach_files")
        _, replies = await move(discord_, users)
        nxt = await player_to_move(discord_, users)
        new = [r for r in replies.public() if r.created][-1]
        assert (new.files == [] and "Test Nim board" in new.content) or "stones" in new.content.lower()
        assert new.notified == (nxt.id,) and new.button_labels()
        assert all(r.content != MOVE_STANDS for r in replies.ephemeral())
        assert await owed_boards(discord_) == []


async def test_a_channel_closed_to_the_bot_shows_players_the_board_privately(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        discord_.world.fail_next(FOLLOWUP, 503, times=ALWAYS, when=with_files)
        discord_.world.fail_next(CHANNEL_POST, 503, times=ALWAYS)
        await move(discord_, users)
        heal(discord_.world)
        discord_.world.deny(discord_.default_channel.id, "send_messages", "attach_files")
        clock.advance(31)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        owed = await owed_boards(discord_)
        assert len(owed) == 1 and "may not post" in (owed[0].last_error or "")
        nxt = await player_to_move(discord_, users)
        seen = await discord_.command("game log", user=nxt)
        private = [r for r in seen.ephemeral() if "cannot post in this channel" in (r.content or "")]
        assert len(private) == 1 and "stones (8 left)" in private[0].content, "where the game stands, privately"
        assert private[0].button_labels(), "with its controls"
        again = await discord_.command("game log", user=nxt)
        assert not [r for r in again.ephemeral() if "cannot post in this channel" in (r.content or "")], "once"
        discord_.world.channel_permissions.clear()
        clock.advance(3600)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert await owed_boards(discord_) == [] and boards(discord_)[-1].notified == (nxt.id,)


@pytest.mark.parametrize("where", ["channel", "thread"])
async def test_a_deleted_channel_or_thread_ends_its_game(database: Path, where: str) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        if where == "thread":
            await discord_.command("game new", {"game": "test-nim", "thread": True}, user=alice)
            place = next(iter(discord_.world.threads.values()))
        else:
            place = discord_.channel("games")
            await discord_.command("game new", {"game": "test-nim"}, user=alice, channel=place)
        await discord_.command("game join", user=bob, channel=place)
        await discord_.command("game start", user=alice, channel=place)
        service = discord_.bot.service  # type: ignore[attr-defined]
        match = await service.current(place.id)
        assert [w.kind for w in await service.store.pending_work(match.id)] == ["remind"]
        await discord_.delete_channel(place)
        ended = await service.match(match.id)
        assert ended.status == "abandoned"
        assert await service.store.pending_work(match.id) == [], "its reminders and timers are cancelled"
        events = await service.store.events(match.id)
        assert events[-1].text == "Its channel was deleted, so the game was abandoned."
        clock.advance(48 * 3600)
        assert await discord_.bot.run_due_work() == 0  # type: ignore[attr-defined]
        listed = await discord_.command("game history", user=alice)
        assert f"#{match.id} · Test Nim" in listed.one().content


async def test_a_send_answered_unknown_channel_ends_the_game(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        discord_.world.fail_next(FOLLOWUP, 503, times=ALWAYS, when=with_files)
        discord_.world.fail_next(CHANNEL_POST, 503, times=ALWAYS)
        await move(discord_, users)
        heal(discord_.world)
        discord_.default_channel.deleted = True  # gone, and the bot missed the event (it was offline)
        clock.advance(31)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        match = await discord_.bot.service.store.latest_match(discord_.default_channel.id)  # type: ignore[attr-defined]
        assert match.status == "abandoned"
        assert await discord_.bot.service.store.pending_work(match.id) == []  # type: ignore[attr-defined]


async def test_a_restart_after_the_commit_delivers_the_owed_board_once(database: Path) -> None:
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        before = len(boards(discord_))
        discord_.world.fail_next(FOLLOWUP, 503, times=ALWAYS, when=with_files)
        discord_.world.fail_next(CHANNEL_POST, 503, times=ALWAYS)
        await move(discord_, users)
    heal(world)  # Discord is fine again by the time the bot restarts
    clock.advance(120)
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        nxt = await player_to_move(discord_, users)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert len(boards(discord_)) == before + 1 and boards(discord_)[-1].notified == (nxt.id,)
        clock.advance(3600)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert len(boards(discord_)) == before + 1


@pytest.mark.parametrize("nonce_seconds", [300.0, 30.0], ids=["Discord remembers the nonce", "it forgot"])
async def test_owed_boards_come_once_through_repeated_kills(database: Path, nonce_seconds: float) -> None:
    """Eight tables' boards are owed (Discord refused them at the move); the bot is killed 8 times while the
    scheduler posts them — before a post reaches Discord, or after Discord created it unheard — and restarted on the
    same database and Discord. Each table gets its board once, pinging its next player."""
    from tests.test_reminder_kills import LEASE, Clock, ClockedWorld, Crash

    clock = Clock()
    world = ClockedWorld(clock)
    rng = random.Random(5)
    tables: list[tuple[int, int, int]] = []  # (channel, boards before, the player pinged next)
    world.nonce_window = timedelta(seconds=nonce_seconds)
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        for table in range(8):
            place = discord_.channel(f"faulty-{table}")
            host, guest = discord_.user(f"host{table}"), discord_.user(f"guest{table}")
            await discord_.command("game new", {"game": "test-nim"}, user=host, channel=place)
            await discord_.command("game join", user=guest, channel=place)
            await discord_.command("game start", user=host, channel=place)
            down = [world.fail_next(FOLLOWUP, 503, times=ALWAYS, when=with_files),
                    world.fail_next(CHANNEL_POST, 503, times=ALWAYS)]
            match = await discord_.bot.service.current(place.id)  # type: ignore[attr-defined]
            posted = [m for m in world.channel_messages(place.id) if m.files]
            await discord_.click(posted[-1], label="Take 1", user=discord_._user_by_id(match.user_at(0).user_id))
            heal(world, down)
            tables.append((place.id, len([m for m in world.channel_messages(place.id) if m.files]),
                           match.user_at(1).user_id))
    kills = 0
    for _ in range(200):
        if kills < 8:
            world.arm(at=1, when=rng.choice(["before", "after"]))
        bot = create_bot(database, clock=clock, poll_seconds=None)
        try:
            async with DiscordHarness(bot, world=world):  # armed before the start-up posts anything
                await bot.run_due_work()  # type: ignore[attr-defined]
        except (Crash, InteractionFailed):  # killed at start-up (resuming owed boards) or in the pass
            kills += 1
            await bot.close()
        world.disarm()
        owed = await _owed(database, [channel for channel, _, _ in tables])
        if kills >= 8 and not owed:
            break
        clock.advance(LEASE + 30)
    assert kills == 8
    for channel, before, pinged in tables:
        new = [m for m in world.channel_messages(channel) if m.files][before:]
        assert len(new) == 1, f"channel {channel}: {len(new)} boards for one owed board"
        assert new[0].notified == (pinged,), "with its ping"


async def _owed(database: Path | str, channels: list[int]) -> list[Any]:
    from bot.store import Store

    store = await Store.open(database)
    try:
        return [w for channel in channels for w in await store.pending_work((await store.latest_match(channel)).id)
                if w.kind == "board"]
    finally:
        await store.close()


async def test_a_delivery_the_database_forgot_is_not_posted_twice(database: Path) -> None:
    """The live path records its try and the delivery without waiting for the disk; a database crash (PostgreSQL
    stopped with `-m immediate`, tests/test_postgres_restart.py) may forget both while Discord has the board. The
    scheduler, handed the item after its grace, finds the board in the channel instead of posting it again."""
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        await move(discord_, users)
        shown = len(boards(discord_))
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        match = await current_match(discord_)
        async with store._transaction():  # what the crash forgot: the board item is owed and was never tried
            await store._execute(
                "UPDATE scheduled_work SET done_at = NULL, attempted_at = NULL, claimed_until = NULL "
                "WHERE id = (SELECT MAX(id) FROM scheduled_work WHERE match_id = ? AND kind = 'board')", (match.id,))
        assert len(await owed_boards(discord_)) == 1
        clock.advance(61)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert len(boards(discord_)) == shown, "the board Discord has is not posted again"
        assert await owed_boards(discord_) == []


class DropsAfterTheNextCommit:
    """The store's engine, where the database goes away right after the next transaction commits (armed), until
    the test brings it back: every later call fails as a dropped connection does."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.armed = False
        self.down = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def _check(self) -> None:
        if self.down:
            raise StoreUnavailable("the connection was closed in the middle of operation")

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        self._check()
        return await self._engine.execute(*args, **kwargs)

    async def executemany(self, *args: Any, **kwargs: Any) -> Any:
        self._check()
        return await self._engine.executemany(*args, **kwargs)

    async def fetchall(self, *args: Any, **kwargs: Any) -> Any:
        self._check()
        return await self._engine.fetchall(*args, **kwargs)

    @asynccontextmanager
    async def transaction(self, durable: bool = True) -> AsyncIterator[None]:
        self._check()
        async with self._engine.transaction(durable):
            yield
        if self.armed:
            self.armed, self.down = False, True


async def test_a_database_that_drops_right_after_the_commit_leaves_the_move_standing(database: Path) -> None:
    """The move's commit is the last thing the database does before it goes: the mover is told the move stands
    (not "Sorry", not "try again"), and once the database is back the owed board comes with its ping."""
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=4)
        store = discord_.bot.store  # type: ignore[attr-defined]
        engine = DropsAfterTheNextCommit(store._engine)
        store._engine = engine
        before = len(boards(discord_))
        version = (await current_match(discord_)).version
        engine.armed = True
        _, replies = await move(discord_, users)
        assert engine.down, "the database went away after the move's commit"
        told = [r.content for r in replies.ephemeral()]
        assert MOVE_STANDS in told and APOLOGY not in told and STORE_NOT_ANSWERING not in told, told
        assert len(boards(discord_)) == before
        engine.down = False  # the database is back
        assert (await current_match(discord_)).version == version + 1, "the move stands"
        nxt = await player_to_move(discord_, users)
        clock.advance(61)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert len(boards(discord_)) == before + 1 and boards(discord_)[-1].notified == (nxt.id,)
        assert await owed_boards(discord_) == []


@pytest.mark.parametrize("due", ["reminder", "timer"])
async def test_a_reminder_or_timer_in_a_channel_gone_unseen_ends_the_game(database: Path, due: str) -> None:
    """The channel went while the bot was offline (no deletion event): the first reminder's 404 Unknown Channel,
    or the turn timer's look at the channel before it plays for the absent player, ends the game as abandoned, its
    scheduled work cancelled, and no move is played there unseen."""
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        # the timer's computer player needs a real game (test-nim has none)
        options = {"game": "test-nim"} if due == "reminder" else {"game": "the-expedition", "timer": 6.0}
        await discord_.command("game new", options, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        service = discord_.bot.service  # type: ignore[attr-defined]
        kinds = {"reminder": ["remind"], "timer": ["remind", "timer"]}[due]
        assert sorted(w.kind for w in await service.store.pending_work(match.id)) == kinds
        played = [e for e in await service.store.events(match.id) if e.kind == "action"]
        discord_.default_channel.deleted = True
        clock.advance((12 if due == "reminder" else 6) * 3600 + 1)  # the timer comes before the first reminder
        assert await discord_.bot.run_due_work() == 1  # type: ignore[attr-defined]
        ended = await service.match(match.id)
        assert ended.status == "abandoned"
        assert [e for e in await service.store.events(match.id) if e.kind == "action"] == played, "no move there"
        assert await service.store.pending_work(match.id) == []
        clock.advance(48 * 3600)
        assert await discord_.bot.run_due_work() == 0  # type: ignore[attr-defined]
