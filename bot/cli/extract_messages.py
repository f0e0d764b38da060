"""Write the message catalogue templates from the code and the command tree: one per domain.

    python -m bot.cli.extract_messages            # the templates, from the source and the slash commands
    python -m bot.cli.split_catalogues            # moves entries of the .po files to the domain that uses them
    python -m bot.cli.tidy_catalogues             # every domain's .po files in their canonical form

Ids come from two places: literal calls of translate / translate_plural / deferred / deferred_plural in bot/, cogs/ and
rendering/ (Babel's Python extractor), and every name and description of the slash-command tree (built offline,
no token), whose English text is the template's comment so a translator sees what to translate.

Each id goes to one domain. The platform's (`messages`: bot/i18n/locales/messages.pot) holds the ids the platform's
files and commands use; a game package's (`<package>/locales/<package>.pot`, the packages the registry finds) holds
the ids only its own files (anything under its folder) and its slash group use. An id two games use, or a game and
the platform, stays the platform's.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from bot.core import GamePackage, all_packages
from bot.i18n import add_domain
from bot.i18n.catalog import DOMAIN, template_path

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

Message = str | tuple[str, ...]
"""An id, or (id, id) for a message with plural forms."""


def game_packages() -> list[GamePackage]:
    """The game packages with a catalogue domain of their own, as the registry finds them."""
    import bot.games  # noqa: F401  (finds every game package)

    packages = [package for package in all_packages() if package.locales is not None]
    for package in packages:  # (bot.games's listener has added them; a package loaded by hand may not be)
        if package.locales is not None:
            add_domain(package.locales, str(package.domain))
    return packages


def package_folder(package: GamePackage) -> Path:
    """The folder of a game package: its locales folder's parent (`GamePackage.locales`)."""
    assert package.locales is not None
    return package.locales.resolve().parent


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _scanned_folders(packages: Iterable[GamePackage]) -> list[Path]:
    """The platform's source folders, and every game package's folder not inside them (a game from elsewhere)."""
    folders = [ROOT / folder for folder in SOURCE_FOLDERS]
    for package in packages:
        folder = package_folder(package)
        if not any(folder.is_relative_to(outer) for outer in folders):
            folders.append(folder)
    return folders


def source_messages(packages: Iterable[GamePackage] = ()) -> Iterator[tuple[Message, Path, int]]:
    """(id or (id, id) for a plural message, file, line) for every literal id in the code: the platform's and that
    of the game packages given."""
    for folder in _scanned_folders(packages):
        for filename, lineno, message, _comments, _context in extract_from_dir(
                folder, method_map=[("**.py", "python")], keywords=KEYWORDS):
            if MESSAGE_ID.match(message[0] if isinstance(message, tuple) else message):
                yield message, folder / filename, lineno


async def _command_messages() -> list[tuple[str | None, str, str]]:
    from discord import AppCommandType

    from bot.app import create_bot
    from bot.command_translator import command_tree_message_ids
    from bot.core import package_for_group
    from bot.offline import DiscordHarness

    with tempfile.TemporaryDirectory() as folder:
        async with DiscordHarness(create_bot(Path(folder) / "extract.sqlite3")) as harness:
            found = []
            for command in harness.bot.tree.get_commands(type=AppCommandType.chat_input):
                package = package_for_group(command.name)
                domain = package.domain if package is not None else None
                found += [(domain, message_id, english)
                          for message_id, english in command_tree_message_ids(command)]
            return found


def command_messages() -> list[tuple[str | None, str, str]]:
    """(domain, id, English text) for every name and description the slash commands register: the domain is a game
    package's for its slash group's texts, else None (the platform's)."""
    return asyncio.run(_command_messages())


def _domain_of_file(path: Path, folders: dict[str, Path]) -> str | None:
    return next((domain for domain, folder in folders.items() if path.is_relative_to(folder)), None)


def _owner(users: set[str | None]) -> str:
    """The domain of an id used by `users` (None: the platform): a game's alone, else the platform's."""
    only = next(iter(users)) if len(users) == 1 else None
    return only if only is not None else DOMAIN


def build_templates() -> dict[str, Catalog]:
    """Every domain's template (the platform's first, then each game package's), each id in the one domain that
    owns it."""
    packages = game_packages()
    folders = {package.domain: package_folder(package) for package in packages if package.domain is not None}
    return templates_from(list(source_messages(packages)), command_messages(), folders)


def _key(message: Message) -> str:
    return message[0] if isinstance(message, tuple) else message


def templates_from(sources: list[tuple[Message, Path, int]], commands: list[tuple[str | None, str, str]],
                   folders: dict[str, Path]) -> dict[str, Catalog]:
    """The templates of the platform's domain and of each game domain in `folders` (domain: package folder), from
    the ids found in files (`source_messages`) and in the command tree (`command_messages`): an id goes to a game's
    domain when only that game's files and slash group use it, else to the platform's."""
    users: dict[str, set[str | None]] = defaultdict(set)
    for message, path, _lineno in sources:
        users[_key(message)].add(_domain_of_file(path, folders))
    for domain, message_id, _english in commands:
        users[message_id].add(domain)
    templates = {domain: Catalog(domain=domain, project="expedition-table", fuzzy=False)
                 for domain in (DOMAIN, *folders)}
    for message, path, lineno in sources:
        template = templates[_owner(users[_key(message)])]
        existing = template.get(_key(message))
        if existing is None:
            template.add(message, locations=[(_shown(path), lineno)])
        else:
            existing.locations.append((_shown(path), lineno))
    for _domain, message_id, english in commands:
        template = templates[_owner(users[message_id])]
        if template.get(message_id) is None:
            template.add(message_id, auto_comments=[f"English: {english}"])
    return templates


def build_template() -> Catalog:
    """The platform's template alone."""
    return build_templates()[DOMAIN]


def main(argv: list[str] | None = None) -> int:
    for domain, template in build_templates().items():
        path = template_path(domain)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, template, width=120, omit_header=False, sort_output=True)
        print(f"{_shown(path)}: {len(template)} messages", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
