"""A new board tells every move since the player's last turn; when it must leave some out it says so (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.service.words
from bot.app import create_bot
from bot.offline import DiscordHarness
from bot.service import STORY_CHARS, STORY_LINES, story_text
from tests.tables import open_table, player_to_move

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5f0000000049454e44ae426082")


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
    monkeypatch.setattr(bot.service.words, "STORY_LINES", 1)
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


@pytest.mark.parametrize(("game", "seed"), [("the-expedition", 5), ("monster-expedition", 3), ("expeditions", 4)])
async def test_the_image_caption_is_the_newest_move_of_the_message_story(database: Path, game: str, seed: int) -> None:
    """The caption drawn on a board tells the message's newest move (it once told another seat's move)."""
    from rendering.pool import RenderPool

    drawn: list[str] = []

    def recording(game_key: str, view: dict[str, object]) -> bytes:
        drawn.append(str(view.get("last_move")))
        return PNG

    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        discord_.bot.service.render_pool = RenderPool(workers=1, renderer=recording)  # type: ignore[attr-defined]
        users = await open_table(discord_, game, 3, seed=seed)
        for _ in range(12):
            mover = await player_to_move(discord_, users)
            board = discord_.last_public_message(with_components=True)
            labels = [label for label in board.button_labels() if label not in ("Show mine", "Details", "What's this?")]
            if labels:
                await discord_.click(board, label=labels[0], user=mover)
            else:  # a long list (Expeditions' destinations) is a select menu only
                await discord_.select(board, None, ["0"], user=mover)
            story = discord_.last_public_message().content.split("\n")[:-1]
            assert drawn[-1] == story[-1]
        assert len(set(drawn)) > 3
