"""Write the message catalogue template (bot/i18n/locales/messages.pot) from the code and the command tree.

    python -m bot.cli.extract_messages            # the template, from the source and the slash commands
    pybabel update -i bot/i18n/locales/messages.pot -d bot/i18n/locales -D messages --no-fuzzy-matching
    pybabel compile -d bot/i18n/locales -D messages --statistics    # optional check; the bot reads the .po files

Ids come from two places: literal calls of translate / translate_plural / deferred / deferred_plural in bot/, cogs/ and
rendering/ (Babel's Python extractor), and every name and description of the slash-command tree (built offline,
no token), whose English text is the template's comment so a translator sees what to translate.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from bot.i18n.catalog import DOMAIN, LOCALES

ROOT = Path(__file__).resolve().parents[2]
SOURCE_FOLDERS = ("bot", "cogs", "rendering")
KEYWORDS: dict[str, tuple[int, ...]] = {"translate": (1,), "translate_plural": (1, 1), "deferred": (1,),
                                        "deferred_plural": (1, 1), "of": (1,)}  # Text.of(id, **values)
REFUSALS = ("RuleError", "NotYourTurn", "IllegalAction", "MalformedAction", "AmbiguousAction", "GameOver",
            "LobbyError", "StaleBoard", "InvalidControl", "UndoRefused")
"""The RuleError family, raised with a message id (`IllegalAction("monster.refuse.bank", value=3)`)."""
KEYWORDS.update({name: (1,) for name in REFUSALS})
MESSAGE_ID = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_$-]+)+$")
"""What a message id looks like: a raise with plain words (not yet in the catalogues) is not one."""
TEMPLATE = LOCALES / f"{DOMAIN}.pot"


def source_messages() -> Iterable[tuple[str | tuple[str, str], str, int]]:
    """(id or (id, id) for a plural message, file, line) for every literal id in the code."""
    for folder in SOURCE_FOLDERS:
        for filename, lineno, message, _comments, _context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS):
            if MESSAGE_ID.match(message[0] if isinstance(message, tuple) else message):
                yield message, f"{folder}/{filename}", lineno


async def _command_messages() -> list[tuple[str, str]]:
    from bot.app import create_bot
    from bot.command_translator import tree_message_ids
    from bot.offline import DiscordHarness

    with tempfile.TemporaryDirectory() as folder:
        async with DiscordHarness(create_bot(Path(folder) / "extract.sqlite3")) as harness:
            return list(tree_message_ids(harness.bot.tree))


def command_messages() -> list[tuple[str, str]]:
    """(id, English text) for every name and description the slash commands register."""
    return asyncio.run(_command_messages())


def build_template() -> Catalog:
    template = Catalog(domain=DOMAIN, project="expedition-table", fuzzy=False)
    for message, filename, lineno in source_messages():
        existing = template.get(message[0] if isinstance(message, tuple) else message)
        if existing is None:
            template.add(message, locations=[(filename, lineno)])
        else:
            existing.locations.append((filename, lineno))
    for message_id, english in command_messages():
        if template.get(message_id) is None:
            template.add(message_id, auto_comments=[f"English: {english}"])
    return template


def main(argv: list[str] | None = None) -> int:
    template = build_template()
    with TEMPLATE.open("wb") as handle:
        write_po(handle, template, width=120, omit_header=False, sort_output=True)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(template)} messages", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
