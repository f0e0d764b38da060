"""The Expedition's words as messages not yet worded (bot.i18n.Text): made where the facts are, worded in the
reader's language where they are shown, and carried inside views as JSON so a renderer words them for its table.

A sentence is a Text tree: its values may be Texts (worded in the same language), Localized names (a location, a
card) or plain values (player names, numbers). `as_json` turns a tree into plain JSON for a view; the renderer
words it back with `bot.i18n` (see bot/games/the_expedition/drawing/shared.py, `worded`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Localized, Text, deferred, deferred_plural

Words = Text | Localized | str
"""Something the reader reads: a message, a name in every language, or a plain name or number."""


@dataclass(frozen=True)
class Capitalized(Text):
    """A message whose first letter is made upper case once worded (a card's condition starts its sentence)."""

    def __call__(self, locale: object = DEFAULT_LANGUAGE) -> str:
        text = super().__call__(locale)
        return text[:1].upper() + text[1:]


def both(first: Words, second: Words) -> Text:
    """Two sentences one after the other."""
    return Text.of("expedition.two_sentences", first=first, second=second)


def sentences(parts: Sequence[Words]) -> Words:
    """Sentences one after the other ("" when there are none)."""
    if not parts:
        return ""
    result = parts[-1]
    for part in reversed(parts[:-1]):
        result = both(part, result)
    return result


def listed(parts: Sequence[Words], last: str = "and") -> Words:
    """"A, B and C" / "A, B und C" ("or": "A, B or C"): no comma before the last word, in either language."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    head: Words = parts[0]
    for part in parts[1:-1]:
        head = Text.of("expedition.list.comma", first=head, second=part)
    if last == "or":
        return Text.of("expedition.list.or", head=head, last=parts[-1])
    return Text.of("expedition.list.and", head=head, last=parts[-1])


def separated(parts: Sequence[Words], mark: str = "comma") -> Words:
    """"A, B, C" (`mark` "comma") or "A; B; C" ("semicolon"): items in a row, no "and"."""
    if not parts:
        return ""
    result: Words = parts[0]
    message = deferred("expedition.list.semicolon") if mark == "semicolon" else deferred("expedition.list.comma")
    for part in parts[1:]:
        result = Text.of(message, first=result, second=part)
    return result


def pts(count: int) -> Text:
    """ "1 pt", "3 pts" / "1 Pkt.", "3 Pkt."."""
    return Text.of(deferred_plural("expedition.pts"), count=count)


def points(count: int) -> Text:
    """ "1 point", "3 points" / "1 Punkt", "3 Punkte"."""
    return Text.of(deferred_plural("count.point"), count=count)


DIRECTION_WORDS = {
    "up": deferred("choice.up"), "down": deferred("choice.down"), "left": deferred("choice.left"),
    "right": deferred("choice.right"), "up-left": deferred("choice.up-left"), "up-right": deferred("choice.up-right"),
    "down-left": deferred("choice.down-left"), "down-right": deferred("choice.down-right"),
}
"""A direction as the player types it in /explore move (the command's own choices: "up" / "oben", the word the
German sentences use: "nach oben")."""

TOWARD_WORDS = {
    "up": deferred("expedition.toward.up"), "down": deferred("expedition.toward.down"),
    "left": deferred("expedition.toward.left"), "right": deferred("expedition.toward.right"),
    "up-left": deferred("expedition.toward.up-left"), "up-right": deferred("expedition.toward.up-right"),
    "down-left": deferred("expedition.toward.down-left"), "down-right": deferred("expedition.toward.down-right"),
}
"""A direction inside a sentence ("moved up" / "ist nach oben gezogen")."""


def direction(key: str) -> Text:
    return Text.of(DIRECTION_WORDS[key])


def toward(key: str) -> Text:
    return Text.of(TOWARD_WORDS[key])


KIND_WORDS = {"planet": deferred("expedition.kind.planet"), "moon": deferred("expedition.kind.moon")}


def kind(key: str) -> Text:
    """ "planet" / "Planet", "moon" / "Mond"."""
    return Text.of(KIND_WORDS[key])


def as_json(value: object) -> object:
    """A Text tree as plain JSON for a view: {"message": id, "values": {...}} (with "capitalized": true for a
    Capitalized one), a Localized name as {"en": ..., "de": ...}; other values as they are."""
    if isinstance(value, Text):
        encoded: dict[str, object] = {"message": value.message_id,
                                      "values": {name: as_json(item) for name, item in value.values}}
        if isinstance(value, Capitalized):
            encoded["capitalized"] = True
        return encoded
    if isinstance(value, Localized):
        return {language: value[language] for language in LANGUAGES}
    return value


def worded(value: object, language: str) -> str:
    """A Text tree (or a name, or a plain value) in `language`."""
    if isinstance(value, Text):
        return value(language)
    if isinstance(value, Localized):
        return value[language]
    return str(value)
