"""Running the bot as a service: clean shutdown on SIGTERM/SIGINT, and one clear sentence when it cannot start."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable

import aiohttp
import discord

from bot.app import ExpeditionBot
from bot.store import StoreError

log = logging.getLogger(__name__)

BAD_TOKEN = ("Discord refused the token: copy it again from https://discord.com/developers/applications "
             "(your application, Bot tab, Reset Token) into DISCORD_TOKEN.")
NO_NETWORK = "Could not reach Discord ({error}): check this machine's network connection and try again."
MISSING_INTENTS = ("Discord refused the connection because the bot asked for privileged intents; this bot needs "
                   "none, so this is a bug: please report it.")


def install_shutdown_signals(client: discord.Client) -> Callable[[], None]:
    """Close the bot (and with it the database) when systemd, docker or Ctrl-C asks the process to stop.

    Returns a function that removes the handlers again.
    """
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    closing: set[asyncio.Task[None]] = set()

    def stop(signum: signal.Signals) -> None:
        log.info("Received %s: closing the bot and the database", signum.name)
        task = loop.create_task(client.close(), name="shutdown")
        closing.add(task)
        task.add_done_callback(closing.discard)

    if sys.platform == "win32":  # Windows event loops have no signal handlers: Ctrl-C stops the process as usual
        return lambda: None
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, stop, signum)
            installed.append(signum)
        except RuntimeError:  # not the main thread (e.g. a test running the bot in a worker thread)
            pass

    def remove() -> None:
        for signum in installed:
            loop.remove_signal_handler(signum)

    return remove


async def _guarded(work: Callable[[], Awaitable[None]]) -> str | None:
    """Run `work`; a failure to start is turned into the one sentence a person needs."""
    try:
        await work()
    except discord.LoginFailure:
        return BAD_TOKEN
    except discord.PrivilegedIntentsRequired:
        return MISSING_INTENTS
    except StoreError as error:  # a database too new, or one this process cannot write: its own sentence
        return str(error)
    except (TimeoutError, aiohttp.ClientConnectionError, OSError) as error:
        return NO_NETWORK.format(error=type(error).__name__ if not str(error) else str(error).split(" [")[0])
    return None


async def serve(client: ExpeditionBot, token: str) -> str | None:
    """Connect and host games until the process is asked to stop. Returns an error sentence, or None."""

    async def work() -> None:
        async with client:
            await client.open_store()  # a database the bot cannot use is refused before Discord is contacted
            remove = install_shutdown_signals(client)
            try:
                await client.start(token)
            finally:
                remove()
                service = getattr(client, "service", None)
                if service is not None:  # the render workers are processes of their own: stop them too
                    service.render_pool.close()
                from bot import workers
                from bot.features import autoplay

                autoplay.close()  # and the computer players' thinking workers
                workers.close()  # and the records worker (exports, stats)

    return await _guarded(work)


async def sync_commands(client: ExpeditionBot, token: str, guild_id: int | None, *, clear: bool) -> str | None:
    """Log in over HTTP only (no gateway connection), register the slash commands, and close."""
    counted: list[int] = []

    async def work() -> None:
        async with client:
            await client.login(token)
            counted.append(await client.sync_command_tree(guild_id, clear=clear))

    error = await _guarded(work)
    if error is None:
        where = f"server {guild_id}" if guild_id is not None else "every server (may take up to an hour to appear)"
        action = "Cleared the commands of" if clear else f"Registered {counted[0]} commands in"
        print(f"{action} {where}.")
    return error
