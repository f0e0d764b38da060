"""The store on both engines: migrations, one open match per channel, the version check, events, profiles."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import ChannelBusy, Store, StoreError, VersionClash, is_postgres_url
from bot.store.engines import migration_statements, numbered_placeholders, postgres_ddl
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION


async def _new(store: Store, channel: int = 10) -> int:
    match = await store.create_match(guild_id=1, channel_id=channel, game="test-nim", mode="standard", host_id=100,
                                     host_name="Alice", seed=5, seed_chosen=True, options={}, data_version="1")
    return match.id


async def test_migrates_an_empty_database(database: Path | str) -> None:
    store = await Store.open(database)
    assert await store.schema_version() == SCHEMA_VERSION
    tables = set(await store.tables())
    await store.close()
    assert {"matches", "seats", "events", "snapshots", "profiles", "settings", "scheduled_work"} <= tables
    assert "schema_version" not in tables  # the engine's bookkeeping is not the application's
    if not is_postgres_url(database):
        with sqlite3.connect(database) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_keeps_data_and_does_not_migrate_twice(database: Path | str) -> None:
    store = await Store.open(database)
    match_id = await _new(store)
    await store.close()
    store = await Store.open(database)
    match = await store.match(match_id)
    assert match is not None and match.seats[0].name == "Alice" and match.version == 1
    await store.close()


async def test_refuses_a_database_from_a_newer_version(database: Path | str) -> None:
    await _raw(database, sqlite=[f"PRAGMA user_version = {SCHEMA_VERSION + 1}"],
               postgresql=["CREATE TABLE schema_version (version BIGINT NOT NULL)",
                           f"INSERT INTO schema_version VALUES ({SCHEMA_VERSION + 1})"])
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


async def test_a_version_1_database_is_upgraded_in_place(database: Path | str) -> None:
    insert = ("INSERT INTO matches (guild_id, channel_id, game, mode, status, host_id, seed, data_version, version, "
              "created_at, updated_at) VALUES (1, 10, 'test-nim', 'standard', 'active', 100, 5, '1', 3, 'then', "
              "'then')")
    version_1 = migration_statements(MIGRATIONS[0])
    await _raw(database, sqlite=[*version_1, "PRAGMA user_version = 1", insert],
               postgresql=[*(postgres_ddl(statement) for statement in version_1),
                           "CREATE TABLE schema_version (version BIGINT NOT NULL)",
                           "INSERT INTO schema_version VALUES (1)", insert])
    store = await Store.open(database)
    assert await store.schema_version() == SCHEMA_VERSION
    match = await store.open_match(10)
    assert match is not None and match.version == 3
    assert await store.board_message(match.id) is None
    await store.set_board_message(match.id, 555)
    assert await store.board_message(match.id) == 555
    assert (await store.match(match.id)).version == 3  # type: ignore[union-attr]  # presentation, not a move
    await store.close()


async def test_discord_ids_need_64_bits(store: Store) -> None:
    snowflake = 1_234_567_890_123_456_789  # a real Discord id is far past 2**31
    match = await store.create_match(guild_id=snowflake, channel_id=snowflake + 1, game="test-nim", mode="standard",
                                     host_id=snowflake + 2, host_name="Alice", seed=2**53 - 1, seed_chosen=False,
                                     options={}, data_version="1")
    await store.set_board_message(match.id, snowflake + 3)
    await store.save_profile(snowflake, snowflake + 2, "test-nim", {"wins": 1})
    again = await store.open_match(snowflake + 1)
    assert again is not None and (again.guild_id, again.host_id, again.seed) == (snowflake, snowflake + 2, 2**53 - 1)
    assert again.seed_chosen is False and again.seats[0].user_id == snowflake + 2
    assert await store.board_message(match.id) == snowflake + 3
    assert await store.profile(snowflake, snowflake + 2, "test-nim") == {"wins": 1}


async def test_snapshots_are_kept_every_25_events(store: Store) -> None:
    match_id = await _new(store)
    version = 1
    for pile in range(30):
        version = await store.record(match_id, version, "action", seat=0, action={"n": pile}, state={"pile": pile})
    assert version == 31
    assert await store.snapshot(match_id, 31) == (25, {"pile": 23})
    assert await store.snapshot(match_id, 24) is None


async def test_two_connections_pressing_at_once_apply_exactly_one(database: Path | str) -> None:
    """Two Store objects are two connections (two pools on PostgreSQL), as two bot processes would have."""
    first, second = await Store.open(database), await Store.open(database)
    try:
        match_id = await _new(first)
        results = await asyncio.gather(
            first.record(match_id, 1, "action", seat=0, action={"by": "first"}, state={"by": "first"}),
            second.record(match_id, 1, "action", seat=0, action={"by": "second"}, state={"by": "second"}),
            return_exceptions=True,
        )
        assert sorted(type(result).__name__ for result in results) == ["VersionClash", "int"]
        winner = next(result for result in results if isinstance(result, int))
        assert winner == 2
        events = await second.events(match_id)
        assert [e.seq for e in events] == [1, 2]
        match = await first.match(match_id)
        assert match is not None and match.version == 2 and match.state == events[1].action
    finally:
        await first.close()
        await second.close()


async def test_two_processes_opening_a_new_database_migrate_it_once(database: Path | str) -> None:
    stores = await asyncio.gather(Store.open(database), Store.open(database))
    try:
        assert [await store.schema_version() for store in stores] == [SCHEMA_VERSION, SCHEMA_VERSION]
        await _new(stores[0], channel=10)
        assert (await stores[1].open_match(10)) is not None
    finally:
        for store in stores:
            await store.close()


async def test_claim_due_leases_each_item_to_one_claimer(database: Path | str) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        ids = [await first.schedule_work("reminder:turn", 1000 + n, match_id=n, channel_id=7, payload={"n": n})
               for n in range(40)]
        await first.schedule_work("timer:lobby", 1000, payload={})
        await first.schedule_work("reminder:turn", 5000, payload={})  # not due yet

        async def claim_all(store: Store) -> list[int]:
            claimed: list[int] = []
            while batch := await store.claim_due("reminder:", 2000, 3, 60):
                claimed += [item.id for item in batch]
            return claimed

        a, b = await asyncio.gather(claim_all(first), claim_all(second))
        assert sorted(a + b) == ids  # every due reminder once, none twice, no timer, nothing not yet due
        assert await first.claim_due("reminder:", 2059, 10, 60) == []  # leased until 2060
        retried = await first.claim_due("reminder:", 2060, 2, 60)  # the claimer died: the lease ran out
        assert [item.id for item in retried] == ids[:2]
        assert retried[0].payload == {"n": 0} and retried[0].claimed_until == 2120 and retried[0].due_at == 1000
        assert await first.finish_work(ids[0], 2061) is True
        assert await first.finish_work(ids[0], 2062) is False
        later = await second.claim_due("reminder:", 9000, 100, 60)
        assert ids[0] not in [item.id for item in later] and len(later) == 40  # 39 left + the one due at 5000
        timers = await second.claim_due("timer:", 2000, 10, 60)
        assert [(item.kind, item.payload, item.match_id) for item in timers] == [("timer:lobby", {}, None)]
    finally:
        await first.close()
        await second.close()


def test_placeholders_and_types_for_postgresql() -> None:
    assert numbered_placeholders("SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3)"
    )
    assert postgres_ddl("id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER NOT NULL, x REAL, b BLOB, t TEXT") == (
        "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT NOT NULL, x DOUBLE PRECISION, b BYTEA, "
        "t TEXT"
    )


async def _raw(database: Path | str, *, sqlite: list[str], postgresql: list[str]) -> None:
    """Statements run on the database directly, below the Store (to build old or foreign databases)."""
    if is_postgres_url(database):
        import asyncpg

        connection = await asyncpg.connect(str(database))
        try:
            for statement in postgresql:
                await connection.execute(statement)
        finally:
            await connection.close()
        return
    with sqlite3.connect(database) as raw:
        for statement in sqlite:
            raw.execute(statement)


async def test_code_written_for_one_engine_ports_as_is(store: Store) -> None:
    """`self._db.execute` with `?` placeholders, `.lastrowid` and `.rowcount`: the single-engine store's idiom."""
    async with store._transaction():
        first = await store._db.execute(
            "INSERT INTO scheduled_work (kind, due_at, payload) VALUES (?, ?, ?)", ("reminder:turn", 5, "{}")
        )
        second = await store._db.execute(
            "INSERT INTO scheduled_work (kind, due_at, payload) VALUES (?, ?, ?)", ("reminder:turn", 6, "{}")
        )
        await store._db.execute("INSERT INTO settings (guild_id, key, value_json) VALUES (?, ?, ?)", (1, "k", "1"))
    assert (first.rowcount, second.rowcount, second.lastrowid) == (1, 1, first.lastrowid + 1)  # type: ignore[operator]
    async with store._transaction():
        changed = await store._db.execute("UPDATE scheduled_work SET done_at = ? WHERE due_at >= ?", (9, 0))
    assert changed.rowcount == 2
    assert [row["id"] for row in await store._fetchall("SELECT id FROM scheduled_work ORDER BY id")] == [
        first.lastrowid, second.lastrowid]


async def test_record_move_returns_what_reading_the_match_back_gives(store: Store) -> None:
    """A move's match is built from what was written: equal to a fresh read, JSON types and all."""
    match_id = await _new(store)
    match = await store.match(match_id)
    assert match is not None
    moved = await store.record_move(match, "action", seat=0, action={"count": 1}, text="took 1",
                                    state={"pile": (2, 1), "by": {3: "x"}})
    assert moved == await store.match(match_id)
    assert moved.version == 2 and moved.state == {"pile": [2, 1], "by": {"3": "x"}}
    finished = await store.record_move(moved, "action", seat=1, state={"pile": []}, status="finished",
                                       profiles={(1, 200, "test-nim"): {"wins": 1}})
    assert finished == await store.match(match_id) and finished.status == "finished"
    assert await store.profile(1, 200, "test-nim") == {"wins": 1}
    with pytest.raises(VersionClash):  # from a stale record: nothing written
        await store.record_move(moved, "action", seat=1, state={"pile": [9]})
    assert [event.seq for event in await store.events(match_id)] == [1, 2, 3]
