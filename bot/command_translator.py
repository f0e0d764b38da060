"""The slash commands in the player's language: discord.py's Translator, fed from the message catalogues.

discord.py wraps every command, option and choice text in a `locale_str` (auto_locale_strings), and at sync asks
this translator for each Discord locale; what it returns becomes the command's name_localizations and
description_localizations. The English registration is never changed. Message ids follow the command tree, so
a command needs no edit to be translated, only its entries in bot/i18n/locales/*/LC_MESSAGES/messages.po:

    command.<path>.name / .description                      a command or group ("game new" -> "command.game.new")
    command.<path>.option.<option>.name / .description      one of its options
    choice.<English choice name>                            a fixed choice (the same text translates the same)
"""

from __future__ import annotations

from collections.abc import Iterator

import discord
from discord import app_commands

from bot.i18n import message_ids, translate

COMMAND_LOCATIONS = {
    app_commands.TranslationContextLocation.command_name: "name",
    app_commands.TranslationContextLocation.group_name: "name",
    app_commands.TranslationContextLocation.command_description: "description",
    app_commands.TranslationContextLocation.group_description: "description",
}
OPTION_LOCATIONS = {
    app_commands.TranslationContextLocation.parameter_name: "name",
    app_commands.TranslationContextLocation.parameter_description: "description",
}
DISCORD_LOCALES: dict[str, tuple[discord.Locale, ...]] = {"de": (discord.Locale.german,)}
"""The Discord locales each translated language is registered for (English is the registration itself)."""


def command_message_id(qualified_name: str, part: str) -> str:
    return f"command.{qualified_name.replace(' ', '.')}.{part}"


def option_message_id(qualified_name: str, option: str, part: str) -> str:
    return f"command.{qualified_name.replace(' ', '.')}.option.{option}.{part}"


def choice_message_id(english_name: str) -> str:
    return f"choice.{english_name}"


def message_id_for(context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue id of the text discord.py asks about, or None for a place we do not translate."""
    location, data = context.location, context.data
    if location in COMMAND_LOCATIONS and isinstance(data, app_commands.Command | app_commands.Group
                                                    | app_commands.ContextMenu):
        return command_message_id(data.qualified_name, COMMAND_LOCATIONS[location])
    if location in OPTION_LOCATIONS and isinstance(data, app_commands.Parameter):
        return option_message_id(data.command.qualified_name, data.name, OPTION_LOCATIONS[location])
    if location is app_commands.TranslationContextLocation.choice_name and isinstance(data, app_commands.Choice):
        return choice_message_id(data.name)
    return None


def language_for(locale: discord.Locale) -> str | None:
    """Our language for a Discord locale we register translations for (None: that locale gets none)."""
    for language, locales in DISCORD_LOCALES.items():
        if locale in locales:
            return language
    return None


class CommandTranslator(app_commands.Translator):
    """Gives each command, option and choice its German name and description when the tree is synced."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_for(locale)
        message_id = message_id_for(context)
        if language is None or message_id is None or message_id not in message_ids(language):
            return None
        return translate(message_id, language)


def tree_message_ids(tree: app_commands.CommandTree) -> Iterator[tuple[str, str]]:
    """Every (message id, English text) the command tree's registration asks for: the extraction tool writes them
    into the catalogue template, and a test checks each has its German text."""
    for command in tree.walk_commands():
        yield command_message_id(command.qualified_name, "name"), command.name
        yield command_message_id(command.qualified_name, "description"), command.description
        if isinstance(command, app_commands.Group):
            continue
        for parameter in command.parameters:
            yield option_message_id(command.qualified_name, parameter.name, "name"), parameter.name
            yield option_message_id(command.qualified_name, parameter.name, "description"), parameter.description
            for choice in parameter.choices:
                yield choice_message_id(choice.name), choice.name

