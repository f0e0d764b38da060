"""The rules: which actions are legal in each phase, and what each one does (pure; dice come from the Rng)."""

from __future__ import annotations

from typing import Any

from bot.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from bot.core.names import closest, fold
from bot.core.protocol import JSON, Applied, copy_state
from bot.core.rng import Rng
from bot.games.monster_expedition.rules.catalog import (
    REGION_DIE,
    REGION_MESSAGES,
    REGIONS,
    TRADER_ID,
    Catalog,
    catalog,
    region_name,
)
from bot.games.monster_expedition.rules.effects import (
    FINAL_LEVEL,
    end_standard_game,
    improve,
    misthrow_improvements,
    phase_three,
    refill_display,
    reveal_solo_card,
    take_cages,
)
from bot.games.monster_expedition.rules.solo import check_victory
from bot.games.monster_expedition.rules.state import (
    black_dice,
    cage_count,
    crate_value,
    display_ids,
    expedition_of,
    new_turn,
    remaining_value,
    trader_cost,
    trader_present,
)
from bot.i18n import LANGUAGES, Localized, Text, deferred, deferred_plural, said, translate

RECENT_EVENTS = 12


# --- what may be done -------------------------------------------------------------------------------------------


def to_act(state: JSON) -> tuple[int, ...]:
    return () if state["over"] else (int(state["active"]),)


def legal_actions(state: JSON, seat: int, cat: Catalog | None = None) -> list[JSON]:
    """Every action `seat` may submit now, in a stable order (never empty for the seat to act)."""
    cat = cat or catalog()
    if state["over"] or seat != state["active"]:
        return []
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "solo_prepare":
        actions = [{"type": "improve", "region": r} for r in REGIONS if int(player["camps"][r]) < FINAL_LEVEL]
        return [*actions, {"type": "decline"}]
    if phase == "camp":
        return [{"type": "camp", "region": r} for r in REGIONS]
    if phase == "bank":
        return [{"type": "bank", "value": v} for v in bankable_numbers(state)]
    if phase == "continue":
        return [{"type": "roll"}, {"type": "stop"}]
    if phase == "steal":
        return [{"type": "steal", "seat": s} for s in steal_victims(state)]
    if phase == "purchase":
        return [*purchase_options(state, cat), {"type": "done"}]
    return []


def bankable_numbers(state: JSON) -> list[int]:
    banked = set(state["turn"]["banked_numbers"])
    return sorted({int(d["value"]) for d in state["turn"]["rolled"]} - banked)


def steal_victims(state: JSON) -> list[int]:
    active = state["active"]
    return [s for s, p in enumerate(state["players"]) if s != active and cage_count(p) > 0]


def capture_cost(state: JSON, card_id: str, crates: int, cat: Catalog | None = None) -> tuple[int | None, Text | None]:
    """What capturing `card_id` with `crates` crates costs now, or (None, why not)."""
    cat = cat or catalog()
    if card_id not in display_ids(state):
        return None, Text.of("monster.refuse.not_in_display")
    monster = cat.card(card_id)
    if monster.is_trader:
        return None, Text.of("monster.refuse.trader_not_captured")
    value = crate_value(state, cat)
    if crates and not value:
        return None, Text.of("monster.refuse.crates_solo_only")
    if crates > int((state.get("solo") or {}).get("crates", 0)):
        return None, Text.of("monster.refuse.only_crates", crates=_crates_owned(state))
    if crates and (crates - 1) * value >= monster.level:
        return None, Text.of("monster.refuse.too_many_crates_monster")
    level = monster.level - crates * value
    if level > 0 and not monster.roams_everywhere and monster.region != state["turn"]["region"]:
        return None, Text.of("monster.refuse.wrong_region", monster=monster.names,
                             home=Text.of(REGION_MESSAGES[monster.region]),
                             camp=Text.of(REGION_MESSAGES[state["turn"]["region"]]))
    cost = max(0, level)
    if cost > remaining_value(state):
        return None, Text.of("monster.refuse.monster_costs", monster=monster.names, cost=cost,
                             left=remaining_value(state))
    return cost, None


CRATES = deferred_plural("monster.count.crate")
CAGES_COST = deferred_plural("monster.refuse.cages_cost")


def _crates_owned(state: JSON) -> Text:
    return Text.of(CRATES, count=int((state.get("solo") or {}).get("crates", 0)))


def trader_price(state: JSON, crates: int, cat: Catalog | None = None) -> tuple[int | None, Text | None]:
    cat = cat or catalog()
    if not trader_present(state):
        return None, Text.of("monster.refuse.trader_gone")
    value = crate_value(state, cat)
    if crates and not value:
        return None, Text.of("monster.refuse.crates_solo_only")
    if crates > int((state.get("solo") or {}).get("crates", 0)):
        return None, Text.of("monster.refuse.only_crates", crates=_crates_owned(state))
    base = trader_cost(state, cat)
    if crates and (crates - 1) * value >= base:
        return None, Text.of("monster.refuse.too_many_crates_trader")
    cost = max(0, base - crates * value)
    if cost > remaining_value(state):
        return None, Text.of("monster.refuse.trader_costs", cost=cost, left=remaining_value(state))
    return cost, None


def purchase_options(state: JSON, cat: Catalog | None = None) -> list[JSON]:
    """Every affordable purchase: monsters (with each useful number of crates), cages, the trader."""
    cat = cat or catalog()
    crates = int((state.get("solo") or {}).get("crates", 0)) if crate_value(state, cat) else 0
    options: list[JSON] = []
    for card_id in display_ids(state):
        if card_id == TRADER_ID:
            continue
        for used in range(crates + 1):
            cost, _ = capture_cost(state, card_id, used, cat)
            if cost is not None:
                options.append({"type": "capture", "card": card_id, "crates": used} if used
                               else {"type": "capture", "card": card_id})
    affordable_cages = remaining_value(state) // cat.rules.cage_cost
    options.extend({"type": "cage", "count": n} for n in range(1, affordable_cages + 1))
    for used in range(crates + 1):
        cost, _ = trader_price(state, used, cat)
        if cost is not None:
            options.append({"type": "trader", "crates": used} if used else {"type": "trader"})
    return options


# --- applying ---------------------------------------------------------------------------------------------------


def apply(state: JSON, seat: int, action: Any, rng: Rng, cat: Catalog | None = None) -> Applied:
    """Decide one action; the input state is never changed."""
    cat = cat or catalog()
    if state["over"]:
        raise GameOver("monster.refuse.game_over")
    if seat != state["active"]:
        name = state["players"][state["active"]]["name"]
        raise NotYourTurn("monster.refuse.not_your_turn", name=said(name))
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction("monster.refuse.no_type", example='{"type": "roll"}')
    kind = action["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise MalformedAction("monster.refuse.unknown_action", kind=kind, actions=", ".join(sorted(_HANDLERS)))
    phases = _PHASES[kind]
    if state["phase"] not in phases:
        raise IllegalAction("monster.refuse.wrong_phase", doing=Text.of(_DOING[kind]), hint=_phase_hint(state))
    new = copy_state(state)
    events: list[JSON] = []
    handler(new, action, rng, events, cat)
    new["last_events"] = events
    new["recent"] = (new["recent"] + events)[-RECENT_EVENTS:]
    return Applied(new, events)


def _phase_hint(state: JSON) -> Text:
    phase = state["phase"]
    if phase == "bank":
        return Text.of("monster.hint.bank", numbers=", ".join(map(str, bankable_numbers(state))))
    hints = {
        "solo_prepare": deferred("monster.hint.solo_prepare"),
        "camp": deferred("monster.hint.camp"),
        "continue": deferred("monster.hint.continue"),
        "purchase": deferred("monster.hint.purchase"),
        "steal": deferred("monster.hint.steal"),
    }
    over = deferred("monster.hint.over")
    return Text.of(hints.get(phase, over))


def _int_field(action: JSON, name: str, default: int | None = None) -> int:
    value = action.get(name, default)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction("monster.refuse.whole_number", name=said(name), value=said(repr(value)))
    return value


def _region_field(action: JSON) -> str:
    region = str(action.get("region", "")).strip().lower()
    aliases = {"enchanted forest": "forest", "enchanted-forest": "forest", "green": "forest", "yellow": "aerie",
               "blue": "depths", **{fold(region_name(r, language)): r for r in REGIONS for language in LANGUAGES}}
    region = aliases.get(region, region)
    if region not in REGIONS:
        raise MalformedAction("monster.refuse.not_a_camp", region=str(action.get("region")))
    return region


# solo preparation -----------------------------------------------------------------------------------------------


def _solo_improve(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    region = _region_field(action)
    player = state["players"][0]
    if int(player["camps"][region]) >= FINAL_LEVEL:
        raise IllegalAction("monster.refuse.camp_at_top", region=Text.of(REGION_MESSAGES[region]))
    improve(state, 0, region, "campaign", events, cat)
    state["solo"]["prep_left"] -= 1
    if check_victory(state, events, cat):
        return
    if state["solo"]["prep_left"] <= 0 or all(int(v) >= FINAL_LEVEL for v in player["camps"].values()):
        state["solo"]["prep_left"] = 0
        state["phase"] = "camp"


def _solo_decline(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    events.append({"kind": "improvements_declined", "count": state["solo"]["prep_left"]})
    state["solo"]["prep_left"] = 0
    state["phase"] = "camp"


# phases 1 and 2 ---------------------------------------------------------------------------------------------------


def _choose_camp(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    region = _region_field(action)
    seat = state["active"]
    black = black_dice(state, seat, region, cat)
    state["turn"] = new_turn(region)
    dice = [{"colour": REGION_DIE[region], "value": 0}] + [{"colour": "black", "value": 0} for _ in range(black)]
    events.append({"kind": "camp_chosen", "seat": seat, "region": region,
                   "level": state["players"][seat]["camps"][region], "dice": len(dice), "black": black})
    _roll(state, dice, rng, events, cat)


def _roll(state: JSON, dice: list[JSON], rng: Rng, events: list[JSON], cat: Catalog) -> None:
    turn = state["turn"]
    rolled = [{"colour": d["colour"], "value": rng.roll(cat.dice[d["colour"]])} for d in dice]
    turn["rolled"] = rolled
    events.append({"kind": "dice_rolled", "seat": state["active"], "dice": rolled})
    if bankable_numbers(state):
        state["phase"] = "bank"
        return
    # A misthrow: every number showing has been banked already.
    turn["misthrows"] += 1
    lost = None
    if turn["banked"]:
        highest = max(int(d["value"]) for d in turn["banked"])
        index = next(i for i, d in enumerate(turn["banked"]) if int(d["value"]) == highest)
        lost = turn["banked"].pop(index)
        turn["lost"].append(lost)
    events.append({"kind": "misthrow", "seat": state["active"], "lost": lost})
    misthrow_improvements(state, events, cat)
    state["phase"] = "continue"
    check_victory(state, events, cat)


def _bank(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    value = _int_field(action, "value")
    turn = state["turn"]
    if value in turn["banked_numbers"]:
        lost = all(int(d["value"]) != value for d in turn["banked"])
        why = Text.of("monster.refuse.lost_number") if lost else ""
        raise IllegalAction("monster.refuse.already_banked", value=value, why=why,
                            numbers=", ".join(map(str, bankable_numbers(state))))
    taken = [d for d in turn["rolled"] if int(d["value"]) == value]
    if not taken:
        raise IllegalAction("monster.refuse.no_die_shows", value=value,
                            numbers=", ".join(map(str, bankable_numbers(state))))
    then = action.get("then")
    if then not in (None, "roll", "stop"):
        raise MalformedAction("monster.refuse.then")
    turn["rolled"] = [d for d in turn["rolled"] if int(d["value"]) != value]
    turn["banked"].extend(taken)
    turn["banked_numbers"].append(value)
    events.append({"kind": "dice_banked", "seat": state["active"], "value": value, "count": len(taken),
                   "total": sum(int(d["value"]) for d in turn["banked"])})
    if not turn["rolled"]:
        _stop_hunting(state, events, cat, all_banked=True)
    elif then == "roll":
        _roll(state, turn["rolled"], rng, events, cat)
    elif then == "stop":
        _stop_hunting(state, events, cat)
    else:
        state["phase"] = "continue"


def _reroll(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    _roll(state, state["turn"]["rolled"], rng, events, cat)


def _stop(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    _stop_hunting(state, events, cat)


def _stop_hunting(state: JSON, events: list[JSON], cat: Catalog, all_banked: bool = False) -> None:
    """The hunting value is the sum of the banked dice; unbanked dice go back; crates in expeditions 9 and 10."""
    turn = state["turn"]
    turn["rolled"] = []
    turn["hunting_value"] = sum(int(d["value"]) for d in turn["banked"])
    crates = 0
    if crate_value(state, cat):
        values = [int(d["value"]) for d in turn["banked"]]
        crates = 2 * min(values.count(1), values.count(2), values.count(3))
        state["solo"]["crates"] += crates
        turn["crates_gained"] = crates
    events.append({"kind": "hunt_stopped", "seat": state["active"], "value": turn["hunting_value"],
                   "all_banked": all_banked, "crates": crates})
    state["phase"] = "purchase"
    _after_purchase(state, events, cat)


# purchases ------------------------------------------------------------------------------------------------------


def _crates_field(state: JSON, action: JSON) -> int:
    crates = _int_field(action, "crates", 0)
    if crates < 0:
        raise MalformedAction("monster.refuse.negative_crates")
    return crates


def _capture(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    card_id = action.get("card")
    if not isinstance(card_id, str):
        raise MalformedAction("monster.refuse.name_monster", example='{"type": "capture", "card": "bufomorph"}')
    card_id = _resolve_card(state, card_id, cat)
    crates = _crates_field(state, action)
    cost, why = capture_cost(state, card_id, crates, cat)
    if cost is None:
        raise IllegalAction("monster.refuse.cannot_capture", why=why)
    seat = state["active"]
    slot_index = next(i for i, s in enumerate(state["display"]) if s["card"] == card_id)
    slot = state["display"].pop(slot_index)
    crest_owner = slot["crest"]
    if crest_owner is not None:
        state["players"][crest_owner]["crests"] += 1
    if crates:
        state["solo"]["crates"] -= crates
    state["turn"]["spent"] += cost
    player = state["players"][seat]
    player["monsters"].append(card_id)
    events.append({"kind": "monster_captured", "seat": seat, "card": card_id, "cost": cost, "crates": crates,
                   "crest_returned_to": crest_owner})
    monster = cat.card(card_id)
    if monster.ability == "improve":
        improve(state, seat, monster.region, "immediate", events, cat)
    elif monster.ability == "steal":
        if state["mode"] == "solo":
            take_cages(state, seat, 1, "steal", events, cat)
        else:
            victims = steal_victims(state)
            if not victims:
                events.append({"kind": "steal_nothing", "seat": seat})
            elif len(victims) == 1:
                _steal_from(state, victims[0], rng, events)
            else:
                state["phase"] = "steal"
                state["turn"]["steal_pending"] = True
                return
    _after_purchase(state, events, cat)


def _resolve_card(state: JSON, text: str, cat: Catalog) -> str:
    """Accept a card id or its name in any language (as typed in a command, any case or accents) for a card in
    the display."""
    wanted = fold(text)
    ids = display_ids(state)
    if wanted in ids:
        return wanted
    for card_id in ids:
        if wanted in {fold(name) for name in cat.card(card_id).names.texts}:
            return card_id
    matches = [i for i in ids if i.startswith(wanted)
               or any(fold(name).startswith(wanted) for name in cat.card(i).names.texts)] if wanted else []
    if len(matches) == 1:
        return matches[0]
    by_name = {name: cat.card(i) for i in ids for name in cat.card(i).names.texts}
    guess = closest(text, by_name)
    if guess:
        names = Localized(*(", ".join(cat.card(i).names[language] for i in ids) for language in LANGUAGES))
        raise MalformedAction("monster.refuse.no_such_card", text=said(text), names=names,
                              guess=Text.of("monster.refuse.did_you_mean", name=by_name[guess].names))
    return text


def _steal(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    victim = _int_field(action, "seat")
    victims = steal_victims(state)
    if victim not in victims:
        names = Localized(*(", ".join(translate("monster.refuse.seat", language, name=said(state["players"][s]["name"]),
                                                seat=s) for s in victims) for language in LANGUAGES))
        raise IllegalAction("monster.refuse.steal_from", names=names)
    state["turn"]["steal_pending"] = False
    state["phase"] = "purchase"
    _steal_from(state, victim, rng, events)
    _after_purchase(state, events, cat)


def _steal_from(state: JSON, victim: int, rng: Rng, events: list[JSON]) -> None:
    """A random cage from `victim` (a noted cage is one of the cages it may be)."""
    seat = state["active"]
    loser = state["players"][victim]
    thief = state["players"][seat]
    pick = rng.randint(0, cage_count(loser) - 1)
    if pick < len(loser["cages"]):
        thief["cages"].append(loser["cages"].pop(pick))
    else:
        loser["noted_cages"] -= 1
        thief["noted_cages"] += 1
    state["turn"]["gained_cage"] = True
    events.append({"kind": "cage_stolen", "seat": seat, "victim": victim})


def _buy_cages(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    count = _int_field(action, "count", 1)
    if count < 1:
        raise MalformedAction("monster.refuse.buy_one")
    cost = count * cat.rules.cage_cost
    if cost > remaining_value(state):
        most = remaining_value(state) // cat.rules.cage_cost
        raise IllegalAction(Text.of(CAGES_COST, count=count, cost=cost, left=remaining_value(state),
                                    most=most))
    state["turn"]["spent"] += cost
    events.append({"kind": "cages_bought", "seat": state["active"], "count": count, "cost": cost})
    take_cages(state, state["active"], count, "bought", events, cat)
    _after_purchase(state, events, cat)


def _visit_trader(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    crates = _crates_field(state, action)
    cost, why = trader_price(state, crates, cat)
    if cost is None:
        raise IllegalAction("monster.refuse.cannot_visit", why=why)
    seat = state["active"]
    state["turn"]["spent"] += cost
    if crates:
        state["solo"]["crates"] -= crates
    if state["solo"] is not None:
        state["solo"]["trader_visits"] += 1
    events.append({"kind": "trader_visited", "seat": seat, "cost": cost, "crates": crates})
    take_cages(state, seat, cat.rules.trader_cages, "trader", events, cat)
    expedition = expedition_of(state, cat)
    if expedition is not None and expedition.trader_leaves:
        state["display"] = [s for s in state["display"] if s["card"] != TRADER_ID]
        events.append({"kind": "trader_left"})
    _after_purchase(state, events, cat)


def _done(state: JSON, action: JSON, rng: Rng, events: list[JSON], cat: Catalog) -> None:
    events.append({"kind": "purchases_done", "seat": state["active"], "unspent": remaining_value(state)})
    _end_turn(state, events, cat)


def _after_purchase(state: JSON, events: list[JSON], cat: Catalog) -> None:
    """Win checks after every change; when nothing more is affordable, the turn moves on by itself."""
    if check_victory(state, events, cat):
        return
    if state["phase"] == "purchase" and not purchase_options(state, cat):
        _end_turn(state, events, cat)


# phases 3 and 4 ---------------------------------------------------------------------------------------------------


def _end_turn(state: JSON, events: list[JSON], cat: Catalog) -> None:
    phase_three(state, events, cat)
    if check_victory(state, events, cat):
        return
    seat = state["active"]
    if state["mode"] == "solo":
        reveal_solo_card(state, events, cat=cat)
        if state["over"]:
            return
    elif state["turn"]["gained_cage"]:
        refill_display(state, events, cat)
    count = len(state["players"])
    if state["mode"] == "standard" and state["deck_used_up"] and seat == count - 1:
        end_standard_game(state, events, cat)
        return
    state["active"] = (seat + 1) % count
    if state["active"] == 0:
        state["round"] += 1
    state["turn"] = new_turn()
    state["phase"] = "camp"
    events.append({"kind": "turn_started", "seat": state["active"], "round": state["round"]})


_HANDLERS = {
    "improve": _solo_improve,
    "decline": _solo_decline,
    "camp": _choose_camp,
    "bank": _bank,
    "roll": _reroll,
    "stop": _stop,
    "capture": _capture,
    "steal": _steal,
    "cage": _buy_cages,
    "trader": _visit_trader,
    "done": _done,
}
# What each action does, in the words of a refusal ("You can't visit the Monster Trader now", not "trader").
_DOING = {
    "improve": deferred("monster.doing.improve"),
    "decline": deferred("monster.doing.decline"),
    "camp": deferred("monster.doing.camp"),
    "bank": deferred("monster.doing.bank"),
    "roll": deferred("monster.doing.roll"),
    "stop": deferred("monster.doing.stop"),
    "capture": deferred("monster.doing.capture"),
    "steal": deferred("monster.doing.steal"),
    "cage": deferred("monster.doing.cage"),
    "trader": deferred("monster.doing.trader"),
    "done": deferred("monster.doing.done"),
}
_PHASES = {
    "improve": ("solo_prepare",),
    "decline": ("solo_prepare",),
    "camp": ("camp",),
    "bank": ("bank",),
    "roll": ("continue",),
    "stop": ("continue",),
    "capture": ("purchase",),
    "steal": ("steal",),
    "cage": ("purchase",),
    "trader": ("purchase",),
    "done": ("purchase",),
}
