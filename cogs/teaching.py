"""Teaching a newcomer from the bot alone (issue 33): the "What's this?" button under every board (and under the
detail board) and `/game whats-this` (every label, number and symbol of the board as it is now, privately:
bot/features/glossary.py), and the pages of `/game rules` (a one-screen how-to-play beside a labelled picture of
the board, then pages of detail and the rulings, each a button: bot/features/rules.py)."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord.ext import commands

from bot.features import glossary, rules
from bot.i18n import translate
from bot.service import InvalidControl
from cogs.common import NO_PINGS, button, channel_id_of, fit, message_parts, reader_language, service_of, stopped
from cogs.controls import register_control
from cogs.table import acknowledge

EMBED_CHARS = 4096
"""Discord's longest embed description."""
GOLD = 0xE69F00


async def send_long_private(interaction: discord.Interaction, text: str, **extra: Any) -> None:
    """A private answer longer than a message: one embed where the bot may embed links, else plain messages (the
    extras, a picture and buttons, go with the last)."""
    if interaction.app_permissions.embed_links:
        embed = discord.Embed(description=fit(text, EMBED_CHARS), colour=GOLD)
        if "file" in extra:
            embed.set_image(url=f"attachment://{extra['file'].filename}")
        await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS, **extra)
        return
    parts = message_parts(fit(text, EMBED_CHARS))
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        await interaction.followup.send(part, ephemeral=True, allowed_mentions=NO_PINGS, **(extra if last else {}))


# ------------------------------------------------------------------------------------------------- What's this?


async def press_whats_this(interaction: discord.Interaction, fields: dict[str, Any],
                           item: discord.ui.Item[Any]) -> None:
    """The button under a board: its glossary, privately, in the presser's language."""
    text = await glossary.whats_this_in_match(service_of(interaction), fields["match"],
                                              channel_id=channel_id_of(interaction),
                                              language=reader_language(interaction), member=interaction.user.id)
    await send_long_private(interaction, text)


async def press_whats_this_detail(interaction: discord.Interaction, fields: dict[str, Any],
                                  item: discord.ui.Item[Any]) -> None:
    """The button under a detail board (🔍 Details): the detail board's glossary, privately."""
    text = await glossary.whats_this_in_match(service_of(interaction), fields["match"],
                                              channel_id=channel_id_of(interaction),
                                              language=reader_language(interaction), member=interaction.user.id,
                                              detail=True)
    await send_long_private(interaction, text)


async def whats_this_here(interaction: discord.Interaction) -> None:
    """/game whats-this: the glossary of this channel's board."""
    await acknowledge(interaction, private=True)
    text = await glossary.whats_this_here(service_of(interaction), channel_id_of(interaction),
                                          reader_language(interaction), interaction.user.id)
    await send_long_private(interaction, text)


# ------------------------------------------------------------------------------------------------------- rules


def rules_view(game_key: str, mode: str, current: str, language: str) -> discord.ui.View:
    """The buttons to the pages of a game's rules (the page shown is highlighted)."""
    view = discord.ui.View(timeout=None)
    for index, page in enumerate(rules.pages(game_key, mode)):
        view.add_item(button(f"xt:rules:{game_key}:{mode}:{page.key}", translate(page.title, language),
                             style=discord.ButtonStyle.primary if page.key == current
                             else discord.ButtonStyle.secondary, row=index // 5))
    return stopped(view)


async def send_rules_page(interaction: discord.Interaction, game_key: str, mode: str, page_key: str,
                          prefix: str = "") -> None:
    """One page of a game's rules, privately, with the buttons to the others; the first page with its picture."""
    language = reader_language(interaction)
    page = rules.page(game_key, mode, page_key)
    text = (prefix + "\n\n" if prefix else "") + rules.page_text(game_key, mode, page, language)
    extra: dict[str, Any] = {"view": rules_view(game_key, mode, page.key, language)}
    if page.picture and interaction.app_permissions.attach_files:  # (a channel that refuses files: words alone)
        image = await rules.labelled_board(service_of(interaction), game_key, mode, language, interaction.user.id)
        extra["file"] = discord.File(io.BytesIO(image), filename="how-to-play.png",
                                     description=translate("rules.picture.alt", language,
                                                           title=rules.title(game_key)))
    await send_long_private(interaction, text, **extra)


async def show_rules(interaction: discord.Interaction, game: str | None) -> None:
    """/game rules: a game's how-to-play (the channel's game, else the one named); with neither, what there is to
    play."""
    await acknowledge(interaction)
    language = reader_language(interaction)
    chosen = await rules.chosen(service_of(interaction), channel_id_of(interaction), game, language)
    if chosen is None:
        await send_long_private(interaction, service_of(interaction).games_text(language))
        return
    game_key, mode, prefix = chosen
    await send_rules_page(interaction, game_key, mode, rules.FIRST_PAGE, prefix)


async def press_rules_page(interaction: discord.Interaction, fields: dict[str, Any],
                           item: discord.ui.Item[Any]) -> None:
    if not rules.is_page(fields["game"], fields["mode"], fields["page"]):
        raise InvalidControl()
    await send_rules_page(interaction, fields["game"], fields["mode"], fields["page"])


async def setup(bot: commands.Bot) -> None:
    register_control("whats", r"(?P<match>[0-9]{1,20})", press_whats_this, private=True)
    register_control("whatsd", r"(?P<match>[0-9]{1,20})", press_whats_this_detail, private=True)
    register_control("rules", r"(?P<game>[a-z-]{1,40}):(?P<mode>[a-z0-9-]{1,40}):(?P<page>[a-z_]{1,30})",
                     press_rules_page, private=True)
