"""Table manners in a live channel, through discord.py's real interaction path (issue: live channel).

What a member of the channel sees: one board message per change of the seat to move, a ping only in a newly
created message and only for the player to move, names shown escaped, refusals private, hostile ids refused.
"""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness, FakeUser, Reply
from tests.reading import read
from tests.tables import assert_result_told_once, current_match, open_table

MENTION = "<@"


def _created_public(replies: list[Reply]) -> list[Reply]:
    return [r for r in replies if r.created and not r.ephemeral]


async def _play_by_buttons(discord_: DiscordHarness, users: list[FakeUser], rnd: random.Random,
                           limit: int) -> tuple[int, int]:
    """Press random offered buttons until the game ends; check every reply. Returns (boards created, changes)."""
    created = changes = 0
    for _ in range(limit):
        match = await current_match(discord_)
        if match.status != "active":
            break
        game = find_game(match.game)
        before = tuple(game.to_act(match.state))
        user = next(u for u in users if u.id == match.user_at(before[0]).user_id)
        board = discord_.last_public_message(with_components=True)
        labels = [label for label in board.button_labels() if label not in ("Show mine", "Details", "What's this?")]
        replies = await discord_.click(board, label=rnd.choice(labels), user=user)
        assert replies.of("defer_update") == [replies[0]], "a press is acknowledged before anything else"
        assert not replies.ephemeral(), [r.content for r in replies]
        after = await current_match(discord_)
        assert after.version == match.version + 1
        now = tuple(game.to_act(after.state)) if after.status == "active" else ()
        boards = _created_public(replies)
        if now != before:
            changes += 1
            assert len(boards) == 1, "a new board when the seat to move changes"
            if now:
                assert boards[0].notified == tuple(after.user_at(seat).user_id for seat in now)
            else:  # the final board reaches every seated person (issue 33)
                assert set(boards[0].notified) == {seat.user_id for seat in after.seats if seat.user_id > 0}
            assert boards[0].payload.get("allowed_mentions", {}).get("parse") == []
        else:
            assert boards == [], "the same player goes on: the board is edited in place"
        for reply in replies:
            if not reply.created:
                assert reply.notified == ()
                assert MENTION not in (reply.payload.get("content") or ""), "an edit never carries a mention"
        created += len(boards)
    return created, changes


@pytest.mark.parametrize(("game", "seed"), [("test-nim", 3), ("the-expedition", 11), ("monster-expedition", 7)])
async def test_a_two_player_game_posts_one_board_per_change_of_the_seat_to_move(database: Path, game: str,
                                                                               seed: int) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await open_table(discord_, game, 2, seed=seed)
        lobby_and_start = len(discord_.channel_messages())
        assert lobby_and_start == 2  # the lobby message, kept up to date, and the first board
        first = discord_.channel_messages()[-1]
        match = await current_match(discord_)
        assert first.notified == tuple(match.user_at(s).user_id for s in find_game(game).to_act(match.state))
        created, changes = await _play_by_buttons(discord_, users, random.Random(seed), limit=900)
        assert (await current_match(discord_)).status == "finished"
        assert created == changes and len(discord_.channel_messages()) == lobby_and_start + changes
        final = discord_.channel_messages()[-1]
        assert set(final.notified) == {user.id for user in users}, "the end of a game reaches everyone seated"
        assert final.button_labels() == ["Show mine", "Details", "What's this?"]
        if game != "test-nim":
            await assert_result_told_once(discord_)
        # Every message anyone was notified by pinged exactly one player, the one to move then, but the final board.
        assert all(len(m.notified) <= 1 and not m.notified_everyone for m in discord_.channel_messages()[:-1])
        assert not final.notified_everyone


async def test_names_with_mention_or_markdown_syntax_are_shown_escaped_and_ping_nobody(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, carol = discord_.user("alice"), discord_.user("carol")
        mallory = discord_.user("mallory", global_name=f"<@{carol.id}> @everyone **Mal**")
        await discord_.command("game new", {"game": "test-nim", "seed": 2}, user=alice)
        await discord_.command("game join", user=mallory)
        lobby = discord_.last_public_message()
        assert f"<@{carol.id}>" not in lobby.content and "\\*\\*Mal\\*\\*" in lobby.content
        await discord_.command("game start", user=alice)
        users = [alice, mallory]
        for _ in range(40):
            match = await current_match(discord_)
            if match.status != "active":
                break
            seat = find_game(match.game).to_act(match.state)[0]
            await discord_.command("game board", user=carol)  # a repost pings nobody
            board = discord_.last_public_message(with_components=True)
            await discord_.click(board, label="Take 1", user=users[seat])
        log = (await discord_.command("game log", {"count": 50}, user=alice)).last
        for message in [*discord_.channel_messages(), log]:
            assert f"<@{carol.id}>" not in message.content
            assert "@everyone" not in message.content.replace("\\@everyone", "")  # escaped: shown, never a ping
        everything = [r for r in discord_.replies if r.created]
        assert all(carol.id not in r.notified and not r.notified_everyone for r in everything)
        assert all(set(r.notified) <= {alice.id, mallory.id} for r in everything)
        assert any("\\*\\*Mal\\*\\*" in m.content for m in discord_.channel_messages()[2:])  # the moves name her


async def test_refusals_after_the_early_acknowledgement_are_private(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        _alice, bob = await open_table(discord_, "test-nim", 2, seed=5)
        before = [m.content for m in discord_.channel_messages()]
        board = discord_.last_public_message(with_components=True)
        replies = await discord_.click(board, label="Take 1", user=bob)
        assert [r.kind for r in replies] == ["defer_update", "followup"] and replies[1].ephemeral
        assert "These buttons are for Alice" in (replies[1].content or "")
        replies = await discord_.command("hunt roll", user=bob)
        assert replies[0].kind == "defer" and replies[0].ephemeral
        assert (replies.last.content or "").startswith("This channel is playing Test Nim: its moves are made with "
                                                       "the buttons under the board (/hunt is for Monster")
        assert replies.last.ephemeral and [m.content for m in discord_.channel_messages()] == before


async def test_a_command_of_another_game_names_this_channels_game(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        await open_table(discord_, "monster-expedition", 2, seed=5)
        reply = (await discord_.command("explore move", {"direction": "up"}, user=discord_.user("alice"))).last
        assert reply.ephemeral
        assert reply.content.startswith("This channel is playing Monster Expedition: its moves are made with /hunt")
        assert "decline" not in reply.content and "improve" not in reply.content


@pytest.mark.parametrize("custom_id", [
    "xt:act:99999999999999999999:1:0:0",
    "xt:mine:9999999999999999999999",
    "xt:act:1:2:3",
    "xt:abandon:abc",
    "xt:nothing:1",
    "xt:act:1:2:3:4:5",
    # ids outside the bot's scheme altogether (issue 19): answered the same way, never left to fail in the client
    "zz", "0f" * 16, "act:1:2:3:4", "XT:act:1:2:3:4",
])
async def test_a_tampered_control_is_refused_privately_and_logs_nothing_above_info(
        database: Path, custom_id: str, caplog: pytest.LogCaptureFixture) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await open_table(discord_, "test-nim", 2, seed=5)
        before = (await current_match(discord_)).version
        message = discord_.world.create_message(
            discord_.default_channel.id,
            {"content": "forged", "components": [{"type": 1, "components": [
                {"type": 2, "style": 2, "label": "Press", "custom_id": custom_id}]}]},
            [], author=discord_.bot_user)
        with caplog.at_level(logging.DEBUG):
            replies = await discord_.click(message, label="Press", user=alice)
        assert replies.acknowledged
        assert replies.last.ephemeral and "This control is not valid here" in (replies.last.content or "")
        assert not [r for r in caplog.records if r.levelno > logging.INFO]
        assert (await current_match(discord_)).version == before


@pytest.mark.parametrize("value", ["abc", "1.5", "", "99999999999999999999999", "-1"])
async def test_a_tampered_select_value_is_refused_privately(database: Path, value: str,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=4)
        match = await current_match(discord_)
        custom_id = f"xt:pick:{match.id}:{match.version}:0"
        message = discord_.world.create_message(
            discord_.default_channel.id,
            {"content": "forged", "components": [{"type": 1, "components": [
                {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": value}]}]}]},
            [], author=discord_.bot_user)
        with caplog.at_level(logging.DEBUG):
            replies = await discord_.select(message, custom_id, [value], user=alice)
        assert replies.last.ephemeral and "not valid" in (replies.last.content or "")
        assert not [r for r in caplog.records if r.levelno > logging.INFO]
        assert (await current_match(discord_)).version == match.version


async def test_a_button_copied_into_another_channel_is_refused(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=4)
        board = discord_.last_public_message(with_components=True)
        other = discord_.channel("elsewhere")
        copy = discord_.world.create_message(other.id, {"content": "copy", "components": board.components}, [],
                                             author=discord_.bot_user)
        before = (await current_match(discord_)).version
        for label in ("Take 1", "Show mine", "Details", "What's this?"):
            replies = await discord_.click(copy, label=label, user=alice)
            assert replies.last.ephemeral and "not valid here" in (replies.last.content or "")
        assert discord_.channel_messages(other) == [copy]
        assert (await current_match(discord_)).version == before


async def test_a_refused_solo_expedition_stores_nothing(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        han = discord_.user("han")
        reply = (await discord_.command("hunt solo", {"expedition": 10}, user=han)).last
        assert reply.ephemeral and "10" in (reply.content or "")
        service = discord_.bot.service  # type: ignore[attr-defined]
        assert await service.store.latest_match(discord_.default_channel.id) is None
        board = (await discord_.command("game board", user=han)).last
        assert board.ephemeral and "no game in this channel" in (board.content or "")
        assert discord_.channel_messages() == []


async def test_a_seed_outside_its_range_is_refused_by_the_bot_itself(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        reply = (await discord_.command("game new", {"game": "test-nim", "seed": 2**63},
                                        user=discord_.user("alice"))).last
        assert reply.ephemeral and "from 0 to" in (reply.content or "")
        assert discord_.channel_messages() == []


async def test_the_host_joining_and_rules_without_a_game(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        rules = (await discord_.command("game rules", user=alice)).one()
        text = rules.embed["description"]
        assert all(title in text for title in ("The Expedition", "Monster Expedition", "Expeditions", "/game new"))
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        reply = (await discord_.command("game join", user=alice)).last
        assert reply.ephemeral and "You are the host" in (reply.content or "") and "/game start" in reply.content


async def test_the_log_keeps_the_newest_moves_numbered_without_gaps(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2, seed=3)
        players = [alice, bob]
        for turn in range(6):
            board = discord_.last_public_message(with_components=True)
            await discord_.click(board, label="Take 1", user=players[turn % 2])
        service = discord_.bot.service  # type: ignore[attr-defined]
        everything = await service.log(discord_.default_channel.id, 500)
        assert [int(line.split(".")[0]) for line in everything] == list(range(1, len(everything) + 1))
        reply = (await discord_.command("game log", {"count": 3}, user=bob)).last
        assert reply.content.splitlines() == [read(line) for line in everything[-3:]]  # the newest three, whole
        assert read(everything[-1]).endswith("took 1.")


async def test_a_long_log_comes_as_a_text_file(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=3)
        service = discord_.bot.service  # type: ignore[attr-defined]
        match = await current_match(discord_)
        for number in range(120):  # a long game's worth of entries (the store is the log's only source)
            await service.store.record(match.id, match.version + number, "note", text=f"Entry {number} " + "x" * 40)
        reply = (await discord_.command("game log", {"count": 500}, user=alice)).last
        assert reply.ephemeral and reply.files and reply.files[0].filename.endswith("-log.txt")
        attached = reply.files[0].data.decode().splitlines()
        assert attached[-1].endswith("Entry 119 " + "x" * 40)
        assert [int(line.split(".")[0]) for line in attached] == list(range(1, len(attached) + 1))
        shown = reply.content.splitlines()[1:]
        assert shown == attached[-len(shown):] and len(reply.content) <= 2000


async def test_fast_moves_on_one_turn_coalesce_into_one_edit_of_the_latest_board(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        han = discord_.user("han")
        await discord_.command("game new", {"game": "test-nim", "mode": "solo", "seed": 8}, user=han)
        bot: Any = discord_.bot
        board = discord_.last_public_message(with_components=True)
        channel = discord_.default_channel.id
        for _ in range(3):  # three quick moves of the same turn, committed before any board work
            accepted = await bot.service.act(channel, han.id, {"type": "take", "count": 1})
        edits_before = len([r for r in discord_.replies if r.kind == "edit"])
        await asyncio.gather(*(bot.desk.refresh(accepted.match.id) for _ in range(5)))
        edits = [r for r in discord_.replies if r.kind == "edit"][edits_before:]
        # The first edit goes out at once; the four that arrive while it is on the wire only mark the board dirty
        # and are served by one more edit of the latest state, instead of four queued edits.
        assert len(edits) == 2 and bot.desk.edits_coalesced == 4
        latest = await current_match(discord_)
        shown = discord_.world.get_message(board.id)
        assert f"({latest.state['pile']} left" in shown.content and shown.notified == (han.id,)
        assert len(discord_.channel_messages()) == 1  # still the one board message


async def test_details_show_the_full_board_privately(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "the-expedition", 2, seed=4)
        board = discord_.last_public_message(with_components=True)
        before = len(discord_.channel_messages())
        reply = (await discord_.click(board, label="Details", user=bob)).last  # anyone may look, not only the mover
        assert reply.ephemeral and reply.files and reply.files[0].description
        detail, public = reply.files[0].image(), board.files[0].image()
        assert detail.width > public.width  # the full-size board, beside the phone-sized one
        reply = (await discord_.command("game board", {"detail": True}, user=alice)).last
        assert reply.ephemeral and reply.files[0].image().size == detail.size
        assert len(discord_.channel_messages()) == before  # nothing public was posted
        assert board.files[0].description  # the public board carries its alt text
