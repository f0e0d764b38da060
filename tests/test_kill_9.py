"""Real kill -9s of the bot (issue 23): the bot runs as an OS process (tests/bot_process.py) on a SQLite file,
against an offline Discord saved to disk at every change, and is killed with SIGKILL where it hurts most:

1. after a move is committed, before Discord has its new board (the mover never heard back);
2. while it sends the reminders, after Discord created the first one but before the bot heard back.

Each time it is started again on the same database and the same Discord, two minutes later (its leases ran out).
In the end: every acknowledged move (and the one committed at the kill) is in the database, the owed board came
once with its ping, each reminder came once (Discord's nonce answers the resend with the message already posted),
the tables play on, and no render worker or resource tracker of a killed process is left.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.core import find_game
from bot.features import outbox, scheduler
from bot.store import Store
from tests.bot_process import load_world
from tests.processes import has_proc, kill_and_list_survivors

pytestmark = pytest.mark.skipif(not has_proc(), reason="reads processes from /proc")

ROOT = Path(__file__).resolve().parent.parent
LEASE = max(scheduler.LEASE_SECONDS, outbox.LEASE_SECONDS) + 1  # seconds: the killed process's claims ran out
PATIENCE = 120.0  # seconds to wait for an answer: generous for a busy machine; a healthy run takes a few
TABLES = {"table-0": ("alice", "bob"), "table-1": ("carol", "dave")}


class BotProcess:
    """`python -m tests.bot_process` in a session of its own, spoken to in JSON lines."""

    def __init__(self, folder: Path, *, advance: float = 0.0) -> None:
        self.folder = folder
        self.log = folder / "bot.log"
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.bot_process", str(folder), "--advance", str(advance)],
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                start_new_session=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self._next().get("ready"), "the bot process did not start"

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _next(self) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=PATIENCE)
        except queue.Empty:
            raise AssertionError(f"the bot process did not answer within {PATIENCE:.0f} s") from None
        if line is None:
            raise AssertionError(f"the bot process ended: {self.log.read_text()[-3000:]}")
        return dict(json.loads(line))

    def _send(self, op: str, values: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": op, **values}) + "\n")
        self.process.stdin.flush()
        return self._next()

    def do(self, op: str, **values: Any) -> dict[str, Any]:
        answer = self._send(op, values)
        assert answer.get("ok"), f"{op}: {answer}"
        return answer

    def do_until_frozen(self, op: str, **values: Any) -> dict[str, Any]:
        answer = self._send(op, values)
        assert "frozen" in answer, f"{op} was not stopped by the trap: {answer}"
        return answer

    def kill(self) -> list[str]:
        """SIGKILL; what of the process's session is still alive 5 s later."""
        return kill_and_list_survivors(self.process)

    def quit(self) -> None:
        self.do("quit")
        assert self.process.wait(timeout=PATIENCE) == 0


def channel_id(world: Any, channel: str) -> int:
    return int(world.channels[channel].id)


def boards(world: Any, channel: str) -> list[Any]:
    return [m for m in world.channel_messages(channel_id(world, channel)) if m.files]


def pings(world: Any, channel: str) -> list[Any]:
    """Messages without an image that notify someone: the reminders."""
    return [m for m in world.channel_messages(channel_id(world, channel)) if not m.files and m.notified]


async def table_state(folder: Path, world: Any, channel: str) -> tuple[int, int]:
    """(moves stored, the user id of the player to move) of the channel's game, read from the database."""
    store = await Store.open(folder / "games.sqlite3")
    try:
        match = await store.open_match(channel_id(world, channel))
        assert match is not None
        moves = [event for event in await store.events(match.id) if event.kind == "action"]
        seat = find_game(match.game).to_act(match.state)[0]
        return len(moves), int(match.user_at(seat).user_id)
    finally:
        await store.close()


async def test_kill_9_loses_no_move_board_or_reminder_and_sends_nothing_twice(tmp_path: Path) -> None:
    acknowledged: Counter[str] = Counter()

    first = BotProcess(tmp_path)
    for channel, (host, guest) in TABLES.items():
        first.do("table", channel=channel, host=host, guest=guest)
    for channel in TABLES:
        first.do("move", channel=channel)
        acknowledged[channel] += 1
    shown = len(boards(load_world(tmp_path), "table-0"))
    first.do("arm", when="before", what="board")
    first.do_until_frozen("move", channel="table-0")  # committed; its board has not reached Discord
    assert first.kill() == [], "no render worker or resource tracker outlives the bot"
    world = load_world(tmp_path)
    assert len(boards(world, "table-0")) == shown, "the kill came before Discord had the board"
    moves, waiting = await table_state(tmp_path, world, "table-0")
    assert moves == acknowledged["table-0"] + 1, "the move committed at the kill stands"

    second = BotProcess(tmp_path, advance=LEASE)
    second.do("due")
    world = load_world(tmp_path)
    owed = boards(world, "table-0")[shown:]
    assert len(owed) == 1, f"{len(owed)} boards for the one owed"
    assert owed[0].notified == (waiting,), "the owed board pings the player it passed the turn to"
    assert [len(pings(world, channel)) for channel in TABLES] == [0, 0]
    second.do("advance", seconds=12 * 3600)  # both tables' 12 h reminders are due
    second.do("arm", when="after", what="ping")
    second.do_until_frozen("due")  # Discord created the first reminder; the bot never heard back
    assert second.kill() == []
    assert sum(len(pings(load_world(tmp_path), channel)) for channel in TABLES) == 1

    third = BotProcess(tmp_path, advance=LEASE)
    third.do("due")
    for channel in TABLES:  # the tables play on
        third.do("move", channel=channel)
        acknowledged[channel] += 1
    third.quit()

    world = load_world(tmp_path)
    for channel in TABLES:
        reminders = pings(world, channel)
        assert len(reminders) == 1, f"{channel}: {[m.content for m in reminders]}"
        moves, _ = await table_state(tmp_path, world, channel)
        assert moves == acknowledged[channel] + (channel == "table-0"), f"{channel}: an acknowledged move was lost"
        assert len(boards(world, channel)) == 1 + moves, f"{channel}: one board for the start and each move"
        assert all(len(board.notified) == 1 for board in boards(world, channel)), "each board pings one player"
    public = Counter(m.content for m in world.messages.values() if m.content and not m.ephemeral and not m.deleted)
    assert [text for text, count in public.items() if count > 1] == [], "no message was posted twice"
