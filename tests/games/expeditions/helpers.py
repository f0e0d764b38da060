"""Building blocks for Expeditions rules tests: a fresh game, a controllable turn, and effect resolution."""

from __future__ import annotations

import copy
from typing import Any

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.engine import Engine

COMP = GAME.comp


def fresh(players: int = 2, seed: int = 7) -> dict[str, Any]:
    """A new game, with seat 0 to act at the start of its first (all-three-actions) turn."""
    state = GAME.setup("standard", [f"P{i}" for i in range(players)], Rng(seed, 0), {})
    for player in state["players"]:
        player["token"] = "refresh"
    state["players"][0]["token"] = "all"
    state["turn"]["seat"] = 0
    return state


def place(state: dict[str, Any], seat: int, tile: int) -> str:
    """Put a seat's mech on a location tile (revealing it without corruption) and return the space code."""
    code = next(c for c, s in state["spaces"].items() if s["tile"] == tile)
    state["spaces"][code]["revealed"] = True
    state["spaces"][code]["map_token"] = False
    state["players"][seat]["at"] = code
    return code


def code_of(state: dict[str, Any], tile: int) -> str:
    return next(c for c, s in state["spaces"].items() if s["tile"] == tile)


def take_from_deck(state: dict[str, Any], card_id: str) -> None:
    """Remove a card from wherever it lies in the deck, face-up row or discard (so tests can hand it out)."""
    for zone in ("deck", "discard"):
        if card_id in state[zone]:
            state[zone].remove(card_id)
            return
    if card_id in state["face_up"]:
        state["face_up"][state["face_up"].index(card_id)] = state["deck"].pop(0)
        return
    for player in state["players"]:
        if card_id in player["hand"]:
            player["hand"].remove(card_id)
            return


def give(state: dict[str, Any], seat: int, card_id: str, zone: str = "hand", worker: str | None = None) -> None:
    take_from_deck(state, card_id)
    player = state["players"][seat]
    if zone == "hand":
        player["hand"].append(card_id)
    elif zone == "active":
        player["active"].append({"card": card_id, "worker": worker})
    else:
        player[zone].append(card_id)


def in_actions(state: dict[str, Any], remaining: tuple[str, ...] = ("gather",)) -> dict[str, Any]:
    state["turn"].update({"phase": "actions", "remaining": list(remaining), "queue": [], "pending": None})
    return state


def resolve(state: dict[str, Any], effects: list[dict[str, Any]], src: dict[str, Any] | None = None,
            seed: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Resolve an effect list for the seat to act (as if a card granted it), stopping at any decision."""
    new = in_actions(copy.deepcopy(state), tuple(state["turn"]["remaining"]) or ("gather",))
    engine = Engine(COMP, new, Rng(seed, 0))
    engine.push(engine.fx(effects, src or {"card": None}))
    engine.run()
    return new, engine.events


def act(state: dict[str, Any], action: dict[str, Any], seed: int = 3) -> dict[str, Any]:
    seat = GAME.to_act(state)[0]
    return GAME.apply(state, seat, action, Rng(seed, 1)).state


def choose(state: dict[str, Any], option: str) -> dict[str, Any]:
    return act(state, {"type": "choose", "option": option})


def options(state: dict[str, Any]) -> list[str]:
    return [a["option"] for a in GAME.legal_actions(state, GAME.to_act(state)[0]) if a["type"] == "choose"]


def fx(text: dict[str, Any]) -> list[dict[str, Any]]:
    """Parse one TOML-style effect table the way the loader does."""
    from pathlib import Path

    from bot.games.expeditions.rules.data import _EffectParser

    return list(_EffectParser(Path("test.toml"), "test", tuple(COMP.workers)).effects("effects", [text]))
