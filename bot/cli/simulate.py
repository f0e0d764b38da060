"""Headless bot-only games, in parallel: win rates by seat and level, scores, lengths, think times, and the seed of
every game that failed or hit the turn cap so it can be replayed (`--seed S --games 1`).

Each game's seed fixes its deal, its dice and its seating: the levels given with --seats are rotated by the seed,
so over many games every level sits in every seat equally often.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
import traceback
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.core.bots import Budget, bot_view, choose
from bot.core.errors import RuleError
from bot.core.protocol import Game, Mode
from bot.core.registry import all_games, find_game
from bot.core.rng import Rng
from bot.core.seats import BOT_LEVELS
from rendering.lifeline import watch_parent

TURN_CAP = 6000


def _registered() -> None:
    """Make sure the games are registered (the app registers them at import)."""
    import bot.games  # noqa: F401


@dataclass
class GameResult:
    """One finished (or failed) game."""

    seed: int
    levels: list[str]
    scores: dict[int, int] = field(default_factory=dict)
    winners: list[int] = field(default_factory=list)
    steps: int = 0
    error: str | None = None
    capped: bool = False
    think: dict[str, list[float]] = field(default_factory=dict)


def seating(levels: Sequence[str], seed: int, rotate: bool = True) -> list[str]:
    """The levels by seat for the game with this seed."""
    if not rotate or len(levels) < 2:
        return list(levels)
    shift = seed % len(levels)
    return list(levels[shift:]) + list(levels[:shift])


def play_game(game_key: str, mode: str, levels: Sequence[str], seed: int, budget: Budget,
              cap: int = TURN_CAP) -> GameResult:
    """Play one bot-only game; every bot decides from its own seat's view."""
    _registered()
    game: Game = find_game(game_key)
    result = GameResult(seed=seed, levels=list(levels))
    try:
        state = game.setup(mode, [f"Bot {i + 1}" for i in range(len(levels))], Rng(seed, 0), {})
        step = 0
        while game.to_act(state):
            if step >= cap:
                result.capped = True
                break
            seat = game.to_act(state)[0]
            step += 1
            rng = random.Random(seed * 100_003 + step)
            level = levels[seat]
            started = time.perf_counter()
            action = choose(game, bot_view(game, state, seat), seat, level, rng, budget)
            result.think.setdefault(level, []).append(time.perf_counter() - started)
            state = game.apply(state, seat, action, Rng(seed, step)).state
        result.steps = step
        outcome = game.outcome(state)
        if outcome is not None:
            result.scores = {int(k): int(v) for k, v in outcome.scores.items()}
            result.winners = list(outcome.winners)
    except Exception as error:  # a simulation reports every failure with its seed instead of stopping
        result.error = f"{type(error).__name__}: {error} | " + traceback.format_exc(limit=3).splitlines()[-3].strip()
    return result


def _play(args: tuple[str, str, list[str], int, Budget, int]) -> GameResult:
    return play_game(*args)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summarise(results: list[GameResult], elapsed: float) -> dict[str, Any]:
    """Win rates (a shared win counts as a share) by seat and by level, with 95% intervals, and the rest."""
    finished = [r for r in results if r.error is None and not r.capped]
    seats = max((len(r.levels) for r in results), default=0)
    by_seat: dict[int, float] = dict.fromkeys(range(seats), 0.0)
    by_level: dict[str, list[float]] = {}
    scores_by_level: dict[str, list[int]] = {}
    for r in finished:
        for seat, level in enumerate(r.levels):
            share = 1.0 / len(r.winners) if seat in r.winners else 0.0
            by_seat[seat] += share
            by_level.setdefault(level, []).append(share)
            scores_by_level.setdefault(level, []).append(r.scores.get(seat, 0))
    n = len(finished)
    think: dict[str, list[float]] = {}
    for r in results:
        for level, times in r.think.items():
            think.setdefault(level, []).extend(times)
    return {
        "games": len(results), "finished": n, "seconds": round(elapsed, 2),
        "games_per_second": round(len(results) / elapsed, 3) if elapsed else 0.0,
        "win_rate_by_seat": {str(s): {"rate": round(w / n, 3) if n else 0.0,
                                      "ci95": [round(x, 3) for x in wilson(w, n)]} for s, w in by_seat.items()},
        "win_rate_by_level": {lvl: {"rate": round(sum(v) / len(v), 3), "ci95": [round(x, 3) for x in
                                                                                  wilson(sum(v), len(v))],
                                    "seats_played": len(v)} for lvl, v in by_level.items()},
        "mean_score_by_level": {lvl: round(sum(v) / len(v), 2) for lvl, v in scores_by_level.items()},
        "mean_steps": round(sum(r.steps for r in finished) / n, 1) if n else 0.0,
        "think_seconds": {lvl: {"mean": round(sum(t) / len(t), 4), "p95": round(_percentile(t, 0.95), 4),
                                "max": round(max(t), 4), "moves": len(t)} for lvl, t in think.items() if t},
        "errors": [{"seed": r.seed, "levels": r.levels, "error": r.error} for r in results if r.error],
        "capped": [{"seed": r.seed, "levels": r.levels, "steps": r.steps} for r in results if r.capped],
    }


class Refused(ValueError):
    """The command line asked for a game, mode or seating that does not exist: one sentence saying what does."""


def checked(game_key: str, mode: str | None, levels: Sequence[str]) -> tuple[Game, Mode]:
    """The game and mode to simulate, or Refused naming what is allowed (the command line is English only)."""
    _registered()
    try:
        game = find_game(game_key)
    except RuleError:
        raise Refused(f"There is no game called {game_key!r}: choose one of {', '.join(g.key for g in all_games())}."
                      ) from None
    try:
        chosen = game.mode(mode)
    except RuleError:
        raise Refused(f"{game.title} has no mode called {mode!r}: choose one of "
                      f"{', '.join(m.key for m in game.modes)}.") from None
    unknown = [level for level in levels if level not in BOT_LEVELS]
    if unknown or not levels:
        raise Refused(f"There is no computer player level called {(unknown or [''])[0]!r}: give --seats as levels "
                      f"by seat, each one of {', '.join(BOT_LEVELS)} (e.g. --seats hard,easy).")
    if not chosen.min_players <= len(levels) <= chosen.max_players:
        raise Refused(f"{game.title} {chosen.title} takes {chosen.min_players}-{chosen.max_players} seats, "
                      f"not {len(levels)}: give --seats one level per seat.")
    return game, chosen


def run(game_key: str, mode: str | None, levels: Sequence[str], games: int, seed: int, budget: Budget,
        workers: int | None = None, rotate: bool = True, cap: int = TURN_CAP) -> dict[str, Any]:
    """Play `games` bot-only games (seeds seed..seed+games-1) across a process pool and summarise them."""
    game, chosen = checked(game_key, mode, levels)
    jobs = [(game.key, chosen.key, seating(levels, s, rotate), s, budget, cap) for s in range(seed, seed + games)]
    started = time.perf_counter()
    workers = workers or os.cpu_count() or 1
    if workers == 1 or games == 1:
        results = [_play(job) for job in jobs]
    else:
        # A worker exits when this process dies, however it dies: a killed simulation leaves no player behind.
        with ProcessPoolExecutor(max_workers=workers, initializer=watch_parent) as pool:
            results = list(pool.map(_play, jobs, chunksize=1))
    summary = summarise(results, time.perf_counter() - started)
    summary.update({"game": game.key, "mode": chosen.key, "seats": list(levels), "seed": seed,
                    "budget": asdict(budget), "rotated": rotate})
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a few readable lines."""
    lines = [f"{summary['game']} ({summary['mode']}), seats {','.join(summary['seats'])}: {summary['games']} games "
             f"in {summary['seconds']} s ({summary['games_per_second']} games/s), {summary['finished']} finished, "
             f"mean length {summary['mean_steps']} moves; hard budget {summary['budget']['seconds']} s / "
             f"{summary['budget']['iterations']} iterations"]
    for level, entry in summary["win_rate_by_level"].items():
        low, high = entry["ci95"]
        lines.append(f"  {level:>6}: wins {100 * entry['rate']:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%), "
                     f"mean score {summary['mean_score_by_level'][level]}")
    for seat, entry in summary["win_rate_by_seat"].items():
        low, high = entry["ci95"]
        lines.append(f"  seat {seat}: wins {100 * entry['rate']:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    for level, entry in summary["think_seconds"].items():
        lines.append(f"  {level} move time: mean {entry['mean']:.3f} s, p95 {entry['p95']:.3f} s, "
                     f"max {entry['max']:.3f} s over {entry['moves']} moves")
    for entry in summary["errors"]:
        lines.append(f"  ERROR seed {entry['seed']} seats {','.join(entry['levels'])}: {entry['error']}")
    for entry in summary["capped"]:
        lines.append(f"  TURN CAP seed {entry['seed']} seats {','.join(entry['levels'])} after {entry['steps']} moves")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game's key, title or alias")
    parser.add_argument("--mode", default=None, help="the mode (default: the game's first)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", default="hard,easy", help="levels by seat, e.g. hard,easy or normal,normal,easy")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (game i uses seed + i)")
    parser.add_argument("--seconds", type=float, default=1.0, help="a hard bot's time per move")
    parser.add_argument("--iterations", type=int, default=4000, help="a hard bot's search iterations per move")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    parser.add_argument("--no-rotate", action="store_true", help="keep the levels in the seats given")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def main(args: argparse.Namespace) -> int:
    levels = [level.strip() for level in args.seats.split(",") if level.strip()]
    try:
        checked(args.game, args.mode, levels)
    except Refused as refusal:
        print(refusal, file=sys.stderr)
        return 2
    summary = run(args.game, args.mode, levels, args.games, args.seed, Budget(args.seconds, args.iterations),
                  workers=args.workers, rotate=not args.no_rotate)
    print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
    return 1 if summary["errors"] else 0
