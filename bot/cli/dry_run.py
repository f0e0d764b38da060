"""`expedition-bot sync --dry-run`: the command tree a registration would send, checked before connecting.

The bot starts against the offline Discord (no token, no network, a throwaway in-memory database) and registers
its commands there exactly as `expedition-bot sync` would with Discord: the same discord.py code builds the same
request body. That body is printed as a tree and validated against Discord's published API description
(bot/discord_api), so an admin learns before connecting whether Discord would accept it. Exit 0 only if valid.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from bot.discord_api import SOURCE, SOURCE_COMMIT, Violation, description

OPTION_TYPES = {1: "subcommand", 2: "group", 3: "text", 4: "integer", 5: "yes/no", 6: "user", 7: "channel",
                8: "role", 9: "mentionable", 10: "number", 11: "attachment"}


async def registration(guild_id: int | None, *, clear: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """The URL and JSON body `expedition-bot sync` would send, captured from the offline Discord."""
    from bot.app import create_bot
    from bot.offline import DiscordHarness

    bot = create_bot(":memory:", poll_seconds=None)
    async with DiscordHarness(bot, check_contract=False) as offline:  # checked below, every violation at once
        await bot.sync_command_tree(guild_id, clear=clear)
        sent = [request for request in offline.world.requests if request["route"].startswith("PUT /applications/")]
    if len(sent) != 1:
        raise RuntimeError(f"a registration sent {len(sent)} bulk requests, not one")
    return sent[0]["url"], sent[0]["body"]


def _option_line(option: dict[str, Any]) -> str:
    kind = OPTION_TYPES.get(option["type"], f"type {option['type']}")
    notes = [kind]
    if option.get("required"):
        notes.append("required")
    if "min_value" in option or "max_value" in option:
        notes.append(f"{option.get('min_value', '…')}..{option.get('max_value', '…')}")
    if option.get("min_length") is not None or option.get("max_length") is not None:
        notes.append(f"{option.get('min_length', 0)}-{option.get('max_length', '…')} characters")
    if option.get("choices"):
        notes.append(f"{len(option['choices'])} choices")
    if option.get("autocomplete"):
        notes.append("autocomplete")
    return f"{option['name']} ({', '.join(notes)}): {option.get('description', '')}"


def tree_lines(commands: Iterable[dict[str, Any]]) -> list[str]:
    """The commands as a readable tree: `/game new` and its options, indented."""
    lines: list[str] = []

    def walk(path: str, description_text: str, options: list[dict[str, Any]], depth: int) -> None:
        leaves = [option for option in options if option["type"] not in (1, 2)]
        lines.append(f"{'  ' * depth}{path} — {description_text}")
        lines.extend(f"{'  ' * (depth + 2)}{_option_line(option)}" for option in leaves)
        for option in options:
            if option["type"] in (1, 2):
                walk(f"{path} {option['name']}", option.get("description", ""), option.get("options", []), depth + 1)

    for command in commands:
        if command.get("type", 1) == 1:
            walk(f"/{command['name']}", command.get("description", ""), command.get("options", []), 0)
        else:
            lines.append(f"{command['name']} (context menu)")
    return lines


def report(url: str, body: list[dict[str, Any]]) -> tuple[list[str], list[Violation]]:
    """The printed tree and what Discord's description finds wrong with the body (nothing, if it is valid)."""
    return tree_lines(body), description().check_request("PUT", url, body)


def main(guild_id: int | None, *, clear: bool = False) -> int:
    url, body = asyncio.run(registration(guild_id, clear=clear))
    lines, violations = report(url, body)
    where = f"server {guild_id}" if guild_id is not None else "every server (global commands)"
    print(f"Would register {len(body)} commands in {where}:")
    print("\n".join(lines) if lines else "  (none: the registration would remove every command)")
    checked = f"Discord's API description ({SOURCE} at {SOURCE_COMMIT})"
    if violations:
        print(f"\nNOT VALID: Discord would refuse this registration (400 Invalid Form Body). Against {checked}:")
        print("\n".join(f"  {violation}" for violation in violations))
        return 1
    print(f"\nValid against {checked}.")
    return 0
