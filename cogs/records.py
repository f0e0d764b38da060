"""The records half of /game: undo by consent, history, replays and exports (the commands live in cogs/lobby.py's
`game` group and call these; the rules of each are in bot/features/undo.py and bot/features/history.py)."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord.ext import commands

from bot.core import LobbyError, find_game
from bot.features import community as limits
from bot.features import history, undo
from bot.features.wording import game_title
from bot.i18n import language_of, translate, translate_plural
from bot.service import MatchRecord
from cogs.common import (
    NO_PINGS,
    button,
    channel_id_of,
    fit,
    pings,
    plain,
    safe_name,
    safe_text,
    send_private,
    service_of,
    stopped,
)
from cogs.controls import register_control
from cogs.table import acknowledge, desk_of, tell

MESSAGE_CHARS = 1900


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise LobbyError("history.refuse.no_server")
    return interaction.guild_id


# --------------------------------------------------------------------------------------------- undo


def undo_view(request_id: int, language: str) -> discord.ui.View:
    """The request's buttons, in the table's language."""
    view = discord.ui.View(timeout=None)
    view.add_item(button(f"xt:undo:{request_id}:yes", translate("undo.button.approve", language),
                         style=discord.ButtonStyle.success))
    view.add_item(button(f"xt:undo:{request_id}:no", translate("undo.button.refuse", language),
                         style=discord.ButtonStyle.danger))
    return stopped(view)


async def ask_undo(interaction: discord.Interaction) -> None:
    """/game undo: at once when nobody else human is seated; else a request the others answer with buttons."""
    await acknowledge(interaction)
    service = service_of(interaction)
    reader = language_of(interaction.locale)
    result = await undo.request_undo(service, channel_id_of(interaction), interaction.user.id)
    if result.applied:  # one board per turn: a new one only when the turn changed hands
        if result.new_board:
            await tell(interaction, translate("undo.done.new_board", reader))
            await desk_of(interaction).post(result.match.id, interaction=interaction)
        else:
            await tell(interaction, translate("undo.done.same_board", reader))
            await desk_of(interaction).refresh(result.match.id)
        return
    request = result.request
    assert request is not None
    table = result.match.language
    asker = safe_name(interaction.user.display_name)
    mentions = " ".join(f"<@{user_id}>" for user_id in request.approvers)
    if request.moves == 1:
        asked = translate("undo.request.asks", table, name=asker, mentions=mentions)
    else:
        asked = translate_plural("undo.request.asks_more", request.moves, table, name=asker, mentions=mentions)
    await tell(interaction, translate("undo.request.posted_below", reader))
    posted = await interaction.followup.send(asked, view=undo_view(request.id, table),
                                             allowed_mentions=pings(request.approvers), wait=True)

    async def lapse_when_moved() -> bool:  # a move made first closes the request: its buttons go at once
        text = await undo.lapse_if_moved(service, request.id)
        if text is None:
            fresh = await service.store.undo_request(request.id)
            return fresh is None or fresh.status != "pending"
        await posted.edit(content=safe_text(text(table)), view=None, allowed_mentions=NO_PINGS)
        return True

    desk_of(interaction).watch(result.match.id, lapse_when_moved)


async def press_undo(interaction: discord.Interaction, fields: dict[str, Any], item: discord.ui.Item[Any]) -> None:
    """Approve or Refuse under an undo request: the message says where the request stands."""
    await acknowledge(interaction)
    service = service_of(interaction)
    result = await undo.answer_undo(service, fields["request"], interaction.user.id, fields["answer"] == "yes",
                                    channel_id=channel_id_of(interaction))
    table = result.match.language  # the request's message is the channel's: it stays in the table's language
    pending = result.request is not None and result.request.status == "pending"
    await interaction.edit_original_response(content=safe_text(result.text(table)),
                                             view=undo_view(result.request.id, table) if pending and result.request
                                             else None, allowed_mentions=NO_PINGS)
    if result.applied:
        if result.new_board:
            await desk_of(interaction).post(result.match.id)
        else:
            await desk_of(interaction).refresh(result.match.id)


# --------------------------------------------------------------------------------------------- privacy


async def channel_permissions(interaction: discord.Interaction, channel_id: int,
                              parents: dict[int, int] | None = None, *,
                              fetch: bool = True) -> discord.Permissions | None:
    """The asker's permissions in a channel or thread of this server: the interaction's own for its channel, else
    as discord.py computes them from its cache (a thread: its parent's; a game thread Discord archived: the parent
    the bot recorded, or Discord asked when `fetch`); None when the channel is gone or unknown."""
    if channel_id == interaction.channel_id:
        return interaction.permissions
    member = interaction.user
    if not isinstance(member, discord.Member):
        return None
    channel = await known_channel(interaction, channel_id, parents, fetch=fetch)
    return channel.permissions_for(member) if channel is not None else None


async def known_channel(interaction: discord.Interaction, channel_id: int, parents: dict[int, int] | None = None, *,
                        fetch: bool = True) -> Any:
    """A channel or thread of this server from the cache (a game thread Discord archived: the parent the bot
    recorded, or Discord asked when `fetch`); None when it is gone or unknown."""
    guild = interaction.guild
    if guild is None:
        return None
    channel: Any = guild.get_channel_or_thread(channel_id)
    if channel is None:
        known = parents if parents is not None else await limits.thread_parents(service_of(interaction),
                                                                                [channel_id])
        channel = guild.get_channel(known[channel_id]) if channel_id in known else None
    if channel is None and fetch:
        try:
            channel = await guild.fetch_channel(channel_id)
        except (discord.HTTPException, discord.InvalidData):
            return None
    if channel is None or (isinstance(channel, discord.Thread) and channel.parent is None):
        return None
    return channel


async def check_postable_here(interaction: discord.Interaction, match: MatchRecord) -> None:
    """A public replay shows a game to everyone who reads this channel (finding 4 of review 13): only in the
    channel it was played in, or anywhere when everyone on the server may read that channel (not a private
    thread); else refused privately, saying where it may be posted."""
    if match.channel_id == interaction.channel_id:
        return
    channel = await known_channel(interaction, match.channel_id)
    guild = interaction.guild
    if channel is not None and guild is not None and channel.type != discord.ChannelType.private_thread and \
            channel.permissions_for(guild.default_role).view_channel:
        return
    raise LobbyError("history.refuse.public_elsewhere", match=str(match.id), channel=f"<#{match.channel_id}>")


def sees_every_channel(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions and interaction.permissions.administrator)


async def check_readable(interaction: discord.Interaction, match: MatchRecord) -> None:
    """A game is as private as its channel (issue 32): its history, replay and export only for members who can
    view the channel it was played in (a thread: its parent), and for its players, whatever the channel."""
    if await history.played_in(service_of(interaction), match, interaction.user.id):
        return
    permissions = await channel_permissions(interaction, match.channel_id)
    if (permissions is not None and permissions.view_channel) or sees_every_channel(interaction):
        return
    raise LobbyError("history.refuse.private", match=str(match.id))


async def hidden_channels(interaction: discord.Interaction, guild_id: int) -> list[int]:
    """The channels and threads with finished games that the asker cannot view (from the cache and the threads
    the bot recorded: listing the history asks Discord nothing)."""
    if sees_every_channel(interaction):
        return []
    service = service_of(interaction)
    channels = await history.finished_channels(service, guild_id)
    parents = await limits.thread_parents(service, channels)
    hidden = []
    for channel_id in channels:
        permissions = await channel_permissions(interaction, channel_id, parents, fetch=False)
        if permissions is None or not permissions.view_channel:
            hidden.append(channel_id)
    return hidden


# --------------------------------------------------------------------------------------------- history


async def show_history(interaction: discord.Interaction, page: int) -> None:
    """/game history: the channel's latest finished games and a page of the server's, privately."""
    await acknowledge(interaction)
    reader = language_of(interaction.locale)
    guild_id = guild_of(interaction)
    found = await history.history(service_of(interaction), guild_id, channel_id_of(interaction), page,
                                  hidden_channels=await hidden_channels(interaction, guild_id),
                                  reader_id=interaction.user.id)

    def lines(matches: list[MatchRecord]) -> list[str]:
        shown = []
        for match in matches:
            shown.append("- " + history.history_line(match, reader))
        return shown

    none_yet = "- " + translate("history.none_yet", reader)
    parts = [translate("history.channel_heading", reader, count=found.channel_total)]
    parts += lines(found.channel) or [none_yet]
    parts.append(translate("history.server_heading", reader, count=found.server_total, page=found.page,
                           pages=found.pages))
    parts += lines(found.server) or [none_yet]
    parts.append(translate("history.how_to_replay", reader))
    text = "\n".join(parts)
    await tell(interaction, fit(text, MESSAGE_CHARS))


async def post_replay(interaction: discord.Interaction, match_id: int, public: bool = False) -> None:
    """/game replay: a finished game's final board and its whole log as a text file (in the table's language), to
    the asker alone, or with `public` in the channel, at most once per channel in the server's `replay_minutes`."""
    await acknowledge(interaction)
    service = service_of(interaction)
    match = await history.finished_match(service, guild_of(interaction), match_id)
    await check_readable(interaction, match)
    if match.state is None:
        raise LobbyError("history.refuse.no_board", match=str(match.id))
    if public:
        await check_postable_here(interaction, match)
        await limits.claim_public_replay(service, guild_of(interaction), channel_id_of(interaction))
    table = match.language  # the game's record, as its board and log read: private or public alike
    log = await history.match_log(service, match, table)
    board = await service.board(match, headline="", asked=True, member=interaction.user.id)
    game = find_game(match.game)
    line = history.history_line(match, table)
    files = [discord.File(io.BytesIO(log.encode()),
                          filename=f"{match.game}-{match.id}-log.txt")]
    if board.image is not None:
        files.insert(0, discord.File(io.BytesIO(board.image), filename="board.png",
                                     description=plain(board.alt_text) or None))
    heading = translate("history.replay.heading", table, game=game_title(game, table), match=str(match.id))
    content = safe_text(f"**{heading}**\n{line}\n{board.turn}")
    if not public:  # the asker's own look at it: nothing posted in the channel
        await interaction.followup.send(fit(content, MESSAGE_CHARS), files=files, ephemeral=True,
                                        allowed_mentions=NO_PINGS)
        return
    await tell(interaction, translate("history.replay.posted", language_of(interaction.locale), match=str(match.id)))
    await interaction.followup.send(fit(content, MESSAGE_CHARS), files=files, allowed_mentions=NO_PINGS)


async def send_export(interaction: discord.Interaction, match_id: int | None) -> None:
    """/game export: a game that is over as JSON, privately; `expedition-bot replay FILE` checks it."""
    await acknowledge(interaction)
    service = service_of(interaction)
    if match_id is None:
        match_id = (await service.current(channel_id_of(interaction))).id
    await check_readable(interaction, await history.finished_match(service, guild_of(interaction), match_id))
    game_key, body = await history.export_file(service, guild_of(interaction), match_id, member=interaction.user.id)
    file = discord.File(io.BytesIO(body), filename=f"{game_key}-{match_id}.json")
    text = translate("history.export.sent", language_of(interaction.locale), match=str(match_id),
                     file=f"{game_key}-{match_id}.json")
    await send_private(interaction, text, file=file)


async def setup(bot: commands.Bot) -> None:
    register_control("undo", r"(?P<request>[0-9]{1,20}):(?P<answer>yes|no)", press_undo)
