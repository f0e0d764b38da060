"""One channel's transaction: lock the channel, load its open match, record an event with its new state, reload,
and commit a move at the version it was made on.

Every change to a table goes through here — the service's lobby and moves, and every feature above it (computer
players, undo, kick and rejoin, lobby expiry) — so the one-move-at-a-time lock, the refusals for a channel without a
game, and the optimistic version check live in one place. A feature that plans work into the same transaction as a
write (reminders and turn timers) registers a `WritePlanner`.

    async with tables.lock(channel_id):
        match = await tables.open(channel_id)
        await tables.record(match, "joined", seats=..., text="Ada joined.")
        match = await tables.reload(match)
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from typing import Any, Protocol

from bot.core import JSON, LobbyError, StaleBoard, find_game
from bot.core.replay import RecordedStep, Rewind
from bot.i18n import Text
from bot.store import CommunityChange, EventRecord, MatchRecord, Store, VersionClash

CLASHED = Text.of("error.clashed")
"""Someone else moved at the same moment: the refusal of the move that came second."""

UNDO_KIND = "undo"
"""The stored event kind of an agreed undo (never renamed). Its action is {"moves": n, "request": id or None}."""


class WritePlanner(Protocol):
    """A hook that sees every write to a match before it is committed and adds work to the same transaction (the
    community feature plans a turn's reminders and timer here, so a move and its reminder commit together)."""

    async def lobby_opened(self, guild_id: int, channel_id: int) -> CommunityChange | None:
        """The work to store with a new lobby."""

    async def plan(self, match: MatchRecord, kind: str, fields: dict[str, Any]) -> CommunityChange | None:
        """The work to store with an event of `kind` (its `fields` as given to `record`: state, status, seats...)."""


class Tables:
    """Every channel's table, for one process. The lock serialises moves per channel here; the store's version check
    settles races between processes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # Locks live only while someone holds or waits for them, so quiet channels cost no memory.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.planner: WritePlanner | None = None

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock: hold it from loading a match to committing a change to it."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def open(self, channel_id: int) -> MatchRecord:
        """The channel's unfinished match; a LobbyError saying what to do when there is none."""
        match = await self.store.open_match(channel_id)
        if match is None:
            raise LobbyError(await self.none_open(channel_id))
        return match

    async def none_open(self, channel_id: int) -> Text:
        """Why a command for the game under way finds none: a game that just ended is named, not denied (a refusal,
        worded in its reader's language)."""
        last = await self.store.latest_match(channel_id)
        if last is None or last.status not in ("finished", "abandoned"):
            return Text.of("error.no_game")
        title = find_game(last.game).title
        if last.status == "finished":
            return Text.of("error.game_ended.finished", number=str(last.id), title=title)
        return Text.of("error.game_ended.abandoned", number=str(last.id), title=title)

    async def lobby(self, channel_id: int) -> MatchRecord:
        """The channel's lobby; a LobbyError once the game has started (seats no longer change)."""
        match = await self.open(channel_id)
        if match.status != "lobby":
            raise LobbyError("lobby.refuse.started")
        return match

    async def record(self, match: MatchRecord, kind: str, **fields: Any) -> int:
        """Append an event of `kind` at the match's version (with its new state, status or seats, if any); a board
        that changed meanwhile is a StaleBoard."""
        if self.planner is not None:  # issue 12: the turn's new reminders and timer, in the move's transaction
            fields["community"] = await self.planner.plan(match, kind, fields)
        try:
            return await self.store.record(match.id, match.version, kind, **fields)
        except VersionClash:
            raise StaleBoard(CLASHED) from None

    async def commit_move(self, match: MatchRecord, *, state: JSON, status: str | None, planned: bool = True,
                          **fields: Any) -> MatchRecord:
        """Commit a move made on the match's version (its action, events, draws, text and profile updates) and return
        the match as committed, without reading it back; a StaleBoard if another move came first. Unplanned
        (`planned=False`), the match's reminders and boards owed stay as they were: see `plan_turn`."""
        community = None
        if self.planner is not None and planned:  # issue 12: the turn's work, in its transaction
            community = await self.planner.plan(match, "action", {"state": state, "status": status})
        try:
            return await self.store.record_move(match, "action", state=state, status=status, community=community,
                                                **fields)
        except VersionClash:
            raise StaleBoard(CLASHED) from None

    async def plan_turn(self, before: MatchRecord, after: MatchRecord) -> None:
        """Plan the turn of `after` as a write from `before` beginning it would have: for moves committed unplanned
        (a lesson's preparation), planned once at their end."""
        if self.planner is not None:
            change = await self.planner.plan(before, "started", {"state": after.state, "status": after.status})
            await self.store.replan(after.id, change)

    async def reload(self, match: MatchRecord) -> MatchRecord:
        """The match as stored now (after a `record`)."""
        fresh = await self.store.match(match.id)
        assert fresh is not None
        return fresh


# --------------------------------------------------------------------------------------------- reading the log


def setup_of(events: Sequence[EventRecord]) -> EventRecord | None:
    """The event that started the game (its action holds the setup options), if it has started."""
    return next((event for event in events if event.kind == "started"), None)


def steps_of(events: Sequence[EventRecord]) -> list[RecordedStep | Rewind]:
    """The replayable records of a match's log: its actions, and its agreed undos as rewinds."""
    steps: list[RecordedStep | Rewind] = []
    for event in events:
        if event.kind == "action":
            steps.append(RecordedStep(event.seat or 0, event.action or {}, event.draws))
        elif event.kind == UNDO_KIND:
            steps.append(Rewind(int((event.action or {})["moves"])))
    return steps
