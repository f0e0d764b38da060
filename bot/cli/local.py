"""`expedition-bot local`: an offline table in the terminal.

It runs the real bot (same cogs, service, store and renderers) through bot/offline/, so what you type is handled
exactly as a Discord slash command would be. Board images are written to a folder instead of being posted.
"""

from __future__ import annotations

import asyncio
import datetime
import shlex
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.app import create_bot
from bot.cli.config import database_location
from bot.command_translator import choice_message_id, command_message_id, option_message_id
from bot.core.names import same_name
from bot.i18n import DEFAULT_LANGUAGE, message_ids, translate
from bot.offline import DiscordHarness, FakeUser, HarnessError, Message, Reply, TerminalClient
from bot.store.engines import redact

HELP = """Type slash commands as in Discord, e.g.
  /game new the-expedition            (or: /game new game:the-expedition seed:7)
  /game join        /game start       /explore move up      /game mine
Table commands:
  as NAME           switch who is typing (a new name joins the server)
  as NAME admin     the same, and NAME may manage the server (/settings)
  buttons           list the buttons under the latest message
  click LABEL|N     press a button of the latest message that has buttons (by label or number)
  choose N|VALUE    pick an option in the latest select menu
  commands          list every slash command
  help, quit"""


class LocalTable:
    """Reads lines, turns them into interactions, prints what the bot would post, saves board images."""

    def __init__(self, table: DiscordHarness, boards: Path, language: str = "en") -> None:
        self.table = table
        self.boards = boards
        # Everyone at the offline table uses a Discord client in `language`, in a server whose language it is too.
        self.locale = "de" if language == "de" else "en-US"
        self.language = language
        table.world.guild_locale = self.locale
        self.user: FakeUser = table.user("alice", locale=self.locale)
        self.client = TerminalClient(table.world, boards, language)  # how messages look, images saved to boards

    # ------------------------------------------------------------------------------------------- parsing

    def _local(self, message_id: str) -> str | None:
        """The name Discord shows this table's players in their language ("/spiel neu" with --language de), if the
        command tree registers one: they may type it as well as the English one."""
        if self.language == DEFAULT_LANGUAGE or message_id not in message_ids(self.language):
            return None
        return translate(message_id, self.language)

    def _named(self, commands: list[Any], name: str) -> Any:
        return next((c for c in commands if c.name == name), None) or next(
            (c for c in commands if self._local(command_message_id(c.qualified_name, "name")) == name), None)

    def _command(self, tokens: list[str]) -> tuple[str, app_commands.Command[Any, ..., Any], list[str]]:
        tree = self.table.bot.tree
        node: Any = self._named(tree.get_commands(), tokens[0].lstrip("/"))
        if node is None:
            raise HarnessError(f"There is no command /{tokens[0].lstrip('/')}. Type 'commands' to list them.")
        path = [node.name]
        rest = tokens[1:]
        while isinstance(node, app_commands.Group):
            if not rest:
                names = ", ".join(c.name for c in node.commands)
                raise HarnessError(f"/{' '.join(path)} needs a subcommand: {names}")
            child = self._named(node.commands, rest[0])
            if child is None:
                names = ", ".join(c.name for c in node.commands)
                raise HarnessError(f"/{' '.join(path)} has no subcommand {rest[0]!r}; it has: {names}")
            node, path, rest = child, [*path, child.name], rest[1:]
        return " ".join(path), node, rest

    @staticmethod
    def _convert(parameter: app_commands.Parameter, text: str, shown: Callable[[str], str | None] = lambda _: None) \
            -> Any:
        """`text` as the option's value; a choice by its value or its name, in English or as the players' Discord
        shows it (`shown`: "Horst (gelber Würfel)"), with or without the "(…)"."""
        if parameter.choices:
            for choice in parameter.choices:
                names = [choice.name, shown(choice.name) or choice.name]
                names += [name.split(" (")[0] for name in names]
                if same_name(text, str(choice.value)) or any(same_name(text, name) for name in names):
                    return choice.value
            allowed = ", ".join(str(c.value) for c in parameter.choices)
            raise HarnessError(f"{parameter.display_name} must be one of: {allowed}")
        kind = parameter.type
        try:
            if kind is discord.AppCommandOptionType.integer:
                return int(text)
            if kind is discord.AppCommandOptionType.number:
                return float(text)
        except ValueError:
            raise HarnessError(f"{parameter.display_name} must be a number, not {text!r}") from None
        if kind is discord.AppCommandOptionType.boolean:
            return text.lower() in ("true", "yes", "y", "1", "on")
        return text

    def parse(self, line: str) -> tuple[str, dict[str, Any]]:
        """"/game new the-expedition seed:7" -> ("game new", {"game": "the-expedition", "seed": 7})."""
        path, command, rest = self._command(shlex.split(line))
        parameters = {p.display_name: p for p in command.parameters}
        for parameter in command.parameters:  # and by the name the players' Discord shows ("spiel:")
            local = self._local(option_message_id(command.qualified_name, parameter.name, "name"))
            if local:
                parameters.setdefault(local, parameter)
        options: dict[str, Any] = {}
        positional: list[str] = []
        for token in rest:
            name, colon, value = token.partition(":")
            if colon and name in parameters:
                options[parameters[name].display_name] = self._value(parameters[name], value)
            else:
                positional.append(token)
        free = [p for p in command.parameters if p.display_name not in options]
        if len(positional) > len(free):
            raise HarnessError(f"/{path} takes {', '.join(p.display_name for p in command.parameters) or 'nothing'}")
        for parameter, value in zip(free, positional, strict=False):
            options[parameter.display_name] = self._value(parameter, value)
        return path, options

    def _value(self, parameter: app_commands.Parameter, text: str) -> Any:
        """A typed option; a member or channel option takes a name as players write it ("@Bob", "#games")."""
        if parameter.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            name = text.removeprefix("@").strip().lower()
            if not name:
                raise HarnessError(f"{parameter.display_name} needs a member's name, such as @bob")
            return self.table.user(name)
        if parameter.type is discord.AppCommandOptionType.channel:
            name = text.removeprefix("#").strip().lower()
            if not name:
                raise HarnessError(f"{parameter.display_name} needs a channel's name, such as #games")
            return self.table.channel(name)
        for choice in parameter.choices:  # a choice by the name the players' Discord shows ("Englisch")
            local = self._local(choice_message_id(choice.name))
            if local and same_name(text, local):
                return choice.value
        return self._convert(parameter, text, lambda name: self._local(choice_message_id(name)))

    # ------------------------------------------------------------------------------------------- output

    def _latest(self, *, selects: bool = False) -> Message:
        for message in reversed(self.table.visible_messages(self.user)):
            if (message.selects() if selects else message.buttons()):
                return message
        raise HarnessError("No message with " + ("a select menu" if selects else "buttons") + " yet.")

    def show(self, replies: list[Reply]) -> None:
        self.client.show(replies, self.user)

    @staticmethod
    def _print_components(holder: Reply | Message) -> None:
        TerminalClient.print_components(holder)

    # ------------------------------------------------------------------------------------------- the loop

    async def handle(self, line: str) -> bool:
        """Run one line; False when the user wants to stop."""
        words = line.split()
        if not words:
            return True
        word = words[0].lower()
        if word in ("quit", "exit"):
            return False
        if word == "help":
            print(HELP)
        elif word == "as" and len(words) == 2:
            self.user = self.table.user(words[1].lower(), locale=self.locale)
            print(f"(now typing as {self.user.global_name})")
        elif word == "as" and len(words) == 3 and words[2].lower() == "admin":
            # A server admin: /settings needs Manage Server, /game kick and /game abandon take Manage Channels.
            self.user = self.table.user(words[1].lower(), manage_guild=True, manage_channels=True,
                                        locale=self.locale)
            print(f"(now typing as {self.user.global_name}, who can manage this server)")
        elif word == "commands":
            for command in self.table.bot.tree.walk_commands():
                if isinstance(command, app_commands.Command):
                    path = command.qualified_name.split()
                    local = [self._local(command_message_id(" ".join(path[:depth]), "name")) or path[depth - 1]
                             for depth in range(1, len(path) + 1)]
                    about = self._local(command_message_id(command.qualified_name, "description"))
                    print(f"/{' '.join(local)} — {about or command.description}")
        elif word == "buttons":
            self._print_components(self._latest())
        elif word == "click" and len(words) >= 2:
            message = self._latest()
            target = " ".join(words[1:])
            labels = [b.get("label") or "" for b in message.buttons()]
            if target.isdigit() and 1 <= int(target) <= len(labels):
                custom_id = message.buttons()[int(target) - 1]["custom_id"]
                self.show(await self.table.click(message, custom_id=custom_id, user=self.user))
            else:
                matches = [b for b in message.buttons() if same_name(target, b.get("label") or "")]
                if not matches:
                    raise HarnessError(f"No button {target!r}; the buttons are: {', '.join(labels)}")
                self.show(await self.table.click(message, custom_id=matches[0]["custom_id"], user=self.user))
        elif word == "choose" and len(words) >= 2:
            message = self._latest(selects=True)
            select = message.selects()[0]
            options = select.get("options", [])
            target = " ".join(words[1:])
            if target.isdigit() and 1 <= int(target) <= len(options):
                value = options[int(target) - 1]["value"]
            else:
                value = next((o["value"] for o in options
                              if same_name(target, o["value"]) or same_name(target, o["label"])), target)
            self.show(await self.table.select(message, select["custom_id"], [value], user=self.user))
        elif line.startswith("/"):
            path, options = self.parse(line)
            if path == "game new" and "language" not in options:
                options["language"] = self.language  # the table plays in the terminal's language
            self.show(await self.table.command(path, options, user=self.user))
        else:
            print("Commands start with '/'. Type 'help' for the table commands.")
        return True


async def _lines(script: str | None) -> AsyncIterator[str]:
    if script is not None:
        for line in Path(script).read_text().splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                print(f"> {line}")
                yield line
        return
    interactive = sys.stdin.isatty()
    while True:
        try:
            line = await asyncio.to_thread(input, "> " if interactive else "")
        except EOFError:
            return
        if not interactive:
            print(f"> {line}")
        yield line


def run_folder(root: Path, now: datetime.datetime | None = None) -> Path:
    """A new folder under `root` for this run's board images, named by the local time it started
    ("20261201-081500", then "-2", "-3" for runs in the same second): every run numbers its boards from 001, so
    sharing one folder would silently overwrite the last run's images."""
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    root.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 1000):
        folder = root / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise HarnessError(f"Could not make a new folder for this run's board images under {root}.")


async def run_local_table(*, database: str | None = None, boards: str | None = None,
                          script: str | None = None, language: str = "en") -> int:
    """Play offline until 'quit' or the end of input. Returns a process exit code.

    `database` is a SQLite file or a `postgresql://` URL (kept as text: a Path would fold its `//` into `/`).
    """
    with tempfile.TemporaryDirectory(prefix="expedition-local-") as scratch:
        db = database_location(database) if database else Path(scratch) / "local.sqlite3"
        folder = run_folder(Path(boards or "boards").resolve())
        print(f"Expedition Table, offline. Database: {redact(str(db))}. Board images: {folder} "
              "(a new folder for each run)")
        print("Type 'help' for help; you are alice (switch with 'as bob').")
        async with DiscordHarness(create_bot(db), raise_errors=False, timeout=30.0) as table:
            local = LocalTable(table, folder, language)
            async for line in _lines(script):
                try:
                    if not await local.handle(line.strip()):
                        break
                except HarnessError as error:
                    print(f"(!) {error}")
    return 0
