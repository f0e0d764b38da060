"""The glossary of Expeditions' public board (bot/games/expeditions/drawing/): the map's numbers, codes and tokens, the
players' mats and scores, the glory categories and the final board's breakdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.expeditions.drawing.shared import why_over
from bot.games.expeditions.rules.view_types import ExpeditionsView
from bot.i18n import deferred
from rendering.glossary.entries import Entry, Glossary, Part

MAT_EN = (r"(?:power \d+|guile \d+|hand \d+|(?:Move|Play|Gather) covered|all \d+ actions this turn|all \d+|"
          r"refreshed: all \d+ next turn|covers one (?:next turn|now))")
MAT_DE = (r"(?:Kraft \d+|List \d+|Hand \d+|\w+ abgedeckt|alle \d+ Aktionen in diesem Zug|alle \d+ Aktionen in diesem|"
          r"alle \d+|aufgefrischt: nächster Zug alle \d+|deckt (?:nächsten Zug|jetzt) eine ab)")
PART_EN = r"(?:coins \$\d+|upgrades \$\d+|corruption \$\d+|stars \$\d+|glory \d+)"
PART_DE = r"(?:Münzen \d+ \$|Aufwertungen \d+ \$|Verderbnis \d+ \$|Sterne \d+ \$|Ruhm \d+)"
GOAL_EN = (r"[^;·$\d]*(?:\d+ (?:quests|meteorites|items|cards|workers|map tokens|corruption tokens|corruption)|"
           r"location \d+)[^;·$\d]*")
GOAL_DE = (r"[^;·$\d]*(?:\d+ (?:Quests|Meteoriten|Gegenstände|Karten|Arbeiter|Kartenmarker|Verderbnis\w*)|Ort \d+)"
           r"[^;·$\d]*")


def listed(part: str, separators: str) -> str:
    """One or more `part`s joined by `separators`, as a wrapped line shows them (a separator may end the line or
    start it)."""
    return rf"(?:{separators})?{part}(?:(?:{separators}){part})*(?:{separators})?"


NAMES_LISTED = r"[^,()·:$]+(?: \((?:R|B|G|Y|Gr|Ge)\))?"
"""A card in a list, with its worker's colour letter when a worker is on it."""
DETAIL = (
    Entry(deferred("glossary.expeditions.detail_mat"),
          {"en": r"\$\d+ maps \d+ corr \d+( \+\d+)?", "de": r"\d+ \$ Karten \d+ Verd\. \d+( \+\d+)?"}),
    Entry(deferred("glossary.expeditions.piles"),
          {"en": r"Deck \d+ · discard \d+ · bag \d+", "de": r"Stapel \d+ · Ablage \d+ · Beutel \d+"}),
    Entry(deferred("glossary.expeditions.supply"),
          {"en": r"Supply: workers R\d+ B\d+ G\d+ Y\d+ · maps \d+",
           "de": r"Vorrat: Arbeiter R\d+ B\d+ Gr\d+ Ge\d+ · Kartenmarker \d+"}),
    Entry(deferred("glossary.expeditions.mat"),
          {"en": r"\$\d+ token: .+", "de": r"\d+ \$ Marker: .+"}),
    Entry(deferred("glossary.expeditions.money_stars"),
          {"en": r"\$\d+ \(glory total \d+\)", "de": r"\d+ \$ \(Ruhm gesamt \d+\)"}),
    Entry(deferred("glossary.expeditions.card_slot"),
          {"en": r"#\d+ (quest|meteorite|item|character|companion)|#\d+ .+ \((quest|meteorite|item), \w+\)",
           "de": r"#\d+ (Quest|Meteorit|Gegenstand|Figur|Begleiter)|#\d+ .+ \((Quest|Meteorit|Gegenstand), \w+\)"}),
    Entry(deferred("glossary.expeditions.tucked"),
          {"en": r"quests \d+, melds \d+, upgrades \d+(: .*)?", "de": r"Quests \d+, Verschm\. \d+, Aufw\. \d+(: .*)?"}),
    Entry(deferred("glossary.expeditions.quest"),
          {"en": r"quest \d+ [SCN]: .+", "de": r"Quest \d+ [SMN]: .+"}),
    Entry(deferred("glossary.expeditions.card_line"),
          {"en": r"core .+", "de": r"Kern .+"}),
    Entry(deferred("glossary.expeditions.card_list"),
          {"en": rf"{NAMES_LISTED}(?:, {NAMES_LISTED})*,?(?: \+\d+ more)?",
           "de": rf"{NAMES_LISTED}(?:, {NAMES_LISTED})*,?(?: \+\d+ weitere)?"}),
    Entry(deferred("glossary.expeditions.worker_letter"), {"en": r"[RBGY]", "de": r"R|B|Gr|Ge"}),
    Entry(deferred("glossary.expeditions.hidden_region"), {"en": r"[SCN]\?", "de": r"[SMN]\?"}),
    Entry(deferred("glossary.expeditions.map_token"), {"en": r"M", "de": r"K"}),
    Entry(deferred("glossary.expeditions.mech_at"),
          {"en": r"At [a-e][1-5]: \d{1,2} [SCN] .+", "de": r"Ort: [a-e][1-5]: \d{1,2} [SMN] .+"}),
)
"""What only the detail board draws: the mats in full, the piles and the supply, the face-up cards, the choice
under way."""


PARTS = (
    Part(deferred("rules.part.expeditions.headline"), "role", "headline"),
    Part(deferred("rules.part.expeditions.hidden"), "entry", "glossary.expeditions.space_code"),
    Part(deferred("rules.part.expeditions.map"), "entry", "glossary.expeditions.map_token"),
    Part(deferred("rules.part.expeditions.number"), "entry", "glossary.expeditions.number"),
    Part(deferred("rules.part.expeditions.name"), "role", "card"),
    Part(deferred("rules.part.expeditions.basecamp"), "text", "Basecamp|Basislager"),
    Part(deferred("rules.part.expeditions.mech"), "mark", "token"),
    Part(deferred("rules.part.expeditions.reach"), "text", "(outlined|umrandet).*"),
    Part(deferred("rules.part.expeditions.legend"), "text", "(corruption|Verderbnis).*"),
    Part(deferred("rules.part.expeditions.player"), "text", "Ada|Bo"),
    Part(deferred("rules.part.expeditions.money"), "entry", "glossary.expeditions.money_stars"),
    Part(deferred("rules.part.expeditions.mat"), "entry", "glossary.expeditions.mat"),
)
"""What the labelled picture of /game rules numbers on this board, in the order of its legend."""

def worded(view: ExpeditionsView) -> Mapping[str, Any]:
    """The view with the sentence a final board's caption starts with (why the game ended), which it draws."""
    return {**view, "why_over": why_over(view)} if view.get("outcome") else view


GLOSSARY = Glossary("expeditions", (
    Entry(deferred("glossary.expeditions.letter"), {"en": r"[A-E]", "de": r"[A-E]"}),
    Entry(deferred("glossary.expeditions.map_token"), {"en": r"M", "de": r"K"}),
    Entry(deferred("glossary.expeditions.number"), {"en": r"\d{1,2}", "de": r"\d{1,2}"}),
    Entry(deferred("glossary.expeditions.space_code"), {"en": r"[a-e][1-5]", "de": r"[a-e][1-5]"}),
    Entry(deferred("glossary.expeditions.location_code"),
          {"en": r"\b\d{1,2} [SCN]\b",
           "de": r"\b\d{1,2} [SMN]\b"}, inside=True),
    Entry(deferred("glossary.expeditions.or"), {"en": r"\bOR\b", "de": r"\bODER\b"}, inside=True),
    Entry(deferred("glossary.expeditions.money_stars"),
          {"en": r"\$\d+( · \d+ stars?)?",
           "de": r"\d+ \$( · \d+ Sterne?)?"}),
    Entry(deferred("glossary.expeditions.mat"),
          {"en": listed(MAT_EN, r" · | ·|· "),
           "de": listed(MAT_DE, r" · | ·|· ")}),
    Entry(deferred("glossary.expeditions.breakdown"),
          {"en": listed(PART_EN, r" \+ | \+|\+ | · | ·|· "),
           "de": listed(PART_DE, r" \+ | \+|\+ | · | ·|· ")}),
    Entry(deferred("glossary.expeditions.glory_goals"),
          {"en": rf"(?:Stars: |[^;·$\d]+; )?{listed(GOAL_EN, r'; |;')}|(?:[^;·$\d]+ )?\+\d+ more",
           "de": rf"(?:Sterne: |[^;·$\d]+; )?{listed(GOAL_DE, r'; |;')}|(?:[^;·$\d]+ )?\+\d+ weitere"}),
    Entry(deferred("glossary.expeditions.legend_both"), {"en": r"both \(the 20\)", "de": r"beidem \(die 20\)"}),
    Entry(deferred("glossary.expeditions.legend_hidden"),
          {"en": r"· dark: face down · M map token",
           "de": r"· dunkel: verdeckt · K Kartenmarker"}),
    Entry(deferred("glossary.expeditions.solo_total"),
          {"en": r"Game over: \$\d+ in all",
           "de": r"Spiel vorbei: \d+ \$ insgesamt"}),
), parts=PARTS, detail_entries=DETAIL,
   detail_prose_keys=frozenset({"label", "prompt", "core", "ability", "cost", "reward"}),
   prose_keys=frozenset({"turn", "last_move", "log", "rule", "why_over"}), worded=worded)
