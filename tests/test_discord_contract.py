"""The bot against Discord's own published API description (issue 19): what Discord would refuse, we refuse too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.app import create_bot
from bot.offline import DiscordHarness
from bot.service import MAX_SEED
from tests.tables import current_match

DISCORD_MAX_INTEGER = 2**53 - 1  # Discord's integer options stop here (its description and developer docs)


def _integer_options(options: list[dict[str, Any]], path: str) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for option in options:
        where = f"{path} {option['name']}"
        if option["type"] == discord.AppCommandOptionType.integer.value:
            found.append((where, option))
        found.extend(_integer_options(option.get("options", []), where))
    return found


async def test_every_integer_option_stays_within_discords_integers(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        tree = discord_.bot.tree
        commands = [command.to_dict(tree) for command in tree.get_commands()]
    options = [found for command in commands for found in _integer_options(command.get("options", []), command["name"])]
    bounded = {where for where, option in options if "max_value" in option}
    assert {"game new seed", "game replay match", "game export match"} <= bounded
    for where, option in options:
        for bound in ("min_value", "max_value"):
            assert abs(option.get(bound, 0)) <= DISCORD_MAX_INTEGER, (where, bound, option[bound])
    assert MAX_SEED == DISCORD_MAX_INTEGER


async def test_the_largest_seed_is_accepted_and_one_more_is_refused_with_the_range(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        refused = (await discord_.command("game new", {"game": "test-nim", "seed": 2**53}, user=alice)).last
        assert refused.ephemeral and f"from 0 to {DISCORD_MAX_INTEGER}" in (refused.content or "")
        assert discord_.channel_messages() == []
        await discord_.command("game new", {"game": "test-nim", "seed": DISCORD_MAX_INTEGER}, user=alice)
        match = await current_match(discord_)
        assert (match.status, match.seed) == ("lobby", DISCORD_MAX_INTEGER)
