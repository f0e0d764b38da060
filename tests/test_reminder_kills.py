"""Reminders and stall notices at least once and not twice, through repeated crashes (issue 23).

Eight tables wait on their players; the bot is killed 20 times while it sends their reminders — before a message
reaches Discord, after Discord created it but before the bot heard back, and after it was recorded — and started
again on the same database and the same Discord each time. A crash is an exception the bot cannot catch (like the
process vanishing) raised inside the call; the next process takes the work over once its lease runs out. In the end
every table has had each of its reminders and its stall notice exactly once: with Discord remembering nonces for
five minutes (a resend returns the message already posted), and with Discord forgetting them before the resend (the
item's record of its last try makes the bot look in the channel first).
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord.utils
import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness, InteractionFailed, World
from tests.tables import NAMES

TABLES = 8
KILLS = 20
LEASE = 61  # seconds: the scheduler's lease (60 s) has run out


class Crash(BaseException):
    """The process dies here: nothing of the bot's own handling runs."""


class Clock:
    """The bot's time and Discord's (message ids carry it), moved by the test."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def seconds(self) -> float:
        return self.now.timestamp()


class ClockedWorld(World):
    """Discord's side at the test's time (its snowflakes too), where the bot can be killed while it posts: `arm`
    kills it at its `at`-th channel message, before Discord takes it or after Discord created it (unheard)."""

    def __init__(self, clock: Clock) -> None:
        super().__init__(clock=clock)
        self.kill: tuple[int, str] | None = None
        self.posts = 0

    def new_id(self) -> int:
        self._last_id = max(self._last_id + 1, discord.utils.time_snowflake(self.clock()))
        return self._last_id

    def arm(self, *, at: int, when: str) -> None:
        self.kill, self.posts = (at, when), 0

    def disarm(self) -> None:
        self.kill = None

    def create_message(self, channel_id: int, body: dict[str, Any], files: list[Any], **kwargs: Any) -> Any:
        if self.kill is not None and not kwargs.get("webhook"):
            self.posts += 1
            if self.posts == self.kill[0] and self.kill[1] == "before":
                raise Crash
        return super().create_message(channel_id, body, files, **kwargs)

    def record_message(self, kind: str, msg: Any, **kwargs: Any) -> Any:
        recorded = super().record_message(kind, msg, **kwargs)
        if self.kill is not None and kind == "channel_message" and self.posts == self.kill[0] and \
                self.kill[1] == "after":
            raise Crash  # Discord has the message (and its nonce); the bot never hears back
        return recorded


def said(world: World, channel_id: int) -> list[str]:
    """The reminders and stall notices in a channel, in order (their words say which one each is)."""
    return [m.content for m in world.channel_messages(channel_id) if "is waiting" in m.content
            or "has stalled" in m.content]


@pytest.mark.parametrize("nonce_seconds", [300.0, 30.0], ids=["Discord remembers the nonce", "it forgot"])
async def test_twenty_kills_lose_no_reminder_and_double_none(database: Path, nonce_seconds: float) -> None:
    clock = Clock()
    world = ClockedWorld(clock)
    rng = random.Random(23)
    channels = []
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        for table in range(TABLES):
            place = discord_.channel(f"table-{table}")
            host, guest = (discord_.user(f"{NAMES[table % len(NAMES)]}{table}"),
                           discord_.user(f"guest{table}"))
            await discord_.command("game new", {"game": "test-nim"}, user=host, channel=place)
            await discord_.command("game join", user=guest, channel=place)
            await discord_.command("game start", user=host, channel=place)
            channels.append(place.id)
    world.nonce_window = timedelta(seconds=nonce_seconds)
    kills = 0
    passes = 0
    while passes < 200:
        passes += 1
        if kills < KILLS:
            world.arm(at=rng.randint(1, 2), when=rng.choice(["before", "after"]))
        bot = create_bot(database, clock=clock, poll_seconds=None)
        try:
            async with DiscordHarness(bot, world=world):
                handled = await bot.run_due_work()  # type: ignore[attr-defined]
        except (Crash, InteractionFailed):
            kills += 1
            handled = -1
            await bot.close()
        world.disarm()
        if handled == 0 and kills >= KILLS and not await _pending(database):
            break
        clock.advance(LEASE if handled == -1 else 6 * 3600)
    assert kills == KILLS
    counts = {channel: Counter(said(world, channel)) for channel in channels}
    doubled = {channel: [text for text, n in count.items() if n > 1] for channel, count in counts.items()}
    assert all(not texts for texts in doubled.values()), f"sent twice: {doubled}"
    for channel, count in counts.items():
        waits = sorted(text.split("(")[1].split(" so far")[0] for text in count if "is waiting" in text)
        assert waits == ["12 h", "24 h", "36 h"], f"channel {channel}: reminders {waits}"
        assert sum("has stalled" in text for text in count) == 1, f"channel {channel}: no stall notice"


async def _pending(database: Path | str) -> list[Any]:
    from bot.store import Store

    store = await Store.open(database)
    try:
        rows = await store._fetchall("SELECT id FROM scheduled_work WHERE done_at IS NULL AND kind = 'remind'")
        return list(rows)
    finally:
        await store.close()
