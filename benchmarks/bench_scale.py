"""Scale benchmark: the same move workload on SQLite, on PostgreSQL with one bot process, and with two.

Each busy channel has a game in play and a player who moves again as soon as the last move is committed (the
service's `act`: load, check, apply, commit; no image, which is CPU work the database does not see). The game is a
counter whose state carries 4 KB of padding, the size of a mid-game The Expedition state, so every commit writes
what a real move writes. For each engine and channel count it prints:

* moves/s over a fixed window, all processes together;
* first response p99: from `act` being called to the move being committed (what a player waits for before the
  bot can answer), including waits for the channel lock and for a pooled connection;
* where the CPU went: CPU ms per move of the bot processes (from the processes themselves) and of the PostgreSQL
  server (its postmaster and children in /proc, not other clusters on the machine), and the cores that the bot,
  the server and every other job on the machine kept busy during the window (/proc/stat);
* commit time: the median of one `Store.record` alone (one process, one channel, nothing else running) against
  the raw driver's floor measured in the same run on the same database: one INSERT and one UPDATE of the same
  sizes in one transaction, straight through aiosqlite or asyncpg; and the server's CPU for each commit;
* two processes against one: the ratio of their best windows (they alternate for `--rounds` rounds, since other
  jobs on a shared machine come and go), and the most the measured CPU per move allows on this many cores.

PostgreSQL runs durably (fsync on), SQLite with synchronous=FULL. Without EXPEDITION_TEST_PG the benchmark starts
its own throwaway cluster (tests/postgres.py). Usage:
    python benchmarks/bench_scale.py [--seconds 8] [--channels 50,500] [--rounds 3]
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
from bot.features import install
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
    service = install(GameService(store, renderer=tiny_png))
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


def _ticks(pid: int | str) -> tuple[int, int, int]:
    """(parent pid, own CPU ticks, reaped children's CPU ticks) of a process, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def server_cpu_seconds(postmaster: int | None) -> float:
    """CPU time used so far by one PostgreSQL server: its postmaster, its live processes (backends, WAL writer,
    checkpointer...) and those that already exited, whose time the postmaster reaped into its children's time.
    Other clusters on the machine (other jobs' test servers) are not counted. 0 when the server is not local."""
    if postmaster is None:
        return 0.0
    _, own, reaped = _ticks(postmaster)
    total = own + reaped
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent, used, _ = _ticks(entry.name)
            except (OSError, IndexError, ValueError):
                continue  # exited meanwhile
            if parent == postmaster:
                total += used
    return total / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU time every core of the machine spent busy so far (not idle, not waiting for the disk)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    user, nice, system, _idle, _iowait, irq, softirq = fields
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


async def postmaster_pid(location: str) -> int | None:
    """The local PostgreSQL server's postmaster: the parent of our backend (None for a remote server)."""
    import asyncpg

    connection = await asyncpg.connect(location)
    try:
        backend = await connection.fetchval("SELECT pg_backend_pid()")
        parent, _, _ = _ticks(backend)  # while the backend lives: it exits when the connection closes
        return parent if Path(f"/proc/{parent}/comm").read_text().strip() == "postgres" else None
    except OSError:
        return None
    finally:
        await connection.close()


def run_processes(location: str, channels: int, processes: int, seconds: float, base: int,
                  postmaster: int | None) -> dict[str, float]:
    """`channels` busy channels split over `processes` bot processes; totals, the latency p99, and where the
    machine's CPU went during the window (the bot processes, the server, everything else)."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes + 1), context.Queue()
    share = channels // processes
    workers = [context.Process(target=_worker, args=(location, base + i * share, share, seconds, barrier, results))
               for i in range(processes)]
    for worker in workers:
        worker.start()
    barrier.wait(600)  # every worker has set up its channels: the window starts now
    server_before, machine_before, began = server_cpu_seconds(postmaster), machine_busy_seconds(), time.monotonic()
    outcomes = [results.get(timeout=600) for _ in workers]
    machine, window = machine_busy_seconds() - machine_before, time.monotonic() - began
    for worker in workers:
        worker.join()
    time.sleep(0.5)  # let the postmaster reap the workers' backends, whose time then counts in its own
    server_cpu = server_cpu_seconds(postmaster) - server_before
    latencies = sorted(value for outcome in outcomes for value in outcome["latencies"])
    moves = sum(outcome["moves"] for outcome in outcomes)
    elapsed = max(outcome["elapsed"] for outcome in outcomes)
    bot_cpu = sum(outcome["cpu"] * outcome["elapsed"] for outcome in outcomes)
    return {"moves_per_s": moves / elapsed, "p99_ms": latencies[int(len(latencies) * 0.99)] * 1000, "moves": moves,
            "bot_cpu_ms": bot_cpu / moves * 1000, "server_cpu_ms": server_cpu / moves * 1000,
            "bot_cores": bot_cpu / elapsed, "server_cores": server_cpu / elapsed,
            "other_cores": max(0.0, (machine - bot_cpu - server_cpu) / window),
            "busiest_bot_core": max(outcome["cpu"] for outcome in outcomes)}


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
        service = await _open_channels(store, range(91_000_000, 91_000_001))
        match = await service.open_match(91_000_000)
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


async def server_cpu_per_commit(location: str, postmaster: int | None, connections: int = 10,
                                commits: int = 300) -> tuple[float, float]:
    """The server's CPU ms per commit: of one `Store.record` (a move's write, without the read before it), and
    of the raw driver's floor (one INSERT and one UPDATE in a transaction). Each from `connections` connections
    at once, as in the moves workload, so that commits share WAL flushes alike.

    A move's write costs the server at least this much whatever the bot does: the bar the 1.6x target meets."""
    import asyncpg

    store = await Store.open(location, pool_size=connections)
    links = [await asyncpg.connect(location) for _ in range(connections)]
    try:
        service = await _open_channels(store, range(90_000_000, 90_000_000 + connections))
        matches = [await service.open_match(channel) for channel in range(90_000_000, 90_000_000 + connections)]
        rows = range(1000, 1000 + connections)
        await links[0].execute("DELETE FROM floor_events WHERE match_id >= 1000")
        await links[0].executemany("INSERT INTO floor_matches VALUES ($1, 0, '') ON CONFLICT DO NOTHING",
                                   [(row,) for row in rows])

        async def record_all(match: Any) -> None:
            state, version = dict(match.state), match.version
            for _ in range(commits):
                state["n"] += 1
                version = await store.record(match.id, version, "action", user_id=1, seat=0, action=TAKE,
                                             events=[{"kind": "took", "seat": 0, "count": 1}], draws=[],
                                             text="A took 1.", state=state)

        async def floor_all(db: Any, row: int) -> None:
            for seq in range(commits):
                async with db.transaction():
                    await db.execute("INSERT INTO floor_events VALUES ($1, $2, $3, $4)", row, seq, '{"count":1}',
                                     "[]")
                    await db.execute("UPDATE floor_matches SET version = $1, state_json = $2 WHERE id = $3", seq,
                                     PADDING, row)

        before = server_cpu_seconds(postmaster)  # every backend lives on until after the last reading
        await asyncio.gather(*(record_all(match) for match in matches))
        middle = server_cpu_seconds(postmaster)
        await asyncio.gather(*(floor_all(db, row) for db, row in zip(links, rows, strict=True)))
        after = server_cpu_seconds(postmaster)
        total = connections * commits
        return (middle - before) / total * 1000, (after - middle) / total * 1000
    finally:
        for db in links:
            await db.close()
        await store.close()


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
    parser.add_argument("--rounds", type=int, default=3,
                        help="PostgreSQL one- and two-process windows, alternated; the best of each is compared")
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
        postmaster = asyncio.run(postmaster_pid(postgres))
        cores = os.cpu_count() or 1
        print(f"{cores} cores; {args.seconds:.0f} s per window; state padded to {len(PADDING)} bytes; PostgreSQL "
              f"server CPU {'from /proc (postmaster ' + str(postmaster) + ')' if postmaster else 'not measured'}\n")
        # PostgreSQL's one- and two-process windows alternate, round after round, and each keeps its best: other
        # jobs on a shared machine come and go, and the best window is the one they disturbed least.
        windows = [("SQLite", sqlite, 1, channels) for channels in counts] + [
            ("PostgreSQL", postgres, processes, channels)
            for _ in range(args.rounds) for channels in counts for processes in (1, 2)]
        best: dict[tuple[str, int, int], dict[str, float]] = {}
        for number, (engine, location, processes, channels) in enumerate(windows, start=1):
            result = run_processes(location, channels, processes, args.seconds, number * 100_000,
                                   postmaster if engine == "PostgreSQL" else None)
            key = (engine, processes, channels)
            if key not in best or result["moves_per_s"] > best[key]["moves_per_s"]:
                best[key] = result
            print(f"{engine:<10} {processes} process{'es' if processes > 1 else '  '} {channels:>4} channels: "
                  f"{result['moves_per_s']:6.0f} moves/s  first response p99 {result['p99_ms']:6.1f} ms  "
                  f"CPU per move: bot {result['bot_cpu_ms']:.2f} ms + PostgreSQL {result['server_cpu_ms']:.2f} ms"
                  f"  cores busy: bot {result['bot_cores']:.2f} (busiest process {result['busiest_bot_core']:.2f})"
                  f" + PostgreSQL {result['server_cores']:.2f} + other jobs {result['other_cores']:.2f}",
                  flush=True)
        print()
        for engine, location in (("SQLite", sqlite), ("PostgreSQL", postgres)):
            record, floor = asyncio.run(commit_times(location))
            print(f"{engine:<10} commit: Store.record {record:6.2f} ms, driver floor {floor:6.2f} ms "
                  f"= {record / floor:4.2f}x the floor (target <= 3x)")
        floor_cpu = None
        if postmaster:
            record_cpu, floor_cpu = asyncio.run(server_cpu_per_commit(postgres, postmaster))
            print(f"PostgreSQL server CPU per commit, 10 connections at once: Store.record {record_cpu:.2f} ms "
                  f"(one statement), driver floor {floor_cpu:.2f} ms (BEGIN, INSERT, UPDATE, COMMIT)")
            floor_cpu = min(record_cpu, floor_cpu)
        print()
        for channels in counts:
            one, two = best[("PostgreSQL", 1, channels)], best[("PostgreSQL", 2, channels)]
            for line in scaling_report(channels, one, two, cores, floor_cpu):
                print(line)


def scaling_report(channels: int, one: dict[str, float], two: dict[str, float], cores: int,
                   floor_cpu: float | None, target: float = 1.6) -> list[str]:
    """What two processes made of one, and the most the CPU lets them make.

    One bot process is one thread of Python: it cannot move faster than 1 / (its CPU per move), nor than the
    cores allow once the server's CPU is added. Two processes share every core with the server: together they
    cannot move faster than cores / (bot + server CPU per move). So on an otherwise idle machine two processes
    make at most cores x bot / (bot + server) times the moves of one, however fast the code: cutting the bot's
    CPU raises both rates and lowers that ratio. For 1.6x on 2 cores the server must cost at most a quarter of
    what the bot costs per move.
    """
    ratio = two["moves_per_s"] / one["moves_per_s"]
    bot, server = one["bot_cpu_ms"], one["server_cpu_ms"]  # a move's cost, from the window with less contention
    single = min(1000 / bot, cores * 1000 / (bot + server))
    double = min(2 * 1000 / bot, cores * 1000 / (bot + server))
    per_move = two["bot_cpu_ms"] + two["server_cpu_ms"]
    free = max(0.1, cores - two["other_cores"])
    return [
        f"PostgreSQL {channels:>4} channels: two processes make {ratio:4.2f}x the moves/s of one "
        f"({two['moves_per_s']:.0f} against {one['moves_per_s']:.0f}, best windows; target >= {target:.2f}x).",
        f"    A move costs {bot:.2f} ms of bot CPU and {server:.2f} ms of PostgreSQL CPU (one process; "
        f"{two['bot_cpu_ms']:.2f} + {two['server_cpu_ms']:.2f} ms with two).",
        f"    On an idle {cores}-core machine that allows one process at most {single:.0f} moves/s and two at most "
        f"{double:.0f} moves/s: at most {double / single:.2f}x.",
        f"    {target:.2f}x needs the server to spend at most {cores / target - 1:.2f} ms per ms of bot CPU "
        f"({bot * (cores / target - 1):.2f} ms a move); it spent {server / bot:.2f}"
        + (f", and a move's bare commit alone costs it {floor_cpu:.2f} ms." if floor_cpu else "."),
        f"    In this window other jobs kept {two['other_cores']:.2f} cores busy: the {free:.2f} left allow two "
        f"processes at most {free * 1000 / per_move:.0f} moves/s = {free * 1000 / per_move / one['moves_per_s']:.2f}x "
        "the one process measured.",
    ]

if __name__ == "__main__":
    main()
