"""One loop for every server's reminders, turn timers and lobby expiries, driven by rows in `scheduled_work`.

There is no timer per game: a pass claims the work that is due (`Store.claim_due`, leased so that two passes or
two bot processes never both take one item) and hands each item to the handler registered for its kind. The
rows outlive the process, so a restart between a deadline and the next pass loses nothing. Time comes from the
clock the bot was given, so tests move a fake clock and call `run_once`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.features.community import Clock
from bot.store import ScheduledWork, Store

log = logging.getLogger(__name__)

Due = ScheduledWork
"""A claimed item of work, as handlers receive it."""
Handler = Callable[[ScheduledWork, datetime], Awaitable[None]]

BATCH = 50
LEASE_SECONDS = 60
"""A pass that dies holding work gives it back after this long (bot clock). Short, so that a message the dead pass
may have sent is sent again within Discord's nonce window, where Discord answers with the message already posted."""


class Scheduler:
    """Claims due work and runs it; `run_forever` polls, `run_once` is one pass."""

    def __init__(self, store: Store, clock: Clock, *, batch: int = BATCH, lease_seconds: int = LEASE_SECONDS) -> None:
        self.store = store
        self.clock = clock
        self.batch = batch
        self.lease_seconds = lease_seconds
        self.handlers: dict[str, Handler] = {}

    def handle(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    async def run_once(self) -> int:
        """One pass: every item due now, claimed in batches; returns how many were handed to a handler."""
        now = self.clock()
        if now.tzinfo is None or now.utcoffset() is None:
            raise ValueError("The scheduler's clock must return an aware datetime (UTC), not a naive one.")
        handled = 0
        while True:
            work = await self.store.claim_due("", now, self.batch, self.lease_seconds)
            for item in work:
                handler = self.handlers.get(item.kind)
                if handler is None:  # a newer bot's kind: its lease runs out and a process that knows it runs it
                    log.warning("No handler for scheduled work %s of kind %r", item.id, item.kind)
                    continue
                try:
                    await handler(item, now)
                    handled += 1
                except Exception:  # one failure must not stop the others; the lease lets a later pass retry
                    log.exception("Scheduled work %s (%s, match %s) failed", item.id, item.kind, item.match_id)
            if len(work) < self.batch:
                return handled

    async def run_forever(self, poll_seconds: float, ready: Callable[[], Awaitable[object]]) -> None:
        """Poll every `poll_seconds` once the bot is connected (`ready`), until cancelled."""
        await ready()
        while True:
            await asyncio.sleep(poll_seconds)
            try:
                await self.run_once()
            except Exception:  # the database went away for a moment: try again at the next poll
                log.exception("A pass of the scheduler failed")
