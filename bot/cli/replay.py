"""`expedition-bot replay FILE`: rebuild a game exported with /game export and check every state it records."""

from __future__ import annotations

import json

from bot.core import LobbyError
from bot.features.history import EXPORT_FORMAT, EXPORT_VERSION, check_export


def run_check(path: str) -> int:
    """`expedition-bot replay FILE`: one line per failure, then a summary. Exit 0 when every state checks, 1 when
    something does not, 2 when the file cannot be read."""
    import bot.games  # noqa: F401  (registers every game)

    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        if not isinstance(data, dict):
            raise ValueError("the file does not hold a JSON object")
        if data.get("format") != EXPORT_FORMAT or data.get("version") != EXPORT_VERSION:
            raise ValueError(f"not an Expedition Table export (format {data.get('format')!r}, version "
                             f"{data.get('version')!r})")
        report = check_export(data)
    except (OSError, ValueError, KeyError, TypeError, LobbyError) as error:
        print(f"{path}: cannot be read as an export: {error}")
        return 2
    for failure in report.failures:
        print(failure)
    if report.ok:
        print(f"OK: {report.title}: the setup and {report.steps} records replay to the recorded states.")
        return 0
    print(f"FAILED: {report.title}: {len(report.failures)} problem(s) in {report.steps} records.")
    return 1
