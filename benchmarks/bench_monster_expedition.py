"""Monster Expedition figures: ms per apply, view and render, and (with --balance) strategy simulations.

    python benchmarks/bench_monster_expedition.py [--games N] [--balance] [--seeds N]

The balance run plays greedy and cautious hunters over many seeds: game length in rounds, winning score and
spread for 2-4 players, and how often each solo expedition is won (first try, no camp improvements).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.rng import Rng
from bot.games.monster_expedition import GAME
from bot.games.monster_expedition.rules.strategies import choose

ALL_WON = {"won": list(range(1, 11))}


def play(mode: str, players: int, styles: list[str], seed: int, options: dict | None = None,
         timings: dict[str, list[float]] | None = None, cap: int = 5000) -> dict:
    state = GAME.setup(mode, [f"Hunter{i}" for i in range(players)], Rng(seed, 0), options or {})
    chooser = random.Random(seed)
    step = 0
    while not state["over"] and step < cap:
        step += 1
        seat = GAME.to_act(state)[0]
        action = choose(GAME.view(state, seat), styles[seat % len(styles)], chooser)
        started = time.perf_counter()
        state = GAME.apply(state, seat, action, Rng(seed, step)).state
        if timings is not None:
            timings["apply"].append(time.perf_counter() - started)
            started = time.perf_counter()
            GAME.view(state, None)
            timings["view"].append(time.perf_counter() - started)
    return state


BOARDS = (("standard", 2, None), ("standard", 3, None), ("standard", 4, None),
          ("solo", 1, {"expedition": 9, "profiles": [ALL_WON]}), ("solo", 1, {"expedition": 2, "profiles": [ALL_WON]}))


def speed(games: int) -> None:
    """Rules and view timings over 3-player games; then board renders of a mid-game and a final position for
    2, 3 and 4 players and two solo expeditions (the renders a channel sees most)."""
    from bot.games.monster_expedition.drawing import render

    timings: dict[str, list[float]] = {"apply": [], "view": [], "render": []}
    for seed in range(games):
        play("standard", 3, ["greedy", "cautious"], seed, timings=timings)
    sizes: dict[str, list[int]] = {}
    for seed in range(max(1, games // 4)):
        for mode, players, options in BOARDS:
            final = play(mode, players, ["greedy", "cautious"], seed, options)
            middle = play(mode, players, ["greedy", "cautious"], seed, options, cap=60)
            for state in (middle, final):
                view = GAME.view(state, None)
                started = time.perf_counter()
                png = render(view)
                timings["render"].append(time.perf_counter() - started)
                sizes.setdefault(f"{mode} {players}p", []).append(len(png))
    for name, values in timings.items():
        print(f"{name:7s}: {1000 * statistics.mean(values):7.3f} ms mean, {1000 * max(values):7.2f} ms max "
              f"over {len(values)} runs")
    for name, values in sizes.items():
        print(f"board PNG {name:12s}: {statistics.mean(values) / 1024:4.0f} KB mean, {max(values) / 1024:4.0f} KB max")


def balance(seeds: int) -> None:
    for players in (2, 3, 4):
        rounds, tops, spreads, wins = [], [], [], {"greedy": 0.0, "cautious": 0.0}
        styles = ["greedy", "cautious", "greedy", "cautious"][:players]
        for seed in range(seeds):
            state = play("standard", players, styles, seed)
            scores = state["result"]["scores"]
            rounds.append(state["round"])
            tops.append(max(scores))
            spreads.append(max(scores) - min(scores))
            for winner in state["result"]["winners"]:
                wins[styles[winner]] += 1 / len(state["result"]["winners"])
        print(f"{players} players: rounds {statistics.mean(rounds):.1f} (min {min(rounds)}, max {max(rounds)}), "
              f"winning score {statistics.mean(tops):.1f}, spread {statistics.mean(spreads):.1f}, "
              f"wins greedy {wins['greedy']:.0f} / cautious {wins['cautious']:.0f}")
    for expedition in range(1, 11):
        parts = []
        for style in ("greedy", "cautious"):
            won, rounds = 0, []
            for seed in range(seeds):
                state = play("solo", 1, [style], seed, {"expedition": expedition, "profiles": [ALL_WON]})
                won += state["solo"]["outcome"] == "won"
                rounds.append(state["round"])
            parts.append(f"{style} {100 * won / seeds:3.0f}% ({statistics.mean(rounds):.1f} rounds)")
        print(f"expedition {expedition:2d}: " + ", ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--balance", action="store_true")
    parser.add_argument("--seeds", type=int, default=100)
    args = parser.parse_args()
    speed(args.games)
    if args.balance:
        balance(args.seeds)


if __name__ == "__main__":
    main()
