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
    database: Path
    sync_guild: int | None
    log_level: str


def load_settings(*, database: str | None = None, sync_guild: int | None = None,
                  log_level: str | None = None, env_file: str | os.PathLike[str] | None = ".env") -> Settings:
    """Command-line values win over the environment, which wins over the .env file and the defaults."""
    if env_file is not None and Path(env_file).is_file():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)
    guild = sync_guild if sync_guild is not None else os.environ.get("EXPEDITION_SYNC_GUILD")
    return Settings(
        token=os.environ.get("DISCORD_TOKEN") or None,
        database=Path(database or os.environ.get("EXPEDITION_DB") or DEFAULT_DATABASE),
        sync_guild=int(guild) if guild else None,
        log_level=(log_level or os.environ.get("EXPEDITION_LOG_LEVEL") or "INFO").upper(),
    )
