"""Computer players: uniformly random, a one-step greedy player, and a turn planner that simulations use to tune
balance.

Both decide from legal actions only; the greedy one looks one action ahead with a fixed random stream (it never
sees the real deck or bag draws) and scores the result with a hand-written estimate of progress.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from bot.core.rng import Rng
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.board import BASECAMP, adjacent_locations
from bot.games.expeditions.rules.data import Components
from bot.games.expeditions.rules.engine import pending_options
from bot.games.expeditions.rules.game import ExpeditionsGame

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
        if not q.benefit_takes(comp, state, seat, benefit):
            continue  # a gain at a full track, or a worker none are left of, brings nothing
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
        if len(player["hand"]) <= 1 and len(player["active"]) >= 2 and {"type": "refresh"} in legal:
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


GOAL_WEIGHT = 9.0  # what a glory category is worth once met (a star is near), before the boast
MET_BONUS = 5.0  # and once met, on top (still less than a placed star is worth)
STAR_BONUS = 16.0  # a placed star beyond its dollars: stars end the game
FUTURE_STARS = 0.75  # the share of the stars still to place that a plan values at today's star value
HELD_QUEST = 0.65  # the share of a held quest's worth (reward and dearer stars) counted before it is solved
TOKEN20_THERE = 0.97  # progress towards the 20 token per share of its price held, standing on location 20
TOKEN20_FAR = 0.85  # the same far from a face-up location 20 (the nearer, the more)
TOKEN20_HIDDEN = 0.6  # the same while location 20 is still face down
URGENCY_FROM = 20  # turns per player after which stars and progress towards them gain weight with every turn
URGENCY = 0.6  # the weight gained per turn and per star (or whole category of progress)
NOISE = 0.6  # plans within this much of the best are taken now and then
MOVE_CANDIDATES = 5  # destinations a plan considers (the most promising by a quick look)


NO_VANQUISH = 0.5
"""The share of the 20 token's or the corruption category's progress that counts while the seat controls no card
that vanquishes: power and guile buy nothing without one (a bot that trashed its companion held 10 and 10 and
circled location 20 without end, seed 1186)."""


def _vanquishes(effects: Any) -> bool:
    return any(effect["do"] == "vanquish" or (effect["do"] == "or" and any(_vanquishes(option)
                                                                           for option in effect["options"]))
               for effect in effects)


def can_vanquish(comp: Components, player: State) -> bool:
    """Whether a card the seat controls (hand or active row) can vanquish, by its core or its ability."""
    return any(_vanquishes(comp.cards[c].core) or _vanquishes(comp.cards[c].ability) for c in q.controlled(player))


def goal_progress(comp: Components, state: State, seat: int, key: str) -> float:
    """How close a seat is to a glory category, 0 to 1, counting cards in hand as half-way to a meld/upgrade."""
    player = state["players"][seat]
    glory = next(g for g in comp.glory if g.key == key)
    controlled = [comp.cards[c] for c in q.controlled(player)]
    room = q.limit(comp, player)
    if glory.measure == "quests":
        here = sum(1 for c in controlled if c.quest is not None and _quest_location_known(state, c.quest.location))
        have = len(player["quests"]) + 0.5 * min(here, room - len(player["quests"]))
    elif glory.measure == "melds":
        have = len(player["melds"]) + 0.5 * min(sum(c.kind == "meteorite" for c in controlled),
                                                room - len(player["melds"]))
    elif glory.measure == "upgrades":
        have = len(player["upgrades"]) + 0.5 * min(sum(c.kind == "item" for c in controlled),
                                                   room - len(player["upgrades"]))
    elif glory.measure == "token20":
        if q.has_token20(player):
            return 1.0
        if not token20_open(state):
            return 0.0  # another player holds it: there is only one
        code = _token20_space(comp, state)
        if code is None:
            reach = TOKEN20_HIDDEN
        elif player["at"] == BASECAMP:
            reach = TOKEN20_FAR
        else:
            steps = hex_distances(comp)[player["at"]].get(code, 9)
            reach = TOKEN20_FAR + (TOKEN20_THERE - TOKEN20_FAR) / (1 + 0.5 * steps)
        have = reach * token20_resources(comp, state, seat)
        if not can_vanquish(comp, player):
            have *= NO_VANQUISH
    elif glory.measure == "corruption":
        means = 0.1 * (player["power"] + player["guile"]) / 3
        have = q.corruption_count(player) + means * (1.0 if can_vanquish(comp, player) else NO_VANQUISH)
    elif glory.measure == "cards":
        have = len(controlled)
    else:
        return min(1.0, max(q.workers_owned(player) / glory.goal, player["map_tokens"] / glory.goal_maps))
    return min(1.0, have / glory.goal)


def _quest_location_known(state: State, number: int) -> bool:
    return any(space["tile"] == number and space["revealed"] for space in state["spaces"].values())


def token20_open(state: State) -> bool:
    """Whether the 20 token is still to be won (on location 20 or waiting for it to be revealed)."""
    return not any(q.has_token20(player) for player in state["players"])


def _token20_space(comp: Components, state: State) -> str | None:
    """The space of location 20 once it is face up and still holds the 20 token."""
    for code, space in state["spaces"].items():
        if space["revealed"] and space["tile"] == comp.token20[0]:
            return code if any(t["id"] == q.TOKEN20 for t in space["corruption"]) else None
    return None


def token20_resources(comp: Components, state: State, seat: int) -> float:
    """How much of the 20 token's price (10 power and 10 guile; Lumberjack 9 and 9) the seat holds, 0 to 1."""
    player = state["players"][seat]
    lumberjack = q.mech_ability(comp, player) == "lumberjack"
    power, guile = comp.token20[1] - lumberjack, comp.token20[2] - lumberjack
    return (min(player["power"], power) + min(player["guile"], guile)) / (power + guile)


@functools.lru_cache(maxsize=4)
def hex_distances(comp: Components) -> dict[str, dict[str, int]]:
    """Steps between location spaces over the movement map (mechs ignored)."""
    result: dict[str, dict[str, int]] = {}
    for start in (s.code for s in comp.spaces if s.kind != "cards"):
        seen = {start: 0}
        frontier = [start]
        while frontier:
            code = frontier.pop(0)
            for nxt in adjacent_locations(comp, code):
                if nxt not in seen:
                    seen[nxt] = seen[code] + 1
                    frontier.append(nxt)
        result[start] = seen
    return result


def planner_estimate(comp: Components, state: State, seat: int) -> float:
    """Money, stars, the best open glory categories by progress, resources, and what the mech's spot offers."""
    player = state["players"][seat]
    value = float(q.score(comp, player)) + STAR_BONUS * player["stars"]
    goals = sorted(((goal_progress(comp, state, seat, g.key), q.goal_met(comp, player, g.key)) for g in comp.glory
                    if seat not in state["glory"][g.key]), reverse=True)
    progress = [share for share, _ in goals]
    open_goals = [GOAL_WEIGHT * share ** 2 + (MET_BONUS if met else 0.0) for share, met in goals]
    wanted = max(0, comp.rules.stars_per_player - player["stars"])
    value += sum(open_goals[:wanted]) + 0.3 * sum(open_goals[wanted:])  # the others, should the best stall
    turns = state["turns_taken"] / len(state["players"])
    if turns > URGENCY_FROM:  # a long game (solo above all, where only the player ends it) turns to its stars
        value += URGENCY * (turns - URGENCY_FROM) * (player["stars"] + sum(progress[:wanted]))
    value += 0.3 * (min(player["power"], 7) + min(player["guile"], 7)) + 0.4 * player["map_tokens"]
    value += 0.1 * (max(0, player["power"] - 7) + max(0, player["guile"] - 7))  # the 20 token's progress counts more
    value += 0.6 * sum(player["workers"].values()) + 0.3 * q.workers_owned(player)
    value += 0.5 * len(player["hand"]) + 0.1 * len(player["active"])
    if player["token"] == "refresh":
        value += 1.0  # three actions next turn
    value += 0.7 * spot_value(comp, state, seat, player["at"], lures=False)
    value += FUTURE_STARS * wanted * q.star_value(comp, player) + held_quests_value(comp, state, seat)
    return value


def reward_worth(reward: tuple[Any, ...] | list[Any], can_boast: bool) -> float:
    """Dollars a quest's reward brings: coins at face value, power, guile and map tokens at half, a boast at $6
    while the seat meets a category (solving may meet "4 quests" too, but that is counted by the category) and any
    other benefit (a meld, card, worker...) at $3."""
    worth = 0.0
    for effect in reward:
        if effect["do"] == "gain":
            worth += effect["n"] * (1.0 if effect["what"] == "coins" else 0.5)
        elif effect["do"] == "boast":
            worth += 6.0 if can_boast else 0.5
        else:
            worth += 3.0
    return worth


def quest_nearness(comp: Components, state: State, seat: int, number: int) -> float:
    """How soon the mech could stand on a quest's location: 1 there, less with each step, a guess while the
    location is face down."""
    at = state["players"][seat]["at"]
    code = next((c for c, space in state["spaces"].items() if space["revealed"] and space["tile"] == number), None)
    if code is None:
        return 0.3
    if at == BASECAMP:
        return 0.5
    return 1.0 / (1 + 0.5 * hex_distances(comp)[at].get(code, 9))


def held_quests_value(comp: Components, state: State, seat: int) -> float:
    """What the quests a seat controls promise: their rewards and the dearer stars solving them brings, counted in
    part (more the nearer the mech stands to the location and the more of the cost it holds), for as many as the
    seat may still solve. Always less than solving brings, so a plan never keeps a quest it could solve."""
    player = state["players"][seat]
    solved = len(player["quests"])
    room = q.limit(comp, player) - solved
    if room <= 0:
        return 0.0
    values = comp.rules.star_values
    stars = player["stars"] + FUTURE_STARS * max(0, comp.rules.stars_per_player - player["stars"])
    worths = []
    can_boast = bool(q.boastable(comp, state, seat))
    for card_id in q.controlled(player):
        card = comp.cards[card_id]
        if card.quest is None:
            continue
        cost = q.quest_cost(comp, state, seat, card)
        need = sum(cost.values())
        have = sum(min(player.get("map_tokens" if k == "map_token" else k, 0), v) for k, v in cost.items())
        ready = 0.5 + 0.5 * (have / need if need else 1.0)
        nearness = quest_nearness(comp, state, seat, card.quest.location)
        worths.append((reward_worth(card.quest.reward, can_boast), ready * nearness))
    worths.sort(key=lambda w: -w[0] * w[1])
    total = 0.0
    for index, (reward, share) in enumerate(worths[:room]):
        rise = values[min(solved + index + 1, len(values) - 1)] - values[min(solved + index, len(values) - 1)]
        total += HELD_QUEST * share * (reward + rise * stars)
    return total


def card_worth(comp: Components, state: State, seat: int, card_id: str) -> float:
    """A quick guess at how useful a card would be to this seat (for choices made without looking ahead)."""
    player = state["players"][seat]
    card = comp.cards[card_id]
    room = q.limit(comp, player)
    if card.kind in ("character", "companion"):
        return 5.0  # the only Solve and Vanquish a player is sure of
    if card.kind == "item":
        return 2.0 + 0.4 * card.coins if len(player["upgrades"]) < room else 1.0
    if card.kind == "meteorite":
        return 2.5 if len(player["melds"]) < room else 1.0
    if card.kind == "quest" and card.quest is not None and len(player["quests"]) < room:
        return 3.0 if _quest_location_known(state, card.quest.location) else 2.0
    return 1.0


def quick_choice(game: ExpeditionsGame, state: State, seat: int) -> dict[str, Any]:
    """Answer a pending choice by rule of thumb (no look-ahead), as plans do while they are simulated."""
    comp = game.comp
    pending = state["turn"]["pending"]
    options = [o["id"] for o in pending_options(comp, state, pending)]
    kind = pending["kind"]
    player = state["players"][seat]

    def pick(option: str) -> dict[str, Any]:
        return {"type": "choose", "option": option}

    real = [o for o in options if o not in ("skip", "stop", "done", "confirm")]
    if kind == "play_steps":
        for wanted in ("core", "activate"):
            if wanted in options:
                return pick(wanted)
        return pick("done")
    if kind == "sweep" or not real:
        return pick("confirm" if "confirm" in options else options[-1])
    if kind in ("vanquish", "solve", "boast", "or", "worker_colour", "location_benefit", "activate_adjacent"):
        if kind == "worker_colour":  # the colour of the cards in hand that lack a worker
            lacking = [comp.cards[c].colour for c in player["hand"]]
            return pick(max(real, key=lambda o: lacking.count(o.split(":")[1])))
        return pick(real[0] if kind != "vanquish" else "take")
    if kind == "card_destination":
        return pick("hand")
    ids = [o.split(":", 1)[1] for o in real]
    if kind == "take_card":
        slots = [int(i) for i in ids]
        return pick(f"slot:{max(slots, key=lambda s: card_worth(comp, state, seat, state['face_up'][s]))}")
    if kind in ("upgrade", "meld", "play"):
        best = max(ids, key=lambda c: (comp.cards[c].coins, c in player["hand"]))
        if kind == "play":
            best = max(ids, key=lambda c: card_worth(comp, state, seat, c))
        return pick(f"card:{best}")
    if kind in ("discard", "trash"):
        if kind == "trash" and not pending.get("mandatory"):
            return pick("skip")
        return pick(f"card:{min(ids, key=lambda c: card_worth(comp, state, seat, c))}")
    if kind == "rescue":
        workered = [s["card"] for s in player["active"] if s["worker"]]
        return pick(f"card:{workered[0] if workered else ids[0]}")
    return pick(real[0])


def spot_value(comp: Components, state: State, seat: int, code: str, lures: bool = True) -> float:
    """What gathering (or questing, or vanquishing) at a space would bring this seat next, by rule of thumb. A
    boast the seat could make, held quests and the 20 token count only with `lures` (to pick the moves worth
    planning): the estimate counts them in the met categories, `held_quests_value` and the 20 token's progress,
    which all stay below what boasting, solving or vanquishing brings, so a plan never keeps them for later."""
    if code == BASECAMP:
        return 0.0
    space = state["spaces"][code]
    if not space["revealed"]:
        return 2.5  # a map token, corruption to vanquish and a new place to gather
    player = state["players"][seat]
    controlled = [comp.cards[c] for c in q.controlled(player)]
    room = q.limit(comp, player)
    starred = {key for key, seats in state["glory"].items() if seat in seats}
    value = 0.0
    for benefit in q.exposed_benefits(comp, state, code):
        kind = benefit["do"]
        if not q.benefit_takes(comp, state, seat, benefit):
            continue  # a gain at a full track, or a worker none are left of, brings nothing
        if kind == "boast":
            value += 6.0 if lures and q.boastable(comp, state, seat) else 0.3
        elif kind == "upgrade":
            ready = any(c.kind == "item" for c in controlled) and len(player["upgrades"]) < room
            value += 2.5 if ready and "upgrades" not in starred else 0.3
        elif kind == "meld":
            ready = any(c.kind == "meteorite" for c in controlled) and len(player["melds"]) < room
            value += 2.5 if ready and "melds" not in starred else 0.3
        elif kind == "card":
            value += 1.5 if "cards" not in starred else 1.0
        elif kind == "gain":
            value += 0.3 * q.gain_taken(comp, state, seat, benefit["what"], benefit["n"])
        else:
            value += 0.6
    here = space["tile"]
    if lures and len(player["quests"]) < room and any(c.quest and c.quest.location == here for c in controlled):
        value += 4.0
    stack = space["corruption"]
    if stack and stack[-1]["id"] != q.TOKEN20 and player[stack[-1]["colour"]] >= stack[-1]["value"]:
        value += 1.5
    if lures and stack and stack[-1]["id"] == q.TOKEN20 and player["power"] >= 9 and player["guile"] >= 9:
        value += 6.0
    return value


def top_level_actions(game: ExpeditionsGame, state: State, seat: int) -> list[dict[str, Any]]:
    """The actions a turn's search starts from: every legal one but Odin's, with only the most promising moves."""
    legal = [a for a in game.legal_actions(state, seat) if a["type"] != "odin"]
    moves = [a for a in legal if a["type"] == "move"]
    if len(moves) > MOVE_CANDIDATES:
        comp = game.comp
        moves.sort(key=lambda a: -spot_value(comp, state, seat, a["space"]) if a["space"] != "stay" else 0)
        moves = moves[:MOVE_CANDIDATES]
    return [a for a in legal if a["type"] != "move"] + moves


def search_turn(game: ExpeditionsGame, state: State, seat: int, turn: int, depth: int = 0,
                noise: random.Random | None = None) -> tuple[float, dict[str, Any] | None]:
    """The best value reachable by the end of this turn (number `turn`), and the first action towards it."""
    if state["over"] or state["turns_taken"] != turn or depth > 40:
        return planner_estimate(game.comp, state, seat), None
    if state["turn"]["pending"]:
        action = quick_choice(game, state, seat)
        value, _ = search_turn(game, game.apply(state, seat, action, Rng(0, 0)).state, seat, turn, depth + 1)
        return value, action
    best_value, best_action = float("-inf"), None
    for action in top_level_actions(game, state, seat):
        value, _ = search_turn(game, game.apply(state, seat, action, Rng(0, 0)).state, seat, turn, depth + 1)
        if noise is not None and depth == 0:
            value += noise.random() * NOISE  # near-equal plans in varying order, so a player never loops
        if value > best_value:
            best_value, best_action = value, action
    return best_value, best_action


def seat_view(comp: Components, state: State, rnd: random.Random) -> State:
    """The position as any seat can know it: the deck order and the numbers under the face-down tiles (of each
    region) are drawn afresh at random, so plans that draw a card or reveal a tile never peek at the real ones."""
    guess = json.loads(json.dumps(state))
    guess["deck"] = sorted(guess["deck"])  # what is known is the set, never the order
    rnd.shuffle(guess["deck"])
    hidden: dict[str, list[str]] = {}
    for code, space in guess["spaces"].items():
        if not space["revealed"]:
            hidden.setdefault(comp.locations[space["tile"]].region, []).append(code)
    for codes in hidden.values():
        tiles = sorted(guess["spaces"][code]["tile"] for code in codes)
        rnd.shuffle(tiles)
        for code, tile in zip(codes, tiles, strict=True):
            guess["spaces"][code]["tile"] = tile
    return guess


def planned_action(game: ExpeditionsGame, state: State, seat: int, rnd: random.Random) -> dict[str, Any]:
    """A turn planner: tries every order of the turn's actions (the most promising moves only), answering the
    choices on the way by rule of thumb, and takes the first step of the plan that ends the turn best placed.
    Choices among several cards, benefits or categories are weighed one step ahead."""
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    state = seat_view(game.comp, state, rnd)
    pending = state["turn"]["pending"]
    if pending:
        if pending["kind"] in ("or", "take_card", "worker_colour", "location_benefit", "activate_adjacent", "boast",
                               "upgrade", "meld", "play"):
            comp = game.comp
            choices = [a for a in legal if a["type"] == "choose"]
            return max(choices, key=lambda a: planner_estimate(
                comp, game.apply(state, seat, a, Rng(0, 0)).state, seat) + rnd.random() * 0.01)
        return quick_choice(game, state, seat)
    _, action = search_turn(game, state, seat, state["turns_taken"], noise=rnd)
    return action if action is not None else legal[0]


def play_game(game: ExpeditionsGame, players: int, seed: int, policy: str = "random",
              max_steps: int = 4000) -> tuple[State, int]:
    """Play one whole game with the given policy; returns the final state and the number of actions applied."""
    rnd = random.Random(seed)
    state = game.setup("standard", [f"P{i + 1}" for i in range(players)], Rng(seed, 0), {})
    choose = {"greedy": greedy_action, "planner": planned_action}.get(policy, random_action)
    step = 0
    while not state["over"] and step < max_steps:
        seat = game.to_act(state)[0]
        step += 1
        state = game.apply(state, seat, choose(game, state, seat, rnd), Rng(seed, step)).state
    return state, step
