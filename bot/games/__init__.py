"""Importing this package finds every game: the shipped ones (each subpackage here exports a `PACKAGE`), those
installed with pip (entry points) and those named in $EXPEDITION_TABLE_GAMES (bot/core/registry.py). Each game's
drawing module is handed to the renderers' table as it is found, its message catalogue domain to the catalogues
(bot.i18n) and its folder's vocabulary to the render workers' warm-up, so the platform names no game."""

from __future__ import annotations

import importlib
import pkgutil

import rendering
from bot.core.package import GamePackage
from bot.core.registry import load_installed, on_package, register_package
from bot.i18n import add_domain
from rendering import vocabulary


def _draw(package: GamePackage) -> None:
    rendering.use_drawing(package.key, package.drawing)


def _words(package: GamePackage) -> None:
    """Its catalogue domain to the catalogues, the words its boards draw to the render workers' warm-up."""
    if package.locales is not None and package.domain is not None:
        add_domain(package.locales, package.domain)
    if package.folder is not None:
        vocabulary.add_folder(package.folder)


def _find_all() -> None:
    on_package(_draw)
    on_package(_words)
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            package = getattr(importlib.import_module(f"{__name__}.{module.name}"), "PACKAGE", None)
            if isinstance(package, GamePackage):
                register_package(package)
    load_installed()


_find_all()
