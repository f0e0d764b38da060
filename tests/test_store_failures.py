"""When the database fails: a database the bot cannot write is refused at start in one sentence, and no call waits
longer than its deadline (a locked SQLite file, a PostgreSQL table locked by someone else, a pool with no free
connection): the call fails with StoreUnavailable, nothing of it is applied, and the player is told to try again."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.app import create_bot
from bot.cli import main
from bot.offline import DiscordHarness
from bot.store import Store, StoreError, StoreUnavailable, engines
from cogs.table import STORE_NOT_ANSWERING
from tests.conftest import drop_schema, new_schema, postgres_server, with_search_path

SHORT = 0.4  # the deadline these tests give the store, in seconds


def _one_sentence(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


async def _new_match(store: Store, channel: int = 10) -> int:
    record = await store.create_match(guild_id=1, channel_id=channel, game="test-nim", mode="standard", host_id=100,
                                      host_name="Ada", seed=1, seed_chosen=False, options={},
                                      data_version="1")
    return record.id


# ------------------------------------------------------------------------------------------ refused at start


def _bot(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "bot", "--log-level", "CRITICAL", *arguments]


def _run_where_read_only(case: str, folder: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    """Run `command` where the database file ("file") or its folder ("folder") cannot be written. Root may write
    any file whatever its mode, so as root the command runs in a mount namespace of its own where that path is a
    read-only bind mount; any other user gets the file modes."""
    database = folder / "games.sqlite3"
    environment = {**os.environ, "DISCORD_TOKEN": "not-a-real-token"}
    if os.geteuid() != 0:
        (database if case == "file" else folder).chmod(0o444 if case == "file" else 0o555)
        try:
            return subprocess.run(command, cwd=folder, env=environment, capture_output=True, text=True, timeout=120)
        finally:
            database.chmod(0o644)
            folder.chmod(0o755)
    if shutil.which("unshare") is None:
        pytest.skip("running as root without unshare(1): cannot make a path read-only for root")
    if case == "file":
        mounts = f"mount --bind {database} {database} && mount -o remount,bind,ro {database}"
    else:  # the folder read-only, the file in it still writable
        mounts = (f"mount --bind {database} {database} && mount --rbind {folder} {folder} && "
                  f"mount -o remount,bind,ro {folder}")
    script = f"{mounts} && exec {shlex.join(command)}"
    return subprocess.run(["unshare", "-m", "sh", "-c", script], cwd="/", env=environment, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("case", ["file", "folder"], ids=["read-only file", "read-only folder"])
async def test_a_sqlite_database_the_bot_cannot_write_is_refused_at_start(tmp_path: Path, case: str) -> None:
    database = tmp_path / "games.sqlite3"
    store = await Store.open(database)
    await _new_match(store)
    await store.close()
    for leftover in tmp_path.glob("games.sqlite3-*"):  # closed cleanly: WAL checkpointed
        leftover.unlink()
    before = database.read_bytes()
    finished = _run_where_read_only(case, tmp_path, _bot("run", "--db", str(database)))
    assert finished.returncode == 1, finished.stderr
    sentence = _one_sentence(finished.stderr)
    assert sentence.startswith(f"The database {database} cannot be written (")
    assert "let the user running the bot write the file and its folder" in sentence
    assert database.read_bytes() == before  # nothing was changed on the way
    if case == "file":  # a read-only file can still be the source of a migration
        copied = _run_where_read_only(case, tmp_path, _bot("migrate", "--from", str(database), "--to",
                                                          str(tmp_path / "copy.sqlite3")))
        assert copied.returncode == 0, copied.stderr
        assert "Copied 1 matches" in copied.stdout


@pytest.fixture
async def postgres_schema() -> AsyncIterator[tuple[str, str]]:
    """(the superuser's URL of a fresh schema, the schema's name)."""
    server = postgres_server()
    schema = await new_schema(server)
    try:
        yield with_search_path(server, schema), schema
    finally:
        await drop_schema(server, schema)


def _with_user(url: str, user: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{user}@{host}"))


async def test_a_read_only_postgres_role_is_refused_at_start_in_one_sentence(
        postgres_schema: tuple[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    import asyncpg

    url, schema = postgres_schema
    await (await Store.open(url)).close()  # the tables exist, made by the owner
    role = f"reader_{uuid.uuid4().hex[:10]}"
    owner = await asyncpg.connect(postgres_server())
    try:
        await owner.execute(f"CREATE ROLE {role} LOGIN")
        await owner.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
        await owner.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}")
        reader = _with_user(url, role)
        with pytest.raises(StoreError, match="cannot be written \\(permission denied for table"):
            await Store.open(reader)
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
        # main() runs its own event loop: in a thread. The database is refused before any contact with Discord.
        assert await asyncio.to_thread(main, ["--log-level", "CRITICAL", "run", "--db", reader]) == 1
        sentence = _one_sentence(capsys.readouterr().err)
        assert sentence.startswith(f"The database {reader} cannot be written (permission denied for table")
        assert "grant its role SELECT, INSERT, UPDATE and DELETE" in sentence
        # The same role once it may write: opened as usual.
        await owner.execute(f"GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}")
        store = await Store.open(reader)
        await _new_match(store)
        await store.close()
    finally:
        await owner.execute(f"DROP OWNED BY {role}")
        await owner.execute(f"DROP ROLE {role}")
        await owner.close()


async def test_a_read_only_postgres_session_is_refused(postgres_schema: tuple[str, str]) -> None:
    url, _ = postgres_schema
    await (await Store.open(url)).close()
    with pytest.raises(StoreError, match=r"cannot be written \(cannot execute \w+ in a read-only transaction\)"):
        await Store.open(f"{url}&default_transaction_read_only=on")


# ------------------------------------------------------------------------------------------ deadlines


async def test_a_sqlite_file_locked_by_another_process_fails_the_write_after_the_deadline(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    store = await Store.open(database, deadline=SHORT)
    match_id = await _new_match(store)
    other = sqlite3.connect(database, isolation_level=None)  # another process's writer, holding the lock
    other.execute("BEGIN IMMEDIATE")
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(StoreUnavailable, match="locked by another process"):
            await _new_match(store, channel=11)
        waited = loop.time() - started
        assert SHORT <= waited < SHORT + 2.0  # the deadline, not the lock's whole length
        assert (await store.match(match_id)) is not None  # reads go on meanwhile (WAL)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await store.open_match(11) is None  # nothing of the refused write was applied
    await _new_match(store, channel=11)  # and the next one goes through
    await store.close()


async def test_a_sqlite_lock_released_within_the_deadline_is_waited_for(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    store = await Store.open(database, deadline=5.0)
    other = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    loop = asyncio.get_running_loop()
    loop.call_later(0.6, other.execute, "ROLLBACK")  # longer than SQLite's own busy wait: the retry takes over
    try:
        assert engines.SQLITE_BUSY_MS / 1000 < 0.6
        await _new_match(store, channel=12)
    finally:
        other.close()
    assert await store.open_match(12) is not None
    await store.close()


async def test_a_postgres_table_locked_by_someone_else_fails_reads_and_writes_after_the_deadline(
        postgres_schema: tuple[str, str]) -> None:
    import asyncpg

    url, schema = postgres_schema
    store = await Store.open(url, deadline=SHORT)
    match_id = await _new_match(store)
    holder = await asyncpg.connect(postgres_server())
    transaction = holder.transaction()
    await transaction.start()
    await holder.execute(f"LOCK TABLE {schema}.matches IN ACCESS EXCLUSIVE MODE")
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(StoreUnavailable):
            await store.match(match_id)
        assert SHORT <= loop.time() - started < SHORT + 3.0
        with pytest.raises(StoreUnavailable):
            await _new_match(store, channel=11)
    finally:
        await transaction.rollback()
        await holder.close()
    assert await store.open_match(11) is None  # the refused write left nothing behind
    assert (await store.match(match_id)) is not None  # and the store answers again at once
    await store.close()


async def test_a_postgres_connection_cut_inside_a_transaction_is_store_unavailable(
        postgres_schema: tuple[str, str]) -> None:
    """A server shutting down ends the session in the middle of a transaction: asyncpg then raises InterfaceError
    from the transaction's exit ("the underlying connection is closed"), which the player must hear as "the store is
    not answering", not as the generic apology (seen in CI while PostgreSQL stopped under three tables' presses)."""
    url, _ = postgres_schema
    engine = await engines.PostgresEngine.open(url)
    try:
        with pytest.raises(StoreUnavailable, match="terminating connection"):
            async with engine.transaction():
                await engine.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        assert (await engine.fetchall("SELECT 1"))[0][0] == 1  # the pool answers again with a fresh connection
    finally:
        await engine.close()


async def test_a_postgres_pool_with_no_free_connection_fails_after_the_deadline(
        postgres_schema: tuple[str, str]) -> None:
    url, _ = postgres_schema
    store = await Store.open(url, pool_size=1, deadline=SHORT)
    release = asyncio.Event()

    async def hold_the_only_connection() -> None:
        async with store._transaction():
            await store._fetchall("SELECT 1")
            await release.wait()

    holder = asyncio.create_task(hold_the_only_connection())
    await asyncio.sleep(0.1)
    try:
        with pytest.raises(StoreUnavailable):
            await store.open_match(10)
    finally:
        release.set()
        await holder
    assert await store.open_match(10) is None
    await store.close()


async def test_the_player_is_told_privately_the_store_is_not_answering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "games.sqlite3"
    monkeypatch.setattr(engines, "DEADLINE_SECONDS", SHORT)
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        other = sqlite3.connect(database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            replies = await discord_.command("game new", {"game": "test-nim"}, user=alice)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert [r.content for r in replies.ephemeral()] == [STORE_NOT_ANSWERING]
        assert replies.public() == []
        assert discord_.bot.store is not None and await discord_.bot.store.open_match(  # type: ignore[attr-defined]
            discord_.default_channel.id) is None
        again = await discord_.command("game new", {"game": "test-nim"}, user=alice)  # a minute later
        assert again.public() and STORE_NOT_ANSWERING not in [r.content for r in again.messages()]



async def test_a_frozen_postgres_backend_is_given_up_on_at_the_deadline(postgres_schema: tuple[str, str]) -> None:
    """PostgreSQL frozen (here: the one backend serving the pool, stopped with SIGSTOP): the call fails at its
    deadline instead of waiting as long as the freeze, and the store answers at once when the server does."""
    url, _ = postgres_schema
    store = await Store.open(url, pool_size=1, deadline=SHORT)
    backend = int((await store._fetchall("SELECT pg_backend_pid()"))[0][0])
    command = Path(f"/proc/{backend}/cmdline")
    if not command.exists() or b"postgres" not in command.read_bytes():
        await store.close()
        pytest.skip("the PostgreSQL server is not on this machine")
    try:
        os.kill(backend, signal.SIGSTOP)
    except PermissionError:
        await store.close()
        pytest.skip("may not signal the PostgreSQL server's processes")
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(StoreUnavailable, match="TimeoutError"):
            await store.open_match(10)
        assert loop.time() - started < SHORT * 4 + 2.0  # the deadline (and the connection's release), not the freeze
    finally:
        os.kill(backend, signal.SIGCONT)
    assert await store.open_match(10) is None  # a fresh connection: answered again
    await store.close()


async def test_a_dropped_postgres_connection_is_reported_and_the_next_call_reconnects(
        postgres_schema: tuple[str, str]) -> None:
    """A restart drops every connection: the call on a dropped one fails with StoreUnavailable (the player is
    asked to try again), and the pool opens a new connection for the next call."""
    import asyncpg

    url, _ = postgres_schema
    store = await Store.open(url, pool_size=1, deadline=SHORT)
    backend = int((await store._fetchall("SELECT pg_backend_pid()"))[0][0])
    admin = await asyncpg.connect(postgres_server())
    try:
        await admin.execute("SELECT pg_terminate_backend($1)", backend)
    finally:
        await admin.close()
    for _ in range(3):  # whether or not the pool has noticed the drop yet, only these two outcomes:
        # answered by a new connection, or StoreUnavailable (the player is asked to try again)
        with contextlib.suppress(StoreUnavailable):
            assert await store.open_match(10) is None
    assert await store.open_match(10) is None
    await store.close()
