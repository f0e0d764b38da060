"""Persistence: the only package that talks to the database (SQLite through aiosqlite, PostgreSQL through asyncpg)."""

from bot.store import reading
from bot.store.community import CommunityChange, NewWork, SeatOwner
from bot.store.database import Store
from bot.store.engines import is_postgres_url, storage_full
from bot.store.members import MemberRecord, MemberResult
from bot.store.records import (
    DM_GUILD,
    ChannelBusy,
    EventColumns,
    EventRecord,
    MatchRecord,
    ScheduledWork,
    SeatRecord,
    SeatResult,
    StoreDamaged,
    StoreError,
    StoreUnavailable,
    VersionClash,
    decode_event,
    results_of,
)
from bot.store.records_store import GameResults, NewRating, Rating, Uncounted, UndoRequest, final_results

__all__ = [
    "DM_GUILD",
    "ChannelBusy",
    "CommunityChange",
    "EventColumns",
    "EventRecord",
    "GameResults",
    "MatchRecord",
    "MemberRecord",
    "MemberResult",
    "NewRating",
    "NewWork",
    "Rating",
    "ScheduledWork",
    "SeatOwner",
    "SeatRecord",
    "SeatResult",
    "Store",
    "StoreDamaged",
    "StoreError",
    "StoreUnavailable",
    "Uncounted",
    "UndoRequest",
    "VersionClash",
    "decode_event",
    "final_results",
    "is_postgres_url",
    "reading",
    "results_of",
    "storage_full",
]
