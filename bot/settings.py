"""A server's settings (/settings): what it chose, with the defaults for what it never set, read and validated.

The settings are rows of the store; this is their typed view, used by the service (board style), the community
features (reminders, timers, lobby expiry, threads) and the /settings commands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bot.core import RuleError
from bot.store import Store

TIMER_POLICIES = ("bot", "skip")
BOARD_STYLES = ("turn", "step")
MAX_HOURS = 24 * 14  # two weeks: longer than that, a reminder or a deadline means nothing


@dataclass(frozen=True)
class ServerSettings:
    """A server's choices, with the defaults for what it never set."""

    reminder_hours: float = 12.0
    timer_hours: float = 0.0  # 0: no turn timer
    timer_policy: str = "bot"
    board_style: str = "turn"
    threads: bool = False
    game_channels: tuple[int, ...] = ()  # empty: games may start in any channel
    default_modes: dict[str, str] = field(default_factory=dict)
    lobby_expiry_hours: float = 24.0


SETTING_KEYS = tuple(ServerSettings.__dataclass_fields__)


def hours_text(hours: float) -> str:
    if hours >= 48 and hours % 24 == 0:
        return f"{int(hours // 24)} days"
    return f"{hours:g} h"


def check_hours(hours: float, what: str, *, allow_off: bool, low: float = 0.25) -> float:
    """`hours` as a setting, or a RuleError saying which values are allowed."""
    off = " (0 turns it off)" if allow_off else ""
    if not math.isfinite(hours) or (hours == 0 and not allow_off) or (hours != 0 and not low <= hours <= MAX_HOURS):
        raise RuleError(f"{what} is a number of hours from {low:g} to {MAX_HOURS}{off}; {hours:g} is not allowed.")
    return float(hours)


async def server_settings(store: Store, guild_id: int) -> ServerSettings:
    stored = await store.settings(guild_id)
    known = {key: value for key, value in stored.items() if key in SETTING_KEYS}
    if "game_channels" in known:
        known["game_channels"] = tuple(int(channel) for channel in known["game_channels"])
    return ServerSettings(**known)


async def change_setting(store: Store, guild_id: int, key: str, value: Any) -> ServerSettings:
    """Store one validated setting (None: back to the default); returns the server's settings now."""
    if key not in SETTING_KEYS:
        raise RuleError(f"There is no setting called {key!r}.")
    if value is None or value == getattr(ServerSettings(), key):
        await store.clear_setting(guild_id, key)
    else:
        await store.set_setting(guild_id, key, list(value) if isinstance(value, tuple) else value)
    return await server_settings(store, guild_id)
