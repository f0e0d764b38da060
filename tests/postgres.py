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


@contextmanager
def cluster(*, durable: bool = False) -> Iterator[str]:
    """A running throwaway cluster; yields its superuser URL and removes everything afterwards."""
    initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise SystemExit("PostgreSQL's initdb and pg_ctl were not found (on PATH or in /usr/lib/postgresql/*/bin). "
                         "Install the server, e.g. `apt-get install postgresql`.")
    user = _unprivileged_user()
    root = Path(tempfile.mkdtemp(prefix="expedition-pg-"))
    data, log = root / "data", root / "server.log"
    as_user: dict[str, int] = {"user": user.pw_uid, "group": user.pw_gid} if user else {}
    if user:
        os.chown(root, user.pw_uid, user.pw_gid)
    port = free_port()
    started = False
    try:
        subprocess.run([initdb, "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, cwd=root, **as_user)  # type: ignore[call-overload]
        options = ["-p", str(port), "-k", str(root), "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"]
        if not durable:
            options += FAST
        subprocess.run([pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o", " ".join(options), "start"],
                       check=True, stdout=subprocess.DEVNULL, cwd=root, **as_user)  # type: ignore[call-overload]
        started = True
        yield f"postgresql://{SUPERUSER}@127.0.0.1:{port}/postgres"
    finally:
        if started:
            subprocess.run([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=root,
                           **as_user)  # type: ignore[call-overload]
        shutil.rmtree(root, ignore_errors=True)


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
