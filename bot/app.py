"""The Discord bot: built by `create_bot`, which loads every cog in setup_hook without connecting."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import os
import pkgutil
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot.games  # noqa: F401  (finds every game package: their commands are loaded below)
import cogs
from bot.command_translator import CommandTranslator
from bot.core import RuleError, all_packages
from bot.features import install
from bot.features.community import Clock, utc_now
from bot.features.ratings import RatingsKeeper
from bot.features.scheduler import Scheduler
from bot.features.stats import ResultsKeeper
from bot.i18n import Text
from bot.service import GameService
from bot.store import Store
from cogs.table import AnswerFirstTree, BoardDesk, answer_error

log = logging.getLogger(__name__)


# The bot never joins voice: skip discord.py's start-up warnings about missing voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def extension_names() -> list[str]:
    """The discord.py extensions to load: the platform's cogs (the modules of cogs/ with a setup(bot); the rest,
    such as common, table and controls, are shared helpers), then every game package's slash command group."""
    names = [f"cogs.{module.name}" for module in pkgutil.iter_modules(cogs.__path__)
             if not module.name.startswith("_") and hasattr(importlib.import_module(f"cogs.{module.name}"), "setup")]
    games = [package.commands for package in all_packages() if package.commands is not None]
    return [name for name in names if name not in games] + games


class ExpeditionBot(commands.Bot):
    """A bot whose only interface is slash commands and buttons; it needs no privileged intents."""

    service: GameService
    desk: BoardDesk

    def __init__(self, database: str | os.PathLike[str], *, sync_guild: int | None = None,
                 sync_commands: bool = False, clock: Clock = utc_now, poll_seconds: float | None = 60,
                 freeze_start_up: bool = False, backup: bool = True, **sharding: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Nobody is pinged unless a message names exactly whom (cogs.common.pings).
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), tree_cls=AnswerFirstTree, **sharding)
        self.database = os.fspath(database)
        self.backup = backup
        self.sync_guild = sync_guild
        self.sync_commands = sync_commands
        self.store: Store | None = None
        self.tree.error(self.on_app_command_error)
        # Issue 12: scheduled work (reminders, turn timers, lobby expiry) on the bot's clock.
        self.clock = clock
        self.poll_seconds = poll_seconds
        self.freeze_start_up = freeze_start_up
        self.scheduler: Scheduler
        self._scheduler_loop: asyncio.Task[None] | None = None

    async def open_store(self) -> Store:
        """Open (and migrate) the database now; `run` does this before contacting Discord, so that a database the
        bot cannot use is refused in one sentence at start (StoreError) rather than failing every move later. A SQLite
        file of an older schema is backed up next to it first unless `backup` is off (the log says where)."""
        if self.store is None:
            self.store = await Store.open(self.database, backup=self.backup)
        return self.store

    async def setup_hook(self) -> None:
        store = await self.open_store()
        # The features (computer players, ratings, reminders and timers) plug into the service's hooks.
        self.service = install(GameService(store), clock=self.clock)
        self.service.warm_up()  # the games' data, the catalogues, the renderers: not on the first move's loop
        self.desk = BoardDesk(self, self.service)
        # Issue 12: handlers come from cogs/community.py and cogs/delivery.py; the first pass is cogs/resume.py's.
        self.scheduler = Scheduler(store, self.clock, poll_seconds=self.poll_seconds)
        # Results a bot process of an older version left out (it finished games during a rolling upgrade).
        self.scheduler.every_pass(ResultsKeeper(store).sweep)
        self.scheduler.every_pass(RatingsKeeper(store).sweep)  # what a crash left unrated
        await self.service.render_pool.start()  # spawn and warm the render workers now, not on the first board
        await self.tree.set_translator(CommandTranslator())  # issue 21: German command names at every sync
        for name in extension_names():
            await self.load_extension(name)
        if self.sync_commands:
            await self.sync_command_tree(self.sync_guild)
        if self.poll_seconds is not None:  # its first pass once the bot is ready (cogs/resume.py), then polling
            self._scheduler_loop = asyncio.create_task(self.scheduler.run_forever(), name="expedition-scheduler")
        if self.freeze_start_up:
            # What start-up built (discord.py's command tree and cogs, the games' rules and data, the catalogues)
            # lives as long as the process: set aside, a full garbage collection never walks it again. A full
            # collection of ~60,000 objects took up to 40 ms on the event loop, every channel's press waiting
            # (benchmarks/bench_loop_lag.py: 11 ms frozen; issue 25). Only for a process that runs one bot for its
            # life (`run`): frozen objects are never collected, so tests that make a bot each would keep them all.
            gc.collect()
            gc.freeze()

    async def run_due_work(self) -> int:
        """One pass of the scheduler: send the reminders, apply the timers and expire the lobbies due now (and fill
        in the results an older bot process left out); returns how many items of due work it handled."""
        return await self.scheduler.run_once()

    async def sync_command_tree(self, guild_id: int | None = None, *, clear: bool = False) -> int:
        """Register the slash commands with Discord: globally, or in one server at once (for development).

        `clear` removes the commands registered to that one server (they then appear only once, from the global
        set). Returns how many commands are now registered there.
        """
        if guild_id is None:
            if clear:
                self.tree.clear_commands(guild=None)
            synced = await self.tree.sync()
            log.info("Synced %d commands globally (may take up to an hour to appear)", len(synced))
            return len(synced)
        guild = discord.Object(id=guild_id)
        if clear:
            self.tree.clear_commands(guild=guild)
        else:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("Synced %d commands to server %s", len(synced), guild_id)
        return len(synced)

    async def close(self) -> None:
        if self._scheduler_loop is not None:
            self._scheduler_loop.cancel()
            self._scheduler_loop = None
        try:
            await super().close()
        finally:
            if self.store is not None:
                await self.store.close()
                self.store = None

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """Rule errors are answered privately; anything else is logged with its trace and apologised for."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure) and not isinstance(original, RuleError):
            # A check's own refusal (a message id, worded for the reader), else discord.py's words (guild_only...).
            refusal = getattr(error, "refusal", None) or (
                Text.of("error.not_in_direct_messages") if isinstance(error, app_commands.NoPrivateMessage)
                else str(error) or Text.of("error.command_not_here"))
            await answer_error(interaction, RuleError(refusal))
            return
        await answer_error(interaction, original)


class ShardedExpeditionBot(ExpeditionBot, commands.AutoShardedBot):
    """The same bot running several shards in one process (`run --shard-count N --shard-ids 0,1`)."""


def create_bot(database: str | os.PathLike[str], *, sync_guild: int | None = None, sync_commands: bool = False,
               shard_count: int | None = None, shard_ids: list[int] | None = None, clock: Clock = utc_now,
               poll_seconds: float | None = 60, freeze_start_up: bool = False, backup: bool = True) -> ExpeditionBot:
    """The fully configured bot, not yet connected: tests, the local table and embedders all start here.

    `database` is a SQLite file path or a `postgresql://` URL. With `shard_count` the bot is an AutoShardedBot
    running the shards `shard_ids` (all of them if omitted); processes sharing one PostgreSQL split the ids.
    `clock` (a callable returning an aware UTC datetime) is the scheduler's time; the scheduler runs a pass as soon
    as the bot is ready, then every `poll_seconds` (None: only when `await bot.run_due_work()` is called). With
    `freeze_start_up` (the `run` command) what start-up built is set aside from the garbage collector (gc.freeze)
    once the bot is set up. With `backup` off, an older SQLite file is upgraded without a backup next to it.
    """
    timing: dict[str, Any] = {"clock": clock, "poll_seconds": poll_seconds, "freeze_start_up": freeze_start_up,
                              "backup": backup}
    if shard_count is None and shard_ids is None:
        return ExpeditionBot(database, sync_guild=sync_guild, sync_commands=sync_commands, **timing)
    return ShardedExpeditionBot(database, sync_guild=sync_guild, sync_commands=sync_commands,
                                shard_count=shard_count, shard_ids=shard_ids, **timing)
