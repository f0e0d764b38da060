"""`expedition-bot migrate --from PATH_OR_URL --to URL`: move every game between SQLite and PostgreSQL.

Every table is copied row for row with its ids (matches first, for the foreign keys) in one transaction into an
empty target, and then checked: each table has as many rows as the source, each match reads back equal, and each
started game replayed from the copied event log alone reaches exactly its stored state. Stop the bot first: moves
made during the copy would be left behind.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.service import GameService
from bot.store import Store, StoreError
from bot.store.engines import patient, redact

log = logging.getLogger(__name__)


@dataclass
class MigrationReport:
    """What was copied and what the checks found (empty `problems` means the copy is faithful)."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)


async def migrate(source_location: str | os.PathLike[str], target_location: str | os.PathLike[str]) -> MigrationReport:
    """Copy everything from source to target (which must hold no matches) and verify the copy."""
    with patient():  # a large copy may take long: nobody is waiting on a button
        source = await Store.open(source_location, writable=False)
        try:
            target = await Store.open(target_location)
            try:
                return await _copy_and_verify(source, target)
            finally:
                await target.close()
        finally:
            await source.close()


async def _copy_and_verify(source: Store, target: Store) -> MigrationReport:
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
    await target.copy_in(tables)

    for table, (_, rows) in tables.items():
        _, copied = await target.table_rows(table)
        if len(copied) != len(rows):
            report.problems.append(f"{table}: {len(rows)} rows in the source, {len(copied)} in the copy")
    service = GameService(target)
    match_ids = sorted(row[0] for row in tables.get("matches", ([], []))[1])
    for match_id in match_ids:
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
    try:
        report = await migrate(source, target)
    except (StoreError, OSError) as error:
        print(f"Nothing was copied: {error}", file=sys.stderr)
        return 2
    counts = ", ".join(f"{count} {table}" for table, count in report.rows.items())
    print(f"Copied {counts} from {redact(source)} to {redact(target)}.", file=out)
    print(f"{report.replayed} started games replay to exactly their stored state.", file=out)
    for problem in report.problems:
        print(f"PROBLEM: {problem}", file=out)
    return 1 if report.problems else 0
