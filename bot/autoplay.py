"""Computer players at a live table: thinking in a process pool (never on the event loop) and reporting runs of
bot turns in words.

The service calls `think` for a bot seat with that seat's view only (see `bot.core.bots.bot_view`); a worker
process decides and hands back the action with its reason. Consecutive bot turns are gathered into one sentence per
bot, so the next board message can say what happened before it pings the next person.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.core.bots import Budget, Decision, bot_view, decide, explain
from bot.core.protocol import JSON, Game
from bot.core.registry import find_game
from bot.core.seats import bot_level

LIVE_BUDGET = Budget(seconds=1.0, iterations=4000)
"""A hard bot's thinking time per move at a live table (p95 well under 2 s: see benchmarks/bench_bots.py)."""
WORKERS = 1  # one core thinks; the other keeps the event loop, rendering and the database responsive

_pool: Executor | None = None


def _executor() -> Executor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=WORKERS)
    return _pool


def use_executor(executor: Executor | None) -> None:
    """Replace the thinking pool (tests use a thread pool or run inline); None goes back to a process pool."""
    global _pool
    _pool = executor


def _decide(game_key: str, view: JSON, seat: int, level: str, seed: int, budget: Budget) -> Decision:
    import bot.games  # noqa: F401  (a fresh worker process registers the games)

    return decide(find_game(game_key), view, seat, level, random.Random(seed), budget)


def _hint(game_key: str, view: JSON, seat: int, seed: int) -> str:
    import bot.games  # noqa: F401

    return explain(find_game(game_key), view, seat, random.Random(seed))


async def think(game: Game, state: JSON, seat: int, user_id: int, seed: int,
                budget: Budget = LIVE_BUDGET) -> Decision:
    """The move of the bot in `seat` (its level is in its user id), decided in the pool from its own view."""
    level = bot_level(user_id)
    if level is None:
        raise ValueError(f"seat {seat} is not a computer player")
    view = bot_view(game, state, seat)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor(), _decide, game.key, view, seat, level, seed, budget)


async def hint(game: Game, state: JSON, seat: int, seed: int) -> str:
    """What the normal bot would do in `seat` and why, in a sentence (for `/game hint`; shown privately)."""
    view = bot_view(game, state, seat)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor(), _hint, game.key, view, seat, seed)


@dataclass
class BotRun:
    """What the bots did since the last person moved: their public sentences, in order, per bot."""

    lines: list[tuple[str, list[str]]] = field(default_factory=list)

    def add(self, name: str, sentences: list[str]) -> None:
        """Record one bot move's public sentences (a bot that moves twice in a row gets one line)."""
        if self.lines and self.lines[-1][0] == name:
            self.lines[-1][1].extend(sentences)
        else:
            self.lines.append((name, list(sentences)))

    def text(self) -> str:
        """The run as one line per bot ("🤖 Bot 2 (hard): banked two 6s. Captured Waldtroll.")."""
        return "\n".join(f"{name}: {' '.join(s for s in sentences if s) or 'moved.'}" for name, sentences in self.lines)

    def __bool__(self) -> bool:
        return bool(self.lines)
