"""The shape of Expeditions' public view (rules/views.py and the game's `view` build it, drawing/ draws it): the
common parts as bot.core.GameView spells them, then the game's own. Kept apart from views.py so a render worker
imports the type without the rules."""

from typing import Any, NotRequired

from bot.core.views import GameView

JSON = dict[str, Any]


class ExpeditionsView(GameView):
    """The public view, worded in the table's language; for the seat to move, `you` adds their legal actions."""

    players: list[JSON]
    map: JSON
    """The spaces (each tile face up or down, the mech on it) and the basecamp's links and mechs."""
    face_up: list[JSON | None]
    deck_count: int
    discard: list[JSON]
    trash_count: int
    bag: JSON
    supply: JSON
    glory: list[JSON]
    current: Any
    """The seat to move, its phase and the actions it has left; None once over: Any because the drawing reads it
    behind `over`, which a TypedDict cannot tie it to."""
    pending: JSON | None
    """A decision the seat to move has parked (its prompt and options), None when there is none."""
    reachable: list[str]
    scores: dict[str, int]
    end: JSON
    turns_taken: int
    viewer: int | None
    you: NotRequired[JSON]
    outcome: NotRequired[JSON]
    """Once over: the scores by seat, the winners, the summary and the verdict."""
