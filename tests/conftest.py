"""Shared fixtures: a fresh database per test on each engine, the service on it, and the test-only Nim game.

Every test that takes `database`, `store` or `service` runs twice: on a SQLite file and on PostgreSQL. The
PostgreSQL run needs a server: `EXPEDITION_TEST_PG` is a superuser URL (`python -m tests.postgres -- python -m
pytest` starts a throwaway one and sets it). Without it those runs are skipped, unless `EXPEDITION_REQUIRE_PG=1`
(CI sets it) makes a missing server an error, so CI can never pass with the PostgreSQL half silently skipped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.core import register
from bot.features import install
from bot.service import GameService
from bot.store import Store
from rendering import register_renderer
from rendering.pool import RenderPool
from tests.fakes import Nim, tiny_png

NIM = register(Nim())
register_renderer(NIM.key, lambda view: tiny_png(NIM.key, view))

SERIAL_MODULES = frozenset({
    "test_memory_bounds",  # process sizes over hundreds of matches
    "test_kill_9", "test_reminder_kills", "test_orphans", "test_process_manners",  # real processes killed
    "test_postgres_restart", "test_postgres_scale", "test_store_failures",  # a cluster stopped, frozen or shared
    "test_render_pool",  # a render worker killed and replaced
    "test_answer_first",  # Discord's 3-second limit, against a store slowed by 4 s a call
})
"""Test modules that measure a process or a deadline, or kill or stop one: marked `serial`. CI runs the rest on two
workers (`pytest -n 2 -m "not serial"`), then these alone (`pytest -m serial`), so nothing else runs beside them.
(`--dist loadgroup` cannot keep them on one worker: with pytest 9.2 it silently ignores its groups, pytest-xdist
issue 1386.)"""


LONGEST_FIRST = (
    "tests/games/expeditions/test_german.py::test_a_whole_seeded_game_at_a_german_table_reads_german",
    "tests/test_discord_german_games.py::test_a_whole_german_game_reads_german",
    "tests/test_discord_mech.py::test_a_whole_two_player_game_by_commands_buttons_and_menus",
    "tests/test_discord_mech_german.py::test_a_whole_german_game_of_expeditions_reads_german",
    "tests/test_fourth_game.py::test_tug_in_a_bot_process_of_its_own",
    "tests/test_teaching_choice.py::test_a_normal_table_explains_nothing",
    "tests/test_teaching_choice.py::test_every_board_of_a_teaching_table_explains_the_choice",
    "tests/test_undo_snapshot.py::test_undo_from_a_snapshot_decides_as_a_replay_of_the_whole_game",
    "tests/test_board_controls.py::test_every_board_offers_choices_that_fit_a_phone",
)
"""The longest tests (each 25-260 s on the busy 2-core machine), collected first: pytest-xdist hands tests out in
collection order, so both workers start on these, and none of them is left running at the end while the other
worker waits (test_undo_snapshot's, last in the alphabet, kept one worker busy 36 s alone). Only the order changes;
a test renamed or moved here simply runs in its place."""


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and module.__name__.rsplit(".", 1)[-1] in SERIAL_MODULES:
            item.add_marker(pytest.mark.serial)
    items.sort(key=lambda item: not item.nodeid.startswith(LONGEST_FIRST))  # (stable: the rest keep their order)


ENGINES = ("sqlite", "postgresql")
NO_SERVER = ("PostgreSQL tests need a server: run `python -m tests.postgres -- python -m pytest`, or set "
             "EXPEDITION_TEST_PG to a superuser URL")


def postgres_server() -> str:
    """The test server's URL; skips the test (or fails it, under EXPEDITION_REQUIRE_PG=1) when there is none."""
    url = os.environ.get("EXPEDITION_TEST_PG", "")
    if url:
        return url
    if os.environ.get("EXPEDITION_REQUIRE_PG") == "1":
        pytest.fail(f"EXPEDITION_REQUIRE_PG=1 but EXPEDITION_TEST_PG is not set. {NO_SERVER}.")
    pytest.skip(NO_SERVER)


def with_search_path(url: str, schema: str) -> str:
    """The server URL, with every unqualified table name resolved in `schema` (asyncpg passes it as a setting)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def new_schema(url: str) -> str:
    """A fresh, empty schema on the server; `drop_schema` removes it."""
    import asyncpg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"CREATE SCHEMA {schema}")
    finally:
        await connection.close()
    return schema


async def drop_schema(url: str, schema: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await connection.close()


@pytest.fixture(params=ENGINES)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Path | str]:
    """Where a fresh database lives: a SQLite file path, or a PostgreSQL URL pointing at a fresh schema."""
    if request.param == "sqlite":
        yield tmp_path / "table.sqlite3"
        return
    server = postgres_server()
    schema = await new_schema(server)
    try:
        yield with_search_path(server, schema)
    finally:
        await drop_schema(server, schema)


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store) -> GameService:
    return install(GameService(store, renderer=tiny_png))


@pytest.fixture
def thread_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Computer players think in a thread with a small iteration budget (the process pool is tested elsewhere);
    a module uses it with `pytestmark = pytest.mark.usefixtures("thread_bots")`."""
    from concurrent.futures import ThreadPoolExecutor

    from bot.core.bots import Budget
    from bot.features import autoplay

    monkeypatch.setattr(autoplay, "LIVE_BUDGET", Budget(seconds=5.0, iterations=15))
    with ThreadPoolExecutor(max_workers=1) as pool:
        autoplay.use_executor(pool)
        yield
        autoplay.use_executor(None)


@pytest.fixture(scope="session")
def render_worker() -> Iterator[RenderPool]:
    """One spawned render worker for the tests of what is made in a worker rather than in the bot process (a
    board's view, its offers): spawning and warming a worker (fonts, every word boards write) took seconds, up
    to a minute on the busy 2-core machine, for each test that made its own. The pool's own behaviour (a worker
    killed and replaced, niceness, the bound) is tested on pools of its own."""
    pool = RenderPool(workers=1)
    yield pool
    pool.close()
