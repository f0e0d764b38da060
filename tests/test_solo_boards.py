"""Solo games notify: a new board pinging the player when a round begins, edited in place within the round, its text
never longer than a round (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness
from bot.service import story_text
from tests.reading import read
from tests.tables import current_match, open_table


@pytest.mark.parametrize(("game", "mode", "seed"), [
    ("the-expedition", "solo", 1), ("monster-expedition", "solo", 4), ("expeditions", "standard", 2)])
async def test_a_solo_board_per_round(database: Path, game: str, mode: str, seed: int) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        (alice,) = await open_table(discord_, game, 1, mode=mode, seed=seed)
        if (await current_match(discord_)).status == "lobby":  # a 1-5 player mode waits for its host to start
            await discord_.command("game start", user=alice)
        rules = find_game(game)
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        posted_at: int | None = None  # the version the current board message was posted at
        rounds_seen = 0
        for _ in range(60):
            match = await current_match(discord_)
            if match.status != "active":
                break
            board = discord_.last_public_message(with_components=True)
            labels = [label for label in board.button_labels() if label not in ("Show mine", "Details", "What's this?")]
            if labels:
                replies = await discord_.click(board, label=labels[0], user=alice)
            else:  # a choice offered only in the menu
                replies = await discord_.select(board, None, [board.select_options()[0]["value"]], user=alice)
            after = await current_match(discord_)
            new_boards = [r for r in replies.public() if r.created and r.files]
            if after.status != "active":
                break
            if rules.round_of(after.state) != rules.round_of(match.state):
                rounds_seen += 1
                (new_board,) = new_boards
                assert new_board.notified == (alice.id,), "a new round pings the player"
                if posted_at is not None:  # the story: the moves since the last board, nothing older
                    since = [e.text for e in await store.events(after.id, after=posted_at) if e.kind != "abandoned"]
                    assert new_board.content.startswith(read(story_text(since)) + "\n")
                posted_at = after.version
            else:
                assert new_boards == [], "within a round the board is edited in place"
                assert all(not r.notified for r in replies.public())
        assert rounds_seen >= 2
