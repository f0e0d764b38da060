"""The rules of The Expedition as pure functions on a JSON state: setup, legal steps, turns, Automations, the end.

Participants are identified by strings: "p0".."p2" for the seated players, "a1"/"a2" for the solo Automations.
Each cell's markers are kept oldest first, which is what a location that holds two markers needs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from bot.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from bot.core.names import closest, fold
from bot.core.protocol import JSON, copy_state
from bot.core.rng import Rng
from bot.games.the_expedition.rules.catalog import Catalog, rule_words, side_words
from bot.games.the_expedition.rules.conditions import card_met
from bot.games.the_expedition.rules.grid import CELLS, DIRECTIONS, ORTHOGONAL, sides_entered_from, step
from bot.games.the_expedition.rules.words import DIRECTION_WORDS, Words, separated
from bot.i18n import Text, deferred, said

GAME_KEY = "the-expedition"
SOLO_MODES = ("solo", "solo-hard")
MARKET_MODES = ("abstract",)


def is_solo(state: JSON) -> bool:
    return state["mode"] in SOLO_MODES


def is_market(state: JSON) -> bool:
    return state["mode"] in MARKET_MODES


# --- setup -----------------------------------------------------------------------------------------------------


def setup_state(catalog: Catalog, mode: str, names: Sequence[str], rng: Rng, data_version: str) -> JSON:
    """Shuffle the grid, deal or lay out the expeditions, reveal Automations in solo, and order the placement."""
    grid = rng.shuffled([location.id for location in catalog.locations])
    deck = rng.shuffled([card.id for card in catalog.expeditions])
    players: list[JSON] = [{"id": f"p{seat}", "seat": seat, "name": name, "cell": None, "held": False,
                            "hand": [], "scored": []} for seat, name in enumerate(names)]
    state: JSON = {
        "game": GAME_KEY, "data_version": data_version, "mode": mode, "phase": "placement",
        "players": players, "automations": [], "grid": grid, "markers": [[] for _ in CELLS],
        "placement": [], "placed": 0, "order": [], "current": 0, "turns": 0, "round": 0, "passes": 0,
        "end": None, "market": [], "draw_pile": [], "undealt": [], "last_events": [], "result": None,
    }
    if is_market(state):
        size = catalog.market_extra + len(players)
        state["market"], state["draw_pile"] = deck[:size], deck[size:]
    else:
        for player in players:
            player["hand"], deck = deck[:catalog.hand_size], deck[catalog.hand_size:]
        state["undealt"] = deck
    if is_solo(state):
        cards = rng.shuffled([card.id for card in catalog.automations])[:catalog.solo_automations]
        for number, card_id in enumerate(cards, start=1):
            state["automations"].append({"id": f"a{number}", "number": number, "name": f"Automation {number}",
                                         "card": card_id, "cell": catalog.automation(card_id).start,
                                         "moves_used": 0})
        # RULINGS: the Automations are placed first and second, the player places last and moves first,
        # then Automation 2, then Automation 1 (counter-clockwise placement, clockwise play).
        state["placement"] = [0]
        state["order"] = ["p0", *[a["id"] for a in reversed(state["automations"])]]
    else:
        first = rng.randint(0, len(players) - 1)
        count = len(players)
        state["placement"] = [(first - k) % count for k in range(count)]  # counter-clockwise
        last = state["placement"][-1]
        state["order"] = [f"p{(last + k) % count}" for k in range(count)]  # the last to place starts, clockwise
    return state


# --- lookups ---------------------------------------------------------------------------------------------------


def participant(state: JSON, pid: str) -> JSON:
    group = state["automations"] if pid.startswith("a") else state["players"]
    for entry in group:
        if entry["id"] == pid:
            return entry
    raise KeyError(pid)


def participants(state: JSON) -> list[JSON]:
    """Everyone with an explorer, in play order once play has begun (seat order before)."""
    if state["order"]:
        return [participant(state, pid) for pid in state["order"]]
    return list(state["players"])


def is_automation(pid: str) -> bool:
    return pid.startswith("a")


def marked_cells(state: JSON, pid: str) -> set[int]:
    return {cell for cell in CELLS if pid in state["markers"][cell]}


def markers_left(state: JSON, catalog: Catalog, pid: str) -> int:
    return catalog.markers_per_player - len(marked_cells(state, pid))


def current_pid(state: JSON) -> str | None:
    """Who acts now: the seat to place, the participant to move, or None when the game is over."""
    if state["phase"] == "placement":
        return f"p{state['placement'][state['placed']]}"
    if state["phase"] == "play":
        return str(state["order"][state["current"]])
    return None


def to_act(state: JSON) -> tuple[int, ...]:
    pid = current_pid(state)
    if pid is None or is_automation(pid):
        return ()
    return (participant(state, pid)["seat"],)


def next_to_act(state: JSON) -> tuple[int, ...]:
    """The seat to act after the current one: the next to place, else the next explorer of a player in play order
    (the Automation's turns go by themselves)."""
    if state["phase"] == "placement" and state["placed"] + 1 < len(state["placement"]):
        return (int(state["placement"][state["placed"] + 1]),)
    if state["phase"] != "play" or not state["order"]:
        return ()
    order = state["order"]
    for ahead in range(1, len(order) + 1):
        pid = str(order[(state["current"] + ahead) % len(order)])
        if not is_automation(pid):
            return (int(participant(state, pid)["seat"]),)
    return ()


# --- movement ----------------------------------------------------------------------------------------------------


def _step_allowed(state: JSON, catalog: Catalog, pid: str, direction: str) -> bool:
    """Whether `pid` may step in `direction` now (step_refusal says why not)."""
    explorer = participant(state, pid)
    if explorer.get("held"):
        return False
    if direction not in ORTHOGONAL and not catalog.location(state["grid"][explorer["cell"]]).diagonal_exit:
        return False
    target = step(explorer["cell"], direction)
    return target is not None and not (set(sides_entered_from(direction))
                                       & set(catalog.location(state["grid"][target]).no_entry_from))


def step_refusal(state: JSON, catalog: Catalog, pid: str, direction: str) -> Text | None:
    """Why `pid` may not step in `direction` now (in words for the player), or None if the step is legal."""
    if _step_allowed(state, catalog, pid, direction):
        return None
    explorer = participant(state, pid)
    here = catalog.location(state["grid"][explorer["cell"]])
    if explorer.get("held"):
        return Text.of("expedition.refuse.step.held", location=here.names, rule=rule_words(here))
    if direction not in ORTHOGONAL and not here.diagonal_exit:
        return Text.of("expedition.refuse.step.diagonal", location=here.names)
    target = step(explorer["cell"], direction)
    if target is None:
        return Text.of("expedition.refuse.step.off_grid", direction=Text.of(DIRECTION_WORDS[direction]),
                       location=here.names)
    there = catalog.location(state["grid"][target])
    blocked = set(sides_entered_from(direction)) & set(there.no_entry_from)
    if blocked:
        return Text.of("expedition.refuse.step.no_entry", location=there.names, sides=side_words(sorted(blocked)),
                       rule=rule_words(there))
    return None


def legal_steps(state: JSON, catalog: Catalog, pid: str) -> list[tuple[str, int]]:
    """(direction, target cell) for every step `pid` may take now, orthogonal first."""
    explorer = participant(state, pid)
    steps: list[tuple[str, int]] = []
    for direction in DIRECTIONS:
        if _step_allowed(state, catalog, pid, direction):
            target = step(explorer["cell"], direction)
            assert target is not None
            steps.append((direction, target))
    return steps


def empty_locations(state: JSON) -> list[int]:
    """Cells with no explorer on them, in reading order (placement goes onto these)."""
    occupied = {p["cell"] for p in [*state["players"], *state["automations"]] if p["cell"] is not None}
    return [cell for cell in CELLS if cell not in occupied]


# --- marking -----------------------------------------------------------------------------------------------------


def mark(state: JSON, catalog: Catalog, cell: int, pid: str) -> tuple[bool, list[str]]:
    """Mark `cell` for `pid`; returns (a new marker was placed, owners whose markers were removed).

    RULINGS: after marking, a location holds exactly one marker, the active player's, unless its rule says otherwise
    (`holds`: the newest markers stay, or all of them). A player never has two markers on one location: marking
    where you already have one places no new marker, and it counts as the newest.
    """
    markers: list[str] = state["markers"][cell]
    placed = pid not in markers
    if not placed:
        markers.remove(pid)
    markers.append(pid)
    limit = catalog.location(state["grid"][cell]).holds or len(markers)
    removed: list[str] = []
    while len(markers) > limit:
        removed.append(markers.pop(0))
    return placed, removed


# --- turns -------------------------------------------------------------------------------------------------------


def _move_event(state: JSON, pid: str, direction: str, origin: int, target: int, placed: bool,
                removed: list[str]) -> JSON:
    return {"kind": "moved", "who": pid, "direction": direction, "from_cell": origin, "to_cell": target,
            "from_location": state["grid"][origin], "to_location": state["grid"][target], "marked": placed,
            "removed": removed}


def _human_step(state: JSON, catalog: Catalog, pid: str, direction: str, events: list[JSON]) -> None:
    explorer = participant(state, pid)
    origin = explorer["cell"]
    target = step(origin, direction)
    assert target is not None
    explorer["cell"] = target
    placed, removed = mark(state, catalog, origin, pid)
    event = _move_event(state, pid, direction, origin, target, placed, removed)
    if catalog.location(state["grid"][target]).gravity:
        explorer["held"] = True
        event["held"] = True
    events.append(event)


def _automation_step(state: JSON, catalog: Catalog, pid: str, events: list[JSON]) -> None:
    """One printed move. A move that would leave the grid is used up, but the Automation stays and marks nothing."""
    automaton = participant(state, pid)
    card = catalog.automation(automaton["card"])
    direction = card.path[automaton["moves_used"]]
    automaton["moves_used"] += 1
    origin = automaton["cell"]
    target = step(origin, direction)
    if target is None:
        events.append({"kind": "automation_blocked", "who": pid, "direction": direction, "cell": origin,
                       "moves_left": len(card.path) - automaton["moves_used"]})
        return
    automaton["cell"] = target
    placed, removed = mark(state, catalog, origin, pid)
    event = _move_event(state, pid, direction, origin, target, placed, removed)
    event["moves_left"] = len(card.path) - automaton["moves_used"]
    events.append(event)


def _score_expeditions(state: JSON, catalog: Catalog, pid: str, events: list[JSON]) -> None:
    """RULINGS: only the active player's cards are checked, at the end of their own turn (market cards in
    Abstract Mode, then each scored one is replaced from the draw pile; an empty pile shrinks the market)."""
    player = participant(state, pid)
    mine = marked_cells(state, pid)
    if is_market(state):
        market: list[str] = []
        for slot, card_id in enumerate(state["market"]):
            if not card_met(catalog.expedition(card_id), mine, state["grid"], catalog):
                market.append(card_id)
                continue
            player["scored"].append(card_id)
            events.append({"kind": "expedition_scored", "who": pid, "card": card_id,
                           "points": catalog.expedition(card_id).points, "source": "market"})
            if state["draw_pile"]:
                replacement = state["draw_pile"].pop(0)
                market.append(replacement)
                events.append({"kind": "market_refilled", "card": replacement, "slot": slot})
            else:
                events.append({"kind": "market_shrank", "slot": slot})
        state["market"] = market
        return
    for card_id in list(player["hand"]):
        if card_met(catalog.expedition(card_id), mine, state["grid"], catalog):
            player["hand"].remove(card_id)
            player["scored"].append(card_id)
            events.append({"kind": "expedition_scored", "who": pid, "card": card_id,
                           "points": catalog.expedition(card_id).points, "source": "hand"})


def _end_reason(state: JSON, catalog: Catalog, pid: str) -> str | None:
    explorer = participant(state, pid)
    if not is_automation(pid) and len(explorer["scored"]) >= catalog.expeditions_to_end:
        return "expeditions"
    if markers_left(state, catalog, pid) == 0:
        return "markers"
    if is_automation(pid) and explorer["moves_used"] >= len(catalog.automation(explorer["card"]).path):
        return "out_of_moves"
    return None


def _close_turn(state: JSON, catalog: Catalog, pid: str, events: list[JSON]) -> None:
    """After a turn: check the end trigger, count down the final turns, and finish the game when they are done."""
    state["turns"] += 1
    end = state["end"]
    if end is None:
        reason = _end_reason(state, catalog, pid)
        if reason is not None:
            state["end"] = {"by": pid, "reason": reason, "final_turns_left": len(state["order"]) - 1}
            event: JSON = {"kind": "end_triggered", "who": pid, "reason": reason}
            if reason == "expeditions":
                # How many were completed by then: one step can complete more than the number needed.
                state["end"]["count"] = event["count"] = len(participant(state, pid)["scored"])
            events.append(event)
    else:
        end["final_turns_left"] -= 1
    if state["end"] is not None and state["end"]["final_turns_left"] <= 0:
        finish(state, catalog, "final_turns", events)


def _take_turn(state: JSON, catalog: Catalog, pid: str, direction: str | None, events: list[JSON]) -> None:
    """One whole turn of `pid`: a step (None: it has none and stays), scoring, and the end-of-turn checks."""
    if is_automation(pid):
        _automation_step(state, catalog, pid, events)
        state["passes"] = 0
    elif direction is None:
        explorer = participant(state, pid)
        reason = "gravity" if explorer["held"] else "blocked"
        explorer["held"] = False
        events.append({"kind": "stayed", "who": pid, "reason": reason})
        state["passes"] += 1
    else:
        _human_step(state, catalog, pid, direction, events)
        state["passes"] = 0
    if not is_automation(pid):
        _score_expeditions(state, catalog, pid, events)
    _close_turn(state, catalog, pid, events)
    if state["phase"] == "play" and state["passes"] >= 2 * len(state["order"]):
        # Unreachable with the shipped locations (only one restricts entry, and gravity holds for a single turn),
        # but edited data could wall every explorer in for good: then nobody can ever move again.
        finish(state, catalog, "stuck", events)


def _next_turn(state: JSON, catalog: Catalog, events: list[JSON]) -> None:
    """Hand the turn on; Automations and players with no legal step take theirs at once, until a player must act."""
    while state["phase"] == "play":
        following = (state["current"] + 1) % len(state["order"])
        if is_solo(state) and following == 0:
            if state["round"] >= catalog.solo_rounds:
                finish(state, catalog, "rounds", events)
                return
            state["round"] += 1
        state["current"] = following
        if _repeated_a_third_time(state):
            finish(state, catalog, "repetition", events)
            return
        if not _resolve_automatic(state, catalog, events):
            return


REPETITION_LIMIT = 3
"""RULINGS: the third time the same position arises, the game ends at once and is scored as it stands."""


def position_key(state: JSON) -> str:
    """A short digest of everything that decides the rest of the game: explorers (cells, gravity, Automation moves
    used), markers, held and scored cards, the market and draw pile, the end countdown and the seat to move."""
    position = {
        "players": [[p["cell"], p["held"], p["hand"], sorted(p["scored"])] for p in state["players"]],
        "automations": [[a["cell"], a["moves_used"]] for a in state["automations"]],
        "markers": state["markers"], "market": state["market"], "draw_pile": state["draw_pile"],
        "end": state["end"], "current": state["current"],
    }
    encoded = json.dumps(position, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.blake2b(encoded, digest_size=8).hexdigest()


def public_position_key(state: JSON) -> str:
    """`position_key` without the hands: what every seat can tell apart. Hands change only when a card is scored,
    which the key holds, so a position repeats exactly when its public part does since the last scoring; computer
    players read these counts (the full ones would give away the other hands) to avoid going round in circles."""
    position = {
        "players": [[p["cell"], p["held"], sorted(p["scored"])] for p in state["players"]],
        "automations": [[a["cell"], a["moves_used"]] for a in state["automations"]],
        "markers": state["markers"], "market": state["market"], "end": state["end"], "current": state["current"],
    }
    encoded = json.dumps(position, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.blake2b(encoded, digest_size=8).hexdigest()


def times_seen(state: JSON) -> int:
    """How often the position now standing has arisen, as far as the public record tells (0 in states that
    predate the record)."""
    return int(state.get("public_positions", {}).get(public_position_key(state), 0))


def _repeated_a_third_time(state: JSON) -> bool:
    """Count the position now arising; True when it has arisen REPETITION_LIMIT times (older states start counting
    from here)."""
    seen: dict[str, int] = state.setdefault("positions", {})
    key = position_key(state)
    seen[key] = seen.get(key, 0) + 1
    public: dict[str, int] = state.setdefault("public_positions", {})
    public_key = public_position_key(state)
    public[public_key] = public.get(public_key, 0) + 1
    # In a game recorded from its start the two counts are equal (hands and the draw pile change only with a
    # scoring, which the public key holds). A computer player's sample of the hidden cards has no true full record
    # (its view leaves it out: it would give the hands away), so there the public count is the one that tells.
    return max(seen[key], public[public_key]) >= REPETITION_LIMIT


def _resolve_automatic(state: JSON, catalog: Catalog, events: list[JSON]) -> bool:
    """Play the current turn if nobody needs to choose (an Automation, or a player with no legal step).

    Returns True when a turn was played here, False when the current player must act.
    """
    pid = current_pid(state)
    assert pid is not None
    if is_automation(pid):
        _take_turn(state, catalog, pid, None, events)
        return True
    if not legal_steps(state, catalog, pid):
        _take_turn(state, catalog, pid, None, events)  # RULINGS: stays put, places no marker, the turn passes
        return True
    return False


# --- the end -----------------------------------------------------------------------------------------------------


def final_scores(state: JSON, catalog: Catalog) -> dict[str, JSON]:
    """Per participant: location points, expedition points, markers on the grid and the total that counts."""
    scores: dict[str, JSON] = {}
    for explorer in participants(state):
        pid = explorer["id"]
        cells = marked_cells(state, pid)
        location_points = sum(catalog.location(state["grid"][cell]).points for cell in cells)
        expedition_points = sum(catalog.expedition(card).points for card in explorer.get("scored", []))
        if is_automation(pid):
            total = location_points
        elif state["mode"] == "solo-hard":
            total = expedition_points  # the rulebook's added challenge: only your expedition points
        else:
            total = location_points + expedition_points
        scores[pid] = {"locations": location_points, "expeditions": expedition_points, "markers": len(cells),
                       "total": total}
    return scores


def ranking_key(score: JSON) -> tuple[int, int, int]:
    """The rulebook's order: most points, then most markers (on the grid at the end), then most expedition points."""
    return (score["total"], score["markers"], score["expeditions"])


def winners_of(scores: dict[str, JSON]) -> list[str]:
    best = max(ranking_key(score) for score in scores.values())
    return [pid for pid, score in scores.items() if ranking_key(score) == best]


def finish(state: JSON, catalog: Catalog, reason: str, events: list[JSON]) -> None:
    scores = final_scores(state, catalog)
    winners = winners_of(scores)
    state["phase"] = "over"
    state["result"] = {"reason": reason, "scores": scores, "winners": winners}
    events.append({"kind": "game_over", "reason": reason, "scores": scores, "winners": winners})


# --- actions -----------------------------------------------------------------------------------------------------


def _location_by_name(state: JSON, catalog: Catalog, wanted: str) -> int:
    """The cell of the location called `wanted` (id or printed name in any language, any case or accents)."""
    needle = fold(wanted)
    for cell, location_id in enumerate(state["grid"]):
        location = catalog.location(location_id)
        if needle == fold(location.id) or needle in {fold(name) for name in location.names.texts}:
            return cell
    names = [catalog.location(i).names for i in state["grid"]]
    guess = closest(wanted, [text for name in names for text in name.texts])
    locations = separated(names)
    if guess:
        raise MalformedAction("expedition.refuse.no_such_location.guess", wanted=said(wanted), guess=guess,
                              locations=locations)
    raise MalformedAction("expedition.refuse.no_such_location", wanted=said(wanted), locations=locations)


def _apply_place(state: JSON, catalog: Catalog, pid: str, action: JSON, events: list[JSON]) -> None:
    if state["phase"] != "placement":
        raise IllegalAction("expedition.refuse.place_in_play", options=_options(state, catalog, pid, "to"))
    wanted = action.get("location")
    if not isinstance(wanted, str) or not wanted.strip():
        raise MalformedAction("expedition.refuse.place_no_location")
    cell = _location_by_name(state, catalog, wanted)
    free = empty_locations(state)
    if cell not in free:
        raise IllegalAction("expedition.refuse.place_taken", location=catalog.location(state["grid"][cell]).names,
                            empty=separated([catalog.location(state["grid"][c]).names for c in free]))
    participant(state, pid)["cell"] = cell
    events.append({"kind": "placed", "who": pid, "cell": cell, "location": state["grid"][cell]})
    state["placed"] += 1
    if state["placed"] < len(state["placement"]):
        return
    state["phase"] = "play"
    state["current"] = 0
    state["round"] = 1 if is_solo(state) else 0
    state["positions"] = {position_key(state): 1}
    state["public_positions"] = {public_position_key(state): 1}  # the first position counts in both records
    if _resolve_automatic(state, catalog, events):
        _next_turn(state, catalog, events)


def _apply_move(state: JSON, catalog: Catalog, pid: str, action: JSON, events: list[JSON]) -> None:
    if state["phase"] != "play":
        raise IllegalAction("expedition.refuse.move_in_setup", empty=separated(
            [catalog.location(state["grid"][c]).names for c in empty_locations(state)]))
    direction = action.get("direction")
    if not isinstance(direction, str) or direction.strip().lower() not in DIRECTIONS:
        raise MalformedAction("expedition.refuse.move_no_direction", got=repr(direction),
                              directions=separated([Text.of(DIRECTION_WORDS[d]) for d in DIRECTIONS]))
    direction = direction.strip().lower()
    refusal = step_refusal(state, catalog, pid, direction)
    if refusal is not None:
        raise IllegalAction("expedition.refuse.step", direction=Text.of(DIRECTION_WORDS[direction]), reason=refusal,
                            options=_options(state, catalog, pid, "bracketed"))
    _take_turn(state, catalog, pid, direction, events)
    _next_turn(state, catalog, events)


def _options(state: JSON, catalog: Catalog, pid: str, style: str) -> Words:
    """The legal steps as /explore move takes them: "up to Mars, left to Io" (`style` "to") or "up (to Mars), left
    (to Io)" ("bracketed")."""
    message = deferred("expedition.option.to") if style == "to" else deferred("expedition.option.bracketed")
    return separated([Text.of(message, direction=Text.of(DIRECTION_WORDS[d]),
                              location=catalog.location(state["grid"][t]).names)
                      for d, t in legal_steps(state, catalog, pid)])


def apply_action(state: JSON, catalog: Catalog, seat: int, action: Any) -> tuple[JSON, list[JSON]]:
    """Validate and play `seat`'s action; returns the new state and the events (the input is not touched)."""
    if state["phase"] == "over":
        raise GameOver("expedition.refuse.over")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction("expedition.refuse.not_an_action")
    acting = to_act(state)
    if seat not in acting:
        pid = current_pid(state)
        assert pid is not None  # (over: refused above)
        raise NotYourTurn("expedition.refuse.not_your_turn", name=said(participant(state, pid)["name"]))
    new_state = copy_state(state)
    pid = f"p{seat}"
    events: list[JSON] = []
    kind = action["type"]
    if kind == "place":
        _apply_place(new_state, catalog, pid, action, events)
    elif kind == "move":
        _apply_move(new_state, catalog, pid, action, events)
    else:
        raise MalformedAction("expedition.refuse.unknown_action", kind=repr(kind))
    new_state["last_events"] = events
    return new_state, events


def legal_actions(state: JSON, catalog: Catalog, seat: int) -> list[JSON]:
    if seat not in to_act(state):
        return []
    if state["phase"] == "placement":
        return [{"type": "place", "location": state["grid"][cell]} for cell in empty_locations(state)]
    return [{"type": "move", "direction": direction} for direction, _ in legal_steps(state, catalog, f"p{seat}")]
