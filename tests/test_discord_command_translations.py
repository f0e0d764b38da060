"""Slash commands in German (issue 21 item 1): a sync through the offline Discord registers every command,
option and choice with its German name and description, within Discord's rules, and the English ones unchanged."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.app import create_bot
from bot.command_translator import CommandTranslator, language_for
from bot.core import all_games
from bot.offline import DiscordHarness

# Discord's rule for command and option names, ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, and lowercase: Python's
# \w is letters, digits and "_" in every script.
NAME = re.compile(r"^[-\w]{1,32}$")


def _check_name(name: str, where: str) -> None:
    assert NAME.fullmatch(name), f"{where}: {name!r} breaks Discord's name rule"
    assert name == name.lower(), f"{where}: {name!r} is not lowercase"


def games_the_tests_register() -> set[str]:
    """The keys of games the tests register (conftest's Nim, runtime registrations), not shipped with the bot."""
    return {game.key for game in all_games() if not type(game).__module__.startswith("bot.games.")}


def _walk(node: dict[str, Any], english: dict[str, Any], path: str, seen: list[str]) -> None:
    """Checks one registered command (or option) against its untranslated payload, then its options."""
    where = path or node["name"]
    seen.append(where)
    assert node["name"] == english["name"] and node["description"] == english["description"], where
    german_name = node["name_localizations"]["de"]
    german_description = node["description_localizations"]["de"]
    _check_name(german_name, where)
    assert 1 <= len(german_description) <= 100, f"{where}: {german_description!r}"
    assert set(node["name_localizations"]) == set(node["description_localizations"]) == {"de"}
    options = node.get("options", [])
    assert [o["name"] for o in options] == [o["name"] for o in english.get("options", [])], where
    german_names = [o["name_localizations"]["de"] for o in options]
    assert len(set(german_names)) == len(german_names), f"{where}: two options share a German name {german_names}"
    for option, english_option in zip(options, english.get("options", []), strict=True):
        _walk(option, english_option, f"{where} {option['name']}", seen)
    for choice, english_choice in zip(node.get("choices", []), english.get("choices", []), strict=True):
        assert (choice["name"], choice["value"]) == (english_choice["name"], english_choice["value"]), where
        if choice["value"] in games_the_tests_register():  # games registered by the tests have no German title
            continue
        german = choice["name_localizations"]["de"]
        assert 1 <= len(german) <= 100 and set(choice["name_localizations"]) == {"de"}, f"{where}: {choice}"
        seen.append(f"{where} = {german}")


async def test_every_command_option_and_choice_registers_its_german_name_and_description(tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "games.sqlite3")
    async with DiscordHarness(bot) as discord_:
        assert await bot.sync_command_tree(1234) >= 7  # type: ignore[attr-defined]
        (put,) = [r for r in discord_.world.requests if r["route"].startswith("PUT")]
        registered = {command["name"]: command for command in put["body"]}
        english = {command.name: command.to_dict(bot.tree) for command in bot.tree.get_commands()}
        assert set(registered) == set(english) >= {"game", "hunt", "explore", "mech", "settings", "stats"}
        seen: list[str] = []
        for name, command in registered.items():
            _walk(command, english[name], "", seen)
        top = [command["name_localizations"]["de"] for command in registered.values()]
        assert len(set(top)) == len(top)
        assert len([s for s in seen if " = " not in s]) >= 95  # every command, subcommand and option
        assert registered["game"]["name_localizations"] == {"de": "spiel"}
        new = next(o for o in registered["game"]["options"] if o["name"] == "new")
        assert new["name_localizations"]["de"] == "neu"
        camp = next(o for o in registered["hunt"]["options"] if o["name"] == "camp")
        assert [c["name_localizations"]["de"] for c in camp["options"][0]["choices"]] == [
            "Horst (gelber Würfel)", "Tiefen (blauer Würfel)", "Zauberwald (grüner Würfel)"]


async def test_only_german_clients_get_the_translation() -> None:
    translator = CommandTranslator()
    command = app_commands.Command(name="board", description="Post this channel's board again",
                                   callback=_board)
    group = app_commands.Group(name="game", description="Start and manage a game here")
    group.add_command(command)
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, command)
    text = app_commands.locale_str("board")
    assert await translator.translate(text, discord.Locale.german, context) == "spielplan"
    for locale in (discord.Locale.american_english, discord.Locale.french, discord.Locale.dutch):
        assert await translator.translate(text, locale, context) is None
    assert language_for(discord.Locale.german) == "de" and language_for(discord.Locale.british_english) is None
    unknown = app_commands.Choice(name="a choice nobody translated", value="x")
    choice_context = app_commands.TranslationContext(app_commands.TranslationContextLocation.choice_name, unknown)
    assert await translator.translate(app_commands.locale_str(unknown.name), discord.Locale.german,
                                      choice_context) is None


async def _board(interaction: discord.Interaction) -> None:
    """A callback for the stand-alone command above (never invoked)."""
