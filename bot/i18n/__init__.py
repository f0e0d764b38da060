"""Speaking the player's language: the languages, bilingual component texts, and the message catalogues.

Pure (Babel and the standard library only: no Discord, database or rendering), so the games' rules code and the
data loaders may use it. The command tree's translator, which needs discord.py, is bot/command_translator.py.
"""

from bot.i18n.catalog import (
    Text,
    add_domain,
    deferred,
    deferred_plural,
    domains,
    format_number,
    in_language,
    join_and,
    join_or,
    load_catalogues,
    message_ids,
    placeholders,
    translate,
    translate_plural,
)
from bot.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, Localized, capital_words, language_of
from bot.i18n.marks import is_marked, last_chars, one_line, said, unmarked, with_names_marked, with_spans
from bot.i18n.nouns import COUNTED_NOUNS, counted

__all__ = [
    "COUNTED_NOUNS",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "Localized",
    "Text",
    "add_domain",
    "capital_words",
    "counted",
    "deferred",
    "deferred_plural",
    "domains",
    "format_number",
    "in_language",
    "is_marked",
    "join_and",
    "join_or",
    "language_of",
    "last_chars",
    "load_catalogues",
    "message_ids",
    "one_line",
    "placeholders",
    "said",
    "translate",
    "translate_plural",
    "unmarked",
    "with_names_marked",
    "with_spans",
]
