"""Effects, costs, cards and locations in words, for option labels, views and the rules summary."""

from __future__ import annotations

from typing import Any

from bot.games.expeditions.data import Card, Components, Effect

WHAT = {"power": "power", "guile": "guile", "coins": "$", "map_token": "map token"}
PER = {"star": "star", "meld": "meld", "quest": "solved quest", "upgrade": "upgrade", "corruption": "corruption"}
SIMPLE = {
    "sweep": "sweep face-up cards",
    "refresh": "refresh cards and workers",
    "location_benefit": "a benefit of an adjacent location",
    "solve": "solve a quest",
    "vanquish": "vanquish",
    "upgrade": "upgrade an item",
    "meld": "meld a meteorite",
    "boast": "boast",
    "purge": "return the top corruption here to the bag",
    "rescue": "rescue a card",
    "discard": "discard a card",
    "trash": "trash a card",
    "play": "play a card",
}


def amount(what: str, n: int) -> str:
    if what == "coins":
        return f"${n}"
    if what == "map_token":
        return f"{n} map token{'s' if n != 1 else ''}"
    return f"{n} {WHAT[what]}"


def cost_text(cost: dict[str, Any]) -> str:
    parts = []
    for key in ("power", "guile", "coins", "map_token"):
        if cost.get(key):
            parts.append(amount(key, cost[key]))
    if cost.get("discard"):
        parts.append(f"discard {cost['discard']}")
    if cost.get("trash"):
        parts.append(f"trash {cost['trash']}")
    return " + ".join(parts) if parts else "nothing"


def effect_text(effect: Effect) -> str:
    do = effect["do"]
    if do == "gain":
        text = "+" + amount(effect["what"], effect["n"])
        if "per" in effect:
            text += f" per {PER[effect['per']]}"
        return text
    if do == "worker":
        return "+worker (any colour)" if effect["colour"] == "any" else f"+{effect['colour']} worker"
    if do == "card":
        return "gain a face-up card" if effect["from"] == "face_up" else "gain an adjacent face-up card"
    if do == "activate":
        return "activate the previous card" if effect["target"] == "previous" else "activate an adjacent card"
    if do == "pay":
        return f"pay {cost_text(effect['cost'])}:"
    if do == "or":
        return " OR ".join(effects_text(option) for option in effect["options"])
    if do == "when":
        need = ", ".join(f"{v}+ {k}" for k, v in effect["need"].items())
        return f"if {need}: {effects_text(effect['then'])}"
    return SIMPLE[do]


def effects_text(effects: list[Effect] | tuple[Effect, ...]) -> str:
    text = ", ".join(effect_text(e) for e in effects)
    return text.replace(":,", ":")


def ongoing_text(ongoing: dict[str, Any] | None) -> str:
    if not ongoing:
        return ""
    if ongoing["kind"] == "trigger":
        return f"whenever you {ongoing['on'].replace('_', ' ')}: {effects_text(ongoing['gain'])}"
    return {"move_range": "move range +{n}", "vanquish_discount": "corruption costs {n} less",
            "quest_discount": "quest costs -{n} each"}[ongoing["kind"]].format(n=ongoing["n"])


def card_summary(comp: Components, card: Card) -> dict[str, Any]:
    """A card as the view shows it: everything printed on it, in words."""
    summary: dict[str, Any] = {
        "id": card.id, "name": card.name, "kind": card.kind, "colour": card.colour,
        "core": effects_text(card.core), "ability": effects_text(card.ability),
    }
    if card.requires:
        summary["requires"] = ", ".join(f"{v}+ {k}" for k, v in card.requires.items())
    if card.kind == "item":
        summary["coins"] = card.coins
        summary["ongoing"] = ongoing_text(card.ongoing)
    if card.kind == "meteorite":
        summary["meld"] = effects_text(card.meld)
    if card.quest is not None:
        location = comp.locations[card.quest.location]
        summary["quest"] = {"location": location.number, "label": location.label, "cost": cost_text(card.quest.cost),
                            "reward": effects_text(card.quest.reward)}
    return summary


def card_line(comp: Components, card_id: str) -> str:
    """One line describing a card for /game mine and option labels."""
    card = comp.cards[card_id]
    parts = [f"{card.name} [{card.kind}, {card.colour}]", f"core {effects_text(card.core)}",
             f"ability {effects_text(card.ability)}"]
    if card.requires:
        parts.append("needs " + ", ".join(f"{v}+ {k}" for k, v in card.requires.items()))
    if card.ongoing:
        parts.append(f"ongoing {ongoing_text(card.ongoing)}")
    if card.kind == "item":
        parts.append(f"${card.coins} upgraded")
    if card.meld:
        parts.append(f"meld {effects_text(card.meld)}")
    if card.quest:
        loc = comp.locations[card.quest.location]
        parts.append(f"quest {loc.label}: pay {cost_text(card.quest.cost)} for {effects_text(card.quest.reward)}")
    return "; ".join(parts)


def no_choice_text(who: str, decision: str) -> str:
    """Nothing: a decision skipped because nothing could be chosen ("has no quest to solve here") is no event, so
    the story of a turn (a computer player's above all, told in the next board) leaves it out."""
    return ""


def skipped_text(who: str, decision: str) -> str:
    """Nothing: an optional decision declined changes nothing, so it is not told either."""
    return ""


def nothing_gained_text(who: str, what: str, cap: int) -> str:
    """A gain of nothing in words, with the reason (a full track or an empty supply) instead of "gains 0 power"."""
    if what in ("power", "guile"):
        return f"{who} is already at {cap} {what}: nothing gained."
    if what == "map_token":
        return f"{who} gains no map token: the supply is empty."
    return f"{who} gains nothing."
