"""The bot's time in tests of reminders, timers and lapses: a clock the test moves by hours."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class FakeClock:
    """The bot's time, moved by the test."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += timedelta(hours=hours)
