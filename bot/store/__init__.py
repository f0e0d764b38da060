"""Persistence: the only package that talks to the database (SQLite through aiosqlite)."""

from bot.store.database import Store
from bot.store.records import ChannelBusy, EventRecord, MatchRecord, SeatRecord, StoreError, VersionClash

__all__ = ["ChannelBusy", "EventRecord", "MatchRecord", "SeatRecord", "Store", "StoreError", "VersionClash"]
