"""The two database engines behind the Store: SQLite (aiosqlite, a file) and PostgreSQL (asyncpg, a URL).

The Store speaks one SQL dialect: SQLite's, restricted to what PostgreSQL also accepts, with `?` placeholders.
Each engine adapts it in exactly two mechanical ways, so new queries and migrations port without a second copy:

* placeholders: PostgreSQL gets `?` rewritten to `$1, $2, ...` (outside quoted literals);
* DDL types (migrations only): PostgreSQL gets `INTEGER PRIMARY KEY [AUTOINCREMENT]` as a BIGINT identity column,
  `INTEGER` as BIGINT (Discord ids need 64 bits), `REAL` as DOUBLE PRECISION and `BLOB` as BYTEA.

Deadlines: no call waits longer than `DEADLINE_SECONDS` for a lock, a pooled connection or an answer (PostgreSQL:
asyncpg's `command_timeout` and the pool's acquire timeout; SQLite: a short `busy_timeout`, retried from the event
loop). Past it the call raises StoreUnavailable, as does a connection the server dropped; a transaction that fails
so is rolled back, so nothing of it is applied. Migrations and copies, which may rightly take long, run `patient()`.

Transactions: `transaction()` is the only way to write. SQLite runs it as `BEGIN IMMEDIATE` (one writer across
every process on the file); PostgreSQL runs it on one pooled connection, and statements issued inside it (through
`execute`/`fetchall`) go to that connection, found through a context variable.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from bot.store.backup import check_problems, damaged, is_damage, read_only_uri
from bot.store.records import StoreUnavailable

log = logging.getLogger(__name__)

Row = Any
"""A row: `sqlite3.Row` or `asyncpg.Record`; both index by column name and by position."""

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_INSERT_INTO = re.compile(r'\s*INSERT\s+INTO\s+"?(\w+)"?', re.IGNORECASE)
MIGRATION_LOCK = 0x45585044  # "EXPD": the advisory lock that serialises migrations across processes

DEADLINE_SECONDS = 5.0
"""The longest one database call may wait (for a lock, a pooled connection or the server's answer): a player is
told the store is not answering rather than left waiting for as long as the database hangs."""
SQLITE_BUSY_MS = 200
"""SQLite's own wait for another process's lock, per attempt. Short, because aiosqlite's one thread sits in it and
every other statement of the bot queues behind; a locked file is retried from the event loop until the deadline."""
SQLITE_RETRY_SECONDS = 0.05
ANNOUNCED_CHECK_BYTES = 1 << 30
"""A file this large is said to be checked (quick_check reads all of it: ~2.5 s per GB from the page cache)."""
_PATIENT: contextvars.ContextVar[bool] = contextvars.ContextVar("expedition-store-patient", default=False)


@contextmanager
def patient() -> Iterator[None]:
    """Calls made inside wait as long as the database needs (migrations, copies between databases)."""
    token = _PATIENT.set(True)
    try:
        yield
    finally:
        _PATIENT.reset(token)


def _sqlite_busy(error: BaseException) -> bool:
    return isinstance(error, sqlite3.OperationalError) and getattr(error, "sqlite_errorname", "").startswith(
        ("SQLITE_BUSY", "SQLITE_LOCKED"))


def cannot_write(error: BaseException) -> bool:
    """Whether `error` says the database refuses this process's writes (a read-only file, folder or file system, a
    PostgreSQL role without the privileges, a read-only transaction or a standby server)."""
    if isinstance(error, sqlite3.OperationalError):
        return getattr(error, "sqlite_errorname", "").startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM",
                                                                   "SQLITE_AUTH"))
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return False
    return isinstance(error, asyncpg.InsufficientPrivilegeError | asyncpg.ReadOnlySQLTransactionError)


def storage_full(error: BaseException) -> bool:
    """Whether `error` (or one it came from) says the database has no room to write: SQLite's "database or disk
    is full", PostgreSQL's disk_full (53100). Nothing of the write was applied, and nothing the player can do helps
    until an admin makes room: they are told so, not pointed at a command that would fail the same way."""
    try:
        import asyncpg
        pg_full: tuple[type[BaseException], ...] = (asyncpg.DiskFullError,)
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        pg_full = ()
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, sqlite3.OperationalError) and getattr(current, "sqlite_errorname", "") == "SQLITE_FULL":
            return True
        if isinstance(current, pg_full):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def is_postgres_url(location: str | os.PathLike[str]) -> bool:
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


def redact(location: str) -> str:
    """The location fit for a log line or an error message: a URL loses its password."""
    if not is_postgres_url(location):
        return location
    parts = urlsplit(location)
    if parts.password is None:
        return location
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


@functools.lru_cache(maxsize=1024)
def numbered_placeholders(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$n`, leaving quoted literals and identifiers alone."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


_PG_TYPES = (
    (re.compile(r"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b"),
     "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b"), "BYTEA"),
)


def postgres_ddl(statement: str) -> str:
    """A migration statement written for SQLite, with PostgreSQL's column types."""
    for pattern, replacement in _PG_TYPES:
        statement = pattern.sub(replacement, statement)
    return statement


def migration_statements(migration: str) -> list[str]:
    """A migration's statements (they are separated by `;` and never contain one in a literal)."""
    return [statement.strip() for statement in migration.split(";") if statement.strip()]


@dataclass(frozen=True)
class Result:
    """What a write statement reports: rows changed, and for an INSERT the new row's id (SQLite's rowid; on
    PostgreSQL the `id` column, when the table has one)."""

    rowcount: int
    lastrowid: int | None = None


T = TypeVar("T")
Statement = tuple[str, Sequence[Any]]
"""One SQL statement and its parameters."""


class Engine(ABC):
    """The interface the Store uses; one subclass per database."""

    dialect: str
    integrity_errors: tuple[type[BaseException], ...]
    location: str

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        """Each engine implements this."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Each engine implements this."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Each engine implements this."""

    @abstractmethod
    def transaction(self, durable: bool = True) -> Any:
        """An async context manager: one atomic write, committed on success and rolled back on any error.

        `durable=False` (presentation only, such as which message shows the board): the commit does not wait for
        the disk, so a move pays for one flush, not two; a crash may lose it (never a move), and the next durable
        commit flushes it with its own."""

    async def write_if(self, guard: Statement, then: Sequence[Statement]) -> list[Row] | None:
        """One atomic write: the `guard` statement (an UPDATE ... RETURNING that matches only the expected row
        version) and, only when it returns rows, the statements `then`; None when it returns none (nothing written).
        Default: a transaction of single statements. SQLite overrides it with one trip to its thread (a move's
        write took four: BEGIN, UPDATE, INSERT, COMMIT, each a hand-off the event loop pays for; issue 25)."""
        async with self.transaction():
            rows = await self.fetchall(*guard)
            if not rows:
                return None
            for sql, params in then:
                await self.execute(sql, params)
            return rows

    async def lock_for_migration(self) -> None:
        """Inside a transaction: keep every other process from migrating at the same time (none needed by default)."""
        return None

    async def check_integrity(self) -> None:
        """Raise StoreDamaged if the database's own check finds it damaged (SQLite; PostgreSQL checks its pages as
        it reads them, so nothing is done by default)."""
        return None

    @abstractmethod
    async def schema_version(self) -> int:
        """Each engine implements this."""

    @abstractmethod
    async def set_schema_version(self, number: int) -> None:
        """Each engine implements this."""

    def ddl(self, statement: str) -> str:
        return statement

    @abstractmethod
    async def tables(self) -> list[str]:
        """The application's tables (not the engine's own bookkeeping)."""

    async def after_copy(self) -> None:
        """After rows were inserted with explicit ids: make the next generated id follow them (default: nothing)."""
        return None

    @abstractmethod
    async def close(self) -> None:
        """Each engine implements this."""


async def _in_aiosqlite_thread(db: aiosqlite.Connection, run: Callable[[sqlite3.Connection], T]) -> T:
    """`run(connection)` queued on aiosqlite's own thread, as its public methods queue theirs: one trip."""
    # aiosqlite leaves its private `_execute` unannotated: the result is what `run` returns.
    result: T = await db._execute(run, db._conn)  # type: ignore[no-untyped-call]
    return result


async def _pragma(connection: aiosqlite.Connection, sql: str) -> None:
    """Run one statement on the connection and close its cursor at once.

    A cursor left for the garbage collector keeps its statement in progress, and SQLite then refuses the next
    COMMIT ("cannot commit transaction - SQL statements in progress") whenever anything holds a reference a moment
    longer: a debugger, asyncio debug mode, or another offline Discord (SimCord) running the bot.
    """
    async with connection.execute(sql) as cursor:
        await cursor.fetchall()


async def _switch_to_wal(connection: aiosqlite.Connection) -> None:
    """WAL mode, once per file. The switch takes an exclusive lock without consulting busy_timeout, so when another
    process is opening a new file at the same moment it is retried for a while instead of failing at once."""
    for attempt in range(100):
        try:
            await _pragma(connection, "PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == 99:
                raise
            await asyncio.sleep(0.05)


class SqliteEngine(Engine):
    """One aiosqlite connection; an asyncio lock keeps two coroutines' transactions from interleaving on it."""

    dialect = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, connection: aiosqlite.Connection, location: str, *,
                 deadline: float = DEADLINE_SECONDS) -> None:
        self._db = connection
        self.location = location
        self.deadline = deadline
        self._write_lock = asyncio.Lock()
        self._inside: contextvars.ContextVar[bool] = contextvars.ContextVar(f"sqlite-tx-{id(self)}", default=False)

    @classmethod
    async def open(cls, location: str, *, deadline: float = DEADLINE_SECONDS,
                   read_only: bool = False) -> SqliteEngine:
        """Open the file (`read_only`: through a `mode=ro` URI, so nothing can write it, and never creating it)
        and check its integrity (`PRAGMA quick_check`, in aiosqlite's thread) before anything else reads or
        changes it: a damaged file raises StoreDamaged naming it and what to do."""
        if read_only:
            connection = await aiosqlite.connect(read_only_uri(location), uri=True, isolation_level=None)
        else:
            connection = await aiosqlite.connect(location, isolation_level=None)
        connection.row_factory = sqlite3.Row
        engine = cls(connection, location, deadline=deadline)
        try:
            # First, so that even switching to WAL waits for another process's lock instead of failing at once.
            await _pragma(connection, f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
            if location != ":memory:":
                await engine.check_integrity()
            if location != ":memory:" and not read_only:
                await _switch_to_wal(connection)
            # FULL: an acknowledged move survives a power cut too; it costs a fraction of a millisecond a commit.
            if not read_only:
                await _pragma(connection, "PRAGMA synchronous=FULL")
            await _pragma(connection, "PRAGMA foreign_keys=ON")
        except BaseException as error:
            await connection.close()
            if is_damage(error):
                raise damaged(location, str(error)) from error
            raise
        return engine

    async def check_integrity(self) -> None:
        """SQLite's `PRAGMA quick_check` over the whole file, in aiosqlite's thread (0.56 s for 30,000 finished
        games, 223 MB, from the page cache; benchmarks/bench_integrity.py): StoreDamaged naming the first problem it
        found, if any. A large file is announced in the log, so a slow start from a cold disk is explained."""
        size = os.path.getsize(self.location) if os.path.isfile(self.location) else 0
        if size >= ANNOUNCED_CHECK_BYTES:
            log.info("Checking %s (%.1f GB) for damage before opening it...", self.location, size / 1e9)
        problems = await _in_aiosqlite_thread(self._db, check_problems)
        if problems:
            raise damaged(self.location, f"SQLite's integrity check found: {problems[0]}")

    # Each statement is one trip to aiosqlite's worker thread (execute, fetch and close together): its public
    # cursor API takes three, and on a busy machine every trip waits for the thread to be scheduled.

    async def _run(self, sql: str, params: Sequence[Any]) -> tuple[list[Row], Result]:
        def run(connection: sqlite3.Connection) -> tuple[list[Row], Result]:
            cursor = connection.execute(sql, tuple(params))
            try:
                rows = cursor.fetchall()
                return rows, Result(cursor.rowcount, cursor.lastrowid)
            finally:
                cursor.close()

        return await self._in_thread(run)

    async def write_if(self, guard: Statement, then: Sequence[Statement]) -> list[Row] | None:
        """`Engine.write_if` in one trip to aiosqlite's thread: BEGIN, the guard, the rest and COMMIT there."""
        if self._inside.get():  # inside a transaction already: its statements, one by one
            return await super().write_if(guard, then)

        def run(connection: sqlite3.Connection) -> list[Row] | None:
            connection.execute("BEGIN IMMEDIATE").close()  # (busy: nothing begun; `_in_thread` tries again)
            try:
                cursor = connection.execute(guard[0], tuple(guard[1]))
                rows = cursor.fetchall()
                cursor.close()
                if rows:
                    for sql, params in then:
                        connection.execute(sql, tuple(params)).close()
                connection.execute("COMMIT").close()
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK").close()
                raise
            return rows or None

        async with self._write_locked():
            return await self._in_thread(run)

    async def trace(self, callback: Callable[[str], object] | None) -> None:
        """Have `callback` see every statement SQLite runs on this connection, as run (None: stop). Tests count a
        move's work with it: it sees statements sent one by one and those sent together (`write_if`) alike."""
        # aiosqlite annotates the handler without None, which sqlite3 takes to stop tracing.
        await self._db.set_trace_callback(callback)  # type: ignore[arg-type]

    async def _in_thread(self, run: Callable[[sqlite3.Connection], T]) -> T:
        """`run(connection)` in aiosqlite's thread; while another process holds the file's lock, again, a while."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.deadline
        while True:
            try:
                return await _in_aiosqlite_thread(self._db, run)
            except sqlite3.DatabaseError as error:  # another process holds the file's lock: retry, a while
                if is_damage(error):  # a malformed page: never "try again", the file needs its backup
                    raise damaged(self.location, f"{error} while the bot was using it") from error
                if not _sqlite_busy(error):
                    raise
                if loop.time() >= give_up and not _PATIENT.get():
                    raise StoreUnavailable(f"{self.location} stayed locked by another process for "
                                           f"{self.deadline:g} s") from error
            await asyncio.sleep(SQLITE_RETRY_SECONDS)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        return (await self._run(sql, params))[1]

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            async with self._db.executemany(sql, [tuple(row) for row in rows]):
                pass  # the cursor is closed on leaving, not left to the garbage collector (see _pragma)
        except sqlite3.DatabaseError as error:
            if is_damage(error):
                raise damaged(self.location, f"{error} while the bot was using it") from error
            raise

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return (await self._run(sql, params))[0]

    @asynccontextmanager
    async def transaction(self, durable: bool = True) -> AsyncIterator[None]:
        if self._inside.get():
            yield  # already inside: the outer transaction commits or rolls back
            return
        async with self._write_locked():
            token = self._inside.set(True)
            try:
                if not durable:  # under the write lock, so no other write commits without its flush
                    await self.execute("PRAGMA synchronous=OFF")
                await self.execute("BEGIN IMMEDIATE")
                try:
                    yield
                except BaseException:
                    await self.execute("ROLLBACK")
                    raise
                else:
                    await self.execute("COMMIT")
            finally:
                if not durable:
                    await self.execute("PRAGMA synchronous=FULL")
                self._inside.reset(token)

    @asynccontextmanager
    async def _write_locked(self) -> AsyncIterator[None]:
        """This process's one write at a time on the connection (its transactions must not interleave)."""
        try:
            async with asyncio.timeout(None if _PATIENT.get() else self.deadline):
                await self._write_lock.acquire()
        except TimeoutError as error:
            raise StoreUnavailable(f"{self.location}: this process's earlier writes held it for "
                                   f"{self.deadline:g} s") from error
        try:
            yield
        finally:
            self._write_lock.release()

    async def schema_version(self) -> int:
        rows = await self.fetchall("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def set_schema_version(self, number: int) -> None:
        await self.execute(f"PRAGMA user_version={int(number)}")

    async def tables(self) -> list[str]:
        rows = await self.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return [row[0] for row in rows]

    async def close(self) -> None:
        await self._db.close()


class PostgresEngine(Engine):
    """An asyncpg pool. Reads take any pooled connection; a transaction holds one until it commits.

    PostgreSQL's default READ COMMITTED isolation is enough for the Store: every write that must not be lost to a
    concurrent one is a conditional UPDATE (`... WHERE version = ?`), which waits for the other writer's row lock
    and then re-checks its condition against the committed row.
    """

    dialect = "postgresql"

    def __init__(self, pool: Any, location: str, *, deadline: float = DEADLINE_SECONDS) -> None:
        import asyncpg

        self._pool = pool
        self.location = location
        self.deadline = deadline
        self.integrity_errors = (asyncpg.IntegrityConstraintViolationError,)
        # What "the server is not answering" looks like: a deadline passed, the connection was dropped (a restart),
        # or the server refuses work for now (shutting down, starting up, a statement cancelled).
        self._unanswered_errors: tuple[type[BaseException], ...] = (
            TimeoutError, OSError, asyncpg.PostgresConnectionError, asyncpg.ConnectionDoesNotExistError,
            asyncpg.OperatorInterventionError, asyncpg.InternalClientError)
        self._connection: contextvars.ContextVar[Any] = contextvars.ContextVar(f"pg-tx-{id(self)}", default=None)
        self._id_tables: dict[str, bool] = {}

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10, deadline: float = DEADLINE_SECONDS) -> PostgresEngine:
        import asyncpg

        # command_timeout: every statement's deadline; timeout: a new connection's (after a restart, say).
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_reset,
                                         command_timeout=deadline, timeout=deadline)
        return cls(pool, url, deadline=deadline)

    def _timeout(self) -> float | None:
        return None if _PATIENT.get() else self.deadline

    @contextmanager
    def _answered(self) -> Iterator[None]:
        """A deadline passed or the connection was lost: StoreUnavailable (the transaction, if any, rolls back)."""
        try:
            yield
        except Exception as error:
            lost = self._lost_connection(error)
            if lost is None:
                raise
            raise StoreUnavailable(f"{redact(self.location)}: {type(lost).__name__} {lost}".strip()) from error

    def _lost_connection(self, error: BaseException) -> BaseException | None:
        """The error (or one it was raised from) that says the server did not answer: asyncpg reports a connection
        cut mid-transaction as an InterfaceError from the transaction's exit, raised from the real cause."""
        seen: set[int] = set()
        current: BaseException | None = error
        while current is not None and id(current) not in seen:
            if isinstance(current, self._unanswered_errors):
                return current
            seen.add(id(current))
            current = current.__cause__ or current.__context__
        return None

    @asynccontextmanager
    async def _target(self) -> AsyncIterator[Any]:
        """The transaction's connection, else a pooled one within the deadline; ValueError once closed, as
        aiosqlite raises."""
        connection = self._connection.get()
        if connection is not None:
            yield connection
            return
        if self._pool.is_closing():
            raise ValueError("Connection closed")
        async with self._pool.acquire(timeout=self._timeout()) as pooled:
            yield pooled

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        with self._answered():
            async with self._target() as target:
                timeout = self._timeout()
                insert = _INSERT_INTO.match(sql)
                if insert and "RETURNING" not in sql.upper() and await self._has_id(target, insert.group(1)):
                    # Like SQLite's lastrowid, so that `(await self._db.execute("INSERT ...")).lastrowid` ports.
                    rows = await target.fetch(numbered_placeholders(f"{sql} RETURNING id"), *params, timeout=timeout)
                    return Result(len(rows), rows[0][0] if rows else None)
                status = await target.execute(numbered_placeholders(sql), *params, timeout=timeout)
        last = status.rsplit(" ", 1)[-1] if isinstance(status, str) else ""
        return Result(int(last) if last.isdigit() else 0)

    async def _has_id(self, target: Any, table: str) -> bool:
        if table not in self._id_tables:
            rows = await target.fetch(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = $1 AND column_name = 'id'",
                table,
            )
            self._id_tables[table] = bool(rows)
        return self._id_tables[table]

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._answered():
            async with self._target() as target:
                await target.executemany(numbered_placeholders(sql), [tuple(row) for row in rows],
                                         timeout=self._timeout())

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._answered():
            async with self._target() as target:
                return list(await target.fetch(numbered_placeholders(sql), *params, timeout=self._timeout()))

    @asynccontextmanager
    async def transaction(self, durable: bool = True) -> AsyncIterator[None]:
        if self._connection.get() is not None:
            yield
            return
        if self._pool.is_closing():
            raise ValueError("Connection closed")
        # The connection is taken, the transaction begun and committed within the deadline; a failure rolls it back.
        with self._answered():
            async with self._pool.acquire(timeout=self._timeout()) as connection, connection.transaction():
                token = self._connection.set(connection)
                try:
                    if not durable:
                        await connection.execute("SET LOCAL synchronous_commit TO OFF", timeout=self._timeout())
                    yield
                finally:
                    self._connection.reset(token)

    async def lock_for_migration(self) -> None:
        await self.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
        if not (await self.fetchall("SELECT to_regclass('schema_version') IS NOT NULL"))[0][0]:
            # Only when missing: even IF NOT EXISTS needs CREATE on the schema, which a bot's role may rightly lack.
            await self.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")

    async def schema_version(self) -> int:
        exists = await self.fetchall("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists[0][0]:
            return 0
        rows = await self.fetchall("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

    async def set_schema_version(self, number: int) -> None:
        await self.execute("DELETE FROM schema_version")
        await self.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))

    def ddl(self, statement: str) -> str:
        return postgres_ddl(statement)

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE' AND table_name <> 'schema_version'"
        )
        return [row[0] for row in rows]

    async def after_copy(self) -> None:
        rows = await self.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND is_identity = 'YES'"
        )
        for table, column in rows:
            await self.execute(
                f'SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX("{column}") FROM "{table}"), 0) '
                "+ 1, false)",
                (table, column),
            )

    async def close(self) -> None:
        await self._pool.close()


async def _reset(connection: Any) -> None:
    """Before a connection goes back to the pool: end a transaction left open, and nothing more.

    asyncpg's default reset (RESET ALL, UNLISTEN, advisory unlock...) is a round trip on every release, which
    doubled the cost of each read; the Store sets no session state, listens to nothing and only takes
    transaction-scoped advisory locks, so there is nothing else to undo.
    """
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


async def open_engine(location: str | os.PathLike[str], *, pool_size: int = 10,
                      deadline: float | None = None, read_only: bool = False) -> Engine:
    """SQLite for a path, PostgreSQL for a `postgresql://` URL; `deadline` (default DEADLINE_SECONDS, read now) is
    the longest one call may wait; `read_only` opens a SQLite file so that nothing can write it."""
    deadline = DEADLINE_SECONDS if deadline is None else deadline
    if is_postgres_url(location):
        return await PostgresEngine.open(str(location), pool_size=pool_size, deadline=deadline)
    return await SqliteEngine.open(os.fspath(location), deadline=deadline, read_only=read_only)
