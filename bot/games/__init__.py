"""Importing this package registers every game: each subpackage exposes GAME, found here by name."""

from __future__ import annotations

import importlib
import pkgutil

from bot.core.registry import register


def _register_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            package = importlib.import_module(f"{__name__}.{module.name}")
            game = getattr(package, "GAME", None)
            if game is not None:
                register(game)


_register_all()
