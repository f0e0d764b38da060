"""A game's public board view, made where the board is drawn.

The render pool calls `public_view` in its worker process (rendering/pool.py `RenderPool.render_made`), so the event
loop only sends the state: making a view took ~0.6-1 ms of the loop's ~2.5 ms a move, paid by every other channel of
the shard (issue 25's loop lag). Importing this module registers the shipped games (the package does), which a
freshly spawned worker needs to find them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import JSON, all_games, find_game
from bot.i18n import unmarked


def public_view(game_key: str, state: JSON, language: str, last_move: str | None = None,
                marks: Sequence[JSON] = (), closed: str | None = None) -> JSON:
    """What everyone may see of `state` (no hands, cages or deck order), worded for a table in `language`, its
    caption `last_move` when given (the message's story names the newest move; the board never tells it otherwise),
    the parts a lesson's idea on this board points at, to mark (`marks`: rendering/parts.py), and for a table
    closed before its game's end (a lesson that taught enough) the words its headline says instead of the turn."""
    view = {**find_game(game_key).view(state, None), "language": language}
    if marks:
        view["marks"] = [dict(mark) for mark in marks]
    if closed:
        view.update(turn=closed, closed=True)
    return drawable({**view, "last_move": last_move} if last_move else view)


def drawable(view: JSON) -> JSON:
    """A view as an image shows it: every text without the marks around what people wrote (bot/i18n/marks.py),
    each name on one line."""
    return _drawable(view)  # type: ignore[no-any-return]


def _drawable(value: object) -> object:
    if isinstance(value, str):
        return unmarked(value)
    if isinstance(value, dict):
        return {key: _drawable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_drawable(item) for item in value]
    return value


def warm_up() -> None:
    """Load every game's data and words in a render worker at its start (`RenderPool(prepare=...)`), so that the
    first board of each game does not."""
    for game in all_games():
        game.warm_up()
