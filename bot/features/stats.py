"""A player's record on a server, for /stats: games, wins, favourite game, best scores, ratings, solo progress;
and the chore that keeps every finished game counted in it (`ResultsKeeper`)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.core import LobbyError, find_game
from bot.features.wording import game_title
from bot.i18n import translate
from bot.store import SeatResult, Uncounted, final_results

if TYPE_CHECKING:
    from bot.service import GameService
    from bot.store import Rating, Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameRecord:
    """One game's line of a player's stats."""

    title: str
    played: int
    wins: int
    best: int | None
    rating: float | None = None
    rated_games: int = 0


@dataclass(frozen=True)
class PlayerStats:
    games: int
    wins: int
    favourite: str | None
    per_game: list[GameRecord]
    progress: list[str] = field(default_factory=list)


async def player_stats(service: GameService, guild_id: int, user_id: int, language: str = "en", *,
                       asker: int | None = None) -> PlayerStats:
    """Counted from the results kept of every finished game of this server in which the player held a seat (one
    query on an index, whatever the career's length); the games' names and solo progress in the reader's
    `language`. What a crash left unrated is rated by a chore of the scheduler (`ratings.RatingsKeeper`), not
    here. The count takes its turn among the reads members asked for (`GameService.long_read`, `asker`'s)."""
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    best: dict[str, int] = {}
    # One indexed query, no state decoded; a flood of them takes turns.
    careers = await service.long_read(asker, lambda: service.store.player_results(guild_id, user_id))
    for results in careers:
        try:
            find_game(results.game)
        except LobbyError:  # a game no longer installed: its matches are not shown
            continue
        played[results.game], wins[results.game] = results.played, results.wins
        if results.best is not None:
            best[results.game] = results.best
    per_game = []
    for key in sorted(played, key=lambda k: (-played[k], k)):
        rating = next(iter(await service.store.ratings(guild_id, key, [user_id])), None)
        per_game.append(GameRecord(game_title(find_game(key), language), played[key], wins[key], best.get(key),
                                   rating.ordinal if rating else None,
                                   rating.games if rating else 0))
    progress = []
    for key, profile in (await service.store.profiles_of(guild_id, user_id)).items():
        try:
            game = find_game(key)
        except Exception:  # a game no longer installed: its record stays but is not shown
            continue
        text = game.progress_text(profile, language) if profile else ""
        if text:
            progress.append(f"{game_title(game, language)}: {text}")
    favourite = per_game[0].title if per_game else None
    return PlayerStats(sum(played.values()), sum(wins.values()), favourite, per_game, progress)


@dataclass(frozen=True)
class LeaderRow:
    place: int
    user_id: int
    name: str  # the name they last sat under on this server
    rating: float
    games: int


async def leaderboard(service: GameService, guild_id: int, game_key: str, asker: int,
                      top: int = 10, language: str = "en") -> tuple[list[LeaderRow], LeaderRow | None]:
    """The top `top` rated players of a game on a server (by openskill's ordinal), and the asker's row when they
    are rated but not among them. Read from the index of ratings by ordinal: the top rows in order and the asker's
    place as a count, so a server with 50,000 rated players costs the event loop what one with 50 does (sorting
    every rating here once cost a move elsewhere 2.43 s: issue 32); and one leaderboard at a time, so a flood of
    them never stands between a move and the database for longer than one place is counted."""
    async def read() -> tuple[list[tuple[int, Rating]], tuple[int, Rating] | None]:
        best = list(enumerate(await service.store.top_ratings(guild_id, game_key, top), start=1))
        if any(rating.user_id == asker for _, rating in best):
            return best, None
        return best, await service.store.rating_place(guild_id, game_key, asker)

    # A flood of leaderboards takes turns: moves elsewhere wait behind one at most.
    best, placed = await service.long_read(asker, read)
    mine = [placed] if placed is not None else []
    someone = translate("rating.someone", language)
    ranked = [LeaderRow(place, r.user_id, r.name or someone, r.ordinal, r.games) for place, r in [*best, *mine]]
    return ranked[:top], ranked[top] if len(ranked) > top else None


# --------------------------------------------------------------------------------------------- results kept late

RESULTS_BATCH = 200
CLOCK_SLACK = timedelta(minutes=10)
"""How far before the previous sweep's start the next one looks: the process that finished a game stamps its final
move with its own clock, which may run behind this one's, and a moment before its commit."""


def _wall_clock() -> datetime:
    return datetime.now(UTC)


def _read(matches: Sequence[Uncounted]) -> list[tuple[SeatResult, ...] | Exception]:
    """Each match's results from its final state (in a thread: decoding final states is no work for the loop)."""
    read: list[tuple[SeatResult, ...] | Exception] = []
    for match in matches:
        try:
            read.append(final_results(match))
        except Exception as error:  # an uninstalled game, or rules that changed since
            read.append(error)
    return read


class ResultsKeeper:
    """Keeps /stats whole across a rolling upgrade: a bot process of a version before `match_results`, still running
    beside the upgraded ones, finishes games without their result rows; a chore of every scheduler pass fills them
    in (bot/app.py registers it), read from each final state once, in a thread.

    A process's first sweep (its first pass, at start) looks at every finished match; the later ones only at those
    finished since shortly before the previous sweep began: one query on an index (`matches_finished_by_time`),
    returning nothing when nothing is missing. Processes sweeping together keep each result once (the rows' key).
    `wall_clock` must be the time the store stamps a final move with (the real one), not the scheduler's clock.
    """

    def __init__(self, store: Store, *, batch: int = RESULTS_BATCH, slack: timedelta = CLOCK_SLACK,
                 wall_clock: Callable[[], datetime] = _wall_clock) -> None:
        self.store = store
        self.batch = batch
        self.slack = slack
        self.wall_clock = wall_clock
        self.since = ""
        """Where the next sweep starts looking (a `matches.updated_at` time); "": at every finished match."""
        self.unreadable: set[int] = set()  # matches whose game is not installed: logged once, not read again
        self._sweeping = asyncio.Lock()

    async def sweep(self) -> int:
        """Keep the results of the finished matches that have none; returns how many matches it filled in."""
        if self._sweeping.locked():  # two passes at once in this process: the other one sweeps
            return 0
        async with self._sweeping:
            began = self.wall_clock()
            filled, since, after = 0, self.since, 0
            while True:
                found = await self.store.finished_without_results(finished_since=since, after=after,
                                                                  limit=self.batch)
                readable = [match for match in found if match.match_id not in self.unreadable]
                kept = []
                for match, results in zip(readable, await asyncio.to_thread(_read, readable) if readable else [],
                                          strict=True):
                    if isinstance(results, Exception):
                        self.unreadable.add(match.match_id)
                        log.warning("Match %s (%s) keeps no result for /stats: %s", match.match_id, match.game,
                                    results)
                    else:
                        kept.append((match, results))
                await self.store.keep_results(kept)
                filled += len(kept)
                if len(found) < self.batch:
                    break
                since, after = found[-1].finished_at, found[-1].match_id
            self.since = (began - self.slack).isoformat(timespec="seconds")
        if filled:
            log.info("Kept the results of %d finished game(s) that had none (finished by an older bot process)",
                     filled)
        return filled
