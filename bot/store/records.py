"""Plain records the store hands out, so nothing above it sees rows or cursors."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.core import Outcome


class StoreError(RuntimeError):
    """The database cannot be used (too new, corrupt...)."""


class StoreUnavailable(StoreError):
    """The database did not answer within its deadline (frozen, restarting, locked by another process, out of
    connections): nothing of the call was applied, and the player is asked to try again in a minute."""


class StoreDamaged(StoreError):
    """The database file is damaged (SQLite's integrity check failed, or a read met a malformed page): retrying
    will not help; the operator must restore a backup. The message names the file and what to do."""


class VersionClash(RuntimeError):
    """The match changed since it was read: someone else's move was committed first."""


class ChannelBusy(RuntimeError):
    """The channel already has an unfinished match (the schema's unique index said so)."""


OPEN_STATUSES = ("lobby", "active")


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    user_id: int
    name: str


DM_GUILD = 0
"""The server id of a table in the bot's DM with a member (a lesson, cogs/lessons.py): it belongs to no server, as
Discord's `authorizing_integration_owners` says of the bot's DM ("0")."""


@dataclass(frozen=True)
class MatchRecord:
    id: int
    guild_id: int
    channel_id: int
    game: str
    mode: str
    status: str  # lobby, active, finished, abandoned
    host_id: int
    seed: int
    seed_chosen: bool
    options: dict[str, Any]
    data_version: str
    version: int
    state: dict[str, Any] | None
    seats: tuple[SeatRecord, ...] = field(default_factory=tuple)
    created_at: str = ""
    updated_at: str = ""
    lesson: bool = False
    """A lesson's table (/game learn): it never counts (no result for /stats, no rating, no history line)."""

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def in_dm(self) -> bool:
        """A table in the bot's DM with its one member: no server, so no server's settings, limits or reminders."""
        return self.guild_id == DM_GUILD

    @property
    def language(self) -> str:
        """The table's language ("en" or "de"): what the channel reads, chosen at /game new (kept in `options`)."""
        return str(self.options.get("language") or "en")

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def user_at(self, seat: int) -> SeatRecord | None:
        for record in self.seats:
            if record.seat == seat:
                return record
        return None


@dataclass(frozen=True)
class EventRecord:
    """One committed change to a match: a lobby change, the start, or an accepted action."""

    match_id: int
    seq: int
    kind: str  # created, joined, left, started, action, undo, abandoned
    user_id: int | None
    seat: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    draws: list[int]
    text: str
    created_at: str


@dataclass(frozen=True)
class SeatResult:
    """How one seat ended a finished match: kept in `match_results` by the transaction that finishes it, so /stats
    counts a career from these rows instead of decoding every final state."""

    seat: int
    won: bool
    score: int | None  # None when the game gives this seat no score


def results_of(outcome: Outcome | None, seats: Iterable[int]) -> tuple[SeatResult, ...]:
    """Each seat's result in a game's outcome (none won and no score when the game ended without one)."""
    winners = outcome.winners if outcome is not None else ()
    scores = outcome.scores if outcome is not None else {}
    return tuple(SeatResult(seat, seat in winners, scores.get(seat)) for seat in seats)


EventColumns = tuple[int, str, int | None, int | None, str | None, str, str, str, str]
"""An event as stored: seq, kind, user id, seat, action, events and draws as JSON text, text and time. Work that
grows with a game (an export) takes these to a worker process and decodes them there, off the event loop."""


def decode_event(match_id: int, columns: EventColumns) -> EventRecord:
    """An event from its stored columns (the JSON decoded)."""
    seq, kind, user_id, seat, action_json, events_json, draws_json, text, created_at = columns
    return EventRecord(match_id=match_id, seq=seq, kind=kind, user_id=user_id, seat=seat,
                       action=json.loads(action_json) if action_json is not None else None,
                       events=json.loads(events_json), draws=json.loads(draws_json), text=text,
                       created_at=created_at)


@dataclass(frozen=True)
class ScheduledWork:
    """One row of `scheduled_work`: a reminder or timer, due and claimed at integer epoch seconds."""

    id: int
    kind: str
    match_id: int | None
    guild_id: int | None
    channel_id: int | None
    due_at: int
    payload: dict[str, Any]
    claimed_until: int | None
    done_at: int | None
    attempts: int = 0  # sends that failed so far (the outbox retries with a growing delay)
    attempted_at: int | None = None  # when a send was last tried: it may have reached Discord before a crash
    last_error: str | None = None
