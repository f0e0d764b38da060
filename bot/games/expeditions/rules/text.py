"""Effects, costs, cards and locations in words, for option labels, views and the rules summary, in the reader's
language: every word comes from the message catalogues (bot/i18n/locales), every name from data/expeditions."""

from __future__ import annotations

from typing import Any

from bot.games.expeditions.rules.data import Card, Components, Effect, Location
from bot.i18n import deferred, translate, translate_plural

WHAT = {"power": deferred("expeditions.resource.power"), "guile": deferred("expeditions.resource.guile"),
        "coins": deferred("expeditions.resource.coins"), "map_token": deferred("expeditions.resource.map_token")}
"""A resource's name, on its own ("power", "guile"; the legend and the Odin buttons)."""
PER = {"star": deferred("expeditions.per.star"), "meld": deferred("expeditions.per.meld"),
       "quest": deferred("expeditions.per.quest"), "upgrade": deferred("expeditions.per.upgrade"),
       "corruption": deferred("expeditions.per.corruption")}
SIMPLE = {
    "sweep": deferred("expeditions.effect.sweep"),
    "refresh": deferred("expeditions.effect.refresh"),
    "location_benefit": deferred("expeditions.effect.location_benefit"),
    "solve": deferred("expeditions.effect.solve"),
    "vanquish": deferred("expeditions.effect.vanquish"),
    "upgrade": deferred("expeditions.effect.upgrade"),
    "meld": deferred("expeditions.effect.meld"),
    "boast": deferred("expeditions.effect.boast"),
    "purge": deferred("expeditions.effect.purge"),
    "rescue": deferred("expeditions.effect.rescue"),
    "discard": deferred("expeditions.effect.discard"),
    "trash": deferred("expeditions.effect.trash"),
    "play": deferred("expeditions.effect.play"),
}
COLOURS = {"red": deferred("expeditions.colour.red"), "blue": deferred("expeditions.colour.blue"),
           "green": deferred("expeditions.colour.green"), "yellow": deferred("expeditions.colour.yellow")}
"""A worker's colour as the stem the messages inflect ("rot" -> "roter Arbeiter", "einen roten Arbeiter")."""
KINDS = {"item": deferred("expeditions.kind.item"), "meteorite": deferred("expeditions.kind.meteorite"),
         "quest": deferred("expeditions.kind.quest"), "character": deferred("expeditions.kind.character"),
         "companion": deferred("expeditions.kind.companion")}
NEEDS = {"stars": deferred("expeditions.need.stars"), "melds": deferred("expeditions.need.melds"),
         "quests": deferred("expeditions.need.quests")}
TRIGGERS = {"play": deferred("expeditions.ongoing.on_play"), "gather": deferred("expeditions.ongoing.on_gather"),
            "reveal": deferred("expeditions.ongoing.on_reveal"),
            "vanquish": deferred("expeditions.ongoing.on_vanquish"),
            "solve": deferred("expeditions.ongoing.on_solve"), "upgrade": deferred("expeditions.ongoing.on_upgrade"),
            "meld": deferred("expeditions.ongoing.on_meld"), "boast": deferred("expeditions.ongoing.on_boast"),
            "gain_card": deferred("expeditions.ongoing.on_gain_card")}
STATIC = {"move_range": deferred("expeditions.ongoing.move_range"),
          "vanquish_discount": deferred("expeditions.ongoing.vanquish_discount"),
          "quest_discount": deferred("expeditions.ongoing.quest_discount")}
REGIONS = {"south": deferred("expeditions.region.south"), "central": deferred("expeditions.region.central"),
           "north": deferred("expeditions.region.north")}
REGION_LETTERS = {"S": deferred("expeditions.region.letter_s"), "C": deferred("expeditions.region.letter_c"),
                  "N": deferred("expeditions.region.letter_n")}
SCORE_PARTS = {"coins": deferred("expeditions.score.coins"), "upgrades": deferred("expeditions.score.upgrades"),
               "corruption": deferred("expeditions.score.corruption"), "stars": deferred("expeditions.score.stars")}


def language_of_state(state: dict[str, Any]) -> str:
    """The table's language, chosen at /game new and kept in the state (what the log and the view are worded in)."""
    return str(state.get("language") or "en")


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def money(n: int, language: str = "en") -> str:
    """"$12" / "12 $"."""
    return translate("expeditions.money", language, n=n)


def amount(what: str, n: int, language: str = "en") -> str:
    if what == "coins":
        return money(n, language)
    if what == "map_token":
        return translate_plural("expeditions.amount.map_token", n, language)
    if what == "power":
        return translate("expeditions.amount.power", language, n=n)
    return translate("expeditions.amount.guile", language, n=n)


def resource(what: str, language: str = "en") -> str:
    return translate(WHAT[what], language)


def colour_word(colour: str, language: str = "en") -> str:
    return translate(COLOURS[colour], language) if colour in COLOURS else colour


def kind_word(kind: str, language: str = "en") -> str:
    return translate(KINDS[kind], language) if kind in KINDS else kind


def region_word(region: str, language: str = "en") -> str:
    """"south", "central", "north" (a space's kind) in words."""
    return translate(REGIONS[region], language)


def location_label(location: Location, language: str = "en") -> str:
    """"7 C" / "7 M": the number and the region's letter, as the tile shows them."""
    return f"{location.number} {translate(REGION_LETTERS[location.region], language)}"


def needs_text(need: dict[str, int], language: str = "en") -> str:
    return ", ".join(translate(NEEDS[k], language, n=v) for k, v in need.items())


def cost_text(cost: dict[str, Any], language: str = "en") -> str:
    parts = []
    for key in ("power", "guile", "coins", "map_token"):
        if cost.get(key):
            parts.append(amount(key, cost[key], language))
    if cost.get("discard"):
        parts.append(translate("expeditions.cost.discard", language, n=cost["discard"]))
    if cost.get("trash"):
        parts.append(translate("expeditions.cost.trash", language, n=cost["trash"]))
    return " + ".join(parts) if parts else translate("expeditions.word.nothing", language)


def effect_text(effect: Effect, language: str = "en") -> str:
    do = effect["do"]
    if do == "gain":
        gained = amount(effect["what"], effect["n"], language)
        if "per" in effect:
            return translate("expeditions.effect.gain_per", language, amount=gained,
                             per=translate(PER[effect["per"]], language))
        return "+" + gained
    if do == "worker":
        if effect["colour"] == "any":
            return translate("expeditions.effect.worker_any", language)
        return translate("expeditions.effect.worker", language, colour=colour_word(effect["colour"], language))
    if do == "card":
        if effect["from"] == "face_up":
            return translate("expeditions.effect.card_face_up", language)
        return translate("expeditions.effect.card_adjacent", language)
    if do == "activate":
        if effect["target"] == "previous":
            return translate("expeditions.effect.activate_previous", language)
        return translate("expeditions.effect.activate_adjacent", language)
    if do == "pay":
        return translate("expeditions.effect.pay", language, cost=cost_text(effect["cost"], language))
    if do == "or":
        texts = [effects_text(option, language) for option in effect["options"]]
        joined = texts[0]
        for text in texts[1:]:
            joined = translate("expeditions.effect.or", language, first=joined, second=text)
        return joined
    if do == "when":
        return translate("expeditions.effect.when", language, need=needs_text(effect["need"], language),
                         then=effects_text(effect["then"], language))
    return translate(SIMPLE[do], language)


def effects_text(effects: list[Effect] | tuple[Effect, ...], language: str = "en") -> str:
    text = ", ".join(effect_text(e, language) for e in effects)
    return text.replace(":,", ":")


def ongoing_text(ongoing: dict[str, Any] | None, language: str = "en") -> str:
    if not ongoing:
        return ""
    if ongoing["kind"] == "trigger":
        return translate(TRIGGERS[ongoing["on"]], language, gain=effects_text(ongoing["gain"], language))
    return translate(STATIC[ongoing["kind"]], language, n=ongoing["n"])


def card_summary(comp: Components, card: Card, language: str = "en") -> dict[str, Any]:
    """A card as the view shows it: everything printed on it, in words (`kind` and `colour` stay keys: the board
    colours the card by them and words them itself)."""
    summary: dict[str, Any] = {
        "id": card.id, "name": card.names[language], "kind": card.kind, "colour": card.colour,
        "core": effects_text(card.core, language), "ability": effects_text(card.ability, language),
    }
    if card.requires:
        summary["requires"] = needs_text(card.requires, language)
    if card.kind == "item":
        summary["coins"] = card.coins
        summary["ongoing"] = ongoing_text(card.ongoing, language)
    if card.kind == "meteorite":
        summary["meld"] = effects_text(card.meld, language)
    if card.quest is not None:
        location = comp.locations[card.quest.location]
        summary["quest"] = {"location": location.number, "label": location_label(location, language),
                            "cost": cost_text(card.quest.cost, language),
                            "reward": effects_text(card.quest.reward, language)}
    return summary


def card_line(comp: Components, card_id: str, language: str = "en") -> str:
    """One line describing a card for /game mine and option labels."""
    card = comp.cards[card_id]
    parts = [translate("expeditions.card.head", language, name=card.names[language],
                       kind=kind_word(card.kind, language), colour=colour_word(card.colour, language)),
             translate("expeditions.card.core", language, effects=effects_text(card.core, language)),
             translate("expeditions.card.ability", language, effects=effects_text(card.ability, language))]
    if card.requires:
        parts.append(translate("expeditions.card.needs", language, needs=needs_text(card.requires, language)))
    if card.ongoing:
        parts.append(translate("expeditions.card.ongoing", language, text=ongoing_text(card.ongoing, language)))
    if card.kind == "item":
        parts.append(translate("expeditions.card.upgraded", language, money=money(card.coins, language)))
    if card.meld:
        parts.append(translate("expeditions.card.meld", language, effects=effects_text(card.meld, language)))
    if card.quest:
        loc = comp.locations[card.quest.location]
        parts.append(translate("expeditions.card.quest", language, label=location_label(loc, language),
                               cost=cost_text(card.quest.cost, language),
                               reward=effects_text(card.quest.reward, language)))
    return "; ".join(parts)


def score_sources(parts: dict[str, int], language: str = "en") -> str:
    """"coins $20 + stars $10": the sources of a score that brought money, as the final board shows them."""
    return " + ".join(translate(SCORE_PARTS[source], language, money=money(value, language))
                      for source, value in parts.items() if value)


def and_list(items: list[str], language: str = "en") -> str:
    """"Ada and Bo" / "Ada und Bo": names joined by the language's "and"."""
    word = translate("expeditions.word.and", language)
    return f" {word} ".join(items)


def no_choice_text(who: str, decision: str) -> str:
    """Nothing: a decision skipped because nothing could be chosen ("has no quest to solve here") is no event, so
    the story of a turn (a computer player's above all, told in the next board) leaves it out."""
    return ""


def skipped_text(who: str, decision: str) -> str:
    """Nothing: an optional decision declined changes nothing, so it is not told either."""
    return ""


def nothing_gained_text(who: str, what: str, cap: int, language: str = "en") -> str:
    """A gain of nothing in words, with the reason (a full track or an empty supply) instead of "gains 0 power"."""
    if what in ("power", "guile"):
        return translate("expeditions.event.track_full", language, who=who,
                         amount=amount(what, cap, language))
    if what == "map_token":
        return translate("expeditions.event.no_map_token", language, who=who)
    return translate("expeditions.event.nothing_gained", language, who=who)
