"""What every part of the offline Discord shares: constants, ids, errors as discord.py raises them."""

from __future__ import annotations

import contextvars
import datetime as dt
import hashlib
import mimetypes
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import discord
import discord.client

DISCORD_PY_VERSION = "2.7.1"
INTERNALS: tuple[str, ...] = (
    "discord.Client._connection",
    "discord.Client._async_setup_hook",
    "discord.Client._handle_ready",
    "discord.client._loop",
    "discord.state.ConnectionState.parse_interaction_create",
    "discord.state.ConnectionState._add_guild",
    "discord.state.ConnectionState.parse_thread_create",
    "discord.state.ConnectionState.parse_channel_update",
    "discord.state.ConnectionState.parse_guild_role_create",
    "discord.state.ConnectionState.parse_guild_role_update",
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
DM_CHANNEL = 1
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2  # an interaction's `context`
GUILD_INSTALL, USER_INSTALL = 0, 1  # the keys of `authorizing_integration_owners`
CANNOT_DM = 50007  # Discord's code for "Cannot send messages to this user"
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
DM_APP_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True, attach_files=True,
    add_reactions=True, use_external_emojis=True,
)
"""What an interaction in a DM or a private channel says the app may do there (`app_permissions`)."""
APPLICATION_ID = 1_180_000_000_000_000_001
GUILD_ID = 1_180_000_000_000_000_002
SELECT_TYPES = {3: "string", 5: "user", 6: "role", 7: "mentionable", 8: "channel"}

current_interaction: contextvars.ContextVar[int | None] = contextvars.ContextVar("harness_interaction", default=None)


class HarnessError(Exception):
    """A test drove the fake Discord into something the real one would refuse (or the harness can't model)."""


class InteractionFailed(HarnessError):
    """discord.py swallowed (logged) an exception from our code: surface it so the test fails loudly."""

    def __init__(self, errors: list[BaseException], replies: Sequence[Any]) -> None:
        lines = "\n".join(f"  {type(e).__name__}: {e}" for e in errors)
        super().__init__(f"{len(errors)} exception(s) were raised inside discord.py callbacks:\n{lines}")
        self.errors = errors
        self.replies = replies


def stable_id(kind: str, name: str) -> int:
    """Snowflake-sized id derived from a name, so a 'restarted' harness sees the same users and channels."""
    digest = hashlib.sha256(f"{kind}:{name}".encode()).digest()
    return (1 << 58) + int.from_bytes(digest[:7], "big")


def iso_now(moment: dt.datetime | None = None) -> str:
    return (moment or dt.datetime.now(dt.UTC)).isoformat()


HTTP_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


def attachment_object(attachment_id: int, filename: str, data: bytes, url: str) -> dict[str, Any]:
    """An attachment as Discord describes one (a message's file, or a command's attachment option)."""
    return {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": url,
        "proxy_url": url,
        "content_type": mimetypes.guess_type(filename)[0] or "application/octet-stream",
    }


def http_error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py itself would raise for this Discord error response."""
    reason = HTTP_REASONS.get(status, "Error")
    response: Any = SimpleNamespace(status=status, reason=reason)
    body = {"code": code, "message": message}
    if status == 404:
        return discord.NotFound(response, body)
    if status == 403:
        return discord.Forbidden(response, body)
    return discord.HTTPException(response, body)



TOKEN_LIFETIME = dt.timedelta(minutes=15)  # an interaction's token (its webhook: followups, @original) lives this long
INITIAL_RESPONSE = dt.timedelta(seconds=3)  # ... and its initial response must come within this




# The shapes of answers and dispatched objects already checked against Discord's description, in this process.
CHECKED_SHAPES: set[tuple[str, frozenset[tuple[Any, ...]]]] = set()
_TAGS = ("type", "style", "component_type")


def shape_of(instance: Any, path: str = "$") -> frozenset[tuple[Any, ...]]:
    """What a JSON document's check depends on, without its ids and texts: every path (list items and id-keyed
    maps folded), the JSON type there, the length class of strings and arrays, and the tags (``type``, ``style``).

    The offline Discord's answers repeat a few shapes thousands of times with new ids and words (which come from
    requests that were checked themselves): one check per shape keeps every shape checked at a fraction of the
    cost of checking every answer.
    """
    found: set[tuple[Any, ...]] = set()

    def walk(node: Any, at: str, key: str) -> None:
        if isinstance(node, dict):
            found.add((at, "object"))
            for name, value in node.items():
                walk(value, f"{at}.{'{id}' if name.isdigit() else name}", name)
        elif isinstance(node, list):
            found.add((at, "array", len(node).bit_length()))
            for item in node:
                walk(item, f"{at}[]", key)
        elif isinstance(node, str):
            found.add((at, "string", len(node).bit_length(), node if key in _TAGS else None))
        else:
            found.add((at, type(node).__name__, node if key in _TAGS else None))

    walk(instance, path, "")
    return frozenset(found)


def unchecked_shape(kind: str, instance: Any) -> tuple[str, frozenset[tuple[Any, ...]]] | None:
    """The key of this answer's shape when no answer of this kind and shape has passed the check yet, else None.

    Only a shape that passed is recorded (`passed`): a shape that broke the description fails every test that
    meets it, whichever ran first (both engines' runs of one test share this process)."""
    key = (kind, shape_of(instance))
    return None if key in CHECKED_SHAPES else key


def passed(key: tuple[str, frozenset[tuple[Any, ...]]]) -> None:
    """Record a shape that met the description, so answers of the same shape are not checked again."""
    CHECKED_SHAPES.add(key)
