"""The command line: a missing token is explained in one sentence; settings come from flags, env and .env."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.config import DEFAULT_DATABASE, load_settings


def test_run_without_a_token_explains_how_to_get_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0
    assert "DISCORD_TOKEN" in error and "expedition-bot local" in error


def test_settings_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "EXPEDITION_DB", "EXPEDITION_SYNC_GUILD", "EXPEDITION_LOG_LEVEL"):
        monkeypatch.setenv(name, "")  # recorded, so that what load_dotenv writes is undone after the test
        monkeypatch.delenv(name)
    assert load_settings().database == Path(DEFAULT_DATABASE)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nEXPEDITION_DB=file.sqlite3\n")
    settings = load_settings()
    assert (settings.token, settings.database) == ("from-file", Path("file.sqlite3"))
    monkeypatch.setenv("EXPEDITION_DB", "env.sqlite3")
    assert load_settings().database == Path("env.sqlite3")
    assert load_settings(database="flag.sqlite3", sync_guild=42).database == Path("flag.sqlite3")
    assert load_settings(sync_guild=42).sync_guild == 42
