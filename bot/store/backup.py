"""A SQLite file's way back: its integrity check, the consistent backup written before a schema upgrade, and the
sentence that refuses a damaged file (naming the newest backup, when there is one).

Synchronous functions, for a thread (`asyncio.to_thread`): a check or a backup of a large file takes seconds and
must never run on the event loop. Each opens a connection of its own; the source is opened read-only.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.store.records import StoreDamaged

BACKUP_PAGES = 4096
"""Pages copied per step of a backup (16 MiB at SQLite's default page size): progress is reported between steps."""
PROGRESS_SECONDS = 1.0
"""At most one progress report this often."""

Progress = Callable[[str], None]
"""Where a long check, backup or copy says how far it got (a log line, a line on stderr)."""


def is_damage(error: BaseException) -> bool:
    """Whether `error` is SQLite finding the file malformed or not a database at all (never a lock or a full disk)."""
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    name = getattr(error, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    return str(error) in ("database disk image is malformed", "file is not a database")


def read_only_uri(path: str | os.PathLike[str]) -> str:
    """The `file:` URI that opens `path` without ever writing it (and refuses a missing file)."""
    return f"{Path(path).resolve().as_uri()}?mode=ro"


def backups_of(path: str | os.PathLike[str]) -> list[Path]:
    """The automatic backups written next to the file before its upgrades, oldest first."""
    file = Path(path)
    found = file.parent.glob(f"{file.name}.v*-backup-*") if file.parent.is_dir() else []
    whole = (candidate for candidate in found if not candidate.name.endswith(("-wal", "-shm", "-journal", ".partial")))
    return sorted(whole, key=lambda candidate: candidate.name.rsplit("-backup-", 1)[-1])


def damaged(location: str | os.PathLike[str], detail: str) -> StoreDamaged:
    """The one sentence refusing a damaged file: which file, what was found, and what to do."""
    where = os.fspath(location)
    kept = backups_of(where)
    if kept:
        restore = (f"put the automatic backup {kept[-1]} (written just before its last upgrade) or a newer backup "
                   "of yours in its place")
    else:
        restore = "put your latest backup of it in its place"
    return StoreDamaged(f"The database {where} is damaged ({detail}): stop the bot, move the damaged file aside and "
                        f"{restore}, or point --db at another database.")


def check_problems(connection: sqlite3.Connection) -> list[str]:
    """What SQLite's `PRAGMA quick_check` finds wrong (empty when the file is sound). A file that is not a database
    at all raises instead (is_damage says so)."""
    rows = connection.execute("PRAGMA quick_check").fetchall()
    lines = [line for (text,) in rows for line in str(text).splitlines()]
    if lines == ["ok"]:
        return []
    return [line for line in lines if not line.startswith("***")] or lines


def backup_path(path: str | os.PathLike[str], version: int, moment: datetime | None = None) -> Path:
    """`games.sqlite3.v4-backup-2026-12-07T16-46-00Z`: the file, its schema version and when (UTC; no colons, so
    the name is valid on every file system)."""
    moment = moment or datetime.now(UTC)
    file = Path(path)
    return file.with_name(f"{file.name}.v{version}-backup-{moment.strftime('%Y-%m-%dT%H-%M-%SZ')}")


def write_backup(source: str | os.PathLike[str], target: Path, progress: Progress | None = None) -> Path:
    """A consistent copy of the SQLite file `source` at `target`, by SQLite's online backup API (other processes
    may keep reading and writing meanwhile). Written to a temporary name first, so a backup that exists is whole."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    reader = sqlite3.connect(read_only_uri(source), uri=True)
    writer = sqlite3.connect(partial)
    ticker = Ticker(progress, f"Backing up {source} to {target}") if progress is not None else None

    def step(_status: int, remaining: int, total: int) -> None:
        if ticker is not None and total:
            ticker.tick(f"{100 * (total - remaining) // total}% done")

    try:
        reader.backup(writer, pages=BACKUP_PAGES, progress=step)
        # One self-contained file (no -wal beside it) that can simply be copied back; the bot turns WAL on again.
        writer.execute("PRAGMA journal_mode=DELETE").close()
    except sqlite3.Error as error:  # a full disk says "database or disk is full": a file system's error
        writer.close()
        partial.unlink(missing_ok=True)
        raise OSError(f"{error}") from error
    finally:
        writer.close()
        reader.close()
    partial.replace(target)
    return target


class Ticker:
    """Says how a long piece of work goes, at most once every PROGRESS_SECONDS (`tick` is cheap to call often)."""

    def __init__(self, progress: Progress, what: str) -> None:
        self.progress = progress
        self.what = what
        self.last = time.monotonic()

    def tick(self, done: str) -> None:
        if time.monotonic() - self.last >= PROGRESS_SECONDS:
            self.last = time.monotonic()
            self.progress(f"{self.what}: {done}...")
