"""Scale benchmark: the same move workload on SQLite, on PostgreSQL with one bot process, and with two.

Each busy channel has a game in play and a player who moves again as soon as the last move is committed (the
service's `act`: load, check, apply, commit; no image, which is CPU work the database does not see). The game is a
counter whose state carries 4 KB of padding, the size of a mid-game The Expedition state, so every commit writes
what a real move writes. For each engine and channel count it prints:

* moves/s over a fixed window, all processes together;
* first response p99: from `act` being called to the move being committed (what a player waits for before the
  bot can answer), including waits for the channel lock and for a pooled connection;
* commit time: the median of one `Store.record` alone (one process, one channel, nothing else running) against
  the raw driver's floor measured in the same run on the same database: one INSERT and one UPDATE of the same
  sizes in one transaction, straight through aiosqlite or asyncpg.

PostgreSQL runs durably (fsync on), SQLite with synchronous=FULL. Without EXPEDITION_TEST_PG the benchmark starts
its own throwaway cluster (tests/postgres.py). Usage:
    python benchmarks/bench_scale.py [--seconds 8] [--channels 50,500]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests/ (the game and the cluster)

from bot.core import JSON, Applied, Outcome, Rng, find_game, register
from bot.service import GameService, Player
from bot.store import Store, is_postgres_url
from tests.fakes import Nim, tiny_png

PADDING = "x" * 4096
SAMPLES = 300
WARMUP = 600


class Counter(Nim):
    """Two players add one in turn, forever: every move costs the same, and no game ends mid-benchmark."""

    key = "bench-counter"
    title = "Bench Counter"
    aliases = ()

    def setup(self, mode: str, players: Any, rng: Rng, options: JSON) -> JSON:
        return {"players": [{"name": name, "secret": 0} for name in players], "n": 0, "turn": 0, "winner": None,
                "pile": 3, "padding": PADDING, "profiles": []}

    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        new = copy.copy(state)
        new["n"] = state["n"] + 1
        new["turn"] = 1 - seat
        return Applied(new, [{"kind": "took", "seat": seat, "count": 1}])

    def outcome(self, state: JSON) -> Outcome | None:
        return None


def _register() -> None:
    try:
        find_game(Counter.key)
    except Exception:
        register(Counter())


_register()
TAKE = {"type": "take", "count": 1}


async def _open_channels(store: Store, channels: range) -> GameService:
    service = GameService(store, renderer=tiny_png)
    for channel in channels:
        await service.new_match(1, channel, Counter.key, Player(1, "A"), seed=1)
        await service.join(channel, Player(2, "B"))
        await service.start(channel, 1)
    return service


async def _play(location: str, channels: range, seconds: float, barrier: Any) -> dict[str, Any]:
    store = await Store.open(location, pool_size=10)
    try:
        service = await _open_channels(store, channels)
        latencies: list[float] = []
        turns = dict.fromkeys(channels, 0)
        if barrier is not None:
            await asyncio.to_thread(barrier.wait, 600)
        deadline = time.perf_counter() + seconds

        async def player(channel: int) -> None:
            while time.perf_counter() < deadline:
                began = time.perf_counter()
                await service.act(channel, 1 + turns[channel], TAKE)
                latencies.append(time.perf_counter() - began)
                turns[channel] = 1 - turns[channel]

        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(player(channel) for channel in channels))
        elapsed = time.perf_counter() - started
        return {"moves": len(latencies), "elapsed": elapsed, "latencies": latencies,
                "cpu": (time.process_time() - cpu) / elapsed}
    finally:
        await store.close()


def _worker(location: str, first: int, count: int, seconds: float, barrier: Any, results: Any) -> None:
    results.put(asyncio.run(_play(location, range(first, first + count), seconds, barrier)))


def _server_cpu_seconds() -> float:
    """CPU time used so far by the local PostgreSQL: its live processes, and the backends that already exited
    (the postmaster reaps them, so their time is in its cutime/cstime). Linux /proc; 0 elsewhere."""
    total = 0
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "postgres":
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                total += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
        except OSError:
            continue
    return total / os.sysconf("SC_CLK_TCK")


def run_processes(location: str, channels: int, processes: int, seconds: float, base: int) -> dict[str, float]:
    """`channels` busy channels split over `processes` bot processes; totals and the latency p99."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes + 1), context.Queue()
    share = channels // processes
    workers = [context.Process(target=_worker, args=(location, base + i * share, share, seconds, barrier, results))
               for i in range(processes)]
    for worker in workers:
        worker.start()
    barrier.wait(600)  # every worker has set up its channels: the window starts now
    server_before = _server_cpu_seconds()
    outcomes = [results.get(timeout=600) for _ in workers]
    for worker in workers:
        worker.join()
    time.sleep(0.5)  # let the postmaster reap the workers' backends, whose time then counts in its own
    server_cpu = _server_cpu_seconds() - server_before
    latencies = sorted(value for outcome in outcomes for value in outcome["latencies"])
    moves = sum(outcome["moves"] for outcome in outcomes)
    elapsed = max(outcome["elapsed"] for outcome in outcomes)
    bot_cpu = sum(outcome["cpu"] * outcome["elapsed"] for outcome in outcomes)
    return {"moves_per_s": moves / elapsed, "p99_ms": latencies[int(len(latencies) * 0.99)] * 1000, "moves": moves,
            "bot_cpu_ms": bot_cpu / moves * 1000, "server_cpu_ms": server_cpu / moves * 1000}


async def commit_times(location: str) -> tuple[float, float]:
    """Median ms of one Store.record, and of the raw driver's INSERT + UPDATE transaction, on the same database.

    The two are measured alternately, one sample each in turn, so a noisy neighbour on the disk or the CPU
    slows both alike instead of whichever happened to run second. A warm-up comes first: on a fresh SQLite file a
    commit that grows the WAL costs a journal flush (~4 ms here) and one that reuses it after a checkpoint does
    not (~0.4 ms), so measuring before the WAL has wrapped once compares two different regimes.
    """
    store = await Store.open(location, pool_size=2)
    floor = await (_PostgresFloor.open(location) if is_postgres_url(location) else _SqliteFloor.open(location))
    try:
        service = await _open_channels(store, range(900_000, 900_001))
        match = await service.open_match(900_000)
        assert match is not None and match.state is not None
        state, version = dict(match.state), match.version
        record: list[float] = []
        raw: list[float] = []
        for seq in range(1, WARMUP + SAMPLES + 1):
            state["n"] += 1
            began = time.perf_counter()
            version = await store.record(match.id, version, "action", user_id=1, seat=0, action=TAKE,
                                         events=[{"kind": "took", "seat": 0, "count": 1}], draws=[], text="A took 1.",
                                         state=state)
            took = time.perf_counter() - began
            began = time.perf_counter()
            await floor.commit(seq)
            if seq > WARMUP:
                record.append(took)
                raw.append(time.perf_counter() - began)
    finally:
        await floor.close()
        await store.close()
    return statistics.median(record) * 1000, statistics.median(raw) * 1000


_FLOOR_TABLES = (
    "CREATE TABLE IF NOT EXISTS floor_matches (id BIGINT PRIMARY KEY, version BIGINT NOT NULL, state_json TEXT)",
    "CREATE TABLE IF NOT EXISTS floor_events (match_id BIGINT NOT NULL, seq BIGINT NOT NULL, action_json TEXT, "
    "events_json TEXT, PRIMARY KEY (match_id, seq))",
)


class _SqliteFloor:
    """The least a move can cost on SQLite: one INSERT and one UPDATE in a BEGIN IMMEDIATE, synchronous=FULL."""

    def __init__(self, db: Any) -> None:
        self.db = db

    @classmethod
    async def open(cls, location: str) -> _SqliteFloor:
        import aiosqlite

        db = await aiosqlite.connect(location, isolation_level=None)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=FULL")
        for statement in _FLOOR_TABLES:
            await db.execute(statement)
        await db.execute("DELETE FROM floor_events")
        await db.execute("INSERT OR IGNORE INTO floor_matches VALUES (1, 0, '')")
        return cls(db)

    async def commit(self, seq: int) -> None:
        await self.db.execute("BEGIN IMMEDIATE")
        await self.db.execute("INSERT INTO floor_events VALUES (?, ?, ?, ?)", (1, seq, '{"count":1}', "[]"))
        await self.db.execute("UPDATE floor_matches SET version = ?, state_json = ? WHERE id = 1", (seq, PADDING))
        await self.db.execute("COMMIT")

    async def close(self) -> None:
        await self.db.close()


class _PostgresFloor:
    """The least a move can cost on PostgreSQL: one INSERT and one UPDATE in a transaction, on one connection."""

    def __init__(self, db: Any) -> None:
        self.db = db

    @classmethod
    async def open(cls, location: str) -> _PostgresFloor:
        import asyncpg

        db = await asyncpg.connect(location)
        for statement in _FLOOR_TABLES:
            await db.execute(statement)
        await db.execute("DELETE FROM floor_events")
        await db.execute("INSERT INTO floor_matches VALUES (1, 0, '') ON CONFLICT DO NOTHING")
        return cls(db)

    async def commit(self, seq: int) -> None:
        async with self.db.transaction():
            await self.db.execute("INSERT INTO floor_events VALUES ($1, $2, $3, $4)", 1, seq, '{"count":1}', "[]")
            await self.db.execute("UPDATE floor_matches SET version = $1, state_json = $2 WHERE id = 1", seq, PADDING)

    async def close(self) -> None:
        await self.db.close()


async def _fresh_postgres(server: str, name: str) -> str:
    import asyncpg

    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return server.rsplit("/", 1)[0] + f"/{name}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each throughput window")
    parser.add_argument("--channels", default="50,500", help="busy channel counts to try")
    args = parser.parse_args()
    counts = [int(part) for part in args.channels.split(",")]
    with ExitStack() as stack:
        server = os.environ.get("EXPEDITION_TEST_PG")
        if not server:
            from tests.postgres import cluster

            server = stack.enter_context(cluster(durable=True))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        sqlite = str(folder / "bench.sqlite3")
        postgres = asyncio.run(_fresh_postgres(server, "bench_scale"))
        print(f"{os.cpu_count()} cores; {args.seconds:.0f} s per window; state padded to {len(PADDING)} bytes\n")
        rows = []
        for engine, location, processes in (("SQLite", sqlite, 1), ("PostgreSQL", postgres, 1),
                                             ("PostgreSQL", postgres, 2)):
            for index, channels in enumerate(counts):
                base = (processes * 10 + index) * 100_000
                result = run_processes(location, channels, processes, args.seconds, base)
                rows.append((engine, processes, channels, result))
                print(f"{engine:<10} {processes} process{'es' if processes > 1 else '  '} {channels:>4} channels: "
                      f"{result['moves_per_s']:7.0f} moves/s   first response p99 {result['p99_ms']:7.1f} ms   "
                      f"CPU per move: bot {result['bot_cpu_ms']:.2f} ms, PostgreSQL {result['server_cpu_ms']:.2f} ms",
                      flush=True)
        print()
        for engine, location in (("SQLite", sqlite), ("PostgreSQL", postgres)):
            record, floor = asyncio.run(commit_times(location))
            print(f"{engine:<10} commit: Store.record {record:6.2f} ms, driver floor {floor:6.2f} ms "
                  f"= {record / floor:4.2f}x the floor")
        print()
        for channels in counts:
            one = next(r for e, p, c, r in rows if e == "PostgreSQL" and p == 1 and c == channels)
            two = next(r for e, p, c, r in rows if e == "PostgreSQL" and p == 2 and c == channels)
            ratio = two["moves_per_s"] / one["moves_per_s"]
            # If the machine did nothing else, the CPU would allow at most cores / (CPU per move) moves per second.
            ceiling = (os.cpu_count() or 1) * 1000 / (two["bot_cpu_ms"] + two["server_cpu_ms"])
            print(f"PostgreSQL {channels:>4} channels: two processes make {ratio:4.2f}x the moves/s of one "
                  f"(the CPU per move allows at most {ceiling:.0f} moves/s on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
