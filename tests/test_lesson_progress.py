"""What a lesson or a teaching table has told is its match's own record (review 13, findings 6, 18, 41 and a
lesson's reminders): kept by match whoever hosts it, out of the members' profiles, gone when the table ends; a
lesson's preparation plans its turn once, and a lesson plans no reminders, deadlines or DMs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bot.app import create_bot
from bot.core import find_game
from bot.core.lessons import lesson_for
from bot.features import lessons
from bot.features.community import BOARD, LOBBY_EXPIRY
from bot.offline import DiscordHarness, FakeUser
from bot.store import Store
from bot.store.engines import is_postgres_url, migration_statements, postgres_ddl
from bot.store.schema import LESSON_PROGRESS_MIGRATION, MIGRATIONS
from tests.clock import FakeClock

PRESSES = 24
"""How far the group plays before and after its host is replaced."""


def _board(discord_: DiscordHarness, channel: object) -> object | None:
    boards = [m for m in discord_.channel_messages(channel)
              if any(i.startswith(("xt:act:", "xt:pick:")) for i in m.custom_ids())]
    return boards[-1] if boards else None


async def _press(discord_: DiscordHarness, players: list[FakeUser], presses: int, seen: dict[str, None]) -> None:
    """The player the board pings presses the first move it offers; every message text seen is kept."""
    for _ in range(presses):
        seen.update(dict.fromkeys(m.content for m in discord_.channel_messages()))
        board = _board(discord_, discord_.default_channel)
        if board is None:
            break
        pinged = [user for user in players if user.id in board.notified] or players  # type: ignore[attr-defined]
        actions = [i for i in board.custom_ids() if i.startswith("xt:act:")]  # type: ignore[attr-defined]
        if actions:
            await discord_.click(board, custom_id=actions[0], user=pinged[0])
        else:
            (menu,) = [i for i in board.custom_ids() if i.startswith("xt:pick:")]  # type: ignore[attr-defined]
            await discord_.select(board, menu, ["0"], user=pinged[0])
    seen.update(dict.fromkeys(m.content for m in discord_.channel_messages()))


async def test_a_teaching_table_tells_no_idea_twice_when_its_host_is_replaced(database: Path | str) -> None:
    lesson = lesson_for(find_game("monster-expedition"))
    assert lesson is not None
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        mod = discord_.user("mod", manage_channels=True)
        await discord_.command("game new", {"game": "monster-expedition", "seed": 7, "teach": True}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game join", user=carol)
        await discord_.command("game start", user=alice)
        seen: dict[str, None] = {}
        await _press(discord_, [alice, bob, carol], PRESSES, seen)
        await discord_.command("game kick", {"player": alice}, user=mod)  # host powers pass to bob
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        match = await store.latest_match(discord_.default_channel.id)
        assert match is not None and match.host_id == bob.id
        await _press(discord_, [bob, carol], PRESSES, seen)
        record = await store.lesson_progress(match.id)
        profiles = {**await store.profiles_of(match.guild_id, alice.id), **await store.profiles_of(match.guild_id,
                                                                                                  bob.id)}
        asked = await discord_.command("game abandon", user=bob)  # the new host ends the table: its record goes
        (confirm,) = [reply for reply in asked.messages() if reply.buttons()]
        await discord_.click(confirm.message_id, custom_id=confirm.custom_ids()[0], user=bob)
        assert (await store.latest_match(discord_.default_channel.id)).status == "abandoned"
        assert await store.lesson_progress(match.id) is None
    told = [idea for idea in lesson.ideas if any(lessons.table_idea_text(idea, "en") in text for text in seen)]
    assert len(told) >= 3
    for idea in told:  # once at this table, whoever hosts it
        assert sum(text.count(lessons.table_idea_text(idea, "en")) for text in seen) == 1, idea.key
    assert record is not None and set(record["told"]) >= {idea.key for idea in told}
    assert not [key for key in profiles if key.startswith(("teach/", "lesson/"))]  # not a member's record


async def test_a_lesson_in_a_server_thread_plans_its_turn_once_and_never_reminds(database: Path | str) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), timeout=30.0) as discord_:
        learner = discord_.user("lena")
        await discord_.command("me notify", {"how": "dm", "heads_up": True}, user=learner)
        await discord_.command("game learn", {"game": "monster-expedition"}, user=learner)
        (thread,) = discord_.world.threads.values()
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        match = await store.latest_match(thread.id)
        assert match is not None and match.lesson and match.version > 10  # the preparation was played
        planned = await store._fetchall("SELECT kind FROM scheduled_work WHERE match_id = ?", (match.id,))
        # The lobby's expiry, the start's board, then the prepared position's: never one per preparing move.
        assert [row["kind"] for row in planned] == [LOBBY_EXPIRY, BOARD, BOARD]
        assert await store.pending_work(match.id) == []  # the boards were posted; nothing to remind
        messages = len(discord_.channel_messages(thread))
        clock.advance(30 * 3600)  # well past the server's reminders (12 h) and any deadline
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        assert len(discord_.channel_messages(thread)) == messages
        assert not discord_.channel_messages(discord_.dm(learner))
        assert (await store.latest_match(thread.id)).version == match.version  # nobody moved for the learner


# --------------------------------------------------------------------------------------------- upgrading

OLD = LESSON_PROGRESS_MIGRATION - 1
STAMP = "'2026-01-01T00:00:00+00:00'"
MATCHES = [  # (id, status, host, options, lesson)
    (1, "active", 100, '{"teach":true}', 0),
    (2, "active", 7, '{"lesson":true}', 1),
    (3, "finished", 100, '{"teach":true}', 0),
    (4, "finished", 7, '{"lesson":true}', 1),
]
TEACHING = {"told": ["goal"], "seen": 4, "latest": ["goal"], "at": 3}
LESSON = {"match": 2, "told": ["goal", "camp"], "seen": 9, "prepared": True, "latest": ["camp"], "at": 9}
PROFILES = [  # (user, key, data)
    (100, "teach/1", TEACHING),
    (7, "lesson/monster-expedition", LESSON),
    (100, "teach/3", TEACHING),
    (8, "lesson/monster-expedition", {**LESSON, "match": 4}),
    (7, "monster-expedition", {"campaign": 2}),
]


def _old_rows() -> list[str]:
    """The statements filling a database of schema 13 with tables under way and ended, and their records."""
    rows = [f"INSERT INTO matches (id, guild_id, channel_id, game, mode, status, host_id, seed, options_json, "
            f"data_version, version, created_at, updated_at, lesson) VALUES ({number}, 1, {10 + number}, "
            f"'monster-expedition', 'standard', '{status}', {host}, 5, '{options}', '1', 9, {STAMP}, {STAMP}, "
            f"{lesson})" for number, status, host, options, lesson in MATCHES]
    rows[3] = rows[3].replace("'finished', 7,", "'finished', 8,")  # another learner's ended lesson
    return rows + [f"INSERT INTO profiles (guild_id, user_id, game, data_json, updated_at) VALUES (1, {user}, "
                   f"'{key}', '{json.dumps(data, separators=(',', ':'), sort_keys=True)}', {STAMP})"
                   for user, key, data in PROFILES]


async def _older_database(database: Path | str) -> None:
    statements = [statement for migration in MIGRATIONS[:OLD] for statement in migration_statements(migration)]
    if not is_postgres_url(database):
        with sqlite3.connect(database) as raw:
            for statement in [*statements, *_old_rows()]:
                raw.execute(statement)
            raw.execute(f"PRAGMA user_version = {OLD}")
        raw.close()
        return
    import asyncpg

    connection = await asyncpg.connect(str(database))
    try:
        for statement in statements:
            await connection.execute(postgres_ddl(statement))
        for statement in _old_rows():
            await connection.execute(statement)
        await connection.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
        await connection.execute(f"INSERT INTO schema_version VALUES ({OLD})")
    finally:
        await connection.close()


async def test_an_upgrade_carries_the_tables_under_way_over_and_drops_the_rest(database: Path | str) -> None:
    await _older_database(database)
    store = await Store.open(database, backup=False)
    try:
        assert await store.lesson_progress(1) == TEACHING
        assert await store.lesson_progress(2) == LESSON
        assert await store.lesson_progress(3) is None and await store.lesson_progress(4) is None  # ended
        assert await store.profiles_of(1, 100) == {}
        assert await store.profiles_of(1, 7) == {"monster-expedition": {"campaign": 2}}  # a game's own record stays
        assert await store.profiles_of(1, 8) == {}
    finally:
        await store.close()
