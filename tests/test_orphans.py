"""No orphans: a bot (or `expedition-bot simulate`) killed with SIGKILL leaves none of its processes behind.

Each program runs in a session of its own (tests/processes.py): once it is killed, the test waits for every live
process of the session to be gone.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from rendering.lifeline import watch_parent
from tests.processes import has_proc, kill_and_list_survivors, wait_for_children

pytestmark = pytest.mark.skipif(not has_proc(), reason="reads processes from /proc")


def _expedition_bot(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "bot", "--log-level", "CRITICAL", *arguments]


def test_a_killed_bot_leaves_no_render_worker_or_resource_tracker(tmp_path: Path) -> None:
    """A real `expedition-bot local` draws a board in its render pool (two workers and the resource tracker), then
    dies with SIGKILL."""
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    bot = subprocess.Popen(
        _expedition_bot("local", "--db", str(tmp_path / "bot.sqlite3"), "--boards", str(tmp_path / "boards")),
        cwd=tmp_path, env=environment, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        assert bot.stdin is not None
        bot.stdin.write(b"/game new the-expedition mode:solo seed:3\n")
        bot.stdin.flush()
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob("boards/*/*.png")):  # the board was drawn by a worker
            assert time.monotonic() < deadline and bot.poll() is None, "the local table drew no board"
            time.sleep(0.1)
        wait_for_children(bot, 2)  # at least a worker and the resource tracker
        assert kill_and_list_survivors(bot) == []
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def test_a_killed_simulation_leaves_no_player_process(tmp_path: Path) -> None:
    simulation = subprocess.Popen(
        _expedition_bot("simulate", "the-expedition", "--games", "400", "--seats", "hard,hard", "--workers", "2",
                        "--iterations", "100000", "--seconds", "5"),
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_children(simulation, 2)
        time.sleep(0.5)  # the players are busy thinking
        assert kill_and_list_survivors(simulation) == []
    finally:
        if simulation.poll() is None:
            simulation.kill()
            simulation.wait()


def test_a_worker_started_by_a_thread_that_ended_keeps_working() -> None:
    """Linux signals a worker when the *thread* that started it ends; the worker exits only if its parent process is
    gone, so a pool that grew from a short-lived thread keeps its workers."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=watch_parent) as pool:
        first: list[int] = []
        starter = threading.Thread(target=lambda: first.append(pool.submit(os.getpid).result()))
        starter.start()
        starter.join()  # the worker's parent thread has ended
        time.sleep(0.5)  # the kernel's signal has arrived, the worker's watch has looked
        assert pool.submit(os.getpid).result(timeout=30) == first[0]
