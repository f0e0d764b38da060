"""What goes wrong on Discord's side, for the offline Discord (bot/offline.py): rate limits and server errors on any
route, permissions taken away per channel, channels and threads deleted, and the message nonce a create may carry.

    faults = Faults(harness)
    faults.fail("POST /channels/{channel_id}/messages", status=503, times=2)      # two server errors, then fine
    faults.fail("POST /webhooks/{webhook_id}/{webhook_token}", status=429, retry_after=1.5)
    faults.deny(channel, "attach_files")                                          # a 403 for any file sent there
    await faults.delete_channel(channel)                                          # CHANNEL_DELETE, then 404s

Each is what Discord answers: a 429 as discord.py raises it once it gives up waiting (`RateLimited`, with the
`retry_after` Discord sent), a 5xx as `DiscordServerError`, a missing permission as 403 Missing Permissions (50013)
or Missing Access (50001), a deleted channel as 404 Unknown Channel (10003) and the gateway's CHANNEL_DELETE or
THREAD_DELETE event. A create with `nonce` and `enforce_nonce` returns the message already created with that nonce
by the same author within `nonce_seconds` instead of posting it again, as Discord does.
"""

from __future__ import annotations

import asyncio
import copy
import fnmatch
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord

from bot.offline import Call, DiscordHarness, FakeChannel

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
UNKNOWN_CHANNEL = 10003
NONCE_SECONDS = 300.0  # Discord: "checked for uniqueness in the past few minutes"

MESSAGE_ROUTES = ("POST /channels/{channel_id}/messages", "PATCH /channels/{channel_id}/messages/{message_id}")
FOLLOWUP_ROUTES = ("POST /webhooks/{webhook_id}/{webhook_token}",
                   "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                   "POST /interactions/{webhook_id}/{webhook_token}/callback")


def discord_error(status: int, code: int = 0, message: str = "", retry_after: float | None = None) -> Exception:
    """The exception discord.py raises for this answer."""
    if status == 429:
        return discord.RateLimited(retry_after if retry_after is not None else 1.0)
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    response: Any = SimpleNamespace(status=status, reason={403: "Forbidden", 404: "Not Found"}.get(status, "Error"),
                                    headers=headers)
    body = {"code": code, "message": message or f"{status} error"}
    if status == 403:
        return discord.Forbidden(response, body)
    if status == 404:
        return discord.NotFound(response, body)
    if status >= 500:
        return discord.DiscordServerError(response, body)
    return discord.HTTPException(response, body)


@dataclass
class _Failure:
    route: str  # a route key, with * wildcards
    status: int
    times: int  # how many calls fail (then the route works again); -1: every call
    retry_after: float | None
    code: int
    channel_id: int | None
    with_files: bool | None


class Faults:
    """Faults for one harness (installed as its interceptor); every call the bot makes passes through `intercept`."""

    def __init__(self, harness: DiscordHarness, *, clock: Callable[[], float] = time.monotonic,
                 nonces: dict[tuple[int, str], tuple[int, float]] | None = None) -> None:
        """`clock` is Discord's time in seconds (for the nonce window); `nonces` what Discord remembers of them,
        to share between harnesses of one world (a bot that restarts meets the same Discord)."""
        self.harness = harness
        self.clock = clock
        self.nonce_seconds = NONCE_SECONDS
        self.failures: list[_Failure] = []
        self.denied: dict[int, set[str]] = {}
        self.failed: list[tuple[str, int]] = []  # (route, status) of every call failed on purpose
        self._nonces = nonces if nonces is not None else {}  # (channel, nonce) -> (message id, when)
        harness.interceptors.append(self.intercept)

    # -- what a test sets up -------------------------------------------------------------------------------------------

    def fail(self, route: str, *, status: int, times: int = 1, retry_after: float | None = None, code: int = 0,
             channel: FakeChannel | int | None = None, with_files: bool | None = None) -> None:
        """The next `times` calls of `route` (wildcards allowed; -1: all of them) get this error; only those to
        `channel`, and only those sending files (`with_files=True`, a board) or none, when given."""
        channel_id = channel.id if isinstance(channel, FakeChannel) else channel
        self.failures.append(_Failure(route, status, times, retry_after, code, channel_id, with_files))

    def heal(self) -> None:
        """Every scheduled failure is forgotten."""
        self.failures.clear()

    def deny(self, channel: FakeChannel | int, *permissions: str) -> None:
        """The bot loses these permissions in the channel: view_channel, send_messages, attach_files, embed_links."""
        channel_id = channel.id if isinstance(channel, FakeChannel) else channel
        self.denied.setdefault(channel_id, set()).update(permissions)

    def allow(self, channel: FakeChannel | int) -> None:
        self.denied.pop(channel.id if isinstance(channel, FakeChannel) else channel, None)

    async def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a channel or thread as a member would: Discord forgets it and tells the bot (CHANNEL_DELETE or
        THREAD_DELETE); the bot's handlers run before this returns."""
        channel.deleted = True
        harness = self.harness
        state = harness.bot._connection
        before = set(asyncio.all_tasks())
        if channel.is_thread:
            state.parse_thread_delete({"id": str(channel.id), "guild_id": str(channel.guild_id),
                                       "parent_id": str(channel.parent_id), "type": channel.type})
        else:
            state.parse_channel_delete(channel.payload())
        await harness.settle(before)

    # -- the interceptor -----------------------------------------------------------------------------------------------

    def intercept(self, call: Call, answer: Callable[[], Any]) -> Any:
        channel_id = call.channel_id
        if channel_id is not None and self._deleted(channel_id):
            raise discord_error(404, UNKNOWN_CHANNEL, "Unknown Channel")
        for failure in self.failures:
            if failure.times == 0 or not fnmatch.fnmatchcase(call.key, failure.route):
                continue
            if failure.channel_id is not None and failure.channel_id != channel_id:
                continue
            if failure.with_files is not None and failure.with_files != bool(call.files):
                continue
            if failure.times > 0:
                failure.times -= 1
            self.failed.append((call.key, failure.status))
            raise discord_error(failure.status, failure.code, retry_after=failure.retry_after)
        if channel_id is not None and channel_id in self.denied:
            self._check_permissions(call, self.denied[channel_id])
        if call.key == "POST /channels/{channel_id}/messages" and isinstance(call.body, dict):
            return self._create_once(call, answer)
        return answer()

    def _deleted(self, channel_id: int) -> bool:
        world = self.harness.world
        return any(ch.id == channel_id and ch.deleted for ch in [*world.channels.values(), *world.threads.values()])

    def _check_permissions(self, call: Call, denied: set[str]) -> None:
        body = call.body if isinstance(call.body, dict) else {}
        data = body.get("data") if call.key.endswith("/callback") else body
        data = data if isinstance(data, dict) else {}
        bot_route = call.key in MESSAGE_ROUTES
        if bot_route and "view_channel" in denied:
            raise discord_error(403, MISSING_ACCESS, "Missing Access")
        if call.key == MESSAGE_ROUTES[0] and "send_messages" in denied:
            raise discord_error(403, MISSING_PERMISSIONS, "Missing Permissions")
        if call.key not in MESSAGE_ROUTES + FOLLOWUP_ROUTES:
            return
        if call.files and "attach_files" in denied:
            raise discord_error(403, MISSING_PERMISSIONS, "Missing Permissions")
        if data.get("embeds") and "embed_links" in denied:
            raise discord_error(403, MISSING_PERMISSIONS, "Missing Permissions")

    def _create_once(self, call: Call, answer: Callable[[], Any]) -> Any:
        nonce = call.body.get("nonce")
        if nonce is None or not call.body.get("enforce_nonce"):
            return answer()
        key = (int(call.args["channel_id"]), str(nonce))
        now = self.clock()
        seen = self._nonces.get(key)
        world = self.harness.world
        if seen is not None and now - seen[1] <= self.nonce_seconds and seen[0] in world.messages:
            return copy.deepcopy(world.get_message(seen[0]).payload)  # already posted: Discord returns it
        created = answer()
        self._nonces[key] = (int(created["id"]), now)
        return created
