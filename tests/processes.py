"""Processes as /proc shows them, for the tests that kill a program with SIGKILL and look for what it left behind.

A program started in a session of its own (`start_new_session=True`) marks every process it starts (render
workers, simulate's players, the multiprocessing resource tracker) with its session id, which stays after PID 1
adopts them: once the program is killed, whatever of that session still lives was orphaned.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

GONE_WITHIN = 5.0  # seconds: issue 23 asks that no process of a killed bot is left after this


def has_proc() -> bool:
    return Path("/proc/self/stat").exists()


def stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, session id) of a process, or None if it no longer exists."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[3])


def session_processes(session: int) -> list[int]:
    """Live processes of a session (a zombie has exited: it only waits for PID 1 to reap it)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = stat(int(entry.name))
            if found is not None and found[2] == session and found[0] != "Z":
                alive.append(int(entry.name))
    return alive


def wait_for_children(leader: subprocess.Popen[bytes] | subprocess.Popen[str], count: int,
                      seconds: float = 120.0) -> list[int]:
    """Wait until the program has at least `count` other live processes in its session."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        others = [pid for pid in session_processes(leader.pid) if pid != leader.pid]
        if len(others) >= count:
            return others
        assert leader.poll() is None, f"the program ended early with {leader.returncode}"
        time.sleep(0.1)
    raise AssertionError(f"the program never started {count} worker processes")


def kill_and_list_survivors(leader: subprocess.Popen[bytes] | subprocess.Popen[str]) -> list[str]:
    """SIGKILL the program; the command lines of what of its session still lives GONE_WITHIN seconds later (killed
    too, to leave the machine as it was, whatever the verdict)."""
    leader.send_signal(signal.SIGKILL)
    leader.wait()
    deadline = time.monotonic() + GONE_WITHIN
    while time.monotonic() < deadline and session_processes(leader.pid):
        time.sleep(0.05)
    lines = []
    for pid in session_processes(leader.pid):
        try:
            lines.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120])
        except FileNotFoundError:
            continue
        os.kill(pid, signal.SIGKILL)
    return lines
