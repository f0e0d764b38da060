"""Every SQLite cursor is closed by the store itself, never left to the garbage collector (issue 19).

An aiosqlite cursor that is not closed keeps its statement in progress until it is collected, and SQLite then
refuses the next COMMIT ("cannot commit transaction - SQL statements in progress") whenever something holds a
reference a moment longer: a debugger, asyncio debug mode, or SimCord. These tests hold every cursor, as those do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite.cursor
import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness
from bot.store import Store
from tests.tables import current_match, open_table


@pytest.fixture
def held_cursors(monkeypatch: pytest.MonkeyPatch) -> dict[int, Any]:
    """Every aiosqlite cursor made from now on, kept alive; the value turns None when the store closes it."""
    held: dict[int, Any] = {}
    make, close = aiosqlite.cursor.Cursor.__init__, aiosqlite.cursor.Cursor.close

    def remember(self: Any, *args: Any, **kwargs: Any) -> None:
        make(self, *args, **kwargs)
        held[id(self)] = self

    async def forget(self: Any) -> None:
        await close(self)
        held[id(self)] = None

    monkeypatch.setattr(aiosqlite.cursor.Cursor, "__init__", remember)
    monkeypatch.setattr(aiosqlite.cursor.Cursor, "close", forget)
    return held


async def test_opening_and_migrating_a_new_file_closes_every_cursor(tmp_path: Path,
                                                                     held_cursors: dict[int, Any]) -> None:
    store = await Store.open(tmp_path / "new.sqlite3")
    try:
        assert held_cursors, "the store made no aiosqlite cursor: this test no longer sees what it checks"
        assert [cursor for cursor in held_cursors.values() if cursor is not None] == []
    finally:
        await store.close()
    reopened = await Store.open(tmp_path / "new.sqlite3")  # an existing file: the PRAGMAs again, no migration
    await reopened.close()
    assert [cursor for cursor in held_cursors.values() if cursor is not None] == []


async def test_a_whole_table_commits_with_every_cursor_held(tmp_path: Path, held_cursors: dict[int, Any]) -> None:
    async with DiscordHarness(create_bot(tmp_path / "table.sqlite3")) as discord_:
        users = await open_table(discord_, "test-nim", 2, seed=3)  # seats: the executemany path
        await discord_.click(discord_.last_public_message(with_components=True), label="Take 1", user=users[0])
        assert (await current_match(discord_)).version >= 3
    assert [cursor for cursor in held_cursors.values() if cursor is not None] == []
