"""The shipped component files load and keep the published facts; a bad file names its file, item and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.core.datafiles import DataError, data_dir
from bot.games.the_expedition.rules.catalog import load_catalog, load_catalog_from
from bot.games.the_expedition.rules.grid import step

CATALOG = load_catalog()


def test_the_published_numbers() -> None:
    assert len(CATALOG.locations) == 9
    assert {loc.kind for loc in CATALOG.locations} == {"planet", "moon"}
    assert all(1 <= loc.points <= 3 for loc in CATALOG.locations)
    assert len(CATALOG.expeditions) == 9
    assert all(2 <= card.points <= 4 for card in CATALOG.expeditions)
    assert len(CATALOG.automations) >= 6
    assert (CATALOG.markers_per_player, CATALOG.hand_size, CATALOG.expeditions_to_end) == (6, 3, 2)
    assert (CATALOG.solo_rounds, CATALOG.solo_automations, CATALOG.market_extra) == (9, 2, 1)


def test_location_rules_are_short_enough_to_print_on_a_tile() -> None:
    ruled = [loc for loc in CATALOG.locations if loc.rule_text]
    assert len(ruled) >= 4
    for location in ruled:
        assert len(location.rule_text.split()) <= 8, location.rule_text
    # Only one location restricts entry, so an explorer is never walled in for good.
    assert sum(1 for loc in CATALOG.locations if loc.no_entry_from) == 1


def test_shipped_automation_paths_stay_on_the_grid_and_make_nine_rounds_matter() -> None:
    for card in CATALOG.automations:
        cell: int | None = card.start
        for direction in card.path:
            assert cell is not None
            cell = step(cell, direction)
            assert cell is not None, f"{card.name} leaves the grid"
    lengths = sorted(len(card.path) for card in CATALOG.automations)
    assert lengths[0] < 9 < lengths[-1]


def test_every_component_has_an_english_and_a_german_name() -> None:
    by_id = {item.id: item.names for item in (*CATALOG.locations, *CATALOG.expeditions, *CATALOG.automations)}
    assert (by_id["neptune"].en, by_id["neptune"].de) == ("Neptune", "Neptun")
    assert (by_id["corner-stations"].en, by_id["corner-stations"].de) == ("Corner Stations", "Eckstationen")
    assert (by_id["zigzag"].en, by_id["zigzag"].de) == ("Zigzag", "Zickzack")
    assert CATALOG.location("mercury").name == "Mercury"


@pytest.fixture()
def copy_of_data(tmp_path: Path) -> Path:
    folder = tmp_path / "the-expedition"
    shutil.copytree(data_dir("the-expedition"), folder)
    return folder


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    """Replace the first `old` after the header comment (which quotes the same field names)."""
    path = folder / name
    text = path.read_text()
    start = text.find("\n[[") if "\n[[" in text else 0
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old):])


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    ("locations.toml", "points = 3", "points = 4", "locations.toml: location 'saturn', field 'points': must be "
                                                   "between 1 and 3 (got 4)"),
    ("locations.toml", 'holds = 2', 'holds = "some"', "location 'titan', field 'holds'"),
    ("locations.toml", 'no_entry_from = ["below"]', 'no_entry_from = ["under"]', "field 'no_entry_from'"),
    ("locations.toml", 'kind = "moon"', 'kind = "comet"', "location 'luna', field 'kind': must be one of planet"),
    ("locations.toml", 'gravity = true', 'gravty = true', "location 'jupiter', field 'gravty': unknown field"),
    ("expeditions.toml", "points = 4", "points = 5", "expedition 'corner-stations', field 'points'"),
    ("expeditions.toml", 'ids = ["jupiter", "saturn"]', 'ids = ["jupiter", "pluto"]',
     "expedition 'gas-giants', require[0], field 'ids': names no known location (pluto)"),
    ("expeditions.toml", 'type = "connected"', 'type = "touching"', "expedition 'supply-chain', require[0], "
                                                                      "field 'type'"),
    ("automations.toml", "start = [2, 1]", "start = [4, 1]", "automation 'pendulum', field 'start'"),
    ("automations.toml", 'path = ["right"', 'path = ["north"', "automation 'pendulum', field 'path'"),
    ("game.toml", "hand_size = 3", "hand_size = 4", "game, field 'hand_size'"),
    ("locations.toml", 'name.de = "Merkur"\n', "", "locations.toml: location 'mercury', field 'name.de': has no "
                                                     'Deutsch text: add name.de = "…"'),
    ("expeditions.toml", 'name.en = "Wide Reach"\n', "", "expedition 'wide-reach', field 'name.en': has no "
                                                          "English text"),
    ("automations.toml", 'name.en = "Spiral"\nname.de = "Spirale"', 'name = "Spiral"',
     "automation 'spiral', field 'name': must give the text in every language: name.en = \"…\" and "
     "name.de = \"…\" (got 'Spiral')"),
])
def test_a_mistake_names_file_item_and_field(copy_of_data: Path, name: str, old: str, new: str,
                                             message: str) -> None:
    _edit(copy_of_data, name, old, new)
    with pytest.raises(DataError) as caught:
        load_catalog_from(copy_of_data)
    assert message in str(caught.value)
    assert name in str(caught.value)


def test_the_grid_needs_nine_locations(copy_of_data: Path) -> None:
    path = copy_of_data / "locations.toml"
    text = path.read_text()
    path.write_text(text[: text.rindex("[[location]]")])
    with pytest.raises(DataError, match="exactly 9 locations \\(found 8\\)"):
        load_catalog_from(copy_of_data)


def test_duplicate_ids_are_refused(copy_of_data: Path) -> None:
    _edit(copy_of_data, "automations.toml", 'id = "orbiter"', 'id = "pendulum"')
    with pytest.raises(DataError, match="automation 'pendulum', field 'id': is used by two items"):
        load_catalog_from(copy_of_data)
