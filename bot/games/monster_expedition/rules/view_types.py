"""The shape of Monster Expedition's public view (rules/views.py builds it, drawing/ draws it): the common parts
as bot.core.GameView spells them, then the game's own. Kept apart from views.py so a render worker imports the
type without the rules."""

from typing import Any, NotRequired

from bot.core.views import GameView

JSON = dict[str, Any]


class MonsterView(GameView):
    """The public view (and, for a seat, `you`: their own cages and legal actions)."""

    phase: str
    active: int | None
    """The seat to move (None once over); `to_act` says the same as a list."""
    round: int
    words: dict[str, JSON]
    """The turn and the last move in the other languages than English, by language."""
    display: list[JSON]
    deck_size: int
    reserve_size: int
    last_round: bool
    dice_faces: dict[str, list[Any]]
    tray: JSON
    players: list[JSON]
    scores: list[JSON]
    result: Any
    """The standard game's result once over (winners, scores, ...), None before: Any because the drawing reads it
    behind `over`, which a TypedDict cannot tie it to."""
    ranking: NotRequired[list[int]]
    solo: Any
    """A solo expedition's goal and progress (None in a standard game): Any for the same reason as `result`."""
    you: NotRequired[JSON]
    localized: NotRequired[str]
    """The language the drawing has worded the view in already (drawing/common.py `localized`)."""
