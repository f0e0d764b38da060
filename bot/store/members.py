"""The store's part of a member's own play (issue 34): preferences kept per member, not per server, and the games a
member sits in across every server (/games).

`MemberStore` is a mixin of `Store` (bot/store/database.py); its SQL follows the rules in that module's docstring,
so it runs unchanged on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.store.community import WORK_COLUMNS, work_from
from bot.store.records import MatchRecord, ScheduledWork

if TYPE_CHECKING:
    from bot.store.engines import Row

MEMBER_GAMES_KEPT = 200
"""The most unfinished games /games reads for one member (it shows 25; a member is rarely in more than a few)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class MemberRecord:
    """One member's own row: what they chose for themselves, wherever they play."""

    user_id: int
    language: str | None = None  # the language of the Discord client they last used with the bot
    prefs: dict[str, Any] = field(default_factory=dict)  # /me notify: how and when they are told (by key)
    dm_channel_id: int | None = None  # the DM channel Discord opened for the bot and them
    dm_refused: bool = False  # their DMs refused the bot (50007) and they were told so once


@dataclass(frozen=True)
class MemberResult:
    """How a member did in one finished match (from `match_results`)."""

    won: bool
    score: int | None


class MemberStore:
    """Members' own rows and their games across servers. Mixed into `Store`, whose helpers it uses."""

    if TYPE_CHECKING:
        def _transaction(self, durable: bool = True) -> Any: ...  # an async context manager
        async def _execute(self, sql: str, params: Iterable[Any] = ()) -> int: ...
        async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...
        async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...
        async def _matches(self, where: str, params: Iterable[Any] = ()) -> list[MatchRecord]: ...
        async def _by_ids(self, ids: Sequence[int]) -> list[MatchRecord]: ...

    # ----------------------------------------------------------------------------------------------- the member

    async def member(self, user_id: int) -> MemberRecord:
        """The member's row (defaults when they never chose anything)."""
        row = await self._fetchone("SELECT user_id, language, prefs_json, dm_channel_id, dm_refused FROM members "
                                   "WHERE user_id = ?", (user_id,))
        if row is None:
            return MemberRecord(user_id)
        return MemberRecord(row["user_id"], row["language"], json.loads(row["prefs_json"]), row["dm_channel_id"],
                            bool(row["dm_refused"]))

    async def _upsert_member(self, user_id: int, column: str, value: Any) -> None:
        await self._execute(
            f"INSERT INTO members (user_id, {column}, updated_at) VALUES (?, ?, ?) "
            f"ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at",
            (user_id, value, _now()))

    async def set_member_language(self, user_id: int, language: str) -> None:
        """The language of the client the member used last (their DMs and heads-ups are worded in it)."""
        async with self._transaction(durable=False):  # a crash may forget it: the next interaction says it again
            await self._upsert_member(user_id, "language", language)

    async def set_member_prefs(self, user_id: int, prefs: dict[str, Any]) -> None:
        """Replace the member's preferences (every key they chose; a key left out is back to its default)."""
        async with self._transaction():
            await self._upsert_member(user_id, "prefs_json", json.dumps(prefs, separators=(",", ":"),
                                                                        sort_keys=True))

    async def set_member_dm(self, user_id: int, *, channel_id: int | None = None,
                            refused: bool | None = None) -> None:
        """The member's DM channel with the bot, and whether their DMs refused the bot (told once)."""
        async with self._transaction():
            if channel_id is not None:
                await self._upsert_member(user_id, "dm_channel_id", channel_id)
            if refused is not None:
                await self._upsert_member(user_id, "dm_refused", int(refused))

    # ----------------------------------------------------------------------------------------------- their games

    async def member_matches(self, user_id: int, *, finished: bool = False, limit: int = 25) -> list[MatchRecord]:
        """The matches the member holds a seat in, on every server: the games under way (oldest first, at most
        MEMBER_GAMES_KEPT), or the latest `limit` finished ones (newest first)."""
        if not finished:
            return (await self._matches(
                "m.status = 'active' AND m.id IN (SELECT mine.match_id FROM seats mine WHERE mine.user_id = ?)",
                (user_id,)))[:MEMBER_GAMES_KEPT]
        rows = await self._fetchall(
            "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id WHERE s.user_id = ? "
            "AND m.status = 'finished' AND m.lesson = 0 ORDER BY m.updated_at DESC, m.id DESC LIMIT ?",
            (user_id, int(limit)))
        return await self._by_ids([int(row["id"]) for row in rows])

    async def board_messages(self, match_ids: Sequence[int]) -> dict[int, int]:
        """The message showing each match's latest board, for those that have one."""
        if not match_ids:
            return {}
        marks = ", ".join("?" for _ in match_ids)
        rows = await self._fetchall(
            f"SELECT id, board_message_id FROM matches WHERE id IN ({marks}) AND board_message_id IS NOT NULL",
            tuple(match_ids))
        return {int(row["id"]): int(row["board_message_id"]) for row in rows}

    async def pending_work_of(self, match_ids: Sequence[int], kinds: Sequence[str]) -> list[ScheduledWork]:
        """The pending work of these kinds of these matches, soonest first (a turn's deadline, its reminder)."""
        if not match_ids or not kinds:
            return []
        matches = ", ".join("?" for _ in match_ids)
        wanted = ", ".join("?" for _ in kinds)
        rows = await self._fetchall(
            f"SELECT {WORK_COLUMNS} FROM scheduled_work WHERE done_at IS NULL AND match_id IN ({matches}) "
            f"AND kind IN ({wanted}) ORDER BY due_at, id", (*match_ids, *kinds))
        return [work_from(row) for row in rows]

    async def member_results(self, user_id: int, match_ids: Sequence[int]) -> dict[int, MemberResult]:
        """How the member did in each of these finished matches."""
        if not match_ids:
            return {}
        marks = ", ".join("?" for _ in match_ids)
        rows = await self._fetchall(
            f"SELECT match_id, won, score FROM match_results WHERE user_id = ? AND match_id IN ({marks})",
            (user_id, *match_ids))
        return {int(row["match_id"]): MemberResult(bool(row["won"]), row["score"]) for row in rows}

    # ----------------------------------------------------------------------------------------------- away

    async def current_away(self, user_id: int, now: int) -> tuple[int, int] | None:
        """The member's time away under way at `now` (started, until), if any."""
        row = await self._fetchone(
            "SELECT started_at, until_at FROM member_away WHERE user_id = ? AND ended_at IS NULL "
            "AND started_at <= ? AND until_at > ? ORDER BY started_at DESC LIMIT 1", (user_id, now, now))
        return (int(row["started_at"]), int(row["until_at"])) if row is not None else None

    async def away_seconds_since(self, user_id: int, since: int) -> int:
        """How long the member was (or is booked to be) away in times started since `since`."""
        rows = await self._fetchall("SELECT started_at, until_at, ended_at FROM member_away WHERE user_id = ? "
                                    "AND started_at >= ?", (user_id, since))
        return sum(min(row["until_at"], row["ended_at"] if row["ended_at"] is not None else row["until_at"])
                   - row["started_at"] for row in rows)

    async def away_seconds_between(self, user_id: int, start: int, end: int) -> int:
        """How much of the time from `start` to `end` the member spent away (a clock does not run meanwhile)."""
        rows = await self._fetchall("SELECT started_at, until_at, ended_at FROM member_away WHERE user_id = ? "
                                    "AND started_at < ?", (user_id, end))
        return sum(max(0, min(end, row["until_at"] if row["ended_at"] is None else min(row["until_at"],
                                                                                        row["ended_at"]))
                       - max(start, row["started_at"])) for row in rows)

    async def start_away(self, user_id: int, started: int, until: int,
                         moved: Sequence[tuple[int, int]] = ()) -> None:
        """Record a time away and move the due times of the member's pending work (`moved`: (work id, new due
        time)) in one transaction, so a crash leaves neither without the other."""
        async with self._transaction():
            await self._execute("INSERT INTO member_away (user_id, started_at, until_at) VALUES (?, ?, ?) "
                                "ON CONFLICT (user_id, started_at) DO UPDATE SET until_at = excluded.until_at, "
                                "ended_at = NULL", (user_id, started, until))
            await self._move_work(moved)

    async def end_away(self, user_id: int, now: int, moved: Sequence[tuple[int, int]] = ()) -> bool:
        """End the member's time away under way (and move their pending work back), atomically; False if none was
        under way (another process, or a move, ended it first)."""
        async with self._transaction():
            changed = await self._execute("UPDATE member_away SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL "
                                          "AND started_at <= ? AND until_at > ?", (now, user_id, now, now))
            if changed:
                await self._move_work(moved)
        return bool(changed)

    async def _move_work(self, moved: Sequence[tuple[int, int]]) -> None:
        for work_id, due_at in moved:
            await self._execute("UPDATE scheduled_work SET due_at = ? WHERE id = ? AND done_at IS NULL",
                                (int(due_at), work_id))
