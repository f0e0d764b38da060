"""Every game and mode played to its end at a German table through the offline Discord (issue 21 item 6).

Whole games the other German tests do not play: Monster Expedition (standard and the solo campaign), Expeditions
solo, The Expedition's abstract and solo modes. Moves are the normal computer player's choice, submitted by the
board's buttons where one offers it and by the game's slash command otherwise. Every public message (content,
buttons, menus, alt text), and the German reader's /game mine, /game hint and /game rules, must hold no English;
an English table in the same server stays English."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.core.bots import bot_view, choose
from bot.offline import DiscordHarness, FakeUser
from tests.language import english_left
from tests.test_discord_mech import command_for
from tests.test_discord_mech_german import words_of

ALLOWED = frozenset({"Alice", "Bob", "Expeditions", "Highlander", "Tatanka", "mech", "odin",
                     "Marsh", "Expedition", "Monster"})
"""Player names, game titles, and names the same in both languages (see tests/test_discord_mech_german.py)."""

MODES = [  # (game, mode, German players, seed); the two-player modes the other German tests play are left out
    ("monster-expedition", "standard", 2, 5),
    ("monster-expedition", "solo", 1, 3),
    ("expeditions", "standard", 1, 4),
    ("the-expedition", "abstract", 2, 2),
    ("the-expedition", "solo", 1, 1),
    ("the-expedition", "solo-hard", 1, 2),
]


async def _match(discord_: DiscordHarness, channel: Any = None) -> Any:
    channel = channel or discord_.default_channel
    return await discord_.bot.service.current(channel.id)  # type: ignore[attr-defined]


async def _command(discord_: DiscordHarness, game: Any, action: dict[str, Any], user: FakeUser) -> Any | None:
    """The game's own slash command for `action` (None where the game has none the test knows of)."""
    if game.key == "expeditions":
        path, options = command_for(action)
        return await discord_.command(path, options, user=user)
    if game.key == "the-expedition":
        if action["type"] == "place":
            name = game.catalog.location(action["location"]).names["de"]
            return await discord_.command("explore place", {"location": name}, user=user)
        return await discord_.command("explore move", {"direction": action["direction"]}, user=user)
    return None


async def _play_to_the_end(discord_: DiscordHarness, game: Any, users: dict[int, FakeUser], seed: int,
                           limit: int = 1500) -> list[str]:
    """Play the normal bot's moves until the game ends; returns every text the replies showed."""
    chooser = random.Random(seed)
    texts: list[str] = []
    for step in range(limit):
        match = await _match(discord_)
        if match.status != "active":
            return texts
        seat = game.to_act(match.state)[0]
        user = users[seat]
        action = choose(game, bot_view(game, match.state, seat), seat, "normal", chooser)
        buttons = [offer.action for offer in game.quick_actions(match.state, seat, "de")]
        replies = None
        if action not in buttons:
            replies = await _command(discord_, game, action, user)
        if replies is None:
            index = buttons.index(action) if action in buttons else chooser.randrange(len(buttons))
            board = discord_.last_public_message(with_components=True)
            replies = await discord_.click(board, custom_id=f"xt:act:{match.id}:{match.version}:{seat}:{index}",
                                           user=user)
        assert replies.public(), [r.content for r in replies]
        texts += words_of(replies)
        if step % 40 == 0:  # the reader's private answers, at the table's turn: theirs, and a hint
            texts += words_of(await discord_.command("game mine", user=user))
            if (await _match(discord_)).status == "active":
                now = game.to_act((await _match(discord_)).state)[0]
                texts += words_of(await discord_.command("game hint", user=users[now]))
    raise AssertionError(f"no end after {limit} moves")


@pytest.mark.parametrize(("key", "mode", "players", "seed"), MODES)
async def test_a_whole_german_game_reads_german(database: Path, key: str, mode: str, players: int,
                                                seed: int) -> None:
    game = find_game(key)
    async with DiscordHarness(create_bot(database)) as discord_:
        people = [discord_.user(name, locale="de") for name in ("alice", "bob")[:players]]
        texts = words_of(await discord_.command(
            "game new", {"game": key, "mode": mode, "seed": seed, "language": "de"}, user=people[0]))
        for person in people[1:]:
            texts += words_of(await discord_.command("game join", user=person))
        if (await _match(discord_)).status == "lobby":  # a solo mode starts by itself; a 1-5 player game not
            texts += words_of(await discord_.command("game start", user=people[0]))
        match = await _match(discord_)
        assert match.status == "active" and match.language == "de"
        by_id = {person.id: person for person in people}
        users = {seat: by_id[match.user_at(seat).user_id] for seat in range(players)}
        texts += await _play_to_the_end(discord_, game, users, seed)
        match = await _match(discord_)
        assert match.status == "finished" and game.outcome(match.state) is not None
        texts += words_of(await discord_.command("game mine", user=people[0]))
        texts += words_of(await discord_.command("game rules", user=people[-1]))
        for message in discord_.channel_messages():
            texts += [message.content or "", *message.button_labels()]
            texts += [sent.description or "" for sent in message.files]
        titled = [text.replace("The Expedition", "") for text in texts]  # the game's name, the same in German
        left = {word: text[:200] for text in titled for word in english_left(text, allowed=ALLOWED)}
        assert not left, left

        # An English table in the same server, beside it: English lobby, board and private answers.
        carol = discord_.user("carol")
        english = discord_.channel("english")
        await discord_.command("game new", {"game": key, "mode": mode, "seed": seed}, user=carol, channel=english)
        if players > 1:
            await discord_.command("game join", user=discord_.user("dave"), channel=english)
        if (await _match(discord_, english)).status == "lobby":
            await discord_.command("game start", user=carol, channel=english)
        board = discord_.last_public_message(english)
        assert (await _match(discord_, english)).language == "en"
        assert english_left(board.content or ""), board.content
        assert board.button_labels()[-3:] == ["Show mine", "Details", "What's this?"]
        rules = await discord_.command("game rules", user=carol, channel=english)
        assert english_left(" ".join(words_of(rules)))

