"""Scale benchmark: real games through the service, on SQLite, on PostgreSQL with one bot process, and with two.

Each busy channel plays a real game (The Expedition, Monster Expedition and Expeditions in turn, two players making
random legal moves, a new game when one ends), and its player moves again as soon as the last move is committed and
its board drawn: the service's `act` (load, check, apply, commit) and `board` (view, story, buttons, and the image
drawn in the render pool's worker process). `--no-boards` leaves the board out. For each engine and channel count
it prints:

* moves/s over a fixed window, all processes together, and moves per core (moves per CPU second of the bot, its
  render workers and the database server together);
* first response p99: from `act` being called to the move being committed (what a player waits for before the
  bot can answer), including waits for the channel lock and for a pooled connection;
* where the CPU went, per move: the bot process (its event loop and database thread), its render workers, and
  the PostgreSQL server (its postmaster and children in /proc, not other clusters on the machine); and what every
  other job on the machine used during the window (/proc/stat);
* floors measured in the same run, in this process: the rules alone (each game's `apply` with the state encoded
  and decoded as a commit does) for the bot's CPU, and the raw driver's commit (one INSERT and one UPDATE of the
  same sizes in one transaction) for the database's time and server CPU; the figures are given as ratios to them;
* what a shard of `--guilds` servers needs: at `--active` of them with a game in play and one move every
  `--move-every` seconds in each (assumptions, printed with the result), the cores of bot CPU and of server CPU;
* two processes against one: the ratio of their best windows (they alternate for `--rounds` rounds, since other
  jobs on a shared machine come and go), and the most the measured CPU per move allows on this many cores.

PostgreSQL runs durably (fsync on), SQLite with synchronous=FULL. Without EXPEDITION_TEST_PG the benchmark starts
its own throwaway cluster (tests/postgres.py). Usage:
    python benchmarks/bench_scale.py [--seconds 8] [--channels 50,500] [--rounds 3] [--no-boards]
    python benchmarks/bench_scale.py --guilds 1000 --active 0.05 --move-every 20
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests/ (the game and the cluster)

import bot.games  # noqa: F401  (finds every game package)
from bot.core import JSON, Applied, Outcome, Rng, all_packages, find_game, register
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


GAMES = tuple(package.key for package in all_packages())  # every game the registry finds, in key order
PLAYERS = (Player(1, "Ada"), Player(2, "Bea"))


async def _new_game(service: GameService, channel: int) -> Any:
    """A real game in the channel, two players seated and started (the game by the channel's number)."""
    await service.new_match(1, channel, GAMES[channel % len(GAMES)], PLAYERS[0])
    await service.join(channel, PLAYERS[1])
    return await service.start(channel, PLAYERS[0].user_id)


def children_cpu_seconds() -> float:
    """CPU time of this process's live child processes (the render pool's workers), from /proc."""
    total = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent, used, _ = _ticks(entry.name)
            except (OSError, IndexError, ValueError):
                continue
            if parent == os.getpid():
                total += used
    return total / os.sysconf("SC_CLK_TCK")


async def _play(location: str, channels: range, seconds: float, barrier: Any, boards: bool) -> dict[str, Any]:
    store = await Store.open(location, pool_size=10)
    service = install(GameService(store))
    try:
        await service.render_pool.start()
        matches = {channel: await _new_game(service, channel) for channel in channels}
        for match in list(matches.values())[:6]:  # every game's first boards drawn once: the workers are warm
            await service.board(match)
        latencies: list[float] = []
        rnd = random.Random(channels.start)
        if barrier is not None:
            await asyncio.to_thread(barrier.wait, 600)
        deadline = time.perf_counter() + seconds

        async def player(channel: int) -> None:
            while time.perf_counter() < deadline:
                match = matches[channel]
                if match.status != "active":
                    match = matches[channel] = await _new_game(service, channel)
                game = find_game(match.game)
                seat = game.to_act(match.state)[0]
                action = rnd.choice(game.legal_actions(match.state, seat))
                began = time.perf_counter()
                accepted = await service.act(channel, match.seats[seat].user_id, action)
                latencies.append(time.perf_counter() - began)
                matches[channel] = accepted.match
                if boards:
                    await service.board(accepted.match)

        started, cpu, workers = time.perf_counter(), time.process_time(), children_cpu_seconds()
        await asyncio.gather(*(player(channel) for channel in channels))
        elapsed = time.perf_counter() - started
        return {"moves": len(latencies), "elapsed": elapsed, "latencies": latencies,
                "cpu": (time.process_time() - cpu) / elapsed, "render": (children_cpu_seconds() - workers) / elapsed}
    finally:
        service.render_pool.close()
        await store.close()


def _worker(location: str, first: int, count: int, seconds: float, barrier: Any, results: Any,
            boards: bool) -> None:
    results.put(asyncio.run(_play(location, range(first, first + count), seconds, barrier, boards)))


def rules_floor(moves: int = 3000) -> float:
    """CPU ms per move of the rules alone, in this process: the same three games with random legal moves, each new
    state encoded and decoded once (what storing it costs at the least); no service, no database, no board."""
    rnd = random.Random(7)
    done, seed = 0, 0
    started = time.process_time()
    while done < moves:
        for key in GAMES:
            game = find_game(key)
            state = game.setup("standard", [p.name for p in PLAYERS], Rng(seed, 1), {"profiles": [{}, {}]})
            step = 0
            while game.to_act(state) and done < moves and step < 400:
                seat = game.to_act(state)[0]
                state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)), Rng(seed, step)).state
                state = json.loads(json.dumps(state))
                step += 1
                done += 1
        seed += 1
    return (time.process_time() - started) / done * 1000


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
                  postmaster: int | None, boards: bool = True) -> dict[str, float]:
    """`channels` busy channels split over `processes` bot processes; totals, the latency p99, and where the
    machine's CPU went during the window (the bot processes, the server, everything else)."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes + 1), context.Queue()
    share = channels // processes
    workers = [context.Process(target=_worker, args=(location, base + i * share, share, seconds, barrier, results,
                                                                boards))
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
    render_cpu = sum(outcome["render"] * outcome["elapsed"] for outcome in outcomes)
    return {"moves_per_s": moves / elapsed, "p99_ms": latencies[int(len(latencies) * 0.99)] * 1000, "moves": moves,
            "bot_cpu_ms": bot_cpu / moves * 1000, "server_cpu_ms": server_cpu / moves * 1000,
            "render_cpu_ms": render_cpu / moves * 1000,
            "moves_per_core": moves / max(1e-9, bot_cpu + render_cpu + server_cpu),
            "bot_cores": bot_cpu / elapsed, "server_cores": server_cpu / elapsed, "render_cores": render_cpu / elapsed,
            "other_cores": max(0.0, (machine - bot_cpu - server_cpu - render_cpu) / window),
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
    parser.add_argument("--no-boards", dest="boards", action="store_false",
                        help="moves only: no board (view, story, image) after each move")
    parser.add_argument("--guilds", type=int, default=1000, help="servers in the shard the figure is given for")
    parser.add_argument("--active", type=float, default=0.05,
                        help="share of those servers with a game in play at the busiest hour (an assumption)")
    parser.add_argument("--move-every", type=float, default=20.0,
                        help="seconds between moves in a game in play (an assumption)")
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
        print(f"{cores} cores; {args.seconds:.0f} s per window; real games ({', '.join(GAMES)}), "
              f"{'each move followed by its board' if args.boards else 'moves only, no boards'}; PostgreSQL "
              f"server CPU {'from /proc (postmaster ' + str(postmaster) + ')' if postmaster else 'not measured'}")
        floor = rules_floor()
        print(f"floor: the rules alone (apply, state encoded and decoded) cost {floor:.2f} ms of CPU a move\n")
        # PostgreSQL's one- and two-process windows alternate, round after round, and each keeps its best: other
        # jobs on a shared machine come and go, and the best window is the one they disturbed least.
        windows = [("SQLite", sqlite, 1, channels) for channels in counts] + [
            ("PostgreSQL", postgres, processes, channels)
            for _ in range(args.rounds) for channels in counts for processes in (1, 2)]
        best: dict[tuple[str, int, int], dict[str, float]] = {}
        for number, (engine, location, processes, channels) in enumerate(windows, start=1):
            result = run_processes(location, channels, processes, args.seconds, number * 100_000,
                                   postmaster if engine == "PostgreSQL" else None, args.boards)
            key = (engine, processes, channels)
            if key not in best or result["moves_per_s"] > best[key]["moves_per_s"]:
                best[key] = result
            print(f"{engine:<10} {processes} process{'es' if processes > 1 else '  '} {channels:>4} channels: "
                  f"{result['moves_per_s']:6.0f} moves/s  first response p99 {result['p99_ms']:6.1f} ms  "
                  f"CPU per move: bot {result['bot_cpu_ms']:.2f} ms ({result['bot_cpu_ms'] / floor:.1f}x the "
                  f"rules) + render {result['render_cpu_ms']:.2f} ms + PostgreSQL {result['server_cpu_ms']:.2f} ms"
                  f" = {result['moves_per_core']:.0f} moves per core"
                  f"  cores busy: bot {result['bot_cores']:.2f} (busiest process {result['busiest_bot_core']:.2f})"
                  f" + render {result['render_cores']:.2f} + PostgreSQL {result['server_cores']:.2f}"
                  f" + other jobs {result['other_cores']:.2f}", flush=True)
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
        rate = args.guilds * args.active / args.move_every
        for (engine, processes, channels), result in sorted(best.items()):
            if processes != 1:
                continue
            bot_cores = rate * (result["bot_cpu_ms"] + result["render_cpu_ms"]) / 1000
            print(f"A shard of {args.guilds} servers, {args.active:.0%} with a game in play, a move every "
                  f"{args.move_every:.0f} s in each: {rate:.1f} moves/s, {bot_cores:.3f} cores of bot CPU (render "
                  + (f"included) + {rate * result['server_cpu_ms'] / 1000:.3f} of PostgreSQL server CPU "
                     if engine == "PostgreSQL" else "included) ")
                  + f"(costs of the {engine} window with {channels} channels); a core of bot CPU carries "
                  f"{1000 / (result['bot_cpu_ms'] + result['render_cpu_ms']):.0f} moves/s")
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
