"""The common parts of a game's public view, spelled once (issue 38 item 2).

A view is what a board is drawn from: a game's `view()` builds it, the platform adds the table's words to it, and
the game's drawing reads it. Each game describes its own view as a TypedDict extending `GameView`, so the keys
that every game has are spelled alike (`to_act` for whose turn, `over` for the end) and a misspelt key is a type
error. Stdlib only, like the rest of the core.

No `from __future__ import annotations` here nor in the games' view types: `NotRequired` must be seen when the
class is made, for `__required_keys__` and `__optional_keys__` to tell the keys apart at run time.
"""

from typing import Any, NotRequired, TypedDict


class TableView(TypedDict):
    """What the platform reads of any game's public view, and what it adds before the view is drawn.

    Only `title` is the game's for sure (the board's alt text names it); `turn` and `last_move` a game gives when it
    has them (a closed table's headline and a move's caption replace them); `language`, `marks` and `closed` the
    platform adds (bot/games/boards.py `public_view`)."""

    title: str
    turn: NotRequired[str]
    """The headline: whose turn it is or how the game ended, in words."""
    last_move: NotRequired[str]
    """The caption: the newest move, in words."""
    language: NotRequired[str]
    """The table's language ("en" or "de"), which the board is worded in."""
    marks: NotRequired[list[dict[str, Any]]]
    """The parts of the board a lesson's idea points at (rendering/parts.py)."""
    closed: NotRequired[bool]
    """The table closed before its game's end: `turn` says why."""


class GameView(TableView):
    """The parts every shipped game's view has, one spelling each."""

    game: str
    """The game's key."""
    mode: str
    """The mode's key (standard, solo, ...)."""
    log: list[str]
    """The latest moves, in words."""
    to_act: list[int]
    """The seats to move now: empty when the game is over or no seated player is to move (an Automation's turn)."""
    over: bool
    """Whether the game has ended (its outcome is then in the game's own keys)."""
