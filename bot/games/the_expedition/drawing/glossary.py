"""The glossary of The Expedition's public board (board.py): the players' letters, points, markers and cards left,
the arrows of the legal steps, the Automations' cards and the final board's breakdown."""

from __future__ import annotations

from bot.games.the_expedition.drawing.shared import in_words
from bot.i18n import deferred
from rendering.glossary.entries import Entry, Glossary, Part

ARROW = r"[←↑→↓↖↗↘↙]"
DETAIL = (
    Entry(deferred("glossary.the_expedition.detail_score"),
          {"en": r"\d+ pts? · \d+ (markers? )?left",
           "de": r"\d+ Pkt\. · noch \d+( Marker)?"}),
    Entry(deferred("glossary.the_expedition.breakdown"),
          {"en": r"\d+ pts? = \d+ from locations \+ \d+ from expeditions|\d+ pts? from locations|"
                 r"\d+ pts? \(expeditions only; locations not counted\)",
           "de": r"\d+ Pkt\. = \d+ aus Orten \+ \d+ aus Expeditionen|\d+ Pkt\. aus Orten|"
                 r"\d+ Pkt\. \(nur Expeditionen; Orte zählen nicht\)"}),
    Entry(deferred("glossary.the_expedition.automation_moves"),
          {"en": r"used \d+ of \d+ moves|\w+: \d+ moves? left|next: " + ARROW + r" [a-z-]+",
           "de": r"\d+ von \d+ Schritten verbraucht|\w+: noch \d+ Schritte?|als Nächstes: " + ARROW
                 + r" (nach )?[a-z-]+"}),
    Entry(deferred("glossary.the_expedition.round"),
          {"en": r"Automation cards — round \d+ of \d+", "de": r"Automatenkarten — Runde \d+ von \d+"}),
    Entry(deferred("glossary.the_expedition.markers_left"),
          {"en": r"markers left \d+/\d+", "de": r"übrige Marker \d+/\d+"}),
    Entry(deferred("glossary.the_expedition.market"),
          {"en": r"Expedition market — draw pile: \d+ cards?",
           "de": r"Expeditionsauslage — Nachziehstapel: \d+ Karten?"}),
    Entry(deferred("glossary.the_expedition.hand"),
          {"en": r"(held by gravity · )?\d+ secret cards?",
           "de": r"(von der Schwerkraft gehalten · )?\d+ geheime Karten?"}),
    Entry(deferred("glossary.the_expedition.card_points"),
          {"en": r".+ \(\d+ pts?\): .*", "de": r".+ \(\d+ Pkt\.\): .*"}),
    Entry(deferred("glossary.the_expedition.check"), {"en": r"[✓×]", "de": r"[✓×]"}),
    Entry(deferred("glossary.the_expedition.direction"),
          {"en": ARROW + r" [a-z-]+", "de": ARROW + r" [a-zäöü-]+"}),
    Entry(deferred("glossary.the_expedition.start"), {"en": r"S", "de": r"S"}),
)
"""What only the detail board draws: the Automations' cards in full, each card's condition, the scores' parts."""


PARTS = (
    Part(deferred("rules.part.the_expedition.headline"), "role", "headline"),
    Part(deferred("rules.part.the_expedition.story"), "text", "(Ada|Bo|Cy) (placed|moved|hat|ist|setzt).*"),
    Part(deferred("rules.part.the_expedition.location"), "role", "card"),
    Part(deferred("rules.part.the_expedition.points"), "entry", "glossary.the_expedition.number"),
    Part(deferred("rules.part.the_expedition.rule"), "text",
         "(Can't|You may|Markers|Holds|Darf|Du darfst|Marker|Hält|Kann).*"),
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
           "de": r"noch \d+ Marker( ·)?( von( der)?)?"}),
    Entry(deferred("glossary.the_expedition.hand"),
          {"en": r"\d+ cards? in hand( ·)?",
           "de": r"\d+ Handkarten?( ·)?( von( der)?)?"}),
    Entry(deferred("glossary.the_expedition.scored"),
          {"en": r"(✓ )?\d+ scored( ·)?",
           "de": r"(✓ )?\d+ gewertet( · von der)?( ·)?"}),
    Entry(deferred("glossary.the_expedition.arrow"),
          {"en": r"[←↑→↓↖↗↘↙] go", "de": r"[←↑→↓↖↗↘↙] (Ziel|hin|los)"}),
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
), worded=in_words, parts=PARTS, detail_entries=DETAIL,
   detail_prose_keys=frozenset({"text"}))
