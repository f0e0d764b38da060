"""Reads made with a connection of their own: the records worker (bot/workers.py) reads a long game's events itself,
so the bot's event loop fetches, builds and pickles none of them (a 2,000-move game is 2,000 rows); and the bot
makes the reads that count many rows (a leaderboard place, a career for /stats) in a thread with one, so on SQLite
they never hold up the moves' statements on the store's one connection (`fetch_named`).

Synchronous, for a worker process or a thread: SQLite through the standard library, opened read-only (`mode=ro`, so
a worker can never change the bot's file), PostgreSQL through a short-lived asyncpg connection in a read-only
transaction. Both give up after the store's deadline; any failure comes back as StoreUnavailable (a damaged file as
StoreDamaged), which pickles (a driver's own exception may not).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from typing import Any, Literal, overload

from bot.store.backup import damaged, is_damage, read_only_uri
from bot.store.engines import DEADLINE_SECONDS, is_postgres_url, numbered_placeholders, redact
from bot.store.records import EventColumns, StoreUnavailable

EVENT_COLUMNS_SQL = ("SELECT seq, kind, user_id, seat, action_json, events_json, draws_json, text, created_at "
                     "FROM events WHERE match_id = ? ORDER BY seq")
"""A match's events as stored (`EventColumns`), in order."""


def event_columns(location: str, match_id: int) -> list[EventColumns]:
    """The match's events as stored, JSON undecoded (`decode_event` decodes one)."""
    return [tuple(row) for row in fetch(location, EVENT_COLUMNS_SQL, (match_id,))]


def fetch(location: str, sql: str, params: Sequence[Any]) -> list[Sequence[Any]]:
    """Rows of one query (SQL in the store's dialect, `?` placeholders) on the database at `location`."""
    try:
        if is_postgres_url(location):
            return asyncio.run(_postgres_rows(location, sql, params))
        return _sqlite_rows(location, sql, params)
    except StoreUnavailable:
        raise
    except Exception as error:
        if is_damage(error):  # a malformed page: the file needs its backup, waiting will not help
            raise damaged(location, f"{error} while the bot was reading it") from None
        raise StoreUnavailable(f"{redact(location)}: {type(error).__name__} {error}".strip()) from None


def fetch_named(path: str, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
    """Rows of one query, by column name too, on the SQLite file at `path` with a read-only connection of its own
    (for a thread of the bot: a long read there waits for nothing on the store's one connection, and nothing
    there waits for it)."""
    try:
        return _sqlite_rows(path, sql, params, named=True)
    except Exception as error:
        if is_damage(error):  # a malformed page: the file needs its backup, waiting will not help
            raise damaged(path, f"{error} while the bot was reading it") from None
        raise StoreUnavailable(f"{redact(path)}: {type(error).__name__} {error}".strip()) from None


@overload
def _sqlite_rows(path: str, sql: str, params: Sequence[Any]) -> list[Sequence[Any]]: ...
@overload
def _sqlite_rows(path: str, sql: str, params: Sequence[Any], *, named: Literal[True]) -> list[sqlite3.Row]: ...
def _sqlite_rows(path: str, sql: str, params: Sequence[Any], *, named: bool = False
                 ) -> list[Sequence[Any]] | list[sqlite3.Row]:
    """Rows as tuples (they pickle, for a worker), or by column name too (`named`, for a thread of the bot)."""
    connection = sqlite3.connect(read_only_uri(path), uri=True, timeout=DEADLINE_SECONDS)
    if named:
        connection.row_factory = sqlite3.Row
    try:
        return connection.execute(sql, tuple(params)).fetchall()
    finally:
        connection.close()


async def _postgres_rows(url: str, sql: str, params: Sequence[Any]) -> list[Sequence[Any]]:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=DEADLINE_SECONDS, command_timeout=DEADLINE_SECONDS)
    try:
        async with connection.transaction(readonly=True):
            return [tuple(row) for row in await connection.fetch(numbered_placeholders(sql), *params)]
    finally:
        await connection.close()
