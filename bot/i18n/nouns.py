"""Counted game nouns ("1 cage", "2 cages"; "1 Käfig", "2 Käfige"): each language's plural rule, from its catalogue."""

from __future__ import annotations

from bot.i18n.catalog import deferred_plural, translate_plural

COUNTED_NOUNS: dict[str, str] = {
    "cage": deferred_plural("count.cage"),
    "monster": deferred_plural("count.monster"),
    "card": deferred_plural("count.card"),
    "crest": deferred_plural("count.crest"),
    "die": deferred_plural("count.die"),
    "marker": deferred_plural("count.marker"),
    "point": deferred_plural("count.point"),
    "victory point": deferred_plural("count.victory_point"),
    "player": deferred_plural("count.player"),
    "turn": deferred_plural("count.turn"),
    "hour": deferred_plural("count.hour"),
}
"""The English noun -> its catalogue id."""


def counted(noun: str, count: int, locale: object) -> str:
    """The count with its noun in the language of `locale`, the number formatted for it ("1.000 Karten")."""
    return translate_plural(COUNTED_NOUNS[noun], count, locale)
