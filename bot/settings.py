"""A server's settings (/settings): what it chose, with the defaults for what it never set, read and validated.

The settings are rows of the store; this is their typed view, used by the service (board style), the community
features (reminders, timers, lobby expiry, threads) and the /settings commands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bot.core import RuleError
from bot.i18n import LANGUAGES, Localized, Text, translate, translate_plural
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
    language: str = ""  # a new table's language ("en", "de"); "": the server's preferred locale on Discord
    # Issue 32: what one member's command may post publicly (0: no limit).
    board_repost_seconds: int = 60  # /game board posts the same board again only after this long
    replay_minutes: int = 5  # one public /game replay per channel in this time
    lobby_limit: int = 3  # open lobbies one member may host at once
    threads_per_hour: int = 5  # game threads one member may have the bot open in an hour
    away_days: float = 21.0  # issue 34: the days a member may be away (/me away) in a year, deadlines frozen
    teach: bool = False  # issue 33: new tables are teaching tables (/game new teach:, bot/features/lessons.py)
    clock: tuple[float, ...] = ()  # issue 34: a new game's clock (bank hours, hours added per move); (): none


SETTING_KEYS = tuple(ServerSettings.__dataclass_fields__)


LANGUAGE_SETTINGS = ("", *LANGUAGES)
WHAT_REMINDERS = Text.of("settings.what.reminders")
WHAT_TIMER = Text.of("settings.what.timer")
WHAT_LOBBY_EXPIRY = Text.of("settings.what.lobby_expiry")
"""The names of the settings in hours, for check_hours' refusal (worded in its reader's language)."""


def decimal(value: float, language: str = "en") -> str:
    """A setting's number as typed in that language ("0.25", "0,25"), without thousands separators ("1000")."""
    text = f"{value:g}"
    return text.replace(".", ",") if language == "de" else text


def decimal_words(value: float) -> Localized:
    """`decimal` in every language, for a refusal worded later in its reader's language."""
    return Localized.from_mapping({language: decimal(value, language) for language in LANGUAGES})


def hours_text(hours: float, language: str = "en") -> str:
    """ "12 h", "3 days" ("12 Std.", "3 Tage"): a duration in hours as a setting shows it."""
    if hours >= 48 and hours % 24 == 0:
        return translate_plural("settings.days", int(hours // 24), language)
    return translate("settings.hours", language, hours=decimal(hours, language))


def check_hours(hours: float, what: str | Text, *, allow_off: bool, low: float = 0.25) -> float:
    """`hours` as a setting, or a RuleError saying which values are allowed (`what`: the setting's name, best a
    Text such as WHAT_TIMER so the refusal is worded in its reader's language)."""
    if not math.isfinite(hours) or (hours == 0 and not allow_off) or (hours != 0 and not low <= hours <= MAX_HOURS):
        values = {"what": what, "low": decimal_words(low), "most": str(MAX_HOURS), "hours": decimal_words(hours)}
        if allow_off:
            raise RuleError("settings.refuse.hours_or_off", **values)
        raise RuleError("settings.refuse.hours", **values)
    return float(hours)


LIMITS = {"board_repost_seconds": 3600, "replay_minutes": 24 * 60, "lobby_limit": 25, "threads_per_hour": 60}
"""The highest value of each limit (the lowest is 0: no limit)."""
LIMIT_NAMES = {"board_repost_seconds": Text.of("settings.limit.board_repost_seconds"),
               "replay_minutes": Text.of("settings.limit.replay_minutes"),
               "lobby_limit": Text.of("settings.limit.lobby_limit"),
               "threads_per_hour": Text.of("settings.limit.threads_per_hour")}
"""Each limit's name, for a refusal worded in its reader's language."""


def check_limit(key: str, value: int) -> int:
    """A limit as a setting, or a RuleError saying which values are allowed."""
    if not 0 <= value <= LIMITS[key]:
        raise RuleError("settings.refuse.limit", what=LIMIT_NAMES[key], most=str(LIMITS[key]),
                        value=str(value))
    return int(value)


async def server_settings(store: Store, guild_id: int) -> ServerSettings:
    stored = await store.settings(guild_id)
    known = {key: value for key, value in stored.items() if key in SETTING_KEYS}
    if "clock" in known:
        known["clock"] = tuple(float(hours) for hours in known["clock"])
    if "game_channels" in known:
        known["game_channels"] = tuple(int(channel) for channel in known["game_channels"])
    return ServerSettings(**known)


async def change_setting(store: Store, guild_id: int, key: str, value: Any) -> ServerSettings:
    """Store one validated setting (None: back to the default); returns the server's settings now."""
    if key not in SETTING_KEYS:
        raise RuleError("settings.refuse.unknown", key=repr(key))
    if key == "language" and value is not None and value not in LANGUAGE_SETTINGS:
        raise RuleError("settings.refuse.language", value=repr(value))
    if value is None or value == getattr(ServerSettings(), key):
        await store.clear_setting(guild_id, key)
    else:
        await store.set_setting(guild_id, key, list(value) if isinstance(value, tuple) else value)
    return await server_settings(store, guild_id)
