"""Issue 32: what a hostile member could do and can no longer, through the offline Discord.

Host powers follow the seat (a replaced or departed host keeps none), a game is as private as its channel, and
the smaller refusals that said the wrong thing.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness, FakeChannel, FakeUser, HarnessError, World
from tests.clock import FakeClock
from tests.tables import current_match, finish_nim

RELATIVE_TIME = re.compile(r"<t:\d+:R>")


async def finish_nim_in(discord_: DiscordHarness, channel: FakeChannel, users: list[FakeUser]) -> int:
    """Play Test Nim in `channel` to its end (each player to move takes 1); the match's number."""
    service = discord_.bot.service  # type: ignore[attr-defined]
    for _ in range(40):
        match = await service.current(channel.id)
        if match.status != "active":
            return int(match.id)
        mover = match.user_at(find_game("test-nim").to_act(match.state)[0]).user_id
        board = next(m for m in reversed(discord_.channel_messages(channel)) if "Take 1" in m.button_labels())
        await discord_.click(board, label="Take 1", user=next(u for u in users if u.id == mover))
    raise AssertionError("the game did not end")

# --------------------------------------------------------------------------------------------- host powers


async def test_a_host_replaced_by_a_computer_player_hands_the_host_powers_to_the_next_person(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        mod = discord_.user("mod", manage_channels=True)
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game join", user=carol)
        await discord_.command("game start", user=alice)
        replies = await discord_.command("game kick", {"player": alice}, user=mod)
        announce = [r.content for r in replies.public() if r.created]
        assert announce == ["Mod handed Alice's seat to a normal computer player 🤖. Alice can take it back at any "
                            "time with /game rejoin.\nBob has the host's powers now."]
        match = await current_match(discord_)
        assert match.host_id == bob.id
        refused = await discord_.command("game kick", {"player": bob}, user=alice)
        assert refused.last.ephemeral and "Only the host, or someone who can manage this channel" in \
            (refused.last.content or "")
        refused = await discord_.command("game abandon", user=alice)
        assert refused.last.ephemeral and "Only the host" in (refused.last.content or "")
        assert (await current_match(discord_)).seat_of(bob.id) is not None
        assert (await current_match(discord_)).status == "active"
        confirm = (await discord_.command("game abandon", user=bob)).one()
        assert confirm.button_labels() == ["Yes, abandon the game"]


async def test_a_confirmation_kept_by_a_replaced_host_no_longer_abandons(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        mod = discord_.user("mod", manage_channels=True)
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game join", user=carol)
        await discord_.command("game start", user=alice)
        confirm = (await discord_.command("game abandon", user=alice)).one()
        await discord_.command("game kick", {"player": alice}, user=mod)
        refused = await discord_.click(confirm.message_id or 0, label="Yes, abandon the game", user=alice)
        assert refused.last.ephemeral and "Only the host" in (refused.last.content or "")
        assert (await current_match(discord_)).status == "active"


async def test_a_host_leaving_a_lobby_of_computer_players_leaves_it_to_the_next_person_who_joins(
        database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, dave = discord_.user("alice"), discord_.user("bob"), discord_.user("dave", locale="de")
        await discord_.command("game new", {"game": "test-nim", "language": "de"}, user=alice)
        await discord_.command("game add-bot", user=alice)
        await discord_.command("game leave", user=alice)
        lobby = discord_.last_public_message()
        assert ("Es sitzt niemand mehr am Tisch: Wer als Erstes beitritt, ist Gastgeber; bis dahin kann nur, wer "
                "diesen Kanal verwalten darf, die Lobby schließen.") in lobby.content
        assert "(Gastgeber)" not in lobby.content
        match = await current_match(discord_)
        assert match.host_id == 0, "a computer player never hosts"
        await discord_.command("game join", user=bob)
        assert (await current_match(discord_)).host_id == bob.id, "the first person to join hosts it"
        assert "Bob (Gastgeber)" in discord_.last_public_message().content
        refused = await discord_.command("game start", user=dave)
        assert refused.last.ephemeral
        await discord_.command("game start", user=bob)
        assert (await current_match(discord_)).status == "active"


async def test_a_host_leaving_a_lobby_hands_it_to_the_next_person_seated(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game add-bot", user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game leave", user=alice)
        assert (await current_match(discord_)).host_id == bob.id, "the computer player seated first is skipped"
        assert "Bob has the host's powers now." in discord_.last_public_message().content


# --------------------------------------------------------------------------------------------- smaller refusals


async def test_abandon_pressed_from_another_channel_is_refused_as_a_control_of_another_channel(
        database: Path) -> None:
    """It said "That game has already ended" while the game went on."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        other = discord_.channel("elsewhere")
        forged = discord_.world.create_message(
            other.id, {"content": "Abandon?", "components": [{"type": 1, "components": [
                {"type": 2, "style": 4, "label": "Yes", "custom_id": f"xt:abandon:{match.id}"}]}]}, [],
            author=discord_.bot_user)
        replies = await discord_.click(forged, label="Yes", user=alice)
        assert replies.last.ephemeral
        assert "not valid here" in (replies.last.content or "")
        assert "already ended" not in (replies.last.content or "")
        assert (await current_match(discord_)).status == "active"


async def test_a_full_disk_is_named_and_does_not_point_to_a_command_that_fails_the_same_way(tmp_path: Path) -> None:
    """The apology said "/game board shows where the game stands", and /game board failed the same way."""
    async with DiscordHarness(create_bot(tmp_path / "full.sqlite3"), raise_errors=False) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob", locale="de")
        await discord_.bot.service.store.engine.execute("PRAGMA max_page_count = 1")  # no room to grow: "full"
        refused = None
        for number in range(200):  # new games until one needs a page the file may not grow by
            replies = await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=alice,
                                             channel=f"table-{number}")
            if replies.last.ephemeral and "board" not in (replies.last.content or ""):
                refused = replies.last.content or ""
                break
        assert refused == ("The game store has no room left on its disk, so nothing was saved and nothing changed. "
                           "Please tell the server's admins: everything works again as soon as there is room.")
        german = await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=bob,
                                        channel="table-de")
        assert (german.last.content or "").startswith("Der Spielspeicher hat auf seinem Datenträger keinen Platz")


def test_a_full_disk_is_recognised_on_both_engines_and_through_wrapping_errors() -> None:
    import sqlite3

    import asyncpg

    from bot.store import storage_full

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorname = "SQLITE_FULL"  # type: ignore[attr-defined]
    try:
        raise RuntimeError("the move failed") from asyncpg.DiskFullError("could not extend file")
    except RuntimeError as wrapped:
        assert storage_full(wrapped)
    assert storage_full(full)
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorname = "SQLITE_BUSY"  # type: ignore[attr-defined]
    assert not storage_full(busy) and not storage_full(ValueError("no"))


# ------------------------------------------------------------------------------ a game is as private as its channel


async def _staff_game(discord_: DiscordHarness) -> tuple[int, FakeUser, FakeUser]:
    """A finished game in #staff, a channel only the staff role may view; its number, a player and a staff member
    who did not play."""
    staff = discord_.role("staff")
    alice, bob = discord_.user("alice", roles=[staff]), discord_.user("bob", roles=[staff])
    carol = discord_.user("carol", roles=[staff])
    channel = discord_.overwrite("staff", deny=discord.Permissions(view_channel=True))
    discord_.overwrite(channel, staff, allow=discord.Permissions(view_channel=True))
    await discord_.command("game new", {"game": "test-nim"}, user=alice, channel=channel)
    await discord_.command("game join", user=bob, channel=channel)
    await discord_.command("game start", user=alice, channel=channel)
    return await finish_nim_in(discord_, channel, [alice, bob]), alice, carol


async def test_a_game_in_a_staff_only_channel_is_not_read_from_another_channel(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        number, alice, carol = await _staff_game(discord_)
        mallory = discord_.user("mallory")
        public_before = len(discord_.channel_messages())
        for path, options in (("game replay", {"match": number}), ("game replay", {"match": number, "public": True}),
                              ("game export", {"match": number})):
            refused = await discord_.command(path, options, user=mallory)
            assert refused.last.ephemeral and not refused.last.files
            assert (refused.last.content or "").startswith(f"Game #{number} was played in a channel you cannot see")
        german = (await discord_.command("game export", {"match": number},
                                         user=discord_.user("moritz", locale="de"))).last
        assert german.ephemeral and (german.content or "").startswith(
            f"Partie #{number} wurde in einem Kanal gespielt, den du nicht sehen kannst")
        history = (await discord_.command("game history", user=mallory)).last
        assert f"#{number} " not in (history.content or "") and "Test Nim" not in (history.content or "")
        assert len(discord_.channel_messages()) == public_before, "nothing of it was posted in #general"
        for reader in (alice, carol):  # a player, and a member who can view #staff
            export = (await discord_.command("game export", {"match": number}, user=reader)).last
            assert export.ephemeral and export.files
            replay = (await discord_.command("game replay", {"match": number}, user=reader)).last
            assert replay.ephemeral and replay.files
            history = (await discord_.command("game history", user=reader)).last
            assert f"#{number} · Test Nim" in (history.content or "")
        with pytest.raises(HarnessError):  # Discord offers no command in a channel the member cannot see
            discord_.command("game board", user=mallory, channel="staff")


async def test_a_staff_only_game_is_replayed_publicly_only_where_its_readers_are(database: Path) -> None:
    """A player (or a staff member) could post #staff's game, board and whole log, in #general with public:true."""
    async with DiscordHarness(create_bot(database)) as discord_:
        number, alice, carol = await _staff_game(discord_)
        staff = discord_.channel("staff")
        moritz = discord_.user("moritz", locale="de", roles=[discord_.role("staff")])
        public_before, staff_before = len(discord_.channel_messages()), len(discord_.channel_messages(staff))
        for asker in (alice, carol):
            refused = (await discord_.command("game replay", {"match": number, "public": True}, user=asker)).last
            assert refused.ephemeral and not refused.files
            assert refused.content == (f"Game #{number} was played in a channel that not everyone here can see, so "
                                       f"it is not posted here: replay it publicly in <#{staff.id}>, or here without "
                                       "public to see it yourself.")
        german = (await discord_.command("game replay", {"match": number, "public": True}, user=moritz)).last
        assert german.ephemeral and (german.content or "").startswith(
            f"Partie #{number} wurde in einem Kanal gespielt, den nicht jeder hier sehen kann")
        assert len(discord_.channel_messages()) == public_before, "nothing of it was posted in #general"
        private = (await discord_.command("game replay", {"match": number}, user=alice)).last
        assert private.ephemeral and private.files, "privately, as before"
        posted = await discord_.command("game replay", {"match": number, "public": True}, user=carol, channel=staff)
        assert [r.files for r in posted.public() if r.created], "in its own channel, for those who read it"
        assert len(discord_.channel_messages(staff)) == staff_before + 1


async def test_a_member_who_played_sees_the_game_after_losing_the_channel(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        number, alice, _ = await _staff_game(discord_)
        discord_.user("alice", roles=[])  # no longer staff: #staff is out of sight, the game is still hers
        replay = (await discord_.command("game replay", {"match": number}, user=alice)).last
        assert replay.ephemeral and replay.files
        history = (await discord_.command("game history", user=alice)).last
        assert f"#{number} · Test Nim" in (history.content or "")


# --------------------------------------------------------------------------------------------- floods


async def test_board_again_and_again_links_to_the_board_privately_until_a_minute_has_passed(database: Path) -> None:
    """300 /game board from a member who is not seated posted 306 public boards."""
    clock = FakeClock(datetime.now(UTC))
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        mallory, moritz = discord_.user("mallory"), discord_.user("moritz", locale="de")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        board = discord_.last_public_message(with_components=True)
        before = len(discord_.channel_messages())
        for _ in range(30):
            answer = (await discord_.command("game board", user=mallory)).last
            assert answer.ephemeral
            link = f"https://discord.com/channels/{discord_.world.guild_id}/{board.channel_id}/{board.id}"
            assert (answer.content or "").startswith("This board was posted <t:")
            assert link in (answer.content or "") and len(RELATIVE_TIME.findall(answer.content or "")) == 2
        german = (await discord_.command("game board", user=moritz)).last
        assert (german.content or "").startswith("Dieser Spielplan wurde <t:") and "erneut posten" in german.content
        assert len(discord_.channel_messages()) == before, "no board posted again"
        assert discord_.last_public_message(with_components=True).id == board.id, "the board keeps its buttons"
        clock.now = datetime.now(UTC) + timedelta(seconds=61)
        reposted = await discord_.command("game board", user=mallory)
        assert [r for r in reposted.public() if r.created], "a minute later it may be posted again"
        assert len(discord_.channel_messages()) == before + 1
        clock.now = datetime.now(UTC)  # Discord's time (the new board's id) and the bot's agree again
        again = (await discord_.command("game board", user=mallory)).last
        assert again.ephemeral and "This board was posted" in (again.content or "")
        assert len(discord_.channel_messages()) == before + 1


async def test_board_reposts_follow_the_servers_setting(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        shown = (await discord_.command("settings limits", {"board_seconds": 0}, user=admin)).last
        assert shown.ephemeral and shown.content == (
            "The limits are changed.\n\n" + shown.content.split("\n\n", 1)[1])
        assert ("- Limits per member (`/settings limits`): the same board posted again after no limit; a public "
                "replay per channel every 5 min; open lobbies: 3; game threads an hour: 5") in shown.content
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        before = len(discord_.channel_messages())
        for _ in range(3):
            await discord_.command("game board", user=bob)
        assert len(discord_.channel_messages()) == before + 3, "0: no limit, as before"


async def test_a_replay_is_private_unless_asked_public_and_then_once_per_channel_for_a_while(database: Path) -> None:
    """100 /game replay posted 107 public messages."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        mallory, moritz = discord_.user("mallory"), discord_.user("moritz", locale="de")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        await finish_nim(discord_, [alice, bob])
        number = (await current_match(discord_)).id
        before = len(discord_.channel_messages())
        for _ in range(5):
            replay = (await discord_.command("game replay", {"match": number}, user=mallory)).last
            assert replay.ephemeral
            assert [f.filename for f in replay.files] == ["board.png", f"test-nim-{number}-log.txt"]
        assert len(discord_.channel_messages()) == before, "private by default"
        posted = await discord_.command("game replay", {"match": number, "public": True}, user=mallory)
        assert [r.files for r in posted.public() if r.created], "a public replay when asked"
        assert len(discord_.channel_messages()) == before + 1
        for _ in range(5):
            refused = (await discord_.command("game replay", {"match": number, "public": True}, user=mallory)).last
            assert refused.ephemeral and not refused.files
            assert (refused.content or "").startswith("A replay was posted in this channel a short while ago.")
            assert len(RELATIVE_TIME.findall(refused.content or "")) == 1
        german = (await discord_.command("game replay", {"match": number, "public": True}, user=moritz)).last
        assert (german.content or "").startswith("In diesem Kanal wurde vor Kurzem eine Wiederholung gepostet.")
        assert len(discord_.channel_messages()) == before + 1
        elsewhere = await discord_.command("game replay", {"match": number, "public": True}, user=mallory,
                                           channel="elsewhere")
        assert [r for r in elsewhere.public() if r.created], "the limit is per channel"


async def test_one_member_cannot_open_lobbies_and_threads_without_end(database: Path) -> None:
    """30 /game new thread:true made 30 threads and 30 announcements."""
    async with DiscordHarness(create_bot(database)) as discord_:
        mallory, moritz = discord_.user("mallory"), discord_.user("moritz", locale="de")
        threads_before = len(discord_.world.threads)
        answers = [(await discord_.command("game new", {"game": "test-nim", "thread": True}, user=mallory)).last
                   for _ in range(6)]
        assert len(discord_.world.threads) == threads_before + 3, "three open lobbies at most (the default)"
        for refused in answers[3:]:
            assert refused.ephemeral
            assert (refused.content or "").startswith("You already host as many open lobbies as this server allows")
            assert len(RELATIVE_TIME.findall(refused.content or "")) == 1, "when the oldest closes by itself"
        announcements = [m for m in discord_.channel_messages() if "opened a game of Test Nim" in m.content]
        assert len(announcements) == 3
        # Solo games start at once (no lobby): the threads an hour stop them.
        solo = [(await discord_.command("game new", {"game": "test-nim", "mode": "solo", "thread": True},
                                        user=mallory)).last for _ in range(4)]
        assert len(discord_.world.threads) == threads_before + 5, "five game threads an hour (the default)"
        assert all((answer.content or "").startswith("You have opened as many game threads in the last hour")
                   for answer in solo[2:])
        assert all(len(RELATIVE_TIME.findall(answer.content or "")) == 1 for answer in solo[2:])
        german = (await discord_.command("game new", {"game": "test-nim", "mode": "solo", "thread": True},
                                         user=discord_.user("mallory", locale="de"))).last
        assert german.ephemeral and (german.content or "").startswith("Du hast in der letzten Stunde so viele")
        await discord_.command("game new", {"game": "test-nim", "thread": True}, user=moritz)
        assert len(discord_.world.threads) == threads_before + 6, "another member is not limited by mallory's"


async def test_two_bot_processes_on_one_database_keep_one_limit(database: Path) -> None:
    """Two processes sharing the database: a public replay claimed by one is refused by the other (claimed in one
    statement), and the lobbies one member hosts are counted across both."""
    world = World()
    async with DiscordHarness(create_bot(database), world=world) as first, \
            DiscordHarness(create_bot(database), world=world) as second:
        alice, bob = first.user("alice"), first.user("bob")
        await first.command("game new", {"game": "test-nim"}, user=alice)
        await first.command("game join", user=bob)
        await first.command("game start", user=alice)
        await finish_nim(first, [alice, bob])
        number = (await current_match(first)).id
        both = await first.concurrently(
            first.command("game replay", {"match": number, "public": True}, user=alice),
            second.command("game replay", {"match": number, "public": True}, user=bob))
        posted = [replies for replies in both if [r for r in replies.public() if r.files]]
        refused = [replies for replies in both if (replies.last.content or "").startswith("A replay was posted")]
        assert len(posted) == 1 and len(refused) == 1
        await first.command("game new", {"game": "test-nim"}, user=alice, channel="one")
        await second.command("game new", {"game": "test-nim"}, user=alice, channel="two")
        await first.command("game new", {"game": "test-nim"}, user=alice, channel="three")
        fourth = (await second.command("game new", {"game": "test-nim"}, user=alice, channel="four")).last
        assert (fourth.content or "").startswith("You already host as many open lobbies")
        assert "<#" in (fourth.content or "")
