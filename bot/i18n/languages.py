"""The languages the bot speaks, and a text given in each of them (card names, rule texts from data/)."""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES: tuple[str, ...] = ("en", "de")
"""Every language a text must exist in; the first is the fallback for readers of any other language."""
DEFAULT_LANGUAGE = LANGUAGES[0]
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}


@dataclass(frozen=True)
class Localized:
    """One text in every language of LANGUAGES (a card's name, a mech's ability text)."""

    en: str
    de: str

    def __getitem__(self, language: str) -> str:
        """The text in `language`; English for a language the bot does not speak."""
        return getattr(self, language if language in LANGUAGES else DEFAULT_LANGUAGE)

    @property
    def texts(self) -> tuple[str, ...]:
        """The text in every language, English first (for matching what a player typed, in any language)."""
        return tuple(self[language] for language in LANGUAGES)

    @classmethod
    def from_mapping(cls, texts: dict[str, str]) -> Localized:
        return cls(**{language: texts[language] for language in LANGUAGES})


CAPITAL_WORDS = Localized(en="A I", de="")
"""The words a language writes in capitals alone ("A marker moves", "I take"): in a sentence, before a word in
small letters, they are words, not codes (rendering/glossary/reading.py)."""


def capital_words(language: str) -> frozenset[str]:
    """`CAPITAL_WORDS` of `language` (English's for a language the bot does not speak)."""
    return frozenset(CAPITAL_WORDS[language].split())


def language_of(locale: object) -> str:
    """The bot's language for a Discord locale ("de", "en-US", discord.Locale.german, None): German or English."""
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE
