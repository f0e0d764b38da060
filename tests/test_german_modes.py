"""What sets each game mode apart (`Mode.summary`), in the reader's language (issue 21): in the mode choices of
/game new, in the lobby, in /game rules, and in the list of games; German for a German reader, English beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.app import create_bot
from bot.core import all_games, find_game
from bot.core.errors import LobbyError
from bot.features import rules
from bot.offline import DiscordHarness
from bot.service import GameService
from tests.language import english_left
from tests.reading import read

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
            "Abstrakter Modus (2–3 Spieler): Offene Auslage: eine Expeditionskarte mehr als Spieler am Tisch.",
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
                                "gewinnt.\n\n**Monster Expedition: So wird gespielt**\n")
        rules = (await discord_.command("game rules", user=bob)).last.embed["description"]
        assert rules.startswith("**Played here:** Standard (2-4 players) — Hunters race for the most victory "
                                "points.\n\n**Monster Expedition: how to play**\n")

        rules = (await discord_.command("game rules", {"game": "the-expedition"}, user=alice)).last
        page = (await discord_.click(rules, label="Modi", user=alice)).last
        modes = page.embed["description"].split("\n")
        assert modes == ["**Modi** (`/spiel neu modus:`):",
                         "- `standard` — Standard (2–3 Spieler): Alle haben 3 geheime Expeditionskarten auf der Hand.",
                         "- `abstract` — Abstrakter Modus (2–3 Spieler): Offene Auslage: eine Expeditionskarte "
                         "mehr als Spieler am Tisch.",
                         "- `solo` — Solo (1 Spieler): Du gegen 2 Automaten; du wertest Orte und Expeditionen.",
                         "- `solo-hard` — Solo (zusätzliche Herausforderung) (1 Spieler): Du gegen 2 Automaten; "
                         "nur Expeditionspunkte zählen."]


@pytest.mark.parametrize("key", [game.key for game in all_games() if rules.has_pages(game.key)])
async def test_every_solo_and_german_rules_answer_fits_one_embed(database: Path, key: str) -> None:
    """/game rules of a solo (last) mode in German: the 'played here' line, then the whole how-to-play; every page
    of the mode in one embed."""
    game = find_game(key)
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice", locale="de")
        mode = game.modes[-1]
        await discord_.command("game new", {"game": key, "mode": mode.key, "language": "de"}, user=alice)
        reply = (await discord_.command("game rules", user=alice)).last
        first = rules.page_text(key, mode.key, rules.page(key, mode.key, rules.FIRST_PAGE), "de")
        assert reply.embed["description"].endswith("\n\n" + first) and mode.summary_in("de") in reply.embed[
            "description"]
        for label in reply.button_labels()[1:]:
            page = (await discord_.click(reply, label=label, user=alice)).last
            assert len(page.embeds) == 1 and page.embed["description"], label


async def test_an_unknown_mode_is_refused_in_the_readers_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob")
        refused = (await discord_.command("game new", {"game": "the-expedition", "mode": "blitz"}, user=alice)).last
        assert refused.ephemeral and refused.content == (
            "The Expedition hat keinen Modus „blitz“. Wähle einen von: Standard, Abstrakter Modus, Solo, "
            "Solo (zusätzliche Herausforderung).")
        refused = (await discord_.command("game new", {"game": "the-expedition", "mode": "blitz"}, user=bob)).last
        assert refused.content == (
            "The Expedition has no mode called 'blitz'. Choose one of: Standard, Abstract Mode, Solo, "
            "Solo (added challenge).")
        with pytest.raises(LobbyError):  # nothing was opened
            await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]

        admin = discord_.user("admin", locale="de", manage_guild=True)
        choices = await discord_.autocomplete("settings mode", {"game": "monster-expedition", "mode": ""},
                                              focused="mode", user=admin)
        assert [choice["name"] for choice in choices] == ["Standard (2–4 Spieler)", "Solokampagne (1 Spieler)"]


def test_an_unknown_game_and_a_generic_chance_are_worded_for_the_reader() -> None:
    with pytest.raises(LobbyError) as refused:
        find_game("schach")
    assert read(refused.value.text("de")).startswith("Es gibt kein Spiel namens „schach“. Die Spiele: expeditions, ")
    assert read(refused.value.text("en")).startswith("There is no game called 'schach'. The games are: expeditions, ")
    game = find_game("the-expedition")  # its moves draw nothing, so an undo refusal words the default
    assert game.chance_text([], "de") == "ein Würfel wurde geworfen oder eine Karte gemischt"
    assert game.chance_text([], "en") == "a die was rolled or a card was shuffled"
