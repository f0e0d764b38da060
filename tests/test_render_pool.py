"""The render pool: real boards come back from spawned workers byte for byte, runtime-registered games render in a
thread, the footer and detail options, and the concurrency bound."""

from __future__ import annotations

import asyncio
import io
import threading
import time

from PIL import Image

import bot.games  # noqa: F401  (registers every game)
from bot.core import Rng, find_game
from rendering import render_board
from rendering.pool import RenderPool
from tests.conftest import NIM


async def test_a_spawned_worker_draws_the_same_board_and_its_detail() -> None:
    game = find_game("expeditions")
    view = game.view(game.setup("standard", ["Ada", "Bo"], Rng(3, 0), {}), None)
    pool = RenderPool(workers=1)
    try:
        await pool.start()
        png = await pool.render(game.key, view)
        detail = await pool.render(game.key, view, detail=True, footer="Played with the chosen seed 3.")
    finally:
        pool.close()
    assert png == render_board(game.key, view)
    image = Image.open(io.BytesIO(detail))
    assert image.width == 1280 and image.height > 1000


async def test_a_runtime_registered_renderer_draws_in_a_thread_with_its_footer() -> None:
    pool = RenderPool(workers=1)
    plain = await pool.render(NIM.key, {"title": "Nim"})
    footed = await pool.render(NIM.key, {"title": "Nim"}, footer="Played with the chosen seed 5.")
    assert pool._executor is None  # no worker process was needed
    assert Image.open(io.BytesIO(plain)).size == (64, 32)
    assert Image.open(io.BytesIO(footed)).size == (64, 32 + 56)
    pool.close()


async def test_no_more_boards_in_flight_than_the_limit() -> None:
    running = 0
    most = 0
    guard = threading.Lock()

    def slow(game_key: str, view: dict) -> bytes:
        nonlocal running, most
        with guard:
            running += 1
            most = max(most, running)
        time.sleep(0.02)
        with guard:
            running -= 1
        return b"png"

    pool = RenderPool(workers=1, limit=2, renderer=slow)
    results = await asyncio.gather(*(pool.render("any", {}) for _ in range(8)))
    assert results == [b"png"] * 8 and most == 2


async def test_a_killed_worker_is_replaced_and_the_board_still_comes() -> None:
    game = find_game("the-expedition")
    view = game.view(game.setup("standard", ["Ada", "Bo"], Rng(4, 0), {}), None)
    pool = RenderPool(workers=1)
    try:
        await pool.render(game.key, view)
        executor = pool._executor
        assert executor is not None
        for process in list(executor._processes.values()):  # the worker dies (the OOM killer, say)
            process.kill()
            process.join()
        assert await pool.render(game.key, view) == render_board(game.key, view)
    finally:
        pool.close()


def test_services_share_one_pool_of_workers() -> None:
    assert RenderPool.shared() is RenderPool.shared()
