"""Community play (issue 12): turn reminders and timers planned with every move, absent
players' seats handed to computer players and taken back, lobbies that expire.

Everything here goes through the service and its store; the Discord side (messages, buttons, threads) is
cogs/community.py and cogs/settings.py, the loop that runs due work is bot/features/scheduler.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.core import JSON, Game, LobbyError, NotYourTurn, find_game
from bot.core.seats import bot_user_id, is_bot, taken_over_name
from bot.features import autoplay
from bot.features.quiet import after_quiet, window_of
from bot.features.wording import duration_text, game_title, names_and
from bot.i18n import said, translate
from bot.service import host_passed_text, next_host
from bot.settings import ServerSettings, change_setting, server_settings
from bot.store import CommunityChange, MatchRecord, NewWork, ScheduledWork, SeatOwner

if TYPE_CHECKING:
    from bot.service import GameService
    from bot.store import Store

PersonalWork = Callable[[MatchRecord, JSON, list[int], dict[int, int], dict[str, Any], float, datetime],
                        Awaitable[list[NewWork]]]
"""The turn's reminders and DMs for its members (match, its new state, seats to move, user by seat, the payload and
place of the turn's work, the server's reminder interval, now): bot/features/personal.py `plan_turn`."""

TurnWork = Callable[[MatchRecord, str, list[int], dict[int, int], list[NewWork], datetime],
                    Awaitable[CommunityChange]]
"""The turn's work as a clock and members away need it (match, event kind, seats to move, user by seat, the work,
now), and the times away the move ends: bot/features/personal.py `finish_turn`."""

Clock = Callable[[], datetime]
"""Where the bot's time comes from: a callable returning an aware UTC datetime (tests pass a fake one)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


REMIND = "remind"
TIMER = "timer"
LOBBY_EXPIRY = "lobby_expiry"
BOARD = "board"
"""A new board message owed to the channel (the turn passed, or the game ended), with its ping: the outbox item a
move stores in its own transaction. The live path posts it at once; the scheduler delivers what that missed."""
BOARD_GRACE_SECONDS = 60  # how long the live path has before the scheduler takes over a board
REMINDERS_BEFORE_STALL = 3
TURN_KINDS = ("started",)  # events that begin a turn even when the seat to move is the same


# --------------------------------------------------------------------------------------------- settings


async def settings_for(service: GameService, guild_id: int) -> ServerSettings:
    """A server's settings, for the cogs (which reach the database only through the service)."""
    return await server_settings(service.store, guild_id)


async def update_setting(service: GameService, guild_id: int, key: str, value: Any) -> ServerSettings:
    return await change_setting(service.store, guild_id, key, value)


def timer_hours_of(match: MatchRecord, settings: ServerSettings) -> float:
    """The match's own deadline per turn (`/game new timer:`), else the server's; none for a game on a clock
    (`/game new clock:`: bot/features/personal.py plans its deadlines from each seat's time left)."""
    if match.options.get("clock"):
        return 0.0
    own = match.options.get("timer_hours")
    return float(own) if own is not None else settings.timer_hours


# --------------------------------------------------------------------------------------------- planning


class TurnPlanner:
    """Decides, for every write of a match, which reminders and timers replace its pending work.

    The service calls `plan` just before it records an event and hands the result to the same transaction, so a
    move and its new reminder are committed together (a restart can lose neither, and a reminder for a turn that
    has passed can never be sent).
    """

    def __init__(self, store: Store, clock: Clock, *, personal: PersonalWork | None = None,
                 finish: TurnWork | None = None) -> None:
        self.store = store
        self.clock = clock
        self.personal = personal
        """Issue 34 (bot/features/personal.py): the turn's reminders by each member's own interval and quiet hours,
        and the DMs owed to members; None: one reminder at the server's interval."""
        self.finish = finish
        """Issue 34: the last word on a turn's work: a clock game's deadline from the seat's time left, and the
        deadlines and reminders of members away moved past their return (a member who moved is back)."""

    async def lobby_opened(self, guild_id: int, channel_id: int) -> CommunityChange:
        settings = await server_settings(self.store, guild_id)
        now = self.clock()
        due = now + timedelta(hours=settings.lobby_expiry_hours)
        payload = {"hours": settings.lobby_expiry_hours}
        return CommunityChange(add_work=(NewWork(LOBBY_EXPIRY, due, payload, guild_id=guild_id,
                                                 channel_id=channel_id),), now=now)

    async def plan(self, match: MatchRecord, kind: str, fields: dict[str, Any]) -> CommunityChange | None:
        given: CommunityChange | None = fields.get("community")
        now = self.clock()
        status = fields.get("status") or match.status
        if status in ("finished", "abandoned"):
            final = (self._board(match, (), now),) if status == "finished" and match.status == "active" else ()
            return CommunityChange(cancel_work=True, add_work=final, now=now).merged(given)
        state = fields.get("state") if fields.get("state") is not None else match.state
        if state is None or status != "active":
            return given  # a lobby: its expiry stays as it is
        game = find_game(match.game)
        before = tuple(game.to_act(match.state)) if match.state is not None and match.status == "active" else None
        after = tuple(game.to_act(state))
        users = ({index: uid for index, (uid, _name) in enumerate(fields["seats"])} if fields.get("seats") is not None
                 else {seat.seat: seat.user_id for seat in match.seats})
        humans = [seat for seat in after if not is_bot(users.get(seat, -1))]
        humans_before = [seat for seat in before or () if (r := match.user_at(seat)) and not is_bot(r.user_id)]
        if kind not in TURN_KINDS and before == after and humans == humans_before:
            return given  # the same player's turn goes on (or a seat not to move changed): its work stands
        work: list[NewWork] = [self._board(match, humans, now)] if before != after or kind in TURN_KINDS else []
        if humans and not (match.lesson or match.in_dm):  # a lesson (one learner, computer players) waits: no reminders
            settings = await server_settings(self.store, match.guild_id)
            payload = {"turn": match.version + 1, "seats": humans, "since": int(now.timestamp())}
            where = {"guild_id": match.guild_id, "channel_id": match.channel_id}
            if self.personal is not None:  # issue 34: each member's own reminders, and their DMs
                work += await self.personal(match, state, humans, users, payload, settings.reminder_hours, now)
            elif settings.reminder_hours > 0:
                work.append(NewWork(REMIND, now + timedelta(hours=settings.reminder_hours), {**payload, "count": 1},
                                    **where))
            timer = timer_hours_of(match, settings)
            if timer > 0:
                work.append(NewWork(TIMER, now + timedelta(hours=timer), payload, **where))
        if self.finish is not None:  # issue 34: a clock's deadline; members away have theirs after their return
            finished = await self.finish(match, kind, humans, users, work, now)
            return CommunityChange(cancel_work=True, add_work=finished.add_work, now=now,
                                   away_ended=finished.away_ended).merged(given)
        return CommunityChange(cancel_work=True, add_work=tuple(work), now=now).merged(given)


    @staticmethod
    def _board(match: MatchRecord, seats: list[int] | tuple[int, ...], now: datetime) -> NewWork:
        """The new board this write owes the channel, pinging the people at `seats` (the outbox, issue 23)."""
        return NewWork(BOARD, now + timedelta(seconds=BOARD_GRACE_SECONDS),
                       {"version": match.version + 1, "seats": list(seats)},
                       guild_id=match.guild_id, channel_id=match.channel_id)


def planned_at(work: ScheduledWork) -> float:
    """When the item was planned, on the bot's clock (epoch seconds): a reminder's or timer's turn began at its
    `since`; a lobby's expiry was planned its hours before it falls due, a board its grace; anything else, when due.
    The scheduler compares it with the clock to find work planned while the clock was ahead (issue 32)."""
    if "since" in work.payload:
        return float(work.payload["since"])
    if work.kind == LOBBY_EXPIRY and "hours" in work.payload:
        return work.due_at - float(work.payload["hours"]) * 3600
    if work.kind == BOARD:
        return float(work.due_at - BOARD_GRACE_SECONDS)
    return float(work.due_at)


# --------------------------------------------------------------------------------------------- reminders


@dataclass(frozen=True)
class Reminder:
    """What one due reminder says: whom to ping, or (after the third) that the game has stalled.

    It is said at least once and not twice (issue 23): the item stays claimed until `reminder_sent` marks it done
    after Discord took the message; its `nonce` (from the item) makes a resend after a crash return the message
    already posted, and `attempted_at` says a send may have reached Discord before (checked in the channel when a
    resend comes later than Discord remembers nonces). Its words depend on the item alone, so a resend is the same.
    """

    match: MatchRecord
    user_ids: tuple[int, ...]
    names: tuple[str, ...]
    waited_hours: float
    turn: int
    stalled: bool
    work: ScheduledWork | None = None
    follow: NewWork | None = None

    @property
    def nonce(self) -> str:
        """Discord's message nonce for this item (at most 25 characters)."""
        return f"xt-work-{self.work.id}" if self.work is not None else ""


def _still_waiting(match: MatchRecord, payload: JSON) -> list[int]:
    """The seats the work was for that the game still waits for, if its turn is the current one."""
    if match.status != "active" or match.state is None:
        return []
    waiting = set(find_game(match.game).to_act(match.state))
    return [seat for seat in payload.get("seats", []) if seat in waiting
            and (record := match.user_at(seat)) is not None and not is_bot(record.user_id)]


async def take_reminder(service: GameService, work: ScheduledWork, now: datetime) -> Reminder | None:
    """What a due (claimed) reminder is to say, and the next one it queues once said (the stall notice after the
    third); None when nothing is to be said: the turn passed (the item is done). Say it, then `reminder_sent`."""
    store = service.store
    match = await store.match(work.match_id) if work.match_id is not None else None
    seats = _still_waiting(match, work.payload) if match is not None else []
    if match is None or not seats:
        await store.finish_work(work.id, now)
        return None
    count = int(work.payload.get("count", 1))
    settings = await server_settings(store, match.guild_id)
    follow: NewWork | None = None
    hours = float(work.payload.get("hours", settings.reminder_hours))  # issue 34: a member's own interval
    if count <= REMINDERS_BEFORE_STALL and hours > 0:
        due = after_quiet(now + timedelta(hours=hours), window_of(work.payload))  # ... and their quiet hours
        follow = NewWork(REMIND, due, {**work.payload, "count": count + 1},
                         match_id=match.id, guild_id=match.guild_id, channel_id=match.channel_id)
    records = [record for seat in seats if (record := match.user_at(seat)) is not None]
    since = int(work.payload.get("since", work.due_at))
    return Reminder(match, tuple(r.user_id for r in records), tuple(r.name for r in records),
                    max(0.0, (work.due_at - since) / 3600), int(work.payload.get("turn", 0)),
                    stalled=count > REMINDERS_BEFORE_STALL, work=work, follow=follow)


async def reminder_sending(service: GameService, reminder: Reminder, now: datetime) -> None:
    """Just before the send: the item's record says a send was tried (a retry then looks before posting)."""
    if reminder.work is not None:
        await service.store.note_attempt(reminder.work.id, now)


async def reminder_sent(service: GameService, reminder: Reminder, now: datetime) -> None:
    """Discord has the reminder: its item is done and the next one queued (unless a move ended the turn first)."""
    if reminder.work is not None:
        await service.store.complete_work(reminder.work.id, now, reminder.follow)


async def reminder_failed(service: GameService, reminder: Reminder, now: datetime, error: str,
                          delay_seconds: float) -> None:
    """Discord did not take it: the item is due again after `delay_seconds` (at least once, not lost)."""
    if reminder.work is not None:
        await service.store.retry_work(reminder.work.id, now + timedelta(seconds=delay_seconds), error)


async def mute_turn(service: GameService, match_id: int, turn: int, user_id: int, *, channel_id: int) -> int:
    """"Mute for this turn": no more reminders (nor the stall notice) until the player's turn ends."""
    match = await service.match(match_id)
    if match.channel_id != channel_id:
        from bot.service import InvalidControl

        raise InvalidControl()
    seat = match.seat_of(user_id)
    if seat is None or seat not in _still_waiting(match, {"seats": [seat]}):
        raise NotYourTurn("reminder.refuse.not_yours")
    return await service.store.cancel_work(match.id, (REMIND,), service_now(service), payload_turn=turn)


# --------------------------------------------------------------------------------------------- turn timers


def pass_action(game: Game, state: JSON, seat: int) -> JSON | None:
    """The game's own "pass" for the seat, if its rules have one (a legal action of type "pass")."""
    return next((action for action in game.legal_actions(state, seat) if action.get("type") == "pass"), None)


@dataclass(frozen=True)
class TimedOut:
    """A turn whose deadline passed, and what was done about it."""

    match: MatchRecord
    names: tuple[str, ...]
    hours: float
    game: Game
    skipped: bool  # the game's own pass was played
    fallback: bool  # the server skips turns, but the game has no pass: a computer player moved instead

    def note(self, language: str) -> str:
        """What the channel is told, in the table's `language`."""
        names, hours = names_and(self.names, language), duration_text(self.hours, language)
        if self.skipped and not self.fallback:
            return translate("timer.skipped", language, names=names, hours=hours)
        if self.fallback:
            return translate("timer.no_pass", language, names=names, hours=hours, game=game_title(self.game, language))
        return translate("timer.played", language, names=names, hours=hours)


async def play_overdue_turn(service: GameService, work: ScheduledWork, now: datetime) -> TimedOut | None:
    """Apply the server's timer policy to a turn whose deadline passed: skip it where the game has a pass, else a
    normal computer player plays it from the seat's own view. None if the turn had already ended."""
    store = service.store
    match = await store.match(work.match_id) if work.match_id is not None else None
    if match is None:
        await store.finish_work(work.id, now)
        return None
    async with service.tables.lock(match.channel_id):
        match = await service.match(match.id)
        seats = _still_waiting(match, work.payload)
        # Still pending means still this turn: a move that ended it marked it done, even if the same seat is to
        # move again by now (a later turn, with a deadline of its own).
        if not seats or not await store.work_pending(work.id):
            await store.finish_work(work.id, now)
            return None
        settings = await server_settings(store, match.guild_id)
        game = find_game(match.game)
        names = tuple(record.name for seat in seats if (record := match.user_at(seat)) is not None)
        # A clock's deadline (issue 34) is the time the seat had left when its turn began.
        hours = timer_hours_of(match, settings) or max(0.0, (work.due_at - int(work.payload.get("since", 0))) / 3600)
        skipped = fallback = False
        for _ in range(1000):  # a turn of many steps is played to its end; the bound only guards against a bug
            waiting = _still_waiting(match, work.payload)
            if not waiting or match.state is None:
                break
            seat = waiting[0]
            record = match.user_at(seat)
            assert record is not None
            action = pass_action(game, match.state, seat) if settings.timer_policy == "skip" else None
            if settings.timer_policy == "skip" and action is None:
                fallback = True
            if action is not None:
                skipped = True
            else:
                decision = await autoplay.think(game, match.state, seat, bot_user_id("normal", 1),
                                                autoplay.move_seed(match))
                action = decision.action
            match = (await service.commit(match, record.user_id, action, match.version)).match
        match = await service.after_move(match)
        await store.finish_work(work.id, now)  # usually done already: the move replaced the turn's work
    return TimedOut(match, names, hours, game, skipped=skipped, fallback=fallback)


# --------------------------------------------------------------------------------------------- lobbies


async def lobby_closes_at(service: GameService, match_id: int) -> datetime | None:
    """When the match's lobby expires unless someone starts it (None when it never does)."""
    due = [work.due_at for work in await service.store.pending_work(match_id) if work.kind == LOBBY_EXPIRY]
    return datetime.fromtimestamp(min(due), tz=UTC) if due else None


async def expire_lobby(service: GameService, work: ScheduledWork, now: datetime) -> MatchRecord | None:
    """Close a lobby that never started; None if it started or closed meanwhile."""
    match = await service.store.match(work.match_id) if work.match_id is not None else None
    if match is None or match.status != "lobby":
        await service.store.finish_work(work.id, now)
        return None
    async with service.tables.lock(match.channel_id):
        match = await service.match(match.id)
        if match.status != "lobby":
            await service.store.finish_work(work.id, now)
            return None
        await service.tables.record(match, "abandoned", status="abandoned",
                                    text=translate("community.log.lobby_expired", match.language))
        return await service.tables.reload(match)


# --------------------------------------------------------------------------------------------- replacing players


@dataclass(frozen=True)
class Kicked:
    match: MatchRecord
    name: str  # the member whose seat a computer player took
    bot_moved: bool  # the seat was to move, and the computer player has played
    host_passed: str | None = None  # the host was replaced: who has the host's powers now, in the table's words


async def kick(service: GameService, channel_id: int, actor_id: int, target_id: int, *,
               can_manage_channel: bool) -> Kicked:
    """Hand a member's seat to a normal computer player (the host, or someone who can manage the channel)."""
    async with service.tables.lock(channel_id):
        match = await service.tables.open(channel_id)
        if actor_id != match.host_id and not can_manage_channel:
            raise LobbyError("community.refuse.kick_not_host")
        if match.status == "lobby":
            raise LobbyError("community.refuse.kick_in_lobby")
        seat = match.seat_of(target_id)
        if seat is None or is_bot(target_id):
            raise LobbyError("community.refuse.kick_not_seated")
        if target_id == actor_id:
            raise LobbyError("community.refuse.kick_self")
        if not any(not is_bot(s.user_id) and s.user_id != target_id for s in match.seats):
            raise LobbyError("community.refuse.kick_last_person")
        record = match.user_at(seat)
        assert record is not None
        used = {-s.user_id % 100 for s in match.seats if is_bot(s.user_id)}
        number = min(n for n in range(1, 100) if n not in used)
        # The seat keeps its name: the game's state and its replay know the player by it.
        seats = [(bot_user_id("normal", number) if s.seat == seat else s.user_id, s.name) for s in match.seats]
        owner = SeatOwner(match.id, seat, target_id, record.name, actor_id)
        text = translate("community.log.kicked", match.language, name=said(record.name),
                         bot=said(taken_over_name(record.name, "normal", match.language)))
        # Host powers follow the seat: a replaced host hands them to the next person seated.
        host = next_host(match, target_id) if target_id == match.host_id else None
        passed = host_passed_text(match, host, match.language) if host is not None else None
        await service.tables.record(match, "kicked", user_id=actor_id, seat=seat, seats=seats, host_id=host,
                                    text=f"{text} {passed}" if passed else text,
                                    community=CommunityChange(owners_set=(owner,)))
        kicked = await service.tables.reload(match)
        played = await service.after_move(kicked)
        return Kicked(played, record.name, played.version != kicked.version, passed)


async def rejoin(service: GameService, channel_id: int, user_id: int) -> MatchRecord:
    """A member takes back the seat a computer player kept for them."""
    async with service.tables.lock(channel_id):
        match = await service.tables.open(channel_id)
        owners = [o for o in await service.store.seat_owners(match.id) if o.user_id == user_id]
        if match.status != "active" or not owners:
            raise LobbyError("community.refuse.no_seat_to_take_back")
        owner = owners[0]
        seats = [(user_id if s.seat == owner.seat else s.user_id, s.name) for s in match.seats]
        await service.tables.record(match, "rejoined", user_id=user_id, seat=owner.seat, seats=seats,
                              text=translate("community.log.rejoined", match.language, name=said(owner.name)),
                              community=CommunityChange(owners_cleared=(owner.seat,)))
        return await service.tables.reload(match)


# --------------------------------------------------------------------------------------------- limits (issue 32)
# What one member's command may post publicly: the server's limits (/settings limits), kept in the database where
# several bot processes must agree (open lobbies, threads opened, public replays); each refusal says when.


def service_now(service: GameService) -> datetime:
    """The bot's time as the features see it (the planner's clock, which tests move; the cogs' is `now_of`)."""
    planner = service.planner
    return (planner.clock if isinstance(planner, TurnPlanner) else utc_now)()


def relative_time(moment: datetime | float) -> str:
    """A moment as Discord shows it in each reader's own words and time ("in 4 minutes", "vor 30 Sekunden")."""
    epoch = moment.timestamp() if isinstance(moment, datetime) else moment
    return f"<t:{int(epoch)}:R>"


async def check_new_game(service: GameService, guild_id: int, user_id: int, *, lobby: bool, thread: bool) -> None:
    """Refuse /game new when the member already hosts as many open lobbies as the server allows (`lobby`: the
    game would open one), or had the bot open as many game threads in the last hour (`thread`)."""
    settings = await server_settings(service.store, guild_id)
    if lobby and settings.lobby_limit:
        lobbies = await service.store.open_lobbies_hosted(guild_id, user_id)
        if len(lobbies) >= settings.lobby_limit:
            channels = ", ".join([f"<#{(await service.match(match_id)).channel_id}>" for match_id in lobbies[:5]])
            closes = await lobby_closes_at(service, lobbies[0])
            if closes is None:
                raise LobbyError("limits.refuse.lobbies", channels=channels)
            raise LobbyError("limits.refuse.lobbies_expire", channels=channels, again=relative_time(closes))
    if thread and settings.threads_per_hour:
        now = service_now(service)
        opened = await service.store.threads_opened_since(guild_id, user_id, now - timedelta(hours=1))
        if len(opened) >= settings.threads_per_hour:
            free = opened[len(opened) - settings.threads_per_hour] + 3600
            raise LobbyError("limits.refuse.threads", count=str(settings.threads_per_hour),
                             again=relative_time(free))


async def thread_opened(service: GameService, thread_id: int, guild_id: int, parent_id: int, user_id: int) -> None:
    """Remember a game thread the bot opened for a member (their threads an hour; its parent channel)."""
    await service.store.record_thread(thread_id, guild_id, parent_id, user_id, service_now(service))


async def thread_parents(service: GameService, thread_ids: list[int]) -> dict[int, int]:
    """The parent channels of the game threads the bot opened, of those among `thread_ids`."""
    return await service.store.thread_parents(thread_ids)


async def claim_public_replay(service: GameService, guild_id: int, channel_id: int) -> None:
    """Take the channel's turn for a public replay; a refusal saying when the next is possible if one was posted
    there within the server's `replay_minutes`."""
    settings = await server_settings(service.store, guild_id)
    if not settings.replay_minutes:
        return
    held = await service.store.claim_cooldown("replay", guild_id, channel_id, service_now(service),
                                              settings.replay_minutes * 60)
    if held is not None:
        raise LobbyError("limits.refuse.replay", again=relative_time(held))


@dataclass(frozen=True)
class ShownBoard:
    """The board message that already shows the match at its version, and how long before it may be posted
    again."""

    message_id: int
    repost_seconds: int


async def board_on_show(service: GameService, match: MatchRecord) -> ShownBoard | None:
    """The message showing the match's board at its current version, when the server limits reposting it."""
    settings = await server_settings(service.store, match.guild_id)
    if not settings.board_repost_seconds:
        return None
    message_id = await service.board_message(match.id)
    if message_id is None or await service.store.board_version(match.id) != match.version:
        return None
    return ShownBoard(message_id, settings.board_repost_seconds)
