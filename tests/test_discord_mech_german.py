"""Expeditions at a German table through discord.py's real interaction path (issue 21): a whole 2-player game by
/mech commands, board buttons and select menus; every public message, button and menu, the image's alt text, every
private answer of the German players, /game mine, /game log and /game rules read German; an English player at the
same table reads English in private, and the autocomplete speaks each reader's language."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.policies import planned_action
from bot.offline import DiscordHarness, FakeUser, Replies
from tests.language import english_left
from tests.test_discord_mech import command_for

SEED = 5
ALLOWED = frozenset({"Alice", "Bob", "Expeditions", "Highlander", "Tatanka", "mech", "odin",
                     "Marsh"})
"""Player names, names the same in both languages and command words (/mech odin)."""


async def _match(discord_: DiscordHarness) -> Any:
    return await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]


def words_of(replies: Replies) -> list[str]:
    """Every text of the replies: contents, embeds, buttons, menus (placeholders, options) and the alt texts."""
    found: list[str] = []
    for reply in replies:
        found.append(reply.content or "")
        for embed in reply.embeds:
            found += [str(embed.get("title") or ""), str(embed.get("description") or "")]
            found += [f"{f.get('name')} {f.get('value')}" for f in embed.get("fields", [])]
        found += reply.button_labels()
        for select in reply.selects():
            found.append(str(select.get("placeholder") or ""))
            found += [f"{o.get('label')} {o.get('description') or ''}" for o in select.get("options", [])]
        found += [f.description or "" for f in reply.files]
    return [text for text in found if text]


def assert_german(texts: list[str]) -> None:
    left = [(word, text[:160]) for text in texts for word in english_left(text, allowed=ALLOWED)]
    assert not left, left[:10]


async def test_a_whole_german_game_of_expeditions_reads_german(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob", locale="de")
        english = discord_.user("carol")  # watches with an English Discord client
        texts: list[str] = []
        texts += words_of(await discord_.command("game new", {"game": "expeditions", "seed": SEED, "language": "de"},
                                                 user=alice))
        texts += words_of(await discord_.command("game join", user=bob))
        texts += words_of(await discord_.command("game start", user=alice))
        users = [alice, bob]
        rnd = random.Random(SEED)
        checked_autocomplete = False
        for step in range(1500):
            match = await _match(discord_)
            if match.status != "active":
                break
            seat = GAME.to_act(match.state)[0]
            action = planned_action(GAME, match.state, seat, rnd)
            state = match.state
            if not checked_autocomplete and "move" in state["turn"]["remaining"] and not state["turn"]["pending"] \
                    and state["turn"]["phase"] == "actions":
                offered = await discord_.autocomplete("mech move", {"location": ""}, focused="location",
                                                      user=users[seat])
                assert [c["name"] for c in offered] == [label for _, label in
                                                        GAME.legal_destinations(state, seat, "de")]
                assert_german([c["name"] for c in offered])
                checked_autocomplete = True
            board = discord_.last_public_message(with_components=True)
            buttons = [b.action for b in GAME.quick_actions(state, seat, "de")]
            if step % 2 == 0 and action in buttons:
                custom_id = f"xt:act:{match.id}:{match.version}:{seat}:{buttons.index(action)}"
                replies = await discord_.click(board, custom_id=custom_id, user=users[seat])
            else:
                path, options = command_for(action)
                replies = await discord_.command(path, options, user=users[seat])
            assert replies.public(), [r.content for r in replies]
            texts += words_of(replies)
            if step % 25 == 0:
                texts += words_of(await discord_.command("game mine", user=users[seat]))
        match = await _match(discord_)
        assert match.status == "finished"
        assert checked_autocomplete
        texts += words_of(await discord_.command("game log", {"count": 20}, user=alice))
        texts += words_of(await discord_.command("game rules", user=bob))
        texts += [message.content or "" for message in discord_.channel_messages()]
        assert_german(texts)
        final = discord_.channel_messages()[-1]
        assert "gewinnt mit" in (final.content or "") or "gewinnen mit" in (final.content or "")

        # An English reader at the German table: /game rules and refusals in English, the board stays German.
        rules = await discord_.command("game rules", user=english)
        assert "**Scoring:**" in " ".join(words_of(rules))
        refused = await discord_.command("mech gather", user=english)
        assert refused.last.ephemeral and english_left(refused.last.content or "")


async def test_a_refusal_and_the_autocomplete_follow_the_reader(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob")  # Bob's client is English
        await discord_.command("game new", {"game": "expeditions", "seed": SEED, "language": "de"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        match = await _match(discord_)
        seat = GAME.to_act(match.state)[0]
        users: list[FakeUser] = [alice, bob]
        waiting = users[1 - seat]
        refused = await discord_.command("mech gather", user=waiting)
        assert refused.last.ephemeral
        told = refused.last.content or ""
        assert bool(english_left(told, allowed=ALLOWED)) == (waiting is bob), told  # the reader's language
        cards = await discord_.autocomplete("mech play", {"card": ""}, focused="card", user=users[seat])
        language = "de" if users[seat] is alice else "en"
        hand = match.state["players"][seat]["hand"]
        assert cards == [] or [c["name"] for c in cards] == [GAME.comp.cards[c].names[language] for c in hand]
        if language == "de":  # the English name typed by a German reader still finds the card
            english_name = GAME.comp.cards[hand[0]].names["en"]
            typed = await discord_.autocomplete("mech play", {"card": english_name[:6]}, focused="card",
                                                user=users[seat])
            assert GAME.comp.cards[hand[0]].names["de"] in [c["name"] for c in typed] or not cards
