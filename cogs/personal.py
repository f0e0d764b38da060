"""A member's own commands (issue 34): /games lists every game they sit in, across servers, privately; /me notify
chooses how and when they are told it is their turn, /me show says what they chose; /me away and /me back freeze
and release their deadlines, each table told. Also here: the scheduler's handler that sends the DMs and heads-ups
the outbox owes (and the channel's message when a member's DMs refuse the bot), and the note of each member's
client language.

The personal commands work wherever the member is, in a server's channel and, with the app user-installed, in the
bot's DMs and their private channels (`allowed_installs` and `allowed_contexts`): they only read and answer
privately, and moves stay in the game's channel. The work is bot/features/personal.py.
"""

from __future__ import annotations

import io
import logging
import re
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import find_game
from bot.features import outbox, personal
from bot.features.personal import GameList, GameRow, Prefs
from bot.features.quiet import zone_names
from bot.features.scheduler import Due
from bot.features.wording import duration_text, game_title, names_and
from bot.i18n import translate
from bot.service import DM_GUILD, GameService, InvalidControl
from cogs.common import (
    NO_PINGS,
    fit,
    jump_url,
    message_parts,
    now_of,
    pings,
    plain,
    reader_language,
    safe_name,
    safe_text,
    service_of,
    stopped,
)
from cogs.controls import register_control
from cogs.table import BoardDesk, TableBot, Undeliverable, acknowledge, send_with_retries, table_bot, tell

log = logging.getLogger(__name__)

JUMP = "xt:jump"
"""The custom id of the menu under /games (the chosen option is the match's number)."""


def when(epoch: int, style: discord.utils.TimestampStyle = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time and language ("3 hours ago")."""
    return discord.utils.format_dt(datetime.fromtimestamp(epoch, UTC), style)


def channel_mention(channel_id: int) -> str:
    return f"<#{channel_id}>"


def server_title(client: discord.Client, guild_id: int, language: str) -> str:
    """The server's name as it is (for labels, which show no markdown: `plain`), or words for one not shared."""
    guild = client.get_guild(guild_id)
    return guild.name if guild is not None else translate("personal.games.other_server", language)


def server_name(client: discord.Client | TableBot, guild_id: int, language: str) -> str:
    """The server's name for a message (escaped: `safe_name`)."""
    if guild_id == DM_GUILD:  # a lesson in the bot's DM (cogs/lessons.py)
        return translate("personal.games.bot_dm", language)
    guild = client.get_guild(guild_id)
    return safe_name(guild.name) if guild is not None else translate("personal.games.other_server", language)


def turn_words(row: GameRow, language: str) -> str:
    """Whose turn it is, as plain words (a menu's description shows no markdown)."""
    if row.yours:
        return translate("personal.games.your_turn", language)
    return translate("personal.games.their_turn", language, names=names_and(row.to_move, language))


def row_url(row: GameRow) -> str | None:
    """The link straight to the game's current board message (None when none was posted)."""
    if row.board_message_id is None:
        return None
    return jump_url(row.match.guild_id, row.match.channel_id, row.board_message_id)


def link_words(row: GameRow, language: str) -> str:
    """The link to the game's board as the list words it (or that none was posted)."""
    url = row_url(row)
    if url is None:
        return translate("personal.games.no_board", language)
    return translate("personal.games.board_link", language, url=url)


def under_way(row: GameRow, language: str) -> list[str]:
    """A game under way: whose turn since when, and the deadline (or when the clock of the player to move runs
    out)."""
    parts = [f"**{turn_words(row, language)}**" if row.yours else turn_words(row, language)]
    if row.since is not None:
        parts[0] += " " + translate("personal.games.since", language, when=when(row.since))
    if row.deadline is not None and row.match.options.get("clock"):
        parts.append(translate("personal.games.clock", language, when=when(row.deadline)))
    elif row.deadline is not None:
        parts.append(translate("personal.games.deadline", language, when=when(row.deadline)))
    return parts


def finished(row: GameRow, language: str) -> list[str]:
    """A finished game: how the member did, and when it ended."""
    result = row.result
    if result is None:
        outcome = translate("personal.games.ended", language)
    else:
        outcome = (translate("personal.games.won", language) if result.won
                   else translate("personal.games.not_won", language))
        if result.score is not None:
            outcome += " " + translate("personal.games.score", language, score=result.score)
    parts = [outcome]
    if row.since is not None:
        parts.append(translate("personal.games.finished_at", language, when=when(row.since)))
    return parts


def game_line(client: discord.Client, number: int, row: GameRow, language: str, parts: list[str]) -> str:
    """One row of the list: the game, where, its `parts` (`under_way` or `finished`), the link to its board."""
    match = row.match
    text = translate("personal.games.row", language, number=number,
                     game=game_title(find_game(match.game), language),
                     server=server_name(client, match.guild_id, language), channel=channel_mention(match.channel_id),
                     state=" · ".join([*parts, link_words(row, language)]))
    return safe_text(text)


def games_text(client: discord.Client, found: GameList, language: str, *, ended: bool) -> str:
    """The whole private list, in the reader's language."""
    if not found.rows:
        return translate("personal.games.none_ended", language) if ended else translate("personal.games.none",
                                                                                         language)
    state = finished if ended else under_way
    count = len(found.rows) + found.more
    heading = (translate("personal.games.heading_ended", language, count=count) if ended
               else translate("personal.games.heading", language, count=count))
    lines = [heading] + [game_line(client, number, row, language, state(row, language))
                         for number, row in enumerate(found.rows, start=1)]
    if found.more:
        lines.append(translate("personal.games.more", language, count=found.more))
    return "\n".join(lines)


def jump_menu(client: discord.Client, found: GameList, language: str) -> discord.ui.View:
    """A menu of the listed games (at most 25, Discord's limit): choosing one answers with the way to its board."""
    options = []
    for row in found.rows:
        match = row.match
        label = f"{game_title(find_game(match.game), language)} — {server_title(client, match.guild_id, language)}"
        description = (turn_words(row, language) if row.match.status == "active"
                       else translate("personal.games.ended", language))
        # A label shows no markdown: the names as they are (`plain`), never escaped nor stripped of _ * ~ |.
        options.append(discord.SelectOption(label=plain(label)[:100], value=str(match.id),
                                            description=plain(description)[:100]))
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id=JUMP, placeholder=translate("personal.games.menu", language)[:150],
                                    options=options, min_values=1, max_values=1))
    return stopped(view)


async def press_jump(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    """A game chosen in the menu: its link, with a button that goes to its board (only for a game of theirs)."""
    values = getattr(item, "values", None) or []
    if len(values) != 1 or not re.fullmatch(r"[0-9]{1,19}", values[0]):
        raise InvalidControl()
    row = await personal.seated_game(service_of(interaction), interaction.user.id, int(values[0]))
    if row is None:
        raise InvalidControl()
    language = reader_language(interaction)
    title = game_title(find_game(row.match.game), language)
    where = server_name(interaction.client, row.match.guild_id, language)
    url = row_url(row)
    view = discord.ui.View(timeout=None)
    if url is not None:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                                        label=translate("personal.games.go", language)))
    text = translate("personal.games.jump", language, game=title, server=where,
                     channel=channel_mention(row.match.channel_id), link=link_words(row, language))
    await interaction.followup.send(text, view=stopped(view), ephemeral=True, allowed_mentions=NO_PINGS)


class PersonalCommands(commands.Cog):
    """A member's own commands, the same in every server and in DMs."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Every game you sit in, on every server: yours to move first")
    @app_commands.describe(ended="Your latest finished games instead, with results")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def games(self, interaction: discord.Interaction, ended: bool = False) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        language = reader_language(interaction)
        found = (await personal.my_finished_games(service, interaction.user.id) if ended
                 else await personal.my_games(service, interaction.user.id))
        parts = message_parts(games_text(interaction.client, found, language, ended=ended))
        for index, part in enumerate(parts):
            menu = jump_menu(interaction.client, found, language) if found.rows and index == len(parts) - 1 else None
            extra: dict[str, Any] = {"view": menu} if menu is not None else {}
            await interaction.followup.send(part, ephemeral=True, allowed_mentions=NO_PINGS, **extra)


# --------------------------------------------------------------------------------------------- /me


NOTIFY_CHOICES = [app_commands.Choice(name="A ping in the game's channel", value="channel"),
                  app_commands.Choice(name="A DM with the board", value="dm"),
                  app_commands.Choice(name="Both", value="both")]


def prefs_text(prefs: Prefs, dm_refused: bool, language: str) -> str:
    """What the member chose, in their language (the defaults said as such)."""
    told = {"channel": translate("personal.me.notify.channel", language),
            "dm": translate("personal.me.notify.dm", language),
            "both": translate("personal.me.notify.both", language)}[prefs.notify]
    if prefs.reminder_hours is None:
        reminders = translate("personal.me.reminders.server", language)
    elif prefs.reminder_hours == 0:
        reminders = translate("personal.me.reminders.off", language)
    else:
        reminders = translate("personal.me.reminders.every", language,
                              hours=duration_text(prefs.reminder_hours, language))
    window = prefs.window
    if window is not None:
        quiet = translate("personal.me.quiet", language, start=f"{window[1]:02d}:00", end=f"{window[2]:02d}:00",
                          zone=window[0])
    elif prefs.time_zone is not None:
        quiet = translate("personal.me.quiet.none_zone", language, zone=prefs.time_zone)
    else:
        quiet = translate("personal.me.quiet.none", language)
    heads_up = (translate("personal.me.heads_up.on", language) if prefs.heads_up
                else translate("personal.me.heads_up.off", language))
    lines = [translate("personal.me.heading", language), told, reminders, quiet, heads_up]
    if dm_refused:
        lines.append(translate("personal.me.dm_refused", language))
    return "\n".join(lines)


async def zone_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """IANA time zones containing what was typed ("berl" offers Europe/Berlin), at most 25."""
    typed = current.strip().replace(" ", "_").lower()
    found = [name for name in zone_names() if typed in name.lower()]
    found.sort(key=lambda name: (not name.lower().rsplit("/", 1)[-1].startswith(typed), name))
    return [app_commands.Choice(name=name, value=name) for name in found[:25]]


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class MeCommands(commands.GroupCog, group_name="me",
                 group_description="How and when you are told it is your turn, on every server"):
    """A member's own preferences, kept across servers."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="show", description="How and when you are told it is your turn")
    async def show(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        prefs, dm_refused = await personal.my_prefs(service_of(interaction), interaction.user.id)
        await tell(interaction, prefs_text(prefs, dm_refused, reader_language(interaction)))

    @app_commands.command(name="notify", description="Choose how and when you are told it is your turn, everywhere")
    @app_commands.describe(how="How you are told it is your turn",
                           reminders="Hours between reminders in all your games (1-48; 0: none)",
                           server_reminders="Back to each server's reminder interval",
                           time_zone="Your time zone, for quiet hours (such as Europe/Berlin)",
                           quiet_from="Quiet hours begin at this hour of your day (0-23): reminders wait",
                           quiet_until="Quiet hours end at this hour of your day (0-23)",
                           heads_up="A DM when the player before you starts their turn",
                           reset="Forget every choice: back to the servers' ways")
    @app_commands.choices(how=NOTIFY_CHOICES)
    @app_commands.autocomplete(time_zone=zone_autocomplete)
    async def notify(self, interaction: discord.Interaction, how: str | None = None, reminders: float | None = None,
                     server_reminders: bool = False, time_zone: str | None = None,
                     quiet_from: app_commands.Range[int, 0, 23] | None = None,
                     quiet_until: app_commands.Range[int, 0, 23] | None = None, heads_up: bool | None = None,
                     reset: bool = False) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        prefs = await personal.change_prefs(service.store, interaction.user.id, notify=how, reminder_hours=reminders,
                                            server_reminders=server_reminders, time_zone=time_zone,
                                            quiet_from=quiet_from, quiet_until=quiet_until, heads_up=heads_up,
                                            reset=reset)
        _, dm_refused = await personal.my_prefs(service, interaction.user.id)
        language = reader_language(interaction)
        saved = translate("personal.me.saved", language)
        await tell(interaction, f"{saved}\n{prefs_text(prefs, dm_refused, language)}")

    @app_commands.command(name="away", description="Go away for some days: your deadlines and reminders wait")
    @app_commands.describe(days=f"How many days (1-{personal.MOST_AWAY_DAYS}); moving or /me back ends it sooner")
    async def away(self, interaction: discord.Interaction,
                   days: app_commands.Range[int, 1, personal.MOST_AWAY_DAYS]) -> None:
        await acknowledge(interaction)
        gone = await personal.go_away(service_of(interaction), interaction.user.id, days, now_of(interaction.client))
        await tell(interaction, translate("personal.away.done", reader_language(interaction),
                                          until=when(gone.until, "F"), count=len(gone.matches)))
        await tell_tables(interaction.client, gone, interaction.user.id, back=False)

    @app_commands.command(name="back", description="Back before your time away ends: your deadlines run again")
    async def back(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        returned = await personal.come_back(service_of(interaction), interaction.user.id, now_of(interaction.client))
        await tell(interaction, translate("personal.back.done", reader_language(interaction)))
        await tell_tables(interaction.client, returned, interaction.user.id, back=True)


async def tell_tables(client: discord.Client, away: personal.Away, user_id: int, *, back: bool) -> None:
    """Each table of the member's games is told, in its language, until when they are away (or that they are
    back); no one is pinged. A table that cannot be told is logged: the freeze stands either way."""
    for match in away.matches:
        name = safe_name(next((seat.name for seat in match.seats if seat.user_id == user_id), "?"))
        text = (translate("personal.back.table", match.language, name=name) if back
                else translate("personal.away.table", match.language, name=name, until=when(away.until, "F")))
        try:
            await client.get_partial_messageable(match.channel_id).send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as error:
            log.info("Could not tell the table of match %s about a time away: %s", match.id, error)


# --------------------------------------------------------------------------------------------- DMs

CANNOT_DM = 50007  # Discord: "Cannot send messages to this user" (their privacy settings refuse the bot's DMs)


def dm_words(client: TableBot, dm: personal.DirectMessage) -> str:
    """The DM's first line, from its item alone (a resend says the same, and is recognised by it)."""
    match, language = dm.match, dm.language
    values = {"game": game_title(find_game(match.game), language),
              "server": server_name(client, match.guild_id, language), "channel": channel_mention(match.channel_id)}
    if dm.what == "heads_up":
        text = translate("personal.dm.heads_up", language, names=names_and(dm.names, language), **values)
    elif dm.what == "reminder":
        text = translate("personal.dm.reminder", language, **values)
    elif dm.what == "refused":
        text = translate("personal.dm.refused", match.language, mention=f"<@{dm.user_id}>",
                         game=game_title(find_game(match.game), match.language))
    else:
        text = translate("personal.dm.turn", language, **values)
    return safe_text(text)


async def dm_message(client: TableBot, dm: personal.DirectMessage) -> dict[str, Any]:
    """The DM as `send`'s keyword arguments: its words, the link to the board, and for a turn the board itself."""
    service = service_of_client(client)
    if dm.what == "refused":  # in the game's channel, in the table's language
        return {"content": dm_words(client, dm),
                "allowed_mentions": pings([dm.user_id]) if dm.ping else NO_PINGS}
    message_id = await service.board_message(dm.match.id)
    url = (jump_url(dm.match.guild_id, dm.match.channel_id, message_id) if message_id is not None
           else f"https://discord.com/channels/{dm.match.guild_id}/{dm.match.channel_id}")
    link = translate("personal.dm.link", dm.language, url=url)
    message: dict[str, Any] = {"content": f"{dm_words(client, dm)}\n{link}", "allowed_mentions": NO_PINGS}
    if dm.what == "turn":  # the board the channel shows (drawn again, behind the boards of moves, only when this
        # process did not show it)
        desk: BoardDesk | None = getattr(client, "desk", None)
        board = (desk.shown(dm.match) if desk is not None else None) or await service.board(dm.match, asked=True)
        if board.note:  # the features' words under it (a clock's time left)
            message["content"] = fit(f"{message['content']}\n{safe_text(board.note)}")
        if board.image is not None:
            message["file"] = discord.File(io.BytesIO(board.image), filename="board.png",
                                           description=plain(board.alt_text)[:1024] or None)
    return message


def service_of_client(client: TableBot) -> GameService:
    return client.service


async def target_of(bot: TableBot, dm: personal.DirectMessage) -> discord.abc.Messageable:
    """Where the message goes: the member's DM channel (opened once, then remembered), or the game's channel."""
    if dm.what == "refused":
        return bot.get_partial_messageable(dm.match.channel_id)
    if dm.dm_channel_id is not None:
        return bot.get_partial_messageable(dm.dm_channel_id, type=discord.ChannelType.private)
    channel = await bot.create_dm(discord.Object(id=dm.user_id))
    await personal.remember_dm_channel(bot.service, dm.user_id, channel.id)
    return channel


async def sent_before(bot: TableBot, channel: discord.abc.Messageable, first_line: str, since: int) -> bool:
    """Whether the bot sent this message there since `since` (the item's last try): a try that reached Discord
    before the process died, found after Discord stopped remembering its nonce."""
    after = discord.Object(id=discord.utils.time_snowflake(datetime.fromtimestamp(since - 60, UTC)))
    me = bot.user.id if bot.user is not None else None
    async for message in channel.history(limit=100, after=after):
        if message.author.id == me and message.content.split("\n", 1)[0] == first_line:
            return True
    return False


async def deliver_dm(bot: TableBot, work: Due, now: datetime) -> None:
    """A due DM (or the fallback in the channel when the member's DMs refuse the bot), at least once and not twice;
    a refusal (50007) ends the DMs to the member and owes the channel the ping they missed, said once."""
    dm = await personal.take_dm(bot.service, work, now)
    if dm is None:
        return
    try:
        channel = await target_of(bot, dm)
        if work.attempted_at is not None and await sent_before(bot, channel, dm_words(bot, dm),
                                                               work.attempted_at):
            log.info("DM item %s was sent before a restart: not sending it again", work.id)
        else:
            await personal.dm_sending(bot.service, dm, now)

            async def send() -> discord.Message:
                return await channel.send(nonce=dm.nonce, **await dm_message(bot, dm))

            await send_with_retries(send)
    except discord.Forbidden as error:
        if error.code == CANNOT_DM and dm.what != "refused":
            log.info("The DMs of user %s refuse the bot: pinged in the channel instead", dm.user_id)
            await personal.dm_refused(bot.service, dm, now)
            return
        await dm_undeliverable(bot, dm, now, error)
        return
    except discord.NotFound as error:  # the member's account, or their DM channel, no longer exists
        await dm_undeliverable(bot, dm, now, error)
        return
    except (Undeliverable, discord.HTTPException) as error:
        if isinstance(error, Undeliverable) and error.kind == "gone":  # the game's channel, or the DM channel
            await dm_undeliverable(bot, dm, now, error)
            if dm.what == "refused" and bot.desk.channel_gone is not None:  # the game's: as a reminder's would
                await bot.desk.channel_gone(dm.match.channel_id)
            return
        retry_after = error.retry_after if isinstance(error, Undeliverable) else None
        log.info("Could not send DM item %s (tried again later): %s", work.id, error)
        await personal.dm_failed(bot.service, dm, now, str(error), outbox.retry_delay(work.attempts, retry_after))
        return
    await personal.dm_sent(bot.service, dm, now)


async def dm_undeliverable(bot: TableBot, dm: personal.DirectMessage, now: datetime, error: Exception) -> None:
    """A DM no retry can deliver (a deleted user or DM channel, a refusal other than the member's DM settings, the
    game's channel gone for the fallback): done, logged, never tried again, as a reminder to a deleted channel."""
    log.info("DM item %s cannot be delivered (given up): %s", dm.work.id, error)
    await personal.dm_given_up(bot.service, dm, now, str(error))


class LanguageNotes(commands.Cog):
    """Keeps the language of the client each member last used with the bot: their DMs are worded in it."""

    def __init__(self, bot: TableBot) -> None:
        self.service = bot.service
        bot.scheduler.every_pass(lambda: personal.flush_languages(self.service))  # kept off the interaction's path

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        personal.note_language(self.service, interaction.user.id, reader_language(interaction))


async def setup(bot: commands.Bot) -> None:
    register_control("jump", r"", press_jump, private=True)
    owner = table_bot(bot)

    async def on_dm(work: Due, now: datetime) -> None:
        await deliver_dm(owner, work, now)

    owner.scheduler.handle(personal.DM, on_dm)
    owner.scheduler.handle(personal.DM_REFUSED, on_dm)
    await bot.add_cog(PersonalCommands(bot))
    await bot.add_cog(MeCommands(bot))
    await bot.add_cog(LanguageNotes(owner))
