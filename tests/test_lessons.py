"""/game learn (issue 33): a new player, scripted to press only what the board offers, learns each game from its
lesson to the end through the offline Discord, in English and in German, and is told every idea on the way."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.core.lessons import lesson_for
from bot.features import lessons
from bot.i18n import translate
from bot.offline import DiscordHarness, FakeUser
from bot.service import GameService, Player

MOST_PRESSES = 120
"""A lesson fits in about ten minutes: a newcomer presses at most this many times to its end."""


def _board(discord_: DiscordHarness, thread: object) -> object | None:
    """The thread's current board: its last message with the learner's controls, if any."""
    boards = [m for m in discord_.channel_messages(thread) if any(i.startswith(("xt:act:", "xt:pick:"))
                                                                  for i in m.custom_ids())]
    return boards[-1] if boards else None


async def _press_first(discord_: DiscordHarness, board: object, learner: FakeUser) -> None:
    """What a newcomer does: the first move the board offers (a button, else the menu's first choice)."""
    actions = [i for i in board.custom_ids() if i.startswith("xt:act:")]  # type: ignore[attr-defined]
    if actions:
        await discord_.click(board, custom_id=actions[0], user=learner)
        return
    (menu,) = [i for i in board.custom_ids() if i.startswith("xt:pick:")]  # type: ignore[attr-defined]
    await discord_.select(board, menu, ["0"], user=learner)


async def _learn(database: Path, game_key: str, language: str) -> tuple[list[str], int]:
    """Play the whole lesson of `game_key` as a newcomer reading `language`: every board text seen, and presses.
    A game played to its end finishes; a lesson that stops early (Expeditions) closes its table."""
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        learner = discord_.user("lena", locale=language)
        replies = await discord_.command("game learn", {"game": game_key}, user=learner)
        (thread,) = discord_.world.threads.values()
        assert replies.ephemeral()[0].content == translate("lesson.open", language, thread=f"<#{thread.id}>")
        first = discord_.channel_messages(thread)[0]
        assert first.notified == (learner.id,) and lessons.idea_text(lesson.ideas[0], language) in first.content
        seen: list[str] = []
        presses = 0
        while (board := _board(discord_, thread)) is not None and presses < MOST_PRESSES:
            seen.extend(m.content for m in discord_.channel_messages(thread))
            await _press_first(discord_, board, learner)
            presses += 1
        seen.extend(m.content for m in discord_.channel_messages(thread))
        match = await discord_.bot.service.store.latest_match(thread.id)  # type: ignore[attr-defined]
        assert match is not None and match.status == "finished", match.status
        assert match.seats[0].user_id == learner.id and match.options["language"] == language
        # The prepared position was played through the rules and logged: the log alone rebuilds the lesson.
        assert await discord_.bot.service.replayed_state(match.id) == match.state  # type: ignore[attr-defined]
        return seen, presses


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", ["monster-expedition", "the-expedition", "expeditions"])
async def test_a_newcomer_learns_the_game_to_its_end(database: Path, game_key: str, language: str) -> None:
    seen, presses = await _learn(database, game_key, language)
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    text = "\n".join(seen)
    for idea in lesson.ideas:
        assert lessons.idea_text(idea, language) in text, idea.key
    for board in seen[:-1]:  # a few ideas at a time, on the board where they matter
        assert board.count("📘") <= lesson.most_at_once, board
    assert seen[-1].endswith("📘 " + translate("lesson.ready", language)), seen[-1]
    assert presses < MOST_PRESSES
    print(game_key, language, presses, "presses")  # the lesson's length, shown with -s


async def test_a_game_without_a_lesson_is_refused_privately_and_leaves_no_thread(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        learner = discord_.user("lena", locale="de")
        replies = await discord_.command("game learn", {"game": "test-nim"}, user=learner)
        assert [reply.content for reply in replies.ephemeral()][-1] == "Für Test Nim gibt es noch keine Lektion."
        assert not [thread for thread in discord_.world.threads.values() if not thread.deleted]
        assert discord_.channel_messages(discord_.default_channel) == []


LEARNER_MOVES = {"monster-expedition": 90, "the-expedition": 12, "expeditions": 40}
"""The most moves a learner makes in each lesson, whatever they choose (about ten minutes)."""


@pytest.mark.usefixtures("thread_bots")
@pytest.mark.parametrize("policy", ["first", "last", "random"])
@pytest.mark.parametrize("game_key", ["monster-expedition", "the-expedition", "expeditions"])
async def test_every_lesson_ends_and_tells_every_idea_whatever_the_learner_chooses(
        service: GameService, game_key: str, policy: str) -> None:
    game = find_game(game_key)
    lesson = lesson_for(game)
    assert lesson is not None
    chooser = random.Random(game_key + policy)
    match = await lessons.start_lesson(service, 5, 50, Player(7, "Lena"), game_key, "en")
    told: list[str] = []

    async def note_told() -> None:  # the ideas the board of this version tells (the match's lesson record)
        record = await service.store.lesson_progress(match.id)
        assert record is not None
        if record.get("at") == match.version:
            told.extend(record["latest"])

    await note_told()
    moves = 0
    while match.status == "active" and moves <= LEARNER_MOVES[game_key]:
        legal = game.legal_actions(match.state, 0)
        action = {"first": legal[0], "last": legal[-1], "random": chooser.choice(legal)}[policy]
        match = (await service.act(50, 7, action)).match
        await note_told()
        moves += 1
    assert match.status == "finished" and moves <= LEARNER_MOVES[game_key]
    print(game_key, policy, moves, "moves")  # the lesson's length, shown with -s
    assert sorted(told) == sorted(idea.key for idea in lesson.ideas)  # each once
    assert "told" not in (await service.store.lesson_progress(match.id) or {})  # the progress went at the end
    board = await service.board(match)
    assert board.note.endswith(translate("lesson.ready", "en")) and not board.buttons
