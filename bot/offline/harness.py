"""The offline Discord a test (or the local table) opens: a bot, a world, the REST and gateway sides."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Sequence
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

import discord
import discord.client
from discord.webhook.async_ import async_context

from bot.offline.base import ErrorCollector, RouteHandler
from bot.offline.common import DEFAULT_MEMBER_PERMISSIONS, TASK_PREFIXES, HarnessError, stable_id
from bot.offline.gateway import Gateway
from bot.offline.recorder import Message, Reply
from bot.offline.rest import RecordingWebhookAdapter, RestBackend
from bot.offline.world import FakeChannel, FakeRole, FakeUser, World

ClientT = TypeVar("ClientT", bound=discord.Client)
"""The bot's class: the harness's `bot` is typed as given (the bot's command tree, its service...)."""


class DiscordHarness(Gateway, RestBackend, Generic[ClientT]):
    """Drive a not-logged-in ``commands.Bot`` through real discord.py interaction handling, fully offline."""

    bot: ClientT

    def __init__(
        self,
        bot: ClientT,
        *,
        world: World | None = None,
        bot_name: str = "Expedition Table",
        timeout: float = 5.0,
        raise_errors: bool = True,
        ready: bool = True,
        close_bot: bool = True,
        extra_task_prefixes: Sequence[str] = (),
        check_contract: bool = True,
    ) -> None:
        self.bot = bot
        self.world = world or World()
        self.bot_user = self.world.bot_user(bot_name)
        self.timeout = timeout
        self.raise_errors = raise_errors
        self.ready = ready
        self.close_bot = close_bot
        self.task_prefixes = TASK_PREFIXES + tuple(extra_task_prefixes)
        self.check_contract = check_contract
        self._expect_refusal = False
        self._violations_reported = len(self.world.violations)
        self.routes: dict[str, RouteHandler] = {}
        self._adapter = RecordingWebhookAdapter(self)
        self._errors = ErrorCollector()
        self._context = contextvars.copy_context()
        self._context.run(async_context.set, self._adapter)

    # -- lifecycle -----------------------------------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        logging.getLogger("discord").addHandler(self._errors)
        # The wire replaced on purpose (the package's docstring lists the internals touched): mypy refuses any
        # assignment to a method.
        self.bot.http.request = self._http_request  # type: ignore[method-assign]
        self.bot.http.get_from_cdn = self._get_from_cdn  # type: ignore[method-assign]
        before = set(asyncio.all_tasks())
        await asyncio.get_running_loop().create_task(self._login(), context=self._context.copy())
        await self.settle(before)
        self.raise_violations()
        self._raise_errors([])
        return self

    async def _login(self) -> None:
        """``Client.login`` minus the network: loop setup, client user, application id, guild cache, setup_hook."""
        bot = self.bot
        if bot.loop is discord.client._loop:
            await bot._async_setup_hook()
        state = bot._connection
        payload = {**self.bot_user.user_payload(), "verified": True}
        # (discord.py types raw payloads as TypedDicts; the world builds JSON dicts)
        state.user = discord.ClientUser(state=state, data=payload)  # type: ignore[arg-type]
        if state.application_id is None:
            state.application_id = self.world.application_id
        self.world.application_id = state.application_id
        self._guilds: dict[int, discord.Guild] = {}
        for guild_id in self.world.guilds:
            self._add_guild(guild_id)
        self._guild = self._guilds[self.world.guild_id]
        for user in self.world.users.values():
            self._cache_member(user)
        await bot.setup_hook()
        if self.ready:
            bot._handle_ready()
            bot.dispatch("ready")

    def _add_guild(self, guild_id: int) -> discord.Guild:
        """Put a server of the world in the bot's cache, as the GUILD_CREATE event does."""
        # (discord.py types raw payloads as TypedDicts; the world builds JSON dicts)
        guild = discord.Guild(data=self._guild_payload(guild_id), state=self.bot._connection)  # type: ignore[arg-type]
        self.bot._connection._add_guild(guild)
        self._guilds[guild_id] = guild
        return guild

    def _guild_payload(self, guild_id: int) -> dict[str, Any]:
        return {
            "id": str(guild_id),
            "name": self.world.guilds[guild_id],
            "owner_id": str(stable_id("user", "owner")),
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(DEFAULT_MEMBER_PERMISSIONS.value),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
                *(role.payload(position) for position, role in enumerate(self.world.roles.values(), start=1)),
            ],
            "channels": [ch.payload() for ch in self.world.channels.values() if ch.guild_id == guild_id],
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
        if exc_type is None:
            self.raise_violations()

    # -- world shortcuts -----------------------------------------------------------------------------------------------

    @property
    def guild(self) -> discord.Guild:
        return self._guild

    @property
    def default_channel(self) -> FakeChannel:
        return self.world.channel("general")

    def channel(self, name: str, *, guild: int | None = None) -> FakeChannel:
        """A text channel by name (created on first use, in the server `guild` (default: the first), also in the
        bot's guild cache)."""
        existed = name in self.world.channels
        ch = self.world.channel(name, guild)
        if not existed:
            state = self.bot._connection
            owner = self._guilds[ch.guild_id]
            # (discord.py types raw payloads as TypedDicts; the world builds JSON dicts)
            owner._add_channel(discord.TextChannel(state=state, guild=owner, data=ch.payload()))  # type: ignore[arg-type]
        return ch

    def role(self, name: str, **flags: bool) -> FakeRole:
        """A role by name with these permissions of its own (`manage_channels=True`...), in the bot's cache too
        (GUILD_ROLE_CREATE or _UPDATE); give it to a member with `user(name, roles=[role])`."""
        existed = name in self.world.roles
        unknown = set(flags) - set(discord.Permissions.VALID_FLAGS)
        if unknown:
            raise HarnessError(f"not permission flags: {sorted(unknown)}")
        role = self.world.role(name, discord.Permissions(**flags) if flags or not existed else None)
        position = list(self.world.roles).index(name) + 1
        event = {"guild_id": str(self.world.guild_id), "role": role.payload(position)}
        state = self.bot._connection
        if existed:
            state.parse_guild_role_update(event)
        else:
            state.parse_guild_role_create(event)
        return role

    def overwrite(self, channel: FakeChannel | str, target: FakeUser | FakeRole | None = None, *,
                  allow: discord.Permissions | None = None, deny: discord.Permissions | None = None) -> FakeChannel:
        """Set a channel's permission overwrite for a member, a role or (no target) @everyone, as a member with
        Manage Roles does in the channel's settings; the bot hears CHANNEL_UPDATE. For a staff-only channel:
        `overwrite(ch, deny=Permissions(view_channel=True))`, then `overwrite(ch, staff, allow=...)`."""
        found = channel if isinstance(channel, FakeChannel) else self.channel(channel)
        self.world.overwrite(found, target, allow=allow or discord.Permissions.none(),
                             deny=deny or discord.Permissions.none())
        self.bot._connection.parse_channel_update(found.payload())
        return found
    def guild_named(self, name: str) -> int:
        """Another server the bot is in (created on first use, with every member in it); its id."""
        guild_id = self.world.add_guild(name)
        if guild_id not in self._guilds:
            self._add_guild(guild_id)
            for user in self.world.users.values():
                self._cache_member(user)
        return guild_id

    def dm(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with `user`: a command there is in the bot DM context."""
        return self.world.dm_channel(user)

    def private_channel(self, user: FakeUser, friend: FakeUser) -> FakeChannel:
        """`user`'s DM with `friend`, where the bot is no member: a command there is in the private channel context
        (Discord offers one only to a user who installed the app)."""
        return self.world.private_channel(user, friend)

    def install_app(self, user: FakeUser) -> None:
        """`user` adds the app to their account (a user install): its user-install commands follow them."""
        self.world.installed_by.add(user.id)

    def without_server_install(self, guild_id: int | None = None) -> None:
        """The server (default: the first) has not installed the app: Discord offers its commands there only to a
        member who installed it on their account, and says so (`authorizing_integration_owners` without "0")."""
        self.world.servers_without_app.add(guild_id or self.world.guild_id)

    def refuse_dms(self, user: FakeUser, refused: bool = True) -> None:
        """`user`'s privacy settings refuse DMs from the bot: a send answers 403 with code 50007."""
        (self.world.dms_refused.add if refused else self.world.dms_refused.discard)(user.id)

    async def delete_channel(self, channel: FakeChannel) -> None:
        """A member deletes a channel or thread: Discord forgets it (404 Unknown Channel from then on) and tells the
        bot with CHANNEL_DELETE or THREAD_DELETE; the bot's handlers have run when this returns."""
        channel.deleted = True
        state = self.bot._connection
        before = set(asyncio.all_tasks())
        if channel.is_thread:
            # (discord.py types a thread's type as the Literal of Discord's channel types; the world keeps an int)
            state.parse_thread_delete({"id": str(channel.id), "guild_id": str(channel.guild_id),
                                       "parent_id": str(channel.parent_id), "type": channel.type})  # type: ignore[typeddict-item]
        else:
            state.parse_channel_delete(channel.payload())
        await self.settle(before)

    def user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        permissions: discord.Permissions | int | None = None,
        locale: str | None = None,
        roles: Sequence[FakeRole] | None = None,
        **flags: bool,
    ) -> FakeUser:
        """A member by name; ``manage_channels=True`` (any ``discord.Permissions`` flag) adjusts permissions,
        ``locale="de"`` sets the language of their Discord client (their interactions' `locale`), ``roles`` their
        roles (from ``role(name)``)."""
        user = self.world.users.get(name)
        if user is None:
            user = FakeUser(stable_id("user", name), name, global_name or name.capitalize(), DEFAULT_MEMBER_PERMISSIONS)
            self.world.users[name] = user
        if global_name is not None:
            user.global_name = global_name
        if locale is not None:
            user.locale = locale
        if roles is not None:
            user.roles = tuple(role.id for role in roles)
        unknown = set(flags) - set(discord.Permissions.VALID_FLAGS)
        if unknown:
            raise HarnessError(f"not permission flags: {sorted(unknown)}")
        if permissions is not None or flags:
            base = DEFAULT_MEMBER_PERMISSIONS if permissions is None else permissions
            perms = discord.Permissions(base.value if isinstance(base, discord.Permissions) else base)
            perms.update(**flags)
            user.permissions = perms
        self._cache_member(user)
        return user

    def _cache_member(self, user: FakeUser) -> None:
        state = self.bot._connection
        for guild in self._guilds.values():  # every member is in every server of the world
            # (discord.py types raw payloads as TypedDicts; the world builds JSON dicts)
            guild._add_member(discord.Member(data=user.member_payload(), guild=guild, state=state))  # type: ignore[arg-type]

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

    async def as_bot(self, work: Awaitable[Any]) -> Any:
        """Await bot-side code (``interaction.followup.send(...)``, a channel send) from a test, wired to this
        offline Discord as the bot's own tasks are: outside it, discord.py's webhooks would go to the network."""
        async def run() -> Any:
            return await work

        return await asyncio.get_running_loop().create_task(run(), context=self._context.copy())

    def route(self, key: str, handler: RouteHandler) -> None:
        """Answer an extra REST route, e.g. ``route("GET /guilds/{guild_id}/roles", handler)``."""
        self.routes[key] = handler

