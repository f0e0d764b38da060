"""Issue 33 item 4: every label, number and symbol a board draws has a glossary entry, and "What's this?" (the
button under every board, and /game whats-this) explains the board as it is now, privately, in the reader's
language.

The coverage test draws the public boards of every game, mode and player count in English and German over whole
seeded matches, with the rendering recorder on, and fails on any code (a number, a symbol, an abbreviation) that is
neither a name, nor part of one of the view's sentences, nor matched by an entry of the game's glossary
(rendering/glossary/<game>.py)."""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.app import create_bot
from bot.core import JSON, find_game
from bot.i18n import message_ids, translate
from bot.offline import DiscordHarness
from bot.offline.recorder import Reply
from rendering import kit, render_board, render_detail
from rendering.glossary.entries import Glossary
from rendering.glossary.reading import Reader, glossary_of, needs_entry, read_texts
from tests.tables import FOUND_GAMES
from tests.test_render_boards import random_game
from tests.test_render_layout import CASES, NAMES, spread

SEEDS = (3, 11)
"""Seeded random matches per case (each read from its first board to its last, 12 positions)."""


@functools.cache
def played(game_key: str, mode: str, players: int, seed: int, language: str) -> tuple[JSON, ...]:
    """The positions of one seeded match, played once per process (the public and the detail test read them)."""
    return spread(random_game(game_key, mode, NAMES[:players], seed, language=language))


@pytest.mark.parametrize("board", ["public", "detail"])
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_every_code_a_board_draws_has_a_glossary_entry(game_key: str, mode: str, players: int, language: str,
                                                       board: str) -> None:
    game = find_game(game_key)
    unexplained: list[str] = []
    needed: set[str] = set()
    detail = board == "detail"
    for state in (state for seed in SEEDS for state in played(game_key, mode, players, seed, language)):
        view = {**game.view(copy.deepcopy(state), None), "language": language}
        with kit.recording() as drawn:
            (render_detail if detail else render_board)(game_key, view)
        reading = read_texts(game_key, view, [text.text for text in drawn], detail=detail)
        unexplained += [f"{text!r} ({view.get('turn')})" for text in reading.unexplained]
        needed |= set(reading.found)
    assert not unexplained, "\n".join(sorted(set(unexplained))[:40])
    assert needed, "a board with nothing to explain: the reading sees no texts"


def test_every_entry_is_explained_in_both_languages() -> None:
    for game_key in FOUND_GAMES:
        glossary = glossary_of(game_key)
        assert len(glossary.entries) >= 10 and len(glossary.detail_entries) >= 9
        for entry in glossary.entries + glossary.detail_entries:
            assert entry.message in message_ids("en") and entry.message in message_ids("de"), entry.message
            assert translate(entry.message, "en") != translate(entry.message, "de"), entry.message


def test_the_issues_examples_are_explained_and_an_unknown_label_is_not() -> None:
    """The labels the issue found unexplained, each matched by its entry; a new code without an entry fails."""
    expeditions_view = {"language": "en", "turn": "Bo to move",
                        "last_move": "Bo moves to 11 C Cinder Fields.", "players": [{"name": "Bo"}]}
    reading = read_texts("expeditions", expeditions_view,
                         ["Bo moves to 11 C Cinder Fields.", "+ stars $10 · glory 51", "$0 · 0 stars"])
    assert reading.unexplained == []
    assert reading.found == {"glossary.expeditions.location_code": ["11 C"],
                             "glossary.expeditions.breakdown": ["+ stars $10 · glory 51"],
                             "glossary.expeditions.money_stars": ["$0 · 0 stars"]}
    monster_view = {"language": "de", "words": {"de": {"turn": "Bo ist dran"}}}
    reading = read_texts("monster-expedition", monster_view, ["7 H", "2 SP · Käfig 1", "Bo ist dran"])
    assert reading.unexplained == []
    assert set(reading.found) == {"glossary.monster_expedition.card_level", "glossary.monster_expedition.card_points"}
    empty = Reader(Glossary("monster-expedition", ()), monster_view)
    assert empty.read(["7 H", "2 SP · Käfig 1", "free", "Bo ist dran"]).unexplained == ["7 H", "2 SP · Käfig 1"]
    assert needs_entry("caged 1") and needs_entry("→ go") and needs_entry("K Kartenmarker")
    assert not needs_entry("free") and not needs_entry("Markers here are never removed.")


def test_a_capital_word_is_a_word_only_in_the_language_that_writes_it() -> None:
    """Review 13, finding 23: the reader took "A" and "I" before a small word for English words in every language."""
    empty = Glossary("monster-expedition", ())
    english = {"language": "en", "words": {"en": {"turn": "A marker moves, then I take 2."}}}
    assert Reader(empty, english).read(["A marker moves, then I take 2."]).unexplained == []
    german = {"language": "de", "words": {"de": {"turn": "A wird gezogen, dann 2."}}}
    assert Reader(empty, german).read(["A wird gezogen, dann 2."]).unexplained == [
        "'A' in 'A wird gezogen, dann 2.'"]
    marked = {"language": "en", "words": {"en": {"turn": "\ufdd0Bo\nBo\ufdd1 takes 2."}}}
    assert Reader(empty, marked).read(["Bo Bo takes 2."]).unexplained == []  # a name marked over two lines


def said(reply: Reply) -> str:
    """A private answer's words: its embed (where the bot may embed) or its content."""
    return reply.content or "\n".join(str(embed.get("description", "")) for embed in reply.embeds)


async def _monster_table(discord_: DiscordHarness, language: str | None = None) -> None:
    julia, oliver = discord_.user("julia"), discord_.user("oliver")
    options = {"game": "monster-expedition", "seed": 7, **({"language": language} if language else {})}
    await discord_.command("game new", options, user=julia)
    await discord_.command("game join", user=oliver)
    await discord_.click(discord_.last_public_message(), label="Start" if language != "de" else "Starten",
                         user=julia)


async def test_whats_this_under_the_board_explains_it_privately(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        await _monster_table(discord_)
        board = discord_.last_public_message(with_components=True)
        assert board.button_labels()[-3:] == ["Show mine", "Details", "What's this?"]
        reply = (await discord_.click(board, label="What's this?", user=discord_.user("oliver"))).last
        assert reply.ephemeral
        text = said(reply)
        assert text.startswith("**What's on the Monster Expedition board** (as it is now):")
        assert re.search(r"• `\d+ [ADF*]`, `\d+ [ADF*]`, `\d+ [ADF*]` …: A monster's level and region\.", text)
        assert "The Monster Trader: 6 cages for a hunting value of 40" in text
        assert "`deck 24 · round 1`: Cards left in the draw deck, and the round." in text
        assert "Solo:" not in text  # only what this board shows
        assert reply.notified == (), "nobody is pinged"
        details = (await discord_.click(board, label="Details", user=discord_.user("oliver"))).last
        assert details.files and details.button_labels() == ["What's this?"]
        explained = (await discord_.click(details, label="What's this?", user=discord_.user("oliver"))).last
        text = said(explained)
        assert explained.ephemeral and text.startswith("**What's on the Monster Expedition detail board**")
        assert "A camp in full: its coloured die plus its black dice" in text
        assert re.search(r"`Deck \d+ · Reserve \d+ · Round 1`: Cards left in the draw deck, and the round", text)


async def test_whats_this_in_german_for_a_german_reader_at_an_english_table(database: Path) -> None:
    """The labels as the board shows them (the table's language), their meaning in the reader's."""
    async with DiscordHarness(create_bot(database)) as discord_:
        await _monster_table(discord_)
        anna = discord_.user("anna", locale="de")
        reply = (await discord_.command("game whats-this", user=anna)).one()
        assert reply.ephemeral
        text = said(reply)
        assert text.startswith("**Was auf dem Spielplan von Monster Expedition steht**")
        assert re.search(r"• `\d+ [ADF*]`, `\d+ [ADF*]`, `\d+ [ADF*]` …: Stufe und Region eines Monsters\.", text)
        assert "`deck 24 · round 1`: Karten im Nachziehstapel und die Runde." in text


async def test_whats_this_without_a_game_says_so(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        reply = (await discord_.command("game whats-this", user=discord_.user("julia"))).one()
        assert reply.ephemeral and said(reply) == translate("error.no_game", "en")


@pytest.mark.parametrize("game_key", FOUND_GAMES)
def test_reading_a_board_leaves_the_next_boards_pixels_alone(game_key: str) -> None:
    """A render worker that read a board for What's this? (drawn with the recorder on) draws the same board
    afterwards byte for byte: Expeditions' map layers drawn while recording are never repainted into a board (its
    basecamp tokens came out anti-aliased differently)."""
    from bot.games.pictures import picture_view
    from rendering import clear_caches
    from rendering.glossary.reading import read_board

    view = picture_view(game_key, "standard", "en")
    clear_caches()
    alone = render_board(game_key, view), render_detail(game_key, view)
    clear_caches()
    assert read_board(game_key, view) and read_board(game_key, view, detail=True)
    assert (render_board(game_key, view), render_detail(game_key, view)) == alone
