"""/leaderboard and /stats at scale (issue 32): the leaderboard of 50,000 rated players is read top-N from an index
(each rating row keeps its ordinal) and the asker's place is a count over that index, so the event loop receives a
dozen rows, not 50,000 to sort; and /stats counts every finished game of a long career, not the newest thousand
presented as the total."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.features import ratings
from bot.offline import DiscordHarness
from bot.store import Store, is_postgres_url
from bot.store.engines import numbered_placeholders
from bot.store.records_store import LAST_NAME, RATING_COLUMNS, RATING_ORDER

pytestmark = pytest.mark.usefixtures("thread_bots")

RATED = 50_000
GAME = "test-nim"


async def _insert(database: Path | str, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Rows written straight into a table, below the store (as a server's years of play would have left them)."""
    if is_postgres_url(database):
        import asyncpg

        connection = await asyncpg.connect(str(database))
        try:
            await connection.copy_records_to_table(table, records=rows, columns=list(columns))
        finally:
            await connection.close()
        return
    with sqlite3.connect(database) as raw:
        marks = ", ".join("?" for _ in columns)
        raw.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


async def _plan(database: Path | str, sql: str, params: Sequence[Any], *, analyse: bool = False) -> str:
    """How the database runs a query (PostgreSQL's plan with the rows each step really read when `analyse`)."""
    if is_postgres_url(database):
        import asyncpg

        connection = await asyncpg.connect(str(database))
        try:
            await connection.execute("VACUUM ANALYZE ratings")  # (as autovacuum would: index-only scans)
            explain = "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)" if analyse else "EXPLAIN (COSTS OFF)"
            rows = await connection.fetch(f"{explain} {numbered_placeholders(sql)}", *params)
            return "\n".join(row[0] for row in rows)
        finally:
            await connection.close()
    with sqlite3.connect(database) as raw:
        return "\n".join(str(row[-1]) for row in raw.execute(f"EXPLAIN QUERY PLAN {sql}", tuple(params)))


def _ratings(guild_id: int, count: int, seed: int) -> list[tuple[Any, ...]]:
    """`count` ratings of one game, as the store writes them (the ordinal computed as the feature computes it), with
    ties: every hundredth player shares the rating and game count of the one before."""
    chooser = random.Random(seed)
    rows = []
    for user_id in range(1, count + 1):
        if user_id % 100 == 0:
            _, _, _, mu, sigma, _, games, _ = rows[-1]
        else:
            mu, sigma, games = chooser.uniform(5, 45), chooser.uniform(0.8, 8.3), chooser.randint(1, 60)
        rows.append((guild_id, GAME, 10_000 + user_id, mu, sigma, ratings.ordinal(mu, sigma), games,
                     "2026-01-01T00:00:00+00:00"))
    return rows


RATING_TABLE = ("guild_id", "game", "user_id", "mu", "sigma", "ordinal", "games", "updated_at")


def _ranked(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The leaderboard's order as the bot sorted it before (every rating on the event loop)."""
    return sorted(rows, key=lambda r: (-ratings.ordinal(r[3], r[4]), -r[6], r[2]))


def _fetched_rows(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many rows each query from now on brought back to the event loop."""
    fetched: list[int] = []
    engine = store.engine
    for name in ("fetchall",):
        original = getattr(engine, name)

        async def counted(sql: str, params: Any = (), original: Any = original) -> Any:
            found = await original(sql, params)
            fetched.append(len(found))
            return found

        monkeypatch.setattr(engine, name, counted)
    return fetched


async def test_the_leaderboard_of_50000_rated_players_reads_a_dozen_rows_and_places_the_asker_exactly(
        database: Path | str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        guild_id = discord_.world.guild_id
        rows = _ratings(guild_id, RATED, seed=32)
        await _insert(database, "ratings", RATING_TABLE, rows)
        ranked = _ranked(rows)
        place = 31_337
        tied = next(index for index in range(place, RATED) if ranked[index][2] % 100 == 0)  # the second of a tie
        asker = discord_.user("asker")
        for where, row in ((place, ranked[place - 1]), (tied + 1, ranked[tied])):
            await discord_.bot.service.store._execute(  # type: ignore[attr-defined]
                "UPDATE ratings SET user_id = ? WHERE guild_id = ? AND user_id = ?", (asker.id, guild_id, row[2]))
            with pytest.MonkeyPatch.context() as patch:
                fetched = _fetched_rows(discord_.bot.service.store, patch)  # type: ignore[attr-defined]
                board = await discord_.command("leaderboard", {"game": GAME}, user=asker)
            described = board.public()[-1].files[0].description or ""
            top = [f"{number}. " for number in range(1, 11)]
            assert [described.index(mark) for mark in top] == sorted(described.index(mark) for mark in top)
            best = ratings.ordinal(ranked[0][3], ranked[0][4])
            assert f"1. Someone, rating {best:.1f}" in described
            assert f"{where}. Someone, rating {ratings.ordinal(row[3], row[4]):.1f}" in described
            assert sum(fetched) <= 30, f"{sum(fetched)} rows brought to the event loop for one leaderboard"
            await discord_.bot.service.store._execute(  # type: ignore[attr-defined]
                "UPDATE ratings SET user_id = ? WHERE guild_id = ? AND user_id = ?", (row[2], guild_id, asker.id))


def _statements(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """Every query the store sends from now on, with its parameters (on its connection, or on one of their own in
    a thread: `reading.fetch_named`)."""
    from bot.store import reading

    sent: list[tuple[str, tuple[Any, ...]]] = []
    original, apart = store.engine.fetchall, reading.fetch_named

    async def noted(sql: str, params: Any = ()) -> Any:
        sent.append((sql, tuple(params)))
        return await original(sql, params)

    def noted_apart(path: str, sql: str, params: Any) -> Any:
        sent.append((sql, tuple(params)))
        return apart(path, sql, params)

    monkeypatch.setattr(store.engine, "fetchall", noted)
    monkeypatch.setattr(reading, "fetch_named", noted_apart)
    return sent


async def test_the_leaderboards_queries_read_the_ordinal_index_in_order(
        database: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(database)
    try:
        rows = _ratings(7, RATED, seed=5)
        await _insert(database, "ratings", RATING_TABLE, rows)
        ranked = _ranked(rows)
        sent = _statements(store, monkeypatch)
        best = await store.top_ratings(7, GAME, 10)
        assert [rating.user_id for rating in best] == [row[2] for row in ranked[:10]]
        near_top = ranked[999][2]  # (a place far down counts much of the table: PostgreSQL may rightly read it all)
        assert (await store.rating_place(7, GAME, near_top))[0] == 1000  # type: ignore[index]
        (top_sql, top_params), (place_sql, place_params) = sent
        for place in (1, 2, 100, 101, 4_999, 25_000, RATED):
            user_id = ranked[place - 1][2]
            found = await store.rating_place(7, GAME, user_id)
            assert found is not None and found[0] == place and found[1].user_id == user_id
        assert await store.rating_place(7, GAME, 1) is None
        assert await store.rating_place(8, GAME, ranked[0][2]) is None  # another server's leaderboard
    finally:
        await store.close()

    top_plan = await _plan(database, top_sql, top_params, analyse=True)
    place_plan = await _plan(database, place_sql, place_params)
    assert "ratings_by_ordinal" in top_plan, top_plan
    # (PostgreSQL plans the place's correlated count by its own estimates: on a busy machine it took the primary
    # key's (guild, game) prefix; SQLite's plan is checked below.)
    assert "ratings_by_ordinal" in place_plan or is_postgres_url(database), place_plan
    if is_postgres_url(database):
        limit, scan = top_plan.splitlines()[:2]  # read in the index's order, under the limit: no sort of 50,000
        assert limit.startswith("Limit") and "Index Scan using ratings_by_ordinal" in scan, top_plan
        assert "rows=10 " in scan, top_plan  # ten rows read, however many are rated
        assert "Index" in place_plan, place_plan  # never a sequential read of every rating
    else:
        assert "TEMP B-TREE" not in top_plan, top_plan
        assert "COVERING INDEX ratings_by_ordinal (guild_id=? AND game=? AND ordinal>?)" in place_plan, place_plan
        assert "seats_by_user" in top_plan and "seats_by_user" in place_plan, (top_plan, place_plan)


def _sqlite_steps(path: Path, sql: str, params: Sequence[Any]) -> int:
    """How many virtual machine steps (in thousands) SQLite takes to answer a query: the work done, by count."""
    steps = 0

    def step() -> int:
        nonlocal steps
        steps += 1
        return 0

    with sqlite3.connect(path) as raw:
        raw.set_progress_handler(step, 1000)
        raw.execute(sql, tuple(params)).fetchall()
    return steps


async def test_on_sqlite_the_top_of_50000_ratings_costs_what_the_top_of_50_does(tmp_path: Path) -> None:
    costs = []
    for count in (50, RATED):
        path = tmp_path / f"{count}.sqlite3"
        await (await Store.open(path)).close()
        await _insert(path, "ratings", RATING_TABLE, _ratings(7, count, seed=count))
        costs.append(_sqlite_steps(path, f"SELECT {RATING_COLUMNS}, {LAST_NAME} AS name FROM ratings r WHERE "
                                         f"guild_id = ? AND game = ? ORDER BY {RATING_ORDER} LIMIT ?", (7, GAME, 10)))
    assert costs[1] <= costs[0] + 1, costs


# ------------------------------------------------------------------------------------------------- /stats counts

CAREER = 1_700


async def test_stats_counts_all_1700_finished_games_of_a_career(database: Path | str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        guild_id, channel_id = discord_.world.guild_id, discord_.default_channel.id
        ada = discord_.user("ada")
        when = "2026-01-01T00:00:00+00:00"
        first = 500_000
        await _insert(database, "matches",
                      ("id", "guild_id", "channel_id", "game", "mode", "status", "host_id", "seed", "data_version",
                       "state_json", "created_at", "updated_at"),
                      [(first + n, guild_id, channel_id, GAME, "standard", "finished", ada.id, n, "1", "{}", when,
                        when) for n in range(CAREER)])
        await _insert(database, "match_results",
                      ("match_id", "seat", "guild_id", "user_id", "game", "mode", "won", "score", "finished_at"),
                      [(first + n, 0, guild_id, ada.id, GAME, "standard", int(n != 0), n % 7, when)
                       for n in range(CAREER)])
        text = (await discord_.command("stats", {"player": ada}, user=ada)).last.content
    assert text.startswith("**Ada**: 1,700 finished games, 1,699 won; favourite: Test Nim"), text
    assert "Test Nim: 1,700 played, 1,699 won, best score 6" in text


# ------------------------------------------------------------------------------------------- what a crash left


async def test_a_game_a_crash_left_unrated_is_rated_by_the_next_pass_and_later_passes_read_only_recent_games(
        database: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.tables import current_match, finish_nim, open_table

    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        store: Store = discord_.bot.service.store  # type: ignore[attr-defined]
        alice, bob = await open_table(discord_, GAME, 2)
        await finish_nim(discord_, [alice, bob])
        match = await current_match(discord_)
        rated = await store.ratings(match.guild_id, GAME)
        assert await discord_.bot.run_due_work() == 0  # the first pass: nothing was left unrated
        async with store._transaction():  # what a crash between the final move's commit and its rating leaves
            await store._execute("DELETE FROM rated_matches WHERE match_id = ?", (match.id,))
            await store._execute("DELETE FROM ratings WHERE guild_id = ?", (match.guild_id,))
        with pytest.MonkeyPatch.context() as patch:
            fetched = _fetched_rows(store, patch)
            await discord_.command("leaderboard", {"game": GAME}, user=alice)
            await discord_.command("stats", user=alice)
        assert await store.ratings(match.guild_id, GAME) == []  # a request sweeps nothing on the way
        assert sum(fetched) <= 12
        sent: list[str] = []
        original = store.engine.fetchall

        async def noted(sql: str, params: Any = ()) -> Any:
            sent.append(sql)
            return await original(sql, params)

        monkeypatch.setattr(store.engine, "fetchall", noted)
        await discord_.bot.run_due_work()
        assert sorted(await store.ratings(match.guild_id, GAME), key=str) == sorted(rated, key=str)
    swept = next(sql for sql in sent if "rated_matches" in sql)
    plan = await _plan(database, swept, ("2026-01-01T00:00:00+00:00",))
    assert "matches_finished_by_time" in plan, plan


async def _statements_on(database: Path | str, statements: list[str]) -> None:
    if is_postgres_url(database):
        import asyncpg

        connection = await asyncpg.connect(str(database))
        try:
            for statement in statements:
                await connection.execute(statement)
        finally:
            await connection.close()
        return
    with sqlite3.connect(database) as raw:
        for statement in statements:
            raw.execute(statement)


async def test_the_upgrade_to_schema_10_gives_every_rating_made_before_its_ordinal(database: Path | str) -> None:
    from bot.store.schema import RATINGS_ORDINAL_MIGRATION, SCHEMA_VERSION

    await (await Store.open(database)).close()
    before = RATINGS_ORDINAL_MIGRATION - 1
    version = (["DELETE FROM schema_version", f"INSERT INTO schema_version (version) VALUES ({before})"]
               if is_postgres_url(database) else [f"PRAGMA user_version = {before}"])
    await _statements_on(database, ["DROP TABLE lesson_progress", "DROP INDEX ratings_by_ordinal",
                                    "DROP INDEX match_results_by_player_game",
                                    "ALTER TABLE ratings DROP COLUMN ordinal",
                                    "ALTER TABLE matches DROP COLUMN lesson", *version])
    rows = _ratings(7, 300, seed=10)
    await _insert(database, "ratings", [column for column in RATING_TABLE if column != "ordinal"],
                  [row[:5] + row[6:] for row in rows])
    store = await Store.open(database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        kept = {rating.user_id: rating.ordinal for rating in await store.ratings(7, GAME)}
        assert kept == {row[2]: ratings.ordinal(row[3], row[4]) for row in rows}  # exactly openskill's
        best = await store.top_ratings(7, GAME, 10)
    finally:
        await store.close()
    assert [rating.user_id for rating in best] == [row[2] for row in _ranked(rows)[:10]]


async def test_a_flood_of_leaderboards_holds_one_database_read_at_a_time(
        service: Any, database: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.features import stats

    await _insert(database, "ratings", RATING_TABLE, _ratings(7, 500, seed=1))
    reading, most = 0, 0
    store = service.store
    for name in ("top_ratings", "rating_place"):
        original = getattr(store, name)

        async def counted(*arguments: Any, original: Any = original) -> Any:
            nonlocal reading, most
            reading += 1
            most = max(most, reading)
            try:
                return await original(*arguments)
            finally:
                reading -= 1

        monkeypatch.setattr(store, name, counted)
    boards = await asyncio.gather(*(stats.leaderboard(service, 7, GAME, 10_000 + asker) for asker in range(1, 41)))
    assert most == 1
    assert all(len(top) == 10 for top, _ in boards)
    assert sorted(mine.place for top, mine in boards if mine is not None) == sorted(
        place for place in range(1, 501)
        if _ranked(_ratings(7, 500, seed=1))[place - 1][2] in range(10_001, 10_041) and place > 10)
