"""/stats counts a career from the results each finished match keeps (issue 25): written by the move that ends the
game, in its transaction; filled in by the upgrade for the games finished before there were results (each final
state decoded once, then); and /stats reads the same either way, with one query and no final state decoded."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness, FakeUser
from bot.service import GameService, Player
from bot.store import Store, is_postgres_url
from bot.store.schema import RESULTS_MIGRATION, SCHEMA_VERSION
from tests.tables import current_match, finish_nim, open_table

pytestmark = pytest.mark.usefixtures("thread_bots")

RESULT_COLUMNS = "match_id, seat, guild_id, user_id, game, mode, won, score, finished_at"


async def _raw(database: Path | str, statements: list[str]) -> list[tuple[Any, ...]]:
    """Statements run on the database directly, below the Store; the last one's rows."""
    if is_postgres_url(database):
        import asyncpg

        connection = await asyncpg.connect(str(database))
        try:
            rows: list[Any] = []
            for statement in statements:
                rows = await connection.fetch(statement)
            return [tuple(row) for row in rows]
        finally:
            await connection.close()
    with sqlite3.connect(database) as raw:
        rows = []
        for statement in statements:
            rows = raw.execute(statement).fetchall()
        return [tuple(row) for row in rows]


async def _as_before_results(database: Path | str) -> None:
    """Make the database what the version before `match_results` left: the table gone (and what later versions
    added: the ratings' ordinal and its indexes, the lessons' mark and progress), the schema one back."""
    before = RESULTS_MIGRATION - 1
    later = ["DROP TABLE lesson_progress", "DROP INDEX ratings_by_ordinal", "DROP INDEX seats_by_user",
             "ALTER TABLE ratings DROP COLUMN ordinal",
             "ALTER TABLE matches DROP COLUMN lesson", "DROP TABLE match_results"]
    if is_postgres_url(database):
        await _raw(database, [*later, "DELETE FROM schema_version",
                              f"INSERT INTO schema_version (version) VALUES ({before})"])
    else:
        await _raw(database, [*later, f"PRAGMA user_version = {before}"])


async def _results(database: Path | str) -> list[tuple[Any, ...]]:
    return await _raw(database, [f"SELECT {RESULT_COLUMNS} FROM match_results ORDER BY match_id, seat"])


async def _play_to_the_end(service: GameService, channel: int, seed: int) -> None:
    """The channel's game played to its end with random legal moves through the service."""
    match = await service.current(channel)
    game, chooser = find_game(match.game), random.Random(seed)
    while match.status == "active":
        seat = game.to_act(match.state)[0]
        match = (await service.act(channel, match.seats[seat].user_id,
                                   chooser.choice(game.legal_actions(match.state, seat)))).match


async def _stats(discord_: DiscordHarness, users: list[FakeUser]) -> dict[int, str]:
    """Each user's /stats, asked by the first."""
    return {user.id: (await discord_.command("stats", {"player": user}, user=users[0])).last.content
            for user in users}


async def test_a_database_upgraded_with_its_finished_games_gives_the_stats_it_gave_when_they_were_played(
        database: Path | str) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        service: GameService = discord_.bot.service  # type: ignore[attr-defined]
        channel = discord_.default_channel.id
        for _ in range(2):
            alice, bob = await open_table(discord_, "test-nim", 2)
            await finish_nim(discord_, [alice, bob])
        alice, bob, carol = await open_table(discord_, "the-expedition", 3)
        await _play_to_the_end(service, channel, seed=4)
        expedition = await current_match(discord_)
        await open_table(discord_, "test-nim", 2)  # abandoned: counted by neither
        await discord_.command("game abandon", user=alice)
        await open_table(discord_, "test-nim", 2)  # still being played: not counted either
        everyone = [alice, bob, carol]
        played = await _stats(discord_, everyone)
    assert expedition.game == "the-expedition" and expedition.status == "finished"
    assert "3 finished games" in played[alice.id] and "3 finished games" in played[bob.id]
    assert "1 finished game" in played[carol.id]
    outcome = find_game("the-expedition").outcome(expedition.state)
    seat = expedition.seat_of(carol.id)
    won, best = int(seat in outcome.winners), outcome.scores[seat]
    assert f"The Expedition: 1 played, {won} won, best score {best}" in played[carol.id]
    kept = await _results(database)
    assert len(kept) == 2 + 2 + 3

    await _as_before_results(database)
    async with DiscordHarness(create_bot(database)) as discord_:
        assert await discord_.bot.service.store.schema_version() == SCHEMA_VERSION  # type: ignore[attr-defined]
        assert await _stats(discord_, everyone) == played
    assert await _results(database) == kept


async def test_the_upgrade_fills_in_the_results_of_every_finished_game_from_its_final_state(
        service: GameService, database: Path | str, caplog: pytest.LogCaptureFixture) -> None:
    people = [Player(301 + number, name) for number, name in enumerate(("Ada", "Ben", "Cy"))]
    finished = []
    for channel, (key, seats) in enumerate((("the-expedition", 3), ("test-nim", 2), ("monster-expedition", 2),
                                             ("the-expedition", 2)), start=10):
        await service.new_match(7, channel, key, people[0], seed=channel)
        for person in people[1:seats]:
            await service.join(channel, person)
        await service.start(channel, people[0].user_id)
        await _play_to_the_end(service, channel, seed=channel)
        finished.append(await service.current(channel))
    await service.new_match(7, 20, "test-nim", people[0])
    await service.join(20, people[1])
    await service.start(20, people[0].user_id)
    await service.abandon(20, people[0].user_id, can_manage_channel=True)
    await service.new_match(7, 21, "test-nim", people[1])
    store = service.store
    retired = await store.create_match(guild_id=7, channel_id=22, game="a-retired-game", mode="standard",
                                       host_id=people[0].user_id, host_name="Ada", seed=1, seed_chosen=False,
                                       options={}, data_version="1")
    await store.record(retired.id, retired.version, "started", state={"over": True}, status="finished")

    expected = []
    for match in finished:
        outcome = find_game(match.game).outcome(match.state)
        assert outcome is not None and outcome.scores
        expected += [(match.id, seat.seat, 7, seat.user_id, match.game, match.mode, int(seat.seat in outcome.winners),
                      outcome.scores.get(seat.seat), match.updated_at) for seat in match.seats]
    assert await _results(database) == expected  # kept by each game's last move
    assert {won for *_, won, _, _ in expected} == {0, 1}

    await _as_before_results(database)
    with caplog.at_level(logging.WARNING, logger="bot.store.records_store"):
        upgraded = await Store.open(database)
    try:
        assert await upgraded.schema_version() == SCHEMA_VERSION
        assert await _results(database) == expected
        assert f"Match {retired.id} (a-retired-game) keeps no result for /stats" in caplog.text
        assert await upgraded.fill_match_results() == 0  # each match's results once
        ada = {found.game: found for found in await upgraded.player_results(7, people[0].user_id)}
    finally:
        await upgraded.close()
    assert sorted(ada) == ["monster-expedition", "test-nim", "the-expedition"]
    mine = [row for row in expected if row[3] == people[0].user_id]
    expedition = [row for row in mine if row[4] == "the-expedition"]
    assert (ada["the-expedition"].played, ada["the-expedition"].wins, ada["the-expedition"].best) == (
        2, sum(row[6] for row in expedition), max(row[7] for row in expedition))


# ----------------------------------------------------------------------------------------------- results kept late
# A bot process of a version before `match_results`, still running during a rolling upgrade, finishes games without
# their result rows. The scheduler's passes fill them in (ResultsKeeper, a chore of every pass).


async def test_a_game_finished_without_results_by_an_older_process_counts_in_stats_after_the_next_pass(
        database: Path | str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2)
        await finish_nim(discord_, [alice, bob])
        counted = await _stats(discord_, [alice, bob])
        assert "1 finished game" in counted[alice.id] and "1 finished game" in counted[bob.id]
        kept = await _results(database)
        assert await discord_.bot.run_due_work() == 0  # this process's first pass: nothing missing
        finished = await current_match(discord_)
        await _raw(database, [f"DELETE FROM match_results WHERE match_id = {finished.id}"])  # as the older one left it
        missed = await _stats(discord_, [alice, bob])
        assert missed[alice.id].startswith("**Alice**: 0 finished games")
        await discord_.bot.run_due_work()
        assert await _stats(discord_, [alice, bob]) == counted
    assert await _results(database) == kept


async def _finished_nim(service: GameService, channel: int) -> Any:
    people = [Player(401, "Ada"), Player(402, "Ben")]
    await service.new_match(7, channel, "test-nim", people[0], seed=channel)
    await service.join(channel, people[1])
    await service.start(channel, people[0].user_id)
    await _play_to_the_end(service, channel, seed=channel)
    return await service.current(channel)


def _counting(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """Every statement the store sends from now on, with its parameters."""
    sent: list[tuple[str, tuple[Any, ...]]] = []
    engine = store.engine
    for name in ("execute", "fetchall", "executemany"):
        original = getattr(engine, name)

        async def counted(sql: str, params: Any = (), original: Any = original) -> Any:
            sent.append((sql, tuple(params)))
            return await original(sql, params)

        monkeypatch.setattr(engine, name, counted)
    return sent


async def _plan(database: Path | str, sql: str, params: tuple[Any, ...]) -> str:
    """How the database runs the query (PostgreSQL told to use an index wherever one serves: its tables are tiny)."""
    if is_postgres_url(database):
        import asyncpg

        from bot.store.engines import numbered_placeholders

        connection = await asyncpg.connect(str(database))
        try:
            await connection.execute("SET enable_seqscan = off")
            rows = await connection.fetch(f"EXPLAIN {numbered_placeholders(sql)}", *params)
            return "\n".join(row[0] for row in rows)
        finally:
            await connection.close()
    with sqlite3.connect(database) as raw:
        return "\n".join(str(row[-1]) for row in raw.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall())


async def test_later_sweeps_look_only_at_games_finished_lately_with_one_indexed_query(
        service: GameService, database: Path | str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    from bot.features.stats import ResultsKeeper

    store = service.store
    old, recent = await _finished_nim(service, 30), await _finished_nim(service, 31)
    kept = await _results(database)
    assert [row[0] for row in kept] == [old.id, old.id, recent.id, recent.id]
    keeper = ResultsKeeper(store)
    assert await keeper.sweep() == 0 and keeper.since != ""  # the first sweep looked at every finished game

    sent = _counting(store, monkeypatch)
    assert await keeper.sweep() == 0
    assert len(sent) == 1, "nothing missing: one query"
    (sql, params), = sent
    plan = await _plan(database, sql, params)
    assert "matches_finished_by_time" in plan, plan

    # The older process finished both; one of them a day ago, before this process's sweeps began.
    await _raw(database, [f"DELETE FROM match_results WHERE match_id IN ({old.id}, {recent.id})",
                          f"UPDATE matches SET updated_at = '2026-01-01T00:00:00+00:00' WHERE id = {old.id}"])
    assert await keeper.sweep() == 1
    assert [row for row in await _results(database) if row[0] == recent.id] == [r for r in kept if r[0] == recent.id]
    assert await keeper.sweep() == 0

    # The next start's first sweep looks at every finished game again.
    retired = await store.create_match(guild_id=7, channel_id=32, game="a-retired-game", mode="standard",
                                       host_id=401, host_name="Ada", seed=1, seed_chosen=False, options={},
                                       data_version="1")
    await store.record(retired.id, retired.version, "started", state={"over": True}, status="finished")
    restarted = ResultsKeeper(store)
    with caplog.at_level(logging.WARNING, logger="bot.features.stats"):
        assert await restarted.sweep() == 1
        assert await restarted.sweep() == 0
    assert [row[:8] for row in await _results(database)] == [row[:8] for row in kept]
    assert caplog.text.count(f"Match {retired.id} (a-retired-game) keeps no result for /stats") == 1
