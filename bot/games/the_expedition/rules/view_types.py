"""The shape of The Expedition's public view (rules/views.py builds it, drawing/ draws it): the common parts as
bot.core.GameView spells them, then the game's own. Kept apart from views.py so a render worker imports the type
without the rules."""

from typing import Any, NotRequired

from bot.core.views import GameView

JSON = dict[str, Any]


class ExpeditionView(GameView):
    """The public view (viewer None), or a seat's with its own hand (`hand`, `market_progress`) added."""

    mode_title: str
    phase: str
    """"placement", "play" or "over" (`over` says the last as a flag)."""
    words: JSON
    """The turn, last move and log as message JSON, which the drawing words in the table's language."""
    last_moves: list[JSON]
    current: str | None
    """The participant to move ("p0", "a1", ...), None once over."""
    order: list[str]
    grid: list[JSON]
    participants: list[JSON]
    markers_per_player: int
    expeditions_to_end: int
    end: Any
    """The end trigger once reached (who, why, final turns left), None before: Any because the drawing reads it
    behind the phase, which a TypedDict cannot tie it to."""
    legal_moves: list[JSON]
    empty_cells: list[int]
    viewer: int | None
    market: NotRequired[list[JSON]]
    draw_pile: NotRequired[int]
    round: NotRequired[int]
    rounds: NotRequired[int]
    result: NotRequired[JSON]
    hand: NotRequired[list[JSON]]
    market_progress: NotRequired[list[JSON]]
