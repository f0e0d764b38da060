"""The glossary of The Expedition's public board (rendering/the_expedition.py): the players' letters, points,
markers and cards left, the arrows of the legal steps, the Automations' cards and the final board's breakdown."""

from __future__ import annotations

from bot.i18n import deferred
from rendering.glossary.entries import Entry, Glossary, Part
from rendering.the_expedition import in_words

PARTS = (
    Part(deferred("rules.part.the_expedition.headline"), "role", "headline"),
    Part(deferred("rules.part.the_expedition.story"), "text", "(Ada|Bo|Cy) (placed|moved|hat|ist|setzt).*"),
    Part(deferred("rules.part.the_expedition.location"), "role", "card"),
    Part(deferred("rules.part.the_expedition.points"), "entry", "glossary.the_expedition.number"),
    Part(deferred("rules.part.the_expedition.rule"), "text",
         "(Can't|You may|Markers|Holds|Darf|Du darfst|Markierungen|Hält|Kann).*"),
    Part(deferred("rules.part.the_expedition.explorer"), "mark", "pawn"),
    Part(deferred("rules.part.the_expedition.arrow"), "entry", "glossary.the_expedition.arrow"),
    Part(deferred("rules.part.the_expedition.player"), "text", "Ada|Bo"),
    Part(deferred("rules.part.the_expedition.score"), "entry", "glossary.the_expedition.points"),
    Part(deferred("rules.part.the_expedition.markers"), "entry", "glossary.the_expedition.markers_left"),
    Part(deferred("rules.part.the_expedition.hand"), "entry", "glossary.the_expedition.hand"),
    Part(deferred("rules.part.the_expedition.round"), "entry", "glossary.the_expedition.round"),
    Part(deferred("rules.part.the_expedition.automation"), "entry", "glossary.the_expedition.automation_moves"),
    Part(deferred("rules.part.the_expedition.market"), "entry", "glossary.the_expedition.market"),
    Part(deferred("rules.part.the_expedition.marker"), "mark", "cube"),
)
"""What the labelled picture of /game rules numbers on this board, in the order of its legend."""

GLOSSARY = Glossary("the-expedition", (
    Entry(deferred("glossary.the_expedition.letter"), {"en": r"[A-E]", "de": r"[A-E]"}),
    Entry(deferred("glossary.the_expedition.number"), {"en": r"\d{1,2}", "de": r"\d{1,2}"}),
    Entry(deferred("glossary.the_expedition.points"), {"en": r"\d+ pts?", "de": r"\d+ Pkt\."}),
    Entry(deferred("glossary.the_expedition.markers_left"),
          {"en": r"\d+ markers? left( ·)?",
           "de": r"noch \d+ Markierung(en)?( ·)?"}),
    Entry(deferred("glossary.the_expedition.hand"),
          {"en": r"\d+ cards? in hand( ·)?",
           "de": r"\d+ Handkarten?( ·)?( von( der)?)?"}),
    Entry(deferred("glossary.the_expedition.scored"),
          {"en": r"(✓ )?\d+ scored( ·)?",
           "de": r"(✓ )?\d+ gewertet( · von der)?( ·)?"}),
    Entry(deferred("glossary.the_expedition.arrow"), {"en": r"[←↑→↓↖↗↘↙] go", "de": r"[←↑→↓↖↗↘↙] (hin|los|gehen)"}),
    Entry(deferred("glossary.the_expedition.round"),
          {"en": r"Round \d+ of \d+|Placement, then \d+ rounds",
           "de": r"Runde \d+ von \d+|.*dann \d+ Runden"}),
    Entry(deferred("glossary.the_expedition.automation_moves"),
          {"en": r"(Orbiter card: next |.*next )?[←↑→↓↖↗↘↙](, \d+ moves? left)?,?|\d+ moves? left",
           "de": r"(.*Nächstes )?[←↑→↓↖↗↘↙](, noch \d+ Schritte?)?,?|noch \d+ Schritte?"}),
    Entry(deferred("glossary.the_expedition.card_points"),
          {"en": r"(✓ )?.+ · \d+ pts?,?|(✓ )?[^\d·]+ \d,?",
           "de": r"(✓ )?.+ · \d+ Pkt\.,?|(✓ )?[^\d·]+ \d,?"}),
    Entry(deferred("glossary.the_expedition.market"),
          {"en": r"Market \(draw pile \d+\)",
           "de": r"Auslage \(Nachziehstapel \d+\)"}),
    Entry(deferred("glossary.the_expedition.unscored"),
          {"en": r"unscored:( \d+ cards?)?",
           "de": r"nicht gewertet:( \d+ Karten?)?|\d+ Karten?"}),
    Entry(deferred("glossary.the_expedition.breakdown"),
          {"en": r"(\d+ pts? )?\d+ from (locations|expeditions)( \+)?|\d+ pts? from",
           "de": r"(\d+ Pkt\. )?\d+ aus (Orten|Expeditionen)( \+)?|\d+ Pkt\. aus"}),
), worded=in_words, parts=PARTS)
