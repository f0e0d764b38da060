"""Computer hunters for Monster Expedition: what a seat may know, dealing the rest, quick playouts and reasons.

Hidden from a seat: the order of the draw and reserve decks and the faces of the other hunters' cages (which come
from those decks); its own cages, every camp, monster and the display are public to it. Dice are chance: the
search rolls them afresh in every playout.
"""

from __future__ import annotations

import copy
import random
from typing import cast

from bot.core.bots import Budget, Decision, GameBot
from bot.core.protocol import JSON, Game
from bot.games.monster_expedition.rules import planner, strategies
from bot.games.monster_expedition.rules.catalog import catalog, region_name
from bot.games.monster_expedition.rules.effects import camp_level_sum, total_points
from bot.games.monster_expedition.rules.text import WordedText
from bot.games.monster_expedition.rules.view_types import MonsterView
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, deferred, said, translate, translate_plural

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
        seen = cast(MonsterView, game.view(state, seat))  # (this hunter plays Monster Expedition only)
        action = strategies.choose(seen, "greedy", rng)
        return Decision.worded(action, _reason(seen, action))

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


def _reason(view: MonsterView, action: JSON) -> WordedText:
    """Why the greedy hunter makes this move, in one sentence in every language (English where a plain string is
    read)."""
    words = tuple((language, _reason_in(view, action, language)) for language in LANGUAGES)
    return WordedText(dict(words)[DEFAULT_LANGUAGE], words)


def _reason_in(view: MonsterView, action: JSON, lang: str) -> str:
    kind = action["type"]
    tray = view["tray"]
    if kind == "camp":
        return translate("monster.reason.camp", lang, region=region_name(action["region"], lang))
    if kind == "bank":
        count = sum(1 for d in tray["rolled"] if d["value"] == action["value"])
        value = action["value"]
        message = deferred("monster.reason.bank_one") if count == 1 else deferred("monster.reason.bank_many")
        return translate(message, lang, value=value, count=count, total=count * value)
    if kind in ("roll", "stop"):
        left = len(tray["rolled"])
        used = len(set(tray["banked_numbers"]))
        exact = strategies.misthrow_chance(tray["rolled"], tray["banked_numbers"]) if left else 1.0
        risk = round(100 * exact)
        small = risk == 0 and exact > 0  # (1/6)^3 is under 1%, not "about 0%"
        chance = (translate("monster.reason.under_one_percent", lang) if small
                  else translate("monster.reason.about_percent", lang, percent=risk))
        held = translate("monster.reason.held", lang, dice=translate_plural("monster.count.dice_with", left, lang),
                         numbers=translate_plural("monster.count.number", used, lang))
        if kind == "roll" and exact == 0:
            return translate("monster.reason.roll_safe", lang, held=held)
        if kind == "roll":
            chance = chance if small else translate("monster.reason.only", lang, chance=chance)
            return translate("monster.reason.roll", lang, held=held, chance=chance)
        return translate("monster.reason.stop", lang, held=held, chance=chance, banked=tray["banked_total"])
    if kind == "capture":
        card = next(c for c in view["display"] if c["id"] == action["card"])
        name = (card.get("names") or {}).get(lang, card["name"])
        return translate("monster.reason.capture", lang, name=name, points=card["vp"], level=card["level"])
    if kind == "trader":
        return translate("monster.reason.trader", lang)
    if kind == "cage":
        return translate("monster.reason.cage", lang)
    if kind == "done":
        return translate("monster.reason.done", lang)
    if kind == "steal":
        return translate("monster.reason.steal", lang, name=said(view["players"][action["seat"]]["name"]))
    if kind == "improve":
        return translate("monster.reason.improve", lang, region=region_name(action["region"], lang))
    return translate("monster.reason.decline", lang)


BOT = MonsterExpeditionBot()
