"""Finished games: the history of a channel and a server, replays of a game's log, and JSON exports checked step by
step (`expedition-bot replay FILE`, in bot/cli/replay.py).

Only games that are over (finished or abandoned) are replayed or exported: an export carries the seed, every draw
and the final state with its hands and deck order, which must never leave a game still being played.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import workers
from bot.core import JSON, LobbyError, RuleError, find_game
from bot.core.replay import RecordedStep, Replayer, Rewind
from bot.core.rng import ReplayDivergence
from bot.core.seats import is_bot
from bot.features.wording import game_title, names_and
from bot.i18n import deferred_plural, said, translate, unmarked
from bot.service import mode_title
from bot.store import EventColumns, EventRecord, MatchRecord, decode_event, reading
from bot.table import UNDO_KIND, setup_of

if TYPE_CHECKING:
    from bot.service import GameService

EXPORT_FORMAT = "expedition-table/export"
EXPORT_VERSION = 1
PAGE_SIZE = 10
CHANNEL_LINES = 5


def canonical(value: Any) -> str:
    """JSON with sorted keys and no spaces: the bytes every digest is taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


# --------------------------------------------------------------------------------------------- history


def result_text(match: MatchRecord, language: str = "en") -> str:
    """How a finished game ended, in a few words with the winners' names ("won by Alice", "gewonnen von Alice")."""
    if match.status == "abandoned" or match.state is None:
        return translate("history.result.abandoned", language)
    if match.lesson:
        return translate("history.result.lesson", language)
    outcome = find_game(match.game).outcome(match.state)
    if outcome is None:
        return translate("history.result.ended", language)
    names = [seat.name for seat in match.seats if seat.seat in outcome.winners]
    if not names:
        if len(match.seats) == 1:
            return translate("history.result.lost", language)
        return translate("history.result.no_winner", language)
    return translate("history.result.won_by", language, names=names_and(names, language))


def history_line(match: MatchRecord, language: str = "en") -> str:
    """One game as a line of text in `language`, its names marked as people's (bot/i18n/marks.py)."""
    game = find_game(match.game)
    mode = mode_title(game.mode(match.mode), language)
    names = ", ".join(said(seat.name) for seat in match.seats)
    day = (match.updated_at or match.created_at)[:10]
    return f"#{match.id} · {game_title(game, language)} ({mode}) · {day} · {names} · {result_text(match, language)}"


@dataclass(frozen=True)
class HistoryPage:
    """The channel's latest finished games and one page of the server's."""

    channel: list[MatchRecord]
    channel_total: int
    server: list[MatchRecord]
    server_total: int
    page: int
    pages: int


async def history(service: GameService, guild_id: int, channel_id: int, page: int = 1, *,
                  hidden_channels: Sequence[int] = (), reader_id: int | None = None) -> HistoryPage:
    """The channel's latest finished games and a page of the server's; the server's leave out games played in
    `hidden_channels` (channels the reader cannot view) unless the reader played in them."""
    channel, channel_total = await service.store.finished_matches(guild_id, channel_id=channel_id,
                                                                  limit=CHANNEL_LINES)
    _, server_total = await service.store.finished_matches(guild_id, limit=0, hidden_channels=hidden_channels,
                                                           player_id=reader_id)
    pages = max(1, -(-server_total // PAGE_SIZE))
    page = max(1, min(page, pages))
    server, _ = await service.store.finished_matches(guild_id, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE,
                                                     hidden_channels=hidden_channels, player_id=reader_id)
    return HistoryPage(channel, channel_total, server, server_total, page, pages)


async def finished_channels(service: GameService, guild_id: int) -> list[int]:
    """The channels and threads of a server where games are over (whose history someone may not view)."""
    return await service.store.finished_channels(guild_id)


async def played_in(service: GameService, match: MatchRecord, user_id: int) -> bool:
    """Whether the member played in the match: seated at its end, its host, or replaced by a computer player."""
    if user_id == match.host_id or match.seat_of(user_id) is not None:
        return True
    return any(owner.user_id == user_id for owner in await service.store.seat_owners(match.id))


async def finished_match(service: GameService, guild_id: int, match_id: int) -> MatchRecord:
    """A game of this server that is over; a refusal naming what is possible otherwise."""
    match = await service.store.match(match_id)
    if match is None or match.guild_id != guild_id:
        raise LobbyError("history.refuse.unknown", match=str(match_id))
    if match.status == "lobby":
        raise LobbyError("history.refuse.in_lobby", match=str(match_id))
    if match.is_open:
        raise LobbyError("history.refuse.still_playing", match=str(match_id))
    return match


def log_text(match: MatchRecord, entries: Sequence[str], language: str = "en") -> str:
    """The whole log of a game as numbered lines (its events' public descriptions, as the table read them), under a
    header in `language`: the text of a file, so names are shown as typed, each on one line."""
    game = find_game(match.game)
    players = ", ".join(f"{seat.seat + 1}. {said(seat.name)}" for seat in match.seats)
    head = [translate("history.log.title", language, game=game_title(game, language),
                      mode=mode_title(game.mode(match.mode), language), match=str(match.id)),
            translate("history.log.players", language, players=players),
            translate("history.log.result", language, result=result_text(match, language)), ""]
    lines = head + [f"{number}. {text}" for number, text in enumerate(entries, start=1)]
    return unmarked("\n".join(lines)) + "\n"  # a file shows names literally, each on its line


async def match_log(service: GameService, match: MatchRecord, language: str = "en") -> str:
    """The log as text: only the events' descriptions are read (no event decoded), so a long game costs the loop
    a string join."""
    return log_text(match, await service.store.event_texts(match.id), language)


# --------------------------------------------------------------------------------------------- export


EXPORTS_KEPT_BYTES = 64 * 1024 * 1024
"""How much of finished games' export files the process keeps in memory (the least recently asked for go first):
a game that is over never changes, so asking again costs nothing (a 1,412-move game's file is ~3 MB)."""


EXPORTS = workers.Shelf(EXPORTS_KEPT_BYTES)


async def export_file(service: GameService, guild_id: int, match_id: int, *,
                      member: int | None = None) -> tuple[str, bytes]:
    """A game that is over as its export file: the game's key and the JSON document (see `export_of`), built in
    the records worker, which reads the events itself (a 2,000-move game took 1.6 s on the event loop; fetching
    its rows for the worker still stalled the loop). Asked for by `member`: one export of a game is built at a time
    for everyone who asks, kept once built (`EXPORTS`), and a member waits for at most `workers.PER_MEMBER` exports
    at a time (the next is refused with when to ask again)."""
    match = await finished_match(service, guild_id, match_id)
    game, location = find_game(match.game), service.store.shared_location
    key = ("export", service.store.path, id(service.store), match.id, match.version, match.created_at)
    ask: dict[str, Any] = {"lane": workers.Lane.ON_DEMAND, "member": member, "key": key,
                           "busy": deferred_plural("workers.busy.export")}

    async def build() -> bytes:
        if location is None:  # an in-memory database: only this process can read it
            return await workers.run(game, export_text, match, await service.store.event_columns(match.id), **ask)
        return await workers.run(game, export_stored, location, match, **ask)

    return match.game, await EXPORTS.kept_or_built(key, build)


async def export_match(service: GameService, guild_id: int, match_id: int) -> JSON:
    """`export_file`'s document, read back (tests and tools; /game export sends the file)."""
    _, text = await export_file(service, guild_id, match_id)
    document: JSON = json.loads(text)
    return document


def export_stored(location: str, match: MatchRecord) -> bytes:
    """The export file of `match`, its events read from the database at `location` (in the worker process)."""
    return export_text(match, reading.event_columns(location, match.id))


def export_text(match: MatchRecord, columns: Sequence[EventColumns]) -> bytes:
    """The export file of `match` from its stored events (in the worker process)."""
    data = export_of(match, [decode_event(match.id, event) for event in columns])
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False).encode()


def export_of(match: MatchRecord, events: Sequence[EventRecord]) -> JSON:
    """A game that is over as a self-checking JSON document: setup, every record with the digest of the state after
    it, and the final state; its `sha256` covers everything else."""
    started = setup_of(events)
    if started is None or match.state is None:
        raise LobbyError("history.refuse.nothing_to_export", match=str(match.id))
    game = find_game(match.game)
    options = (started.action or {}).get("setup_options", {})
    replayer = Replayer(game, match.mode, [seat.name for seat in match.seats], options, started.draws)
    records = []
    for event in events:
        step = _step_of(event)
        if step is None:
            continue
        replayer.feed(step)
        records.append({"seq": event.seq, "kind": event.kind, "seat": event.seat, "action": event.action,
                        "draws": event.draws, "events": event.events,
                        "text": unmarked(event.text) if event.text else event.text,  # a file: names as typed
                        "state_sha256": digest(replayer.state)})
    body: JSON = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "match": {"id": match.id, "game": match.game, "mode": match.mode, "status": match.status,
                  "seed": match.seed, "seed_chosen": match.seed_chosen, "data_version": match.data_version,
                  "created_at": match.created_at, "finished_at": match.updated_at,
                  "players": [{"seat": seat.seat, "name": seat.name, "computer": is_bot(seat.user_id)}
                              for seat in match.seats]},
        "setup": {"options": options, "draws": started.draws, "state_sha256": digest(replayer.line[0])},
        "records": records,
        "final_state": match.state,
    }
    return {**body, "sha256": digest(body)}


def _step_of(event: EventRecord | JSON) -> RecordedStep | Rewind | None:
    kind = event.kind if isinstance(event, EventRecord) else event.get("kind")
    action = event.action if isinstance(event, EventRecord) else event.get("action")
    if kind == "action":
        seat = event.seat if isinstance(event, EventRecord) else event.get("seat")
        draws = event.draws if isinstance(event, EventRecord) else event.get("draws", [])
        return RecordedStep(int(seat or 0), action or {}, list(draws))
    if kind == UNDO_KIND:
        return Rewind(int((action or {})["moves"]))
    return None


@dataclass(frozen=True)
class CheckReport:
    """What checking an export found: one line per failure, and how many records were replayed."""

    title: str
    steps: int
    failures: list[str]

    @property
    def ok(self) -> bool:
        return not self.failures


def check_export(data: JSON) -> CheckReport:
    """Rebuild an exported game from its setup and records, checking the state after every record, the events each
    action produced, the final state and the document's digest."""
    failures: list[str] = []
    if data.get("format") != EXPORT_FORMAT or data.get("version") != EXPORT_VERSION:
        return CheckReport("?", 0, [f"not an Expedition Table export (format {data.get('format')!r}, version "
                                    f"{data.get('version')!r})"])
    body = {key: value for key, value in data.items() if key != "sha256"}
    if data.get("sha256") != digest(body):
        failures.append("the document's sha256 does not match its contents: it was changed after export")
    match = data["match"]
    game = find_game(match["game"])
    title = f"{game.title} game #{match['id']}"
    exported_data = str(match.get("data_version"))
    if exported_data != str(game.data_version):  # an owner edited data/ since: the same draws deal other cards
        failures.append(f"the game was played with component data version {exported_data}, this installation has "
                        f"{game.data_version}: cards and tiles may differ, so a replay may not match")
    setup = data["setup"]
    names = [player["name"] for player in sorted(match["players"], key=lambda p: p["seat"])]
    try:
        replayer = Replayer(game, match["mode"], names, setup["options"], setup["draws"])
    except (ReplayDivergence, RuleError, KeyError, ValueError) as error:
        return CheckReport(title, 0, [*failures, f"setup: could not be replayed: {error}"])
    if digest(replayer.state) != setup.get("state_sha256"):
        failures.append("setup: the state differs from the recorded one")
    records = data["records"]
    for number, record in enumerate(records, start=1):
        where = f"step {number} (event {record.get('seq')}, {record.get('kind')})"
        step = _step_of(record)
        if step is None:
            failures.append(f"{where}: unknown kind of record")
            continue
        try:
            produced = replayer.feed(step)
        except (ReplayDivergence, RuleError, KeyError, ValueError, TypeError) as error:
            failures.append(f"{where}: could not be replayed: {error}")
            return CheckReport(title, number, failures)
        if isinstance(step, RecordedStep) and produced != record.get("events"):
            failures.append(f"{where}: the action produced other events than were recorded")
        if digest(replayer.state) != record.get("state_sha256"):
            failures.append(f"{where}: the state differs from the recorded one")
    if digest(replayer.state) != digest(data.get("final_state")):
        failures.append("final: the replayed state differs from the exported final state")
    return CheckReport(title, len(records), failures)
