"""Rewrite the .po catalogues in one canonical form: sorted by message id, no source locations, 120 columns.

    python -m bot.cli.tidy_catalogues

Every domain: the platform's (bot/i18n/locales) and each game package's (`<package>/locales`, the packages the
registry finds). Run it after adding messages by hand (an id and its text in en/... and its German in de/... of the
domain that uses it): entries then sit where their id sorts, so branches that add different ids merge without
conflicts.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.i18n import LANGUAGES, domains
from bot.i18n.catalog import catalogue_path


def write_tidy(catalog: Catalog, path: Path) -> None:
    """Write `catalog` to `path` in the canonical form."""
    for message in catalog:
        message.locations = []
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=120, sort_output=True, omit_header=False, no_location=True)


def tidy(language: str, domain: str) -> int:
    path = catalogue_path(language, domain)
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=domain)
    write_tidy(catalog, path)
    return len(catalog)


def every_domain() -> list[str]:
    """The platform's domain and every game package's the registry finds."""
    from bot.cli.extract_messages import game_packages

    game_packages()  # (adds their domains)
    return list(domains())


def main(argv: list[str] | None = None) -> int:
    for domain in every_domain():
        for language in LANGUAGES:
            if catalogue_path(language, domain).is_file():
                print(f"{catalogue_path(language, domain)}: {tidy(language, domain)} messages", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
