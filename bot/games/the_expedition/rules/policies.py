"""Simple computer policies (random and one-step greedy) used for playouts, balance checks and benchmarks.

The greedy policy looks one step ahead and uses only what its seat may know: the public grid, its own cards and the
open market (the Automations' paths are public too), never another player's hand.
"""

from __future__ import annotations

import copy
import random

from bot.core.protocol import JSON
from bot.games.the_expedition.rules.catalog import Catalog
from bot.games.the_expedition.rules.conditions import card_progress, closeness
from bot.games.the_expedition.rules.rules import (
    REPETITION_LIMIT,
    apply_action,
    current_pid,
    is_automation,
    is_market,
    legal_actions,
    mark,
    marked_cells,
    participant,
    times_seen,
)

REPEAT_COST = 4.0
"""Points a step is marked down for each time the position it leads to has arisen before: the rule of thumb steps
somewhere new unless going back is clearly better (the normal and hard players swapped the Mars and Saturn markers
for some 20 rounds until the repetition rule ended the game)."""


HANDED_OVER = 8.0
"""Points a step is marked down when the next player could answer it by bringing back a position for the third time,
which ends the game at once, while this seat would not win it then: a rule of thumb that steps back and forth lets
a leader end the game by repetition (a normal player did so against a hard one in 2 of 30 games)."""


def hands_over_by_repetition(state: JSON, catalog: Catalog, seat: int) -> bool:
    """Whether the player to move in `state` (another player) has a step that ends the game by repetition, and
    `seat` would not be among its winners."""
    pid = current_pid(state) if state["phase"] == "play" else None
    if pid is None or is_automation(pid) or pid == f"p{seat}":
        return False
    mover = int(pid[1:])
    for action in legal_actions(state, catalog, mover):
        after, _ = apply_action(state, catalog, mover, action)
        result = after.get("result") or {}
        if result.get("reason") == "repetition" and f"p{seat}" not in result["winners"]:
            return True
    return False


def _repeated_before(state: JSON) -> bool:
    """Whether some position has arisen twice already (else no step can end the game by repetition)."""
    return max(state.get("public_positions", {}).values(), default=0) >= REPETITION_LIMIT - 1


def random_action(state: JSON, catalog: Catalog, seat: int, chooser: random.Random) -> JSON:
    return chooser.choice(legal_actions(state, catalog, seat))


def position_value(state: JSON, catalog: Catalog, seat: int) -> float:
    """What a seat's position is worth to it: points held now plus half the expedition points it is closing in on."""
    pid = f"p{seat}"
    player = participant(state, pid)
    mine = marked_cells(state, pid)
    value = float(sum(catalog.location(state["grid"][cell]).points for cell in mine))
    value += sum(catalog.expedition(card).points for card in player["scored"])
    open_cards = state["market"] if is_market(state) else player["hand"]
    for card_id in open_cards:
        card = catalog.expedition(card_id)
        value += 0.5 * card.points * closeness(card_progress(card, mine, state["grid"], catalog))
    return value


def greedy_action(state: JSON, catalog: Catalog, seat: int, chooser: random.Random) -> JSON:
    """The legal action whose result is worth most to `seat` (ties broken at random).

    A step always marks the location being left, so what a direction really decides is the location marked on the
    next turn: the result is valued as if that one were marked too (a location with gravity costs a turn first).
    """
    pid = f"p{seat}"
    scored = []
    for action in legal_actions(state, catalog, seat):
        after, _ = apply_action(state, catalog, seat, action)
        value = position_value(after, catalog, seat)
        explorer = participant(after, pid)
        if after["phase"] == "play" and explorer["cell"] is not None:
            ahead = copy.deepcopy(after)
            mark(ahead, catalog, explorer["cell"], pid)
            gain = position_value(ahead, catalog, seat) - value
            value += gain * (0.5 if explorer["held"] else 0.9)
        value -= REPEAT_COST * max(0, times_seen(after) - 1)  # counted already on arriving: before, it is one less
        if _repeated_before(after) and hands_over_by_repetition(after, catalog, seat):
            value -= HANDED_OVER
        scored.append((value, chooser.random(), action))
    return max(scored, key=lambda entry: (entry[0], entry[1]))[2]
