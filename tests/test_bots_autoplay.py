"""Live-table thinking: a bot's move comes from a worker with its own view only, and bot runs read as lines."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.core.bots import Budget
from bot.core.registry import find_game
from bot.core.rng import Rng
from bot.core.seats import bot_name, bot_user_id
from bot.features import autoplay


async def test_a_bot_thinks_in_a_worker_process_and_returns_a_legal_move() -> None:
    game = find_game("monster-expedition")
    state = game.setup("standard", ["Alice", "Bot 2"], Rng(4, 0), {})
    with ProcessPoolExecutor(max_workers=1) as pool:
        autoplay.use_executor(pool)
        try:
            decision = await autoplay.think(game, state, 0, bot_user_id("hard", 1), seed=9,
                                            budget=Budget(seconds=5.0, iterations=10))
            hint = await autoplay.hint(game, state, 0, seed=9)
        finally:
            autoplay.use_executor(None)
    assert decision.action in game.legal_actions(state, 0)
    assert hint.startswith("Hunt from your") and hint.endswith(".")


async def test_a_person_has_no_bot_level() -> None:
    game = find_game("the-expedition")
    state = game.setup("standard", ["Alice", "Bob"], Rng(1, 0), {})
    with pytest.raises(ValueError, match="not a computer player"):
        await autoplay.think(game, state, 0, 123456789, seed=1)


def test_consecutive_moves_of_one_bot_share_a_line() -> None:
    run = autoplay.BotRun()
    assert not run
    two, three = bot_name("hard", 2), bot_name("easy", 3)
    run.add(two, ["Bot 2 banks two 6s."])
    run.add(two, ["Bot 2 captures Waldtroll."])
    run.add(three, [])
    assert run
    assert run.text() == ("🤖 Bot 2 (hard): Bot 2 banks two 6s. Bot 2 captures Waldtroll.\n"
                          "🤖 Bot 3 (easy): moved.")


def test_the_thinking_pool_spawns_its_workers_and_stops_with_the_bot() -> None:
    autoplay.use_executor(None)
    pool = autoplay._executor()
    assert isinstance(pool, ProcessPoolExecutor)
    assert pool._mp_context.get_start_method() == "spawn"  # never forked from a process running threads
    autoplay.close()
    assert autoplay._pool is None
    autoplay.close()  # twice is harmless
