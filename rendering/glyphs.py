"""Text the board fonts can draw: a character the shipped fonts lack (an emoji in a display name, the 🤖 badge of
a computer player) is left out of the picture instead of being drawn as an empty box. Messages keep every character:
Discord draws emoji itself."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from fontTools.ttLib import TTFont

from rendering.typeset import font_paths

_SPACES = re.compile(r"[ \t]{2,}")
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

    Almost every view is drawable already: its strings are ASCII (which Python knows of a string without reading
    it) or hold only characters the fonts have, and the view is used as it is."""
    unusual: list[str] = []
    _non_ascii(value, unusual)
    if not unusual or _drawable_characters().issuperset("".join(unusual)):
        return value
    return _drawable_view(value)


_CONTAINERS = frozenset({dict, list, tuple})
_PLAIN = frozenset({int, float, bool, type(None)})


def _non_ascii(value: Any, found: list[str]) -> None:
    """Every string in `value` (dict values, list and tuple items, at any depth) with a character past ASCII."""
    if isinstance(value, str):
        if not value.isascii():
            found.append(value)
        return
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list | tuple) else ()
    for item in items:
        kind = type(item)
        if kind is str:
            if not item.isascii():
                found.append(item)
        elif kind in _CONTAINERS:
            _non_ascii(item, found)
        elif kind not in _PLAIN:
            _non_ascii(item, found)  # (a subclass of str, dict, list or tuple; anything else holds no text)


def _drawable_view(value: Any) -> Any:
    if isinstance(value, str):
        return drawable(value)
    if isinstance(value, dict):
        return {key: _drawable_view(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_drawable_view(item) for item in value]
    return value
