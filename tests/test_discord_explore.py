"""The Expedition through discord.py's real interaction path: a whole game of every mode, with slash commands,
autocomplete and board buttons; a restart in the middle; hidden hands; refusals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.games.the_expedition import GAME
from bot.games.the_expedition.rules.policies import greedy_action
from bot.offline import DiscordHarness, FakeUser
from tests.reading import read
from tests.tables import assert_result_told_once, current_match, open_table

_match = current_match


async def _open_table(discord_: DiscordHarness, mode: str, players: int, seed: int) -> list[FakeUser]:
    return await open_table(discord_, "the-expedition", players, mode=mode, seed=seed)


async def _play(discord_: DiscordHarness, users: list[FakeUser], seed: int, limit: int = 200) -> int:
    """Play greedy moves until the game ends, alternating slash commands and board buttons. Returns moves made."""
    chooser = random.Random(seed)
    for move in range(limit):
        match = await _match(discord_)
        if match.status != "active":
            return move
        seat = GAME.to_act(match.state)[0]
        action = greedy_action(match.state, GAME.catalog, seat, chooser)
        user = users[seat]
        if action["type"] == "place":
            name = GAME.catalog.location(action["location"]).name
            if move % 2 == 0:
                choices = await discord_.autocomplete("explore place", {"location": name[:2]}, focused="location",
                                                      user=user)
                assert action["location"] in [c["value"] for c in choices]
            replies = await discord_.command("explore place", {"location": name}, user=user)
        elif move % 2 == 0:
            replies = await discord_.command("explore move", {"direction": action["direction"]}, user=user)
        else:
            board = discord_.last_public_message(with_components=True)
            label = next(label for label in board.button_labels()
                         if label.lower().startswith(action["direction"] + ":"))
            replies = await discord_.click(board, label=label, user=user)
        assert replies.public(), [r.content for r in replies]
    raise AssertionError(f"no end after {limit} moves")


@pytest.mark.parametrize(("mode", "players", "seed"), [
    ("standard", 2, 3), ("standard", 3, 5), ("abstract", 2, 2), ("abstract", 3, 4), ("solo", 1, 1),
    ("solo-hard", 1, 2),
])
async def test_a_whole_game_of_every_mode(database: Path, mode: str, players: int, seed: int) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_, mode, players, seed)
        first = discord_.last_public_message()
        assert first.files and first.files[0].image().size == (800, 650)
        if mode.startswith("solo"):  # the two Automation cards are revealed, in order, before the player places
            assert "(Automation cards revealed: Automation 1 is " in first.content
        moves = await _play(discord_, users, seed)
        match = await _match(discord_)
        outcome = GAME.outcome(match.state)
        assert match.status == "finished" and outcome is not None and moves > 0
        final = discord_.channel_messages()[-1]
        assert read(outcome.summary) in final.content and final.files
        assert final.button_labels() == ["Show mine", "Details", "What's this?"]
        await assert_result_told_once(discord_)
        # the log replays to exactly the stored state
        assert await discord_.bot.service.replayed_state(match.id) == match.state  # type: ignore[attr-defined]


async def test_hands_stay_private(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_, "standard", 3, 8)
        match = await _match(discord_)
        hands = [GAME.catalog.expedition(card).name for player in match.state["players"] for card in player["hand"]]
        assert len(hands) == 9
        for user in users:
            mine = (await discord_.command("game mine", user=user)).one()
            assert mine.ephemeral
        alices = [GAME.catalog.expedition(card).name for card in match.state["players"][0]["hand"]]
        mine = (await discord_.command("game mine", user=users[0])).one()
        assert all(name in (mine.content or "") for name in alices)
        for message in discord_.channel_messages():
            assert not any(name in message.content for name in hands)


async def test_a_restart_in_the_middle_continues_with_the_old_board(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_, "standard", 2, 11)
        for _ in range(4):  # both place, then a move each
            match = await _match(discord_)
            seat = GAME.to_act(match.state)[0]
            board = discord_.last_public_message(with_components=True)
            await discord_.click(board, custom_id=board.custom_ids()[0], user=users[seat])
        board = discord_.last_public_message(with_components=True)
        before = await _match(discord_)
        world = discord_.world
    async with DiscordHarness(create_bot(database), world=world) as restarted:
        seat = GAME.to_act(before.state)[0]
        replies = await restarted.click(board, custom_id=board.custom_ids()[0], user=users[seat])
        assert replies.public() and (await _match(restarted)).version == before.version + 1


async def test_refusals_are_private_and_explain(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_, "standard", 2, 6)
        match = await _match(discord_)
        seat = GAME.to_act(match.state)[0]
        other = users[1 - seat]
        reply = (await discord_.command("explore place", {"location": "Luna"}, user=other)).one()
        assert reply.ephemeral and "not your turn" in (reply.content or "")
        reply = (await discord_.command("explore move", {"direction": "up"}, user=users[seat])).one()
        assert reply.ephemeral and "Setup first: place your explorer with /explore place" in (reply.content or "")
        assert "Empty locations: " in (reply.content or "")
        reply = (await discord_.command("explore place", {"location": "Pluto"}, user=users[seat])).one()
        assert reply.ephemeral and "Pluto" in (reply.content or "")
        assert (await _match(discord_)).version == match.version


async def test_a_german_table_plays_in_german_and_each_reader_is_answered_in_their_language(database: Path) -> None:
    """Issue 21: /game new language:de; a German and an English client at the table. Every public message (story,
    turn, buttons, result) and the board's description are German; autocomplete, /game mine, /game rules and
    refusals follow each reader's client."""
    from tests.language import english_left

    names = frozenset({"Alice", "Bob"})

    def german(text: str) -> list[str]:
        return english_left(text.replace("The Expedition", ""), allowed=names)

    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob")
        await discord_.command("game new", {"game": "the-expedition", "mode": "standard", "seed": 3,
                                            "language": "de"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        users = {}
        match = await _match(discord_)
        for seat in range(2):
            users[seat] = alice if match.user_at(seat).user_id == alice.id else bob
        chooser = random.Random(3)
        for move in range(200):
            match = await _match(discord_)
            if match.status != "active":
                break
            seat = GAME.to_act(match.state)[0]
            user = users[seat]
            language = "de" if user is alice else "en"
            action = greedy_action(match.state, GAME.catalog, seat, chooser)
            if action["type"] == "place":
                name = GAME.catalog.location(action["location"]).names[language]
                choices = await discord_.autocomplete("explore place", {"location": name[:3]}, focused="location",
                                                      user=user)
                assert name in [c["name"].split(" (")[0] for c in choices], choices
                if user is alice:
                    assert all(" Pkt.)" in c["name"] for c in choices)
                replies = await discord_.command("explore place", {"location": name}, user=user)
            elif move % 2:
                board = discord_.last_public_message(with_components=True)
                word = {"up": "Oben", "down": "Unten", "left": "Links", "right": "Rechts"}.get(action["direction"])
                label = next(label for label in board.button_labels() if label.startswith(f"{word}:"))
                replies = await discord_.click(board, label=label, user=user)
            else:
                replies = await discord_.command("explore move", {"direction": action["direction"]}, user=user)
            assert replies.public(), [r.content for r in replies]
        match = await _match(discord_)
        assert match.status == "finished"
        found = []
        for message in discord_.channel_messages():
            found += german(message.content or "")
            found += german(" ".join(message.button_labels()))
            for file in message.files:
                found += german(file.description or "")
        assert not found, found[:10]
        final = discord_.channel_messages()[-1]
        assert "Das Spiel endete, denn " in final.content
        # Private answers follow the reader: the rules, and a refusal, for each client.
        rules_de = (await discord_.command("game rules", user=alice)).last.embed["description"]
        assert "**Wertung:**" in rules_de and not german(rules_de)
        rules_en = (await discord_.command("game rules", user=bob)).last.embed["description"]
        assert "**Scoring:**" in rules_en
        refused = (await discord_.command("explore move", {"direction": "up"}, user=alice)).last.content or ""
        assert not german(refused), refused
