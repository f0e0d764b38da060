"""/game learn (issue 33): a lesson for the member who asks, in a thread of its own (the work is in
bot/features/lessons.py; the ideas are told on the boards)."""

from __future__ import annotations

import discord

from bot.core import RuleError, find_game
from bot.features import community, lessons
from bot.features.wording import game_title
from bot.i18n import translate
from cogs.common import channel_id_of, player_of, reader_language, service_of
from cogs.community import THREAD_ARCHIVE_MINUTES, thread_name
from cogs.table import acknowledge, desk_of, tell


async def start_learning(interaction: discord.Interaction, game: str) -> None:
    """Open the lesson in a new thread of this channel (in this thread when asked in one), and post its first
    board there with the first idea."""
    await acknowledge(interaction)
    service = service_of(interaction)
    language = reader_language(interaction)  # the lesson speaks the learner's language
    learner = player_of(interaction)
    title = game_title(find_game(game), language)
    channel = interaction.channel
    guild_id = interaction.guild_id or 0
    if isinstance(channel, discord.Thread):
        match = await lessons.start_lesson(service, guild_id, channel.id, learner, game, language)
        await desk_of(interaction).post(match.id, interaction=interaction)
        await tell(interaction, translate("lesson.started_here", language))
        return
    if not isinstance(channel, discord.TextChannel):
        raise RuleError("community.refuse.no_threads_here")
    if interaction.app_permissions is not None and not interaction.app_permissions.create_public_threads:
        raise RuleError("community.refuse.thread_permission")
    await community.check_new_game(service, guild_id, learner.user_id, lobby=False, thread=True)
    name = thread_name(translate("lesson.thread", language, title=title), learner.name)
    try:
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                             auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                                             reason=translate("lesson.thread", language, title=title))
    except discord.Forbidden:
        raise RuleError("community.refuse.thread_permission") from None
    await community.thread_opened(service, thread.id, guild_id, channel_id_of(interaction), learner.user_id)
    try:
        match = await lessons.start_lesson(service, guild_id, thread.id, learner, game, language)
    except Exception:
        await thread.delete()  # a refused lesson leaves no empty thread behind
        raise
    await desk_of(interaction).post(match.id)
    await tell(interaction, translate("lesson.open", language, thread=thread.mention))
