"""Persistence: the only package that talks to the database (SQLite through aiosqlite, PostgreSQL through asyncpg)."""

from bot.store import reading
from bot.store.community import AwayEnded, CommunityChange, NewWork, SeatOwner
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
from bot.store.schema import ordinal

__all__ = [
    "DM_GUILD",
    "AwayEnded",
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
    "ordinal",
    "reading",
    "results_of",
    "storage_full",
]
