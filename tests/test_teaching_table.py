"""A teaching table (issue 33, `/game new teach:true`, or the server's /settings teach): a normal table for a group
learning together, whose boards tell each idea of the game's lesson the first time it comes up at this table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.core.lessons import always, lesson_for
from bot.features import lessons
from bot.offline import DiscordHarness, FakeUser

PRESSES = 40
"""How far the group plays: enough for several ideas to come up in every game."""


def _board(discord_: DiscordHarness, channel: object) -> object | None:
    """The channel's current board: its last message with controls, if any."""
    boards = [m for m in discord_.channel_messages(channel)
              if any(i.startswith(("xt:act:", "xt:pick:")) for i in m.custom_ids())]
    return boards[-1] if boards else None


async def _press_first(discord_: DiscordHarness, board: object, players: list[FakeUser]) -> None:
    """The player to move (the one the board pings) presses the first move the board offers."""
    pinged = [user for user in players if user.id in board.notified] or players  # type: ignore[attr-defined]
    actions = [i for i in board.custom_ids() if i.startswith("xt:act:")]  # type: ignore[attr-defined]
    if actions:
        await discord_.click(board, custom_id=actions[0], user=pinged[0])
        return
    (menu,) = [i for i in board.custom_ids() if i.startswith("xt:pick:")]  # type: ignore[attr-defined]
    await discord_.select(board, menu, ["0"], user=pinged[0])


async def _play(discord_: DiscordHarness, game_key: str, language: str, options: dict[str, object],
                channel_name: str | None = None) -> list[str]:
    """Alice and Bob open a table of `game_key` with `options`, start it and play; every distinct message text seen
    (a board message is edited as the game goes on: its text is read after every press)."""
    alice, bob = discord_.user("alice", locale=language), discord_.user("bob", locale=language)
    channel = discord_.channel(channel_name) if channel_name else discord_.default_channel
    await discord_.command("game new", {"game": game_key, "seed": 7, "language": language, **options}, user=alice,
                           channel=channel)
    await discord_.command("game join", user=bob, channel=channel)
    await discord_.command("game start", user=alice, channel=channel)
    seen: dict[str, None] = {}
    for _ in range(PRESSES):
        seen.update(dict.fromkeys(m.content for m in discord_.channel_messages(channel)))
        board = _board(discord_, channel)
        if board is None:
            break
        await _press_first(discord_, board, [alice, bob])
    seen.update(dict.fromkeys(m.content for m in discord_.channel_messages(channel)))
    return list(seen)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", ["monster-expedition", "the-expedition", "expeditions"])
async def test_a_teaching_table_tells_each_idea_once_on_its_boards(database: Path, game_key: str,
                                                                    language: str) -> None:
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        seen = await _play(discord_, game_key, language, {"teach": True})
        match = await discord_.bot.service.store.latest_match(discord_.default_channel.id)  # type: ignore[attr-defined]
    assert match is not None and match.options["teach"] is True
    text = "\n".join(seen)
    first_board = next(content for content in seen if lessons.MARK in content)
    for idea in lesson.ideas:
        if idea.trigger is always and not idea.at_end:
            assert lessons.table_idea_text(idea, language) in first_board, idea.key
    told = [idea for idea in lesson.ideas if lessons.table_idea_text(idea, language) in text]
    assert len(told) >= 3, [idea.key for idea in told]
    for idea in told:  # once at this table, however many boards follow
        assert sum(content.count(lessons.table_idea_text(idea, language)) for content in seen) == 1, idea.key
    for content in seen:
        assert content.count(lessons.MARK) <= lesson.most_at_once, content


@pytest.mark.parametrize("game_key", ["monster-expedition", "the-expedition", "expeditions"])
async def test_a_normal_table_tells_no_ideas(database: Path, game_key: str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        seen = await _play(discord_, game_key, "en", {})
    assert len(seen) > 3 and not any(lessons.MARK in content for content in seen)


async def test_the_servers_default_makes_teaching_tables_and_teach_false_overrides_it(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        done = await discord_.command("settings teach", {"enabled": True}, user=admin)
        assert done.ephemeral()[0].content.startswith(
            "New games are teaching tables: their boards explain each idea the first time it comes up.")
        assert "- Teaching tables (`/settings teach`): on" in done.ephemeral()[0].content
        seen = await _play(discord_, "monster-expedition", "en", {})
        assert any(lessons.MARK in content for content in seen)
        match = await discord_.bot.service.store.latest_match(discord_.default_channel.id)  # type: ignore[attr-defined]
        assert match.options["teach"] is True
        seen = await _play(discord_, "monster-expedition", "en", {"teach": False}, channel_name="other")
        other = discord_.channel("other").id
        match = await discord_.bot.service.store.latest_match(other)  # type: ignore[attr-defined]
        assert "teach" not in match.options and not any(lessons.MARK in content for content in seen)
