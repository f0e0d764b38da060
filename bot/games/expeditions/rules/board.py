"""The basecamp board's geometry: hex adjacency, the face-up card spaces, and where a mech may move."""

from __future__ import annotations

import functools
from collections import deque
from typing import Any

from bot.games.expeditions.rules.data import Components

BASECAMP = "basecamp"


@functools.lru_cache(maxsize=4)
def neighbours(comp: Components) -> dict[str, tuple[str, ...]]:
    """Hex neighbours of every space ("odd-r" offset layout: odd rows sit half a hex to the right)."""
    by_position = {(s.row, s.col): s.code for s in comp.spaces}
    result: dict[str, tuple[str, ...]] = {}
    for space in comp.spaces:
        r, c = space.row, space.col
        if r % 2 == 0:
            deltas = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
        else:
            deltas = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))
        result[space.code] = tuple(by_position[(r + dr, c + dc)] for dr, dc in deltas
                                   if (r + dr, c + dc) in by_position)
    return result


def is_location_space(comp: Components, code: str) -> bool:
    return code != BASECAMP and comp.space(code).kind != "cards"


def adjacent_locations(comp: Components, code: str) -> list[str]:
    """Location spaces touching `code` (none from the basecamp)."""
    if code == BASECAMP:
        return []
    return [n for n in neighbours(comp)[code] if is_location_space(comp, n)]


def adjacent_card_slots(comp: Components, code: str) -> list[int]:
    """Indexes (0-4) of the face-up card spaces touching `code`."""
    if code == BASECAMP:
        return []
    slots = comp.card_spaces
    return sorted(slots.index(n) for n in neighbours(comp)[code] if n in slots)


def destinations(comp: Components, state: dict[str, Any], seat: int, reach: int) -> list[str]:
    """Spaces the seat's mech may end a move on, in board order.

    Mechs may be passed but not shared; card spaces are walls; entering a face-down location ends the move there;
    the basecamp is only ever a starting point.
    """
    start = state["players"][seat]["at"]
    occupied = {p["at"] for i, p in enumerate(state["players"]) if i != seat}
    spaces = state["spaces"]
    first = list(comp.basecamp_links) if start == BASECAMP else adjacent_locations(comp, start)
    seen: dict[str, int] = {start: 0}
    frontier: deque[tuple[str, int]] = deque()
    for code in first:
        if code not in seen:
            seen[code] = 1
            frontier.append((code, 1))
    while frontier:
        code, distance = frontier.popleft()
        if distance >= reach or not spaces[code]["revealed"]:
            continue
        for nxt in adjacent_locations(comp, code):
            if nxt not in seen:
                seen[nxt] = distance + 1
                frontier.append((nxt, distance + 1))
    order = [s.code for s in comp.spaces]
    return sorted((code for code, distance in seen.items() if distance >= 1 and code not in occupied),
                  key=order.index)
