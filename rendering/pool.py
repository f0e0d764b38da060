"""Rendering off the event loop: a process pool with bounded concurrency, warmed up once per worker.

A board is pure CPU work in Pillow and Python; in a thread it takes the interpreter lock from the event loop (up
to 280 ms of loop lag with 50 busy channels), so boards are drawn in worker processes. Workers are *spawned*, not
forked: the bot process runs aiosqlite and discord.py threads, and forking a process with running threads can
copy a held lock into the child. A renderer registered at runtime (the tests' fake game, a plug-in) is unknown to
a freshly spawned child, so those render in a thread instead.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import rendering
from rendering import bands, fonts, glyphs, lifeline, memory, vocabulary

View = dict[str, Any]
log = logging.getLogger(__name__)
T = TypeVar("T")

Renderer = Callable[[str, View], bytes]
ViewMaker = Callable[..., View]
"""Makes a board's view from what is picklable to send (a module-level function: a worker imports it by name)."""


WORKER_NICENESS = 10
"""How much lower than the bot's a worker's CPU priority is (Unix niceness). When the event loop and a board want
the same core, the loop goes first: with workers at the bot's priority, 50 playing channels lagged the loop 1-4x a
bare process's lag at the same moment on a busy 2-core machine; niced, no more than the bare process's (issue 25,
benchmarks/bench_loop_lag.py). An idle core still draws boards at full speed."""


def worker_start(data_root: str | None = None, prepare: Callable[[], None] | None = None,
                 drawings: dict[str, str] | None = None) -> None:
    """A worker's start: import every game's drawing module (`drawings`, as the bot's process found them) and
    draw the pieces it offers to draw ahead (`warm_up`), load the fonts and rasterise the words boards write (with
    every card, monster and location name from the games' data folder `data_root`), so no board pays for them, and
    set them aside from the garbage collector (a full collection of a warm worker's ~40,000 objects took 16 ms,
    paid by whichever board it fell on).
    First the worker ties its life to the bot's: a killed bot leaves no worker behind (rendering/lifeline.py); and
    it steps back in priority, so the event loop never waits for a board to get a core."""
    lifeline.watch_parent()
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    for game_key, module_name in (drawings or {}).items():  # the bot's games are drawn here too
        rendering.use_drawing(game_key, module_name)
    if prepare is not None:  # what the pool's owner has the workers load too (the games that make views here)
        prepare()
    for game_key in rendering.drawn_games():
        renderer = rendering.drawing(game_key)
        if hasattr(renderer, "warm_up"):  # (pieces every match may draw, such as reachable outlines)
            renderer.warm_up()
    memory.warm_up()
    fonts.latin_characters()  # which characters the Latin font draws (a fallback font is read when a name needs it)
    fonts.fallback_paths()  # where the fallback fonts are installed
    vocabulary.warm_up(Path(data_root) if data_root else None)
    gc.collect()
    gc.freeze()  # the fonts and the warmed words stay: the collector need not look at them again
    gc.disable()  # (collected between boards instead: see `upkeep`)


TRIM_EVERY = 16
"""A worker's upkeep (`upkeep`) comes after this many boards."""
FULL_COLLECTION_EVERY = 16
"""Every so many upkeeps (256 boards) the collection looks at everything the worker made since its start, not only
the young objects."""
_drawn = 0


def upkeep(boards: int) -> None:
    """What a render worker does between boards, every `TRIM_EVERY` (its `boards`-th board just drawn): collect the
    garbage cycles of the boards since the last time, and hand freed memory back to the system (see
    memory.release_freed_memory).

    A worker's automatic garbage collection is off (`worker_start`): what a board drops is freed by reference counting,
    and the collector, run by the interpreter every few hundred new objects, spent ~0.4 ms a board (collections of
    the young objects of up to 2.6 ms falling inside boards) looking for cycles that boards hardly make. Here a
    collection of the young objects costs ~0.5 ms every 16 boards and a full one ~5 ms every 256: ~0.05 ms a
    board, between boards (issue 25)."""
    full = boards % (TRIM_EVERY * FULL_COLLECTION_EVERY) == 0
    gc.collect(2 if full else 1)
    memory.release_freed_memory()


def _draw(game_key: str, view: View, detail: bool, footer: str | None) -> bytes:
    """One board, in whichever process runs it."""
    global _drawn
    image = rendering.render_detail(game_key, view) if detail else rendering.render_board(game_key, view)
    _drawn += 1
    if _drawn % TRIM_EVERY == 0:
        upkeep(_drawn)
    return bands.add_footer(image, footer) if footer else image


def _draw_custom(game_key: str, custom: Renderer, view: View, footer: str | None) -> bytes:
    """One board of an injected renderer (the tests' fake one), with its footer: given the view as a game's
    renderer is (`rendering.render_board`), its strings as drawn."""
    image = custom(game_key, glyphs.drawable_view(view))
    return bands.add_footer(image, footer) if footer else image


def _draw_made(game_key: str, make: ViewMaker, arguments: tuple[Any, ...], footer: str | None,
               custom: Renderer | None = None) -> tuple[bytes, str]:
    """One board whose view `make(*arguments)` makes here, with the board in words (its alt text; "" when the
    renderer cannot say it, and the caller words it otherwise)."""
    view = make(*arguments)
    image = _draw(game_key, view, False, footer) if custom is None else _draw_custom(game_key, custom, view, footer)
    try:
        described = rendering.alt_text(game_key, view)
    except Exception:  # a missing description must never cost the board
        log.exception("Describing the %s board failed", game_key)
        described = ""
    return image, described


def _read_made(game_key: str, make: ViewMaker, arguments: tuple[Any, ...],
               detail: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    """The glossary entries the public board (or the detail board) of `make(*arguments)` needs, with the texts
    each explains."""
    from rendering.glossary.reading import read_board

    return read_board(game_key, make(*arguments), detail)


def _label_made(game_key: str, make: ViewMaker, arguments: tuple[Any, ...]) -> bytes:
    """The labelled picture of /game rules: the board of `make(*arguments)` with its parts numbered and named."""
    from rendering.glossary.picture import labelled

    view = make(*arguments)
    return labelled(game_key, view, str(view.get("language") or "en"))


def _draw_leaderboard(view: View) -> bytes:
    from rendering import leaderboard

    return leaderboard.render(glyphs.drawable_view(view))  # (a character no font has left out, as on the boards)


def _shipped(game_key: str) -> bool:
    """Whether a spawned worker draws `game_key` too: a game package's drawing, found in every process alike."""
    return rendering.has_drawing(game_key)


def _ready() -> int:
    return os.getpid()


class RenderPool:
    """Renders boards in `workers` spawned processes, at most `limit` boards in flight at once.

    `renderer` replaces the game renderers (tests inject a fake one); it and runtime-registered games run in a
    thread, since a spawned worker cannot import them."""

    def __init__(self, workers: int | None = None, *, limit: int | None = None,
                 renderer: Renderer | None = None, data_root: str | os.PathLike[str] | None = None,
                 prepare: Callable[[], None] | None = None) -> None:
        # One core stays free for the event loop: a worker on every core would starve it as surely as a thread.
        self.workers = workers or max(1, min(4, (os.cpu_count() or 2) - 1))
        self._limit = limit or 2 * self.workers
        self._renderer = renderer
        self._data_root = str(data_root) if data_root is not None else None  # the workers warm its names
        self._prepare = prepare  # (a module-level function every worker runs at its start: see `worker_start`)
        self._executor: ProcessPoolExecutor | None = None
        # One bound per event loop (a semaphore belongs to the loop it first waits on; tests run many loops).
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary())
        self._lock = threading.Lock()

    _shared: ClassVar[RenderPool | None] = None

    @classmethod
    def shared(cls, data_root: str | os.PathLike[str] | None = None,
               prepare: Callable[[], None] | None = None) -> RenderPool:
        """The process's one pool of game renderers: every service in the process shares its workers (the first
        call's `data_root` is the games' data folder they warm the names of, its `prepare` what else they load at
        their start)."""
        if cls._shared is None:
            cls._shared = cls(data_root=data_root, prepare=prepare)
        return cls._shared

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=worker_start,
                                                     initargs=(self._data_root, self._prepare,
                                                               dict(zip(rendering.drawn_games(),
                                                                        rendering.drawing_modules(), strict=True))))
            return self._executor

    async def start(self) -> None:
        """Spawn and warm every worker now (at bot start) rather than on the first board."""
        loop = asyncio.get_running_loop()
        pool = self._pool()
        await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(self.workers)))

    def _bound(self, loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
        """At most `limit` images in flight in this event loop."""
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            semaphore = self._semaphores[loop] = asyncio.Semaphore(self._limit)
        return semaphore

    @property
    def limit(self) -> int:
        """How many images may be in flight at once (the places a queue in front of the pool hands out)."""
        return self._limit

    async def render(self, game_key: str, view: View, *, detail: bool = False, footer: str | None = None) -> bytes:
        """The PNG of `view`'s public board (or its detail board), with an optional footer line."""
        if self._renderer is not None:
            return await self._made(_draw_custom, game_key, self._renderer, view, footer)
        return await self._made(_draw, game_key, view, detail, footer)

    async def render_made(self, game_key: str, make: ViewMaker, *arguments: Any,
                          footer: str | None = None) -> tuple[bytes, str]:
        """The PNG of the public board whose view `make(*arguments)` makes, and that board in words (its alt text,
        "" if the renderer cannot say it), both made where the board is drawn: the event loop pays only for sending
        `arguments` (a game's view took ~0.6-1 ms of the loop's ~2.5 ms a move; issue 25's loop lag)."""
        if self._renderer is not None:
            return await self._made(_draw_made, game_key, make, arguments, footer, self._renderer)
        return await self._made(_draw_made, game_key, make, arguments, footer)

    async def read_board(self, game_key: str, make: ViewMaker, *arguments: Any,
                         detail: bool = False) -> list[tuple[str, tuple[str, ...]]]:
        """What the glossary says of the public board (or the detail board) whose view `make(*arguments)` makes
        (rendering/glossary): each entry the board needs (its message id) with the texts it explains, the board
        drawn where boards are."""
        return await self._made(_read_made, game_key, make, arguments, detail)

    async def labelled(self, game_key: str, make: ViewMaker, *arguments: Any) -> bytes:
        """The labelled picture of the board whose view `make(*arguments)` makes (rendering/glossary/picture.py),
        drawn where boards are."""
        return await self._made(_label_made, game_key, make, arguments)

    async def _made(self, function: Callable[..., T], game_key: str, *arguments: Any) -> T:
        """`function(game_key, *arguments)` within the pool's bound: in a thread for a renderer the tests inject or
        a game registered at runtime (a spawned worker cannot import them), else in a worker."""
        async with self._bound(asyncio.get_running_loop()):
            if self._renderer is not None or rendering.is_registered(game_key):
                return await asyncio.to_thread(function, game_key, *arguments)
            return await self._in_worker(function, game_key, *arguments)

    async def made(self, game_key: str, make: Callable[..., T], *arguments: Any) -> T:
        """`make(*arguments)` where boards are drawn, for work a board needs beside its image that is too heavy for
        the event loop (a game's offers: bot/games/offered.py). A game a spawned worker cannot import (one
        registered at runtime) or a pool with an injected renderer makes it in a thread instead."""
        loop = asyncio.get_running_loop()
        async with self._bound(loop):
            if self._renderer is not None or rendering.is_registered(game_key) or not _shipped(game_key):
                return await asyncio.to_thread(make, *arguments)
            return await self._in_worker(make, *arguments)

    async def _in_worker(self, function: Callable[..., T], *arguments: Any) -> T:
        """`function(*arguments)` in a worker; if a worker died (killed, out of memory), in fresh workers, once more."""
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            return await loop.run_in_executor(pool, function, *arguments)
        except BrokenProcessPool:
            with self._lock:
                if self._executor is pool:
                    self._executor = None
            pool.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._pool(), function, *arguments)

    async def render_leaderboard(self, view: View) -> bytes:
        """The /leaderboard image (rendering/leaderboard.py), drawn in a worker like a board."""
        async with self._bound(asyncio.get_running_loop()):
            return await self._in_worker(_draw_leaderboard, view)

    def close(self, *, wait: bool = True) -> None:
        """Stop the workers (idempotent; they start again on the next board)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)
