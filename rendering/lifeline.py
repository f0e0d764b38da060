"""Worker processes that die with their parent, however it died.

A pool's workers wait on a pipe for work; when the bot is killed with SIGKILL (or the OOM killer, or a crash) nobody
shuts them down, and they are adopted by PID 1 with their memory (one audit found 48 such processes holding 3.1 GB),
keeping the multiprocessing resource tracker alive too, since it waits for every holder of its pipe to close it.

`watch_parent()` runs first in a worker (a pool's `initializer`) and makes the worker exit when its parent process is
gone, by two independent means:

- On Linux, `prctl(PR_SET_PDEATHSIG)` asks the kernel for a signal when the parent dies. The kernel sends it when the
  parent *thread* that started the worker ends, which need not be the process (a pool may spawn workers from any
  thread that submits work), so the signal's handler exits only if the parent process really is gone.
- Everywhere, a daemon thread waits on multiprocessing's parent sentinel (a pipe whose other end only the parent
  holds: it reads end-of-file when the parent is gone) and checks the parent's pid every second, for workers
  started without a sentinel.

Used by the render pool (rendering/pool.py) and by `expedition-bot simulate` (bot/simulate.py). Kept free of any bot
import so that rendering stays independent of the bot.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from types import FrameType

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PARENT_DIED = signal.SIGUSR1  # a signal nothing else sends to a worker
CHECK_SECONDS = 1.0


def _exit_if_orphaned(parent_pid: int) -> None:
    if os.getppid() != parent_pid:
        os._exit(1)  # nothing to flush: the work was the parent's, and the parent is gone


def _ask_the_kernel(parent_pid: int) -> bool:
    """Linux: a signal at the parent's death (True when the kernel accepted the request)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(PARENT_DIED), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False

    def on_parent_death(signum: int, frame: FrameType | None) -> None:
        _exit_if_orphaned(parent_pid)

    signal.signal(PARENT_DIED, on_parent_death)
    return True


def _watch(parent_pid: int, sentinel: int | None) -> None:
    """The portable watch: the parent's pipe reads end-of-file, or the worker has a new parent."""
    while True:
        if sentinel is not None:
            try:
                if multiprocessing.connection.wait([sentinel], timeout=CHECK_SECONDS):
                    os._exit(1)
            except OSError:  # the sentinel is unusable here: fall back to the pid alone
                sentinel = None
        else:
            threading.Event().wait(CHECK_SECONDS)
        _exit_if_orphaned(parent_pid)


def watch_parent() -> None:
    """Make this worker exit when its parent process dies (call it first in a pool's initializer)."""
    parent = multiprocessing.parent_process()
    parent_pid = parent.pid if parent is not None and parent.pid is not None else os.getppid()
    _ask_the_kernel(parent_pid)
    _exit_if_orphaned(parent_pid)  # the parent may have died before the kernel was asked
    sentinel = parent.sentinel if parent is not None else None
    threading.Thread(target=_watch, args=(parent_pid, sentinel), name="parent-watch", daemon=True).start()
