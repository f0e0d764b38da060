"""Board images: pure functions from a game's public or private view to PNG bytes.

Each game has a module here named after its key (the-expedition -> rendering/the_expedition.py) exposing
`render(view: dict) -> bytes`. Renderers take views only: they never import the rules, the store or Discord.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

Renderer = Callable[[dict[str, Any]], bytes]


_REGISTERED: dict[str, Renderer] = {}


def register_renderer(game_key: str, renderer: Renderer) -> None:
    """Use `renderer` for `game_key` instead of the module named after it (for games defined outside this package)."""
    _REGISTERED[game_key] = renderer


def renderer_for(game_key: str) -> Renderer:
    """The render function for a game, imported on first use."""
    if game_key in _REGISTERED:
        return _REGISTERED[game_key]
    module = importlib.import_module(f"{__name__}.{game_key.replace('-', '_')}")
    return module.render  # type: ignore[no-any-return]


def render_board(game_key: str, view: dict[str, Any]) -> bytes:
    """Render a view of `game_key` to PNG bytes. Blocking: call it from a worker thread."""
    return renderer_for(game_key)(view)
