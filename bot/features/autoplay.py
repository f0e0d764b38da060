"""Computer players at a live table: thinking in a process pool (never on the event loop) and reporting runs of
bot turns in words.

The service calls `think` for a bot seat with that seat's view only (see `bot.core.bots.bot_view`); a worker
process decides and hands back the action with its reason. Consecutive bot turns are gathered into one sentence per
bot, so the next board message can say what happened before it pings the next person.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.core.bots import Budget, Decision, bot_view, decide, explain
from bot.core.errors import LobbyError, NotYourTurn, StaleBoard
from bot.core.protocol import JSON, Game
from bot.core.registry import find_game
from bot.core.seats import BOT_LEVELS, bot_level, bot_name, bot_user_id, is_bot
from bot.i18n import Localized, Text, deferred, deferred_plural, said, translate
from bot.service import mode_title
from bot.workers import WORKER_NICENESS, FairWorkers, Lane
from rendering.lifeline import watch_parent

if TYPE_CHECKING:
    from bot.service import GameService
    from bot.store import MatchRecord
    from bot.store.records import SeatRecord

log = logging.getLogger(__name__)

LIVE_BUDGET = Budget(seconds=1.0, iterations=4000)
"""A hard bot's thinking time per move at a live table (p95 well under 2 s: see benchmarks/bench_bots.py)."""
WORKERS = 1  # one core thinks; the other keeps the event loop, rendering and the database responsive

_pool: Executor | None = None


def _start_thinker() -> None:
    """A thinking worker's start: it dies with the bot (rendering/lifeline.py: a SIGKILLed bot leaves no worker
    behind) and steps back in CPU priority like the render and records workers, so a bot's thinking never takes a
    core from the event loop (on a busy machine a hard bot then reaches fewer iterations in its second)."""
    watch_parent()
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)


def _executor() -> Executor:
    """The thinking pool, started on first use. Workers are spawned, not forked: the bot process runs database and
    gateway threads, and forking a process with running threads can copy a held lock into the child."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=_start_thinker)
    return _pool


THINKING = FairWorkers(_executor, WORKERS)
"""The queue in front of the thinking pool: the computer players' moves (a table waits on them) before hints (one
member waits on theirs), a member holding at most a small share (issue 32: 100 `/game hint` sent at once made every
computer player of the server wait behind them)."""


def close() -> None:
    """Stop the thinking workers (when the bot stops)."""
    global _pool
    if isinstance(_pool, ProcessPoolExecutor):
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


def use_executor(executor: Executor | None) -> None:
    """Replace the thinking pool (tests use a thread pool or run inline); None goes back to a process pool."""
    global _pool
    _pool = executor


def _decide(game_key: str, view: JSON, seat: int, level: str, seed: int, budget: Budget) -> Decision:
    import bot.games  # noqa: F401  (a fresh worker process registers the games)

    return decide(find_game(game_key), view, seat, level, random.Random(seed), budget)


def _hint(game_key: str, view: JSON, seat: int, seed: int, language: str = "en") -> str:
    import bot.games  # noqa: F401

    return explain(find_game(game_key), view, seat, random.Random(seed), language)


async def think(game: Game, state: JSON, seat: int, user_id: int, seed: int,
                budget: Budget | None = None) -> Decision:
    """The move of the bot in `seat` (its level is in its user id), decided in the pool from its own view."""
    level = bot_level(user_id)
    if level is None:
        raise ValueError(f"seat {seat} is not a computer player")
    view = bot_view(game, state, seat)
    return await THINKING.run(_decide, game.key, view, seat, level, seed, budget or LIVE_BUDGET,
                              lane=Lane.URGENT)


async def hint(game: Game, state: JSON, seat: int, seed: int, language: str = "en", *,
               member: int | None = None, key: Hashable | None = None) -> str:
    """What the normal bot would do in `seat` and why, in a sentence in `language` (for `/game hint`; shown
    privately). Asked for by `member`: after the computer players' moves, at most `PER_MEMBER` at a time, and the
    same hint (`key`) asked for again while it is worked out is shared, not thought twice."""
    view = bot_view(game, state, seat)
    return await THINKING.run(_hint, game.key, view, seat, seed, language, lane=Lane.ON_DEMAND, member=member,
                              key=key, busy=deferred_plural("workers.busy.hint"))


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

    def text(self, language: str = "en") -> str:
        """The run as one line per bot ("🤖 Bot 2 (hard): banked two 6s. Captured Waldtroll."), in the table's
        `language` (the sentences are the games' own, already in it)."""
        moved = translate("community.bot.moved", language)
        return "\n".join(f"{name}: {' '.join(s for s in sentences if s) or moved}" for name, sentences in self.lines)

    def __bool__(self) -> bool:
        return bool(self.lines)


# --------------------------------------------------------------------------------------------- at the table
# The service calls `after_move` once after every committed move (and after the start); the lobby commands call
# `add_bot`, `remove_bot` and `hint`; a table of bots alone is driven round by round by `run_bot_table`.

BOT_ROUND_PAUSE = 3.0  # seconds between the boards of a table of bots alone (a channel is never flooded)
ROUND_MOVES = 400  # a round of a table of bots alone ends here at the latest (a long game's turns are many moves)


def _bot_seats(match: MatchRecord) -> list[int]:
    return [seat.seat for seat in match.seats if is_bot(seat.user_id)]


def all_bots(match: MatchRecord) -> bool:
    """A table of computer players alone (it plays itself, a board per round)."""
    return bool(match.seats) and all(is_bot(seat.user_id) for seat in match.seats)


def bot_to_move(match: MatchRecord) -> SeatRecord | None:
    """The computer player whose move the game waits for, if it waits for one."""
    if match.status != "active" or match.state is None:
        return None
    waiting = find_game(match.game).to_act(match.state)
    record = match.user_at(waiting[0]) if waiting else None
    return record if record is not None and is_bot(record.user_id) else None


def move_seed(match: MatchRecord) -> int:
    return (match.seed * 1_000_003 + match.version) % 2**62


async def play_bot_move(service: GameService, match: MatchRecord) -> MatchRecord:
    """One move of the computer player to move: decided in the pool from its own view, then committed like any
    player's move (so it is logged, replayable and told in the next board)."""
    record = bot_to_move(match)
    assert record is not None and match.state is not None
    game = find_game(match.game)
    decision = await think(game, match.state, record.seat, record.user_id, move_seed(match))
    accepted = await service.commit(match, record.user_id, decision.action, match.version)
    return accepted.match


async def after_move(service: GameService, match: MatchRecord) -> MatchRecord:
    """Play every computer player's turn that follows, until a person is to move or the game ends. A table of
    bots alone is left to `run_bot_table`, which shows a board per round."""
    if all_bots(match):
        return match
    while bot_to_move(match) is not None:
        match = await play_bot_move(service, match)
    return match


async def play_bot_round(service: GameService, match_id: int) -> MatchRecord:
    """A round of a table of bots alone: moves until the seat that began it is to move again (or the game
    ends), under the channel's lock like any move."""
    match = await service.match(match_id)
    async with service.tables.lock(match.channel_id):
        match = await service.match(match_id)
        first = bot_to_move(match)
        others_moved = False
        moves = 0
        while (record := bot_to_move(match)) is not None and moves < ROUND_MOVES:
            if first is not None and record.seat == first.seat and others_moved:
                break
            others_moved = others_moved or (first is not None and record.seat != first.seat)
            match = await play_bot_move(service, match)
            moves += 1
        return match


async def run_bot_table(service: GameService, match_id: int, show: Callable[[int], Awaitable[None]],
                        pause: float | None = None) -> None:
    """Drive a table of bots alone to the end: a round, a board (`show`), a pause, and again. A move refused as
    stale means another process drives this table (two bots started on one database): this one stops quietly."""
    while True:
        try:
            match = await play_bot_round(service, match_id)
        except StaleBoard:
            return
        await show(match_id)
        if bot_to_move(match) is None:
            return
        await asyncio.sleep(BOT_ROUND_PAUSE if pause is None else pause)


async def resume_tables(service: GameService, post: Callable[[int], Awaitable[None]],
                        drive: Callable[[int], None]) -> list[int]:
    """After a restart: every game left waiting for a computer player goes on. A table of bots alone is handed to
    `drive` (its round-by-round loop); elsewhere the bots' turns are played and a new board (`post`) tells them
    and pings the person to move. The moves go through the usual version check, so when two processes resume
    the same game only one applies each move, and only the one that played up to the person posts the board.
    (A board left behind by turns already played is bot/features/outbox.py's `post_boards_left_behind`.)"""
    resumed: list[int] = []
    for match in await service.store.active_matches():
        if bot_to_move(match) is None:
            continue
        if all_bots(match):
            drive(match.id)
            resumed.append(match.id)
            continue
        try:
            async with service.tables.lock(match.channel_id):
                fresh = await service.match(match.id)
                if bot_to_move(fresh) is None:
                    continue
                await after_move(service, fresh)
            await post(match.id)
        except StaleBoard:
            continue  # another process is playing these turns and will post their board
        except Exception:  # one game's failure must not keep the others waiting
            log.exception("Resuming the computer players of match %s failed", match.id)
            continue
        resumed.append(match.id)
    return resumed


TABLE_FULL = deferred_plural("community.bot.refuse.full")


def _not_host(match: MatchRecord, message_id: str) -> LobbyError:
    """A refusal for someone who is not the host, naming the host."""
    host = match.user_at(match.seat_of(match.host_id) or 0)
    return LobbyError(message_id, host=said(host.name) if host is not None else Text.of("community.bot.host_unknown"))


async def add_bot(service: GameService, channel_id: int, user_id: int, level: str) -> MatchRecord:
    """The host seats a computer player of `level` in the lobby ("🤖 Bot 2 (hard)")."""
    if level not in BOT_LEVELS:
        raise LobbyError("community.bot.refuse.level", level=said(level), levels=", ".join(BOT_LEVELS))
    async with service.tables.lock(channel_id):
        match = await service.tables.lobby(channel_id)
        if user_id != match.host_id:
            raise _not_host(match, deferred("community.bot.refuse.add_not_host"))
        game = find_game(match.game)
        mode = game.mode(match.mode)
        if len(match.seats) >= mode.max_players:
            raise LobbyError(TABLE_FULL, game=game.title, mode=mode_title(mode), count=mode.max_players)
        used = {-seat.user_id % 100 for seat in match.seats if is_bot(seat.user_id)}
        number = min(n for n in range(1, 100) if n not in used)
        name = bot_name(level, len(match.seats) + 1, match.language)
        seats = [(s.user_id, s.name) for s in match.seats] + [(bot_user_id(level, number), name)]
        await service.tables.record(match, "joined", user_id=user_id, seat=len(match.seats), seats=seats,
                              text=translate("community.bot.joined", match.language, name=said(name)))
        return await service.tables.reload(match)


async def remove_bot(service: GameService, channel_id: int, user_id: int) -> MatchRecord:
    """The host frees the last computer player's seat in the lobby."""
    async with service.tables.lock(channel_id):
        match = await service.tables.lobby(channel_id)
        if user_id != match.host_id:
            raise _not_host(match, deferred("community.bot.refuse.remove_not_host"))
        bots = [seat for seat in match.seats if is_bot(seat.user_id)]
        if not bots:
            raise LobbyError("community.bot.refuse.none_seated")
        leaving = bots[-1]
        seats = [(s.user_id, s.name) for s in match.seats if s.user_id != leaving.user_id]
        await service.tables.record(match, "left", user_id=user_id, seats=seats,
                                    text=translate("community.bot.left", match.language, name=said(leaving.name)))
        return await service.tables.reload(match)


_NO_HINT = {
    "lobby": deferred("community.hint.refuse.lobby"),
    "finished": deferred("community.hint.refuse.finished"),
    "abandoned": deferred("community.hint.refuse.abandoned"),
}
NO_GAME_HINT = deferred("community.hint.refuse.no_game")


async def hint_for(service: GameService, channel_id: int, user_id: int, language: str = "en") -> str:
    """`/game hint`: the normal bot's move for the asking player and why, for their eyes only (in the reader's
    `language`)."""
    seen = await service.seen(channel_id, user_id)
    if seen.state is None or seen.match.status != "active":  # say what can be done instead
        raise LobbyError(_NO_HINT.get(seen.match.status, NO_GAME_HINT),
                         id=str(seen.match.id))
    if seen.seat is None:
        raise NotYourTurn("community.hint.refuse.not_playing")
    if seen.seat not in seen.game.to_act(seen.state):
        turn = Localized(en=seen.game.turn_text(seen.state, "en"), de=seen.game.turn_text(seen.state, "de"))
        raise NotYourTurn("community.hint.refuse.not_your_turn", turn=turn)
    suggestion = await hint(seen.game, seen.state, seen.seat, move_seed(seen.match), language, member=user_id,
                            key=("hint", seen.match.id, seen.match.version, seen.seat, language))
    return translate("community.hint.text", language, suggestion=suggestion)
