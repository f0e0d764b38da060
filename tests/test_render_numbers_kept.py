"""A number stays on the line of its noun or unit, and of the name or label it follows, wherever a board wraps text:
the header's story ("... Automation 2 moved down; 2" / "moves left on its card"), the side facts, the rules and
card texts, the legends and the final panels, of every game, public and detail boards, in English and German (the
typesetter's rule, rendering/typeset.py `glued`: no catalogue text has to remember a no-break space)."""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Sequence
from typing import Any

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, find_game
from rendering import clear_caches, kit, render_board, render_detail, typeset
from tests.test_render_boards import random_game
from tests.test_render_layout import NAMES, spread

NBSP = "\u00a0"
BEFORE_ITS_NOUN = re.compile(r"[($+\u2212-]?\d+[+%]?")
"""A count with nothing closing it, as a line's last word: "2" of "2 moves left", "11+" of "11+ points"."""
AFTER_ITS_NAME = re.compile(r"[($+\u2212-]?\d+[.,;:)%]*")
"""A number as a line's first word after a word ending in a letter: "3" of "Gas Giants 3", "2" of "Automation 2"."""
CASES = [("the-expedition", "solo", 1), ("the-expedition", "solo-hard", 1), ("the-expedition", "standard", 3),
         ("the-expedition", "abstract", 2), ("monster-expedition", "standard", 4), ("monster-expedition", "solo", 1),
         ("expeditions", "standard", 1), ("expeditions", "standard", 4)]
SEEDS = (3, 5)


def splits(lines: Sequence[str]) -> list[str]:
    """Every place a line ends with a number and the next starts with its noun or unit, or a line ends with a word
    and the next starts with its number. (A number held to a word by a no-break space is not alone: "Gas
    Giants\xa03" / "unscored: ...", "then" / "9\xa0rounds".)"""
    found = []
    for line, following in itertools.pairwise(lines):
        last, first = line.split(" ")[-1], following.split(" ")[0]
        if not last or not first:
            continue
        if (BEFORE_ITS_NOUN.fullmatch(last) and (first[0].isalpha() or first[0] in "$€%")) or (
                last[-1].isalpha() and AFTER_ITS_NAME.fullmatch(first)):
            found.append(f"{line!r} / {following!r}")
    return found


@pytest.fixture
def wrapped(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every text the boards drawn in the test wrap, as its lines: the typesetter's two wrappers are watched
    wherever a rendering module took them from (the kit, the header bands, a renderer's own import)."""
    seen: list[tuple[str, ...]] = []
    lines, wrap = typeset.lines, typeset.wrap

    def watched_lines(text: str, max_width: int, size: int, weight: str = "regular") -> tuple[str, ...]:
        seen.append(out := lines(text, max_width, size, weight))
        return out

    def watched_wrap(draw: Any, text: str, max_width: int, face: Any) -> list[str]:
        out = wrap(draw, text, max_width, face)
        seen.append(tuple(out))
        return out

    for module in [module for name, module in sys.modules.items() if name.startswith("rendering")]:
        for name, original, watched in (("lines", lines, watched_lines), ("wrap", wrap, watched_wrap)):
            if getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, watched)
    clear_caches()
    return seen


def _views(game_key: str, mode: str, players: int, seed: int, language: str) -> list[JSON]:
    game = find_game(game_key)
    names = [*NAMES[:players - 1], "Player 2"][:players] if players > 1 else ["Player 1"]
    return [{**game.view(state, None), "language": language}
            for state in spread(random_game(game_key, mode, names, seed, language))]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_no_board_splits_a_number_from_its_noun(game_key: str, mode: str, players: int, language: str,
                                                wrapped: list[tuple[str, ...]]) -> None:
    broken: list[str] = []
    for seed in SEEDS:
        for number, view in enumerate(_views(game_key, mode, players, seed, language)):
            for render in (render_board, render_detail):
                wrapped.clear()
                render(game_key, view)
                broken += [f"seed {seed} position {number} {render.__name__}: {split}"
                           for lines in wrapped for split in splits(lines)]
    assert not broken, "\n".join(dict.fromkeys(broken))


def test_the_header_story_keeps_the_automations_moves_left_with_their_noun() -> None:
    """The case reported: The Expedition's story of a solo turn, wrapped in the header's two lines."""
    story = ("Player 1 moved down to Titan and marked Luna. Automation 2 moved down to Luna and marked Saturn, "
             "removing Player 1's marker; 2 moves left on its card.")
    for width in range(500, 800, 3):
        assert not splits(kit.lines(story, width, kit.SMALL)), width


def test_the_typesetter_keeps_numbers_with_nouns_names_and_units() -> None:
    """At every width where the words can share lines, none of these splits a number from its word."""
    texts = ["Spiral card: next →, 2 moves left", "unscored: Gas Giants 3, Moon Survey 3",
             "coins $44 + upgrades $7 + corruption $8 + stars $15 · glory 50", "Münzen 44 $ + Sterne 32 $",
             "Control 8 cards; 7 workers or 5 map tokens", "Markierte Orte im Wert von 11+ Punkten.",
             "Das Lager Tiefen von Automat 2 steigt auf Stufe 4 von 8 durch eine beiseitegelegte 2."]
    for text in texts:
        for width in range(max(kit.measure(word, kit.SMALL) for word in text.split(" ")) + 60, 500, 2):
            wrapped = kit.lines(text, width, kit.SMALL)
            assert " ".join(wrapped) == text
            assert not splits(wrapped), (text, width)
    # A list of numbers may break anywhere (dice rolled: "3, 1, 3, 2, 5."); so may a sentence after a number's
    # closing mark ("... a banked 2." / "Player 2 ...").
    assert not typeset.glued("2,", "5.") and not typeset.glued("2.", "Player") and not typeset.glued("3,", "Moon")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_expeditions_final_board_keeps_each_card_name_whole(language: str) -> None:
    """The final board's lists of expeditions scored and not read "Gas" / "Giants 3", "Wide" / "Reach 3": each
    card's name stays on one line with its points (when the list names the cards rather than counting them)."""
    from bot.games.the_expedition.drawing import P_SIDE, in_words

    game = find_game("the-expedition")
    named = 0
    for seed in (3, 5, 7, 11):
        final = random_game(game.key, "standard", ["Bo", "Ziggy", "Ann"], seed, language)[-1]
        view = {**game.view(final, None), "language": language}
        with kit.recording() as drawn:
            render_board(game.key, view)
        lines = [t.text.replace(NBSP, " ") for t in drawn if t.box[0] >= P_SIDE]
        read = " ".join(lines)
        for entry in in_words(view)["participants"]:
            for card in (entry.get("scored") or []) + (entry.get("unscored") or []):
                shown = f"{card['name']} {card['points']}"
                if " " in card["name"] and shown in read:
                    named += 1
                    assert any(shown in line for line in lines), (seed, shown, lines)
    assert named >= 6, named


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("banked", [1, 7, 9])
def test_monster_expeditions_hunt_band_never_shrinks_what_is_left_to_spend(language: str, banked: int) -> None:
    """With several dice banked, "22 of 36 left to spend · a cage costs 10" was fitted down to 14-17 px (under 9
    points on a phone): the cage's price goes first, what is left to spend stays at the small size."""
    game = find_game("monster-expedition")
    state = next(s for s in random_game(game.key, "standard", ["Bo", "Ziggy", "Ann"], 1000, language)
                 if game.view(s, None)["tray"].get("remaining") is not None
                 and game.view(s, None)["tray"].get("cage_affordable"))
    view = {**game.view(state, None), "language": language}
    tray = view["tray"]
    tray["banked"] = (tray["banked"] * banked)[:banked]
    tray["remaining"], tray["hunting_value"] = 22, 36
    with kit.recording() as drawn:
        render_board(game.key, view)
    spend = [t for t in drawn if "22" in t.text and "36" in t.text]
    assert len(spend) == 1 and spend[0].size >= kit.SMALL, [(t.text, t.size) for t in spend]
    assert min(t.size for t in drawn if t.role != "label") >= kit.SMALL
    assert ("10" in spend[0].text) == (banked == 1), spend[0].text  # (the price when there is room)
