"""Text the board fonts can draw: a character no font has (one no Noto font covers either: a private-use
character, a brand-new emoji) is left out of the picture instead of being drawn as an empty box, and a name left with
nothing is drawn as "?". Every other character is drawn, by the Latin font or a fallback (rendering/fonts.py).
Messages keep every character: Discord draws them itself."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from bot.i18n import is_marked, unmarked
from rendering.fonts import drawable_character, joins, latin_characters

_SPACES = re.compile(r"[ \t]{2,}")


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """`text` without the characters no board font can draw ("Alice \U000f0000" -> "Alice"); "?" for a name of
    nothing but such characters."""
    if latin_characters().issuperset(text):
        return text
    kept = "".join(ch for ch in text if ch in "\n\t" or drawable_character(ch))
    if kept == text:
        return text
    cleaned = "\n".join(_SPACES.sub(" ", line).strip() for line in kept.split("\n"))
    visible = any(not ch.isspace() and not joins(ch) for ch in cleaned)
    return cleaned if visible or not text.strip() else "?"


def drawable_view(value: Any) -> Any:
    """A view with every string value as a board draws it (keys are the game's own identifiers), in one walk: the
    marks around what people wrote taken out (bot/i18n/marks.py: each name on one line) and the characters no font
    has left out.

    Almost every view is drawable already: its strings are ASCII (which Python knows of a string without reading
    it) or hold only characters the fonts have and no marks, and the view is used as it is."""
    unusual: list[str] = []
    _non_ascii(value, unusual)
    if not unusual or (not any(is_marked(text) for text in unusual)
                       and all(drawable_character(ch) for ch in set("".join(unusual)))):
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
        return drawable(unmarked(value))
    if isinstance(value, dict):
        return {key: _drawable_view(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_drawable_view(item) for item in value]
    return value
