"""The service's hooks, which the features plug into (bot/features: install): what runs after a move and at a game's
end, and that a failing game-end hook never costs the committed move."""

from __future__ import annotations

import logging

import pytest

from bot.core import StaleBoard
from bot.service import GameService
from bot.store import MatchRecord, Store
from bot.table import Tables
from tests.fakes import tiny_png
from tests.test_service import ALICE, BOB, CHANNEL


async def _finish(service: GameService) -> MatchRecord:
    """Play the Nim game in CHANNEL to its end, one stone at a time."""
    match = await service.current(CHANNEL)
    seats = {seat.seat: seat.user_id for seat in match.seats}
    while match.status == "active":
        assert match.state is not None
        match = (await service.act(CHANNEL, seats[match.state["turn"]], {"type": "take", "count": 1})).match
    return match


async def test_a_bare_service_runs_the_hooks_registered_on_it_in_order(store: Store) -> None:
    service = GameService(store, renderer=tiny_png)
    seen: list[tuple[str, int]] = []

    async def first(match: MatchRecord) -> MatchRecord:
        seen.append(("first", match.version))
        return match

    async def second(match: MatchRecord) -> MatchRecord:
        seen.append(("second", match.version))
        return match

    async def ended(match: MatchRecord) -> None:
        seen.append(("ended", match.version))

    service.on_after_move(first)
    service.on_after_move(second)
    service.on_game_end(ended)
    await service.new_match(1, CHANNEL, "nim", ALICE, seed=3)
    await service.join(CHANNEL, BOB)
    started = await service.start(CHANNEL, ALICE.user_id)
    assert seen == [("first", started.version), ("second", started.version)], "the start is followed like a move"
    finished = await _finish(service)
    moves = finished.version - started.version
    assert [name for name, _ in seen].count("first") == moves + 1
    end = finished.version
    assert seen[-3:] == [("ended", end), ("first", end), ("second", end)], \
        "the game-end hook runs with the final move's commit, before what follows a move"
    assert [name for name, _ in seen].count("ended") == 1


async def test_a_failing_game_end_hook_is_logged_and_the_final_move_stands(store: Store,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    service = GameService(store, renderer=tiny_png)

    async def broken(match: MatchRecord) -> None:
        raise RuntimeError("the ratings table is gone")

    service.on_game_end(broken)
    await service.new_match(1, CHANNEL, "nim", ALICE, seed=3)
    await service.join(CHANNEL, BOB)
    await service.start(CHANNEL, ALICE.user_id)
    with caplog.at_level(logging.ERROR, logger="bot.service"):
        finished = await _finish(service)
    assert finished.status == "finished"
    assert (await service.match(finished.id)).status == "finished", "committed before the hook ran"
    assert "the ratings table is gone" in caplog.text


async def test_the_table_api_refuses_a_write_at_a_stale_version(store: Store) -> None:
    """Two writers that loaded the same match: the second write finds the board changed (StaleBoard), and
    nothing of it is stored."""
    service = GameService(store, renderer=tiny_png)
    await service.new_match(1, CHANNEL, "nim", ALICE, seed=3)
    tables = Tables(store)
    async with tables.lock(CHANNEL):
        loaded = await tables.lobby(CHANNEL)
        await tables.record(loaded, "joined", user_id=BOB.user_id, seat=1,
                            seats=[(ALICE.user_id, ALICE.name), (BOB.user_id, BOB.name)], text="Bob joined.")
        with pytest.raises(StaleBoard, match="Someone else moved at the same moment"):
            await tables.record(loaded, "left", user_id=BOB.user_id, seats=[(ALICE.user_id, ALICE.name)],
                                text="Bob left.")
        fresh = await tables.reload(loaded)
    assert [seat.name for seat in fresh.seats] == ["Alice", "Bob"] and fresh.version == loaded.version + 1
