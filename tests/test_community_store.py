"""The store's part of community play on both engines: settings, seat owners, and scheduled work that a match
write replaces in its own transaction (issue 12)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import CommunityChange, NewWork, SeatOwner, Store, VersionClash
from bot.store.schema import MIGRATIONS

NOW = 1_800_000_000


async def _new(store: Store, channel: int = 10, community: CommunityChange | None = None) -> int:
    match = await store.create_match(guild_id=1, channel_id=channel, game="test-nim", mode="standard", host_id=100,
                                     host_name="Alice", seed=5, seed_chosen=True, options={}, data_version="1",
                                     community=community)
    return match.id


def test_migration_4_only_creates_what_is_missing() -> None:
    """Another helper's migration may come before or after it: it must be safe to run on any earlier schema."""
    community = MIGRATIONS[3]
    statements = [s.strip() for s in community.split(";") if s.strip()]
    assert all(s.startswith(("CREATE TABLE IF NOT EXISTS", "CREATE INDEX IF NOT EXISTS")) for s in statements)


async def test_settings_round_trip_per_server(store: Store) -> None:
    await store.set_setting(1, "reminder_hours", 6.0)
    await store.set_setting(1, "game_channels", [5, 6])
    await store.set_setting(2, "threads", True)
    await store.set_setting(1, "reminder_hours", 3.5)
    assert await store.settings(1) == {"reminder_hours": 3.5, "game_channels": [5, 6]}
    await store.clear_setting(1, "game_channels")
    assert await store.settings(1) == {"reminder_hours": 3.5}
    assert await store.settings(2) == {"threads": True}


async def test_a_lobby_and_its_expiry_are_created_together(store: Store) -> None:
    match_id = await _new(store, community=CommunityChange(add_work=(NewWork("lobby_expiry", NOW + 60, {}),),
                                                           now=NOW))
    assert [(w.kind, w.match_id, w.due_at) for w in await store.pending_work(match_id)] == [
        ("lobby_expiry", match_id, NOW + 60)]


async def test_a_write_replaces_the_matchs_work_atomically_or_not_at_all(store: Store) -> None:
    match_id = await _new(store)
    await store.schedule_work("remind", NOW + 10, match_id=match_id, payload={"turn": 1})
    await store.schedule_work("timer", NOW + 20, match_id=match_id, payload={"turn": 1})
    other = await _new(store, channel=11)
    await store.schedule_work("remind", NOW + 10, match_id=other)
    change = CommunityChange(cancel_work=True, add_work=(NewWork("remind", NOW + 99, {"turn": 2}),), now=NOW)
    with pytest.raises(VersionClash):
        await store.record(match_id, 7, "action", seat=0, action={}, state={"x": 1}, community=change)
    assert [w.kind for w in await store.pending_work(match_id)] == ["remind", "timer"], "a refused move changes nothing"
    await store.record(match_id, 1, "action", seat=0, action={}, state={"x": 1}, community=change)
    assert [(w.kind, w.payload) for w in await store.pending_work(match_id)] == [("remind", {"turn": 2})]
    assert len(await store.pending_work(other)) == 1, "another match's work is untouched"
    only_timers = CommunityChange(cancel_work=("timer",), add_work=(NewWork("timer", NOW + 5, {}),), now=NOW)
    await store.record(match_id, 2, "action", seat=0, action={}, state={"x": 2}, community=only_timers)
    assert sorted(w.kind for w in await store.pending_work(match_id)) == ["remind", "timer"]


async def test_seat_owners_are_remembered_and_forgotten_with_the_seating(store: Store) -> None:
    match_id = await _new(store)
    owner = SeatOwner(match_id, 0, 100, "Alice", 7)
    await store.record(match_id, 1, "kicked", seats=[(-201, "Alice")], community=CommunityChange(owners_set=(owner,)))
    assert await store.seat_owners(match_id) == [owner]
    await store.record(match_id, 2, "rejoined", seats=[(100, "Alice")],
                       community=CommunityChange(owners_cleared=(0,)))
    assert await store.seat_owners(match_id) == []


async def test_complete_work_queues_the_next_only_once(store: Store) -> None:
    match_id = await _new(store)
    work_id = await store.schedule_work("remind", NOW, match_id=match_id, payload={"count": 1})
    (claimed,) = await store.claim_due("", NOW, 10, 60)
    follow = NewWork("remind", NOW + 50, {"count": 2}, match_id=match_id)
    results = await asyncio.gather(*(store.complete_work(claimed.id, NOW, follow) for _ in range(3)))
    assert sorted(results) == [False, False, True]
    assert [(w.payload, w.due_at) for w in await store.pending_work(match_id)] == [({"count": 2}, NOW + 50)]
    assert await store.cancel_work(match_id, ("remind",), NOW, payload_turn=9) == 0
    assert await store.cancel_work(match_id, ("remind",), NOW) == 1
    assert await store.pending_work(match_id) == [] and work_id == claimed.id


async def test_two_stores_claiming_at_once_take_each_item_once(database: Path | str) -> None:
    """Two bot processes on one database: every due item is claimed by exactly one of many concurrent claims."""
    first, second = await Store.open(database), await Store.open(database)
    try:
        ids = [await first.schedule_work("remind", NOW - n, payload={"n": n}) for n in range(30)]
        claims = await asyncio.gather(*(store.claim_due("", NOW, 7, 300) for store in (first, second) * 4))
        claimed = [work.id for batch in claims for work in batch]
        assert sorted(claimed) == sorted(ids)
        assert await first.claim_due("", NOW + 299, 50, 300) == [], "leased"
        assert len(await second.claim_due("", NOW + 300, 50, 300)) == 30, "the lease ran out: claimable again"
    finally:
        await first.close()
        await second.close()


async def test_two_processes_claiming_a_matchs_owed_board_at_once_never_both_get_it(database: Path | str) -> None:
    """The outbox's claim of a match's board (`claim_match_work`, whoever posts a new board of the match: the live
    path, the scheduler, the start-up) is exclusive across processes: on PostgreSQL too, where two transactions
    may read the same unclaimed row at once."""
    first, second = await Store.open(database), await Store.open(database)
    try:
        match_id = await _new(first)
        for round_ in range(20):
            work_id = await first.schedule_work("board", NOW + round_, match_id=match_id, payload={"version": round_})
            claims = await asyncio.gather(first.claim_match_work(match_id, "board", NOW, 120),
                                          second.claim_match_work(match_id, "board", NOW, 120))
            assert sorted(len(claim) for claim in claims) == [0, 1], f"round {round_}: {claims}"
            assert [work.id for claim in claims for work in claim] == [work_id]
            await first.finish_work(work_id, NOW)
    finally:
        await first.close()
        await second.close()
