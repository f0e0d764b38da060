"""`expedition-bot migrate`: every row copied between the engines, and each copied game replays to its state."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.migrate import migrate
from bot.core import find_game
from bot.features import install
from bot.service import GameService, Player
from bot.store import Store
from tests.fakes import tiny_png

ALICE, BOB = Player(100, "Alice"), Player(200, "Bob")


async def _fill(location: Path | str) -> dict[int, dict]:
    """Games in every status, profiles, a snapshot and scheduled work; returns each match's stored state."""
    store = await Store.open(location)
    service = install(GameService(store, renderer=tiny_png))
    try:
        # A finished Nim game (it writes profiles), one in play, a lobby and an abandoned game.
        await service.new_match(1, 10, "nim", ALICE, seed=3)
        await service.join(10, BOB)
        await service.start(10, ALICE.user_id)
        players = [ALICE, BOB]
        while (match := await service.open_match(10)) is not None:
            state = match.state or {}
            await service.act(10, players[state["turn"]].user_id, {"type": "take", "count": min(3, state["pile"])})
        await service.new_match(1, 11, "nim", ALICE, seed=4)
        await service.join(11, BOB)
        await service.start(11, ALICE.user_id)
        await service.act(11, ALICE.user_id, {"type": "take", "count": 1})
        await service.new_match(1, 12, "nim", BOB)
        await service.new_match(1, 13, "nim", ALICE, seed=5)
        await service.abandon(13, ALICE.user_id, can_manage_channel=False)
        # A game of The Expedition long enough for a snapshot (every 25 events), moves chosen by a seeded Random.
        await service.new_match(1, 14, "the-expedition", ALICE, seed=9)
        await service.join(14, BOB)
        await service.start(14, ALICE.user_id)
        game, chooser = find_game("the-expedition"), random.Random(2)
        for _ in range(30):
            match = await service.open_match(14)
            if match is None or match.state is None:
                break
            seat = game.to_act(match.state)[0]
            await service.act(14, players[seat].user_id, chooser.choice(game.legal_actions(match.state, seat)))
        await store.schedule_work("reminder:turn", 1234, match_id=1, channel_id=11, payload={"seat": 1})
        states = {}
        for channel in (10, 11, 12, 13, 14):
            latest = await store.latest_match(channel)
            assert latest is not None
            states[latest.id] = latest.state
        return states
    finally:
        await store.close()


async def test_migrate_into_each_engine_copies_everything_and_replays(database: Path | str, tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    states = await _fill(source)
    report = await migrate(source, database)
    assert report.problems == []
    assert report.rows["matches"] == 5 and report.rows["profiles"] == 2 and report.rows["scheduled_work"] == 1
    assert report.rows["snapshots"] >= 1 and report.rows["events"] > 30
    assert report.replayed == 3  # the finished game, the one in play and the solo game; lobbies have no state
    copy = await Store.open(database)
    try:
        for match_id, state in states.items():
            assert (await copy.match(match_id)).state == state  # type: ignore[union-attr]
        assert await copy.profile(1, BOB.user_id, "test-nim") == {"wins": 1} or \
            await copy.profile(1, ALICE.user_id, "test-nim") == {"wins": 1}
        # New rows continue after the copied ids instead of colliding with them.
        service = install(GameService(copy, renderer=tiny_png))
        fresh = await service.new_match(1, 15, "nim", ALICE)
        assert fresh.id == max(states) + 1
        assert [w.payload for w in await copy.claim_due("reminder:", 2000, 5, 60)] == [{"seat": 1}]
    finally:
        await copy.close()


async def test_migrate_out_of_each_engine(database: Path | str, tmp_path: Path) -> None:
    await _fill(database)
    report = await migrate(database, tmp_path / "copy.sqlite3")
    assert report.problems == [] and report.replayed == 3 and report.rows["matches"] == 5


async def test_a_copy_that_does_not_replay_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "source.sqlite3"
    await _fill(source)
    original = GameService.replayed_state

    async def off_by_one(self: GameService, match_id: int) -> dict | None:
        state = await original(self, match_id)
        return {**state, "pile": -1} if state and "pile" in state else state

    monkeypatch.setattr(GameService, "replayed_state", off_by_one)
    report = await migrate(source, tmp_path / "copy.sqlite3")
    assert report.problems == ["match 1: replaying its log does not reach its stored state",
                               "match 2: replaying its log does not reach its stored state"]


def test_the_command_refuses_a_target_that_already_has_games(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    asyncio.run(_fill(source))
    assert main(["migrate", "--from", str(source), "--to", str(target)]) == 0
    out = capsys.readouterr().out
    assert "Copied 5 matches" in out and "3 started games replay to exactly their stored state." in out
    assert main(["migrate", "--from", str(source), "--to", str(target)]) == 2
    assert "already holds 5 matches" in capsys.readouterr().err


async def test_the_command_takes_a_path_or_a_url_on_either_side(database: Path | str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`--from`/`--to` as typed on the command line: a SQLite path to this engine, and back out of it."""
    await _fill(tmp_path / "source.sqlite3")
    # The command runs its own event loop (asyncio.run), so it runs in a thread beside this test's loop.
    into = ["migrate", "--from", str(tmp_path / "source.sqlite3"), "--to", str(database)]
    assert await asyncio.to_thread(main, into) == 0
    back = ["migrate", "--from", str(database), "--to", str(tmp_path / "back.sqlite3")]
    assert await asyncio.to_thread(main, back) == 0
    out = capsys.readouterr().out
    assert out.count("Copied 5 matches") == 2 and out.count("3 started games replay to exactly their stored state") == 2
