"""The legal answers to a parked decision (`pending_options`), one lister per decision kind, and what taking the
top corruption token costs (which the vanquish options and the engine both need)."""

from __future__ import annotations

from typing import Any

from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.board import BASECAMP, adjacent_card_slots, adjacent_locations
from bot.games.expeditions.rules.data import Components
from bot.games.expeditions.rules.text import capitalised, colour_word, cost_text, effects_text, location_label
from bot.i18n import translate, translate_plural


def vanquish_cost(comp: Components, state: dict[str, Any], seat: int, token: dict[str, Any],
                  discounted: list[str]) -> dict[str, int]:
    """What the top token costs: its value in its colour, less ongoing discounts and Lumberjack's first-of-colour
    discount; the 20 token costs 10 power and 10 guile (Lumberjack: 9 and 9), untouched by other discounts."""
    lumberjack = q.mech_ability(comp, state["players"][seat]) == "lumberjack"
    if token["id"] == q.TOKEN20:
        _, power, guile = comp.token20
        return {"power": power - lumberjack, "guile": guile - lumberjack}
    value = token["value"] - q.modifier(comp, state, seat, "vanquish_discount")
    if lumberjack and token["colour"] not in discounted:
        value -= 1
    return {token["colour"]: max(0, value)}


def pending_options(comp: Components, state: dict[str, Any], pending: dict[str, Any], language: str = "en"
                    ) -> list[dict[str, str]]:
    """The legal answers to a parked decision, each {"id", "label"}, computed from the state as it is now; the
    labels in `language` (the ids are the same in every language)."""
    answers = _Answers(comp, state, pending, language)
    lister = _OPTION_LISTERS.get(pending["kind"])
    if lister is not None:
        lister(answers)
    return answers.options


class _Answers:
    """The options listed so far for one parked decision, with what every kind's lister reads."""

    def __init__(self, comp: Components, state: dict[str, Any], pending: dict[str, Any], language: str) -> None:
        self.comp = comp
        self.state = state
        self.pending = pending
        self.language = language
        self.seat: int = state["turn"]["seat"]
        self.me: dict[str, Any] = state["players"][self.seat]
        self.options: list[dict[str, str]] = []

    def add(self, option_id: str, label: str) -> None:
        """One option; the label cut to what a Discord menu shows."""
        self.options.append({"id": option_id, "label": label[:78]})

    def skip(self) -> None:
        self.add("skip", translate("expeditions.option.skip", self.language))

    def name(self, card_id: str) -> str:
        return self.comp.cards[card_id].names[self.language]


def _play_steps_options(a: _Answers) -> None:
    """The core (if not yet gained), the ability (if a worker of its colour can go on it), and done."""
    comp, me, pending, language = a.comp, a.me, a.pending, a.language
    card = comp.cards[pending["card"]]
    if not pending["core"] and card.core:
        a.add("core", translate("expeditions.option.core", language, effects=effects_text(card.core, language)))
    slot = next((s for s in me["active"] if s["card"] == card.id), None)
    if (not pending["ability"] and slot is not None and slot["worker"] is None
            and me["workers"].get(card.colour, 0) > 0 and q.conditions_met(comp, me, card.requires)
            and q.affordable(me, card.ability)):
        a.add("activate", capitalised(translate("expeditions.option.activate", language,
                                                colour=colour_word(card.colour, language),
                                                effects=effects_text(card.ability, language))))
    a.add("done", translate("expeditions.option.done", language))


def _or_options(a: _Answers) -> None:
    for index, option in enumerate(a.pending["options"]):
        if q.affordable(a.me, option):
            a.add(f"or:{index}", effects_text(option, a.language))


def _worker_colour_options(a: _Answers) -> None:
    for colour, left in a.state["supply"]["workers"].items():
        if left > 0:
            a.add(f"colour:{colour}", capitalised(translate("expeditions.option.worker_colour", a.language,
                                                            colour=colour_word(colour, a.language), left=left)))


def _card_slot_options(a: _Answers) -> None:
    """Taking a card (from the adjacent slots, or any face-up slot) or activating an adjacent card's ability."""
    comp, state, me, kind, language = a.comp, a.state, a.me, a.pending["kind"], a.language
    wide = kind == "take_card" and a.pending.get("source") == "face_up"
    slots = range(len(state["face_up"])) if wide else adjacent_card_slots(comp, me["at"])
    for slot in slots:
        card_id = state["face_up"][slot]
        if card_id is None:
            continue
        card = comp.cards[card_id]
        if kind == "activate_adjacent":
            if q.conditions_met(comp, me, card.requires) and q.affordable(me, card.ability):
                a.add(f"slot:{slot}", f"{a.name(card_id)}: {effects_text(card.ability, language)}")
        else:
            a.add(f"slot:{slot}", translate("expeditions.option.take", language, card=a.name(card_id)))
    a.skip()


def _card_destination_options(a: _Answers) -> None:
    a.add("active", translate("expeditions.option.keep_active", a.language))
    a.add("hand", translate("expeditions.option.to_hand", a.language))


def _sweep_options(a: _Answers) -> None:
    """A toggle per face-up card (sweep it or keep it), then the confirmation counting the cards to sweep."""
    language, selected = a.language, a.pending["selected"]
    for slot, card_id in enumerate(a.state["face_up"]):
        if card_id is not None:
            if slot in selected:
                a.add(f"toggle:{slot}", translate("expeditions.option.keep", language, card=a.name(card_id)))
            else:
                a.add(f"toggle:{slot}", translate("expeditions.option.sweep", language, card=a.name(card_id)))
    count = len(selected)
    a.add("confirm", translate_plural("expeditions.option.sweep_count", count, language) if count
          else translate("expeditions.option.sweep_nothing", language))


def _rescue_options(a: _Answers) -> None:
    for slot in a.me["active"]:
        a.add(f"card:{slot['card']}", translate("expeditions.option.rescue", a.language, card=a.name(slot["card"])))
    a.skip()


def _discard_options(a: _Answers) -> None:
    for card_id in a.me["hand"]:
        a.add(f"card:{card_id}", translate("expeditions.option.discard", a.language, card=a.name(card_id)))
    if not a.pending["mandatory"]:
        a.skip()


def _trash_options(a: _Answers) -> None:
    for card_id in q.controlled(a.me):
        a.add(f"card:{card_id}", translate("expeditions.option.trash", a.language, card=a.name(card_id)))
    if not a.pending["mandatory"]:
        a.skip()


def _play_options(a: _Answers) -> None:
    for card_id in a.me["hand"]:
        a.add(f"card:{card_id}", translate("expeditions.option.play", a.language, card=a.name(card_id)))
    a.skip()


def _location_benefit_options(a: _Answers) -> None:
    """Each exposed benefit of the adjacent locations, except another borrowing (no borrowing in a loop)."""
    comp, state, language = a.comp, a.state, a.language
    at = a.me["at"]
    for code in adjacent_locations(comp, at) if at != BASECAMP else []:
        number = state["spaces"][code]["tile"]
        for index, effect in enumerate(q.exposed_benefits(comp, state, code)):
            if effect["do"] != "location_benefit":
                label = location_label(comp.locations[number], language)
                a.add(f"loc:{number}:{index}", f"{label}: {effects_text([effect], language)}")
    a.skip()


def _solve_options(a: _Answers) -> None:
    """The quests here the player controls and can pay for, while under their quest limit."""
    comp, state, seat, me = a.comp, a.state, a.seat, a.me
    here = q.location_at(state, seat)
    if len(me["quests"]) < q.limit(comp, me):
        for card_id in q.controlled(me):
            card = comp.cards[card_id]
            if card.quest and card.quest.location == here:
                cost = q.quest_cost(comp, state, seat, card)
                if q.can_pay(me, cost):
                    a.add(f"card:{card_id}", translate("expeditions.option.solve", a.language, card=a.name(card_id),
                                                       cost=cost_text(cost, a.language)))
    a.skip()


def _vanquish_options(a: _Answers) -> None:
    """Taking the top corruption token here if affordable, then stop (or skip before the first one)."""
    me, language = a.me, a.language
    stack = a.state["spaces"][me["at"]]["corruption"] if me["at"] != BASECAMP else []
    if stack:
        cost = vanquish_cost(a.comp, a.state, a.seat, stack[-1], a.pending["discounted"])
        if q.can_pay(me, cost):
            a.add("take", translate("expeditions.option.vanquish", language, token=_token_name(stack[-1], language),
                                    cost=cost_text(cost, language)))
    a.add("stop", translate("expeditions.option.stop_vanquishing", language) if a.pending["taken"]
          else translate("expeditions.option.skip", language))


def _token_name(token: dict[str, Any], language: str) -> str:
    if token["id"] == q.TOKEN20:
        return translate("expeditions.corruption.token20", language)
    if token["colour"] == "power":
        return translate("expeditions.corruption.power", language, value=token["value"])
    return translate("expeditions.corruption.guile", language, value=token["value"])


def _upgrade_or_meld_options(a: _Answers) -> None:
    """The controlled items (upgrade) or meteorites (meld), while that zone is under the player's limit."""
    comp, me, kind, language = a.comp, a.me, a.pending["kind"], a.language
    wanted = "item" if kind == "upgrade" else "meteorite"
    zone = "upgrades" if kind == "upgrade" else "melds"
    if len(me[zone]) < q.limit(comp, me):
        for card_id in q.controlled(me):
            if comp.cards[card_id].kind == wanted:
                label = (translate("expeditions.option.upgrade", language, card=a.name(card_id))
                         if kind == "upgrade" else translate("expeditions.option.meld", language,
                                                             card=a.name(card_id)))
                a.add(f"card:{card_id}", label)
    a.skip()


def _boast_options(a: _Answers) -> None:
    titles = {g.key: g.titles[a.language] for g in a.comp.glory}
    for key in q.boastable(a.comp, a.state, a.seat):
        a.add(f"glory:{key}", translate("expeditions.option.star_on", a.language, title=titles[key]))
    a.skip()


# Each decision kind's lister of options (a kind not listed has none).
_OPTION_LISTERS = {
    "play_steps": _play_steps_options, "or": _or_options, "worker_colour": _worker_colour_options,
    "take_card": _card_slot_options, "activate_adjacent": _card_slot_options,
    "card_destination": _card_destination_options, "sweep": _sweep_options, "rescue": _rescue_options,
    "discard": _discard_options, "trash": _trash_options, "play": _play_options,
    "location_benefit": _location_benefit_options, "solve": _solve_options, "vanquish": _vanquish_options,
    "upgrade": _upgrade_or_meld_options, "meld": _upgrade_or_meld_options, "boast": _boast_options,
}
