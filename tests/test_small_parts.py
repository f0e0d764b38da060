"""Small parts (issue 38 item 5): no function in the bot's code over 80 lines, no module over 800 lines.

A long function is read as a list of steps; splitting it into named steps (or a table of handlers) is what keeps
the rules reviewable. The scan is of the source tree, so a new long function fails here with its name."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "rendering")
MOST_FUNCTION_LINES = 80
MOST_FILE_LINES = 800


def _sources() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def _long_functions(path: Path) -> list[str]:
    """Each function (or method) in `path` longer than the limit, as "file:line name (n lines)"; a function's
    length runs from its `def` line to its last line, decorators not counted."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > MOST_FUNCTION_LINES:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_the_scan_covers_the_packages() -> None:
    assert len(_sources()) > 100


def test_no_function_is_over_80_lines() -> None:
    offenders = [entry for path in _sources() for entry in _long_functions(path)]
    assert not offenders, f"functions over {MOST_FUNCTION_LINES} lines: " + "; ".join(offenders)


def test_no_module_is_over_800_lines() -> None:
    offenders = []
    for path in _sources():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MOST_FILE_LINES:
            offenders.append(f"{path.relative_to(ROOT)} ({lines} lines)")
    assert not offenders, f"modules over {MOST_FILE_LINES} lines: " + "; ".join(offenders)
