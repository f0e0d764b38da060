"""The store: migrations, one unfinished match per channel, optimistic concurrency, the event log, profiles."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import ChannelBusy, Store, StoreError, VersionClash
from bot.store.schema import SCHEMA_VERSION


async def _new(store: Store, channel: int = 10) -> int:
    match = await store.create_match(guild_id=1, channel_id=channel, game="test-nim", mode="standard", host_id=100,
                                     host_name="Alice", seed=5, seed_chosen=True, options={}, data_version="1")
    return match.id


async def test_migrates_an_empty_database(database: Path) -> None:
    store = await Store.open(database)
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    with sqlite3.connect(database) as raw:
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"matches", "seats", "events", "snapshots", "profiles", "settings"} <= tables


async def test_reopening_keeps_data_and_does_not_migrate_twice(database: Path) -> None:
    store = await Store.open(database)
    match_id = await _new(store)
    await store.close()
    store = await Store.open(database)
    match = await store.match(match_id)
    assert match is not None and match.seats[0].name == "Alice" and match.version == 1
    await store.close()


async def test_refuses_a_database_from_a_newer_version(database: Path) -> None:
    with sqlite3.connect(database) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer"):
        await Store.open(database)


async def test_one_unfinished_match_per_channel(store: Store) -> None:
    first = await _new(store, channel=10)
    with pytest.raises(ChannelBusy):
        await _new(store, channel=10)
    await _new(store, channel=11)  # another channel is free
    await store.record(first, 1, "abandoned", status="abandoned")
    again = await _new(store, channel=10)  # a finished match no longer blocks the channel
    assert again != first
    assert (await store.open_match(10)).id == again  # type: ignore[union-attr]


async def test_a_stale_version_changes_nothing(store: Store) -> None:
    match_id = await _new(store)
    assert await store.record(match_id, 1, "action", seat=0, action={"type": "take"}, state={"pile": 3}) == 2
    with pytest.raises(VersionClash):
        await store.record(match_id, 1, "action", seat=0, action={"type": "take"}, state={"pile": 99})
    match = await store.match(match_id)
    assert match is not None and match.version == 2 and match.state == {"pile": 3}
    assert [event.seq for event in await store.events(match_id)] == [1, 2]


async def test_events_keep_actions_draws_and_text_in_order(store: Store) -> None:
    match_id = await _new(store)
    version = 1
    for count in (1, 2, 3):
        version = await store.record(match_id, version, "action", seat=count % 2, action={"count": count},
                                     events=[{"kind": "took"}], draws=[count, 6], text=f"took {count}")
    events = await store.events(match_id)
    assert [(e.kind, e.action, e.draws, e.text) for e in events[1:]] == [
        ("action", {"count": 1}, [1, 6], "took 1"),
        ("action", {"count": 2}, [2, 6], "took 2"),
        ("action", {"count": 3}, [3, 6], "took 3"),
    ]
    assert [e.seq for e in await store.events(match_id, last=2)] == [3, 4]


async def test_seats_and_profiles_are_written_with_the_event(store: Store) -> None:
    match_id = await _new(store)
    await store.record(match_id, 1, "joined", seats=[(100, "Alice"), (200, "Bob")],
                       profiles={(1, 200, "test-nim"): {"wins": 3}})
    match = await store.match(match_id)
    assert match is not None and [(s.seat, s.user_id, s.name) for s in match.seats] == [(0, 100, "Alice"),
                                                                                          (1, 200, "Bob")]
    assert await store.profile(1, 200, "test-nim") == {"wins": 3}
    assert await store.profile(2, 200, "test-nim") == {}  # profiles are per server


async def test_a_version_1_database_is_upgraded_in_place(database: Path) -> None:
    from bot.store.schema import MIGRATIONS

    with sqlite3.connect(database) as raw:
        raw.executescript(MIGRATIONS[0])
        raw.execute("PRAGMA user_version = 1")
        raw.execute("INSERT INTO matches (guild_id, channel_id, game, mode, status, host_id, seed, data_version, "
                    "version, created_at, updated_at) VALUES (1, 10, 'test-nim', 'standard', 'active', 100, 5, '1', "
                    "3, 'then', 'then')")
    store = await Store.open(database)
    assert await store.schema_version() == SCHEMA_VERSION
    match = await store.open_match(10)
    assert match is not None and match.version == 3
    assert await store.board_message(match.id) is None
    await store.set_board_message(match.id, 555)
    assert await store.board_message(match.id) == 555
    assert (await store.match(match.id)).version == 3  # type: ignore[union-attr]  # presentation, not a move
    await store.close()
