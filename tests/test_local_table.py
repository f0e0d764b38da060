"""`expedition-bot local`: a scripted session plays through the real bot and writes the board images."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from discord import app_commands

from bot.cli import main
from bot.cli.local import LocalTable, run_folder
from bot.store import Store


def test_a_scripted_local_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("\n".join([
        "/game new the-expedition seed:5",
        "as bob",
        "/game join",
        "as alice",
        "/game start",
        "buttons",
        "as carol",
        "click 1",
        "/explore move sideways",
        "as alice",
        "click 1",
        "as bob",
        "click 1",
        "/game nonsense",
        "quit",
    ]))
    boards = tmp_path / "boards"
    assert main(["local", "--script", str(script), "--boards", str(boards), "--db", str(tmp_path / "t.db")]) == 0
    out = capsys.readouterr().out
    assert "--- posted:" in out and "The Expedition (Standard) started with a chosen seed" in out
    assert "@Alice — Alice to place" in out or "@Bob — Bob to place" in out  # pings read as names
    assert "only carol sees" in out and "not playing" in out  # carol is not seated: a private refusal
    assert "direction must be one of: up, down, left, right" in out
    assert "/game has no subcommand 'nonsense'" in out
    assert "placed their explorer on" in out  # someone placed, so a newer board replaced the first one
    assert out.count("started with a chosen seed") == 1  # an old board losing its buttons is not shown again
    runs = [folder for folder in boards.iterdir() if folder.is_dir()]
    assert len(runs) == 1 and f"Board images: {runs[0]} (a new folder for each run)" in out
    images = sorted(runs[0].glob("*.png"))
    assert images and images[0].read_bytes().startswith(b"\x89PNG")
    assert images[0].name.startswith("001-")
    assert f"[image: {images[0]}]" in out


def test_each_run_keeps_its_own_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every run numbers its boards from 001: a second run must not overwrite the first run's images."""
    script = tmp_path / "moves.txt"
    script.write_text("/game new the-expedition mode:solo seed:3\nquit\n")
    boards = tmp_path / "boards"
    arguments = ["local", "--script", str(script), "--boards", str(boards)]  # a fresh scratch database each run
    assert main(arguments) == 0
    first = {path: path.read_bytes() for path in boards.rglob("*.png")}
    assert main(arguments) == 0
    runs = sorted(folder for folder in boards.iterdir() if folder.is_dir())
    assert len(runs) == 2  # even two runs in the same second get folders of their own
    assert {path: path.read_bytes() for path in first} == first  # the first run's images are untouched
    assert len(list(runs[0].glob("*.png"))) == len(list(runs[1].glob("*.png"))) == len(first) >= 1
    out = capsys.readouterr().out
    assert out.count("(a new folder for each run)") == 2


def test_run_folders_are_named_by_the_start_time_and_never_reused(tmp_path: Path) -> None:
    moment = datetime.datetime(2026, 12, 1, 8, 15, 0)
    assert run_folder(tmp_path, moment) == tmp_path / "20261201-081500"
    assert run_folder(tmp_path, moment) == tmp_path / "20261201-081500-2"
    assert run_folder(tmp_path, moment) == tmp_path / "20261201-081500-3"


def test_typed_choices_match_without_accents_or_capitals() -> None:
    parameter = SimpleNamespace(display_name="monster", type=None,
                                choices=[app_commands.Choice(name="Füchsling (level 6)", value="fuechsling"),
                                         app_commands.Choice(name="Moosgnom (level 5)", value="moosgnom")])
    assert LocalTable._convert(parameter, "FUCHSLING (level 6)") == "fuechsling"  # type: ignore[arg-type]
    assert LocalTable._convert(parameter, "Moosgnom") == "moosgnom"  # type: ignore[arg-type]


async def test_local_plays_on_either_engine(database: Path | str, tmp_path: Path) -> None:
    """`local --db` takes a SQLite file or a postgresql:// URL, and the game it plays is stored there."""
    script = tmp_path / "moves.txt"
    script.write_text("/game new the-expedition seed:5\nas bob\n/game join\nas alice\n/game start\nquit\n")
    arguments = ["local", "--script", str(script), "--boards", str(tmp_path / "boards"), "--db", str(database)]
    # The command runs its own event loop (asyncio.run), so it runs in a thread beside this test's loop.
    assert await asyncio.to_thread(main, arguments) == 0
    store = await Store.open(database)
    try:
        matches = await store.active_matches()
    finally:
        await store.close()
    assert [(match.game, match.status, match.seed) for match in matches] == [("the-expedition", "active", 5)]
    assert [seat.name for seat in matches[0].seats] == ["Alice", "Bob"]


def test_a_member_option_takes_a_typed_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`/game kick player:@Bob` names a member as a player types it; it used to end the session with a traceback."""
    script = tmp_path / "moves.txt"
    script.write_text("\n".join([
        "/game new the-expedition seed:5",
        "as bob",
        "/game join",
        "as alice",
        "/game start",
        "/game kick player:@Bob",
        "as bob",
        "/game rejoin",
        "as alice",
        "/game kick @",
        "quit",
    ]))
    assert main(["local", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "only alice sees" in out and "Bob" in out.split("/game kick player:@Bob", 1)[1].split("> as bob")[0]
    assert "(!) player needs a member's name, such as @bob" in out


def test_as_name_admin_may_manage_the_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without a way to be a server manager, /settings could not be tried offline at all."""
    script = tmp_path / "moves.txt"
    script.write_text("/settings show\nas dana admin\n/settings show\nquit\n")
    assert main(["local", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    assert "only alice sees:\nOnly members with the Manage Server permission" in out
    assert "(now typing as Dana, who can manage this server)" in out
    assert "only dana sees:\n**This server's settings**" in out


def test_a_channel_option_takes_a_typed_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`/settings channels add #games` names a channel as a player types it; it used to end the session with a
    traceback."""
    script = tmp_path / "moves.txt"
    script.write_text("as dana admin\n/settings channels add #games\n/settings channels add channel:#\n"
                      "/game new the-expedition\nquit\n")
    assert main(["local", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "only dana sees:\nGames may start in #games (and its threads)." in out
    assert "(!) channel needs a channel's name, such as #games" in out
    assert "only dana sees:\nGames start in #games on this server" in out  # general is not on the list


def test_a_local_session_in_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--language de`: the players' Discord speaks German and so does the table; times read as the client shows
    them (the lobby's closing time was printed raw as <t:…:R>)."""
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(["/spiel neu spiel:the-expedition startwert:5", "as bob", "/game join",
                                 "/spiel starten", "as alice", "/game mine", "/game start", "commands", "quit"]))
    assert main(["local", "--language", "de", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    assert "Sprache: Deutsch" in out and "1. Alice (Gastgeber)" in out
    assert "Die Lobby schließt in 1 Tag, wenn niemand sie startet." in out and "<t:" not in out
    assert "Du sitzt am Tisch (2 am Tisch). Der Gastgeber startet das Spiel." in out
    assert "Nur der Gastgeber (Alice) kann das Spiel starten." in out
    assert "The Expedition (Standard) hat mit einem gewählten Startwert begonnen;" in out
    assert "Meine Ansicht" in out
    assert "/spiel neu — " in out and "/einstellungen sprache — Die Sprache, in der neue Tische spielen" in out


def test_the_local_table_shows_times_readably(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("/game new the-expedition seed:5\nquit\n")
    assert main(["local", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    assert "The lobby closes in 1 day if nobody starts it." in out and "<t:" not in out
    assert "Language: English" in out


def test_a_lesson_in_its_own_thread_is_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`/game learn` opens a thread: the table follows into it (its buttons could not be pressed, "No message with
    buttons yet"), says so and how to go back; `in #general` goes back and `in #…` into the thread again."""
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(["/game learn game:the-expedition", "buttons", "click 1", "in #general", "buttons",
                                 "in #Learning The Expedition — Alice", "buttons", "quit"]))
    assert main(["local", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    started, rest = out.split("> buttons", 1)
    assert "--- posted (pings @Alice) in #Learning The Expedition — Alice:" in started
    assert "(You are now looking at #Learning The Expedition — Alice: type 'in #general' to go back.)" in started
    pressed, back = rest.split("> in #general", 1)
    assert pressed.lstrip().startswith("buttons: [1]") and "(!)" not in pressed
    in_general, in_thread = back.split("> in #Learning", 1)
    assert "(You are now looking at #general" in in_general and "(!) No message with buttons yet." in in_general
    assert in_thread.count("buttons: [1]") == 1 and "(!)" not in in_thread
