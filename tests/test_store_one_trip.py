"""SQLite writes a move in one trip to its thread (Engine.write_if; issue 25's loop lag): BEGIN, the version-guarded
UPDATE, the event and COMMIT together. What it must keep: a stale version writes nothing, a failure inside rolls the
whole move back, and the connection is usable afterwards."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store, VersionClash
from bot.store.engines import SqliteEngine


async def _match(store: Store) -> Any:
    return await store.create_match(guild_id=1, channel_id=5, game="the-expedition", mode="standard", host_id=7,
                                    host_name="Alice", seed=3, seed_chosen=False, options={}, data_version="1")


async def test_a_move_is_one_trip_and_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(tmp_path / "trip.sqlite3")
    try:
        match = await _match(store)
        engine = store.engine
        assert isinstance(engine, SqliteEngine)
        traced: list[str] = []
        await engine.trace(lambda sql: traced.append(sql.strip().split(" ")[0]))
        single: list[str] = []
        for name in ("execute", "fetchall"):  # statements sent one by one (each its own trip)
            sent = getattr(engine, name)

            async def counted(sql: str, params: Any = (), sent: Any = sent) -> Any:
                single.append(sql)
                return await sent(sql, params)

            monkeypatch.setattr(engine, name, counted)
        version = await store.record(match.id, match.version, "move", seat=0, action={"type": "x"},
                                     state={"turn": 1}, text="Alice moves")
        assert version == match.version + 1
        assert single == []
        assert traced == ["BEGIN", "UPDATE", "INSERT", "COMMIT"]
        assert [event.text for event in await store.events(match.id)][-1] == "Alice moves"
    finally:
        await store.close()


async def test_a_stale_version_writes_nothing_and_leaves_the_connection_usable(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "stale.sqlite3")
    try:
        match = await _match(store)
        events = len(await store.events(match.id))
        with pytest.raises(VersionClash):
            await store.record(match.id, match.version + 5, "move", state={"turn": 1}, text="too late")
        assert len(await store.events(match.id)) == events
        assert (await store.match(match.id)).version == match.version  # type: ignore[union-attr]
        assert await store.record(match.id, match.version, "move", state={"turn": 2}) == match.version + 1
    finally:
        await store.close()


async def test_a_failure_inside_rolls_the_whole_write_back(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "fail.sqlite3")
    try:
        match = await _match(store)
        engine = store.engine
        guard = ("UPDATE matches SET version = ? WHERE id = ? AND version = ? RETURNING version",
                 (match.version + 1, match.id, match.version))
        with pytest.raises(sqlite3.OperationalError):
            await engine.write_if(guard, [("INSERT INTO no_such_table VALUES (1)", ())])
        assert (await store.match(match.id)).version == match.version  # type: ignore[union-attr]
        assert await engine.write_if(guard, []) is not None  # not left inside the failed transaction
        assert (await store.match(match.id)).version == match.version + 1  # type: ignore[union-attr]
    finally:
        await store.close()
