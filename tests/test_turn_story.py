"""A new board tells every move since the player's last turn; when it must leave some out it says so (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.service
from bot.app import create_bot
from bot.offline import DiscordHarness
from bot.service import STORY_CHARS, STORY_LINES, story_text
from tests.tables import open_table, player_to_move


def test_a_short_story_is_told_whole() -> None:
    assert story_text(["Ada took 2.", None, "Bo took 1."]) == "Ada took 2.\nBo took 1."


def test_a_long_story_keeps_its_last_moves_and_says_how_many_it_leaves_out() -> None:
    moves = [f"Move {number}." for number in range(1, STORY_LINES + 4)]
    story = story_text(moves)
    assert story.split("\n") == ["… 3 earlier moves not shown here: /game log has them.", *moves[3:]]
    assert story_text(moves[: STORY_LINES + 1]).startswith("… 1 earlier move not shown here")


def test_a_story_too_long_for_the_message_leaves_out_whole_moves() -> None:
    moves = [f"Move {number}: " + "x" * (STORY_CHARS // 3) for number in range(1, 5)]
    lines = story_text(moves).split("\n")
    assert lines[0] == "… 2 earlier moves not shown here: /game log has them." and lines[1:] == moves[2:]


def test_moves_beyond_what_was_read_are_announced_without_a_count() -> None:
    assert story_text(["Ada took 2."], earlier=True) == (
        "… earlier moves not shown here: /game log has them.\nAda took 2.")
    assert story_text([f"Move {n}." for n in range(STORY_LINES + 2)], earlier=True).startswith(
        "… 2 earlier moves (and more before them) not shown here")


async def test_a_board_at_a_table_of_three_says_what_it_leaves_out(database: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.service, "STORY_LINES", 1)
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "test-nim", 3, seed=3)
        for _ in range(2):
            mover = await player_to_move(discord_, users)
            board = discord_.last_public_message(with_components=True)
            await discord_.click(board, label="Take 1", user=mover)
        content = discord_.last_public_message(with_components=True).content
        lines = content.split("\n")
        assert lines[0] == "… 1 earlier move not shown here: /game log has them."
        assert "took 1" in lines[1]
