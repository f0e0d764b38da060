"""The pages of a game's /game rules, as its package declares them (bot/games/<pkg>/rules_pages.py): the
platform shows them as buttons (bot/features/rules.py) and words the pages every game shares."""

from __future__ import annotations

from dataclasses import dataclass

FIRST_PAGE = "how"
"""The one-screen how-to-play, shown first beside the labelled picture (the game's `how_to_play`)."""
MODES_PAGE = "modes"
"""The page the platform words itself: every mode of the game, with its players and summary."""


@dataclass(frozen=True)
class Page:
    """One page of a game's rules: its key (in the button's id), its button's title (a message id), whether the
    labelled picture goes with it, and the modes it belongs to (None: every mode)."""

    key: str
    title: str
    picture: bool = False
    modes: frozenset[str] | None = None
