"""Tug's words: its own gettext catalogues (locales/<lang>/LC_MESSAGES/tug.po), read with Babel like the platform's.

The platform's `bot.i18n.translate` reads only the platform's catalogue until game packages get catalogue domains
(`GamePackage.locales`); until then the game words its own messages here, from the same kind of files, so that
switching means handing `locales` to the package and calling `translate` instead of `say`."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from bot.i18n import DEFAULT_LANGUAGE, Text, in_language, language_of

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "tug"


@cache
def messages(language: str) -> dict[str, str]:
    """Every message of `language` with a text, by id."""
    with (LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    return {str(message.id): str(message.string) for message in catalog if message.id and message.string}


def say(message_id: str, language: object = DEFAULT_LANGUAGE, **values: object) -> str:
    """The message in the reader's language (English when it has none there), `values` filled in (a Localized or
    a Text worded in the same language)."""
    spoken = language_of(language)
    text = messages(spoken).get(message_id) or messages(DEFAULT_LANGUAGE)[message_id]
    return text.format(**{name: in_language(value, spoken) for name, value in values.items()})


class Said(Text):
    """A Tug message not yet worded: a `Text` the platform words where the reader is (a refusal, the outcome),
    from Tug's own catalogues."""

    def __call__(self, locale: object = DEFAULT_LANGUAGE) -> str:
        return say(self.message_id, locale, **dict(self.values))
