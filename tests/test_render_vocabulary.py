"""The harvested vocabulary a render worker warms at its start (rendering/vocabulary.txt and each game package's
own): it parses, names only faces the boards draw in, is warm after `warm_up`, and leaves few new words to a board of
a match it never saw."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import all_packages, find_game
from bot.core.datafiles import data_root
from rendering import clear_caches, kit, render_board, typeset, vocabulary
from rendering.glyphs import drawable_view
from tests.test_render_boards import random_game

FRESH_SEED = 4242
"""Neither the harvest's seeds (1000 on) nor the benchmark's (7)."""
MATCHES = [("the-expedition", "standard", 3), ("the-expedition", "solo", 1), ("monster-expedition", "standard", 3),
           ("monster-expedition", "solo", 1), ("expeditions", "standard", 3)]
FRESH_MATCHES = [*MATCHES, ("the-expedition", "solo-hard", 1), ("the-expedition", "abstract", 2),
                 ("monster-expedition", "standard", 4), ("expeditions", "standard", 1)]
"""Every game's solo boards (The Expedition's two solo modes, Expeditions alone), the abstract mode and the largest
Monster Expedition table (the most offers and cages on show) besides the matches above."""
GAME_WORDS = {"expeditions": "Basecamp", "monster_expedition": "Featherling", "the_expedition": "Neptune"}
"""A word only each game's boards draw (a place, a monster, a planet): in its package's vocabulary file."""
NEW_WORDS_PER_BOARD = 1
"""A fresh match's boards after a worker's warm-up with its language's file: at most this many words rasterised or
measured anew per board on average (0.01 when the file is harvested after the boards' last change of words; a
stale file left The Expedition's boards 2-3 each)."""


def _misses() -> int:
    return typeset.word_mask.cache_info().misses + typeset.word_width.cache_info().misses


def _boards(game_key: str, mode: str, players: int, seed: int, language: str = "en") -> Iterator[dict[str, Any]]:
    """The public views of one seeded match with the benchmark's and the harvest's player names, at a table of
    `language`."""
    game = find_game(game_key)
    names = [f"Player {i + 1}" for i in range(players)]
    for state in random_game(game_key, mode, names, seed, language):
        yield drawable_view({**game.view(state, None), "language": language})


def test_the_file_parses_with_real_faces_and_no_duplicates() -> None:
    entries = vocabulary.harvested()
    assert 1000 <= len(entries) <= 5000
    assert len(set(entries)) == len(entries)
    faces = {(size, weight) for size, weight, _, _ in entries}
    assert faces <= {(size, weight) for size in range(12, 44) for weight in ("regular", "semibold", "bold")}
    assert {(kit.SMALL, "regular"), (kit.BIG, "bold")} <= faces
    assert {vertical for _, _, vertical, _ in entries} <= {"a", "m", "-"}
    assert all(word and (" " not in word or (vertical, word) == ("-", " ")) for _, _, vertical, word in entries)
    assert any("\xa0" in word for _, _, _, word in entries)  # facts lines are single words to the kit


def test_each_game_packages_words_are_in_its_own_folder_found_through_the_registry() -> None:
    """A word only one game's boards draw is in that game's package folder, one several games' boards draw in
    rendering/; the registry hands every package's folder to the vocabulary (and a worker gets them from the bot)."""
    folders = [package.folder.resolve() for package in all_packages() if package.folder is not None]
    assert len(folders) >= 3 and set(folders) <= set(vocabulary.folders())
    for language in ("en", "de"):
        platform = vocabulary.own_entries(language)
        games = {folder.name: vocabulary.folder_entries(folder, language) for folder in folders}
        assert platform and all(games.values()), {name: len(held) for name, held in games.items()}
        everything = platform + [entry for held in games.values() for entry in held]
        assert len(set(everything)) == len(everything)  # each entry in one file
        assert set(vocabulary.harvested(language)) == set(everything)
    for game, word in GAME_WORDS.items():
        assert any(entry[3] == word for entry in vocabulary.folder_entries(vocabulary_folder(game))), (game, word)
        assert all(entry[3] != word for entry in vocabulary.own_entries()), (game, word)


def vocabulary_folder(domain: str) -> Any:
    return next(package.folder for package in all_packages() if package.domain == domain)


def test_a_malformed_line_is_an_error_and_words_round_trip() -> None:
    for word in ("captures", "2\xa0cards\xa0in\xa0hand\xa0·", "a\\b", "(final))", "→", "\t"):
        assert vocabulary.decode(vocabulary.encode(word)) == word
        assert vocabulary.parse(f"# comment\n\n18 regular a {vocabulary.encode(word)}\n") == [
            (18, "regular", "a", word)]
    for line in ("18 regular a", "18 light a word", "x regular a word", "18 regular q word", "18 regular a two words"):
        with pytest.raises(ValueError, match="line 1"):
            vocabulary.parse(line)


def test_every_face_of_the_file_is_one_a_board_draws_in() -> None:
    seen: set[tuple[int, str]] = set()
    mask = typeset.word_mask

    def spy(face: Any, word: str, vertical: str) -> Any:
        seen.add((int(face.size), typeset.WEIGHT_OF[face.path]))
        return mask(face, word, vertical)

    clear_caches()
    typeset.word_mask = spy  # type: ignore[assignment]
    try:
        for game_key, mode, players in MATCHES:
            views = list(_boards(game_key, mode, players, FRESH_SEED))
            for view in views[:: max(1, len(views) // 12)] + views[-1:]:
                render_board(game_key, view)
    finally:
        typeset.word_mask = mask  # type: ignore[assignment]
    drawn = {(size, weight) for size, weight, vertical, _ in vocabulary.harvested() if vertical != "-"}
    assert drawn <= seen


def test_warm_up_warms_every_entry_and_the_names() -> None:
    clear_caches()
    entries = vocabulary.harvested()
    vocabulary.warm_up(data_root())
    before = _misses()
    for size, weight, vertical, word in entries:
        if vertical == "-":
            typeset.word_width(word, size, weight)
        else:
            kit.warm_word(kit.font(size, weight), word, vertical)
            if weight == "regular":
                kit.warm_word(kit.font(size), word, vertical)
    for word in ("Riverside", "Glass"):  # names of the data files
        kit.warm_word(kit.font(kit.SMALL, "regular"), word)
    assert _misses() == before


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("game_key", "mode", "players"), FRESH_MATCHES)
def test_a_fresh_match_draws_few_new_words_after_the_warm_up(game_key: str, mode: str, players: int,
                                                             language: str) -> None:
    """Boards as the benchmark takes them (7 from the middle, the last 3) of a match no harvest played, after a
    warm-up with the vocabulary of the boards' language only (a worker warms every language's file, whose words
    would hide a stale one: numbers, names): a file harvested before the boards changed their words fails here."""
    clear_caches()
    vocabulary.warm_up(data_root(), entries=vocabulary.harvested(language))
    views = list(_boards(game_key, mode, players, FRESH_SEED, language))
    picked = views[len(views) // 2: len(views) // 2 + 7] + views[-3:]
    before = _misses()
    for view in picked:
        render_board(game_key, view)
    assert _misses() - before <= NEW_WORDS_PER_BOARD * len(picked)


def test_numbers_written_often_are_warmed_for_every_value_up_to_the_next_fifty() -> None:
    entries = [(18, "regular", "a", "$3."), (18, "regular", "a", "$17."), (18, "regular", "a", "$120."),
               (30, "bold", "a", "(4)"), (30, "bold", "a", "(9)"), (18, "regular", "a", "Mars")]
    warmed = vocabulary.numbers(entries)
    dollars = [word for size, weight, vertical, word in warmed if (size, weight, vertical) == (18, "regular", "a")]
    assert dollars == [f"${value}." for value in range(150)]
    assert not [entry for entry in warmed if entry[0] == 30]  # "(4)" seen twice only: a rare form stays rare
