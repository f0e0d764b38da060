"""The service: load a channel's match, let the game's rules decide, commit, and build what to show.

Everything that changes a match goes through here — the Discord cogs, the local table and the tests — so the
checks (seated? your turn? stale board? game over?) are made in one place, and every accepted move is committed
before anyone is told about it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import bot.games  # noqa: F401  (registers every game)
from bot.core import (
    JSON,
    Game,
    GameOver,
    LobbyError,
    NotYourTurn,
    Outcome,
    QuickAction,
    Rng,
    RuleError,
    StaleBoard,
    find_game,
)
from bot.core.replay import RecordedStep, replay
from bot.store import ChannelBusy, MatchRecord, Store, VersionClash
from rendering import render_board
from rendering.pool import RenderPool

log = logging.getLogger(__name__)

Renderer = Callable[[str, dict[str, Any]], bytes]

MAX_BUTTONS = 20  # four rows of five; the fifth row holds "Show mine"
MENU_BUTTONS = 15  # three rows of buttons when a select menu takes the fourth
MENU_OPTIONS = 25  # Discord's limit for one select menu


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

    @property
    def finished(self) -> bool:
        return self.match.status in ("finished", "abandoned")


@dataclass(frozen=True)
class Accepted:
    """An action that was applied and committed; render its board with `GameService.board`."""

    match: MatchRecord
    headline: str


@dataclass(frozen=True)
class Seen:
    """A read-only look at a channel's match for one user (for autocomplete and private views)."""

    match: MatchRecord
    game: Game
    state: JSON | None
    seat: int | None


class GameService:
    """Hosts every channel's match. One instance per bot; safe to call from many coroutines at once."""

    def __init__(self, store: Store, *, renderer: Renderer = render_board, pool: RenderPool | None = None) -> None:
        self.store = store
        self._renderer = renderer
        # Boards are drawn in worker processes (a thread would take the interpreter lock from the event loop).
        self.render_pool = pool or (RenderPool.shared() if renderer is render_board else RenderPool(renderer=renderer))
        # Locks live only while someone holds or waits for them, so quiet channels cost no memory.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, channel_id: int) -> asyncio.Lock:
        # One move at a time per channel in this process; the store's version check covers other processes.
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # ----------------------------------------------------------------------------------------------- lobby

    async def new_match(self, guild_id: int, channel_id: int, game_name: str, host: Player, *,
                        mode: str | None = None, seed: int | None = None,
                        options: JSON | None = None) -> MatchRecord:
        """Open a lobby in the channel with the host seated (a one-player mode starts at once)."""
        game = find_game(game_name)
        chosen_mode = game.mode(mode)
        async with self._lock(channel_id):
            existing = await self.store.open_match(channel_id)
            if existing is not None:
                raise LobbyError(self._busy_message(existing))
            try:
                match = await self.store.create_match(
                    guild_id=guild_id, channel_id=channel_id, game=game.key, mode=chosen_mode.key,
                    host_id=host.user_id, host_name=host.name,
                    seed=seed if seed is not None else secrets.randbelow(2**53), seed_chosen=seed is not None,
                    options=dict(options or {}), data_version=game.data_version,
                )
            except ChannelBusy:
                current = await self.store.open_match(channel_id)
                raise LobbyError(self._busy_message(current)) from None
            if chosen_mode.max_players == 1:
                try:
                    match = await self._start(match, host.user_id)
                except RuleError:
                    # The game refused to set up (a locked solo expedition, say): close the lobby again.
                    await self._record(match, "abandoned", user_id=host.user_id, status="abandoned",
                                       text="The game could not be set up.")
                    raise
        return match

    def _busy_message(self, match: MatchRecord | None) -> str:
        if match is None:
            return "This channel already has a game. Use /game board to see it."
        title = find_game(match.game).title
        if match.status == "lobby":
            return (f"This channel already has a {title} lobby. Join it with /game join, or its host can end it "
                    "with /game abandon before starting another.")
        return (f"This channel already has a {title} game in progress. See it with /game board; the host (or "
                "anyone who can manage the channel) can end it with /game abandon.")

    async def _open(self, channel_id: int) -> MatchRecord:
        match = await self.store.open_match(channel_id)
        if match is None:
            raise LobbyError("There is no game in this channel. Start one with /game new.")
        return match

    async def _lobby(self, channel_id: int) -> MatchRecord:
        match = await self._open(channel_id)
        if match.status != "lobby":
            raise LobbyError("The game has already started; seats can no longer change.")
        return match

    async def join(self, channel_id: int, player: Player) -> MatchRecord:
        async with self._lock(channel_id):
            match = await self._lobby(channel_id)
            if match.seat_of(player.user_id) is not None:
                raise LobbyError("You are already seated in this game. Wait for the host to start it.")
            game = find_game(match.game)
            mode = game.mode(match.mode)
            if len(match.seats) >= mode.max_players:
                raise LobbyError(f"This game is full: {game.title} ({mode.title}) seats at most "
                                 f"{mode.max_players} players.")
            seats = [(s.user_id, s.name) for s in match.seats] + [(player.user_id, player.name)]
            await self._record(match, "joined", user_id=player.user_id, seat=len(match.seats), seats=seats,
                               text=f"{player.name} joined.")
            return await self._reload(match)

    async def leave(self, channel_id: int, player: Player) -> MatchRecord:
        """Leave a lobby; the next seated player becomes host, and a lobby left empty is closed."""
        async with self._lock(channel_id):
            match = await self._lobby(channel_id)
            if match.seat_of(player.user_id) is None:
                raise LobbyError("You are not seated in this game, so there is nothing to leave.")
            seats = [(s.user_id, s.name) for s in match.seats if s.user_id != player.user_id]
            if not seats:
                await self._record(match, "abandoned", user_id=player.user_id, seats=seats, status="abandoned",
                                   text=f"{player.name} left; the empty lobby was closed.")
            else:
                host = match.host_id if match.host_id != player.user_id else seats[0][0]
                await self._record(match, "left", user_id=player.user_id, seats=seats, host_id=host,
                                   text=f"{player.name} left.")
            return await self._reload(match)

    async def start(self, channel_id: int, user_id: int) -> MatchRecord:
        async with self._lock(channel_id):
            match = await self._lobby(channel_id)
            if user_id != match.host_id:
                host = match.user_at(match.seat_of(match.host_id) or 0)
                raise LobbyError(f"Only the host ({host.name if host else 'the host'}) can start the game.")
            return await self._start(match, user_id)

    async def _start(self, match: MatchRecord, user_id: int) -> MatchRecord:
        game = find_game(match.game)
        mode = game.mode(match.mode)
        count = len(match.seats)
        if not mode.min_players <= count <= mode.max_players:
            wanted = (str(mode.min_players) if mode.min_players == mode.max_players
                      else f"{mode.min_players} to {mode.max_players}")
            raise LobbyError(f"{game.title} ({mode.title}) needs {wanted} players; {count} seated. "
                             "Others can join with /game join.")
        options = await self._setup_options(match)
        version = match.version + 1
        rng = Rng(match.seed, version)
        state = game.setup(mode.key, [s.name for s in match.seats], rng, options)
        seed_note = f" Seed {match.seed} was chosen for this game." if match.seed_chosen else ""
        # The setup options (profiles included) go into the log so that a replay sets up exactly the same game.
        await self._record(match, "started", user_id=user_id, action={"setup_options": options}, draws=rng.draws,
                           state=state, status="active", text=f"{game.title} ({mode.title}) started.{seed_note}")
        return await self._reload(match)

    async def _setup_options(self, match: MatchRecord) -> JSON:
        profiles = [await self.store.profile(match.guild_id, s.user_id, match.game) for s in match.seats]
        return {**match.options, "profiles": profiles}

    async def abandon(self, channel_id: int, user_id: int, *, can_manage_channel: bool) -> MatchRecord:
        async with self._lock(channel_id):
            match = await self._open(channel_id)
            if user_id != match.host_id and not can_manage_channel:
                raise LobbyError("Only the host, or someone who can manage this channel, can abandon the game.")
            await self._record(match, "abandoned", user_id=user_id, status="abandoned",
                               text="The game was abandoned.")
            return await self._reload(match)

    # ----------------------------------------------------------------------------------------------- play

    async def act(self, channel_id: int, user_id: int, action: JSON, *,
                  expected_version: int | None = None) -> Accepted:
        """Submit an action for the user's seat. Returns once it is committed; nothing is rendered yet."""
        async with self._lock(channel_id):
            match = await self.store.open_match(channel_id)
            if match is None:
                latest = await self.store.latest_match(channel_id)
                if latest is not None and latest.status == "finished":
                    raise GameOver("The game in this channel is over. See the result with /game board, or start "
                                   "a new one with /game new.")
                match = await self._open(channel_id)
            return await self._act(match, user_id, action, expected_version)

    async def press(self, match_id: int, version: int, seat: int, index: int, user_id: int, *,
                    from_menu: bool = False) -> Accepted:
        """A board button (or menu option): the offer `index` made to `seat` on board `version` of the match."""
        match = await self.store.match(match_id)
        if match is None:
            raise LobbyError("That game no longer exists.")
        async with self._lock(match.channel_id):
            match = await self.store.match(match_id)
            assert match is not None
            if match.status in ("finished", "abandoned"):
                raise GameOver("That game is over. Start a new one with /game new.")
            if match.version != version:
                raise StaleBoard("That board is out of date: the game has moved on since. Here is the current board.")
            game = find_game(match.game)
            own_seat = match.seat_of(user_id)
            if own_seat is None:
                raise NotYourTurn("You are not playing in this game, so its buttons are not yours to press.")
            if own_seat != seat:
                owner = self._names(match, [seat])
                raise NotYourTurn(f"These buttons are for {owner}. {game.turn_text(match.state or {})}")
            offered = self._offers(game, match.state or {}, seat, from_menu)
            if not 0 <= index < len(offered):
                raise StaleBoard("That button is no longer offered. Here is the current board.")
            return await self._act(match, user_id, offered[index].action, version)

    async def _act(self, match: MatchRecord, user_id: int, action: JSON, expected_version: int | None) -> Accepted:
        if match.status == "lobby":
            raise LobbyError("The game has not started yet: the host starts it with /game start.")
        if match.status != "active" or match.state is None:
            raise GameOver("That game is over. Start a new one with /game new.")
        game = find_game(match.game)
        state = match.state
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotYourTurn("You are not playing in this game. Watch, or start your own in another channel.")
        if game.outcome(state) is not None:
            raise GameOver("That game is over. Start a new one with /game new.")
        waiting = game.to_act(state)
        if seat not in waiting:
            raise NotYourTurn(f"It is not your turn. {game.turn_text(state)}")
        if expected_version is not None and expected_version != match.version:
            raise StaleBoard("That board is out of date: the game has moved on since. Here is the current board.")
        rng = Rng(match.seed, match.version + 1)
        applied = game.apply(state, seat, action, rng)
        headline = " ".join(text for text in (game.describe(applied.state, e) for e in applied.events) if text)
        outcome = game.outcome(applied.state)
        profiles = {}
        if outcome is not None:
            for updated_seat, data in outcome.profile_updates.items():
                record = match.user_at(updated_seat)
                if record is not None:
                    profiles[(match.guild_id, record.user_id, match.game)] = data
        await self._record(match, "action", user_id=user_id, seat=seat, action=action, events=applied.events,
                           draws=rng.draws, text=headline, state=applied.state,
                           status="finished" if outcome is not None else None, profiles=profiles)
        return Accepted(await self._reload(match), headline)

    async def _record(self, match: MatchRecord, kind: str, **fields: Any) -> int:
        try:
            return await self.store.record(match.id, match.version, kind, **fields)
        except VersionClash:
            raise StaleBoard("Someone else moved at the same moment, so this was not applied. "
                             "Here is the current board.") from None

    async def _reload(self, match: MatchRecord) -> MatchRecord:
        fresh = await self.store.match(match.id)
        assert fresh is not None
        return fresh

    # ----------------------------------------------------------------------------------------------- reading

    def _names(self, match: MatchRecord, seats: Any) -> str:
        names = [record.name for seat in seats if (record := match.user_at(seat)) is not None]
        return " and ".join(names) if names else "nobody"

    async def board_message(self, match_id: int) -> int | None:
        """The message showing the match's latest board (its buttons go stale when a new board is posted)."""
        return await self.store.board_message(match_id)

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        await self.store.set_board_message(match_id, message_id)

    async def open_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's unfinished match, if any."""
        return await self.store.open_match(channel_id)

    async def current(self, channel_id: int) -> MatchRecord:
        """The channel's unfinished match, or else its most recent one."""
        match = await self.store.open_match(channel_id) or await self.store.latest_match(channel_id)
        if match is None:
            raise LobbyError("There is no game in this channel. Start one with /game new.")
        return match

    async def board(self, match: MatchRecord, *, headline: str | None = None) -> Board:
        """The public board of a match: rendered off the event loop, with the buttons for the seat to move."""
        game = find_game(match.game)
        if match.state is None:
            return Board(match, headline or "", "Waiting in the lobby.", None)
        state = match.state
        outcome = game.outcome(state)
        if headline is None:
            last = await self.store.events(match.id, last=1)
            headline = last[0].text if last else ""
        view = game.view(state, None)
        try:
            image: bytes | None = await self.render_pool.render(game.key, view,
                                                                footer=self._footer(match, outcome))
        except Exception:
            # The move is already committed: announce it in words rather than lose the announcement.
            log.exception("Rendering the %s board of match %s failed", game.key, match.id)
            image = None
        buttons: list[BoardButton] = []
        mentions: list[int] = []
        menu: BoardMenu | None = None
        if match.status == "active" and outcome is None:
            waiting = game.to_act(state)
            for seat in waiting:
                record = match.user_at(seat)
                if record is not None:
                    mentions.append(record.user_id)
            if waiting:
                seat = waiting[0]
                menu_offer = game.choice_menu(state, seat)
                offered = self._offers(game, state, seat, False)
                buttons = [
                    BoardButton(q.label, match.id, match.version, seat, index, q.emoji, q.style, q.row)
                    for index, q in enumerate(offered)
                ]
                if menu_offer is not None and menu_offer.options:
                    labels = tuple((q.label, q.emoji) for q in menu_offer.options[:MENU_OPTIONS])
                    menu = BoardMenu(menu_offer.placeholder, labels, match.id, match.version, seat)
            turn = game.turn_text(state)
        elif match.status == "abandoned":
            turn = "This game was abandoned."
        else:
            turn = outcome.summary if outcome else "The game is over."
        return Board(match, headline, turn, image, buttons, mentions, outcome, menu)

    @staticmethod
    def _offers(game: Game, state: JSON, seat: int, from_menu: bool) -> list[QuickAction]:
        """What the board offers `seat`: the menu's options, or the buttons (fewer when a menu takes a row)."""
        menu = game.choice_menu(state, seat)
        if from_menu:
            return list(menu.options[:MENU_OPTIONS]) if menu is not None else []
        limit = MENU_BUTTONS if menu is not None and menu.options else MAX_BUTTONS
        return game.quick_actions(state, seat)[:limit]

    @staticmethod
    def _footer(match: MatchRecord, outcome: Outcome | None) -> str | None:
        if match.seed_chosen and (outcome is not None or match.status != "active"):
            return f"Played with the chosen seed {match.seed}."
        return None

    async def seen(self, channel_id: int, user_id: int) -> Seen:
        """The channel's match as `user_id` may see it (their seat, if any)."""
        match = await self.current(channel_id)
        game = find_game(match.game)
        return Seen(match, game, match.state, match.seat_of(user_id))

    async def mine(self, channel_id: int, user_id: int) -> str:
        """The private text for /game mine."""
        seen = await self.seen(channel_id, user_id)
        if seen.seat is None:
            raise NotYourTurn("You are not playing in this channel's game, so there is nothing private to show.")
        if seen.state is None:
            return "The game has not started yet; nothing is dealt."
        return seen.game.private_text(seen.state, seen.seat)

    async def mine_in_match(self, match_id: int, user_id: int) -> str:
        """The private text for a "Show mine" button, which names its match."""
        match = await self.store.match(match_id)
        if match is None:
            raise LobbyError("That game no longer exists.")
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotYourTurn("You are not playing in that game, so there is nothing private to show.")
        if match.state is None:
            return "The game has not started yet; nothing is dealt."
        return find_game(match.game).private_text(match.state, seat)

    async def log(self, channel_id: int, count: int = 10) -> list[str]:
        match = await self.current(channel_id)
        events = await self.store.events(match.id, last=max(1, min(count, 50)))
        return [f"{event.seq}. {event.text}" for event in events if event.text]

    async def rules(self, channel_id: int | None, game_name: str | None = None) -> str:
        if game_name:
            game = find_game(game_name)
            return "\n\n".join(game.rules_text(mode.key) for mode in game.modes[:1])
        if channel_id is None:
            raise LobbyError("Name a game, or ask in a channel that has one.")
        match = await self.current(channel_id)
        return find_game(match.game).rules_text(match.mode)

    async def profile(self, guild_id: int, user_id: int, game_name: str) -> JSON:
        return await self.store.profile(guild_id, user_id, find_game(game_name).key)

    async def replayed_state(self, match_id: int) -> JSON | None:
        """Rebuild a match from its event log alone (for checks and history), with the recorded draws."""
        match = await self.store.match(match_id)
        if match is None:
            return None
        game = find_game(match.game)
        events = await self.store.events(match_id)
        started = next((e for e in events if e.kind == "started"), None)
        if started is None:
            return None
        options = (started.action or {}).get("setup_options", {})
        steps = [RecordedStep(e.seat or 0, e.action or {}, e.draws) for e in events if e.kind == "action"]
        names = [s.name for s in match.seats]
        return replay(game, match.mode, names, options, started.draws, steps)
