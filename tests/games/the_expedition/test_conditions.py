"""Every expedition card's condition, met and not met, on the test grid; and the printed texts."""

from __future__ import annotations

import pytest

from bot.games.the_expedition.rules.conditions import card_met, card_progress, card_text

from .helpers import CELL, GAME, LAYOUT

CATALOG = GAME.catalog

# card id -> (cells that meet it, cells one short of it); cells in reading order, see helpers.LAYOUT.
CASES: dict[str, tuple[set[int], set[int]]] = {
    "corner-stations": ({0, 2, 8}, {0, 1, 2, 4, 5}),
    "supply-chain": ({0, 3, 6, 7}, {0, 1, 2, 6, 8}),
    "straight-route": ({3, 4, 5}, {0, 3, 6, 4, 2}),  # a full column is not a row
    "gas-giants": ({CELL["jupiter"], CELL["saturn"]}, {CELL["jupiter"], CELL["neptune"], CELL["mars"]}),
    "moon-survey": ({CELL["luna"], CELL["io"], CELL["titan"]}, {CELL["luna"], CELL["europa"], CELL["saturn"]}),
    "wide-reach": ({0, 4, 8}, {0, 3, 6, 4}),
    "star-crossing": ({4, 0, 6}, {0, 2, 6, 8}),
    "rich-claims": ({CELL["neptune"], CELL["jupiter"], CELL["saturn"], CELL["europa"]},
                    {CELL["neptune"], CELL["jupiter"], CELL["saturn"], CELL["luna"]}),
    "outposts": ({0, 1, 2, 3, 8}, {0, 1, 2, 3}),
}

TEXTS = {
    "corner-stations": "Markers in three corners.",
    "supply-chain": "Four markers adjacent (one connected group).",
    "straight-route": "A full row of markers.",
    "gas-giants": "Markers on Jupiter and Saturn.",
    "moon-survey": "Markers on three moons.",
    "wide-reach": "A marker in every row and a marker in every column.",
    "star-crossing": "A marker on the center and markers in two corners.",
    "rich-claims": "Marked locations worth 11+ points.",
    "outposts": "Five markers on the grid.",
}


def test_every_shipped_card_has_a_case() -> None:
    assert set(CASES) == {card.id for card in CATALOG.expeditions}


@pytest.mark.parametrize("card_id", sorted(CASES))
def test_condition_met_and_not_met(card_id: str) -> None:
    card = CATALOG.expedition(card_id)
    met, short = CASES[card_id]
    assert card_met(card, met, LAYOUT, CATALOG)
    assert not card_met(card, short, LAYOUT, CATALOG)
    assert not card_met(card, set(), LAYOUT, CATALOG)
    assert card_text(card, CATALOG) == TEXTS[card_id]


def test_progress_says_how_close() -> None:
    def texts(card_id: str, cells: set[int]) -> list[str]:
        return [p.text for p in card_progress(CATALOG.expedition(card_id), cells, LAYOUT, CATALOG)]

    assert texts("corner-stations", {0, 4}) == ["1 of 3 corners"]
    assert texts("supply-chain", {0, 1, 5}) == ["largest connected group 2 of 4"]
    assert texts("straight-route", {0, 1, 4}) == ["best row: 2 of 3"]
    assert texts("gas-giants", set()) == ["0 of 2 (none yet; missing Jupiter and Saturn)"]
    assert texts("moon-survey", {0, 4}) == ["2 of 3 moons"]
    assert texts("wide-reach", {0, 1}) == ["1 of 3 rows", "2 of 3 columns"]
    assert texts("star-crossing", {4}) == ["1 of 1 center", "0 of 2 corners"]
    assert texts("rich-claims", {CELL["neptune"], CELL["mars"]}) == ["5 of 11 points"]
    assert texts("outposts", {1, 2}) == ["2 of 5 markers"]
