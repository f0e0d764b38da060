"""Computer hunters for Monster Expedition: what a seat may know, dealing the rest, quick playouts and reasons.

Hidden from a seat: the order of the draw and reserve decks and the faces of the other hunters' cages (which come
from those decks); its own cages, every camp, monster and the display are public to it. Dice are chance: the
search rolls them afresh in every playout.
"""

from __future__ import annotations

import copy
import random

from bot.core.bots import Budget, Decision, GameBot
from bot.core.names import plural
from bot.core.protocol import JSON, Game
from bot.games.monster_expedition import planner, strategies
from bot.games.monster_expedition.catalog import REGION_NAMES, catalog
from bot.games.monster_expedition.effects import camp_level_sum, total_points

CAMP_WORTH = 1.0  # points a camp level is worth to a hunter before the end (more black dice, better bonuses)
STOP_RISK = 0.25  # playouts roll on while the chance that no die shows a new number stays below this


class MonsterExpeditionBot(GameBot):
    horizon = 24  # a few turns of playout, then the points are counted (a whole game is ~150 moves)
    score_scale = 6.0

    def observe(self, game: Game, state: JSON, seat: int) -> JSON:
        view = copy.deepcopy(state)
        view["last_events"], view["recent"] = [], []
        pool = list(view["deck"]) + list(view["reserve"])
        counts: dict[int, int] = {}
        for other, player in enumerate(view["players"]):
            if other != seat:
                pool += player["cages"]
                counts[other] = len(player["cages"])
                player["cages"] = []
        view["hidden"] = {"pool": sorted(pool), "deck": len(view["deck"]), "reserve": len(view["reserve"]),
                          "cages": {str(k): v for k, v in counts.items()}}
        view["deck"], view["reserve"] = [], []
        return view

    def determinize(self, game: Game, view: JSON, seat: int, rng: random.Random) -> JSON:
        state = copy.deepcopy(view)
        hidden = state.pop("hidden")
        pool = list(hidden["pool"])
        rng.shuffle(pool)
        for other, count in hidden["cages"].items():
            state["players"][int(other)]["cages"], pool = pool[:count], pool[count:]
        state["deck"], pool = pool[:hidden["deck"]], pool[hidden["deck"]:]
        state["reserve"] = pool
        return state

    def heuristic(self, game: Game, view: JSON, seat: int, rng: random.Random) -> Decision:
        state = self.determinize(game, view, seat, rng)
        seen = game.view(state, seat)
        action = strategies.choose(seen, "greedy", rng)
        return Decision(action, _reason(seen, action))

    def search(self, game: Game, view: JSON, seat: int, rng: random.Random, budget: Budget) -> Decision | None:
        """The expectimax planner over the dice (standard games); the solo campaign keeps the shared search."""
        if view["mode"] != "standard":
            return None
        legal = game.legal_actions(self.determinize(game, view, seat, rng), seat)
        found = planner.plan(view, seat, legal, budget.iterations, budget.seconds)
        if found is None:
            return None
        action, reason = found
        return Decision(action, reason[0].upper() + reason[1:])

    def evaluate(self, game: Game, state: JSON) -> dict[int, float]:
        if state["mode"] == "solo":
            return {0: 0.0}
        return {seat: total_points(player) + CAMP_WORTH * camp_level_sum(player)
                for seat, player in enumerate(state["players"])}

    def rollout_action(self, game: Game, state: JSON, seat: int, rng: random.Random) -> JSON:
        """The greedy hunter's habits read straight off the state (building a view per playout step is slow)."""
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        phase = state["phase"]
        turn = state["turn"]
        if phase == "bank":
            rolled = [int(d["value"]) for d in turn["rolled"]]
            return max(actions, key=lambda a: a["value"] * rolled.count(a["value"]) + rng.random())
        if phase == "continue":
            left = len(turn["rolled"])
            risk = strategies.misthrow_chance(turn["rolled"], turn["banked_numbers"])
            return {"type": "roll"} if left and risk < STOP_RISK else {"type": "stop"}
        if phase == "purchase":
            cat = catalog()
            captures = [a for a in actions if a["type"] == "capture" and not a.get("crates")]
            if captures:
                return max(captures, key=lambda a: cat.card(a["card"]).vp / max(cat.card(a["card"]).level, 1))
            for kind in ("trader", "cage"):
                found = [a for a in actions if a["type"] == kind]
                if found:
                    return found[0]
            return {"type": "done"}
        return rng.choice(actions)


def _reason(view: JSON, action: JSON) -> str:
    """Why the greedy hunter makes this move, in one sentence."""
    kind = action["type"]
    tray = view["tray"]
    if kind == "camp":
        return (f"Hunt from your {REGION_NAMES[action['region']]} camp: its black dice and the monsters of that "
                f"region in the display make it the most promising.")
    if kind == "bank":
        count = sum(1 for d in tray["rolled"] if d["value"] == action["value"])
        value = action["value"]
        dice = (f"the {value}: 1 die showing it adds" if count == 1
                else f"the {value}s: {count} dice showing {value} add")
        return f"Bank {dice} {count * value} to the hunt, the most of any number rolled."
    if kind in ("roll", "stop"):
        left = len(tray["rolled"])
        used = len(set(tray["banked_numbers"]))
        exact = strategies.misthrow_chance(tray["rolled"], tray["banked_numbers"]) if left else 1.0
        risk = round(100 * exact)
        small = risk == 0 and exact > 0  # (1/6)^3 is under 1%, not "about 0%"
        chance = "under 1%" if small else f"about {risk}%"
        held = f"with {plural(left, 'die', 'dice')} left and {plural(used, 'number')} banked"
        if kind == "roll" and exact == 0:
            return f"Roll again: {held}, a misthrow cannot happen (no die left has a face banked already)."
        if kind == "roll":
            return f"Roll again: {held}, the chance of a misthrow is {chance if small else 'only ' + chance}."
        return (f"Stop hunting: {held}, the chance of a misthrow is {chance}, too high to risk the "
                f"{tray['banked_total']} banked.")
    if kind == "capture":
        card = next(c for c in view["display"] if c["id"] == action["card"])
        return (f"Capture {card['name']}: at {card['vp']} VP for level {card['level']} it is the best value in "
                f"points for your hunting value.")
    if kind == "trader":
        return "Visit the Monster Trader: no monster is affordable, and the trader's cages are worth more than one."
    if kind == "cage":
        return "Buy a cage: nothing better is affordable, and every cage scores at the end."
    if kind == "done":
        return "Finish your turn: nothing you can afford is worth the hunting value."
    if kind == "steal":
        return (f"Steal from {view['players'][action['seat']]['name']}: they hold the most cages, so yours is "
                f"the likeliest good catch.")
    if kind == "improve":
        return f"Improve your {REGION_NAMES[action['region']]} camp before the expedition starts."
    return "Decline the preparation: no camp can be improved to any use."


BOT = MonsterExpeditionBot()
