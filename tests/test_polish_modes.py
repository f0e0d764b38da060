"""A refused mode names the modes as Discord's mode choices show them, in the reader's language (their titles, not
the keys the code knows them by), and a mode is accepted by its key or by any of its titles."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core.errors import LobbyError
from bot.offline import DiscordHarness
from tests.language import english_left
from tests.tables import current_match

GERMAN_REFUSAL = ("The Expedition hat keinen Modus „blitz“. Wähle einen von: Standard, Abstrakter Modus, Solo, "
                  "Solo (zusätzliche Herausforderung).")
ENGLISH_REFUSAL = ("The Expedition has no mode called 'blitz'. Choose one of: Standard, Abstract Mode, Solo, "
                   "Solo (added challenge).")


async def test_an_unknown_mode_is_refused_with_the_mode_titles_in_the_readers_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob", locale="en-US")
        german = (await discord_.command("game new", {"game": "the-expedition", "mode": "blitz"}, user=alice)).one()
        assert german.ephemeral and german.content == GERMAN_REFUSAL
        assert english_left(german.content.replace("The Expedition", "")) == []
        assert "abstract" not in german.content and "solo-hard" not in german.content
        english = (await discord_.command("game new", {"game": "the-expedition", "mode": "blitz"}, user=bob)).one()
        assert english.ephemeral and english.content == ENGLISH_REFUSAL
        with pytest.raises(LobbyError):  # nothing was opened
            await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]

        # Each title the refusal lists is a name in Discord's mode choices of /game new.
        choices = await discord_.autocomplete("game new", {"game": "the-expedition", "mode": ""}, focused="mode",
                                              user=alice)
        listed = GERMAN_REFUSAL.split(": ", 1)[1].rstrip(".").split(", ")
        assert len(choices) == len(listed) == 4
        assert all(choice["name"].startswith(f"{title} (") for choice, title in zip(choices, listed, strict=True))


@pytest.mark.parametrize(("typed", "key"), [
    ("solo-hard", "solo-hard"), ("abstract", "abstract"), ("Abstrakter Modus", "abstract"),
    ("abstract mode", "abstract"), ("Solo (zusätzliche Herausforderung)", "solo-hard"), (" STANDARD ", "standard")])
async def test_a_mode_is_accepted_by_its_key_or_any_of_its_titles(database: Path, typed: str, key: str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice = discord_.user("alice", locale="de")
        replies = await discord_.command("game new", {"game": "the-expedition", "mode": typed}, user=alice)
        assert not any(reply.content.startswith("The Expedition hat keinen Modus") for reply in replies.messages())
        assert (await current_match(discord_)).mode == key


async def test_the_server_default_mode_is_refused_and_confirmed_by_title(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", locale="de", manage_guild=True)
        refused = (await discord_.command("settings mode", {"game": "monster-expedition", "mode": "kampagne"},
                                          user=admin)).one()
        assert refused.ephemeral and refused.content == (
            "Monster Expedition hat keinen Modus „kampagne“. Wähle einen von: Standard, Solokampagne.")
        assert await discord_.bot.service.store.settings(discord_.guild.id) == {}  # type: ignore[attr-defined]
        chosen = (await discord_.command("settings mode", {"game": "monster-expedition", "mode": "Solokampagne"},
                                         user=admin)).one()
        assert chosen.content.startswith("Monster Expedition startet jetzt in: Solokampagne")
        first = (await discord_.command("settings mode", {"game": "the-expedition"}, user=admin)).one()
        assert first.content.startswith(
            "The Expedition startet in seinem ersten Modus (Standard), wenn /spiel neu keinen nennt.")
