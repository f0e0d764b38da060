"""`expedition-bot local --language de`: its own commands, the slash commands and their options typed by the
names a German Discord shows, and its refusals, in German (issue 21); the English names keep working."""

from __future__ import annotations

import asyncio
import json
import random
import shlex
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.cli import main
from bot.cli.local import LocalTable
from bot.command_translator import choice_message_id
from bot.core import find_game
from bot.core.bots import bot_view, choose
from bot.i18n import translate
from bot.offline import DiscordHarness
from tests.language import english_left

ALLOWED = frozenset({"alice", "bob", "Alice", "Bob", "Expedition", "as", "buttons", "click", "choose", "commands",
                     "help", "quit", "NAME", "N"})
"""Player names, the game's title, and the English table commands the German help says work too."""


def play_script(tmp_path: Path, lines: list[str], *language: str) -> None:
    """Run `expedition-bot local` (with `--language X` when given) on these lines; it must end cleanly."""
    script = tmp_path / "moves.txt"
    script.write_text("\n".join([*lines, "quit"]))
    flags = ["--language", *language] if language else []
    assert main(["local", *flags, "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0


def test_a_german_player_picks_a_choice_by_its_german_name(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["/spiel neu spiel:monster-expedition modus:solo startwert:3", "/jagd lager region:Horst"],
                "de")
    out = capsys.readouterr().out
    assert "region must be one of" not in out
    assert "Alice jagt vom Lager Horst aus (Stufe 1 von 8)" in out


def test_the_full_german_choice_name_and_the_english_one_work_too(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["/spiel neu spiel:monster-expedition modus:solo startwert:3",
                           '/jagd lager "region:Tiefen (blauer Würfel)"'], "de")
    assert "Alice jagt vom Lager Tiefen aus" in capsys.readouterr().out
    play_script(tmp_path, ["/game new game:monster-expedition mode:solo seed:3", "/hunt camp region:Depths"])
    assert "Alice hunts from the Depths camp (level 1 of 8)" in capsys.readouterr().out


def test_the_local_tables_own_words_are_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its help, its own commands typed in German, what it could not read, who sees a reply and the buttons under
    it: the terminal's language."""
    play_script(tmp_path, ["hilfe", "/spiel neu spiel:monster-expedition", "als bob", "/spiel beitreten",
                           "schaltflächen", "wähle 1", "/spiel unsinn", "klicke Nix", "hallo", "klicke", "admin",
                           "als carol admin", "befehle"], "de")
    out = capsys.readouterr().out
    for line in ("Tippe 'hilfe' für Hilfe; du bist alice (wechseln mit 'als bob').",
                 "Tippe Slash-Befehle wie in Discord, z. B.", "  klicke NAME|N      drückt eine Schaltfläche der "
                 "neuesten Nachricht mit Schaltflächen (Beschriftung oder Nummer)", "--- nur alice sieht:",
                 "--- gepostet:", "(jetzt tippt Bob)", "--- nur bob sieht:",
                 "Schaltflächen: [1] Beitreten  [2] Verlassen  [3] Starten",
                 "(!) Noch keine Nachricht mit einem Auswahlmenü.",
                 "(!) Keine Schaltfläche „Nix“; die Schaltflächen: Beitreten, Verlassen, Starten",
                 "(!) „hallo“ ist kein Befehl des Tisches. Slash-Befehle beginnen mit '/'; die Befehle des Tisches "
                 "sind: als, schaltflächen, klicke, wähle, befehle, hilfe, in, ende",
                 "(!) So wird „klicke“ nicht benutzt; tippe 'hilfe' für die Befehle des Tisches.",
                 "(!) „admin“ ist kein Befehl des Tisches. Slash-Befehle beginnen mit '/'; die Befehle des Tisches "
                 "sind: als, schaltflächen, klicke, wähle, befehle, hilfe, in, ende",
                 "(jetzt tippt Carol, der diesen Server verwalten darf)",
                 "/einstellungen sprache — Die Sprache, in der neue Tische spielen"):
        assert line in out.split("\n"), line
    assert "(!) /spiel hat keinen Unterbefehl „unsinn“; es gibt: neu, beitreten, verlassen" in out
    words = "\n".join(line for line in out.split("\n") if str(tmp_path) not in line)  # (folders' names)
    assert english_left(words.replace("Expedition Table", "").replace("the-expedition", ""),
                        allowed=ALLOWED | {"admin", "LABEL", "VALUE"}) == []


def test_the_english_words_keep_working_at_a_german_table(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["/game new game:the-expedition seed:4", "as bob", "/spiel beitreten", "buttons",
                           "help", "exit", "hilfe"], "de")
    out = capsys.readouterr().out
    assert "(jetzt tippt Bob)" in out and "Schaltflächen: [1] Beitreten  [2] Verlassen  [3] Starten" in out
    assert "  als NAME           wechselt, wer tippt (ein neuer Name tritt dem Server bei)" in out
    assert out.count("Tippe Slash-Befehle wie in Discord") == 1  # 'exit' ended the run before 'hilfe'
    assert "(!)" not in out


def test_a_german_tables_refusals_name_the_options_as_a_german_discord_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["/spiel neu spiel:the-expedition startwert:sieben", "/spiel neu spiel:schach",
                           "/spiel neu spiel:the-expedition thread:vielleicht", "/spiel beitreten zu viel",
                           "/spiel neu spiel:the-expedition a b c d e f g h i", "/spiel wer",
                           "/einstellungen sprache sprache:Klingonisch", "/spiel neu", "/erkunden ziehen",
                           '/spiel neu "spiel:the-expedition'], "de")
    out = capsys.readouterr().out.split("\n")
    for line in ("(!) startwert muss eine Zahl sein, nicht „sieben“",
                 "(!) spiel muss eines davon sein: Expeditions, Monster Expedition, ",
                 "(!) thread muss ja oder nein sein, nicht „vielleicht“",
                 "(!) /spiel beitreten hat keine Optionen",
                 "(!) /spiel neu kennt nur diese Optionen: spiel, modus, startwert, zeitlimit, thread, sprache, uhr, "
                 "lerntisch",
                 "(!) /spiel hat keinen Unterbefehl „wer“; es gibt: neu, beitreten, verlassen, starten"):
        assert line in out or any(got.startswith(line) for got in out), (line, out)
    assert "(!) sprache muss eines davon sein: Englisch, Deutsch" in out
    assert "(!) /spiel neu braucht noch einen Wert für: spiel" in out  # (was the harness's English words)
    assert "(!) /erkunden ziehen braucht noch einen Wert für: richtung" in out
    assert ("(!) Ein Anführungszeichen wird nicht geschlossen; setze einen Wert mit Leerzeichen zwischen zwei: "
            '"Bruno der Schmied"') in out  # (the local table stopped with a traceback)


def test_an_english_table_says_what_it_could_not_read_in_english(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["hello", "/game new game:the-expedition seed:seven", "/game new thread:maybe", "/game new",
                           '/game new "game:the-expedition'])
    out = capsys.readouterr().out.split("\n")
    assert ("(!) 'hello' is not a table command. Slash commands start with '/'; the table's own commands are: as, "
            "buttons, click, choose, commands, help, in, quit") in out
    assert "(!) seed must be a number, not 'seven'" in out
    assert "(!) thread must be true or false, not 'maybe'" in out
    assert "(!) /game new needs a value for: game" in out
    assert "(!) A quotation mark is not closed; put a value with spaces between two: \"Brass Compass\"" in out

async def _german_script_for_a_whole_game(folder: Path) -> list[str]:
    """Play The Expedition (standard, two players, seed 4) at a German local table by typed German lines only,
    the normal computer player choosing each move, and return the lines typed: the script a German player could
    have written. Moves go by a board button's German label where one offers the move ("klicke …"), else by the
    game's German slash command, option and choice names ("/erkunden ziehen richtung:oben"), taking turns."""
    game = find_game("the-expedition")
    chooser = random.Random(4)
    lines = ["hilfe", "/spiel neu spiel:the-expedition startwert:4", "als bob", "/spiel beitreten", "als alice",
             "schaltflächen", "/spiel starten"]
    async with DiscordHarness(create_bot(folder / "script.sqlite3"), raise_errors=False) as table:
        local = LocalTable(table, folder, "de")
        for line in lines:
            assert await local.handle(line)
        names = {table.user(name).id: name for name in ("alice", "bob")}
        for step in range(400):
            match = await table.bot.service.current(table.default_channel.id)  # type: ignore[attr-defined]
            if match.status != "active":
                return lines
            seat = game.to_act(match.state)[0]
            action = choose(game, bot_view(game, match.state, seat), seat, "normal", chooser)
            labels = {json.dumps(offer.action, sort_keys=True): offer.label
                      for offer in game.quick_actions(match.state, seat, "de")}
            if json.dumps(action, sort_keys=True) in labels and step % 2 == 0:
                typed = f"klicke {labels[json.dumps(action, sort_keys=True)]}"
            elif action["type"] == "place":
                typed = "/erkunden platzieren " + shlex.quote(
                    "ort:" + game.catalog.location(action["location"]).names["de"])
            else:
                typed = f"/erkunden ziehen richtung:{translate(choice_message_id(action['direction']), 'de')}"
            for line in (f"als {names[match.user_at(seat).user_id]}", typed):
                lines.append(line)
                assert await local.handle(line)
    raise AssertionError("the game did not end")


def test_a_german_script_plays_a_whole_game_to_its_result(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Every line typed in German (the table's own commands and the slash commands by the names a German Discord
    shows): the script runs without one refusal of the local table and ends with the result, in German."""
    lines = asyncio.run(_german_script_for_a_whole_game(tmp_path))
    assert any(line.startswith("klicke ") for line in lines) and any(line.startswith("/erkunden ziehen")
                                                                      for line in lines)
    capsys.readouterr()
    play_script(tmp_path, lines, "de")
    out = capsys.readouterr().out
    assert "(!)" not in out  # nothing the table could not read
    assert "**Alice gewinnt. Das Spiel endete, denn Alice hat 3 Expeditionen abgeschlossen" in out
    words = "\n".join(line for line in out.split("\n") if str(tmp_path) not in line and not line.startswith("> "))
    for name in ("Expedition Table", "The Expedition", "the-expedition"):  # the names of the bot and the game
        words = words.replace(name, "")
    assert english_left(words, allowed=ALLOWED) == []


def test_german_names_typed_without_umlauts_or_capitals_work(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A keyboard without umlauts: "/einstellungen kanale aktion:hinzufugen", "wahle", "schaltflachen"."""
    play_script(tmp_path, ["als bob admin", "/Einstellungen kanale Aktion:hinzufugen kanal:#spiele",
                           "/spiel neu spiel:the-expedition", "/spiel ruckgangig", "schaltflachen", "wahle 1"], "de")
    out = capsys.readouterr().out.split("\n")
    assert "Spiele dürfen in #spiele (und seinen Threads) starten." in out
    assert "Spiele beginnen auf diesem Server in #spiele (das legt die Serververwaltung mit /einstellungen kanäle " \
           "fest)." in out
    assert "Schaltflächen: [1] Beitreten  [2] Verlassen  [3] Starten" not in out  # (no lobby here: refused above)
    assert "(!) Noch keine Nachricht mit einem Auswahlmenü." in out
    assert not [line for line in out if "Unterbefehl" in line or "keinen Befehl" in line], out


def test_a_menu_option_that_is_not_there_is_refused_in_the_tables_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"wähle Quatsch" printed the harness's "['Quatsch'] not among options ['0', '1', …]"."""
    play_script(tmp_path, ["/spiel neu spiel:expeditions startwert:4", "/spiel starten", "wähle Quatsch",
                           "wähle Bewegen: Marktplatz"], "de")
    out = capsys.readouterr().out.split("\n")
    assert any(line.startswith("(!) Keine Option „Quatsch“ im Menü; die Optionen: Bewegen: verdeckt b3, "
                               "Bewegen: verdeckt c3, Bewegen: verdeckt a4, Bewegen: Staubige…, "
                               "Bewegen: Lager am Fluss, Bewegen: Bastlerhof, Bewegen: Marktplatz")
               for line in out)  # (then the cards' whole plays, Sammeln)
    assert "Alice zieht nach 3 S Marktplatz." in out  # an option by its label
    play_script(tmp_path, ["/game new game:expeditions seed:4", "/game start", "choose nonsense"])
    english = capsys.readouterr().out
    assert "(!) No option 'nonsense' in the menu; its options: Move: face-down b3, " in english


def test_a_german_decimal_comma_is_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["als bob admin", "/einstellungen erinnerungen stunden:1,5",
                           "/einstellungen zeitlimit stunden:2.5"], "de")
    out = capsys.readouterr().out.split("\n")
    assert "Alle 1,5 Std. eine Erinnerung, ab dem nächsten Zug." in out
    assert "Zeitlimit: 2,5 Std. pro Zug, ab dem nächsten Zug." in out


def test_a_german_player_moves_by_the_words_the_german_text_uses(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The text says "nach oben" (issue 33): `/erkunden ziehen richtung:oben` is taken, and so is every word the
    German sentences use for a direction ("nach links oben": `links-oben`)."""
    play_script(tmp_path, ["/spiel neu spiel:the-expedition modus:solo startwert:4",
                           "/erkunden platzieren ort:Merkur", "/erkunden ziehen richtung:oben"], "de")
    out = capsys.readouterr().out
    assert "richtung muss eines davon sein" not in out
    assert "Alice ist nach oben auf Neptun gezogen und hat Merkur markiert." in out
    for direction in ("up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right"):
        typed = translate(choice_message_id(direction), "de")
        assert translate(f"expedition.toward.{direction}", "de") == "nach " + typed.replace("-", " ")
