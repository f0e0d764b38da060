"""The message catalogues: gettext .po files per domain and language, read with Babel and compiled in memory.

The platform's domain (`messages`, here in locales/) and one domain per game package (its own locales folder, added
with `add_domain` as the registry finds the package) are merged into one lookup per language: a message id names
its text wherever it is kept, and an id kept in two domains is an error naming both files.

Message ids are symbolic ("command.game.new.description"); each language's .po gives its text. A message with
plural forms is looked up with its `count` by gettext's plural rule for that language (German: "1 Käfig",
"2 Käfige"); numbers are formatted by Babel for the language ("1,234" in English, "1.234" in German). Reading the
.po files at first use (no compiled .mo shipped) means an installed bot can never serve a stale compiled catalogue.
"""

from __future__ import annotations

import gettext
import io
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.lists import format_list
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from bot.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES, language_of

DOMAIN = "messages"
"""The platform's domain; each game package brings one of its own, named after its folder (`add_domain`)."""
LOCALES = Path(__file__).resolve().parent / "locales"

_DOMAINS: dict[str, Path] = {DOMAIN: LOCALES}
"""Every domain this process reads: its name and its locales folder (`<lang>/LC_MESSAGES/<name>.po` inside)."""


def catalogue_path(language: str, domain: str = DOMAIN) -> Path:
    """Where the .po file of `domain` in `language` is (the platform's by default)."""
    return _DOMAINS[domain] / language / "LC_MESSAGES" / f"{domain}.po"


def catalogue_paths(language: str) -> list[Path]:
    """The .po files of every domain in `language` that has one (the platform's first)."""
    return [path for path in (catalogue_path(language, name) for name in _DOMAINS) if path.is_file()]


def template_path(domain: str = DOMAIN) -> Path:
    """Where the template of `domain` is (`python -m bot.cli.extract_messages` writes it): beside its languages."""
    return _DOMAINS[domain] / f"{domain}.pot"


def add_domain(folder: str | Path, name: str) -> None:
    """Read the catalogue domain `name` too, from `folder` (a game package's locales): its ids join the one lookup
    per language that `translate` reads, so a game's words need nothing but their package. Adding the same domain
    from the same folder again changes nothing; another folder under a taken name is a mistake (ValueError)."""
    folder = Path(folder).resolve()
    if _DOMAINS.get(name) == folder:
        return
    if name in _DOMAINS:
        raise ValueError(f"catalogue domain {name!r} is already read from {_DOMAINS[name]}, not {folder}")
    _DOMAINS[name] = folder
    _lookup.cache_clear()
    message_ids.cache_clear()


def domains() -> dict[str, Path]:
    """Every catalogue domain this process reads (name: locales folder), the platform's first: what a render
    worker is handed at its start so it words a game's texts as the bot does."""
    return dict(_DOMAINS)


@dataclass(frozen=True)
class _Language:
    catalog: Catalog
    gnu: gettext.GNUTranslations


@cache
def _read(path: Path, language: str, domain: str) -> _Language:
    """One domain's catalogue in one language, read and compiled once per process (~25 ms for the platform's)."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return _Language(catalog, gettext.GNUTranslations(compiled))


@dataclass(frozen=True)
class _Entry:
    """A message as the merged lookup holds it: its text(s), its domain's compiled plural rule, its file."""

    message: Message
    gnu: gettext.GNUTranslations
    path: Path


@cache
def _lookup(language: str) -> dict[str, _Entry]:
    """Every domain of `language` merged into one lookup: message id -> its entry. A domain without a file in
    `language` is skipped (its words fall back to English); an id in two domains is an error naming both files."""
    merged: dict[str, _Entry] = {}
    for name in _DOMAINS:
        path = catalogue_path(language, name)
        if not path.is_file():
            continue
        read = _read(path, language, name)
        for message in read.catalog:
            if not message.id:
                continue
            message_id = str(message.id if isinstance(message.id, str) else message.id[0])
            if message_id in merged:
                raise ValueError(f"message {message_id!r} is defined in two catalogue domains: "
                                 f"{merged[message_id].path} and {path}")
            merged[message_id] = _Entry(message, read.gnu, path)
    return merged


def load_catalogue(language: str, domain: str = DOMAIN) -> Catalog:
    """The Babel catalogue of one domain in one language, as read from its .po file (for tests and the tools)."""
    return _read(catalogue_path(language, domain), language, domain).catalog


def load_catalogues() -> None:
    """Read every language's catalogues now (a process start does, before it answers anyone): reading them takes
    ~25 ms a language, which the first message in that language would otherwise wait on, on the event loop."""
    for language in LANGUAGES:
        message_ids(language)


@cache
def message_ids(language: str) -> frozenset[str]:
    """The ids that have a (non-empty) text in `language`, in any domain."""
    return frozenset(message_id for message_id, entry in _lookup(language).items() if _has_text(entry.message.string))


def _message(message_id: str, language: str) -> Message | None:
    found = _lookup(language).get(message_id)
    return None if found is None else found.message


def is_plural(message_id: str, language: str = DEFAULT_LANGUAGE) -> bool:
    message = _message(message_id, language)
    return message is not None and message.pluralizable


def texts(message_id: str, language: str) -> tuple[str, ...]:
    """Every form of a message in `language` (one, or one per plural form)."""
    message = _message(message_id, language)
    if message is None or not _has_text(message.string):
        raise KeyError(f"message {message_id!r} has no {language} text in any catalogue domain "
                       f"({', '.join(str(catalogue_path(language, name)) for name in _DOMAINS)})")
    forms = message.string
    return tuple(str(form) for form in forms) if isinstance(forms, tuple | list) else (str(forms),)


def placeholders(text: str) -> set[str]:
    """The {names} a text fills in."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def format_number(value: float, language: str) -> str:
    if isinstance(value, int) and -1000 < value < 1000:
        return str(value)  # (the same in every language the bot speaks; Babel takes ~0.3 ms a number)
    return format_decimal(value, locale=language)


@dataclass(frozen=True)
class Text:
    """A message not yet put into words: its id and values, translated once the reader's language is known.

    A refusal raised deep in the rules, a story line, a board word: each is made where the facts are and worded
    where the reader is. A value may itself be a Text or a Localized (card name): both are worded in the same
    language."""

    message_id: str
    values: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, message_id: str, **values: object) -> Text:
        return cls(message_id, tuple(values.items()))

    def __call__(self, locale: object = DEFAULT_LANGUAGE) -> str:
        return translate(self.message_id, locale, **dict(self.values))

    def __str__(self) -> str:
        return self(DEFAULT_LANGUAGE)


def in_language(value: object, locale: object) -> object:
    """A value made ready for a message in `locale`: a Text worded, a Localized name picked, others as they are."""
    if isinstance(value, Text):
        return value(locale)
    if hasattr(value, "texts") and hasattr(value, "__getitem__") and not isinstance(value, str | dict | list):
        return value[language_of(locale)]  # a Localized
    return value


def translate(message_id: str, locale: object = DEFAULT_LANGUAGE, **values: object) -> str:
    """The message in the language of `locale` (a language code or a Discord locale; English when not spoken),
    with `values` filled in: numbers formatted for the language, a plural message's form chosen by `count`,
    a Text or Localized value worded in the same language.
    A message missing in that language falls back to English; an id missing in English is a KeyError."""
    values = {name: in_language(value, locale) for name, value in values.items()}
    language = language_of(locale)
    if message_id not in message_ids(language):
        language = DEFAULT_LANGUAGE
    forms = texts(message_id, language)
    if len(forms) == 1:
        text = forms[0]
    else:
        if "count" not in values:
            raise KeyError(f"message {message_id!r} has plural forms: give it a count")
        count = values["count"]
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"message {message_id!r}: count must be a whole number (got {count!r})")
        text = _lookup(language)[message_id].gnu.ngettext(message_id, message_id, count)
    shown = {name: format_number(value, language)
             if isinstance(value, int | float) and not isinstance(value, bool) else value
             for name, value in values.items()}
    return text.format(**shown)


def deferred(message_id: str) -> str:
    """Marks a message id for extraction where it is only named, translated later (gettext's N_ idiom)."""
    return message_id


def deferred_plural(message_id: str) -> str:
    """Like `mark`, for a message with plural forms (translate it with translate_plural)."""
    return message_id


def join_and(items: list[str], locale: object = DEFAULT_LANGUAGE) -> str:
    """"Move, Play and Gather" / "Bewegen, Spielen und Sammeln": a list joined by the language's "and" (CLDR)."""
    return format_list(items, style="standard", locale=language_of(locale))


def join_or(items: list[str], locale: object = DEFAULT_LANGUAGE) -> str:
    """"below or left" / "unten oder links": a list joined by the language's "or" (Babel's CLDR list patterns)."""
    return format_list(items, style="or", locale=language_of(locale))


def translate_plural(message_id: str, count: int, locale: object = DEFAULT_LANGUAGE, **values: object) -> str:
    """A message with plural forms: `count` picks the form and fills {count}. (Its own name, so that extraction
    marks the message as plural in the catalogue template.)"""
    return translate(message_id, locale, count=count, **values)


def _has_text(value: object) -> bool:
    if isinstance(value, tuple | list):
        return all(isinstance(v, str) and v for v in value)
    return isinstance(value, str) and bool(value)
