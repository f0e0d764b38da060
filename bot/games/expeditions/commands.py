"""/mech: Expeditions' commands. Handlers turn options into actions; the rules check everything on submit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.names import contains, same_name
from bot.games.expeditions import GAME
from bot.i18n import language_of
from cogs.common import answers_in_time, channel_id_of, service_of
from cogs.table import play

ACTION_CHOICES = [app_commands.Choice(name=f"{name} (take the other two)", value=value)
                  for name, value in (("Move", "move"), ("Play", "play"), ("Gather", "gather"))]
ODIN_CHOICES = [app_commands.Choice(name=name, value=value)
                for name, value in (("1 power", "power"), ("1 guile", "guile"), ("$1", "coins"))]

Lister = Callable[[dict[str, Any], int, str], list[tuple[str, str]]]
"""(state, seat, the reader's language) -> (value, label) pairs."""


@answers_in_time
async def _offer(interaction: discord.Interaction, current: str, lister: Lister) -> list[app_commands.Choice[str]]:
    """Autocomplete from one of the game's helpers, for the seat to act only, labelled in the reader's language
    (what they type is matched in any language: the values are ids); never raises."""
    try:
        seen = await service_of(interaction).seen(channel_id_of(interaction), interaction.user.id)
        if seen.game is not GAME or seen.state is None or seen.seat is None:
            return []
        if seen.seat not in GAME.to_act(seen.state):
            return []
        language = language_of(interaction.locale)
        offered = lister(seen.state, seen.seat, language)
        # A name typed in English still finds its option, labelled in the reader's language.
        english = dict(lister(seen.state, seen.seat, "en")) if language != "en" else {}
        return [app_commands.Choice(name=label[:100], value=value[:100]) for value, label in offered
                if contains(current, label) or contains(current, english.get(value, label))
                or same_name(current, value)][:25]
    except Exception:  # autocomplete must never fail loudly; the command itself explains problems
        return []


def _destinations(state: dict[str, Any], seat: int, language: str) -> list[tuple[str, str]]:
    if "move" not in state["turn"]["remaining"] or state["turn"]["pending"]:
        return []
    return GAME.legal_destinations(state, seat, language)


def _playable(state: dict[str, Any], seat: int, language: str) -> list[tuple[str, str]]:
    if "play" not in state["turn"]["remaining"] or state["turn"]["pending"]:
        return []
    return GAME.playable_cards(state, seat, language)


async def legal_destinations(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _offer(interaction, current, _destinations)


async def playable_cards(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _offer(interaction, current, _playable)


async def pending_options(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _offer(interaction, current, GAME.choice_options)


@app_commands.guild_only()
class MechCommands(commands.GroupCog, group_name="mech", group_description="Play Expeditions"):
    """A turn: cover an action (or refresh), then move, play and gather; answer each choice a card asks."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="refresh", description="Refresh: cards and workers back; next turn takes all three")
    async def refresh(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "refresh"})

    @app_commands.command(name="actions", description="Start your turn: cover one action and take the other two")
    @app_commands.describe(skip="The action to cover (skip) this turn")
    @app_commands.choices(skip=ACTION_CHOICES)
    async def actions(self, interaction: discord.Interaction, skip: str) -> None:
        await play(interaction, {"type": "cover", "action": skip})

    @app_commands.command(name="move", description="Move your mech (1-3 spaces; a face-down location ends the move)")
    @app_commands.describe(location="A legal destination: a space such as c3 or a face-up location's number")
    @app_commands.autocomplete(location=legal_destinations)
    async def move(self, interaction: discord.Interaction, location: str) -> None:
        await play(interaction, {"type": "move", "space": location})

    @app_commands.command(name="play", description="Play a card from your hand to your active row")
    @app_commands.describe(card="A card in your hand")
    @app_commands.autocomplete(card=playable_cards)
    async def play_card(self, interaction: discord.Interaction, card: str) -> None:
        await play(interaction, {"type": "play", "card": card})

    @app_commands.command(name="gather", description="Gather the exposed benefits where your mech stands")
    async def gather(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "gather"})

    @app_commands.command(name="choose", description="Answer the choice a card or location asks of you")
    @app_commands.describe(option="One of the options offered now")
    @app_commands.autocomplete(option=pending_options)
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await play(interaction, {"type": "choose", "option": option})

    @app_commands.command(name="odin", description="Odin's Wrath: trash a map token to gain 1 power, 1 guile or $1")
    @app_commands.describe(gain="What the trashed map token brings")
    @app_commands.choices(gain=ODIN_CHOICES)
    async def odin(self, interaction: discord.Interaction, gain: str) -> None:
        await play(interaction, {"type": "odin", "gain": gain})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MechCommands(bot))
