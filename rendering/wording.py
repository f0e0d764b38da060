"""The boards' words from the message catalogues (bot.i18n), each message worded once per language and values.

Every board of a match asks for the same labels and facts ("Explorers", "3 markers left", "2 pts"), and a
catalogue lookup with its formatting costs ~6-7 µs, a dozen or more a board; a repeated one costs a dictionary
lookup here. Renderers import `translate` and `translate_plural` from this module under the same names, so the
message extraction (bot/cli/extract_messages.py) still finds their ids at the call sites."""

from __future__ import annotations

from functools import lru_cache

from bot import i18n
from bot.i18n import DEFAULT_LANGUAGE

WORDED_KEPT = 2048
"""Worded messages kept (a few hundred bytes each): the labels and facts of the boards of the latest matches."""


@lru_cache(maxsize=WORDED_KEPT)
def _worded(message_id: str, locale: object, values: tuple[tuple[str, type, object], ...]) -> str:
    return i18n.translate(message_id, locale, **{name: value for name, _, value in values})


def translate(message_id: str, locale: object = DEFAULT_LANGUAGE, **values: object) -> str:
    """`bot.i18n.translate`, remembered: the same message, language and values (of the same types: 1 is not True)
    give the same text."""
    try:
        return _worded(message_id, locale, tuple((name, type(value), value) for name, value in values.items()))
    except TypeError:  # a value that cannot be a key (a list, a dict): worded each time
        return i18n.translate(message_id, locale, **values)


def translate_plural(message_id: str, count: int, locale: object = DEFAULT_LANGUAGE, **values: object) -> str:
    """`bot.i18n.translate_plural`, remembered as `translate` is."""
    return translate(message_id, locale, count=count, **values)
