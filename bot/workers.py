"""Work that grows with a game, off the event loop: worker processes shared fairly between members and tables.

A 2,000-move game's export (decode every event, replay it, digest every state, write the JSON) took 1.6 s on the
event loop: every channel of the shard waited that long. (/stats of an 800-game player decoded 800 final states,
87 ms; it now counts the result rows each finished match keeps instead.) Such work runs here, in a spawned process
(as the render and thinking pools, since the bot process runs database and gateway threads). The worker reads the
database itself (bot/store/reading.py), so the loop fetches none of a long game's rows either; and it runs at a
lower priority than the bot, so on a small machine an export yields the core to the event loop instead of sharing
it.

A worker is shared, so the work waits in a queue in front of it (`FairWorkers`), not in the pool's own first come,
first served one: 60 exports of a 1,412-move game sent by one member in 0.6 s made an undo in another channel wait
44 s (issue 32). Now what a move waits on (`Lane.URGENT`: an undo's plan, a computer player's move) is served
before what one member asked for (`Lane.ON_DEMAND`: an export, a hint); within a lane the members take turns; one
job asked for by several (the same export) runs once for all of them; and a member holds at most `PER_MEMBER` jobs
of a lane, the next one refused privately with when to ask again (`WorkerBusy`). The same queue stands in front of
the render pool (`GameService.renders`: the boards of moves first, then the images members ask for, one at a time)
and of the reads that count many rows (`GameService.long_reads`), whose work waits on a pool of its own
(`FairWorkers.run_awaited`).
"""

from __future__ import annotations

import asyncio
import functools
import math
import multiprocessing
import os
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, TypeVar

from bot.core import Game, RuleError, is_found
from rendering.lifeline import watch_parent

T = TypeVar("T")


WORKER_NICENESS = 10
"""How much lower than the bot's the worker's CPU priority is (Unix niceness): its work is never urgent, the event
loop's always is."""

PER_MEMBER = 2
"""How many jobs of one lane of a worker a member may hold, waiting or running, before the next is refused: with a
single records worker, one member can never take more than this many turns in a row from everyone else."""

FIRST_GUESS_SECONDS = 2.0
"""How long a job is taken to last before any has been timed (for the refusal's "ask again in about ...")."""
SOONEST_RETRY_SECONDS = 5
"""The shortest wait a refusal names (and waits are rounded up to a multiple of it)."""


class Lane(IntEnum):
    """Who waits for a job: the lower lane is always served first."""

    URGENT = 0  # a move or a table waits on it: an undo's plan, a computer player's move
    ON_DEMAND = 1  # one member asked for it and waits alone: an export, a hint, a board on request


class WorkerBusy(RuleError):
    """A member already holds their share of a worker: answered privately, saying when to ask again."""


def refusal(message_id: str, seconds: float) -> WorkerBusy:
    """The refusal `message_id` (a plural message whose count is the seconds to wait), the wait rounded up."""
    step = SOONEST_RETRY_SECONDS
    return WorkerBusy(message_id, count=max(step, step * math.ceil(seconds / step)))


class Where(IntEnum):
    """Where a job runs."""

    EXECUTOR = 0  # in the workers' executor (a process pool)
    THREAD = 1  # in a thread (a game or renderer registered at runtime, unknown to a spawned process)
    LOOP = 2  # awaited on the event loop: a coroutine that waits on a pool of its own (a board, a long read)


@dataclass
class _Job:
    function: Callable[..., Any]
    arguments: tuple[Any, ...]
    lane: Lane
    member: Hashable | None
    key: Hashable | None
    where: Where
    done: asyncio.Future[Any]


@dataclass
class _Queue:
    """One event loop's queue in front of the workers (tests run many loops; a future belongs to one)."""

    waiting: dict[Lane, OrderedDict[Hashable | None, deque[_Job]]] = field(
        default_factory=lambda: {lane: OrderedDict() for lane in Lane})
    running: Counter[Lane] = field(default_factory=Counter)  # by lane
    shared: dict[Hashable, _Job] = field(default_factory=dict)
    held: Counter[tuple[Lane, Hashable]] = field(default_factory=Counter)  # jobs a member holds, waiting or running
    seconds: dict[Lane, float] = field(default_factory=lambda: dict.fromkeys(Lane, FIRST_GUESS_SECONDS))
    served: list[tuple[Lane, Hashable | None]] = field(default_factory=list)  # in the order they started

    def queued(self, lane: Lane | None = None) -> int:
        lanes = [lane] if lane is not None else list(Lane)
        return sum(len(jobs) for each in lanes for jobs in self.waiting[each].values())


SERVED_KEPT = 1000
"""How many started jobs a queue remembers (`FairWorkers.served`, what the tests read)."""


class FairWorkers:
    """At most `workers` jobs at a time in `executor()` (or in threads, or awaited: `run_awaited`); the others
    wait here, served by lane (`Lane.URGENT` first), the members of a lane taking turns, a member holding at most
    `per_member` jobs of a lane (`WorkerBusy` for the next), and a job whose `key` is already waiting or running
    shared instead of run again. `at_once` caps a lane's running jobs below `workers` (the render workers draw one
    image asked for at a time, so the boards of moves always find a place)."""

    def __init__(self, executor: Callable[[], Executor] | None, workers: int = 1, *, per_member: int = PER_MEMBER,
                 at_once: dict[Lane, int] | None = None) -> None:
        self.executor = executor
        self.workers = workers
        self.per_member = per_member
        self.at_once = {lane: min(workers, (at_once or {}).get(lane, workers)) for lane in Lane}
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue] = weakref.WeakKeyDictionary()

    def _queue(self) -> _Queue:
        loop = asyncio.get_running_loop()
        queue = self._queues.get(loop)
        if queue is None:
            queue = self._queues[loop] = _Queue()
        return queue

    async def run(self, function: Callable[..., T], *arguments: Any, lane: Lane, member: Hashable | None = None,
                  key: Hashable | None = None, busy: str = "", in_thread: bool = False) -> T:
        """`function(*arguments)` in a worker (a thread when `in_thread`), once its turn comes. `member` is who
        asked (None: a table's own work, never refused); `key` names the result, so everyone asking for the same
        one while it waits or runs shares it; `busy` is the refusal's message id (a plural message taking the
        seconds to wait as its count) when the member already holds their share."""
        where = Where.THREAD if in_thread or self.executor is None else Where.EXECUTOR
        return await self._queued(function, arguments, lane, member, key, busy, where)

    async def run_awaited(self, make: Callable[[], Awaitable[T]], *, lane: Lane, member: Hashable | None = None,
                          key: Hashable | None = None, busy: str = "") -> T:
        """`await make()` once its turn comes, in the same lanes and shares as `run`: for work that waits on a
        pool of its own (the render pool, a read on its own connection) and must take its turn here first."""
        return await self._queued(make, (), lane, member, key, busy, Where.LOOP)

    async def _queued(self, function: Callable[..., Any], arguments: tuple[Any, ...], lane: Lane,
                      member: Hashable | None, key: Hashable | None, busy: str, where: Where) -> Any:
        if member is not None and not busy:
            raise ValueError("work asked for by a member needs the refusal to give them when they hold their share")
        queue = self._queue()
        found = queue.shared.get(key) if key is not None else None
        if found is not None:
            return await asyncio.shield(found.done)
        if member is not None and queue.held[lane, member] >= self.per_member:
            raise refusal(busy, self._wait(queue, lane))
        job = _Job(function, arguments, lane, member, key, where, asyncio.get_running_loop().create_future())
        if member is not None:
            queue.held[lane, member] += 1
        if key is not None:
            queue.shared[key] = job
        queue.waiting[lane].setdefault(member, deque()).append(job)
        self._dispatch(queue)
        return await asyncio.shield(job.done)

    def _wait(self, queue: _Queue, lane: Lane) -> float:
        """About how long until a member's earlier job of `lane` is done: the jobs ahead of it, shared by the
        workers the lane may use, at the lane's measured pace."""
        ahead = sum(queue.running.values()) + sum(queue.queued(each) for each in Lane if each <= lane)
        return ahead * queue.seconds[lane] / max(1, self.at_once[lane])

    def _next(self, queue: _Queue) -> _Job | None:
        """The next job: the first lane with work and a free place, and in it the member whose turn it is (round
        robin)."""
        for lane in Lane:
            members = queue.waiting[lane]
            if members and queue.running[lane] < self.at_once[lane]:
                member, jobs = next(iter(members.items()))
                job = jobs.popleft()
                if jobs:
                    members.move_to_end(member)
                else:
                    del members[member]
                return job
        return None

    def _dispatch(self, queue: _Queue) -> None:
        loop = asyncio.get_running_loop()
        while sum(queue.running.values()) < self.workers:
            job = self._next(queue)
            if job is None:
                return
            queue.running[job.lane] += 1
            queue.served.append((job.lane, job.member))
            del queue.served[:-SERVED_KEPT]
            try:
                running = self._start(loop, job)
            except Exception as error:  # the pool is shut down (the bot is stopping): this job fails, not the rest
                running = loop.create_future()
                running.set_exception(error)
            running.add_done_callback(functools.partial(self._finished, queue, job, loop.time()))

    def _start(self, loop: asyncio.AbstractEventLoop, job: _Job) -> asyncio.Future[Any]:
        if job.where is Where.LOOP:
            return asyncio.ensure_future(job.function())
        executor = self.executor() if job.where is Where.EXECUTOR and self.executor is not None else None
        return loop.run_in_executor(executor, job.function, *job.arguments)

    def _finished(self, queue: _Queue, job: _Job, started: float, done: asyncio.Future[Any]) -> None:
        queue.running[job.lane] -= 1
        if job.member is not None:
            queue.held[job.lane, job.member] -= 1
            if queue.held[job.lane, job.member] <= 0:
                del queue.held[job.lane, job.member]
        if job.key is not None and queue.shared.get(job.key) is job:
            del queue.shared[job.key]
        took = asyncio.get_running_loop().time() - started
        queue.seconds[job.lane] = 0.8 * queue.seconds[job.lane] + 0.2 * took
        if done.cancelled():
            job.done.cancel()
        elif (error := done.exception()) is not None:
            job.done.set_exception(error)
        else:
            job.done.set_result(done.result())
        self._dispatch(queue)

    def waiting(self, lane: Lane | None = None) -> int:
        """How many jobs wait in this event loop's queue (of one lane, or of all)."""
        return self._queue().queued(lane)

    def served(self) -> list[tuple[Lane, Hashable | None]]:
        """The lane and member of the jobs started in this event loop, in the order they started (the newest
        thousand)."""
        return list(self._queue().served)


class Shelf:
    """Results of finished work worth keeping (a finished game's export, the rules' picture), by key, the newest
    asked for kept, up to `limit` bytes in all: asked for again, they cost no work."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._files: OrderedDict[Hashable, bytes] = OrderedDict()
        self._building: dict[Hashable, asyncio.Future[bytes]] = {}

    async def kept_or_built(self, key: Hashable, build: Callable[[], Awaitable[bytes]]) -> bytes:
        """The result kept under `key`, or the one being built for an earlier asker, or `build()`'s, kept. The
        result is put on the shelf in the same step as the building ends, so a request arriving between the two
        (a shared job's key is forgotten as it finishes) never builds it again."""
        kept = self.get(key)
        if kept is not None:
            return kept
        building = self._building.get(key)
        if building is None:
            building = self._building[key] = asyncio.ensure_future(self._build(key, build))
        return await asyncio.shield(building)

    async def _build(self, key: Hashable, build: Callable[[], Awaitable[bytes]]) -> bytes:
        try:
            body = await build()
            self.put(key, body)
            return body
        finally:
            del self._building[key]

    def get(self, key: Hashable) -> bytes | None:
        found = self._files.get(key)
        if found is not None:
            self._files.move_to_end(key)
        return found

    def put(self, key: Hashable, body: bytes) -> None:
        if len(body) > self.limit or key in self._files:
            return
        self._files[key] = body
        self.size += len(body)
        while self.size > self.limit:
            _, dropped = self._files.popitem(last=False)
            self.size -= len(dropped)


# --------------------------------------------------------------------------------------------- the records worker

_pool: Executor | None = None


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


RECORDS = FairWorkers(_executor, workers=1)
"""The records worker: whole logs (exports, an undo's whole-game plan), one at a time."""


async def run(game: Game, function: Callable[..., T], *args: Any, lane: Lane = Lane.ON_DEMAND,
              member: Hashable | None = None, key: Hashable | None = None, busy: str = "") -> T:
    """`function(*args)`, work for `game`, in the records worker when its turn comes (see `FairWorkers.run`; a
    module-level function, its arguments and result pickled). A game registered at runtime (the tests' Nim, a
    plug-in) is unknown to a freshly spawned worker, so its work runs in a thread instead, in the same turn."""
    in_thread = not is_found(game.key)
    return await RECORDS.run(function, *args, lane=lane, member=member, key=key, busy=busy, in_thread=in_thread)


def use_executor(executor: Executor | None) -> Executor | None:
    """Replace the worker (tests may run inline or in a thread; None goes back to a process); returns the one it
    replaced, to be put back."""
    global _pool
    replaced, _pool = _pool, executor
    return replaced


def close() -> None:
    """Stop the worker (when the bot stops; it starts again on next use)."""
    global _pool
    if isinstance(_pool, ProcessPoolExecutor):
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None
