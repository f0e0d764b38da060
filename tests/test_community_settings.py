"""/settings and games in threads, through the offline Discord harness (issue 12)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.app import create_bot
from bot.offline import THREAD_PUBLIC, DiscordHarness
from tests.tables import current_match, player_to_move
from tests.test_community_reminders import FakeClock, board, reminders


async def test_settings_are_for_server_managers_and_hidden_from_others(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        group = discord_.bot.tree.get_command("settings")
        assert group is not None and group.default_permissions == discord.Permissions(manage_guild=True)
        member = discord_.user("alice")
        for path, options in (("settings show", {}), ("settings reminders", {"hours": 2.0}),
                              ("settings threads", {"enabled": True})):
            refused = await discord_.command(path, options, user=member)
            assert refused.one().ephemeral
            assert refused.one().content == ("Only members with the Manage Server permission can see or change "
                                             "the bot's settings.")
        shown = await discord_.command("settings show", user=discord_.user("admin", manage_guild=True))
        assert shown.one().ephemeral
        assert shown.one().content == "\n".join([
            "**This server's settings**",
            "- Reminders (`/settings reminders`): every 12 h; after three, the channel is told the game stalled",
            "- Turn timer (`/settings timer`): off (when on: a normal computer player plays the turn)",
            "- Board style (`/settings board`): one board message per turn, updated as the turn goes on",
            "- Games in threads (`/settings threads`): off",
            "- Teaching tables (`/settings teach`): off",
            "- Channels where games may start (`/settings channels`): any channel",
            "- Default modes (`/settings mode`): each game's first mode",
            "- Lobbies expire after (`/settings lobby-expiry`): 24 h",
            "- Days each member may be away a year (`/settings away`, for `/me away`): 21",
            "- Clock for new games (`/settings clock`): none",
            "- Language of new tables (`/settings language`): the server's Discord language",
            "- Limits per member (`/settings limits`): the same board posted again after 60 s; a public replay per "
            "channel every 5 min; open lobbies: 3; game threads an hour: 5",
        ])


async def test_settings_show_reads_without_contradictions_when_reminders_and_the_timer_are_off(
        database: Path) -> None:
    """Reminders off used to read "off; after three, the channel is told the game stalled", and the skip policy
    nested brackets: "off (when on: ... a pass (else a computer player plays it))"."""
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        await discord_.command("settings reminders", {"hours": 0.0}, user=admin)
        await discord_.command("settings timer", {"hours": 48.0, "policy": "skip"}, user=admin)
        shown = (await discord_.command("settings show", user=admin)).one().content.splitlines()
        assert shown[1:3] == [
            "- Reminders (`/settings reminders`): off",
            "- Turn timer (`/settings timer`): 2 days per turn; then the turn is skipped where the game allows a "
            "pass, else a computer player plays it",
        ]
        await discord_.command("settings timer", {"hours": 0.0}, user=admin)
        shown = (await discord_.command("settings show", user=admin)).one().content.splitlines()
        assert shown[2] == ("- Turn timer (`/settings timer`): off (when on: the turn is skipped where the game "
                            "allows a pass, else a computer player plays it)")


async def test_bad_values_are_explained_privately_and_change_nothing(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        cases = [
            ("settings reminders", {"hours": -3.0},
             "The reminder interval is a number of hours from 0.25 to 336 (0 turns it off); -3 is not allowed."),
            ("settings reminders", {"hours": 0.1},
             "The reminder interval is a number of hours from 0.25 to 336 (0 turns it off); 0.1 is not allowed."),
            ("settings timer", {"hours": 1000.0},
             "A turn timer is a number of hours from 0.25 to 336 (0 turns it off); 1000 is not allowed."),
            ("settings lobby-expiry", {"hours": 0.0},
             "The lobby expiry is a number of hours from 1 to 336; 0 is not allowed."),
            ("settings channels", {"action": "add"},
             "Name the channel to add: /settings channels action:add channel:#games."),
            ("settings channels", {"action": "remove", "channel": discord_.channel("games")},
             f"<#{discord_.channel('games').id}> is not on the list; /settings show lists it."),
            ("settings mode", {"game": "test-nim", "mode": "duel"},
             "Test Nim has no mode called 'duel'. Choose one of: Standard, Solo."),
        ]
        for path, options, answer in cases:
            replies = await discord_.command(path, options, user=admin)
            assert [(r.ephemeral, r.content) for r in replies.messages()] == [(True, answer)], path
        assert await discord_.bot.service.store.settings(discord_.guild.id) == {}
        timer = await discord_.command("game new", {"game": "test-nim", "timer": -1.0}, user=admin)
        assert timer.last.content.startswith("A turn timer is a number of hours from 0.25 to 336")
        assert await discord_.bot.service.open_match(discord_.default_channel.id) is None


async def test_reminder_interval_and_timer_settings_take_effect_from_the_next_turn(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        done = await discord_.command("settings reminders", {"hours": 3.0}, user=admin)
        assert done.one().content.startswith("Reminders every 3 h from the next turn on.")
        await discord_.command("game new", {"game": "test-nim", "seed": 4}, user=discord_.user("alice"))
        await discord_.command("game join", user=discord_.user("bob"))
        await discord_.command("game start", user=discord_.user("alice"))
        users = [discord_.user("alice"), discord_.user("bob")]
        clock.advance(3)
        await discord_.bot.run_due_work()
        assert [m.notified for m in reminders(discord_)] == [((await player_to_move(discord_, users)).id,)]
        assert "(3 h so far)" in reminders(discord_)[0].content
        off = await discord_.command("settings reminders", {"hours": 0.0}, user=admin)
        assert off.one().content.startswith("Reminders are off from the next turn on.")
        await discord_.click(board(discord_), label="Take 1", user=await player_to_move(discord_, users))
        clock.advance(100)
        await discord_.bot.run_due_work()
        assert len(reminders(discord_)) == 1
        timer = await discord_.command("settings timer", {"hours": 48.0, "policy": "skip"}, user=admin)
        assert timer.one().content.startswith("Turn timer: 2 days per turn, from the next turn on.")
        assert "- Turn timer (`/settings timer`): 2 days per turn; then the turn is skipped where the game allows " \
               "a pass, else a computer player plays it" in timer.one().content
        match = await current_match(discord_)
        await discord_.click(board(discord_), label="Take 1", user=await player_to_move(discord_, users))
        pending = await discord_.bot.service.store.pending_work(match.id)
        assert [w.kind for w in pending] == ["timer"]
        assert pending[0].due_at == int(clock.now.timestamp()) + 48 * 3600


async def test_board_style_per_step_posts_a_new_board_after_every_move(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        await discord_.command("settings board", {"style": "step"}, user=admin)
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        same_player_moves = 0
        for _ in range(12):
            match = await current_match(discord_)
            mover = await player_to_move(discord_, [alice, bob])
            labels = [label for label in board(discord_).button_labels()
                      if label not in ("Show mine", "Details", "What's this?")]
            replies = await discord_.click(board(discord_), label=labels[0], user=mover)
            after = await current_match(discord_)
            (new_board,) = [r for r in replies.public() if r.created and r.files]  # a new board every move
            if after.status == "active" and await player_to_move(discord_, [alice, bob]) is mover:
                same_player_moves += 1
                assert new_board.notified == (), "a step within the player's own turn pings nobody"
            elif after.status == "active":
                assert new_board.notified == ((await player_to_move(discord_, [alice, bob])).id,)
            assert after.version > match.version
        assert same_player_moves > 0, "the style was tested on moves that do not pass the turn"


async def test_channels_and_default_modes_decide_where_and_how_games_start(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin, alice = discord_.user("admin", manage_guild=True), discord_.user("alice")
        games = discord_.channel("games")
        added = await discord_.command("settings channels", {"action": "add", "channel": games}, user=admin)
        assert added.one().content.startswith(f"Games may start in <#{games.id}> (and its threads).")
        twice = await discord_.command("settings channels", {"action": "add", "channel": games}, user=admin)
        assert twice.one().content == f"<#{games.id}> is already on the list."
        refused = await discord_.command("game new", {"game": "test-nim"}, user=alice)
        assert refused.last.ephemeral and refused.last.content == (
            f"Games start in <#{games.id}> on this server (a server manager chooses with /settings channels).")
        assert await discord_.bot.service.open_match(discord_.default_channel.id) is None
        mode = await discord_.command("settings mode", {"game": "test-nim", "mode": "solo"}, user=admin)
        assert mode.one().content.startswith("Test Nim now starts in: Solo (unless /game new names another mode).")
        await discord_.command("game new", {"game": "test-nim"}, user=alice, channel=games)
        match = await discord_.bot.service.current(games.id)
        assert (match.mode, match.status) == ("solo", "active")
        shown = await discord_.command("settings show", user=admin)
        assert f"- Channels where games may start (`/settings channels`): <#{games.id}>" in shown.one().content
        assert "- Default modes (`/settings mode`): Test Nim: Solo" in shown.one().content
        await discord_.command("settings mode", {"game": "test-nim"}, user=admin)
        removed = await discord_.command("settings channels", {"action": "remove", "channel": games}, user=admin)
        assert removed.one().content.startswith(f"<#{games.id}> is off the list.")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        assert (await current_match(discord_)).mode == "standard"
        await discord_.command("settings channels", {"action": "add", "channel": games}, user=admin)
        cleared = await discord_.command("settings channels", {"action": "clear"}, user=admin)
        assert cleared.one().content.startswith("Games may start in any channel.")
        assert await discord_.bot.service.store.settings(discord_.guild.id) == {}


async def test_a_game_in_a_thread_is_that_threads_game(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        general = discord_.default_channel
        replies = await discord_.command("game new", {"game": "monster-expedition", "thread": True}, user=alice)
        (thread,) = discord_.world.threads.values()
        assert (thread.name, thread.type, thread.parent_id) == ("Monster Expedition — Alice", THREAD_PUBLIC,
                                                                general.id)
        assert replies.ephemeral()[0].content == f"Your game is open in <#{thread.id}>."
        told = discord_.channel_messages(general)
        assert [m.content for m in told] == [f"Alice opened a game of Monster Expedition in <#{thread.id}>: join it "
                                             "there."]
        assert told[0].notified == ()
        lobby = discord_.channel_messages(thread)
        assert len(lobby) == 1 and lobby[0].content.startswith("**Monster Expedition**")
        assert lobby[0].button_labels() == ["Join", "Leave", "Start"]
        # The thread is the game's channel: the channel itself stays free for another game.
        await discord_.command("game new", {"game": "test-nim", "seed": 4}, user=bob)
        assert (await current_match(discord_)).game == "test-nim"
        await discord_.click(lobby[0], label="Join", user=bob)
        match = await discord_.bot.service.current(thread.id)
        assert [s.name for s in match.seats] == ["Alice", "Bob"] and match.game == "monster-expedition"
        inner = await discord_.command("game new", {"game": "test-nim", "thread": True}, user=bob, channel=thread)
        assert inner.last.content == ("This is already a thread: /game new without thread:true opens the game right "
                                      "here.")
        busy = await discord_.command("game new", {"game": "test-nim"}, user=bob, channel=thread)
        assert "already has a lobby for Monster Expedition" in busy.last.content


async def test_with_threads_on_every_new_game_gets_its_own_thread(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin, alice, bob = discord_.user("admin", manage_guild=True), discord_.user("alice"), discord_.user("bob")
        await discord_.command("settings threads", {"enabled": True}, user=admin)
        await discord_.command("game new", {"game": "test-nim", "seed": 4}, user=alice)
        await discord_.command("game new", {"game": "test-nim", "seed": 5}, user=alice)
        first, second = discord_.world.threads.values()
        assert first.name == second.name == "Test Nim — Alice" and first.id != second.id
        await discord_.command("game join", user=bob, channel=second)
        await discord_.command("game start", user=alice, channel=second)
        board_message = discord_.channel_messages(second)[-1]
        assert board_message.files and board_message.channel_id == second.id
        match = await discord_.bot.service.current(second.id)
        assert match.status == "active" and match.channel_id == second.id
        assert (await discord_.bot.service.current(first.id)).status == "lobby"
        here = await discord_.command("game new", {"game": "test-nim", "thread": False}, user=bob)
        assert "Your lobby is open below" in here.ephemeral()[0].content
        assert (await current_match(discord_)).channel_id == discord_.default_channel.id
        solo = await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=bob,
                                      channel=discord_.channel("other"))
        (third,) = [t for t in discord_.world.threads.values() if t.parent_id == discord_.channel("other").id]
        assert solo.ephemeral()[0].content == f"Your game is open in <#{third.id}>."
        assert discord_.channel_messages(third)[-1].notified == (bob.id,), "a solo game starts in its thread"


async def test_the_harness_creates_threads_as_discord_does(database: Path) -> None:
    """Threads in the offline Discord: a name of 1-100 characters, private unless asked, never inside a thread."""
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        general = discord_.bot.get_channel(discord_.default_channel.id)
        assert isinstance(general, discord.TextChannel)
        with pytest.raises(discord.Forbidden):  # the bot is not given Create Private Threads
            await general.create_thread(name="quiet")
        discord_.world.bot_permissions.create_private_threads = True
        private = await general.create_thread(name="quiet")
        public = await general.create_thread(name="open", type=discord.ChannelType.public_thread)
        assert (private.type, public.type) == (discord.ChannelType.private_thread, discord.ChannelType.public_thread)
        assert discord_.guild.get_thread(public.id) is not None, "cached as the THREAD_CREATE event would"
        with pytest.raises(discord.HTTPException), discord_.refused_as_discord_would():
            await general.create_thread(name="x" * 101, type=discord.ChannelType.public_thread)
        with pytest.raises(discord.HTTPException):
            await discord_.bot.http.start_thread_without_message(public.id, name="inner", auto_archive_duration=60,
                                                                 type=11)
        sent = await public.send("hello")
        assert discord_.channel_messages(public.id)[-1].id == sent.id
        await public.delete()
        with pytest.raises(discord.NotFound):
            await public.send("gone")


async def test_the_default_mode_is_chosen_from_the_games_own_modes(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        choices = await discord_.autocomplete("settings mode", {"game": "test-nim", "mode": "so"}, focused="mode",
                                              user=admin)
        assert choices == [{"name": "Solo (1 player)", "value": "solo"}]


async def test_without_the_thread_permission_the_host_is_told_what_to_do(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        discord_.world.bot_permissions.create_public_threads = False
        alice = discord_.user("alice")
        refused = await discord_.command("game new", {"game": "test-nim", "thread": True}, user=alice)
        assert [(r.ephemeral, r.content) for r in refused.messages()] == [(True, (
            "I cannot create threads here (I need the Create Public Threads permission). Ask a server manager, or "
            "use thread:false to play in this channel."))]
        assert discord_.world.threads == {} and discord_.channel_messages() == []
        assert await discord_.bot.service.open_match(discord_.default_channel.id) is None
        general = discord_.bot.get_channel(discord_.default_channel.id)
        with pytest.raises(discord.Forbidden):  # the fake Discord refuses it too, as the real one would
            await general.create_thread(name="x", type=discord.ChannelType.public_thread)


async def test_a_solo_campaign_started_with_hunt_solo_keeps_to_the_servers_channels_and_threads(database: Path
                                                                                             ) -> None:
    """/hunt solo opened its table anywhere, in any channel and never in a thread: it skipped the server's settings
    that /game new applies."""
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin, alice = discord_.user("admin", manage_guild=True), discord_.user("alice")
        games = discord_.channel("games")
        await discord_.command("settings channels", {"action": "add", "channel": games}, user=admin)
        refused = await discord_.command("hunt solo", user=alice)
        assert refused.last.ephemeral and refused.last.content == (
            f"Games start in <#{games.id}> on this server (a server manager chooses with /settings channels).")
        assert await discord_.bot.service.open_match(discord_.default_channel.id) is None
        await discord_.command("settings threads", {"enabled": True}, user=admin)
        opened = await discord_.command("hunt solo", {"camps": "II"}, user=alice, channel=games)
        (thread,) = discord_.world.threads.values()
        assert thread.parent_id == games.id
        assert opened.ephemeral()[0].content == f"Your game is open in <#{thread.id}>."
        match = await discord_.bot.service.current(thread.id)
        assert (match.game, match.mode, match.status) == ("monster-expedition", "solo", "active")
        assert (match.state["solo"]["expedition"], match.state["players"][0]["set"]) == (1, "II")
        assert discord_.channel_messages(thread)[-1].notified == (alice.id,)
