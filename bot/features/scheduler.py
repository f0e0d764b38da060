"""One loop for every server's reminders, turn timers and lobby expiries, driven by rows in `scheduled_work`.

There is no timer per game: a pass claims the work that is due (`Store.claim_due`, leased so that two passes or
two bot processes never both take one item) and hands each item to the handler registered for its kind; then it
runs the chores registered to run with every pass (filling in results an older bot process left out). The rows
outlive the process, so a restart between a deadline and the next pass loses nothing: the first pass runs as soon
as the bot is ready and the games left waiting at the stop went on (`first_pass`, called once by cogs/resume.py),
and the loop's passes follow every `poll_seconds`. Time comes from the clock the bot was given, so tests move a
fake clock and call `run_once`.

Due times are the wall clock's epoch seconds. A clock that steps back (issue 32: a wrong clock corrected, a virtual
machine restored) would leave the work planned while it was ahead waiting for the lost time again: 1-hour turn
timers silent for a week. Each pass compares how far the wall clock moved with how far the monotonic clock did;
a step back (or, at a process's first pass, work marked done later than now) moves that work back by the step, so
it falls due as long after it was planned as it should. A step forward is left alone: a suspended machine looks
the same, and its due work is rightly due.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from bot.features.community import Clock, planned_at
from bot.store import ScheduledWork, Store, StoreDamaged

log = logging.getLogger(__name__)

Due = ScheduledWork
"""A claimed item of work, as handlers receive it."""
Handler = Callable[[ScheduledWork, datetime], Awaitable[None]]
Chore = Callable[[], Awaitable[object]]
"""Work a pass does besides the due items (it finds its own work, cheaply when there is none)."""

BATCH = 50
LEASE_SECONDS = 60
"""A pass that dies holding work gives it back after this long (bot clock). Short, so that a message the dead pass
may have sent is sent again within Discord's nonce window, where Discord answers with the message already posted."""
STEP_SECONDS = 300
"""A wall clock that lost more than this against the monotonic clock between two passes stepped back; smaller
differences (NTP's slewing, a slow pass) are not steps."""


class Scheduler:
    """Claims due work and runs it; `run_once` is one pass, `first_pass` the one at start-up, `run_forever` the
    polling loop that follows it (with `poll_seconds` None there is none: passes run only when asked)."""

    def __init__(self, store: Store, clock: Clock, *, poll_seconds: float | None = None, batch: int = BATCH,
                 lease_seconds: int = LEASE_SECONDS) -> None:
        self.store = store
        self.clock = clock
        self.poll_seconds = poll_seconds
        self.batch = batch
        self.lease_seconds = lease_seconds
        self.handlers: dict[str, Handler] = {}
        self.chores: list[Chore] = []
        self.passes = 0
        """How many passes this process has run (the loop's, the first, and those asked for)."""
        self._first_taken = False
        self._first_done = asyncio.Event()
        # A clock may bring its own monotonic time (tests' fake clock, which can also step); else the process's.
        self.monotonic: Callable[[], float] = getattr(clock, "monotonic", time.monotonic)
        self._last_seen: tuple[float, float] | None = None
        """(wall, monotonic) seconds at the previous pass: how a step of the wall clock is noticed."""

    def handle(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    def every_pass(self, chore: Chore) -> None:
        """Run `chore` at the end of every pass (a failure is logged and tried again at the next pass)."""
        self.chores.append(chore)

    async def run_once(self) -> int:
        """One pass: every item due now, claimed in batches, then the chores; returns how many items were handed to
        a handler."""
        now = self.clock()
        if now.tzinfo is None or now.utcoffset() is None:
            raise ValueError("The scheduler's clock must return an aware datetime (UTC), not a naive one.")
        self.passes += 1
        await self._follow_clock_steps(now)
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
                break
        for chore in self.chores:
            try:
                await chore()
            except Exception:  # the next pass tries again
                log.exception("A chore of the scheduler (%s) failed", getattr(chore, "__qualname__", chore))
        return handled

    async def _follow_clock_steps(self, now: datetime) -> None:
        """Move back the work planned while the wall clock was ahead, when it stepped back since the last pass (or,
        at this process's first pass, when work was marked done later than now: it stepped back while down)."""
        wall, monotonic = now.timestamp(), self.monotonic()
        last, self._last_seen = self._last_seen, (wall, monotonic)
        step: float | None
        if last is None:
            if not await self.store.work_done_after(wall + STEP_SECONDS):
                return
            step = None  # how far is unknown: each item counts as planned now
        else:
            step = (monotonic - last[1]) - (wall - last[0])
            if step <= STEP_SECONDS:
                return
        moved: list[tuple[ScheduledWork, int, dict[str, Any]]] = []
        for work in await self.store.pending_work_due_after(wall):
            ahead = planned_at(work) - wall
            if ahead <= STEP_SECONDS:
                continue  # planned before the clock ran ahead: its due time is right
            back = step if step is not None else ahead
            payload = dict(work.payload)
            if "since" in payload:
                payload["since"] = int(payload["since"] - back)
            moved.append((work, max(int(wall), int(work.due_at - back)), payload))
        count = await self.store.re_anchor_work(moved, now, self.lease_seconds)
        log.warning("The clock went back%s: %d items of scheduled work planned while it was ahead were moved back "
                    "to fall due on time", f" {step / 3600:.1f} h" if step is not None else "", count)

    async def _logged_pass(self) -> None:
        try:
            await self.run_once()
        except StoreDamaged as error:  # no retry helps: the sentence says which file and what to do
            log.error("A pass of the scheduler failed: %s", error)
        except Exception:  # the database went away for a moment: try again at the next poll
            log.exception("A pass of the scheduler failed")

    async def first_pass(self) -> None:
        """The pass at start-up, once the bot is ready and the games left waiting at the stop went on (cogs/resume.py
        calls it then): what fell due while the bot was down (reminders, turn timers, lobby expiries, owed boards)
        is handled at once, not a poll interval later. The loop's passes follow `poll_seconds` after it. Once per
        process (a reconnect's second `on_ready` runs nothing); nothing when passes run only when asked."""
        if self.poll_seconds is None or self._first_taken:
            return
        self._first_taken = True
        try:
            await self._logged_pass()
        finally:
            self._first_done.set()

    async def run_forever(self) -> None:
        """After the first pass, a pass every `poll_seconds`, until cancelled."""
        if self.poll_seconds is None:
            return
        await self._first_done.wait()
        while True:
            await asyncio.sleep(self.poll_seconds)
            await self._logged_pass()
