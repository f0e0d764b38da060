"""The message catalogues (issue 21): both languages hold the same ids and placeholders, German plurals and number
formats come from the library, the template matches the code and the command tree, and card texts read in both.
Issue 38: the platform's domain and one per game package, each id in the domain its template gives it, none in two;
a game from outside bot.games brings its own domain, read by the bot's process and its render workers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.extract_messages import build_templates, game_packages, source_messages, templates_from
from bot.core import all_games
from bot.games.monster_expedition.rules.catalog import english_region_names, region_name
from bot.games.the_expedition.rules.catalog import load_catalog
from bot.i18n import (
    COUNTED_NOUNS,
    LANGUAGES,
    Localized,
    counted,
    domains,
    join_or,
    language_of,
    message_ids,
    placeholders,
    translate,
    translate_plural,
)
from bot.i18n.catalog import DOMAIN, catalogue_path, is_plural, load_catalogue, texts

ROOT = Path(__file__).resolve().parent.parent
GAME_DOMAINS = {"expeditions", "monster_expedition", "the_expedition"}


def _ids(catalogue: object) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue if m.id}  # type: ignore[attr-defined]


def test_every_game_package_brings_its_own_domain_and_no_id_is_in_two() -> None:
    assert {package.domain for package in game_packages()} >= GAME_DOMAINS
    assert set(domains()) >= {DOMAIN, *GAME_DOMAINS}
    for package in game_packages():
        assert package.locales is not None
        for language in LANGUAGES:
            assert catalogue_path(language, str(package.domain)) == (
                package.locales.resolve() / language / "LC_MESSAGES" / f"{package.domain}.po")
    for language in LANGUAGES:
        held = {domain: _ids(load_catalogue(language, domain)) for domain in domains()}
        assert all(len(held[domain]) > 100 for domain in (DOMAIN, *GAME_DOMAINS)), {
            domain: len(ids) for domain, ids in held.items()}
        assert sum(len(ids) for ids in held.values()) == len(set().union(*held.values())), language
        assert set().union(*held.values()) == message_ids(language), language
    assert "expeditions.effect.boast" in _ids(load_catalogue("de", "expeditions"))
    assert "expeditions.effect.boast" not in _ids(load_catalogue("de", DOMAIN))
    assert "bots.hint.only_move" in _ids(load_catalogue("de", DOMAIN))


def test_every_message_exists_in_every_language_with_the_same_placeholders() -> None:
    english = message_ids("en")
    assert len(english) > 200
    for domain in domains():
        assert _ids(load_catalogue("de", domain)) == _ids(load_catalogue("en", domain)), domain
    for language in LANGUAGES:
        assert message_ids(language) == english, language
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
    assert english_region_names() == {"aerie": "Aerie", "depths": "Depths", "forest": "Enchanted Forest",
                                      "all": "all regions"}
    assert [region_name(r, "de") for r in ("aerie", "depths", "forest")] == ["Horst", "Tiefen", "Zauberwald"]


def test_the_catalogues_hold_exactly_the_ids_the_code_and_the_command_tree_use() -> None:
    """`python -m bot.cli.extract_messages` would write the same templates: no id is missing, left over or in
    another domain than the one whose files use it."""
    templates = build_templates()
    assert set(templates) == set(domains())
    for game in all_games():  # the games the tests register have no German title
        if not type(game).__module__.startswith("bot.games."):
            templates[DOMAIN].delete(f"choice.{game.title}")
    for domain, template in templates.items():
        assert _ids(template) == _ids(load_catalogue("en", domain)) == _ids(load_catalogue("de", domain)), domain
    assert set().union(*(_ids(template) for template in templates.values())) == message_ids("en")
    plural = {m.id[0] for template in templates.values() for m in template if m.id and not isinstance(m.id, str)}
    assert plural == {i for i in message_ids("en") if is_plural(i)}
    english_of = {m.id: m.auto_comments[0].removeprefix("English: ") for template in templates.values()
                  for m in template if isinstance(m.id, str) and m.auto_comments}
    for message_id, english in english_of.items():
        assert translate(message_id, "en") == english, message_id  # the English catalogue is the registration
    assert "command.mech.name" in _ids(templates["expeditions"])  # a game's slash group is its own
    assert "command.game.new.name" in _ids(templates[DOMAIN])
    locations = {path for m in templates["the_expedition"] for path, _line in m.locations}
    assert locations and all(path.startswith("bot/games/the_expedition/") for path in locations)


def test_an_id_only_one_games_files_and_slash_group_use_is_its_own_and_a_shared_one_the_platforms() -> None:
    """The extraction's rule, on the package under tests/ (its folder is scanned beside the platform's although it
    lives outside bot/): its drawing's word and its slash group's name are its own; an id the platform's files use
    too, or a choice a platform command offers as well, stays the platform's."""
    from tests.i18n_domain_game import PACKAGE

    folder = ROOT / "tests" / "i18n_domain_game"
    sources = list(source_messages([PACKAGE]))
    assert [(message, line) for message, path, line in sources if path == folder / "drawing.py"] == [
        ("sign.greeting", 18)]
    sources.append(("bots.hint.only_move", folder / "drawing.py", 30))
    commands: list[tuple[str | None, str, str]] = [("i18n_domain_game", "command.sign.name", "sign"),
                                                   ("i18n_domain_game", "choice.Sign", "Sign"),
                                                   (None, "choice.Sign", "Sign")]
    templates = templates_from(sources, commands, {"i18n_domain_game": folder})
    assert _ids(templates["i18n_domain_game"]) == {"sign.greeting", "command.sign.name"}
    assert {"bots.hint.only_move", "choice.Sign"} <= _ids(templates[DOMAIN])
    assert templates["i18n_domain_game"]["sign.greeting"].locations == [("tests/i18n_domain_game/drawing.py", 18)]


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


OUTSIDE_GAME = """
import asyncio, io, json, sys
from pathlib import Path

from PIL import Image

import bot.games
from bot.core import load_package
from bot.i18n import add_domain, translate
from rendering.pool import RenderPool

package = load_package("tests.i18n_domain_game")


async def drawn_by_a_worker() -> str:
    pool = RenderPool(workers=1)
    try:
        await pool.start()
        png = await pool.render(package.key, {"language": "de"})
    finally:
        pool.close()
    drawn = Image.open(io.BytesIO(png)).text
    return drawn["words"], drawn["warmed"]


found = {"here": [translate("sign.greeting", "en"), translate("sign.greeting", "de-AT")],
         "worker": asyncio.run(drawn_by_a_worker())}
add_domain(Path(sys.argv[1]), "clash")
try:
    translate("sign.greeting", "en")
except ValueError as error:
    found["clash"] = str(error)
print(json.dumps(found))
"""


def test_a_game_from_outside_brings_its_words_to_the_bot_and_its_render_workers(tmp_path: Path) -> None:
    """A package under tests/ (not bot.games) with a catalogue domain of its own, loaded in a fresh process as a
    bot would load it: `translate` reads its word there, and a spawned render worker draws it and warms its
    vocabulary file (the worker finds no such package itself: it is handed the bot's domains and vocabulary
    folders). A second domain holding the same id is an error naming both files."""
    clash = tmp_path / "en" / "LC_MESSAGES" / "clash.po"
    clash.parent.mkdir(parents=True)
    clash.write_text('msgid "sign.greeting"\nmsgstr "Hello twice"\n', encoding="utf-8")
    environment = {**os.environ, "EXPEDITION_TABLE_GAMES": ""}
    done = subprocess.run([sys.executable, "-c", OUTSIDE_GAME, str(tmp_path)], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["here"] == ["Greetings from a package of its own", "Grüße aus einem eigenen Paket"]
    assert found["worker"] == ["Grüße aus einem eigenen Paket", "True"]  # its vocabulary is the worker's too
    own = ROOT / "tests" / "i18n_domain_game" / "locales" / "en" / "LC_MESSAGES" / "i18n_domain_game.po"
    assert found["clash"] == (f"message 'sign.greeting' is defined in two catalogue domains: {own} and {clash}")
