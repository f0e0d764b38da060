"""The shared workers are shared fairly (issue 32): 60 `/game export` of a long game sent by one member in 0.6 s made
an undo in another channel wait 44 s behind them, first come, first served, in the one records worker. Now what a
move waits on goes first, members take turns, one export of a game is built once for everyone asking, and a member
holds at most a small share of a worker (the next request refused privately, saying when to ask again)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from bot import workers
from bot.app import create_bot
from bot.core import find_game
from bot.features import autoplay, history, undo
from bot.offline import DiscordHarness, FakeUser
from bot.service import GameService, Player
from bot.workers import Lane

pytestmark = pytest.mark.usefixtures("thread_bots")


async def _until(condition: Callable[[], bool], what: str) -> None:
    """Let the event loop run until `condition()` holds (a hang fails after a generous bound, never a measure)."""
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


class Seated(NamedTuple):
    id: int
    name: str


async def _finished_games(service: GameService, guild_id: int, channel_id: int, people: list[FakeUser] | list[Seated],
                          count: int) -> list[int]:
    """`count` finished games of The Expedition in one channel, played with random legal moves."""
    finished = []
    game = find_game("the-expedition")
    for number in range(count):
        host, guest = people[number % len(people)], people[(number + 1) % len(people)]
        await service.new_match(guild_id, channel_id, "the-expedition", Player(host.id, host.name), seed=number)
        await service.join(channel_id, Player(guest.id, guest.name))
        await service.start(channel_id, host.id)
        match, chooser = await service.current(channel_id), random.Random(number)
        while match.status == "active":
            seat = game.to_act(match.state)[0]
            match = (await service.act(channel_id, match.seats[seat].user_id,
                                       chooser.choice(game.legal_actions(match.state, seat)))).match
        finished.append(match.id)
    return finished


@pytest.fixture
def one_records_worker() -> Any:
    """The records worker as one thread (it runs the shipped games' work as it would in its process), so the
    tests can see the order in which the work is served."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        before = workers.use_executor(pool)
        try:
            yield pool
        finally:
            workers.use_executor(before)


async def test_an_undo_elsewhere_is_served_before_a_flood_of_exports_and_members_take_turns(
        database: Path | str, monkeypatch: pytest.MonkeyPatch, one_records_worker: Any) -> None:
    served: list[tuple[str, int]] = []  # what the records worker ran, in order
    held, holding = threading.Event(), threading.Event()
    export_text, whole_game_plan = history.export_text, undo.whole_game_plan

    def exporting(match: Any, columns: Any) -> bytes:
        served.append(("export", match.id))
        if len(served) == 1:  # the first export holds the worker until every request below has been made
            holding.set()
            held.wait(60)
        return export_text(match, columns)

    def planning(match: Any, columns: Any, user_id: int) -> Any:
        served.append(("undo", match.id))
        return whole_game_plan(match, columns, user_id)

    monkeypatch.setattr(history, "export_text", exporting)
    monkeypatch.setattr(undo, "whole_game_plan", planning)
    monkeypatch.setattr(undo, "SNAPSHOTS_TRIED", 0)  # the undo's plan is the whole game's, in the worker

    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        service: GameService = discord_.bot.service  # type: ignore[attr-defined]
        guild_id, archive = discord_.world.guild_id, discord_.channel("archive")
        members = [discord_.user(f"member{number}") for number in range(1, 5)] + [discord_.user("mitglied",
                                                                                               locale="de")]
        games = await _finished_games(service, guild_id, archive.id, members, 2 * len(members) + 1)
        alice, bob = discord_.user("alice"), discord_.user("bob")
        table = discord_.default_channel.id
        await service.new_match(guild_id, table, "the-expedition", Player(alice.id, "alice"), seed=7)
        await service.join(table, Player(bob.id, "bob"))
        await service.start(table, alice.id)
        match = await service.current(table)
        game = find_game("the-expedition")
        while match.user_at(game.to_act(match.state)[0]).user_id != bob.id:  # alice moves until it is bob's turn
            match = (await service.act(table, alice.id, game.legal_actions(match.state, 0)[0])).match

        before = set(asyncio.all_tasks())
        flood = [discord_.command("game export", {"match": games[2 * index + half]}, user=member, channel=archive)
                 for half in (0, 1) for index, member in enumerate(members)]
        for pending in flood:
            discord_.feed(pending)
        await _until(lambda: holding.is_set() and workers.RECORDS.waiting() == len(flood) - 1,
                     "every export queued behind the first")
        third = discord_.command("game export", {"match": games[-1]}, user=members[0], channel=archive)
        dritte = discord_.command("game export", {"match": games[-1]}, user=members[-1], channel=archive)
        shared = discord_.command("game export", {"match": games[0]}, user=members[1], channel=archive)
        for pending in (third, dritte, shared):
            discord_.feed(pending)
        try:
            await _until(lambda: all(any(reply.content for reply in discord_.replies_for(p.id))
                                     for p in (third, dritte)), "the refusals, while the others wait")
            asked = discord_.command("game undo", user=alice)
            discord_.feed(asked)
            await _until(lambda: workers.RECORDS.waiting(Lane.URGENT) == 1, "the undo queued")
            assert workers.RECORDS.waiting(Lane.ON_DEMAND) == len(flood) - 1  # the shared export added no work
        finally:
            held.set()
        await discord_.settle(before)
        discord_.raise_violations()
        lanes = workers.RECORDS.served()
        replies = {pending.id: discord_.replies_for(pending.id) for pending in (*flood, third, dritte, shared, asked)}

    # The undo came right after the export already running when it was asked, before the nine waiting.
    assert served[1] == ("undo", match.id), served
    assert sorted(game_id for kind, game_id in served if kind == "export") == sorted(games[:-1])  # each built once
    # The members took turns: of the exports that waited, five different members' before anyone's second.
    exporters = [member for lane, member in lanes if lane is Lane.ON_DEMAND]
    assert len(exporters) == len(flood) and len(set(exporters[1:6])) == 5, exporters
    # Refused privately, in the reader's language, with when to ask again; nothing was built for them.
    refusal, ablehnung = replies[third.id].last, replies[dritte.id].last
    assert refusal.ephemeral and ablehnung.ephemeral and not refusal.files and not ablehnung.files
    assert refusal.content.startswith("Your earlier exports are still being prepared: ask again in about "), refusal
    assert refusal.content.endswith(" seconds, once they have arrived.")
    assert ablehnung.content.startswith("Deine vorigen Exporte werden noch vorbereitet: Frag in etwa ")
    # Everyone else got their file; the member who asked for a game already being built got the same bytes.
    for pending in (*flood, shared):
        assert replies[pending.id].last.files, replies[pending.id]
    first = next(pending for pending in flood if pending.payload["member"]["user"]["id"] == str(members[0].id))
    assert replies[shared.id].last.files[0].data == replies[first.id].last.files[0].data
    assert replies[asked.id].last is not None


async def test_a_finished_games_export_is_kept_and_asked_again_costs_no_work(
        service: GameService, monkeypatch: pytest.MonkeyPatch, one_records_worker: Any) -> None:
    people = [Seated(11, "ada"), Seated(12, "ben")]
    game_id, = await _finished_games(service, 7, 70, people, 1)
    built: list[int] = []
    export_text = history.export_text

    def exporting(match: Any, columns: Any) -> bytes:
        built.append(match.id)
        return export_text(match, columns)

    monkeypatch.setattr(history, "export_text", exporting)
    monkeypatch.setattr(history, "EXPORTS", workers.Shelf(history.EXPORTS_KEPT_BYTES))
    answers = await asyncio.gather(*(history.export_file(service, 7, game_id, member=11 + n % 2) for n in range(6)))
    again = await history.export_file(service, 7, game_id, member=13)
    assert built == [game_id]
    assert {body for _, body in answers} == {again[1]}


def test_the_shelf_of_exports_keeps_the_newest_within_its_bytes() -> None:
    shelf = workers.Shelf(limit=10)
    shelf.put("a", b"1234")
    shelf.put("b", b"5678")
    assert shelf.get("a") == b"1234"  # asked for again: kept longest
    shelf.put("c", b"90ab")
    assert shelf.get("b") is None and shelf.get("a") == b"1234" and shelf.get("c") == b"90ab"
    shelf.put("huge", b"x" * 11)
    assert shelf.get("huge") is None and shelf.size == 8


async def test_hints_wait_behind_the_computer_players_and_a_member_holds_a_small_share(
        monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    held, holding = threading.Event(), threading.Event()

    def hinting(*arguments: Any) -> str:
        order.append("hint")
        if len(order) == 1:
            holding.set()
            held.wait(60)
        return "a hint"

    def deciding(*arguments: Any) -> str:
        order.append("bot move")
        return "a move"

    monkeypatch.setattr(autoplay, "_hint", hinting)
    monkeypatch.setattr(autoplay, "_decide", deciding)
    hints = [asyncio.ensure_future(autoplay.THINKING.run(autoplay._hint, n, lane=Lane.ON_DEMAND, member=member,
                                                         busy="workers.busy.hint"))
             for n, member in enumerate((1, 1, 2, 2))]
    await _until(lambda: holding.is_set() and autoplay.THINKING.waiting() == 3, "hints queued")
    with pytest.raises(workers.WorkerBusy) as refused:
        await autoplay.THINKING.run(autoplay._hint, 9, lane=Lane.ON_DEMAND, member=1, busy="workers.busy.hint")
    assert refused.value.text("en").startswith("Your earlier hints are still being worked out: ask again in about ")
    assert refused.value.text("de").startswith("Deine vorigen Tipps werden noch ausgearbeitet: Frag in etwa ")
    move = asyncio.ensure_future(autoplay.THINKING.run(autoplay._decide, lane=Lane.URGENT))
    await _until(lambda: autoplay.THINKING.waiting(Lane.URGENT) == 1, "the bot's move queued")
    held.set()
    await asyncio.gather(*hints, move)
    assert order == ["hint", "bot move", "hint", "hint", "hint"]


async def test_a_member_holds_at_most_two_images_in_the_render_workers(service: GameService) -> None:
    drawing, drawn_at_once, most = asyncio.Event(), 0, 0

    async def slow_image() -> bytes:
        nonlocal drawn_at_once, most
        drawn_at_once += 1
        most = max(most, drawn_at_once)
        await drawing.wait()
        drawn_at_once -= 1
        return b"png"

    mine = [asyncio.ensure_future(service.asked_image(5, slow_image)) for _ in range(2)]
    theirs = asyncio.ensure_future(service.asked_image(6, slow_image))  # another member: not refused
    await asyncio.sleep(0)
    with pytest.raises(workers.WorkerBusy) as refused:
        await service.asked_image(5, slow_image)
    # Three images ahead of it, drawn one at a time, at the first guess of 2 s each: 6 s, said as "about 10".
    assert refused.value.text("en") == "The images you asked for are still being drawn: ask again in about 10 seconds."
    assert refused.value.text("de") == ("Die Bilder, die du angefordert hast, werden noch gezeichnet: Frag in etwa "
                                        "10 Sekunden noch einmal.")
    drawing.set()
    assert await asyncio.gather(*mine, theirs) == [b"png"] * 3
    assert most == 1  # one asked-for image in the render workers at a time: the others are the boards'
    assert await service.asked_image(5, slow_image) == b"png"  # shares given back once drawn


async def test_a_result_asked_for_while_it_is_built_or_just_after_is_built_once() -> None:
    """The export race: a shared job's key was forgotten as the job finished, before its first asker put the result
    on the shelf, so an asker arriving in that gap built the export again. The shelf now keeps what is being built
    and puts the result in the same step as the building ends."""
    shelf = workers.Shelf(limit=100)
    built: list[str] = []
    release = asyncio.Event()

    async def build() -> bytes:
        built.append("x")
        await release.wait()
        return b"body"

    first = asyncio.ensure_future(shelf.kept_or_built("k", build))
    second = asyncio.ensure_future(shelf.kept_or_built("k", build))
    await asyncio.sleep(0)
    release.set()
    finished = await first
    third = await shelf.kept_or_built("k", build)  # just after: kept
    assert (finished, await second, third) == (b"body", b"body", b"body") and built == ["x"]
