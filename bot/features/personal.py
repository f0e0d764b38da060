"""A member's own play across servers (issue 34), kept per member, not per server: the games they sit in, theirs to
move first (/games); how and when they are told it is their turn (/me notify: their reminder interval, quiet hours
in their time zone, DMs and heads-ups); time away (/me away, /me back); and clocks for long games (/game new clock:).

Everything here goes through the service's store. What a turn owes is planned into the move's own transaction
through the community planner's two hooks: `plan_turn` (`personal`: the turn's reminders by each member's own
choices, and their DMs as outbox items) and `finish_turn` (`finish`: a clock's deadline, and members away). The
Discord side (the private answers, the menu, the commands' install types and contexts, sending DMs) is
cogs/personal.py.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import asdict, dataclass, fields, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.core import RuleError, find_game
from bot.core.seats import is_bot
from bot.features.community import REMIND, REMINDERS_BEFORE_STALL, TIMER
from bot.features.quiet import Window, after_quiet, known_zone, window_of
from bot.features.wording import duration_text
from bot.i18n import said, translate
from bot.settings import ServerSettings, server_settings
from bot.store import MatchRecord, MemberRecord, MemberResult, NewWork, ScheduledWork

if TYPE_CHECKING:
    from bot.service import Board, GameService
    from bot.store import Store

DM = "dm"
"""A DM owed to a member (their turn, or a heads-up), stored in the move's own transaction: the outbox, issue 23."""
DM_REFUSED = "dm_refused"
"""The channel message owed when a member's DMs refused the bot (error 50007): the ping they missed, said once."""

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
        return (f"https://discord.com/channels/{self.match.guild_id or '@me'}/{self.match.channel_id}/"
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


# --------------------------------------------------------------------------------------------- preferences

NOTIFY_WAYS = ("channel", "dm", "both")
"""How a member is told it is their turn: a ping in the game's channel, a DM with the board and a link, or both."""
MOST_REMINDER_HOURS = 48.0


@dataclass(frozen=True)
class Prefs:
    """A member's own choices (/me notify), the same on every server; the defaults are the server's ways."""

    notify: str = "channel"
    reminder_hours: float | None = None  # None: the server's interval; 0: no reminders
    time_zone: str | None = None  # an IANA name ("Europe/Berlin")
    quiet_from: int | None = None  # quiet hours, local: from this hour ...
    quiet_until: int | None = None  # ... until this one (22 and 7 span the night)
    heads_up: bool = False  # a DM when the player before them starts their turn

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> Prefs:
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in stored.items() if key in known})

    def to_json(self) -> dict[str, Any]:
        """Only what differs from the defaults (a member who chose nothing has no preferences stored)."""
        default = asdict(Prefs())
        return {key: value for key, value in asdict(self).items() if value != default[key]}

    @property
    def window(self) -> Window | None:
        """The quiet window, when the member set one (with a time zone)."""
        if self.time_zone is None or self.quiet_from is None or self.quiet_until is None:
            return None
        if self.quiet_from == self.quiet_until:
            return None
        return (self.time_zone, self.quiet_from, self.quiet_until)


async def prefs_of(store: Store, user_id: int) -> Prefs:
    return Prefs.from_json((await store.member(user_id)).prefs)


async def my_prefs(service: GameService, user_id: int) -> tuple[Prefs, bool]:
    """For /me: the member's preferences, and whether their DMs refused the bot (they were told so once)."""
    member = await service.store.member(user_id)
    return Prefs.from_json(member.prefs), member.dm_refused


def _checked_hours(hours: float) -> float:
    if not math.isfinite(hours) or (hours != 0 and not 1 <= hours <= MOST_REMINDER_HOURS):
        raise RuleError("personal.refuse.reminders", hours=f"{hours:g}", most=f"{MOST_REMINDER_HOURS:g}")
    return float(hours)


def _checked_hour(hour: int) -> int:
    if not 0 <= hour <= 23:
        raise RuleError("personal.refuse.hour", hour=str(hour))
    return int(hour)


async def change_prefs(store: Store, user_id: int, *, notify: str | None = None, reminder_hours: float | None = None,
                       server_reminders: bool = False, time_zone: str | None = None, quiet_from: int | None = None,
                       quiet_until: int | None = None, heads_up: bool | None = None, reset: bool = False) -> Prefs:
    """Validate and keep the member's changes (the options they gave; `reset` first forgets every choice). A
    refusal changes nothing. A new way of being told tries their DMs again (a refusal was said once)."""
    prefs = Prefs() if reset else await prefs_of(store, user_id)
    if notify is not None:
        if notify not in NOTIFY_WAYS:
            raise RuleError("personal.refuse.notify", ways=", ".join(NOTIFY_WAYS))
        prefs = replace(prefs, notify=notify)
    if server_reminders:
        prefs = replace(prefs, reminder_hours=None)
    elif reminder_hours is not None:
        prefs = replace(prefs, reminder_hours=_checked_hours(reminder_hours))
    if time_zone is not None:
        found = known_zone(time_zone)
        if found is None:
            raise RuleError("personal.refuse.time_zone", zone=time_zone[:64])
        prefs = replace(prefs, time_zone=found)
    if quiet_from is not None:
        prefs = replace(prefs, quiet_from=_checked_hour(quiet_from))
    if quiet_until is not None:
        prefs = replace(prefs, quiet_until=_checked_hour(quiet_until))
    if (prefs.quiet_from is None) != (prefs.quiet_until is None):
        raise RuleError("personal.refuse.quiet_both")
    if prefs.quiet_from is not None and prefs.time_zone is None:
        raise RuleError("personal.refuse.quiet_needs_zone")
    if heads_up is not None:
        prefs = replace(prefs, heads_up=heads_up)
    await store.set_member_prefs(user_id, prefs.to_json())
    if notify is not None or reset:
        await store.set_member_dm(user_id, refused=False)
    return prefs


# --------------------------------------------------------------------------------------------- the turn's work


async def plan_turn(store: Store, match: MatchRecord, seats: list[int], users: dict[int, int],
                    payload: dict[str, Any], server_hours: float, now: datetime) -> list[NewWork]:
    """The turn's reminders, in the move's own transaction: the members to move who keep the same interval and
    quiet hours share one (as all did before members chose their own); each waits for its members' quiet hours to
    end. Its item carries what it follows (`hours`, `quiet`), so the next reminder is planned from it alone."""
    members = {seat: await store.member(users[seat]) for seat in seats if seat in users}
    groups: dict[tuple[float, Window | None, bool], list[int]] = {}
    work = await _dms(store, match, members, users, payload, now)
    where = {"guild_id": match.guild_id, "channel_id": match.channel_id}
    for seat in seats:
        member = members.get(seat)
        prefs = Prefs.from_json(member.prefs) if member is not None else Prefs()
        own = prefs.reminder_hours is not None
        hours = prefs.reminder_hours if prefs.reminder_hours is not None else server_hours
        if member is not None and hours > 0 and prefs.notify == "dm" and not member.dm_refused:
            # Told by DM alone: reminded by DM too (the stall notice, after the third, goes to the channel).
            work.append(NewWork(DM, after_quiet(now + timedelta(hours=hours), prefs.window),
                                {**payload, "what": "reminder", "user": member.user_id, "seats": [seat], "count": 1,
                                 "hours": hours, "quiet": list(prefs.window) if prefs.window else None,
                                 "language": _language(store, member, match)}, **where))
            continue
        groups.setdefault((hours, prefs.window, own), []).append(seat)
    for (hours, window, own), together in groups.items():
        if hours <= 0:
            continue
        extra: dict[str, Any] = {"hours": hours} if own else {}
        if window is not None:
            extra["quiet"] = list(window)
        work.append(NewWork(REMIND, after_quiet(now + timedelta(hours=hours), window),
                            {**payload, "seats": together, "count": 1, **extra}, **where))
    return work


# --------------------------------------------------------------------------------------------- DMs


async def _dms(store: Store, match: MatchRecord, members: dict[int, MemberRecord], users: dict[int, int],
               payload: dict[str, Any], now: datetime) -> list[NewWork]:
    """The DMs the turn owes: to each member to move who is told by DM, and a heads-up to each member after a seat
    to move who asked for one; each after its member's quiet hours, in the language they last used. None to a
    member whose DMs refused the bot (they are pinged in the channel)."""
    work = []
    where = {"guild_id": match.guild_id, "channel_id": match.channel_id}
    base = {"turn": payload.get("turn"), "since": payload.get("since")}
    count = len(users) or len(match.seats)
    seats = list(members)
    for seat, member in members.items():
        prefs = Prefs.from_json(member.prefs)
        if prefs.notify != "channel" and not member.dm_refused:
            work.append(NewWork(DM, after_quiet(now, prefs.window),
                                {**base, "what": "turn", "user": member.user_id, "seats": [seat],
                                 "language": _language(store, member, match)}, **where))
    warned: set[int] = set()
    for seat in seats:
        after = (seat + 1) % count if count else seat
        user_id = users.get(after)
        if after in seats or user_id is None or is_bot(user_id) or user_id in warned:
            continue
        member = await store.member(user_id)
        prefs = Prefs.from_json(member.prefs)
        if prefs.heads_up and not member.dm_refused:
            warned.add(user_id)
            work.append(NewWork(DM, after_quiet(now, prefs.window),
                                {**base, "what": "heads_up", "user": user_id, "seats": [seat],
                                 "language": _language(store, member, match)}, **where))
    return work


def _language(store: Store, member: MemberRecord, match: MatchRecord) -> str:
    """The member's language: of the client they last used with the bot, else the table's."""
    return languages_of(store).of(member) or match.language


@dataclass(frozen=True)
class DirectMessage:
    """A due DM (or its fallback in the channel): for whom, about which game and seats, in which language.

    Said at least once and not twice, as reminders are: the item is done only once Discord has the message, which
    carries the item's nonce, and a retry looks for a try the item's record shows before sending again."""

    work: ScheduledWork
    match: MatchRecord
    user_id: int
    what: str  # "turn", "heads_up", or "refused" (the fallback in the channel)
    language: str
    names: tuple[str, ...]  # who is to move (for a heads-up: the player before the member)
    ping: bool  # the fallback pings the member (they were not pinged in the channel)
    dm_channel_id: int | None

    @property
    def nonce(self) -> str:
        return f"xt-work-{self.work.id}"


async def take_dm(service: GameService, work: ScheduledWork, now: datetime) -> DirectMessage | None:
    """What a due (claimed) DM item is to say; None (and the item done) when nothing is: the turn is over (a move
    would have ended the item in its own transaction; this also covers a race with it), the game is gone, or the
    member's DMs refused the bot meanwhile."""
    store = service.store
    match = await store.match(work.match_id) if work.match_id is not None else None
    payload = work.payload
    user_id = int(payload.get("user", 0))
    seats = [int(seat) for seat in payload.get("seats", [])]
    waiting = set(_to_move(match)) if match is not None and match.status == "active" else set()
    member = await store.member(user_id)
    what = str(payload.get("what", "turn")) if work.kind == DM else "refused"
    if match is None or not waiting & set(seats) or (member.dm_refused and what != "refused"):
        await store.finish_work(work.id, now)
        return None
    names = tuple(record.name for seat in seats if (record := match.user_at(seat)) is not None)
    ping = (what == "refused" and Prefs.from_json(member.prefs).notify == "dm"
            and payload.get("what") in ("turn", "reminder"))
    return DirectMessage(work, match, user_id, what, str(payload.get("language") or match.language), names, ping,
                         member.dm_channel_id)


async def dm_sending(service: GameService, dm: DirectMessage, now: datetime) -> None:
    """Just before the send: the item's record says a send was tried (a retry then looks before sending)."""
    await service.store.note_attempt(dm.work.id, now)


async def dm_sent(service: GameService, dm: DirectMessage, now: datetime) -> None:
    """Discord has the DM: its item is done, and a reminder's next one queued in the same transaction (after the
    third, the channel's stall notice)."""
    await service.store.complete_work(dm.work.id, now, _next_reminder(dm.work, now) if dm.what == "reminder" else None)


def _next_reminder(work: ScheduledWork, now: datetime) -> NewWork:
    payload = work.payload
    count, hours = int(payload.get("count", 1)), float(payload.get("hours", 12))
    due = after_quiet(now + timedelta(hours=hours), window_of(payload))
    where = {"match_id": work.match_id, "guild_id": work.guild_id, "channel_id": work.channel_id}
    if count < REMINDERS_BEFORE_STALL:
        return NewWork(DM, due, {**payload, "count": count + 1}, **where)
    channel = {key: value for key, value in payload.items() if key not in ("what", "user", "language", "quiet")}
    return NewWork(REMIND, due, {**channel, "count": count + 1}, **where)  # the stall notice, in the channel


async def dm_failed(service: GameService, dm: DirectMessage, now: datetime, error: str, delay_seconds: float) -> None:
    """Discord did not take it: due again after `delay_seconds` (at least once, not lost)."""
    await service.store.retry_work(dm.work.id, now + timedelta(seconds=delay_seconds), error)


async def dm_refused(service: GameService, dm: DirectMessage, now: datetime) -> None:
    """The member's DMs refuse the bot (50007): no more DMs to them until they choose again with /me notify, and
    the channel owes them the message saying so (with the ping they missed), in the same transaction as this
    item's end, so it is said once."""
    await service.store.set_member_dm(dm.user_id, refused=True)
    work = dm.work
    await service.store.complete_work(work.id, now, NewWork(DM_REFUSED, now, dict(work.payload), match_id=work.match_id,
                                                            guild_id=work.guild_id, channel_id=work.channel_id))


async def remember_dm_channel(service: GameService, user_id: int, channel_id: int) -> None:
    await service.store.set_member_dm(user_id, channel_id=channel_id)


async def board_link(service: GameService, match: MatchRecord) -> str:
    """The link to the match's current board message, else to its channel."""
    message = (await service.store.board_messages([match.id])).get(match.id)
    where = f"https://discord.com/channels/{match.guild_id}/{match.channel_id}"
    return f"{where}/{message}" if message is not None else where


class Languages:
    """The language of the client each member last used with the bot (their DMs are worded in it).

    An interaction only notes it here (it must be answered before anything reads the store: cogs/table.py); the
    scheduler's every pass keeps the changes in the store (`flush`), and a turn planned before that reads the note.
    One per service (`languages_of`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.noted: dict[int, str] = {}
        self.known: dict[int, str] = {}

    def used(self, user_id: int, language: str) -> None:
        if self.known.get(user_id) != language:
            self.noted[user_id] = language

    def of(self, member: MemberRecord) -> str | None:
        return self.noted.get(member.user_id) or member.language

    async def flush(self) -> int:
        """Keep the noted languages that changed; returns how many were written."""
        written = 0
        for user_id, language in list(self.noted.items()):
            if (await self.store.member(user_id)).language != language:
                await self.store.set_member_language(user_id, language)
                written += 1
            self.known[user_id] = language
            if self.noted.get(user_id) == language:
                del self.noted[user_id]
        return written


_LANGUAGES: weakref.WeakKeyDictionary[Store, Languages] = weakref.WeakKeyDictionary()


def languages_of(store: Store) -> Languages:
    """The one `Languages` of this store (the planner and the cog share it)."""
    found = _LANGUAGES.get(store)
    if found is None:
        found = _LANGUAGES[store] = Languages(store)
    return found


async def channel_pings(service: GameService, board: Board) -> Board:
    """The board without the pings of members who are told by DM alone (whose DMs did not refuse the bot)."""
    kept = []
    for user_id in board.mentions:
        member = await service.store.member(user_id)
        if Prefs.from_json(member.prefs).notify != "dm" or member.dm_refused:
            kept.append(user_id)
    return board if kept == board.mentions else replace(board, mentions=kept)


# --------------------------------------------------------------------------------------------- away

MOST_AWAY_DAYS = 14
YEAR_SECONDS = 365 * 86400
DAY_SECONDS = 86400
FROZEN = (TIMER, REMIND, DM)
"""What a time away moves: the member's turn deadlines and reminders, in the channel or by DM (`frozen`)."""


def frozen(kind: str, payload: dict[str, Any]) -> bool:
    """Whether a time away moves this work: a deadline or a reminder (a DM only when it is a reminder)."""
    return kind in (TIMER, REMIND) or (kind == DM and payload.get("what") == "reminder")


@dataclass(frozen=True)
class Away:
    """A time away that began or ended: until when, and the member's games under way (each table is told)."""

    until: int
    matches: tuple[MatchRecord, ...]


def _members_work(work: list[ScheduledWork], matches: list[MatchRecord], user_id: int) -> list[ScheduledWork]:
    """The deadlines and reminders of the member's own turns among `work`."""
    seats = {match.id: match.seat_of(user_id) for match in matches}
    return [item for item in work if frozen(item.kind, item.payload) and seats.get(item.match_id or 0) is not None
            and seats[item.match_id or 0] in item.payload.get("seats", [])]


async def away_budget(service: GameService, matches: list[MatchRecord]) -> float:
    """The days a year the member may be away: the smallest budget of the servers of their games (/settings away),
    the default where they have none."""
    guilds = {match.guild_id for match in matches}
    budgets = [(await server_settings(service.store, guild_id)).away_days for guild_id in sorted(guilds)]
    return min(budgets, default=ServerSettings().away_days)


async def go_away(service: GameService, user_id: int, days: int, now: datetime) -> Away:
    """Freeze the member's turn deadlines and reminders in all their games for `days` (a turn already overdue is
    not rescued); refused beyond MOST_AWAY_DAYS at once or the year's budget, and while already away."""
    if not 1 <= days <= MOST_AWAY_DAYS:
        raise RuleError("personal.refuse.away_days", days=str(days), most=str(MOST_AWAY_DAYS))
    store, moment = service.store, int(now.timestamp())
    current = await store.current_away(user_id, moment)
    if current is not None:
        raise RuleError("personal.refuse.already_away", until=f"<t:{current[1]}:F>")
    matches = await store.member_matches(user_id)
    budget = await away_budget(service, matches)
    used = await store.away_seconds_since(user_id, moment - YEAR_SECONDS) / DAY_SECONDS
    if used + days > budget:
        raise RuleError("personal.refuse.away_budget", budget=f"{budget:g}", left=f"{max(0.0, budget - used):.0f}")
    shift = days * DAY_SECONDS
    work = await store.pending_work_of([match.id for match in matches], FROZEN)
    moved = [(item.id, item.due_at + shift) for item in _members_work(work, matches, user_id) if item.due_at > moment]
    await store.start_away(user_id, moment, moment + shift, moved)
    return Away(moment + shift, tuple(matches))


async def come_back(service: GameService, user_id: int, now: datetime) -> Away:
    """End the member's time away early: their deadlines and reminders move back by the time not taken (never
    before now); only the days taken count against the budget."""
    store, moment = service.store, int(now.timestamp())
    current = await store.current_away(user_id, moment)
    if current is None:
        raise RuleError("personal.refuse.not_away")
    matches = await store.member_matches(user_id)
    unused = current[1] - moment
    work = await store.pending_work_of([match.id for match in matches], FROZEN)
    moved = [(item.id, max(moment, item.due_at - unused)) for item in _members_work(work, matches, user_id)
             if item.due_at > moment]
    await store.end_away(user_id, moment, moved)
    return Away(moment, tuple(matches))


async def away_turn(store: Store, match: MatchRecord, kind: str, seats: list[int], users: dict[int, int],
                    work: list[NewWork], now: datetime) -> list[NewWork]:
    """The turn's work for members away (part of the community planner's `finish` hook): the deadline and reminders of a
    member away to move wait for their return (moved by the time left away); a member who just moved is back."""
    moment = int(now.timestamp())
    if kind == "action" and match.status == "active":
        for seat in _to_move(match):
            record = match.user_at(seat)
            if (record is not None and not is_bot(record.user_id) and seat not in seats
                    and await store.current_away(record.user_id, moment) is not None):
                await store.end_away(record.user_id, moment)  # their own work ends with this move anyway
    for seat in seats:
        user_id = users.get(seat)
        current = await store.current_away(user_id, moment) if user_id is not None else None
        if current is None:
            continue
        left = timedelta(seconds=current[1] - moment)
        work = [replace(item, due_at=_moment(item.due_at) + left)
                if frozen(item.kind, item.payload) and seat in item.payload.get("seats", []) else item
                for item in work]
    return work


def _moment(due: datetime | float) -> datetime:
    return due if isinstance(due, datetime) else datetime.fromtimestamp(due, UTC)


# --------------------------------------------------------------------------------------------- clocks

CLOCK = "clock"
"""A clock game's time left per seat, kept while no member is to move (a computer player's turn): the banks ride
on the turn's deadline (`timer`) otherwise. Never due in practice."""
CLOCK_KEPT = timedelta(days=3650)
MOST_CLOCK_HOURS = 24 * 30.0


def parse_clock(text: str) -> tuple[float, float]:
    """"72+24": a bank of 72 hours and 24 hours added after each move (never above the bank); "72": nothing added.
    A RuleError says what is allowed."""
    bank_text, _, added_text = text.strip().partition("+")
    try:
        bank, added = float(bank_text), float(added_text or 0)
    except ValueError:
        raise RuleError("personal.refuse.clock", text=text[:40], most=f"{MOST_CLOCK_HOURS:g}") from None
    if not (math.isfinite(bank) and math.isfinite(added) and 1 <= bank <= MOST_CLOCK_HOURS and 0 <= added <= bank):
        raise RuleError("personal.refuse.clock", text=text[:40], most=f"{MOST_CLOCK_HOURS:g}")
    return bank, added


def clock_text(clock: tuple[float, float] | list[float]) -> str:
    """A clock as typed: "72+24"."""
    bank, added = clock
    return f"{bank:g}+{added:g}" if added else f"{bank:g}"


@dataclass(frozen=True)
class Banks:
    """A clock game's time left per seat (seconds), at `since`, when `seats` began to move."""

    seconds: dict[int, int]
    since: int
    seats: tuple[int, ...]
    due: int | None  # when the time of the seats to move runs out


def _banks_of(work: list[ScheduledWork]) -> Banks | None:
    for item in work:
        if item.kind in (TIMER, CLOCK) and "banks" in item.payload:
            return Banks({int(seat): int(left) for seat, left in item.payload["banks"].items()},
                         int(item.payload.get("since", item.due_at)), tuple(item.payload.get("seats", [])),
                         item.due_at if item.kind == TIMER else None)
    return None


async def clock_of(service: GameService, match: MatchRecord) -> Banks | None:
    """The time left of each seat of a game on a clock (None for a game without one)."""
    if not match.options.get("clock") or match.status != "active":
        return None
    return _banks_of(await service.store.pending_work(match.id))


async def clock_turn(store: Store, match: MatchRecord, seats: list[int], work: list[NewWork],
                     now: datetime) -> list[NewWork]:
    """A game on a clock, at every change of turn: the seats that moved pay the time they took and get the hours
    added per move (never above the bank); the deadline of the seats to move now is when their time runs out (the
    server's timer policy applies then). The banks ride on that deadline, or on a `clock` item while a computer
    player moves; written in the move's own transaction."""
    clock = match.options.get("clock")
    if not clock:
        return work
    cap, added = int(float(clock[0]) * 3600), int(float(clock[1]) * 3600)
    moment = int(now.timestamp())
    before = _banks_of(await store.pending_work(match.id))
    banks = {seat.seat: cap for seat in match.seats} if before is None else dict(before.seconds)
    if before is not None:
        users = {record.seat: record.user_id for record in match.seats}
        for seat in before.seats:
            took = moment - before.since
            if users.get(seat, 0) > 0:  # time away (/me away) is not charged: the clock waited with the deadline
                took -= await store.away_seconds_between(users[seat], before.since, moment)
            banks[seat] = min(cap, max(0, banks.get(seat, cap) - max(0, took)) + added)
    payload = {"turn": match.version + 1, "seats": seats, "since": moment,
               "banks": {str(seat): left for seat, left in sorted(banks.items())}}
    where = {"guild_id": match.guild_id, "channel_id": match.channel_id}
    if seats:
        left = min(banks.get(seat, cap) for seat in seats)
        return [*work, NewWork(TIMER, now + timedelta(seconds=left), payload, **where)]
    return [*work, NewWork(CLOCK, now + CLOCK_KEPT, payload, **where)]


async def finish_turn(store: Store, match: MatchRecord, kind: str, seats: list[int], users: dict[int, int],
                      work: list[NewWork], now: datetime) -> list[NewWork]:
    """The community planner's last word on a turn's work: a clock game's deadline, then members away."""
    return await away_turn(store, match, kind, seats, users, await clock_turn(store, match, seats, work, now), now)


async def clock_for(service: GameService, guild_id: int, chosen: str | None,
                    timer: float | None) -> tuple[float, float] | None:
    """A new game's clock: the one chosen at /game new (`clock:0` for none), else the server's unless the game
    chose a deadline per turn (`timer:`)."""
    if chosen is not None:
        if chosen.strip() in ("0", ""):
            return None
        if timer:
            raise RuleError("personal.refuse.clock_and_timer")
        return parse_clock(chosen)
    if timer is not None:
        return None
    default = (await server_settings(service.store, guild_id)).clock
    return (default[0], default[1]) if len(default) == 2 else None


async def clock_line(service: GameService, match: MatchRecord) -> str | None:
    """Under a clock game's board, in the table's language: each seat's time left, the running one as the moment
    it runs out (a Discord timestamp, counting down by itself). None for a game without a clock."""
    banks = await clock_of(service, match)
    if banks is None:
        return None
    language = match.language
    parts = []
    for record in match.seats:
        left = banks.seconds.get(record.seat)
        if left is None:
            continue
        if record.seat in banks.seats and banks.due is not None:
            parts.append(translate("personal.clock.running", language, name=said(record.name),
                                   when=f"<t:{banks.due}:R>"))
        else:
            parts.append(translate("personal.clock.left", language, name=said(record.name),
                                   left=duration_text(max(0, round(left / 3600)), language)))
    return translate("personal.clock.line", language, seats=" · ".join(parts))
