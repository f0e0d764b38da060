"""The solo campaign on Solinsula: each expedition's victory condition, the saved progress and its summary."""

from __future__ import annotations

from bot.core.names import plural
from bot.core.protocol import JSON
from bot.games.monster_expedition.catalog import REGION_NAMES, Catalog, Expedition, catalog
from bot.games.monster_expedition.effects import FINAL_LEVEL, finish_solo
from bot.games.monster_expedition.state import cage_count, expedition_of, next_expedition, normalise_profile


def victory_text(expedition: Expedition) -> str:
    """The victory condition in words."""
    kind = expedition.victory
    if kind == "display_and_cages":
        return (f"No more than {expedition.max_display} cards in the display and at least "
                f"{expedition.min_cages} cage{'s' if expedition.min_cages != 1 else ''}.")
    if kind == "region":
        name = REGION_NAMES[expedition.region or ""]
        return (f"No monster from the {name} in the display (Draco Chelonia doesn't count) and at least "
                f"{expedition.min_count} {name} monsters and/or cages.")
    if kind == "cages":
        return f"At least {plural(expedition.min_cages, 'cage')}."
    if kind == "final_camps":
        return f"At least {plural(expedition.min_camps, 'camp')} at the highest equipment level."
    if kind == "trader":
        return f"Visit the Monster Trader at a discounted hunting value of {expedition.trader_cost}."
    if kind == "display_and_trader":
        return (f"No more than {expedition.max_display} cards in the display and at least "
                f"{plural(expedition.min_visits, 'visit')} to the Monster Trader.")
    return "Not a single card in the wilderness display."


def special_rules_text(expedition: Expedition, cat: Catalog | None = None) -> list[str]:
    cat = cat or catalog()
    rules = []
    if expedition.draw_deck:
        rules.append(f"The draw deck has {expedition.draw_deck} cards.")
    if expedition.pair_improvements:
        rules.append("Banked 1s, 2s and 3s improve a camp only in pairs (each complete pair gives one improvement); "
                     "bonus values work as usual.")
    if expedition.trader_cost is not None:
        rules.append(f"The Monster Trader sells 6 cages for {expedition.trader_cost}.")
    if expedition.crate_value:
        rules.append(f"Each set of 1, 2 and 3 among your banked dice when you stop gives 2 crates; each crate lowers a "
                     f"monster's level or the trader's price by {expedition.crate_value}. A monster lowered to 0 or "
                     "below can be caught from any camp.")
    if expedition.trader_leaves:
        rules.append("The Monster Trader leaves the display after one visit.")
    return rules


def progress(state: JSON, cat: Catalog | None = None) -> JSON:
    """Where the player stands against the victory condition (public: display, cages, camps are all public)."""
    cat = cat or catalog()
    expedition = expedition_of(state, cat)
    assert expedition is not None
    player = state["players"][0]
    display = len(state["display"])
    cages = cage_count(player)
    facts: JSON = {"display": display, "cages": cages}
    kind = expedition.victory
    if kind == "display_and_cages":
        met = display <= (expedition.max_display or 0) and cages >= (expedition.min_cages or 0)
    elif kind == "region":
        region = expedition.region or ""
        in_display = sum(1 for s in state["display"] if _region(s["card"], cat) == region)
        owned = sum(1 for i in player["monsters"] if cat.card(i).region == region)
        facts.update({"region_in_display": in_display, "region_owned": owned, "count": owned + cages})
        met = in_display == 0 and owned + cages >= (expedition.min_count or 0)
    elif kind == "cages":
        met = cages >= (expedition.min_cages or 0)
    elif kind == "final_camps":
        top = sum(1 for level in player["camps"].values() if int(level) >= FINAL_LEVEL)
        facts["final_camps"] = top
        met = top >= (expedition.min_camps or 0)
    elif kind == "trader":
        visits = int(state["solo"]["trader_visits"])
        facts["trader_visits"] = visits
        met = visits >= 1
    elif kind == "display_and_trader":
        visits = int(state["solo"]["trader_visits"])
        facts["trader_visits"] = visits
        met = display <= (expedition.max_display or 0) and visits >= (expedition.min_visits or 0)
    else:
        met = display == 0
    facts["met"] = met
    return facts


def progress_text(state: JSON, cat: Catalog | None = None) -> str:
    """Where the player stands against the victory condition, in the goal's own words: "10 cards in the display
    (the goal: 8 or fewer); 0 cages (the goal: at least 1)" (public)."""
    cat = cat or catalog()
    expedition = expedition_of(state, cat)
    assert expedition is not None
    facts = progress(state, cat)

    def display(most: int) -> str:
        return f"{plural(facts['display'], 'card')} in the display (the goal: {most or 'none'}" + \
            (" or fewer)" if most else ")")

    def cages() -> str:
        return f"{plural(facts['cages'], 'cage')} (the goal: at least {expedition.min_cages})"

    def visits(least: int) -> str:
        return f"{plural(facts['trader_visits'], 'visit')} to the Monster Trader (the goal: at least {least})"

    kind = expedition.victory
    if kind == "display_and_cages":
        parts = [display(expedition.max_display or 0), cages()]
    elif kind == "region":
        name = {"forest": "Forest"}.get(expedition.region or "", REGION_NAMES[expedition.region or ""])
        parts = [f"{plural(facts['region_in_display'], f'{name} monster')} in the display (the goal: none)",
                 f"{facts['count']} {name} monsters and cages in all (the goal: at least {expedition.min_count})"]
    elif kind == "cages":
        parts = [cages()]
    elif kind == "final_camps":
        parts = [f"{plural(facts['final_camps'], 'camp')} at the highest equipment level (the goal: at least "
                 f"{expedition.min_camps})"]
    elif kind == "trader":
        parts = [visits(1)]
    elif kind == "display_and_trader":
        parts = [display(expedition.max_display or 0), visits(expedition.min_visits or 1)]
    else:
        parts = [display(0)]
    return "; ".join(parts)


def _region(card_id: str, cat: Catalog) -> str:
    return cat.card(card_id).region


def check_victory(state: JSON, events: list[JSON], cat: Catalog | None = None) -> bool:
    """Win at once (even mid-turn) when the condition holds."""
    if state["mode"] != "solo" or state["over"]:
        return False
    if progress(state, cat)["met"]:
        expedition = expedition_of(state, cat)
        assert expedition is not None
        finish_solo(state, "won", victory_text(expedition), events)
        return True
    return False


def updated_profile(state: JSON) -> JSON:
    """The campaign record after this expedition: a win is added, a loss counts one more failed attempt."""
    solo = state["solo"]
    profile = normalise_profile(solo["profile"])
    number = int(solo["expedition"])
    if solo["outcome"] == "won":
        profile["won"] = sorted({*profile["won"], number})
    elif solo["outcome"] == "lost":
        key = str(number)
        profile["failed_attempts"][key] = profile["failed_attempts"].get(key, 0) + 1
    return profile


def won_text(won: int) -> str:
    """How much of the ten-expedition campaign is won, in words: "no expedition won yet", "3 of 10 expeditions won"."""
    if won == 0:
        return "no expedition won yet, 10 to go"
    if won >= 10:
        return "all 10 expeditions won"
    return f"{won} of 10 expeditions won"


def campaign_text(profile: JSON | None, cat: Catalog | None = None) -> str:
    """A player's campaign progress in words, for /hunt campaign."""
    cat = cat or catalog()
    record = normalise_profile(profile or {})
    won = set(record["won"])
    lines = [f"Solinsula campaign: {won_text(len(won))}."]
    upcoming = next_expedition(record)
    for number in range(1, 11):
        expedition = cat.expeditions[number]
        failed = record["failed_attempts"].get(str(number), 0)
        if number in won:
            mark = "won"
        elif number == upcoming and len(won) < 10:
            mark = "next"
        elif all(n in won for n in range(1, number)):
            mark = "open"
        else:
            mark = "locked"
        extra = ""
        if failed:
            extra = f" - {failed} failed attempt{'s' if failed != 1 else ''}"
            if number not in won:
                extra += f", {failed} camp improvement{'s' if failed != 1 else ''} before the next try"
        lines.append(f"{number}. {expedition.title} [{mark}]{extra}")
    if len(won) == 10:
        lines.append("Campaign complete: the Royal Monstrological Society is impressed! Replay any expedition.")
    else:
        nxt = cat.expeditions[upcoming]
        lines.append(f"Next: expedition {upcoming} - {victory_text(nxt)}")
    return "\n".join(lines)
