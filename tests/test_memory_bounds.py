"""Bounded memory: a render worker that draws the first boards of hundreds of matches, each with players of its own,
stays the same size once warm (issue 25: a worker used to grow by ~2 MB per match of The Expedition or
Expeditions, until the bot ran out of memory)."""

from __future__ import annotations

import asyncio
import gc
import importlib
import os
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import bot.games  # noqa: F401  (finds every game's drawing)
import rendering
from bot.core import find_game
from bot.core.rng import Rng
from bot.service import GameService, Player
from bot.store import Store
from rendering import KIT_MODULES
from rendering.pool import RenderPool
from tests.fakes import tiny_png

GAMES = (("the-expedition", "standard", 3), ("monster-expedition", "standard", 4), ("expeditions", "standard", 5))
WARM_UP, MEASURED = 100, 500
GROWTH_ALLOWED_MB = 20


def rss_mb(pid: int) -> float:
    """A process's resident memory, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def first_boards(game_key: str, mode: str, players: int, first: int, count: int) -> Iterator[dict[str, Any]]:
    """The public views of the first board of `count` matches, every match with players of its own (new names,
    new words on the boards) and a map or grid of its own (its seed)."""
    game = find_game(game_key)
    for seed in range(first, first + count):
        names = [f"Player {seed}-{seat}" for seat in range(players)]
        yield game.view(game.setup(mode, names, Rng(seed, 0), {"profiles": [{}] * players}), None)


def _worker_pid() -> int:
    return os.getpid()


TEXT_CACHES = ("layout", "_lines", "word_mask", "word_width", "measure")
"""The text caches (rendering/typeset.py) that every new match adds to (its players' names, its lines)."""


def _text_caches_full() -> dict[str, tuple[int, int]]:
    """Each text cache's entries besides the warmed vocabulary, and its bound, in the worker."""
    from rendering import typeset

    out = {}
    for name in TEXT_CACHES:
        info = getattr(typeset, name).cache_info()
        kept = len(getattr(getattr(typeset, name), "kept", ()))
        out[name] = (info.currsize - kept, info.maxsize)
    return out


async def _draw_matches(pool: RenderPool, first: int, count: int) -> None:
    for game_key, mode, players in GAMES:
        for view in first_boards(game_key, mode, players, first, count):
            await pool.render(game_key, view)


@pytest.mark.slow
def test_a_render_worker_stays_the_same_size_over_hundreds_of_matches() -> None:
    async def run() -> tuple[float, list[float], dict[str, tuple[int, int]]]:
        pool = RenderPool(1)
        try:
            await pool.start()
            loop = asyncio.get_running_loop()
            pid = await loop.run_in_executor(pool._pool(), _worker_pid)
            await _draw_matches(pool, 0, WARM_UP)
            warm = rss_mb(pid)
            sizes = []
            for first in range(WARM_UP, WARM_UP + MEASURED, 100):
                await _draw_matches(pool, first, 100)
                sizes.append(rss_mb(pid))
            return warm, sizes, await loop.run_in_executor(pool._pool(), _text_caches_full)
        finally:
            pool.close()

    warm, sizes, caches = asyncio.run(run())
    print(f"render worker RSS after {WARM_UP} matches of each game: {warm:.1f} MB; then every 100: "
          + ", ".join(f"{size:.1f}" for size in sizes) + f"; text caches (entries, bound): {caches}")
    assert max(sizes) - warm <= GROWTH_ALLOWED_MB, (warm, sizes)
    # The matches brought more than the caches hold: flat because the bounds were reached, not by a short run.
    assert all(entries == bound for entries, bound in caches.values()), caches


def test_every_rendering_cache_has_a_bound() -> None:
    """No function cache without a size (functools.cache, lru_cache(maxsize=None)) in the renderers: each key a
    match brings would stay for the life of the worker."""
    unbounded = []
    kit = [importlib.import_module(f"rendering.{name}") for name in (*KIT_MODULES, "glyphs", "leaderboard")]
    for module in (*kit, *_drawing_modules()):
        for attribute, value in vars(module).items():
            info = getattr(value, "cache_info", None)
            if info is not None and info().maxsize is None:
                unbounded.append(f"{module.__name__}.{attribute}")
    assert not unbounded, f"caches without a bound: {unbounded}"



def _drawing_modules() -> Iterator[ModuleType]:
    """Every module of every game's drawing (a drawing package's every submodule too)."""
    for game_key in rendering.drawn_games():
        module = rendering.drawing(game_key)
        yield module
        for found in pkgutil.walk_packages(getattr(module, "__path__", []), f"{module.__name__}."):
            yield importlib.import_module(found.name)


BOT_WARM_UP, BOT_MEASURED = 100, 500


async def _finished_games(service: GameService, first: int, count: int) -> None:
    """`count` two-player games played to the end, each in a channel and with players of its own, the board
    built after every move as the cogs build it."""
    for number in range(first, first + count):
        channel, alice, bob = 10_000 + number, Player(2 * number + 1, f"Alice {number}"), Player(
            2 * number + 2, f"Bob {number}")
        await service.new_match(1, channel, "nim", alice)
        await service.join(channel, bob)
        match = await service.start(channel, alice.user_id)
        while match.status == "active":
            seat = find_game("nim").to_act(match.state)[0]
            accepted = await service.act(channel, match.seats[seat].user_id, {"type": "take", "count": 1})
            match = accepted.match
            await service.board(match)


@pytest.mark.slow
async def test_the_bot_process_stays_the_same_size_over_hundreds_of_finished_games(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "memory.sqlite3")
    try:
        service = GameService(store, renderer=tiny_png)
        await _finished_games(service, 0, BOT_WARM_UP)
        gc.collect()
        warm = rss_mb(os.getpid())
        sizes = []
        for first in range(BOT_WARM_UP, BOT_WARM_UP + BOT_MEASURED, 100):
            await _finished_games(service, first, 100)
            gc.collect()
            sizes.append(rss_mb(os.getpid()))
    finally:
        await store.close()
    print(f"bot process RSS after {BOT_WARM_UP} finished games: {warm:.1f} MB; then every 100: "
          + ", ".join(f"{size:.1f}" for size in sizes))
    assert max(sizes) - warm <= GROWTH_ALLOWED_MB, (warm, sizes)
