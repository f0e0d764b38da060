"""The platform through discord.py's real interaction path (bot/offline.py), with the test-only Nim game."""

from __future__ import annotations

import re
from pathlib import Path

from bot.app import create_bot
from bot.offline import DiscordHarness, Message, Replies
from tests.tables import open_table, player_to_move


def _pile(message: Message) -> int:
    return int(message.content.rsplit("(", 1)[1].split(" left")[0])


async def test_lobby_to_finished_game_through_buttons(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        replies = await discord_.command("game new", {"game": "test-nim", "seed": 3}, user=alice)
        assert "lobby is open" in (replies.ephemeral()[0].content or "")
        (reply,) = replies.public()
        assert "Test Nim" in (reply.content or "") and "A seed was chosen" in (reply.content or "")
        assert reply.button_labels() == ["Join", "Leave", "Start"]
        lobby = discord_.last_public_message()
        await discord_.click(lobby, label="Join", user=bob)
        lines = discord_.last_public_message().content.split("\n")
        assert lines[:-1] == [  # the seed line stays for whoever reads it later
            "**Test Nim** — Standard (2-3 players)", "Take 1-3 stones; the last stone wins.", "Language: English",
            "A seed was chosen: shuffles and dice are reproducible. Its number is shown when the game ends.", "Seated:",
            "1. Alice (host)", "2. Bob", "Join with the button or `/game join`; the host starts with Start or "
            "`/game start`."]
        assert re.fullmatch(r"The lobby closes <t:\d+:R> if nobody starts it\.", lines[-1])
        assert len(discord_.channel_messages()) == 1  # joining updates the lobby message in place
        replies = await discord_.click(lobby, label="Start", user=alice)
        board = replies.public()[-1]
        assert board.created and board.notified == (alice.id,)
        assert board.files and board.files[0].image().format == "PNG"
        assert f"<@{alice.id}>" in (board.content or "")
        assert board.button_labels() == ["Take 1", "Take 2", "Take 3", "Show mine", "Details"]
        players = [alice, bob]
        turn = 0
        while True:
            message = discord_.last_public_message(with_components=True)
            count = min(3, _pile(message))
            replies = await discord_.click(message, label=f"Take {count}", user=players[turn])
            turn = 1 - turn
            final = replies.public()[-1]
            if "wins" in (final.content or ""):
                break
        assert final.button_labels() == ["Show mine", "Details"]
        assert final.files and "took the last stone" in (final.content or "")
        # The game is over: moves are refused privately, the board can still be shown (just posted: a link to it).
        late = (await discord_.command("game board", user=bob)).last
        assert late.ephemeral and f"/{final.channel_id}/{final.message_id}" in (late.content or "")


async def test_bad_input_is_answered_privately_and_changes_nothing(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        reply = (await discord_.command("game start", user=alice)).one()
        assert reply.ephemeral and "no game in this channel" in (reply.content or "")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        reply = (await discord_.command("game new", {"game": "test-nim"}, user=bob)).one()
        assert reply.ephemeral and "already has a lobby for Test Nim" in (reply.content or "")
        reply = (await discord_.command("game start", user=alice)).one()
        assert reply.ephemeral and "needs 2 to 3 players" in (reply.content or "")
        await discord_.command("game join", user=bob)
        reply = (await discord_.command("game start", user=bob)).one()
        assert reply.ephemeral and "Only the host (Alice)" in (reply.content or "")
        await discord_.command("game start", user=alice)
        board = discord_.last_public_message(with_components=True)
        before = len(discord_.channel_messages())
        reply = (await discord_.click(board, label="Take 1", user=bob)).one()
        assert reply.ephemeral and "These buttons are for Alice" in (reply.content or "")
        reply = (await discord_.click(board, label="Take 1", user=carol)).one()
        assert reply.ephemeral and "not playing" in (reply.content or "")
        reply = (await discord_.command("game mine", user=carol)).one()
        assert reply.ephemeral and "not playing" in (reply.content or "")
        reply = (await discord_.command("game abandon", user=bob)).one()
        assert reply.ephemeral and "Only the host" in (reply.content or "")
        assert len(discord_.channel_messages()) == before  # nothing public was posted
        # a stale board: two presses on the same board, the second lands after the first was applied
        _, second = await discord_.concurrently(discord_.click(board, label="Take 1", user=alice),
                                                discord_.click(board, label="Take 2", user=alice))
        stale = Replies(second).ephemeral()[-1]
        assert "out of date" in (stale.content or "") and stale.files  # it shows the current board
        # once the new board is up, the old one has no buttons left to press
        assert discord_.world.get_message(board.id).buttons() == []
        assert discord_.last_public_message().button_labels()[-2:] == ["Show mine", "Details"]
        mine = (await discord_.command("game mine", user=alice)).one()
        assert mine.ephemeral and "Your secret number is" in (mine.content or "")
        # hidden information never reaches a public message
        secret = (mine.content or "").rsplit(" ", 1)[-1].rstrip(".")
        assert all(secret not in (m.content or "") for m in discord_.channel_messages())


async def test_a_restart_continues_the_game_and_old_buttons_still_work(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2, seed=9)
        board = discord_.last_public_message(with_components=True)
        world = discord_.world
    # a new bot object on the same database file: the board posted before the restart still works
    async with DiscordHarness(create_bot(database), world=world) as restarted:
        replies = await restarted.click(board, label="Take 2", user=alice)
        after = replies.public()[-1]
        assert "Alice took 2." in (after.content or "") and f"<@{bob.id}>" in (after.content or "")
        mine = (await restarted.click(after.message_id or 0, label="Show mine", user=bob)).one()
        assert mine.ephemeral and "secret" in (mine.content or "")


async def test_two_presses_of_the_same_button_apply_once(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=4)
        board = discord_.last_public_message(with_components=True)
        first, second = await discord_.concurrently(discord_.click(board, label="Take 1", user=alice),
                                                    discord_.click(board, label="Take 1", user=alice))
        outcomes = sorted(bool(r.public()) for r in (Replies(first), Replies(second)))
        assert outcomes == [False, True]
        log = (await discord_.command("game log", {"count": 50}, user=alice)).one()
        assert log.ephemeral and (log.content or "").count("Alice took 1.") == 1


async def test_abandon_log_rules_and_leave(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob", manage_channels=True)
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        reply = (await discord_.command("game join", user=bob)).one("followup")
        assert reply.ephemeral and "You are seated" in (reply.content or "")
        assert "2. Bob" in discord_.last_public_message().content
        reply = (await discord_.command("game leave", user=bob)).one("followup")
        assert reply.ephemeral and "You left the lobby" in (reply.content or "")
        assert "2. Bob" not in discord_.last_public_message().content
        assert len(discord_.channel_messages()) == 1  # one lobby message, kept up to date
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        rules = (await discord_.command("game rules", user=bob)).one()
        assert rules.ephemeral and "last stone" in rules.embed["description"]
        confirm = (await discord_.command("game abandon", user=bob)).one()  # a channel manager may
        assert confirm.ephemeral and confirm.button_labels() == ["Yes, abandon the game"]
        replies = await discord_.click(confirm.message_id or 0, label="Yes, abandon the game", user=bob)
        abandoned = [r.content or "" for r in replies.public()]
        assert any("abandoned game #" in text and "(Test Nim)" in text for text in abandoned)
        reply = (await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=bob)).last
        assert reply.files and "Bob to take" in (reply.content or "")  # solo starts at once, channel free again


async def test_an_abandoned_board_tells_the_last_move_and_says_abandoned_once(database: Path) -> None:
    """The abandoned board read "The game was abandoned." and then "**This game was abandoned.**"."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=4)
        mover = await player_to_move(discord_, [alice, discord_.user("bob")])
        await discord_.click(discord_.last_public_message(with_components=True), label="Take 1", user=mover)
        board = discord_.last_public_message(with_components=True)
        confirm = (await discord_.command("game abandon", user=alice)).one()
        await discord_.click(confirm.message_id or 0, label="Yes, abandon the game", user=alice)
        content = discord_.world.get_message(board.id).content
        assert content == f"{mover.global_name} took 1.\n**This game was abandoned.**"
        again = (await discord_.command("game board", user=alice)).public()[-1]
        assert again.content == content and again.notified == ()


async def test_a_select_menu_under_the_board_applies_its_option_once(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=4)
        board = discord_.last_public_message(with_components=True)
        (menu,) = board.selects()
        assert [o["label"] for o in board.select_options(menu["custom_id"])] == ["1 stone(s)", "2 stone(s)",
                                                                                "3 stone(s)"]
        applied, late = await discord_.concurrently(discord_.select(board, menu["custom_id"], ["1"], user=alice),
                                                    discord_.select(board, menu["custom_id"], ["0"], user=alice))
        assert "Alice took 2." in (Replies(applied).public()[-1].content or "")
        stale = Replies(late).ephemeral()[-1]
        assert "out of date" in (stale.content or "")
        assert discord_.world.get_message(board.id).selects() == []  # the old board's menu is gone


async def test_the_final_board_tells_the_last_turn_only_not_the_turns_already_told(database: Path) -> None:
    """A finished game has nobody to move, so the story walked back over every earlier turn (each already on its
    own board) until it ran out of lines; it tells the last person's turn and what came after it."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=4)
        people = [alice, discord_.user("bob")]
        moves: list[str] = []
        while True:
            board = discord_.last_public_message(with_components=True)
            if "Take 1" not in board.button_labels():
                break
            mover = await player_to_move(discord_, people)
            await discord_.click(board, label="Take 1", user=mover)
            moves.append(f"{mover.global_name} took 1.")
        final = discord_.world.channel_messages(board.channel_id)[-1]
        assert len(moves) > 2
        assert final.content == f"{moves[-1]} {moves[-1][:-len('took 1.')]}took the last stone.\n" \
                                f"**{moves[-1].split()[0]} wins!**"
