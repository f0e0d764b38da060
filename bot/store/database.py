"""The store: matches, seats, the append-only event log, snapshots, per-player profiles and scheduled work.

Two engines, one interface (bot/store/engines.py): SQLite through aiosqlite for a file path (the default), and
PostgreSQL through asyncpg for a `postgresql://` URL, so several bot processes (shards) can share one database.

Concurrency: every write runs in one transaction (`BEGIN IMMEDIATE` on SQLite, a pooled connection on PostgreSQL)
and changes a match only through `UPDATE ... WHERE id = ? AND version = ?`. That conditional update is the final
word between processes: a stale writer matches no row and gets VersionClash, however many processes share the
database (the service's per-channel asyncio lock only saves work inside one process).

Adding to the store, for both engines at once:

* A migration: append a string to `MIGRATIONS` in schema.py, written in SQLite's syntax with upper-case types
  `INTEGER`, `TEXT`, `REAL`, `BLOB` and `INTEGER PRIMARY KEY` ids; PostgreSQL gets BIGINT, DOUBLE PRECISION, BYTEA
  and identity ids mechanically (`engines.postgres_ddl`). Partial indexes, `REFERENCES ... ON DELETE CASCADE`,
  `CREATE ... IF NOT EXISTS` and `ALTER TABLE ... ADD COLUMN` work on both. Avoid SQLite-only features
  (`INSERT OR REPLACE`, `WITHOUT ROWID`, untyped columns); separate statements with `;` and never put one in a literal.
* A method: write SQL with `?` placeholders and run it with `self._execute`, `self._executemany`, `self._fetchall`
  or `self._fetchone` (PostgreSQL gets `$1, $2, ...`). Writes go inside `async with self._transaction():`.
  Use `INSERT ... RETURNING id` rather than `lastrowid`, `INSERT ... ON CONFLICT (...) DO UPDATE SET x = excluded.x`
  for upserts, give every subquery in FROM an alias, and store times as ISO text or integer epoch seconds.
  Where the engines truly differ, branch on `self.dialect` ("sqlite" or "postgresql"), as `claim_due` does.
  Code written for the single-engine store ports as is where it awaits `self._db.execute(sql, params)` or
  `self._db.executemany(...)`: `_db` is now the engine, whose result has `.rowcount` and `.lastrowid` (on
  PostgreSQL the `id` of the inserted row, through an added `RETURNING id`). `async with self._db.execute(...)
  as cursor` becomes `self._fetchall`/`self._fetchone`. Catch `self._engine.integrity_errors`, not
  `sqlite3.IntegrityError`; values come back as the same Python types on both engines.
* Tests: the `store`, `service` and `database` fixtures run every test on both engines (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.store.backup import Progress, Ticker, backup_path, write_backup
from bot.store.community import WORK_COLUMNS, CommunityChange, CommunityStore, work_from
from bot.store.engines import (
    Engine,
    Row,
    cannot_write,
    is_postgres_url,
    open_engine,
    patient,
    redact,
)
from bot.store.members import MemberStore
from bot.store.records import (
    OPEN_STATUSES,
    ChannelBusy,
    EventRecord,
    MatchRecord,
    ScheduledWork,
    SeatRecord,
    SeatResult,
    StoreError,
    VersionClash,
)
from bot.store.records_store import RecordsStore
from bot.store.schema import MIGRATIONS, RESULTS_MIGRATION, SCHEMA_VERSION

log = logging.getLogger(__name__)

DECODED_KEPT = 256
"""Matches whose latest state this process keeps decoded (see `Store._state_of`)."""

COPY_BATCH = 5000
"""Rows inserted per statement when `expedition-bot migrate` copies a table (progress is told between batches)."""

SNAPSHOT_EVERY = 25
"""Keep a full state snapshot every this many events, beside the current state on the match row."""

INSERT_EVENT = ("INSERT INTO events (match_id, seq, kind, user_id, seat, action_json, events_json, draws_json, text, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
UPSERT_SNAPSHOT = ("INSERT INTO snapshots (match_id, seq, state_json) VALUES (?, ?, ?) "
                   "ON CONFLICT (match_id, seq) DO UPDATE SET state_json = excluded.state_json")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class Encoded:
    """A state already encoded as JSON text, so that `record` does not encode it a second time."""

    text: str


def _read_only(location: str | os.PathLike[str], error: BaseException) -> str:
    """The one sentence that refuses a database this process cannot write."""
    where = redact(os.fspath(location))
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    if isinstance(location, str) and is_postgres_url(location):
        fix = "grant its role SELECT, INSERT, UPDATE and DELETE on the bot's tables (and use the primary server)"
    else:
        fix = "let the user running the bot write the file and its folder"
    return (f"The database {where} cannot be written ({reason}): the bot saves every move there, so {fix}, or "
            "point --db at another database.")


def _epoch(moment: datetime | float) -> int:
    return int(moment.timestamp()) if isinstance(moment, datetime) else int(moment)


class Store(RecordsStore, CommunityStore, MemberStore):
    """All persistence for the bot. Open with `await Store.open(path_or_url)`, close with `await store.close()`."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._decoded: OrderedDict[int, tuple[str, dict[str, Any]]] = OrderedDict()
        self.path = engine.location
        self.dialect = engine.dialect
        self.backup: Path | None = None
        """The backup written next to a SQLite file before this process upgraded it (None: no upgrade, or none
        asked for)."""

    @property
    def engine(self) -> Engine:
        """The database engine under the store (tests and tools look at the statements it runs)."""
        return self._engine

    @classmethod
    async def open(cls, location: str | os.PathLike[str], *, pool_size: int = 10,
                   deadline: float | None = None, writable: bool = True, backup: bool = True,
                   progress: Progress | None = None) -> Store:
        """Open (creating if needed), check and migrate the database; refuse, in one sentence, a damaged SQLite file
        (StoreDamaged), one written by a newer version, and one this process cannot write (a read-only file or
        folder, a role without the privileges).

        `location` is a SQLite file path, or a `postgresql://user:password@host:port/db` URL (query parameters
        other than libpq's are server settings: `?search_path=bots` keeps the tables in that schema). `deadline`
        is the longest any later call waits for the database (default `engines.DEADLINE_SECONDS`).
        Before a SQLite file of an older schema is upgraded, a consistent backup of it is written next to it
        (`backup=False` skips it; the path is `store.backup`); `progress` hears how a long backup or upgrade goes
        (default: the log). `writable=False` only reads (`expedition-bot migrate`'s source): a SQLite file is
        opened read-only and must exist, and nothing is migrated (`schema_version()` tells an older one).
        """
        report = progress or log.info
        if not writable and not is_postgres_url(location) and not os.path.isfile(os.fspath(location)):
            raise StoreError(f"There is no database at {os.fspath(location)}: check the path.")
        try:
            engine = await open_engine(location, pool_size=pool_size, deadline=deadline, read_only=not writable)
        except Exception as error:
            if cannot_write(error):
                raise StoreError(_read_only(location, error)) from error
            raise
        store = cls(engine)
        try:
            with patient():  # an upgrade of a large database may take long: it is not a player waiting
                if writable:
                    await store._migrate(backup=backup, progress=report)
                    await store._check_writable()
                else:
                    await store._refuse_newer(await engine.schema_version())
        except Exception as error:
            await engine.close()
            if cannot_write(error):
                raise StoreError(_read_only(location, error)) from error
            raise
        except BaseException:
            await engine.close()
            raise
        return store

    async def close(self) -> None:
        await self._engine.close()

    @property
    def _db(self) -> Engine:
        """The engine, for `await self._db.execute(sql, params)` in methods written before there were two."""
        return self._engine

    async def schema_version(self) -> int:
        return await self._engine.schema_version()

    async def _refuse_newer(self, current: int) -> None:
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"The database {redact(self.path)} was written by a newer Expedition Table (schema {current}; "
                f"this version knows up to {SCHEMA_VERSION}). Upgrade the bot, or point it at another database."
            )

    async def _migrate(self, *, backup: bool = True, progress: Progress = log.info) -> None:
        """Every pending migration in one transaction, so an upgrade is all or nothing, and one process at a time;
        a SQLite file is backed up first (inside the transaction, so the backup is exactly what was upgraded)."""
        async with self._transaction():
            await self._engine.lock_for_migration()
            current = await self._engine.schema_version()
            await self._refuse_newer(current)
            if current == SCHEMA_VERSION:
                return
            if current > 0 and backup and self.dialect == "sqlite" and self.path != ":memory:":
                self.backup = await self._back_up(current, progress)
            ticker = Ticker(progress, f"Upgrading {redact(self.path)} to schema {SCHEMA_VERSION}")
            for migration in MIGRATIONS[current:]:
                for statement in migration.split(";"):
                    if statement.strip():
                        await self._engine.execute(self._engine.ddl(statement))
            if current < RESULTS_MIGRATION:  # the finished matches' results, from their final states (read with
                await self.fill_match_results(  # the columns of every migration: a lesson keeps none)
                    progress=lambda filled: ticker.tick(f"results of {filled:,} finished matches kept"))
            await self._engine.set_schema_version(SCHEMA_VERSION)
            if current > 0:
                progress(f"Upgraded {redact(self.path)} from schema {current} to {SCHEMA_VERSION}.")

    async def _back_up(self, version: int, progress: Progress) -> Path:
        """The consistent copy of the file at schema `version` that an upgrade leaves next to it (in a thread)."""
        target = backup_path(self.path, version)
        progress(f"Backing up {self.path} (schema {version}) to {target} before upgrading it to schema "
                 f"{SCHEMA_VERSION} (--no-backup skips this)...")
        try:
            await asyncio.to_thread(write_backup, self.path, target, progress)
        except OSError as error:
            raise StoreError(f"Could not back up {self.path} to {target} before upgrading it ({error}): make room "
                             "next to it, or start with --no-backup to upgrade it without a backup.") from error
        progress(f"Backed up {self.path} to {target}: if the upgraded bot must be undone, stop it and put that "
                 "file back in place of the database.")
        return target

    async def _check_writable(self) -> None:
        """Raise the engine's own error if this process may not write every table: the schema version is written
        back as it is and every table takes a row-less INSERT, UPDATE and DELETE, then all is rolled back."""

        class _RollBack(Exception):
            pass

        try:
            async with self._transaction():
                await self._engine.set_schema_version(await self._engine.schema_version())
                for table in await self._engine.tables():
                    columns = await self._columns(table)
                    await self._execute(f'DELETE FROM "{table}" WHERE 1 = 0')
                    await self._execute(f'INSERT INTO "{table}" SELECT * FROM "{table}" WHERE 1 = 0')
                    await self._execute(f'UPDATE "{table}" SET "{columns[0]}" = "{columns[0]}" WHERE 1 = 0')
                raise _RollBack
        except _RollBack:
            pass

    async def _columns(self, table: str) -> list[str]:
        if self.dialect == "sqlite":
            return [row["name"] for row in await self._fetchall(f'PRAGMA table_info("{table}")')]
        rows = await self._fetchall("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                                    "current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))
        return [row["column_name"] for row in rows]

    @asynccontextmanager
    async def _transaction(self, durable: bool = True) -> AsyncIterator[None]:
        async with self._engine.transaction(durable):
            yield

    async def _execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one write statement (inside `_transaction`); returns the number of rows it changed."""
        return (await self._engine.execute(sql, tuple(params))).rowcount

    async def _executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self._engine.executemany(sql, [tuple(row) for row in rows])

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self._engine.fetchall(sql, tuple(params))

    async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self._engine.fetchall(sql, tuple(params))
        return rows[0] if rows else None

    # ----------------------------------------------------------------------------------------------- reading

    async def _match_from_row(self, row: Row) -> MatchRecord:
        """A match from its `matches` row, reading its seats (for queries that select matches alone)."""
        seats = await self._fetchall(
            "SELECT seat, user_id, name FROM seats WHERE match_id = ? ORDER BY seat", (row["id"],)
        )
        return self._record_from(row, tuple(SeatRecord(s["seat"], s["user_id"], s["name"]) for s in seats))

    def _state_of(self, match_id: int, text: str | None) -> dict[str, Any] | None:
        """A match's state from its stored text, decoded once: a move's state is read again by the board that
        follows it and by the next move, and a state that is the same text as last time is the same object (states
        are never changed in place: the rules copy before they change one)."""
        if text is None:
            return None
        kept = self._decoded.get(match_id)
        if kept is not None and kept[0] == text:
            self._decoded.move_to_end(match_id)
            return kept[1]
        state: dict[str, Any] = json.loads(text)
        self._keep_decoded(match_id, text, state)
        return state

    def _keep_decoded(self, match_id: int, text: str, state: dict[str, Any]) -> None:
        self._decoded[match_id] = (text, state)
        self._decoded.move_to_end(match_id)
        while len(self._decoded) > DECODED_KEPT:
            self._decoded.popitem(last=False)

    def _record_from(self, row: Row, seats: tuple[SeatRecord, ...]) -> MatchRecord:
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
            state=self._state_of(row["id"], row["state_json"]),
            seats=seats,
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            lesson=bool(row["lesson"]),
        )

    async def _matches(self, where: str, params: Iterable[Any] = ()) -> list[MatchRecord]:
        """Matches with their seats in one query (one round trip: every move reads its match twice)."""
        rows = await self._fetchall(
            "SELECT m.*, s.seat AS seat_number, s.user_id AS seat_user_id, s.name AS seat_name "
            f"FROM matches m LEFT JOIN seats s ON s.match_id = m.id WHERE {where} ORDER BY m.id, s.seat",
            params,
        )
        grouped: dict[int, tuple[Row, list[SeatRecord]]] = {}
        for row in rows:
            _, seats = grouped.setdefault(row["id"], (row, []))
            if row["seat_number"] is not None:
                seats.append(SeatRecord(row["seat_number"], row["seat_user_id"], row["seat_name"]))
        return [self._record_from(row, tuple(seats)) for row, seats in grouped.values()]

    async def open_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's unfinished match (in its lobby or being played), if any."""
        found = await self._matches("m.channel_id = ? AND m.status IN ('lobby', 'active')", (channel_id,))
        return found[0] if found else None

    async def latest_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's most recent match, finished or not (for /game board after the end)."""
        found = await self._matches(
            "m.id = (SELECT MAX(id) FROM matches WHERE channel_id = ?)", (channel_id,)
        )
        return found[0] if found else None

    async def match(self, match_id: int) -> MatchRecord | None:
        found = await self._matches("m.id = ?", (match_id,))
        return found[0] if found else None

    async def events(self, match_id: int, *, after: int = 0, last: int | None = None) -> list[EventRecord]:
        """The match's event log in order; `last` keeps only the newest that many."""
        if last is not None:
            rows = await self._fetchall(
                "SELECT * FROM (SELECT * FROM events WHERE match_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?) "
                "AS recent ORDER BY seq",
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

    async def set_board_message(self, match_id: int, message_id: int, version: int | None = None) -> None:
        """Remember the message showing the match's latest board, and the match version it was posted at.

        Presentation only: it does not change the match's version, so it never makes a board stale; and its commit
        does not wait for the disk (a move pays for one flush: its own). A crash in the next moment may forget it
        (never a move): the board recorded before it then counts as the match's board.
        """
        async with self._transaction(durable=False):
            if version is None:
                await self._execute("UPDATE matches SET board_message_id = ? WHERE id = ?", (message_id, match_id))
            else:
                await self._execute("UPDATE matches SET board_message_id = ?, board_version = ? WHERE id = ?",
                                    (message_id, version, match_id))

    async def board_version(self, match_id: int) -> int | None:
        """The match version its board message was posted at (None: no board recorded, or posted before this was
        kept)."""
        rows = await self._fetchall("SELECT board_version FROM matches WHERE id = ?", (match_id,))
        return rows[0]["board_version"] if rows else None

    async def claim_board(self, match_id: int, seen: int, version: int) -> bool:
        """Claim the posting of the board of `version` when the recorded board is still the one posted at `seen`:
        of two processes that find the same board behind, exactly one gets True."""
        async with self._transaction():
            changed = await self._execute("UPDATE matches SET board_version = ? WHERE id = ? AND board_version = ?",
                                          (version, match_id, seen))
        return changed == 1

    async def save_profile(self, guild_id: int, user_id: int, game: str, data: dict[str, Any]) -> None:
        """Write one player's record for a game on a server (an admin correcting campaign progress, say)."""
        async with self._transaction():
            await self._upsert_profile(guild_id, user_id, game, data, _now())

    async def lesson_progress(self, match_id: int) -> dict[str, Any] | None:
        """What a lesson or teaching table has told so far (bot/features/lessons.py); None before it told anything."""
        rows = await self._fetchall("SELECT data_json FROM lesson_progress WHERE match_id = ?", (match_id,))
        return json.loads(rows[0]["data_json"]) if rows else None

    async def save_lesson_progress(self, match_id: int, data: dict[str, Any]) -> None:
        """Keep what a lesson or teaching table has told, as the match's own record (one row per match)."""
        async with self._transaction(durable=False):  # presentation: a crash may tell an idea twice, never lose a move
            await self._execute(
                "INSERT INTO lesson_progress (match_id, data_json, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET data_json = excluded.data_json, updated_at = excluded.updated_at",
                (match_id, _dumps(data), _now()))

    async def _upsert_profile(self, guild_id: int, user_id: int, game: str, data: dict[str, Any], now: str) -> None:
        await self._execute(
            "INSERT INTO profiles (guild_id, user_id, game, data_json, updated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id, game) DO UPDATE SET data_json = excluded.data_json, "
            "updated_at = excluded.updated_at",
            (guild_id, user_id, game, _dumps(data), now),
        )

    async def active_matches(self) -> list[MatchRecord]:
        """Every unfinished match (the bot registers nothing per match at start-up, but admins may list them)."""
        return await self._matches("m.status IN ('lobby', 'active')")

    async def finished_behind_their_board(self) -> list[MatchRecord]:
        """Finished matches whose last posted board shows an earlier version (the process stopped between the final
        move and its board)."""
        return await self._matches("m.status = 'finished' AND m.board_version IS NOT NULL "
                                   "AND m.board_version < m.version")

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
        community: CommunityChange | None = None,
        lesson: bool = False,
    ) -> MatchRecord:
        """A new match in its lobby with the host seated; ChannelBusy if the channel has an unfinished one."""
        now = _now()
        try:
            async with self._transaction():
                inserted = await self._fetchone(
                    "INSERT INTO matches (guild_id, channel_id, game, mode, status, host_id, seed, seed_chosen, "
                    "options_json, data_version, version, created_at, updated_at, lesson) "
                    "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, 1, ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, game, mode, host_id, seed, int(seed_chosen), _dumps(options),
                     data_version, now, now, int(lesson)),
                )
                assert inserted is not None
                match_id = int(inserted["id"])
                await self._execute(
                    "INSERT INTO seats (match_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (match_id, host_id, host_name),
                )
                await self._insert_event(match_id, 1, "created", host_id, 0, None, [], [], "", now)
                await self._apply_community(match_id, community)  # its expiry, queued with it
        except self._engine.integrity_errors as error:
            if "one_unfinished_match_per_channel" in str(error) or "matches.channel_id" in str(error):
                raise ChannelBusy(channel_id) from error
            raise
        record = await self.match(match_id)
        assert record is not None
        return record

    async def _insert_event(self, match_id: int, seq: int, kind: str, user_id: int | None, seat: int | None,
                            action: dict[str, Any] | None, events: list[dict[str, Any]], draws: list[int],
                            text: str, now: str) -> None:
        await self._execute(
            INSERT_EVENT,
            (match_id, seq, kind, user_id, seat, _dumps(action) if action is not None else None, _dumps(events),
             _dumps(draws), text, now),
        )

    async def _bump(self, match_id: int, expected_version: int, *, stamped: str | None = None, **columns: Any) -> int:
        """Raise VersionClash unless the match is at `expected_version`; then set columns and the next version (and
        `updated_at` to `stamped`, default now)."""
        assignments = ", ".join(f"{name} = ?" for name in columns)
        params = [*columns.values(), stamped or _now(), expected_version + 1, match_id, expected_version]
        prefix = f"{assignments}, " if assignments else ""
        # The version condition, not a read before it: on PostgreSQL a concurrent writer waits for our row lock and
        # then finds the version moved on, so of two processes pressing the same button exactly one row is updated.
        updated = await self._fetchone(
            f"UPDATE matches SET {prefix}updated_at = ?, version = ? WHERE id = ? AND version = ? RETURNING version",
            params,
        )
        if updated is None:
            raise VersionClash(match_id)
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
        state: dict[str, Any] | Encoded | None = None,
        status: str | None = None,
        host_id: int | None = None,
        seats: list[tuple[int, str]] | None = None,
        profiles: dict[tuple[int, int, str], dict[str, Any]] | None = None,
        community: CommunityChange | None = None,
        results: Sequence[SeatResult] | None = None,
        now: str | None = None,
    ) -> int:
        """Append one event and apply its effects to the match, atomically. Returns the new version.

        `seats`, when given, replaces the seating (user id, name) in seat order. `profiles` maps
        (guild, user, game) to a new per-player record written in the same transaction. `community` replaces the
        match's scheduled work and seat owners in the same transaction (bot/store/community.py). `results`, given
        with the status that finishes the match, are each seat's result, kept for /stats. `now` is the time
        stamped on the match and the event (default: the current time); `state` may be given already encoded
        (`Encoded`), by a caller that keeps the text.
        """
        now = now or _now()
        columns: dict[str, Any] = {}
        if state is not None:
            columns["state_json"] = state.text if isinstance(state, Encoded) else _dumps(state)
        if status is not None:
            columns["status"] = status
        if host_id is not None:
            columns["host_id"] = host_id
        try:
            # --- bench_scale (issue 13): a move on PostgreSQL is one statement, one round trip -----------------
            # That statement writes the match row, the event and the snapshot only: an argument added to `record`
            # that writes anything else must keep its calls out of this path (add it to the condition).
            if seats is None and not profiles and community is None and results is None and status != "abandoned":
                event = (kind, user_id, seat, _dumps(action) if action is not None else None, _dumps(events or []),
                         _dumps(draws or []), text, now)
                if self.dialect == "postgresql":
                    return await self._record_in_one_statement(match_id, expected_version, columns, event)
                return await self._record_in_one_trip(match_id, expected_version, columns, event)
            # --- end bench_scale ---------------------------------------------------------------------------------
            async with self._transaction():
                version = await self._bump(match_id, expected_version, stamped=now, **columns)
                await self._insert_event(match_id, version, kind, user_id, seat, action, events or [], draws or [],
                                         text, now)
                if seats is not None:
                    await self._execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
                    await self._executemany(
                        "INSERT INTO seats (match_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                        [(match_id, index, uid, name) for index, (uid, name) in enumerate(seats)],
                    )
                if state is not None and version % SNAPSHOT_EVERY == 0:
                    await self._execute(UPSERT_SNAPSHOT, (match_id, version, columns["state_json"]))
                for (guild_id, uid, game), data in (profiles or {}).items():
                    await self._upsert_profile(guild_id, uid, game, data, now)
                await self._apply_community(match_id, community)
                if results is not None:
                    await self._insert_results(match_id, results, now)
                if status == "abandoned":  # a table ended unfinished: no final board to word, its lesson goes
                    await self._execute("DELETE FROM lesson_progress WHERE match_id = ?", (match_id,))
        except self._engine.integrity_errors as error:
            if status in OPEN_STATUSES and "one_unfinished_match_per_channel" in str(error):
                raise ChannelBusy(match_id) from error
            raise
        return version

    # --- bench_scale (issue 13): a move in one round trip, and its match without reading it back ---------------

    async def _record_in_one_statement(self, match_id: int, expected_version: int, columns: dict[str, Any],
                                       event: tuple[Any, ...]) -> int:
        """PostgreSQL: `record`'s conditional UPDATE, event INSERT and snapshot as one statement.

        Data-modifying CTEs run in the statement's own transaction, so this is as atomic as `record`'s
        transaction, in one round trip instead of four (BEGIN, UPDATE, INSERT, COMMIT): round trips were most of
        a move's cost, to the bot process and to the server alike. The INSERTs read the UPDATE's RETURNING rows,
        so a stale version updates nothing and inserts nothing. Only moves take this path; a change of seats or
        of profiles (lobby commands, a game's end) goes through the transaction.
        """
        version = expected_version + 1
        assignments = "".join(f"{name} = ?, " for name in columns)
        snapshot = "state_json" in columns and version % SNAPSHOT_EVERY == 0
        sql = (
            f"WITH bumped AS (UPDATE matches SET {assignments}updated_at = ?, version = ? "
            "WHERE id = ? AND version = ? RETURNING id, version, state_json), "
            "logged AS (INSERT INTO events (match_id, seq, kind, user_id, seat, action_json, events_json, "
            "draws_json, text, created_at) SELECT id, version, ?::text, ?::bigint, ?::bigint, ?::text, ?::text, "
            "?::text, ?::text, ?::text FROM bumped)"
            + (", snapped AS (INSERT INTO snapshots (match_id, seq, state_json) SELECT id, version, state_json "
               "FROM bumped ON CONFLICT (match_id, seq) DO UPDATE SET state_json = excluded.state_json)"
               if snapshot else "")
            + " SELECT version FROM bumped"
        )
        updated = await self._fetchone(
            sql, (*columns.values(), event[-1], version, match_id, expected_version, *event)
        )
        if updated is None:
            raise VersionClash(match_id)
        return version

    async def _record_in_one_trip(self, match_id: int, expected_version: int, columns: dict[str, Any],
                                  event: tuple[Any, ...]) -> int:
        """SQLite: `record`'s transaction (the conditional UPDATE, the event, the snapshot) in one trip to the
        database's thread instead of four (Engine.write_if): each trip is a hand-off between threads that the event
        loop pays for, ~0.1 ms of its time and a wake-up on a busy machine (issue 25's loop lag)."""
        version = expected_version + 1
        assignments = "".join(f"{name} = ?, " for name in columns)
        guard = (f"UPDATE matches SET {assignments}updated_at = ?, version = ? WHERE id = ? AND version = ? "
                 "RETURNING version", (*columns.values(), event[-1], version, match_id, expected_version))
        then = [(INSERT_EVENT, (match_id, version, *event))]
        if "state_json" in columns and version % SNAPSHOT_EVERY == 0:
            then.append((UPSERT_SNAPSHOT, (match_id, version, columns["state_json"])))
        if await self._engine.write_if(guard, then) is None:
            raise VersionClash(match_id)
        return version

    async def record_move(self, match: MatchRecord, kind: str, *, state: dict[str, Any], status: str | None = None,
                          user_id: int | None = None, seat: int | None = None, action: dict[str, Any] | None = None,
                          events: list[dict[str, Any]] | None = None, draws: list[int] | None = None,
                          text: str = "", profiles: dict[tuple[int, int, str], dict[str, Any]] | None = None,
                          community: CommunityChange | None = None,
                          results: Sequence[SeatResult] | None = None) -> MatchRecord:
        """`record` a change of state, and return the match as reading it back would, without reading it back.

        The state is encoded once and decoded from that text, so the record holds exactly what a fresh read
        gives (JSON types: lists, not tuples; string keys); everything else the move does not change is kept
        from `match`. Moves use this: the read back was a round trip and a state decode on every move.
        """
        now = _now()
        encoded = Encoded(_dumps(state))
        version = await self.record(match.id, match.version, kind, user_id=user_id, seat=seat, action=action,
                                    events=events, draws=draws, text=text, state=encoded, status=status,
                                    profiles=profiles, community=community, results=results, now=now)
        decoded = json.loads(encoded.text)
        self._keep_decoded(match.id, encoded.text, decoded)  # the board and the next move read it again
        return replace(match, version=version, state=decoded, status=status or match.status, updated_at=now)

    # --- end bench_scale ---------------------------------------------------------------------------------------

    # ----------------------------------------------------------------------------------------------- scheduled work

    async def schedule_work(self, kind: str, due_at: datetime | float, *, match_id: int | None = None,
                            guild_id: int | None = None, channel_id: int | None = None,
                            payload: dict[str, Any] | None = None) -> int:
        """Queue work (a reminder, a timer) to run at `due_at` (a datetime or epoch seconds); returns its id."""
        async with self._transaction():
            row = await self._fetchone(
                "INSERT INTO scheduled_work (kind, match_id, guild_id, channel_id, due_at, payload) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (kind, match_id, guild_id, channel_id, _epoch(due_at), _dumps(payload or {})),
            )
        assert row is not None
        return int(row["id"])

    async def claim_due(self, kind_prefix: str, now: datetime | float, limit: int,
                        lease_seconds: int) -> list[ScheduledWork]:
        """Claim up to `limit` unfinished items whose kind starts with `kind_prefix` and that are due at `now`.

        A claimed item is leased until `now + lease_seconds`: no other process (or call) gets it before then, so
        one reminder is sent once however many bot processes poll. Mark it done with `finish_work`; if the claimer
        dies, the lease runs out and another process claims it. PostgreSQL claims with `FOR UPDATE SKIP LOCKED`
        (concurrent claimers take disjoint rows without waiting); SQLite's `BEGIN IMMEDIATE` admits one claimer at
        a time across every process on the file.
        """
        moment = _epoch(now)
        lock = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
        async with self._transaction():
            rows = await self._fetchall(
                "UPDATE scheduled_work SET claimed_until = ? WHERE id IN ("
                "SELECT id FROM scheduled_work WHERE done_at IS NULL AND due_at <= ? "
                "AND (claimed_until IS NULL OR claimed_until <= ?) AND substr(kind, 1, ?) = ? "
                f"ORDER BY due_at, id LIMIT ?{lock}) RETURNING {WORK_COLUMNS}",
                (moment + int(lease_seconds), moment, moment, len(kind_prefix), kind_prefix, int(limit)),
            )
        work = [work_from(row) for row in rows]
        return sorted(work, key=lambda item: (item.due_at, item.id))

    async def finish_work(self, work_id: int, now: datetime | float) -> bool:
        """Mark claimed work done so it is never claimed again; False if it was already done."""
        async with self._transaction():
            changed = await self._execute(
                "UPDATE scheduled_work SET done_at = ? WHERE id = ? AND done_at IS NULL", (_epoch(now), work_id)
            )
        return changed == 1

    # ----------------------------------------------------------------------------------------------- copying

    async def tables(self) -> list[str]:
        """The application's tables, `matches` first so that copying them in this order satisfies foreign keys."""
        names = await self._engine.tables()
        return sorted(names, key=lambda name: (name != "matches", name))

    async def table_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Every row of a table as (column names, value tuples), for `expedition-bot migrate`."""
        if table not in await self._engine.tables():
            raise StoreError(f"No table {table!r} in {redact(self.path)}.")
        rows = await self._fetchall(f'SELECT * FROM "{table}"')
        if not rows:
            return [], []
        return list(rows[0].keys()), [tuple(row) for row in rows]

    async def copy_in(self, tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]], *,
                      progress: Progress | None = None) -> None:
        """Insert rows with their ids as they are, in one transaction (into an empty database); `progress` hears
        how far a long copy got, at most once a second."""
        known = set(await self._engine.tables())
        ticker = Ticker(progress or log.info, f"Copying into {redact(self.path)}")
        async with self._transaction():
            for table, (columns, rows) in tables.items():
                if not rows:
                    continue
                if table not in known:
                    raise StoreError(f"The target database has no table {table!r}: is it an older version?")
                names = ", ".join(f'"{column}"' for column in columns)
                marks = ", ".join("?" for _ in columns)
                for first in range(0, len(rows), COPY_BATCH):
                    await self._executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
                                            rows[first:first + COPY_BATCH])
                    ticker.tick(f"{min(first + COPY_BATCH, len(rows)):,} of {len(rows):,} rows of {table}")
            await self._engine.after_copy()
