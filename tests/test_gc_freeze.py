"""The `run` command sets what the bot built at start-up aside from the garbage collector (gc.freeze), so a full
collection never walks it on the event loop (issue 25: a full collection of ~60,000 objects took up to 40 ms);
bots made by tests and the local table do not (frozen objects are never collected)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import cli

_FROZEN_AFTER_START = """
import asyncio, gc, sys, tempfile
from pathlib import Path
from bot.app import create_bot
from bot.offline.harness import DiscordHarness

async def main(freeze: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(Path(folder) / "games.sqlite3", poll_seconds=None, freeze_start_up=freeze)
        async with DiscordHarness(bot):
            print(gc.get_freeze_count())

asyncio.run(main(sys.argv[1] == "freeze"))
"""


@pytest.mark.parametrize("setting", ["freeze", "keep"])
def test_a_bot_set_up_to_freeze_sets_its_start_up_aside(setting: str) -> None:
    done = subprocess.run([sys.executable, "-c", _FROZEN_AFTER_START, setting], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parent.parent, timeout=120)
    frozen = int(done.stdout.split()[-1])
    if setting == "freeze":
        assert frozen > 20_000  # the command tree, the games' data, the catalogues...
    else:
        assert frozen == 0


def test_the_run_command_makes_a_bot_that_freezes_its_start_up(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    made: dict[str, Any] = {}

    def create_bot(database: str, **options: Any) -> str:
        made.update(options, database=database)
        return "the bot"

    async def serve(client: str, token: str) -> None:
        made["served"] = (client, token)

    monkeypatch.setattr("bot.app.create_bot", create_bot)
    monkeypatch.setattr("bot.cli.runner.serve", serve)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "--db", str(tmp_path / "games.sqlite3")]) == 0
    assert made["freeze_start_up"] is True and made["served"] == ("the bot", "a-token")
