"""The shipped component files load, match the printed game, and a broken file names file, card and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.core.datafiles import DataError, data_dir
from bot.games.expeditions.rules.board import destinations, neighbours
from bot.games.expeditions.rules.data import read_components

from .helpers import COMP, fresh


def test_every_shipped_file_loads_with_the_printed_counts() -> None:
    comp = read_components(data_dir("expeditions"))
    regions = [loc.region for loc in comp.locations.values()]
    assert sorted(comp.locations) == list(range(1, 21))
    assert (regions.count("S"), regions.count("C"), regions.count("N")) == (6, 7, 7)
    assert len(comp.card_spaces) == 5 and len(comp.spaces) == 25
    assert len(comp.deck) >= 60
    kinds = {comp.cards[c].kind for c in comp.deck}
    assert kinds == {"item", "meteorite", "quest"}
    assert len(comp.mechs) == 5 and len(comp.characters) == 5 and len(comp.glory) == 7
    assert comp.token20 == (20, 10, 10)
    assert {m.ability for m in comp.mechs} == {"tatanka", "marsh_strider", "odins_wrath", "lumberjack", "highlander"}
    for character in comp.characters:
        assert "solve" in str(comp.cards[character].ability)
        assert "vanquish" in str(comp.cards[comp.cards[character].companion].ability)
    for card_id in comp.deck:
        card = comp.cards[card_id]
        if card.quest:
            assert card.quest.location in comp.locations


def test_every_location_space_is_reachable_from_the_basecamp() -> None:
    state = fresh(1)
    for space in state["spaces"].values():
        space["revealed"] = True
    assert set(destinations(COMP, state, 0, 20)) == set(state["spaces"])
    assert "c4" in neighbours(COMP)["b4"]  # the card space next to b4 is adjacent (for adjacent cards)


def broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    root = tmp_path / "expeditions"
    shutil.copytree(data_dir("expeditions"), root)
    text = (root / file).read_text()
    assert old in text
    (root / file).write_text(text.replace(old, new, 1))
    return root


@pytest.mark.parametrize(("file", "old", "new", "names"), [
    ("cards.toml", 'ability = [{ map_token = 1 }]\nongoing = { move_range = 1 }',
     'ability = [{ teleport = 1 }]\nongoing = { move_range = 1 }', ("cards.toml", "it-compass", "ability[0]")),
    ("cards.toml", 'colour = "red"\ncoins = 3\ncore = [{ power = 1 }]',
     'colour = "purple"\ncoins = 3\ncore = [{ power = 1 }]', ("cards.toml", "it-lantern", "colour")),
    ("cards.toml", 'quest = { location = 1, cost = { coins = 2 }',
     'quest = { location = 1, cost = { gold = 2 }', ("cards.toml", "qu-01", "quest.cost.gold")),
    ("cards.toml", 'ongoing = { on = "reveal"', 'ongoing = { on = "sneeze"',
     ("cards.toml", "it-lantern", "ongoing.on")),
    ("locations.toml", 'corruption = 4\ngather = [{ power = 1, guile = 1 }',
     'corruption = 4\ngather = [{ power = "x" }', ("locations.toml", "location 7", "gather[0].power")),
    ("characters.toml", 'ability = [{ vanquish = true }]', 'ability = [{ power = 1 }]',
     ("characters.toml", "co-byte", "ability")),
    ("components.toml", 'value = 2\ncount = 5', 'value = 2\ncount = "five"',
     ("components.toml", "corruption #1", "count")),
    ("cards.toml", 'name.en = "Brass Compass"', 'name.en = "Brass Compass"\ncolor = "blue"',
     ("cards.toml", "it-compass", "color")),
])
def test_a_broken_file_names_file_card_and_field(tmp_path: Path, file: str, old: str, new: str,
                                                 names: tuple[str, ...]) -> None:
    root = broken_copy(tmp_path, file, old, new)
    with pytest.raises(DataError) as error:
        read_components(root)
    for expected in names:
        assert expected in str(error.value)


@pytest.mark.parametrize(("file", "old", "new", "names"), [
    ("cards.toml", 'name.de = "Messingkompass"\n', "",
     ("cards.toml", "it-compass", "'name.de'", "has no Deutsch text", 'add name.de = "…"')),
    ("characters.toml", 'name.en = "Ada the Navigator"\n', "",
     ("characters.toml", "ch-ada", "'name.en'", "has no English text")),
    ("locations.toml", 'name.de = "Glasmoor"', 'name.de = " "', ("locations.toml", "location #7", "'name.de'")),
    ("components.toml", 'text.de = "Deine Bewegungsreichweite', 'text.fr = "Deine Bewegungsreichweite',
     ("components.toml", "mech 'marsh-strider'", "'text.fr'", "unknown language(s) fr")),
    ("components.toml", 'title.en = "Solve 4 quests"\ntitle.de = "4 Quests lösen"', 'title = "Solve 4 quests"',
     ("components.toml", "glory 'quests'", "'title'", 'title.en = "…" and title.de = "…"')),
])
def test_every_name_and_text_is_given_in_english_and_german(tmp_path: Path, file: str, old: str, new: str,
                                                             names: tuple[str, ...]) -> None:
    """Owners edit both languages side by side; a missing or misspelt one names the file, the entry and the field."""
    root = broken_copy(tmp_path, file, old, new)
    with pytest.raises(DataError) as error:
        read_components(root)
    for expected in names:
        assert expected in str(error.value)


def test_cards_locations_mechs_and_glory_read_in_both_languages() -> None:
    comp = read_components(data_dir("expeditions"))
    assert (comp.cards["it-compass"].names["en"], comp.cards["it-compass"].names["de"]) == (
        "Brass Compass", "Messingkompass")
    assert comp.cards["it-compass"].name == "Brass Compass"
    assert comp.locations[7].names.de == "Glasmoor" and comp.locations[7].name == "Glass Marsh"
    strider = comp.mech("marsh-strider")
    assert (strider.name, strider.names.de) == ("Marsh Strider", "Sumpfschreiter")
    assert strider.texts.de.startswith("Deine Bewegungsreichweite")
    assert [g.titles.de for g in comp.glory][:2] == ["4 Quests lösen", "4 Meteoriten verschmelzen"]
    everything = [*comp.cards.values(), *comp.locations.values(), *comp.mechs]
    assert all(item.names.en != item.names.de for item in everything if item.names.en not in (
        "Tatanka", "Highlander"))


def test_a_looping_card_is_refused(tmp_path: Path) -> None:
    root = broken_copy(tmp_path, "cards.toml", "ability = [{ refresh = true }]",
                       "ability = [{ refresh = true }, { play = 1 }]")
    with pytest.raises(DataError, match=r"it-tonic.*loop"):
        read_components(root)
