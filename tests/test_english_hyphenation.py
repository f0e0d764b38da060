"""Issue 33 item 10, English side: an English name too wide for its line breaks where an English reader expects it,
at a compound's join ("Map-maker's", never "Mapmak-er's") or between syllables that leave three letters or more on
each side and no bare suffix ("-er's", "-ing") on the next line; never by German patterns ("He-art")."""

from __future__ import annotations

import functools
import itertools
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import bot.games  # noqa: F401  (every game package's catalogue domain)
from bot.i18n.catalog import catalogue_paths
from rendering import typeset, vocabulary
from tests.test_german_hyphenation import BOARD_MESSAGES

ROOT = Path(__file__).resolve().parents[1]
WORD = re.compile(r"[A-Za-z]+(?:['\u2019-][A-Za-z]+)*")


def _english_in_data(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "en" and isinstance(item, str):
                yield item
            else:
                yield from _english_in_data(item)
    elif isinstance(value, list):
        for item in value:
            yield from _english_in_data(item)


@functools.cache
def english_words_drawn() -> frozenset[str]:
    """Every English word a board may draw: the names in the data files, the words English public boards drew
    (rendering/vocabulary.txt and each game package's) and the catalogue's board texts; not the heads of words
    already broken there."""
    texts: set[str] = set()
    for path in sorted(ROOT.glob("data/*/*.toml")):
        texts.update(_english_in_data(tomllib.loads(path.read_text(encoding="utf-8"))))
    for line in _vocabulary_lines("en"):
        fields = line.split(" ", 3)
        if not line.startswith("#") and len(fields) == 4:
            texts.add(fields[3].replace("\\xa0", " "))
    for catalogue in catalogue_paths("en"):  # every domain: the platform's and each game package's
        with catalogue.open("rb") as handle:
            for message in read_po(handle):
                key = message.id if isinstance(message.id, str) else message.id[0]
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if key and key.startswith(BOARD_MESSAGES):
                    texts.update(re.sub(r"\{[^}]*\}", " ", text) for text in strings)
    return frozenset(word for text in texts for word in WORD.findall(text) if not text.endswith(word + "-"))


def _vocabulary_lines(language: str) -> list[str]:
    """The lines of every vocabulary file of `language`: the platform's and each game package's."""
    files = [ROOT / "rendering" / vocabulary.file_name(language)]
    files += [folder / vocabulary.file_name(language) for folder in vocabulary.folders()]
    return [line for path in files if path.is_file() for line in path.read_text(encoding="utf-8").splitlines()]


def breaks(word: str) -> tuple[int, ...]:
    """Every place the typesetter may break `word` in English text, whatever the width (not after its own hyphens,
    which are always fine)."""
    return tuple(sorted({cut for option in typeset.word_breaks(word, "en") for cut in option if word[cut - 1] != "-"}))


def shown(word: str, cuts: tuple[int, ...]) -> str:
    return "".join(ch + ("-" if i + 1 in cuts else "") for i, ch in enumerate(word))


def letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


def first_line(word: str, head: str, size: int = 18) -> str:
    """The first line of `word` wrapped as English at a width where `head` and its hyphen just fit."""
    with typeset.hyphenating("en"):
        return typeset.lines(word, typeset.measure(head + "-", size) + 1, size)[0]


def test_the_issue_word_breaks_at_its_join() -> None:
    """Expeditions' "Mapmaker's Quill" broke as "Mapmak-er's": now "Map-maker's", and never after "Mapmak"."""
    assert typeset.compound_breaks("en")["Mapmaker's"] == (3,)
    assert breaks("Mapmaker's") == (3,)
    assert first_line("Mapmaker's", "Mapmak") == "Map-"


def test_english_text_never_breaks_by_german_patterns() -> None:
    """English words the English patterns leave whole are not broken by German ones ("He-art", "Be-ast",
    "Sa-turn"); a German word listed in the German section keeps its seams in English text too."""
    assert breaks("Heart") == breaks("Beast") == breaks("Reach") == ()
    assert breaks("Saturn") == (3,)
    assert typeset.word_breaks("Obsidiansplitter", "en")[0] == (8,)


def test_the_sections_keep_each_language_to_its_own_list() -> None:
    german, english = typeset.compound_breaks("de"), typeset.compound_breaks("en")
    assert "Mapmaker's" not in german and "Obsidiansplitter" not in english
    assert german["Europa"] == (2,) and english["Europa"] == ()
    assert typeset.compound_breaks() == german


def test_every_english_word_drawn_breaks_only_at_a_sensible_point() -> None:
    """The audit: for every English word a board draws, every break the typesetter could make leaves three letters
    or more on each side and carries no bare suffix to the next line; a listed word breaks first at its seams only.
    The failure lists every word with its breaks."""
    words = english_words_drawn()
    assert len(words) > 500 and {"Mapmaker's", "Quill", "Medusamorph", "Saturn"} <= words
    wrong = []
    for word in sorted(words):
        for cut in breaks(word):
            head, tail = word[:cut].rsplit("-", 1)[-1], word[cut:].split("-", 1)[0]
            if min(letters(head), letters(tail)) < 3 or tail.lower() in typeset.ENGLISH_SUFFIXES:
                wrong.append(f"{shown(word, breaks(word))}: {head}-{tail}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("word", sorted(typeset.compound_breaks("en")))
def test_every_listed_english_word_is_drawn_and_breaks_first_at_its_seams(word: str) -> None:
    assert word in english_words_drawn(), f"listed but never drawn: {word}"
    seams = typeset.compound_breaks("en")[word]
    assert typeset.word_breaks(word, "en")[0] == seams
    assert all(letters(word[a:b]) >= 3 for a, b in itertools.pairwise((0, *seams, len(word)))), word
