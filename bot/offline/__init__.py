"""Offline Discord: feed real INTERACTION_CREATE payloads to discord.py and record every outgoing call.

A package by concern: ``common`` (constants, ids, errors), ``recorder`` (what tests read: messages, replies,
files), ``world`` (Discord's side: servers, channels, DM channels, users and their app installs, messages, refused
DMs, planted faults), ``base`` (the state the two sides below share, typed), ``rest`` (the REST backend:
every request checked against Discord's published description, then answered), ``gateway`` (interactions built
and dispatched to discord.py), ``harness`` (DiscordHarness, which joins the two sides around a bot) and
``terminal`` (how a client shows the messages, for the local table). Import from ``bot.offline``.

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
* ``ConnectionState.parse_channel_update(data)``, ``.parse_guild_role_create(data)`` and
  ``.parse_guild_role_update(data)``: a channel's permission overwrites and the server's roles, as a member with
  Manage Roles changes them, reach the bot's cache as the CHANNEL_UPDATE and GUILD_ROLE_* events would.
* ``Guild(data=, state=)``, ``Guild._add_member``, ``Guild._add_channel``, ``TextChannel(state=, guild=, data=)``,
  ``ClientUser(state=, data=)``, ``Member(data=, guild=, state=)``, ``Permissions.VALID_FLAGS``.
* Notifications, as Discord decides them: a newly created, non-ephemeral message notifies the users its
  ``allowed_mentions`` allows (``Message.notified``, ``Reply.notified``); an edit never notifies, and neither does
  the first followup after a type-5 defer, which edits the "thinking…" message. ``parse: ["users"]`` together with
  a ``users`` list is refused with a 400, as Discord does.
* Swallowed callback errors are only *logged* by discord.py (loggers under ``discord``, with ``exc_info``): the
  harness captures those records to fail the test instead of passing silently.
"""

from bot.discord_api import ContractViolation
from bot.offline.common import (
    APPLICATION_ID,
    BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    DISCORD_PY_VERSION,
    EPHEMERAL,
    GUILD_ID,
    INITIAL_RESPONSE,
    INTERNALS,
    LOADING,
    TASK_PREFIXES,
    THREAD_PRIVATE,
    THREAD_PUBLIC,
    TOKEN_LIFETIME,
    HarnessError,
    InteractionFailed,
    stable_id,
)
from bot.offline.gateway import PendingInteraction
from bot.offline.harness import DiscordHarness
from bot.offline.recorder import Message, Replies, Reply, SentFile
from bot.offline.terminal import TerminalClient
from bot.offline.world import FakeChannel, FakeRole, FakeUser, Fault, Overwrite, World, notifications

__all__ = [
    "APPLICATION_ID",
    "BOT_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DISCORD_PY_VERSION",
    "EPHEMERAL",
    "GUILD_ID",
    "INITIAL_RESPONSE",
    "INTERNALS",
    "LOADING",
    "TASK_PREFIXES",
    "THREAD_PRIVATE",
    "THREAD_PUBLIC",
    "TOKEN_LIFETIME",
    "ContractViolation",
    "DiscordHarness",
    "FakeChannel",
    "FakeRole",
    "FakeUser",
    "Fault",
    "HarnessError",
    "InteractionFailed",
    "Message",
    "Overwrite",
    "PendingInteraction",
    "Replies",
    "Reply",
    "SentFile",
    "TerminalClient",
    "World",
    "notifications",
    "stable_id",
]
