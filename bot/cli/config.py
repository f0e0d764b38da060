"""Configuration from the command line, the environment and an optional .env file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = "expedition-table.sqlite3"


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to run; built by `load_settings`."""

    token: str | None
    database: Path | str  # a SQLite file, or a postgresql:// URL (kept as text: a Path would mangle its //)
    sync_guild: int | None
    log_level: str
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    backup: bool = True  # back a SQLite file up next to it before a schema upgrade (--no-backup, EXPEDITION_NO_BACKUP)


def database_location(value: str) -> Path | str:
    """A `postgresql://` URL as it is, anything else as a SQLite file path."""
    return value if value.startswith(("postgresql://", "postgres://")) else Path(value)


def parse_shard_ids(value: str | None) -> list[int] | None:
    """`0,1,2` or a range `0-3` (inclusive), as a list of shard ids."""
    if not value:
        return None
    ids: list[int] = []
    for part in value.split(","):
        first, _, last = part.strip().partition("-")
        ids += list(range(int(first), int(last) + 1)) if last else [int(first)]
    return ids


def load_settings(*, database: str | None = None, sync_guild: int | None = None,
                  log_level: str | None = None, env_file: str | os.PathLike[str] | None = ".env",
                  shard_count: int | None = None, shard_ids: str | None = None,
                  no_backup: bool = False) -> Settings:
    """Command-line values win over the environment, which wins over the .env file and the defaults."""
    if env_file is not None and Path(env_file).is_file():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)
    guild = sync_guild if sync_guild is not None else os.environ.get("EXPEDITION_SYNC_GUILD")
    count = shard_count if shard_count is not None else os.environ.get("EXPEDITION_SHARD_COUNT")
    ids = parse_shard_ids(shard_ids or os.environ.get("EXPEDITION_SHARD_IDS"))
    if ids is not None and not count:
        raise ValueError("--shard-ids needs --shard-count (the total number of shards across every process).")
    if ids is not None and count and not all(0 <= shard < int(count) for shard in ids):
        raise ValueError(f"Shard ids {ids} must each be from 0 to {int(count) - 1} (--shard-count {count}).")
    return Settings(
        token=os.environ.get("DISCORD_TOKEN") or None,
        database=database_location(database or os.environ.get("EXPEDITION_DB") or DEFAULT_DATABASE),
        sync_guild=int(guild) if guild else None,
        log_level=(log_level or os.environ.get("EXPEDITION_LOG_LEVEL") or "INFO").upper(),
        shard_count=int(count) if count else None,
        shard_ids=ids,
        backup=not (no_backup or _yes(os.environ.get("EXPEDITION_NO_BACKUP"))),
    )


def _yes(value: str | None) -> bool:
    """An environment switch: 1, true, yes or on (any case) turns it on; anything else, or nothing, leaves it off."""
    return (value or "").strip().lower() in ("1", "true", "yes", "on")
