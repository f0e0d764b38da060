"""Rewrite the .po catalogues in one canonical form: sorted by message id, no source locations, 120 columns.

    python -m bot.cli.tidy_catalogues

Run it after adding messages by hand (an id and its text in bot/i18n/locales/en/... and its German in de/...):
entries then sit where their id sorts, so branches that add different ids merge without conflicts.
"""

from __future__ import annotations

import sys

from babel.messages.pofile import read_po, write_po

from bot.i18n import LANGUAGES
from bot.i18n.catalog import DOMAIN, catalogue_path


def tidy(language: str) -> int:
    path = catalogue_path(language)
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    for message in catalog:
        message.locations = []
    with path.open("wb") as handle:
        write_po(handle, catalog, width=120, sort_output=True, omit_header=False, no_location=True)
    return len(catalog)


def main(argv: list[str] | None = None) -> int:
    for language in LANGUAGES:
        print(f"{catalogue_path(language)}: {tidy(language)} messages", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
