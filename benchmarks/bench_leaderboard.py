"""A move elsewhere while /leaderboard is hammered, at 50, 2,000 and 50,000 rated players (issue 32).

    python benchmarks/bench_leaderboard.py [--players 50 2000 50000] [--requests 40] [--moves 40] [--postgres URL]

Each size gets a fresh database (SQLite by default) holding that many ratings of one game on one server, and a
table of The Expedition in another channel. A move there is timed (the whole `service.act`: load, rules, commit)
and the event loop's lag is watched by a ticker that sleeps 5 ms at a time and records how late it wakes:

* idle: the moves alone, the floor of this run at this moment;
* indexed: the same moves while `--requests` /leaderboard reads are kept in flight (`stats.leaderboard`: the top
  ten from the ordinal index and the asker's place as a count over it; the askers drawn from every rated player, so
  half the places counted lie past the middle);
* sorted: the same while the leaderboard is made as before issue 32 (every rating fetched and sorted on the loop).

Each line prints the move's median and worst time and the loop's worst lag, and their ratios to the idle floor of
the same size. The image (drawn in the render workers, the same at every size) is left out.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.games  # noqa: F401  (registers every game)
from bot.core import find_game
from bot.features import ratings, stats
from bot.service import GameService, Player
from bot.store import Store, is_postgres_url

GUILD, GAME, TABLE = 1, "the-expedition", 10
TICK = 0.005


@dataclass(frozen=True)
class Measure:
    move_median: float  # ms
    move_max: float
    lag_max: float
    served: int  # leaderboards made meanwhile


def rating_rows(count: int) -> list[tuple[object, ...]]:
    chooser = random.Random(count)
    rows = []
    for user_id in range(1000, 1000 + count):
        mu, sigma = chooser.uniform(5, 45), chooser.uniform(0.8, 8.3)
        rows.append((GUILD, GAME, user_id, mu, sigma, ratings.ordinal(mu, sigma), chooser.randint(1, 60),
                     "2026-01-01T00:00:00+00:00"))
    return rows


async def fill(location: str, count: int) -> None:
    columns = "guild_id, game, user_id, mu, sigma, ordinal, games, updated_at"
    rows = rating_rows(count)
    if is_postgres_url(location):
        import asyncpg

        connection = await asyncpg.connect(location)
        try:
            await connection.execute("DELETE FROM ratings")
            await connection.copy_records_to_table("ratings", records=rows, columns=columns.split(", "))
            await connection.execute("VACUUM ANALYZE ratings")
        finally:
            await connection.close()
        return
    with sqlite3.connect(location) as raw:
        raw.executemany(f"INSERT INTO ratings ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        raw.execute("ANALYZE")


async def sorted_on_the_loop(service: GameService, asker: int) -> None:
    """The leaderboard as it was made before issue 32: every rating fetched and sorted on the event loop (the
    names, then looked up one query per player, are left out: this is the lesser cost)."""
    rows = sorted(await service.store.ratings(GUILD, GAME),
                  key=lambda r: (-ratings.ordinal(r.mu, r.sigma), -r.games, r.user_id))
    place = next(number for number, row in enumerate(rows, start=1) if row.user_id == asker)  # as it was found
    assert place >= 1


class Table:
    """The table elsewhere: two players making random legal moves (a new game when one ends)."""

    def __init__(self, service: GameService) -> None:
        self.service, self.game, self.chooser, self.number = service, find_game(GAME), random.Random(5), 0

    async def open(self) -> None:
        if await self.service.store.open_match(TABLE) is not None:  # left by an earlier size (one PostgreSQL database)
            await self.service.abandon(TABLE, 1, can_manage_channel=True)
        self.number += 1
        await self.service.new_match(GUILD, TABLE, GAME, Player(1, "Ada"), seed=self.number)
        await self.service.join(TABLE, Player(2, "Ben"))
        await self.service.start(TABLE, 1)

    async def move(self) -> float:
        """One move, its time in ms."""
        match = await self.service.current(TABLE)
        if match.status != "active":  # the game ended: the next one
            await self.open()
            match = await self.service.current(TABLE)
        seat = self.game.to_act(match.state)[0]
        action = self.chooser.choice(self.game.legal_actions(match.state, seat))
        started = time.perf_counter()
        await self.service.act(TABLE, match.seats[seat].user_id, action)
        return (time.perf_counter() - started) * 1000


async def measure(table: Table, moves: int, requests: int,
                  leaderboard: Callable[[int], Awaitable[object]] | None, askers: list[int]) -> Measure:
    lags: list[float] = []
    done = asyncio.Event()
    served = 0

    async def ticker() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            lags.append((time.perf_counter() - before - TICK) * 1000)

    async def hammer(chooser: random.Random) -> None:
        nonlocal served
        while not done.is_set():
            await leaderboard(chooser.choice(askers))  # type: ignore[misc]
            served += 1

    tasks = [asyncio.create_task(ticker())]
    if leaderboard is not None:
        tasks += [asyncio.create_task(hammer(random.Random(n))) for n in range(requests)]
    await asyncio.sleep(0.2)
    times = []
    for _ in range(moves):
        times.append(await table.move())
        await asyncio.sleep(0.02)
    done.set()
    await asyncio.gather(*tasks)
    return Measure(statistics.median(times), max(times), max(lags), served)


def line(label: str, found: Measure, idle: Measure) -> None:
    median, worst = found.move_median / idle.move_median, found.move_max / idle.move_max
    lag = found.lag_max / max(idle.lag_max, 0.1)
    print(f"        {label:<15} move median {found.move_median:7.1f} ms ({median:5.1f}x), max "
          f"{found.move_max:7.1f} ms ({worst:5.1f}x), loop lag max {found.lag_max:7.1f} ms ({lag:5.1f}x) | "
          f"{found.served:,} leaderboards made meanwhile", flush=True)


async def one_size(location: str, count: int, args: argparse.Namespace) -> None:
    store = await Store.open(location)
    try:
        await fill(location, count)
        service = GameService(store)
        table = Table(service)
        await table.open()
        askers = [1000 + n for n in range(count)]
        await table.move()  # warm
        idle = await measure(table, args.moves, 0, None, askers)
        print(f"{count:>7,} rated | idle: move median {idle.move_median:6.1f} ms, max {idle.move_max:6.1f} ms, "
              f"loop lag max {idle.lag_max:6.1f} ms", flush=True)
        line("indexed", await measure(table, args.moves, args.requests,
                                      lambda asker: stats.leaderboard(service, GUILD, GAME, asker), askers), idle)
        if args.sorted_moves:
            line("sorted (before)", await measure(table, min(args.moves, args.sorted_moves), args.requests,
                                                  lambda asker: sorted_on_the_loop(service, asker), askers), idle)
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[50, 2000, 50_000])
    parser.add_argument("--requests", type=int, default=40, help="leaderboard requests kept in flight")
    parser.add_argument("--moves", type=int, default=40, help="moves timed per measure")
    parser.add_argument("--sorted-moves", type=int, default=6,
                        help="moves timed while the leaderboard is sorted as before (each may wait seconds; 0: "
                             "leave that out)")
    parser.add_argument("--postgres", help="a PostgreSQL URL (an empty database or schema) instead of SQLite")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.requests} leaderboard requests in flight; "
          f"{'PostgreSQL' if args.postgres else 'SQLite'}")
    for count in args.players:
        if args.postgres:
            await one_size(args.postgres, count, args)
            continue
        with tempfile.TemporaryDirectory() as folder:
            await one_size(str(Path(folder) / "bench.sqlite3"), count, args)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
