"""A match in words, for boards and answers: a board's story (its last moves, within what one message holds),
the result, and each mode's title and line in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core import (
    JSON,
    Game,
)
from bot.core.seats import bot_level, is_bot, taken_over_name
from bot.i18n import (
    LANGUAGES,
    Localized,
    in_language,
    last_chars,
    said,
    translate,
    translate_plural,
    with_names_marked,
)
from bot.service.shapes import CLOSING_KINDS
from bot.store import DM_GUILD as DM_GUILD  # for the cogs: a table in the bot's DM belongs to no server
from bot.store import EventRecord, MatchRecord
from bot.store import StoreDamaged as StoreDamaged  # for the cogs, which never import the store
from bot.store import StoreUnavailable as StoreUnavailable  # for the cogs, which never import the store
from bot.store import storage_full as storage_full
from bot.workers import WorkerBusy as WorkerBusy  # for the cogs (a refused image on demand)

STORY_EVENTS = 40  # how far back a board looks for the turn it tells
STORY_LINES = 8
STORY_CHARS = 1200  # ... and how much of it fits above the ping in one message


def told_key_first(game: Game, state: JSON, events: Sequence[JSON], language: str,
                   inserted: Sequence[tuple[int, str]] = ()) -> str:
    """A move's events in words, its key news first (`Game.key_events`, in that order: the end triggered, then a
    scoring), then the rest in the order they happened; `inserted` are sentences told at a place among the events
    (a step made for the player, at the index of the event it came before)."""
    told: list[tuple[int | None, str]] = [
        (game.key_events.index(event["kind"]) if event.get("kind") in game.key_events else None,
         game.describe(state, event, language)) for event in events]
    for at, sentence in reversed(inserted):
        told.insert(at, (None, sentence))
    key = sorted((entry for entry in told if entry[0] is not None), key=lambda entry: entry[0] or 0)
    rest = [entry for entry in told if entry[0] is None]
    return " ".join(text for _, text in [*key, *rest] if text)


def recorded(match: MatchRecord, texts: Sequence[str | None]) -> list[str | None]:
    """Texts read back from the log, each with its players' names marked as people's: a line an older bot
    recorded has no marks, so its names are found in it (bot/i18n/marks.py)."""
    names = [seat.name for seat in match.seats]
    return [with_names_marked(text, names) if text else text for text in texts]


def shown_state(match: MatchRecord, state: JSON) -> JSON:
    """The state as the channel is told it. A seat handed to a computer player (/game kick) keeps its player's name
    in the game (its replay knows the player by it), so on the board and in the story it is shown with the robot
    badge and level ("🤖 Bob (normal bot)") instead of passing for the person. The stored state is untouched."""
    players = state.get("players")
    renamed = {seat.seat: taken_over_name(seat.name, bot_level(seat.user_id) or "normal", match.language)
               for seat in match.seats if is_bot(seat.user_id) and not seat.name.startswith("🤖")}
    if not renamed or not isinstance(players, list):
        return state
    shown = dict(state)
    shown["players"] = [dict(player, name=renamed[seat]) if seat in renamed and isinstance(player, dict)
                        and "name" in player else player for seat, player in enumerate(players)]
    return shown


def final_result(game: Game, match: MatchRecord, state: JSON, language: str) -> str:
    """The result line of a finished game: the outcome's summary with every seat named as the board names it (a seat
    handed to a computer player, "🤖 Bob (normal bot)"), then, for each such seat, that its player left and the
    seat's score stands (the computer player played it to the end; /game kick)."""
    summary = game.outcome(shown_state(match, state))
    assert summary is not None
    left = [translate("table.result.left", language, name=said(seat.name)) for seat in match.seats
            if is_bot(seat.user_id) and not seat.name.startswith("🤖")]
    return " ".join([str(in_language(summary.summary, language)), *left])


def last_turn(events: Sequence[EventRecord], bot_seats: set[int]) -> list[EventRecord]:
    """The moves since a finished game's last board: back to the start of the last person's final turn (the board
    before it was theirs), with the computer players' moves after it; at a table of bots alone, the last moves."""
    taken: list[EventRecord] = []
    person: int | None = None
    for event in reversed(events):
        if event.kind in CLOSING_KINDS:
            continue
        if event.kind != "action" or (person is not None and event.seat != person):
            break
        taken.append(event)
        if person is None and event.seat is not None and event.seat not in bot_seats:
            person = event.seat
    return list(reversed(taken))


def turn_words(game: Game, state: JSON) -> Localized:
    """Whose turn it is, in every language: a refusal's value, worded in its reader's language."""
    return Localized.from_mapping({language: game.turn_text(state, language) for language in LANGUAGES})


def mode_title(mode: Any, language: str | None = None) -> str | Localized:
    """A mode's title in `language` (None: in every language, for a refusal worded later) when the game gives it
    one per language (a Localized title, or a `title_in(language)`), else as it is."""
    title_in = getattr(mode, "title_in", None)
    if callable(title_in):
        if language is None:
            return Localized.from_mapping({each: str(title_in(each)) for each in LANGUAGES})
        return str(title_in(language))
    return mode.title if language is None else str(in_language(mode.title, language))


def mode_players(mode: Any, language: str = "en") -> str:
    """The mode's title and player count as the mode choices show them: "Solo campaign (1 player)",
    "Standard (2–4 Spieler)"."""
    if mode.min_players == mode.max_players:
        return translate_plural("lobby.mode_choice.one", mode.min_players, language, mode=mode_title(mode, language))
    return translate("lobby.mode_choice", language, mode=mode_title(mode, language), low=mode.min_players,
                     high=mode.max_players)


def mode_line(mode: Any, language: str = "en") -> str:
    """One mode in a line, with what sets it apart (its summary): /game rules lists the modes so."""
    return translate("table.rules.mode", language, key=mode.key, choice=mode_players(mode, language),
                     summary=mode.summary_in(language))


PRIVATE_CHARS = 1990  # what one private message holds (Discord's 2,000, less a margin)


def whole_lines(text: str, most: int = PRIVATE_CHARS) -> str:
    """`text` as one message holds it: whole when it fits, else its first whole lines and "…" (a long /game mine
    was cut in the middle of a card's name)."""
    if len(text) <= most:
        return text
    return text[:most - 2].rsplit("\n", 1)[0] + "\n…"


def latest_move(story: str) -> str:
    """The newest move a board's story tells (its last line), "" when it tells none."""
    last = story.rsplit("\n", 1)[-1]
    told_elsewhere = tuple(translate("table.story.earlier", language).rsplit(": ", 1)[-1] for language in LANGUAGES)
    return "" if last.startswith("… ") and last.endswith(told_elsewhere) else last


def story_text(texts: Sequence[str | None], *, earlier: bool = False, language: str = "en") -> str:
    """A board's story: its last STORY_LINES moves within STORY_CHARS, saying how many earlier ones it leaves out
    and where to read them (`earlier`: moves before these that were not even read, so their number is unknown)."""
    lines = [text for text in texts if text]
    left_out = max(0, len(lines) - STORY_LINES)
    shown = lines[left_out:]
    while len(shown) > 1 and len("\n".join(shown)) > STORY_CHARS:
        shown, left_out = shown[1:], left_out + 1
    story = "\n".join(shown)
    if len(story) > STORY_CHARS:  # one move told at such length: its end says most
        story = "…" + last_chars(story, STORY_CHARS)
    if left_out and earlier:
        return translate_plural("table.story.left_out_and_more", left_out, language) + "\n" + story
    if left_out:
        return translate_plural("table.story.left_out", left_out, language) + "\n" + story
    if earlier:
        return translate("table.story.earlier", language) + "\n" + story
    return story
