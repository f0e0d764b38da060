"""A render worker does not let the interpreter's garbage collector run inside its boards: automatic collection is
off from its start, and its upkeep between boards (rendering.pool.upkeep, every TRIM_EVERY boards) collects the
cycles the boards left, the young objects each time and everything every FULL_COLLECTION_EVERY upkeeps."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

_WORKER = """
import gc, weakref
from rendering import pool

pool.worker_start(None)
assert not gc.isenabled(), "a worker's automatic collection is off"

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)

young = cycle()
assert young() is not None  # a cycle: reference counting alone never frees it
pool.upkeep(pool.TRIM_EVERY)
assert young() is None, "the upkeep collects the young objects' cycles"

collected = []
gc.callbacks.append(lambda phase, info: phase == "stop" and collected.append(info["generation"]))
for boards in range(2 * pool.TRIM_EVERY, pool.TRIM_EVERY * pool.FULL_COLLECTION_EVERY + 1, pool.TRIM_EVERY):
    pool.upkeep(boards)
print(collected)
"""


def test_a_worker_collects_between_boards_not_inside_them() -> None:
    done = subprocess.run([sys.executable, "-c", _WORKER], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).parent.parent, timeout=120)
    generations = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert generations == [1] * 14 + [2]  # young objects every upkeep, everything at the 16th


def test_every_trim_every_boards_a_worker_keeps_up(monkeypatch: pytest.MonkeyPatch) -> None:
    from rendering import pool

    kept: list[int] = []
    monkeypatch.setattr(pool, "upkeep", kept.append)
    monkeypatch.setattr(pool, "_drawn", 0)
    monkeypatch.setattr(pool.rendering, "render_board", lambda key, view: b"png")
    for _ in range(3 * pool.TRIM_EVERY + 1):
        assert pool._draw("the-expedition", {}, False, None) == b"png"
    assert kept == [pool.TRIM_EVERY, 2 * pool.TRIM_EVERY, 3 * pool.TRIM_EVERY]
