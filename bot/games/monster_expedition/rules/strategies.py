"""Simple computer hunters that decide from their own view only: for balance simulations and future AI seats.

Styles: "greedy" pushes its luck and spends for points, "cautious" stops early, "random" picks any legal action.
In solo games both non-random styles also steer towards the expedition's victory condition.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from bot.core.protocol import JSON
from bot.games.monster_expedition.rules.catalog import IMPROVEMENT_NUMBER, catalog
from bot.games.monster_expedition.rules.view_types import MonsterView

STYLES = ("greedy", "cautious", "random")


def choose(view: MonsterView, style: str, chooser: random.Random) -> JSON:
    """One action for the viewer of `view` (a per-seat view, which lists the legal actions)."""
    actions: list[JSON] = view["you"]["legal_actions"]
    if style == "random" or len(actions) == 1:
        return chooser.choice(actions)
    phase = view["phase"]
    if phase == "solo_prepare":
        return _prepare(view, actions)
    if phase == "camp":
        return _camp(view, actions)
    if phase == "bank":
        return _bank(view, actions)
    if phase == "continue":
        return _continue(view, style)
    if phase == "steal":
        return max(actions, key=lambda a: view["players"][a["seat"]]["cages"])
    return _purchase(view, actions)


def _goal(view: MonsterView) -> str:
    solo = view.get("solo")
    if not solo:
        return "points"
    return {1: "clear", 2: "region", 3: "cages", 4: "camps", 5: "cages", 6: "clear", 7: "region", 8: "trader",
            9: "clear_trader", 10: "empty"}[solo["expedition"]]


def _me(view: MonsterView) -> JSON:
    return view["players"][view["you"]["seat"]]


def _prepare(view: MonsterView, actions: list[JSON]) -> JSON:
    me = _me(view)
    improvable = [a for a in actions if a["type"] == "improve"]
    if not improvable:
        return {"type": "decline"}
    if _goal(view) == "camps":  # push the two highest camps towards the top
        return max(improvable, key=lambda a: me["camps"][a["region"]]["level"])
    return min(improvable, key=lambda a: me["camps"][a["region"]]["level"])


def _target_region(view: MonsterView) -> str | None:
    solo = view.get("solo")
    if solo and solo["expedition"] in (2, 7):
        return "forest" if solo["expedition"] == 2 else "depths"
    return None


def _camp(view: MonsterView, actions: list[JSON]) -> JSON:
    me = _me(view)
    target = _target_region(view)
    if target is not None and any(c.get("region") == target for c in view["display"]):
        return {"type": "camp", "region": target}

    def worth(action: JSON) -> float:
        region = action["region"]
        camp = me["camps"][region]
        monsters = [c for c in view["display"] if c.get("region") in (region, "all")]
        appeal = sum(c["vp"] / max(c["level"], 1) for c in monsters)
        if _goal(view) in ("clear", "clear_trader", "empty"):
            appeal = 2.0 * len(monsters)
        return camp["black"] * 3.5 + appeal * 2

    return max(actions, key=worth)


def _bank(view: MonsterView, actions: list[JSON]) -> JSON:
    rolled = view["tray"]["rolled"]
    goal = _goal(view)
    solo = view.get("solo") or {}
    # the numbers whose camp can still rise: a 1 banked for an Aerie camp at its final level improves nothing
    rising = {IMPROVEMENT_NUMBER[region] for region, camp in _me(view)["camps"].items() if not camp["final"]}

    def worth(action: JSON) -> float:
        value = action["value"]
        count = sum(1 for d in rolled if d["value"] == value)
        score = value * count
        if goal == "camps" and value in rising:
            score += 8 * count
        if solo.get("crate_value") and value <= 3:
            score += solo["crate_value"] * count
        return score

    return max(actions, key=worth)


def _continue(view: MonsterView, style: str) -> JSON:
    tray = view["tray"]
    left = len(tray["rolled"])
    goal = _goal(view)
    needed = 35 if goal == "trader" else 0
    if needed and tray["banked_total"] < needed and left >= 1:
        return {"type": "roll"}
    crates_missing = {1, 2, 3} - set(tray["banked_numbers"])
    if (view.get("solo") or {}).get("crate_value") and 0 < len(crates_missing) < 3 and left >= len(crates_missing):
        return {"type": "roll"}
    # the chance that no die shows a new number grows with the numbers used; stop when it gets too high
    risk = misthrow_chance(tray["rolled"], tray["banked_numbers"])
    limit = 0.30 if style == "greedy" else 0.12
    return {"type": "roll"} if risk < limit and left >= 1 else {"type": "stop"}


def misthrow_chance(dice: Sequence[JSON], banked: Iterable[int]) -> float:
    """The chance that the next roll of `dice` shows only numbers banked already (a misthrow), each die by its own
    faces: the coloured dice are not numbered 1-6 (yellow shows 1 4 6 7 8 10)."""
    banked = set(banked)
    faces = catalog().dice
    chance = 1.0
    for die in dice:
        sides = faces[str(die["colour"])]
        chance *= sum(1 for side in sides if side in banked) / len(sides)
    return chance


def _captures(actions: Sequence[JSON]) -> list[JSON]:
    return [a for a in actions if a["type"] == "capture"]


def _card(view: MonsterView, card_id: str) -> JSON:
    return next(c for c in view["display"] if c["id"] == card_id)


def _purchase(view: MonsterView, actions: list[JSON]) -> JSON:
    goal = _goal(view)
    captures = _captures(actions)
    trader = next((a for a in actions if a["type"] == "trader"), None)
    cage = next((a for a in actions if a["type"] == "cage" and a["count"] == 1), None)
    me = _me(view)
    display = len(view["display"])
    if goal == "points":
        if captures:
            return max(captures, key=lambda a: (_card(view, a["card"])["vp"] / max(_card(view, a["card"])["level"], 1),
                                                _card(view, a["card"])["vp"]))
        if trader is not None:
            return trader
        return cage or {"type": "done"}
    if trader is not None and goal in ("trader", "clear_trader", "empty", "cages"):
        return trader
    if goal == "region":
        target = _target_region(view)
        mine = [a for a in captures if _card(view, a["card"]).get("region") == target]
        if mine:
            return min(mine, key=lambda a: _card(view, a["card"])["level"])
    if goal == "cages" and cage is not None and display < 11:
        return cage
    if goal == "clear" and me["cages"] == 0 and cage is not None:
        return cage
    if captures:  # every capture keeps the display away from 13
        return min(captures, key=lambda a: (a.get("crates", 0), _card(view, a["card"])["level"]))
    if cage is not None and goal in ("clear", "cages", "region"):
        return cage
    return {"type": "done"}
