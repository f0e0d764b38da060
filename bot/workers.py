"""Work that grows with a game, off the event loop: a worker process for whole logs.

A 2,000-move game's export (decode every event, replay it, digest every state, write the JSON) took 1.6 s on the
event loop: every channel of the shard waited that long. (/stats of an 800-game player decoded 800 final states,
87 ms; it now counts the result rows each finished match keeps instead.) Such work runs here, in a spawned process
(as the render and thinking pools, since the bot process runs database and gateway threads). The worker reads the
database itself (bot/store/reading.py), so the loop fetches none of a long game's rows either; and it runs at a
lower priority than the bot, so on a small machine an export yields the core to the event loop instead of sharing
it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from bot.core import Game
from rendering.lifeline import watch_parent

T = TypeVar("T")

_pool: Executor | None = None


WORKER_NICENESS = 10
"""How much lower than the bot's the worker's CPU priority is (Unix niceness): its work is never urgent, the event
loop's always is."""


def register_games() -> None:
    """A worker's start: die with the bot (rendering/lifeline.py), step back in priority, and register the shipped
    games."""
    watch_parent()
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    import bot.games  # noqa: F401  (a fresh worker process registers the games)


def _executor() -> Executor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=register_games)
    return _pool


async def run(game: Game, function: Callable[..., T], *args: Any) -> T:
    """`function(*args)`, work for `game`, in the worker process (a module-level function; its arguments and result
    are pickled). A game registered at runtime (the tests' Nim, a plug-in) is unknown to a freshly spawned
    worker, so its work runs in a thread instead."""
    if not type(game).__module__.startswith("bot.games."):
        return await asyncio.to_thread(function, *args)
    return await asyncio.get_running_loop().run_in_executor(_executor(), function, *args)


def use_executor(executor: Executor | None) -> None:
    """Replace the worker (tests may run inline or in a thread); None goes back to a process."""
    global _pool
    _pool = executor


def close() -> None:
    """Stop the worker (when the bot stops; it starts again on next use)."""
    global _pool
    if isinstance(_pool, ProcessPoolExecutor):
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None
