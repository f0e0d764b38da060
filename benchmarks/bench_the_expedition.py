"""The Expedition figures: ms per apply, view and render, and (with --balance) simulated games for every mode.

    python benchmarks/bench_the_expedition.py [--samples N] [--balance] [--games N] [--cap N]

The balance run plays random and greedy (one-step lookahead) players in every mode and prints how games end, how
long they last, how often the solo player beats the Automations, and each expedition card's completion rate (the
share of the games in which it was dealt; in Abstract Mode, of all games). Games that reach the action cap (players
who keep stepping back and forth; the rulebook has no turn limit) are counted and left out of the figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.rng import Rng
from bot.games.the_expedition import GAME
from bot.games.the_expedition.drawing import render
from bot.games.the_expedition.rules.policies import greedy_action, random_action

CATALOG = GAME.catalog
MODES = [("standard", 2), ("standard", 3), ("abstract", 2), ("abstract", 3), ("solo", 1), ("solo-hard", 1)]
POLICIES = {"random": random_action, "greedy": greedy_action}


def _timed(samples: list[Any], work: Any) -> float:
    start = time.perf_counter()
    for sample in samples:
        work(sample)
    return (time.perf_counter() - start) * 1000 / max(1, len(samples))


def bench_speed(samples: int) -> None:
    """Time apply, view and render over the positions of random 3-player and solo games."""
    positions: list[tuple[dict[str, Any], int, dict[str, Any]]] = []
    seed = 0
    while len(positions) < samples:
        for mode, players in (("standard", 3), ("solo", 1)):
            state = GAME.setup(mode, ["Ann", "Ben", "Cy"][:players], Rng(seed, 0), {})
            chooser = random.Random(seed)
            while GAME.to_act(state) and len(positions) < samples:
                (seat,) = GAME.to_act(state)
                action = random_action(state, CATALOG, seat, chooser)
                positions.append((state, seat, action))
                state = GAME.apply(state, seat, action, Rng(seed, 1)).state
        seed += 1
    apply_ms = _timed(positions, lambda p: GAME.apply(p[0], p[1], p[2], Rng(0, 1)))
    view_ms = _timed(positions, lambda p: GAME.view(p[0], None))
    legal_ms = _timed(positions, lambda p: GAME.legal_actions(p[0], p[1]))
    views = [GAME.view(p[0], None) for p in positions[:: max(1, len(positions) // 25)]]
    render_ms = _timed(views, render)
    sizes = [len(render(view)) // 1024 for view in views[:8]]
    print(f"over {len(positions)} positions: apply {apply_ms:.3f} ms (Automations included in solo), "
          f"legal_actions {legal_ms:.3f} ms, view {view_ms:.3f} ms; render {render_ms:.0f} ms over {len(views)} "
          f"views, PNG {min(sizes)}-{max(sizes)} KB")


def simulate(mode: str, players: int, policy_name: str, games: int, cap: int) -> None:
    policy = POLICIES[policy_name]
    dealt: Counter[str] = Counter()
    done: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    rounds: list[float] = []
    capped = wins = 0
    for seed in range(games):
        state = GAME.setup(mode, ["Ann", "Ben", "Cy"][:players], Rng(seed, 0), {})
        for player in state["players"]:
            dealt.update(player["hand"])
        chooser = random.Random(seed)
        steps = 0
        while GAME.to_act(state) and steps < cap:
            (seat,) = GAME.to_act(state)
            steps += 1
            state = GAME.apply(state, seat, policy(state, CATALOG, seat, chooser), Rng(seed, steps)).state
        if state["phase"] != "over":
            capped += 1
            continue
        for player in state["players"]:
            done.update(player["scored"])
        end = state["end"]
        reasons[end["reason"] if end else state["result"]["reason"]] += 1
        rounds.append(state["turns"] / len(state["order"]))
        wins += "p0" in state["result"]["winners"]
    finished = games - capped
    print(f"\n{mode} {players}p, {policy_name}: {finished} games ended, {capped} reached the {cap}-action cap; "
          f"rounds mean {statistics.mean(rounds):.1f} (max {max(rounds):.0f}); ended by "
          + ", ".join(f"{reason} {count}" for reason, count in reasons.most_common()))
    if mode.startswith("solo"):
        print(f"  the player beat the Automations in {wins / finished:.0%} of games")
    for card in CATALOG.expeditions:
        base = finished if mode == "abstract" else dealt[card.id]
        rate = done[card.id] / base if base else 0.0
        print(f"  {card.name:16} {card.points} pts  completed {rate:4.0%}  (of {base})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--balance", action="store_true")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--cap", type=int, default=150)
    arguments = parser.parse_args()
    bench_speed(arguments.samples)
    if arguments.balance:
        for policy_name in POLICIES:
            for mode, players in MODES:
                simulate(mode, players, policy_name, arguments.games, arguments.cap)


if __name__ == "__main__":
    main()
