"""What the service hands its callers and its features: a board with its controls, a move accepted, the
shapes of the hooks features register, and the limits the service keeps to."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core import (
    JSON,
    Game,
    Offered,
    Outcome,
    RuleError,
    package_of,
)
from bot.core.lessons import LESSON_FINISHED
from bot.core.seats import is_bot
from bot.i18n import (
    Text,
    deferred_plural,
    message_ids,
    said,
    translate,
)
from bot.store import DM_GUILD as DM_GUILD  # for the cogs: a table in the bot's DM belongs to no server
from bot.store import MatchRecord
from bot.store import StoreDamaged as StoreDamaged  # for the cogs, which never import the store
from bot.store import StoreUnavailable as StoreUnavailable  # for the cogs, which never import the store
from bot.store import storage_full as storage_full
from bot.workers import WorkerBusy as WorkerBusy  # for the cogs (a refused image on demand)

log = logging.getLogger(__name__)

Renderer = Callable[[str, dict[str, Any]], bytes]
MoveHook = Callable[[MatchRecord], Awaitable[MatchRecord]]
"""Runs after a committed move, under the channel's lock: may commit more moves (the computer players' turns) and
returns the match as it then is."""
GameEndHook = Callable[[MatchRecord], Awaitable[object]]
"""Runs once a move has finished the game (committed; a failure is logged, never undoes the move)."""
CLOSING_KINDS = ("abandoned", LESSON_FINISHED)
"""The events that close a table without a move: a board's story is the moves before them (its last line says
how the table closed)."""
BoardMarksHook = Callable[[MatchRecord], Awaitable[list[JSON]]]
"""The parts of a match's public board to mark (`{"part", "seat", "badge"}`: rendering/parts.py), drawn on it."""


@dataclass(frozen=True)
class BoardChoice:
    """The choice a board puts to the seat to move, handed to the board-note hooks: the seat, the state as the
    channel is told it, and what the board offers (its buttons and menu, as shown)."""

    seat: int
    state: JSON
    offered: Offered


BoardNoteHook = Callable[[MatchRecord, BoardChoice | None], Awaitable[str | None]]
"""Words a feature adds to a match's public board (a lesson's ideas, a teaching table's choice in plain words), in
the table's language, or None. The choice is None on a board that asks nobody (a lobby, the final board)."""


NO_HOST = 0
"""The host_id of a match no person hosts (its host left a lobby to computer players alone): the first person to
join hosts it; until then only the channel's managers may close it."""


def next_host(match: MatchRecord, leaving_id: int) -> int:
    """Who gets the host's powers when the host leaves their seat (a lobby left, a seat handed to a computer
    player): the next person seated after the host's seat, in seat order and round the table; NO_HOST when no
    person is left (the channel's managers only)."""
    order = sorted(match.seats, key=lambda seat: seat.seat)
    start = next((index for index, seat in enumerate(order) if seat.user_id == leaving_id), -1)
    for step in range(1, len(order) + 1):
        seat = order[(start + step) % len(order)]
        if seat.user_id != leaving_id and not is_bot(seat.user_id):
            return seat.user_id
    return NO_HOST


def host_passed_text(match: MatchRecord, host_id: int, language: str) -> str:
    """ "Bob now has the host's powers." (or: the channel's managers only), said at the table."""
    if host_id == NO_HOST:
        return translate("lobby.host_passed_managers", language)
    seat = match.seat_of(host_id)
    record = match.user_at(seat) if seat is not None else None
    return translate("lobby.host_passed", language, name=said(record.name) if record is not None else "?")


class InvalidControl(RuleError):
    """A button or menu whose id names nothing this channel offers (tampered, copied or from another channel)."""

    def __init__(self) -> None:
        super().__init__(Text.of("error.control_invalid"))


ROW_BUTTONS = 5  # Discord's most per row, and what a phone shows side by side
MENU_ROW, MINE_ROW = 3, 4  # the select menu's row, and the row of "Show mine" and "Details"


def button_rows(wanted: list[int | None], rows: int) -> list[int]:
    """The row of each button: the row the game asked for (or the first) unless it holds five already, then the
    next with room, within the first `rows` rows (a phone shows five side by side; the menu and "Show mine" keep
    the rows below). The game's order and grouping stay; a button with no room left goes in the last row."""
    used = [0] * rows
    out = []
    for row in wanted:
        row = min(max(row or 0, 0), rows - 1)
        while row < rows - 1 and used[row] >= ROW_BUTTONS:
            row += 1
        used[row] += 1
        out.append(row)
    return out


OFFERS_KEPT = 512  # boards whose offers a process keeps, so a press finds its action without making them anew
# Seeds and game numbers are command options: Discord's integers stop at 2^53 - 1 (a max_value above that makes it
# refuse the whole command registration), and they are stored as SQL integers and shown to players.
MAX_SEED = 2**53 - 1
LOG_LIMIT = 500  # the most moves /game log returns at once
FORCED_MOST = 12  # the most steps a move may make for its player (each with one legal choice)

def game_command(game_key: str) -> Text | None:
    """The game's slash command group (its package's `group`), named when a command of another game is used in a
    channel and in the list of games, as the reader's Discord shows it ("/jagd" in German); None: it has none."""
    package = package_of(game_key)
    if package is None or package.commands is None:
        return None
    worded = f"command.{package.group}.name"  # (a game whose catalogue does not name its group: its English name)
    return Text.of("table.command", name=Text.of(worded) if worded in message_ids("en") else package.group)


@dataclass(frozen=True)
class Player:
    """Someone at the table, as Discord knows them."""

    user_id: int
    name: str


@dataclass(frozen=True)
class BoardButton:
    """A quick action bound to the board version it was offered on."""

    label: str
    match_id: int
    version: int
    seat: int
    index: int
    emoji: str | None
    style: str
    row: int | None


@dataclass(frozen=True)
class BoardMenu:
    """A select menu of actions bound to the board version it was offered on."""

    placeholder: str
    labels: tuple[tuple[str, str | None], ...]  # (label, emoji) by option index
    match_id: int
    version: int
    seat: int
    descriptions: tuple[str | None, ...] = ()  # each option's second line, by option index


@dataclass(frozen=True)
class Board:
    """What to post publicly after a change: a line of text, the image and the buttons."""

    match: MatchRecord
    headline: str
    turn: str
    image: bytes | None
    buttons: list[BoardButton] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)
    outcome: Outcome | None = None
    menu: BoardMenu | None = None
    alt_text: str = ""
    to_move: tuple[str, ...] = ()  # the names of the players to move (shown when they are not pinged)
    note: str = ""  # what features add under the board (a lesson's ideas: bot/features/lessons.py)

    @property
    def finished(self) -> bool:
        return self.match.status in ("finished", "abandoned")


@dataclass(frozen=True)
class Accepted:
    """An action that was applied and committed; render its board with `GameService.board`.

    `new_board` says whether the channel needs a new board message: the seats to move changed (the turn passed,
    or another player must answer something) or the game ended. Otherwise the same player goes on, and the
    current board message is updated in place.
    """

    match: MatchRecord
    headline: str
    new_board: bool = True
    move: str = ""
    """The move in words as the board offered it ("Skip (choose a face-up card to gain)"), for the mover's private
    acknowledgement when the move changed nothing worth telling the channel (an empty headline)."""

    @property
    def acknowledgement(self) -> str:
        """The private line for the mover, in English (see `acknowledgement_in`)."""
        return self.acknowledgement_in("en")

    def acknowledgement_in(self, locale: object) -> str:
        """The private line for the mover in their language: what happened (told in the table's language, as the
        channel reads it), or else what they chose."""
        if self.headline:
            return self.headline
        if self.move:
            return translate("table.you_chose", locale, move=self.move)
        return translate("table.move_changes_nothing", locale)


@dataclass(frozen=True)
class Seen:
    """A read-only look at a channel's match for one user (for autocomplete and private views)."""

    match: MatchRecord
    game: Game
    state: JSON | None
    seat: int | None


IMAGES_AT_ONCE = 1
"""How many images asked for on demand (`Lane.ON_DEMAND` of `GameService.renders`) the render workers draw at a
time: their other places stay for the boards of moves."""
IMAGES_BUSY = deferred_plural("workers.busy.image")
"""The refusal of an image asked for while the member holds their share of the render workers."""
LONG_READS = 1
"""How many reads that count many rows (`GameService.long_reads`) one process makes at a time."""


