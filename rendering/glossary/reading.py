"""Reading a board: which of its drawn texts each glossary entry explains, and which codes none does.

A drawn text needs an entry when it holds a number, a symbol or an abbreviation (a word of one to three capitals)
and is neither a name from the board's view (a card, a place, a player, wrapped or hyphenated over lines) nor a
piece of one of the view's sentences (the turn, the story, a location's rule): sentences explain themselves, but a
code inside one (a location's "9 C") still needs an `inside` entry. Plain words ("free", "marker") need none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import capital_words, translate, unmarked
from rendering.glossary.entries import Entry, Glossary

SPACES = re.compile(r"[\s\u00a0\u202f]+")
DIGIT = re.compile(r"\d")
SYMBOL = re.compile(r"[^\w\s.,;:'!?()\"’„“‘/\-–]")
"""Anything but letters, digits, spaces and sentence punctuation: $, ·, +, =, ✓, arrows, *, %."""
ABBREVIATION = re.compile(r"(?<![\w'’])[A-ZÄÖÜ]{1,3}(?![\w'’])")
REPEATED = re.compile(r" \(×\d+\)")
"""How often a caption's sentence was told in a row ("nothing gained (×2)."): the caption's own words."""


def normal(text: str) -> str:
    """A drawn text with its no-break and thin spaces as plain ones, soft hyphens and the marks around people's
    names (bot/i18n/marks.py: a view marks them, a drawn board does not) gone, spaces collapsed."""
    return SPACES.sub(" ", unmarked(text).replace("\u00ad", "")).strip()


def without_rest_note(text: str, rest: str) -> str:
    """A caption's line without the note saying where the rest of the story is, or the part of it wrapped onto
    this line ("… (the rest:" / "/game log)")."""
    text = text.replace(rest, "")
    for size in range(len(rest) - 1, 1, -1):
        if text.endswith(rest[:size]):
            return text[:-size]
        if text.startswith(rest[-size:]):
            return text[size:]
    return text


def glossary_of(game_key: str) -> Glossary:
    """The glossary of a game: its drawing module's `GLOSSARY` (a game without one, such as one registered at
    runtime, gets an empty glossary)."""
    import rendering  # (the table of drawings; this module is imported by the kit's users, not the kit)

    if not rendering.has_drawing(game_key):
        return Glossary(game_key, ())
    glossary = getattr(rendering.drawing(game_key), "GLOSSARY", None)
    if glossary is None:  # (a drawing that explains nothing)
        return Glossary(game_key, ())
    assert isinstance(glossary, Glossary)
    return glossary


def strings_under(view: Any, keys: frozenset[str]) -> Iterator[str]:
    """Every string in the view held under one of `keys` (at any depth; a {language: text} dict gives each text)."""
    if isinstance(view, dict):
        for key, value in view.items():
            if key in keys:
                yield from all_strings(value)
            else:
                yield from strings_under(value, keys)
    elif isinstance(view, list | tuple):
        for item in view:
            yield from strings_under(item, keys)


def all_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from all_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from all_strings(item)


def needs_entry(text: str) -> bool:
    """Whether a drawn text holds a number, a symbol or an abbreviation (what a newcomer cannot read alone)."""
    return bool(DIGIT.search(text) or SYMBOL.search(text) or ABBREVIATION.search(text))


@dataclass
class Reading:
    """What a board drew, read with its game's glossary: the entries it needs with the texts that need them (in
    the order drawn), and every code no entry explains (a test fails on these)."""

    found: dict[str, list[str]] = field(default_factory=dict)
    unexplained: list[str] = field(default_factory=list)

    def note(self, entry: Entry, text: str) -> None:
        examples = self.found.setdefault(entry.message, [])
        if text not in examples:
            examples.append(text)


class Reader:
    """Reads the texts of one board: the view gives its names and sentences, the glossary its entries."""

    def __init__(self, glossary: Glossary, view: Mapping[str, Any], *, detail: bool = False) -> None:
        self.glossary = glossary
        self.entries = glossary.entries + (glossary.detail_entries if detail else ())
        self.language = str(view.get("language") or "en")
        self.words = capital_words(self.language)  # ("A", "I" in English: words of a sentence, not codes)
        if glossary.worded is not None:
            view = glossary.worded(view)
        names = {normal(name) for name in strings_under(view, glossary.name_keys)} | set(glossary.extra_names)
        self.name_list = sorted((name for name in names if name), key=len, reverse=True)
        self.names = "\n".join(self.name_list)
        prose_keys = glossary.prose_keys | (glossary.detail_prose_keys if detail else frozenset())
        self.prose = "\n".join(normal(text) for text in strings_under(view, prose_keys))

    def read(self, texts: Iterable[str]) -> Reading:
        reading = Reading()
        for drawn in texts:
            text = normal(drawn)
            if not text or not needs_entry(text) or self.is_name(text):
                continue
            entry = self.entry_for(text)
            if entry is not None:
                reading.note(entry, text)
            elif self.is_prose(text):
                reading.unexplained += self.codes_in_prose(text, reading)
            elif needs_entry(text):
                reading.unexplained.append(text)
        return reading

    def entry_for(self, text: str) -> Entry | None:
        """The entry that explains `text`, or the rest of it after the name it starts with ("Bo 7 pts")."""
        named = [text[len(name) + 1:] for name in self.name_list if text.startswith(name + " ")]
        tries = [text, *named[:1]]
        for tried in tries:
            for entry in self.entries:
                if entry.pattern(self.language).fullmatch(tried):
                    return entry
        return None

    def is_name(self, text: str) -> bool:
        """A name, names joined by " · " or ": " ("Test Nim · Solo"), or a line of a name wrapped or hyphenated
        over lines ("Cinder" / "Fields", "Automa-" / "ton")."""
        parts = [part for part in re.split(r" · |: ", text) if part]
        if len(parts) > 1:
            return all(self.is_name(part) for part in parts)
        piece = re.escape(text[:-1] if text.endswith("-") else text)
        ends = "" if text.endswith("-") else r"(?![\w])"
        return bool(re.search(rf"(?<![\w]){piece}{ends}", self.names)
                    or (len(text) >= 3 and text[0].islower() and re.search(rf"{piece}{ends}", self.names)))

    def is_prose(self, text: str) -> bool:
        """A line of one of the view's sentences (the typesetter keeps a number with its word, so a line of a
        sentence is never a lone number), or of a caption made of them: the story's first sentence, "…", its newest
        ones and where the rest is ("(the rest: /game log)"), each sentence told once with how often ("(×2)")."""
        text = REPEATED.sub("", without_rest_note(text, translate("table.story.caption_rest", self.language)))
        pieces = [piece.strip() for piece in text.split("…")]
        if len(pieces) > 1:  # a caption's line: a piece may be one word of a sentence wrapped from the line before
            return any(pieces) and all(piece.removeprefix("• ") in self.prose for piece in pieces if piece)
        return bool(pieces[0]) and self.is_sentence_piece(pieces[0])

    def is_sentence_piece(self, piece: str) -> bool:
        piece = piece.removeprefix("• ")  # (a choice's options are listed with bullets, cut short)
        piece = piece[:-1] if piece.endswith("-") else piece
        return (" " in piece or len(piece) >= 8) and piece in self.prose

    def is_word(self, text: str, code: re.Match[str]) -> bool:
        """Whether the capitals `code` found in a sentence's `text` are one of the language's words written in
        capitals, before a word in small letters ("A marker", "I take")."""
        after = text[code.end():code.end() + 2]
        return code.group(0) in self.words and len(after) == 2 and after[0] == " " and after[1].islower()

    def codes_in_prose(self, text: str, reading: Reading) -> list[str]:
        """The abbreviations inside a line of a sentence that no `inside` entry explains (those it explains are
        noted in `reading`)."""
        covered: list[tuple[int, int]] = []
        for entry in self.entries:
            if entry.inside:
                for found in entry.pattern(self.language).finditer(text):
                    covered.append(found.span())
                    reading.note(entry, found.group(0))
        missing = []
        for code in ABBREVIATION.finditer(text):
            if self.is_word(text, code) or self.is_name(code.group(0)):
                continue
            if not any(start <= code.start() and code.end() <= end for start, end in covered):
                missing.append(f"{code.group(0)!r} in {text!r}")
        return missing


def read_texts(game_key: str, view: dict[str, Any], texts: Iterable[str], *, detail: bool = False) -> Reading:
    """The drawn `texts` of a board of `view` (its detail board with `detail`) read with the game's glossary."""
    return Reader(glossary_of(game_key), view, detail=detail).read(texts)


def read_board(game_key: str, view: dict[str, Any], detail: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    """Draw the public board of `view` (its detail board with `detail`; blocking: a render worker calls this) and
    say which glossary entries it needs, each with the texts it explains, in the order the entries are listed."""
    from rendering import kit, render_board, render_detail

    with kit.recording() as drawn:
        (render_detail if detail else render_board)(game_key, view)
    reading = read_texts(game_key, view, (text.text for text in drawn), detail=detail)
    glossary = glossary_of(game_key)
    listed = list(dict.fromkeys(entry.message for entry in glossary.entries + glossary.detail_entries))
    return [(message, tuple(reading.found[message])) for message in listed if message in reading.found]
