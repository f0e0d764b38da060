"""Ratings per server and game, from openskill's Plackett-Luce model (not a hand-written formula).

A finished game is rated once: `rate_finished` marks it in the same transaction that writes the new ratings
(bot/store/records_store.py), and `rate_missed` sweeps finished games a crash left unmarked. Games with a computer
player, a chosen seed (a replayed deal could be practised) or fewer than two people are marked unrated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from openskill.models import PlackettLuce

from bot.core import Outcome, find_game
from bot.core.seats import is_bot
from bot.store import MatchRecord, NewRating, Rating, Store

MODEL = PlackettLuce()
"""openskill's default model and parameters (mu 25, sigma 25/3); a player's shown rating is mu - 3 sigma."""


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown on leaderboards: openskill's ordinal (mu - 3 sigma)."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def unrated_reason(match: MatchRecord) -> str | None:
    """Why a finished match does not count for ratings, or None when it does."""
    if match.lesson:
        return "a lesson"
    if any(is_bot(seat.user_id) for seat in match.seats):
        return "a computer player took part"
    if match.seed_chosen:
        return "the seed was chosen"
    if len(match.seats) < 2:
        return "a solo game"
    return None


def ranks_of(outcome: Outcome, seats: Sequence[int]) -> list[int]:
    """openskill ranks (1 is best, ties share a rank): winners first, then the others by score."""
    def key(seat: int) -> tuple[bool, int]:
        return seat in outcome.winners, outcome.scores.get(seat, 0)

    ordered = sorted({key(seat) for seat in seats}, reverse=True)
    return [ordered.index(key(seat)) + 1 for seat in seats]


@dataclass(frozen=True)
class RatedPlayer:
    user_id: int
    rank: int


def new_ratings(players: Sequence[RatedPlayer], current: dict[int, Rating]) -> dict[int, NewRating]:
    """One openskill update: each player a team of one, ranked; unrated players start at the model's default. Each
    new rating carries its ordinal, which the store keeps in the row for the leaderboard's index."""
    teams = []
    for player in players:
        known = current.get(player.user_id)
        rating = MODEL.rating(mu=known.mu, sigma=known.sigma) if known else MODEL.rating()
        teams.append([rating])
    rated = MODEL.rate(teams, ranks=[player.rank for player in players])
    return {player.user_id: NewRating(float(team[0].mu), float(team[0].sigma), float(team[0].ordinal()))
            for player, team in zip(players, rated, strict=True)}


async def rate_finished(store: Store, match: MatchRecord) -> bool:
    """Rate (or mark unrated) one finished match, exactly once; True if this call did it."""
    if match.status != "finished" or match.state is None:
        return False
    game = find_game(match.game)
    outcome = game.outcome(match.state)
    reason = unrated_reason(match) or (None if outcome is not None else "no result")
    user_ids = [seat.user_id for seat in match.seats]
    if reason is not None or outcome is None:
        return await store.rate_match(match.id, match.guild_id, match.game, user_ids, None, reason or "unrated")
    ranks = ranks_of(outcome, [seat.seat for seat in match.seats])
    players = [RatedPlayer(seat.user_id, rank) for seat, rank in zip(match.seats, ranks, strict=True)]
    return await store.rate_match(match.id, match.guild_id, match.game, user_ids,
                                  lambda current: new_ratings(players, current), "rated")


async def rate_missed(store: Store, guild_id: int | None = None, *, finished_since: str = "") -> int:
    """Rate the finished matches (of a server, or of all) that were never marked (a crash after the final move),
    those finished at `finished_since` or later; returns how many."""
    done = 0
    for match_id in await store.unrated_matches(guild_id, finished_since=finished_since):
        match = await store.match(match_id)
        if match is not None and await rate_finished(store, match):
            done += 1
    return done


CLOCK_SLACK = timedelta(minutes=10)
"""How far before the previous sweep's start the next one looks (another process's clock may run behind)."""


class RatingsKeeper:
    """Rates what a crash left unrated, as a chore of every scheduler pass (bot/app.py registers it), so /stats and
    /leaderboard sweep nothing on the way: they once looked at every finished match of the server on every request.

    A process's first sweep (its first pass, at start) looks at every finished match, the later ones only at those
    finished since shortly before the previous sweep began (one query on `matches_finished_by_time`)."""

    def __init__(self, store: Store, *, slack: timedelta = CLOCK_SLACK,
                 wall_clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.store = store
        self.slack = slack
        self.wall_clock = wall_clock
        self.since = ""  # where the next sweep starts looking (a `matches.updated_at` time); "": everything

    async def sweep(self) -> int:
        """Rate the finished matches left unmarked since the last sweep; returns how many."""
        began = self.wall_clock()
        done = await rate_missed(self.store, finished_since=self.since)
        self.since = (began - self.slack).isoformat(timespec="seconds")
        return done
