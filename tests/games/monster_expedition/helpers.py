"""Shared helpers for Monster Expedition tests: scripted dice, hand-built boards and seeded playouts."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from bot.core.protocol import JSON
from bot.core.rng import Rng
from bot.games.monster_expedition import GAME
from bot.games.monster_expedition.rules.catalog import REGION_DIE, TRADER_ID, catalog
from bot.games.monster_expedition.rules.rules import apply
from bot.games.monster_expedition.rules.state import new_turn, setup_state
from bot.games.monster_expedition.rules.strategies import choose

CAT = catalog()


def dice(*values: int, region: str | None = None, colours: Sequence[str] | None = None) -> list[int]:
    """Rng draws that make the dice show `values`: the region's coloured die first (when `region` is given)."""
    if colours is None:
        colours = ([REGION_DIE[region]] if region else []) + ["black"] * (len(values) - (1 if region else 0))
    draws = []
    for colour, value in zip(colours, values, strict=True):
        draws.append(CAT.dice[colour].index(value))
    return draws


def scripted(draws: Iterable[int]) -> Rng:
    return Rng.replaying(list(draws))


def standard(players: int = 2, seed: int = 1) -> JSON:
    return setup_state("standard", [f"P{i}" for i in range(players)], Rng(seed, 0), {})


def named(names: Sequence[str], seed: int = 1) -> JSON:
    return setup_state("standard", list(names), Rng(seed, 0), {})


def solo(expedition: int, seed: int = 1, profile: JSON | None = None, **options: object) -> JSON:
    record = profile if profile is not None else {"won": list(range(1, 11))}
    return setup_state("solo", ["Han"], Rng(seed, 0), {"expedition": expedition, "profiles": [record], **options})


def set_display(state: JSON, card_ids: Sequence[str], crests: dict[str, int] | None = None,
                trader: bool = True) -> None:
    """Replace the display, returning the removed cards to the bottom of the reserve so cards stay conserved."""
    crests = crests or {}
    wanted = list(card_ids) + ([TRADER_ID] if trader else [])
    current = [s["card"] for s in state["display"]]
    for card_id in wanted:
        _take_from_anywhere(state, card_id)
    for card_id in current:
        if card_id not in wanted and card_id != TRADER_ID and card_id not in _everywhere(state):
            state["reserve"].append(card_id)
    state["display"] = [{"card": c, "crest": crests.get(c)} for c in wanted]


def _everywhere(state: JSON) -> list[str]:
    ids = [s["card"] for s in state["display"]] + state["deck"] + state["reserve"]
    for p in state["players"]:
        ids += p["monsters"] + p["cages"]
    return ids


def _take_from_anywhere(state: JSON, card_id: str) -> None:
    for pile in (state["deck"], state["reserve"]):
        if card_id in pile:
            pile.remove(card_id)
    state["display"] = [s for s in state["display"] if s["card"] != card_id]
    for p in state["players"]:
        for pile in (p["monsters"], p["cages"]):
            if card_id in pile:
                pile.remove(card_id)


def give(state: JSON, seat: int, monsters: Sequence[str] = (), cages: Sequence[str] = ()) -> None:
    for card_id in monsters:
        _take_from_anywhere(state, card_id)
        state["players"][seat]["monsters"].append(card_id)
    for card_id in cages:
        _take_from_anywhere(state, card_id)
        state["players"][seat]["cages"].append(card_id)


def start_turn(state: JSON, seat: int) -> None:
    state["active"] = seat
    state["phase"] = "camp"
    state["turn"] = new_turn()


def act(state: JSON, action: JSON, draws: Iterable[int] = (), seat: int | None = None) -> tuple[JSON, list[JSON]]:
    """Apply an action for the seat to move with scripted draws; asserts every draw was used."""
    rng = scripted(draws)
    applied = apply(state, state["active"] if seat is None else seat, action, rng)
    assert rng.exhausted, "the scripted draws were not all used"
    return applied.state, applied.events


def hunt(state: JSON, region: str, steps: Sequence[tuple[str, object]]) -> tuple[JSON, list[JSON]]:
    """Play a whole hunt from a scripted list of ("camp", draws) / ("bank", n) / ("roll", draws) / ("stop", None)."""
    events: list[JSON] = []
    for kind, payload in steps:
        if kind == "camp":
            state, new = act(state, {"type": "camp", "region": region}, payload)  # type: ignore[arg-type]
        elif kind == "bank":
            state, new = act(state, {"type": "bank", "value": payload})
        elif kind == "roll":
            state, new = act(state, {"type": "roll"}, payload)  # type: ignore[arg-type]
        else:
            state, new = act(state, {"type": "stop"})
        events += new
    return state, events


def kinds(events: Sequence[JSON]) -> list[str]:
    return [e["kind"] for e in events]


def all_cards(state: JSON) -> list[str]:
    ids = [s["card"] for s in state["display"]] + state["deck"] + state["reserve"]
    for p in state["players"]:
        ids += p["monsters"] + p["cages"]
    return ids


def playout(mode: str, players: int, seed: int, styles: Sequence[str], options: JSON | None = None,
            cap: int = 5000, check=None) -> tuple[JSON, list[tuple[int, JSON, list[int]]]]:
    """Play a seeded game with the given strategies; returns the final state and (seat, action, draws) per step."""
    names = [f"Hunter{i}" for i in range(players)]
    state = GAME.setup(mode, names, Rng(seed, 0), options or {})
    chooser = random.Random(seed)
    steps: list[tuple[int, JSON, list[int]]] = []
    k = 0
    while not state["over"] and k < cap:
        k += 1
        seat = GAME.to_act(state)[0]
        action = choose(GAME.view(state, seat), styles[seat % len(styles)], chooser)
        rng = Rng(seed, k)
        before = state
        state = GAME.apply(state, seat, action, rng).state
        steps.append((seat, action, list(rng.draws)))
        if check is not None:
            check(before, state, seat)
    return state, steps


def stop_and_finish(state: JSON) -> tuple[JSON, list[JSON]]:
    """Stop hunting and, if something was affordable, finish the purchases with nothing bought."""
    state, events = act(state, {"type": "stop"})
    if state["phase"] == "purchase":
        state, more = act(state, {"type": "done"})
        events += more
    return state, events
