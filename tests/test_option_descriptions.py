"""Issue 33 item 10: every slash command and option of the tree says what it is for, in English and in German.

Discord shows "…" under an option registered without a description (discord.py's default), which tells a player
nothing: `region` of `/hunt camp` and `enabled` of `/settings threads` had none. The test syncs the real tree
through the offline Discord (the German texts come from bot/command_translator.py) and walks every node."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.offline import DiscordHarness

PLACEHOLDER = "…"
"""discord.py's description of a command or option that was given none."""


def _undescribed(node: dict[str, Any], path: str) -> list[str]:
    """Every command, subcommand or option under `node` whose English or German description is missing or "…"."""
    where = f"{path} {node['name']}".strip()
    found = []
    english = node.get("description", "")
    german = (node.get("description_localizations") or {}).get("de", "")
    if not english.strip() or english.strip() == PLACEHOLDER:
        found.append(f"{where}: no English description")
    if not german.strip() or german.strip() == PLACEHOLDER:
        found.append(f"{where}: no German description")
    for option in node.get("options", []):
        found += _undescribed(option, where)
    return found


async def test_every_command_and_option_has_a_description_in_both_languages(tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "games.sqlite3")
    async with DiscordHarness(bot) as discord_:
        await bot.sync_command_tree(1234)  # type: ignore[attr-defined]
        (put,) = [r for r in discord_.world.requests if r["route"].startswith("PUT")]
        commands = put["body"]
        found = [problem for command in commands for problem in _undescribed(command, "")]
        assert not found, "\n".join(found)
        hunt = next(c for c in commands if c["name"] == "hunt")
        camp = next(o for o in hunt["options"] if o["name"] == "camp")
        region = next(o for o in camp["options"] if o["name"] == "region")
        assert region["description"] == "The region of the camp you set out from (its coloured die and black dice)"
        assert region["description_localizations"]["de"].startswith("Die Region des Lagers, von dem du aufbrichst")
        settings = next(c for c in commands if c["name"] == "settings")
        threads = next(o for o in settings["options"] if o["name"] == "threads")
        assert threads["options"][0]["description"].startswith("True: every new game gets a thread of its own")
