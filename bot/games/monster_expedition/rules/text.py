"""Monster Expedition in words: events for the channel, whose turn it is, /game mine, and the rules summary."""

from __future__ import annotations

import re

from bot.core.names import a_number
from bot.core.protocol import JSON
from bot.games.monster_expedition.rules.catalog import (
    IMPROVEMENT_NUMBER,
    REGION_DIE,
    REGIONS,
    Card,
    Catalog,
    catalog,
    region_name,
)
from bot.games.monster_expedition.rules.effects import FINAL_LEVEL, cage_points, monster_points, ranking, total_points
from bot.games.monster_expedition.rules.rules import bankable_numbers, remaining_value
from bot.games.monster_expedition.rules.solo import progress_text, special_rules_text, updated_profile, victory_text
from bot.games.monster_expedition.rules.state import (
    black_dice,
    cage_count,
    expedition_of,
    next_expedition,
    symbiosis_groups,
)
from bot.i18n import DEFAULT_LANGUAGE, Text, counted, deferred, language_of, said, translate, translate_plural


class WordedText(str, Text):
    """A text already put into words in every language (a final summary lists every player's score, which no
    single message holds; a computer hunter's reason). It is the English text wherever a plain string is expected,
    and a Text, called with the reader's locale, wherever the language is known."""

    words: tuple[tuple[str, str], ...]

    def __new__(cls, english: str, words: tuple[tuple[str, str], ...] = ()) -> WordedText:
        worded = super().__new__(cls, english)
        object.__setattr__(worded, "message_id", "")
        object.__setattr__(worded, "values", ())
        object.__setattr__(worded, "words", words or ((DEFAULT_LANGUAGE, english),))
        return worded

    def __init__(self, english: str, words: tuple[tuple[str, str], ...] = ()) -> None:
        pass  # everything is set in __new__ (a str is immutable)

    # Ignored override: str's own returns (str,); this one also hands pickle the words in every language,
    # which __new__ takes back (a worded string crosses to the render processes whole).
    def __getnewargs__(self) -> tuple[str, tuple[tuple[str, str], ...]]:  # type: ignore[override]
        return str(self), self.words

    def __call__(self, locale: object = DEFAULT_LANGUAGE) -> str:
        worded = dict(self.words)
        return worded.get(language_of(locale), worded[DEFAULT_LANGUAGE])

    def __str__(self) -> str:
        return str.__str__(self)


CAUSES = {
    "dice": deferred("monster.cause.dice"),
    "pair": deferred("monster.cause.pair"),
    "camp_bonus": deferred("monster.cause.camp_bonus"),
    "monster_bonus": deferred("monster.cause.monster_bonus"),
    "misthrow": deferred("monster.cause.misthrow"),
    "immediate": deferred("monster.cause.immediate"),
    "campaign": deferred("monster.cause.campaign"),
}
"""Why a camp improved, as message ids (worded in the reader's language)."""
COLOURS = {"yellow": deferred("monster.colour.yellow"), "blue": deferred("monster.colour.blue"),
           "green": deferred("monster.colour.green"), "black": deferred("monster.colour.black")}
SYMBIOSIS = {"red": deferred("monster.symbiosis.red"), "purple": deferred("monster.symbiosis.purple"),
             "white": deferred("monster.symbiosis.white"), "wild": deferred("monster.symbiosis.wild")}


def colour_name(colour: str, language: str = "en") -> str:
    """A die's colour in words ("yellow", "gelb")."""
    return translate(COLOURS[colour], language) if colour in COLOURS else colour


def symbiosis_name(symbol: str, language: str = "en") -> str:
    """A symbiosis symbol in words ("purple", "lila"; the split one is "wild"/"Joker")."""
    return translate(SYMBIOSIS[symbol], language) if symbol in SYMBIOSIS else symbol


def camp_level(level: int, language: str = "en") -> str:
    """A camp level, written one way everywhere: "level 3 of 8", "level 8 of 8 (final)"."""
    if int(level) >= FINAL_LEVEL:
        return translate("monster.camp_level.final", language, level=int(level), final=FINAL_LEVEL)
    return translate("monster.camp_level", language, level=int(level), final=FINAL_LEVEL)


def vp(points: int, language: str = "en") -> str:
    """Victory points: "12 VP", "12 SP"."""
    return translate("monster.vp", language, points=points)


def joined_and(names: list[str], language: str = "en") -> str:
    """Names joined by "and" ("Ann and Bo and Cy", as the messages always said)."""
    text = names[0] if names else ""
    for name in names[1:]:
        text = translate("monster.and", language, first=text, second=name)
    return text


def _name(state: JSON, seat: int | None, language: str = "en") -> str:
    if seat is None:
        return translate("monster.nobody", language)
    return said(state["players"][int(seat)]["name"])


def _dice_text(dice: list[JSON], language: str = "en") -> str:
    return ", ".join(f"{d['value']}" + ("" if d["colour"] == "black" else f" ({colour_name(d['colour'], language)})")
                     for d in dice)


def card_name(card: Card, language: str = "en") -> str:
    return card.names[language]


def solo_reason(state: JSON, language: str = "en", cat: Catalog | None = None) -> str:
    """Why a solo expedition ended, in `language` (the state keeps the English words of older saves: the German
    ones are worded again from the facts)."""
    solo = state["solo"]
    reason = str(solo.get("reason") or "")
    if language == "en" or not reason:
        return reason
    return _reason_in(state, reason, solo.get("outcome"), language, cat)


def _reason_in(state: JSON, reason: str, outcome: object, language: str, cat: Catalog | None) -> str:
    if outcome == "won":
        expedition = expedition_of(state, cat or catalog())
        return victory_text(expedition, language) if expedition is not None else reason
    if reason.startswith("no card left"):
        return translate("monster.solo.lost.deck_empty", language)
    found = re.match(r"(\d+) cards", reason)
    if found:
        return translate("monster.solo.lost.display", language, count=int(found.group(1)))
    return reason


def describe(state: JSON, event: JSON, cat: Catalog | None = None, language: str = "en") -> str:
    """One event as a public sentence (never names a caged monster)."""
    cat = cat or catalog()
    kind = str(event.get("kind"))  # an unknown kind is worded from its name
    who = _name(state, event.get("seat"), language)
    fixed = _FIXED_SENTENCES.get(kind)
    if fixed is not None:
        return translate(fixed, language)
    sentence = _SENTENCES.get(kind)
    if sentence is not None:
        return sentence(state, event, cat, who, language)
    return kind.replace("_", " ")


# The events whose sentence has no blanks.
_FIXED_SENTENCES = {
    "trader_left": deferred("monster.event.trader_left"), "deck_used_up": deferred("monster.event.deck_used_up"),
    "improvements_declined": deferred("monster.event.improvements_declined"),
    "game_started": deferred("monster.event.game_started"),
}


def _camp_chosen(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.camp_chosen", lang, who=who, region=region_name(event["region"], lang),
                     level=camp_level(event["level"], lang),
                     dice=translate_plural("monster.count.dice_with", int(event["dice"]), lang))


def _dice_rolled(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.dice_rolled", lang, who=who, dice=_dice_text(event["dice"], lang))


def _dice_banked(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    if event["count"] > 1:
        dice = translate("monster.dice.many", lang, count=event["count"], value=event["value"])
    else:
        dice = a_number(event["value"]) if lang == "en" else translate("monster.dice.one", lang, value=event["value"])
    return translate("monster.event.dice_banked", lang, who=who, dice=dice, total=event["total"])


def _misthrow(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    lost = event.get("lost")
    if lost:
        return translate("monster.event.misthrow", lang, who=who, value=lost["value"])
    return translate("monster.event.misthrow_nothing", lang, who=who)


def _hunt_stopped(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    if event.get("crates"):
        return translate("monster.event.hunt_stopped_crates", lang, who=who, value=event["value"],
                         crates=translate_plural("monster.count.crate", int(event["crates"]), lang))
    return translate("monster.event.hunt_stopped", lang, who=who, value=event["value"])


def _monster_captured(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    monster = cat.card(event["card"])
    crest = ""
    if event.get("crest_returned_to") is not None:
        crest = translate("monster.event.crest_home", lang, owner=_name(state, event["crest_returned_to"], lang))
    return translate("monster.event.captured", lang, who=who, monster=monster.names[lang], cost=event["cost"],
                     crates=_using_crates(event, lang), crest=crest)


def _cages_bought(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.cages_bought", lang, who=who, cages=counted("cage", event["count"], lang),
                     cost=event["cost"])


def _cages_taken(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    """Cages gained: worded by why (bought, the final camp level, a steal from the reserve, or otherwise)."""
    if event["reason"] == "bought":
        return translate("monster.event.cages_now", lang, who=who, cages=counted("cage", event["total"], lang))
    if event["reason"] == "final_level":
        return translate("monster.event.cages_final_level", lang, who=who, cages=counted("cage", event["count"], lang))
    if event["reason"] == "steal":
        return translate("monster.event.cage_from_reserve", lang, who=who)
    return translate("monster.event.cages_taken", lang, who=who, cages=counted("cage", event["count"], lang),
                     total=event["total"])


def _trader_visited(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.trader_visited", lang, who=who, cost=event["cost"],
                     crates=_using_crates(event, lang), cages=counted("cage", cat.rules.trader_cages, lang))


def _cage_stolen(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.cage_stolen", lang, who=who, victim=_name(state, event["victim"], lang))


def _steal_nothing(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.steal_nothing", lang, who=who)


def _camp_improved(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    region = event["region"]
    cause = CAUSES.get(event["cause"])
    flip = translate("monster.event.flipped", lang) if event.get("flipped") else ""
    because = " " + translate(cause, lang, n=IMPROVEMENT_NUMBER[region]) if cause else ""
    return translate("monster.event.camp_improved", lang, who=who, region=region_name(region, lang),
                     level=camp_level(event["level"], lang), flip=flip, cause=because)


def _purchases_done(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    if event.get("unspent"):
        return translate("monster.event.done_lost", lang, who=who, unspent=event["unspent"])
    return translate("monster.event.done", lang, who=who)


def _display_refilled(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    """The new display cards and who placed crests on them (or why no card came)."""
    cards = [cat.card(c["card"]).names[lang] for c in event["cards"]]
    if not cards:
        if "short" not in event:  # recorded before the event said how many cards were missing
            return translate("monster.event.refill_none", lang)
        if event["short"]:
            return translate("monster.event.refill_short", lang)
        return translate("monster.event.refill_full", lang)
    crests = sum(1 for c in event["cards"] if c["crest"] is not None)
    crest_text = ""
    if crests == len(cards):
        which = (deferred("monster.event.crest_on_it") if len(cards) == 1
                 else deferred("monster.event.crest_on_each"))
        crest_text = translate(which, lang, who=who)
    elif crests:
        crest_text = translate("monster.event.crest_on_some", lang, who=who, count=crests)
    return translate("monster.event.refilled", lang, cards=", ".join(cards), crests=crest_text)


def _card_revealed(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.card_revealed", lang, name=cat.card(event["card"]).names[lang],
                     cards=counted("card", event["display"], lang), deck=event["deck"])


def _turn_started(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.turn_started", lang, round=event["round"], who=who)


def _crested_cards_caged(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    parts = [f"{_name(state, s, lang)} {n}" for s, n in enumerate(event["counts"]) if n]
    return translate("monster.event.crested_caged", lang, counts=", ".join(parts))


def _game_ended(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    """The final scores, best first, and the winner or winners."""
    camps = event.get("camp_levels", [0] * len(event["scores"]))
    ranked = ranking({"scores": event["scores"], "winners": event["winners"], "camp_levels": camps})
    scores = ", ".join(f"{_name(state, s, lang)} {vp(event['scores'][s], lang)}" for s in ranked)
    winners = joined_and([_name(state, s, lang) for s in event["winners"]], lang)
    message = (deferred("monster.event.game_ended_one") if len(event["winners"]) == 1
               else deferred("monster.event.game_ended_many"))
    return translate(message, lang, scores=scores, winners=winners)


def _expedition_won(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    return translate("monster.event.expedition_won", lang, number=event["expedition"])


def _expedition_lost(state: JSON, event: JSON, cat: Catalog, who: str, lang: str) -> str:
    reason = str(event["reason"])
    if lang != "en":
        reason = _reason_in(state, reason, "lost", lang, cat)
    return translate("monster.event.expedition_lost", lang, number=event["expedition"], reason=reason)


# Each event kind's sentence (an unknown kind is worded from its name).
_SENTENCES = {
    "camp_chosen": _camp_chosen, "dice_rolled": _dice_rolled, "dice_banked": _dice_banked, "misthrow": _misthrow,
    "hunt_stopped": _hunt_stopped, "monster_captured": _monster_captured, "cages_bought": _cages_bought,
    "cages_taken": _cages_taken, "trader_visited": _trader_visited, "cage_stolen": _cage_stolen,
    "steal_nothing": _steal_nothing, "camp_improved": _camp_improved, "purchases_done": _purchases_done,
    "display_refilled": _display_refilled, "card_revealed": _card_revealed, "turn_started": _turn_started,
    "crested_cards_caged": _crested_cards_caged, "game_ended": _game_ended, "expedition_won": _expedition_won,
    "expedition_lost": _expedition_lost,
}


def _using_crates(event: JSON, language: str) -> str:
    if not event.get("crates"):
        return ""
    return translate("monster.event.using_crates", language,
                     crates=translate_plural("monster.count.crate", int(event["crates"]), language))


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


def last_move(state: JSON, cat: Catalog | None = None, language: str = "en") -> str:
    """The latest action in words: its most telling events, at most four sentences."""
    events = [e for e in state.get("last_events", []) if _telling(e)]
    if not events:
        return translate("monster.event.game_started", language) if not state.get("recent") else ""
    return " ".join(describe(state, e, cat, language) for e in events[-4:])


def turn_text(state: JSON, cat: Catalog | None = None, language: str = "en") -> str:
    cat = cat or catalog()
    lang = language
    if state["over"]:
        if state["mode"] == "solo":
            return _after_solo(state, lang)
        return final_summary(state, cat, lang)
    who = _name(state, state["active"], lang)
    phase = state["phase"]
    turn = state["turn"]
    if phase == "solo_prepare":
        left = translate_plural("monster.count.improvement", int(state["solo"]["prep_left"]), lang)
        return translate("monster.turn.solo_prepare", lang, who=who, left=left)
    if phase == "camp":
        return translate("monster.turn.camp", lang, who=who)
    if phase == "bank":
        return translate("monster.turn.bank", lang, who=who, numbers=", ".join(map(str, bankable_numbers(state))))
    if phase == "continue":
        banked = sum(int(d["value"]) for d in turn["banked"])
        return translate("monster.turn.continue", lang, who=who, dice=counted("die", len(turn["rolled"]), lang),
                         banked=banked)
    if phase == "purchase":
        return translate("monster.turn.purchase", lang, who=who, value=remaining_value(state))
    if phase == "steal":
        return translate("monster.turn.steal", lang, who=who)
    return translate("monster.turn.other", lang, who=who)


def _after_solo(state: JSON, language: str = "en") -> str:
    """The board's headline once a solo expedition is over: what comes next (the result panel and the posted
    summary already say won or lost, and why)."""
    solo = state["solo"]
    following = next_expedition(updated_profile(state))
    if solo["outcome"] == "won":
        if following == 1:
            return translate("monster.after_solo.campaign_won", language)
        return translate("monster.after_solo.next", language, number=following)
    return translate("monster.after_solo.retry", language, number=solo["expedition"])


def final_summary(state: JSON, cat: Catalog | None = None, language: str = "en") -> str:
    lang = language
    if state["mode"] == "solo":
        solo = state["solo"]
        who = _name(state, 0, lang)
        reason = solo_reason(state, lang, cat).rstrip(".")
        message = (deferred("monster.summary.solo_won") if solo["outcome"] == "won"
                   else deferred("monster.summary.solo_lost"))
        return translate(message, lang, who=who, number=solo["expedition"], reason=reason)
    cat = cat or catalog()
    result = state["result"]
    # Best first, each score with where it came from: the log's last line already lists the bare totals.
    ranked = ranking(result)
    scores = ", ".join(
        translate("monster.summary.score", lang, who=_name(state, s, lang), points=vp(result["scores"][s], lang),
                  monsters=monster_points(state["players"][s], cat), cages=cage_points(state["players"][s], cat))
        for s in ranked)
    winners = joined_and([_name(state, s, lang) for s in result["winners"]], lang)
    if len(result["winners"]) > 1:
        return translate("monster.summary.share", lang, winners=winners, scores=scores)
    if result["tie_break_used"]:
        return translate("monster.summary.wins_tie", lang, winners=winners, scores=scores)
    return translate("monster.summary.wins", lang, winners=winners, scores=scores)


def ability_words(card: Card, cat: Catalog, language: str = "en") -> str:
    """A monster's ability as a list shows it ("misthrow improvement", "bonus value 7"); "" for none."""
    ability = cat.abilities.get(card.ability)
    return ability.list_text(language, card.bonus_value) if ability is not None else ""


PRIVATE_LIMIT = 1990
"""Discord cuts a private answer at this length: the text is built to fit, most secret facts first."""


def private_text(state: JSON, seat: int, cat: Catalog | None = None, language: str = "en") -> str:
    """/game mine: your score, your face-down cages (only you see them), captured monsters, symbiosis sets, camps;
    in solo, the expedition's goal and how far you are."""
    cat = cat or catalog()
    for detailed in (True, False):
        text = _private_text(state, seat, cat, detailed, language)
        if len(text) <= PRIVATE_LIMIT:
            return text
    return text[:PRIVATE_LIMIT - 1] + "…"


def _private_text(state: JSON, seat: int, cat: Catalog, detailed: bool, lang: str) -> str:
    player = state["players"][seat]
    lines = [translate("monster.mine.title", lang, name=f"**{said(player['name'])}**", set=player["set"])]
    if state["mode"] == "standard":
        message = deferred("monster.mine.final_score") if state["over"] else deferred("monster.mine.score")
        lines.append(translate(message, lang, points=vp(total_points(player, cat), lang),
                               monsters=monster_points(player, cat), cages=cage_points(player, cat),
                               crests=counted("crest", int(player["crests"]), lang)))
    else:
        expedition = expedition_of(state, cat)
        assert expedition is not None
        lines.append(translate("monster.mine.goal", lang, number=expedition.number,
                               goal=victory_text(expedition, lang)))
        lines.append(translate("monster.mine.progress", lang, progress=progress_text(state, cat, lang)))
        if expedition.crate_value:
            lines.append(translate("monster.mine.crates", lang, crates=state["solo"]["crates"],
                                   value=expedition.crate_value))
    cages = sorted((cat.card(i) for i in player["cages"]), key=lambda m: (-m.caged_vp, m.names[lang]))
    if cages:
        lines.append(translate("monster.mine.cages", lang, count=cage_count(player),
                               points=vp(cage_points(player, cat), lang),
                               cages=", ".join(f"{m.names[lang]} {vp(m.caged_vp, lang)}" for m in cages)))
    elif not player["noted_cages"]:
        lines.append(translate("monster.mine.no_cages", lang))
    if player["noted_cages"]:
        lines.append(translate("monster.mine.noted", lang, count=player["noted_cages"],
                               points=vp(cat.rules.noted_cage_vp, lang)))
    monsters = [cat.card(i) for i in player["monsters"]]
    if monsters:
        def monster_words(card: Card) -> str:
            if not detailed:
                return f"{card.names[lang]} {card.vp}"
            ability = ability_words(card, cat, lang)
            return (f"{card.names[lang]} ({region_name(card.region, lang)}, {vp(card.vp, lang)}, "
                    f"{symbiosis_name(card.symbiosis, lang)}{', ' + ability if ability else ''})")
        lines.append(translate("monster.mine.monsters", lang, count=len(monsters),
                               points=vp(monster_points(player, cat), lang),
                               monsters=", ".join(monster_words(m) for m in monsters)))
    else:
        lines.append(translate("monster.mine.no_monsters", lang))
    groups = symbiosis_groups(player["monsters"], cat)
    if groups:
        sets = "; ".join(" + ".join(f"{cat.card(i).names[lang]} ({symbiosis_name(cat.card(i).symbiosis, lang)})"
                                    if detailed else cat.card(i).names[lang] for i in group) for group in groups)
        lines.append(translate("monster.mine.symbiosis", lang, count=len(groups),
                               extra=translate_plural("monster.count.black_die", len(groups), lang),
                               most=cat.rules.max_black_dice, sets=sets))
    else:
        lines.append(translate("monster.mine.no_symbiosis", lang))
    lines.append(translate("monster.mine.camps", lang, camps="; ".join(
        translate(CAMP_LINE, lang, region=region_name(r, lang), level=camp_level(player["camps"][r], lang),
                  die=colour_name(REGION_DIE[r], lang), black=black_dice(state, seat, r, cat))
        for r in REGIONS)))
    return "\n".join(lines)


CAMP_LINE = deferred("monster.mine.camp")


def rules_text(mode: str, cat: Catalog | None = None, language: str = "en") -> str:
    """/game rules: the rules of a mode and the rulings that apply, in `language`."""
    cat = cat or catalog()
    r = cat.rules
    lang = language
    common = [
        translate("monster.rules.title", lang),
        translate("monster.rules.camp", lang, most=r.max_black_dice),
        translate("monster.rules.roll", lang),
        translate("monster.rules.spend", lang, cage=r.cage_cost, cages=r.trader_cages, trader=r.trader_cost),
        translate("monster.rules.improve", lang, final=r.final_level_cages),
        translate("monster.rules.immediate", lang),
        translate("monster.rules.automatic", lang),
    ]
    if mode == "solo":
        lines = [*common, translate("monster.rules.solo", lang, loss=r.solo_loss_display),
                 translate("monster.rules.expeditions", lang)]
        for number, expedition in sorted(cat.expeditions.items()):
            specials = " ".join(special_rules_text(expedition, cat, lang))
            lines.append(f"{number}. {expedition.titles[lang]}: {victory_text(expedition, lang)} {specials}".rstrip())
        return "\n".join(lines)
    return "\n".join([
        *common,
        translate("monster.rules.refill", lang, display=r.display_size, crests=r.crests),
        translate("monster.rules.end", lang, noted=r.noted_cage_vp),
        translate("monster.rules.caged_vp", lang),
        translate("monster.rules.deck", lang, two=r.draw_deck[2], three=r.draw_deck[3], four=r.draw_deck[4]),
    ])
