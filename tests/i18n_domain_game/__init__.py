"""A game package from outside bot.games with a message catalogue domain of its own (`locales/`, domain
`i18n_domain_game`): tests/test_i18n_catalogues.py loads it in a process of its own and reads its words through
`translate`, in that process and in a spawned render worker. It is a game in name only: a key, a title and a
drawing, all the registry and the render pool ask of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bot.core import GamePackage


@dataclass(frozen=True)
class Sign:
    """The registry's part of a game (key, title, aliases): all this package needs to be found."""

    key: str = "i18n-domain-game"
    title: str = "Sign"
    aliases: tuple[str, ...] = field(default=())


PACKAGE = GamePackage(
    game=Sign(),  # type: ignore[arg-type]  (a game in name only: nothing here plays it)
    group="sign",
    drawing="tests.i18n_domain_game.drawing",
    locales=Path(__file__).parent / "locales",
)
