"""Issue 10's Monster Expedition defects: caged VP, counted nouns, one way to write camp levels, the solo result said
once, and monster names typed without accents."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.core.datafiles import DataError, data_dir
from bot.core.errors import IllegalAction
from bot.games.monster_expedition import GAME
from bot.games.monster_expedition.rules.catalog import load_catalog
from bot.games.monster_expedition.rules.effects import cage_points
from bot.games.monster_expedition.rules.solo import victory_text
from bot.games.monster_expedition.rules.text import camp_level, describe, turn_text
from tests.reading import read

from .helpers import CAT, act, give, named, set_display, solo, standard


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "monster-expedition"
    shutil.copytree(data_dir("monster-expedition"), folder)
    return folder


def _set_caged_vp(folder: Path, card_id: str, value: int) -> None:
    cards = folder / "cards.toml"
    text = cards.read_text()
    start = text.index(f'id = "{card_id}"')
    end = text.index("[[card]]", start)
    block = re.sub(r"caged_vp = \d+", f"caged_vp = {value}", text[start:end])
    cards.write_text(text[:start] + block + text[end:])


def test_caged_vp_is_fewer_from_two_vp_up_and_one_for_a_one_vp_monster() -> None:
    monsters = [card for card in CAT.cards.values() if card.kind != "trader"]
    assert {(c.vp, c.caged_vp) for c in monsters if c.vp == 1} == {(1, 1)}
    assert all(1 <= c.caged_vp < c.vp for c in monsters if c.vp >= 2)
    state = standard()
    give(state, 0, cages=["federling", "tiefenegel"])  # two 1 VP monsters
    assert cage_points(state["players"][0], CAT) == 2


@pytest.mark.parametrize(("card_id", "value"), [("federling", 0), ("fuechsling", 2)])
def test_data_with_a_worthless_or_undiscounted_cage_is_refused(tmp_path: Path, card_id: str, value: int) -> None:
    folder = _copy(tmp_path)
    _set_caged_vp(folder, card_id, value)
    with pytest.raises(DataError, match="caged_vp"):
        load_catalog(folder)


def test_rules_text_states_caged_vp_and_automatic_improvements() -> None:
    text = GAME.rules_text("standard")
    assert ("Caged VP: a monster worth 2 VP or more is worth fewer VP caged (a 5 VP monster is worth 3); a 1 VP "
            "monster is worth 1 VP caged, like a noted cage: a cage is never worth nothing.") in text
    assert "Bonus and misthrow improvements are automatic: a player cannot decline them." in text
    assert "a player cannot decline them" in GAME.rules_text("solo")


def test_counted_nouns_agree_with_their_numbers() -> None:
    state = named(["Julia", "Oliver"])
    assert read(describe(state, {"kind": "cages_taken", "seat": 0, "reason": "draw", "count": 1, "total": 1})) == \
        "Julia takes 1 cage (1 in all)."
    assert read(describe(state, {"kind": "cages_taken", "seat": 0, "reason": "bought", "count": 1, "total": 1})) == \
        "Julia now has 1 cage."
    assert read(describe(state, {"kind": "dice_banked", "seat": 0, "value": 8, "count": 1, "total": 8})) == \
        "Julia banks an 8 (banked total 8)."
    assert read(describe(state, {"kind": "dice_banked", "seat": 0, "value": 11, "count": 1, "total": 19})) == \
        "Julia banks an 11 (banked total 19)."
    assert read(describe(state, {"kind": "dice_banked", "seat": 0, "value": 6, "count": 1, "total": 6})) == \
        "Julia banks a 6 (banked total 6)."
    assert read(describe(state, {"kind": "hunt_stopped", "seat": 0, "value": 9, "crates": 1})) == \
        "Julia stops with a hunting value of 9 and gains 1 crate."
    assert read(describe(state, {"kind": "trader_visited", "seat": 0, "cost": 30, "crates": 1})) == \
        "Julia visits the Monster Trader for 30 using 1 crate: 6 cages."
    assert read(describe(state, {"kind": "camp_chosen", "seat": 0, "region": "aerie", "level": 1, "dice": 3})) == \
        "Julia hunts from the Aerie camp (level 1 of 8) with 3 dice."
    state["phase"] = "continue"
    state["turn"].update(rolled=[{"value": 4, "colour": "black"}], banked=[{"value": 6, "colour": "black"}])
    assert read(turn_text(state)) == "Julia: roll 1 die again or stop at 6"


def test_camp_levels_are_written_one_way() -> None:
    assert camp_level(3) == "level 3 of 8"
    assert camp_level(8) == "level 8 of 8 (final)"
    state = named(["Julia", "Oliver"])
    state["players"][0]["camps"]["aerie"] = 8
    improved = {"kind": "camp_improved", "seat": 0, "region": "aerie", "level": 8, "cause": "dice"}
    assert read(describe(state, improved)) == \
        "Julia's Aerie camp rises to level 8 of 8 (final) with a banked 1."
    assert "Aerie level 8 of 8 (final) (yellow" in GAME.private_text(state, 0)


def test_a_solo_win_is_said_once_on_the_board_with_what_was_achieved() -> None:
    state = solo(1, profile={})
    set_display(state, ["stachelmaul", "federling", "tiefenegel", "kadaverkrabbe", "fuechsling", "moosgnom",
                        "lavakrebs", "farnechse"])
    give(state, 0, cages=["abgrundauge"])
    state["turn"].update({"region": "depths", "hunting_value": 30})
    state["phase"] = "purchase"
    state, _ = act(state, {"type": "capture", "card": "stachelmaul"})
    view = GAME.view(state, None)
    header = f"{view['turn']} {view['last_move']}"
    assert "won" not in header.lower()  # the result panel says it; the header says what comes next
    assert view["turn"] == "Next: expedition 2; set out with /hunt solo."
    assert read(view["last_move"]) == "Han captures Spike Maw for 6."
    outcome = GAME.outcome(state)
    assert outcome is not None and read(outcome.summary).startswith("Han won expedition 1: ")


@pytest.mark.parametrize("typed", ["fuchsling", "FUCHSLING", "  Foxling ", "fÜchsling"])
def test_a_monster_name_typed_without_accents_is_found(typed: str) -> None:
    state = standard()
    set_display(state, ["fuechsling", "moosgnom", "bufomorph"])
    state["turn"].update({"region": "forest", "hunting_value": 10})
    state["phase"] = "purchase"
    state, events = act(state, {"type": "capture", "card": typed})
    assert events[0]["kind"] == "monster_captured" and events[0]["card"] == "fuechsling"


def test_more_counted_nouns_found_by_the_sweep() -> None:
    state = named(["Julia", "Oliver"])
    refill = {"kind": "display_refilled", "seat": 0, "short": 0,
              "cards": [{"card": "federling", "crest": 0}, {"card": "moosgnom", "crest": None}]}
    assert read(describe(state, refill)) == ("The display is refilled with Featherling, Moss Gnome; Julia puts a "
                                             "crest on 1 of them.")
    refill["cards"][1]["crest"] = 0
    assert read(describe(state, refill)) == ("The display is refilled with Featherling, Moss Gnome; Julia puts a "
                                             "crest on each.")
    assert read(describe(state, {"kind": "game_ended", "scores": [20, 18], "winners": [0]})) == \
        "The hunt is over: Julia 20 VP, Oliver 18 VP. Julia wins!"
    state = standard()
    state["turn"].update({"region": "forest", "hunting_value": 5})
    state["phase"] = "purchase"
    with pytest.raises(IllegalAction, match=r"1 cage costs 10 and you have 5 left"):
        act(state, {"type": "cage", "count": 1})
    goals = [victory_text(expedition) for expedition in CAT.expeditions.values()]
    assert not [goal for goal in goals if re.search(r"\b1 (cages|camps|visits)\b", goal)]
    assert any("at least 1 visit to the Monster Trader" in goal for goal in goals)


def test_a_lost_solo_expedition_headline_says_how_to_try_again() -> None:
    state = solo(3)
    state["reserve"] += state["deck"]
    state["deck"] = []
    state["turn"].update({"region": "depths", "hunting_value": 0})
    state["phase"] = "purchase"
    state, events = act(state, {"type": "done"})
    assert events[-1]["kind"] == "expedition_lost"
    assert GAME.view(state, None)["turn"] == ("Try expedition 3 again with /hunt solo: each failed attempt gives one "
                                              "more camp improvement before you set out.")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert read(outcome.summary) == "Han lost expedition 3: no card left in the draw deck to reveal."


def test_a_reveal_into_an_empty_solo_display_counts_1_card() -> None:
    state = solo(1)
    assert read(describe(state, {"kind": "card_revealed", "card": "federling", "display": 1, "deck": 3})) == \
        "Featherling appears in the display (1 card, 3 left in the deck)."
