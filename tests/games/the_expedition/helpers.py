"""Arranged positions for The Expedition's rules tests: a known grid, explorers and markers, in the play phase."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.core.rng import Rng
from bot.games.the_expedition import TheExpedition
from bot.games.the_expedition.rules.catalog import AutomationCard, Catalog, load_catalog
from bot.i18n import Localized

# The grid used by most tests (cell numbers in reading order):
#   0 luna     1 saturn    2 mercury
#   3 io       4 europa    5 titan
#   6 mars     7 jupiter   8 neptune
LAYOUT = ["luna", "saturn", "mercury", "io", "europa", "titan", "mars", "jupiter", "neptune"]
CELL = {location: cell for cell, location in enumerate(LAYOUT)}

GAME = TheExpedition()


def catalog_with_automations(*cards: AutomationCard) -> Catalog:
    """The shipped catalog with its Automation cards replaced (to test paths the shipped cards don't have)."""
    return dataclasses.replace(load_catalog(), automations=tuple(cards))


def arranged(names: tuple[str, ...] = ("Alice", "Bob"), mode: str = "standard", *, cells: dict[str, int],
             markers: dict[int, list[str]] | None = None, hands: dict[str, list[str]] | None = None,
             order: list[str] | None = None, market: list[str] | None = None, draw_pile: list[str] | None = None,
             automations: dict[str, tuple[str, int, int]] | None = None, game: TheExpedition = GAME,
             **extra: Any) -> dict[str, Any]:
    """A state in the play phase on LAYOUT.

    cells: participant id -> cell; markers: cell -> owners oldest first; hands: player id -> card ids;
    automations: "a1"/"a2" -> (card id, cell, moves used).
    """
    state = game.setup(mode, list(names), Rng(1, 0), {})
    state["grid"] = list(LAYOUT)
    state["phase"] = "play"
    state["placed"] = len(state["placement"])
    state["markers"] = [list((markers or {}).get(cell, [])) for cell in range(9)]
    for player in state["players"]:
        player["cell"] = cells[player["id"]]
        player["hand"] = list((hands or {}).get(player["id"], []))  # no cards unless a test deals some
    for automaton in state["automations"]:
        if automations is not None and automaton["id"] in automations:
            card, cell, used = automations[automaton["id"]]
            automaton.update(card=card, cell=cell, moves_used=used)
    if order is not None:
        state["order"] = order
    elif mode not in ("solo", "solo-hard"):
        state["order"] = [p["id"] for p in state["players"]]
    state["current"] = 0
    state["round"] = 1 if mode in ("solo", "solo-hard") else 0
    if market is not None:
        state["market"] = list(market)
    if draw_pile is not None:
        state["draw_pile"] = list(draw_pile)
    state.update(extra)
    return state


def move(state: dict[str, Any], seat: int, direction: str, game: TheExpedition = GAME) -> tuple[dict[str, Any],
                                                                                             list[dict[str, Any]]]:
    applied = game.apply(state, seat, {"type": "move", "direction": direction}, Rng(0, 1))
    return applied.state, applied.events


def owners(state: dict[str, Any], location: str) -> list[str]:
    return list(state["markers"][CELL[location]])


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [event["kind"] for event in events]


def automation(card_id: str, start: int, path: tuple[str, ...]) -> AutomationCard:
    """A test's own Automation card, named after its id in both languages."""
    name = card_id.title()
    return AutomationCard(card_id, Localized(name, name), start, path)
