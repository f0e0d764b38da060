"""The game service (see the package's docstring): one instance per bot hosts every channel's match."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

import rendering
from bot.core import (
    JSON,
    Applied,
    Game,
    GameOver,
    LobbyError,
    NotYourTurn,
    Offered,
    Outcome,
    Rng,
    StaleBoard,
    all_games,
    find_game,
    steps_action,
)
from bot.core.datafiles import data_root
from bot.core.replay import replay
from bot.core.seats import is_bot
from bot.games import boards, offered
from bot.i18n import (
    LANGUAGES,
    Text,
    deferred_plural,
    language_of,
    load_catalogues,
    said,
    translate,
)
from bot.service.shapes import (
    CLOSING_KINDS,
    FORCED_MOST,
    IMAGES_AT_ONCE,
    IMAGES_BUSY,
    LOG_LIMIT,
    LONG_READS,
    MAX_SEED,
    MENU_ROW,
    MINE_ROW,
    NO_HOST,
    OFFERS_KEPT,
    Accepted,
    Board,
    BoardButton,
    BoardChoice,
    BoardMarksHook,
    BoardMenu,
    BoardNoteHook,
    GameEndHook,
    InvalidControl,
    MoveHook,
    Player,
    Renderer,
    Seen,
    button_rows,
    game_command,
    host_passed_text,
    next_host,
)
from bot.service.words import (
    STORY_EVENTS,
    final_result,
    last_turn,
    latest_move,
    mode_line,
    mode_title,
    recorded,
    shown_state,
    story_text,
    told_key_first,
    turn_words,
    whole_lines,
)
from bot.settings import server_settings
from bot.store import DM_GUILD as DM_GUILD  # for the cogs: a table in the bot's DM belongs to no server
from bot.store import ChannelBusy, EventRecord, MatchRecord, Store, results_of
from bot.store import StoreDamaged as StoreDamaged  # for the cogs, which never import the store
from bot.store import StoreUnavailable as StoreUnavailable  # for the cogs, which never import the store
from bot.store import storage_full as storage_full
from bot.table import Tables, WritePlanner, steps_of
from bot.workers import FairWorkers, Lane
from bot.workers import WorkerBusy as WorkerBusy  # for the cogs (a refused image on demand)
from rendering import render_board
from rendering.pool import RenderPool

log = logging.getLogger(__name__)

T = TypeVar("T")


class GameService:
    """Hosts every channel's match. One instance per bot; safe to call from many coroutines at once."""

    def __init__(self, store: Store, *, renderer: Renderer = render_board, pool: RenderPool | None = None) -> None:
        self.store = store
        self._renderer = renderer
        # Boards are drawn in worker processes (a thread would take the interpreter lock from the event loop).
        self.render_pool = pool or (RenderPool.shared(data_root(), prepare=boards.warm_up) if renderer is render_board
                                    else RenderPool(renderer=renderer))
        # Everything drawn in the render workers takes its turn here (bot/workers.py): the boards of moves first
        # (`Lane.URGENT`), then what one member asked for (`Lane.ON_DEMAND`: Details, What's this?, a replay, the
        # rules picture, a leaderboard, a DM board), one such image at a time and the members taking turns, each
        # holding at most a small share: a member pressing What's this? a hundred times cannot make every table's
        # next board wait.
        self.renders = FairWorkers(None, self.render_pool.limit, at_once={Lane.ON_DEMAND: IMAGES_AT_ONCE})
        # Reads that count many rows for one member (a leaderboard place, a career) take turns the same way, so a
        # flood of them holds one of the database's connections at most: SQLite has one, which every move shares.
        self.long_reads = FairWorkers(None, LONG_READS)
        # One channel's transaction (lock, load, record, reload, commit at a version): bot/table.py.
        self.tables = Tables(store)
        # Features plug in here at start-up (bot/features/__init__.py: install); the service never imports them.
        self.after_move_hooks: list[MoveHook] = []
        self.game_end_hooks: list[GameEndHook] = []
        self.board_note_hooks: list[BoardNoteHook] = []
        self.board_marks_hooks: list[BoardMarksHook] = []
        # What the latest boards offered, by (match, version, seat, language): a press reads its action here rather
        # than make the offers again on the event loop (they are made in a render worker: bot/games/offered.py).
        self.offers_kept: dict[tuple[int, int, int, str], Offered] = {}

    def warm_up(self) -> None:
        """Load now what the first match of each game would load on the event loop (a bot's start does, before it
        connects): the catalogues, every game's data and words, the renderers that word alt text. Each first load
        held the loop 20-40 ms (benchmarks/bench_loop_lag.py, issue 25)."""
        load_catalogues()
        for game in all_games():
            game.warm_up()
        rendering.load_renderers(game.key for game in all_games())

    def on_after_move(self, hook: MoveHook) -> None:
        """Register what follows every committed move and the start of a game (the computer players' turns)."""
        self.after_move_hooks.append(hook)

    def on_game_end(self, hook: GameEndHook) -> None:
        """Register what follows a move that finished a game (rating it)."""
        self.game_end_hooks.append(hook)

    def on_board_note(self, hook: BoardNoteHook) -> None:
        """Register words to add to every public board of a match (a lesson's ideas)."""
        self.board_note_hooks.append(hook)

    def on_board_marks(self, hook: BoardMarksHook) -> None:
        """Register the parts to mark on a match's public board (those a lesson's idea on it points at)."""
        self.board_marks_hooks.append(hook)

    @property
    def planner(self) -> WritePlanner | None:
        """Sees every write before it commits, and so every change of the seats to move: plans each write's reminders
        and timers into its own transaction (the community feature, registered by the bot)."""
        return self.tables.planner

    @planner.setter
    def planner(self, planner: WritePlanner | None) -> None:
        self.tables.planner = planner

    # ----------------------------------------------------------------------------------------------- lobby

    async def new_match(self, guild_id: int, channel_id: int, game_name: str, host: Player, *,
                        mode: str | None = None, seed: int | None = None,
                        options: JSON | None = None, lesson: bool = False) -> MatchRecord:
        """Open a lobby in the channel with the host seated (a one-player mode starts at once); a `lesson`'s table
        never counts (no result for /stats, no rating, not in /game history)."""
        game = find_game(game_name)
        chosen_mode = game.mode(mode)
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise LobbyError("lobby.refuse.seed_range", most=str(MAX_SEED), seed=str(seed))
        chosen_seed = seed if seed is not None else secrets.randbelow(MAX_SEED + 1)
        async with self.tables.lock(channel_id):
            existing = await self.store.open_match(channel_id)
            if existing is not None:
                raise LobbyError(self._busy_message(existing))
            if chosen_mode.max_players == 1:
                # Set the game up before storing anything, so a refusal (a locked solo mode) changes nothing.
                profile = await self.store.profile(guild_id, host.user_id, game.key)
                trial_options = {**dict(options or {}), "profiles": [profile]}
                game.setup(chosen_mode.key, [host.name], Rng(chosen_seed, 1), trial_options)
            try:
                match = await self.store.create_match(
                    guild_id=guild_id, channel_id=channel_id, game=game.key, mode=chosen_mode.key,
                    host_id=host.user_id, host_name=host.name,
                    seed=chosen_seed, seed_chosen=seed is not None,
                    options=dict(options or {}), data_version=game.data_version,
                    community=await self.planner.lobby_opened(guild_id, channel_id) if self.planner else None,
                    lesson=lesson,
                )
            except ChannelBusy:
                current = await self.store.open_match(channel_id)
                raise LobbyError(self._busy_message(current)) from None
            if chosen_mode.max_players == 1:
                match = await self._start(match, host.user_id)
        return match

    async def table_language(self, guild_id: int, *, chosen: str | None = None, guild_locale: object = None) -> str:
        """The language a new table plays in: the one chosen at /game new, else the server's /settings language,
        else the server's preferred locale on Discord (`guild_locale`), else English."""
        if chosen:
            return language_of(chosen)
        setting = (await server_settings(self.store, guild_id)).language
        if setting in LANGUAGES:
            return setting
        return language_of(guild_locale)

    def _busy_message(self, match: MatchRecord | None) -> Text:
        if match is None:
            return Text.of("lobby.busy.unknown")
        title = find_game(match.game).title
        if match.status == "lobby":
            return Text.of("lobby.busy.lobby", title=title)
        return Text.of("lobby.busy.game", title=title)

    async def join(self, channel_id: int, player: Player) -> MatchRecord:
        async with self.tables.lock(channel_id):
            match = await self.tables.lobby(channel_id)
            if match.seat_of(player.user_id) is not None:
                if player.user_id == match.host_id:
                    raise LobbyError("lobby.refuse.host_seated")
                raise LobbyError("lobby.refuse.already_seated")
            game = find_game(match.game)
            mode = game.mode(match.mode)
            if len(match.seats) >= mode.max_players:
                raise LobbyError(Text.of("lobby.refuse.full", title=game.title, mode=mode_title(mode),
                                         count=mode.max_players))
            seats = [(s.user_id, s.name) for s in match.seats] + [(player.user_id, player.name)]
            # A lobby whose host left it to computer players alone: the first person to join hosts it.
            host = player.user_id if match.host_id == NO_HOST else None
            await self.tables.record(match, "joined", user_id=player.user_id, seat=len(match.seats), seats=seats,
                                     host_id=host,
                                     text=translate("lobby.log.joined", match.language, name=said(player.name)))
            return await self.tables.reload(match)

    async def leave(self, channel_id: int, player: Player) -> MatchRecord:
        """Leave a lobby; the next seated player becomes host, and a lobby left empty is closed."""
        async with self.tables.lock(channel_id):
            match = await self.tables.lobby(channel_id)
            if match.seat_of(player.user_id) is None:
                raise LobbyError("lobby.refuse.not_seated")
            seats = [(s.user_id, s.name) for s in match.seats if s.user_id != player.user_id]
            if not seats:
                await self.tables.record(match, "abandoned", user_id=player.user_id, seats=seats, status="abandoned",
                                   text=translate("lobby.log.closed", match.language, name=said(player.name)))
            else:
                host = match.host_id if match.host_id != player.user_id else next_host(match, player.user_id)
                text = translate("lobby.log.left", match.language, name=said(player.name))
                if host != match.host_id:
                    text += " " + host_passed_text(match, host, match.language)
                await self.tables.record(match, "left", user_id=player.user_id, seats=seats, host_id=host,
                                   text=text)
            return await self.tables.reload(match)

    async def start(self, channel_id: int, user_id: int) -> MatchRecord:
        async with self.tables.lock(channel_id):
            match = await self.tables.lobby(channel_id)
            if user_id != match.host_id:
                host = match.user_at(match.seat_of(match.host_id) or 0)
                raise LobbyError("lobby.refuse.host_starts", host=said(host.name) if host else "?")
            return await self._start(match, user_id)

    async def _start(self, match: MatchRecord, user_id: int) -> MatchRecord:
        game = find_game(match.game)
        mode = game.mode(match.mode)
        count = len(match.seats)
        if not mode.min_players <= count <= mode.max_players:
            wanted = (str(mode.min_players) if mode.min_players == mode.max_players
                      else Text.of("lobby.players.range", low=mode.min_players, high=mode.max_players))
            raise LobbyError(Text.of("lobby.refuse.player_count", title=game.title, mode=mode_title(mode),
                                     wanted=wanted, count=count))
        options = await self._setup_options(match)
        version = match.version + 1
        rng = Rng(match.seed, version)
        state = game.setup(mode.key, [s.name for s in match.seats], rng, options)
        title, shown_mode = game.title, mode_title(mode, match.language)
        text = (translate("table.log.started_seed", match.language, title=title, mode=shown_mode)
                if match.seed_chosen else translate("table.log.started", match.language, title=title, mode=shown_mode))
        # The setup options (profiles included) go into the log so that a replay sets up exactly the same game.
        await self.tables.record(match, "started", user_id=user_id, action={"setup_options": options}, draws=rng.draws,
                           state=state, status="active", text=text)
        return await self.after_move(await self.tables.reload(match))

    async def _setup_options(self, match: MatchRecord) -> JSON:
        profiles = [await self.store.profile(match.guild_id, s.user_id, match.game) for s in match.seats]
        return {**match.options, "profiles": profiles}

    async def abandon(self, channel_id: int, user_id: int, *, can_manage_channel: bool,
                      text: str | None = None) -> MatchRecord:
        """End the channel's game for everyone; `text` is the log's reason (its channel was deleted, say; default:
        "The game was abandoned." in the table's language)."""
        async with self.tables.lock(channel_id):
            match = await self.tables.open(channel_id)
            if user_id != match.host_id and not can_manage_channel:
                raise LobbyError("lobby.refuse.abandon")
            await self.tables.record(match, "abandoned", user_id=user_id, status="abandoned",
                                     text=text if text is not None else translate("table.log.abandoned",
                                                                                  match.language))
            return await self.tables.reload(match)

    # ----------------------------------------------------------------------------------------------- play

    async def act(self, channel_id: int, user_id: int, action: JSON, *,
                  expected_version: int | None = None, game_key: str | None = None) -> Accepted:
        """Submit an action for the user's seat. Returns once it is committed; nothing is rendered yet.

        `game_key` names the game whose command was used: a command of another game is refused with the
        channel's own game and commands named, not with that game's internal action names.
        """
        async with self.tables.lock(channel_id):
            match = await self.store.open_match(channel_id)
            if match is None:
                latest = await self.store.latest_match(channel_id)
                if latest is not None and latest.status == "finished":
                    raise GameOver("error.channel_game_over")
                match = await self.tables.open(channel_id)
            if game_key is not None and match.game != game_key:
                raise LobbyError(self._wrong_game_message(match, game_key))
            return await self._act(match, user_id, action, expected_version)

    @staticmethod
    def _wrong_game_message(match: MatchRecord, used: str) -> Text:
        here = find_game(match.game)
        group = game_command(here.key)
        how = Text.of("error.wrong_game.commands", group=group) if group else Text.of("error.wrong_game.buttons")
        command = game_command(used) or Text.of("error.wrong_game.that_command")
        return Text.of("error.wrong_game", title=here.title, how=how, command=command, other=find_game(used).title)

    async def press(self, match_id: int, version: int, seat: int, index: int, user_id: int, *,
                    channel_id: int, from_menu: bool = False) -> Accepted:
        """A board button (or menu option): the offer `index` made to `seat` on board `version` of the match.

        The press must come from the match's own channel: a control copied into another channel is refused.
        """
        # bench_scale (issue 13): one read, under the lock of the channel the press came from (a control copied
        # into another channel takes that channel's lock, then finds the match is not its own).
        async with self.tables.lock(channel_id):
            match = await self.store.match(match_id)
            if match is None or match.channel_id != channel_id:
                raise InvalidControl()
            if match.status in ("finished", "abandoned"):
                raise GameOver("error.game_over")
            if match.version != version:
                raise StaleBoard("error.board_out_of_date")
            game = find_game(match.game)
            own_seat = match.seat_of(user_id)
            if own_seat is None:
                raise await self._not_seated(match, Text.of("error.not_your_buttons"), user_id)
            if own_seat != seat:
                raise NotYourTurn("error.buttons_for", owner=self._names(match, [seat]),
                                  turn=turn_words(game, shown_state(match, match.state or {})))
            shown = await self.offers(match, seat)
            offered = (shown.menu.options if shown.menu is not None else ()) if from_menu else shown.buttons
            if not 0 <= index < len(offered):
                raise StaleBoard("error.button_gone")
            return await self._act(match, user_id, offered[index].action, version)

    async def offers(self, match: MatchRecord, seat: int) -> Offered:
        """What the board of `match` as it is now offers `seat`: kept from its board, else made in a render worker
        (a press never waits for the offers on the event loop: a game's may take ~10 ms, up to ~100 ms)."""
        key = (match.id, match.version, seat, match.language)
        kept = self.offers_kept.get(key)
        if kept is not None:
            return kept
        if match.state is None:
            return offered.NOTHING
        made = await self.render_pool.made(match.game, offered.offers, match.game, match.state, seat, match.language)
        self.offers_kept[key] = made
        while len(self.offers_kept) > OFFERS_KEPT:
            self.offers_kept.pop(next(iter(self.offers_kept)))
        return made

    async def _not_seated(self, match: MatchRecord, refusal: Text, user_id: int) -> NotYourTurn:
        """The refusal for a member without a seat; a kicked player is told how to take theirs back, not that they
        are not playing (read only on this refusal, so a move pays nothing for it)."""
        if any(o.user_id == user_id for o in await self.store.seat_owners(match.id)):
            return NotYourTurn("error.kicked")
        return NotYourTurn(refusal)

    async def _act(self, match: MatchRecord, user_id: int, action: JSON, expected_version: int | None) -> Accepted:
        accepted = await self.commit(match, user_id, action, expected_version, forced_too=True)
        played = await self.after_move(accepted.match)  # the computer players' turns that follow
        if played.version == accepted.match.version:
            return accepted
        return Accepted(played, accepted.headline, new_board=True, move=accepted.move)

    async def after_move(self, match: MatchRecord) -> MatchRecord:
        """Run what follows a committed move (the computer players' turns), under the channel's lock; returns the
        match as it then is."""
        for hook in self.after_move_hooks:
            match = await hook(match)
        return match

    async def commit(self, match: MatchRecord, user_id: int, action: JSON,
                     expected_version: int | None, *, forced_too: bool = False, planned: bool = True) -> Accepted:
        """Decide and commit one move of `user_id`'s seat on `match` (loaded under the channel's lock), checking the
        seat, the turn and the board version. The computer players' turns that follow are not played (see
        `after_move`). With `forced_too` (a person's move), the steps that follow it with one legal choice for the
        same seat are made for them in the same move (recorded as one compound action, told in the story): nobody
        presses a button that decides nothing. Unplanned (`planned=False`: a lesson's preparation), the move plans
        no reminders or boards: its caller plans the turn it ends at (`tables.plan_turn`)."""
        if match.status == "lobby":
            raise LobbyError("lobby.refuse.not_started")
        if match.status != "active" or match.state is None:
            raise GameOver("error.game_over")
        game = find_game(match.game)
        state = match.state
        seat = match.seat_of(user_id)
        if seat is None:
            raise await self._not_seated(match, Text.of("error.not_playing"), user_id)
        if game.outcome(state) is not None:
            raise GameOver("error.game_over")
        waiting = game.to_act(state)
        if seat not in waiting:
            raise NotYourTurn("error.not_your_turn", turn=turn_words(game, shown_state(match, state)))
        if expected_version is not None and expected_version != match.version:
            raise StaleBoard("error.board_out_of_date")
        rng = Rng(match.seed, match.version + 1)
        applied = game.apply(state, seat, action, rng)
        language = match.language  # the log, the story and the board are told in the table's language
        forced: list[tuple[int, str]] = []
        if forced_too and game.takes_steps:
            applied, action, forced = await self._forced_steps(game, match, seat, action, applied, rng)
        shown = shown_state(match, applied.state)  # a kicked seat's bot wears the robot badge
        headline = told_key_first(game, shown, applied.events, language, forced)
        outcome = game.outcome(applied.state)
        profiles = {}
        if outcome is not None and not match.lesson:  # (a lesson counts for nothing: no record, no result)
            for updated_seat, data in outcome.profile_updates.items():
                record = match.user_at(updated_seat)
                if record is not None:
                    profiles[(match.guild_id, record.user_id, match.game)] = data
        # bench_scale (issue 13): the committed match comes back from the store without a second read.
        status = "finished" if outcome is not None else None
        results = (results_of(outcome, (s.seat for s in match.seats))  # for /stats
                   if outcome is not None and not match.lesson else None)
        moved = await self.tables.commit_move(match, user_id=user_id, seat=seat, action=action, events=applied.events,
                                              draws=rng.draws, text=headline, state=applied.state, status=status,
                                              profiles=profiles, results=results, planned=planned)
        new_board = outcome is not None or game.to_act(applied.state) != waiting or (
            len(match.seats) == 1 and game.round_of(state) != game.round_of(applied.state))  # a solo round begins
        move = "" if headline else (await self._moves_in_words(match, seat, [(state, action)]))[0]
        if outcome is not None:  # records: rate the finished game once (bot/features/ratings.py; swept again later)
            for hook in self.game_end_hooks:
                try:
                    await hook(moved)
                except Exception:  # the move is committed; /leaderboard and /stats rate what was missed
                    log.exception("After the end of match %s, %r failed", moved.id, hook)
        return Accepted(moved, headline, new_board, move)

    async def _forced_steps(self, game: Game, match: MatchRecord, seat: int, action: JSON, applied: Applied, rng: Rng
                            ) -> tuple[Applied, JSON, list[tuple[int, str]]]:
        """The steps after `action` that leave `seat` one legal choice, made for it with the same `rng`: the applied
        result of them all, the compound action to record and, per step made, a sentence ("Only one choice was
        left, so it was made: Gather.") with the number of events before it."""
        steps, events = [action], list(applied.events)
        made: list[tuple[int, JSON, JSON]] = []  # (events before it, the state it was made in, the step)
        state = applied.state
        while len(steps) < FORCED_MOST and game.outcome(state) is None and game.to_act(state) == (seat,):
            legal = game.legal_actions(state, seat)
            if len(legal) != 1:
                break
            made.append((len(events), state, legal[0]))
            state_after = game.apply(state, seat, legal[0], rng)
            state, events = state_after.state, events + list(state_after.events)
            steps.append(legal[0])
        if len(steps) == 1:
            return applied, action, []
        said_as = await self._moves_in_words(match, seat, [(before, step) for _, before, step in made])
        told = [(count, translate("table.story.only_choice", match.language, move=words) if words
                 else translate("table.story.only_choice_made", match.language))
                for (count, _, _), words in zip(made, said_as, strict=True)]
        return Applied(state, events), steps_action(steps), told

    async def _moves_in_words(self, match: MatchRecord, seat: int, moves: list[tuple[JSON, JSON]]) -> list[str]:
        """Each (state, action) of `seat`'s move as the board offered it (`offered.move_words_of`), found where
        boards are drawn: finding them means making the offers."""
        return await self.render_pool.made(match.game, offered.moves_in_words, match.game, moves, seat,
                                           match.language)

    # ----------------------------------------------------------------------------------------------- reading

    def _names(self, match: MatchRecord, seats: Any) -> str | Text:
        names = [said(record.name) for seat in seats if (record := match.user_at(seat)) is not None]
        if len(names) > 1:
            return Text.of("table.names", first=", ".join(names[:-1]), last=names[-1])
        return names[0] if names else Text.of("table.nobody")

    async def board_style(self, guild_id: int) -> str:
        """"turn" (one board message per turn, edited as the turn goes on) or "step" (a new message per move).

        Per turn is the default; a server setting (/settings board) can choose the verbose style.
        """
        return (await server_settings(self.store, guild_id)).board_style

    async def board_message(self, match_id: int) -> int | None:
        """The message showing the match's latest board (its buttons go stale when a new board is posted)."""
        return await self.store.board_message(match_id)

    async def set_board_message(self, match_id: int, message_id: int, version: int | None = None) -> None:
        await self.store.set_board_message(match_id, message_id, version)

    async def board_behind(self, match: MatchRecord) -> int | None:
        """The version of the match's board message when that board is behind: moves of other seats than the one(s)
        to move now were committed after it was posted, so the turn changed hands without a new board (the process
        stopped in between), or a finished match's last board is not its final one. None when the board is current,
        or when no posted version is known."""
        if match.status not in ("active", "finished") or match.state is None:
            return None
        posted = await self.store.board_version(match.id)
        if posted is None or posted >= match.version:
            return None
        to_move = set(find_game(match.game).to_act(match.state)) if match.status == "active" else set()
        since = await self.store.events(match.id, after=posted)
        return posted if any(e.kind == "action" and e.seat not in to_move for e in since) else None

    async def open_match(self, channel_id: int) -> MatchRecord | None:
        """The channel's unfinished match, if any."""
        return await self.store.open_match(channel_id)

    async def current(self, channel_id: int) -> MatchRecord:
        """The channel's unfinished match, or else its most recent one."""
        match = await self.store.open_match(channel_id) or await self.store.latest_match(channel_id)
        if match is None:
            raise LobbyError("error.no_game")
        return match

    async def match(self, match_id: int) -> MatchRecord:
        """A match by id, as stored now."""
        match = await self.store.match(match_id)
        if match is None:
            raise LobbyError("error.game_gone")
        return match

    async def turn_story(self, match: MatchRecord) -> str:
        """What happened since the turn last passed: the turn(s) just ended, or the current turn so far.

        With one board message per turn a board must tell the whole turn, not only its last step: a new board
        tells what the players before the one to move did; a board updated in place tells the turn so far. When
        only computer players moved in between, no board was posted for them, so the new board also tells the
        mover's own previous turn (its last step was never on a board).
        """
        game = find_game(match.game)
        to_move = set(game.to_act(match.state)) if match.state is not None and match.is_open else set()
        bot_seats = {seat.seat for seat in match.seats if is_bot(seat.user_id)}
        if not to_move:  # over: the final board tells what came since the last board, not earlier turns again
            events = await self.store.events(match.id, last=STORY_EVENTS)
            told = last_turn(events, bot_seats)
            return story_text(recorded(match, [self._without_result(match, game, event) for event in told]),
                              earlier=len(told) == len(events) == STORY_EVENTS, language=match.language)
        lines = await self.store.event_lines(match.id, STORY_EVENTS)  # no event decoded for a board's story
        posted = await self.store.board_version(match.id) if len(match.seats) == 1 else None
        if posted is not None:  # alone: a board per round tells the moves since the last one was posted
            since = [text for seq, kind, _, text in lines if seq > posted and kind not in CLOSING_KINDS]
            return story_text(recorded(match, since), earlier=len(since) == len(lines) == STORY_EVENTS,
                              language=match.language)
        this_turn: list[str] = []
        before: list[str] = []
        mover_before: list[str] = []
        others_were_bots = True
        cut_short = False  # the turn goes back further than the events read
        for _, kind, seat, text in reversed(lines):
            if kind in CLOSING_KINDS:
                continue  # the board's own last line says so; the story is the last moves before it
            if kind != "action":
                if not this_turn and not before and text:
                    before.append(text)  # the start of the game, when nobody has moved yet
                break
            mover = seat in to_move
            if not before and not mover_before and mover:
                this_turn.append(text)
            elif this_turn:
                break  # a board updated in place: the turn so far
            elif not mover and not mover_before:
                before.append(text)
                others_were_bots = others_were_bots and seat in bot_seats
            elif mover and others_were_bots and not to_move & bot_seats:
                mover_before.append(text)
            else:
                break
        else:
            cut_short = len(lines) >= STORY_EVENTS
        return story_text(recorded(match, list(reversed(this_turn or before + mover_before))), earlier=cut_short,
                          language=match.language)

    @staticmethod
    def _without_result(match: MatchRecord, game: Game, event: EventRecord) -> str:
        """A final move's text without its result sentence ("Game over: Ada wins."): the final board's last line
        says the result with every score, so the story does not say it first. The move that ended the game is
        told again from the final state, as it was when committed, leaving out only the result events."""
        if match.status != "finished" or match.state is None or \
                not any(e.get("kind") in game.result_events for e in event.events):
            return event.text
        shown = shown_state(match, match.state)
        return told_key_first(game, shown, [e for e in event.events if e.get("kind") not in game.result_events],
                              match.language)

    async def asked_image(self, member: int | None, draw: Callable[[], Awaitable[T]], *,
                          key: Hashable | None = None, busy: str = IMAGES_BUSY) -> T:
        """`await draw()`, work in the render workers `member` asked for (None: the bot's own, as a DM board, never
        refused), when its turn comes in `renders`: behind the boards of moves, one at a time, the members taking
        turns, while the member holds fewer than `workers.PER_MEMBER` waiting or being drawn; else refused
        privately with when to ask again (`busy`, a plural message id taking the seconds). A `key` shares one
        drawing between everyone asking for it meanwhile."""
        return await self.renders.run_awaited(draw, lane=Lane.ON_DEMAND, member=member, key=key,
                                              busy=busy)

    async def long_read(self, member: int | None, read: Callable[[], Awaitable[T]]) -> T:
        """`await read()`, a read counting many rows that `member` asked for (a career, a leaderboard), when its
        turn comes: one at a time, the members taking turns, each holding at most a small share."""
        return await self.long_reads.run_awaited(read, lane=Lane.ON_DEMAND, member=member,
                                                 busy=deferred_plural("workers.busy.read"))

    async def detail_image(self, match: MatchRecord, *, member: int | None = None) -> bytes:
        """The full-size board with everything the phone-sized public board leaves out (public information only),
        for `member` (see `asked_image`)."""
        state = match.state
        if state is None:
            raise LobbyError("error.no_board_yet")
        game = find_game(match.game)
        view = {**game.view(shown_state(match, state), None), "language": match.language}
        return await self.asked_image(member, lambda: self.render_pool.render(
            game.key, view, detail=True, footer=self._footer(match, game.outcome(state))))

    async def detail_in_match(self, match_id: int, *, channel_id: int,
                              member: int | None = None) -> tuple[MatchRecord, bytes]:
        """The detail board for a "Details" button, which names its match (refused outside its channel)."""
        match = await self.store.match(match_id)
        if match is None or match.channel_id != channel_id:
            raise InvalidControl()
        return match, await self.detail_image(match, member=member)

    async def board(self, match: MatchRecord, *, headline: str | None = None, asked: bool = False,
                    member: int | None = None) -> Board:
        """The public board of a match: rendered off the event loop, with the buttons for the seat to move. A board
        of a move goes before anything asked for; an `asked` one (a replay, a DM board) takes its turn as an image
        `member` asked for (`asked_image`: refused when they hold their share)."""
        game = find_game(match.game)
        language = match.language
        if match.state is None:
            return Board(match, headline or "", translate("table.waiting_in_lobby", language), None)
        state = match.state
        outcome = game.outcome(state)
        if headline is None:
            headline = await self.turn_story(match)
        # The image's caption is the message's story (its newest move), never a move told otherwise. The view and
        # the board in words are made where the board is drawn (a render worker), not on the event loop.
        image: bytes | None = None
        described = ""
        footer = self._footer(match, outcome)
        waiting = game.to_act(state) if match.status == "active" and outcome is None else ()
        # The offers are made in a render worker too, while the image is drawn (bot/games/offered.py).
        offers = asyncio.ensure_future(self.offers(match, waiting[0])) if waiting else None
        marks = [mark for hook in self.board_marks_hooks for mark in await hook(match)]
        closed = translate("lesson.finished_short", language) if match.lesson and match.status == "finished" and \
            outcome is None else None  # (a lesson that taught enough of a long game: bot/core/lessons.py)

        def draw() -> Awaitable[tuple[bytes, str]]:
            return self.render_pool.render_made(game.key, boards.public_view, game.key, shown_state(match, state),
                                                language, latest_move(headline), marks, closed, footer=footer)

        try:
            if asked:
                image, described = await self.asked_image(member, draw)
            else:
                image, described = await self.renders.run_awaited(draw, lane=Lane.URGENT)
        except WorkerBusy:
            raise
        except Exception:
            # The move is already committed: announce it in words rather than lose the announcement.
            log.exception("Rendering the %s board of match %s failed", game.key, match.id)
        buttons: list[BoardButton] = []
        mentions: list[int] = []
        menu: BoardMenu | None = None
        choice: BoardChoice | None = None
        if match.status == "active" and outcome is None:
            for seat in waiting:
                record = match.user_at(seat)
                if record is not None and not is_bot(record.user_id):  # a computer player is never pinged
                    mentions.append(record.user_id)
            if offers is not None:
                seat = waiting[0]
                shown = await offers
                rows = button_rows([q.row for q in shown.buttons], MENU_ROW if shown.menu is not None else MINE_ROW)
                buttons = [
                    BoardButton(q.label, match.id, match.version, seat, index, q.emoji, q.style, row)
                    for index, (q, row) in enumerate(zip(shown.buttons, rows, strict=True))
                ]
                if shown.menu is not None:
                    labels = tuple((q.label, q.emoji) for q in shown.menu.options)
                    menu = BoardMenu(shown.menu.placeholder, labels, match.id, match.version, seat,
                                     tuple(q.description for q in shown.menu.options))
                choice = BoardChoice(seat, shown_state(match, state), shown)
            turn = game.turn_text(shown_state(match, state), language)
        elif match.status == "abandoned":
            turn = translate("table.abandoned", language)
        elif match.lesson and outcome is None:  # a lesson that taught enough of a long game (bot/core/lessons.py)
            turn = translate("lesson.finished", language)
        else:
            turn = final_result(game, match, state, language) if outcome else translate("table.over", language)
            # The result reaches everyone seated (issue 33): a game that lasted days ends with a ping for each person.
            mentions = [seat.user_id for seat in match.seats if not is_bot(seat.user_id)]
        to_move = () if outcome is not None else tuple(said(record.name) for user_id in mentions
                                                          for record in match.seats if record.user_id == user_id)
        alt = self._alt_text(game, described, headline, turn, language, footer)
        notes = [await hook(match, choice) for hook in self.board_note_hooks]
        if match.in_dm:  # the bot's DM notifies its one member of every message: nobody is pinged there
            mentions = []
        return Board(match, headline, turn, image, buttons, mentions, outcome, menu, alt, to_move,
                     "\n".join(note for note in notes if note))

    @staticmethod
    def _alt_text(game: Game, described: str, headline: str, turn: str, language: str = "en",
                  footer: str | None = None) -> str:
        """The board in words, for screen readers and for anyone whose image did not load (Discord's alt text): the
        renderer's description, or the game, the story and the turn when it has none; and the image's footer line,
        which a long description must not push out of Discord's 1,024 characters."""
        text = described or " ".join(part for part in (translate("table.alt_text", language, title=game.title),
                                                       headline, turn) if part)
        if not footer:
            return text[:1000]
        return f"{text[:1000 - len(footer) - 1]} {footer}"

    @staticmethod
    def _footer(match: MatchRecord, outcome: Outcome | None) -> str | None:
        if match.seed_chosen and (outcome is not None or match.status != "active"):
            return translate("table.footer.seed", match.language, seed=str(match.seed))
        return None

    async def seen(self, channel_id: int, user_id: int) -> Seen:
        """The channel's match as `user_id` may see it (their seat, if any)."""
        match = await self.current(channel_id)
        game = find_game(match.game)
        return Seen(match, game, match.state, match.seat_of(user_id))

    async def mine(self, channel_id: int, user_id: int, language: str = "en") -> str:
        """The private text for /game mine, in the reader's `language`."""
        seen = await self.seen(channel_id, user_id)
        if seen.seat is None:
            raise NotYourTurn("error.not_playing_here")
        if seen.state is None:
            return translate("table.nothing_dealt", language)
        return whole_lines(seen.game.private_text(seen.state, seen.seat, language))

    async def mine_in_match(self, match_id: int, user_id: int, *, channel_id: int, language: str = "en") -> str:
        """The private text for a "Show mine" button, which names its match (refused outside its channel)."""
        match = await self.store.match(match_id)
        if match is None or match.channel_id != channel_id:
            raise InvalidControl()
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotYourTurn("error.not_playing_there")
        if match.state is None:
            return translate("table.nothing_dealt", language)
        return whole_lines(find_game(match.game).private_text(match.state, seat, language))

    async def log(self, channel_id: int, count: int = 10) -> list[str]:
        """The newest `count` entries of the channel's game, numbered from the first without gaps."""
        match = await self.current(channel_id)
        entries = await self.store.event_texts(match.id)  # the descriptions only: no event decoded
        count = max(1, min(count, LOG_LIMIT))
        first = max(0, len(entries) - count)
        return [f"{number}. {text}" for number, text in enumerate(recorded(match, entries[first:]), start=first + 1)]

    @staticmethod
    def games_text(language: str = "en") -> str:
        """What to play: every game, its modes and player counts, and how to start one."""
        lines = [translate("table.games.heading", language)]
        for game in all_games():
            lines.append(translate("table.games.game", language, title=game.title,
                                   command=game_command(game.key) or ""))
            lines += ["  " + mode_line(mode, language) for mode in game.modes]
        lines.append(translate("table.games.how", language))
        return "\n".join(lines)

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
        steps = steps_of(events)  # actions, and agreed undos as rewinds
        names = [s.name for s in match.seats]
        return replay(game, match.mode, names, options, started.draws, steps)


