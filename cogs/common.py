"""What every cog shares: who is asking, where, and answering mistakes privately.

How boards reach the channel (and errors are answered) lives in cogs/table.py; the router of the buttons and menus
under them in cogs/controls.py.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Callable, Coroutine, Iterable
from datetime import UTC, datetime
from typing import Any, Literal, ParamSpec, TypeVar

import discord

from bot.core import RuleError
from bot.i18n import language_of, one_line, unmarked, with_spans
from bot.service import GameService, Player

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
"""Every message the bot sends pings nobody unless it names exactly whom (see `pings`)."""


AUTOCOMPLETE_SECONDS = 2.0
"""How long an autocomplete may look things up: Discord drops its answer after 3 s, and it cannot be deferred."""

Arguments = ParamSpec("Arguments")
Choices = TypeVar("Choices")


def answers_in_time(lookup: Callable[Arguments, Coroutine[Any, Any, list[Choices]]]
                    ) -> Callable[Arguments, Coroutine[Any, Any, list[Choices]]]:
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


_DISCORD_SYNTAX = re.compile(r"[\\*_~|`<>\[\]@:#-]")
"""What Discord's markdown acts on anywhere in a line: emphasis, spoilers, code, quotes, masked links, mentions,
timestamps and channels (`<…>`), @everyone, autolinks and emoji (`:`), headings and subtext (`#`, `-#`), and the
backslash itself. A backslash before any of them shows it literally (Discord hides the backslash)."""
_LINE_START_SYNTAX = re.compile(r"^(\s*)(\+|\d+(?=[.)]))")
"""What it acts on only at the start of a line (a list: "+ x", "1. x"), which a name is when it opens a line."""


@functools.lru_cache(maxsize=4096)
def escaped(span: str) -> str:
    """A person's text for a Discord message: one line, every character Discord's markdown could act on escaped.

    Context-free on purpose: the result shows the same wherever it stands, so names next to each other (or to the
    catalogue's own words) never change each other's meaning. Kept per text: a table's few names come again in
    every message."""
    span = _DISCORD_SYNTAX.sub(r"\\\g<0>", one_line(span))
    return _LINE_START_SYNTAX.sub(lambda found: f"{found[1]}{found[2]}\\" if found[2][0].isdigit()
                                  else f"{found[1]}\\{found[2]}", span, count=1)


def safe_text(text: str) -> str:
    """A finished text for a Discord message, in one pass: the spans a person wrote (`bot.i18n.said`) escaped, the
    catalogue's own markdown and mentions kept, the marks removed (bot/i18n/marks.py says why)."""
    return with_spans(text, escaped)


def safe_name(name: str) -> str:
    """A display name as text in a Discord message: its markdown and mention syntax shown literally, never acted on."""
    return escaped(unmarked(name))


def literal(text: str) -> str:
    """A text written to be read as it is (the board in words, which is also the image's alt text) as message
    content: every line escaped as a name is, the lines kept."""
    return "\n".join(escaped(line) for line in unmarked(text).split("\n"))


def plain(text: str) -> str:
    """A finished text for what Discord shows literally (button and menu labels, thread names, alt text, files)."""
    return unmarked(text)


def now_of(client: discord.Client) -> datetime:
    """The bot's time (its clock, which tests move), as an aware UTC datetime."""
    clock = getattr(client, "clock", None)
    return clock() if clock is not None else datetime.now(UTC)


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link Discord opens a message at."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def service_of(interaction: discord.Interaction) -> GameService:
    # The client is bot/app.py's ExpeditionBot, which holds the service (cogs.table's TableBot says what the cogs use
    # of it; this module is below cogs.table, so it cannot use its `table_bot`).
    return interaction.client.service  # type: ignore[attr-defined]


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
    return discord.ui.Button(label=plain(label)[:80], style=style, emoji=emoji, row=row, custom_id=custom_id)


def stopped(view: discord.ui.View) -> discord.ui.View:
    """A view that discord.py does not keep per message: presses are routed by id, not by stored views."""
    view.stop()
    return view


MESSAGE_CHARS = 2000
"""What one Discord message's content holds."""


def fit(text: str, limit: int = MESSAGE_CHARS, *, keep: Literal["start", "end"] = "start") -> str:
    """A finished message text that fits `limit`: whole as it is when it fits, else cut between words with "…" so a
    reader sees that something was left out: its start kept (cut at the last line break or space that leaves room,
    never after a lone escaping backslash), or with `keep="end"` its end (cut at the first line break, else the
    first space: a board's last lines say whose turn it is)."""
    if len(text) <= limit:
        return text
    if keep == "end":
        tail = text[len(text) - limit + 1:]
        breaks = [at for at in (tail.find("\n"), tail.find(" ")) if 0 <= at < limit // 2]
        return "…" + (tail[breaks[0] + 1:] if breaks else tail).lstrip()
    head = text[:limit - 1]
    cut = max(head.rfind("\n"), head.rfind(" "))
    head = (head[:cut] if cut > limit // 2 else head).rstrip()
    if (len(head) - len(head.rstrip("\\"))) % 2:  # a backslash that would escape the "…"
        head = head[:-1]
    return head + "…"


def message_parts(text: str, limit: int = MESSAGE_CHARS) -> list[str]:
    """`text` in messages of at most `limit` characters, cut between lines where it can (a longer line between
    words, each piece marked with "…")."""
    parts: list[str] = []
    for line in text.split("\n"):
        while len(line) > limit:
            piece = fit(line, limit)
            parts.append(piece)
            line = line[len(piece) - 1:].lstrip()
        if parts and len(parts[-1]) + 1 + len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


async def send_private(interaction: discord.Interaction, content: str, **extra: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already answered or deferred (any name in it
    escaped: private answers are messages like any other)."""
    content = fit(safe_text(content))
    extra.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(content, ephemeral=True, **extra)
