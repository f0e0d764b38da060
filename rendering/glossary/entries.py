"""What a glossary is made of: entries (a pattern of drawn text per language and the catalogue id of what it
means) and, per game, the view keys whose strings are names or sentences (these explain themselves)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Entry:
    """One kind of label a board draws: `patterns` per table language (a regular expression a whole drawn text
    matches, spaces and no-break spaces alike), explained by the catalogue `message` (its id, `glossary.<game>.<what>`)
    in the reader's language. `inside` entries are codes also looked for inside sentences (a location's "9 C" in a
    story)."""

    message: str
    patterns: dict[str, str]
    inside: bool = False

    def pattern(self, language: str) -> re.Pattern[str]:
        return _compiled(self.patterns.get(language) or self.patterns["en"])


@dataclass(frozen=True)
class Part:
    """One part of the board that the labelled picture of /game rules numbers and names (`name`, a message id):
    the first drawn text an `entry` explains (its message id), the first text of a `role` (the headline, a name),
    the first text matching a `text` pattern, or the first `mark` of a kind (a token, a die, a planet)."""

    name: str
    kind: str
    target: str


@dataclass(frozen=True)
class Glossary:
    """One game's glossary: its entries, in the order a reader should meet them, and which strings of the board's
    view are names (cards, places, players) or sentences (the turn, the story, a location's rule)."""

    game: str
    entries: tuple[Entry, ...]
    name_keys: frozenset[str] = frozenset({"name", "names", "title", "mode_title"})
    prose_keys: frozenset[str] = frozenset({"turn", "last_move", "log", "rule"})
    extra_names: tuple[str, ...] = field(default=())
    worded: Callable[[Any], Mapping[str, Any]] | None = None
    """The view as the renderer words it in its table's language (names and sentences in that language). It takes
    the game's own view type, which rendering does not name (the games are above it)."""
    detail_entries: tuple[Entry, ...] = ()
    """The entries of what only the detail board (🔍 Details) draws."""
    detail_prose_keys: frozenset[str] = frozenset()
    """The view's keys whose strings the detail board draws as sentences (a card's condition, a choice's label)."""
    parts: tuple[Part, ...] = ()
    """The parts the labelled picture of /game rules numbers, in the order of its legend."""



_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(pattern)
    return compiled
