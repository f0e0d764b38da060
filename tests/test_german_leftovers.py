"""English and broken German found at a German table by playing the paths the whole-game tests do not (issue 21):
each finding with the test that failed before its fix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.core.names import did_you_mean
from bot.offline import DiscordHarness
from rendering.typeset import clip_alt
from tests.language import english_left
from tests.test_discord_german_games import _match, _play_to_the_end
from tests.test_discord_mech_german import words_of

pytestmark = pytest.mark.usefixtures("thread_bots")

DOUBLED_MARK = re.compile(r"[!?.]\.(?!\.)|(?<!\.)\.\.(?!\.)")
"""A sentence's mark followed by a full stop ("geschlagen!.", "alle 6 Std.."), not an ellipsis."""


async def test_the_settings_sentences_read_as_german(database: Path) -> None:
    """"Ab dem nächsten Zug Erinnerungen alle 6 Std.." ended with two full stops, and the timer's line read
    "danach der Zug wird übersprungen" (a main clause's word order after "danach")."""
    async with DiscordHarness(create_bot(database)) as discord_:
        admin = discord_.user("alice", locale="de", manage_guild=True)
        english = discord_.user("bob", locale="en-US", manage_guild=True)
        reminders = (await discord_.command("settings reminders", {"hours": 6}, user=admin)).last.content
        assert reminders.splitlines()[0] == "Alle 6 Std. eine Erinnerung, ab dem nächsten Zug."
        timer = (await discord_.command("settings timer", {"hours": 2, "policy": "skip"}, user=admin)).last.content
        assert ("- Zeitlimit pro Zug (`/einstellungen zeitlimit`): 2 Std. pro Zug; danach: der Zug wird "
                "übersprungen, wo das Spiel Passen erlaubt, sonst macht ihn ein Computerspieler") in timer.splitlines()
        for text in (reminders, timer):
            assert not DOUBLED_MARK.search(text), text
            assert english_left(text) == []
        told = (await discord_.command("settings reminders", {"hours": 6}, user=english)).last.content
        assert told.splitlines()[0] == "Reminders every 6 h from the next turn on."


def test_an_alt_text_sentence_keeps_its_own_mark() -> None:
    assert clip_alt(["The Expedition, Solo.", "Spielende: Du hast die Automaten geschlagen!.", "Alle 6 Std..",
                     "Warte..."]) == ("The Expedition, Solo. Spielende: Du hast die Automaten geschlagen! Alle 6 Std. "
                                      "Warte...")


async def test_a_won_solo_boards_alt_text_has_one_mark(database: Path) -> None:
    """The final board of a won solo game described itself as "Spielende: Du hast die Automaten geschlagen!. …"."""
    game = find_game("the-expedition")
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice", locale="de")
        await discord_.command("game new", {"game": game.key, "mode": "solo", "seed": 1, "language": "de"},
                               user=alice)
        await _play_to_the_end(discord_, game, {0: alice}, 1)
        assert (await _match(discord_)).status == "finished"
        alts = [sent.description or "" for message in discord_.channel_messages() for sent in message.files]
        assert any("Spielende: Du hast die Automaten geschlagen! Letzter Zug: " in alt for alt in alts), alts[-1]
        assert [alt for alt in alts if DOUBLED_MARK.search(alt)] == []


async def test_a_solo_campaign_opened_with_hunt_solo_plays_in_the_servers_language(database: Path) -> None:
    """/hunt solo opened every table in English: it did not ask for the table's language as /game new does."""
    async with DiscordHarness(create_bot(database)) as discord_:
        discord_.world.guild_locale = "de"
        alice = discord_.user("alice", locale="de")
        await discord_.command("hunt solo", user=alice)
        match = await _match(discord_)
        assert match.language == "de"
        board = discord_.last_public_message()
        assert "Monster Expedition (Solokampagne) hat begonnen." in board.content, board.content
        assert english_left(board.content.replace("Monster Expedition", ""), allowed=frozenset({"Alice"})) == []
        carol = discord_.user("carol", manage_guild=True)
        await discord_.command("settings language", {"language": "en"}, user=carol)
        english = discord_.channel("english")
        await discord_.command("hunt solo", user=carol, channel=english)
        assert (await _match(discord_, english)).language == "en"
        assert "Monster Expedition (Solo campaign) started." in discord_.last_public_message(english).content


async def test_another_games_command_is_named_as_the_readers_discord_shows_it(database: Path) -> None:
    """"(/hunt gehört zu Monster Expedition)": a German reader was told the English names of the game's commands."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob", locale="en-US")
        await discord_.command("game new", {"game": "expeditions", "language": "de"}, user=alice)
        await discord_.command("game start", user=alice)
        german = (await discord_.command("hunt roll", user=alice)).last.content
        assert german == ("In diesem Kanal wird Expeditions gespielt: Züge macht man mit den Befehlen von /mech und "
                          "den Schaltflächen unter dem Spielplan (/jagd gehört zu Monster Expedition). /spiel "
                          "regeln erklärt sie.")
        english = (await discord_.command("explore move", {"direction": "up"}, user=bob)).last.content
        assert english == ("This channel is playing Expeditions: its moves are made with /mech commands and the "
                           "buttons under the board (/explore is for The Expedition). /game rules explains them.")
        listed = "\n".join(words_of(await discord_.command("game rules", user=alice, channel=discord_.channel("leer"))))
        assert "- **Monster Expedition** (/jagd):" in listed and "- **The Expedition** (/erkunden):" in listed


def test_the_typo_helper_asks_in_the_readers_language() -> None:
    """bot.core.names.did_you_mean, the helper a game's refusal may use, asked only in English."""
    assert did_you_mean("Lanten", ["Laterne", "Lantern"], "de") == " Meintest du Lantern?"
    assert did_you_mean("Lanten", ["Lantern"]) == " Did you mean Lantern?"
    assert did_you_mean("zebra", ["Lantern"], "de") == ""
