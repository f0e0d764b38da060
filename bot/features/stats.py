"""A player's record on a server, for /stats: games, wins, favourite game, best scores, ratings, solo progress."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot import workers
from bot.core import LobbyError, find_game
from bot.features import ratings
from bot.features.wording import game_title
from bot.i18n import translate
from bot.store import reading

if TYPE_CHECKING:
    from bot.service import GameService


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


@dataclass(frozen=True)
class Tally:
    """One game's finished matches of a player: how many, how many won, the best score."""

    played: int
    wins: int
    best: int | None


def tally_results(game_key: str, finished: list[tuple[str, int, str]]) -> Tally:
    """Count (game, seat, final state as JSON text) rows of one game: decoding hundreds of final states and scoring
    them took 87 ms at 800 games, so /stats does it in the worker process."""
    game = find_game(game_key)
    wins, best = 0, None
    for _, seat, state_json in finished:
        outcome = game.outcome(json.loads(state_json))
        if outcome is None:
            continue
        wins += seat in outcome.winners
        if seat in outcome.scores:
            best = outcome.scores[seat] if best is None else max(best, outcome.scores[seat])
    return Tally(len(finished), wins, best)


def tally_stored(location: str, guild_id: int, user_id: int, game_key: str) -> Tally:
    """`tally_results` of the player's matches of one game, read from the database at `location` (in the worker
    process: the event loop fetches none of the final states)."""
    return tally_results(game_key, reading.finished_states(location, guild_id, user_id, game_key))


async def player_stats(service: GameService, guild_id: int, user_id: int, language: str = "en") -> PlayerStats:
    """Counted from the finished games of this server in which the player held a seat (the newest thousand); the
    games' names and solo progress in the reader's `language`."""
    await ratings.rate_missed(service.store, guild_id)
    store, location = service.store, service.store.shared_location
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    best: dict[str, int] = {}
    for key in await store.finished_games(guild_id, user_id):  # each game's matches read and counted in the worker
        try:
            game = find_game(key)
        except LobbyError:  # a game no longer installed: its matches are not shown
            continue
        if location is None:  # an in-memory database: only this process can read it
            tally = await workers.run(game, tally_results, key, await store.finished_states(guild_id, user_id, key))
        else:
            tally = await workers.run(game, tally_stored, location, guild_id, user_id, key)
        played[key], wins[key] = tally.played, tally.wins
        if tally.best is not None:
            best[key] = tally.best
    per_game = []
    for key in sorted(played, key=lambda k: (-played[k], k)):
        rating = next(iter(await service.store.ratings(guild_id, key, [user_id])), None)
        per_game.append(GameRecord(game_title(find_game(key), language), played[key], wins[key], best.get(key),
                                   ratings.ordinal(rating.mu, rating.sigma) if rating else None,
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
    are rated but not among them."""
    await ratings.rate_missed(service.store, guild_id)
    rows = sorted(await service.store.ratings(guild_id, game_key),
                  key=lambda r: (-ratings.ordinal(r.mu, r.sigma), -r.games, r.user_id))
    shown = rows[:top] + [r for r in rows[top:] if r.user_id == asker]
    names = await service.store.seat_names(guild_id, [r.user_id for r in shown])
    someone = translate("rating.someone", language)
    ranked = [LeaderRow(place, r.user_id, names.get(r.user_id, someone), ratings.ordinal(r.mu, r.sigma), r.games)
              for place, r in enumerate(rows, start=1) if r in shown]
    return ranked[:top], ranked[top] if len(ranked) > top else None
