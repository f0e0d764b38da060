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
    away_until: int | None = None  # read by `members`: the end of their time away under way then (epoch seconds)


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
        """The member's row (defaults when they never chose anything), with the language noted last."""
        row = await self._fetchone("SELECT user_id, language, prefs_json, dm_channel_id, dm_refused FROM members "
                                   "WHERE user_id = ?", (user_id,))
        noted = self._languages()[0].get(user_id)
        if row is None:
            return MemberRecord(user_id, noted)
        return MemberRecord(row["user_id"], noted or row["language"], json.loads(row["prefs_json"]),
                            row["dm_channel_id"], bool(row["dm_refused"]))

    async def members(self, user_ids: Iterable[int], now: int | None = None) -> dict[int, MemberRecord]:
        """Several members' rows in one query whatever their number (the planner reads them at every change of
        turn, under the channel's lock), with the end of their time away under way at `now` when one is given;
        defaults for those who chose nothing."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        sql = ("SELECT 'member' AS part, user_id, language, prefs_json, dm_channel_id, dm_refused, NULL AS until_at "
               f"FROM members WHERE user_id IN ({marks})")
        params: list[Any] = list(wanted)
        if now is not None:
            sql += (" UNION ALL SELECT 'away', user_id, NULL, NULL, NULL, NULL, MAX(until_at) FROM member_away "
                    f"WHERE user_id IN ({marks}) AND ended_at IS NULL AND started_at <= ? AND until_at > ? "
                    "GROUP BY user_id")
            params += [*wanted, now, now]
        rows = await self._fetchall(sql, params)
        until = {int(row["user_id"]): int(row["until_at"]) for row in rows if row["part"] == "away"}
        noted = self._languages()[0]
        found = {user_id: MemberRecord(user_id, noted.get(user_id), away_until=until.get(user_id))
                 for user_id in wanted}
        for row in rows:
            if row["part"] == "member":
                user_id = int(row["user_id"])
                found[user_id] = MemberRecord(user_id, noted.get(user_id) or row["language"],
                                              json.loads(row["prefs_json"]), row["dm_channel_id"],
                                              bool(row["dm_refused"]), until.get(user_id))
        return found

    # The language of the client each member last used with the bot is noted in memory by every interaction
    # (which must be answered before anything reads the database: cogs/table.py), read at once by `member` and
    # `members`, and kept by `flush_languages` off the interaction's path (the scheduler's every pass).

    def _languages(self) -> tuple[dict[int, str], dict[int, str]]:
        """(noted and not yet kept, kept) languages by member."""
        found: tuple[dict[int, str], dict[int, str]] | None = self.__dict__.get("_member_languages")
        if found is None:
            found = self.__dict__["_member_languages"] = ({}, {})
        return found

    def note_language(self, user_id: int, language: str) -> None:
        """The member used a client in `language` (their DMs are worded in it from now on)."""
        noted, kept = self._languages()
        if kept.get(user_id) != language:
            noted[user_id] = language

    async def flush_languages(self) -> int:
        """Keep the noted languages that changed; returns how many were written."""
        noted, kept = self._languages()
        written = 0
        for user_id, language in list(noted.items()):
            row = await self._fetchone("SELECT language FROM members WHERE user_id = ?", (user_id,))
            if row is None or row["language"] != language:
                await self.set_member_language(user_id, language)
                written += 1
            kept[user_id] = language
            if noted.get(user_id) == language:
                del noted[user_id]
        return written

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
            rows = await self._fetchall(
                "SELECT m.id FROM matches m WHERE m.status = 'active' AND m.id IN (SELECT mine.match_id FROM seats "
                "mine WHERE mine.user_id = ?) ORDER BY m.id LIMIT ?", (user_id, MEMBER_GAMES_KEPT))
            return await self._by_ids([int(row["id"]) for row in rows])
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

    async def turns_began(self, to_move: dict[int, Sequence[int]]) -> dict[int, str]:
        """When the turn of each match began (ISO text, as stored), for `to_move` (match id: the seats of people
        to move): its latest start, or move by a seat not to move now (the move that passed the turn; the steps of
        those to move belong to their turn). One query for all the matches of /games."""
        if not to_move:
            return {}
        clauses, params = [], []
        for match_id, seats in sorted(to_move.items()):
            others = ""
            if seats:
                others = f" AND (seat IS NULL OR seat NOT IN ({', '.join('?' for _ in seats)}))"
            clauses.append(f"(match_id = ? AND (kind = 'started' OR (kind = 'action'{others})))")
            params += [match_id, *seats]
        rows = await self._fetchall(
            f"SELECT match_id, MAX(created_at) AS began FROM events WHERE {' OR '.join(clauses)} GROUP BY match_id",
            params)
        return {int(row["match_id"]): str(row["began"]) for row in rows}

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
                         moved: Sequence[tuple[int, int]] = ()) -> bool:
        """Record a time away and move the due times of the member's pending work (`moved`: (work id, new due
        time)) in one transaction, so a crash leaves neither without the other. The check that none is under way
        and the insert are one statement: False (nothing changed) when the member is away already."""
        async with self._transaction():
            added = await self._execute(
                "INSERT INTO member_away (user_id, started_at, until_at) SELECT ?, ?, ? WHERE NOT EXISTS "
                "(SELECT 1 FROM member_away a WHERE a.user_id = ? AND a.ended_at IS NULL AND a.started_at <= ? "
                "AND a.until_at > ?) ON CONFLICT (user_id, started_at) DO UPDATE SET until_at = excluded.until_at, "
                "ended_at = NULL", (user_id, started, until, user_id, started, started))
            if added:
                await self._move_work(moved)
        return bool(added)

    async def end_away(self, user_id: int, now: int, moved: Sequence[tuple[int, int]] = ()) -> bool:
        """End the member's time away under way (and move their pending work back), atomically; False if none was
        under way (another process, or a move, ended it first)."""
        async with self._transaction():
            return await self._end_away(user_id, now, moved)

    async def _end_away(self, user_id: int, now: int, moved: Sequence[tuple[int, int]]) -> bool:
        """Inside the caller's transaction (a move's own, when a member away moved: `CommunityChange.away_ended`)."""
        changed = await self._execute("UPDATE member_away SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL "
                                      "AND started_at <= ? AND until_at > ?", (now, user_id, now, now))
        if changed:
            await self._move_work(moved)
        return bool(changed)

    async def _move_work(self, moved: Sequence[tuple[int, int]]) -> None:
        for work_id, due_at in moved:
            await self._execute("UPDATE scheduled_work SET due_at = ? WHERE id = ? AND done_at IS NULL",
                                (int(due_at), work_id))
