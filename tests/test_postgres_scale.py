"""Several processes, one truth: two OS processes press the same button at once; shards; the shard settings.

Run on both engines like the rest of the suite; the PostgreSQL run is the one that matters for sharded bots.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands

from bot.app import create_bot
from bot.cli import main
from bot.cli.config import load_settings
from bot.core import StaleBoard
from bot.features import install
from bot.offline import DiscordHarness
from bot.service import GameService, Player
from bot.store import Store
from tests.fakes import tiny_png
from tests.reading import read

ALICE, BOB = Player(100, "Alice"), Player(200, "Bob")


class _MeetingStore(Store):
    """A store whose writers wait for each other first, so both processes have read the same board version and
    passed every check in the service before either commits: only the database can tell them apart."""

    barrier: Barrier

    async def record(self, *args: Any, **kwargs: Any) -> int:
        await asyncio.to_thread(self.barrier.wait, 30)
        return await super().record(*args, **kwargs)


def _press_in_own_process(location: str, barrier: Barrier, press: tuple[int, int, int, int, int, int],
                          results: Any) -> None:
    """One bot process: its own service, store and connections; presses the button and reports what it was told."""
    import tests.conftest  # noqa: F401  (registers the test game in this fresh interpreter)

    async def run() -> tuple[str, str]:
        _MeetingStore.barrier = barrier
        store = await _MeetingStore.open(location)
        try:
            service = install(GameService(store, renderer=tiny_png))
            match_id, version, seat, index, user_id, channel_id = press
            try:
                accepted = await service.press(match_id, version, seat, index, user_id, channel_id=channel_id)
            except StaleBoard as error:
                return "stale", str(error)
            return "applied", accepted.headline
        finally:
            await store.close()

    results.put(asyncio.run(run()))


async def test_two_bot_processes_press_the_same_button_and_exactly_one_move_applies(service: GameService,
                                                                                     database: Path | str) -> None:
    await service.new_match(1, 10, "nim", ALICE, seed=3)
    await service.join(10, BOB)
    match = await service.start(10, ALICE.user_id)
    seat = match.state["turn"]  # type: ignore[index]
    mover = [ALICE, BOB][seat]
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    press = (match.id, match.version, seat, 1, mover.user_id, 10)  # "Take 2", pressed in both processes
    processes = [context.Process(target=_press_in_own_process, args=(str(database), barrier, press, results))
                 for _ in range(2)]
    for process in processes:
        process.start()
    told = sorted([await asyncio.to_thread(results.get, True, 120) for _ in processes])
    for process in processes:
        await asyncio.to_thread(process.join, 30)
        assert process.exitcode == 0
    assert [kind for kind, _ in told] == ["applied", "stale"]
    assert read(told[0][1]) == f"{mover.name} took 2."
    assert told[1][1] == ("Someone else moved at the same moment, so this was not applied. Here is the current "
                          "board.")
    after = await service.store.match(match.id)
    assert after is not None and after.version == match.version + 1
    assert after.state["pile"] == match.state["pile"] - 2  # type: ignore[index]
    assert [e.kind for e in await service.store.events(match.id)].count("action") == 1


async def test_a_sharded_bot_plays_through_discord(database: Path | str) -> None:
    bot = create_bot(database, shard_count=4, shard_ids=[2, 3])
    assert isinstance(bot, commands.AutoShardedBot) and (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    assert not isinstance(create_bot(database), commands.AutoShardedBot)  # unsharded unless asked
    async with DiscordHarness(bot) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim", "seed": 3}, user=alice)
        lobby = discord_.last_public_message()
        await discord_.click(lobby, label="Join", user=bob)
        board = (await discord_.click(lobby, label="Start", user=alice)).public()[-1]
        assert board.button_labels()[:3] == ["Take 1", "Take 2", "Take 3"]


def test_shard_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("EXPEDITION_SHARD_COUNT", "EXPEDITION_SHARD_IDS", "EXPEDITION_DB"):
        monkeypatch.delenv(name, raising=False)
    assert (load_settings().shard_count, load_settings().shard_ids) == (None, None)
    assert load_settings(shard_count=4, shard_ids="0,1").shard_ids == [0, 1]
    assert load_settings(shard_count=8, shard_ids="4-7").shard_ids == [4, 5, 6, 7]
    monkeypatch.setenv("EXPEDITION_SHARD_COUNT", "6")
    monkeypatch.setenv("EXPEDITION_SHARD_IDS", "3-5")
    assert (load_settings().shard_count, load_settings().shard_ids) == (6, [3, 4, 5])
    url = "postgresql://bot:secret@db.internal:5432/expedition"
    assert load_settings(database=url).database == url  # a URL stays text (a Path would fold its //)
    assert main(["run", "--shard-count", "2", "--shard-ids", "0,2"]) == 2
    assert "from 0 to 1" in capsys.readouterr().err
    monkeypatch.delenv("EXPEDITION_SHARD_COUNT")
    assert main(["run", "--shard-ids", "0"]) == 2
    assert "--shard-ids needs --shard-count" in capsys.readouterr().err
