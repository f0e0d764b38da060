"""A throwaway PostgreSQL for tests and benchmarks: `python -m tests.postgres [--durable] -- COMMAND...`.

It creates a cluster in a temporary folder with `initdb`, starts it with `pg_ctl` on a free local port (as an
unprivileged user when run as root: PostgreSQL refuses to run as root), runs COMMAND with `EXPEDITION_TEST_PG` set
to the cluster's URL, then stops the cluster and deletes it, whatever happens (Ctrl-C and SIGTERM included).
The tests' `database` fixture gives each test its own schema on that server.

Without `--durable` the cluster trades crash safety for speed (fsync off), which is right for tests; benchmarks
pass `--durable` so that a commit costs what it costs in production.
"""

from __future__ import annotations

import argparse
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

SUPERUSER = "expedition"
FAST = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")


def find_binary(name: str) -> str | None:
    """`name` on PATH, or in the newest /usr/lib/postgresql/<version>/bin (where Debian installs it)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                        key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0)
    return candidates[-1] if candidates else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _unprivileged_user() -> pwd.struct_passwd | None:
    """Whom to run the server as: None when we are not root, else `postgres` (Debian's) or `nobody`."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise SystemExit("Running as root and neither a 'postgres' nor a 'nobody' user exists to run PostgreSQL as.")


def available() -> bool:
    """Whether a throwaway cluster can be made here (PostgreSQL's initdb and pg_ctl are installed)."""
    return find_binary("initdb") is not None and find_binary("pg_ctl") is not None


class Cluster:
    """A throwaway cluster in a temporary folder, which a test may stop and start again (same data, same port):
    `restartable_cluster()` makes one; `cluster()` only hands out its URL."""

    def __init__(self, *, durable: bool = False) -> None:
        initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise SystemExit("PostgreSQL's initdb and pg_ctl were not found (on PATH or in "
                             "/usr/lib/postgresql/*/bin). Install the server, e.g. `apt-get install postgresql`.")
        self._pg_ctl = pg_ctl
        self._user = _unprivileged_user()
        self.root = Path(tempfile.mkdtemp(prefix="expedition-pg-"))
        self._data, self._log = self.root / "data", self.root / "server.log"
        if self._user:
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)
        self.port = free_port()
        self.url = f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"
        self.running = False
        self._options = ["-p", str(self.port), "-k", str(self.root), "-c", "listen_addresses=127.0.0.1",
                         "-c", "max_connections=200", *(() if durable else FAST)]
        self._run([initdb, "-D", str(self._data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-sync"])

    def _run(self, command: list[str], *, check: bool = True) -> None:
        as_user: dict[str, int] = {"user": self._user.pw_uid, "group": self._user.pw_gid} if self._user else {}
        subprocess.run(command, check=check, stdout=subprocess.DEVNULL, stderr=None if check else subprocess.DEVNULL,
                       cwd=self.root, **as_user)  # type: ignore[call-overload]

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self._run([self._pg_ctl, "-D", str(self._data), "-l", str(self._log), "-w", "-t", "60",
                   "-o", " ".join(self._options), "start"])
        self.running = True

    def stop(self, mode: str = "fast") -> None:
        """Stop the server the way `pg_ctl -m MODE` does: "smart", "fast" (sessions ended, a clean shutdown) or
        "immediate" (every process killed at once, recovered from the write-ahead log at the next start)."""
        self.running = False
        self._run([self._pg_ctl, "-D", str(self._data), "-m", mode, "-w", "stop"], check=mode != "immediate")

    def remove(self) -> None:
        if self.running:
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def restartable_cluster(*, durable: bool = False) -> Iterator[Cluster]:
    """A running throwaway cluster that may be stopped and started; removed afterwards, whatever happens."""
    made: Cluster | None = None
    try:
        made = Cluster(durable=durable)
        made.start()
        yield made
    finally:
        if made is not None:
            made.remove()


@contextmanager
def cluster(*, durable: bool = False) -> Iterator[str]:
    """A running throwaway cluster; yields its superuser URL and removes everything afterwards."""
    with restartable_cluster(durable=durable) as running:
        yield running.url


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM (CI cancelling the job) unwinds like Ctrl-C, so `cluster` stops and deletes the server."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.postgres",
                                     description="Run a command against a throwaway PostgreSQL cluster.")
    parser.add_argument("--durable", action="store_true", help="keep fsync on (for benchmarks)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command (default: python -m pytest)")
    args = parser.parse_args(argv)
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        command = [sys.executable, "-m", "pytest"]
    signal.signal(signal.SIGTERM, _interrupt)
    began = time.monotonic()
    with cluster(durable=args.durable) as url:
        print(f"PostgreSQL ready at {url} after {time.monotonic() - began:.1f} s", file=sys.stderr, flush=True)
        try:
            return subprocess.run(command, env={**os.environ, "EXPEDITION_TEST_PG": url}, check=False).returncode
        except KeyboardInterrupt:
            return 130


if __name__ == "__main__":
    raise SystemExit(main())
