"""The solo campaign on Solinsula: each expedition's victory condition, the saved progress and its summary."""

from __future__ import annotations

from bot.core.protocol import JSON
from bot.games.monster_expedition.rules.catalog import Catalog, Expedition, catalog, region_name
from bot.games.monster_expedition.rules.effects import FINAL_LEVEL, finish_solo
from bot.games.monster_expedition.rules.state import cage_count, expedition_of, next_expedition, normalise_profile
from bot.i18n import counted, deferred, translate, translate_plural


def victory_text(expedition: Expedition, language: str = "en") -> str:
    """The victory condition in words."""
    kind = expedition.victory
    lang = language
    if kind == "display_and_cages":
        return translate("monster.victory.display_and_cages", lang, most=expedition.max_display,
                         cages=counted("cage", expedition.min_cages or 0, lang))
    if kind == "region":
        return translate("monster.victory.region", lang, region=region_name(expedition.region or "", lang),
                         count=expedition.min_count)
    if kind == "cages":
        return translate("monster.victory.cages", lang, cages=counted("cage", expedition.min_cages or 0, lang))
    if kind == "final_camps":
        return translate("monster.victory.final_camps", lang,
                         camps=translate_plural("monster.count.camp", expedition.min_camps or 0, lang))
    if kind == "trader":
        return translate("monster.victory.trader", lang, cost=expedition.trader_cost)
    if kind == "display_and_trader":
        return translate("monster.victory.display_and_trader", lang, most=expedition.max_display,
                         visits=translate_plural("monster.count.visit", expedition.min_visits or 0, lang))
    return translate("monster.victory.empty_display", lang)


def special_rules_text(expedition: Expedition, cat: Catalog | None = None, language: str = "en") -> list[str]:
    cat = cat or catalog()
    lang = language
    rules = []
    if expedition.draw_deck:
        rules.append(translate("monster.special.draw_deck", lang, count=expedition.draw_deck))
    if expedition.pair_improvements:
        rules.append(translate("monster.special.pairs", lang))
    if expedition.trader_cost is not None:
        rules.append(translate("monster.special.trader_cost", lang, cost=expedition.trader_cost))
    if expedition.crate_value:
        rules.append(translate("monster.special.crates", lang, value=expedition.crate_value))
    if expedition.trader_leaves:
        rules.append(translate("monster.special.trader_leaves", lang))
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


def progress_text(state: JSON, cat: Catalog | None = None, language: str = "en") -> str:
    """Where the player stands against the victory condition, in the goal's own words: "10 cards in the display
    (the goal: 8 or fewer); 0 cages (the goal: at least 1)" (public)."""
    cat = cat or catalog()
    lang = language
    expedition = expedition_of(state, cat)
    assert expedition is not None
    facts = progress(state, cat)

    def display(most: int) -> str:
        cards = counted("card", facts["display"], lang)
        if most:
            return translate("monster.progress.display", lang, cards=cards, most=most)
        return translate("monster.progress.display_none", lang, cards=cards)

    def cages() -> str:
        return translate("monster.progress.cages", lang, cages=counted("cage", facts["cages"], lang),
                         least=expedition.min_cages)

    def visits(least: int) -> str:
        return translate("monster.progress.visits", lang,
                         visits=translate_plural("monster.count.visit", facts["trader_visits"], lang), least=least)

    kind = expedition.victory
    if kind == "display_and_cages":
        parts = [display(expedition.max_display or 0), cages()]
    elif kind == "region":
        region = expedition.region or ""
        name = translate("monster.region.forest_short", lang) if region == "forest" else region_name(region, lang)
        parts = [translate_plural("monster.progress.region_display", facts["region_in_display"], lang, region=name),
                 translate("monster.progress.region_owned", lang, count=facts["count"], region=name,
                           least=expedition.min_count)]
    elif kind == "cages":
        parts = [cages()]
    elif kind == "final_camps":
        parts = [translate("monster.progress.final_camps", lang,
                           camps=translate_plural("monster.count.camp", facts["final_camps"], lang),
                           least=expedition.min_camps)]
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


def won_text(won: int, language: str = "en") -> str:
    """How much of the ten-expedition campaign is won, in words: "no expedition won yet", "3 of 10 expeditions won"."""
    if won == 0:
        return translate("monster.campaign.none_won", language)
    if won >= 10:
        return translate("monster.campaign.all_won", language)
    return translate("monster.campaign.some_won", language, count=won)


MARKS = {"won": deferred("monster.campaign.mark.won"), "next": deferred("monster.campaign.mark.next"),
         "open": deferred("monster.campaign.mark.open"), "locked": deferred("monster.campaign.mark.locked")}


def campaign_text(profile: JSON | None, cat: Catalog | None = None, language: str = "en") -> str:
    """A player's campaign progress in words, for /hunt campaign."""
    cat = cat or catalog()
    lang = language
    record = normalise_profile(profile or {})
    won = set(record["won"])
    lines = [translate("monster.campaign.title", lang, progress=won_text(len(won), lang))]
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
            attempts = translate_plural("monster.count.failed_attempt", failed, lang)
            if number in won:
                extra = translate("monster.campaign.failed", lang, attempts=attempts)
            else:
                extra = translate("monster.campaign.failed_improvements", lang, attempts=attempts,
                                  improvements=translate_plural("monster.count.camp_improvement", failed, lang))
        lines.append(f"{number}. {expedition.titles[lang]} [{translate(MARKS[mark], lang)}]{extra}")
    if len(won) == 10:
        lines.append(translate("monster.campaign.complete", lang))
    else:
        nxt = cat.expeditions[upcoming]
        lines.append(translate("monster.campaign.next", lang, number=upcoming, goal=victory_text(nxt, lang)))
    return "\n".join(lines)
