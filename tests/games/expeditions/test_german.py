"""Expeditions at a German table (issue 21): every event, turn line, /game mine, button, menu, refusal, the rules
summary and the board's own words are German, with no English message or function word left; an English table
beside it stays English."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.errors import RuleError
from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.engine import pending_options
from bot.games.expeditions.rules.views import SENTENCES
from bot.i18n import Text
from rendering import alt_text, kit, render_board, render_detail
from tests.language import english_left
from tests.reading import read

from .helpers import act, fresh, give, in_actions, place

NAMES = ["Ada", "Bo", "Cleo", "Dana", "Emil"]
ALLOWED = frozenset(NAMES) | {"Highlander", "Tatanka", "Expeditions", "mech", "odin"}
"""Player names, the mechs and the game whose names are the same in both languages, and the commands' own words
(/mech, /mech odin)."""
COMMAND_WORDS = frozenset({"refresh", "cover", "move", "play", "gather", "choose", "power", "guile", "coins"})
"""What the player may type after `type:`/`gain:` in a raw action: named as typed, beside their German words."""


def german(setup_seed: int, players: int) -> dict[str, Any]:
    return GAME.setup("standard", NAMES[:players], Rng(setup_seed, 0), {"language": "de",
                                                                          "profiles": [{}] * players})


def assert_german(texts: list[str], allowed: frozenset[str] = ALLOWED) -> None:
    found = [(word, text) for text in texts for word in english_left(text, allowed=allowed)]
    assert not found, found[:10]


def texts_of_a_turn(state: dict[str, Any], seat: int) -> list[str]:
    """Everything a German table and its player read before a step: the turn line, /game mine, the buttons, the
    menu (placeholder, labels, descriptions) and the autocomplete labels."""
    texts = [GAME.turn_text(state, "de"), GAME.private_text(state, seat, "de")]
    texts += [button.label for button in GAME.quick_actions(state, seat, "de")]
    menu = GAME.choice_menu(state, seat, "de")
    if menu is not None:
        texts += [menu.placeholder] + [o.label for o in menu.options] + [o.description or "" for o in menu.options]
    texts += [label for _, label in GAME.legal_destinations(state, seat, "de")]
    texts += [label for _, label in GAME.choice_options(state, seat, "de")]
    texts += [label for _, label in GAME.playable_cards(state, seat, "de")]
    return texts


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_a_whole_seeded_game_at_a_german_table_reads_german(players: int) -> None:
    state = german(3, players)
    chooser = Rng(3, 10**6)
    texts: list[str] = [state["last_move"]]
    kinds: set[str] = set()
    step = 0
    while (waiting := GAME.to_act(state)) and step < 4000:
        step += 1
        seat = waiting[0]
        texts += texts_of_a_turn(state, seat)
        applied = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)), Rng(3, step))
        kinds.update(event["kind"] for event in applied.events)
        texts += [GAME.describe(applied.state, event, "de") for event in applied.events]
        revealed = GAME.revealed(state, applied.state, applied.events)
        if revealed is not None:
            texts.append(revealed("de"))
        texts.append(GAME.chance_text(applied.events, "de"))
        state = applied.state
        texts += [state["last_move"], *state["log"]]
    assert state["over"], "the random game ended"
    outcome = GAME.outcome(state)
    assert outcome is not None
    texts += [str(outcome.summary), GAME.turn_text(state, "de")]
    assert {"moved", "card_played", "gained", "game_over", "turn_started"} <= kinds
    assert_german([t for t in texts if t])
    assert read(str(outcome.summary)).endswith(")."), outcome.summary
    assert " Wertung: " in str(outcome.summary) and "$" in str(outcome.summary)
    assert state["log"][-1].startswith("Die Expedition ist zu Ende: ")


def test_every_event_kind_has_a_german_sentence() -> None:
    """One event of every kind the engine emits (those a random game rarely reaches as well), worded for German."""
    state = german(7, 2)
    card = state["players"][0]["hand"][0]
    events: list[dict[str, Any]] = [{"kind": kind, "seat": 0, "card": card} for kind in SENTENCES]
    events += [
        {"kind": "end_triggered", "seat": 0}, {"kind": "deck_reshuffled", "cards": 1},
        {"kind": "deck_reshuffled", "cards": 9}, {"kind": "action_covered", "seat": 0, "action": "gather"},
        {"kind": "moved", "seat": 0, "space": "c3", "location": 9},
        {"kind": "moved", "seat": 0, "space": "c3", "location": None},
        {"kind": "location_revealed", "seat": 0, "space": "c3", "location": 9, "tokens": [["power", 2], ["both", 20]]},
        {"kind": "location_revealed", "seat": 0, "space": "c3", "location": 9, "tokens": []},
        {"kind": "gathered", "seat": 0, "location": 1}, {"kind": "gathered", "seat": 0, "location": None},
        {"kind": "gained", "seat": 0, "what": "map_token", "n": 2}, {"kind": "gained", "seat": 0, "what": "coins",
                                                                      "n": 3},
        {"kind": "gained", "seat": 0, "what": "power", "n": 0}, {"kind": "gained", "seat": 0, "what": "map_token",
                                                                  "n": 0},
        {"kind": "worker_gained", "seat": 0, "colour": "green"}, {"kind": "worker_exhausted", "seat": 0,
                                                                  "colour": "yellow"},
        {"kind": "ability_activated", "seat": 0, "card": card, "worker": "red"},
        {"kind": "ability_activated", "seat": 0, "card": card, "worker": None},
        {"kind": "paid", "seat": 0, "cost": {"power": 2, "map_token": 1, "discard": 1}},
        {"kind": "cost_unpaid", "seat": 0, "cost": {"guile": 3, "coins": 2, "trash": 1}},
        {"kind": "chose", "seat": 0, "effects": [{"do": "gain", "what": "power", "n": 2, "per": "quest"}]},
        {"kind": "swept", "seat": 0, "cards": [card]}, {"kind": "swept", "seat": 0, "cards": []},
        {"kind": "borrowed_benefit", "seat": 0, "location": 2, "effects": [{"do": "worker", "colour": "any"}]},
        {"kind": "quest_solved", "seat": 0, "card": card, "location": 3},
        {"kind": "corruption_vanquished", "seat": 0, "colour": "guile", "value": 4, "cost": {"guile": 3},
         "location": 9},
        {"kind": "corruption_vanquished", "seat": 0, "colour": "both", "value": 20, "cost": {"power": 10,
                                                                                           "guile": 10},
         "location": 20},
        {"kind": "corruption_purged", "seat": 0, "colour": "power", "value": 3},
        {"kind": "location_cleared", "seat": 0, "location": 9},
        {"kind": "star_placed", "seat": 0, "glory": GAME.comp.glory[0].key, "stars": 2},
        {"kind": "odin_used", "seat": 0, "what": "coins"}, {"kind": "odin_used", "seat": 0, "what": "guile"},
    ]
    sentences = [GAME.describe(state, event, "de") for event in events]
    english = [GAME.describe(state, event, "en") for event in events]
    assert all(sentences) and all(english)
    assert all(g != e for g, e in zip(sentences, english, strict=True) if "Ada" in e)
    assert_german(sentences)
    for quiet in ("turn_ended", "ongoing_triggered", "no_choice", "skipped"):
        assert read(GAME.describe(state, {"kind": quiet, "seat": 0, "decision": "upgrade"}, "de")) == ""


def test_representative_sentences_in_exact_german() -> None:
    state = german(7, 2)
    describe = GAME.describe
    assert read(describe(state, {"kind": "gained", "seat": 0, "what": "power", "n": 0}, "de")) == \
        "Ada hat schon 10 Kraft: nichts dazugewonnen."
    assert read(describe(state, {"kind": "gained", "seat": 1, "what": "map_token", "n": 1}, "de")) == \
        "Bo erhält 1 Kartenmarker."
    assert read(describe(state, {"kind": "worker_gained", "seat": 0, "colour": "red"}, "de")) == \
        "Ada erhält einen roten Arbeiter."
    assert read(describe(state, {"kind": "deck_reshuffled", "cards": 1}, "de")) == \
        "Die Ablage wird zu einem neuen Nachziehstapel aus 1 Karte gemischt."
    assert read(describe(state, {"kind": "deck_reshuffled", "cards": 7}, "de")) == \
        "Die Ablage wird zu einem neuen Nachziehstapel aus 7 Karten gemischt."
    assert read(describe(state, {"kind": "end_triggered", "seat": 1}, "de")) == \
        "Bo hat den letzten Stern gesetzt: Alle haben noch einen Zug, zuletzt Bo."
    assert read(describe(state, {"kind": "corruption_vanquished", "seat": 0, "colour": "both", "value": 20,
                                 "cost": {"power": 9, "guile": 9}, "location": 20}, "de")) == \
        "Ada bezwingt den 20er-Marker für 9 Kraft + 9 List."
    assert read(describe(state, {"kind": "moved", "seat": 0, "space": "c3", "location": 7}, "de")) == \
        "Ada zieht nach 7 M Glasmoor."
    assert read(describe(state, {"kind": "moved", "seat": 0, "space": "c3", "location": 7}, "en")) == \
        "Ada moves to 7 C Glass Marsh."
    turn = in_actions(fresh(), ("move", "play", "gather"))["turn"]
    state["turn"].update({k: turn[k] for k in ("phase", "remaining", "pending")})
    state["turn"]["seat"] = 0
    assert read(GAME.turn_text(state, "de")) == "Ada: Bewegen und Spielen und Sammeln, in beliebiger Reihenfolge"
    state["turn"]["remaining"] = ["gather"]
    assert read(GAME.turn_text(state, "de")) == "Ada: Sammeln, die letzte Aktion des Zugs"
    state["over"] = True
    state["players"][0]["coins"], state["players"][1]["coins"] = 12, 30
    outcome = GAME.outcome(state)
    assert outcome is not None and read(outcome.summary) == \
        "Bo gewinnt mit 30 $. Wertung: Bo 30 $ (Münzen 30 $), Ada 12 $ (Münzen 12 $)."
    assert read(GAME.describe(state, {"kind": "game_over"}, "de")) == "Die Expedition ist zu Ende: Bo gewinnt mit 30 $."
    assert read(GAME.describe(state, {"kind": "game_over"}, "en")) == "The expedition is over: Bo wins with $30."


def test_an_english_table_stays_english_and_the_same_game_reads_in_either_language() -> None:
    english = GAME.setup("standard", NAMES[:2], Rng(5, 0), {"profiles": [{}, {}]})
    deutsch = german(5, 2)
    assert "language" not in english and deutsch["language"] == "de"
    assert read(english["last_move"]) == "The expedition sets out."
    assert deutsch["last_move"] == "Die Expedition bricht auf."
    chooser_en, chooser_de = Rng(5, 10**6), Rng(5, 10**6)
    for step in range(1, 40):
        seat = GAME.to_act(english)[0]
        english = GAME.apply(english, seat, chooser_en.choice(GAME.legal_actions(english, seat)), Rng(5, step)).state
        deutsch = GAME.apply(deutsch, seat, chooser_de.choice(GAME.legal_actions(deutsch, seat)), Rng(5, step)).state
    assert {k: v for k, v in english.items() if k not in ("log", "last_move")} == \
        {k: v for k, v in deutsch.items() if k not in ("log", "last_move", "language")}  # the same game
    assert english["log"] and all(" " in line for line in english["log"])
    assert_german(deutsch["log"])
    assert english_left(" ".join(english["log"]))  # the English table's log is English
    seat = GAME.to_act(english)[0]
    assert GAME.view(english, None)["language"] == "en" and GAME.view(deutsch, None)["language"] == "de"
    assert GAME.turn_text(english) == GAME.turn_text(deutsch, "en")  # the reader's language, whatever the table's
    assert GAME.private_text(deutsch, seat, "en") == GAME.private_text(english, seat)


def test_the_rules_summary_reads_in_both_languages() -> None:
    english, deutsch = GAME.rules_text("standard"), GAME.rules_text("standard", "de")
    assert english.startswith("**Expeditions** (1-5 players).") and "Tie-break" in english
    assert deutsch.startswith("**Expeditions** (1-5 Spieler).") and "Gleichstand" in deutsch
    assert "/mech aktionen auslassen:<Aktion>" in deutsch  # the German command names
    assert english.count("•") == deutsch.count("•")
    assert_german([deutsch], ALLOWED | {"Marsh"})


def refusals(state: dict[str, Any]) -> list[RuleError]:
    """Every refusal the game raises, each provoked once."""
    found: list[RuleError] = []

    def attempt(position: dict[str, Any], action: Any, seat: int | None = None) -> None:
        try:
            GAME.apply(position, GAME.to_act(position)[0] if seat is None else seat, action, Rng(1, 1))
        except RuleError as error:
            found.append(error)
        else:
            raise AssertionError(f"{action} was accepted")

    start = fresh()
    start["turn"].update({"phase": "start", "remaining": []})
    start["players"][0]["token"] = "move"
    attempt(start, {"type": "gather"})  # start: cover or refresh first
    attempt(start, {"type": "choose", "option": "x"})  # no choice waiting
    attempt(start, {"type": "gather"}, seat=1)  # not your turn
    start["players"][0]["token"] = "all"
    attempt(start, {"type": "refresh"})  # right after an all-three turn
    acting = in_actions(fresh(), ("play", "gather"))
    attempt(acting, {"type": "refresh"})
    attempt(acting, {"type": "cover", "action": "play"})
    attempt(acting, {"type": "move", "space": "c3"})  # the Move was taken
    attempt(acting, {"type": "odin", "gain": "coins"})
    attempt(acting, {"type": "dance"})
    attempt(acting, "not an action")
    attempt(acting, {"type": "cover", "action": "sleep"})
    attempt(acting, {"type": "odin", "gain": "gold"})
    attempt(acting, {"type": "play", "card": ""})
    hand = [GAME.comp.cards[c].names["de"] for c in acting["players"][0]["hand"]]
    attempt(acting, {"type": "play", "card": "Zauberstab der Zeit"})
    attempt(acting, {"type": "play", "card": hand[0][:-1] + "x"})  # a typo: "Meintest du …?"
    other = next(c for c in GAME.comp.deck if c not in acting["players"][0]["hand"])
    attempt(acting, {"type": "play", "card": other})
    moving = in_actions(fresh(), ("move",))
    attempt(moving, {"type": "move", "space": "a1"})
    attempt(moving, {"type": "move", "space": "z9"})
    attempt(moving, {"type": "move"})
    attempt(moving, {"type": "move", "space": "17"})
    pending = act(in_actions(fresh(), ("play",)), {"type": "play", "card": fresh()["players"][0]["hand"][0]})
    attempt(pending, {"type": "gather"})
    over = fresh()
    over["over"] = True
    attempt(over, {"type": "gather"}, seat=0)
    try:
        GAME.setup("standard", [*NAMES, "Fritz"], Rng(1, 0), {})
    except RuleError as error:
        found.append(error)
    return found


def test_every_refusal_is_worded_in_the_readers_language() -> None:
    found = refusals(fresh())
    assert len(found) == 23
    assert all(isinstance(error.message, Text) for error in found), [e.message for e in found
                                                                     if not isinstance(e.message, Text)]
    assert all(error.message.message_id.startswith("expeditions.refuse.") for error in found)  # type: ignore[union-attr]
    german_texts = [error.text("de") for error in found]
    assert len({error.text("en") for error in found}) == len(found)  # each says something of its own
    assert_german(german_texts, ALLOWED | COMMAND_WORDS)
    assert read(german_texts[2]) == "P0 ist am Zug, nicht du."
    assert "Meintest du" in german_texts[14] and "Deine Hand: " in german_texts[14]
    assert read(found[2].text("en")) == "It is P0's turn, not yours."


def test_choices_buttons_and_menus_are_german_and_typed_labels_match_in_either_language() -> None:
    state = fresh(1)
    card = state["players"][0]["hand"][0]
    state = act(state, {"type": "play", "card": GAME.comp.cards[card].names["de"]})  # a German card name plays
    options = pending_options(GAME.comp, state, state["turn"]["pending"], "de")
    assert options[-1]["label"] == "Fertig mit dieser Karte"
    assert options[0]["label"].startswith("Kernwert: ")
    english = pending_options(GAME.comp, state, state["turn"]["pending"], "en")
    for typed in (options[0]["label"].upper(), english[0]["label"].lower()):
        assert GAME.normalise(state, 0, {"type": "choose", "option": typed}) == \
            {"type": "choose", "option": options[0]["id"]}
    start = fresh()
    start["turn"].update({"phase": "start", "remaining": []})
    start["players"][0]["token"] = "move"
    labels = [button.label for button in GAME.quick_actions(start, 0, "de")]
    assert labels == ["Bewegen + Sammeln (Spielen auslassen)", "Bewegen + Spielen (Sammeln auslassen)",
                      "Auffrischen"]
    acting = in_actions(fresh(), ("move", "play", "gather"))
    place(acting, 0, 1)
    menu = GAME.choice_menu(acting, 0, "de")
    assert menu is not None and menu.placeholder == "Deine nächste Aktion …"
    assert_german(texts_of_a_turn(acting, 0))


def test_the_odin_buttons_and_the_sweep_count_are_german() -> None:
    state = in_actions(fresh(), ("gather",))
    player = state["players"][0]
    player["mech"] = next(m.key for m in GAME.comp.mechs if m.ability == "odins_wrath")
    player["map_tokens"] = 2
    labels = [button.label for button in GAME.quick_actions(state, 0, "de")]
    assert "Odin: Kartenmarker → Kraft" in labels and "Odin: Kartenmarker → Münzen" in labels
    sweeper = next(c for c, card in GAME.comp.cards.items() if any(e["do"] == "sweep" for e in card.ability))
    give(state, 0, sweeper, "active")
    pending = {"kind": "sweep", "selected": [0, 1]}
    state["turn"]["pending"] = pending
    labels = [o["label"] for o in pending_options(GAME.comp, state, pending, "de")]
    assert labels[-1] == "2 Karten wegfegen" and labels[0].endswith(" liegen lassen")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_the_board_and_its_alt_text_are_german(players: int) -> None:
    """The words the board draws itself (legend, panels, results) come from the German catalogue."""
    state = german(11, players)
    chooser = Rng(11, 10**6)
    step = 0
    views = [GAME.view(state, None)]
    while (waiting := GAME.to_act(state)) and step < 4000:
        step += 1
        state = GAME.apply(state, waiting[0], chooser.choice(GAME.legal_actions(state, waiting[0])),
                           Rng(11, step)).state
        if step % 40 == 0:
            views.append(GAME.view(state, None))
    views.append(GAME.view(state, None))
    assert views[-1]["outcome"]
    for view in views:
        assert view["language"] == "de"
        for render in (render_board, render_detail):
            with kit.recording() as drawn:
                render("expeditions", view)
            assert_german([text.text for text in drawn])
        assert_german([alt_text("expeditions", view)], ALLOWED | {"Marsh"})
    english = GAME.view(GAME.setup("standard", NAMES[:players], Rng(11, 0), {}), None)
    with kit.recording() as drawn:
        render_board("expeditions", english)
    assert "Basecamp" in [text.text for text in drawn]


def test_the_hint_is_worded_in_the_readers_language() -> None:
    """/game hint: the normal computer player's move and why, for a German reader in German, for an English one as
    before; the only legal move is named with its button's German label."""
    import random

    from bot.core.bots import bot_view, explain

    state = german(4, 2)
    chooser = Rng(4, 10**6)
    hints: list[str] = []
    for step in range(1, 60):
        seat = GAME.to_act(state)[0]
        view = bot_view(GAME, state, seat)
        deutsch, english = explain(GAME, view, seat, random.Random(step), "de"), explain(GAME, view, seat,
                                                                                        random.Random(step))
        assert deutsch != english and english_left(english), (deutsch, english)
        hints.append(deutsch)
        state = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)), Rng(4, step)).state
    assert_german(hints)
    assert any("am meisten für dein Geld und deine Sterne" in h for h in hints)
    assert any(h.endswith(": Das ist dein einziger erlaubter Zug.") for h in hints)
