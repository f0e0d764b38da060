"""Issue 38: the platform names no game. Every game is a package the registry finds (bot/core/registry.py); a grep
of the platform's code (bot/, cogs/, rendering/ outside the game packages) for any found game's key, title, folder
or slash group finds nothing, so a fourth game needs no platform file changed."""

from __future__ import annotations

import re
from pathlib import Path

import bot.games  # noqa: F401  (finds every game package)
from bot.core import all_packages

ROOT = Path(__file__).resolve().parents[1]
PLATFORM = ("bot", "cogs", "rendering")


def game_folders() -> list[Path]:
    """The folders of the shipped game packages (what may name its own game)."""
    folders = []
    for package in all_packages():
        module = type(package.game).__module__.split(".")
        if module[:2] == ["bot", "games"]:
            folders.append(ROOT.joinpath(*module[:3]))
    return folders


def names_of_games() -> re.Pattern[str]:
    """Every way code could name a found game: its key (quoted), title, package folder and slash group (quoted)."""
    spellings: set[str] = set()
    for package in all_packages():
        folder = type(package.game).__module__.split(".")[2]
        spellings |= {re.escape(f'"{package.key}"'), re.escape(f"'{package.key}'"), re.escape(package.game.title),
                      rf"\b{re.escape(folder)}\b", re.escape(f'"{package.group}"')}
    return re.compile("|".join(sorted(spellings)))


def test_the_shipped_games_are_found_as_packages() -> None:
    assert len(game_folders()) == 3


def test_no_platform_file_names_a_game() -> None:
    pattern = names_of_games()
    inside = tuple(game_folders())
    found = []
    for top in PLATFORM:
        for path in sorted((ROOT / top).rglob("*.py")):
            if any(path.is_relative_to(folder) for folder in inside):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
