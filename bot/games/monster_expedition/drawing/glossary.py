"""The glossary of Monster Expedition's public board (public.py) and detail board (detail.py)."""

from __future__ import annotations

from typing import Any

from bot.i18n import deferred
from rendering.glossary.entries import Entry, Glossary, Part


def worded(view: dict[str, Any]) -> dict[str, Any]:
    """The view's sentences in the table's language (the game puts them under "words")."""
    words = (view.get("words") or {}).get(str(view.get("language") or "en"))
    return {**view, **words} if isinstance(words, dict) else view


LIST = r"(?:(?:Monsters|Cages|Monster|Käfige): )?(?:[^\d,:·=+]+ \d+, ?)*[^\d,:·=+]+(?: \d+,?)?"
"""A line of the final board's lists of monsters and cages, each with its victory points (wrapped over lines)."""

FACT_EN = (r"(?:\d+ VP(?: \+ \d+ cages?)?(?: \(winner\))?|\d+ cages?|\d+ symbiosis sets?|\d+ crests?|"
           r"\d+ VP \(\d+ from monsters \+ \d+ from cages\)|[^·]*(?:monsters|cages|VP)[^·]*)")
FACT_DE = (r"(?:\d+ SP(?: \+ \d+ Käfige?)?(?: \(Sieg\))?|\d+ Käfige?|\d+ Symbiosesets?|\d+ Wappen|"
           r"\d+ SP \(\d+ aus Monstern \+ \d+ aus Käfigen\)|[^·]*(?:Monstern|Käfigen|SP)[^·]*)")
DETAIL = (
    Entry(deferred("glossary.monster_expedition.deck_round"),
          {"en": r"Deck \d+ · Reserve \d+ · Round \d+( · LAST ROUND)?",
           "de": r"Stapel \d+ · Reserve \d+ · Runde \d+( · LETZTE RUNDE)?"}),
    Entry(deferred("glossary.monster_expedition.player_facts"),
          {"en": rf"·? ?{FACT_EN}(?: · {FACT_EN})*(?: ·)?", "de": rf"·? ?{FACT_DE}(?: · {FACT_DE})*(?: ·)?"}),
    Entry(deferred("glossary.monster_expedition.display"),
          {"en": r"Wilderness \(\d+ cards?\)", "de": r"Wildnis \(\d+ Karten?\)"}),
    Entry(deferred("glossary.monster_expedition.camp_detail"),
          {"en": r"(yellow|blue|green) \+ \d+ black · (bonus value \d+|no bonus)|level \d+ of \d+( \(final\))?|"
                 r".+ · side [AB]",
           "de": r"(gelb|blau|grün) \+ \d+ schwarz · (Bonuswert \d+|kein Bonus)|Stufe \d+ von \d+( \(höchste\))?|"
                 r".+ · Seite [AB]"}),
    Entry(deferred("glossary.monster_expedition.used_numbers"),
          {"en": r"Numbers used this turn: [\d, ]+( · .*)?",
           "de": r"Verbrauchte Zahlen in diesem Zug: [\d, ]+( · .*)?"}),
    Entry(deferred("glossary.monster_expedition.hunt_detail"),
          {"en": r"Hunting from the .+ camp — banked [\d, ]+( · \d+ misthrows?)?",
           "de": r"Jagd vom Lager .+ — beiseitegelegt [\d, ]+( · \d+ Fehlw(urf|ürfe))?"}),
    Entry(deferred("glossary.monster_expedition.left_to_spend"),
          {"en": r".+ hunt: value \d+, \d+ left to spend( · \d+ misthrows?)?",
           "de": r"Jagd .+: Wert \d+, noch \d+ auszugeben( · \d+ Fehlw(urf|ürfe))?"}),
    Entry(deferred("glossary.monster_expedition.ability"),
          {"en": r"(On capture|Misthrow): \+\d+ camp", "de": r"(Beim Fang|Fehlwurf): \+\d+ Lager"}),
    Entry(deferred("glossary.monster_expedition.legend"),
          {"en": r"· set I{1,3}V?|· crest:|= its owner|· A/D/F = Aerie/Depths/Enchanted Forest, \* = all|wild = any",
           "de": r"· Set I{1,3}V?|· Wappen:|= Besitzer|· H/T/Z = Horst/Tiefen/Zauberwald, \* = alle|Joker = jede"}),
    Entry(deferred("glossary.monster_expedition.solo_goal"),
          {"en": r"expedition \d+ (lost|won)", "de": r"Expedition \d+ (verloren|gewonnen)"}),
)
"""What only the detail board draws: each camp in full, the deck and reserve, the numbers used, each player's facts."""


PARTS = (
    Part(deferred("rules.part.monster_expedition.headline"), "role", "headline"),
    Part(deferred("rules.part.monster_expedition.level"), "entry", "glossary.monster_expedition.card_level"),
    Part(deferred("rules.part.monster_expedition.symbiosis"), "mark", "symbiosis"),
    Part(deferred("rules.part.monster_expedition.name"), "role", "card"),
    Part(deferred("rules.part.monster_expedition.vp"), "entry", "glossary.monster_expedition.card_points"),
    Part(deferred("rules.part.monster_expedition.trader"), "entry", "glossary.monster_expedition.trader"),
    Part(deferred("rules.part.monster_expedition.legend"), "entry", "glossary.monster_expedition.legend"),
    Part(deferred("rules.part.monster_expedition.deck"), "entry", "glossary.monster_expedition.deck_round"),
    Part(deferred("rules.part.monster_expedition.die"), "entry", "glossary.monster_expedition.die"),
    Part(deferred("rules.part.monster_expedition.black"), "entry", "glossary.monster_expedition.plus_black"),
    Part(deferred("rules.part.monster_expedition.player"), "text", "Ada|Bo"),
    Part(deferred("rules.part.monster_expedition.score"), "entry", "glossary.monster_expedition.score"),
    Part(deferred("rules.part.monster_expedition.camp"), "entry", "glossary.monster_expedition.camp_chip"),
    Part(deferred("rules.part.monster_expedition.facts"), "entry", "glossary.monster_expedition.player_facts"),
    Part(deferred("rules.part.monster_expedition.goal"), "entry", "glossary.monster_expedition.solo_goal"),
)
"""What the labelled picture of /game rules numbers on this board, in the order of its legend."""

GLOSSARY = Glossary("monster-expedition", (
    Entry(deferred("glossary.monster_expedition.card_level"), {"en": r"\d+ [ADF*]", "de": r"\d+ [HTZ*]"}),
    Entry(deferred("glossary.monster_expedition.card_points"),
          {"en": r"\d+ VP · caged \d+",
           "de": r"\d+ SP · Käfig \d+"}),
    Entry(deferred("glossary.monster_expedition.letter"), {"en": r"[A-Z*]", "de": r"[A-Z*]"}),
    Entry(deferred("glossary.monster_expedition.camp_chip"), {"en": r"[ADF] \d+", "de": r"[HTZ] \d+"}),
    Entry(deferred("glossary.monster_expedition.camp_side"), {"en": r"\bside [AB]\b", "de": r"\bSeite [AB]\b"},
          inside=True),
    Entry(deferred("glossary.monster_expedition.legend"),
          {"en": r"A Aerie, D Depths, F Forest, \* all:",
           "de": r"H Horst, T Tiefen, Z Zauberwald, \* alle:"}),
    Entry(deferred("glossary.monster_expedition.plus_black"), {"en": r"\+\d+ black", "de": r"\+\d+ schwarz"}),
    Entry(deferred("glossary.monster_expedition.trader"), {"en": r"\d+ cages for \d+", "de": r"\d+ Käfige für \d+"}),
    Entry(deferred("glossary.monster_expedition.deck_round"),
          {"en": r"deck \d+ · round \d+",
           "de": r"Stapel \d+ · Runde \d+"}),
    Entry(deferred("glossary.monster_expedition.score"),
          {"en": r"\d+ VP( \+ \d+ cages?)?( · winner)?",
           "de": r"\d+ SP( \+ \d+ Käfige?)?( · Sieg)?"}),
    Entry(deferred("glossary.monster_expedition.player_facts"),
          {"en": r"\d+ monsters?( · \d+ sets?)?( · \d+ crests?)?",
           "de": r"\d+ Monster( · \d+ Sets?)?( · \d+ Wappen)?"}),
    Entry(deferred("glossary.monster_expedition.banked_total"), {"en": r"= \d+", "de": r"= \d+"}),
    Entry(deferred("glossary.monster_expedition.left_to_spend"),
          {"en": r"\d+ of \d+ left to spend( · a cage costs \d+)?",
           "de": r"\d+ von \d+ übrig( · Käfig kostet \d+)?"}),
    Entry(deferred("glossary.monster_expedition.die"), {"en": r"\d{1,2}", "de": r"\d{1,2}"}),
    Entry(deferred("glossary.monster_expedition.more"), {"en": r"\+\d+ more", "de": r"\+\d+ weitere"}),
    Entry(deferred("glossary.monster_expedition.solo_goal"),
          {"en": r"Goal: .*|.*\(the goal: .*|(Game over: )?Expedition \d+.*",
           "de": r"Ziel: .*|.*\(das Ziel: .*|(Spielende: )?Expedition \d+.*"}),
    Entry(deferred("glossary.monster_expedition.final_lists"),
          {"en": LIST + r"|\d+ VP from monsters|\d+ cages?",
           "de": LIST + r"|\d+ SP aus Monstern|\d+ Käfige?"}),
), worded=worded, parts=PARTS, detail_entries=DETAIL)
