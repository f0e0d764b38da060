"""The Expedition at a German table (issue 21): every text the game makes, for whole seeded games of every mode, reads
as German (no English function word, no English catalogue text), a few sentences exactly; English stays English."""

from __future__ import annotations

import pytest

from bot.core.errors import RuleError
from bot.core.rng import Rng
from bot.games.the_expedition.rules import rules
from bot.games.the_expedition.rules.catalog import load_catalog
from bot.games.the_expedition.rules.text import describe, private_text, rules_text, turn_text
from bot.i18n import in_language
from tests.games.the_expedition.helpers import CELL, GAME, arranged
from tests.language import english_left
from tests.reading import read
from tests.test_render_boards import random_game

CATALOG = load_catalog()
NAMES = ["Alice", "Bob", "Carla"]
ALLOWED = frozenset(NAMES)
GAMES = [("standard", 2), ("standard", 3), ("abstract", 2), ("abstract", 3), ("solo", 1), ("solo-hard", 1)]


def german(text: str, where: str) -> list[str]:
    """What is left in English in `text` (the game's title is its name in every language)."""
    found = english_left(text.replace("The Expedition", ""), allowed=ALLOWED)
    return [f"{where}: {found} in {text!r}"] if found else []


def texts_of_a_game(mode: str, players: int, seed: int, language: str) -> tuple[list[tuple[str, str]], set[str]]:
    """(where, text) for everything the game says in `language` over one seeded game, and the event kinds seen."""
    said: list[tuple[str, str]] = []
    kinds: set[str] = set()
    states = random_game("the-expedition", mode, NAMES[:players], seed)
    for number, state in enumerate(states):
        for event in state["last_events"]:
            kinds.add(event["kind"])
            said.append((f"{number} event {event['kind']}", GAME.describe(state, event, language)))
        said.append((f"{number} turn", GAME.turn_text(state, language)))
        for seat in range(players):
            said.append((f"{number} mine {seat}", GAME.private_text(state, seat, language)))
            said += [(f"{number} button", q.label) for q in GAME.quick_actions(state, seat, language)]
    outcome = GAME.outcome(states[-1])
    assert outcome is not None
    said.append(("summary", str(in_language(outcome.summary, language))))
    said.append(("rules", GAME.rules_text(mode, language)))
    return said, kinds


@pytest.mark.parametrize(("mode", "players"), GAMES)
def test_a_whole_game_of_every_mode_reads_in_german(mode: str, players: int) -> None:
    found: list[str] = []
    kinds: set[str] = set()
    for seed in (1, 2, 3):
        said, seen = texts_of_a_game(mode, players, seed, "de")
        kinds |= seen
        for where, text in said:
            found += german(text, f"seed {seed} {where}")
    assert not found, "\n".join(found[:20])
    expected = {"placed", "moved", "game_over"} | ({"expedition_scored"} if mode != "solo-hard" else set())
    assert expected <= kinds, kinds
    if mode.startswith("solo"):
        assert "end_triggered" in kinds or mode == "solo-hard"


def test_the_same_game_in_english_is_told_in_english() -> None:
    """English is unchanged by the German: the English texts hold English words (and no German umlaut words)."""
    said, _ = texts_of_a_game("solo", 1, 1, "en")
    joined = "\n".join(text for _, text in said)
    assert "Automation 1" in joined and "Automat 1 " not in joined
    assert " to move" in joined and " moved " in joined and "ist am Zug" not in joined
    english_rules = GAME.rules_text("solo", "en")
    assert english_rules.startswith("**The Expedition** — claim planets and moons on a 3x3 grid.\n**Setup:** ")


def test_every_event_kind_in_german() -> None:
    """Events a random game rarely shows, arranged: a blocked Automation, gravity, a removal, the market, the end."""
    state = arranged(("Alice", "Bob"), cells={"p0": CELL["europa"], "p1": CELL["luna"]},
                     markers={CELL["saturn"]: ["p1"]})
    moved = {"kind": "moved", "who": "p0", "direction": "up", "from_cell": CELL["europa"], "to_cell": CELL["saturn"],
             "from_location": "europa", "to_location": "saturn", "marked": True, "removed": ["p1"]}
    assert read(describe(state, moved, CATALOG, "de")) == (
        "Alice ist nach oben auf Saturn gezogen und hat Europa markiert, wodurch der Marker von Bob entfernt "
        "wurde.")
    assert read(describe(state, moved, CATALOG, "en")) == (
        "Alice moved up to Saturn and marked Europa, removing Bob's marker.")
    held = {**moved, "to_location": "jupiter", "removed": [], "marked": False, "held": True}
    assert read(describe(state, held, CATALOG, "de")) == (
        "Alice ist nach oben auf Jupiter gezogen und hat Europa markiert (der eigene Marker lag dort schon). "
        "Die Schwerkraft von Jupiter hält den Entdecker im nächsten Zug fest.")
    stayed = {"kind": "stayed", "who": "p1", "reason": "gravity"}
    assert read(describe(state, stayed, CATALOG, "de")) == (
        "Bob wird von der Schwerkraft festgehalten, bleibt stehen und markiert nichts.")
    scored = {"kind": "expedition_scored", "who": "p0", "card": "corner-stations", "points": 4, "source": "market"}
    assert read(describe(state, scored, CATALOG, "de")) == (
        "Alice hat die Expedition Eckstationen aus der Auslage (Marker in drei Ecken.) für 4 Punkte "
        "abgeschlossen.")
    for event in ({"kind": "market_refilled", "card": "gas-giants", "slot": 0},
                  {"kind": "market_shrank", "slot": 0},
                  {"kind": "end_triggered", "who": "p0", "reason": "expeditions", "count": 2},
                  {"kind": "end_triggered", "who": "p1", "reason": "markers"},
                  {"kind": "stayed", "who": "p1", "reason": "blocked"}):
        assert not german(describe(state, event, CATALOG, "de"), event["kind"])
    assert read(describe(state, {"kind": "market_refilled", "card": "gas-giants", "slot": 0}, CATALOG, "de")) == (
        "Neu in der Auslage: Gasriesen (Marker auf Jupiter und Saturn. 3 Punkte).")
    solo = arranged(("Alice",), "solo", cells={"p0": CELL["europa"]},
                    automations={"a1": ("pendulum", CELL["io"], 3), "a2": ("orbiter", CELL["luna"], 2)})
    blocked = {"kind": "automation_blocked", "who": "a1", "direction": "left", "cell": CELL["io"], "moves_left": 6}
    assert read(describe(solo, blocked, CATALOG, "de")) == (
        "Automat 1 kann nicht nach links aus dem Raster ziehen: Er bleibt auf Io und markiert nichts; noch 6 "
        "Schritte auf seiner Karte.")
    out = {"kind": "end_triggered", "who": "a2", "reason": "out_of_moves"}
    assert read(describe(solo, out, CATALOG, "de")) == (
        "Automat 2 hat keine Schritte mehr: Das Ende ist eingeläutet: Automat 1 und Alice haben je noch einen letzten "
        "Zug, dann endet das Spiel.")


def test_turn_private_and_rules_texts_in_german() -> None:
    state = arranged(("Alice", "Bob"), cells={"p0": CELL["europa"], "p1": CELL["luna"]},
                     hands={"p0": ["gas-giants"]}, markers={CELL["jupiter"]: ["p0"]})
    assert read(turn_text(state, CATALOG, "de")) == "Alice ist am Zug"
    mine = private_text(state, CATALOG, 0, "de")
    assert mine.splitlines()[:2] == [
        "Deine geheimen Expeditionskarten, die nächstliegende zuerst:",
        "- **Gasriesen** (3 Pkt.): Marker auf Jupiter und Saturn. Jetzt: 1 von 2 (vorhanden: Jupiter; "
        "fehlt: Saturn)."]
    assert mine.splitlines()[-1] == ("Deine erlaubten Züge: nach unten auf Jupiter, nach links auf Io, nach rechts "
                                     "auf Titan.")
    solo = GAME.setup("solo", ["Alice"], Rng(4, 0), {})
    assert read(turn_text(solo, CATALOG, "de")).startswith(
        "Alice ist dran: Entdecker auf einen leeren Ort setzen (aufgedeckte Automatenkarten: Automat 1 ist ")
    for mode in ("standard", "abstract", "solo", "solo-hard"):
        text = rules_text(mode, CATALOG, "de")
        assert not german(text, mode)
        assert "- Saturn (Planet, 3 Pkt.): Kann nicht von unten betreten werden." in text
    assert "**Solo:** Du bekommst 3 geheime Expeditionen; 2 Automatenkarten werden aufgedeckt." in (
        rules_text("solo", CATALOG, "de"))


def _refusal(state: dict, seat: int, action: object) -> RuleError:
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, seat, action, Rng(1, 1))  # type: ignore[arg-type]
    return caught.value


def test_refusals_are_worded_for_the_reader() -> None:
    """Every refusal carries its message id: German for a German reader, the English unchanged for others."""
    play = arranged(("Alice", "Bob"), cells={"p0": CELL["mercury"], "p1": CELL["luna"]})
    off_grid = _refusal(play, 0, {"type": "move", "direction": "up"})
    assert off_grid.text("de") == ("Du kannst nicht nach oben ziehen, denn nach oben von Merkur aus würdest du das "
                                   "Raster verlassen. Erlaubte Züge jetzt: nach unten (auf Titan), nach links (auf "
                                   "Saturn).")
    assert off_grid.text("en-US") == ("You can't move up: up from Mercury leaves the grid. Legal moves now: down (to "
                                      "Titan), left (to Saturn).")
    setup = GAME.setup("standard", ["Alice", "Bob"], Rng(3, 0), {})
    first = rules.current_pid(setup)
    assert first is not None
    seat = int(first[1:])
    refusals = [
        off_grid,
        _refusal(play, 1, {"type": "move", "direction": "down"}),  # not your turn
        _refusal(play, 0, {"type": "place", "location": "mars"}),  # placing in play
        _refusal(play, 0, {"type": "move", "direction": "sideways"}),
        _refusal(play, 0, {"type": "jump"}),
        _refusal(play, 0, "move"),
        _refusal(arranged(("Alice", "Bob"), cells={"p0": CELL["io"], "p1": CELL["luna"]}), 0,
                 {"type": "move", "direction": "up-left"}),  # diagonal off the grid
        _refusal(arranged(("Alice", "Bob"), cells={"p0": CELL["europa"], "p1": CELL["luna"]}), 0,
                 {"type": "move", "direction": "up-right"}),  # no diagonal from Europa
        _refusal(setup, seat, {"type": "move", "direction": "up"}),  # moving in setup
        _refusal(setup, seat, {"type": "place", "location": "Merkr"}),  # a typo
        _refusal(setup, seat, {"type": "place", "location": "Pluto"}),
        _refusal(setup, seat, {"type": "place"}),
    ]
    held = arranged(("Alice", "Bob"), cells={"p0": CELL["jupiter"], "p1": CELL["luna"]})
    held["players"][0]["held"] = True
    refusals.append(_refusal(held, 0, {"type": "move", "direction": "up"}))
    walled = arranged(("Alice", "Bob"), cells={"p0": CELL["europa"], "p1": CELL["luna"]})
    refusals.append(_refusal(walled, 0, {"type": "move", "direction": "up"}))  # Saturn from below
    over = dict(play, phase="over")
    refusals.append(_refusal(over, 0, {"type": "move", "direction": "up"}))
    found = []
    for error in refusals:
        assert error.text("de") != error.text("en"), error.text("en")
        found += german(error.text("de"), error.text("en"))
    assert not found, "\n".join(found)
    assert read(refusals[9].text("de")) == (
        "Es gibt keinen Ort namens „Merkr“. Meintest du Merkur? Die Orte sind: "
        + ", ".join(CATALOG.location(i).names["de"] for i in setup["grid"]) + ".")
    assert refusals[-2].text("de") == ("Du kannst nicht nach oben ziehen, denn Saturn kann nicht von unten betreten "
                                       "werden (Kann nicht von unten betreten werden.). Erlaubte Züge jetzt: nach "
                                       "unten (auf Jupiter), nach links (auf Io), nach rechts (auf Titan).")
    assert refusals[-1].text("de") == "Das Spiel ist vorbei. Starte ein neues mit /spiel neu."


def test_the_buttons_and_the_autocomplete_name_locations_in_the_readers_language() -> None:
    state = arranged(("Alice", "Bob"), cells={"p0": CELL["europa"], "p1": CELL["luna"]})
    assert [q.label for q in GAME.quick_actions(state, 0, "de")] == ["Unten: Jupiter", "Links: Io", "Rechts: Titan"]
    assert [q.label for q in GAME.quick_actions(state, 0, "en")] == ["Down: Jupiter", "Left: Io", "Right: Titan"]
    setup = GAME.setup("standard", ["Alice", "Bob"], Rng(3, 0), {})
    seat = int(str(rules.current_pid(setup))[1:])
    labels = [q.label for q in GAME.quick_actions(setup, seat, "de")]
    assert "Merkur (1)" in labels and "Neptun (3)" in labels
    # A German player may type the German name: the rules take it.
    placed = GAME.apply(setup, seat, {"type": "place", "location": "Merkur"}, Rng(3, 1)).state
    assert placed["placed"] == 1
    assert read(describe(placed, placed["last_events"][0], CATALOG, "de")) in (
        "Alice hat den Entdecker auf Merkur gesetzt.", "Bob hat den Entdecker auf Merkur gesetzt.")


def test_mode_titles_in_the_tables_language() -> None:
    assert [mode.title_in("de") for mode in GAME.modes] == [  # type: ignore[attr-defined]
        "Standard", "Abstrakter Modus", "Solo", "Solo (zusätzliche Herausforderung)"]
    assert [mode.title_in("en") for mode in GAME.modes] == [mode.title for mode in GAME.modes]  # type: ignore[attr-defined]


def test_a_german_result_in_whole_sentences() -> None:
    """The final summary: why it ended (two main clauses, German word order), who won, every score."""
    from tests.games.the_expedition.test_modes import _solo_result

    _, outcome = _solo_result("solo-hard", [CELL["neptune"], CELL["mercury"]], ["supply-chain"])
    assert read(in_language(outcome.summary, "de")) == (
        "Alice hat die Automaten nicht geschlagen: Gewonnen hat Automat 2. Das Spiel endete, denn die 9 Runden "
        "waren vorbei. Automat 2: 3 Pkt. (3 aus Orten, 1 Marker im Raster); Alice: 2 Pkt. (nur Expeditionen; 4 "
        "Ortspunkte nicht gezählt, 2 Marker im Raster); Automat 1: 2 Pkt. (2 aus Orten, 1 Marker im "
        "Raster).")


def test_a_wrong_number_of_players_is_refused_in_the_readers_language() -> None:
    from bot.core.errors import LobbyError

    with pytest.raises(LobbyError) as caught:
        GAME.setup("abstract", ["Alice"], Rng(1, 0), {})
    assert caught.value.text("de") == "The Expedition (Abstrakter Modus) ist für 2-3 Spieler (erhalten: 1)."
    assert caught.value.text("en") == "The Expedition Abstract Mode is for 2-3 players (got 1)."
