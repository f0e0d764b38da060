"""Simple computer players: uniformly random, and a one-step greedy player that simulations use to tune balance.

Both decide from legal actions only; the greedy one looks one action ahead with a fixed random stream (it never
sees the real deck or bag draws) and scores the result with a hand-written estimate of progress.
"""

from __future__ import annotations

import random
from typing import Any

from bot.core.rng import Rng
from bot.games.expeditions import queries as q
from bot.games.expeditions.data import Components
from bot.games.expeditions.game import ExpeditionsGame

State = dict[str, Any]


def random_action(game: ExpeditionsGame, state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
    return rnd.choice(game.legal_actions(state, seat))


def estimate(comp: Components, state: State, seat: int) -> float:
    """How well placed a seat is: money now plus progress towards stars and the means to get there."""
    player = state["players"][seat]
    value = float(q.score(comp, player))
    value += 1.5 * min(len(player["quests"]), 4) + 1.5 * min(len(player["melds"]), 4)
    value += 1.5 * min(len(player["upgrades"]), 4) + 0.8 * min(q.corruption_count(player), 7)
    value += 0.25 * (player["power"] + player["guile"]) + 0.6 * min(player["map_tokens"], 5)
    value += 0.8 * min(q.workers_owned(player), 7) + 0.6 * min(len(q.controlled(player)), 8)
    value += 0.2 * len(player["hand"])
    turn = state["turn"]
    if not state["over"] and turn["seat"] == seat and turn["pending"]:
        value += 0.5
    value += 2.0 * len(q.boastable(comp, state, seat)) + 6.0 * player["stars"]
    value += 1.0 * sum(1 for space in state["spaces"].values() if space["revealed"])
    value += 0.8 * location_appeal(comp, state, seat)
    return value


def location_appeal(comp: Components, state: State, seat: int) -> float:
    """What gathering or questing where the mech stands would bring this seat (a rough guess)."""
    player = state["players"][seat]
    at = player["at"]
    if at == "basecamp" or not state["spaces"][at]["revealed"]:
        return 0.0
    controlled = [comp.cards[c] for c in q.controlled(player)]
    appeal = 0.0
    for benefit in q.exposed_benefits(comp, state, at):
        kind = benefit["do"]
        if kind == "boast":
            appeal += 4.0 if q.boastable(comp, state, seat) else 0.0
        elif kind == "upgrade":
            appeal += 2.0 if any(c.kind == "item" for c in controlled) else 0.0
        elif kind == "meld":
            appeal += 2.0 if any(c.kind == "meteorite" for c in controlled) else 0.0
        else:
            appeal += 0.5
    here = state["spaces"][at]["tile"]
    if any(c.quest and c.quest.location == here for c in controlled):
        appeal += 3.0
    stack = state["spaces"][at]["corruption"]
    if stack and stack[-1]["id"] != q.TOKEN20 and player[stack[-1]["colour"]] >= stack[-1]["value"]:
        appeal += 1.5
    return appeal


def greedy_action(game: ExpeditionsGame, state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    player = state["players"][seat]
    pending = state["turn"]["pending"]
    if pending and pending["kind"] == "sweep":
        return {"type": "choose", "option": "confirm"}  # toggling has no immediate value: it would loop
    if state["turn"]["phase"] == "start" and not pending:
        if len(player["hand"]) <= 1 and len(player["active"]) >= 2:
            return {"type": "refresh"}
        legal = [a for a in legal if a["type"] != "refresh"]
    comp = game.comp
    best: list[dict[str, Any]] = []
    best_value = float("-inf")
    for action in legal:
        after = game.apply(state, seat, action, Rng(0, 0)).state
        value = estimate(comp, after, seat) + rnd.random() * 0.01
        if value > best_value:
            best, best_value = [action], value
    return best[0]


def play_game(game: ExpeditionsGame, players: int, seed: int, policy: str = "random",
              max_steps: int = 4000) -> tuple[State, int]:
    """Play one whole game with the given policy; returns the final state and the number of actions applied."""
    rnd = random.Random(seed)
    state = game.setup("standard", [f"P{i + 1}" for i in range(players)], Rng(seed, 0), {})
    choose = greedy_action if policy == "greedy" else random_action
    step = 0
    while not state["over"] and step < max_steps:
        seat = game.to_act(state)[0]
        step += 1
        state = game.apply(state, seat, choose(game, state, seat, rnd), Rng(seed, step)).state
    return state, step
