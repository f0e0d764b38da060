"""The outbox (issue 23): a turn's new board and its ping, owed to the channel from the moment the move commits.

The move stores a `board` item in its own transaction (bot/community.py `TurnPlanner`), so a board is owed even if
the process dies the next instant. Whoever posts a new board of the match takes the owed items first (leased, so
two posters never both deliver one), pings the people they name, and marks them done once Discord has the
message; a send that fails leaves them owed, due again after a growing delay (or Discord's `retry_after`), and the
scheduler delivers them then, after a restart too. The Discord side is cogs/table.py's `BoardDesk`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.features.autoplay import all_bots, bot_to_move
from bot.features.community import BOARD, BOARD_GRACE_SECONDS
from bot.store import ScheduledWork

if TYPE_CHECKING:
    from bot.service import GameService
    from bot.store import MatchRecord

log = logging.getLogger(__name__)

LEASE_SECONDS = 120  # a poster holds the items this long at most (its sends and retries take seconds); short, so
# that after a crash the board is posted again while Discord still remembers its nonce (a few minutes)
FIRST_RETRY_SECONDS = 30
LAST_RETRY_SECONDS = 3600  # past a few failures, try again every hour (a channel closed to the bot, say)


@dataclass(frozen=True)
class Owed:
    """The board items a poster took for a match: whom they ping, and whether another poster holds some."""

    items: tuple[ScheduledWork, ...]
    user_ids: tuple[int, ...]
    held_elsewhere: bool

    @property
    def version(self) -> int:
        return max((int(item.payload.get("version", 0)) for item in self.items), default=0)

    @property
    def nonce(self) -> str | None:
        """Discord's message nonce for posting these items (from the newest), None when nothing is owed."""
        return f"xt-work-{max(item.id for item in self.items)}" if self.items else None

    def maybe_posted_since(self, now: datetime) -> int | None:
        """Since when (epoch seconds) a board of these items may be in the channel already, None if it cannot be:
        an item's last recorded try, or, for an item past its grace, the move that owed it (the live path records
        its try without waiting for the disk, so a database crash, such as PostgreSQL's immediate stop, may forget
        it while Discord has the board)."""
        moment = int(now.timestamp())
        since = [item.attempted_at if item.attempted_at is not None else item.due_at - BOARD_GRACE_SECONDS
                 for item in self.items if item.attempted_at is not None or item.due_at <= moment]
        return min(since, default=None)


async def take(service: GameService, match_id: int, now: datetime,
               already: tuple[ScheduledWork, ...] = ()) -> Owed:
    """Claim the match's owed boards (besides `already`, claimed by the caller) and say whom they ping."""
    store = service.store
    for item in already:  # claimed by the scheduler: this try is recorded too (claim_match_work does it for its own)
        await store.note_attempt(item.id, now)
    items = already + tuple(await store.claim_match_work(match_id, BOARD, now, LEASE_SECONDS))
    held = False
    if not items:
        moment = int(now.timestamp())
        held = any(work.kind == BOARD and work.claimed_until is not None and work.claimed_until > moment
                   for work in await store.pending_work(match_id))
    match = await service.match(match_id)
    seats = {int(seat) for item in items for seat in item.payload.get("seats", [])}
    users = tuple(record.user_id for seat in sorted(seats) if (record := match.user_at(seat)) is not None)
    return Owed(items, users, held)


async def delivered(service: GameService, owed: Owed, version: int, now: datetime) -> None:
    """The board of `version` is in the channel: the items it covers are done."""
    for item in owed.items:
        if int(item.payload.get("version", 0)) <= version:
            await service.store.complete_work(item.id, now, durable=False)  # a move pays for one flush: its own
        else:  # a move committed while this board was drawn: its own board is still owed
            await service.store.retry_work(item.id, now, "a newer move was committed while posting")


async def due_from_scheduler(service: GameService, work: ScheduledWork, now: datetime) -> int | None:
    """A board item the scheduler claimed: the match whose board to post now, or None (the game ended without
    it, or is gone: the item is done)."""
    match = await service.store.match(work.match_id) if work.match_id is not None else None
    if match is None or match.status not in ("active", "finished"):
        await service.store.finish_work(work.id, now)
        return None
    return match.id


def retry_delay(attempts: int, retry_after: float | None = None) -> float:
    """Seconds before the next try: Discord's own `retry_after` when it gave one, else doubling from 30 s."""
    if retry_after is not None and retry_after > 0:
        return float(retry_after)
    return float(min(LAST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** max(0, attempts)))


async def failed(service: GameService, owed: Owed, error: str, now: datetime,
                 retry_after: float | None = None) -> None:
    """The board could not be posted: its items stay owed, due again after the delay."""
    for item in owed.items:
        due = now + timedelta(seconds=retry_delay(item.attempts, retry_after))
        await service.store.retry_work(item.id, due, error)


async def owes_board(service: GameService, match_id: int) -> bool:
    """Whether a board of the match is owed (not yet delivered)."""
    return any(work.kind == BOARD for work in await service.store.pending_work(match_id))


async def post_boards_left_behind(service: GameService, post: Callable[[int], Awaitable[object]],
                                  deliver: Callable[[int], Awaitable[bool]]) -> list[int]:
    """After a restart (once the computer players' due turns were played: autoplay `resume_tables`): the boards
    the process left behind, stopping after moves were committed and before their board was posted (a person is to
    move since the computer players' turns, or a game ended without its final board). Each is posted once, pinging
    the person to move (nobody for a finished game), whichever of several processes finds it. Returns the matches.

    A board the moves owe (the outbox) is delivered through the outbox's claim (`deliver`: posts only what is still
    owed), so never beside another process's delivery of it; a board left behind by moves from before the outbox
    is claimed by its posted version (`Store.claim_board`) and posted (`post`). A match whose board version was
    never kept (a board posted before schema 6) is left alone: nobody can tell whether it is behind."""
    behind = [match for match in await service.store.active_matches()
              if bot_to_move(match) is None and not all_bots(match)]
    behind += await service.store.finished_behind_their_board()
    posted: list[int] = []
    for match in behind:
        try:
            if await _post_left_behind(service, match, post, deliver):
                posted.append(match.id)
        except Exception:  # one game's failure must not keep the others waiting
            log.exception("Posting the board left behind of match %s failed", match.id)
    return posted


async def _post_left_behind(service: GameService, match: MatchRecord, post: Callable[[int], Awaitable[object]],
                            deliver: Callable[[int], Awaitable[bool]]) -> bool:
    seen = await service.board_behind(match)
    if seen is None:
        return False
    if await owes_board(service, match.id):
        return await deliver(match.id)
    if not await service.store.claim_board(match.id, seen, match.version):
        return False  # another process posts it
    await post(match.id)
    return True
