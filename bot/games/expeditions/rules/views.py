"""What each viewer sees, and the game in words: views, turn text, event sentences and /game mine.

Expeditions has almost no secrets: hands, active rows and every token on the table are open. What stays hidden is
the deck order, the order of the corruption bag and the numbers of the face-down location tiles, so no view ever
carries those (the bag's contents by colour and value are public, being deducible from what has been drawn).
"""

from __future__ import annotations

from typing import Any

from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules import text
from bot.games.expeditions.rules.board import BASECAMP, destinations
from bot.games.expeditions.rules.data import Components
from bot.games.expeditions.rules.engine import pending_options
from bot.games.expeditions.rules.text import amount, card_line, card_summary, effects_text, money
from bot.games.expeditions.rules.view_types import ExpeditionsView
from bot.i18n import deferred, said, translate, translate_plural

PROMPTS = {
    "play_steps": deferred("expeditions.prompt.play_steps"),
    "or": deferred("expeditions.prompt.or"),
    "worker_colour": deferred("expeditions.prompt.worker_colour"),
    "take_card": deferred("expeditions.prompt.take_card"),
    "card_destination": deferred("expeditions.prompt.card_destination"),
    "sweep": deferred("expeditions.prompt.sweep"),
    "rescue": deferred("expeditions.prompt.rescue"),
    "discard": deferred("expeditions.prompt.discard"),
    "trash": deferred("expeditions.prompt.trash"),
    "play": deferred("expeditions.prompt.play"),
    "activate_adjacent": deferred("expeditions.prompt.activate_adjacent"),
    "location_benefit": deferred("expeditions.prompt.location_benefit"),
    "solve": deferred("expeditions.prompt.solve"),
    "vanquish": deferred("expeditions.prompt.vanquish"),
    "upgrade": deferred("expeditions.prompt.upgrade"),
    "meld": deferred("expeditions.prompt.meld"),
    "boast": deferred("expeditions.prompt.boast"),
}
"""What a pending decision asks, in the lower case that follows "Ada: " (the menu's placeholder capitalises it)."""
ACTION_WORDS = {"move": deferred("expeditions.action.move"), "play": deferred("expeditions.action.play"),
                "gather": deferred("expeditions.action.gather")}


def prompt(kind: str, language: str = "en") -> str:
    return translate(PROMPTS[kind], language)


def action_word(action: str, language: str = "en") -> str:
    """"Move", "Play", "Gather" (capitalised: the rulebook's names of the three actions)."""
    return translate(ACTION_WORDS[action], language)


ACTION_NAMES = {"move": deferred("expeditions.action.name.move"), "play": deferred("expeditions.action.name.play"),
                "gather": deferred("expeditions.action.name.gather")}


def action_name(action: str, language: str = "en") -> str:
    """An action as a word in a sentence ("other than move"; German capitalises its nouns)."""
    return translate(ACTION_NAMES[action], language)


def name(state: dict[str, Any], seat: int) -> str:
    """A player's name for a text (marked as a person's: bot/i18n/marks.py)."""
    return said(state["players"][seat]["name"])


def card_name(comp: Components, card_id: str | None, language: str = "en") -> str:
    return comp.cards[card_id].names[language] if card_id else translate("expeditions.word.nothing", language)


def location_label(comp: Components, number: int | None, language: str = "en") -> str:
    if number is None:
        return translate("expeditions.place.basecamp", language)
    location = comp.locations[number]
    return f"{text.location_label(location, language)} {location.names[language]}"


def pending_view(comp: Components, state: dict[str, Any], language: str = "en") -> dict[str, Any] | None:
    turn = state.get("turn")
    if state["over"] or not turn or not turn["pending"]:
        return None
    pending = turn["pending"]
    view = {"kind": pending["kind"], "seat": turn["seat"], "prompt": prompt(pending["kind"], language),
            "options": pending_options(comp, state, pending, language)}
    if pending["kind"] == "play_steps":
        view["card"] = pending["card"]
    if pending["kind"] == "sweep":
        view["selected"] = list(pending["selected"])
    return view


def turn_text(comp: Components, state: dict[str, Any], language: str = "en") -> str:
    if state["over"]:
        return translate("expeditions.turn.game_over", language)
    turn = state["turn"]
    who = name(state, turn["seat"])
    if turn["pending"]:
        return translate("expeditions.turn.decide", language, who=who, prompt=prompt(turn["pending"]["kind"],
                                                                                        language))
    if turn["phase"] == "start":
        if state["players"][turn["seat"]]["token"] == "all":  # right after an all-three turn: no refresh
            return translate("expeditions.turn.cover", language, who=who)
        return translate("expeditions.turn.cover_or_refresh", language, who=who)
    remaining = [action_word(a, language) for a in turn["remaining"]]
    if len(remaining) == 1:
        return translate("expeditions.turn.last_action", language, who=who, action=remaining[0])
    return translate("expeditions.turn.in_any_order", language, who=who,
                     actions=text.and_list(remaining, language))


def has_taken_a_turn(state: dict[str, Any], seat: int) -> bool:
    """Whether `seat` has finished a turn of this game (seats go round in order from a random first player; at the
    start every token lies as if just refreshed, so the token says nothing until the seat's first turn is over)."""
    count = len(state["players"])
    taken = int(state["turns_taken"])
    turn = state.get("turn")
    if state["over"] or taken >= count or not turn:
        return True
    first = (int(turn["seat"]) - taken) % count
    return (seat - first) % count < taken


def token_text(state: dict[str, Any], seat: int, language: str = "en") -> str:
    """The action token in words for the player panels, as it bears on the player's turn now or next: an action
    covered, "all 3 actions this turn", "refreshed: all 3 next turn", "covers one next turn"; nothing until the
    player's first turn is over (the first turn takes all three, which the turn line says)."""
    token = state["players"][seat]["token"]
    if token in ACTION_WORDS:
        return translate("expeditions.token.covered", language, action=action_word(token, language))
    if state["over"] or not has_taken_a_turn(state, seat):  # (no next turn at the end)
        return ""
    turn = state.get("turn") or {}
    current = not state["over"] and turn.get("seat") == seat
    if token == "refresh":
        return translate("expeditions.token.refreshed", language)
    if current and turn.get("phase") == "actions":
        return translate("expeditions.token.all_three", language)
    if current:
        return translate("expeditions.token.covers_one_now", language)
    return translate("expeditions.token.covers_one_next", language)


def reachable_spaces(comp: Components, state: dict[str, Any]) -> list[str]:
    """The spaces the player to move may move their mech to now (their Move is still to take and no choice is
    pending), in board order; empty otherwise. The public board outlines them."""
    turn = state.get("turn")
    if state["over"] or not turn or turn["pending"] or turn["phase"] != "actions" or "move" not in turn["remaining"]:
        return []
    seat = turn["seat"]
    return destinations(comp, state, seat, q.move_reach(comp, state, seat))


def player_view(comp: Components, state: dict[str, Any], seat: int, language: str = "en") -> dict[str, Any]:
    player = state["players"][seat]
    mech = comp.mech(player["mech"])
    at = player["at"]
    location = None if at == BASECAMP or not state["spaces"][at]["revealed"] else state["spaces"][at]["tile"]

    def summary(card_id: str) -> dict[str, Any]:
        return card_summary(comp, comp.cards[card_id], language)

    return {
        "seat": seat, "name": player["name"],
        "mech": {"key": mech.key, "name": mech.names[language], "text": mech.texts[language]},
        "character": player["character"], "companion": player["companion"],
        "at": at, "location": location, "action_token": player["token"],
        "token_text": token_text(state, seat, language),
        "power": player["power"], "guile": player["guile"], "coins": player["coins"],
        "map_tokens": player["map_tokens"], "workers": dict(player["workers"]),
        "workers_owned": q.workers_owned(player),
        "hand": [summary(c) for c in player["hand"]],
        "active": [{**summary(s["card"]), "worker": s["worker"]} for s in player["active"]],
        "upgrades": [summary(c) for c in player["upgrades"]],
        "melds": [summary(c) for c in player["melds"]],
        "quests": [summary(c) for c in player["quests"]],
        "corruption": [[t["colour"], t["value"]] for t in player["corruption"]],
        "corruption_count": q.corruption_count(player), "token20": q.has_token20(player),
        "stars": player["stars"], "stars_left": comp.rules.stars_per_player - player["stars"],
        "star_value": q.star_value(comp, player), "limit": q.limit(comp, player),
        "score": q.score(comp, player), "score_parts": q.score_parts(comp, player), "tiebreak": q.tiebreak(player),
        "goals_met": [g.key for g in comp.glory if q.goal_met(comp, player, g.key)],
    }


def map_view(comp: Components, state: dict[str, Any], language: str = "en") -> dict[str, Any]:
    mechs = {p["at"]: seat for seat, p in enumerate(state["players"]) if p["at"] != BASECAMP}
    slots = comp.card_spaces
    spaces = []
    for space in comp.spaces:
        entry: dict[str, Any] = {"code": space.code, "row": space.row, "col": space.col, "kind": space.kind}
        if space.kind == "cards":
            card_id = state["face_up"][slots.index(space.code)]
            entry["slot"] = slots.index(space.code)
            entry["card"] = card_summary(comp, comp.cards[card_id], language) if card_id else None
        else:
            tile = state["spaces"][space.code]
            entry.update({"revealed": tile["revealed"], "map_token": tile["map_token"],
                          "mech": mechs.get(space.code)})
            if tile["revealed"]:
                location = comp.locations[tile["tile"]]
                entry.update({
                    "location": location.number, "label": text.location_label(location, language),
                    "name": location.names[language],
                    "benefits": effects_text(location.gather, language),
                    "cleared": effects_text(location.cleared, language),
                    "cleared_exposed": bool(location.cleared) and not tile["corruption"],
                    "corruption": [[t["colour"], t["value"]] for t in tile["corruption"]],
                    "threshold": location.corruption,
                })
        spaces.append(entry)
    return {"spaces": spaces, "basecamp": {"links": list(comp.basecamp_links),
                                           "mechs": [s for s, p in enumerate(state["players"]) if p["at"] == BASECAMP]}}


def log_entry(entry: Any, language: str) -> str:
    """A log line or last move as kept in the state: worded in the table's language when it was written (an older
    state's plain English line as it is)."""
    if isinstance(entry, dict):
        return str(entry.get(language) or entry.get("en") or "")
    return str(entry)


def public_view(comp: Components, state: dict[str, Any]) -> ExpeditionsView:
    """The channel's view, worded in the table's language (the state's; `language` says which, so the board words
    its own labels alike)."""
    language = text.language_of_state(state)
    bag: dict[str, int] = {}
    for token in state["bag"]:
        key = f"{token['colour']}-{token['value']}"
        bag[key] = bag.get(key, 0) + 1
    turn = state["turn"]
    players = [player_view(comp, state, seat, language) for seat in range(len(state["players"]))]
    return {
        "game": "expeditions", "title": translate("expeditions.title", language), "mode": state["mode"],
        "language": language,
        "players": players, "map": map_view(comp, state, language),
        "face_up": [card_summary(comp, comp.cards[c], language) if c else None for c in state["face_up"]],
        "deck_count": len(state["deck"]),
        "discard": [card_summary(comp, comp.cards[c], language) for c in state["discard"]],
        "trash_count": len(state["trash"]), "bag": {"count": len(state["bag"]), "tokens": dict(sorted(bag.items()))},
        "supply": {"workers": dict(state["supply"]["workers"]), "map_tokens": state["supply"]["map_tokens"]},
        "glory": [{"key": g.key, "title": g.titles[language], "stars": list(state["glory"][g.key])}
                  for g in comp.glory],
        "turn": turn_text(comp, state, language), "last_move": log_entry(state["last_move"], language),
        "log": [log_entry(entry, language) for entry in state["log"]],
        "to_act": [] if state["over"] else [turn["seat"]],
        "current": None if state["over"] else {"seat": turn["seat"], "phase": turn["phase"],
                                               "remaining": list(turn["remaining"])},
        "pending": pending_view(comp, state, language),
        "reachable": reachable_spaces(comp, state),
        "scores": {str(p["seat"]): p["score"] for p in players},
        "end": {"triggered_by": state["end"]["triggered_by"],
                "final_turns_left": list(state["end"]["final_turns"] or [])},
        "over": state["over"], "turns_taken": state["turns_taken"], "viewer": None,
    }


def legal_destinations(comp: Components, state: dict[str, Any], seat: int, language: str = "en"
                       ) -> list[tuple[str, str]]:
    """(space code, label) for each space the seat's mech may move to now; ("stay", ...) when none."""
    found = destinations(comp, state, seat, q.move_reach(comp, state, seat))
    labels = []
    for code in found:
        tile = state["spaces"][code]
        if tile["revealed"]:
            labels.append((code, f"{code}: {location_label(comp, tile['tile'], language)}"))
        else:
            region = text.capitalised(text.region_word(comp.space(code).kind, language))
            labels.append((code, translate("expeditions.destination.face_down", language, code=code,
                                           region=region)))
    return labels or [("stay", translate("expeditions.destination.stay", language))]


def destination_choice(comp: Components, state: dict[str, Any], code: str, language: str = "en"
                       ) -> tuple[str, str]:
    """A destination as a menu option shows it: the place's name (as the board writes it on its tile), and below
    it its number and region, or for a face-down tile its space (the board writes it there) and what entering
    does."""
    if code == "stay":
        return (translate("expeditions.destination.stay_put", language),
                translate("expeditions.destination.stay_put_why", language))
    tile = state["spaces"][code]
    region = text.region_word(comp.space(code).kind, language)
    if tile["revealed"]:
        location = comp.locations[tile["tile"]]
        return location.names[language], translate("expeditions.destination.location", language,
                                                   number=location.number, region=region)
    return (translate("expeditions.destination.face_down_tile", language, code=code),
            translate("expeditions.destination.face_down_why", language, region=text.capitalised(region)))


def private_text(comp: Components, state: dict[str, Any], seat: int, language: str = "en") -> str:
    player = state["players"][seat]
    view = player_view(comp, state, seat, language)
    none = translate("expeditions.mine.none", language)
    workers = ", ".join(f"{n} {text.colour_word(c, language)}" for c, n in player["workers"].items() if n)
    lines = [f"**{said(player['name'])}** — {view['mech']['name']} ({view['mech']['text']})",
             translate("expeditions.mine.tracks", language, power=player["power"], guile=player["guile"],
                       money=money(player["coins"], language), maps=player["map_tokens"], stars=player["stars"]),
             translate("expeditions.mine.workers", language, workers=workers or none,
                       owned=q.workers_owned(player))]

    def cards(title: str, ids: list[str]) -> None:
        lines.append(f"{title}: " + ("" if ids else none))
        lines.extend(f"• {card_line(comp, c, language)}" for c in ids)

    cards(translate("expeditions.mine.hand", language), player["hand"])
    lines.append(translate("expeditions.mine.active", language) + ": " + ("" if player["active"] else none))
    for slot in player["active"]:
        worker = (" [" + translate("expeditions.mine.worker_on", language,
                                   colour=text.colour_word(slot["worker"], language)) + "]"
                  if slot["worker"] else "")
        lines.append(f"• {card_line(comp, slot['card'], language)}{worker}")
    cards(translate("expeditions.mine.upgrades", language), player["upgrades"])
    cards(translate("expeditions.mine.melds", language), player["melds"])
    cards(translate("expeditions.mine.quests", language), player["quests"])
    tokens = ", ".join(corruption_name(t["colour"], t["value"], language) for t in player["corruption"]) or none
    lines.append(translate("expeditions.mine.corruption", language, tokens=tokens))
    lines.append(translate("expeditions.mine.score", language, money=money(q.score(comp, player), language),
                           tiebreak=q.tiebreak(player)))
    pending = pending_view(comp, state, language)
    if pending and pending["seat"] == seat:
        lines.append(translate("expeditions.mine.decision", language, prompt=pending["prompt"],
                               options=" | ".join(o["label"] for o in pending["options"])))
    return "\n".join(lines)


def corruption_name(colour: str, value: int, language: str = "en") -> str:
    """A corruption token in words: "power 3" (paid with power), "guile 2", "the 20 token"."""
    if colour == "both":
        return translate("expeditions.corruption.token20", language)
    if colour == "power":
        return translate("expeditions.corruption.power", language, value=value)
    return translate("expeditions.corruption.guile", language, value=value)


def _cost(value: Any, language: str) -> str:
    """An event's cost: a cost table worded now (an older event's English words as they are)."""
    return text.cost_text(value, language) if isinstance(value, dict) else str(value)


def _effects(event: dict[str, Any], language: str) -> str:
    """An event's chosen effects in words (an older event kept them as English words under "text")."""
    if "effects" in event:
        return effects_text(event["effects"], language)
    return str(event.get("text", ""))


def describe(comp: Components, state: dict[str, Any], event: dict[str, Any], language: str = "en") -> str:
    """One event as a public sentence."""
    kind = event["kind"]
    who = (name(state, event["seat"]) if "seat" in event and event["seat"] is not None
           else translate("expeditions.word.someone", language))
    card = card_name(comp, event.get("card"), language) if event.get("card") else ""
    if kind in ("turn_ended", "ongoing_triggered", "no_choice", "skipped"):  # nothing happened worth telling
        return ""
    if kind in SENTENCES:
        return translate(SENTENCES[kind], language, who=who, card=card)
    if kind == "end_triggered":
        if len(state["players"]) > 1:
            return translate("expeditions.event.end_triggered", language, who=who)
        return translate("expeditions.event.end_triggered_alone", language, who=who)
    if kind == "deck_reshuffled":
        return translate_plural("expeditions.event.deck_reshuffled", int(event.get("cards", 0)), language)
    if kind == "action_covered":
        return translate("expeditions.event.action_covered", language, who=who,
                         action=action_word(event["action"], language))
    if kind == "moved":
        if event["location"]:
            return translate("expeditions.event.moved", language, who=who,
                             place=location_label(comp, event["location"], language))
        return translate("expeditions.event.moved_face_down", language, who=who, space=event["space"])
    if kind == "location_revealed":
        tokens = (", ".join(corruption_name(c, v, language) for c, v in event["tokens"])
                  or translate("expeditions.event.no_corruption", language))
        return translate("expeditions.event.location_revealed", language, who=who,
                         place=location_label(comp, event["location"], language), tokens=tokens)
    if kind == "gathered":
        if event["location"] is None:
            return translate("expeditions.event.gathered_basecamp", language, who=who)
        return translate("expeditions.event.gathered", language, who=who,
                         place=location_label(comp, event["location"], language))
    if kind == "gained":
        return translate("expeditions.event.gained", language, who=who,
                         amount=amount(event["what"], event["n"], language))
    if kind == "worker_gained":
        return translate("expeditions.event.worker_gained", language, who=who,
                         colour=text.colour_word(event["colour"], language))
    if kind == "worker_exhausted":
        return translate("expeditions.event.worker_exhausted", language,
                         colour=text.colour_word(event["colour"], language))
    if kind == "ability_activated":
        if event.get("worker"):
            return translate("expeditions.event.activated_with_worker", language, who=who, card=card,
                             colour=text.colour_word(event["worker"], language))
        return translate("expeditions.event.activated", language, who=who, card=card)
    if kind == "paid":
        return translate("expeditions.event.paid", language, who=who, cost=_cost(event["cost"], language))
    if kind == "cost_unpaid":
        return translate("expeditions.event.cost_unpaid", language, who=who, cost=_cost(event["cost"], language))
    if kind == "chose":
        return translate("expeditions.event.chose", language, who=who, choice=_effects(event, language))
    if kind == "swept":
        names = (", ".join(card_name(comp, c, language) for c in event["cards"])
                 or translate("expeditions.word.nothing", language))
        return translate("expeditions.event.swept", language, who=who, cards=names)
    if kind == "borrowed_benefit":
        return translate("expeditions.event.borrowed_benefit", language, who=who, benefit=_effects(event, language),
                         place=location_label(comp, event["location"], language))
    if kind == "quest_solved":
        return translate("expeditions.event.quest_solved", language, who=who, card=card,
                         place=location_label(comp, event["location"], language))
    if kind == "corruption_vanquished":
        return translate("expeditions.event.vanquished", language, who=who,
                         token=corruption_name(event["colour"], event["value"], language),
                         cost=_cost(event["cost"], language))
    if kind == "corruption_purged":
        return translate("expeditions.event.purged", language, who=who,
                         token=corruption_name(event["colour"], event["value"], language))
    if kind == "location_cleared":
        return translate("expeditions.event.location_cleared", language,
                         place=location_label(comp, event["location"], language))
    if kind == "star_placed":
        title = next(g.titles[language] for g in comp.glory if g.key == event["glory"])
        return translate("expeditions.event.star_placed", language, who=who, title=title, stars=event["stars"])
    if kind == "odin_used":
        return translate("expeditions.event.odin_used", language, who=who, amount=amount(event["what"], 1, language))
    return kind.replace("_", " ")


SENTENCES = {
    "turn_started": deferred("expeditions.event.turn_started"),
    "all_actions": deferred("expeditions.event.all_actions"),
    "refreshed": deferred("expeditions.event.refreshed"),
    "stayed": deferred("expeditions.event.stayed"),
    "card_played": deferred("expeditions.event.card_played"),
    "core_gained": deferred("expeditions.event.core_gained"),
    "cards_refreshed": deferred("expeditions.event.cards_refreshed"),
    "card_gained": deferred("expeditions.event.card_gained"),
    "card_to_hand": deferred("expeditions.event.card_to_hand"),
    "card_rescued": deferred("expeditions.event.card_rescued"),
    "card_discarded": deferred("expeditions.event.card_discarded"),
    "card_trashed": deferred("expeditions.event.card_trashed"),
    "item_upgraded": deferred("expeditions.event.item_upgraded"),
    "meteorite_melded": deferred("expeditions.event.meteorite_melded"),
    "ability_blocked": deferred("expeditions.event.ability_blocked"),
    "activation_skipped": deferred("expeditions.event.activation_skipped"),
    "nothing_to_vanquish": deferred("expeditions.event.nothing_to_vanquish"),
    "nothing_to_purge": deferred("expeditions.event.nothing_to_purge"),
    "game_over": deferred("expeditions.event.game_over"),
    "card_dealt": deferred("expeditions.event.card_dealt"),
}
"""Events told in one sentence of who did it with which card ({who}, {card}; a sentence may use neither)."""
