"""The Expedition's /game rules pages: the how-to-play per mode, and the pages built from its own data (every
location with its card's words, the solo rules with the catalogue's numbers, the rulings the bot applies)."""

from __future__ import annotations

from bot.core.pages import FIRST_PAGE, MODES_PAGE, Page
from bot.games.the_expedition.rules.catalog import rule_words
from bot.games.the_expedition.rules.game import GAME
from bot.games.the_expedition.rules.words import kind, pts
from bot.i18n import Text, deferred, translate

SOLO = frozenset({"solo", "solo-hard"})
PAGES = (
    Page(FIRST_PAGE, deferred("rules.page.how"), picture=True),
    Page("turn", deferred("rules.page.turn")),
    Page("locations", deferred("rules.page.locations")),
    Page("solo", deferred("rules.page.solo"), modes=SOLO),
    Page("abstract", deferred("rules.page.abstract"), modes=frozenset({"abstract"})),
    Page("commands", deferred("rules.page.commands")),
    Page("rulings", deferred("rules.page.rulings")),
    Page(MODES_PAGE, deferred("rules.page.modes")),
)
HOW_TO_PLAY = {
    "standard": deferred("rules.the_expedition.how"),
    "abstract": deferred("rules.the_expedition.how_abstract"),
    "solo": deferred("rules.the_expedition.how_solo"),
    "solo-hard": deferred("rules.the_expedition.how_solo"),
}
"""Each mode's one-screen how-to-play."""


def how_to_play(mode: str, language: str) -> str:
    """The one-screen how-to-play of a mode (solo: what the player scores against)."""
    values = {}
    if mode in SOLO:
        values["you_score"] = (Text.of("rules.the_expedition.you_score_hard") if mode == "solo-hard"
                               else Text.of("rules.the_expedition.you_score"))
    return translate(HOW_TO_PLAY[mode], language, **values)


def turn(mode: str, language: str) -> str:
    cat = GAME.catalog
    return "\n".join([translate("expedition.rules.setup", language), translate("expedition.rules.turn", language),
                      translate("expedition.rules.end", language, expeditions=cat.expeditions_to_end,
                                markers=cat.markers_per_player)])


def locations(mode: str, language: str) -> str:
    """Every location with its kind, points and rule (the cards' own words)."""
    lines = "\n".join(
        translate("expedition.rules.location", language, name=loc.names, kind=kind(loc.kind), points=pts(loc.points),
                  rule=rule_words(loc) or Text.of("expedition.rules.no_special_rule"))
        for loc in GAME.catalog.locations)
    return translate("expedition.rules.locations", language, rules=lines)


def solo(mode: str, language: str) -> str:
    cat = GAME.catalog
    scoring = (Text.of("expedition.rules.solo.scoring_hard") if mode == "solo-hard"
               else Text.of("expedition.rules.solo.scoring"))
    return translate("expedition.rules.solo", language, hand=cat.hand_size, automations=cat.solo_automations,
                     rounds=cat.solo_rounds, scoring=scoring)


def rulings(mode: str, language: str) -> str:
    """The rulings that apply to the mode."""
    rounds = GAME.catalog.solo_rounds
    said = [translate(message, language) for message in (
        "expedition.ruling.one_marker", "expedition.ruling.no_step", "expedition.ruling.own_cards",
        "expedition.ruling.most_markers", "expedition.ruling.repetition")]
    if mode in SOLO:
        said += [translate("expedition.ruling.solo_rounds", language, rounds=rounds),
                 translate("expedition.ruling.out_of_moves", language),
                 translate("expedition.ruling.automation_markers", language),
                 translate("expedition.ruling.off_grid", language)]
    if mode == "abstract":
        said.append(translate("expedition.ruling.market", language))
    return "\n".join([translate("expedition.rules.rulings", language), *(f"• {ruling}" for ruling in said)])


def page_text(mode: str, page_key: str, language: str) -> str:
    """The words of one of the game's own pages (not the how-to-play, not the modes)."""
    if page_key == "abstract":
        return translate("expedition.rules.abstract", language)
    if page_key == "commands":
        return translate("expedition.rules.commands", language)
    built = {"turn": turn, "locations": locations, "solo": solo, "rulings": rulings}
    return built[page_key](mode, language)
