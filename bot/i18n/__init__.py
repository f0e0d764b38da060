"""Speaking the player's language: the languages, bilingual component texts, and the message catalogues.

Pure (Babel and the standard library only: no Discord, database or rendering), so the games' rules code and the
data loaders may use it. The command tree's translator, which needs discord.py, is bot/command_translator.py.
"""

from bot.i18n.catalog import format_number, message_ids, placeholders, translate, translate_plural
from bot.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, Localized, language_of

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LANGUAGE_NAMES", "Localized", "format_number", "language_of",
           "message_ids", "placeholders", "translate", "translate_plural"]
