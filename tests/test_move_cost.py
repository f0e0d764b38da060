"""A move's database work (issue 25): one durable commit per accepted move (the board message's id is recorded
without waiting for the disk), the server's settings read once, not on every move, and the state decoded once
(the board after the move and the next move read it again)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.offline import DiscordHarness
from bot.store import database
from tests.tables import open_table, player_to_move


async def test_a_press_commits_durably_once_decodes_once_and_reads_no_settings(tmp_path: Path,
                                                                             monkeypatch: Any) -> None:
    async with DiscordHarness(create_bot(tmp_path / "cost.sqlite3")) as discord_:
        users = await open_table(discord_, "monster-expedition", 2, seed=21)
        engine = discord_.bot.service.store._engine  # type: ignore[attr-defined]
        statements: list[str] = []
        await engine.trace(lambda sql: statements.append(sql.strip()))  # every statement SQLite runs
        decoded: list[int] = []

        class CountingJson:
            dumps = staticmethod(json.dumps)

            @staticmethod
            def loads(text: str) -> Any:
                if len(text) > 500:  # a state (events and settings are a few dozen bytes)
                    decoded.append(len(text))
                return json.loads(text)

        monkeypatch.setattr(database, "json", CountingJson)
        rnd = random.Random(4)
        presses = 0
        for _ in range(14):
            user = await player_to_move(discord_, users)
            board = discord_.last_public_message(with_components=True)
            labels = [label for label in board.button_labels() if label not in ("Show mine", "Details", "What's this?")]
            statements.clear()
            decoded.clear()
            replies = await discord_.click(board, label=rnd.choice(labels), user=user)
            assert not replies.ephemeral(), [r.content for r in replies.ephemeral()]
            durable, synchronous = 0, True
            for sql in statements:
                if sql.startswith("PRAGMA synchronous="):
                    synchronous = sql.endswith("FULL")
                durable += sql == "COMMIT" and synchronous
            assert durable == 1, statements
            assert len(decoded) == 1, decoded
            if presses:
                assert not [sql for sql in statements if "FROM settings" in sql], statements
            presses += 1
        assert presses == 14
