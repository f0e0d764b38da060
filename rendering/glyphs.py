"""Text the board fonts can draw: a character the shipped fonts lack (an emoji in a display name, the 🤖 badge of
a computer player) is left out of the picture instead of being drawn as an empty box. Messages keep every character:
Discord draws emoji itself."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from fontTools.ttLib import TTFont

from rendering.kit import font_paths

_SPACES = re.compile(r"[ \t]{2,}")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_INVISIBLE = {0x200D, 0xFE0E, 0xFE0F}  # zero-width joiner and emoji/text variation selectors


@lru_cache(maxsize=1)
def _drawable_codepoints() -> frozenset[int]:
    """The characters every shipped weight can draw (read once per process from the fonts' cmaps)."""
    sets = []
    for path in font_paths():
        with TTFont(path, lazy=True) as face:
            sets.append(frozenset(face.getBestCmap()))
    return frozenset.intersection(*sets) if sets else frozenset(range(0x20, 0x7F))


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """`text` without the characters the board fonts cannot draw ("🤖 Bot 2 (hard)" -> "Bot 2 (hard)")."""
    codepoints = _drawable_codepoints()
    kept = "".join(ch for ch in text if ch in "\n\t" or (ord(ch) in codepoints and ord(ch) not in _INVISIBLE))
    if kept == text:
        return text
    cleaned = "\n".join(_SPACES.sub(" ", line).strip() for line in kept.split("\n"))
    return cleaned if cleaned.strip() or not text.strip() else "?"


@lru_cache(maxsize=1)
def _drawable_characters() -> frozenset[str]:
    return frozenset(chr(c) for c in _drawable_codepoints() if c not in _INVISIBLE) | {"\n", "\t"}


def drawable_view(value: Any) -> Any:
    """A view with every string value made drawable (keys are the game's own identifiers).

    Almost every view is drawable already: one look at its JSON text says so, and the view is used as it is."""
    try:
        text = json.dumps(value, ensure_ascii=False, check_circular=False)
    except (TypeError, ValueError, RecursionError):
        return _drawable_view(value)
    if text.isascii() or _drawable_characters().issuperset(_NON_ASCII.findall(text)):
        return value  # (printable ASCII is drawable; JSON escapes control characters)
    return _drawable_view(value)


def _drawable_view(value: Any) -> Any:
    if isinstance(value, str):
        return drawable(value)
    if isinstance(value, dict):
        return {key: _drawable_view(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_drawable_view(item) for item in value]
    return value
