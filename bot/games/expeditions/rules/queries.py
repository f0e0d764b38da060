"""Read-only questions about a state: limits, ongoing modifiers, costs, glory goals, scores and the tie-break."""

from __future__ import annotations

from typing import Any

from bot.games.expeditions.rules.board import BASECAMP
from bot.games.expeditions.rules.data import Card, Components, Effect

State = dict[str, Any]
Player = dict[str, Any]
TOKEN20 = "token20"


def mech_ability(comp: Components, player: Player) -> str:
    return comp.mech(player["mech"]).ability


def limit(comp: Components, player: Player) -> int:
    """How many quests, upgrades or melds this player may have (Tatanka: 5)."""
    return comp.rules.tatanka_limit if mech_ability(comp, player) == "tatanka" else comp.rules.limit


def ongoing_sources(comp: Components, state: State, seat: int) -> list[Card]:
    """Cards whose ongoing ability works for this seat now: active with a worker, upgraded, or activated this turn."""
    player = state["players"][seat]
    ids: list[str] = [slot["card"] for slot in player["active"] if slot["worker"]]
    ids += player["upgrades"]
    turn = state.get("turn") or {}
    if turn.get("seat") == seat:
        ids += turn.get("temp_ongoing", [])
    seen: list[str] = []
    for card_id in ids:
        if card_id not in seen:
            seen.append(card_id)
    return [comp.cards[c] for c in seen if comp.cards[c].ongoing is not None]


def modifier(comp: Components, state: State, seat: int, kind: str) -> int:
    return sum(card.ongoing["n"] for card in ongoing_sources(comp, state, seat) if card.ongoing
               and card.ongoing["kind"] == kind)


def move_reach(comp: Components, state: State, seat: int) -> int:
    player = state["players"][seat]
    base = comp.rules.marsh_strider_range if mech_ability(comp, player) == "marsh_strider" else comp.rules.move_range
    return base + modifier(comp, state, seat, "move_range")


def controlled(player: Player) -> list[str]:
    """Cards the player controls: hand, then active row."""
    return list(player["hand"]) + [slot["card"] for slot in player["active"]]


def workers_owned(player: Player) -> int:
    return sum(player["workers"].values()) + sum(1 for slot in player["active"] if slot["worker"])


def corruption_count(player: Player) -> int:
    """Corruption tokens held, not counting the 20 token."""
    return sum(1 for token in player["corruption"] if token["id"] != TOKEN20)


def has_token20(player: Player) -> bool:
    return any(token["id"] == TOKEN20 for token in player["corruption"])


def measure(player: Player, what: str) -> int:
    """How far a player is along one glory measure."""
    if what == "quests":
        return len(player["quests"])
    if what == "melds":
        return len(player["melds"])
    if what == "upgrades":
        return len(player["upgrades"])
    if what == "token20":
        return int(has_token20(player))
    if what == "corruption":
        return corruption_count(player)
    if what == "cards":
        return len(controlled(player))
    if what == "workers":
        return workers_owned(player)
    if what == "map_tokens":
        return int(player["map_tokens"])
    raise KeyError(what)


def goal_met(comp: Components, player: Player, key: str) -> bool:
    glory = next(g for g in comp.glory if g.key == key)
    if glory.measure == "workers_or_maps":
        return measure(player, "workers") >= glory.goal or measure(player, "map_tokens") >= glory.goal_maps
    return measure(player, glory.measure) >= glory.goal


def boastable(comp: Components, state: State, seat: int) -> list[str]:
    """Glory categories this seat may place a star on now."""
    player = state["players"][seat]
    if player["stars"] >= comp.rules.stars_per_player:
        return []
    return [g.key for g in comp.glory if seat not in state["glory"][g.key] and goal_met(comp, player, g.key)]


def star_value(comp: Components, player: Player) -> int:
    values = comp.rules.star_values
    return values[min(len(player["quests"]), len(values) - 1)]


def score_parts(comp: Components, player: Player) -> dict[str, int]:
    """Money by source: coins, upgraded items, corruption ($2 each, 20 token too), stars by the quest table."""
    return {
        "coins": int(player["coins"]),
        "upgrades": sum(comp.cards[c].coins for c in player["upgrades"]),
        "corruption": comp.rules.corruption_score * len(player["corruption"]),
        "stars": player["stars"] * star_value(comp, player),
    }


def score(comp: Components, player: Player) -> int:
    return sum(score_parts(comp, player).values())


def tiebreak(player: Player) -> int:
    """The sum of every glory measure (RULINGS): quests, melds, upgrades, 20 token, other corruption, cards,
    workers and map tokens."""
    return (len(player["quests"]) + len(player["melds"]) + len(player["upgrades"]) + int(has_token20(player))
            + corruption_count(player) + len(controlled(player)) + workers_owned(player) + int(player["map_tokens"]))


def conditions_met(comp: Components, player: Player, need: dict[str, int]) -> bool:
    have = {"stars": player["stars"], "melds": len(player["melds"]), "quests": len(player["quests"])}
    return all(have[key] >= value for key, value in need.items())


def can_pay(player: Player, cost: dict[str, int], exclude: str | None = None) -> bool:
    """Whether the player holds everything `cost` asks (discard from hand, trash from cards controlled)."""
    hand = [c for c in player["hand"] if c != exclude]
    return (player["power"] >= cost.get("power", 0) and player["guile"] >= cost.get("guile", 0)
            and player["coins"] >= cost.get("coins", 0) and player["map_tokens"] >= cost.get("map_token", 0)
            and len(hand) >= cost.get("discard", 0) and len(controlled(player)) >= cost.get("trash", 0))


def affordable(player: Player, effects: list[Effect] | tuple[Effect, ...]) -> bool:
    """Whether the leading cost of an effect list (if any) can be paid; for an "or", whether one branch can."""
    if not effects:
        return True
    first = effects[0]
    if first["do"] == "pay":
        return can_pay(player, first["cost"])
    if first["do"] == "or":
        return any(affordable(player, option) for option in first["options"])
    return True


def quest_cost(comp: Components, state: State, seat: int, card: Card) -> dict[str, int]:
    """A quest's cost after Feather-Cloak-style discounts (each resource in the cost, never below 0)."""
    assert card.quest is not None
    discount = modifier(comp, state, seat, "quest_discount")
    return {key: max(0, value - discount) for key, value in card.quest.cost.items() if value - discount > 0}


def location_at(state: State, seat: int) -> int | None:
    """The location tile number under the seat's mech (None at the basecamp)."""
    at = state["players"][seat]["at"]
    if at == BASECAMP:
        return None
    return state["spaces"][at]["tile"]


def gain_taken(comp: Components, state: State, seat: int, what: str, n: int) -> int:
    """How much of a gain of `n` the seat would receive: power and guile stop at the track's cap, map tokens at what
    the supply holds, coins never. The engine gains by it; the computer players value a benefit by it, so a gain
    the seat cannot take is worth nothing to them (a bot went to gather +2 power at 10 power)."""
    player = state["players"][seat]
    if what in ("power", "guile"):
        return max(0, min(n, comp.rules.track_cap - player[what]))
    if what == "coins":
        return n
    return max(0, min(n, state["supply"]["map_tokens"]))


def benefit_takes(comp: Components, state: State, seat: int, effect: Effect) -> bool:
    """Whether a benefit can bring the seat anything as things stand: not a gain at a full track or from an empty
    supply, nor a worker of a colour none are left of (either option of an "or" will do). Other benefits (cards,
    upgrades, a boast...) are judged where they are valued."""
    do = effect["do"]
    if do == "gain":
        return gain_taken(comp, state, seat, effect["what"], effect["n"]) > 0
    if do == "worker" and effect["colour"] != "any":
        return state["supply"]["workers"][effect["colour"]] > 0
    if do == "or":
        return any(benefit_takes(comp, state, seat, part) for option in effect["options"] for part in option)
    return True


def exposed_benefits(comp: Components, state: State, code: str) -> list[Effect]:
    """The benefits a Gather at this space gives: the left ones, plus the right one once the corruption is gone."""
    space = state["spaces"][code]
    if not space["revealed"]:
        return []
    location = comp.locations[space["tile"]]
    benefits = list(location.gather)
    if not space["corruption"]:
        benefits += list(location.cleared)
    return benefits
