"""The store's records of play: finished games for history, each seat's result for /stats, undo requests, and
per-server ratings.

A mixin of `Store` (bot/store/database.py), written once for both engines like the rest of it. A finished match's
results are written by the transaction that finishes it, and ratings in the same transaction that marks the match
rated, so a match is counted and rated exactly once however many processes finish, sweep or retry it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.core import all_games, find_game
from bot.store import reading
from bot.store.reading import EVENT_COLUMNS_SQL
from bot.store.records import EventColumns, MatchRecord, SeatResult, StoreError, results_of

if TYPE_CHECKING:
    from bot.store.engines import Row

OVER = ("finished", "abandoned")

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class UndoRequest:
    """A request to take back `moves` moves of a match, made at `at_version`; it lapses once the match moves on."""

    id: int
    match_id: int
    user_id: int
    at_version: int
    moves: int
    approvers: tuple[int, ...]
    approved: tuple[int, ...]
    status: str  # pending, approved, refused, lapsed
    decided_by: int | None

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return tuple(user for user in self.approvers if user not in self.approved)


@dataclass(frozen=True)
class Rating:
    """One player's rating for one game on one server (openskill's mu and sigma), and how many rated games."""

    user_id: int
    mu: float
    sigma: float
    games: int
    ordinal: float = 0.0  # the rating shown (openskill's ordinal), kept in the row for the leaderboard's index
    name: str | None = None  # for a leaderboard: the name the player last sat under on the server (None: never)


@dataclass(frozen=True)
class NewRating:
    """A player's rating after a match: openskill's mu and sigma, and the ordinal shown and ranked by."""

    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class GameResults:
    """A player's finished matches of one game on one server: how many, how many won, the best score."""

    game: str
    played: int
    wins: int
    best: int | None


@dataclass(frozen=True)
class Uncounted:
    """A finished match that keeps no result for /stats yet: its final state (as stored) and seats, to read them
    from (`final_results`)."""

    match_id: int
    game: str
    state_json: str
    finished_at: str  # the match's `updated_at`: when its final move was saved
    seats: tuple[int, ...]


def final_results(match: Uncounted) -> tuple[SeatResult, ...]:
    """Each seat's result, read from the match's final state by its game's rules (the game must be registered);
    raises what the game raises when it is not installed or cannot read the state."""
    return results_of(find_game(match.game).outcome(json.loads(match.state_json)), match.seats)


RATING_COLUMNS = "r.user_id, r.mu, r.sigma, r.games, r.ordinal"
RATING_ORDER = "r.ordinal DESC, r.games DESC, r.user_id"
"""A leaderboard's order, the index `ratings_by_ordinal`'s: the higher ordinal first, then more rated games."""


LAST_NAME = ("(SELECT s.name FROM seats s JOIN matches m ON m.id = s.match_id WHERE s.user_id = r.user_id AND "
             "m.guild_id = r.guild_id ORDER BY s.match_id DESC LIMIT 1)")
"""The name a rating's player (`r`) last sat under on its server, from their own seats (the index `seats_by_user`)."""


def _rating(row: Row, *, named: bool = False) -> Rating:
    """A rating from its row (`named`: the row has the player's name too, `LAST_NAME`)."""
    return Rating(int(row["user_id"]), float(row["mu"]), float(row["sigma"]), int(row["games"]),
                  float(row["ordinal"]), row["name"] if named else None)


RatingUpdate = Callable[[dict[int, Rating]], dict[int, NewRating]]
"""Given the current ratings of a match's players (absent: never rated), their new ratings."""


class RecordsStore:
    """History, undo requests and ratings; mixed into `Store`, whose query helpers it uses."""

    if TYPE_CHECKING:
        dialect: str
        path: str

        def _transaction(self) -> Any: ...
        async def _execute(self, sql: str, params: Iterable[Any] = ()) -> int: ...
        async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...
        async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...
        async def _executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None: ...
        async def _matches(self, where: str, params: Iterable[Any] = ()) -> list[MatchRecord]: ...

    # ----------------------------------------------------------------------------------------------- history

    async def finished_matches(self, guild_id: int, *, channel_id: int | None = None, limit: int = 10,
                               offset: int = 0, hidden_channels: Sequence[int] = (),
                               player_id: int | None = None) -> tuple[list[MatchRecord], int]:
        """Finished and abandoned matches of a server (or one channel), newest first: one page, and the total.
        Matches played in `hidden_channels` are left out, unless `player_id` held a seat in them."""
        where = "guild_id = ? AND status IN ('finished', 'abandoned') AND lesson = 0"
        params: list[Any] = [guild_id]
        if channel_id is not None:
            where += " AND channel_id = ?"
            params.append(channel_id)
        if hidden_channels:
            marks = ", ".join("?" for _ in hidden_channels)
            where += f" AND (channel_id NOT IN ({marks})"
            params += [int(channel) for channel in hidden_channels]
            if player_id is not None:
                where += " OR id IN (SELECT match_id FROM seats WHERE user_id = ?)"
                params.append(player_id)
            where += ")"
        total = await self._fetchone(f"SELECT COUNT(*) AS n FROM matches WHERE {where}", params)
        rows = await self._fetchall(f"SELECT id FROM matches WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?",
                                    [*params, int(limit), int(offset)])
        ids = [int(row["id"]) for row in rows]
        matches = await self._by_ids(ids)
        return matches, int(total["n"]) if total is not None else 0

    async def finished_channels(self, guild_id: int) -> list[int]:
        """The channels (and threads) of a server where a match finished or was abandoned."""
        rows = await self._fetchall("SELECT DISTINCT channel_id FROM matches WHERE guild_id = ? "
                                    "AND status IN ('finished', 'abandoned') AND lesson = 0 ORDER BY channel_id",
                                    (guild_id,))
        return [int(row["channel_id"]) for row in rows]

    async def _by_ids(self, ids: Sequence[int]) -> list[MatchRecord]:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        found = {m.id: m for m in await self._matches(f"m.id IN ({marks})", ids)}
        return [found[i] for i in ids if i in found]

    async def event_texts(self, match_id: int) -> list[str]:
        """The match's log in words (every event's text that has one, in order), without decoding the events."""
        rows = await self._fetchall(
            "SELECT text FROM events WHERE match_id = ? AND text <> '' ORDER BY seq", (match_id,))
        return [row["text"] for row in rows]

    async def event_lines(self, match_id: int, last: int) -> list[tuple[int, str, int | None, str]]:
        """(seq, kind, seat, text) of the match's newest `last` events, oldest first: what a board's story reads,
        without decoding the events' actions, results and draws (a board read and decoded 40 events)."""
        rows = await self._fetchall(
            "SELECT * FROM (SELECT seq, kind, seat, text FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT ?) "
            "AS recent ORDER BY seq", (match_id, int(last)))
        return [(row["seq"], row["kind"], row["seat"], row["text"]) for row in rows]

    async def event_columns(self, match_id: int) -> list[EventColumns]:
        """The match's events as stored, JSON undecoded (`decode_event` decodes one). Work in a worker process reads
        them there itself (`reading.event_columns` at `shared_location`); this is for a database only this process
        can read."""
        rows = await self._fetchall(EVENT_COLUMNS_SQL, (match_id,))
        return [(row["seq"], row["kind"], row["user_id"], row["seat"], row["action_json"], row["events_json"],
                 row["draws_json"], row["text"], row["created_at"]) for row in rows]

    async def _long_read(self, sql: str, params: Sequence[Any]) -> list[Row]:
        """A read that may count many rows (a leaderboard place, a career): on a SQLite file, with a read-only
        connection of its own in a thread, so the moves' statements on the store's one connection never queue
        behind it; on PostgreSQL, on a pooled connection like any read (the others stay free)."""
        location = self.shared_location
        if self.dialect == "sqlite" and location is not None:
            return await asyncio.to_thread(reading.fetch_named, location, sql, params)
        return await self._fetchall(sql, params)

    async def player_results(self, guild_id: int, user_id: int) -> list[GameResults]:
        """Per game (by key), the user's results over every finished match of theirs on a server: one query on the
        index of results by player and game (`match_results_by_player_game`, which holds every column it reads), no
        final state decoded. (It once counted only the newest thousand and showed that as the total: issue 32.)"""
        rows = await self._long_read(
            "SELECT game, COUNT(*) AS played, SUM(won) AS wins, MAX(score) AS best FROM match_results "
            "WHERE guild_id = ? AND user_id = ? GROUP BY game ORDER BY game", (guild_id, user_id))
        return [GameResults(row["game"], int(row["played"]), int(row["wins"]),
                            int(row["best"]) if row["best"] is not None else None) for row in rows]

    async def _insert_results(self, match_id: int, results: Sequence[SeatResult], finished_at: str) -> None:
        """Each seat's result of a finished match (inside the transaction that finishes it), with the user seated
        there and the match's server, game and mode; a result already kept is left as it is."""
        await self._executemany(
            "INSERT INTO match_results (match_id, seat, guild_id, user_id, game, mode, won, score, finished_at) "
            "SELECT m.id, s.seat, m.guild_id, s.user_id, m.game, m.mode, ?, ?, ? FROM matches m "
            "JOIN seats s ON s.match_id = m.id WHERE m.id = ? AND s.seat = ? "
            "ON CONFLICT (match_id, seat) DO NOTHING",
            [(int(result.won), result.score, finished_at, match_id, result.seat) for result in results])

    async def finished_without_results(self, *, finished_since: str = "", after: int = 0,
                                       limit: int = 200) -> list[Uncounted]:
        """Finished matches that keep no result for /stats, at most `limit`, in the order they finished: those a bot
        process of a version before `match_results` finished (during a rolling upgrade), or finished before the
        upgrade. Only those finished at `finished_since` (a time as `matches.updated_at` holds it) or later, and of
        those finished exactly then, those after match id `after`: the next page starts at the last match's
        (`finished_at`, `match_id`).

        One query on the index of finished matches by time (`matches_finished_by_time`): with `finished_since` a few
        minutes back it reads a few rows whatever the database's size; without, every finished match (at a start,
        by the upgrade)."""
        rows = await self._fetchall(
            "SELECT m.id, m.game, m.state_json, m.updated_at FROM matches m WHERE m.status = 'finished' "
            "AND m.updated_at >= ? AND (m.updated_at > ? OR m.id > ?) AND m.state_json IS NOT NULL AND m.lesson = 0 "
            "AND NOT EXISTS (SELECT 1 FROM match_results r WHERE r.match_id = m.id) "
            "ORDER BY m.updated_at, m.id LIMIT ?", (finished_since, finished_since, int(after), int(limit)))
        if not rows:
            return []
        marks = ", ".join("?" for _ in rows)
        seated: dict[int, list[int]] = {}
        for seat in await self._fetchall(f"SELECT match_id, seat FROM seats WHERE match_id IN ({marks}) "
                                         "ORDER BY match_id, seat", [row["id"] for row in rows]):
            seated.setdefault(int(seat["match_id"]), []).append(int(seat["seat"]))
        return [Uncounted(int(row["id"]), row["game"], row["state_json"], row["updated_at"],
                          tuple(seated.get(int(row["id"]), ()))) for row in rows]

    async def keep_results(self, kept: Sequence[tuple[Uncounted, Sequence[SeatResult]]]) -> None:
        """Each seat's result of these finished matches, in one transaction; results already kept (another process
        filled them in first) are left as they are."""
        if not kept:
            return
        async with self._transaction():
            for match, results in kept:
                await self._insert_results(match.match_id, results, match.finished_at)

    async def fill_match_results(self, *, batch: int = 200, progress: Callable[[int], object] | None = None) -> int:
        """Keep the results of every finished match that has none, each final state decoded once: the upgrade to
        `schema.RESULTS_MIGRATION` runs it so a server keeps its /stats. Returns how many matches it filled in.

        The games must be registered in this process (`import bot.games`, as the service does); a finished match of
        a game no longer installed, or whose final state its rules no longer read, is left out and logged (/stats
        shows neither). (A running bot fills in the matches an older process finishes later: `ResultsKeeper` in
        bot/features/stats.py, a chore of the scheduler's passes.)"""
        filled, since, after = 0, "", 0
        async with self._transaction():
            while True:
                found = await self.finished_without_results(finished_since=since, after=after, limit=batch)
                if not found:
                    return filled
                if not all_games():
                    raise StoreError("The games must be registered (import bot.games) before this database is "
                                     "upgraded: the upgrade reads the result of every finished game.")
                since, after = found[-1].finished_at, found[-1].match_id
                for match in found:
                    try:
                        results = final_results(match)
                    except Exception as error:  # an uninstalled game, or rules that changed since
                        log.warning("Match %s (%s) keeps no result for /stats: %s", match.match_id, match.game, error)
                        continue
                    await self._insert_results(match.match_id, results, match.finished_at)
                    filled += 1
                if progress is not None:  # how far a long upgrade got (it says so at most once a second)
                    progress(filled)

    @property
    def shared_location(self) -> str | None:
        """Where another process (the records worker) can read this database with a connection of its own; None
        for an in-memory SQLite database, which only this process can read."""
        return None if self.path in ("", ":memory:") or self.path.startswith("file:") else self.path

    async def player_matches(self, guild_id: int, user_id: int, *, limit: int = 1000) -> list[MatchRecord]:
        """The newest finished matches of a server in which the user held a seat, final states and all (/stats reads
        `player_results` instead: bench_loop_lag reads these to show what decoding them cost the loop)."""
        rows = await self._fetchall(
            "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id WHERE m.guild_id = ? AND s.user_id = ? "
            "AND m.status = 'finished' AND m.lesson = 0 ORDER BY m.id DESC LIMIT ?",
            (guild_id, user_id, int(limit)),
        )
        return await self._by_ids([int(row["id"]) for row in rows])

    async def profiles_of(self, guild_id: int, user_id: int) -> dict[str, dict[str, Any]]:
        """Every per-game record a player has on a server (solo campaign progress, for instance)."""
        rows = await self._fetchall(
            "SELECT game, data_json FROM profiles WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id),
        )
        return {row["game"]: json.loads(row["data_json"]) for row in rows}

    # ----------------------------------------------------------------------------------------------- undo

    @staticmethod
    def _undo_from(row: Row) -> UndoRequest:
        return UndoRequest(id=row["id"], match_id=row["match_id"], user_id=row["user_id"],
                           at_version=row["at_version"], moves=row["moves"],
                           approvers=tuple(json.loads(row["approvers_json"])),
                           approved=tuple(json.loads(row["approved_json"])), status=row["status"],
                           decided_by=row["decided_by"])

    async def create_undo_request(self, match_id: int, user_id: int, at_version: int, moves: int,
                                  approvers: Sequence[int]) -> UndoRequest:
        """A pending request; any earlier pending request of the match lapses (only one is open at a time)."""
        async with self._transaction():
            await self._execute("UPDATE undo_requests SET status = 'lapsed' WHERE match_id = ? AND status = 'pending'",
                                (match_id,))
            row = await self._fetchone(
                "INSERT INTO undo_requests (match_id, user_id, at_version, moves, approvers_json, approved_json, "
                "status, created_at) VALUES (?, ?, ?, ?, ?, '[]', 'pending', ?) RETURNING id",
                (match_id, user_id, at_version, moves, json.dumps(list(approvers)), _now()),
            )
        assert row is not None
        request = await self.undo_request(int(row["id"]))
        assert request is not None
        return request

    async def undo_request(self, request_id: int) -> UndoRequest | None:
        row = await self._fetchone("SELECT * FROM undo_requests WHERE id = ?", (request_id,))
        return self._undo_from(row) if row is not None else None

    async def approve_undo(self, request_id: int, user_id: int) -> UndoRequest | None:
        """Add one approval to a pending request (atomically); None if it is no longer pending."""
        # FOR UPDATE: on PostgreSQL two approvals at once must not both read the old list (SQLite's BEGIN
        # IMMEDIATE already admits one writer at a time).
        lock = " FOR UPDATE" if self.dialect == "postgresql" else ""
        async with self._transaction():
            row = await self._fetchone(f"SELECT * FROM undo_requests WHERE id = ? AND status = 'pending'{lock}",
                                       (request_id,))
            if row is None:
                return None
            approved = sorted(set(json.loads(row["approved_json"])) | {user_id})
            await self._execute("UPDATE undo_requests SET approved_json = ? WHERE id = ? AND status = 'pending'",
                                (json.dumps(approved), request_id))
        return await self.undo_request(request_id)

    async def decide_undo(self, request_id: int, status: str, decided_by: int | None) -> bool:
        """Close a pending request (approved, refused or lapsed); False if someone closed it first."""
        async with self._transaction():
            changed = await self._execute(
                "UPDATE undo_requests SET status = ?, decided_by = ? WHERE id = ? AND status = 'pending'",
                (status, decided_by, request_id),
            )
        return changed == 1

    # ----------------------------------------------------------------------------------------------- ratings

    async def unrated_matches(self, guild_id: int | None = None, *, finished_since: str = "") -> list[int]:
        """Finished matches (of a server, or of all) not yet marked rated or unrated (a crash between finish and
        rating), in the order they finished. Only those finished at `finished_since` (a time as `matches.updated_at`
        holds it) or later: on the index of finished matches by time (`matches_finished_by_time`), a sweep of the
        last few minutes reads a few rows however many games were ever played."""
        where = "m.status = 'finished' AND m.updated_at >= ?"
        params: list[str | int] = [finished_since]
        if guild_id is not None:
            where += " AND m.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetchall(
            f"SELECT m.id FROM matches m WHERE {where} AND NOT EXISTS (SELECT 1 FROM rated_matches r "
            "WHERE r.match_id = m.id) ORDER BY m.updated_at, m.id", params)
        return [int(row["id"]) for row in rows]

    async def rate_match(self, match_id: int, guild_id: int, game: str, user_ids: Sequence[int],
                         update: RatingUpdate | None, reason: str) -> bool:
        """Mark the match rated (with `update`) or unrated (`update` None, for `reason`), exactly once.

        Returns whether this call did it: a second call, from any process, finds the mark and changes nothing.
        """
        now = _now()
        async with self._transaction():
            marked = await self._fetchone(
                "INSERT INTO rated_matches (match_id, rated, reason, rated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                (match_id, int(update is not None), reason, now),
            )
            if marked is None:
                return False
            if update is None:
                return True
            current = {rating.user_id: rating for rating in await self.ratings(guild_id, game, user_ids)}
            for user_id, new in update(current).items():
                games = current[user_id].games + 1 if user_id in current else 1
                await self._execute(
                    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, ordinal, games, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
                    "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games, "
                    "updated_at = excluded.updated_at",
                    (guild_id, game, user_id, float(new.mu), float(new.sigma), float(new.ordinal), games, now),
                )
        return True

    async def rated_mark(self, match_id: int) -> tuple[bool, str] | None:
        """(rated, reason) once a match was marked, else None."""
        row = await self._fetchone("SELECT rated, reason FROM rated_matches WHERE match_id = ?", (match_id,))
        return (bool(row["rated"]), row["reason"]) if row is not None else None

    async def ratings(self, guild_id: int, game: str, user_ids: Sequence[int] | None = None) -> list[Rating]:
        """Ratings of a game on a server: everyone's, or only these users'."""
        sql = f"SELECT {RATING_COLUMNS} FROM ratings r WHERE guild_id = ? AND game = ?"
        params: list[Any] = [guild_id, game]
        if user_ids is not None:
            if not user_ids:
                return []
            sql += f" AND user_id IN ({', '.join('?' for _ in user_ids)})"
            params += list(user_ids)
        return [_rating(row) for row in await self._fetchall(sql, params)]

    async def top_ratings(self, guild_id: int, game: str, limit: int) -> list[Rating]:
        """The `limit` best ratings of a game on a server, best first (ties: more rated games, then the lower user
        id), each with the name its player last sat under here: one query, read in order from the index
        `ratings_by_ordinal` (so it reads `limit` rows however many are rated), the names looked up for those rows
        only."""
        rows = await self._long_read(
            f"SELECT {RATING_COLUMNS}, {LAST_NAME} AS name FROM ratings r WHERE guild_id = ? AND game = ? "
            f"ORDER BY {RATING_ORDER} LIMIT ?", (guild_id, game, int(limit)))
        return [_rating(row, named=True) for row in rows]

    async def rating_place(self, guild_id: int, game: str, user_id: int) -> tuple[int, Rating] | None:
        """A player's place on the game's leaderboard (1 is the best) and their rating, with their name; None when
        unrated. One query: the place counts the ratings ahead on the index `ratings_by_ordinal` (those at or above
        the player's ordinal, the ties then ordered as `top_ratings` orders them), without reading the table."""
        rows = await self._long_read(
            f"SELECT {RATING_COLUMNS}, {LAST_NAME} AS name, (SELECT COUNT(*) FROM ratings a WHERE a.guild_id = "
            "r.guild_id AND a.game = r.game AND a.ordinal >= r.ordinal AND (a.ordinal > r.ordinal OR a.games > "
            "r.games OR (a.games = r.games AND a.user_id < r.user_id))) AS ahead FROM ratings r "
            "WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id))
        return (int(rows[0]["ahead"]) + 1, _rating(rows[0], named=True)) if rows else None
