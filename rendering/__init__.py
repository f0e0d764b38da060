"""Board images: pure functions from a game's public or private view to PNG bytes, and the board in words.

Each game's package has a drawing module (named in its `GamePackage`, given here by `use_drawing`) exposing
`render(view) -> bytes` (the public board, landscape, one pixel size per match, legible 400 points wide),
`render_detail(view) -> bytes` (the full-size board shown privately on demand) and `alt_text(view) -> str`.
Renderers take views only: they never import the rules, the store or Discord.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from bot.i18n import unmarked
from rendering.caches import LruCache
from rendering.glyphs import drawable_view
from rendering.typeset import hyphenating

Renderer = Callable[[dict[str, Any]], bytes]


_REGISTERED: dict[str, Renderer] = {}
_DRAWINGS: dict[str, str] = {}


def use_drawing(game_key: str, module_name: str) -> None:
    """Draw `game_key` with the module `module_name` (a game package's drawing: `render`, `render_detail`,
    `alt_text`, `part_boxes`, `GLOSSARY`). The platform calls it for every game package it finds, in every process,
    so a render worker draws the same games as the bot."""
    _DRAWINGS[game_key] = module_name


def drawn_games() -> tuple[str, ...]:
    """The keys of the games with a drawing module, in the order they were found."""
    return tuple(_DRAWINGS)


def drawing_modules() -> tuple[str, ...]:
    """The drawing modules of every game found (the palette's colours and the caches are theirs too)."""
    return tuple(_DRAWINGS.values())


def register_renderer(game_key: str, renderer: Renderer) -> None:
    """Use `renderer` for `game_key` instead of a drawing module (for a game registered at runtime, in one process).

    A renderer registered at runtime is unknown to the render pool's worker processes, so the pool draws it in a
    thread instead."""
    _REGISTERED[game_key] = renderer


def is_registered(game_key: str) -> bool:
    """Whether `game_key` was registered at runtime (rather than drawn by a game package's drawing module)."""
    return game_key in _REGISTERED


def has_drawing(game_key: str) -> bool:
    """Whether a game package's drawing module draws `game_key` (every render worker has it too)."""
    return game_key in _DRAWINGS


def drawing(game_key: str) -> ModuleType:
    """The drawing module of a game, imported on first use."""
    try:
        return importlib.import_module(_DRAWINGS[game_key])
    except KeyError:
        raise KeyError(f"no drawing for the game {game_key!r}: its package was not found (import bot.games)") from None


def load_renderers(game_keys: Iterable[str]) -> None:
    """Import these games' renderers now (a bot process's start does: it words their alt text; an import takes
    ~20 ms, which the first board would otherwise wait on, on the event loop)."""
    for game_key in game_keys:
        if game_key not in _REGISTERED:
            drawing(game_key)


def renderer_for(game_key: str) -> Renderer:
    """The public render function for a game, imported on first use."""
    if game_key in _REGISTERED:
        return _REGISTERED[game_key]
    return drawing(game_key).render


def render_board(game_key: str, view: dict[str, Any]) -> bytes:
    """The public board of `game_key` as PNG bytes. Blocking: call it through the render pool."""
    with hyphenating(str(view.get("language") or "en")):  # (a long word breaks by its table's language)
        return renderer_for(game_key)(drawable_view(view))


def render_detail(game_key: str, view: dict[str, Any]) -> bytes:
    """The full-size detail board (what the public board leaves out), shown privately on demand. Blocking."""
    view = drawable_view(view)
    with hyphenating(str(view.get("language") or "en")):
        if game_key in _REGISTERED:
            return _REGISTERED[game_key](view)
        return drawing(game_key).render_detail(view)


def alt_text(game_key: str, view: dict[str, Any]) -> str:
    """The board's state in words for the attachment's description (at most 1000 characters, public facts only),
    every character kept (Discord draws them) and the marks around what people wrote taken out."""
    if game_key not in _REGISTERED:
        return unmarked(str(drawing(game_key).alt_text(view))[:1000])
    title = str(view.get("title") or game_key)
    turn = str(view.get("turn") or view.get("last_move") or "")
    return unmarked(f"{title}: {turn}".strip(": ")[:1000])


KIT_MODULES = ("style", "recorder", "encoding", "fonts", "typeset", "canvas", "memory", "pieces", "bands", "parts")
"""The modules of the drawing kit (rendering/kit.py gathers their public names)."""

KEPT_CACHES = frozenset({"font", "_font", "latin_characters", "_installed", "_coverage", "fallback_face",
                         "hyphenators", "board_palette"})
"""What a render worker loads once and never drops: the font faces (the fallback fonts' only when a name needs
them), the characters they draw, the hyphenation patterns and the boards' palette."""
OWN_CACHES = ("rendering.canvas.INKS", "rendering.canvas.SPARES", "rendering.png.SPARE_ROWS")
"""Kept things that are neither lru caches nor `LruCache`s (which `clear_caches` finds by themselves): the inks, the
recycled canvases and the PNG encoder's spare row images."""


def clear_caches() -> None:
    """Every rendering cache empty but the fonts, as in a freshly started worker before its warm-up (benchmarks and
    tests start from here)."""
    kit = [f"{__name__}.{name}" for name in (*KIT_MODULES, "glyphs", "wording", "png")]
    drawings = [name for name in sys.modules if name.startswith(tuple(drawing_modules()))]
    for name in (*kit, *drawings):
        module = importlib.import_module(name)
        for attribute, kept in vars(module).items():
            if hasattr(kept, "cache_clear") and attribute not in KEPT_CACHES:
                kept.cache_clear()
            elif isinstance(kept, LruCache):  # (the renderers' byte-bounded caches, the PNG encoder's bands)
                kept.clear()
    for cache in OWN_CACHES:
        module_name, _, attribute = cache.rpartition(".")
        getattr(importlib.import_module(module_name), attribute).clear()
