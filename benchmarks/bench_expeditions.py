"""Expeditions benchmark and balance report: ms per apply/view/render, then simulated games for 1-5 players.

Usage: python benchmarks/bench_expeditions.py [--games N] [--policy random|greedy|planner|all] [--skip-sim]
Reports, per player count and policy: how many games ended (and at which turn cap the rest stopped), turns per
player, the winning score and the spread between first and last, and how often each glory category got a star.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions import queries as q
from bot.games.expeditions.policies import play_game
from rendering.expeditions import render


def bench_speed(samples: int = 400) -> None:
    """Time apply, view and render over the positions of one random 3-player game."""
    rnd = random.Random(1)
    state = GAME.setup("standard", ["A", "B", "C"], Rng(1, 0), {})
    apply_ms: list[float] = []
    view_ms: list[float] = []
    legal_ms: list[float] = []
    step = 0
    while not state["over"] and step < samples:
        seat = GAME.to_act(state)[0]
        start = time.perf_counter()
        legal = GAME.legal_actions(state, seat)
        legal_ms.append((time.perf_counter() - start) * 1000)
        step += 1
        start = time.perf_counter()
        state = GAME.apply(state, seat, rnd.choice(legal), Rng(1, step)).state
        apply_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        GAME.view(state, None)
        view_ms.append((time.perf_counter() - start) * 1000)
    render_ms = []
    size = 0
    for _ in range(5):
        start = time.perf_counter()
        png = render(GAME.view(state, None))
        render_ms.append((time.perf_counter() - start) * 1000)
        size = len(png)
    print(f"legal_actions {statistics.mean(legal_ms):.2f} ms · apply {statistics.mean(apply_ms):.2f} ms · "
          f"view {statistics.mean(view_ms):.2f} ms · render {statistics.mean(render_ms):.0f} ms "
          f"({size // 1024} KB, 3 players)")


def simulate(players: int, games: int, policy: str, cap: int) -> None:
    ended = 0
    turns: list[float] = []
    winners: list[int] = []
    spreads: list[int] = []
    stars: Counter[str] = Counter()
    capped: list[int] = []
    for seed in range(games):
        state, _ = play_game(GAME, players, 1000 + seed, policy, max_steps=cap)
        if not state["over"]:
            capped.append(state["turns_taken"])
            continue
        ended += 1
        turns.append(state["turns_taken"] / players)
        scores = [q.score(GAME.comp, p) for p in state["players"]]
        winners.append(max(scores))
        spreads.append(max(scores) - min(scores))
        for key, seats in state["glory"].items():
            stars[key] += len(seats)
    line = f"{policy:7} {players}p: {ended}/{games} ended"
    if capped:
        line += f" (cap {cap} actions hit at {statistics.mean(capped):.0f} turns)"
    if turns:
        line += (f" · turns/player {statistics.mean(turns):.1f} (min {min(turns):.0f}, max {max(turns):.0f})"
                 f" · winner ${statistics.mean(winners):.0f} · spread ${statistics.mean(spreads):.0f}")
        total = sum(stars.values()) or 1
        line += " · stars: " + ", ".join(f"{k} {100 * v // total}%" for k, v in stars.most_common())
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--policy", default="planner", choices=("random", "greedy", "planner", "all"))
    parser.add_argument("--cap", type=int, default=6000, help="actions per game before giving up")
    parser.add_argument("--skip-sim", action="store_true")
    args = parser.parse_args()
    bench_speed()
    if args.skip_sim:
        return
    policies = ("random", "greedy", "planner") if args.policy == "all" else (args.policy,)
    for policy in policies:
        for players in range(1, 6):
            simulate(players, args.games, policy, args.cap)


if __name__ == "__main__":
    main()
