"""How fast the bot answers when a server is busy: many channels playing at once through the offline Discord.

Every channel plays a real game (Monster Expedition by default) by pressing the buttons of its board, all channels
at once, each pressing again as soon as its board is back. For every press it measures the *first response* (the
acknowledgement Discord needs within 3 seconds) from the moment the interaction reached discord.py, and the time until
the board was updated. The floor is the same press in one quiet channel, measured in the same run.

    python benchmarks/bench_channels.py                    # 50 channels, 6 rounds
    python benchmarks/bench_channels.py --channels 10 --rounds 3 --game the-expedition

Targets (issue "live channel"): first response p99 <= 250 ms and max < 1 s with 50 channels on this 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness, FakeUser, PendingInteraction


async def open_tables(discord_: DiscordHarness, game: str, channels: int) -> list[tuple[str, list[FakeUser]]]:
    tables = []
    for number in range(channels):
        name = f"table-{number}"
        users = [discord_.user(f"p{number}a"), discord_.user(f"p{number}b")]
        await discord_.command("game new", {"game": game, "seed": number}, user=users[0], channel=name)
        await discord_.command("game join", user=users[1], channel=name)
        await discord_.command("game start", user=users[0], channel=name)
        tables.append((name, users))
    return tables


async def press(discord_: DiscordHarness, channel: str, users: list[FakeUser],
                rnd: random.Random) -> PendingInteraction | None:
    """The press the player to move makes on their channel's board (None once the game is over)."""
    service = discord_.bot.service  # type: ignore[attr-defined]
    match = await service.current(discord_.channel(channel).id)
    if match.status != "active":
        return None
    seat = find_game(match.game).to_act(match.state)[0]
    user = next(u for u in users if u.id == match.user_at(seat).user_id)
    board = discord_.last_public_message(channel, with_components=True)
    labels = [label for label in board.button_labels() if label not in ("Show mine", "Details", "What's this?")]
    return discord_.click(board, label=rnd.choice(labels), user=user)


async def measure(game: str, channels: int, rounds: int) -> tuple[list[float], list[float], float]:
    """First-response and whole-press times (ms) of every press, and the wall time of the rounds."""
    firsts: list[float] = []
    wholes: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordHarness(create_bot(Path(folder) / "bench.sqlite3"), timeout=120) as discord_:
            tables = await open_tables(discord_, game, channels)
            started = time.perf_counter()

            async def play_channel(name: str, users: list[FakeUser], seed: int) -> None:
                # Each channel presses again as soon as its board is back, after a short human pause, so presses
                # arrive at every moment of the others' work (commits, renders, posts), as in a busy server.
                rnd = random.Random(seed)
                for _ in range(rounds):
                    await asyncio.sleep(rnd.uniform(0.0, 0.05))
                    interaction = await press(discord_, name, users, rnd)
                    if interaction is None:
                        return
                    (replies,) = await discord_.concurrently(interaction)
                    if replies:
                        firsts.append((replies[0].at - interaction.fed_at) * 1000)
                        wholes.append((replies[-1].at - interaction.fed_at) * 1000)

            await asyncio.gather(*(play_channel(name, users, n) for n, (name, users) in enumerate(tables)))
            elapsed = time.perf_counter() - started
    return firsts, wholes, elapsed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="monster-expedition")
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()

    floor_first, floor_whole, _ = asyncio.run(measure(args.game, 1, args.rounds))
    firsts, wholes, elapsed = asyncio.run(measure(args.game, args.channels, args.rounds))
    quiet = statistics.median(floor_first)
    print(f"{args.game}: {args.channels} channels x {args.rounds} rounds = {len(firsts)} presses "
          f"in {elapsed:.1f} s ({len(firsts) / elapsed:.1f} presses/s)")
    print(f"floor (one quiet channel): first response median {quiet:.1f} ms, "
          f"whole press median {statistics.median(floor_whole):.0f} ms")
    p99, worst = percentile(firsts, 0.99), max(firsts)
    print(f"first response: median {statistics.median(firsts):.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms "
          f"({p99 / max(quiet, 0.001):.0f}x the floor)   target p99 <= 250 ms, max < 1000 ms: "
          f"{'met' if p99 <= 250 and worst < 1000 else 'MISSED'}")
    print(f"whole press (commit, render, post): median {statistics.median(wholes):.0f} ms, "
          f"p99 {percentile(wholes, 0.99):.0f} ms, max {max(wholes):.0f} ms")


if __name__ == "__main__":
    main()
