"""/game learn and /learn (issue 33): a lesson for the member who asks, in a thread of its own, or in the bot's DM
where the app is user-installed (the work is in bot/features/lessons.py; the ideas are told on the boards).

/game learn belongs to the /game group, which is for servers only (Discord gives a group one set of contexts, not
one per subcommand), so the same lesson is also the top-level /learn, registered for server and user installs and
offered in servers, the bot's DM and private channels: in a server it opens the thread as /game learn does; in the
bot's DM the lesson's table is the DM itself (a table of no server, `MatchRecord.in_dm`); in a DM between other
people the bot cannot post, so it says privately to use the bot's DM.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import RuleError, all_games, find_game
from bot.features import community, lessons
from bot.features.wording import game_title
from bot.i18n import translate
from bot.service import DM_GUILD
from cogs.common import channel_id_of, player_of, reader_language, service_of
from cogs.community import THREAD_ARCHIVE_MINUTES, thread_name
from cogs.table import acknowledge, desk_of, tell

LESSON_CHOICES = [app_commands.Choice(name=game.title, value=game.key) for game in all_games()]


async def start_learning(interaction: discord.Interaction, game: str) -> None:
    """Open the lesson where the member asked: in the bot's DM, in this thread, or in a new thread of this channel;
    its first board is posted there with the first idea."""
    await acknowledge(interaction)
    if interaction.context.private_channel:
        raise RuleError("lesson.refuse.private_channel")  # the bot is no member of other people's DMs
    if interaction.guild_id is None:
        await learn_in_dm(interaction, game)
        return
    if not interaction.is_guild_integration():  # user-installed only: the bot is not on this server
        raise RuleError("lesson.refuse.not_on_server")
    await learn_in_server(interaction, game)


async def learn_in_dm(interaction: discord.Interaction, game: str) -> None:
    """The lesson in the bot's DM with the learner: no thread, no server limits; an unfinished lesson there gives
    way to the new one (the DM has no /game commands to end it)."""
    service = service_of(interaction)
    channel_id = channel_id_of(interaction)
    language = reader_language(interaction)
    find_game(game)  # an unknown game is refused before the unfinished lesson is closed
    left = await lessons.close_unfinished(service, channel_id)
    if left is not None:
        await desk_of(interaction).refresh(left.id)  # its board loses its buttons
    match = await lessons.start_lesson(service, DM_GUILD, channel_id, player_of(interaction), game, language)
    await tell(interaction, translate("lesson.started_here", language))  # first: it takes the private "thinking…"
    await desk_of(interaction).post(match.id, interaction=interaction)  # so the board is public


async def learn_in_server(interaction: discord.Interaction, game: str) -> None:
    """The lesson in a new thread of this channel (in this thread when asked in one)."""
    service = service_of(interaction)
    language = reader_language(interaction)  # the lesson speaks the learner's language
    learner = player_of(interaction)
    title = game_title(find_game(game), language)
    channel = interaction.channel
    guild_id = interaction.guild_id or 0
    if isinstance(channel, discord.Thread):
        match = await lessons.start_lesson(service, guild_id, channel.id, learner, game, language)
        await tell(interaction, translate("lesson.started_here", language))
        await desk_of(interaction).post(match.id, interaction=interaction)
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


class LearnCommand(commands.Cog):
    """/learn: the lesson wherever the member is, the bot's DM included (a user install brings it along)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="learn", description="Learn a game by playing against computer players, with tips: "
                                                    "here or in your DM with the bot")
    @app_commands.describe(game="Which game to learn")
    @app_commands.choices(game=LESSON_CHOICES)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        await start_learning(interaction, game)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LearnCommand(bot))
