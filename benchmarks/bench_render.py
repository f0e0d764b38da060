"""Board rendering benchmark for every game and mode: each public board against the PNG-encode floor of the same
image (measured side by side in this run), its size and pixel size, mid-game and final.

    python benchmarks/bench_render.py                  # print figures
    python benchmarks/bench_render.py --write DIR      # also save the mid-game boards (README pictures)

"render" is a board of a running match (its tiles, card faces, text widths and glyphs cached), "cold" the first
board with every cache empty, "detail" the full-size board shown privately on demand.

Targets (issue 9): render <= 1.3x the time to PNG-encode the finished image with the same settings; PNG <= 200 KB.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from pathlib import Path

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, Game, Rng, all_games
from rendering import kit, render_board, render_detail

COUNTS = {("the-expedition", "standard"): (2, 3), ("the-expedition", "abstract"): (2, 3),
          ("monster-expedition", "standard"): (2, 3, 4), ("expeditions", "standard"): (1, 3, 5)}


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


def timed(function, repeats: int) -> float:  # type: ignore[no-untyped-def]
    """Median milliseconds of `repeats` calls."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def side_by_side(render, encode, repeats: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Fastest milliseconds of the render and of the encode floor, timed alternately so that the other loads on a
    shared machine hit both alike."""
    renders, encodes = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        render()
        renders.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        encode()
        encodes.append((time.perf_counter() - started) * 1000)
    return min(renders), min(encodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, default=None, help="folder for the mid-game boards")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    kit.warm_up()
    ratios: list[float] = []
    print(f"{'game':<19} {'mode':<9} {'n':>2} {'position':<8} {'size':>9} {'render':>8} {'floor':>7} {'ratio':>6} "
          f"{'KB':>6} {'cold':>7} {'detail':>8}")
    for game in all_games():
        module = importlib.import_module(f"rendering.{game.key.replace('-', '_')}")
        for mode in game.modes:
            for players in COUNTS.get((game.key, mode.key), (mode.min_players,)):
                final, length = play(game, mode.key, players, seed=7, moves=None)
                middle, _ = play(game, mode.key, players, seed=7, moves=length // 2)
                for label, state in (("mid", middle), ("final", final)):
                    view = game.view(state, None)
                    for cache in (module, kit):  # the match's first board, every cache empty
                        for name in dir(cache):
                            if hasattr(getattr(cache, name), "cache_clear"):
                                getattr(cache, name).cache_clear()
                    started = time.perf_counter()
                    render_board(game.key, view)  # fills the per-process and per-match caches
                    cold = (time.perf_counter() - started) * 1000
                    image = module.render_image(view)
                    png = render_board(game.key, view)
                    ms, floor = side_by_side(lambda: render_board(game.key, view),  # noqa: B023
                                             lambda: kit.encode_board(image), args.repeats)  # noqa: B023
                    detail = timed(lambda: render_detail(game.key, view), max(3, args.repeats // 2))  # noqa: B023
                    ratios.append(ms / floor)
                    size = f"{image.width}x{image.height}"
                    print(f"{game.key:<19} {mode.key:<9} {players:>2} {label:<8} {size:>9} {ms:6.1f}ms "
                          f"{floor:5.1f}ms {ms / floor:5.2f}x {len(png) / 1024:6.1f} {cold:5.1f}ms {detail:6.1f}ms")
                    if args.write is not None and label == "mid" and mode == game.modes[0]:
                        args.write.mkdir(parents=True, exist_ok=True)
                        (args.write / f"{game.key}.png").write_bytes(png)
    print(f"render / encode floor: median {statistics.median(ratios):.2f}x, max {max(ratios):.2f}x "
          f"(target <= 1.3x) over {len(ratios)} boards")


if __name__ == "__main__":
    main()
