"""The whole PostgreSQL cluster restarted under a playing bot (issue 23), with `pg_ctl stop -m fast` (sessions
ended, a clean shutdown) and `-m immediate` (every server process killed, recovered from the write-ahead log).

The test makes its own throwaway cluster (tests/postgres.py), since it stops it: it needs PostgreSQL's `initdb` and
`pg_ctl`, and is skipped without them unless EXPEDITION_REQUIRE_PG=1. Three tables play test-nim on one bot. While
the server is down, every press is answered privately "the game store is not answering" and changes nothing; the
cluster stops once more in the middle of presses at three tables at once; once it is back, the same bot (never
restarted) plays on. In the end no acknowledged move is lost, none is applied twice, and each move has its board.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness, FakeUser, Message
from bot.store import engines
from cogs.table import APOLOGY, MOVE_STANDS, STORE_NOT_ANSWERING
from tests import postgres

DEADLINE = 1.0  # seconds: the store's deadline in this test (5 s in production), so an outage costs little time
TABLES = ("table-0", "table-1", "table-2")
PATIENCE = 60.0  # seconds the recovered bot may take to answer again (it does at once; a busy machine is slow)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def server() -> Iterator[postgres.Cluster]:
    if not postgres.available():
        reason = "needs PostgreSQL's initdb and pg_ctl to make a cluster it may restart"
        if os.environ.get("EXPEDITION_REQUIRE_PG") == "1":
            pytest.fail(f"EXPEDITION_REQUIRE_PG=1: {reason}")
        pytest.skip(reason)
    # Durable, as in production: without it (synchronous_commit off) an immediate stop loses the last commits,
    # acknowledged moves among them.
    with postgres.restartable_cluster(durable=True) as running:
        yield running


def boards(discord_: DiscordHarness, channel: str) -> list[Message]:
    return [m for m in discord_.channel_messages(channel) if m.files]


async def to_move(discord_: DiscordHarness, channel: str) -> FakeUser:
    match = await discord_.bot.service.current(discord_.channel(channel).id)  # type: ignore[attr-defined]
    user_id = match.user_at(find_game(match.game).to_act(match.state)[0]).user_id
    return next(user for user in discord_.world.users.values() if user.id == user_id)


async def press(discord_: DiscordHarness, channel: str, mover: FakeUser) -> str:
    """Take 1 on the table's latest board: "moved" (a new board came), "stands" (the move stands, its board is
    owed) or "not answering"."""
    replies = await discord_.click(boards(discord_, channel)[-1], label="Take 1", user=mover)
    told = [r.content for r in replies.ephemeral()]
    assert APOLOGY not in told, f"{channel}: the generic apology"
    if STORE_NOT_ANSWERING in told:
        assert not [r for r in replies.public() if r.created], "nothing public while the store is not answering"
        return "not answering"
    if MOVE_STANDS in told:
        return "stands"
    assert [r for r in replies.public() if r.created], f"{channel}: no board and no word: {told}"
    return "moved"


async def moves(discord_: DiscordHarness, channel: str) -> int:
    service: Any = discord_.bot.service  # type: ignore[attr-defined]
    match = await service.current(discord_.channel(channel).id)
    assert await service.replayed_state(match.id) == match.state, "the log replays to the stored state"
    return len([event for event in await service.store.events(match.id) if event.kind == "action"])


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_a_restarted_cluster_is_survived_without_restarting_the_bot(
        server: postgres.Cluster, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "DEADLINE_SECONDS", DEADLINE)
    clock = Clock()
    acknowledged = dict.fromkeys(TABLES, 0)
    async with DiscordHarness(create_bot(server.url, clock=clock, poll_seconds=None)) as discord_:
        for number, channel in enumerate(TABLES):
            host, guest = discord_.user(f"host{number}"), discord_.user(f"guest{number}")
            place = discord_.channel(channel)
            await discord_.command("game new", {"game": "test-nim"}, user=host, channel=place)
            await discord_.command("game join", user=guest, channel=place)
            await discord_.command("game start", user=host, channel=place)
            assert await press(discord_, channel, await to_move(discord_, channel)) == "moved"
            acknowledged[channel] += 1

        # The server is down: each press is told so, privately, and changes nothing.
        movers = {channel: await to_move(discord_, channel) for channel in TABLES}
        await asyncio.to_thread(server.stop, mode)
        for channel in TABLES:
            assert await press(discord_, channel, movers[channel]) == "not answering"
        await asyncio.to_thread(server.start)

        # Back: the same bot answers again (a pooled connection the restart cut may cost one more "not answering").
        for channel in TABLES:
            outcome = await press(discord_, channel, movers[channel])
            if outcome == "not answering":
                outcome = await press(discord_, channel, movers[channel])
            assert outcome == "moved", f"{channel}: {outcome} after the server came back"
            acknowledged[channel] += 1
            assert await moves(discord_, channel) == acknowledged[channel]

        # Down while presses at three tables are under way (each meets whatever moment of the stop it meets), and
        # right after the moves above: an immediate stop may forget their boards' delivery (recorded without
        # waiting for the disk), which the scheduler then finds in the channel instead of posting it twice.
        movers = {channel: await to_move(discord_, channel) for channel in TABLES}
        before = {channel: await moves(discord_, channel) for channel in TABLES}
        presses = [asyncio.ensure_future(press(discord_, channel, movers[channel])) for channel in TABLES]
        await asyncio.to_thread(server.stop, mode)
        outcomes = dict(zip(TABLES, await asyncio.gather(*presses), strict=True))
        await asyncio.to_thread(server.start)
        loop = asyncio.get_running_loop()
        until = loop.time() + PATIENCE
        while True:  # the scheduler delivers what was owed once it reaches the store again
            clock.now += timedelta(hours=1)
            try:
                await discord_.bot.run_due_work()  # type: ignore[attr-defined]
                break
            except engines.StoreUnavailable:
                assert loop.time() < until, "the store never answered again"
        for channel in TABLES:
            stored = await moves(discord_, channel)
            if outcomes[channel] in ("moved", "stands"):
                acknowledged[channel] += 1
                assert stored == before[channel] + 1, f"{channel}: an acknowledged move was lost"
            assert stored in (before[channel], before[channel] + 1), f"{channel}: a move applied twice"
            assert len(boards(discord_, channel)) == 1 + stored, f"{channel}: one board for the start and each move"
            assert all(len(board.notified) == 1 for board in boards(discord_, channel)), "each with its ping"
