"""The offline Discord's gateway side: interactions built, dispatched to discord.py and settled."""

from __future__ import annotations

import asyncio
import copy
import enum
import warnings
from collections.abc import Awaitable, Sequence
from typing import Any

import discord
import discord.client
from discord import app_commands

from bot.discord_api import description
from bot.offline.base import HarnessBase
from bot.offline.common import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    DEFAULT_MEMBER_PERMISSIONS,
    DM_APP_PERMISSIONS,
    GUILD_INSTALL,
    USER_INSTALL,
    HarnessError,
    InteractionFailed,
    attachment_object,
    current_interaction,
    passed,
    stable_id,
    unchecked_shape,
)
from bot.offline.recorder import Message, Replies, Reply, SentFile, walk
from bot.offline.world import FakeChannel, FakeUser, InteractionRecord


class PendingInteraction:
    """A built INTERACTION_CREATE payload; awaiting it feeds it and returns its ``Replies``."""

    def __init__(self, harness: Any, payload: dict[str, Any]) -> None:
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


class Gateway(HarnessBase):
    """The gateway side of the offline Discord (a mixin of DiscordHarness): INTERACTION_CREATE payloads built
    as Discord builds them, fed to discord.py, and waited for."""

    # -- payload building ----------------------------------------------------------------------------------------------

    def _base_payload(self, type_: int, user: FakeUser, channel: FakeChannel | str | int | None,
                      command: app_commands.Command[Any, ..., Any] | None = None) -> dict[str, Any]:
        channel_id = self._channel_id(channel)
        found = self.world.channel_by_id(channel_id)
        iid = self.world.new_id()
        token = f"tok{iid}"
        self.world.interactions[token] = InteractionRecord(iid, token, type_, user.id, channel_id)
        self.user(user.name)  # keep the member cache current
        context = (CONTEXT_GUILD if found.guild_id else
                   CONTEXT_BOT_DM if found.recipient is not None and found.recipient.id == user.id
                   else CONTEXT_PRIVATE_CHANNEL)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.world.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "channel_id": str(channel_id),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": self._owners(user, found, context, command),
            "context": context,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if context != CONTEXT_GUILD:  # a DM or a private channel: no server, the user as a user
            return {**payload, "channel": found.payload(), "user": user.user_payload(),
                    "app_permissions": str(DM_APP_PERMISSIONS.value)}
        permissions = self.world.permissions_of(user, channel_id)  # theirs in this channel, overwrites applied
        if not permissions.view_channel:
            raise HarnessError(f"{user.name} cannot see channel {channel_id}: Discord offers them no command there")
        return {**payload, "guild_id": str(found.guild_id),
                "channel": {**found.payload(), "permissions": str(permissions.value)},
                "member": user.member_payload(permissions=permissions),
                "app_permissions": str(self.world.permissions_in(channel_id).value),  # the channel's overrides too
                "guild_locale": self.world.guild_locale}

    def _owners(self, user: FakeUser, channel: FakeChannel, context: int,
                command: app_commands.Command[Any, ..., Any] | None) -> dict[str, str]:
        """`authorizing_integration_owners` as Discord sends it, refusing what Discord would not offer: a command
        in a context its registration leaves out (`contexts`), or one only a user install offers (a private
        channel, or `integration_types` without the server install) when the user has not installed the app."""
        root: Any = (command.root_parent or command) if command is not None else None
        contexts = getattr(root, "allowed_contexts", None)
        installs = getattr(root, "allowed_installs", None)
        if root is not None and contexts is None and getattr(root, "guild_only", False):
            contexts = app_commands.AppCommandContext(guild=True)
        where = {CONTEXT_GUILD: "guild", CONTEXT_BOT_DM: "dm_channel", CONTEXT_PRIVATE_CHANNEL: "private_channel"}
        if contexts is not None and not getattr(contexts, where[context]):
            raise HarnessError(f"Discord does not offer /{root.name} in a {where[context]} (its contexts)")
        by_server = (installs is None or installs.guild) and not (
            context == CONTEXT_GUILD and channel.guild_id in self.world.servers_without_app)
        by_user = user.id in self.world.installed_by and installs is not None and installs.user
        owners: dict[str, str] = {}
        if by_server and context != CONTEXT_PRIVATE_CHANNEL:
            owners[str(GUILD_INSTALL)] = str(channel.guild_id) if context == CONTEXT_GUILD else "0"
        if by_user:
            owners[str(USER_INSTALL)] = str(user.id)
        if root is not None and not owners:
            raise HarnessError(f"Discord does not offer /{root.name} here to {user.name}: only a user install "
                               "would, and they have not installed the app (or the command is not for user installs)")
        return owners or {str(GUILD_INSTALL): str(channel.guild_id)}
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
                "flags": 0,
                "position": 0,
            }
            value = str(ch.id)
        elif t is discord.AppCommandOptionType.attachment:
            f = value if isinstance(value, SentFile) else SentFile(*value)
            aid = self.world.new_id()
            self.world.attachments[aid] = f
            url = f"https://cdn.discordapp.com/ephemeral-attachments/{aid}/{f.filename}"
            resolved.setdefault("attachments", {})[str(aid)] = attachment_object(aid, f.filename, f.data, url)
            value = str(aid)
        else:
            value = str(getattr(value, "id", value))
        if param.choices and not focused and value not in [c.value for c in param.choices]:
            raise HarnessError(f"{value!r} is not a choice of {param.display_name!r}: {param.choices}")
        return value

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
        payload = self._base_payload(type_, user, channel, command)
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
            known = {c["custom_id"]: c["type"] for c in walk(data.get("components", [])) if "custom_id" in c}
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
        self.check_dispatched(pending.payload)
        pending.fed_at = asyncio.get_running_loop().time()
        record = self.world.interactions[pending.payload["token"]]
        record.fed_at, record.fed_loop = self.world.clock(), pending.fed_at
        ctx = self._context.copy()
        ctx.run(current_interaction.set, pending.id)
        # (discord.py types raw payloads as TypedDicts; the world builds JSON dicts)
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
        self.raise_violations()
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
            if task.done() and not task.cancelled() and (error := task.exception()) is not None:
                self._errors.errors.append(error)

    def check_dispatched(self, payload: dict[str, Any]) -> None:
        """An INTERACTION_CREATE payload's objects as Discord documents them (the description has no gateway)."""
        shape = unchecked_shape("INTERACTION_CREATE", payload) if self.check_contract else None
        if shape is None:
            return  # this shape of payload passed the check already (see common.shape_of)
        api = description()
        if "member" in payload:
            found = api.check_schema("GuildMemberResponse", payload["member"], "INTERACTION_CREATE member")
            found += api.check_schema("UserResponse", payload["member"]["user"], "INTERACTION_CREATE member.user")
        else:  # a DM or a private channel: the user alone, and the channel as Discord describes a DM
            found = api.check_schema("UserResponse", payload["user"], "INTERACTION_CREATE user")
            if payload["channel"].get("type") == 1:
                found += api.check_schema("PrivateChannelResponse", payload["channel"], "INTERACTION_CREATE channel")
        if "message" in payload:
            found += api.check_schema("MessageResponse", payload["message"], "INTERACTION_CREATE message")
        resolved = payload.get("data", {}).get("resolved")
        if resolved is not None:
            found += api.check_schema("ResolvedObjectsResponse", resolved, "INTERACTION_CREATE data.resolved")
        if found:
            raise self._violation(found, "an interaction the offline Discord dispatched")
        passed(shape)

    def _raise_errors(self, results: list[Replies], since: int = 0) -> None:
        errors = self._errors.errors[since:]
        if errors and self.raise_errors:
            del self._errors.errors[since:]
            raise InteractionFailed(errors, results) from errors[0]

