"""Shared fixtures: a fresh database per test, the service on it, and the test-only Nim game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core import register
from bot.service import GameService
from bot.store import Store
from rendering import register_renderer
from tests.fakes import Nim, tiny_png

NIM = register(Nim())
register_renderer(NIM.key, lambda view: tiny_png(NIM.key, view))


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "table.sqlite3"


@pytest.fixture
async def store(database: Path) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store) -> GameService:
    return GameService(store, renderer=tiny_png)
