"""The registry of games, looked up by key, title or alias ("expedition", "monster", "me"...)."""

from __future__ import annotations

from bot.core.errors import LobbyError
from bot.core.protocol import Game
from bot.i18n import said

_GAMES: dict[str, Game] = {}
_NAMES: dict[str, str] = {}


def _normalise(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def register(game: Game) -> Game:
    """Add a game; its key, title and aliases all find it. Registering the same key twice is a bug."""
    if game.key in _GAMES and _GAMES[game.key] is not game:
        raise ValueError(f"a game with key {game.key!r} is already registered")
    _GAMES[game.key] = game
    for name in (game.key, game.title, *game.aliases):
        _NAMES[_normalise(name)] = game.key
    return game


def find_game(name: str) -> Game:
    """The game called `name` (key, title or alias, any case); a LobbyError listing the games if none."""
    key = _NAMES.get(_normalise(name))
    if key is None:
        known = ", ".join(sorted(_GAMES))
        raise LobbyError("lobby.refuse.no_game", name=said(name), games=known)
    return _GAMES[key]


def all_games() -> list[Game]:
    """Every registered game, in key order."""
    return [_GAMES[key] for key in sorted(_GAMES)]
