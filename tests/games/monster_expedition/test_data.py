"""The shipped component data: counts, published facts, the rulebook's examples, and readable load errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.core.datafiles import DataError, data_dir
from bot.games.monster_expedition.rules.catalog import REGIONS, SETS, load_catalog

from .helpers import CAT


def test_sixty_cards_twelve_camps_and_the_dice() -> None:
    kinds = [c.kind for c in CAT.cards.values()]
    assert (kinds.count("starting"), kinds.count("monster"), kinds.count("trader")) == (6, 53, 1)
    assert len(CAT.camps) == 12 and {(s, r) for s in SETS for r in REGIONS} == set(CAT.camps)
    assert CAT.dice["black"] == (1, 2, 3, 4, 5, 6)
    for colour in ("yellow", "blue", "green"):
        assert max(CAT.dice[colour]) in (8, 10) and any(v > 6 for v in CAT.dice[colour])
    assert max(CAT.dice["green"]) == 8
    assert sorted(CAT.expeditions) == list(range(1, 11))


def test_camps_start_at_two_black_dice_top_at_six_and_flip_after_four_levels() -> None:
    for camp in CAT.camps.values():
        assert camp.at(1).black == 2 and camp.at(8).black <= 6
        assert [lvl.side for lvl in camp.levels] == ["A"] * 4 + ["B"] * 4
    assert CAT.camp("I", "aerie").at(1).bonus == 7  # a 7 improves Han's Aerie camp (expedition 5 example)
    assert CAT.camp("II", "forest").at(1).bonus == 8  # Oliver's bonus improvement from Julia's 8


def test_the_published_names_and_the_rulebook_examples() -> None:
    """The published names are German: German tables read them; English tables read English names."""
    names = {c.names.de: c for c in CAT.cards.values()}
    for name in ("Schuppenadler", "Füchsling", "Kadaverkrabbe", "Stachelmaul", "Schleimriese", "Bufomorph",
                 "Meeresgleiter", "Vertikalwespe", "Medusamorph", "Draco Chelonia"):
        assert name in names
    wasp = names["Vertikalwespe"]
    assert 2 <= wasp.level <= 11 and wasp.level + 10 > 11  # 11 buys a cage or the wasp, not both
    glider, medusa = names["Meeresgleiter"], names["Medusamorph"]
    assert glider.region == medusa.region == "depths"
    assert glider.level <= 10 < medusa.level <= 20 and glider.level + medusa.level > 20
    assert names["Draco Chelonia"].region == "all"
    assert (wasp.name, glider.name, medusa.name) == ("Vertical Wasp", "Sea Glider", "Medusamorph")
    assert CAT.card("monster-trader").names.de == "Monsterhändler"
    latin = {"Medusamorph", "Bufomorph", "Draco Chelonia"}
    assert all(c.names.en != c.names.de for c in CAT.cards.values() if c.names.en not in latin)
    assert len({c.names.en for c in CAT.cards.values()}) == len({c.names.de for c in CAT.cards.values()}) == 60
    assert all(c.caged_vp == 3 for c in CAT.cards.values() if c.vp == 5)
    assert all(c.caged_vp <= c.vp for c in CAT.cards.values())
    assert {c.ability for c in CAT.cards.values()} == {"none", "misthrow", "bonus", "steal", "improve"}
    assert {c.symbiosis for c in CAT.cards.values() if not c.is_trader} == {"red", "purple", "white", "wild"}


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "monster-expedition"
    shutil.copytree(data_dir("monster-expedition"), folder)
    return folder


def test_a_bad_value_names_the_file_the_card_and_the_field(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    cards = folder / "cards.toml"
    cards.write_text(cards.read_text().replace('symbiosis = "red"', 'symbiosis = "blue"', 1))
    with pytest.raises(DataError) as error:
        load_catalog(folder)
    message = str(error.value)
    assert "cards.toml: card #1 (vertikalwespe), field 'symbiosis'" in message


@pytest.mark.parametrize(("file", "old", "new", "expected"), [
    ("cards.toml", 'name.de = "Federling"\n', "",
     "card #2 (federling), field 'name.de': has no Deutsch text: add name.de = \"…\""),
    ("cards.toml", 'name.en = "Featherling"\nname.de = "Federling"', 'name = "Federling"',
     "card #2 (federling), field 'name': must give the text in every language: name.en = \"…\" and "
     "name.de = \"…\" (got 'Federling')"),
    ("expeditions.toml", 'title.en = "The inspection"\n', "",
     "expedition #4, field 'title.en': has no English text: add title.en = \"…\""),
    ("expeditions.toml", 'story.de = "Der Monsterhändler hat ein Sonderangebot für dich."', 'story.de = ""',
     "expedition #8, field 'story.de': must be a non-empty string (got '')"),
])
def test_a_name_or_text_missing_in_one_language_is_named(tmp_path: Path, file: str, old: str, new: str,
                                                         expected: str) -> None:
    folder = _copy(tmp_path)
    path = folder / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError) as error:
        load_catalog(folder)
    assert str(error.value) == f"{path}: {expected}"


def test_expeditions_read_in_both_languages() -> None:
    first = CAT.expeditions[1]
    assert (first.title, first.titles.de) == ("Keep the monsters in check", "Halte die Monster in Schach")
    assert first.stories.de.startswith("Du schlägst dein Lager auf der Insel Solinsula auf.")


def test_a_misspelt_camp_key_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    camps = folder / "camps.toml"
    camps.write_text(camps.read_text().replace("black = 6 }", "blak = 6 }", 1))
    with pytest.raises(DataError, match=r"camps.toml: camp #1 \(I aerie\) level 8, field 'black'"):
        load_catalog(folder)


def test_dice_faces_are_checked(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    dice = folder / "dice.toml"
    dice.write_text(dice.read_text().replace("green = [3, 3, 5, 6, 7, 8]", "green = [3, 3, 5, 6, 7]"))
    with pytest.raises(DataError, match=r"dice.toml.*green"):
        load_catalog(folder)
