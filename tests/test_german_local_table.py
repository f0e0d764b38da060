"""`expedition-bot local --language de` takes a choice by the German name a German Discord shows (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.language import english_left


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
    """Its help, what it could not read, who sees a reply and the buttons under it: the terminal's language."""
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(["help", "/spiel neu spiel:monster-expedition", "as bob", "/spiel beitreten", "buttons",
                                 "choose 1", "/spiel unsinn", "click Nix", "hallo", "quit"]))
    assert main(["local", "--language", "de", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    for line in ("Tippe 'help' für Hilfe; du bist alice (wechseln mit 'as bob').",
                 "Tippe Slash-Befehle wie in Discord, z. B.", "--- nur alice sieht:", "--- gepostet:",
                 "(jetzt tippt Bob)", "--- nur bob sieht:", "Schaltflächen: [1] Beitreten  [2] Verlassen  [3] Starten",
                 "(!) Noch keine Nachricht mit einem Auswahlmenü.",
                 "(!) Keine Schaltfläche „Nix“; die Schaltflächen: Beitreten, Verlassen, Starten",
                 "Befehle beginnen mit '/'. Tippe 'help' für die Befehle des Tisches."):
        assert line in out.split("\n"), line
    assert "(!) /spiel hat keinen Unterbefehl „unsinn“; es gibt: neu, beitreten, verlassen" in out
    words = "\n".join(line for line in out.split("\n") if str(tmp_path) not in line)  # (folders' names)
    assert english_left(words.replace("Expedition Table", "").replace("the-expedition", ""),
                        allowed=frozenset({"alice", "bob", "Alice", "Bob", "help", "as", "admin", "buttons",
                                           "click", "choose", "commands", "quit", "LABEL", "VALUE", "NAME"})) == []
