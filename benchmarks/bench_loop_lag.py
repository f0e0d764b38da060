"""Event-loop lag while 50 channels render a board at once: the render pool (worker processes) against
asyncio.to_thread (threads that share the interpreter lock with the loop).

    python benchmarks/bench_loop_lag.py [--channels 50] [--rounds 3]

A ticker sleeps 5 ms at a time on the loop and records how late it wakes: that lateness is what every other
channel's button press waits on. Target (issue 9): at most 25 ms of lag while 50 channels render.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, Rng, all_games
from rendering import kit, render_board, render_detail
from rendering.pool import RenderPool

TICK = 0.005


def boards(count: int) -> list[tuple[str, JSON]]:
    """`count` public views from real positions of every game, mid-game."""
    views: list[tuple[str, JSON]] = []
    seed = 0
    while len(views) < count:
        for game in all_games():
            mode = game.modes[0]
            players = min(3, mode.max_players)
            state = game.setup(mode.key, [f"P{i}" for i in range(players)], Rng(seed, 0), {"profiles": [{}] * players})
            chooser = Rng(seed, 1)
            for step in range(40):
                waiting = game.to_act(state)
                if not waiting:
                    break
                state = game.apply(state, waiting[0], chooser.choice(game.legal_actions(state, waiting[0])),
                                   Rng(seed, step + 2)).state
            views.append((game.key, game.view(state, None)))
        seed += 1
    return views[:count]


async def lag_while(work: Callable[[], Awaitable[object]]) -> tuple[float, float, float]:
    """(max lag ms, 99th percentile lag ms, wall ms) while `work` runs."""
    lags: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            lags.append((time.perf_counter() - before - TICK) * 1000)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    await work()
    wall = (time.perf_counter() - started) * 1000
    done.set()
    await task
    lags.sort()
    return lags[-1], lags[int(len(lags) * 0.99) - 1], wall


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    views = boards(args.channels)
    kit.warm_up()
    for key, view in views:  # threads get warm caches too, for a fair comparison
        render_board(key, view)
    pool = RenderPool()
    await pool.start()
    await asyncio.gather(*(pool.render(key, view) for key, view in views))  # warm the workers' caches

    async def through_pool() -> None:
        await asyncio.gather(*(pool.render(key, view) for key, view in views))

    async def through_threads() -> None:
        await asyncio.gather(*(asyncio.to_thread(render_board, key, view) for key, view in views))

    async def full_size_through_threads() -> None:
        await asyncio.gather(*(asyncio.to_thread(render_detail, key, view) for key, view in views))

    async def idle() -> None:
        await asyncio.sleep(0.5)

    print(f"{args.channels} channels render at once; {pool.workers} worker processes; ticker every 5 ms")
    for label, work in (("idle loop (floor)", idle), ("to_thread, 1280 boards", full_size_through_threads),
                        ("to_thread, phone", through_threads), ("RenderPool, phone", through_pool)):
        results = [await lag_while(work) for _ in range(args.rounds)]
        worst = max(r[0] for r in results)
        p99 = statistics.median(r[1] for r in results)
        wall = statistics.median(r[2] for r in results)
        print(f"{label:<24} max lag {worst:6.1f} ms   p99 {p99:5.1f} ms   all boards in {wall:6.0f} ms")
    pool.close()
    print("target: max lag <= 25 ms with the pool")


if __name__ == "__main__":
    asyncio.run(main())
