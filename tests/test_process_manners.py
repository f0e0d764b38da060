"""Process manners: a refused token or no network in one sentence, SIGTERM closes cleanly, sync only when asked."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import discord.http
import pytest

from bot.app import create_bot
from bot.cli import main
from bot.cli.runner import BAD_TOKEN, install_shutdown_signals
from bot.offline import DiscordHarness


class _RefusesEveryToken(BaseHTTPRequestHandler):
    """Discord's answer to a wrong token, from a server on this machine: 401 for every request."""

    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.seen.append(f"GET {self.path}")
        body = json.dumps({"message": "401: Unauthorized", "code": 0}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def refusing_discord(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RefusesEveryToken)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.server_port}/api/v10")
    _RefusesEveryToken.seen = []
    try:
        yield _RefusesEveryToken.seen
    finally:
        server.shutdown()
        server.server_close()


def _one_sentence(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def test_a_refused_token_ends_with_one_clear_sentence(refusing_discord: list[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "your-bot-token")
    assert main(["--log-level", "CRITICAL", "run", "--db", str(tmp_path / "bot.sqlite3")]) == 1
    assert _one_sentence(capsys.readouterr().err) == BAD_TOKEN
    assert refusing_discord == ["GET /api/v10/users/@me"]  # asked who it is, and nothing else


def test_no_network_ends_with_one_clear_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "your-bot-token")
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")  # nothing listens on port 9
    assert main(["--log-level", "CRITICAL", "sync", "--guild", "1"]) == 1
    assert _one_sentence(capsys.readouterr().err).startswith("Could not reach Discord")


async def test_sigterm_closes_the_bot_and_the_database(database: Path) -> None:
    bot = create_bot(database)
    async with DiscordHarness(bot, close_bot=False) as discord_:
        await discord_.command("game new", {"game": "test-nim"}, user=discord_.user("alice"))
        store = bot.store
        assert store is not None
        remove = install_shutdown_signals(bot)
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(200):
                if bot.is_closed() and bot.store is None:
                    break
                await asyncio.sleep(0.01)
        finally:
            remove()
        assert bot.is_closed() and bot.store is None
        with pytest.raises(ValueError):  # the connection is closed: nothing can be half-written later
            await store.open_match(1)


async def test_commands_are_synced_only_when_asked_and_a_server_sync_can_be_cleared(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        puts = [r for r in discord_.world.requests if r["route"].startswith("PUT")]
        assert puts == []  # starting the bot registers nothing
        bot = discord_.bot
        assert await bot.sync_command_tree(1234) >= 2  # type: ignore[attr-defined]
        assert await bot.sync_command_tree(1234, clear=True) == 0  # type: ignore[attr-defined]
        guild_puts = [r for r in discord_.world.requests if r["route"].startswith("PUT")]
        assert [r["route"] for r in guild_puts] == ["PUT /applications/{application_id}/guilds/{guild_id}/commands"] * 2
        assert {c["name"] for c in guild_puts[0]["body"]} >= {"game", "hunt", "explore", "mech"}
        assert guild_puts[1]["body"] == []
