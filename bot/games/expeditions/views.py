"""What each viewer sees, and the game in words: views, turn text, event sentences and /game mine.

Expeditions has almost no secrets: hands, active rows and every token on the table are open. What stays hidden is
the deck order, the order of the corruption bag and the numbers of the face-down location tiles, so no view ever
carries those (the bag's contents by colour and value are public, being deducible from what has been drawn).
"""

from __future__ import annotations

from typing import Any

from bot.games.expeditions import queries as q
from bot.games.expeditions.board import BASECAMP, destinations
from bot.games.expeditions.data import Components
from bot.games.expeditions.engine import pending_options
from bot.games.expeditions.text import amount, card_line, card_summary, effects_text

PROMPTS = {
    "play_steps": "core value and/or worker, in any order",
    "or": "choose one side of the OR",
    "worker_colour": "choose the colour of the worker to gain",
    "take_card": "choose a face-up card to gain",
    "card_destination": "put the gained card in the active row or in hand",
    "sweep": "pick the face-up cards to sweep, then confirm",
    "rescue": "choose a card to rescue from the active row",
    "discard": "choose a card to discard from hand",
    "trash": "choose a card to trash",
    "play": "choose a card to play from hand",
    "activate_adjacent": "choose an adjacent face-up card to activate",
    "location_benefit": "choose a benefit of an adjacent location",
    "solve": "choose a quest to solve here",
    "vanquish": "vanquish the top corruption here, or stop",
    "upgrade": "choose an item to upgrade",
    "meld": "choose a meteorite to meld",
    "boast": "choose a glory category for a star",
}
ACTION_WORDS = {"move": "Move", "play": "Play", "gather": "Gather"}


def name(state: dict[str, Any], seat: int) -> str:
    return str(state["players"][seat]["name"])


def card_name(comp: Components, card_id: str | None) -> str:
    return comp.cards[card_id].name if card_id else "nothing"


def location_label(comp: Components, number: int | None) -> str:
    if number is None:
        return "the basecamp"
    location = comp.locations[number]
    return f"{location.label} {location.name}"


def pending_view(comp: Components, state: dict[str, Any]) -> dict[str, Any] | None:
    turn = state.get("turn")
    if state["over"] or not turn or not turn["pending"]:
        return None
    pending = turn["pending"]
    view = {"kind": pending["kind"], "seat": turn["seat"], "prompt": PROMPTS[pending["kind"]],
            "options": pending_options(comp, state, pending)}
    if pending["kind"] == "play_steps":
        view["card"] = pending["card"]
    if pending["kind"] == "sweep":
        view["selected"] = list(pending["selected"])
    return view


def turn_text(comp: Components, state: dict[str, Any]) -> str:
    if state["over"]:
        return "Game over"
    turn = state["turn"]
    who = name(state, turn["seat"])
    if turn["pending"]:
        return f"{who}: {PROMPTS[turn['pending']['kind']]}"
    if turn["phase"] == "start":
        if state["players"][turn["seat"]]["token"] == "all":  # right after an all-three turn: no refresh
            return f"{who}: choose an action to cover"
        return f"{who}: choose an action to cover, or refresh"
    remaining = [ACTION_WORDS[a] for a in turn["remaining"]]
    if len(remaining) == 1:
        return f"{who}: {remaining[0]}, the turn's last action"
    return f"{who}: {' and '.join(remaining)}, in any order"


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


def token_text(state: dict[str, Any], seat: int) -> str:
    """The action token in words for the player panels, as it bears on the player's turn now or next: an action
    covered, "all 3 actions this turn", "refreshed: all 3 next turn", "covers one next turn"; nothing until the
    player's first turn is over (the first turn takes all three, which the turn line says)."""
    token = state["players"][seat]["token"]
    if token in ACTION_WORDS:
        return f"{ACTION_WORDS[token]} covered"
    if state["over"] or not has_taken_a_turn(state, seat):  # (no next turn at the end)
        return ""
    turn = state.get("turn") or {}
    current = not state["over"] and turn.get("seat") == seat
    if token == "refresh":
        return "refreshed: all 3 next turn"
    if current and turn.get("phase") == "actions":
        return "all 3 actions this turn"
    return "covers one this turn" if current else "covers one next turn"


def reachable_spaces(comp: Components, state: dict[str, Any]) -> list[str]:
    """The spaces the player to move may move their mech to now (their Move is still to take and no choice is
    pending), in board order; empty otherwise. The public board outlines them."""
    turn = state.get("turn")
    if state["over"] or not turn or turn["pending"] or turn["phase"] != "actions" or "move" not in turn["remaining"]:
        return []
    seat = turn["seat"]
    return destinations(comp, state, seat, q.move_reach(comp, state, seat))


def player_view(comp: Components, state: dict[str, Any], seat: int) -> dict[str, Any]:
    player = state["players"][seat]
    mech = comp.mech(player["mech"])
    at = player["at"]
    location = None if at == BASECAMP or not state["spaces"][at]["revealed"] else state["spaces"][at]["tile"]
    return {
        "seat": seat, "name": player["name"],
        "mech": {"key": mech.key, "name": mech.name, "text": mech.text},
        "character": player["character"], "companion": player["companion"],
        "at": at, "location": location, "action_token": player["token"], "token_text": token_text(state, seat),
        "power": player["power"], "guile": player["guile"], "coins": player["coins"],
        "map_tokens": player["map_tokens"], "workers": dict(player["workers"]),
        "workers_owned": q.workers_owned(player),
        "hand": [card_summary(comp, comp.cards[c]) for c in player["hand"]],
        "active": [{**card_summary(comp, comp.cards[s["card"]]), "worker": s["worker"]} for s in player["active"]],
        "upgrades": [card_summary(comp, comp.cards[c]) for c in player["upgrades"]],
        "melds": [card_summary(comp, comp.cards[c]) for c in player["melds"]],
        "quests": [card_summary(comp, comp.cards[c]) for c in player["quests"]],
        "corruption": [[t["colour"], t["value"]] for t in player["corruption"]],
        "corruption_count": q.corruption_count(player), "token20": q.has_token20(player),
        "stars": player["stars"], "stars_left": comp.rules.stars_per_player - player["stars"],
        "star_value": q.star_value(comp, player), "limit": q.limit(comp, player),
        "score": q.score(comp, player), "score_parts": q.score_parts(comp, player), "tiebreak": q.tiebreak(player),
        "goals_met": [g.key for g in comp.glory if q.goal_met(comp, player, g.key)],
    }


def map_view(comp: Components, state: dict[str, Any]) -> dict[str, Any]:
    mechs = {p["at"]: seat for seat, p in enumerate(state["players"]) if p["at"] != BASECAMP}
    slots = comp.card_spaces
    spaces = []
    for space in comp.spaces:
        entry: dict[str, Any] = {"code": space.code, "row": space.row, "col": space.col, "kind": space.kind}
        if space.kind == "cards":
            card_id = state["face_up"][slots.index(space.code)]
            entry["slot"] = slots.index(space.code)
            entry["card"] = card_summary(comp, comp.cards[card_id]) if card_id else None
        else:
            tile = state["spaces"][space.code]
            entry.update({"revealed": tile["revealed"], "map_token": tile["map_token"],
                          "mech": mechs.get(space.code)})
            if tile["revealed"]:
                location = comp.locations[tile["tile"]]
                entry.update({
                    "location": location.number, "label": location.label, "name": location.name,
                    "benefits": effects_text(location.gather), "cleared": effects_text(location.cleared),
                    "cleared_exposed": bool(location.cleared) and not tile["corruption"],
                    "corruption": [[t["colour"], t["value"]] for t in tile["corruption"]],
                    "threshold": location.corruption,
                })
        spaces.append(entry)
    return {"spaces": spaces, "basecamp": {"links": list(comp.basecamp_links),
                                           "mechs": [s for s, p in enumerate(state["players"]) if p["at"] == BASECAMP]}}


def public_view(comp: Components, state: dict[str, Any]) -> dict[str, Any]:
    bag: dict[str, int] = {}
    for token in state["bag"]:
        key = f"{token['colour']}-{token['value']}"
        bag[key] = bag.get(key, 0) + 1
    turn = state["turn"]
    players = [player_view(comp, state, seat) for seat in range(len(state["players"]))]
    return {
        "game": "expeditions", "title": "Expeditions", "mode": state["mode"],
        "players": players, "map": map_view(comp, state),
        "face_up": [card_summary(comp, comp.cards[c]) if c else None for c in state["face_up"]],
        "deck_count": len(state["deck"]), "discard": [card_summary(comp, comp.cards[c]) for c in state["discard"]],
        "trash_count": len(state["trash"]), "bag": {"count": len(state["bag"]), "tokens": dict(sorted(bag.items()))},
        "supply": {"workers": dict(state["supply"]["workers"]), "map_tokens": state["supply"]["map_tokens"]},
        "glory": [{"key": g.key, "title": g.title, "stars": list(state["glory"][g.key])} for g in comp.glory],
        "turn": turn_text(comp, state), "last_move": state["last_move"], "log": list(state["log"]),
        "to_act": [] if state["over"] else [turn["seat"]],
        "current": None if state["over"] else {"seat": turn["seat"], "phase": turn["phase"],
                                               "remaining": list(turn["remaining"])},
        "pending": pending_view(comp, state),
        "reachable": reachable_spaces(comp, state),
        "scores": {str(p["seat"]): p["score"] for p in players},
        "end": {"triggered_by": state["end"]["triggered_by"],
                "final_turns_left": list(state["end"]["final_turns"] or [])},
        "over": state["over"], "turns_taken": state["turns_taken"],
    }


def legal_destinations(comp: Components, state: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    """(space code, label) for each space the seat's mech may move to now; ("stay", ...) when none."""
    found = destinations(comp, state, seat, q.move_reach(comp, state, seat))
    labels = []
    for code in found:
        tile = state["spaces"][code]
        if tile["revealed"]:
            labels.append((code, f"{code}: {location_label(comp, tile['tile'])}"))
        else:
            region = comp.space(code).kind.title()
            labels.append((code, f"{code}: face-down {region} location (ends the move)"))
    return labels or [("stay", "stay (no legal move; counts as moving)")]


def destination_choice(comp: Components, state: dict[str, Any], code: str) -> tuple[str, str]:
    """A destination as a menu option shows it: the place's name (as the board writes it on its tile), and below
    it its number and region, or for a face-down tile its space (the board writes it there) and what entering
    does."""
    if code == "stay":
        return "Stay put", "no legal move: staying counts as moving"
    tile = state["spaces"][code]
    region = comp.space(code).kind
    if tile["revealed"]:
        location = comp.locations[tile["tile"]]
        return location.name, f"location {location.number}, {region}"
    return f"Face-down tile {code}", f"{region}: reveals it, takes its map token and ends the move"


def private_text(comp: Components, state: dict[str, Any], seat: int) -> str:
    player = state["players"][seat]
    view = player_view(comp, state, seat)
    lines = [f"**{player['name']}** — {view['mech']['name']} ({view['mech']['text']})",
             f"Power {player['power']}/10 · Guile {player['guile']}/10 · ${player['coins']} · "
             f"map tokens {player['map_tokens']} · stars placed {player['stars']}",
             "Workers on mat: " + (", ".join(f"{n} {c}" for c, n in player["workers"].items() if n) or "none")
             + f" (owned {q.workers_owned(player)})"]

    def cards(title: str, ids: list[str]) -> None:
        lines.append(f"{title}: " + ("none" if not ids else ""))
        lines.extend(f"• {card_line(comp, c)}" for c in ids)

    cards("Hand", player["hand"])
    lines.append("Active row: " + ("none" if not player["active"] else ""))
    for slot in player["active"]:
        worker = f" [{slot['worker']} worker]" if slot["worker"] else ""
        lines.append(f"• {card_line(comp, slot['card'])}{worker}")
    cards("Upgrades", player["upgrades"])
    cards("Melds", player["melds"])
    cards("Solved quests", player["quests"])
    tokens = ", ".join(f"{t['colour']} {t['value']}" for t in player["corruption"]) or "none"
    lines.append(f"Corruption: {tokens}")
    lines.append(f"Score so far: ${q.score(comp, player)} (tie-break {q.tiebreak(player)})")
    pending = pending_view(comp, state)
    if pending and pending["seat"] == seat:
        lines.append(f"Your decision: {pending['prompt']}: " + " | ".join(o["label"] for o in pending["options"]))
    return "\n".join(lines)


def describe(comp: Components, state: dict[str, Any], event: dict[str, Any]) -> str:
    """One event as a public sentence."""
    kind = event["kind"]
    who = name(state, event["seat"]) if "seat" in event and event["seat"] is not None else "Someone"
    card = card_name(comp, event.get("card")) if event.get("card") else ""
    simple = {
        "turn_started": f"{who}'s turn begins.",
        "all_actions": f"{who} takes all three actions this turn.",
        "turn_ended": "",
        "refreshed": f"{who} refreshes: cards and workers return.",
        "stayed": f"{who} has no legal move and stays put.",
        "card_played": f"{who} plays {card}.",
        "core_gained": f"{who} gains the core value of {card}.",
        "cards_refreshed": f"{who} returns their active cards and workers.",
        "card_gained": f"{who} gains {card}.",
        "card_to_hand": f"{who} puts {card} in hand.",
        "card_rescued": f"{who} rescues {card}.",
        "card_discarded": f"{who} discards {card}.",
        "card_trashed": f"{who} trashes {card}.",
        "item_upgraded": f"{who} upgrades {card}.",
        "meteorite_melded": f"{who} melds {card}.",
        "ability_blocked": f"{who} cannot use {card}'s ability yet.",
        "activation_skipped": "An activated ability cannot activate another card.",
        "nothing_to_vanquish": f"{who} finds no corruption to vanquish.",
        "nothing_to_purge": "There is no corruption to remove.",
        "end_triggered": f"{who} placed their last star: " + (f"everyone takes one more turn, {who} last."
                                                               if len(state["players"]) > 1
                                                               else f"{who} takes one more turn."),
        "game_over": "The expedition is over.",
        "deck_reshuffled": f"The discard pile is shuffled into a new deck of {event.get('cards', 0)} cards.",
        "card_dealt": f"{card} is dealt face up.",
        "ongoing_triggered": "",
    }
    if kind in simple:
        return simple[kind]
    if kind == "action_covered":
        return f"{who} covers {ACTION_WORDS[event['action']]}."
    if kind == "moved":
        where = location_label(comp, event["location"]) if event["location"] else f"face-down {event['space']}"
        return f"{who} moves to {where}."
    if kind == "location_revealed":
        tokens = ", ".join(f"{c} {v}" for c, v in event["tokens"]) or "no corruption"
        return f"{who} reveals {location_label(comp, event['location'])} ({tokens})."
    if kind == "gathered":
        return f"{who} gathers at {location_label(comp, event['location'])}."
    if kind == "gained":
        return f"{who} gains {amount(event['what'], event['n'])}."
    if kind == "worker_gained":
        return f"{who} gains a {event['colour']} worker."
    if kind == "worker_exhausted":
        return f"No {event['colour']} workers are left."
    if kind == "ability_activated":
        how = f" with a {event['worker']} worker" if event.get("worker") else ""
        return f"{who} activates {card}{how}."
    if kind == "paid":
        return f"{who} pays {event['cost']}."
    if kind == "cost_unpaid":
        return f"{who} cannot pay {event['cost']}."
    if kind == "chose":
        return f"{who} chooses {event['text']}."
    if kind == "swept":
        names = ", ".join(card_name(comp, c) for c in event["cards"]) or "nothing"
        return f"{who} sweeps {names}."
    if kind == "borrowed_benefit":
        return f"{who} takes {event['text']} from {location_label(comp, event['location'])}."
    if kind == "quest_solved":
        return f"{who} solves {card} at {location_label(comp, event['location'])}."
    if kind == "corruption_vanquished":
        token = "the 20 token" if event["colour"] == "both" else f"{event['colour']} {event['value']}"
        return f"{who} vanquishes {token} for {event['cost']}."
    if kind == "corruption_purged":
        return f"{who} returns {event['colour']} {event['value']} corruption to the bag."
    if kind == "location_cleared":
        return f"{location_label(comp, event['location'])} is cleared of corruption."
    if kind == "star_placed":
        title = next(g.title for g in comp.glory if g.key == event["glory"])
        return f"{who} boasts: a star on “{title}” ({event['stars']} placed)."
    if kind == "odin_used":
        return f"{who} trashes a map token for {amount(event['what'], 1)} (Odin's Wrath)."
    if kind == "no_choice":
        return f"{who} has no option for {event['decision'].replace('_', ' ')}."
    if kind == "skipped":
        return f"{who} skips the {event['decision'].replace('_', ' ')}."
    return kind.replace("_", " ")
