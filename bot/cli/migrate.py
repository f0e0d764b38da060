"""`expedition-bot migrate --from PATH_OR_URL --to URL`: move every game between SQLite and PostgreSQL.

Every table is copied row for row with its ids (matches first, for the foreign keys) in one transaction into an
empty target, and then checked: each table has as many rows as the source, each match reads back equal, and each
started game replayed from the copied event log alone reaches exactly its stored state. Stop the bot first: moves
made during the copy would be left behind.

The source is only read: a SQLite file is opened read-only (and checked for damage first); one of an older schema is
copied to a temporary file, which is upgraded instead. A long copy says how far it got on stderr, every second.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.service import GameService
from bot.store import Store, StoreError, is_postgres_url
from bot.store.backup import Progress, Ticker, write_backup
from bot.store.engines import patient, redact
from bot.store.schema import SCHEMA_VERSION

log = logging.getLogger(__name__)


@dataclass
class MigrationReport:
    """What was copied and what the checks found (empty `problems` means the copy is faithful)."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)


async def migrate(source_location: str | os.PathLike[str], target_location: str | os.PathLike[str], *,
                  progress: Progress | None = None) -> MigrationReport:
    """Copy everything from source (never written) to target (which must hold no matches) and verify the copy."""
    report = progress or log.info
    with patient():  # a large copy may take long: nobody is waiting on a button
        scratch = None if is_postgres_url(target_location) else Path(target_location).resolve().parent
        async with _readable(source_location, report, scratch) as source:
            target = await Store.open(target_location, progress=report)
            try:
                return await _copy_and_verify(source, target, report)
            finally:
                await target.close()


@asynccontextmanager
async def _readable(location: str | os.PathLike[str], progress: Progress,
                    scratch: Path | None) -> AsyncIterator[Store]:
    """The source, opened only to read; a SQLite file of an older schema is copied (SQLite's backup API, in a
    thread) to a temporary file that is upgraded in its place, so the source itself is never written. The copy is
    made in `scratch` (the target file's folder: room for the target is room for it), else the system's temp."""
    source = await Store.open(location, writable=False)
    version = await source.schema_version()
    if version == SCHEMA_VERSION:
        try:
            yield source
        finally:
            await source.close()
        return
    await source.close()
    where = redact(os.fspath(location))
    if is_postgres_url(location):
        raise StoreError(f"{where} has schema {version}, older than this version's {SCHEMA_VERSION}: back it up "
                         "(pg_dump), start this version of the bot on it once to upgrade it, then migrate again.")
    with tempfile.TemporaryDirectory(prefix="expedition-migrate-", dir=scratch) as folder:
        copy = Path(folder) / Path(where).name
        progress(f"{where} has schema {version}: upgrading a copy of it ({copy}), the file itself is not changed.")
        await asyncio.to_thread(write_backup, location, copy, progress)
        upgraded = await Store.open(copy, backup=False, progress=progress)
        try:
            yield upgraded
        finally:
            await upgraded.close()


async def _copy_and_verify(source: Store, target: Store, progress: Progress) -> MigrationReport:
    if await target.schema_version() != await source.schema_version():
        raise StoreError("The two databases have different schema versions: run the same Expedition Table on both.")
    _, existing = await target.table_rows("matches")
    if existing:
        raise StoreError(f"{redact(target.path)} already holds {len(existing)} matches: migrate into an empty "
                         "database, so that no game is mixed with another.")
    report = MigrationReport()
    tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
    for table in await source.tables():
        tables[table] = await source.table_rows(table)
        report.rows[table] = len(tables[table][1])
    await target.copy_in(tables, progress=progress)

    for table, (_, rows) in tables.items():
        _, copied = await target.table_rows(table)
        if len(copied) != len(rows):
            report.problems.append(f"{table}: {len(rows)} rows in the source, {len(copied)} in the copy")
    service = GameService(target)
    match_ids = sorted(row[0] for row in tables.get("matches", ([], []))[1])
    ticker = Ticker(progress, f"Checking the copy in {redact(target.path)}")
    for checked, match_id in enumerate(match_ids):
        ticker.tick(f"{checked:,} of {len(match_ids):,} matches read back and replayed")
        original, copy = await source.match(match_id), await target.match(match_id)
        if copy != original:
            report.problems.append(f"match {match_id}: the copy reads back differently from the original")
            continue
        events = await target.events(match_id)
        if events != await source.events(match_id):
            report.problems.append(f"match {match_id}: its event log differs from the original")
        if copy is None or copy.state is None or not any(event.kind == "started" for event in events):
            continue  # a lobby that never started has nothing to replay
        try:
            replayed = await service.replayed_state(match_id)
        except Exception as error:  # a game whose rules changed since it was played, say
            report.problems.append(f"match {match_id}: replaying its log failed ({error})")
            continue
        if replayed != copy.state:
            report.problems.append(f"match {match_id}: replaying its log does not reach its stored state")
        else:
            report.replayed += 1
    return report


async def run_migration(source: str, target: str, *, out: TextIO | None = None) -> int:
    """The command: 0 when every game was copied and replays, 1 when a check failed, 2 when nothing was copied."""
    out = out or sys.stdout

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        report = await migrate(source, target, progress=progress)
    except (StoreError, OSError) as error:
        print(f"Nothing was copied: {error}", file=sys.stderr)
        return 2
    counts = ", ".join(f"{count} {table}" for table, count in report.rows.items())
    print(f"Copied {counts} from {redact(source)} to {redact(target)}.", file=out)
    print(f"{report.replayed} started games replay to exactly their stored state.", file=out)
    for problem in report.problems:
        print(f"PROBLEM: {problem}", file=out)
    return 1 if report.problems else 0
