"""The SQLite store: matches, seats, the append-only event log, snapshots and per-player profiles.

Concurrency: every write runs in one `BEGIN IMMEDIATE` transaction and checks the match's version, so a stale
writer fails with VersionClash however many processes share the file. Within this process one lock serialises
transactions on the shared connection (aiosqlite would otherwise interleave two coroutines' statements).
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.store.records import (
    OPEN_STATUSES,
    ChannelBusy,
    EventRecord,
    MatchRecord,
    SeatRecord,
    StoreError,
    VersionClash,
)
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION

SNAPSHOT_EVERY = 25
"""Keep a full state snapshot every this many events, beside the current state on the match row."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Store:
    """All persistence for the bot. Open with `await Store.open(path)`, close with `await store.close()`."""

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._db = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating if needed) and migrate the database; refuse one written by a newer version."""
        location = os.fspath(path)
        connection = await aiosqlite.connect(location, isolation_level=None)
        connection.row_factory = sqlite3.Row
        store = cls(connection, location)
        try:
            await store._configure()
            await store._migrate()
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _configure(self) -> None:
        if self.path != ":memory:":
            await self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged move survives a power cut too; it costs a fraction of a millisecond a commit.
        await self._db.execute("PRAGMA synchronous=FULL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"The database {self.path} was written by a newer Expedition Table (schema {current}; this "
                f"version knows up to {SCHEMA_VERSION}). Upgrade the bot, or point it at another database."
            )
        for number in range(current + 1, SCHEMA_VERSION + 1):
            async with self._transaction():
                for statement in MIGRATIONS[number - 1].split(";"):
                    if statement.strip():
                        await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version={number}")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            else:
                await self._db.execute("COMMIT")

    # ----------------------------------------------------------------------------------------------- reading

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._db.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def _match_from_row(self, row: sqlite3.Row) -> MatchRecord:
        seats = await self._fetchall(
            "SELECT seat, user_id, name FROM seats WHERE match_id = ? ORDER BY seat", (row["id"],)
        )
        return MatchRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            mode=row["mode"],
            status=row["status"],
            host_id=row["host_id"],
            seed=row["seed"],
            seed_chosen=bool(row["seed_chosen"]),
            options=json.loads(row["options_json"]),
            data_version=row["data_version"],
            version=row["version"],
            state=json.loads(row["state_json"]) if row["state_json"] is not None else None,
            seats=tuple(SeatRecord(s["seat"], s["user_id"], s["name"]) for s in seats),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )

    async def open_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's unfinished match (in its lobby or being played), if any."""
        rows = await self._fetchall(
            "SELECT * FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return await self._match_from_row(rows[0]) if rows else None

    async def latest_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's most recent match, finished or not (for /game board after the end)."""
        rows = await self._fetchall(
            "SELECT * FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return await self._match_from_row(rows[0]) if rows else None

    async def match(self, match_id: int) -> MatchRecord | None:
        rows = await self._fetchall("SELECT * FROM matches WHERE id = ?", (match_id,))
        return await self._match_from_row(rows[0]) if rows else None

    async def events(self, match_id: int, *, after: int = 0, last: int | None = None) -> list[EventRecord]:
        """The match's event log in order; `last` keeps only the newest that many."""
        if last is not None:
            rows = await self._fetchall(
                "SELECT * FROM (SELECT * FROM events WHERE match_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?) "
                "ORDER BY seq",
                (match_id, after, last),
            )
        else:
            rows = await self._fetchall(
                "SELECT * FROM events WHERE match_id = ? AND seq > ? ORDER BY seq", (match_id, after)
            )
        return [
            EventRecord(
                match_id=row["match_id"],
                seq=row["seq"],
                kind=row["kind"],
                user_id=row["user_id"],
                seat=row["seat"],
                action=json.loads(row["action_json"]) if row["action_json"] is not None else None,
                events=json.loads(row["events_json"]),
                draws=json.loads(row["draws_json"]),
                text=row["text"],
                created_at=row["created_at"],
            )
            for row in rows
        ]

    async def snapshot(self, match_id: int, at_or_before: int) -> tuple[int, dict[str, Any]] | None:
        rows = await self._fetchall(
            "SELECT seq, state_json FROM snapshots WHERE match_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (match_id, at_or_before),
        )
        return (rows[0]["seq"], json.loads(rows[0]["state_json"])) if rows else None

    async def profile(self, guild_id: int, user_id: int, game: str) -> dict[str, Any]:
        rows = await self._fetchall(
            "SELECT data_json FROM profiles WHERE guild_id = ? AND user_id = ? AND game = ?",
            (guild_id, user_id, game),
        )
        return json.loads(rows[0]["data_json"]) if rows else {}

    async def board_message(self, match_id: int) -> int | None:
        """The channel message showing the match's latest board, if one was recorded."""
        rows = await self._fetchall("SELECT board_message_id FROM matches WHERE id = ?", (match_id,))
        return rows[0]["board_message_id"] if rows else None

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        """Remember the message showing the match's latest board.

        Presentation only: it does not change the match's version, so it never makes a board stale.
        """
        async with self._transaction():
            await self._db.execute("UPDATE matches SET board_message_id = ? WHERE id = ?", (message_id, match_id))

    async def save_profile(self, guild_id: int, user_id: int, game: str, data: dict[str, Any]) -> None:
        """Write one player's record for a game on a server (an admin correcting campaign progress, say)."""
        async with self._transaction():
            await self._upsert_profile(guild_id, user_id, game, data, _now())

    async def _upsert_profile(self, guild_id: int, user_id: int, game: str, data: dict[str, Any], now: str) -> None:
        await self._db.execute(
            "INSERT INTO profiles (guild_id, user_id, game, data_json, updated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id, game) DO UPDATE SET data_json = excluded.data_json, "
            "updated_at = excluded.updated_at",
            (guild_id, user_id, game, _dumps(data), now),
        )

    async def active_matches(self) -> list[MatchRecord]:
        """Every unfinished match (the bot registers nothing per match at start-up, but admins may list them)."""
        rows = await self._fetchall("SELECT * FROM matches WHERE status IN ('lobby', 'active') ORDER BY id")
        return [await self._match_from_row(row) for row in rows]

    # ----------------------------------------------------------------------------------------------- writing

    async def create_match(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        mode: str,
        host_id: int,
        host_name: str,
        seed: int,
        seed_chosen: bool,
        options: dict[str, Any],
        data_version: str,
    ) -> MatchRecord:
        """A new match in its lobby with the host seated; ChannelBusy if the channel has an unfinished one."""
        now = _now()
        try:
            async with self._transaction():
                cursor = await self._db.execute(
                    "INSERT INTO matches (guild_id, channel_id, game, mode, status, host_id, seed, seed_chosen, "
                    "options_json, data_version, version, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, 1, ?, ?)",
                    (guild_id, channel_id, game, mode, host_id, seed, int(seed_chosen), _dumps(options),
                     data_version, now, now),
                )
                match_id = cursor.lastrowid
                await self._db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (match_id, host_id, host_name),
                )
                await self._insert_event(match_id, 1, "created", host_id, 0, None, [], [], "", now)
        except sqlite3.IntegrityError as error:
            if "one_unfinished_match_per_channel" in str(error) or "matches.channel_id" in str(error):
                raise ChannelBusy(channel_id) from error
            raise
        record = await self.match(int(match_id or 0))
        assert record is not None
        return record

    async def _insert_event(self, match_id: int, seq: int, kind: str, user_id: int | None, seat: int | None,
                            action: dict[str, Any] | None, events: list[dict[str, Any]], draws: list[int],
                            text: str, now: str) -> None:
        await self._db.execute(
            "INSERT INTO events (match_id, seq, kind, user_id, seat, action_json, events_json, draws_json, text, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, seq, kind, user_id, seat, _dumps(action) if action is not None else None, _dumps(events),
             _dumps(draws), text, now),
        )

    async def _bump(self, match_id: int, expected_version: int, **columns: Any) -> int:
        """Raise VersionClash unless the match is at `expected_version`; then set columns and the next version."""
        rows = await self._fetchall("SELECT version FROM matches WHERE id = ?", (match_id,))
        if not rows or rows[0]["version"] != expected_version:
            raise VersionClash(match_id)
        assignments = ", ".join(f"{name} = ?" for name in columns)
        params = [*columns.values(), _now(), expected_version + 1, match_id]
        prefix = f"{assignments}, " if assignments else ""
        await self._db.execute(f"UPDATE matches SET {prefix}updated_at = ?, version = ? WHERE id = ?", params)
        return expected_version + 1

    async def record(
        self,
        match_id: int,
        expected_version: int,
        kind: str,
        *,
        user_id: int | None = None,
        seat: int | None = None,
        action: dict[str, Any] | None = None,
        events: list[dict[str, Any]] | None = None,
        draws: list[int] | None = None,
        text: str = "",
        state: dict[str, Any] | None = None,
        status: str | None = None,
        host_id: int | None = None,
        seats: list[tuple[int, str]] | None = None,
        profiles: dict[tuple[int, int, str], dict[str, Any]] | None = None,
    ) -> int:
        """Append one event and apply its effects to the match, atomically. Returns the new version.

        `seats`, when given, replaces the seating (user id, name) in seat order. `profiles` maps
        (guild, user, game) to a new per-player record written in the same transaction.
        """
        now = _now()
        columns: dict[str, Any] = {}
        if state is not None:
            columns["state_json"] = _dumps(state)
        if status is not None:
            columns["status"] = status
        if host_id is not None:
            columns["host_id"] = host_id
        try:
            async with self._transaction():
                version = await self._bump(match_id, expected_version, **columns)
                await self._insert_event(match_id, version, kind, user_id, seat, action, events or [], draws or [],
                                         text, now)
                if seats is not None:
                    await self._db.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
                    await self._db.executemany(
                        "INSERT INTO seats (match_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                        [(match_id, index, uid, name) for index, (uid, name) in enumerate(seats)],
                    )
                if state is not None and version % SNAPSHOT_EVERY == 0:
                    await self._db.execute(
                        "INSERT OR REPLACE INTO snapshots (match_id, seq, state_json) VALUES (?, ?, ?)",
                        (match_id, version, columns["state_json"]),
                    )
                for (guild_id, uid, game), data in (profiles or {}).items():
                    await self._upsert_profile(guild_id, uid, game, data, now)
        except sqlite3.IntegrityError as error:
            if status in OPEN_STATUSES and "one_unfinished_match_per_channel" in str(error):
                raise ChannelBusy(match_id) from error
            raise
        return version
