"""What the offline Discord's two sides (``gateway``, ``rest``) share: the state DiscordHarness sets up, declared
here so each side is typed on its own, and the world look-ups both sides use."""

from __future__ import annotations

import abc
import contextvars
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord.http import Route

from bot.discord_api import ContractViolation, Violation
from bot.offline.common import HarnessError
from bot.offline.recorder import SentFile
from bot.offline.world import FakeChannel, FakeUser, World

RouteHandler = Callable[[Route, dict[str, str], dict[str, Any], list[SentFile]], Any]


class ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.errors: list[BaseException] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            self.errors.append(record.exc_info[1])


class HarnessBase(abc.ABC):
    """The base of DiscordHarness's sides: its attributes (set in ``DiscordHarness.__init__``) and what one side
    asks of the harness."""

    bot: discord.Client
    world: World
    bot_user: FakeUser
    timeout: float
    raise_errors: bool
    task_prefixes: tuple[str, ...]
    check_contract: bool
    routes: dict[str, RouteHandler]
    _expect_refusal: bool
    _violations_reported: int
    _errors: ErrorCollector
    _context: contextvars.Context

    @abc.abstractmethod
    def user(self, name: str) -> FakeUser:
        """A member by name, created on first use and kept in the bot's member cache."""

    @abc.abstractmethod
    def _channel_id(self, channel: FakeChannel | str | int | None) -> int:
        """A channel's id: the default channel for None, a channel of the server by name."""

    def _user_by_id(self, user_id: int) -> FakeUser:
        for u in self.world.users.values():
            if u.id == user_id:
                return u
        raise HarnessError(f"unknown user id {user_id}; create it with harness.user(name)")

    def raise_violations(self) -> None:
        """Fail with the first request (or answer) Discord's description refuses that was not yet reported.

        The check also raises inside the request, but the bot's own error handling could swallow that; the
        record makes sure the test that caused it fails.
        """
        fresh = self.world.violations[self._violations_reported:]
        self._violations_reported = len(self.world.violations)
        if fresh:
            raise fresh[0]

    def _violation(self, found: list[Violation], what: str) -> ContractViolation:
        error = ContractViolation(found, what)
        self.world.violations.append(error)
        return error
