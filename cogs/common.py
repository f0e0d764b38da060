"""What every cog shares: who is asking, where, and answering mistakes privately.

How boards reach the channel (and errors are answered) lives in cogs/table.py; the router of the buttons and menus
under them in cogs/controls.py.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar

import discord

from bot.core import RuleError
from bot.i18n import language_of
from bot.service import GameService, Player

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
"""Every message the bot sends pings nobody unless it names exactly whom (see `pings`)."""


AUTOCOMPLETE_SECONDS = 2.0
"""How long an autocomplete may look things up: Discord drops its answer after 3 s, and it cannot be deferred."""

Arguments = ParamSpec("Arguments")
Choices = TypeVar("Choices")


def answers_in_time(lookup: Callable[Arguments, Awaitable[list[Choices]]]
                    ) -> Callable[Arguments, Awaitable[list[Choices]]]:
    """An autocomplete that offers no choices rather than none in time (the database is slow): the player can
    still type the value, and the command itself says what is wrong with it."""

    @functools.wraps(lookup)
    async def within_budget(*args: Arguments.args, **kwargs: Arguments.kwargs) -> list[Choices]:
        try:
            async with asyncio.timeout(AUTOCOMPLETE_SECONDS):
                return await lookup(*args, **kwargs)
        except TimeoutError:
            log.info("An autocomplete took over %s s: offered no choices", AUTOCOMPLETE_SECONDS)
            return []

    return within_budget


def pings(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions naming exactly these users: no @everyone, no roles, nobody a name happens to contain."""
    users = [discord.Object(id=user_id) for user_id in user_ids if user_id > 0]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def safe_name(name: str) -> str:
    """A display name as text: its markdown and mention syntax shown literally, never acted on."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def safe_text(text: str, names: Iterable[str] = ()) -> str:
    """Text the bot composed around players' names: the names escaped, and no mention syntax anywhere."""
    unsafe = sorted({name for name in names if name and safe_name(name) != name}, key=len, reverse=True)
    for name in unsafe:  # longest first, so a name inside another is not escaped twice
        text = text.replace(name, safe_name(name))
    return discord.utils.escape_mentions(text)


def now_of(client: discord.Client) -> datetime:
    """The bot's time (its clock, which tests move), as an aware UTC datetime."""
    clock = getattr(client, "clock", None)
    return clock() if clock is not None else datetime.now(UTC)  # type: ignore[no-any-return]


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link Discord opens a message at."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined,no-any-return]


def player_of(interaction: discord.Interaction) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)


def channel_id_of(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise RuleError("error.not_in_channel")
    return interaction.channel_id


def reader_language(interaction: discord.Interaction) -> str:
    """The language of whoever made this interaction ("en" or "de", from their Discord client's `locale`): every
    private (ephemeral) answer is worded in it. What the channel reads follows the table instead: `match.language`."""
    return language_of(interaction.locale)


def button(custom_id: str, label: str, *, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           emoji: str | None = None, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], style=style, emoji=emoji, row=row, custom_id=custom_id)


def stopped(view: discord.ui.View) -> discord.ui.View:
    """A view that discord.py does not keep per message: presses are routed by id, not by stored views."""
    view.stop()
    return view


async def send_private(interaction: discord.Interaction, content: str, **extra: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already answered or deferred."""
    content = content[:1990]
    extra.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(content, ephemeral=True, **extra)
