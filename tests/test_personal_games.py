"""/games (issue 34): every game a member sits in, across servers, privately, theirs to move first; from a server's
channel, the bot's DMs and (user-installed) private channels; through the offline Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness, FakeUser, HarnessError
from tests.clock import START, FakeClock
from tests.tables import take

STARTED = int(START.timestamp())


async def open_game(discord_: DiscordHarness, channel: str, players: list[FakeUser], **options: object) -> None:
    """/game new in `channel` by the first player, the others join, the host starts."""
    await discord_.command("game new", {"game": "test-nim", "seed": 4, **options}, user=players[0], channel=channel)
    for player in players[1:]:
        await discord_.command("game join", user=player, channel=channel)
    await discord_.command("game start", user=players[0], channel=channel)


async def to_move(discord_: DiscordHarness, channel: str) -> int:
    """The user id of the player to move in the channel's game."""
    match = await discord_.bot.service.open_match(discord_.channel(channel).id)  # type: ignore[attr-defined]
    return match.user_at(find_game(match.game).to_act(match.state)[0]).user_id


def board_of(discord_: DiscordHarness, channel: str) -> int:
    """The id of the channel's latest board message."""
    return [m for m in discord_.channel_messages(channel) if m.files][-1].id


def link(discord_: DiscordHarness, channel: str) -> str:
    found = discord_.channel(channel)
    return f"https://discord.com/channels/{found.guild_id}/{found.id}/{board_of(discord_, channel)}"


async def three_games(discord_: DiscordHarness) -> tuple[FakeUser, FakeUser, FakeUser]:
    """Alice sits in two games on two servers (hers to move in one), Bob and Carol in a third without her."""
    alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
    second = discord_.guild_named("Second Server")
    discord_.channel("tavern", guild=second)
    await open_game(discord_, "general", [alice, bob])
    await open_game(discord_, "tavern", [bob, alice], timer=24)
    await open_game(discord_, "lounge", [carol, bob])
    if await to_move(discord_, "general") == alice.id:  # Bob to move at the first server's table
        await take_in(discord_, "general", alice)
    if await to_move(discord_, "tavern") != alice.id:  # Alice to move at the second's
        await take_in(discord_, "tavern", bob)
    return alice, bob, carol


async def take_in(discord_: DiscordHarness, channel: str, user: FakeUser) -> None:
    board = [m for m in discord_.channel_messages(channel) if "Take 1" in m.button_labels()][-1]
    replies = await discord_.click(board, label="Take 1", user=user)
    assert not replies.ephemeral()


async def test_games_lists_every_game_across_servers_yours_to_move_first(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob, _carol = await three_games(discord_)
        general, tavern = discord_.channel("general"), discord_.channel("tavern")
        answer = (await discord_.command("games", user=alice, channel="lounge")).one()
        assert answer.ephemeral and answer.notified == ()
        assert answer.content == "\n".join([
            "Your games under way (2), yours to move first:",
            f"1. **Test Nim** — Second Server, <#{tavern.id}>: **your turn** since <t:{STARTED}:R> · "
            f"deadline <t:{STARTED + 24 * 3600}:R> · [board]({link(discord_, 'tavern')})",
            f"2. **Test Nim** — Test Server, <#{general.id}>: Bob to move since <t:{STARTED}:R> · "
            f"[board]({link(discord_, 'general')})",
        ])
        options = answer.select_options("xt:jump")
        assert [(o["label"], o["description"]) for o in options] == [
            ("Test Nim — Second Server", "your turn"), ("Test Nim — Test Server", "Bob to move")]
        jumped = (await discord_.select(answer, "xt:jump", [options[0]["value"]], user=alice)).one()
        assert jumped.ephemeral and jumped.content.endswith(f"[board]({link(discord_, 'tavern')})")
        assert [(b["label"], b["url"]) for b in jumped.buttons()] == [("Go to the board", link(discord_, "tavern"))]
        bobs = (await discord_.command("games", user=bob)).one().content
        assert bobs.startswith("Your games under way (3), yours to move first:\n1. **Test Nim** — Test Server")


async def test_games_works_in_the_bots_dms_and_with_a_user_install_in_private_channels(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob, _carol = await three_games(discord_)
        in_server = (await discord_.command("games", user=alice)).one().content
        in_dm = (await discord_.command("games", user=alice, channel=discord_.dm(alice))).one()
        assert in_dm.ephemeral and in_dm.content == in_server
        value = in_dm.select_options("xt:jump")[0]["value"]
        jumped = (await discord_.select(in_dm, "xt:jump", [value], user=alice)).one()
        assert jumped.ephemeral and [b["url"] for b in jumped.buttons()] == [link(discord_, "tavern")]
        friends = discord_.private_channel(alice, bob)
        with pytest.raises(HarnessError, match="only a user install"):
            discord_.command("games", user=alice, channel=friends)
        discord_.install_app(alice)
        pending = discord_.command("games", user=alice, channel=friends)
        assert pending.payload["context"] == 2 and pending.payload["authorizing_integration_owners"] == {
            "1": str(alice.id)}
        assert (await pending).one().content == in_server
        with pytest.raises(HarnessError, match="in a dm_channel"):  # moves stay in the game's channel
            discord_.command("game board", user=alice, channel=discord_.dm(alice))


async def test_games_ended_lists_the_latest_finished_games_with_results(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        assert (await discord_.command("games", {"ended": True}, user=alice)).one().content == (
            "You have no finished games yet.")
        await open_game(discord_, "general", [alice, bob])
        for _ in range(40):
            match = await discord_.bot.service.current(discord_.channel("general").id)  # type: ignore[attr-defined]
            if match.status != "active":
                break
            mover = alice if await to_move(discord_, "general") == alice.id else bob
            await take(discord_, mover)
        winner = match.user_at(find_game(match.game).outcome(match.state).winners[0]).user_id
        loser = bob if winner == alice.id else alice
        listed = (await discord_.command("games", {"ended": True}, user=loser)).one().content
        general = discord_.channel("general")
        assert listed.startswith(f"Your latest finished games (1):\n1. **Test Nim** — Test Server, <#{general.id}>: "
                                 "not won (score 0) · ended <t:")
        assert listed.endswith(f"[board]({link(discord_, 'general')})")
        assert (await discord_.command("games", user=loser)).one().content.startswith(
            "You sit in no game under way.")


async def test_games_answers_in_the_readers_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice, _bob, _carol = await three_games(discord_)
        discord_.user("alice", locale="de")
        answer = (await discord_.command("games", user=alice, channel=discord_.dm(alice))).one()
        assert answer.content.startswith("Deine laufenden Spiele (2), die, in denen du am Zug bist, zuerst:\n")
        assert "**du bist am Zug** seit <t:" in answer.content and "Bob am Zug seit" in answer.content


async def test_the_personal_commands_register_for_user_installs_and_dms(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        await discord_.bot.tree.sync()
        body = [r for r in discord_.world.requests if r["route"] == "PUT /applications/{application_id}/commands"]
    commands = {command["name"]: command for command in body[-1]["body"]}
    assert commands["games"]["integration_types"] == [0, 1] and commands["games"]["contexts"] == [0, 1, 2]
    assert commands["games"]["name_localizations"]["de"] == "meine-spiele"
    assert commands["game"].get("contexts") in ([0], None) and commands["game"].get("integration_types") in ([0], None)


async def test_games_shows_twenty_five_and_counts_the_rest(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice = discord_.user("alice")
        for table in range(27):  # a solo game starts at once: Alice to move in each
            await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=alice,
                                   channel=f"solo-{table}")
        replies = await discord_.command("games", user=alice)
        text = "\n".join(reply.content for reply in replies.messages())
        assert text.startswith("Your games under way (27), yours to move first:\n1. **Test Nim**")
        assert "\n25. **Test Nim**" in text and "\n26. " not in text
        assert text.endswith("… and 2 more not shown.")
        assert all(len(reply.content) <= 2000 for reply in replies.messages())
        assert len(replies.messages()[-1].select_options("xt:jump")) == 25
