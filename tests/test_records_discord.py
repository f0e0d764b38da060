"""Undo by consent, history, replays, exports, stats and the leaderboard through the offline Discord harness."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.app import create_bot
from bot.cli import main
from bot.core import find_game
from bot.offline import DiscordHarness
from tests.tables import current_match, finish_nim, open_table, take

pytestmark = pytest.mark.usefixtures("thread_bots")  # computer players think in a thread, briefly


async def replayed_matches_stored(discord_: DiscordHarness) -> None:
    match = await current_match(discord_)
    assert await discord_.bot.service.replayed_state(match.id) == match.state  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------- undo


async def test_a_solo_player_takes_a_move_back_at_once_and_the_log_still_replays(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=alice)
        before = (await current_match(discord_)).state
        # Before any move this read "You have no move to take back yet (a move taken back once stays taken back)".
        early = await discord_.command("game undo", user=alice)
        assert early.last.ephemeral and early.last.content == ("You have not made a move yet, so there is nothing "
                                                               "to take back.")
        await take(discord_, alice, 2)
        replies = await discord_.command("game undo", user=alice)
        assert replies.ephemeral()[0].content == ("Your last move was taken back; the board above shows the "
                                                  "position again.")
        board = replies.public()[-1]  # still Alice's turn: her board is edited, no new message and no ping
        assert not board.created
        assert "Alice's last move was taken back." in (board.content or "") and board.notified == ()
        assert [r for r in replies if r.created and not r.ephemeral] == []
        match = await current_match(discord_)
        assert match.state == before
        await replayed_matches_stored(discord_)
        again = await discord_.command("game undo", user=alice)
        assert again.last.ephemeral and again.last.content == ("Your moves so far have been taken back already, "
                                                               "and a move taken back once stays taken back. Make "
                                                               "your next move.")
        log = await discord_.command("game log", user=alice)
        assert "taken back" in log.last.content


async def test_the_other_player_approves_and_the_move_is_taken_back(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2)
        start = await current_match(discord_)
        first = start.user_at(find_game("test-nim").to_act(start.state)[0]).user_id
        mover, other = (alice, bob) if first == alice.id else (bob, alice)
        before = start.state
        await take(discord_, mover, 1)
        asked = await discord_.command("game undo", user=mover)
        assert asked.ephemeral()[0].content.startswith("Your request is posted")
        request = asked.public()[-1]
        assert request.created and request.notified == (other.id,)
        assert request.button_labels() == ["Approve undo", "Refuse"]
        stranger = discord_.user("carol")
        refused = await discord_.click(request, label="Approve undo", user=stranger)
        assert refused.last.ephemeral and "Only the other players" in refused.last.content
        own = await discord_.click(request, label="Approve undo", user=mover)
        assert own.last.ephemeral and "withdraw it with Refuse" in own.last.content
        approved = await discord_.click(request, label="Approve undo", user=other)
        assert "taken back, as everyone agreed" in (approved.of("edit")[0].content or "")
        assert approved.of("edit")[0].components == []
        board = [r for r in approved.public() if r.created][-1]
        assert board.notified == (mover.id,)
        match = await current_match(discord_)
        assert match.state == before and match.version == start.version + 2
        await replayed_matches_stored(discord_)


async def test_a_refused_request_changes_nothing(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2, seed=4)
        match = await current_match(discord_)
        mover = alice if match.user_at(find_game("test-nim").to_act(match.state)[0]).user_id == alice.id else bob
        other = bob if mover is alice else alice
        await take(discord_, mover, 1)
        after_move = await current_match(discord_)
        request = (await discord_.command("game undo", user=mover)).public()[-1]
        refused = await discord_.click(request, label="Refuse", user=other)
        edit = refused.of("edit")[0]
        assert "refused. The move stands." in (edit.content or "") and edit.components == []
        assert (await current_match(discord_)).version == after_move.version


async def test_a_request_lapses_when_another_move_is_made(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2, seed=6)
        match = await current_match(discord_)
        mover = alice if match.user_at(find_game("test-nim").to_act(match.state)[0]).user_id == alice.id else bob
        other = bob if mover is alice else alice
        await take(discord_, mover, 1)
        request = (await discord_.command("game undo", user=mover)).public()[-1]
        await take(discord_, other, 1)
        moved = await current_match(discord_)
        tidied = next(m for m in discord_.channel_messages() if m.id == request.message_id)
        assert tidied.content == f"{mover.global_name}'s undo request lapsed: a move was made since."
        assert tidied.button_labels() == [], "a lapsed request loses its buttons as soon as the move is made"
        assert (await current_match(discord_)).version == moved.version


async def test_an_undo_after_a_die_roll_is_refused_privately_with_the_reason(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await open_table(discord_, "monster-expedition", 2, seed=5)
        service = discord_.bot.service  # type: ignore[attr-defined]
        game = find_game("monster-expedition")
        for _ in range(60):  # play the first legal move until someone's move rolls dice
            match = await current_match(discord_)
            seat = game.to_act(match.state)[0]
            user = next(u for u in users if u.id == match.user_at(seat).user_id)
            action = game.legal_actions(match.state, seat)[0]
            await service.act(match.channel_id, user.id, action)
            events = await service.store.events(match.id, last=1)
            if events[-1].draws:
                break
        else:
            pytest.fail("no move rolled a die")
        count = len(discord_.channel_messages())
        refused = await discord_.command("game undo", user=user)
        assert refused.last.ephemeral
        assert refused.last.content.startswith("Your last move cannot be taken back: a die was rolled with it.")
        assert len(discord_.channel_messages()) == count


# --------------------------------------------------------------------------------------------- history


async def test_undo_kick_and_rejoin_after_the_game_ended_name_the_finished_game(database: Path) -> None:
    """These read "There is no game in this channel" right under the final board of the game just played."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2)
        await finish_nim(discord_, [alice, bob])
        match = await current_match(discord_)
        assert match.status == "finished"
        over = (f"Game #{match.id} here (Test Nim) is over, so it can no longer be changed. Start another with "
                f"/game new; /game replay match:{match.id} shows how it went.")
        for path, options, who in (("game undo", {}, alice), ("game kick", {"player": bob}, alice),
                                   ("game rejoin", {}, bob)):
            reply = (await discord_.command(path, options, user=who)).last
            assert reply.ephemeral and reply.content == over, path
        assert (await current_match(discord_)).version == match.version


async def test_history_replay_and_export_of_a_finished_game(database: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        mallory = discord_.user("mallory", global_name="**Mal** @everyone")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        early = await discord_.command("game replay", {"match": (await current_match(discord_)).id}, user=alice)
        assert early.last.ephemeral and "has not started yet (its lobby is open)" in early.last.content
        await discord_.command("game join", user=mallory)
        await discord_.command("game start", user=alice)
        unfinished = await discord_.command("game export", user=alice)
        assert unfinished.last.ephemeral and "only games that are over" in unfinished.last.content
        assert not unfinished.last.files
        match = await current_match(discord_)
        await take(discord_, alice if match.user_at(match.state["turn"]).user_id == alice.id else mallory, 1)
        undo = await discord_.command("game undo", user=alice)
        if undo.public():  # alice moved first: mallory approves, so the log holds an undo
            await discord_.click(undo.public()[-1], label="Approve undo", user=mallory)
        await finish_nim(discord_, [alice, mallory])
        match = await current_match(discord_)
        assert match.status == "finished"

        listed = await discord_.command("game history", user=alice)
        text = listed.last.content
        assert listed.last.ephemeral and f"#{match.id} · Test Nim (Standard)" in text
        assert "\\*\\*Mal\\*\\*" in text and "@everyone" not in text.replace("\\@everyone", "")
        assert "page 1 of 1" in text

        posted = await discord_.command("game replay", {"match": match.id, "public": True}, user=alice)
        public = posted.public()[-1]
        assert public.created and public.notified == ()
        assert [f.filename for f in public.files] == ["board.png", f"test-nim-{match.id}-log.txt"]
        log = public.files[1].data.decode()
        assert "Test Nim (Standard)" in log and "took" in log and str(match.seed) not in log
        other = discord_.channel("elsewhere")
        nothing = await discord_.command("game replay", {"match": match.id + 100}, user=alice, channel=other)
        assert "There is no game" in nothing.last.content

        exported = await discord_.command("game export", user=alice)
        file = exported.last.files[0]
        assert exported.last.ephemeral and file.filename == f"test-nim-{match.id}.json"
        path = tmp_path / file.filename
        path.write_bytes(file.data)
        assert main(["replay", str(path)]) == 0
        assert capsys.readouterr().out.startswith("OK: Test Nim game #")
        data = json.loads(file.data)
        data["records"][0]["action"]["count"] = 3 - data["records"][0]["action"]["count"] + 1
        path.write_text(json.dumps(data))
        assert main(["replay", str(path)]) == 1
        out = capsys.readouterr().out.splitlines()
        assert out[0].startswith("the document's sha256 does not match")
        assert any(line.startswith("step 1 (event") for line in out) and out[-1].startswith("FAILED")


# --------------------------------------------------------------------------------------------- stats


async def test_stats_and_leaderboard_after_a_rated_game(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2)
        empty = await discord_.command("leaderboard", {"game": "test-nim"}, user=alice)
        assert empty.public() == [] and empty.last.ephemeral
        assert empty.last.content.startswith("Nobody is rated in Test Nim on this server yet: a rating comes with ")
        await finish_nim(discord_, [alice, bob])
        match = await current_match(discord_)
        outcome = find_game("test-nim").outcome(match.state)
        winner = alice if match.user_at(outcome.winners[0]).user_id == alice.id else bob
        loser = bob if winner is alice else alice
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
        stats = await discord_.command("stats", user=winner)
        assert stats.last.ephemeral
        text = stats.last.content
        assert "1 finished game, 1 won; favourite: Test Nim" in text
        assert f"rating {expected[0][0].ordinal():.1f} (1 rated)" in text
        theirs = await discord_.command("stats", {"player": winner}, user=loser)
        assert theirs.last.content == text
        board = await discord_.command("leaderboard", {"game": "test-nim"}, user=loser)
        assert board.ephemeral()[0].content.startswith("The leaderboard for Test Nim is posted below.")
        image = board.public()[-1]
        assert image.created and image.notified == ()
        png = image.files[0]
        assert png.image().size[0] == 800 and png.image().size[0] >= png.image().size[1]
        assert png.description is not None and f"1. {match.user_at(outcome.winners[0]).name}, rating" in png.description
        zoe = discord_.user("zoe")
        nobody = await discord_.command("stats", {"player": zoe}, user=alice)
        assert "no finished games" in nobody.last.content
        await discord_.bot.service.store.save_profile(  # type: ignore[attr-defined]
            match.guild_id, zoe.id, "monster-expedition", {"won": [1, 2], "failed_attempts": {"3": 1}})
        campaign = await discord_.command("stats", {"player": zoe}, user=alice)
        assert "Monster Expedition: Solinsula campaign: 2 of 10 expeditions won" in campaign.last.content
        other = await discord_.command("leaderboard", {"game": "the-expedition"}, user=alice)
        assert other.ephemeral()[0].content.startswith("Nobody is rated in The Expedition on this server yet")
        assert other.public() == []


async def test_a_game_with_a_computer_player_is_unrated(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "the-expedition"}, user=alice)
        await discord_.command("game add-bot", {"level": "easy"}, user=alice)
        await discord_.command("game start", user=alice)
        service = discord_.bot.service  # type: ignore[attr-defined]
        game = find_game("the-expedition")
        match = await current_match(discord_)
        for _ in range(300):  # alice plays the first legal move; the bot answers at once
            if match.status != "active":
                break
            seat = game.to_act(match.state)[0]
            await service.act(match.channel_id, alice.id, game.legal_actions(match.state, seat)[0])
            match = await current_match(discord_)
        assert match.status == "finished"
        store = service.store
        assert await store.rated_mark(match.id) == (False, "a computer player took part")
        assert await store.ratings(match.guild_id, "the-expedition") == []
        stats = await discord_.command("stats", user=alice)
        assert "The Expedition: 1 played" in stats.last.content and "unrated" in stats.last.content


async def test_a_game_with_a_chosen_seed_is_unrated(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2, seed=12)
        await finish_nim(discord_, [alice, bob])
        match = await current_match(discord_)
        store = discord_.bot.service.store  # type: ignore[attr-defined]
        assert await store.rated_mark(match.id) == (False, "the seed was chosen")
        assert await store.ratings(match.guild_id, "test-nim") == []
