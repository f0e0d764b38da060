"""The bot's time in tests of reminders, timers and lapses: a clock the test moves by hours."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class FakeClock:
    """The bot's time, moved by the test: `advance` lets time pass, `step` sets the wall clock forward or back
    without any time passing (what a corrected clock does; the scheduler's `monotonic` time does not move)."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now
        self.elapsed = 0.0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += timedelta(hours=hours)
        self.elapsed += hours * 3600

    def step(self, hours: float) -> None:
        self.now += timedelta(hours=hours)

    def monotonic(self) -> float:
        """Seconds of time that really passed, as `time.monotonic` counts them."""
        return self.elapsed
