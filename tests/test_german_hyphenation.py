"""Issue 33 item 10: German compounds break on boards only where the compound joins ("Obsidian-splitter", never
"Obsidi-ansplitter"): rendering/hyphenation.txt lists the words the patterns split wrongly, with "|" at their
compound boundaries, and the typesetter breaks a listed word only there."""

from __future__ import annotations

import functools
import itertools
import re
import tomllib
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rendering import typeset


def test_the_issue_words_are_listed_at_their_compound_boundaries() -> None:
    breaks = typeset.compound_breaks()
    assert breaks["Obsidiansplitter"] == (8,)
    assert breaks["Messingkompass"] == (7,)
    assert breaks["Aussichtshügel"] == (9,)


@pytest.mark.parametrize("word", sorted(typeset.compound_breaks()))
@pytest.mark.parametrize("weight", ["regular", "semibold"])
def test_a_listed_word_breaks_only_at_a_compound_boundary(word: str, weight: str) -> None:
    """At every width where each part of the compound fits on a line, the word breaks only between parts."""
    size = 17
    whole = typeset.measure(word, size, weight)
    cuts = (0, *typeset.compound_breaks()[word], len(word))
    parts = [word[start:end] + "-" for start, end in itertools.pairwise(cuts)]
    allowed = {word[start:end] + "-" for start, end in itertools.combinations(cuts[:-1], 2)}  # (parts and runs)
    allowed |= {word[start:cuts[-2]] + "-" for start in cuts[:-2]}
    heads = set()
    for width in range(max(typeset.measure(part, size, weight) for part in parts), whole):  # every part fits
        with typeset.hyphenating("de"):  # (German text: English text has its own list, "Europa" unbroken)
            lines = typeset.lines(word, width, size, weight)
        assert "".join(line.removesuffix("-") for line in lines) == word
        heads |= set(lines[:-1])
    assert heads and heads <= allowed, f"{word} broke as {sorted(heads)}"


# --- The audit: every German word a board draws, and where the typesetter may break it ------------------------------

ROOT = Path(__file__).resolve().parents[1]
BOARD_MESSAGES = ("monster.board", "expeditions.board", "expedition.board", "rating.image", "rules.picture",
                  "rules.part", "table.story", "count.", "monster.count", "monster.vp", "expeditions.resource",
                  "expeditions.word", "expeditions.money", "expedition.pts", "expedition.automation")
"""The catalogue messages the renderers draw (rendering/*.py translate these)."""
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+(?:-[A-Za-zÄÖÜäöüß]+)*")


def _german_in_data(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "de" and isinstance(item, str):
                yield item
            else:
                yield from _german_in_data(item)
    elif isinstance(value, list):
        for item in value:
            yield from _german_in_data(item)


@functools.cache
def german_words_drawn() -> frozenset[str]:
    """Every German word a board may draw: the names in the data files, the words German public boards drew
    (rendering/vocabulary-de.txt) and the catalogue's board texts; not the tails of words already broken there."""
    texts: set[str] = set()
    for path in sorted(ROOT.glob("data/*/*.toml")):
        texts.update(_german_in_data(tomllib.loads(path.read_text(encoding="utf-8"))))
    for line in (ROOT / "rendering" / "vocabulary-de.txt").read_text(encoding="utf-8").splitlines():
        fields = line.split(" ", 3)
        if not line.startswith("#") and len(fields) == 4:
            texts.add(fields[3])
    with (ROOT / "bot" / "i18n" / "locales" / "de" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        for message in read_po(handle):
            key = message.id if isinstance(message.id, str) else message.id[0]
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if key and key.startswith(BOARD_MESSAGES):
                texts.update(re.sub(r"\{[^}]*\}", " ", text) for text in strings)
    words = {word for text in texts for word in WORD.findall(text) if not text.endswith(word + "-")}
    return frozenset(w for w in words if not any(other != w and other.endswith(w) for other in words))


def breaks(word: str) -> tuple[int, ...]:
    """Every place the typesetter may break `word` in German text, whatever the width."""
    return tuple(sorted({cut for option in typeset.word_breaks(word, "de") for cut in option}))


def shown(word: str, cuts: tuple[int, ...]) -> str:
    return "".join(ch + ("-" if i + 1 in cuts and ch != "-" else "") for i, ch in enumerate(word))


def looks_compound(word: str, nouns: frozenset[str]) -> bool:
    """Whether a word ends in another noun the boards draw ("Gipfeldrache": "Drache"): then it is a compound whose
    seams the patterns do not know, and hyphenation.txt must say where it breaks."""
    return "-" not in word and word[:1].isupper() and any(
        word[i:].capitalize() in nouns for i in range(3, len(word) - 3))


def test_german_text_breaks_by_german_patterns_not_english_ones() -> None:
    """A German word not in the list breaks where German hyphenation puts its syllables ("Auf-wer-tun-gen"), not
    where English puts them ("Aufw-er-tun-gen"); English text keeps the English patterns first."""
    assert breaks("Aufwertungen") == (3, 6, 9)
    with typeset.hyphenating("de"):
        assert typeset.lines("Aufwertungen", typeset.measure("Aufwer-", 18) + 1, 18)[0] == "Aufwer-"
        assert typeset.lines("Aufwertungen", typeset.measure("Aufw-", 18) + 1, 18)[0] == "Auf-"
    assert typeset.lines("Aufwertungen", typeset.measure("Aufw-", 18) + 1, 18)[0] == "Aufw-"


def test_a_german_board_breaks_its_words_by_german_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's language reaches the typesetter: a renderer drawing a German view hyphenates German, an English
    view English."""
    import rendering

    narrow = typeset.measure("Aufw-", 18) + 1

    def first_line(view: dict[str, object]) -> bytes:
        return typeset.lines("Aufwertungen", narrow, 18)[0].encode()

    monkeypatch.setattr(rendering, "drawing", lambda key: types.SimpleNamespace(render=first_line,
                                                                                render_detail=first_line))
    assert rendering.render_board("the-expedition", {"title": "T", "language": "de"}) == b"Auf-"
    assert rendering.render_detail("the-expedition", {"title": "T", "language": "de"}) == b"Auf-"
    assert rendering.render_board("the-expedition", {"title": "T", "language": "en"}) == b"Aufw-"


def test_every_german_word_drawn_breaks_only_at_a_correct_point() -> None:
    """The audit: for every German word a board draws, every break the typesetter would make is one the German
    dictionary (pyphen's de_DE patterns) allows or the list (hyphenation.txt) gives; no break leaves a lone letter;
    a word that looks like a compound is listed with its seams. The failure lists every word with its breaks."""
    words = german_words_drawn()
    assert len(words) > 500 and {"Obsidiansplitter", "Messingkompass", "Aussichtshügel"} <= words
    nouns = frozenset(w for w in words if len(w) >= 4 and w[:1].isupper() and "-" not in w)
    dictionary = typeset.hyphenators()[1]
    listed = typeset.compound_breaks()
    wrong = []
    for word in sorted(words):
        cuts = breaks(word)
        own = {i + 1 for i, ch in enumerate(word) if ch == "-"}
        parts = [word[a:b] for a, b in itertools.pairwise((0, *cuts, len(word)))]
        allowed = _dictionary_breaks(word, dictionary)  # (a listed word: its seams, then syllables in its parts)
        if not set(cuts) <= allowed | own:
            wrong.append(f"{shown(word, cuts)}: not the dictionary's {shown(word, tuple(sorted(allowed)))}")
        if cuts and any(len(part.strip("-")) < 2 for part in parts):
            wrong.append(f"{shown(word, cuts)}: a lone letter")
        if word not in listed and looks_compound(word, nouns):
            wrong.append(f"{shown(word, cuts)}: a compound? list it in rendering/hyphenation.txt with its seams")
    assert not wrong, "\n".join(wrong)


def _dictionary_breaks(word: str, dictionary: object) -> set[int]:
    """The dictionary's breaks of a word: of each part between its hyphens, or a listed word's seams and the
    dictionary's breaks inside each of its parts."""
    found: set[int] = set()
    start = 0
    for part in word.split("-"):
        seams = typeset.compound_breaks().get(part)
        cuts = (0, *seams, len(part)) if seams is not None else (0, len(part))
        found |= {start + cut for cut in cuts[1:-1]}
        found |= {start + a + cut for a, b in itertools.pairwise(cuts)
                  for cut in dictionary.positions(part[a:b])}  # type: ignore[attr-defined]
        start += len(part) + 1
    return found


def test_every_listed_word_is_drawn_and_breaks_into_parts_of_two_letters_or_more() -> None:
    """The list stays the boards' own: each entry is a German word a board draws, split into real parts."""
    words = german_words_drawn()
    stale = [word for word in typeset.compound_breaks() if word not in words]
    assert not stale, f"listed but never drawn: {stale}"
    for word, cuts in typeset.compound_breaks().items():
        assert all(len(word[a:b]) >= 2 for a, b in itertools.pairwise((0, *cuts, len(word)))), word
