"""Move every catalogue entry to the domain its template gives it: a game's words into its package's domain.

    python -m bot.cli.extract_messages     # first: the templates say which domain owns each id
    python -m bot.cli.split_catalogues     # then: each language's entries move to their domain's .po file
    python -m bot.cli.tidy_catalogues      # (already tidy after a split; harmless)

Re-runnable: an entry already in its domain stays, one whose id moved (a game's file now shared with the platform,
or a file moved into a game's package) follows it, one that no template holds stays where it is (the catalogue
tests name it). A game domain's .po is created on first use, with the platform's headers (language, plural rule).
Each entry keeps its translation, comments and flags; every file is written tidy (sorted by id, no locations).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.cli.extract_messages import game_packages
from bot.cli.tidy_catalogues import write_tidy
from bot.i18n import LANGUAGES
from bot.i18n.catalog import DOMAIN, catalogue_path, template_path

GAME_HEADER = (
    "{language} messages of the game package {domain} (Expedition Table): a catalogue domain of its own, read with",
    "Babel at run time beside the platform's (bot/i18n/locales). It holds the ids that only this package's files and",
    "slash group use (an id the platform uses too is the platform's). Edit the msgstr lines, then run",
    "`python -m bot.cli.tidy_catalogues`. The template {domain}.pot beside the languages comes from",
    "`python -m bot.cli.extract_messages`; `python -m bot.cli.split_catalogues` moves entries whose ids move.",
)


def _id(message: Message) -> str:
    return str(message.id if isinstance(message.id, str) else message.id[0])


def template_ids(path: Path) -> set[str]:
    """The ids a domain's template (written by extract_messages) holds; none if it has no template yet."""
    if not path.is_file():
        return set()
    with path.open("rb") as handle:
        return {_id(message) for message in read_po(handle) if message.id}


def _read(path: Path, language: str, domain: str) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=domain)


def _new_domain(platform: Catalog, language: str, domain: str) -> Catalog:
    """An empty catalogue for a game's domain: the platform's headers, a header comment of its own."""
    catalog = Catalog(locale=language, domain=domain, project="expedition-table", fuzzy=False)
    catalog.mime_headers = platform.mime_headers
    language_name = Locale.parse(language).english_name
    catalog.header_comment = "\n".join(f"# {line.format(language=language_name, domain=domain)}"
                                       for line in GAME_HEADER)
    return catalog


def split(language: str, owners: dict[str, set[str]]) -> dict[str, int]:
    """Rewrite `language`'s .po of every domain in `owners` (domain: the ids its template holds) so each entry sits
    in the domain owning its id; the number of entries per domain."""
    platform = _read(catalogue_path(language), language, DOMAIN)
    assert platform is not None, f"no platform catalogue for {language}"
    read = {domain: _read(catalogue_path(language, domain), language, domain) for domain in owners}
    read[DOMAIN] = platform
    written = {domain: catalog if catalog is not None else _new_domain(platform, language, domain)
               for domain, catalog in read.items()}
    entries: list[tuple[str, Message]] = [(domain, message) for domain, catalog in read.items() if catalog is not None
                                          for message in catalog if message.id]
    for domain, message in entries:
        owner = next((name for name, ids in owners.items() if _id(message) in ids), domain)
        if owner != domain:
            written[owner][message.id] = message
            del written[domain][message.id]
    for domain, catalog in written.items():
        write_tidy(catalog, catalogue_path(language, domain))
    return {domain: len(catalog) for domain, catalog in written.items()}


def main(argv: list[str] | None = None) -> int:
    owners = {DOMAIN: template_ids(template_path())}
    for package in game_packages():
        owners[str(package.domain)] = template_ids(template_path(str(package.domain)))
    for language in LANGUAGES:
        for domain, count in split(language, owners).items():
            print(f"{catalogue_path(language, domain)}: {count} messages", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
