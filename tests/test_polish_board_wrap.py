"""The Expedition's side facts keep a number on the line of its noun when they wrap: the board read "Spiral card:
next →, 4" / "moves left" under an Automation, "unscored: Gas Giants" / "3, Moon Survey 3" at the end and
"Aufstellung, dann 9" / "Runden". The texts hold no-break spaces (U+00A0), and the typesetter never breaks there."""

from __future__ import annotations

import functools
import random

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, find_game
from bot.games.the_expedition.drawing import P_SIDE
from rendering import kit, render_board, typeset
from tests.test_render_boards import random_game
from tests.test_render_layout import NAMES, spread

NBSP = "\u00a0"
GAME = find_game("the-expedition")


@functools.cache
def _states(mode: str, players: int, seed: int, language: str) -> tuple[JSON, ...]:
    return spread(random_game(GAME.key, mode, list(NAMES[:players]), seed, language))


def side_lines(view: JSON) -> list[str]:
    """The lines the public board draws in its side column (the scores and each participant's facts), as read."""
    with kit.recording() as drawn:
        render_board(GAME.key, view)
    return [t.text.replace(NBSP, " ") for t in drawn if t.box[0] >= P_SIDE]


def kept_together(view: JSON, language: str) -> set[str]:
    """Each number of the side facts with its noun, as the line must keep them: "4 moves" ("noch 4 Schritte"),
    "Giants 3" (a card's points after its name), "9 rounds", "2 from expeditions", "3 cards"."""
    german = language == "de"
    units: set[str] = set()
    for entry in view["participants"]:
        card = entry.get("card") or {}
        if card.get("moves_left"):
            units.add(f"noch {card['moves_left']} Schritt" if german else f"{card['moves_left']} move")
        for listed in (entry.get("scored") or [], entry.get("unscored") or []):
            units.update(f"{held['name'].split()[-1]} {held['points']}" for held in listed)
            units.add(f"{len(listed)} Karte" if german else f"{len(listed)} card")
        score = entry.get("score") or {}
        if "expeditions" in score:
            units.add(f"{score['expeditions']} aus Expeditionen" if german
                      else f"{score['expeditions']} from expeditions")
    if view.get("rounds"):
        units.add(f"{view['rounds']} Runden" if german else f"{view['rounds']} rounds")
    return units


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("mode", "players"), [("solo", 1), ("solo-hard", 1), ("standard", 3)])
def test_a_side_fact_keeps_each_number_on_the_line_of_its_noun(mode: str, players: int, language: str) -> None:
    broken: list[str] = []
    checked = 0
    for seed in (3, 5, 7, 11):
        for number, state in enumerate(_states(mode, players, seed, language)):
            view = {**GAME.view(state, None), "language": language}
            lines = side_lines(view)
            read = " ".join(lines)
            for unit in kept_together(view, language):
                if unit in read:  # (shown at this position, possibly wrapped)
                    checked += 1
                    if not any(unit in line for line in lines):
                        broken.append(f"seed {seed} position {number}: {unit!r} broken in {lines}")
    assert checked >= 15, checked  # (the check looked at the facts it names)
    assert not broken, "\n".join(broken[:20])


def test_the_side_facts_messages_hold_no_break_spaces() -> None:
    """The catalogue texts themselves (translators keep them): the number and its noun joined by U+00A0."""
    from rendering.wording import translate, translate_plural

    assert translate_plural("expedition.board.automation_next", 4, "en", card="Spiral", arrow="→") == (
        f"Spiral card: next →, 4{NBSP}moves{NBSP}left")
    assert translate_plural("expedition.board.automation_next", 1, "de", card="Spirale", arrow="→") == (
        f"Karte Spirale: als Nächstes →, noch{NBSP}1{NBSP}Schritt")
    assert translate("expedition.board.placement_rounds", "de", rounds=9) == f"Aufstellung, dann 9{NBSP}Runden"
    assert translate("expedition.board.final.player", "en", locations=1, expeditions=0) == (
        f"1{NBSP}from{NBSP}locations + 0{NBSP}from{NBSP}expeditions")


def test_the_typesetter_never_breaks_at_a_no_break_space_where_the_words_fit_a_line() -> None:
    """Random sentences of plain words and no-break groups ("4 moves left", "Gas Giants 3") wrapped at many
    widths, by both wrappers the boards use: a group that fits the line is never split; the words come back in
    order. (A group wider than the whole line breaks at its no-break spaces rather than inside a word: see
    tests/test_render_wording.py.)"""
    rng = random.Random(21)
    vocabulary = ["Spiral", "card:", "next", "→,", "moves", "left", "Gas", "Giants", "unscored:", "Schritte", "noch",
                  "Mondvermessung", "Eckstationen", "·", "Aufstellung,", "dann", "Runden", "12", "3,", "4"]
    face = kit.font(kit.SMALL)
    widest = max(kit.measure(word, kit.SMALL) for word in vocabulary)  # (no word is cut with a hyphen)
    for _ in range(300):
        groups = [NBSP.join(rng.choices(vocabulary, k=rng.randint(1, 3))) for _ in range(rng.randint(3, 12))]
        text = " ".join(groups)
        width = rng.randint(widest, 320)
        for wrapped in (kit.lines(text, width, kit.SMALL), typeset.wrap(typeset.MEASURE_DRAW, text, width, face)):
            assert " ".join(wrapped).replace(NBSP, " ").split(" ") == text.replace(NBSP, " ").split(" ")
            for group in groups:
                if NBSP in group and kit.measure(group, kit.SMALL) <= width:
                    assert any(group in line.split(" ") for line in wrapped), (group, width, wrapped)
