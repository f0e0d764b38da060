"""The two ways to start the command line, `expedition-bot` (pyproject's script) and `python -m bot`, reach the
same parser in bot/cli with every subcommand."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import bot.cli

SUBCOMMANDS = ("run", "sync", "local", "migrate", "replay", "simulate")
ROOT = Path(__file__).resolve().parent.parent


def test_the_installed_script_names_the_cli_main() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, function = scripts["expedition-bot"].partition(":")
    assert getattr(importlib.import_module(module), function) is bot.cli.main


def test_python_dash_m_bot_offers_every_subcommand_and_runs_one(tmp_path: Path) -> None:
    shown = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert all(name in shown.stdout for name in SUBCOMMANDS), shown.stdout
    missing = tmp_path / "missing.json"
    checked = subprocess.run([sys.executable, "-m", "bot", "replay", str(missing)], capture_output=True, text=True,
                             cwd=ROOT, timeout=120)
    assert checked.returncode == 2 and "cannot be read as an export" in checked.stdout
