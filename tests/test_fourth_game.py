"""A fourth game from one folder of the test suite (issue 38): Tug (tests/fourth_game/) is found by the registry
through $EXPEDITION_TABLE_GAMES and played through the offline Discord with no platform file changed: the lobby,
the board drawn by a spawned render worker from Tug's drawing module, moves by slash command and by button, a
refusal, the hint, the log, undo by consent, the game's end and result, "What's this?", the detail board,
/game rules, a computer player, the export (checked by `expedition-bot replay`) and the replay.

The games a process knows are found once, when `bot.games` is first imported, and render workers are spawned once
per process: a bot that knows Tug is a process started with the variable set, as a deployed bot would be. So the
test of the whole (`test_tug_in_a_bot_process_of_its_own`) runs this module's Discord tests in a new pytest process
with $EXPEDITION_TABLE_GAMES=tests.fourth_game, where they run for real; in any other process they are skipped,
and the suite's own processes never see Tug (their lists of games stay the three shipped ones and Nim)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest
from babel.messages.pofile import read_po

from bot.core.registry import GAMES_ENV
from bot.i18n import LANGUAGES, placeholders, translate
from tests.reading import read

TUG_MODULE = "tests.fourth_game"
FOLDER = Path(__file__).resolve().parent / "fourth_game"
ROOT = Path(__file__).resolve().parent.parent
FINDS_TUG = TUG_MODULE in os.environ.get(GAMES_ENV, "").split(",")
in_a_process_that_finds_tug = pytest.mark.skipif(
    not FINDS_TUG, reason=f"runs in a bot process started with {GAMES_ENV}={TUG_MODULE} "
                          "(test_tug_in_a_bot_process_of_its_own starts it)")
PLAYED = ("test_the_registry_finds_tug_through_the_environment", "test_a_tired_player_may_pull_only_1",
          "test_tug_through_the_offline_discord", "test_tug_against_a_computer_player_in_german")
"""The tests the process that finds Tug runs."""
PLATFORM = ("bot", "cogs", "rendering", "data", "pyproject.toml")


def test_tug_in_a_bot_process_of_its_own() -> None:
    """Every Discord test of Tug passes in a process that finds it through $EXPEDITION_TABLE_GAMES (on each engine
    the suite runs: the PostgreSQL server's variable is inherited)."""
    if FINDS_TUG:
        pytest.skip("this is the process that plays Tug")
    environment = {**os.environ, GAMES_ENV: TUG_MODULE}
    environment.pop("PYTEST_XDIST_WORKER", None)
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
         f"{Path(__file__).relative_to(ROOT)}", "-k", " or ".join(PLAYED)],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=280)
    report = finished.stdout + finished.stderr
    assert finished.returncode == 0, report[-6000:]
    summary = report.strip().splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    engines = 2 if os.environ.get("EXPEDITION_TEST_PG") else 1
    assert passed is not None and int(passed.group(1)) == 2 + 2 * engines, summary


def test_tugs_words_are_in_both_languages_with_the_same_placeholders() -> None:
    """Tug's catalogue (its own domain, `fourth_game.po`) has every message in English and German, filled in alike, and
    every message id its code uses."""
    catalogues = {}
    for language in LANGUAGES:
        with (FOLDER / "locales" / language / "LC_MESSAGES" / "fourth_game.po").open("rb") as handle:
            catalogues[language] = {str(m.id): str(m.string) for m in read_po(handle, locale=language) if m.id}
    english, german = catalogues["en"], catalogues["de"]
    assert set(english) == set(german)
    assert all(english[key] and german[key] for key in english)
    assert [key for key in english if placeholders(english[key]) != placeholders(german[key])] == []
    used = set()
    for source in FOLDER.glob("*.py"):
        used |= set(re.findall(r"\"(tug\.[a-z_.]+)\"", source.read_text(encoding="utf-8")))
    commands = {f"command.tug.{path}" for path in ("name", "description", "pull.name", "pull.description",
                                                     "pull.option.cells.name", "pull.option.cells.description")}
    assert used | commands == set(english)


def test_the_fourth_game_changes_no_platform_file() -> None:
    """Tug's files live in tests/fourth_game/ and this test alone: nothing of the platform names it."""
    found = subprocess.run(["git", "grep", "-l", "-I", "-e", "fourth_game", "-e", "tests.fourth", "--", *PLATFORM],
                           cwd=ROOT, capture_output=True, text=True)
    assert found.returncode in (0, 1) and found.stdout == ""


def _pulled(pulls: list[int]) -> dict[str, object]:
    """Tug's state after these pulls, the players taking turns from the first."""
    from bot.core import Rng
    from tests.fourth_game.game import GAME

    state = GAME.setup("standard", ["Ada", "Bo"], Rng(0, 0), {})
    for cells in pulls:
        state = GAME.apply(state, GAME.to_act(state)[0], {"type": "pull", "cells": cells}, Rng(0, 0)).state
    return state


@pytest.mark.parametrize(("pulls", "marker", "winner"), [
    ([2, 1, 1, 1, 2], 1, None),  # the first player is a cell from their end: nobody has won yet
    ([2, 1, 1, 1, 2, 1, 1, 1, 2], 0, 0),  # the first player reaches cell 1 with the 9th pull: won at once
    ([1, 2, 1, 1, 1, 2, 1, 1, 1, 2], 7, 1),  # 10 pulls, the marker on the second player's side
    ([1] * 10, 4, 1),  # 10 pulls, the marker in the middle: the anchor (the second player) holds
    ([2, 1, 1, 1, 1, 1, 1, 1, 1, 1], 3, 0),  # 10 pulls, the marker on the first player's side
])
def test_tugs_rules_end_at_an_end_or_after_ten_pulls(pulls: list[int], marker: int, winner: int | None) -> None:
    from tests.fourth_game.game import GAME

    state = _pulled(pulls)
    outcome = GAME.outcome(state)
    assert state["marker"] == marker and (outcome.winners if outcome else None) == (
        None if winner is None else (winner,))
    assert GAME.to_act(state) == (() if winner is not None else (len(pulls) % 2,))


@in_a_process_that_finds_tug
def test_a_tired_player_may_pull_only_1() -> None:
    """The refusal is worded from Tug's own catalogue domain, which a process reads once it finds the package."""
    from bot.core import IllegalAction, Rng
    from tests.fourth_game.game import GAME

    state = _pulled([2, 1])
    assert GAME.legal_actions(state, 0) == [{"type": "pull", "cells": 1}]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"type": "pull", "cells": 2}, Rng(0, 0))
    assert refused.value.text("de") == "Du hast zuletzt 2 gezogen und bist müde: Zieh jetzt 1."
    assert GAME.legal_actions(_pulled([2, 1, 1, 1]), 0) == [{"type": "pull", "cells": 1}, {"type": "pull", "cells": 2}]


def test_the_suites_own_processes_know_no_tug() -> None:
    """Only a process started with the variable finds Tug: the suite's lists of games are not changed by it."""
    if FINDS_TUG:
        pytest.skip("this is the process that plays Tug")
    import bot.games  # noqa: F401  (finds every game this process may know)
    from bot.core import all_games, package_of

    assert package_of("tug") is None and "tug" not in [game.key for game in all_games()]


# ------------------------------------------------------------------------- in the process that finds Tug


@in_a_process_that_finds_tug
def test_the_registry_finds_tug_through_the_environment() -> None:
    import rendering
    from bot.app import extension_names
    from bot.core import find_game, is_found, package_for_group, package_of
    from tests.fourth_game import GAME, PACKAGE

    assert find_game("Tug") is GAME and find_game("tug-of-war") is GAME and is_found("tug")
    assert package_of("tug") is PACKAGE and package_for_group("tug") is PACKAGE
    assert rendering.has_drawing("tug") and rendering.drawing("tug").__name__ == "tests.fourth_game.drawing"
    assert extension_names()[-1] == "tests.fourth_game.commands"


@pytest.fixture
def drawn_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tug's boards may not be drawn in the bot's process: only a render worker (which imports the drawing module
    afresh) draws them."""
    from tests.fourth_game import drawing

    monkeypatch.setattr(drawing, "render", _not_here)
    monkeypatch.setattr(drawing, "render_detail", _not_here)


def _not_here(*_: object) -> NoReturn:
    raise AssertionError("Tug's work that a spawned worker does was done in the bot's process")


@in_a_process_that_finds_tug
async def test_tug_through_the_offline_discord(database: Path, tmp_path: Path, drawn_elsewhere: None,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from bot.app import create_bot
    from bot.cli import main
    from bot.offline import DiscordHarness
    from rendering.kit import VERMILLION
    from tests.fourth_game import GAME, Tug
    from tests.tables import assert_result_told_once, current_match

    bot = create_bot(database)
    async with DiscordHarness(bot, timeout=30.0) as discord_:  # (a child process on a loaded CI machine)
        alice, bob = discord_.user("alice"), discord_.user("bob")
        lobby = await discord_.command("game new", {"game": "tug"}, user=alice)
        assert "Tug" in lobby.public()[-1].content and lobby.public()[-1].button_labels()[:2] == ["Join", "Leave"]
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        assert match.game == "tug" and match.status == "active" and match.user_at(0).user_id == alice.id

        # The board: Tug's own drawing (800 x 330, the marker in its colour on the middle cell), from a worker.
        first = discord_.last_public_message(with_components=True)
        image = first.files[0].image()
        assert image.size == (800, 330) and image.mode == "P"
        assert image.convert("RGB").getpixel((400, 180)) == _rgb(VERMILLION)
        assert first.files[0].description == ("Tug. Alice to pull 1 or 2 (pulls left: 10). The marker is on cell 5 "
                                              "of 9, between Alice (cell 1) and Bob (cell 9). Alice: rested. Bob: "
                                              "rested.")
        assert first.button_labels()[:2] == ["Pull 1", "Pull 2"]

        # A pull by slash command, one by the board's button, and a refused pull of a tired player.
        pulled = await discord_.command("tug pull", {"cells": 2}, user=alice)
        assert "Alice pulled 2 cells and is tired (the marker is on cell 3)." in read(pulled.public()[-1].content)
        board = discord_.last_public_message(with_components=True)
        assert board.files[0].image().convert("RGB").getpixel((400 - 2 * 85, 180)) == _rgb(VERMILLION)
        await discord_.click(board, label="Pull 1", user=bob)
        assert discord_.last_public_message(with_components=True).button_labels()[:1] == ["Pull 1"]
        assert "Pull 2" not in discord_.last_public_message(with_components=True).button_labels()
        refused = (await discord_.command("tug pull", {"cells": 2}, user=alice)).one()
        assert refused.ephemeral and refused.content == "You pulled 2 last time and are tired: pull 1 now."
        assert (await current_match(discord_)).state["marker"] == 3
        wrong = (await discord_.command("explore move", {"direction": "up"}, user=alice)).one()
        assert wrong.ephemeral and wrong.content == (
            "This channel is playing Tug: its moves are made with /tug commands and the buttons under the board "
            "(/explore is for The Expedition). /game rules explains them.")

        # The hint (the normal computer player's rule of thumb) and the log.
        hint = (await discord_.command("game hint", user=alice)).last  # (tired: one legal move, named)
        assert hint.ephemeral and hint.content == translate(
            "community.hint.text", "en", suggestion=translate("bots.hint.only_move", "en", label="Pull 1"))
        log = (await discord_.command("game log", user=bob)).last
        assert log.ephemeral and read(log.content) == (
            "1. Bob joined.\n2. Tug (Standard) started.\n"
            "3. Alice pulled 2 cells and is tired (the marker is on cell 3).\n"
            "4. Bob pulled 1 cell (the marker is on cell 4).")

        # Undo by consent: bob takes his pull back, alice approves.
        before = await current_match(discord_)
        asked = await discord_.command("game undo", user=bob)
        request = asked.public()[-1]
        assert request.notified == (alice.id,) and request.button_labels() == ["Approve undo", "Refuse"]
        await discord_.click(request, label="Approve undo", user=alice)
        undone = await current_match(discord_)
        assert undone.state["marker"] == 2 and undone.state["turn"] == 1 and undone.version == before.version + 1
        assert discord_.last_public_message(with_components=True).button_labels()[:2] == ["Pull 1", "Pull 2"]
        hint = (await discord_.command("game hint", user=bob)).last  # (the rule of thumb's reason, in Tug's words)
        assert hint.content == translate("community.hint.text", "en",
                                         suggestion="Pull 2: the other player is tired and can only pull 1 back.")

        # To the end: bob pulls 1 each time, alice 1 and 2 in turn; the marker reaches alice's end (cell 1).
        for user, cells in ((bob, 1), (alice, 1), (bob, 1), (alice, 2), (bob, 1), (alice, 1), (bob, 1),
                            (alice, 2)):
            latest = discord_.last_public_message(with_components=True)
            if cells == 1:
                await discord_.click(latest, label="Pull 1", user=user)
            else:
                await discord_.command("tug pull", {"cells": cells}, user=user)
        match = await current_match(discord_)
        outcome = GAME.outcome(match.state)
        assert match.status == "finished" and outcome is not None and outcome.winners == (0,)
        final = discord_.channel_messages()[-1]
        assert final.content.endswith("\n**Alice wins the tug!**")
        assert final.button_labels() == ["Show mine", "Details", "What's this?"]
        await assert_result_told_once(discord_)
        assert final.files[0].image().convert("RGB").getpixel((24 + 40, 180)) == _rgb(VERMILLION)

        # What's this? (the board draws names and sentences only), the detail board, /game rules.
        glossary = (await discord_.click(final, label="What's this?", user=bob)).last
        assert glossary.ephemeral and glossary.embed["description"] == "\n".join([
            translate("glossary.heading", "en", title="Tug"), translate("glossary.nothing", "en")])
        detail = (await discord_.click(final, label="Details", user=bob)).last
        assert detail.ephemeral and detail.files[0].image().size == (1280, 420)
        rules = (await discord_.command("game rules", {"game": "tug"}, user=bob)).last
        assert rules.ephemeral and rules.embed["description"].startswith(
            "**Goal:** pull the marker to your end of a rope of 9 cells.")
        assert [f.image().size for f in rules.files] == [(800, 330)]  # (no parts named: the board, no legend)
        assert [b["label"] for b in rules.buttons()][-2:] == [translate("rules.page.turn", "en"),
                                                              translate("rules.page.modes", "en")]
        turn_page = (await discord_.click(rules, label=translate("rules.page.turn", "en"), user=bob)).last
        assert turn_page.embed["description"].startswith("**Pulling:** 1 cell is always allowed")
        games = (await discord_.command("game rules", user=bob, channel=discord_.channel("elsewhere"))).last
        assert translate("table.games.game", "en", title="Tug", command=translate("table.command", "en", name="tug")) \
            in games.embed["description"]  # (the list of games names Tug's slash command group)

        # The export, built by the records worker (a spawned process that found Tug too: the game's rules may not
        # run here meanwhile), checked by the command line's replay; and the replay of the finished game.
        assert await bot.service.replayed_state(match.id) == match.state
        with pytest.MonkeyPatch.context() as only_in_workers:
            only_in_workers.setattr(Tug, "apply", _not_here)
            exported = (await discord_.command("game export", user=alice)).last
            replayed = (await discord_.command("game replay", {"match": match.id}, user=bob)).last
        file = exported.files[0]
        assert exported.ephemeral and file.filename == f"tug-{match.id}.json"
        path = tmp_path / file.filename
        path.write_bytes(file.data)
        capsys.readouterr()
        assert main(["replay", str(path)]) == 0
        assert capsys.readouterr().out.startswith(f"OK: Tug game #{match.id}")
        assert [record["action"] for record in json.loads(file.data)["records"] if "action" in record][:2] == [
            {"type": "pull", "cells": 2}, {"type": "pull", "cells": 1}]
        assert replayed.ephemeral and [f.filename for f in replayed.files] == ["board.png", f"tug-{match.id}-log.txt"]
        assert replayed.files[0].image().size == (800, 330)
        story = replayed.files[1].data.decode()
        assert "Alice pulled the marker to their end and wins." in story and "taken back" in story


@in_a_process_that_finds_tug
async def test_tug_against_a_computer_player_in_german(database: Path, drawn_elsewhere: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A German table: the board's words and buttons in German, and a normal computer player answers by the game's
    own bots module (its rule of thumb: the human is tired after a pull of 2, so it pulls 2)."""
    from bot.app import create_bot
    from bot.offline import DiscordHarness
    from tests.fourth_game.bots import TugBot
    from tests.tables import current_match

    monkeypatch.setattr(TugBot, "heuristic", _not_here)  # (the computer player thinks in a spawned process)
    bot = create_bot(database)
    async with DiscordHarness(bot, timeout=30.0) as discord_:  # (a child process on a loaded CI machine)
        alice = discord_.user("alice", locale="de")
        await discord_.command("game new", {"game": "tug", "language": "de"}, user=alice)
        await discord_.command("game add-bot", {"level": "normal"}, user=alice)
        await discord_.command("game start", user=alice)
        board = discord_.last_public_message(with_components=True)
        assert board.button_labels()[:2] == ["1 ziehen", "2 ziehen"]
        assert (board.files[0].description or "").startswith("Tug. Alice zieht 1 oder 2 (übrige Züge: 10)")
        await discord_.command("tug pull", {"cells": 2}, user=alice)
        match = await current_match(discord_)
        assert match.state["marker"] == 4 and match.state["turn"] == 0 and match.state["tired"] == [True, True]
        said = "\n".join(read(message.content) for message in discord_.channel_messages())
        assert "zog 2 Felder und ist jetzt müde (die Markierung steht auf Feld 5)." in said
        labels = discord_.last_public_message(with_components=True).button_labels()
        assert labels[0] == "1 ziehen" and "2 ziehen" not in labels  # (Alice is tired now)


def _rgb(colour: str) -> tuple[int, int, int]:
    from PIL import ImageColor

    red, green, blue = ImageColor.getrgb(colour)[:3]
    return red, green, blue

