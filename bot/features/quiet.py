"""Quiet hours (issue 34): a member's window of the day, in their own time zone, when reminders wait.

Pure functions of a moment and a window, so a reminder's follow-up is computed from its own item alone (the window
travels in its payload: a resend or a later pass gives the same time). Deadlines never wait for quiet hours.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

Window = tuple[str, int, int]
"""A quiet window: the IANA time zone, the hour it starts and the hour it ends (local; start 22, end 7 spans
midnight). The same start and end hour: no window."""


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows (the system's files, else the tzdata package), sorted."""
    return tuple(sorted(name for name in available_timezones() if "/" in name or name == "UTC"))


def known_zone(name: str) -> str | None:
    """The zone's canonical spelling when `name` names one (case aside), else None."""
    wanted = name.strip().replace(" ", "_").lower()
    return next((zone for zone in zone_names() if zone.lower() == wanted), None)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def is_quiet(moment: datetime, window: Window) -> bool:
    """Whether `moment` falls in the window (in the window's time zone)."""
    name, start, end = window
    if start == end:
        return False
    hour = moment.astimezone(zone(name)).hour
    return start <= hour < end if start < end else hour >= start or hour < end


def after_quiet(moment: datetime, window: Window | None) -> datetime:
    """`moment`, or the window's end when `moment` falls in it (the first full hour at which it is not quiet)."""
    if window is None or not is_quiet(moment, window):
        return moment
    local = moment.astimezone(zone(window[0]))
    end = local.replace(hour=window[2], minute=0, second=0, microsecond=0)
    if end <= local:
        end += timedelta(days=1)
    # Past a change of clocks the wall-clock hour may not exist or come twice: normalise through UTC.
    return end.astimezone(UTC)


def window_of(payload: dict[str, object]) -> Window | None:
    """The quiet window a work item carries, if any."""
    value = payload.get("quiet")
    if not isinstance(value, list | tuple) or len(value) != 3:
        return None
    name, start, end = value
    return (str(name), int(start), int(end))
