"""Fewer presses and the result for everyone (issue 33), through the offline Discord: a card's value is never
skipped by the first button, Gather that gains nothing is neither first nor unmarked, a step with one legal choice
is made for the player and told, a whole card play or bank-and-roll is one press, and the end of a game pings
every seated person with the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.core import find_game, is_steps
from bot.games.expeditions import GAME as EXPEDITIONS
from bot.offline import DiscordHarness, FakeUser
from tests.reading import read
from tests.tables import current_match, open_table, take

DOV_SEED = 7  # alice moves first holding Dov the Trader, at the basecamp (her mech: Tatanka)


async def _dov_table(discord_: DiscordHarness) -> list[FakeUser]:
    users = await open_table(discord_, "expeditions", 2, seed=DOV_SEED)
    match = await current_match(discord_)
    assert match.state["turn"]["seat"] == 0 and "ch-dov" in match.state["players"][0]["hand"]
    assert match.state["turn"]["remaining"] == ["move", "play", "gather"]  # the first turn: all three actions
    return users


def _board(discord_: DiscordHarness) -> Any:
    return discord_.last_public_message(with_components=True)


def _first_control(board: Any) -> str:
    """The first thing a player reads under the board: the first game button, else the menu's first option."""
    buttons = [b for b in board.buttons() if str(b.get("custom_id", "")).startswith("xt:act:")]
    if buttons:
        return str(buttons[0]["label"])
    return str(board.select_options()[0]["label"])


async def test_the_first_button_after_playing_dov_takes_his_dollar(database: Path) -> None:
    """Played by command, Dov the Trader waits for his steps: pressing the first button (`click 1`) takes his
    +$1; it used to be "Done with this card", which skipped it without a word."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _dov_table(discord_)
        await discord_.command("mech play", {"card": "Dov the Trader"}, user=users[0])
        match = await current_match(discord_)
        assert match.state["turn"]["pending"]["kind"] == "play_steps"
        board = _board(discord_)
        first = next(b for b in board.buttons() if str(b.get("custom_id", "")).startswith("xt:act:"))
        assert "Done" not in first["label"] and "forgo" not in first["label"], first["label"]
        replies = await discord_.click(board, custom_id=first["custom_id"], user=users[0])
        assert not replies.ephemeral(), [r.content for r in replies.ephemeral()]
        after = await current_match(discord_)
        assert after.state["players"][0]["coins"] == 1
        ways_out = [b["label"] for b in _board(discord_).buttons() if "forgo" in str(b["label"])]
        assert all("worker" in label for label in ways_out)  # a way out says what it gives up


async def test_gather_that_gains_nothing_is_not_first_and_says_so(database: Path) -> None:
    """At the basecamp on the first turn, Gather gains nothing: it is not the first control and it says so."""
    async with DiscordHarness(create_bot(database)) as discord_:
        await _dov_table(discord_)
        board = _board(discord_)
        assert not _first_control(board).startswith("Gather")
        gathers = [o for o in board.select_options() if o["label"] == "Gather here"]
        assert gathers and all("gains nothing" in o.get("description", "") for o in gathers)


async def test_a_whole_card_play_is_one_press_and_a_lone_choice_is_made_for_the_player(database: Path) -> None:
    """Dov the Trader with his core value is one menu option; after a move to a face-up place, Gather is the only
    action left and is made for the player in the same move, the story saying so."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _dov_table(discord_)
        board = _board(discord_)
        match = await current_match(discord_)
        entries = EXPEDITIONS.choice_menu(match.state, 0).options
        dov = next(i for i, o in enumerate(entries) if o.label == "Play Dov the Trader" and is_steps(o.action)
                   and {"type": "choose", "option": "core"} in o.action["steps"])
        select = board.selects()[0]["custom_id"]
        await discord_.select(board, select, [str(dov)], user=users[0])
        match = await current_match(discord_)
        assert match.state["players"][0]["coins"] == 1 and not match.state["turn"]["pending"]
        assert match.state["turn"]["remaining"] == ["move", "gather"]
        board = _board(discord_)
        entries = EXPEDITIONS.choice_menu(match.state, 0).options
        south = next(i for i, o in enumerate(entries) if o.action.get("type") == "move"
                     and match.state["spaces"][o.action["space"]]["revealed"])
        await discord_.select(board, board.selects()[0]["custom_id"], [str(south)], user=users[0])
        match = await current_match(discord_)
        assert "gather" not in match.state["turn"]["remaining"], "Gather, the one action left, was made"
        events = await discord_.bot.service.store.events(match.id, last=1)  # type: ignore[attr-defined]
        assert events[-1].action["steps"][-1] == {"type": "gather"}
        assert "Only one choice was left, so it was made: Gather" in events[-1].text
        assert await discord_.bot.service.replayed_state(match.id) == match.state  # type: ignore[attr-defined]


async def test_bank_and_roll_is_one_press(database: Path) -> None:
    """Monster Expedition: a number banked and the rest rolled again with one button."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await open_table(discord_, "monster-expedition", 2, seed=3)
        game = find_game("monster-expedition")
        for _ in range(30):
            match = await current_match(discord_)
            seat = game.to_act(match.state)[0]
            board = _board(discord_)
            labels = [str(b["label"]) for b in board.buttons()]
            rolls = [b for b in board.buttons() if ", roll " in str(b["label"])]
            if match.state["phase"] == "bank" and rolls:
                break
            first = next(b for b in board.buttons() if str(b.get("custom_id", "")).startswith("xt:act:"))
            await discord_.click(board, custom_id=first["custom_id"], user=users[seat])
        else:
            pytest.fail(f"no bank-and-roll button came: {labels}")
        version = match.version
        await discord_.click(board, custom_id=rolls[0]["custom_id"], user=users[seat])
        after = await current_match(discord_)
        assert after.version == version + 1
        kinds = [event["kind"] for event in (await discord_.bot.service.store.events(  # type: ignore[attr-defined]
            match.id, last=1))[-1].events]
        assert "dice_banked" in kinds and kinds.count("dice_rolled") + kinds.count("misthrow") >= 1, kinds


@pytest.mark.parametrize(("language", "words"), [("en", "the game is over"), ("de", "die Partie ist zu Ende")])
async def test_the_end_of_a_game_pings_everyone_seated_with_the_result(database: Path, language: str,
                                                                      words: str) -> None:
    """The final board is one new message that pings every seated person (allowed_mentions names exactly them),
    with the result; no second board for the same final state."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = [discord_.user("alice"), discord_.user("bob")]
        await discord_.command("game new", {"game": "test-nim", "seed": 4, "language": language}, user=users[0])
        await discord_.command("game join", user=users[1])
        await discord_.command("game start", user=users[0])
        for _ in range(20):
            match = await current_match(discord_)
            if match.status != "active":
                break
            seat = match.state["turn"]
            await take(discord_, users[seat], min(3, match.state["pile"]))
        match = await current_match(discord_)
        assert match.status == "finished"
        outcome = find_game(match.game).outcome(match.state)
        summary = read(outcome.summary) if language == "en" else None
        finals = [r for r in discord_.replies if r.created and not r.ephemeral
                  and (r.content or "").rstrip().endswith("**")]
        assert len(finals) == 1, [r.content for r in finals]
        final = finals[0]
        assert set(final.notified) == {users[0].id, users[1].id}
        mentions = final.payload["allowed_mentions"]
        assert sorted(int(u) for u in mentions["users"]) == sorted([users[0].id, users[1].id])
        assert not mentions.get("parse") and not mentions.get("roles")
        assert final.content.startswith(f"<@{users[0].id}> <@{users[1].id}> — {words}")
        if summary is not None:
            assert summary in final.content
        assert final.files
