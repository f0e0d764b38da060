"""What a game is to the platform: one descriptor per game package, found by the registry (bot/core/registry.py).

A game lives in one package: its rules (pure), its drawing (the renderer, its glossary), its slash command group
and its rules pages. The platform never names a game: it reads the descriptor. Module names are strings, so that
describing a game imports none of its drawing or Discord parts (the rules stay importable in a render worker)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.core.protocol import Game


@dataclass(frozen=True)
class GamePackage:
    """A game and where its parts are.

    - `group`: the English name of the game's slash command group ("mygame"); its name in every language is the
      catalogue message `command.<group>.name`.
    - `drawing`: the module that draws it: `render(view)`, `render_detail(view)`, `alt_text(view)`,
      `part_boxes(view, parts)`, `GLOSSARY`, optionally `warm_up()`; its colours join the boards' palette.
    - `commands`: the discord.py extension (a module with `setup(bot)`) with the slash group, or None.
    - `rules_pages`: the module with the /game rules pages (`PAGES`, `how_to_play`, `page_text`), or None.
    - `data`: the folder of its component data, or None (the shipped games read `data/<key>/`).
    - `locales`: the folder of its message catalogue domain (`<lang>/LC_MESSAGES/<domain>.po`, the template
      `<domain>.pot` beside the languages), or None; it sits in the package's folder (`<package>/locales`), whose
      name is the domain's (`domain`)."""

    game: Game
    group: str
    drawing: str
    commands: str | None = None
    rules_pages: str | None = None
    data: Path | None = None
    locales: Path | None = None

    @property
    def key(self) -> str:
        return self.game.key

    @property
    def folder(self) -> Path | None:
        """The package's folder, where its `locales` are: its catalogue domain and the words its boards draw
        (`vocabulary.txt`, `vocabulary-<language>.txt`) live there; None for a package without `locales`."""
        return None if self.locales is None else self.locales.parent

    @property
    def domain(self) -> str | None:
        """The name of its message catalogue domain: its package folder's ("my_game"), or None without one."""
        return None if self.folder is None else self.folder.name
