"""Discord's side of the offline Discord: server, channels, users, messages, faults; it survives a bot restart."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.client

from bot.discord_api import ContractViolation
from bot.offline.common import (
    APPLICATION_ID,
    BOT_PERMISSIONS,
    DM_CHANNEL,
    EPHEMERAL,
    GUILD_ID,
    HTTP_REASONS,
    LOADING,
    SELECT_TYPES,
    THREAD_PRIVATE,
    THREAD_PUBLIC,
    HarnessError,
    attachment_object,
    http_error,
    iso_now,
    stable_id,
)
from bot.offline.recorder import Message, Reply, SentFile, walk


@dataclass
class FakeRole:
    """A role of the fake server: what it allows everywhere; channels may override it (`FakeChannel.overwrites`)."""

    id: int
    name: str
    permissions: discord.Permissions

    def payload(self, position: int) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": str(self.permissions.value),
                "position": position, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                "flags": 0}


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (`type` 0; the server's id is @everyone) or a member (1)."""

    id: int
    type: int
    allow: discord.Permissions
    deny: discord.Permissions

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow.value), "deny": str(self.deny.value)}


@dataclass
class FakeUser:
    """A guild member a test acts as; ids derive from the name so they survive a bot restart.

    `permissions` are the member's permissions across the server (the @everyone role's and their roles' own, as a
    test sets them); `roles` their roles' ids. In a channel, its overwrites apply on top (`World.permissions_of`)."""

    id: int
    name: str
    global_name: str | None
    permissions: discord.Permissions
    bot: bool = False
    locale: str = "en-US"  # the language of the member's Discord client (an interaction's `locale`)
    roles: tuple[int, ...] = ()

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
            "flags": 0,
            "primary_guild": None,
        }

    def member_payload(self, *, with_user: bool = True,
                       permissions: discord.Permissions | None = None) -> dict[str, Any]:
        """The member as Discord sends it; in an interaction `permissions` are theirs in its channel."""
        payload: dict[str, Any] = {
            "roles": [str(role) for role in self.roles],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
            "premium_since": None,
            "permissions": str((permissions if permissions is not None else self.permissions).value),
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
    overwrites: list[Overwrite] = field(default_factory=list)  # a thread has none: it follows its parent
    recipient: FakeUser | None = None  # a DM channel's other end (type 1, no server: `guild_id` is 0)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (THREAD_PUBLIC, THREAD_PRIVATE)

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    def payload(self) -> dict[str, Any]:
        if self.is_dm:  # Discord's PrivateChannelResponse
            recipients = [self.recipient.user_payload()] if self.recipient is not None else []
            return {"id": str(self.id), "type": DM_CHANNEL, "last_message_id": None, "flags": 0,
                    "recipients": recipients}
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
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                    "create_timestamp": iso_now(),
                },
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [overwrite.payload() for overwrite in self.overwrites],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }



def components_as_returned(components: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Components as Discord stores and returns them: each numbered (``id``, depth first, where the bot gave
    none), a select's ``min_values``/``max_values`` filled in (both default to 1), a Unicode emoji without id."""
    out = copy.deepcopy(list(components or []))
    taken = {c["id"] for c in walk(out) if isinstance(c.get("id"), int)}
    number = 0
    for component in walk(out):
        if "id" not in component:
            number += 1
            while number in taken:
                number += 1
            component["id"] = number
        if component.get("type") in SELECT_TYPES:
            component.setdefault("min_values", 1)
            component.setdefault("max_values", 1)
        for holder in [component, *component.get("options", [])]:
            emoji = holder.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is None:  # a Unicode emoji comes back without an id
                emoji.pop("id", None)
    return out


def embeds_as_returned(embeds: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Embeds as Discord returns them: of type ``rich`` unless told, each field's ``inline`` spelled out."""
    out = copy.deepcopy(list(embeds or []))
    for embed in out:
        embed.setdefault("type", "rich")
        for embed_field in embed.get("fields", []):
            embed_field.setdefault("inline", False)
    return out



@dataclass
class Fault:
    """A one-shot (or ``times``-shot) error answer planted on a route; ``met`` counts the requests it answered."""

    route: str
    status: int
    code: int
    message: str
    retry_after: float = 0.0
    left: int = 1
    when: Callable[[dict[str, Any]], bool] | None = None
    met: int = 0
    channel_id: int | None = None  # only requests to (or interactions in) this channel

    def error(self) -> discord.HTTPException:
        return http_error(self.status, self.code, self.message)


@dataclass
class InteractionRecord:
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
    fed_at: dt.datetime | None = None  # Discord's time when it sent the interaction (the token's life starts)
    fed_loop: float = 0.0  # the event loop's time then (the 3-second rule also counts real time)


# ----------------------------------------------------------------------------------------------------------------------
# The fake Discord side: survives bot restarts (pass ``world=`` to a second harness)


class World:
    """Everything that lives on Discord's side: server, channels, users, messages, attachments, the request log."""

    def __init__(self, *, guild_name: str = "Test Server",
                 clock: Callable[[], dt.datetime] | None = None) -> None:
        self.clock: Callable[[], dt.datetime] = clock or (lambda: dt.datetime.now(dt.UTC))  # Discord's time
        self.faults: list[Fault] = []  # one-shot answers a test planted (429, 5xx, 403, 404...), first match wins
        self.application_id = APPLICATION_ID
        self.guild_id = GUILD_ID
        self.guild_name = guild_name
        self.guild_locale = "en-US"  # the server's preferred locale (Server Settings > Community > Overview)
        self.channels: dict[str, FakeChannel] = {}
        self.threads: dict[int, FakeChannel] = {}  # by id: two threads may share a name
        self.bot_permissions = discord.Permissions(BOT_PERMISSIONS.value)  # what the bot may do in every channel
        self.channel_permissions: dict[int, discord.Permissions] = {}  # ... and where a channel overrides that
        self.nonces: dict[tuple[int, str], tuple[int, dt.datetime]] = {}  # (channel, nonce) -> (message, when)
        self.nonce_window = dt.timedelta(minutes=5)  # Discord: "checked for uniqueness in the past few minutes"
        self.users: dict[str, FakeUser] = {}
        self.roles: dict[str, FakeRole] = {}  # besides @everyone (whose id is the server's)
        self.guilds: dict[int, str] = {GUILD_ID: guild_name}  # every server the bot is in, by id (the first: GUILD_ID)
        self.dm_channels: dict[int, FakeChannel] = {}  # the bot's DM channel with each user, by the user's id
        self.private_channels: dict[int, FakeChannel] = {}  # users' DMs with each other (the bot no member), by id
        self.dms_refused: set[int] = set()  # users whose privacy settings refuse DMs from the bot (error 50007)
        self.installed_by: set[int] = set()  # users who added the app to their account (a user install)
        self.servers_without_app: set[int] = set()  # servers where the app is no server install: only a member's
        # user install brings its commands there, and the bot is no member of them
        self.messages: dict[int, Message] = {}
        self.channel_order: dict[int, list[int]] = {}
        self.attachments: dict[int, SentFile] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.command_ids: dict[str, int] = {}
        self.violations: list[ContractViolation] = []  # requests (and answers) Discord's description refuses
        self._last_id = 0
        self.channel("general")

    def new_id(self) -> int:
        """Increasing snowflakes with a real timestamp (``Interaction.created_at``/expiry stay meaningful)."""
        self._last_id = max(self._last_id + 1, discord.utils.time_snowflake(dt.datetime.now(dt.UTC)))
        return self._last_id

    def channel(self, name: str, guild_id: int | None = None) -> FakeChannel:
        """A text channel by name (names are unique across servers), created in `guild_id` (default: the first)."""
        if name not in self.channels:
            self.channels[name] = FakeChannel(stable_id("channel", name), name, guild_id or self.guild_id)
        return self.channels[name]

    def add_guild(self, name: str) -> int:
        """Another server the bot is in (its id derives from the name, so a restarted bot sees the same)."""
        guild_id = stable_id("guild", name)
        self.guilds[guild_id] = name
        return guild_id

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with `user`, opened on first use (``POST /users/@me/channels``)."""
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = FakeChannel(stable_id("dm", user.name), f"dm-{user.name}", 0, DM_CHANNEL,
                                                    recipient=user)
        return self.dm_channels[user.id]

    def private_channel(self, user: FakeUser, friend: FakeUser) -> FakeChannel:
        """`user`'s DM with `friend` (the bot is no member of it)."""
        found = FakeChannel(stable_id("private", f"{user.name}:{friend.name}"), f"dm-{user.name}-{friend.name}", 0,
                            DM_CHANNEL, recipient=friend)
        return self.private_channels.setdefault(found.id, found)

    def _all_channels(self) -> list[FakeChannel]:
        return [*self.channels.values(), *self.threads.values(), *self.dm_channels.values(),
                *self.private_channels.values()]

    def channel_by_id(self, channel_id: int) -> FakeChannel:
        for ch in self._all_channels():
            if ch.id == channel_id and not ch.deleted:
                return ch
        raise http_error(404, 10003, "Unknown Channel")

    def create_thread(self, parent_id: int, body: dict[str, Any], owner_id: int) -> FakeChannel:
        """``POST /channels/{id}/threads`` without a message, as Discord checks it: a name of 1-100 characters, a
        thread type, a text channel (not a thread) as parent."""
        parent = self.channel_by_id(parent_id)
        if parent.is_thread:
            raise http_error(400, 50024, "Cannot execute action on this channel type")
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise http_error(400, 50035, "Invalid Form Body: name must be 1-100 characters")
        kind = int(body.get("type", THREAD_PRIVATE))  # Discord's default without a message is a private thread
        if kind not in (THREAD_PUBLIC, THREAD_PRIVATE):
            raise http_error(400, 50035, "Invalid Form Body: type")
        allowed = (self.bot_permissions.create_public_threads if kind == THREAD_PUBLIC
                   else self.bot_permissions.create_private_threads)
        if not allowed:
            raise http_error(403, 50013, "Missing Permissions")
        thread = FakeChannel(self.new_id(), name, parent.guild_id, kind, parent_id, owner_id)
        self.threads[thread.id] = thread
        return thread

    def bot_user(self, name: str) -> FakeUser:
        return FakeUser(self.application_id, name, name, BOT_PERMISSIONS, bot=True)

    # -- faults: what Discord answers now and then (rate limits, outages, missing permissions) ---------------------

    def fail_next(self, route: str, status: int, *, code: int = 0, message: str = "", retry_after: float = 0.0,
                  times: int = 1, when: Callable[[dict[str, Any]], bool] | None = None,
                  channel: int | None = None) -> Fault:
        """Answer the next ``times`` requests to ``route`` ("POST /channels/{channel_id}/messages", discord.py's
        template) with this error instead; ``when`` narrows it to requests whose JSON body it accepts, ``channel``
        to one channel (a webhook call: the channel of its interaction)."""
        fault = Fault(route, status, code, message or HTTP_REASONS.get(status, "Error"), retry_after, times, when,
                      channel_id=channel)
        self.faults.append(fault)
        return fault

    # -- members' permissions, as Discord computes them -------------------------------------------------------------

    def role(self, name: str, permissions: discord.Permissions | None = None) -> FakeRole:
        """A role by name (created on first use, allowing nothing of its own unless `permissions`)."""
        if name not in self.roles:
            self.roles[name] = FakeRole(stable_id("role", name), name, discord.Permissions.none())
        if permissions is not None:
            self.roles[name].permissions = permissions
        return self.roles[name]

    def overwrite(self, channel: FakeChannel, target: FakeUser | FakeRole | None, *, allow: discord.Permissions,
                  deny: discord.Permissions) -> None:
        """Set the channel's overwrite for a member, a role or (`None`) @everyone, replacing one it had."""
        if channel.is_thread:
            raise HarnessError("a thread has no overwrites of its own: it follows its parent channel")
        target_id = self.guild_id if target is None else target.id
        kind = 1 if isinstance(target, FakeUser) else 0
        channel.overwrites = [o for o in channel.overwrites if (o.id, o.type) != (target_id, kind)]
        channel.overwrites.append(Overwrite(target_id, kind, allow, deny))

    def permissions_of(self, user: FakeUser, channel_id: int) -> discord.Permissions:
        """What the member may do in the channel, by Discord's rules ("Permission Overwrites" in its Permissions
        topic): the server-wide permissions (administrator: everything), then the channel's overwrite for @everyone,
        its role overwrites together (deny, then allow), the member's own; without View Channel, nothing, and without
        Send Messages no mentions of everyone, attachments or embeds either (the server's owner: everything). A thread
        has its parent's; a private thread only for members of it (its owner here) or who can manage threads."""
        channel = self.channel_by_id(channel_id)
        parent = self.channel_by_id(channel.parent_id) if channel.is_thread and channel.parent_id else channel
        if user.id == stable_id("user", "owner"):  # the server's owner (its payload's owner_id) may do anything
            return discord.Permissions.all()
        base = user.permissions.value
        for role in self.roles.values():
            if role.id in user.roles:
                base |= role.permissions.value
        if base & discord.Permissions(administrator=True).value:
            return discord.Permissions.all()
        value = base
        overwrites = {(o.id, o.type): o for o in parent.overwrites}
        everyone = overwrites.get((self.guild_id, 0))
        if everyone is not None:
            value = (value & ~everyone.deny.value) | everyone.allow.value
        allow = deny = 0
        for role_id in user.roles:
            role_overwrite = overwrites.get((role_id, 0))
            if role_overwrite is not None:
                allow |= role_overwrite.allow.value
                deny |= role_overwrite.deny.value
        value = (value & ~deny) | allow
        own = overwrites.get((user.id, 1))
        if own is not None:
            value = (value & ~own.deny.value) | own.allow.value
        permissions = discord.Permissions(value)
        if not permissions.view_channel:
            return discord.Permissions.none()
        if not permissions.send_messages:  # implicitly: whoever may not send may not mention, attach or embed
            permissions.update(send_tts_messages=False, mention_everyone=False, embed_links=False, attach_files=False)
        if channel.type == THREAD_PRIVATE and channel.owner_id != user.id and not permissions.manage_threads:
            return discord.Permissions.none()
        return permissions

    def permissions_in(self, channel_id: int) -> discord.Permissions:
        """What the bot may do in the channel."""
        return self.channel_permissions.get(channel_id, self.bot_permissions)

    def deny(self, channel_id: int, *permissions: str) -> None:
        """Take permissions from the bot in one channel ("attach_files", "send_messages", "embed_links"...), as a
        server's admin would with a channel override."""
        allowed = discord.Permissions(self.permissions_in(channel_id).value)
        allowed.update(**dict.fromkeys(permissions, False))
        self.channel_permissions[channel_id] = allowed

    def take_fault(self, route: str, body: Any, channel_id: int | None = None) -> Fault | None:
        """The planted fault this request meets, if any (used up by one)."""
        for fault in self.faults:
            if fault.channel_id is not None and fault.channel_id != channel_id:
                continue
            if fault.left > 0 and fault.route == route and (fault.when is None or fault.when(body)):
                fault.left -= 1
                fault.met += 1
                return fault
        return None

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
                raise http_error(400, 50035, f"attachment {key} references no uploaded file")
            f = files[key]
            aid = self.new_id()
            url = f"https://cdn.discordapp.com/attachments/{channel_id}/{aid}/{f.filename}"
            attachment = attachment_object(aid, f.filename, f.data, url)
            alt_text = entry.get("description", f.description)
            if alt_text is not None:  # Discord leaves an attachment without alt text without the field
                attachment["description"] = alt_text
            payloads.append(attachment)
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
        guild_id = self.guild_of(channel_id)
        payload: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "type": 0,
            "author": author.user_payload(),
            "content": body.get("content") or "",
            "embeds": embeds_as_returned(body.get("embeds")),
            "components": components_as_returned(body.get("components")),
            "attachments": attachments,
            "flags": flags,
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }
        if guild_id:  # a DM's messages belong to no server
            payload["guild_id"] = str(guild_id)
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

    def guild_of(self, channel_id: int) -> int:
        """The server of a channel or thread; 0 for a DM channel (and the first server for an unknown id)."""
        for ch in self._all_channels():
            if ch.id == channel_id:
                return ch.guild_id
        return self.guild_id

    def get_message(self, message_id: int) -> Message:
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted:
            raise http_error(404, 10008, "Unknown Message")
        return msg

    def edit_message(self, message_id: int, body: dict[str, Any], files: list[SentFile]) -> Message:
        msg = self.get_message(message_id)
        if "content" in body:
            msg.payload["content"] = body["content"] or ""
        if "embeds" in body:
            msg.payload["embeds"] = embeds_as_returned(body["embeds"])
        if "components" in body:
            msg.payload["components"] = components_as_returned(body["components"])
        if "attachments" in body or files:
            msg.payload["attachments"], msg.files = self._attachments_for(msg, body, files, msg.channel_id)
        msg.payload["flags"] = msg.flags & ~LOADING
        msg.payload["edited_timestamp"] = iso_now()
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
        raise http_error(400, 50035, "allowed_mentions: parse:[\"users\"] and users are mutually exclusive")
    notified = [user for user in mentioned if "users" in parse or user in users]
    return tuple(dict.fromkeys(notified)), everyone and "everyone" in parse


