"""Presses per turn (issue 33): every game, mode and player count played to its end through the offline Discord,
the normal computer player choosing for every seat among the controls the board actually shows.

Usage: python benchmarks/bench_presses.py [--games N] [--seed S] [--only expeditions ...]

At each board the normal computer player plays its own line a few steps ahead (each step its choice in the
position before it); the control pressed is the one shown under the board (a button or a menu option) whose
outcome is the furthest position along that line. A move the board does not offer would be typed as a command
(counted as a press, and as "typed"); when no one control leads onto that line but two in a row do (the line
makes its steps in another order), the first of them is pressed. Prints, per game, mode and player count: turns,
presses, presses per turn, steps the bot made for a player because they had one legal choice ("auto"), presses
made when only one choice was legal ("forced", the goal is none), and moves typed because no control offered
them.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import create_bot
from bot.core import Game, Rng, find_game, is_steps
from bot.core.bots import bot_view, decide
from bot.games.offered import offers_of
from bot.offline import DiscordHarness, FakeUser

CONFIGS = [("the-expedition", "standard", (2, 3)), ("the-expedition", "abstract", (2, 3)),
           ("the-expedition", "solo", (1,)), ("the-expedition", "solo-hard", (1,)),
           ("monster-expedition", "standard", (2, 3, 4)), ("monster-expedition", "solo", (1,)),
           ("expeditions", "standard", (2, 3, 4))]
LOOK_AHEAD = 8  # steps of the bot's own line an offer may cover
MOST_PRESSES = 3000  # a game longer than this is reported as unfinished
DEBUG = False  # --debug: print what was typed, and why


@dataclass
class Tally:
    turns: int = 0
    presses: int = 0
    auto: int = 0
    forced: int = 0
    typed: int = 0
    stale: int = 0
    finished: bool = False


def _position(state: dict[str, Any]) -> str:
    import json

    return json.dumps({k: v for k, v in state.items() if k not in ("log", "last_move", "recent", "last_events")},
                      sort_keys=True)


def steps_of(action: dict[str, Any]) -> list[dict[str, Any]]:
    return list(action["steps"]) if is_steps(action) else [action]


def pick(game: Game, state: dict[str, Any], seat: int, offers: list[dict[str, Any]], rnd: random.Random
         ) -> dict[str, Any] | None:
    """The offer whose outcome is furthest along the normal bot's own line of play from here (None: none is)."""
    line: dict[str, int] = {}
    position = state
    for depth in range(1, LOOK_AHEAD + 1):
        choice = decide(game, bot_view(game, position, seat), seat, "normal", rnd).action
        position = game.apply(position, seat, choice, Rng(0, 0)).state
        line[_position(position)] = depth
        if game.outcome(position) is not None or game.to_act(position) != (seat,):
            break
    best, furthest = None, 0
    for offer in offers:
        try:
            after = game.apply(state, seat, offer, Rng(0, 0)).state
        except ValueError:
            continue
        depth = line.get(_position(after), 0)
        if depth > furthest:
            best, furthest = offer, depth
    return best if best is not None else two_presses(game, state, seat, offers, line)


def two_presses(game: Game, state: dict[str, Any], seat: int, offers: list[dict[str, Any]], line: dict[str, int]
                ) -> dict[str, Any] | None:
    """The first of two presses that together reach the bot's line when no one press does: the line may make its
    steps in an order the controls do not (Expeditions' Odin's Wrath in the middle of a card's play, which the
    whole-play offers step over: Odin first, then the play, ends where the line does)."""
    best, furthest = None, 0
    for offer in offers:
        try:
            after = game.apply(state, seat, offer, Rng(0, 0)).state
        except ValueError:
            continue
        if game.outcome(after) is not None or game.to_act(after) != (seat,):
            continue
        then = offers_of(game, after, seat)
        for more in (*then.buttons, *then.options):
            try:
                depth = line.get(_position(game.apply(after, seat, more.action, Rng(0, 0)).state), 0)
            except ValueError:
                continue
            if depth > furthest:
                best, furthest = offer, depth
    return best


def shown_controls(board: Any, game: Game, state: dict[str, Any], seat: int, language: str, version: int
                   ) -> list[tuple[str, Any, dict[str, Any]]]:
    """(kind, id, action) of every control the board message shows: its buttons and its menu's options, mapped to
    the actions the service would take for them."""
    offered = offers_of(game, state, seat, language)
    buttons, entries = offered.buttons, offered.options
    shown: list[tuple[str, Any, dict[str, Any]]] = []
    for button in board.buttons():
        parts = str(button.get("custom_id", "")).split(":")
        if parts[:2] == ["xt", "act"] and parts[3] == str(version) and int(parts[-1]) < len(buttons):
            shown.append(("button", button["custom_id"], buttons[int(parts[-1])].action))
    for select in board.selects():
        if str(select.get("custom_id", "")).split(":")[3:4] != [str(version)]:
            continue
        for option in select.get("options", []):
            shown.append(("menu", (select["custom_id"], option["value"]), entries[int(option["value"])].action))
    return shown


async def play_one(key: str, mode: str, players: int, seed: int) -> Tally:
    game = find_game(key)
    tally = Tally()
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordHarness(create_bot(Path(folder) / "bench.db")) as discord_:
            users: list[FakeUser] = [discord_.user(f"player{index}") for index in range(players)]
            service = discord_.bot.service  # type: ignore[attr-defined]
            channel = discord_.default_channel.id
            await discord_.command("game new", {"game": key, "mode": mode, "seed": seed}, user=users[0])
            if players > 1:
                for user in users[1:]:
                    await discord_.command("game join", user=user)
                await discord_.command("game start", user=users[0])
            last_turn = None
            while tally.presses < MOST_PRESSES:
                match = await service.current(channel)
                if match.status != "active":
                    tally.finished = match.status == "finished"
                    break
                state = match.state
                seat = game.to_act(state)[0]
                turn = (seat, game.round_of(state))
                if turn != last_turn:
                    tally.turns, last_turn = tally.turns + 1, turn
                if len(game.legal_actions(state, seat)) == 1:
                    tally.forced += 1
                board = discord_.last_public_message(with_components=True)
                shown = shown_controls(board, game, state, seat, match.language, match.version)
                if not shown:  # no board of this version with controls: counted, and the move typed
                    tally.stale += 1
                    if DEBUG:
                        print("no controls", match.version, board.custom_ids(), board.content[-200:])
                chosen = pick(game, state, seat, [action for _, _, action in shown], rnd)
                tally.presses += 1
                if chosen is None:
                    tally.typed += 1
                    choice = decide(game, bot_view(game, state, seat), seat, "normal", rnd).action
                    if DEBUG:
                        print("typed", key, choice, (state.get("turn") or {}).get("phase"),
                              ((state.get("turn") or {}).get("pending") or {}).get("kind"), len(shown))
                    await service.act(channel, users[seat].id, choice)
                    await discord_.command("game board", user=users[seat])  # the board the move changed
                    chosen = choice
                else:
                    kind, ident, _ = next(item for item in shown if item[2] is chosen)
                    if kind == "button":
                        await discord_.click(board, custom_id=ident, user=users[seat])
                    else:
                        await discord_.select(board, ident[0], [ident[1]], user=users[seat])
                after = await service.match(match.id)
                if after.version == match.version:
                    raise RuntimeError(f"{key} {mode}: a press changed nothing")
                recorded = (await service.store.events(match.id, last=1))[-1].action or {}
                tally.auto += len(steps_of(recorded)) - len(steps_of(chosen))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="games per game, mode and player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", help="game keys to play (default: all)")
    parser.add_argument("--debug", action="store_true", help="print each move typed and the board it was typed on")
    args = parser.parse_args()
    global DEBUG
    DEBUG = args.debug
    print(f"{'game':20} {'mode':10} {'p':>2} {'turns':>6} {'presses':>8} {'per turn':>9} {'per game':>9} "
          f"{'auto':>5} {'forced':>6} {'typed':>5}")
    per_game: dict[str, list[float]] = {}
    for key, mode, counts in CONFIGS:
        if args.only and key not in args.only:
            continue
        for players in counts:
            started = time.perf_counter()
            tallies = [asyncio.run(play_one(key, mode, players, args.seed + index)) for index in range(args.games)]
            turns = sum(t.turns for t in tallies)
            presses = sum(t.presses for t in tallies)
            per_game.setdefault(key, []).append(presses / max(turns, 1))
            unfinished = sum(1 for t in tallies if not t.finished)
            print(f"{key:20} {mode:10} {players:>2} {turns:>6} {presses:>8} {presses / max(turns, 1):>9.2f} "
                  f"{presses / len(tallies):>9.1f} {sum(t.auto for t in tallies):>5} "
                  f"{sum(t.forced for t in tallies):>6} {sum(t.typed for t in tallies):>5}"
                  + (f"  ({unfinished} unfinished)" if unfinished else "")
                  + (f"  ({sum(t.stale for t in tallies)} boards without controls)" if any(t.stale for t in tallies)
                     else "")
                  + f"  [{time.perf_counter() - started:.0f} s]", flush=True)
    for key, figures in per_game.items():
        print(f"{key}: {statistics.mean(figures):.2f} presses per turn on average over its modes and player counts")


if __name__ == "__main__":
    main()
