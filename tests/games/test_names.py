"""bot/core/names.py: the one folding rule for typed names, and the counted-noun helpers every game's text uses."""

from __future__ import annotations

import pytest

from bot.core.names import a_number, contains, fold, plural, same_name
from bot.games.the_expedition.commands import location_id


@pytest.mark.parametrize(("typed", "folded"), [
    ("Füchsling", "fuchsling"), ("  FÜCHSLING ", "fuchsling"), ("Aschephönix", "aschephonix"),
    ("Cartographer’s   Kit", "cartographer's kit"), ("Straße", "strasse"), ("Ærø", "aero"), ("", ""),
])
def test_fold_drops_accents_case_and_extra_spaces(typed: str, folded: str) -> None:
    assert fold(typed) == folded


def test_same_name_and_contains_compare_folded_text() -> None:
    assert same_name("fuchsling", "Füchsling") and same_name("KÜRBISGEIST", "Kürbisgeist")
    assert not same_name("fuechsling", "Füchsling")  # an umlaut spelled out is another spelling, not an accent
    assert contains("fuchs", "Füchsling (level 6, 2 VP)") and contains("", "anything")
    assert not contains("fuchsx", "Füchsling (level 6, 2 VP)")


def test_plural_and_article() -> None:
    assert [plural(n, "cage") for n in (0, 1, 2)] == ["0 cages", "1 cage", "2 cages"]
    assert [plural(n, "die", "dice") for n in (1, 3)] == ["1 die", "3 dice"]
    assert [a_number(n) for n in (1, 6, 8, 11, 12, 18, 80)] == ["a 1", "a 6", "an 8", "an 11", "a 12", "an 18",
                                                                 "an 80"]


def test_the_explore_cog_finds_a_location_typed_with_accents_or_in_capitals() -> None:
    assert location_id("MÄRS") == "mars"
    assert location_id("  saturn ") == "saturn"
    assert location_id("Pluto") == "Pluto"  # unknown names go through unchanged: the rules explain the refusal
