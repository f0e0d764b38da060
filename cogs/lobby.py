"""The /game command group: open a lobby, join, leave, start, see the board, your private view, the log, rules."""

from __future__ import annotations

import asyncio
import contextlib
import io
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import all_games, find_game
from bot.core.seats import BOT_LEVELS
from bot.features import autoplay, personal
from bot.features import community as limits
from bot.features.lessons import TEACH_OPTION
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, said, translate
from bot.service import (
    LOG_LIMIT,
    MAX_SEED,
    InvalidControl,
    MatchRecord,
    host_passed_text,
    mode_players,
    mode_title,
)
from cogs import community, lessons, records, teaching
from cogs.common import (
    NO_PINGS,
    button,
    channel_id_of,
    jump_url,
    now_of,
    plain,
    player_of,
    reader_language,
    safe_name,
    send_private,
    service_of,
    stopped,
)
from cogs.controls import Router, register_control, send_detail
from cogs.table import TableBot, acknowledge, desk_of, lobby_content, lobby_view, post_board, table_bot, tell

LOG_MESSAGE_CHARS = 1900
CHOICE_NAME_LIMIT = 100
"""Discord's longest autocomplete choice name."""
GAME_CHOICES = [app_commands.Choice(name=game.title, value=game.key) for game in all_games()]
LANGUAGE_CHOICES = [app_commands.Choice(name=LANGUAGE_NAMES[language], value=language) for language in LANGUAGES]
"""English, Deutsch: a table's language (each name in its own language; the German client shows "Englisch")."""


async def show_lobby(interaction: discord.Interaction, match: MatchRecord, note: str | None = None) -> None:
    """Update the lobby message in place (no pings); a lobby whose message is gone gets a new one."""
    service = service_of(interaction)
    content = await lobby_content(service, match, note)
    message_id = await service.board_message(match.id)
    if message_id is not None:
        try:
            channel = interaction.client.get_partial_messageable(match.channel_id)
            await channel.get_partial_message(message_id).edit(content=content, view=lobby_view(match),
                                                               allowed_mentions=NO_PINGS)
            return
        except discord.NotFound:
            pass
    if match.status == "lobby":
        sent = await interaction.followup.send(content, view=lobby_view(match), allowed_mentions=NO_PINGS,
                                               wait=True)
        await service.set_board_message(match.id, sent.id)


def host_note(match: MatchRecord) -> str:
    """Who has the host's powers now (the host left), as the lobby says it (the lobby's text escapes the name)."""
    return host_passed_text(match, match.host_id, match.language)


async def start_game(interaction: discord.Interaction, match: MatchRecord) -> None:
    """The lobby message says the game started; the first board is a new message pinging the first player."""
    await show_lobby(interaction, match)
    await post_board(interaction, match.id, note=translate("lobby.started_below", reader_language(interaction)))
    if autoplay.all_bots(match) and match.status == "active":
        start_bot_table(interaction, match.id)


_BOT_TABLES: set[asyncio.Task[None]] = set()  # running tables of bots alone (kept so they are not collected)


def start_bot_table(interaction: discord.Interaction, match_id: int) -> None:
    """A table of computer players alone plays itself in the background, one board message per round."""
    drive_bot_table(table_bot(interaction.client), match_id)


def drive_bot_table(client: TableBot, match_id: int) -> None:
    """The background loop of a table of bots alone (from /game start, or on start-up: cogs/resume.py)."""
    desk = client.desk

    async def show(shown: int) -> None:
        await desk.post(shown, ping=False)

    task = asyncio.create_task(autoplay.run_bot_table(client.service, match_id, show))
    _BOT_TABLES.add(task)
    task.add_done_callback(_BOT_TABLES.discard)


async def press_lobby(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    """Join, Leave and Start under the lobby message."""
    service = service_of(interaction)
    channel = channel_id_of(interaction)
    current = await service.open_match(channel)
    if current is None or current.id != fields["match"] or current.status != "lobby":
        lobby = await service.match(fields["match"]) if current is None or current.id != fields["match"] else current
        if lobby.channel_id != channel:
            raise InvalidControl()
        await send_private(interaction, translate("lobby.closed_see_board", reader_language(interaction)))
        return
    await acknowledge(interaction)
    what = fields["what"]
    if what == "join":
        match = await service.join(channel, player_of(interaction))
    elif what == "leave":
        match = await service.leave(channel, player_of(interaction))
        if match.status == "lobby" and current.host_id == interaction.user.id:
            await show_lobby(interaction, match, host_note(match))
            return
    else:
        match = await service.start(channel, interaction.user.id)
    if match.status == "active":
        await start_game(interaction, match)
    else:
        await show_lobby(interaction, match)


async def confirm_abandon(interaction: discord.Interaction, fields: dict[str, Any],
                          item: discord.ui.Item[Any]) -> None:
    """The confirmation under /game abandon."""
    service = service_of(interaction)
    channel = channel_id_of(interaction)
    current = await service.open_match(channel)
    if current is None or current.id != fields["match"]:
        pressed = await service.match(fields["match"])
        if pressed.channel_id != channel:  # a control of another channel's game: it may well be running
            raise InvalidControl()
        await send_private(interaction, translate("lobby.already_ended", reader_language(interaction)))
        return
    await acknowledge(interaction)
    can_manage = bool(interaction.permissions and interaction.permissions.manage_channels)
    match = await service.abandon(channel, interaction.user.id, can_manage_channel=can_manage)
    await interaction.edit_original_response(content=translate("table.log.abandoned", reader_language(interaction)),
                                             view=None)
    if match.state is None:
        await show_lobby(interaction, match)
    else:
        await desk_of(interaction).refresh(match.id)  # the board loses its controls and says so
    title = find_game(match.game).title
    await interaction.followup.send(translate("lobby.abandoned_by", match.language,
                                              name=safe_name(interaction.user.display_name), number=str(match.id),
                                              title=title), allowed_mentions=NO_PINGS)


async def board_just_posted(interaction: discord.Interaction, match: MatchRecord) -> bool:
    """/game board when the same board (same version) was posted less than the server's `board_repost_seconds`
    ago: the asker is shown privately where it is and when it may be posted again, instead of a public repost
    (issue 32: 300 /game board from one member posted 306 boards)."""
    shown = await limits.board_on_show(service_of(interaction), match)
    if shown is None:
        return False
    posted = discord.utils.snowflake_time(shown.message_id)
    again = posted + timedelta(seconds=shown.repost_seconds)
    if now_of(interaction.client) >= again:
        return False
    await tell(interaction, translate("limits.refuse.board", reader_language(interaction),
                                      link=jump_url(interaction.guild_id, match.channel_id, shown.message_id),
                                      when=limits.relative_time(posted), again=limits.relative_time(again)))
    return True


async def mode_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    game_key = getattr(interaction.namespace, "game", None)
    games = [find_game(game_key)] if game_key else all_games()
    language = reader_language(interaction)
    choices = []
    for game in games:
        for mode in game.modes:
            if len(games) == 1:  # "Solo campaign (1 player): Ten stages…", its summary where it fits
                label = translate("lobby.mode_choice.described", language, choice=mode_players(mode, language),
                                  summary=mode.summary_in(language))
                if len(label) > CHOICE_NAME_LIMIT:
                    label = mode_players(mode, language)
            else:
                label = f"{game.title}: {mode_title(mode, language)}"
            if current.lower() in label.lower() or current.lower() in mode.key:
                choices.append(app_commands.Choice(name=label[:100], value=mode.key))
    return choices[:25]


@app_commands.guild_only()
class GameCommands(commands.GroupCog, group_name="game", group_description="Start and manage a game here"):
    """The lobby and table commands shared by every game."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Open a lobby for a game in this channel")
    @app_commands.describe(game="Which game", mode="Standard, solo or a variant",
                           seed="A number for a reproducible shuffle and dice (tournaments, bug reports)",
                           timer="Hours each player has per turn before the server's timer policy applies (0: none)",
                           thread="Open the game in a new thread of this channel (default: the server's setting)",
                           clock="A clock instead of a deadline per turn: a bank of hours + hours added per move "
                                 "(72+24)",
                           language="The language the table plays in (default: the server's setting, else its "
                                    "Discord language)",
                           teach="Boards explain each idea of the game when it first comes up (default: the server's "
                                 "setting)")
    @app_commands.choices(game=GAME_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.autocomplete(mode=mode_autocomplete)
    async def new(self, interaction: discord.Interaction, game: str, mode: str | None = None,
                  seed: app_commands.Range[int, 0, MAX_SEED] | None = None, timer: float | None = None,
                  thread: bool | None = None, language: str | None = None, clock: str | None = None,
                  teach: bool | None = None) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        plan = await community.prepare_new_game(interaction, game, mode, timer, thread)  # the server's settings
        # Issue 32: a member's open lobbies and the game threads they open are limited (the server's settings).
        await limits.check_new_game(service, interaction.guild_id or 0, interaction.user.id,
                                    lobby=find_game(game).mode(plan.mode).max_players > 1, thread=plan.thread)
        # Issue 34: a clock (bank + hours per move) instead of a deadline per turn, chosen here or the server's.
        chosen_clock = await personal.clock_for(service, interaction.guild_id or 0, clock, timer)
        if chosen_clock is not None:
            plan.options["clock"] = list(chosen_clock)
        # The table's language: chosen here, else the server's /settings language, else its Discord language.
        plan.options["language"] = await service.table_language(interaction.guild_id or 0, chosen=language,
                                                                guild_locale=interaction.guild_locale)
        # Issue 33: a teaching table, chosen here or the server's default (/settings teach).
        if teach if teach is not None else (await limits.settings_for(service, interaction.guild_id or 0)).teach:
            plan.options[TEACH_OPTION] = True
        if plan.thread:
            await community.open_in_thread(interaction, game, plan, seed)
            return
        match = await service.new_match(interaction.guild_id or 0, channel_id_of(interaction), game,
                                        player_of(interaction), mode=plan.mode, seed=seed, options=plan.options)
        if match.status == "active":
            await post_board(interaction, match.id, note=translate("lobby.your_game_started",
                                                                   reader_language(interaction)))
            return
        await tell(interaction, translate("lobby.open_below", reader_language(interaction)))
        sent = await interaction.followup.send(await lobby_content(service, match), view=lobby_view(match),
                                               allowed_mentions=NO_PINGS, wait=True)
        await service.set_board_message(match.id, sent.id)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        match = await service_of(interaction).join(channel_id_of(interaction), player_of(interaction))
        await tell(interaction, translate("lobby.you_are_seated", reader_language(interaction),
                                          count=len(match.seats)))
        await show_lobby(interaction, match)

    @app_commands.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        service = service_of(interaction)
        before = await service.open_match(channel_id_of(interaction))
        match = await service.leave(channel_id_of(interaction), player_of(interaction))
        language = reader_language(interaction)
        await tell(interaction, translate("lobby.you_left", language) if match.status == "lobby"
                   else translate("lobby.you_left_closed", language))
        hosted = before is not None and before.host_id == interaction.user.id and match.status == "lobby"
        # The host left: the lobby says who has the host's powers now.
        await show_lobby(interaction, match, host_note(match) if hosted else None)

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        match = await service_of(interaction).start(channel_id_of(interaction), interaction.user.id)
        await start_game(interaction, match)

    @app_commands.command(name="add-bot", description="Seat a computer player in the lobby (host only)")
    @app_commands.describe(level="easy: random moves; normal: a rule of thumb; hard: searches ahead")
    @app_commands.choices(level=[app_commands.Choice(name=level, value=level) for level in BOT_LEVELS])
    async def add_bot(self, interaction: discord.Interaction, level: str = "normal") -> None:
        await acknowledge(interaction)
        match = await autoplay.add_bot(service_of(interaction), channel_id_of(interaction), interaction.user.id,
                                       level)
        await tell(interaction, translate("lobby.bot_seated", reader_language(interaction),
                                          name=said(match.seats[-1].name), count=len(match.seats)))
        await show_lobby(interaction, match)

    @app_commands.command(name="remove-bot", description="Free the last computer player's seat (host only)")
    async def remove_bot(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        match = await autoplay.remove_bot(service_of(interaction), channel_id_of(interaction), interaction.user.id)
        await tell(interaction, translate("lobby.bot_left", reader_language(interaction), count=len(match.seats)))
        await show_lobby(interaction, match)

    @app_commands.command(name="hint", description="The move a normal computer player would make for you, and why")
    async def hint(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        text = await autoplay.hint_for(service_of(interaction), channel_id_of(interaction), interaction.user.id,
                                       reader_language(interaction))
        await tell(interaction, text)

    @app_commands.command(name="board", description="Post this channel's board again")
    @app_commands.describe(detail="Show me the full-size board with every detail, privately")
    async def board(self, interaction: discord.Interaction, detail: bool = False) -> None:
        service = service_of(interaction)
        if detail:
            await acknowledge(interaction)
            match = await service.current(channel_id_of(interaction))
            await send_detail(interaction, match, await service.detail_image(match, member=interaction.user.id))
            return
        await acknowledge(interaction)
        match = await service.current(channel_id_of(interaction))
        if await board_just_posted(interaction, match):
            return
        if match.status == "lobby":
            await tell(interaction, translate("lobby.posted_below", reader_language(interaction)))
            sent = await interaction.followup.send(await lobby_content(service, match), view=lobby_view(match),
                                                   allowed_mentions=NO_PINGS, wait=True)
            previous = await service.board_message(match.id)
            if previous is not None:  # the old lobby message keeps its text but loses its buttons
                with contextlib.suppress(discord.HTTPException):
                    await interaction.client.get_partial_messageable(match.channel_id).get_partial_message(
                        previous).edit(view=None)
            await service.set_board_message(match.id, sent.id, match.version)
            return
        # Asked for, not a turn passing: the board comes again without pinging anyone.
        await post_board(interaction, match.id, ping=False)

    @app_commands.command(name="mine", description="Your private view of the game (only you see it)")
    async def mine(self, interaction: discord.Interaction) -> None:
        text = await service_of(interaction).mine(channel_id_of(interaction), interaction.user.id,
                                                  reader_language(interaction))
        await send_private(interaction, text)

    @app_commands.command(name="abandon", description="End this channel's game (host or channel managers)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        match = await service.current(channel_id_of(interaction))
        can_manage = bool(interaction.permissions and interaction.permissions.manage_channels)
        language = reader_language(interaction)
        if not match.is_open:
            await send_private(interaction, translate("lobby.nothing_to_abandon", language))
            return
        if interaction.user.id != match.host_id and not can_manage:
            await send_private(interaction, translate("lobby.refuse.abandon", language))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(button(f"xt:abandon:{match.id}", translate("lobby.button.abandon", language),
                             style=discord.ButtonStyle.danger))
        await send_private(interaction, translate("lobby.abandon_question", language), view=stopped(view))

    @app_commands.command(name="log", description="The moves so far in words (newest last)")
    @app_commands.describe(count=f"How many of the newest entries (1-{LOG_LIMIT})")
    async def log(self, interaction: discord.Interaction,
                  count: app_commands.Range[int, 1, LOG_LIMIT] = 10) -> None:
        service = service_of(interaction)
        match = await service.current(channel_id_of(interaction))
        lines = await service.log(channel_id_of(interaction), count)
        if not lines:
            await send_private(interaction, translate("table.log.empty", reader_language(interaction)))
            return
        text = "\n".join(lines)
        if len(text) <= LOG_MESSAGE_CHARS:
            await send_private(interaction, text)
            return
        # Too long for one message: the whole of it as a text file, and the newest entries that fit as text.
        shown: list[str] = []
        for line in reversed(lines):
            if sum(len(kept) + 1 for kept in shown) + len(line) > LOG_MESSAGE_CHARS - 200:
                break
            shown.insert(0, line)
        note = translate("table.log.attached", reader_language(interaction), count=len(lines), shown=len(shown))
        file = discord.File(io.BytesIO(plain(text).encode()), filename=f"{match.game}-{match.id}-log.txt")
        await send_private(interaction, note + "\n" + "\n".join(shown), file=file)

    @app_commands.command(name="rules", description="A summary of the rules of this channel's game")
    @app_commands.describe(game="A game to read about (default: this channel's)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await teaching.show_rules(interaction, game)

    @app_commands.command(name="whats-this", description="What every label, number and symbol on this channel's "
                                                        "board means (only you see it)")
    async def whats_this(self, interaction: discord.Interaction) -> None:
        await teaching.whats_this_here(interaction)

    @app_commands.command(name="learn", description="Learn a game by playing it against computer players, "
                                                    "with tips on the board")
    @app_commands.describe(game="Which game to learn")
    @app_commands.choices(game=GAME_CHOICES)
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        await lessons.start_learning(interaction, game)  # issue 33: cogs/lessons.py

    # --------------------------------------------------------------------------------- records (cogs/records.py)
    # Undo by consent, history, replays and exports: thin commands; the work is in cogs/records.py.

    @app_commands.command(name="undo", description="Ask to take back your last move (the others approve)")
    async def undo(self, interaction: discord.Interaction) -> None:
        await records.ask_undo(interaction)

    @app_commands.command(name="history", description="Finished games of this channel and this server")
    @app_commands.describe(page="Which page of the server's games (10 a page, newest first)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] = 1) -> None:
        await records.show_history(interaction, page)

    @app_commands.command(name="replay", description="Post a finished game's final board and its log")
    @app_commands.describe(match="The game's number, from /game history",
                           public="Post it in the channel for everyone (default: only you see it)")
    async def replay(self, interaction: discord.Interaction, match: app_commands.Range[int, 1, MAX_SEED],
                     public: bool = False) -> None:
        await records.post_replay(interaction, match, public)

    @app_commands.command(name="export", description="A finished game as JSON (check it with expedition-bot replay)")
    @app_commands.describe(match="The game's number, from /game history (default: this channel's last game)")
    async def export(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1, MAX_SEED] | None = None) -> None:
        await records.send_export(interaction, match)
    # ------------------------------------------------------------------ issue 12: replacing players (cogs/community)

    @app_commands.command(name="kick", description="Hand a player's seat to a computer player (host or channel "
                                                   "managers)")
    @app_commands.describe(player="The player whose seat a normal computer player takes over")
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await community.kick_player(interaction, player)

    @app_commands.command(name="rejoin", description="Take back your seat from the computer player")
    async def rejoin(self, interaction: discord.Interaction) -> None:
        await community.rejoin_seat(interaction)


async def setup(bot: commands.Bot) -> None:
    register_control("lobby", r"(?P<match>[0-9]{1,20}):(?P<what>join|leave|start)", press_lobby)
    register_control("abandon", r"(?P<match>[0-9]{1,20})", confirm_abandon)
    bot.add_dynamic_items(Router)
    await bot.add_cog(GameCommands(bot))
