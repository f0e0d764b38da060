"""Everything a member asks the render workers for takes its turn behind the boards of moves (review 13, findings 7
and 24): What's this?, the /game rules picture, replays, Details and leaderboards share one fair queue
(`GameService.renders`) with a small share per member. 100 presses of What's this? once put 100 boards ahead of
every table's next board. Tests assert the order in which work finishes, never how long it took."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import workers
from bot.app import create_bot
from bot.features import rules
from bot.offline import DiscordHarness, FakeChannel, FakeUser
from bot.service import GameService
from rendering import pool
from tests.fakes import tiny_png


async def _until(condition: Callable[[], bool], what: str) -> None:
    """Let the event loop run until `condition()` holds (a hang fails after a generous bound, never a measure)."""
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def _nim(discord_: DiscordHarness, channel: FakeChannel, host: FakeUser, guest: FakeUser) -> None:
    await discord_.command("game new", {"game": "test-nim"}, user=host, channel=channel)
    await discord_.command("game join", user=guest, channel=channel)
    await discord_.command("game start", user=host, channel=channel)


def _board(discord_: DiscordHarness, channel: FakeChannel) -> Any:
    return next(m for m in reversed(discord_.channel_messages(channel)) if "Take 1" in m.button_labels())


class HeldReads:
    """The render workers' glossary reads held until `release()`, and the order in which the reads and the boards
    of moves completed (`finished`). The reads are held where the render pool runs them (a thread, for Test Nim), so
    each holds the place in the pool a real one would."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.gate = threading.Event()
        self.started = 0
        self.finished: list[str] = []
        drawing = pool._draw_made

        def read_made(*arguments: Any) -> list[tuple[str, tuple[str, ...]]]:
            self.started += 1
            self.gate.wait(60)
            self.finished.append("what's this?")
            return []

        def draw_made(*arguments: Any) -> tuple[bytes, str]:
            found = drawing(*arguments)
            self.finished.append("board")
            return found

        monkeypatch.setattr(pool, "_read_made", read_made)
        monkeypatch.setattr(pool, "_draw_made", draw_made)

    def release(self) -> None:
        self.gate.set()


async def test_a_hundred_presses_of_whats_this_do_not_delay_another_tables_board(
        database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with DiscordHarness(create_bot(database), timeout=30.0) as discord_:
        alice, bob, carol, dave = (discord_.user(name) for name in ("alice", "bob", "carol", "dave"))
        here, there = discord_.default_channel, discord_.channel("there")
        await _nim(discord_, here, alice, bob)
        await _nim(discord_, there, carol, dave)
        held = HeldReads(monkeypatch)
        before = set(asyncio.all_tasks())
        presses = [discord_.click(_board(discord_, here), label="What's this?", user=bob) for _ in range(100)]
        for press in presses:
            discord_.feed(press)
        await _until(lambda: held.started >= 1, "the first press's board read")
        move = discord_.click(_board(discord_, there), label="Take 1", user=carol)
        discord_.feed(move)
        await _until(lambda: "board" in held.finished, "the other table's board, while What's this? waits")
        held.release()
        await discord_.settle(before)
        discord_.raise_violations()

    assert held.finished == ["board", "what's this?"]  # the board first; the hundred presses read the board once
    answers = [discord_.replies_for(press.id).last for press in presses]
    assert all(answer.ephemeral for answer in answers)
    texts = {answer.embed["description"] for answer in answers}
    assert len(texts) == 1 and next(iter(texts)).startswith("**What's on the Test Nim board**"), texts
    assert any(m.content.startswith("Carol took 1") for m in discord_.channel_messages(there)), \
        [m.content for m in discord_.channel_messages(there)]


async def test_a_member_asking_about_many_boards_at_once_holds_a_small_share(
        database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with DiscordHarness(create_bot(database), timeout=30.0) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        moritz = discord_.user("moritz", locale="de")
        tables = [discord_.channel(f"table-{n}") for n in range(4)]
        for table in tables:
            await _nim(discord_, table, alice, bob)
        held = HeldReads(monkeypatch)
        before = set(asyncio.all_tasks())
        mine = [discord_.click(_board(discord_, table), label="What's this?", user=bob) for table in tables[:2]]
        for press in mine:
            discord_.feed(press)
        renders = discord_.bot.service.renders
        await _until(lambda: held.started >= 1 and renders.waiting(workers.Lane.ON_DEMAND) >= 1,
                     "bob's first read under way and his second waiting (both of his share held)")
        refused = await discord_.click(_board(discord_, tables[2]), label="What's this?", user=bob)
        theirs = [discord_.click(_board(discord_, tables[2]), label="What's this?", user=alice),
                  discord_.click(_board(discord_, tables[3]), label="What's this?", user=moritz)]
        for press in theirs:  # the others hold no share yet: they wait their turn, and are answered
            discord_.feed(press)
        held.release()
        await discord_.settle(before)

    assert refused.last.ephemeral and not refused.last.files
    assert (refused.last.content or "").startswith(
        "Your earlier questions about a board are still being answered: ask again in about ")
    assert held.started == 4  # bob's two, alice's and moritz's; not bob's third
    answers = [discord_.replies_for(press.id).last for press in (*mine, *theirs)]
    assert all(answer.ephemeral for answer in answers)
    assert answers[-1].embed["description"].startswith("**Was auf dem Spielplan von Test Nim steht**")


async def test_the_rules_picture_is_drawn_once_per_game_mode_and_language(
        database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "PICTURES", workers.Shelf(rules.PICTURES_KEPT_BYTES))
    async with DiscordHarness(create_bot(database), timeout=30.0) as discord_:
        alice, moritz = discord_.user("alice"), discord_.user("moritz", locale="de")
        drawn: list[tuple[Any, ...]] = []

        async def labelled(game_key: str, make: Any, *arguments: Any) -> bytes:
            drawn.append(arguments)
            return tiny_png(game_key, {})

        monkeypatch.setattr(discord_.bot.service.render_pool, "labelled", labelled)  # type: ignore[attr-defined]
        pictures = []
        for user in (alice, alice, moritz, alice, moritz):
            answer = (await discord_.command("game rules", {"game": "the-expedition"}, user=user)).last
            assert answer.ephemeral
            pictures.append([file.filename for file in answer.files])

    assert pictures == [["how-to-play.png"]] * 5
    assert [language for *_, language in drawn] == ["en", "de"]


async def test_reads_that_count_many_rows_take_turns_and_a_member_holds_a_small_share(service: GameService) -> None:
    """The long reads (a career, a leaderboard) queue as the images do (they had a semaphore of their own)."""
    reading, order = asyncio.Event(), []

    async def slow_read(who: int) -> int:
        order.append(who)
        await reading.wait()
        return who

    first = asyncio.ensure_future(service.long_read(5, lambda: slow_read(5)))
    await _until(lambda: order == [5], "the first read")
    theirs = asyncio.ensure_future(service.long_read(6, lambda: slow_read(6)))
    mine = [first, asyncio.ensure_future(service.long_read(5, lambda: slow_read(5)))]
    await asyncio.sleep(0)
    with pytest.raises(workers.WorkerBusy) as refused:
        await service.long_read(5, lambda: slow_read(5))
    assert refused.value.text("en").startswith("Your earlier requests are still being counted: ask again in about ")
    assert refused.value.text("de").startswith("Deine vorigen Anfragen werden noch ausgezählt: Frag in etwa ")
    reading.set()
    assert await asyncio.gather(*mine, theirs) == [5, 5, 6]
    assert order == [5, 6, 5]  # one at a time, in turn: the other member's read before this one's second
