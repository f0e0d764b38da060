"""Answer first, whatever the database: every kind of interaction gets its first response before it makes a
single database call, so a slow store never costs Discord's 3-second limit ("This interaction failed").

The store is slowed down for exactly the interaction being measured: until that interaction has had its first
response, every database call waits `DELAY` (4 s); after it, calls run at full speed. A kind that reads first
shows up twice: as a call counted before the answer, and as a first response no sooner than `DELAY` after the
interaction arrived. Autocomplete cannot be deferred: it must answer (with no choices, if the store is slow)
within its own budget, well under 3 s.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.app import create_bot
from bot.offline import DiscordHarness, FakeUser, Message, PendingInteraction
from cogs.common import AUTOCOMPLETE_SECONDS
from tests.tables import player_to_move

DELAY = 4.0  # what each database call costs while the measured interaction has had no answer
LIMIT = 3.0  # Discord's


class SlowUntilAnswered:
    """The store's engine, delayed by `DELAY` per call until the measured interaction has had its first response."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.measured: Any = None  # the offline Discord's record of the interaction being measured
        self.calls_before_answer = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    async def _wait(self) -> None:
        record = self.measured
        if record is None or record.responded:
            return
        self.calls_before_answer += 1
        loop = asyncio.get_running_loop()
        until = loop.time() + DELAY
        while loop.time() < until and not record.responded:
            await asyncio.sleep(0.01)

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        await self._wait()
        return await self._engine.execute(*args, **kwargs)

    async def executemany(self, *args: Any, **kwargs: Any) -> Any:
        await self._wait()
        return await self._engine.executemany(*args, **kwargs)

    async def fetchall(self, *args: Any, **kwargs: Any) -> Any:
        await self._wait()
        return await self._engine.fetchall(*args, **kwargs)

    @asynccontextmanager
    async def transaction(self, durable: bool = True) -> AsyncIterator[None]:
        await self._wait()
        async with self._engine.transaction(durable):
            yield


class Stopwatch:
    """Feeds interactions with the store slowed, and keeps each one's first response time and early calls."""

    def __init__(self, discord_: DiscordHarness) -> None:
        self.discord = discord_
        store = discord_.bot.store  # type: ignore[attr-defined]
        self.engine = SlowUntilAnswered(store._engine)
        store._engine = self.engine
        self.results: dict[str, tuple[float, int]] = {}

    async def time(self, kind: str, pending: PendingInteraction) -> Any:
        record = self.discord.world.interactions[pending.payload["token"]]
        self.engine.measured, self.engine.calls_before_answer = record, 0
        try:
            replies = await pending
        finally:
            self.engine.measured = None
        answers = [reply.at for reply in replies]
        assert answers, f"{kind}: never answered"
        self.results[kind] = (min(answers) - pending.fed_at, self.engine.calls_before_answer)
        return replies


def _leaves(tree: app_commands.CommandTree[Any]) -> Iterable[app_commands.Command[Any, ..., Any]]:
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            yield command


def _some_value(parameter: app_commands.Parameter, member: FakeUser, channel: Any) -> Any:
    """A well-typed value for a required option (the command may still refuse it: that answer is measured too)."""
    if parameter.choices:
        return parameter.choices[0].value
    kind = parameter.type
    if kind is discord.AppCommandOptionType.integer:
        return int(parameter.min_value) if parameter.min_value is not None else 1
    if kind is discord.AppCommandOptionType.number:
        return float(parameter.min_value) if parameter.min_value is not None else 1.0
    if kind is discord.AppCommandOptionType.boolean:
        return False
    if kind in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
        return member
    if kind is discord.AppCommandOptionType.channel:
        return channel
    return "1"


def _board(discord_: DiscordHarness) -> Message:
    return [message for message in discord_.channel_messages() if message.files][-1]


async def test_every_kind_of_interaction_answers_before_touching_a_slow_store(tmp_path: Path) -> None:
    clock_now = [datetime(2026, 3, 1, 9, 0, tzinfo=UTC)]
    bot = create_bot(tmp_path / "games.sqlite3", clock=lambda: clock_now[0], poll_seconds=None)
    async with DiscordHarness(bot, timeout=60.0) as discord_:
        alice = discord_.user("alice", manage_guild=True, manage_channels=True)
        bob = discord_.user("bob")
        watch = Stopwatch(discord_)
        general = discord_.default_channel

        # The lobby and its buttons.
        await watch.time("/game new", discord_.command("game new", {"game": "test-nim"}, user=alice))
        lobby = discord_.channel_messages()[-1]
        await watch.time("Join", discord_.click(lobby, label="Join", user=bob))
        await watch.time("Leave", discord_.click(lobby, label="Leave", user=bob))
        await discord_.click(lobby, label="Join", user=bob)
        await watch.time("Start", discord_.click(lobby, label="Start", user=alice))

        # The board's controls.
        users = [alice, bob]
        mover = await player_to_move(discord_, users)
        await watch.time("a move button", discord_.click(_board(discord_), label="Take 1", user=mover))
        await watch.time("Show mine", discord_.click(_board(discord_), label="Show mine", user=alice))
        await watch.time("Details", discord_.click(_board(discord_), label="Details", user=alice))
        await watch.time("What's this?", discord_.click(_board(discord_), label="What's this?", user=alice))

        # A reminder and its Mute button.
        clock_now[0] += timedelta(hours=13)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        reminder = [m for m in discord_.channel_messages() if "your turn in" in m.content][-1]
        to_move = await player_to_move(discord_, users)
        await watch.time("Mute", discord_.click(reminder, label="Mute for this turn", user=to_move))

        # An undo request and its buttons.
        mover = await player_to_move(discord_, users)
        await discord_.click(_board(discord_), label="Take 1", user=mover)
        asked = await watch.time("/game undo", discord_.command("game undo", user=mover))
        request = asked.public()[-1]
        other = bob if mover is alice else alice
        await watch.time("Approve undo", discord_.click(request, label="Approve undo", user=other))

        # Every slash command with well-typed options, and every autocomplete.
        last: list[tuple[str, dict[str, Any]]] = []
        for command in _leaves(discord_.bot.tree):
            path = command.qualified_name
            options = {parameter.name: _some_value(parameter, bob, general) for parameter in command.parameters
                       if parameter.required}
            for parameter in command.parameters:
                if parameter.autocomplete:
                    # The harness's own autocomplete() returns only the choices: the same payload, timed.
                    typing = {**options, parameter.name: "a"}
                    payload = discord_._command_payload(4, path, typing, alice, None, focused=parameter.name)
                    await watch.time(f"autocomplete /{path} {parameter.name}", PendingInteraction(discord_, payload))
            if path in ("game abandon", "game kick", "game new"):
                last.append((path, options))  # these end or reshape the game: after the others
                continue
            await watch.time(f"/{path}", discord_.command(path, options, user=alice))
        for path, options in last:
            await watch.time(f"/{path}", discord_.command(path, options, user=alice))
        confirmation = [r for r in discord_.replies if r.ephemeral and r.button_labels()][-1]
        await watch.time("abandon confirmation", discord_.click(confirmation, label="Yes, abandon the game",
                                                                user=alice))

    late = {kind: (round(seconds, 2), calls) for kind, (seconds, calls) in watch.results.items()
            if not kind.startswith("autocomplete") and (calls or seconds >= LIMIT)}
    assert late == {}, "answered after reading the store (seconds, calls before the answer)"
    slow_lookups = {kind: round(seconds, 2) for kind, (seconds, _) in watch.results.items()
                    if kind.startswith("autocomplete") and seconds >= LIMIT}
    assert slow_lookups == {}, "an autocomplete answered after Discord's limit"
    kinds = set(watch.results)
    assert {"/game mine", "/game log", "/game rules", "/game abandon", "/settings show", "Show mine", "Mute", "Join",
            "abandon confirmation", "autocomplete /hunt capture monster"} <= kinds
    assert sum(kind.startswith("autocomplete") for kind in kinds) >= 5
    assert all(seconds < AUTOCOMPLETE_SECONDS + 1.0 for kind, (seconds, _) in watch.results.items()
               if kind.startswith("autocomplete")), "an autocomplete ran past its own budget"

