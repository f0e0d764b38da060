"""Platform benchmark: a whole game played through the service on a real SQLite file.

Prints the time per accepted move (load, rules, commit with synchronous=FULL), per board (view + render +
PNG encode, in the worker thread), and the board sizes. Usage:
    python benchmarks/bench_platform.py [game] [players] [seed]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.core import Rng, find_game
from bot.features import install
from bot.service import GameService, Player
from bot.store import Store


def _summary(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"{label:<22} n={len(samples):<5} median {statistics.median(samples):7.2f} ms   "
            f"p95 {p95:7.2f} ms   max {max(samples):7.2f} ms")


async def bench(game_name: str, players: int, seed: int) -> None:
    game = find_game(game_name)
    mode = next(m for m in game.modes if m.min_players <= players <= m.max_players)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = install(GameService(store))
        people = [Player(1000 + i, f"Player {i + 1}") for i in range(players)]
        await service.new_match(1, 1, game.key, people[0], mode=mode.key, seed=seed)
        for person in people[1:]:
            await service.join(1, person)
        match = await service.current(1)
        if match.status == "lobby":
            match = await service.start(1, people[0].user_id)
        chooser = Rng(seed, 999_999)
        moves: list[float] = []
        boards: list[float] = []
        sizes: list[int] = []
        while match.status == "active" and match.state is not None and len(moves) < 2000:
            waiting = game.to_act(match.state)
            if not waiting:
                break
            seat = waiting[0]
            action = chooser.choice(game.legal_actions(match.state, seat))
            started = time.perf_counter()
            accepted = await service.act(1, people[seat].user_id, action)
            moves.append((time.perf_counter() - started) * 1000)
            match = accepted.match
            if len(moves) % 5 == 1 or match.status != "active":
                started = time.perf_counter()
                board = await service.board(match, headline=accepted.headline)
                boards.append((time.perf_counter() - started) * 1000)
                sizes.append(len(board.image or b""))
        await store.close()
    print(f"{game.title}, {mode.title}, {players} player(s), seed {seed}: {len(moves)} moves, ended: "
          f"{match.status}")
    print(_summary("move (act + commit)", moves))
    print(_summary("board (view + PNG)", boards))
    print(f"{'board size':<22} median {statistics.median(sizes) / 1024:7.1f} KB   max {max(sizes) / 1024:7.1f} KB")


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "the-expedition"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    chosen = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    asyncio.run(bench(name, count, chosen))
