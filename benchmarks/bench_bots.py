"""How long a computer player thinks: the time per move of each level over positions of real games, per game.

    python benchmarks/bench_bots.py [--positions N] [--seconds S]

Positions come from 2-player games between normal bots. Each is decided by an easy bot (the floor: building the
bot's view, one determinisation and the legal moves), a normal bot and a hard bot with the live budget, and the
script prints the mean, p95 and max per level, the hard p95 against the 2 s limit, and each level's ratio to the
floor measured in the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.games  # noqa: F401  (registers the games)
from bot.core.bots import Budget, bot_view, choose
from bot.core.protocol import JSON, Game
from bot.core.registry import all_packages, find_game
from bot.core.rng import Rng

LIMIT = 2.0
GAMES = tuple(package.key for package in all_packages())  # every game the registry finds


def positions(game: Game, count: int, seed: int = 1) -> list[tuple[JSON, int]]:
    """Positions spread over whole games between normal bots (every third move, so early and late both count)."""
    found: list[tuple[JSON, int]] = []
    while len(found) < count:
        state = game.setup(game.modes[0].key, ["A", "B"], Rng(seed, 0), {})
        step = 0
        while game.to_act(state) and len(found) < count:
            seat = game.to_act(state)[0]
            step += 1
            if step % 3 == 0 and len(game.legal_actions(state, seat)) > 1:
                found.append((state, seat))
            action = choose(game, bot_view(game, state, seat), seat, "normal", random.Random(step))
            state = game.apply(state, seat, action, Rng(seed, step)).state
        seed += 1
    return found


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0, help="the hard bot's budget (the live default: 1.0)")
    args = parser.parse_args()
    budget = Budget(seconds=args.seconds)
    for key in GAMES:
        game = find_game(key)
        times: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
        for number, (state, seat) in enumerate(positions(game, args.positions)):
            for level in times:
                started = time.perf_counter()
                choose(game, bot_view(game, state, seat), seat, level, random.Random(number), budget)
                times[level].append(time.perf_counter() - started)
        floor = sum(times["easy"]) / len(times["easy"])
        print(f"{game.title}: {len(times['hard'])} positions, hard budget {args.seconds} s")
        for level, values in times.items():
            mean = sum(values) / len(values)
            print(f"  {level:>6}: mean {mean * 1000:8.1f} ms, p95 {_p95(values) * 1000:8.1f} ms, "
                  f"max {max(values) * 1000:8.1f} ms, {mean / floor:8.1f}x the floor")
        p95 = _p95(times["hard"])
        print(f"  hard p95 {p95:.2f} s = {p95 / LIMIT:.2f} of the {LIMIT:.0f} s limit "
              f"({'within' if p95 <= LIMIT else 'OVER'})")


if __name__ == "__main__":
    main()
