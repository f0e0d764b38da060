"""Work that grows with a game runs off the event loop (issue 25): an export of a real game is built in the records
worker process, which reads the database itself, and /stats counts the results kept as each game ended (the loop
fetches no more rows for a long game or a long career), giving what building them in the bot process gives; the
records and render workers run at a lower CPU priority than the bot, so the loop goes first when they want the same
core."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot import workers
from bot.core import find_game
from bot.features import autoplay, history, stats
from bot.service import GameService, Player
from bot.store import results_of
from bot.store.engines import PostgresEngine, SqliteEngine
from rendering import pool as pool_module
from rendering.pool import RenderPool


class CountingPool(ProcessPoolExecutor):
    submitted = 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(*args, **kwargs)


ALICE, BOB = Player(501, "Alice"), Player(502, "Bob")
GUILD, CHANNEL = 1, 88


async def _finished_game(service: GameService, game_key: str) -> int:
    game = find_game(game_key)
    await service.new_match(GUILD, CHANNEL, game_key, ALICE, seed=5)  # a fixed game: its length is known
    await service.join(CHANNEL, BOB)
    match = await service.start(CHANNEL, ALICE.user_id)
    chooser = random.Random(3)
    while match.status == "active":
        seat = game.to_act(match.state)[0]
        action = chooser.choice(game.legal_actions(match.state, seat))
        match = (await service.act(CHANNEL, match.seats[seat].user_id, action)).match
    assert match.status == "finished"
    return match.id


async def test_an_export_of_a_real_game_comes_from_the_worker_process_and_its_stats_from_its_results(
        service: GameService) -> None:
    match_id = await _finished_game(service, "the-expedition")
    match = await service.store.match(match_id)
    assert match is not None
    pool = CountingPool(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                        initializer=workers.register_games)
    workers.use_executor(pool)
    try:
        key, text = await history.export_file(service, GUILD, match_id)
        found = await stats.player_stats(service, GUILD, ALICE.user_id)
    finally:
        workers.close()
    assert pool.submitted == 1  # the export; /stats counts the results kept when the game ended
    assert key == "the-expedition"
    data = json.loads(text)
    assert data == json.loads(json.dumps(history.export_of(match, await service.store.events(match_id))))
    assert history.check_export(data).ok
    assert len(data["records"]) >= 10
    outcome = find_game("the-expedition").outcome(match.state)
    assert outcome is not None
    [record] = found.per_game
    assert (record.played, record.wins) == (1, int(0 in outcome.winners))
    assert record.best == outcome.scores[0]


class LoopRows:
    """Counts the rows this process's store fetches (on the event loop), on both engines."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows = 0
        for engine in (SqliteEngine, PostgresEngine):
            monkeypatch.setattr(engine, "fetchall", self._counting(engine.fetchall))

    def _counting(self, fetchall: Any) -> Any:
        async def counted(engine: Any, sql: str, params: Any = ()) -> Any:
            rows = await fetchall(engine, sql, params)
            self.rows += len(rows)
            return rows
        return counted

    async def during(self, work: Awaitable[object]) -> int:
        before = self.rows
        await work
        return self.rows - before


async def _game_of(service: GameService, channel: int, moves: int) -> int:
    """A game of Expeditions with `moves` random legal moves, then abandoned."""
    game = find_game("expeditions")
    await service.new_match(GUILD, channel, "expeditions", ALICE, seed=channel)
    await service.join(channel, BOB)
    match = await service.start(channel, ALICE.user_id)
    chooser = random.Random(channel)
    for _ in range(moves):
        seat = game.to_act(match.state)[0]
        match = (await service.act(channel, match.seats[seat].user_id,
                                   chooser.choice(game.legal_actions(match.state, seat)))).match
        assert match.status == "active"
    await service.abandon(channel, ALICE.user_id, can_manage_channel=True)
    return match.id


async def _more_finished_games(service: GameService, finished_id: int, count: int, *,
                               first_channel: int = 5_000) -> None:
    """`count` more finished games of Alice and Bob, stored with the final state and results of `finished_id`."""
    match = await service.store.match(finished_id)
    assert match is not None
    results = results_of(find_game(match.game).outcome(match.state), range(2))
    for number in range(count):
        copy = await service.store.create_match(
            guild_id=GUILD, channel_id=first_channel + number, game=match.game, mode=match.mode, host_id=ALICE.user_id,
            host_name=ALICE.name, seed=number, seed_chosen=False, options={}, data_version=match.data_version)
        await service.store.record(copy.id, copy.version, "started", state=match.state, status="finished",
                                   seats=[(ALICE.user_id, ALICE.name), (BOB.user_id, BOB.name)], results=results)


async def test_the_loop_fetches_no_more_rows_for_a_long_export_or_a_long_career(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The records worker reads a game's events from the database itself, and /stats counts a career in the
    database (one row a game): what the event loop fetches for /game export and /stats does not grow with the game
    or the career."""
    workers.use_executor(ThreadPoolExecutor(max_workers=1))
    try:
        short, long = await _game_of(service, 61, 4), await _game_of(service, 62, 120)
        finished = await _finished_game(service, "the-expedition")
        loop = LoopRows(monkeypatch)
        export_rows = [await loop.during(history.export_file(service, GUILD, match_id)) for match_id in (short, long)]
        _, text = await history.export_file(service, GUILD, long)
        assert len(json.loads(text)["records"]) == 120  # the worker read every event
        assert export_rows[0] == export_rows[1] <= 4

        await _more_finished_games(service, finished, 1, first_channel=4_000)
        await stats.player_stats(service, GUILD, ALICE.user_id)  # the first /stats rates what was missed
        few = await loop.during(stats.player_stats(service, GUILD, ALICE.user_id))
        await _more_finished_games(service, finished, 60)
        await stats.player_stats(service, GUILD, ALICE.user_id)
        many = await loop.during(stats.player_stats(service, GUILD, ALICE.user_id))
        found = await stats.player_stats(service, GUILD, ALICE.user_id)
    finally:
        workers.close()
    assert found.per_game[0].played == 62  # every finished game counted
    assert few == many <= 4


async def test_the_records_worker_runs_at_a_lower_priority_than_the_bot() -> None:
    """An export or a /stats in the worker must not take a core from the event loop on a small machine."""
    try:
        niceness = await workers.run(find_game("the-expedition"), os.nice, 0)
    finally:
        workers.close()
    assert niceness == min(19, os.nice(0) + workers.WORKER_NICENESS)


async def test_computer_players_think_at_a_lower_priority_than_the_bot() -> None:
    """A hard bot's second of thinking must not take a core from the event loop either."""
    autoplay.use_executor(None)
    try:
        niceness = await asyncio.get_running_loop().run_in_executor(autoplay._executor(), os.nice, 0)
    finally:
        autoplay.close()
    assert niceness == min(19, os.nice(0) + workers.WORKER_NICENESS)


def _spawned_children() -> dict[int, int]:
    """This process's spawned worker processes (pid: niceness), from /proc."""
    found = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:  # a thread that ended meanwhile
            continue
        for pid in children:
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in command:
                found[int(pid)] = os.getpriority(os.PRIO_PROCESS, int(pid))
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the worker processes from Linux's /proc")
async def test_render_workers_run_at_a_lower_priority_than_the_bot() -> None:
    """A board must not take a core from the event loop: the render pool's workers step back in priority."""
    before = _spawned_children()
    pool = RenderPool(workers=2)
    try:
        await pool.start()
        started = {pid: nice for pid, nice in _spawned_children().items() if pid not in before}
    finally:
        pool.close()
    assert len(started) == 2
    assert set(started.values()) == {min(19, os.nice(0) + pool_module.WORKER_NICENESS)}
