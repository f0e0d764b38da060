"""`expedition-bot local`: an offline table in the terminal.

It runs the real bot (same cogs, service, store and renderers) through bot/offline/, so what you type is handled
exactly as a Discord slash command would be. Board images are written to a folder instead of being posted.
"""

from __future__ import annotations

import asyncio
import datetime
import re
import shlex
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.app import ExpeditionBot, create_bot
from bot.cli.config import database_location
from bot.command_translator import choice_message_id, command_message_id, option_message_id
from bot.core.names import did_you_mean, fold, same_name
from bot.i18n import DEFAULT_LANGUAGE, deferred, message_ids, translate
from bot.offline import DiscordHarness, FakeChannel, FakeUser, HarnessError, Message, Reply, TerminalClient
from bot.store.engines import redact

TABLE_WORDS: dict[str, str] = {
    "as": deferred("local.word.as"),
    "admin": deferred("local.word.admin"),
    "buttons": deferred("local.word.buttons"),
    "click": deferred("local.word.click"),
    "choose": deferred("local.word.choose"),
    "commands": deferred("local.word.commands"),
    "help": deferred("local.word.help"),
    "in": deferred("local.word.in"),
    "quit": deferred("local.word.quit"),
}
"""The local table's own typed commands (not slash commands) by their English word, and the catalogue id of the
word a player types in the table's language ("als", "klicke"); either works."""
OPTION_NAME = re.compile(r"[^\W\d_][\w-]*")
"""What reads as an option's name before a colon ("seed:7", "startwert:7"): a typed `name:value` whose name is no
option of the command is refused, not taken as a value ("https://…" is a value: it goes on with "//")."""
TRUE_WORDS, FALSE_WORDS = ("true", "yes", "y", "1", "on"), ("false", "no", "n", "0", "off")


class LocalTable:
    """Reads lines, turns them into interactions, prints what the bot would post, saves board images."""

    def __init__(self, table: DiscordHarness[ExpeditionBot], boards: Path, language: str = "en") -> None:
        self.table = table
        self.boards = boards
        # Everyone at the offline table uses a Discord client in `language`, in a server whose language it is too.
        self.locale = "de" if language == "de" else "en-US"
        self.language = language
        table.world.guild_locale = self.locale
        self.user: FakeUser = table.user("alice", locale=self.locale)
        self.client = TerminalClient(table.world, boards, language)  # how messages look, images saved to boards
        self.here: FakeChannel = table.default_channel
        """The channel (or thread) the typing member is looking at: commands go there, `buttons` reads it."""
        self.threads_before: set[int] = set()
        """The threads that existed before the line being run: a new one the bot posts in is followed."""

    # ------------------------------------------------------------------------------------------- parsing

    def _local(self, message_id: str) -> str | None:
        """The name Discord shows this table's players in their language ("/spiel neu" with --language de), if the
        command tree registers one: they may type it as well as the English one."""
        if self.language == DEFAULT_LANGUAGE or message_id not in message_ids(self.language):
            return None
        return translate(message_id, self.language)

    def word(self, typed: str) -> str | None:
        """The table command a typed word names (its English word), in English or the table's language."""
        typed = typed.lower()
        if typed == "exit":
            return "quit"
        if typed in TABLE_WORDS:
            return typed
        return next((english for english, message_id in TABLE_WORDS.items()
                     if same_name(typed, translate(message_id, self.language))), None)

    def said(self, english: str) -> str:
        """A table command's word as this table's players type it ("klicke" for click with --language de)."""
        return translate(TABLE_WORDS[english], self.language)

    def _shown_name(self, command: Any) -> str:
        """A command's name as the players' Discord shows it ("neu" for /game new with --language de)."""
        return self._local(command_message_id(command.qualified_name, "name")) or command.name

    def _named(self, commands: list[Any], name: str) -> Any:
        """The command typed by its English name or the one the players' Discord shows, with or without accents
        ("/einstellungen kanale" on a keyboard without umlauts)."""
        return next((c for c in commands if same_name(name, c.name)), None) or next(
            (c for c in commands if same_name(name, self._local(command_message_id(c.qualified_name, "name")) or "")),
            None)

    def _command(self, tokens: list[str]) -> tuple[str, str, app_commands.Command[Any, ..., Any], list[str]]:
        """The command a typed line names: its English path, its path as the players' Discord shows it, the
        command, and the words after it."""
        tree = self.table.bot.tree
        node: Any = self._named(tree.get_commands(), tokens[0].lstrip("/"))
        if node is None:
            raise HarnessError(translate("local.refuse.no_command", self.language, name=tokens[0].lstrip("/"),
                                         commands=self.said("commands")))
        path, shown = [node.name], [self._shown_name(node)]
        rest = tokens[1:]
        while isinstance(node, app_commands.Group):
            if not rest:
                names = ", ".join(self._shown_name(c) for c in node.commands)
                raise HarnessError(translate("local.refuse.needs_subcommand", self.language, path=" ".join(shown),
                                             names=names))
            child = self._named(node.commands, rest[0])
            if child is None:
                names = ", ".join(self._shown_name(c) for c in node.commands)
                raise HarnessError(translate("local.refuse.no_subcommand", self.language, path=" ".join(shown),
                                             name=rest[0], names=names))
            node, path, shown, rest = child, [*path, child.name], [*shown, self._shown_name(child)], rest[1:]
        return " ".join(path), " ".join(shown), node, rest

    @staticmethod
    def _convert(parameter: app_commands.Parameter, text: str, shown: Callable[[str], str | None] = lambda _: None,
                 language: str = DEFAULT_LANGUAGE, option: str | None = None) -> Any:
        """`text` as the option's value; a choice by its value or its name, in English or as the players' Discord
        shows it (`shown`: "Horst (gelber Würfel)"), with or without the "(…)". A refusal names the option as
        `option` (the name the players' Discord shows), else by its English name."""
        option = option or parameter.display_name
        if parameter.choices:
            for choice in parameter.choices:
                names = [choice.name, shown(choice.name) or choice.name]
                names += [name.split(" (")[0] for name in names]
                if same_name(text, str(choice.value)) or any(same_name(text, name) for name in names):
                    return choice.value
            allowed = ", ".join((shown(c.name) or str(c.value)).split(" (")[0] for c in parameter.choices)
            raise HarnessError(translate("local.refuse.choices", language, option=option, choices=allowed))
        kind = parameter.type
        try:
            if kind is discord.AppCommandOptionType.integer:
                return int(text)
            if kind is discord.AppCommandOptionType.number:  # "1,5" as German writes it, too
                return float(text.replace(",", ".") if text.count(",") == 1 and "." not in text else text)
        except ValueError:
            raise HarnessError(translate("local.refuse.number", language, option=option, text=text)) from None
        if kind is discord.AppCommandOptionType.boolean:
            yes, no = translate("local.word.true", language), translate("local.word.false", language)
            if text.lower() in TRUE_WORDS or same_name(text, yes):
                return True
            if text.lower() in FALSE_WORDS or same_name(text, no):
                return False
            raise HarnessError(translate("local.refuse.boolean", language, option=option, text=text, yes=yes,
                                         no=no))
        return text

    def parse(self, line: str) -> tuple[str, dict[str, Any]]:
        """"/game new nim seed:7" -> ("game new", {"game": "nim", "seed": 7})."""
        try:
            tokens = shlex.split(line)
        except ValueError:  # an unclosed quotation mark
            raise HarnessError(translate("local.refuse.quote", self.language)) from None
        path, shown, command, rest = self._command(tokens)
        parameters = {fold(p.display_name): p for p in command.parameters}
        for parameter in command.parameters:  # and by the name the players' Discord shows ("spiel:", "kanal:")
            parameters.setdefault(fold(self._option_name(command, parameter)), parameter)
        options: dict[str, Any] = {}
        positional: list[str] = []
        for token in rest:
            name, colon, value = token.partition(":")
            if colon and fold(name) in parameters:
                parameter = parameters[fold(name)]
                options[parameter.display_name] = self._value(command, parameter, value)
            elif colon and OPTION_NAME.fullmatch(name) and not value.startswith("//"):
                raise self._no_option(command, shown, name)  # (it was taken as a value: "sed:7" as the mode)
            else:
                positional.append(token)
        free = [p for p in command.parameters if p.display_name not in options]
        if len(positional) > len(free):
            if not command.parameters:
                raise HarnessError(translate("local.refuse.takes_nothing", self.language, path=shown))
            raise HarnessError(translate("local.refuse.takes", self.language, path=shown, options=", ".join(
                self._option_name(command, p) for p in command.parameters)))
        for parameter, value in zip(free, positional, strict=False):
            options[parameter.display_name] = self._value(command, parameter, value)
        missing = [self._option_name(command, p) for p in command.parameters
                   if p.required and p.display_name not in options]
        if missing:  # (Discord's client would not send it: it asks for them)
            raise HarnessError(translate("local.refuse.missing", self.language, path=shown,
                                         options=", ".join(missing)))
        return path, options

    def _no_option(self, command: app_commands.Command[Any, ..., Any], shown: str, name: str) -> HarnessError:
        """The refusal of an option `name:` the command does not have, naming the options it has (as the players'
        Discord shows them) and the one a typo most likely meant."""
        if not command.parameters:
            return HarnessError(translate("local.refuse.takes_nothing", self.language, path=shown))
        names = [self._option_name(command, parameter) for parameter in command.parameters]
        return HarnessError(translate("local.refuse.no_such_option", self.language, path=shown, name=name,
                                      options=", ".join(names), suggestion=did_you_mean(name, names, self.language)))

    def _option_name(self, command: app_commands.Command[Any, ..., Any], parameter: app_commands.Parameter) -> str:
        """An option's name as the players' Discord shows it ("startwert" for seed with --language de)."""
        return self._local(option_message_id(command.qualified_name, parameter.name, "name")) or parameter.display_name

    def _value(self, command: app_commands.Command[Any, ..., Any], parameter: app_commands.Parameter,
               text: str) -> Any:
        """A typed option; a member or channel option takes a name as players write it ("@Bob", "#games")."""
        option = self._option_name(command, parameter)
        if parameter.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            name = text.removeprefix("@").strip().lower()
            if not name:
                raise HarnessError(translate("local.refuse.member", self.language, option=option))
            return self.table.user(name)
        if parameter.type is discord.AppCommandOptionType.channel:
            name = text.removeprefix("#").strip().lower()
            if not name:
                raise HarnessError(translate("local.refuse.channel", self.language, option=option))
            return self.table.channel(name)
        for choice in parameter.choices:  # a choice by the name the players' Discord shows ("Englisch")
            local = self._local(choice_message_id(choice.name))
            if local and same_name(text, local):
                return choice.value
        return self._convert(parameter, text, lambda name: self._local(choice_message_id(name)), self.language,
                             option)

    # ------------------------------------------------------------------------------------------- output

    def _latest(self, *, selects: bool = False) -> Message:
        for message in reversed(self.table.visible_messages(self.user, self.here)):
            if (message.selects() if selects else message.buttons()):
                return message
        raise HarnessError(translate(deferred("local.refuse.no_menu") if selects
                                     else deferred("local.refuse.no_buttons"), self.language))

    def show(self, replies: list[Reply]) -> None:
        """Print what the bot answered; when it opened a thread and posted there for this member (a lesson, a game
        in a thread), follow into it, as a member does by clicking the thread's link."""
        self.client.show(replies, self.user, self.here)
        opened = [self.table.world.threads[reply.channel_id] for reply in replies
                  if reply.created and reply.channel_id in self.table.world.threads
                  and reply.channel_id not in self.threads_before and reply.channel_id != self.here.id]
        if opened:
            self.move_to(opened[-1])

    def move_to(self, channel: FakeChannel) -> None:
        """Look at `channel` from now on."""
        self.here = channel
        print(translate("local.now_in", self.language, channel=channel.name,
                        back=f"{self.said('in')} #{self.table.default_channel.name}"))

    def go(self, name: str) -> None:
        """`in #NAME`: look at another channel or thread by its name (a new channel name makes the channel)."""
        name = name.strip().lstrip("#")
        threads = [t for t in self.table.world.threads.values() if not t.deleted and same_name(name, t.name)]
        self.move_to(threads[-1] if threads else self.table.channel(name))

    # ------------------------------------------------------------------------------------------- the loop

    async def handle(self, line: str) -> bool:
        """Run one line; False when the user wants to stop."""
        words = line.split()
        if not words:
            return True
        self.threads_before = set(self.table.world.threads)
        if line.startswith("/"):
            path, options = self.parse(line)
            if path == "game new" and "language" not in options:
                options["language"] = self.language  # the table plays in the terminal's language
            self.show(await self.table.command(path, options, user=self.user, channel=self.here))
            return True
        word = self.word(words[0])
        if word is None or word == "admin":  # ("admin" only follows "as NAME")
            raise HarnessError(translate("local.refuse.no_table_command", self.language, word=words[0],
                                         words=", ".join(self.said(w) for w in TABLE_WORDS if w != "admin")))
        if word == "quit":
            return False
        if word == "help":
            print(translate("local.help", self.language))
        elif word == "as" and len(words) == 2:
            self.user = self.table.user(words[1].lower(), locale=self.locale)
            print(translate("local.typing_as", self.language, name=self.user.global_name))
        elif word == "as" and len(words) == 3 and self.word(words[2]) == "admin":
            # A server admin: /settings needs Manage Server, /game kick and /game abandon take Manage Channels.
            self.user = self.table.user(words[1].lower(), manage_guild=True, manage_channels=True,
                                        locale=self.locale)
            print(translate("local.typing_as_admin", self.language, name=self.user.global_name))
        elif word == "in" and len(words) >= 2:
            self.go(" ".join(words[1:]))
        elif word == "commands":
            self.print_commands()
        elif word == "buttons":
            self.client.print_components(self._latest())
        elif word == "click" and len(words) >= 2:
            await self.click(" ".join(words[1:]))
        elif word == "choose" and len(words) >= 2:
            await self.choose(" ".join(words[1:]))
        else:
            raise HarnessError(translate("local.refuse.incomplete", self.language, word=words[0],
                                         help=self.said("help")))
        return True

    def print_commands(self) -> None:
        """Every slash command as the players' Discord shows it, with what it does."""
        for command in self.table.bot.tree.walk_commands():
            if isinstance(command, app_commands.Command):
                path = command.qualified_name.split()
                local = [self._local(command_message_id(" ".join(path[:depth]), "name")) or path[depth - 1]
                         for depth in range(1, len(path) + 1)]
                about = self._local(command_message_id(command.qualified_name, "description"))
                print(f"/{' '.join(local)} — {about or command.description}")

    async def click(self, target: str) -> None:
        """Press a button of the latest message that has buttons, by its number or its label."""
        message = self._latest()
        labels = [b.get("label") or "" for b in message.buttons()]
        if target.isdigit() and 1 <= int(target) <= len(labels):
            custom_id = message.buttons()[int(target) - 1]["custom_id"]
            self.show(await self.table.click(message, custom_id=custom_id, user=self.user))
            return
        matches = [b for b in message.buttons() if same_name(target, b.get("label") or "")]
        if not matches:
            raise HarnessError(translate("local.refuse.no_button", self.language, target=target,
                                         labels=", ".join(labels)))
        self.show(await self.table.click(message, custom_id=matches[0]["custom_id"], user=self.user))

    async def choose(self, target: str) -> None:
        """Pick an option of the latest select menu, by its number, value or label."""
        message = self._latest(selects=True)
        select = message.selects()[0]
        options = select.get("options", [])
        if target.isdigit() and 1 <= int(target) <= len(options):
            value = options[int(target) - 1]["value"]
        else:
            value = next((o["value"] for o in options
                          if same_name(target, o["value"]) or same_name(target, o["label"])), None)
            if value is None:
                raise HarnessError(translate("local.refuse.no_option", self.language, target=target,
                                             labels=", ".join(o["label"] for o in options)))
        self.show(await self.table.select(message, select["custom_id"], [value], user=self.user))


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
                          script: str | None = None, language: str = "en", backup: bool = True) -> int:
    """Play offline until 'quit' or the end of input. Returns a process exit code.

    `database` is a SQLite file or a `postgresql://` URL (kept as text: a Path would fold its `//` into `/`); an
    older SQLite file is backed up next to it before its upgrade unless `backup` is off.
    """
    with tempfile.TemporaryDirectory(prefix="expedition-local-") as scratch:
        db = database_location(database) if database else Path(scratch) / "local.sqlite3"
        folder = run_folder(Path(boards or "boards").resolve())
        print(translate("local.start", language, database=redact(str(db)), folder=str(folder)))
        print(translate("local.start.help", language))
        async with DiscordHarness(create_bot(db, backup=backup), raise_errors=False, timeout=30.0) as table:
            local = LocalTable(table, folder, language)
            async for line in _lines(script):
                try:
                    if not await local.handle(line.strip()):
                        break
                except HarnessError as error:
                    print(f"(!) {error}")
    return 0
