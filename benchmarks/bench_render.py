"""Board rendering benchmark for every game and mode: ms per board and PNG size, mid-game and final.

    python benchmarks/bench_render.py                  # print figures
    python benchmarks/bench_render.py --write DIR      # also save the mid-game boards (README pictures)
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, Game, Rng, all_games
from rendering import render_board

PLAYERS = {"standard": 3, "abstract": 3, "solo": 1, "solo-hard": 1}


def play(game: Game, mode: str, players: int, seed: int, moves: int | None) -> tuple[JSON, int]:
    """The state after `moves` random legal moves (or at the end when moves is None), and the moves made."""
    state = game.setup(mode, [f"Player {i + 1}" for i in range(players)], Rng(seed, 0), {"profiles": [{}] * players})
    chooser = Rng(seed, 10**6)
    step = 0
    while (waiting := game.to_act(state)) and (moves is None or step < moves) and step < 5000:
        step += 1
        action = chooser.choice(game.legal_actions(state, waiting[0]))
        state = game.apply(state, waiting[0], action, Rng(seed, step)).state
    return state, step


def measure(game: Game, state: JSON, repeats: int) -> tuple[float, int]:
    view = game.view(state, None)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        image = render_board(game.key, view)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), len(image)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, default=None, help="folder for the mid-game boards")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for game in all_games():
        for mode in game.modes:
            players = min(max(PLAYERS.get(mode.key, 3), mode.min_players), mode.max_players)
            final, length = play(game, mode.key, players, seed=7, moves=None)
            middle, _ = play(game, mode.key, players, seed=7, moves=length // 2)
            for label, state in (("mid-game", middle), ("final", final)):
                ms, size = measure(game, state, args.repeats)
                print(f"{game.key:<20} {mode.key:<10} {players}p {label:<9} {ms:7.1f} ms  {size / 1024:6.1f} KB")
                if args.write is not None and label == "mid-game" and mode == game.modes[0]:
                    args.write.mkdir(parents=True, exist_ok=True)
                    (args.write / f"{game.key}.png").write_bytes(render_board(game.key, game.view(state, None)))


if __name__ == "__main__":
    main()
