"""What sets each game mode apart (`Mode.summary`), in the reader's language (issue 21): in the mode choices of
/game new, in the lobby, in /game rules, and in the list of games; German for a German reader, English beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.app import create_bot
from bot.core import all_games, find_game
from bot.offline import DiscordHarness
from bot.service import GameService
from tests.language import english_left

GAMES = [game for game in all_games() if game.key != "test-nim"]
TITLES = frozenset({"Expeditions", "Expedition", "Monster", "Solinsula"})


def test_every_mode_has_a_summary_in_each_language() -> None:
    for game in GAMES:
        for mode in game.modes:
            english, german = mode.summary_in("en"), mode.summary_in("de")
            assert english and german and english != german, (game.key, mode.key)
            assert english_left(german, allowed=TITLES) == [], (game.key, mode.key, german)
            assert english_left(english), (game.key, mode.key, english)  # the English one reads as English
    monster = find_game("monster-expedition")
    assert monster.mode("standard").summary_in("de") == "Wer die meisten Siegpunkte erjagt, gewinnt."
    assert monster.mode("standard").summary_in("en") == "Hunters race for the most victory points."
    assert find_game("the-expedition").mode("solo-hard").summary_in("de") == (
        "Du gegen 2 Automaten; nur Expeditionspunkte zählen.")


def test_the_list_of_games_describes_every_mode_in_german() -> None:
    german = GameService.games_text("de")
    assert "  - `solo` — Solokampagne (1 Spieler): Zehn Expeditionen auf Solinsula (Expedition 1–10, Lagerset " \
           "I–IV)." in german.split("\n")
    for game in GAMES:
        for mode in game.modes:
            assert mode.summary_in("de") in german and mode.summary_in("en") not in german
    assert english_left(german.replace("The Expedition", ""), allowed=TITLES) == []
    english = GameService.games_text("en")
    assert "  - `solo` — Solo campaign (1 player): Ten expeditions on Solinsula (expedition 1-10, camp set " \
           "I-IV)." in english.split("\n")


async def test_mode_choices_lobby_and_rules_speak_the_readers_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob")

        german = await discord_.autocomplete("game new", {"game": "the-expedition", "mode": ""}, focused="mode",
                                             user=alice)
        assert [choice["name"] for choice in german] == [
            "Standard (2–3 Spieler): Alle haben 3 geheime Expeditionskarten auf der Hand.",
            "Abstrakter Modus (2–3 Spieler): Offener Markt mit einer Expeditionskarte mehr, als Personen spielen.",
            "Solo (1 Spieler): Du gegen 2 Automaten; du wertest Orte und Expeditionen.",
            "Solo (zusätzliche Herausforderung) (1 Spieler): Du gegen 2 Automaten; nur Expeditionspunkte zählen."]
        assert [choice["value"] for choice in german] == ["standard", "abstract", "solo", "solo-hard"]
        english = await discord_.autocomplete("game new", {"game": "monster-expedition", "mode": "camp"},
                                              focused="mode", user=bob)
        assert english == [{"name": "Solo campaign (1 player): Ten expeditions on Solinsula (expedition 1-10, "
                                    "camp set I-IV).", "value": "solo"}]
        for game in GAMES:
            for user in (alice, bob):
                choices = await discord_.autocomplete("game new", {"game": game.key, "mode": ""}, focused="mode",
                                                      user=user)
                assert len(choices) == len(game.modes) and all(len(c["name"]) <= 100 for c in choices)

        opened = await discord_.command("game new", {"game": "monster-expedition", "language": "de"}, user=alice)
        lobby = (opened.public()[0].content or "").split("\n")
        assert lobby[:2] == ["**Monster Expedition** — Standard (2–4 Spieler)",
                             "Wer die meisten Siegpunkte erjagt, gewinnt."]

        rules = (await discord_.command("game rules", user=alice)).last.embed["description"]
        assert rules.startswith("**Hier gespielt:** Standard (2–4 Spieler) — Wer die meisten Siegpunkte erjagt, "
                                "gewinnt.\n\n**Monster Expedition** — ")
        rules = (await discord_.command("game rules", user=bob)).last.embed["description"]
        assert rules.startswith("**Played here:** Standard (2-4 players) — Hunters race for the most victory "
                                "points.\n\n")

        rules = (await discord_.command("game rules", {"game": "the-expedition"}, user=alice)).last
        modes = rules.embed["description"].split("\n\n")[-1].split("\n")
        assert modes == ["**Modi** (`/spiel neu modus:`):",
                         "- `standard` — Standard (2–3 Spieler): Alle haben 3 geheime Expeditionskarten auf der Hand.",
                         "- `abstract` — Abstrakter Modus (2–3 Spieler): Offener Markt mit einer Expeditionskarte "
                         "mehr, als Personen spielen.",
                         "- `solo` — Solo (1 Spieler): Du gegen 2 Automaten; du wertest Orte und Expeditionen.",
                         "- `solo-hard` — Solo (zusätzliche Herausforderung) (1 Spieler): Du gegen 2 Automaten; "
                         "nur Expeditionspunkte zählen."]


@pytest.mark.parametrize("key", [game.key for game in GAMES])
async def test_every_solo_and_german_rules_answer_fits_one_embed(database: Path, key: str) -> None:
    """The longest /game rules answer (a solo mode's rules in German, after its 'played here' line) is whole."""
    game = find_game(key)
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice", locale="de")
        mode = game.modes[-1]
        await discord_.command("game new", {"game": key, "mode": mode.key, "language": "de"}, user=alice)
        rules = (await discord_.command("game rules", user=alice)).last.embed["description"]
        assert rules.endswith(game.rules_text(mode.key, "de")) and mode.summary_in("de") in rules
