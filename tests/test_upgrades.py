"""Upgrades with a way back (issue 32): an older SQLite file is backed up next to itself before its schema is
upgraded (SQLite's online backup API, in a thread; `--no-backup` skips it), and `expedition-bot migrate` never
writes its source, refuses a missing one, and says how far a long copy got."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.cli import main
from bot.cli.config import load_settings
from bot.store import Store, StoreError, backup, is_postgres_url
from bot.store import database as store_module
from bot.store.engines import migration_statements, postgres_ddl
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION

OLD = 4
MATCH = ("INSERT INTO matches (guild_id, channel_id, game, mode, status, host_id, seed, data_version, version, "
         "created_at, updated_at) VALUES (1, {channel}, 'test-nim', 'standard', 'active', 100, 5, '1', 3, "
         "'2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')")


def _older_file(path: Path, matches: int = 3) -> None:
    """A file as a bot of schema 4 left it: its tables and a few matches."""
    with sqlite3.connect(path) as raw:
        for migration in MIGRATIONS[:OLD]:
            for statement in migration_statements(migration):
                raw.execute(statement)
        for channel in range(matches):
            raw.execute(MATCH.format(channel=10 + channel))
        raw.execute(f"PRAGMA user_version = {OLD}")
    raw.close()


def _version_and_matches(path: Path) -> tuple[int, int]:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as raw:
        found = (raw.execute("PRAGMA user_version").fetchone()[0], raw.execute("SELECT COUNT(*) FROM matches")
                 .fetchone()[0])
    raw.close()
    return found


async def _in_thread(command: Callable[[list[str]], int], arguments: list[str]) -> int:
    """The command line runs its own event loop (asyncio.run), so a test awaits it from a thread."""
    return await asyncio.to_thread(command, arguments)


# --------------------------------------------------------------------------------------------- backups


async def test_an_upgrade_writes_a_consistent_backup_next_to_the_file_first(tmp_path: Path,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "games.sqlite3"
    _older_file(path)
    caplog.set_level(logging.INFO)
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        written = store.backup
    finally:
        await store.close()
    assert written is not None and written.parent == tmp_path
    assert re.fullmatch(r"games\.sqlite3\.v4-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ", written.name)
    assert _version_and_matches(written) == (OLD, 3)  # the file as it was before the upgrade, whole
    assert _version_and_matches(path) == (SCHEMA_VERSION, 3)
    said = [record.getMessage() for record in caplog.records]
    assert f"Backed up {path} to {written}: if the upgraded bot must be undone, stop it and put that file back in " \
           "place of the database." in said
    assert f"Upgraded {path} from schema {OLD} to {SCHEMA_VERSION}." in said
    assert [p.name for p in tmp_path.iterdir() if ".v4-backup-" in p.name] == [written.name]  # no partial left


async def test_no_backup_is_written_for_a_new_file_or_one_already_current(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    for _ in range(2):  # created, then reopened at the current schema
        store = await Store.open(path)
        assert store.backup is None
        await store.close()
    assert sorted(p.name for p in tmp_path.iterdir() if "backup" in p.name) == []


async def test_the_bot_skips_the_backup_when_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.sqlite3"
    _older_file(path)
    bot = create_bot(path, backup=False)
    store = await bot.open_store()
    await store.close()
    assert store.backup is None and not [p for p in tmp_path.iterdir() if "backup" in p.name]
    assert _version_and_matches(path) == (SCHEMA_VERSION, 3)
    # The flag on `run` and `local`, and the environment (or .env) for a service.
    monkeypatch.delenv("EXPEDITION_NO_BACKUP", raising=False)
    assert load_settings(env_file=None).backup is True
    assert load_settings(env_file=None, no_backup=True).backup is False
    monkeypatch.setenv("EXPEDITION_NO_BACKUP", "1")
    assert load_settings(env_file=None).backup is False


async def test_local_no_backup_upgrades_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path, script = tmp_path / "games.sqlite3", tmp_path / "script.txt"
    _older_file(path)
    script.write_text("quit\n")
    monkeypatch.chdir(tmp_path)
    assert await _in_thread(main, ["local", "--no-backup", "--db", str(path), "--script", str(script),
                                   "--boards", str(tmp_path / "boards")]) == 0
    assert _version_and_matches(path) == (SCHEMA_VERSION, 3)
    assert not [p for p in tmp_path.iterdir() if "backup" in p.name]


async def test_a_long_backup_and_upgrade_say_how_far_they_got(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.sqlite3"
    _older_file(path, matches=400)
    monkeypatch.setattr(backup, "PROGRESS_SECONDS", 0.0)  # every step says so
    monkeypatch.setattr(backup, "BACKUP_PAGES", 1)
    heard: list[str] = []
    store = await Store.open(path, progress=heard.append)
    await store.close()
    steps = [line for line in heard if line.startswith(f"Backing up {path} to {store.backup}: ")]
    assert len(steps) > 3 and steps[-1].endswith("% done...")  # (said as every long piece of work says it)
    assert heard[0].startswith(f"Backing up {path} (schema {OLD}) to {store.backup} before upgrading it to schema "
                               f"{SCHEMA_VERSION} (--no-backup skips this)")


async def test_a_backup_that_cannot_be_written_stops_the_upgrade_in_one_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.sqlite3"
    _older_file(path)

    def full_disk(*_: object) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module, "write_backup", full_disk)
    with pytest.raises(StoreError, match=r"^Could not back up .* before upgrading it \(\[Errno 28\] No space left on "
                                         r"device\): make room next to it, or start with --no-backup"):
        await Store.open(path)
    assert _version_and_matches(path) == (OLD, 3)  # not upgraded without its backup


# --------------------------------------------------------------------------------------------- migrate


async def test_migrate_never_writes_its_older_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "old" / "games.sqlite3", tmp_path / "new.sqlite3"
    source.parent.mkdir()
    _older_file(source)
    before = source.read_bytes()
    assert await _in_thread(main, ["migrate", "--from", str(source), "--to", str(target)]) == 0
    captured = capsys.readouterr()
    assert "Copied 3 matches" in captured.out
    assert f"{source} has schema {OLD}: upgrading a copy of it (" in captured.err
    assert source.read_bytes() == before and _version_and_matches(source) == (OLD, 3)
    assert sorted(p.name for p in source.parent.iterdir()) == ["games.sqlite3"]  # no backup, WAL or journal either
    assert _version_and_matches(target) == (SCHEMA_VERSION, 3)


async def test_migrate_refuses_a_missing_source_in_one_sentence(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    missing, target = tmp_path / "missing.sqlite3", tmp_path / "new.sqlite3"
    assert await _in_thread(main, ["migrate", "--from", str(missing), "--to", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"Nothing was copied: There is no database at {missing}: check the path."]
    assert captured.out == ""
    assert not missing.exists() and not target.exists()


async def test_a_long_copy_says_how_far_it_got_on_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "games.sqlite3", tmp_path / "new.sqlite3"
    store = await Store.open(source)
    for channel in range(12):
        await store.create_match(guild_id=1, channel_id=channel, game="test-nim", mode="standard", host_id=100,
                                 host_name="Ada", seed=1, seed_chosen=False, options={}, data_version="1")
    await store.close()
    monkeypatch.setattr(backup, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(store_module, "COPY_BATCH", 5)
    assert await _in_thread(main, ["migrate", "--from", str(source), "--to", str(target)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert f"Copying into {target}: 10 of 12 rows of matches..." in err
    assert f"Checking the copy in {target}: 11 of 12 matches read back and replayed..." in err


async def test_migrate_reads_an_older_source_on_either_engine_without_writing_it(database: Path | str,
                                                                                tmp_path: Path,
                                                                                capsys: pytest.CaptureFixture[str]
                                                                                ) -> None:
    """A SQLite source is upgraded as a temporary copy; a PostgreSQL one cannot be copied aside, so it is refused
    in one sentence saying how to upgrade it, and stays at its schema."""
    statements = [statement for migration in MIGRATIONS[:OLD] for statement in migration_statements(migration)]
    if not is_postgres_url(database):
        _older_file(Path(database))
        assert await _in_thread(main, ["migrate", "--from", str(database), "--to", str(tmp_path / "new.sqlite3")]) == 0
        assert _version_and_matches(Path(database)) == (OLD, 3)
        return
    import asyncpg

    connection = await asyncpg.connect(str(database))
    try:
        for statement in statements:
            await connection.execute(postgres_ddl(statement))
        await connection.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
        await connection.execute(f"INSERT INTO schema_version VALUES ({OLD})")
        code = await _in_thread(main, ["migrate", "--from", str(database), "--to", str(tmp_path / "new.sqlite3")])
        assert await connection.fetchval("SELECT version FROM schema_version") == OLD
    finally:
        await connection.close()
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("Nothing was copied: ") and line.endswith(
        f"has schema {OLD}, older than this version's {SCHEMA_VERSION}: back it up (pg_dump), start this version of "
        "the bot on it once to upgrade it, then migrate again.")
