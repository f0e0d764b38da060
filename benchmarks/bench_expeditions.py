"""Expeditions benchmark and balance report: ms per apply/view/render, then simulated games for 1-5 players.

Usage: python benchmarks/bench_expeditions.py [--games N] [--policy random|greedy|planner|all] [--jobs N]
    [--players 1 2 ...] [--skip-sim] [--skip-speed]
Reports, per player count and policy: how many games ended (and at which turn cap the rest stopped), turns per
player, the winning score and the spread between first and last, how often each glory category got a star (all
stars, and the winners' stars), and how many quests each player solved.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.drawing import render
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.policies import play_game

CATEGORIES = [g.key for g in GAME.comp.glory]


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


def play_one(args: tuple[int, int, str, int]) -> dict[str, Any]:
    """One simulated game, summarised (picklable, so games can run in worker processes)."""
    players, seed, policy, cap = args
    state, _ = play_game(GAME, players, seed, policy, max_steps=cap)
    scores = [q.score(GAME.comp, p) for p in state["players"]]
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    return {
        "over": state["over"], "turns": state["turns_taken"] / players, "scores": scores,
        "stars": {key: len(seats) for key, seats in state["glory"].items()},
        "winner_stars": [key for key, seats in state["glory"].items() for i in winners if i in seats],
        "quests_solved": [len(p["quests"]) for p in state["players"]],
    }


def simulate(players: int, games: int, policy: str, cap: int, jobs: int = 1, first_seed: int = 1000) -> None:
    tasks = [(players, first_seed + seed, policy, cap) for seed in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(play_one, tasks)
    else:
        results = [play_one(task) for task in tasks]
    done = [r for r in results if r["over"]]
    capped = [r["turns"] * players for r in results if not r["over"]]
    stars: Counter[str] = Counter()
    winner_stars: Counter[str] = Counter()
    for r in done:
        stars.update(r["stars"])
        winner_stars.update(r["winner_stars"])
    line = f"{policy:7} {players}p: {len(done)}/{games} ended"
    if capped:
        line += f" (cap {cap} actions hit at {statistics.mean(capped):.0f} turns)"
    if done:
        turns = [r["turns"] for r in done]
        winners = [max(r["scores"]) for r in done]
        line += (f" · turns/player {statistics.mean(turns):.1f} (min {min(turns):.0f}, max {max(turns):.0f})"
                 f" · winner ${statistics.mean(winners):.0f} (${min(winners)}-${max(winners)})")
        if players > 1:
            spreads = [max(r["scores"]) - min(r["scores"]) for r in done]
            line += f" · spread ${statistics.mean(spreads):.0f}"
        total = sum(stars.values()) or 1
        line += "\n    stars: " + ", ".join(f"{k} {100 * stars[k] / total:.0f}%" for k in CATEGORIES)
        total = sum(winner_stars.values()) or 1
        line += "\n    winners' stars: " + ", ".join(f"{k} {100 * winner_stars[k] / total:.0f}%"
                                                      for k in CATEGORIES)
        solved = Counter(min(n, 4) for r in done for n in r["quests_solved"])
        line += "\n    quests solved per player: " + ", ".join(f"{n}: {solved[n]}" for n in range(5))
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--policy", default="planner", choices=("random", "greedy", "planner", "all"))
    parser.add_argument("--cap", type=int, default=6000, help="actions per game before giving up")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the simulated games")
    parser.add_argument("--players", type=int, nargs="*", default=[1, 2, 3, 4, 5])
    parser.add_argument("--skip-sim", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    if not args.skip_speed:
        bench_speed()
    if args.skip_sim:
        return
    policies = ("random", "greedy", "planner") if args.policy == "all" else (args.policy,)
    for policy in policies:
        for players in args.players:
            simulate(players, args.games, policy, args.cap, args.jobs)


if __name__ == "__main__":
    main()
