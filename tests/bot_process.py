"""The bot in an OS process of its own, against an offline Discord that outlives it: `python -m tests.bot_process
FOLDER [--advance SECONDS]`, driven by JSON lines on stdin (tests/test_kill_9.py is the driver).

Discord's side (the `World`: channels, messages, nonces, and the clock the bot and Discord share) is saved to
FOLDER/world.pickle after every change, before the bot hears the answer, by write-and-rename: when the process is
killed with SIGKILL, the file holds what Discord had at that instant, and the next process starts from it on the
same database (FOLDER/games.sqlite3), as a restarted bot finds Discord unchanged. `--advance` moves the clock on at
start (a restart comes a while later).

A trap stops the process where the test wants to kill it: armed with `{"op": "arm", "when": "before"|"after",
"what": "board"|"ping"}`, the next board (a message with an image) or ping without an image (a reminder) freezes
the process before Discord creates it or after Discord created it and saved it but before the bot hears back; the
process then writes `{"frozen": ...}` and waits for its SIGKILL.

Operations, each answered by one JSON line: `table` (channel, host, guest: a test-nim game started there),
`move` (channel: the player to move presses "Take 1" on the latest board; answered once the bot answered the
press), `due` (one scheduler pass), `advance` (seconds), `arm`, `quit`.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Any

from bot.offline import World

TRAPPED_FOR = 600.0  # seconds a frozen process waits for the SIGKILL the test sends at once


class SharedClock:
    """The bot's time and Discord's, kept with Discord's saved state so that it carries over a restart."""

    def __init__(self) -> None:
        self.now = dt.datetime.now(dt.UTC).replace(microsecond=0)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


def is_board(body: dict[str, Any], files: list[Any]) -> bool:
    return bool(files)


def is_ping(body: dict[str, Any], files: list[Any]) -> bool:
    """A message without an image that pings someone: a reminder or a stall notice."""
    return not files and bool((body.get("allowed_mentions") or {}).get("users"))


def load_world(folder: Path) -> Any:
    """Discord as the last process left it (None before the first)."""
    saved = folder / "world.pickle"
    return pickle.loads(saved.read_bytes()) if saved.exists() else None


class PersistentWorld(World):
    """A World saved to disk after each change, with a trap that freezes the process at a chosen message."""

    folder: Path
    trap: tuple[str, str] | None = None

    def save(self) -> None:
        trap, self.trap = self.trap, None  # the trap is this process's, not Discord's
        try:
            data = pickle.dumps(self)
        finally:
            self.trap = trap
        temporary = self.folder / "world.pickle.new"
        temporary.write_bytes(data)
        os.replace(temporary, self.folder / "world.pickle")

    def _spring(self, when: str, body: dict[str, Any], files: list[Any]) -> None:
        if self.trap is None or self.trap[0] != when:
            return
        if not (is_board if self.trap[1] == "board" else is_ping)(body, files):
            return
        self.trap = None
        print(json.dumps({"frozen": when, "content": body.get("content") or ""}), flush=True)
        time.sleep(TRAPPED_FOR)  # the whole process stands still here until it is killed
        raise SystemExit("the test did not kill the frozen process")

    def create_message(self, channel_id: int, body: dict[str, Any], files: list[Any], **kwargs: Any) -> Any:
        self._spring("before", body, files)
        return super().create_message(channel_id, body, files, **kwargs)

    def record(self, kind: str, **kwargs: Any) -> Any:
        reply = super().record(kind, **kwargs)
        self.save()
        if kwargs.get("created"):
            self._spring("after", kwargs.get("payload") or {}, list(kwargs.get("files") or []))
        return reply


async def serve(folder: Path, advance: float) -> None:
    from bot.app import create_bot
    from bot.core import find_game
    from bot.offline import DiscordHarness

    world = load_world(folder)
    if world is None:
        world = PersistentWorld(clock=SharedClock())
    world.folder = folder
    world.clock.advance(advance)
    world.save()
    bot = create_bot(folder / "games.sqlite3", clock=world.clock, poll_seconds=None)
    loop = asyncio.get_running_loop()

    def answer(**values: Any) -> None:
        print(json.dumps(values), flush=True)

    async with DiscordHarness(bot, world=world) as discord_:
        answer(ready=True, pid=os.getpid())
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            order = json.loads(line)
            op = order["op"]
            if op == "table":
                place = discord_.channel(order["channel"])
                host, guest = discord_.user(order["host"]), discord_.user(order["guest"])
                await discord_.command("game new", {"game": "test-nim"}, user=host, channel=place)
                await discord_.command("game join", user=guest, channel=place)
                await discord_.command("game start", user=host, channel=place)
                answer(ok=True)
            elif op == "move":
                place = discord_.channel(order["channel"])
                match = await bot.service.current(place.id)  # type: ignore[attr-defined]
                seat = find_game(match.game).to_act(match.state)[0]
                mover_id = match.user_at(seat).user_id
                mover = next(user for user in world.users.values() if user.id == mover_id)
                board = [m for m in world.channel_messages(place.id) if m.files][-1]
                await discord_.click(board, label="Take 1", user=mover)
                answer(ok=True, mover=mover_id)
            elif op == "due":
                answer(ok=True, handled=await bot.run_due_work())  # type: ignore[attr-defined]
            elif op == "advance":
                world.clock.advance(float(order["seconds"]))
                world.save()
                answer(ok=True)
            elif op == "arm":
                world.trap = (order["when"], order["what"])
                answer(ok=True)
            elif op == "quit":
                break
            else:
                raise ValueError(f"unknown operation {op!r}")
    world.save()
    answer(ok=True, quit=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bot_process")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--advance", type=float, default=0.0, help="seconds the clock moves on at start")
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.CRITICAL)
    from bot.core import register
    from rendering import register_renderer
    from tests import bot_process  # this module by its importable name: what it pickles, the test can load
    from tests.fakes import Nim, tiny_png

    nim = register(Nim())
    register_renderer(nim.key, lambda view: tiny_png(nim.key, view))
    asyncio.run(bot_process.serve(args.folder, args.advance))


if __name__ == "__main__":  # spawned render workers import this module again: only the parent serves
    main()
