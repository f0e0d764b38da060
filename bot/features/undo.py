"""Undo by consent: take back a player's last move while nothing hidden or random has come out since.

History is never edited. An agreed undo is an `undo` event saying how many moves of the line of play it takes
back; `bot.core.replay` replays it, so the log still rebuilds the state. What may be taken back is decided from
the record: a step that drew from the Rng (its draws are stored with it) rolled a die or shuffled, and a step the
game says `revealed` something (a card off a deck shuffled at setup) showed what was hidden. The other people at
the table approve (computer players and solo games: at once); any of them may refuse; a request lapses as soon as
another move is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import workers
from bot.core import JSON, Game, GameOver, LobbyError, NotYourTurn, RuleError, find_game
from bot.core.replay import RecordedStep, Replayer, Rewind, replay_line
from bot.core.seats import is_bot
from bot.i18n import Localized, Text, deferred, deferred_plural, in_language, said, translate, translate_plural
from bot.store import EventColumns, EventRecord, MatchRecord, Store, UndoRequest, decode_event, reading
from bot.table import UNDO_KIND, setup_of, steps_of

if TYPE_CHECKING:
    from bot.service import GameService

class UndoRefused(RuleError):
    """An undo that cannot be granted; the message says why and what is possible instead."""


ANSWERED = {"approved": deferred("undo.refuse.answered.approved"),
            "refused": deferred("undo.refuse.answered.refused"),
            "lapsed": deferred("undo.refuse.answered.lapsed")}
"""A request pressed again after it was answered: what became of it."""


@dataclass(frozen=True)
class Line:
    """The line of play: the action events still in effect, and the state before each and after the last."""

    actions: list[EventRecord]
    states: list[JSON]


@dataclass(frozen=True)
class UndoResult:
    """What a request or an answer led to: the match as it now is, the request (if one was made), and whether the
    moves were taken back."""

    match: MatchRecord
    request: UndoRequest | None
    applied: bool
    text: Text  # worded in the table's language: the request's message in the channel shows it
    new_board: bool = False  # the seats to move changed: the channel gets a new board (else the board is edited)


def line_of_play(game: Game, match: MatchRecord, events: Sequence[EventRecord]) -> Line:
    """Replay the log and pair every action still in effect with the state before it."""
    started = setup_of(events)
    if started is None:
        raise LobbyError("undo.refuse.not_started")
    actions: list[EventRecord] = []
    for event in events:
        if event.kind == "action":
            actions.append(event)
        elif event.kind == UNDO_KIND:
            del actions[-int((event.action or {})["moves"]):]
    options = (started.action or {}).get("setup_options", {})
    states = replay_line(game, match.mode, [s.name for s in match.seats], options, started.draws, steps_of(events))
    return Line(actions, states)


SNAPSHOTS_TRIED = 4
"""How many snapshots back (one every 25 events) undo looks for the asker's last move before it replays the whole
game."""


def line_since(game: Game, state: JSON, events: Sequence[EventRecord]) -> Line | None:
    """The line of play from a snapshot's `state` through `events` (the log after it), or None when an agreed undo
    among them takes back moves made before the snapshot."""
    replayer = Replayer.resumed(game, state)
    actions: list[EventRecord] = []
    for event in events:
        if event.kind == UNDO_KIND:
            moves = int((event.action or {})["moves"])
            if moves > len(actions):
                return None
            del actions[-moves:]
            replayer.feed(Rewind(moves))
        elif event.kind == "action":
            actions.append(event)
            replayer.feed(RecordedStep(event.seat or 0, event.action or {}, event.draws))
    return Line(actions, replayer.line)


async def recent_line(store: Store, game: Game, match: MatchRecord, user_id: int) -> Line | None:
    """The line of play from the latest snapshot behind the asker's last move still in effect: what undo needs,
    replayed from a stored state (at most 25 * SNAPSHOTS_TRIED events) instead of from the setup. None when no
    snapshot that near has one (a short game, or a player who has not moved for a long while)."""
    at = match.version
    for _ in range(SNAPSHOTS_TRIED):
        found = await store.snapshot(match.id, at)
        if found is None:
            return None
        seq, state = found
        line = line_since(game, state, await store.events(match.id, after=seq))
        if line is not None and any(event.user_id == user_id for event in line.actions):
            return line
        at = seq - 1
    return None


def hidden_since(game: Game, line: Line, first: int) -> tuple[int, str | Text | Localized] | None:
    """The first step from `first` on that drew from the Rng or revealed something, with what it did (in every
    language: the refusal is worded for its reader later, maybe after crossing the process pool)."""
    for index in range(first, len(line.actions)):
        event = line.actions[index]
        if event.draws:
            return index, Localized(en=game.chance_text(event.events, "en"), de=game.chance_text(event.events, "de"))
        reason = game.revealed(line.states[index], line.states[index + 1], event.events)
        if reason:
            return index, reason
    return None


async def _plan(service: GameService, match: MatchRecord, user_id: int) -> tuple[int, JSON]:
    return await plan_undo(service.store, match, user_id)


async def plan_undo(store: Store, match: MatchRecord, user_id: int, *, whole_game: bool = False
                    ) -> tuple[int, JSON]:
    """How many moves to take back for `user_id`, and the state that returns; UndoRefused if it may not be done.
    Replayed from the nearest snapshot before the asker's last move (`whole_game`: from the setup, as a check)."""
    if match.status == "lobby":
        raise LobbyError("undo.refuse.not_started")
    if match.status != "active" or match.state is None:
        raise GameOver("undo.refuse.game_over")
    if match.seat_of(user_id) is None:
        raise NotYourTurn("undo.refuse.not_playing")
    game = find_game(match.game)
    line = None if whole_game else await recent_line(store, game, match, user_id)
    if line is None:  # no snapshot near the asker's last move: the whole game, replayed in the records worker
        location = store.shared_location
        # A move waits on it: served before exports and hints; the asker holds at most a small share.
        ask: dict[str, Any] = {"lane": workers.Lane.URGENT, "member": user_id,
                               "busy": deferred_plural("workers.busy.undo")}
        if location is None:  # an in-memory database: only this process can read it
            return await workers.run(game, whole_game_plan, match, await store.event_columns(match.id), user_id,
                                     **ask)
        return await workers.run(game, whole_game_plan_stored, location, match, user_id, **ask)
    return decide(game, line, (), user_id)


def whole_game_plan_stored(location: str, match: MatchRecord, user_id: int) -> tuple[int, JSON]:
    """`whole_game_plan` with the events read from the database at `location` (in the records worker)."""
    return whole_game_plan(match, reading.event_columns(location, match.id), user_id)


def whole_game_plan(match: MatchRecord, columns: Sequence[EventColumns], user_id: int) -> tuple[int, JSON]:
    """`plan_undo` from the setup (in the records worker: at move 1,000 it took ~0.5 s)."""
    game = find_game(match.game)
    events = [decode_event(match.id, event) for event in columns]
    return decide(game, line_of_play(game, match, events), events, user_id)


def decide(game: Game, line: Line, events: Sequence[EventRecord], user_id: int) -> tuple[int, JSON]:
    """The moves to take back and the state that returns, from the line of play; UndoRefused with the reason.
    `events` (the whole log, when the line is the whole game's) tells a player whose moves were all taken back
    from one who never moved."""
    mine = [index for index, event in enumerate(line.actions) if event.user_id == user_id]
    if not mine:
        if any(event.kind == "action" and event.user_id == user_id for event in events):
            raise UndoRefused("undo.refuse.all_taken_back")
        raise UndoRefused("undo.refuse.no_move")
    first = mine[-1]
    blocked = hidden_since(game, line, first)
    if blocked is not None:
        index, reason = blocked
        if index == first:
            raise UndoRefused("undo.refuse.hidden_with_it", reason=reason)
        raise UndoRefused("undo.refuse.hidden_since", reason=reason)
    return len(line.actions) - first, line.states[first]


def approvers_of(match: MatchRecord, user_id: int) -> list[int]:
    """The people who must agree: every other human seated (computer players agree at once)."""
    return [seat.user_id for seat in match.seats if seat.user_id != user_id and not is_bot(seat.user_id)]


def _name(match: MatchRecord, user_id: int) -> str | Text:
    seat = match.seat_of(user_id)
    record = match.user_at(seat) if seat is not None else None
    return said(record.name) if record is not None else Text.of("undo.someone")


def _turn_changed(before: MatchRecord, after: MatchRecord) -> bool:
    """Whether the seats to move differ, as for a move: only then does the channel get a new board and a ping."""
    game = find_game(after.game)
    assert before.state is not None and after.state is not None, "an undo is made in a started game"
    return game.to_act(before.state) != game.to_act(after.state)


def taken_back_text(name: str | Text, moves: int, agreed: bool, language: str) -> str:
    """The log's line for an agreed undo, in the table's language."""
    if agreed:
        if moves == 1:
            return translate("undo.log.agreed", language, name=name)
        return translate_plural("undo.log.agreed_more", moves - 1, language, name=name)
    if moves == 1:
        return translate("undo.log.taken_back", language, name=name)
    return translate_plural("undo.log.taken_back_more", moves - 1, language, name=name)


async def _apply(service: GameService, match: MatchRecord, user_id: int, moves: int, state: JSON,
                 request_id: int | None, agreed: bool) -> MatchRecord:
    text = taken_back_text(_name(match, user_id), moves, agreed, match.language)
    await service.tables.record(match, UNDO_KIND, user_id=user_id, seat=match.seat_of(user_id),
                          action={"moves": moves, "request": request_id}, state=state, text=text)
    return await service.tables.reload(match)


async def request_undo(service: GameService, channel_id: int, user_id: int) -> UndoResult:
    """`/game undo`: take back at once (nobody else human at the table) or open a request for the others."""
    async with service.tables.lock(channel_id):
        match = await service.tables.open(channel_id)
        moves, state = await _plan(service, match, user_id)
        approvers = approvers_of(match, user_id)
        if not approvers:
            before = match
            match = await _apply(service, match, user_id, moves, state, None, False)
            return UndoResult(match, None, True, Text.of("undo.done"), _turn_changed(before, match))
        request = await service.store.create_undo_request(match.id, user_id, match.version, moves, approvers)
        return UndoResult(match, request, False, Text.of("undo.request.posted"))


async def answer_undo(service: GameService, request_id: int, user_id: int, approve: bool, *,
                      channel_id: int) -> UndoResult:
    """An Approve or Refuse press. The last approval takes the moves back; one refusal closes the request."""
    request = await service.store.undo_request(request_id)
    match = await service.store.match(request.match_id) if request is not None else None
    if request is None or match is None or match.channel_id != channel_id:
        from bot.service import InvalidControl

        raise InvalidControl()
    async with service.tables.lock(channel_id):
        match = await service.tables.reload(match)
        request = await service.store.undo_request(request_id)
        assert request is not None
        asker = _name(match, request.user_id)
        if request.status != "pending":
            raise UndoRefused(ANSWERED[request.status])
        if match.version != request.at_version or match.status != "active":
            await service.store.decide_undo(request_id, "lapsed", None)
            request = await service.store.undo_request(request_id)
            return UndoResult(match, request, False, Text.of("undo.request.lapsed", name=asker))
        if user_id not in request.approvers and user_id != request.user_id:
            raise NotYourTurn("undo.refuse.not_asked")
        if not approve:
            await service.store.decide_undo(request_id, "refused", user_id)
            request = await service.store.undo_request(request_id)
            assert request is not None
            if user_id == request.user_id:
                return UndoResult(match, request, False, Text.of("undo.request.withdrawn", name=asker))
            return UndoResult(match, request, False, Text.of("undo.request.refused", name=asker,
                                                             refuser=_name(match, user_id)))
        if user_id == request.user_id:
            raise NotYourTurn("undo.refuse.own_request")
        request = await service.store.approve_undo(request_id, user_id)
        assert request is not None
        if request.waiting_for:
            # The request's words are the table's: a seat a computer took over is "Someone" / "Jemand" in them.
            waiting = ", ".join(str(in_language(_name(match, uid), match.language)) for uid in request.waiting_for)
            return UndoResult(match, request, False, Text.of("undo.request.waiting", name=asker, waiting=waiting))
        moves, state = await _plan(service, match, request.user_id)
        if moves != request.moves:  # cannot happen at the same version; refuse rather than guess
            await service.store.decide_undo(request_id, "lapsed", None)
            raise UndoRefused("undo.refuse.changed")
        await service.store.decide_undo(request_id, "approved", user_id)
        before = match
        match = await _apply(service, match, request.user_id, moves, state, request_id, True)
        request = await service.store.undo_request(request_id)
        return UndoResult(match, request, True, Text.of("undo.request.granted", name=asker),
                          _turn_changed(before, match))


async def lapse_if_moved(service: GameService, request_id: int) -> Text | None:
    """Close a pending request once a move was made after it: the sentence its message now shows, or None while it
    still stands (or was already answered, whose message its answer edited)."""
    request = await service.store.undo_request(request_id)
    if request is None or request.status != "pending":
        return None
    match = await service.store.match(request.match_id)
    if match is None:
        return None
    async with service.tables.lock(match.channel_id):
        match = await service.tables.reload(match)
        request = await service.store.undo_request(request_id)
        if request is None or request.status != "pending":
            return None
        if match.version == request.at_version and match.status == "active":
            return None
        await service.store.decide_undo(request_id, "lapsed", None)
        return Text.of("undo.request.lapsed", name=_name(match, request.user_id))
