"""A lesson's tip points at the part of the board it names, and the board marks that part (issue 33 item 1); a
lesson counts for nothing and ends as a finished lesson (issue 33 item 1, the lesson's end).

Played through the offline Discord: every board the bot draws is caught on its way to the render worker (its view's
arguments, the marks among them), and the image posted is compared, pixel by pixel, with the same board drawn
without its marks."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import rendering
from bot.app import create_bot
from bot.core import find_game
from bot.core.lessons import lesson_for
from bot.features import lessons
from bot.games import boards
from bot.i18n import translate
from bot.offline import DiscordHarness, FakeUser
from rendering import kit, typeset
from tests.tables import FOUND_GAMES

GAMES = FOUND_GAMES
MOST_PRESSES = 120


class BoardSpy:
    """Catches every public board the service has drawn: the view's arguments and the PNG that came back."""

    def __init__(self, pool: Any) -> None:
        self.drawn: dict[bytes, tuple[str, tuple[Any, ...]]] = {}
        original = pool.render_made

        async def render_made(game_key: str, make: Any, *arguments: Any, **options: Any) -> tuple[bytes, str]:
            image, described = await original(game_key, make, *arguments, **options)
            if make is boards.public_view:
                self.drawn[image] = (game_key, arguments)
            return image, described

        pool.render_made = render_made


def _board(discord_: DiscordHarness, thread: object) -> object | None:
    found = [m for m in discord_.channel_messages(thread) if any(i.startswith(("xt:act:", "xt:pick:"))
                                                                 for i in m.custom_ids())]
    return found[-1] if found else None


async def _press_first(discord_: DiscordHarness, board: Any, learner: FakeUser) -> None:
    actions = [i for i in board.custom_ids() if i.startswith("xt:act:")]
    if actions:
        await discord_.click(board, custom_id=actions[0], user=learner)
        return
    (menu,) = [i for i in board.custom_ids() if i.startswith("xt:pick:")]
    await discord_.select(board, menu, ["0"], user=learner)


async def _lesson_boards(database: Path | str, game_key: str, language: str
                         ) -> list[tuple[str, bytes, tuple[str, tuple[Any, ...]]]]:
    """Every board message of a whole lesson as a newcomer plays it: its text, its image and what drew it."""
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        spy = BoardSpy(discord_.bot.service.render_pool)  # type: ignore[attr-defined]
        learner = discord_.user("lena", locale=language)
        await discord_.command("game learn", {"game": game_key}, user=learner)
        (thread,) = discord_.world.threads.values()
        seen: dict[tuple[str, bytes], None] = {}
        for _ in range(MOST_PRESSES):
            seen.update(dict.fromkeys((m.content, m.files[0].data) for m in discord_.channel_messages(thread)
                                      if m.files))
            board = _board(discord_, thread)
            if board is None:
                break
            await _press_first(discord_, board, learner)
        seen.update(dict.fromkeys((m.content, m.files[0].data) for m in discord_.channel_messages(thread)
                                  if m.files))
        return [(content, image, spy.drawn[image]) for content, image in seen]


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _differs(marked: Image.Image, plain: Image.Image, box: tuple[float, float, float, float]) -> int:
    """How many pixels of the outline's band around `box` differ between the two boards."""
    left, top, right, bottom = (round(v) for v in box)
    pad = 8
    band = (max(0, left - pad), max(0, top - pad), min(marked.width, right + pad), min(marked.height, bottom + pad))
    difference = ImageChops.difference(marked.crop(band), plain.crop(band)).convert("L")
    return sum(difference.point(lambda value: 255 if value > 30 else 0).histogram()[255:])


def _marked(boards_seen: list[tuple[str, bytes, tuple[str, tuple[Any, ...]]]], game_key: str, language: str,
            *, teaching: bool = False) -> int:
    """Check every board seen: a board telling a tip that names a part outlines that part (and nothing else changes)
    and its line says where it is with the mark's number; a board without a tip marks nothing. Returns how many
    boards were marked."""
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    renderer = rendering.drawing(game_key)
    marked_boards = 0
    for content, png, (key, arguments) in boards_seen:
        view = boards.public_view(*arguments)
        marks = view.get("marks") or []
        numbers = [number for number in lessons.BADGES if number in content]
        if lessons.MARK not in content:  # a board without a tip marks nothing
            assert not marks, content
            continue
        assert sorted({mark["badge"] for mark in marks}) == list(range(1, len(numbers) + 1)), (content, marks)
        if not marks:
            continue
        marked_boards += 1
        with typeset.hyphenating(language):  # (as rendering.render_board draws it: its pieces are cached)
            parts = renderer.part_boxes(view)
        plain = _image(rendering.render_board(key, {**view, "marks": []}))
        image = _image(png)
        for mark in marks:
            box = kit.marked_box(parts, mark)
            assert box is not None, (mark, sorted(parts))  # the part the tip names is on this board
            assert _differs(image, plain, box) > 300, mark  # and it is outlined there
            if teaching and mark["part"] in lesson.table_places:  # the player to move's part, by name
                place = translate(lesson.table_places[mark["part"]], language, name="\0").split("\0")
                assert re.search(".+".join(map(re.escape, place)), content), (mark, content)
            else:
                place = translate(lesson.places[mark["part"]], language)
                assert place in content, (mark, content)
            assert lessons.BADGES[mark["badge"] - 1] in content, (mark, content)
        # Nothing else on the board changed: outside the marks' corners the two images are the same.
        for mark in marks:
            left, top, right, bottom = kit.marked_box(parts, mark)  # type: ignore[misc]
            for image_ in (image, plain):
                image_.paste((0, 0, 0), (max(0, round(left) - 40), max(0, round(top) - 40),
                                         min(image_.width, round(right) + 40), min(image_.height, round(bottom) + 40)))
        assert ImageChops.difference(image, plain).getbbox() is None
    return marked_boards


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", GAMES)
async def test_a_lesson_board_marks_the_part_its_tip_names_and_says_where_it_is(
        database: Path | str, game_key: str, language: str) -> None:
    marked_boards = _marked(await _lesson_boards(database, game_key, language), game_key, language)
    assert marked_boards >= 3, marked_boards
    print(game_key, language, marked_boards, "boards marked")  # shown with -s


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", GAMES)
async def test_a_teaching_table_marks_the_part_its_tip_names(database: Path | str, game_key: str,
                                                              language: str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        spy = BoardSpy(discord_.bot.service.render_pool)  # type: ignore[attr-defined]
        alice, bob = discord_.user("alice", locale=language), discord_.user("bob", locale=language)
        await discord_.command("game new", {"game": game_key, "seed": 7, "language": language, "teach": True},
                               user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        seen: dict[tuple[str, bytes], None] = {}
        for _ in range(40):
            seen.update(dict.fromkeys((m.content, m.files[0].data)
                                      for m in discord_.channel_messages(discord_.default_channel) if m.files))
            board = _board(discord_, discord_.default_channel)
            if board is None:
                break
            pinged = [user for user in (alice, bob) if user.id in board.notified] or [alice]  # type: ignore[attr-defined]
            await _press_first(discord_, board, pinged[0])
        seen.update(dict.fromkeys((m.content, m.files[0].data)
                                  for m in discord_.channel_messages(discord_.default_channel) if m.files))
    assert _marked([(content, image, spy.drawn[image]) for content, image in seen], game_key, language,
                   teaching=True) >= 1


async def _stats_and_leaders(discord_: DiscordHarness, member: FakeUser) -> list[Any]:
    """What /stats, /leaderboard of each game and /game history answer the member."""
    answers = [await discord_.command("stats", user=member)]
    answers += [await discord_.command("leaderboard", {"game": key}, user=member) for key in GAMES]
    answers.append(await discord_.command("game history", user=member))
    return [[(reply.content, reply.embeds) for reply in replies] for replies in answers]


async def test_lessons_count_for_nothing_and_the_expeditions_lesson_ends_finished(database: Path | str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        service = discord_.bot.service  # type: ignore[attr-defined]
        learner = discord_.user("lena", locale="de")
        before = await _stats_and_leaders(discord_, learner)
        for key in GAMES:
            await discord_.command("game learn", {"game": key}, user=learner)
            thread = list(discord_.world.threads.values())[-1]
            match = await service.store.latest_match(thread.id)
            game = find_game(key)
            while match.status == "active":  # the learner plays the first legal move each time
                match = (await service.act(thread.id, learner.id, game.legal_actions(match.state, 0)[0])).match
            assert match.status == "finished" and match.lesson, (key, match.status)
            if key == "expeditions":  # ended by the lesson, not by the rules: a finished lesson, not abandoned
                board = await service.board(match)
                assert board.turn == translate("lesson.finished", "de") == (
                    "Lektion beendet: Du hast jede Art von Zug gespielt. Die Notizen unten erklären, wie das Spiel "
                    "enden würde und wie gewertet wird.")
                assert board.note.endswith(translate("lesson.ready", "de"))
                assert (await service.store.events(match.id))[-1].kind == "lesson_finished"
        assert await service.store.player_results(match.guild_id, learner.id) == []
        assert await _stats_and_leaders(discord_, learner) == before


@pytest.mark.parametrize("language", ["en", "de"])
async def test_the_expeditions_lesson_posts_its_final_board_as_a_finished_lesson(database: Path | str,
                                                                                 language: str) -> None:
    final = [(content, drawn) for content, _, drawn in await _lesson_boards(database, "expeditions", language)
             if translate("lesson.ready", language) in content]
    assert len(final) == 1
    content, (_, arguments) = final[0]
    assert f"**{translate('lesson.finished', language)}**" in content
    assert translate("table.abandoned", language) not in content
    assert ("Lesson finished" if language == "en" else "Lektion beendet") in content
    view = boards.public_view(*arguments)  # the image's headline says so too, not whose turn it would be
    assert view["turn"] == translate("lesson.finished_short", language) and view["closed"]
