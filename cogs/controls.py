"""The one router that answers every press of the buttons and menus under the bot's messages, and the handlers of
the board's own controls (the controls themselves are drawn by cogs/table.py `board_view` and by each cog).

Every control's custom id starts with ``xt:`` and names what it acts on (``xt:act:match:version:seat:index``), so
controls keep working after a restart. One DynamicItem takes every component id there is (the bot keeps no other
views) and looks its kind up in `CONTROLS`: an id that is tampered with, names a number out of range, belongs to
another channel, matches no kind or is not of the ``xt:`` scheme at all is answered privately ("this control is not
valid here") and logged at INFO, never left unanswered (Discord would show "This interaction failed").
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import translate
from bot.service import InvalidControl
from cogs.common import NO_PINGS, button, channel_id_of, reader_language, send_private, service_of, stopped
from cogs.table import acknowledge, answer_error, publish, where_it_stands

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # what a database integer holds; a larger number in a custom id is tampering
Handler = Callable[[discord.Interaction, dict[str, Any], discord.ui.Item[Any]], Awaitable[None]]


@dataclass(frozen=True)
class ControlKind:
    """One kind of control: the pattern of its id after ``xt:kind:`` and what a press does."""

    pattern: re.Pattern[str]
    handler: Handler
    private: bool = False


CONTROLS: dict[str, ControlKind] = {}


def register_control(kind: str, pattern: str, handler: Handler, *, private: bool = False) -> None:
    """Route presses of ``xt:<kind>:<rest>`` to `handler` when `rest` fully matches `pattern`.

    Named groups made only of digits arrive as ints (checked against the database's range); others as text. The
    router acknowledges every press before the handler runs: a silent update, or with `private` (a control that
    answers its presser alone, like Show mine) a "thinking…" only the presser sees.
    """
    CONTROLS[kind] = ControlKind(re.compile(pattern), handler, private)


def parse_control(custom_id: str) -> tuple[ControlKind, dict[str, Any]] | None:
    """The kind and fields of a custom id, or None when it is not one this bot makes."""
    if not custom_id.startswith("xt:"):
        return None
    kind_name, _, rest = custom_id[3:].partition(":")
    kind = CONTROLS.get(kind_name)
    if kind is None:
        return None
    found = kind.pattern.fullmatch(rest)
    if found is None:
        return None
    fields: dict[str, Any] = {}
    for name, value in found.groupdict().items():
        if value is not None and value.isdigit() and value.isascii():
            number = int(value)
            if number > MAX_ID:
                return None
            fields[name] = number
        else:
            fields[name] = value
    return kind, fields


class Router(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s).*"):
    """Every control of every message, whatever its id: parsed here, handled by its registered kind or refused."""

    def __init__(self, item: discord.ui.Item[Any], custom_id: str) -> None:
        self.custom_id_text = custom_id
        # discord.py hands `from_custom_id` the matched component as an Item; the template's item is a Button.
        super().__init__(item)  # type: ignore[arg-type]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Router:
        return cls(item, match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        parsed = parse_control(self.custom_id_text)
        try:
            if parsed is None:
                log.info("Refused a press of an unknown or malformed control %r", self.custom_id_text[:120])
                raise InvalidControl()
            kind, fields = parsed
            await acknowledge(interaction, private=kind.private)  # answer first, whatever the handler reads
            await where_it_stands(interaction)
            await kind.handler(interaction, fields, self.item)
        except Exception as error:  # a control has no tree handler: answer here, never leave it unanswered
            if isinstance(error, InvalidControl):
                log.info("Refused control %r from channel %s", self.custom_id_text[:120], interaction.channel_id)
            await answer_error(interaction, error)


# --------------------------------------------------------------------------------------------- board controls


async def press_action(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    await acknowledge(interaction)
    accepted = await service_of(interaction).press(fields["match"], fields["version"], fields["seat"],
                                                   fields["index"], interaction.user.id,
                                                   channel_id=channel_id_of(interaction))
    await publish(interaction, accepted)


async def pick_action(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    values = getattr(item, "values", None) or []
    if len(values) != 1 or not re.fullmatch(r"[0-9]{1,3}", values[0]):
        raise InvalidControl()
    await acknowledge(interaction)
    accepted = await service_of(interaction).press(fields["match"], fields["version"], fields["seat"],
                                                   int(values[0]), interaction.user.id,
                                                   channel_id=channel_id_of(interaction), from_menu=True)
    await publish(interaction, accepted)


async def show_mine(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    text = await service_of(interaction).mine_in_match(fields["match"], interaction.user.id,
                                                       channel_id=channel_id_of(interaction),
                                                       language=reader_language(interaction))
    await send_private(interaction, text)


async def show_detail(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    """The full-size board, privately: what did not fit the phone-sized public board."""
    await acknowledge(interaction, private=True)
    match, image = await service_of(interaction).detail_in_match(fields["match"], channel_id=channel_id_of(interaction),
                                                                 member=interaction.user.id)
    await send_detail(interaction, match, image)


async def send_detail(interaction: discord.Interaction, match: Any, image: bytes) -> None:
    from bot.core import find_game

    game = find_game(match.game)
    language = reader_language(interaction)
    file = discord.File(io.BytesIO(image), filename="board-detail.png",
                        description=translate("table.detail.alt_text", language, title=game.title))
    whats_this = discord.ui.View(timeout=None).add_item(  # issue 33: its labels explained (cogs/teaching.py)
        button(f"xt:whatsd:{match.id}", translate("table.button.whats_this", language), emoji="❓"))
    await interaction.followup.send(translate("table.detail.note", language), file=file,
                                    ephemeral=True, allowed_mentions=NO_PINGS, view=stopped(whats_this))


NUMBER = r"[0-9]{1,20}"
register_control("act", rf"(?P<match>{NUMBER}):(?P<version>{NUMBER}):(?P<seat>{NUMBER}):(?P<index>{NUMBER})",
                 press_action)
register_control("pick", rf"(?P<match>{NUMBER}):(?P<version>{NUMBER}):(?P<seat>{NUMBER})", pick_action)
register_control("mine", rf"(?P<match>{NUMBER})", show_mine, private=True)
register_control("detail", rf"(?P<match>{NUMBER})", show_detail, private=True)
