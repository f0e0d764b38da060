"""The store's part of community play (issue 12): per-server settings, who owns a seat a bot took over, and the
scheduled work a move replaces in its own transaction.

`CommunityStore` is a mixin of `Store` (bot/store/database.py); its SQL follows the rules in that module's
docstring, so it runs unchanged on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.store.records import ScheduledWork

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from bot.store.engines import Row


SETTINGS_KEPT_SECONDS = 60.0
SETTINGS_KEPT_SERVERS = 4096
"""Server settings kept in memory: read on every move, changed rarely (see `CommunityStore.settings`)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _epoch(moment: datetime | float) -> int:
    return int(moment.timestamp()) if isinstance(moment, datetime) else int(moment)


@dataclass(frozen=True)
class NewWork:
    """Work to queue: `kind` at `due_at`; a None `match_id` means the match being written."""

    kind: str
    due_at: datetime | float
    payload: dict[str, Any] = field(default_factory=dict)
    match_id: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None


@dataclass(frozen=True)
class SeatOwner:
    """The member a seat belongs to while a computer player keeps it for them."""

    match_id: int
    seat: int
    user_id: int
    name: str
    kicked_by: int


@dataclass(frozen=True)
class AwayEnded:
    """A member's time away that a write ends (they moved): their other games' pending work moves back (`moved`:
    work id, new due time), only if the time away was still under way when the write commits."""

    user_id: int
    at: int
    moved: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class CommunityChange:
    """What a match write also changes, in the same transaction: its pending work and its seat owners.

    `cancel_work` ends the match's pending work first (every kind when it is True, or the kinds listed); then
    `add_work` is queued; `owners_set` remembers whose seat a bot took, `owners_cleared` forgets it (seat numbers);
    `away_ended` ends members' times away (issue 34: a member away who moved is back), so a refused write ends none.
    """

    cancel_work: bool | tuple[str, ...] = False
    add_work: tuple[NewWork, ...] = ()
    owners_set: tuple[SeatOwner, ...] = ()
    owners_cleared: tuple[int, ...] = ()
    now: datetime | float | None = None  # when the cancelled work counts as done (the bot's clock)
    away_ended: tuple[AwayEnded, ...] = ()

    def merged(self, other: CommunityChange | None) -> CommunityChange:
        if other is None:
            return self
        cancel: bool | tuple[str, ...]
        if self.cancel_work is True or other.cancel_work is True:
            cancel = True
        else:
            cancel = tuple(self.cancel_work or ()) + tuple(other.cancel_work or ())
        return CommunityChange(cancel or False, self.add_work + other.add_work, self.owners_set + other.owners_set,
                               self.owners_cleared + other.owners_cleared, self.now or other.now,
                               self.away_ended + other.away_ended)


WORK_COLUMNS = ("id, kind, match_id, guild_id, channel_id, due_at, payload, claimed_until, done_at, attempts, "
                "attempted_at, last_error")


def work_from(row: Row) -> ScheduledWork:
    """A `scheduled_work` row (all of WORK_COLUMNS) as a record."""
    return ScheduledWork(id=row["id"], kind=row["kind"], match_id=row["match_id"], guild_id=row["guild_id"],
                         channel_id=row["channel_id"], due_at=row["due_at"], payload=json.loads(row["payload"]),
                         claimed_until=row["claimed_until"], done_at=row["done_at"], attempts=row["attempts"],
                         attempted_at=row["attempted_at"], last_error=row["last_error"])


class CommunityStore:
    """Settings, seat owners and match-bound scheduled work. Mixed into `Store`, whose helpers it uses."""

    if TYPE_CHECKING:
        dialect: str

        def _transaction(self, durable: bool = True) -> Any: ...  # an async context manager
        async def _execute(self, sql: str, params: Iterable[Any] = ()) -> int: ...
        async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...
        async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...
        async def _end_away(self, user_id: int, now: int, moved: Sequence[tuple[int, int]]) -> bool: ...

    # ----------------------------------------------------------------------------------------------- settings

    def _settings_cache(self) -> OrderedDict[int, tuple[float, dict[str, Any]]]:
        cache: OrderedDict[int, tuple[float, dict[str, Any]]] | None = self.__dict__.get("_cached_settings")
        if cache is None:
            cache = self.__dict__["_cached_settings"] = OrderedDict()
        return cache

    async def settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting a server changed from its default, by key.

        Read on every move (its reminders and timer): kept for `SETTINGS_KEPT_SECONDS` and forgotten at once when
        this store changes them. A server's commands reach the one process running its shard, so another process
        changes them only through tools (`migrate`), seen here within that time."""
        cache = self._settings_cache()
        kept = cache.get(guild_id)
        if kept is not None and time.monotonic() - kept[0] < SETTINGS_KEPT_SECONDS:
            cache.move_to_end(guild_id)
            return dict(kept[1])
        rows = await self._fetchall("SELECT key, value_json FROM settings WHERE guild_id = ?", (guild_id,))
        found = {row["key"]: json.loads(row["value_json"]) for row in rows}
        cache[guild_id] = (time.monotonic(), found)
        cache.move_to_end(guild_id)
        while len(cache) > SETTINGS_KEPT_SERVERS:
            cache.popitem(last=False)
        return dict(found)

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        self._settings_cache().pop(guild_id, None)
        try:
            async with self._transaction():
                await self._execute(
                    "INSERT INTO settings (guild_id, key, value_json) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, key) DO UPDATE SET value_json = excluded.value_json",
                    (guild_id, key, _dumps(value)),
                )
        finally:
            self._settings_cache().pop(guild_id, None)  # a read during the write kept the old value

    async def clear_setting(self, guild_id: int, key: str) -> None:
        """Back to the default."""
        self._settings_cache().pop(guild_id, None)
        try:
            async with self._transaction():
                await self._execute("DELETE FROM settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        finally:
            self._settings_cache().pop(guild_id, None)

    # ----------------------------------------------------------------------------------------------- limits

    async def claim_cooldown(self, kind: str, guild_id: int, subject: int, now: datetime | float,
                             seconds: float) -> int | None:
        """Take the cool-down `kind` of `subject` (a channel, a member) for `seconds` from `now`: None when it was
        free and is now taken, else the epoch second it frees. One statement, so of two processes claiming at once
        exactly one gets it."""
        start, until = _epoch(now), _epoch(now) + max(1, int(seconds))
        async with self._transaction(durable=False):  # a limit, not a record: a crash may only free it early
            rows = await self._fetchall(
                "INSERT INTO cooldowns (kind, guild_id, subject, until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (kind, guild_id, subject) DO UPDATE SET until = excluded.until "
                "WHERE cooldowns.until <= ? RETURNING until",
                (kind, guild_id, subject, until, start))
            if rows:
                return None
            held = await self._fetchone("SELECT until FROM cooldowns WHERE kind = ? AND guild_id = ? AND subject = ?",
                                        (kind, guild_id, subject))
        return int(held["until"]) if held is not None else start

    async def record_thread(self, thread_id: int, guild_id: int, parent_id: int, opened_by: int,
                            now: datetime | float) -> None:
        """Remember a thread the bot opened for a member's game."""
        async with self._transaction():
            await self._execute(
                "INSERT INTO game_threads (thread_id, guild_id, parent_id, opened_by, opened_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (thread_id) DO NOTHING",
                (thread_id, guild_id, parent_id, opened_by, _epoch(now)))

    async def threads_opened_since(self, guild_id: int, user_id: int, since: datetime | float) -> list[int]:
        """When (epoch seconds, oldest first) the member had the bot open game threads since `since`."""
        rows = await self._fetchall(
            "SELECT opened_at FROM game_threads WHERE guild_id = ? AND opened_by = ? AND opened_at >= ? "
            "ORDER BY opened_at", (guild_id, user_id, _epoch(since)))
        return [int(row["opened_at"]) for row in rows]

    async def thread_parents(self, thread_ids: Iterable[int]) -> dict[int, int]:
        """The parent channel of each of these game threads the bot opened (those it knows)."""
        ids = [int(thread_id) for thread_id in thread_ids]
        found: dict[int, int] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = await self._fetchall(f"SELECT thread_id, parent_id FROM game_threads WHERE thread_id IN ({marks})",
                                        chunk)
            found.update({int(row["thread_id"]): int(row["parent_id"]) for row in rows})
        return found

    async def open_lobbies_hosted(self, guild_id: int, user_id: int) -> list[int]:
        """The ids of the lobbies the member hosts on the server that have not started, oldest first."""
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE guild_id = ? AND host_id = ? AND status = 'lobby' ORDER BY id",
            (guild_id, user_id))
        return [int(row["id"]) for row in rows]

    # ----------------------------------------------------------------------------------------------- seat owners

    async def seat_owners(self, match_id: int) -> list[SeatOwner]:
        rows = await self._fetchall(
            "SELECT match_id, seat, user_id, name, kicked_by FROM seat_owners WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [SeatOwner(r["match_id"], r["seat"], r["user_id"], r["name"], r["kicked_by"]) for r in rows]

    # ----------------------------------------------------------------------------------------------- match work

    async def pending_work(self, match_id: int) -> list[ScheduledWork]:
        """The match's work not yet done, soonest first."""
        rows = await self._fetchall(
            "SELECT * FROM scheduled_work WHERE match_id = ? AND done_at IS NULL ORDER BY due_at, id", (match_id,)
        )
        return [work_from(row) for row in rows]

    async def work_pending(self, work_id: int) -> bool:
        """Whether the work is still to be done (a move that ended its turn marks it done)."""
        row = await self._fetchone("SELECT done_at FROM scheduled_work WHERE id = ?", (work_id,))
        return row is not None and row["done_at"] is None

    async def cancel_work(self, match_id: int, kinds: tuple[str, ...], now: datetime | float,
                          *, payload_turn: int | None = None) -> int:
        """End the match's pending work of these kinds (only that of one turn, with `payload_turn`)."""
        async with self._transaction():
            rows = await self._fetchall(
                "SELECT id, kind, payload FROM scheduled_work WHERE match_id = ? AND done_at IS NULL", (match_id,)
            )
            ids = [row["id"] for row in rows if row["kind"] in kinds
                   and (payload_turn is None or json.loads(row["payload"]).get("turn") == payload_turn)]
            for work_id in ids:
                await self._execute("UPDATE scheduled_work SET done_at = ? WHERE id = ? AND done_at IS NULL",
                                    (_epoch(now), work_id))
        return len(ids)

    async def complete_work(self, work_id: int, now: datetime | float, then: NewWork | None = None, *,
                            durable: bool = True) -> bool:
        """Mark claimed work done and queue what follows it, atomically; False (and nothing queued) if it was
        already done — by another process, or by a move that replaced it. `durable=False` (a delivered board):
        the commit does not wait for the disk, and a power cut may bring a second delivery, never none."""
        async with self._transaction(durable=durable):
            changed = await self._execute(
                "UPDATE scheduled_work SET done_at = ? WHERE id = ? AND done_at IS NULL", (_epoch(now), work_id)
            )
            if changed == 1 and then is not None:
                await self._insert_work(then, then.match_id)
        return changed == 1

    # ----------------------------------------------------------------------------------------------- the outbox
    # Issue 23: what must reach Discord (a turn's new board, a reminder) is scheduled work too, so it is stored in the
    # transaction that makes it due and delivered until done, whatever fails or restarts in between.

    async def claim_match_work(self, match_id: int, kind: str, now: datetime | float,
                               lease_seconds: int) -> list[ScheduledWork]:
        """Claim the match's pending work of `kind`, due or not (its delivery is tried now: `attempted_at` is set
        to `now`; the records returned keep the previous try's), unless another call or process holds it; leased
        like `claim_due`'s.

        Bookkeeping, so its commit does not wait for the disk: a crash of the process loses nothing (the OS has
        it); a power cut may forget the lease or the try, and the item is then delivered again, never lost."""
        moment = _epoch(now)
        # PostgreSQL: two processes' transactions may read the same unclaimed row at once, and both would claim it
        # (each then posting the board); the first to read it locks it until its claim commits, and the other
        # skips it, as `claim_due` does. SQLite's `BEGIN IMMEDIATE` admits one claimer at a time.
        lock = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
        async with self._transaction(durable=False):
            rows = await self._fetchall(
                f"SELECT {WORK_COLUMNS} FROM scheduled_work WHERE match_id = ? AND kind = ? AND done_at IS NULL "
                f"AND (claimed_until IS NULL OR claimed_until <= ?){lock}", (match_id, kind, moment))
            for row in rows:
                await self._execute("UPDATE scheduled_work SET claimed_until = ?, attempted_at = ? WHERE id = ?",
                                    (moment + int(lease_seconds), moment, row["id"]))
        return sorted((work_from(row) for row in rows), key=lambda item: item.id)

    async def note_attempt(self, work_id: int, now: datetime | float) -> None:
        """Record that a send of claimed work is being tried now (before it goes out): a retry after a crash
        knows it may have arrived."""
        async with self._transaction():
            await self._execute("UPDATE scheduled_work SET attempted_at = ? WHERE id = ? AND done_at IS NULL",
                                (_epoch(now), work_id))

    async def retry_work(self, work_id: int, due_at: datetime | float, error: str) -> bool:
        """A send of claimed work failed: count it, keep why, release it and make it due again at `due_at`.
        False if it was done meanwhile. (Not waiting for the disk: a power cut may only bring the retry sooner.)"""
        async with self._transaction(durable=False):
            changed = await self._execute(
                "UPDATE scheduled_work SET attempts = attempts + 1, last_error = ?, due_at = ?, claimed_until = NULL "
                "WHERE id = ? AND done_at IS NULL", (error[:500], _epoch(due_at), work_id))
        return changed == 1

    # ----------------------------------------------------------------------------------------------- clock steps
    # Issue 32: times here are the bot's wall clock. When it steps back (a wrong clock corrected, a VM restored),
    # work planned while it was ahead would wait for the lost time again; the scheduler moves it back.

    async def work_done_after(self, moment: datetime | float) -> bool:
        """Whether any work was marked done later than `moment`: after a restart, a sign the clock went back."""
        row = await self._fetchone("SELECT id FROM scheduled_work WHERE done_at > ? LIMIT 1", (_epoch(moment),))
        return row is not None

    async def pending_work_due_after(self, moment: datetime | float) -> list[ScheduledWork]:
        """Every item not yet done and due later than `moment` (what a step of the clock may have to move)."""
        rows = await self._fetchall(f"SELECT {WORK_COLUMNS} FROM scheduled_work WHERE done_at IS NULL AND due_at > ? "
                                    "ORDER BY id", (_epoch(moment),))
        return [work_from(row) for row in rows]

    async def re_anchor_work(self, moved: Iterable[tuple[ScheduledWork, int, dict[str, Any]]],
                             now: datetime | float, lease_seconds: int) -> int:
        """Give items a new due time and payload (each as read: one another process moved since is left alone, so
        a step is undone once however many processes noticed it), and free leases that run out later than a lease
        taken `now` could (taken while the clock was ahead). Returns how many items moved."""
        moment, count = _epoch(now), 0
        async with self._transaction():
            for work, due_at, payload in moved:
                count += await self._execute(
                    "UPDATE scheduled_work SET due_at = ?, payload = ? WHERE id = ? AND done_at IS NULL AND due_at = ?",
                    (int(due_at), _dumps(payload), work.id, work.due_at))
            await self._execute("UPDATE scheduled_work SET claimed_until = NULL WHERE done_at IS NULL AND "
                                "claimed_until > ?", (moment + int(lease_seconds),))
        return count

    async def _insert_work(self, work: NewWork, match_id: int | None) -> None:
        await self._execute(
            "INSERT INTO scheduled_work (kind, match_id, guild_id, channel_id, due_at, payload) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (work.kind, match_id, work.guild_id, work.channel_id, _epoch(work.due_at), _dumps(work.payload)),
        )

    async def replan(self, match_id: int, change: CommunityChange | None) -> None:
        """The match's work and seat owners as `change` says, in a write of their own (a lesson's preparation,
        committed unplanned, plans its position's turn once at its end)."""
        async with self._transaction():
            await self._apply_community(match_id, change)

    async def _apply_community(self, match_id: int, change: CommunityChange | None) -> None:
        """Inside the caller's transaction: the match's work and seat owners, as `change` says."""
        if change is None:
            return
        now = _epoch(change.now if change.now is not None else datetime.now(UTC))
        if change.cancel_work is True:
            await self._execute("UPDATE scheduled_work SET done_at = ? WHERE match_id = ? AND done_at IS NULL",
                                (now, match_id))
        elif change.cancel_work:
            for kind in change.cancel_work:
                await self._execute(
                    "UPDATE scheduled_work SET done_at = ? WHERE match_id = ? AND kind = ? AND done_at IS NULL",
                    (now, match_id, kind),
                )
        for work in change.add_work:
            await self._insert_work(work, work.match_id if work.match_id is not None else match_id)
        for away in change.away_ended:
            await self._end_away(away.user_id, away.at, away.moved)
        for seat in change.owners_cleared:
            await self._execute("DELETE FROM seat_owners WHERE match_id = ? AND seat = ?", (match_id, seat))
        for owner in change.owners_set:
            await self._execute(
                "INSERT INTO seat_owners (match_id, seat, user_id, name, kicked_by, kicked_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET user_id = excluded.user_id, "
                "name = excluded.name, kicked_by = excluded.kicked_by, kicked_at = excluded.kicked_at",
                (match_id, owner.seat, owner.user_id, owner.name, owner.kicked_by,
                 datetime.fromtimestamp(now, UTC).isoformat(timespec="seconds")),
            )
