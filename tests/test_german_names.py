"""Names a German table reads (issue 21): Expeditions' characters and companions carry German names, and the map's
regions German initials (S/M/N: Süden, Mitte, Norden), on the board, in its alt text and in the messages."""

from __future__ import annotations

import re

from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.views import location_label
from rendering import alt_text, kit, render_board, render_detail
from tests.test_render_layout import positions_in

COMP = GAME.comp
PEOPLE = [card for card in COMP.cards.values() if card.kind in ("character", "companion")]
FIRST_NAMES_GERMAN_AS_THEY_ARE = frozenset({"Ada", "Cora"})
"""First names as usual in German as in English: a German edition keeps them."""


def _first_name(name: str) -> str:
    return name.split()[0]


def test_characters_and_companions_have_german_names_at_german_tables() -> None:
    assert len(PEOPLE) == 10
    english_first_names = {_first_name(card.names["en"]) for card in PEOPLE}
    for card in PEOPLE:
        german = card.names["de"]
        assert _first_name(german) not in english_first_names - FIRST_NAMES_GERMAN_AS_THEY_ARE, card.names
        assert german.split()[1] in ("der", "die"), german  # "Bruno der Schmied", "Dämmer der Wolf"
    by_id = {card.id: card.names for card in PEOPLE}
    assert (by_id["co-dusk"]["de"], by_id["co-dusk"]["en"]) == ("Dämmer der Wolf", "Dusk the Wolf")
    assert (by_id["ch-bram"]["de"], by_id["ch-bram"]["en"]) == ("Bruno der Schmied", "Bram the Smith")


def test_a_german_players_hand_names_their_character_and_companion_in_german() -> None:
    english_first_names = {_first_name(card.names["en"]) for card in PEOPLE} - FIRST_NAMES_GERMAN_AS_THEY_ARE
    for seed in range(4):
        state = GAME.setup("standard", ["Alice", "Bob", "Cleo"], Rng(seed, 0),
                           {"language": "de", "profiles": [{}] * 3})
        for seat, player in enumerate(state["players"]):
            mine = GAME.private_text(state, seat, "de")
            for card_id in player["hand"]:
                assert COMP.cards[card_id].names["de"] in mine
            assert not set(re.findall(r"\w+", mine)) & english_first_names, mine
        view = {**GAME.view(state, 0), "language": "de"}
        with kit.recording() as drawn:
            render_detail(GAME.key, view)
        words = " ".join(text.text for text in drawn)
        assert not set(re.findall(r"\w+", words)) & english_first_names


def test_region_initials_are_german_at_a_german_table() -> None:
    central = next(number for number, location in COMP.locations.items() if location.region == "C")
    name = COMP.locations[central].names
    assert location_label(COMP, central, "de") == f"{central} M {name['de']}"  # Mitte
    assert location_label(COMP, central, "en") == f"{central} C {name['en']}"  # Central
    north = next(number for number, location in COMP.locations.items() if location.region == "N")
    assert location_label(COMP, north, "de").startswith(f"{north} N ")
    south = next(number for number, location in COMP.locations.items() if location.region == "S")
    assert location_label(COMP, south, "de").startswith(f"{south} S ")


def _initials(texts: list[str]) -> set[str]:
    return {letter for text in texts for letter in re.findall(r"\b\d{1,2} ([A-Z])\b", text.replace("\u00a0", " "))}


def test_the_german_board_marks_face_down_tiles_and_labels_with_german_initials() -> None:
    drawn: dict[str, list[str]] = {}
    alts: dict[str, list[str]] = {}
    for language in ("de", "en"):
        drawn[language], alts[language] = [], []
        for state in positions_in(language, GAME.key, "standard", 2, seed=3):
            view = {**GAME.view(state, None), "language": language}
            with kit.recording() as recorded:
                render_board(GAME.key, view)
                render_detail(GAME.key, view)
            drawn[language] += [text.text for text in recorded]
            alts[language].append(alt_text(GAME.key, view))
    assert "M?" in drawn["de"] and "C?" not in drawn["de"]  # a face-down Central tile: "Mitte"
    assert "C?" in drawn["en"] and "M?" not in drawn["en"]
    assert _initials(drawn["de"]) == {"S", "M", "N"} == _initials(alts["de"])
    assert _initials(drawn["en"]) == {"S", "C", "N"} == _initials(alts["en"])
