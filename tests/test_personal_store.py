"""A member's own storage on both engines (issue 34): preferences kept per member, not per server, and the games a
member sits in across servers."""

from __future__ import annotations

from bot.store import MemberRecord, MemberResult, SeatResult, Store
from bot.store.schema import MIGRATIONS

ALICE, BOB = 100, 200


async def _started(store: Store, guild_id: int, channel_id: int, seats: list[int]) -> int:
    match = await store.create_match(guild_id=guild_id, channel_id=channel_id, game="test-nim", mode="standard",
                                     host_id=seats[0], host_name=f"user{seats[0]}", seed=5, seed_chosen=True,
                                     options={}, data_version="1")
    await store.record(match.id, match.version, "started", status="active", state={"pile": 5, "turn": 0},
                       seats=[(user_id, f"user{user_id}") for user_id in seats])
    return match.id


def test_the_members_migration_only_creates_what_is_missing() -> None:
    """Another engineer's migration of the same release may come before or after it."""
    statements = [s.strip() for s in MIGRATIONS[10].split(";") if s.strip()]
    assert "CREATE TABLE IF NOT EXISTS members" in statements[0]
    assert all(s.startswith(("CREATE TABLE IF NOT EXISTS", "CREATE INDEX IF NOT EXISTS")) for s in statements)


async def test_preferences_are_the_members_whatever_the_server(store: Store) -> None:
    assert await store.member(ALICE) == MemberRecord(ALICE)
    await store.set_member_prefs(ALICE, {"notify": "dm", "reminder_hours": 6})
    await store.set_member_language(ALICE, "de")
    await store.set_member_dm(ALICE, channel_id=555)
    await store.set_member_prefs(ALICE, {"notify": "both", "time_zone": "Europe/Berlin"})
    await store.set_member_dm(ALICE, refused=True)
    assert await store.member(ALICE) == MemberRecord(ALICE, "de", {"notify": "both", "time_zone": "Europe/Berlin"},
                                                     555, True)
    assert await store.member(BOB) == MemberRecord(BOB), "nothing of Alice's is Bob's"


async def test_a_members_games_across_servers(store: Store) -> None:
    first = await _started(store, 1, 10, [ALICE, BOB])
    second = await _started(store, 2, 20, [BOB, ALICE])
    await _started(store, 2, 30, [BOB, 300])  # not Alice's
    lobby = await store.create_match(guild_id=1, channel_id=40, game="test-nim", mode="standard", host_id=ALICE,
                                     host_name="Alice", seed=1, seed_chosen=False, options={}, data_version="1")
    assert [m.id for m in await store.member_matches(ALICE)] == [first, second], "games under way, not lobbies"
    assert lobby.id not in [m.id for m in await store.member_matches(ALICE)]
    match = await store.match(second)
    assert match is not None
    await store.record(second, match.version, "action", state={"pile": 0}, status="finished",
                       results=[SeatResult(0, True, 3), SeatResult(1, False, None)])
    assert [m.id for m in await store.member_matches(ALICE)] == [first]
    assert [m.id for m in await store.member_matches(ALICE, finished=True)] == [second]
    assert await store.member_results(ALICE, [second]) == {second: MemberResult(False, None)}
    assert await store.member_results(BOB, [second]) == {second: MemberResult(True, 3)}
    await store.set_board_message(first, 9001)
    assert await store.board_messages([first, second]) == {first: 9001}
