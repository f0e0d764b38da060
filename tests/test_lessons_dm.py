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
from bot.offline import DiscordHarness, FakeUser, HarnessError
from tests.test_discord_faults import ALWAYS, CHANNEL_POST, FOLLOWUP, FakeClock, heal, with_files
from tests.test_discord_faults import no_waiting as no_waiting  # the desk's waits between tries, kept short
from tests.test_lessons import MOST_PRESSES, _board, _press_first


async def _learn_in_dm(database: Path, game_key: str, language: str) -> tuple[list[str], DiscordHarness, FakeUser]:
    """A newcomer with the app user-installed plays the lesson of `game_key` to its end in their DM with the bot."""
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
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
        print(game_key, language, presses, "presses in the DM")  # the lesson's length, shown with -s
        match = await store.latest_match(dm.id)
        assert match is not None and match.in_dm and match.channel_id == dm.id
        assert match.status == "finished", match.status
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


async def test_learn_registers_for_user_installs_in_servers_the_bots_dm_and_private_channels(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        await discord_.bot.tree.sync()  # the offline Discord checks the request against Discord's description
        body = [r for r in discord_.world.requests if r["route"] == "PUT /applications/{application_id}/commands"]
        assert not discord_.world.violations
    commands = {command["name"]: command for command in body[-1]["body"]}
    learn = commands["learn"]
    assert learn["integration_types"] == [0, 1] and learn["contexts"] == [0, 1, 2]
    assert learn["name_localizations"]["de"] == "lernen"
    assert [option["name"] for option in learn["options"]] == ["game"]
    assert {choice["value"] for choice in learn["options"][0]["choices"]} >= {
        "the-expedition", "monster-expedition", "expeditions"}
    assert commands["game"].get("contexts") in ([0], None)  # /game learn stays in the servers' group


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "I cannot post in a DM between other people. Use /learn in your DM with me (open it from my profile), "
           "or on a server."),
    ("de", "In DMs zwischen anderen Leuten kann ich nichts posten. Nutze /lernen in deiner DM mit mir (über mein "
           "Profil) oder auf einem Server."),
])
async def test_learn_in_a_dm_between_other_people_is_refused_privately(database: Path, language: str,
                                                                       refusal: str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        lena, tom = discord_.user("lena", locale=language), discord_.user("tom")
        friends = discord_.private_channel(lena, tom)
        with pytest.raises(HarnessError, match="only a user install"):  # offered there only with a user install
            discord_.command("learn", {"game": "expeditions"}, user=lena, channel=friends)
        discord_.install_app(lena)
        pending = discord_.command("learn", {"game": "expeditions"}, user=lena, channel=friends)
        assert pending.payload["context"] == 2
        replies = await pending
        assert [reply.content for reply in replies.ephemeral()][-1] == refusal
        assert discord_.channel_messages(friends) == [] and discord_.channel_messages(discord_.dm(lena)) == []
        assert await discord_.bot.service.store.latest_match(friends.id) is None  # type: ignore[attr-defined]


async def test_learn_on_a_server_without_the_app_points_to_the_dm(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        lena = discord_.user("lena")
        discord_.install_app(lena)
        discord_.without_server_install()
        pending = discord_.command("learn", {"game": "the-expedition"}, user=lena)
        assert pending.payload["authorizing_integration_owners"] == {"1": str(lena.id)}
        replies = await pending
        assert [reply.content for reply in replies.ephemeral()][-1] == (
            "I am not on this server, so I cannot open a lesson here. Use /learn in your DM with me (open it from "
            "my profile).")
        assert not discord_.world.threads and discord_.channel_messages(discord_.default_channel) == []


async def test_learn_on_a_server_opens_the_lesson_in_a_thread_as_game_learn_does(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        lena = discord_.user("lena", locale="de")
        replies = await discord_.command("learn", {"game": "monster-expedition"}, user=lena)
        (thread,) = discord_.world.threads.values()
        assert replies.ephemeral()[-1].content == translate("lesson.open", "de", thread=f"<#{thread.id}>")
        first = discord_.channel_messages(thread)[0]
        assert first.notified == (lena.id,) and "📘" in first.content  # a server's board pings the learner
        match = await discord_.bot.service.store.latest_match(thread.id)  # type: ignore[attr-defined]
        assert match.guild_id == discord_.world.guild_id and not match.in_dm and match.options["language"] == "de"


async def test_a_new_lesson_in_the_dm_closes_the_unfinished_one(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        lena = discord_.user("lena")
        discord_.install_app(lena)
        dm = discord_.dm(lena)
        await discord_.command("learn", {"game": "expeditions"}, user=lena, channel=dm)
        old_board = _board(discord_, dm)
        assert old_board is not None
        await discord_.command("learn", {"game": "the-expedition"}, user=lena, channel=dm)
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        old, new = await store.match(1), await store.open_match(dm.id)
        assert old.game == "expeditions" and old.status == "abandoned"
        assert new is not None and new.game == "the-expedition" and new.status == "active"
        shown = discord_.world.get_message(old_board.id)  # the old board shows the closed table, without moves
        assert not [i for i in shown.custom_ids() if i.startswith(("xt:act:", "xt:pick:"))]
        board = _board(discord_, dm)
        assert board is not None and board.id != old_board.id
        await _press_first(discord_, board, lena)  # the new lesson goes on
        assert (await store.open_match(dm.id)).version > new.version


async def test_a_dm_lesson_is_in_games_with_a_link_into_the_dm_and_its_board_answers_every_button(
        database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        lena = discord_.user("lena", locale="de")
        discord_.install_app(lena)
        dm = discord_.dm(lena)
        await discord_.command("learn", {"game": "the-expedition"}, user=lena, channel=dm)
        board = _board(discord_, dm)
        assert board is not None
        listed = (await discord_.command("games", user=lena, channel=dm)).one().content
        assert listed.startswith("Deine laufenden Spiele (1), die, in denen du am Zug bist, zuerst:\n"
                                 f"1. **The Expedition** — deine DM mit dem Bot, <#{dm.id}>: **du bist am Zug**")
        assert listed.endswith(f"(https://discord.com/channels/@me/{dm.id}/{board.id})")
        public = len(discord_.channel_messages(dm))
        for custom_id in ("xt:whats:", "xt:mine:", "xt:detail:"):  # privately answered, in the DM too
            (pressed,) = [i for i in board.custom_ids() if i.startswith(custom_id)]
            replies = await discord_.click(board, custom_id=pressed, user=lena)
            answers = [reply for reply in replies.ephemeral() if reply.kind == "followup"]
            assert answers and all(reply.content or reply.embeds or reply.files for reply in answers), custom_id
        assert len(discord_.channel_messages(dm)) == public


@pytest.mark.usefixtures("no_waiting")
async def test_a_dm_board_discord_would_not_take_is_posted_by_the_scheduler(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), timeout=30.0) as discord_:
        lena = discord_.user("lena")
        discord_.install_app(lena)
        dm = discord_.dm(lena)
        await discord_.command("learn", {"game": "the-expedition"}, user=lena, channel=dm)
        board = _board(discord_, dm)
        assert board is not None
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        match = await store.open_match(dm.id)
        faults = [discord_.world.fail_next(FOLLOWUP, 503, times=ALWAYS, when=with_files),
                  discord_.world.fail_next(CHANNEL_POST, 503, times=ALWAYS)]
        await _press_first(discord_, board, lena)
        assert _board(discord_, dm) is None  # the old board lost its buttons; the new one is owed
        owed = [work for work in await store.pending_work(match.id) if work.kind == "board"]
        assert len(owed) == 1 and owed[0].guild_id == 0 and owed[0].channel_id == dm.id
        heal(discord_.world, faults)
        clock.advance(61)
        await discord_.bot.run_due_work()  # type: ignore[attr-defined]
        posted = _board(discord_, dm)
        assert posted is not None and posted.notified == () and posted.files
        assert [work for work in await store.pending_work(match.id) if work.kind == "board"] == []
        await _press_first(discord_, posted, lena)  # the lesson goes on from the delivered board
        assert (await store.open_match(dm.id)).version > match.version


async def test_learn_asked_in_a_thread_posts_its_first_board_publicly_there(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None), timeout=30.0) as discord_:
        lena = discord_.user("lena")
        thread = discord_.world.create_thread(discord_.default_channel.id, {"name": "practice", "type": 11}, lena.id)
        replies = await discord_.command("learn", {"game": "the-expedition"}, user=lena, channel=thread)
        assert replies.ephemeral()[-1].content == translate("lesson.started_here", "en")
        board = _board(discord_, thread)  # public, with the learner's controls (it took the private answer's
        assert board is not None and board.notified == (lena.id,) and "📘" in board.content  # place before)
