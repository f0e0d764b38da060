"""`expedition-bot local`: a typed `name:value` whose name is none of the command's options is refused, naming the
options in the table's language, and nothing is sent to the bot (it was taken as a plain value: "sed:7" as the
mode of /game new)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.language import english_left


def play_script(tmp_path: Path, lines: list[str], *language: str) -> None:
    """Run `expedition-bot local` on these lines (with `--language X` when given); it must end cleanly."""
    script = tmp_path / "moves.txt"
    script.write_text("\n".join([*lines, "quit"]))
    flags = ["--language", *language] if language else []
    assert main(["local", *flags, "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0


def shown(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What the table printed after its greeting: each typed line (">") and what it answered."""
    out = capsys.readouterr().out.split("\n")
    return out[next(i for i, line in enumerate(out) if line.startswith("> ")):]


def test_an_unknown_option_is_refused_naming_the_commands_options(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["/game new the-expedition sed:7", "/game new game:the-expedition mode:solo colour:red",
                           "/game join seat:2"])
    assert shown(capsys) == [
        "> /game new the-expedition sed:7",
        "(!) /game new has no option 'sed'; its options: game, mode, seed, timer, thread, language, clock, teach. "
        "Did you mean seed?",
        "> /game new game:the-expedition mode:solo colour:red",
        "(!) /game new has no option 'colour'; its options: game, mode, seed, timer, thread, language, clock, teach.",
        "> /game join seat:2",
        "(!) /game join takes nothing",
        "> quit", ""]  # (no reply of the bot: nothing was sent, no table opened)


def test_a_german_table_refuses_an_unknown_option_in_german(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["/spiel neu spiel:the-expedition startwret:7", "/einstellungen modus spiel:expeditions "
                           "mod:standard"], "de")
    out = shown(capsys)
    assert out == [
        "> /spiel neu spiel:the-expedition startwret:7",
        "(!) /spiel neu hat keine Option „startwret“; die Optionen: spiel, modus, startwert, zeitlimit, thread, "
        "sprache, uhr, lerntisch. Meintest du startwert?",
        "> /einstellungen modus spiel:expeditions mod:standard",
        "(!) /einstellungen modus hat keine Option „mod“; die Optionen: spiel, modus. Meintest du modus?",
        "> quit", ""]
    assert english_left("\n".join(line for line in out if line.startswith("(!)"))) == []


def test_known_options_and_values_with_a_colon_still_work(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    play_script(tmp_path, ["/game new the-expedition seed:5 mode:solo"])
    out = shown(capsys)
    assert not any(line.startswith("(!)") for line in out)
    assert any(line.startswith("The Expedition (Solo) started with a chosen seed") for line in out)
