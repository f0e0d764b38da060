"""Offline Discord: feed real INTERACTION_CREATE payloads to discord.py and record every outgoing call.

The tests drive the bot through this (tests/harness.py re-exports it), and so does `expedition-bot local`, the
offline table: both exercise the real command tree, views and error handlers, with only the wire replaced.

Nothing of ours is mocked: payloads go through ``ConnectionState.parse_interaction_create`` so the command tree, views,
dynamic items, checks, transformers and error handlers all run for real; only the wire is replaced.

discord.py internals touched — written against discord.py 2.7.1 (pyproject pins ``>=2.7,<2.8``). After an upgrade,
check each name below still exists with the same meaning (``INTERNALS`` repeats them;
``tests/test_harness.py`` checks them):

* ``Client._connection`` (``ConnectionState``): ``.user``, ``.application_id``, ``._add_guild(guild)``,
  ``.parse_interaction_create(payload)``, ``._command_tree`` (set by ``CommandTree.__init__``)
* ``Client._async_setup_hook()`` — what ``Client.login`` awaits (when ``Client.loop`` is the ``discord.client._loop``
  sentinel) before ``static_login``; then ``login`` sets ``_connection.user`` and ``application_id`` and awaits
  ``setup_hook()``. ``Client._handle_ready()`` sets the ``_ready`` event so ``wait_until_ready`` does not hang.
* ``Client.http`` (``HTTPClient``): instance attributes ``request(route, *, files=, form=, json=, params=, reason=)``
  and ``get_from_cdn(url)`` are replaced by recorders.
* ``discord.http.Route``: ``.method``, ``.path`` (the unformatted template, e.g. ``/channels/{channel_id}/messages``),
  ``.url`` (``Route.BASE`` + formatted path), ``.webhook_token``.
* ``discord.webhook.async_.async_context`` (a ``ContextVar``) and ``AsyncWebhookAdapter.request(route, session, *,
  payload=, multipart=, files=, params=, ...)``: every interaction response, followup and webhook message call
  funnels through that one method. The harness sets the ContextVar only inside the contexts it runs bot code in.
* ``discord.File``: ``.fp``, ``.filename``, ``.description``, ``.reset(seek=)`` (bytes are read during the request:
  discord.py closes the files right after).
* Multipart shape: a part named ``payload_json`` (for interaction callbacks it wraps ``{"type", "data"}``) and
  parts ``files[i]``; a new file is referenced in ``attachments`` by ``{"id": i}``.
* Task names: ``CommandTree-invoker`` (app_commands/tree.py ``_from_interaction``, also runs autocomplete),
  ``discord-ui-view-dispatch-{view.id}`` (ui/view.py ``View._dispatch_item``),
  ``discord-ui-dynamic-item-{cls}-{custom_id}`` (ui/view.py ``ViewStore.dispatch_dynamic_items``),
  ``discord-ui-modal-dispatch-{id}`` (ui/modal.py), ``discord-ui-view-timeout-{view.id}`` (ui/view.py
  ``View._dispatch_timeout``), ``discord.py: {event}`` (client.py ``Client._schedule_event``). A task that dies with
  an exception nobody handled (e.g. a tree ``on_error`` that raises) is reported too.
* ``ConnectionState.parse_thread_create(data)``: a thread the bot creates (``POST /channels/{id}/threads``) is
  cached as the THREAD_CREATE event would; its messages then go to the thread's id.
* ``Guild(data=, state=)``, ``Guild._add_member``, ``Guild._add_channel``, ``TextChannel(state=, guild=, data=)``,
  ``ClientUser(state=, data=)``, ``Member(data=, guild=, state=)``, ``Permissions.VALID_FLAGS``.
* Notifications, as Discord decides them: a newly created, non-ephemeral message notifies the users its
  ``allowed_mentions`` allows (``Message.notified``, ``Reply.notified``); an edit never notifies, and neither does
  the first followup after a type-5 defer, which edits the "thinking…" message. ``parse: ["users"]`` together with
  a ``users`` list is refused with a 400, as Discord does.
* Swallowed callback errors are only *logged* by discord.py (loggers under ``discord``, with ``exc_info``): the
  harness captures those records to fail the test instead of passing silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import datetime as dt
import enum
import functools
import hashlib
import io
import json
import logging
import mimetypes
import re
import warnings
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace, TracebackType
from typing import Any, Self

import discord
import discord.client
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

__all__ = [
    "DISCORD_PY_VERSION",
    "EPHEMERAL",
    "INTERNALS",
    "Call",
    "DiscordHarness",
    "FakeChannel",
    "FakeUser",
    "HarnessError",
    "InteractionFailed",
    "Interceptor",
    "Message",
    "PendingInteraction",
    "Replies",
    "Reply",
    "SentFile",
    "World",
]

DISCORD_PY_VERSION = "2.7.1"
INTERNALS: tuple[str, ...] = (
    "discord.Client._connection",
    "discord.Client._async_setup_hook",
    "discord.Client._handle_ready",
    "discord.client._loop",
    "discord.state.ConnectionState.parse_interaction_create",
    "discord.state.ConnectionState._add_guild",
    "discord.state.ConnectionState.parse_thread_create",
    "discord.state.ConnectionState._command_tree",
    "discord.state.ConnectionState.user",
    "discord.state.ConnectionState.application_id",
    "discord.http.HTTPClient.request",
    "discord.http.HTTPClient.get_from_cdn",
    "discord.http.Route.method/.path/.url/.webhook_token",
    "discord.webhook.async_.async_context",
    "discord.webhook.async_.AsyncWebhookAdapter.request",
    "discord.File.fp/.filename/.description/.reset",
    "discord.Guild._add_member",
    "discord.Guild._add_channel",
    "discord.Permissions.VALID_FLAGS",
    "task:CommandTree-invoker",
    "task:discord-ui-view-dispatch-",
    "task:discord-ui-dynamic-item-",
    "task:discord-ui-modal-dispatch-",
    "task:discord-ui-view-timeout-",
    "task:discord.py: ",
)

EPHEMERAL = 1 << 6
LOADING = 1 << 7
THREAD_PUBLIC = 11
THREAD_PRIVATE = 12
TASK_PREFIXES: tuple[str, ...] = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord-ui-view-timeout-",
    "discord.py: ",
)
DEFAULT_MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    add_reactions=True,
    embed_links=True,
    attach_files=True,
    use_application_commands=True,
)
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    manage_messages=True,
    add_reactions=True,
)
APPLICATION_ID = 1_180_000_000_000_000_001
GUILD_ID = 1_180_000_000_000_000_002
_COMPONENT_TYPES_SELECT = {3: "string", 5: "user", 6: "role", 7: "mentionable", 8: "channel"}

_current_interaction: contextvars.ContextVar[int | None] = contextvars.ContextVar("harness_interaction", default=None)


class HarnessError(Exception):
    """A test drove the fake Discord into something the real one would refuse (or the harness can't model)."""


class InteractionFailed(HarnessError):
    """discord.py swallowed (logged) an exception from our code: surface it so the test fails loudly."""

    def __init__(self, errors: list[BaseException], replies: list[Replies]) -> None:
        lines = "\n".join(f"  {type(e).__name__}: {e}" for e in errors)
        super().__init__(f"{len(errors)} exception(s) were raised inside discord.py callbacks:\n{lines}")
        self.errors = errors
        self.replies = replies


def stable_id(kind: str, name: str) -> int:
    """Snowflake-sized id derived from a name, so a 'restarted' harness sees the same users and channels."""
    digest = hashlib.sha256(f"{kind}:{name}".encode()).digest()
    return (1 << 58) + int.from_bytes(digest[:7], "big")


def _iso(moment: dt.datetime | None = None) -> str:
    return (moment or dt.datetime.now(dt.UTC)).isoformat()


def _http_error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py itself would raise for this Discord error response."""
    reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")
    response: Any = SimpleNamespace(status=status, reason=reason)
    body = {"code": code, "message": message}
    if status == 404:
        return discord.NotFound(response, body)
    if status == 403:
        return discord.Forbidden(response, body)
    return discord.HTTPException(response, body)


# ----------------------------------------------------------------------------------------------------------------------
# Value objects a test reads


@dataclass(frozen=True)
class SentFile:
    """A file as it went over the wire (bytes read during the request, before discord.py closed it)."""

    filename: str
    data: bytes
    description: str | None = None

    def image(self) -> Any:
        """Decode with Pillow, so renderer output can be checked pixel by pixel."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img


@dataclass
class FakeUser:
    """A guild member a test acts as; ids derive from the name so they survive a bot restart."""

    id: int
    name: str
    global_name: str | None
    permissions: discord.Permissions
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, *, with_user: bool = True) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "permissions": str(self.permissions.value),
        }
        if with_user:
            payload["user"] = self.user_payload()
        return payload


@dataclass
class FakeChannel:
    """A guild text channel of the fake server, or a thread in one (type 11 public, 12 private)."""

    id: int
    name: str
    guild_id: int
    type: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    deleted: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (THREAD_PUBLIC, THREAD_PRIVATE)

    def payload(self) -> dict[str, Any]:
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": _iso(),
                    "locked": False,
                    "create_timestamp": _iso(),
                },
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }


def _walk(components: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from _walk(comp.get("components", []))
        if isinstance(comp.get("accessory"), dict):
            yield from _walk([comp["accessory"]])
        if isinstance(comp.get("component"), dict):  # v2 Label
            yield from _walk([comp["component"]])


class _HasComponents:
    """Component helpers shared by messages and replies (components are raw dicts as sent)."""

    components: list[dict[str, Any]]

    def walk_components(self) -> list[dict[str, Any]]:
        return list(_walk(self.components))

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in _walk(self.components) if c.get("type") == 2]

    def button_labels(self) -> list[str]:
        return [c.get("label") or "" for c in self.buttons()]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in _walk(self.components) if "custom_id" in c]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in _walk(self.components) if c.get("type") in _COMPONENT_TYPES_SELECT]

    def select_options(self, custom_id: str | None = None) -> list[dict[str, Any]]:
        """Options of the (only, or named) string select."""
        selects = [s for s in self.selects() if custom_id is None or s.get("custom_id") == custom_id]
        if len(selects) != 1:
            raise HarnessError(f"expected one select matching {custom_id!r}, found {len(selects)}")
        return list(selects[0].get("options", []))

    def find_button(self, *, label: str | None = None, custom_id: str | None = None) -> dict[str, Any]:
        found = [
            b
            for b in self.buttons()
            if (label is None or b.get("label") == label) and (custom_id is None or b.get("custom_id") == custom_id)
        ]
        if len(found) != 1:
            have = [(b.get("label"), b.get("custom_id")) for b in self.buttons()]
            raise HarnessError(
                f"expected one button label={label!r} custom_id={custom_id!r}, found {len(found)}: {have}"
            )
        return found[0]


@dataclass
class Message(_HasComponents):
    """Current state of a message on the fake Discord (edits applied); ``payload`` is what the API would return."""

    payload: dict[str, Any]
    files: list[SentFile] = field(default_factory=list)
    visible_to: int | None = None  # ephemeral: only this user sees (and can click) it
    deleted: bool = False
    interaction_id: int | None = None
    notified: tuple[int, ...] = ()  # users Discord notified when the message was created (edits never notify)
    notified_everyone: bool = False

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.payload.get("embeds", [])

    @property
    def components(self) -> list[dict[str, Any]]:  # type: ignore[override]
        return self.payload.get("components", [])

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags", 0))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)


@dataclass
class Reply(_HasComponents):
    """One outgoing call, decoded. Message fields show the message *after* the call (edits merged)."""

    # response | defer | defer_update | update | followup | edit | delete | channel_message | autocomplete | modal
    kind: str
    interaction_id: int | None
    channel_id: int | None
    message_id: int | None = None
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[SentFile] = field(default_factory=list)
    ephemeral: bool = False
    flags: int = 0
    choices: list[dict[str, Any]] = field(default_factory=list)
    payload: dict[str, Any] = field(default_factory=dict)  # the JSON body as sent
    route: str = ""
    notified: tuple[int, ...] = ()  # users this call notified: only a newly created, non-ephemeral message can
    notified_everyone: bool = False
    created: bool = False  # the call created a new message (rather than editing one)
    at: float = 0.0  # loop time of the call, for response-time measurements

    @property
    def embed(self) -> dict[str, Any]:
        if len(self.embeds) != 1:
            raise HarnessError(f"expected exactly one embed, got {len(self.embeds)}")
        return self.embeds[0]


class Replies(list[Reply]):
    """Replies caused by one interaction, in order, plus whether Discord saw an acknowledgement."""

    def __init__(self, items: Sequence[Reply] = (), *, interaction_id: int | None = None, acked: bool = False) -> None:
        super().__init__(items)
        self.interaction_id = interaction_id
        self.acknowledged = acked

    def of(self, *kinds: str) -> list[Reply]:
        return [r for r in self if r.kind in kinds]

    def messages(self) -> list[Reply]:
        """Replies that create or change a visible message (not defers, autocomplete, modals, deletes)."""
        return [r for r in self if r.kind in ("response", "update", "followup", "edit", "channel_message")]

    def public(self) -> list[Reply]:
        return [r for r in self.messages() if not r.ephemeral]

    def ephemeral(self) -> list[Reply]:
        return [r for r in self.messages() if r.ephemeral]

    def one(self, *kinds: str) -> Reply:
        """The single message-like reply (optionally of the given kinds): most tests expect exactly one."""
        found = self.of(*kinds) if kinds else self.messages()
        if len(found) != 1:
            raise HarnessError(f"expected exactly one reply {kinds or ''}, got {[(r.kind, r.content) for r in self]}")
        return found[0]

    @property
    def last(self) -> Reply:
        found = self.messages()
        if not found:
            raise HarnessError(f"no message replies in {[r.kind for r in self]}")
        return found[-1]


@dataclass
class _InteractionRecord:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    component_message_id: int | None = None
    responded: bool = False
    original_id: int | None = None
    defer_pending: bool = False  # a type-5 defer whose loading message the first followup replaces
    defer_flags: int = 0


# ----------------------------------------------------------------------------------------------------------------------
# The fake Discord side: survives bot restarts (pass ``world=`` to a second harness)


class World:
    """Everything that lives on Discord's side: server, channels, users, messages, attachments, the request log."""

    def __init__(self, *, guild_name: str = "Test Server") -> None:
        self.application_id = APPLICATION_ID
        self.guild_id = GUILD_ID
        self.guild_name = guild_name
        self.channels: dict[str, FakeChannel] = {}
        self.threads: dict[int, FakeChannel] = {}  # by id: two threads may share a name
        self.bot_permissions = discord.Permissions(BOT_PERMISSIONS.value)  # what the bot may do in every channel
        self.users: dict[str, FakeUser] = {}
        self.messages: dict[int, Message] = {}
        self.channel_order: dict[int, list[int]] = {}
        self.attachments: dict[int, SentFile] = {}
        self.interactions: dict[str, _InteractionRecord] = {}
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.command_ids: dict[str, int] = {}
        self._last_id = 0
        self.channel("general")

    def new_id(self) -> int:
        """Increasing snowflakes with a real timestamp (``Interaction.created_at``/expiry stay meaningful)."""
        self._last_id = max(self._last_id + 1, discord.utils.time_snowflake(dt.datetime.now(dt.UTC)))
        return self._last_id

    def channel(self, name: str) -> FakeChannel:
        if name not in self.channels:
            self.channels[name] = FakeChannel(stable_id("channel", name), name, self.guild_id)
        return self.channels[name]

    def channel_by_id(self, channel_id: int) -> FakeChannel:
        for ch in [*self.channels.values(), *self.threads.values()]:
            if ch.id == channel_id and not ch.deleted:
                return ch
        raise _http_error(404, 10003, "Unknown Channel")

    def create_thread(self, parent_id: int, body: dict[str, Any], owner_id: int) -> FakeChannel:
        """``POST /channels/{id}/threads`` without a message, as Discord checks it: a name of 1-100 characters, a
        thread type, a text channel (not a thread) as parent."""
        parent = self.channel_by_id(parent_id)
        if parent.is_thread:
            raise _http_error(400, 50024, "Cannot execute action on this channel type")
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _http_error(400, 50035, "Invalid Form Body: name must be 1-100 characters")
        kind = int(body.get("type", THREAD_PRIVATE))  # Discord's default without a message is a private thread
        if kind not in (THREAD_PUBLIC, THREAD_PRIVATE):
            raise _http_error(400, 50035, "Invalid Form Body: type")
        allowed = (self.bot_permissions.create_public_threads if kind == THREAD_PUBLIC
                   else self.bot_permissions.create_private_threads)
        if not allowed:
            raise _http_error(403, 50013, "Missing Permissions")
        thread = FakeChannel(self.new_id(), name, self.guild_id, kind, parent_id, owner_id)
        self.threads[thread.id] = thread
        return thread

    def bot_user(self, name: str) -> FakeUser:
        return FakeUser(self.application_id, name, name, BOT_PERMISSIONS, bot=True)

    # -- messages ------------------------------------------------------------------------------------------------------

    def _attachments_for(
        self, message: Message | None, body: dict[str, Any], files: list[SentFile], channel_id: int
    ) -> tuple[list[dict[str, Any]], list[SentFile]]:
        """Resolve ``attachments`` like Discord: keep listed existing ids, turn ``{"id": i}`` into uploaded file i."""
        old: dict[int, tuple[dict[str, Any], SentFile]] = {}
        if message is not None:
            old = {int(a["id"]): (a, f) for a, f in zip(message.payload["attachments"], message.files, strict=True)}
        if "attachments" not in body:
            if message is None:
                entries: list[dict[str, Any]] = [{"id": i} for i in range(len(files))]
            else:
                entries = [{"id": a} for a in old] + [{"id": i} for i in range(len(files))]
        else:
            entries = body["attachments"]
        payloads: list[dict[str, Any]] = []
        sent: list[SentFile] = []
        for entry in entries:
            key = int(entry["id"])
            if key in old:
                payloads.append(old[key][0])
                sent.append(old[key][1])
                continue
            if key >= len(files):
                raise _http_error(400, 50035, f"attachment {key} references no uploaded file")
            f = files[key]
            aid = self.new_id()
            url = f"https://cdn.discordapp.com/attachments/{channel_id}/{aid}/{f.filename}"
            payloads.append(
                {
                    "id": str(aid),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": mimetypes.guess_type(f.filename)[0] or "application/octet-stream",
                    "description": entry.get("description", f.description),
                }
            )
            sent.append(f)
            self.attachments[aid] = f
        return payloads, sent

    def create_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[SentFile],
        *,
        author: FakeUser,
        flags: int = 0,
        visible_to: int | None = None,
        interaction_id: int | None = None,
        webhook: bool = False,
    ) -> Message:
        mid = self.new_id()
        attachments, sent = self._attachments_for(None, body, files, channel_id)
        payload: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(self.guild_id),
            "type": 0,
            "author": author.user_payload(),
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "attachments": attachments,
            "flags": flags,
            "timestamp": _iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }
        if webhook:
            payload["webhook_id"] = str(self.application_id)
            payload["application_id"] = str(self.application_id)
        notified, everyone = notifications(payload["content"], body.get("allowed_mentions"))
        if flags & EPHEMERAL:
            notified, everyone = (), False
        msg = Message(payload, sent, visible_to=visible_to, interaction_id=interaction_id, notified=notified,
                      notified_everyone=everyone)
        self.messages[mid] = msg
        self.channel_order.setdefault(channel_id, []).append(mid)
        return msg

    def get_message(self, message_id: int) -> Message:
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted:
            raise _http_error(404, 10008, "Unknown Message")
        return msg

    def edit_message(self, message_id: int, body: dict[str, Any], files: list[SentFile]) -> Message:
        msg = self.get_message(message_id)
        for key in ("content", "embeds", "components"):
            if key in body:
                msg.payload[key] = body[key] if body[key] is not None else ("" if key == "content" else [])
        if "attachments" in body or files:
            msg.payload["attachments"], msg.files = self._attachments_for(msg, body, files, msg.channel_id)
        msg.payload["flags"] = msg.flags & ~LOADING
        msg.payload["edited_timestamp"] = _iso()
        return msg

    def delete_message(self, message_id: int) -> Message:
        msg = self.get_message(message_id)
        msg.deleted = True
        return msg

    def record(self, kind: str, *, interaction_id: int | None, channel_id: int | None, **extra: Any) -> Reply:
        reply = Reply(kind, interaction_id, channel_id, **extra)
        with contextlib.suppress(RuntimeError):
            reply.at = asyncio.get_running_loop().time()
        self.replies.append(reply)
        return reply

    def record_message(
        self, kind: str, msg: Message, *, interaction_id: int | None, body: dict[str, Any], route: str,
        created: bool = False,
    ) -> Reply:
        if not created and "allowed_mentions" in body:
            notifications(body.get("content") or "", body["allowed_mentions"])  # Discord validates edits too
        return self.record(
            kind,
            interaction_id=interaction_id,
            channel_id=msg.channel_id,
            message_id=msg.id,
            content=msg.content,
            embeds=copy.deepcopy(msg.embeds),
            components=copy.deepcopy(msg.components),
            files=list(msg.files),
            ephemeral=msg.ephemeral,
            flags=msg.flags,
            payload=body,
            route=route,
            notified=msg.notified if created else (),
            notified_everyone=msg.notified_everyone if created else False,
            created=created,
        )

    # -- queries -------------------------------------------------------------------------------------------------------

    def channel_messages(self, channel_id: int) -> list[Message]:
        """What a player sees in the channel: public, not deleted, not a 'thinking…' placeholder."""
        out = []
        for mid in self.channel_order.get(channel_id, []):
            msg = self.messages[mid]
            if not (msg.deleted or msg.ephemeral or msg.loading):
                out.append(msg)
        return out


_USER_MENTION = re.compile(r"<@!?([0-9]{15,21})>")
_EVERYONE = re.compile(r"@(everyone|here)\b")


def notifications(content: str, allowed: dict[str, Any] | None) -> tuple[tuple[int, ...], bool]:
    """Whom Discord notifies for a new message with this content and ``allowed_mentions`` body.

    Without ``allowed_mentions`` every mention notifies. ``parse`` lists the kinds that notify by syntax alone;
    ``users`` lists the only users who may be notified (Discord refuses a body with both ``parse: ["users"]`` and
    ``users``). Mention syntax broken by an escape (``<@\u200b123>``) is no mention.
    """
    mentioned = [int(found) for found in _USER_MENTION.findall(content)]
    everyone = bool(_EVERYONE.search(content))
    if allowed is None:
        return tuple(dict.fromkeys(mentioned)), everyone
    parse = allowed.get("parse") or []
    users = {int(user) for user in allowed.get("users") or []}
    if "users" in parse and users:
        raise _http_error(400, 50035, "allowed_mentions: parse:[\"users\"] and users are mutually exclusive")
    notified = [user for user in mentioned if "users" in parse or user in users]
    return tuple(dict.fromkeys(notified)), everyone and "everyone" in parse


def _decode_body(
    payload: dict[str, Any] | None, multipart: Sequence[dict[str, Any]] | None, files: Sequence[discord.File] | None
) -> tuple[dict[str, Any], list[SentFile]]:
    """JSON body and file bytes of a request, whichever of json/multipart form discord.py chose."""
    # A JSON list body (bulk command overwrite) is kept as it is.
    body: Any = list(payload) if isinstance(payload, list) else dict(payload or {})
    for part in multipart or ():
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
    sent: list[SentFile] = []
    for f in files or ():
        f.reset(seek=True)
        sent.append(SentFile(f.filename, f.fp.read(), f.description))
        f.reset(seek=True)
    return body, sent


def _match(template: str, url: str) -> dict[str, str]:
    pattern = re.escape(Route.BASE + template)
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/?]+)", pattern)
    m = re.fullmatch(pattern, url)
    return m.groupdict() if m else {}


RouteHandler = Callable[[Route, dict[str, str], dict[str, Any], list[SentFile]], Any]
Interceptor = Callable[["Call", Callable[[], Any]], Any]
"""Sees every REST and webhook call before the fake Discord answers it: returns `answer()` (Discord's answer), its own
answer, or raises Discord's error (bot/offline_faults.py models rate limits, outages, permissions and deletions)."""


@dataclass(frozen=True)
class Call:
    """One call the bot makes, as an interceptor sees it."""

    key: str  # "POST /channels/{channel_id}/messages"
    args: dict[str, str]  # the route's parameters: {"channel_id": "123"}
    body: Any
    files: list[SentFile]
    interaction_id: int | None = None  # the interaction (webhook calls: its record) the call answers, if any
    channel_id: int | None = None  # where a message would go or be changed


class _RecordingWebhookAdapter(AsyncWebhookAdapter):
    """Stands in for Discord's webhook/interaction endpoints (responses, followups, @original)."""

    def __init__(self, harness: DiscordHarness) -> None:
        super().__init__()
        self._harness = harness

    async def request(  # type: ignore[override]
        self,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Sequence[discord.File] | None = None,
        params: dict[str, Any] | None = None,
        **_: Any,
    ) -> Any:
        body, sent = _decode_body(payload, multipart, files)
        await asyncio.sleep(0)  # a real request yields to the loop; races must be able to interleave here too
        return self._harness._webhook_call(route, body, sent, params or {})


# ----------------------------------------------------------------------------------------------------------------------
# The harness


class PendingInteraction:
    """A built INTERACTION_CREATE payload; awaiting it feeds it and returns its ``Replies``."""

    def __init__(self, harness: DiscordHarness, payload: dict[str, Any]) -> None:
        self.harness = harness
        self.payload = payload
        self.id = int(payload["id"])
        self.fed = False
        self.fed_at = 0.0  # loop time when it was handed to discord.py

    def __await__(self) -> Any:
        return self._run().__await__()

    async def _run(self) -> Replies:
        (replies,) = await self.harness.concurrently(self)
        return replies

    def __del__(self) -> None:
        if not self.fed:
            warnings.warn(f"interaction {self.id} was built but never awaited", RuntimeWarning, stacklevel=1)


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.errors: list[BaseException] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            self.errors.append(record.exc_info[1])


class DiscordHarness:
    """Drive a not-logged-in ``commands.Bot`` through real discord.py interaction handling, fully offline."""

    def __init__(
        self,
        bot: commands.Bot | discord.Client,
        *,
        world: World | None = None,
        bot_name: str = "Expedition Table",
        timeout: float = 5.0,
        raise_errors: bool = True,
        ready: bool = True,
        close_bot: bool = True,
        extra_task_prefixes: Sequence[str] = (),
    ) -> None:
        self.bot = bot
        self.world = world or World()
        self.bot_user = self.world.bot_user(bot_name)
        self.timeout = timeout
        self.raise_errors = raise_errors
        self.ready = ready
        self.close_bot = close_bot
        self.task_prefixes = TASK_PREFIXES + tuple(extra_task_prefixes)
        self.routes: dict[str, RouteHandler] = {}
        self.interceptors: list[Interceptor] = []  # faults a test adds (bot/offline_faults.py), outermost last
        self._adapter = _RecordingWebhookAdapter(self)
        self._errors = _ErrorCollector()
        self._context = contextvars.copy_context()
        self._context.run(async_context.set, self._adapter)

    # -- lifecycle -----------------------------------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        logging.getLogger("discord").addHandler(self._errors)
        self.bot.http.request = self._http_request  # type: ignore[method-assign]
        self.bot.http.get_from_cdn = self._get_from_cdn  # type: ignore[method-assign]
        before = set(asyncio.all_tasks())
        await asyncio.get_running_loop().create_task(self._login(), context=self._context.copy())
        await self.settle(before)
        self._raise_errors([])
        return self

    async def _login(self) -> None:
        """``Client.login`` minus the network: loop setup, client user, application id, guild cache, setup_hook."""
        bot = self.bot
        if bot.loop is discord.client._loop:
            await bot._async_setup_hook()
        state = bot._connection
        state.user = discord.ClientUser(state=state, data={**self.bot_user.user_payload(), "verified": True})
        if state.application_id is None:
            state.application_id = self.world.application_id
        self.world.application_id = state.application_id
        self._guild = discord.Guild(data=self._guild_payload(), state=state)
        state._add_guild(self._guild)
        for user in self.world.users.values():
            self._cache_member(user)
        await bot.setup_hook()
        if self.ready:
            bot._handle_ready()
            bot.dispatch("ready")

    def _guild_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.world.guild_id),
            "name": self.world.guild_name,
            "owner_id": str(stable_id("user", "owner")),
            "roles": [
                {
                    "id": str(self.world.guild_id),
                    "name": "@everyone",
                    "permissions": str(DEFAULT_MEMBER_PERMISSIONS.value),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [ch.payload() for ch in self.world.channels.values()],
            "members": [],
            "member_count": len(self.world.users) + 1,
            "features": [],
            "emojis": [],
            "stickers": [],
        }

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if exc_type is None:
                await self.settle()
            if self.close_bot:
                await self.bot.close()
        finally:
            logging.getLogger("discord").removeHandler(self._errors)

    # -- world shortcuts -----------------------------------------------------------------------------------------------

    @property
    def guild(self) -> discord.Guild:
        return self._guild

    @property
    def default_channel(self) -> FakeChannel:
        return self.world.channel("general")

    def channel(self, name: str) -> FakeChannel:
        """A text channel by name (created on first use, also in the bot's guild cache)."""
        existed = name in self.world.channels
        ch = self.world.channel(name)
        if not existed:
            state = self.bot._connection
            self._guild._add_channel(discord.TextChannel(state=state, guild=self._guild, data=ch.payload()))  # type: ignore[arg-type]
        return ch

    def user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        permissions: discord.Permissions | int | None = None,
        **flags: bool,
    ) -> FakeUser:
        """A member by name; ``manage_channels=True`` (any ``discord.Permissions`` flag) adjusts permissions."""
        user = self.world.users.get(name)
        if user is None:
            user = FakeUser(stable_id("user", name), name, global_name or name.capitalize(), DEFAULT_MEMBER_PERMISSIONS)
            self.world.users[name] = user
        if global_name is not None:
            user.global_name = global_name
        unknown = set(flags) - set(discord.Permissions.VALID_FLAGS)
        if unknown:
            raise HarnessError(f"not permission flags: {sorted(unknown)}")
        if permissions is not None or flags:
            perms = discord.Permissions(
                int(permissions if permissions is not None else DEFAULT_MEMBER_PERMISSIONS.value)
            )
            perms.update(**flags)
            user.permissions = perms
        self._cache_member(user)
        return user

    def _cache_member(self, user: FakeUser) -> None:
        state = self.bot._connection
        self._guild._add_member(discord.Member(data=user.member_payload(), guild=self._guild, state=state))  # type: ignore[arg-type]

    def _channel_id(self, channel: FakeChannel | str | int | None) -> int:
        if channel is None:
            return self.default_channel.id
        if isinstance(channel, FakeChannel):
            return channel.id
        if isinstance(channel, str):
            return self.channel(channel).id
        return int(channel)

    def channel_messages(self, channel: FakeChannel | str | int | None = None) -> list[Message]:
        """Public messages in the channel, oldest first, edits applied (what every player sees)."""
        return self.world.channel_messages(self._channel_id(channel))

    def last_public_message(
        self, channel: FakeChannel | str | int | None = None, *, with_components: bool = False
    ) -> Message:
        msgs = [m for m in self.channel_messages(channel) if m.components or not with_components]
        if not msgs:
            raise HarnessError("no public message in the channel")
        return msgs[-1]

    def visible_messages(self, user: FakeUser, channel: FakeChannel | str | int | None = None) -> list[Message]:
        """Public messages plus the ephemeral ones only ``user`` sees, in order."""
        cid = self._channel_id(channel)
        return [
            self.world.messages[mid]
            for mid in self.world.channel_order.get(cid, [])
            if not self.world.messages[mid].deleted
            and not self.world.messages[mid].loading
            and (not self.world.messages[mid].ephemeral or self.world.messages[mid].visible_to == user.id)
        ]

    @property
    def replies(self) -> list[Reply]:
        """Every recorded reply since the world began (all harnesses sharing it)."""
        return self.world.replies

    def route(self, key: str, handler: RouteHandler) -> None:
        """Answer an extra REST route, e.g. ``route("GET /guilds/{guild_id}/roles", handler)``."""
        self.routes[key] = handler

    # -- payload building ----------------------------------------------------------------------------------------------

    def _base_payload(self, type_: int, user: FakeUser, channel: FakeChannel | str | int | None) -> dict[str, Any]:
        channel_id = self._channel_id(channel)
        iid = self.world.new_id()
        token = f"tok{iid}"
        self.world.interactions[token] = _InteractionRecord(iid, token, type_, user.id, channel_id)
        self.user(user.name)  # keep the member cache current
        return {
            "id": str(iid),
            "application_id": str(self.world.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "guild_id": str(self.world.guild_id),
            "channel_id": str(channel_id),
            "channel": {**self.world.channel_by_id(channel_id).payload(), "permissions": str(user.permissions.value)},
            "member": user.member_payload(),
            "app_permissions": str(self.world.bot_permissions.value),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.world.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def _find_command(self, path: str) -> tuple[list[str], app_commands.Command[Any, ..., Any], bool]:
        names = path.split()
        tree = self.bot._connection._command_tree
        if tree is None or not names:
            raise HarnessError("the bot has no command tree or the path is empty")
        guild_scoped = False
        node: Any = tree.get_command(names[0])
        if node is None:
            node = tree.get_command(names[0], guild=discord.Object(self.world.guild_id))
            guild_scoped = node is not None
        for name in names[1:]:
            if not isinstance(node, app_commands.Group):
                raise HarnessError(f"{path!r}: {node!r} has no subcommands")
            node = node.get_command(name)
        if not isinstance(node, app_commands.Command):
            raise HarnessError(f"{path!r} is not a slash command (found {node!r})")
        return names, node, guild_scoped

    def _option_value(
        self, param: app_commands.Parameter, value: Any, resolved: dict[str, dict[str, Any]], *, focused: bool
    ) -> Any:
        t = param.type
        if isinstance(value, app_commands.Choice):
            value = value.value
        if isinstance(value, enum.Enum) and param.choices:
            value = next(c.value for c in param.choices if c.name == value.name)
        if t is discord.AppCommandOptionType.string:
            value = str(value)
        elif t is discord.AppCommandOptionType.integer:
            if isinstance(value, bool) or (not isinstance(value, int) and not focused):
                raise HarnessError(f"option {param.display_name!r} needs an int, got {value!r}")
            value = str(value) if focused else int(value)
        elif t is discord.AppCommandOptionType.number:
            value = str(value) if focused else float(value)
        elif t is discord.AppCommandOptionType.boolean:
            if not isinstance(value, bool):
                raise HarnessError(f"option {param.display_name!r} needs a bool, got {value!r}")
        elif t in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            user = value if isinstance(value, FakeUser) else self._user_by_id(int(getattr(value, "id", value)))
            resolved.setdefault("users", {})[str(user.id)] = user.user_payload()
            resolved.setdefault("members", {})[str(user.id)] = user.member_payload(with_user=False)
            value = str(user.id)
        elif t is discord.AppCommandOptionType.channel:
            ch = value if isinstance(value, FakeChannel) else self.world.channel_by_id(int(getattr(value, "id", value)))
            resolved.setdefault("channels", {})[str(ch.id)] = {
                "id": str(ch.id),
                "name": ch.name,
                "type": 0,
                "permissions": str(DEFAULT_MEMBER_PERMISSIONS.value),
                "guild_id": str(ch.guild_id),
            }
            value = str(ch.id)
        elif t is discord.AppCommandOptionType.attachment:
            f = value if isinstance(value, SentFile) else SentFile(*value)
            aid = self.world.new_id()
            self.world.attachments[aid] = f
            url = f"https://cdn.discordapp.com/ephemeral-attachments/{aid}/{f.filename}"
            resolved.setdefault("attachments", {})[str(aid)] = {
                "id": str(aid),
                "filename": f.filename,
                "size": len(f.data),
                "url": url,
                "proxy_url": url,
                "content_type": mimetypes.guess_type(f.filename)[0] or "application/octet-stream",
            }
            value = str(aid)
        else:
            value = str(getattr(value, "id", value))
        if param.choices and not focused and value not in [c.value for c in param.choices]:
            raise HarnessError(f"{value!r} is not a choice of {param.display_name!r}: {param.choices}")
        return value

    def _user_by_id(self, user_id: int) -> FakeUser:
        for u in self.world.users.values():
            if u.id == user_id:
                return u
        raise HarnessError(f"unknown user id {user_id}; create it with harness.user(name)")

    def _command_payload(
        self,
        type_: int,
        path: str,
        options: dict[str, Any] | None,
        user: FakeUser,
        channel: FakeChannel | str | int | None,
        focused: str | None = None,
    ) -> dict[str, Any]:
        names, command, guild_scoped = self._find_command(path)
        options = dict(options or {})
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        params = {p.name: p for p in command.parameters}
        params.update({p.display_name: p for p in command.parameters})
        for key, value in options.items():
            param = params.get(key)
            if param is None:
                raise HarnessError(
                    f"/{path} has no option {key!r} (has {[p.display_name for p in command.parameters]})"
                )
            is_focused = focused is not None and param is params.get(focused)
            opt: dict[str, Any] = {
                "name": param.display_name,
                "type": param.type.value,
                "value": self._option_value(param, value, resolved, focused=is_focused),
            }
            if is_focused:
                opt["focused"] = True
            leaf.append(opt)
        if focused is not None and not any(o.get("focused") for o in leaf):
            raise HarnessError(f"focused option {focused!r} must be given a (partial) value in options")
        if focused is None:
            given = {p.name for p in command.parameters if p.name in options or p.display_name in options}
            missing = [p.display_name for p in command.parameters if p.required and p.name not in given]
            if missing:
                raise HarnessError(f"/{path}: Discord won't send without required options {missing}")
        nested = leaf
        for depth in range(len(names) - 1, 0, -1):
            nested = [{"type": 1 if depth == len(names) - 1 else 2, "name": names[depth], "options": nested}]
        root = names[0]
        data: dict[str, Any] = {
            "id": str(self.world.command_ids.setdefault(root, stable_id("command", root))),
            "name": root,
            "type": 1,
            "options": nested,
        }
        if resolved:
            data["resolved"] = resolved
        if guild_scoped:
            data["guild_id"] = str(self.world.guild_id)
        payload = self._base_payload(type_, user, channel)
        payload["data"] = data
        return payload

    def command(
        self,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        user: FakeUser,
        channel: FakeChannel | str | int | None = None,
    ) -> PendingInteraction:
        """``/path`` with options keyed by parameter (or display) name; await it for the ``Replies``."""
        return PendingInteraction(self, self._command_payload(2, path, options, user, channel))

    async def autocomplete(
        self,
        path: str,
        options: dict[str, Any],
        *,
        focused: str,
        user: FakeUser,
        channel: FakeChannel | str | int | None = None,
    ) -> list[dict[str, Any]]:
        """The choices (``{"name", "value"}`` dicts) the bot offers while ``focused`` is being typed."""
        pending = PendingInteraction(self, self._command_payload(4, path, options, user, channel, focused=focused))
        replies = await pending
        found = replies.of("autocomplete")
        if len(found) != 1:
            raise HarnessError(f"autocomplete answered {len(found)} times")
        return found[0].choices

    def _message_for_component(self, message: Message | Reply | int, user: FakeUser) -> Message:
        mid = (
            message if isinstance(message, int) else message.id if isinstance(message, Message) else message.message_id
        )
        if mid is None:
            raise HarnessError("this reply carries no message")
        msg = self.world.get_message(mid) if mid in self.world.messages else None
        if msg is None and isinstance(message, Message):
            msg = message  # a message from another world: adopt it
            self.world.messages[msg.id] = msg
            self.world.channel_order.setdefault(msg.channel_id, []).append(msg.id)
        if msg is None:
            raise HarnessError(f"unknown message {mid}")
        if msg.loading:
            raise HarnessError("the message is still 'thinking…' (deferred, never followed up)")
        if msg.ephemeral and msg.visible_to not in (None, user.id):
            raise HarnessError(f"{user.name} cannot see that ephemeral message")
        return msg

    def _component_payload(self, msg: Message, data: dict[str, Any], user: FakeUser) -> PendingInteraction:
        payload = self._base_payload(3, user, msg.channel_id)
        payload["message"] = copy.deepcopy(msg.payload)
        payload["data"] = data
        self.world.interactions[payload["token"]].component_message_id = msg.id
        return PendingInteraction(self, payload)

    def click(
        self,
        message: Message | Reply | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        user: FakeUser,
    ) -> PendingInteraction:
        """Press a button (by label or custom_id) on the message as it currently is."""
        msg = self._message_for_component(message, user)
        button = msg.find_button(label=label, custom_id=custom_id)
        if button.get("disabled"):
            raise HarnessError(f"button {button.get('label')!r} is disabled")
        if "custom_id" not in button:
            raise HarnessError("link/premium buttons send no interaction")
        return self._component_payload(msg, {"custom_id": button["custom_id"], "component_type": 2}, user)

    def select(
        self,
        message: Message | Reply | int,
        custom_id: str | None,
        values: Sequence[Any],
        *,
        user: FakeUser,
    ) -> PendingInteraction:
        """Choose ``values`` in a select (string selects: option values; user selects: ``FakeUser``s)."""
        msg = self._message_for_component(message, user)
        selects = [s for s in msg.selects() if custom_id is None or s.get("custom_id") == custom_id]
        if len(selects) != 1:
            raise HarnessError(f"expected one select {custom_id!r}, found {len(selects)}")
        sel = selects[0]
        if sel.get("disabled"):
            raise HarnessError("select is disabled")
        if not sel.get("min_values", 1) <= len(values) <= sel.get("max_values", 1):
            raise HarnessError(f"{len(values)} values outside [{sel.get('min_values', 1)}, {sel.get('max_values', 1)}]")
        data: dict[str, Any] = {"custom_id": sel["custom_id"], "component_type": sel["type"]}
        if sel["type"] == 3:
            allowed = [o["value"] for o in sel.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"{bad} not among options {allowed}")
            data["values"] = list(values)
        elif sel["type"] in (5, 7):
            users = [v if isinstance(v, FakeUser) else self._user_by_id(int(v)) for v in values]
            data["values"] = [str(u.id) for u in users]
            data["resolved"] = {
                "users": {str(u.id): u.user_payload() for u in users},
                "members": {str(u.id): u.member_payload(with_user=False) for u in users},
            }
        else:
            data["values"] = [str(getattr(v, "id", v)) for v in values]
        return self._component_payload(msg, data, user)

    def submit_modal(
        self,
        modal: Reply | str,
        values: dict[str, str | Sequence[str]],
        *,
        user: FakeUser,
        channel: FakeChannel | str | int | None = None,
    ) -> PendingInteraction:
        """Submit a modal (its ``modal`` reply, or custom_id): text inputs take a str, selects a list of values."""
        known: dict[str, int] = {}
        if isinstance(modal, Reply):
            if modal.kind != "modal":
                raise HarnessError(f"not a modal reply: {modal.kind}")
            data = modal.payload.get("data", {})
            custom_id = data["custom_id"]
            known = {c["custom_id"]: c["type"] for c in _walk(data.get("components", [])) if "custom_id" in c}
            unknown = set(values) - set(known)
            if unknown:
                raise HarnessError(f"modal has no inputs {sorted(unknown)} (has {sorted(known)})")
            channel = modal.channel_id if channel is None else channel
        else:
            custom_id = modal
        rows: list[dict[str, Any]] = []
        for key, value in values.items():
            if isinstance(value, str):
                rows.append({"type": 1, "components": [{"type": known.get(key, 4), "custom_id": key, "value": value}]})
            else:
                comp = {"type": known.get(key, 3), "custom_id": key, "values": list(value)}
                rows.append({"type": 18, "component": comp})
        payload = self._base_payload(5, user, channel)
        payload["data"] = {"custom_id": custom_id, "components": rows}
        return PendingInteraction(self, payload)

    # -- feeding and waiting -------------------------------------------------------------------------------------------

    def feed(self, pending: PendingInteraction) -> None:
        """Hand the payload to discord.py exactly as the gateway would, in a context where the recorder is active."""
        if pending.fed:
            raise HarnessError("an interaction can only be delivered once")
        pending.fed = True
        pending.fed_at = asyncio.get_running_loop().time()
        ctx = self._context.copy()
        ctx.run(_current_interaction.set, pending.id)
        ctx.run(self.bot._connection.parse_interaction_create, pending.payload)  # type: ignore[arg-type]

    async def concurrently(self, *pendings: PendingInteraction | Awaitable[Any]) -> list[Replies]:
        """Deliver all payloads before any handler runs, then wait: how double clicks race in production."""
        items = [p for p in pendings if isinstance(p, PendingInteraction)]
        if len(items) != len(pendings):
            raise HarnessError("concurrently() takes the (un-awaited) results of command/click/select/submit_modal")
        before = set(asyncio.all_tasks())
        errors_before = len(self._errors.errors)
        for p in items:
            self.feed(p)
        await self.settle(before)
        results = [self.replies_for(p.id) for p in items]
        self._raise_errors(results, errors_before)
        return results

    def replies_for(self, interaction_id: int) -> Replies:
        rec = next((r for r in self.world.interactions.values() if r.id == interaction_id), None)
        return Replies(
            [r for r in self.world.replies if r.interaction_id == interaction_id],
            interaction_id=interaction_id,
            acked=bool(rec and rec.responded),
        )

    async def settle(self, before: set[asyncio.Task[Any]] | None = None) -> None:
        """Wait until discord.py's dispatch tasks (and what they spawned) are done; a hang fails after ``timeout``."""
        before = before or set()
        current = asyncio.current_task()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        seen: set[asyncio.Task[Any]] = set()
        while True:
            pending = [
                t
                for t in asyncio.all_tasks()
                if t is not current and t not in before and not t.done() and t.get_name().startswith(self.task_prefixes)
            ]
            seen.update(pending)
            if not pending:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = sorted(t.get_name() for t in pending)
                for t in pending:
                    t.cancel()
                raise HarnessError(f"interaction work still running after {self.timeout}s: {names}")
            await asyncio.wait(pending, timeout=remaining)
        await asyncio.sleep(0)
        for task in seen:  # an exception escaping discord.py's own handlers (e.g. from a tree on_error)
            if task.done() and not task.cancelled() and task.exception() is not None:
                self._errors.errors.append(task.exception())  # type: ignore[arg-type]

    def _raise_errors(self, results: list[Replies], since: int = 0) -> None:
        errors = self._errors.errors[since:]
        if errors and self.raise_errors:
            del self._errors.errors[since:]
            raise InteractionFailed(errors, results) from errors[0]

    # -- the wire ------------------------------------------------------------------------------------------------------

    def _interaction_for(self, route: Route) -> _InteractionRecord:
        rec = self.world.interactions.get(route.webhook_token or "")
        if rec is None:
            raise _http_error(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_call(self, route: Route, body: dict[str, Any], files: list[SentFile], params: dict[str, Any]) -> Any:
        key = f"{route.method} {route.path}"
        self.world.requests.append({"route": key, "url": route.url, "body": body, "files": files, "params": params})
        rec = self.world.interactions.get(route.webhook_token or "")
        call = Call(key, _match(route.path, route.url), body, files, rec.id if rec else None,
                    rec.channel_id if rec else None)
        return self._intercepted(call, lambda: self._webhook_answer(route, key, body, files))

    def _intercepted(self, call: Call, answer: Callable[[], Any]) -> Any:
        for intercept in self.interceptors:
            answer = functools.partial(intercept, call, answer)
        return answer()

    def _webhook_answer(self, route: Route, key: str, body: dict[str, Any], files: list[SentFile]) -> Any:
        if key == "POST /interactions/{webhook_id}/{webhook_token}/callback":
            return self._interaction_callback(self._interaction_for(route), body, files, key)
        if route.path.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            rec = self._interaction_for(route)
            if not rec.responded:
                # Discord only creates the followup webhook once the interaction was acknowledged.
                raise _http_error(404, 10015, "Unknown Webhook")
            if key == "POST /webhooks/{webhook_id}/{webhook_token}":
                return self._followup(rec, body, files, key)
            if route.path.endswith("/@original"):
                if rec.original_id is None:
                    raise _http_error(404, 10008, "Unknown Message")
                mid = rec.original_id
            else:
                mid = int(_match(route.path, route.url)["message_id"])
            return self._message_op(rec.id, route.method, mid, body, files, key, rec)
        raise HarnessError(f"unhandled webhook route {key}")

    def _interaction_callback(
        self, rec: _InteractionRecord, body: dict[str, Any], files: list[SentFile], key: str
    ) -> dict[str, Any] | None:
        if rec.responded:
            raise _http_error(400, 40060, "Interaction has already been acknowledged.")
        rtype = int(body["type"])
        data = body.get("data") or {}
        rec.responded = True
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        resource: dict[str, Any] = {"type": rtype}
        if rtype == 4:
            msg = self._interaction_message(rec, data, files)
            rec.original_id = msg.id
            self.world.record_message("response", msg, interaction_id=rec.id, body=body, route=key, created=True)
        elif rtype == 5:
            flags = LOADING | (int(data.get("flags", 0)) & EPHEMERAL)
            msg = self.world.create_message(
                rec.channel_id,
                {},
                [],
                author=self.bot_user,
                flags=flags,
                visible_to=rec.user_id if flags & EPHEMERAL else None,
                interaction_id=rec.id,
                webhook=True,
            )
            rec.original_id, rec.defer_pending, rec.defer_flags = msg.id, True, flags & EPHEMERAL
            self.world.record_message("defer", msg, interaction_id=rec.id, body=body, route=key)
        elif rtype in (6, 7):
            if rec.component_message_id is None:
                raise _http_error(400, 40004, "message update responses are only valid for component interactions")
            rec.original_id = rec.component_message_id
            if rtype == 6:
                self.world.record(
                    "defer_update",
                    interaction_id=rec.id,
                    channel_id=rec.channel_id,
                    message_id=rec.original_id,
                    payload=body,
                    route=key,
                )
                return {"interaction": info}
            msg = self.world.edit_message(rec.original_id, data, files)
            self.world.record_message("update", msg, interaction_id=rec.id, body=body, route=key)
        elif rtype == 8:
            self.world.record(
                "autocomplete",
                interaction_id=rec.id,
                channel_id=rec.channel_id,
                choices=list(data.get("choices", [])),
                payload=body,
                route=key,
            )
            return None
        else:
            self.world.record(
                "modal" if rtype == 9 else f"callback_{rtype}",
                interaction_id=rec.id,
                channel_id=rec.channel_id,
                payload=body,
                route=key,
            )
            return {"interaction": info}
        msg = self.world.get_message(rec.original_id)  # type: ignore[arg-type]
        info.update(
            response_message_id=str(msg.id),
            response_message_loading=msg.loading,
            response_message_ephemeral=msg.ephemeral,
        )
        resource["message"] = copy.deepcopy(msg.payload)
        return {"interaction": info, "resource": resource}

    def _interaction_message(self, rec: _InteractionRecord, body: dict[str, Any], files: list[SentFile]) -> Message:
        """A new message sent on behalf of an interaction (a response or a followup), ephemeral if flagged."""
        flags = int(body.get("flags", 0)) & (EPHEMERAL | 1 << 2 | 1 << 12 | 1 << 15)
        return self.world.create_message(
            rec.channel_id,
            body,
            files,
            author=self.bot_user,
            flags=flags,
            visible_to=rec.user_id if flags & EPHEMERAL else None,
            interaction_id=rec.id,
            webhook=True,
        )

    def _followup(self, rec: _InteractionRecord, body: dict[str, Any], files: list[SentFile], key: str) -> Any:
        created = not rec.defer_pending
        if rec.defer_pending:
            # Discord: the first followup after a type-5 defer *replaces* the "thinking…" message, and keeps the
            # defer's ephemerality whatever the followup asked for. It is an edit: its mentions notify nobody.
            rec.defer_pending = False
            msg = self.world.edit_message(rec.original_id, body, files)  # type: ignore[arg-type]
            msg.payload["flags"] = (msg.flags & ~EPHEMERAL) | rec.defer_flags
        else:
            msg = self._interaction_message(rec, body, files)
        self.world.record_message("followup", msg, interaction_id=rec.id, body=body, route=key, created=created)
        return copy.deepcopy(msg.payload)

    def _message_op(
        self,
        interaction_id: int | None,
        method: str,
        message_id: int,
        body: dict[str, Any],
        files: list[SentFile],
        key: str,
        rec: _InteractionRecord | None = None,
    ) -> Any:
        if method == "GET":
            return copy.deepcopy(self.world.get_message(message_id).payload)
        if method == "PATCH":
            msg = self.world.edit_message(message_id, body, files)
            if rec is not None and rec.original_id == message_id:
                rec.defer_pending = False
            self.world.record_message("edit", msg, interaction_id=interaction_id, body=body, route=key)
            return copy.deepcopy(msg.payload)
        if method == "DELETE":
            msg = self.world.delete_message(message_id)
            self.world.record(
                "delete",
                interaction_id=interaction_id,
                channel_id=msg.channel_id,
                message_id=message_id,
                ephemeral=msg.ephemeral,
                route=key,
            )
            return None
        raise HarnessError(f"unhandled message method {method} {key}")

    async def _http_request(
        self,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Sequence[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Replacement for ``bot.http.request``: answers like Discord's REST API would."""
        body, sent = _decode_body(kwargs.get("json"), list(form or ()), files)
        key = f"{route.method} {route.path}"
        args = _match(route.path, route.url)
        iid = _current_interaction.get()
        self.world.requests.append(
            {
                "route": key,
                "url": route.url,
                "body": body,
                "files": sent,
                "params": kwargs.get("params"),
                "interaction_id": iid,
            }
        )
        await asyncio.sleep(0)  # a real request yields to the loop; races must be able to interleave here too
        channel = int(args["channel_id"]) if "channel_id" in args else None
        return self._intercepted(Call(key, args, body, sent, iid, channel),
                                 lambda: self._rest_answer(route, key, args, body, sent, iid, kwargs))

    def _rest_answer(self, route: Route, key: str, args: dict[str, str], body: Any, sent: list[SentFile],
                     iid: int | None, kwargs: dict[str, Any]) -> Any:
        if key in self.routes:
            return self.routes[key](route, args, body, sent)
        if key == "POST /channels/{channel_id}/messages":
            channel_id = int(args["channel_id"])
            self.world.channel_by_id(channel_id)
            msg = self.world.create_message(channel_id, body, sent, author=self.bot_user, interaction_id=iid)
            self.world.record_message("channel_message", msg, interaction_id=iid, body=body, route=key,
                                      created=True)
            return copy.deepcopy(msg.payload)
        if route.path == "/channels/{channel_id}/messages/{message_id}":
            return self._message_op(iid, route.method, int(args["message_id"]), body, sent, key)
        if key == "GET /channels/{channel_id}/messages":  # the channel's history, newest first
            params = kwargs.get("params") or {}
            after, limit = int(params.get("after") or 0), int(params.get("limit") or 50)
            found = [m for m in self.world.channel_messages(self.world.channel_by_id(int(args["channel_id"])).id)
                     if m.id > after]
            return [copy.deepcopy(m.payload) for m in reversed(found[:limit] if after else found[-limit:])]
        if key == "GET /channels/{channel_id}":
            return self.world.channel_by_id(int(args["channel_id"])).payload()
        if key == "POST /channels/{channel_id}/threads":
            thread = self.world.create_thread(int(args["channel_id"]), body, self.bot_user.id)
            data = thread.payload()
            self.bot._connection.parse_thread_create(copy.deepcopy(data))  # the THREAD_CREATE event follows
            return data
        if key == "DELETE /channels/{channel_id}":
            channel = self.world.channel_by_id(int(args["channel_id"]))
            channel.deleted = True
            return channel.payload()
        if key == "POST /channels/{channel_id}/typing":
            return None
        if key == "GET /users/{user_id}":
            return self._user_by_id(int(args["user_id"])).user_payload()
        if key == "GET /guilds/{guild_id}/members/{user_id}":
            return self._user_by_id(int(args["user_id"])).member_payload()
        if "/reactions/" in route.path or "/pins" in route.path:
            return None
        if key in (
            "PUT /applications/{application_id}/commands",
            "PUT /applications/{application_id}/guilds/{guild_id}/commands",
        ):
            out = []
            for cmd in kwargs.get("json") or []:
                cid = self.world.command_ids.setdefault(cmd["name"], stable_id("command", cmd["name"]))
                out.append({**cmd, "id": str(cid), "application_id": str(self.world.application_id), "version": "1"})
            return out
        raise HarnessError(f"unhandled REST route {key} ({route.url}); add one with harness.route()")

    async def _get_from_cdn(self, url: str) -> bytes:
        """``Attachment.read()`` without network: serve the bytes the fake Discord stored."""
        m = re.search(r"/(\d+)/[^/]+$", url)
        if m and int(m.group(1)) in self.world.attachments:
            return self.world.attachments[int(m.group(1))].data
        raise _http_error(404, 0, "asset not found")
