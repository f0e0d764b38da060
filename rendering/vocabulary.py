"""The games' names (cards, monsters, locations), rasterised once when a render worker starts.

A word is rasterised the first time a board draws it in a given face (100-150 µs each), and the boards that draw
the most new words are the rarest and most looked at: the final board lists every player's cages or unscored cards
by name. The names come from the component data files (data/<game>/*.toml, read as text, never through the games'
code: renderers take views only), so a worker has them in its glyph cache before the first board.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rendering import kit

FACES = ((kit.SMALL, "regular"), (kit.SMALL, "semibold"), (20, "semibold"), (kit.BIG, "bold"))
"""The faces boards draw names in: lists and rules text, card names, player and location names."""
KEYS = frozenset({"name", "title"})


def data_root() -> Path:
    """The component data: $EXPEDITION_DATA, else the checkout's data/, else the installed copy (as the games
    find it)."""
    override = os.environ.get("EXPEDITION_DATA")
    if override:
        return Path(override)
    checkout = Path(__file__).resolve().parents[1] / "data"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "expedition-table" / "data"


def _names(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in KEYS and isinstance(item, str):
                yield item
            else:
                yield from _names(item)
    elif isinstance(value, list):
        for item in value:
            yield from _names(item)


def words(root: Path | None = None) -> set[str]:
    """Every word of every name and title in the data files (an unreadable file is skipped: this only warms)."""
    found: set[str] = set()
    for path in sorted((root or data_root()).glob("*/*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            continue
        for name in _names(data):
            found.update(word.strip(",.;:()") for word in name.split())
    found.discard("")
    return found


_COMMON_TEXT = """
Game over: wins wins! win share shares the The and to a an of from in on for with at its their is are it · + = —
turn turn. round round. Round final (final) last deck draw used up: this takes gets cage cages cages. Cages: VP
monster monsters Monsters: star stars Stars: pts pt winner level rises camp camp's reaches hunt: banked rolled
nothing yet left spend or done bank number roll again stop pick moved marked markers marker right down gains
power guile coins hand unscored: locations expeditions glory total (breaks ties) corruption upgrades refreshes
Move Play Gather any order cards card players player everyone else one more each next moves
"""
COMMON = frozenset(_COMMON_TEXT.split())
"""Words of the games' sentences and the boards' labels that come back in every match (the last move, the end)."""
NUMBERS = tuple(f"{prefix}{n}{suffix}" for n in range(100) for prefix, suffix in (("", ""), ("", ","), ("", "."),
                                                                                    ("$", ""), ("$", ".")))
HEADLINE = (30, "bold")


def warm_up(root: Path | None = None) -> int:
    """Rasterise and measure every name's words, the common words and the numbers in the faces boards draw them
    in; returns how many words."""
    vocabulary = sorted(words(root) | COMMON | set(NUMBERS))
    for size, weight in (*FACES, HEADLINE):
        face = kit.font(size, weight)
        for word in vocabulary if (size, weight) != HEADLINE else sorted(COMMON):
            for vertical in ("a", "m"):
                kit.warm_word(face, word, vertical)
    return len(vocabulary)
