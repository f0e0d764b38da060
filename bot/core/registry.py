"""The registry of games, looked up by key, title or alias ("expedition", "monster", "me"...).

Games arrive as packages (`GamePackage`, bot/core/package.py) found three ways, the same in every process (a
render worker spawned later finds the same games): the subpackages of bot.games, the entry points of the group
`expedition_table.games` (a game installed with pip), and the modules named in $EXPEDITION_TABLE_GAMES (a
comma-separated list; the test suite's own game). Each exports `PACKAGE`. A bare `Game` may also be registered
at runtime (`register`), known to this process only."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points

from bot.core.errors import LobbyError
from bot.core.package import GamePackage
from bot.core.protocol import Game
from bot.i18n import said

GAMES_ENV = "EXPEDITION_TABLE_GAMES"
"""Modules (comma-separated) exporting a `PACKAGE` to load beside the shipped games and the installed ones."""
ENTRY_POINT_GROUP = "expedition_table.games"
"""The entry-point group of installed games: each entry names a module exporting `PACKAGE` (or the package)."""

_GAMES: dict[str, Game] = {}
_NAMES: dict[str, str] = {}
_PACKAGES: dict[str, GamePackage] = {}
_ON_PACKAGE: list[Callable[[GamePackage], None]] = []


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


def register_package(package: GamePackage) -> GamePackage:
    """Add a game package: its game, and its parts for whoever listens (`on_package`: the drawing's table)."""
    if _PACKAGES.get(package.key) not in (None, package):
        raise ValueError(f"a game package with key {package.key!r} is already registered")
    register(package.game)
    if package.key not in _PACKAGES:
        _PACKAGES[package.key] = package
        for listener in _ON_PACKAGE:
            listener(package)
    return package


def on_package(listener: Callable[[GamePackage], None]) -> None:
    """Call `listener` with every game package registered, those before now included (a layer that keeps a table
    of its own, such as the drawings', fills it this way without the registry knowing it)."""
    _ON_PACKAGE.append(listener)
    for package in list(_PACKAGES.values()):
        listener(package)


def load_package(module_name: str) -> GamePackage:
    """Import `module_name` and register the `PACKAGE` it exports."""
    module = importlib.import_module(module_name)
    package = getattr(module, "PACKAGE", None)
    if not isinstance(package, GamePackage):
        raise TypeError(f"{module_name} exports no PACKAGE (a bot.core.GamePackage)")
    return register_package(package)


def _named_in_environment() -> Iterator[str]:
    for name in os.environ.get(GAMES_ENV, "").split(","):
        if name.strip():
            yield name.strip()


def load_installed() -> None:
    """Register the games installed with pip (entry points) and those named in $EXPEDITION_TABLE_GAMES."""
    for point in entry_points(group=ENTRY_POINT_GROUP):
        loaded = point.load()
        package = loaded if isinstance(loaded, GamePackage) else getattr(loaded, "PACKAGE", None)
        if not isinstance(package, GamePackage):
            raise TypeError(f"entry point {point.name!r} ({point.value}) gives no GamePackage")
        register_package(package)
    for module_name in _named_in_environment():
        load_package(module_name)


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


def package_of(game_key: str) -> GamePackage | None:
    """The package a game came in, or None for a game registered on its own at runtime."""
    return _PACKAGES.get(game_key)


def all_packages() -> list[GamePackage]:
    """Every registered game package, in key order."""
    return [_PACKAGES[key] for key in sorted(_PACKAGES)]


def package_for_group(group: str) -> GamePackage | None:
    """The package whose slash command group is called `group` (its English name), or None."""
    return next((package for package in _PACKAGES.values() if package.group == group), None)


def is_found(game_key: str) -> bool:
    """Whether the game came as a package found by discovery, so every process (a spawned worker too) has it."""
    return game_key in _PACKAGES
