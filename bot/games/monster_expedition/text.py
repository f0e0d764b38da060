"""Monster Expedition in words: events for the channel, whose turn it is, /game mine, and the rules summary."""

from __future__ import annotations

from bot.core.names import a_number, plural
from bot.core.protocol import JSON
from bot.games.monster_expedition.catalog import (
    IMPROVEMENT_NUMBER,
    REGION_DIE,
    REGION_NAMES,
    REGIONS,
    Card,
    Catalog,
    catalog,
)
from bot.games.monster_expedition.effects import FINAL_LEVEL, cage_points, monster_points, ranking, total_points
from bot.games.monster_expedition.rules import bankable_numbers, remaining_value
from bot.games.monster_expedition.solo import progress_text, special_rules_text, updated_profile, victory_text
from bot.games.monster_expedition.state import (
    black_dice,
    cage_count,
    expedition_of,
    next_expedition,
    symbiosis_groups,
)

CAUSES = {
    "dice": "with a banked {n}",
    "pair": "with a pair",
    "camp_bonus": "with the camp's bonus value",
    "monster_bonus": "with a monster's bonus value",
    "misthrow": "thanks to a misthrow monster",
    "immediate": "by the monster's immediate effect",
    "campaign": "before setting out (failed attempts)",
}


def camp_level(level: int) -> str:
    """A camp level, written one way everywhere: "level 3 of 8", "level 8 of 8 (final)"."""
    final = " (final)" if int(level) >= FINAL_LEVEL else ""
    return f"level {level} of {FINAL_LEVEL}{final}"


def _name(state: JSON, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return str(state["players"][int(seat)]["name"])


def _dice_text(dice: list[JSON]) -> str:
    return ", ".join(f"{d['value']}" + ("" if d["colour"] == "black" else f" ({d['colour']})") for d in dice)


def describe(state: JSON, event: JSON, cat: Catalog | None = None) -> str:
    """One event as a public sentence (never names a caged monster)."""
    cat = cat or catalog()
    kind = event.get("kind")
    who = _name(state, event.get("seat"))
    if kind == "camp_chosen":
        return (f"{who} hunts from the {REGION_NAMES[event['region']]} camp ({camp_level(event['level'])}) "
                f"with {plural(event['dice'], 'die', 'dice')}.")
    if kind == "dice_rolled":
        return f"{who} rolls {_dice_text(event['dice'])}."
    if kind == "dice_banked":
        dice = f"{event['count']} × {event['value']}" if event["count"] > 1 else a_number(event["value"])
        return f"{who} banks {dice} (banked total {event['total']})."
    if kind == "misthrow":
        lost = event.get("lost")
        return f"Misthrow! {who} loses a banked {lost['value']}." if lost else f"Misthrow! {who} had nothing to lose."
    if kind == "hunt_stopped":
        crates = f" and gains {plural(event['crates'], 'crate')}" if event.get("crates") else ""
        return f"{who} stops with a hunting value of {event['value']}{crates}."
    if kind == "monster_captured":
        monster = cat.card(event["card"])
        crates = f" using {plural(event['crates'], 'crate')}" if event.get("crates") else ""
        crest = ""
        if event.get("crest_returned_to") is not None:
            crest = f"; {_name(state, event['crest_returned_to'])}'s crest goes home"
        return f"{who} captures {monster.name} for {event['cost']}{crates}{crest}."
    if kind == "cages_bought":
        return f"{who} buys {plural(event['count'], 'cage')} for {event['cost']}."
    if kind == "cages_taken":
        if event["reason"] == "bought":
            return f"{who} now has {plural(event['total'], 'cage')}."
        if event["reason"] == "final_level":
            return f"{who} reaches a camp's final level and takes {plural(event['count'], 'cage')}."
        if event["reason"] == "steal":
            return f"{who} takes a cage from the reserve deck."
        return f"{who} takes {plural(event['count'], 'cage')} ({event['total']} in all)."
    if kind == "trader_visited":
        crates = f" using {plural(event['crates'], 'crate')}" if event.get("crates") else ""
        return f"{who} visits the Monster Trader for {event['cost']}{crates}: {plural(cat.rules.trader_cages, 'cage')}."
    if kind == "trader_left":
        return "The Monster Trader leaves the display."
    if kind == "cage_stolen":
        return f"{who} steals a random cage from {_name(state, event['victim'])}."
    if kind == "steal_nothing":
        return f"{who} finds no cage to steal."
    if kind == "camp_improved":
        region = event["region"]
        cause = CAUSES.get(event["cause"], "").format(n=IMPROVEMENT_NUMBER[region])
        flip = " (turned to side B)" if event.get("flipped") else ""
        return (f"{who}'s {REGION_NAMES[region]} camp rises to {camp_level(event['level'])}{flip} {cause}."
                .replace(" .", "."))
    if kind == "purchases_done":
        lost = f" ({event['unspent']} unspent is lost)" if event.get("unspent") else ""
        return f"{who} is done hunting{lost}."
    if kind == "display_refilled":
        cards = [cat.card(c["card"]).name for c in event["cards"]]
        if not cards:
            if "short" not in event:  # recorded before the event said how many cards were missing
                return "No card is added to the display."
            if event["short"]:
                return "Both decks are empty: the display is not refilled."
            return "The display is full: no card is added."
        crests = sum(1 for c in event["cards"] if c["crest"] is not None)
        crest_text = ""
        if crests:
            which = ("it" if len(cards) == 1 else "each") if crests == len(cards) else plural(crests, "of them",
                                                                                               "of them")
            crest_text = f"; {who} puts a crest on {which}"
        return f"The display is refilled with {', '.join(cards)}{crest_text}."
    if kind == "card_revealed":
        name = cat.card(event["card"]).name
        return (f"{name} appears in the display ({plural(event['display'], 'card')}, {event['deck']} left in the "
                "deck).")
    if kind == "deck_used_up":
        return "The draw deck is used up: this is the last round."
    if kind == "improvements_declined":
        return "The expedition sets out without further camp improvements."
    if kind == "turn_started":
        return f"Round {event['round']}: {who}'s turn."
    if kind == "crested_cards_caged":
        parts = [f"{_name(state, s)} {n}" for s, n in enumerate(event["counts"]) if n]
        return f"Crested cards become cages: {', '.join(parts)}."
    if kind == "game_ended":
        camps = event.get("camp_levels", [0] * len(event["scores"]))
        ranked = ranking({"scores": event["scores"], "winners": event["winners"], "camp_levels": camps})
        scores = ", ".join(f"{_name(state, s)} {event['scores'][s]} VP" for s in ranked)
        winners = " and ".join(_name(state, s) for s in event["winners"])
        return f"The hunt is over: {scores}. {winners} win{'s' if len(event['winners']) == 1 else ''}!"
    if kind == "expedition_won":
        return f"Expedition {event['expedition']} won!"
    if kind == "expedition_lost":
        return f"Expedition {event['expedition']} lost: {event['reason']}."
    if kind == "game_started":
        return "The hunt begins."
    return str(kind).replace("_", " ")


END_EVENTS = ("game_ended", "expedition_won", "expedition_lost")


def _telling(event: JSON) -> bool:
    """Whether an event is worth a place in the header's one-line summary of the last move."""
    kind = event.get("kind")
    if kind in ("turn_started", *END_EVENTS):
        return False  # the result is the turn line's whole text once the game is over: never said twice
    if kind == "cages_taken":
        return event.get("reason") == "final_level"
    if kind == "display_refilled":
        return bool(event.get("cards")) or bool(event.get("short"))
    return True


def last_move(state: JSON, cat: Catalog | None = None) -> str:
    """The latest action in words: its most telling events, at most four sentences."""
    events = [e for e in state.get("last_events", []) if _telling(e)]
    if not events:
        return "The hunt begins." if not state.get("recent") else ""
    return " ".join(describe(state, e, cat) for e in events[-4:])


def turn_text(state: JSON, cat: Catalog | None = None) -> str:
    cat = cat or catalog()
    if state["over"]:
        if state["mode"] == "solo":
            return _after_solo(state)
        return final_summary(state, cat)
    who = _name(state, state["active"])
    phase = state["phase"]
    turn = state["turn"]
    if phase == "solo_prepare":
        left = state["solo"]["prep_left"]
        return f"{who}: improve a camp ({plural(left, 'improvement')} left) or decline"
    if phase == "camp":
        return f"{who}: pick a camp (aerie, depths or forest)"
    if phase == "bank":
        return f"{who}: bank a number ({', '.join(map(str, bankable_numbers(state)))})"
    if phase == "continue":
        banked = sum(int(d["value"]) for d in turn["banked"])
        return f"{who}: roll {plural(len(turn['rolled']), 'die', 'dice')} again or stop at {banked}"
    if phase == "purchase":
        return f"{who}: spend {remaining_value(state)} on monsters or cages, or done"
    if phase == "steal":
        return f"{who}: choose whose cage to steal"
    return f"{who} to move"


def _after_solo(state: JSON) -> str:
    """The board's headline once a solo expedition is over: what comes next (the result panel and the posted
    summary already say won or lost, and why)."""
    solo = state["solo"]
    following = next_expedition(updated_profile(state))
    if solo["outcome"] == "won":
        if following == 1:
            return "The whole Solinsula campaign is won! Replay any expedition with /hunt solo expedition:<1-10>."
        return f"Next: expedition {following}; set out with /hunt solo."
    return (f"Try expedition {solo['expedition']} again with /hunt solo: each failed attempt gives one more camp "
            "improvement before you set out.")


def final_summary(state: JSON, cat: Catalog | None = None) -> str:
    if state["mode"] == "solo":
        solo = state["solo"]
        who = _name(state, 0)
        if solo["outcome"] == "won":
            return f"{who} won expedition {solo['expedition']}: {solo['reason'].rstrip('.')}."
        return f"{who} lost expedition {solo['expedition']}: {solo['reason'].rstrip('.')}."
    cat = cat or catalog()
    result = state["result"]
    # Best first, each score with where it came from: the log's last line already lists the bare totals.
    ranked = ranking(result)
    scores = ", ".join(
        f"{_name(state, s)} {result['scores'][s]} VP ({monster_points(state['players'][s], cat)} from monsters + "
        f"{cage_points(state['players'][s], cat)} from cages)" for s in ranked)
    winners = " and ".join(_name(state, s) for s in result["winners"])
    tie = " (tie broken by camp levels)" if result["tie_break_used"] and len(result["winners"]) == 1 else ""
    shared = " share the win" if len(result["winners"]) > 1 else " wins"
    return f"{winners}{shared}{tie}: {scores}."


ABILITY_WORDS = {
    "misthrow": "misthrow improvement",
    "steal": "stole a cage on capture",
    "improve": "improved a camp on capture",
    "none": "",
}


def _ability_words(card: Card) -> str:
    if card.ability == "bonus":
        return f"bonus value {card.bonus_value}"
    return ABILITY_WORDS.get(card.ability, "")


PRIVATE_LIMIT = 1990
"""Discord cuts a private answer at this length: the text is built to fit, most secret facts first."""


def private_text(state: JSON, seat: int, cat: Catalog | None = None) -> str:
    """/game mine: your score, your face-down cages (only you see them), captured monsters, symbiosis sets, camps;
    in solo, the expedition's goal and how far you are."""
    cat = cat or catalog()
    for detailed in (True, False):
        text = _private_text(state, seat, cat, detailed)
        if len(text) <= PRIVATE_LIMIT:
            return text
    return text[:PRIVATE_LIMIT - 1] + "…"


def _private_text(state: JSON, seat: int, cat: Catalog, detailed: bool) -> str:
    player = state["players"][seat]
    lines = [f"**{player['name']}** — camp set {player['set']}"]
    if state["mode"] == "standard":
        score = "Final score" if state["over"] else "Score so far"
        lines.append(f"{score}: {total_points(player, cat)} VP ({monster_points(player, cat)} from monsters, "
                     f"{cage_points(player, cat)} from cages); {plural(player['crests'], 'crest')} in hand.")
    else:
        expedition = expedition_of(state, cat)
        assert expedition is not None
        lines.append(f"Expedition {expedition.number} goal: {victory_text(expedition)}")
        lines.append(f"Progress: {progress_text(state, cat)}.")
        if expedition.crate_value:
            lines.append(f"Crates: {state['solo']['crates']} (each lowers a cost by {expedition.crate_value}).")
    cages = sorted((cat.card(i) for i in player["cages"]), key=lambda m: (-m.caged_vp, m.name))
    if cages:
        lines.append(f"Your cages ({cage_count(player)}, {cage_points(player, cat)} VP; face down, only you see "
                     "them): " + ", ".join(f"{m.name} {m.caged_vp} VP" for m in cages) + ".")
    elif not player["noted_cages"]:
        lines.append("Your cages: none yet.")
    if player["noted_cages"]:
        lines.append(f"Noted cages (both decks were empty): {player['noted_cages']} × "
                     f"{cat.rules.noted_cage_vp} VP.")
    monsters = [cat.card(i) for i in player["monsters"]]
    if monsters:
        def monster_words(card: Card) -> str:
            if not detailed:
                return f"{card.name} {card.vp}"
            ability = _ability_words(card)
            return (f"{card.name} ({REGION_NAMES[card.region]}, {card.vp} VP, {card.symbiosis}"
                    f"{', ' + ability if ability else ''})")
        lines.append(f"Captured monsters ({len(monsters)}, {monster_points(player, cat)} VP): "
                     + ", ".join(monster_words(m) for m in monsters) + ".")
    else:
        lines.append("Captured monsters: none yet.")
    groups = symbiosis_groups(player["monsters"], cat)
    if groups:
        extra = plural(len(groups), "black die", "black dice")
        lines.append(f"Symbiosis sets: {len(groups)} (+{extra}, {cat.rules.max_black_dice} black at most): "
                     + "; ".join(
            " + ".join(f"{cat.card(i).name} ({cat.card(i).symbiosis})" if detailed else cat.card(i).name
                       for i in group) for group in groups) + ".")
    else:
        lines.append("Symbiosis sets: none (three different colours make a set; wild counts as any).")
    lines.append("Camps: " + "; ".join(
        f"{REGION_NAMES[r]} {camp_level(player['camps'][r])} "
        f"({REGION_DIE[r]} + {black_dice(state, seat, r, cat)} black)"
        for r in REGIONS) + ".")
    return "\n".join(lines)


def rules_text(mode: str, cat: Catalog | None = None) -> str:
    cat = cat or catalog()
    r = cat.rules
    common = [
        "**Monster Expedition** — push your luck with the dice, capture monsters and cages.",
        "1. Pick a camp: its level gives its coloured die plus black dice, +1 black die per symbiosis set "
        f"(3 different colours; wild = any), never more than {r.max_black_dice} black.",
        "2. Roll; bank all dice of one number not banked yet this turn; roll the rest again or stop. A roll showing "
        "only banked numbers is a misthrow: you lose one highest banked die (its number stays used), then roll on or "
        "stop. Hunting value = sum of banked dice.",
        f"   Spend it on monsters of your camp's region (Draco Chelonia from any camp) at their level, cages at "
        f"{r.cage_cost}, the Monster Trader's {r.trader_cages} cages at {r.trader_cost}; leftover is lost.",
        "3. Improvements, automatic: banked 1s improve the Aerie, 2s the Depths, 3s the Enchanted Forest; bonus "
        "values on camp levels and monsters improve the matching camp whoever banked them (active player first, "
        "then the others in order). A bonus value is read from the camp's current level, so one improvement can "
        "open the next; each die improves a given camp at most once. 7 improvements at most; side B after the 4th; "
        "the final level gives "
        f"{r.final_level_cages} cages at once. Misthrow monsters improve once per turn on any misthrow.",
        "   Immediate effects on capture: steal a random cage (you pick the opponent), or improve the matching camp. "
        "Caged monsters have no abilities.",
        "   Bonus and misthrow improvements are automatic: a player cannot decline them.",
    ]
    if mode == "solo":
        lines = [*common,
                 "4. Solo: cages always come from the reserve deck; at the end of every round one card is revealed "
                 "into the display (no crests, no refill to 10). You win the moment the expedition's condition holds; "
                 f"you lose with {r.solo_loss_display} display cards (the trader counts) or when a card must be "
                 "revealed from an empty draw deck. Each failed attempt gives one more optional camp improvement "
                 "for the next try of that expedition.",
                 "Expeditions:"]
        for number, expedition in sorted(cat.expeditions.items()):
            specials = " ".join(special_rules_text(expedition, cat))
            lines.append(f"{number}. {expedition.title}: {victory_text(expedition)} {specials}".rstrip())
        return "\n".join(lines)
    return "\n".join([
        *common,
        "4. Refill: only if you gained a cage this turn (bought, from the trader, a final level or stolen), refill "
        f"the display to {r.display_size} and put one of your {r.crests} crests on each new card; a captured card's "
        "crest returns to its owner.",
        "End: when the draw deck is used up, the round is finished (the reserve deck supplies cages and refills; "
        f"with both empty, cages are noted at {r.noted_cage_vp} VP). Crested display cards go to their owners as "
        "cages. Most VP wins; ties go to the highest sum of camp levels, then the win is shared.",
        "Caged VP: a monster worth 2 VP or more is worth fewer VP caged (a 5 VP monster is worth 3); a 1 VP monster "
        "is worth 1 VP caged, like a noted cage: a cage is never worth nothing.",
        f"Draw deck: {r.draw_deck[2]}/{r.draw_deck[3]}/{r.draw_deck[4]} cards for 2/3/4 players; the 3 cards "
        "revealed at setup come from it and get no crests.",
    ])
