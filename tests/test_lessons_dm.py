"""/learn in the bot's DM (issue 33 item 1): a member who added the app to their account learns each game in their
DM with the bot, boards, buttons and computer players included, in English and German; the command registers for
user installs and the DM; in a DM between other people the bot cannot post and says so privately."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.core.lessons import lesson_for
from bot.features import lessons
from bot.features.community import REMIND, TIMER
from bot.features.personal import DM
from bot.i18n import translate
from bot.offline import DiscordHarness, FakeUser
from tests.test_lessons import MOST_PRESSES, _board, _press_first


async def _learn_in_dm(database: Path, game_key: str, language: str) -> tuple[list[str], DiscordHarness, FakeUser]:
    """A newcomer with the app user-installed plays the lesson of `game_key` to its end in their DM with the bot."""
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        learner = discord_.user("lena", locale=language)
        discord_.install_app(learner)
        dm = discord_.dm(learner)
        # Told by DM and in the channel, reminded every hour: none of it for a lesson in the DM itself.
        await discord_.command("me notify", {"how": "both", "reminders": 1.0}, user=learner, channel=dm)
        pending = discord_.command("learn", {"game": game_key}, user=learner, channel=dm)
        assert pending.payload["context"] == 1 and "guild_id" not in pending.payload
        replies = await pending
        assert replies.ephemeral()[-1].content == translate("lesson.started_here", language)
        assert not discord_.world.threads  # no thread: the DM is the table
        first = discord_.channel_messages(dm)[0]
        assert lessons.idea_text(lesson.ideas[0], language) in first.content
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        match = await store.open_match(dm.id)
        seen: list[str] = []
        presses = 0
        while (board := _board(discord_, dm)) is not None and presses < MOST_PRESSES:
            # Nothing a server plans for a person's turn: no reminder, deadline or DM about the DM's own board.
            assert await store.pending_work_of([match.id], (REMIND, TIMER, DM)) == []
            seen.extend(m.content for m in discord_.channel_messages(dm))
            await _press_first(discord_, board, learner)
            presses += 1
        seen.extend(m.content for m in discord_.channel_messages(dm))
        assert presses < MOST_PRESSES
        match = await store.latest_match(dm.id)
        assert match is not None and match.in_dm and match.channel_id == dm.id
        assert match.status == ("abandoned" if lesson.ends else "finished"), match.status
        assert match.seats[0].user_id == learner.id and match.options["language"] == language
        # A DM notifies its member of every message: no board mentions or pings anyone there.
        for message in discord_.channel_messages(dm):
            assert message.notified == () and f"<@{learner.id}>" not in message.content
        return seen, discord_, learner


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", ["monster-expedition", "the-expedition", "expeditions"])
async def test_a_newcomer_learns_each_game_in_the_bots_dm(database: Path, game_key: str, language: str) -> None:
    seen, _discord, _learner = await _learn_in_dm(database, game_key, language)
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    text = "\n".join(seen)
    for idea in lesson.ideas:
        assert lessons.idea_text(idea, language) in text, idea.key
    # /game new is for servers: the final board says where it runs, and that /learn works here.
    assert seen[-1].endswith("📘 " + translate("lesson.ready_dm", language)), seen[-1]
    assert translate("lesson.ready", language) not in text
