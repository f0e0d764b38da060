"""A member's own play across servers (issue 34): the games they sit in, theirs to move first (/games).

Everything here reads through the service's store; the Discord side (the private list, its menu, the command's
install types and contexts) is cogs/personal.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.core import find_game
from bot.core.seats import is_bot
from bot.features.community import REMIND, TIMER
from bot.store import MatchRecord, MemberResult

if TYPE_CHECKING:
    from bot.service import GameService

ROWS = 25
"""The most games one list shows: Discord's limit of options in the menu that jumps to one."""
STORY_EVENTS = 40  # how far back the log is read for when a turn began, when no pending work says it


@dataclass(frozen=True)
class GameRow:
    """One game of a member's list: where it is, whose turn and since when, and its deadline."""

    match: MatchRecord
    yours: bool  # the member is (one of those) to move
    to_move: tuple[str, ...]  # the names of those to move
    since: int | None  # when the turn began (epoch seconds)
    deadline: int | None  # when the turn's timer runs out (epoch seconds), None without one
    board_message_id: int | None
    result: MemberResult | None = None  # a finished game: how the member did

    def jump_url(self) -> str | None:
        """The link straight to the match's current board message (None when none was posted)."""
        if self.board_message_id is None:
            return None
        return (f"https://discord.com/channels/{self.match.guild_id}/{self.match.channel_id}/"
                f"{self.board_message_id}")


@dataclass(frozen=True)
class GameList:
    """The rows shown (at most ROWS) and how many more there are."""

    rows: tuple[GameRow, ...]
    more: int = 0


def _to_move(match: MatchRecord) -> list[int]:
    if match.state is None:
        return []
    return list(find_game(match.game).to_act(match.state))


async def my_games(service: GameService, user_id: int) -> GameList:
    """Every game under way the member sits in, on every server: theirs to move first, then the rest; each group the
    longest waiting first."""
    store = service.store
    matches = [match for match in await store.member_matches(user_id) if match.state is not None]
    ids = [match.id for match in matches]
    boards = await store.board_messages(ids)
    work = await store.pending_work_of(ids, (REMIND, TIMER))
    rows = []
    for match in matches:
        seats = _to_move(match)
        mine = match.seat_of(user_id)
        names = tuple(record.name for seat in seats if (record := match.user_at(seat)) is not None)
        own = [item for item in work if item.match_id == match.id]
        since = min((int(item.payload["since"]) for item in own if "since" in item.payload), default=None)
        if since is None:
            since = await _turn_began(service, match, seats)
        deadline = min((item.due_at for item in own if item.kind == TIMER), default=None)
        rows.append(GameRow(match, mine in seats, names, since, deadline, boards.get(match.id)))
    rows.sort(key=lambda row: (not row.yours, row.since if row.since is not None else 0, row.match.id))
    return GameList(tuple(rows[:ROWS]), max(0, len(rows) - ROWS))


async def my_finished_games(service: GameService, user_id: int) -> GameList:
    """The member's latest finished games, newest first, with how they did."""
    store = service.store
    matches = await store.member_matches(user_id, finished=True, limit=ROWS)
    ids = [match.id for match in matches]
    boards = await store.board_messages(ids)
    results = await store.member_results(user_id, ids)
    return GameList(tuple(GameRow(match, False, (), _stamp(match.updated_at), None, boards.get(match.id),
                                  results.get(match.id)) for match in matches))


async def _turn_began(service: GameService, match: MatchRecord, seats: list[int]) -> int | None:
    """When the turn of `seats` began, from the log: the latest start, or move by a seat not to move now (the move
    that passed the turn); the steps of the players to move belong to their turn."""
    humans = {seat for seat in seats if (record := match.user_at(seat)) is not None and not is_bot(record.user_id)}
    for event in reversed(await service.store.events(match.id, last=STORY_EVENTS)):
        if event.kind == "started" or (event.kind == "action" and event.seat not in humans):
            return _stamp(event.created_at)
    return _stamp(match.updated_at)


def _stamp(iso: str) -> int | None:
    """ISO text as stored (UTC) as epoch seconds."""
    if not iso:
        return None
    moment = datetime.fromisoformat(iso)
    return int((moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).timestamp())


async def seated_game(service: GameService, user_id: int, match_id: int) -> GameRow | None:
    """One of the member's games (for the menu that jumps to it), None when they do not sit in it."""
    match = await service.store.match(match_id)
    if match is None or match.seat_of(user_id) is None:
        return None
    boards = await service.store.board_messages([match_id])
    seats = _to_move(match) if match.status == "active" else []
    names = tuple(record.name for seat in seats if (record := match.user_at(seat)) is not None)
    return GameRow(match, match.seat_of(user_id) in seats, names, None, None, boards.get(match_id))
