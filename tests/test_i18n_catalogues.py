"""The message catalogues (issue 21): both languages hold the same ids and placeholders, German plurals and number
formats come from the library, the template matches the code and the command tree, and card texts read in both."""

from __future__ import annotations

import pytest

from bot.cli.extract_messages import build_template
from bot.core import all_games
from bot.games.monster_expedition.rules.catalog import REGION_NAMES, region_name
from bot.games.the_expedition.rules.catalog import load_catalog
from bot.i18n import (
    COUNTED_NOUNS,
    LANGUAGES,
    Localized,
    counted,
    join_or,
    language_of,
    message_ids,
    placeholders,
    translate,
    translate_plural,
)
from bot.i18n.catalog import is_plural, load_catalogue, texts


def _ids(catalogue: object) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue if m.id}  # type: ignore[attr-defined]


def test_every_message_exists_in_every_language_with_the_same_placeholders() -> None:
    english = message_ids("en")
    assert len(english) > 200
    for language in LANGUAGES:
        assert _ids(load_catalogue(language)) == message_ids(language) == english, language
    for message_id in english:
        wanted = {frozenset(placeholders(text)) for text in texts(message_id, "en")}
        for language in LANGUAGES:
            assert is_plural(message_id, language) == is_plural(message_id, "en"), (language, message_id)
            got = {frozenset(placeholders(text)) for text in texts(message_id, language)}
            assert got == wanted, (language, message_id, got, wanted)


def test_german_has_real_plurals_and_german_number_formats() -> None:
    assert [counted("cage", n, "de") for n in (0, 1, 2)] == ["0 Käfige", "1 Käfig", "2 Käfige"]
    assert [counted("cage", n, "en") for n in (0, 1, 2)] == ["0 cages", "1 cage", "2 cages"]
    assert (counted("die", 1, "de"), counted("die", 3, "de")) == ("1 Würfel", "3 Würfel")
    assert (counted("die", 1, "en"), counted("die", 3, "en")) == ("1 die", "3 dice")
    assert counted("card", 1000, "de") == "1.000 Karten" and counted("card", 1000, "en") == "1,000 cards"
    assert counted("turn", 2, "de") == "2 Züge" and counted("victory point", 1, "de") == "1 Siegpunkt"
    assert set(COUNTED_NOUNS.values()) <= message_ids("de")
    assert join_or(["unten", "links"], "de") == "unten oder links"
    assert join_or(["below", "left", "above"], "en") == "below, left, or above"


def test_the_readers_language_falls_back_to_english() -> None:
    assert translate("region.forest", "de") == "Zauberwald"
    assert translate("region.forest", "en-GB") == translate("region.forest", "fr") == "Enchanted Forest"
    assert translate("region.forest", None) == "Enchanted Forest"
    assert (language_of("de"), language_of("de-AT"), language_of("en-US"), language_of("pt-BR")) == (
        "de", "de", "en", "en")
    with pytest.raises(KeyError, match="no-such-message"):
        translate("no-such-message", "de")
    with pytest.raises(KeyError, match="give it a count"):
        translate("count.cage", "de")
    assert translate_plural("location.rule.holds", 2, "de") == "Hält 2 Marker; zuerst geht der älteste."


def test_localized_texts_pick_the_language() -> None:
    name = Localized(en="Vertical Wasp", de="Vertikalwespe")
    assert (name["en"], name["de"], name["fr"]) == ("Vertical Wasp", "Vertikalwespe", "Vertical Wasp")
    assert name.texts == ("Vertical Wasp", "Vertikalwespe")


def test_card_texts_from_the_catalogue_read_in_both_languages() -> None:
    catalog = load_catalog()
    saturn, titan, luna = catalog.location("saturn"), catalog.location("titan"), catalog.location("luna")
    assert saturn.rule_text == "Can't be entered from below."
    assert saturn.rule_text_in("de") == "Kann nicht von unten betreten werden."
    assert titan.rule_text == "Holds 2 markers; the oldest leaves first."
    assert luna.rule_text_in("de") == "Marker hier werden nie entfernt."
    assert REGION_NAMES == {"aerie": "Aerie", "depths": "Depths", "forest": "Enchanted Forest", "all": "all regions"}
    assert [region_name(r, "de") for r in ("aerie", "depths", "forest")] == ["Horst", "Tiefen", "Zauberwald"]


def test_the_catalogues_hold_exactly_the_ids_the_code_and_the_command_tree_use() -> None:
    """`python -m bot.cli.extract_messages` would write the same template: no id is missing or left over."""
    template = build_template()
    for game in all_games():  # the games the tests register have no German title
        if not type(game).__module__.startswith("bot.games."):
            template.delete(f"choice.{game.title}")
    assert _ids(template) == message_ids("en") == message_ids("de")
    plural = {m.id[0] for m in template if m.id and not isinstance(m.id, str)}
    assert plural == {i for i in message_ids("en") if is_plural(i)}
    english_of = {m.id: m.auto_comments[0].removeprefix("English: ") for m in template
                  if isinstance(m.id, str) and m.auto_comments}
    for message_id, english in english_of.items():
        assert translate(message_id, "en") == english, message_id  # the English catalogue is the registration


def test_a_refusal_raised_with_a_message_id_is_worded_in_the_readers_language() -> None:
    import pickle

    from bot.core.errors import IllegalAction
    from bot.i18n import Text

    error = IllegalAction("location.rule.holds", count=2)
    assert str(error) == "Holds 2 markers; the oldest leaves first."
    assert error.text("de") == "Hält 2 Marker; zuerst geht der älteste."
    travelled = pickle.loads(pickle.dumps(error))  # a computer player's refusal crosses the process pool
    assert type(travelled) is IllegalAction and travelled.text("de-AT") == error.text("de")
    later = Text.of("location.rule.holds", count=3)  # a story line made where the facts are, worded per reader
    assert (later("de"), later("en")) == ("Hält 3 Marker; zuerst geht der älteste.",
                                          "Holds 3 markers; the oldest leaves first.")
    assert IllegalAction("Plain words, not yet in the catalogues.").text("de") == (
        "Plain words, not yet in the catalogues.")
