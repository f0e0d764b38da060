"""A player's record on a server, for /stats: games, wins, favourite game, best scores, ratings, solo progress."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.core import LobbyError, find_game
from bot.features import ratings
from bot.features.wording import game_title
from bot.i18n import translate

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


async def player_stats(service: GameService, guild_id: int, user_id: int, language: str = "en") -> PlayerStats:
    """Counted from the results kept of the finished games of this server in which the player held a seat (the
    newest thousand); the games' names and solo progress in the reader's `language`."""
    await ratings.rate_missed(service.store, guild_id)
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    best: dict[str, int] = {}
    for results in await service.store.player_results(guild_id, user_id):  # one indexed query, no state decoded
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
