"""Issue 38: a game is found by the registry three ways, the same in every process: a subpackage of bot.games, an
installed distribution's entry point in the group `expedition_table.games`, and a module named in
$EXPEDITION_TABLE_GAMES. Each check runs in a fresh Python process (games are found once per process, and the
suite's own processes must not see the test game): a distribution is "installed" by putting its `.dist-info`
folder on the path, which is where importlib.metadata finds installed distributions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.core.registry import ENTRY_POINT_GROUP, GAMES_ENV

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["expeditions", "monster-expedition", "the-expedition"]
PROBE = """
import bot.games, rendering
from bot.core import all_packages, package_of
from bot.i18n import translate
package = package_of("tug")
print(sorted(found.key for found in all_packages()))
if package is not None:
    print(package.commands, rendering.has_drawing("tug"), translate("tug.private", "de"), sep="\\n")
"""


def found_in_a_fresh_process(extra_path: Path | None = None, games: str = "") -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != GAMES_ENV}
    if games:
        environment[GAMES_ENV] = games
    environment["PYTHONPATH"] = os.pathsep.join(str(path) for path in (extra_path, ROOT) if path is not None)
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=120)


def installed(folder: Path, entry: str) -> Path:
    """A distribution `tug-plugin` installed in `folder`: its metadata and its entry point `tug = <entry>`."""
    info = folder / "tug_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tug-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\ntug = {entry}\n", encoding="utf-8")
    return folder


def lines(finished: subprocess.CompletedProcess[str]) -> list[str]:
    assert finished.returncode == 0, finished.stderr[-3000:]
    return finished.stdout.splitlines()


def test_the_shipped_games_are_the_subpackages_of_bot_games() -> None:
    assert lines(found_in_a_fresh_process()) == [str(SHIPPED)]


def test_a_game_installed_with_pip_is_found_by_its_entry_point(tmp_path: Path) -> None:
    """Its package, its drawing for the render workers and its words (its own catalogue domain) all arrive."""
    found = lines(found_in_a_fresh_process(installed(tmp_path, "tests.fourth_game")))
    assert found == [str(sorted([*SHIPPED, "tug"])), "tests.fourth_game.commands", "True",
                     "Beim Tauziehen ist nichts verborgen: Alle sehen das ganze Seil."]


def test_a_game_named_in_the_environment_is_found() -> None:
    found = lines(found_in_a_fresh_process(games="tests.fourth_game"))
    assert found == [str(sorted([*SHIPPED, "tug"])), "tests.fourth_game.commands", "True",
                     "Beim Tauziehen ist nichts verborgen: Alle sehen das ganze Seil."]


def test_an_entry_point_that_gives_no_game_package_is_refused_by_name(tmp_path: Path) -> None:
    finished = found_in_a_fresh_process(installed(tmp_path, "tests.fourth_game.rules_pages"))
    assert finished.returncode != 0
    assert "entry point 'tug' (tests.fourth_game.rules_pages) gives no GamePackage" in finished.stderr
