"""Persistence: the only package that talks to the database (SQLite through aiosqlite, PostgreSQL through asyncpg)."""

from bot.store.community import CommunityChange, NewWork, SeatOwner
from bot.store.database import Store
from bot.store.engines import is_postgres_url
from bot.store.records import (
    ChannelBusy,
    EventRecord,
    MatchRecord,
    ScheduledWork,
    SeatRecord,
    StoreError,
    VersionClash,
)

__all__ = [
    "ChannelBusy",
    "CommunityChange",
    "EventRecord",
    "MatchRecord",
    "NewWork",
    "ScheduledWork",
    "SeatOwner",
    "SeatRecord",
    "Store",
    "StoreError",
    "VersionClash",
    "is_postgres_url",
]
