"""What the start-up's integrity check and an upgrade's backup cost on a large SQLite file (issue 32).

Builds a file of `--matches` finished games of The Expedition (one played through the service with random legal
moves, its rows copied with new ids, so every match has a real event log and snapshots), then times, each against
the floor of reading the file's bytes once in the same run:

* `PRAGMA quick_check`, which every start (`run`, `local`, `migrate`) runs before the bot accepts a move;
* the consistent backup (SQLite's online backup API) written before a schema upgrade;
* the upgrade from the schema before `match_results` (which decodes every final state), with its backup;
* with `--migrate`, `expedition-bot migrate` of the file to a new SQLite file (the copy, then every game read back
  and replayed: minutes for 30,000 long games), its progress lines counted.

Usage: python benchmarks/bench_integrity.py [--matches 30000] [--folder /tmp] [--migrate]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.games  # noqa: F401  (registers the games)
from bot.cli.migrate import migrate
from bot.core import find_game
from bot.service import GameService, Player
from bot.store import Store
from bot.store.backup import backup_path, check_problems, write_backup
from bot.store.schema import RESULTS_MIGRATION

ALICE, BOB = Player(100, "Alice"), Player(200, "Bob")
COPIED = {"matches": ("id", "channel_id"), "seats": ("match_id",), "events": ("match_id",),
          "snapshots": ("match_id",), "match_results": ("match_id",)}


async def one_finished_game(path: Path) -> None:
    store = await Store.open(path)
    service = GameService(store)
    game = find_game("the-expedition")
    await service.new_match(1, 10, "the-expedition", ALICE, seed=3)
    await service.join(10, BOB)
    match = await service.start(10, ALICE.user_id)
    chooser = random.Random(1)
    while match.status == "active":
        seat = game.to_act(match.state)[0]
        match = (await service.act(10, match.seats[seat].user_id,
                                   chooser.choice(game.legal_actions(match.state, seat)))).match
    await store.close()


def double_until(path: Path, matches: int) -> int:
    """Copy every match (and its seats, events, snapshots and results) with new ids until there are `matches`."""
    with sqlite3.connect(path) as raw:
        while (count := raw.execute("SELECT COUNT(*) FROM matches").fetchone()[0]) < matches:
            offset = raw.execute("SELECT MAX(id) FROM matches").fetchone()[0]
            wanted = min(count, matches - count)
            for table, shifted in COPIED.items():
                columns = [row[1] for row in raw.execute(f"PRAGMA table_info({table})")]
                chosen = ", ".join(f"{c} + {offset}" if c in shifted else c for c in columns)
                key = "id" if table == "matches" else "match_id"
                raw.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {chosen} FROM {table} "
                            f"WHERE {key} IN (SELECT id FROM matches ORDER BY id LIMIT {wanted})")
            raw.commit()
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return count


def timed(work: object) -> float:
    started = time.perf_counter()
    work()  # type: ignore[operator]
    return time.perf_counter() - started


def read_floor(path: Path) -> float:
    """Reading the file's bytes once (from the page cache, as the check does right after the build)."""
    def read() -> None:
        with path.open("rb") as file:
            while file.read(1 << 20):
                pass
    return timed(read)


def quick_check(path: Path) -> None:
    connection = sqlite3.connect(path)
    try:
        assert check_problems(connection) == []
    finally:
        connection.close()


async def upgrade(path: Path) -> float:
    """The upgrade to the current schema from the one before `match_results`, with its backup."""
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE match_results")
        raw.execute(f"PRAGMA user_version = {RESULTS_MIGRATION - 1}")
    raw.close()
    started = time.perf_counter()
    store = await Store.open(path, progress=lambda line: print(f"    {line}"))
    await store.close()
    return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30_000)
    parser.add_argument("--folder", default=None)
    parser.add_argument("--migrate", action="store_true", help="also time expedition-bot migrate of the file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        path = Path(folder) / "games.sqlite3"
        await one_finished_game(path)
        count = double_until(path, args.matches)
        size = path.stat().st_size
        print(f"{count:,} finished matches, {size / 1e6:.0f} MB")
        floor = min(read_floor(path) for _ in range(3))
        check = min(timed(lambda: quick_check(path)) for _ in range(2))
        backup = timed(lambda: write_backup(path, backup_path(path, 0)))
        print(f"  reading the file once (floor): {floor:.2f} s")
        print(f"  PRAGMA quick_check:            {check:.2f} s ({check / floor:.0f}x the floor, "
              f"{check / (size / 1e8):.2f} s per 100 MB)")
        print(f"  backup before an upgrade:      {backup:.2f} s ({backup / floor:.0f}x the floor)")
        took = await upgrade(path)
        print(f"  upgrade from schema {RESULTS_MIGRATION - 1} with its backup: {took:.2f} s "
              f"({took / floor:.0f}x the floor)")
        if not args.migrate:
            return
        said: list[str] = []
        started = time.perf_counter()
        report = await migrate(path, Path(folder) / "copy.sqlite3", progress=said.append)
        took = time.perf_counter() - started
        print(f"  migrate to a new file: {took:.2f} s ({took / floor:.0f}x the floor), {report.replayed:,} games "
              f"replayed, {len(report.problems)} problems, {len(said)} progress lines")


if __name__ == "__main__":
    asyncio.run(main())
