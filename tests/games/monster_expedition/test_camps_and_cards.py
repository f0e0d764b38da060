"""Rules tests for Phase 3 (improvements), monster abilities, cages, the trader, Phase 4 (refill and crests)."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.games.monster_expedition import GAME
from bot.games.monster_expedition.rules.effects import improve
from bot.games.monster_expedition.rules.rules import legal_actions
from tests.reading import read

from .helpers import CAT, act, dice, give, hunt, kinds, named, set_display, standard, start_turn, stop_and_finish


def _improvements(events: list[dict]) -> list[tuple[int, str, int, str]]:
    return [(e["seat"], e["region"], e["level"], e["cause"]) for e in events if e["kind"] == "camp_improved"]


def _finish_with_cage(state: dict) -> tuple[dict, list[dict]]:
    return act(state, {"type": "cage", "count": 1})


def test_a_bonus_value_is_read_from_the_current_level_so_order_matters() -> None:
    """Set I Aerie: level 1 bonus 7, level 3 bonus 5. Banked 7, 1, 5 give three improvements (7, then 1, then 5)."""
    state = standard()
    state, _ = hunt(state, "aerie", [("camp", dice(7, 1, 5, region="aerie")), ("bank", 1),
                                     ("roll", dice(7, 5, colours=["yellow", "black"])), ("bank", 5),
                                     ("roll", dice(7, colours=["yellow"])), ("bank", 7)])
    state, events = act(state, {"type": "done"})
    assert _improvements(events)[:3] == [(0, "aerie", 2, "camp_bonus"), (0, "aerie", 3, "dice"),
                                         (0, "aerie", 4, "camp_bonus")]


def test_each_die_improves_one_camp_at_most_once() -> None:
    """A 5 matching both the camp's level bonus and the Nebelkauz's bonus value improves the Aerie once."""
    state = standard()
    give(state, 0, monsters=["nebelkauz"])  # Aerie, bonus value 5
    state["players"][0]["camps"]["aerie"] = 3  # set I Aerie level 3 prints bonus 5
    state, _ = hunt(state, "depths", [("camp", dice(9, 5, 6, region="depths")), ("bank", 5), ("roll", dice(9, 6,
                                      colours=["blue", "black"])), ("bank", 9)])
    state, events = stop_and_finish(state)
    assert _improvements(events) == [(0, "aerie", 4, "camp_bonus")]


def test_other_players_use_bonus_values_only_in_turn_order_after_the_active_player() -> None:
    state = named(["Julia", "Oliver", "Mia"])
    give(state, 1, monsters=["nebelkauz"])  # Oliver: Aerie improves on any banked 5
    give(state, 2, monsters=["pilzkobold"])  # Mia: Forest improves on any banked 4
    state, _ = hunt(state, "aerie", [("camp", dice(4, 1, 5, region="aerie")), ("bank", 1),
                                     ("roll", dice(4, 5, colours=["yellow", "black"])), ("bank", 5),
                                     ("roll", dice(4, colours=["yellow"])), ("bank", 4)])
    state, events = act(state, {"type": "done"})
    # Oliver's 5 raises his set II Aerie to level 2, whose printed bonus 4 then uses Julia's 4 as well
    assert _improvements(events) == [(0, "aerie", 2, "dice"), (1, "aerie", 2, "monster_bonus"),
                                     (1, "aerie", 3, "camp_bonus"), (2, "forest", 2, "monster_bonus")]
    # nobody else uses Julia's 1 (an ordinary improvement is for the active player only)
    assert state["players"][2]["camps"]["aerie"] == 1


def test_side_b_after_the_fourth_improvement_and_seven_at_most() -> None:
    state = standard()
    events: list[dict] = []
    for _ in range(4):
        improve(state, 0, "depths", "dice", events)
    assert events[-1]["level"] == 5 and events[-1]["flipped"] is True
    for _ in range(3):
        improve(state, 0, "depths", "dice", events)
    assert state["players"][0]["camps"]["depths"] == 8
    assert not improve(state, 0, "depths", "dice", events)  # an 8th improvement is ignored
    assert state["players"][0]["camps"]["depths"] == 8


def test_the_final_level_gives_two_cages_at_once_and_the_active_player_refills() -> None:
    state = standard()
    state["players"][0]["camps"]["aerie"] = 7
    set_display(state, ["stachelmaul"])  # a small display: a refill would show
    deck_before = len(state["deck"])
    state, _ = hunt(state, "depths", [("camp", dice(5, 1, 6, region="depths")), ("bank", 1), ("roll",
                                      dice(5, 6, colours=["blue", "black"])), ("bank", 5)])
    state, events = stop_and_finish(state)
    taken = next(e for e in events if e["kind"] == "cages_taken")
    assert taken["reason"] == "final_level" and taken["count"] == 2 and taken["from_deck"] == 2
    assert len(state["players"][0]["cages"]) == 2
    refill = next(e for e in events if e["kind"] == "display_refilled")
    assert len(refill["cards"]) == 8 and all(c["crest"] == 0 for c in refill["cards"])
    assert len(state["deck"]) == deck_before - 10
    assert state["players"][0]["crests"] == 1


def test_another_players_final_level_cages_do_not_refill() -> None:
    state = named(["Julia", "Oliver"])
    state["players"][1]["camps"]["forest"] = 7  # set II Forest level 7 prints bonus 4
    set_display(state, ["stachelmaul"])
    state, _ = hunt(state, "depths", [("camp", dice(9, 4, 6, region="depths")), ("bank", 4), ("roll",
                                      dice(9, 6, colours=["blue", "black"])), ("bank", 9)])
    state, events = stop_and_finish(state)
    assert len(state["players"][1]["cages"]) == 2
    assert "display_refilled" not in kinds(events)
    assert len(state["display"]) == 2


def test_misthrow_improvement_once_per_turn_per_card_on_anyones_turn_and_never_from_a_cage() -> None:
    state = named(["Julia", "Oliver"])
    give(state, 0, monsters=["kreischmotte"])  # Aerie misthrow improvement
    give(state, 1, monsters=["leuchtangler"], cages=["sturmfalter"])  # Depths; the caged one never applies
    state, _ = hunt(state, "forest", [("camp", dice(5, 3, 4, region="forest")), ("bank", 3)])
    state, events = act(state, {"type": "roll"}, dice(3, 3, colours=["green", "black"]))
    assert _improvements(events) == [(0, "aerie", 2, "misthrow"), (1, "depths", 2, "misthrow")]
    state, events = act(state, {"type": "roll"}, dice(3, 3, colours=["green", "black"]))
    assert kinds(events) == ["dice_rolled", "misthrow"]  # once per turn per card
    state, _ = stop_and_finish(state)
    # Oliver's turn: the cards work again
    state, _ = hunt(state, "forest", [("camp", dice(5, 3, 4, region="forest")), ("bank", 3)])
    state, events = act(state, {"type": "roll"}, dice(3, 3, colours=["green", "black"]))
    assert _improvements(events) == [(1, "depths", 3, "misthrow"), (0, "aerie", 3, "misthrow")]


def test_immediate_improvement_on_capture() -> None:
    state = standard()
    set_display(state, ["blitzkolibri"])  # Aerie, level 9, improves the Aerie camp at once
    state, _ = hunt(state, "aerie", [("camp", dice(10, 1, 1, region="aerie")), ("bank", 10)])
    state, _ = act(state, {"type": "stop"})
    state, events = act(state, {"type": "capture", "card": "blitzkolibri"})
    assert _improvements(events)[0] == (0, "aerie", 2, "immediate")


def test_steal_a_random_cage_from_the_only_opponent_and_refill() -> None:
    state = named(["Julia", "Oliver"])
    give(state, 1, cages=["abgrundauge", "lavakrebs"])
    set_display(state, ["windschlange"])  # Aerie, level 11, steals a random cage
    state, _ = hunt(state, "aerie", [("camp", dice(10, 1, 1, region="aerie")), ("bank", 10), ("roll", dice(
                    1, 4, colours=["black", "black"])), ("bank", 1)])
    state, _ = act(state, {"type": "stop"})
    state, events = act(state, {"type": "capture", "card": "windschlange"}, [1])
    assert {"kind": "cage_stolen", "seat": 0, "victim": 1} in events
    assert state["players"][0]["cages"] == ["lavakrebs"] and state["players"][1]["cages"] == ["abgrundauge"]
    assert "display_refilled" in kinds(events)  # a stolen cage is a gained cage


def test_steal_asks_whom_when_several_opponents_have_cages_and_does_nothing_without_any() -> None:
    state = named(["Julia", "Oliver", "Mia"])
    give(state, 1, cages=["abgrundauge"])
    give(state, 2, cages=["lavakrebs"])
    set_display(state, ["windschlange", "donnergreif"])
    state, _ = hunt(state, "aerie", [("camp", dice(10, 6, 5, region="aerie")), ("bank", 10), ("roll", dice(
                    6, 5, colours=["black", "black"])), ("bank", 6), ("roll", dice(5, colours=["black"])),
                    ("bank", 5)])
    state, events = act(state, {"type": "capture", "card": "windschlange"})
    assert state["phase"] == "steal"
    assert legal_actions(state, 0) == [{"type": "steal", "seat": 1}, {"type": "steal", "seat": 2}]
    # One menu names whom to steal from (names do not fit a phone's buttons); its descriptions count the cages.
    menu = GAME.choice_menu(state, 0)
    assert menu is not None and GAME.quick_actions(state, 0) == []
    assert [(read(o.label), o.description) for o in menu.options] == [("Oliver", "1 cage: take one at random"),
                                                                ("Mia", "1 cage: take one at random")]
    with pytest.raises(IllegalAction, match="Oliver"):
        act(state, {"type": "steal", "seat": 0})
    state, events = act(state, {"type": "steal", "seat": 2}, [0])
    assert state["players"][0]["cages"] == ["lavakrebs"] and state["players"][2]["cages"] == []
    nobody = named(["Julia", "Oliver"])
    set_display(nobody, ["windschlange"])
    nobody, _ = hunt(nobody, "aerie", [("camp", dice(10, 1, 1, region="aerie")), ("bank", 10), ("roll", dice(
                     1, 4, colours=["black", "black"])), ("bank", 1)])
    nobody, _ = act(nobody, {"type": "stop"})
    nobody, events = act(nobody, {"type": "capture", "card": "windschlange"})
    assert {"kind": "steal_nothing", "seat": 0} in events


def test_refill_only_after_a_cage_with_crests_and_crests_return_on_capture() -> None:
    state = named(["Julia", "Oliver"])
    set_display(state, ["schuppenadler", "federling", "vertikalwespe"])
    state, _ = hunt(state, "aerie", [("camp", dice(7, 6, 1, region="aerie")), ("bank", 7), ("roll",
                    dice(6, 5, colours=["black", "black"])), ("bank", 6), ("roll", dice(5, colours=["black"])),
                    ("bank", 5)])
    state, events = act(state, {"type": "capture", "card": "schuppenadler"})
    state, events = act(state, {"type": "capture", "card": "federling"})
    assert "display_refilled" not in kinds(events)  # captures alone never refill
    assert len(state["display"]) == 2
    # next, Julia buys a cage on her next turn: refill to 10 with her crests
    start_turn(state, 0)
    state, _ = hunt(state, "depths", [("camp", dice(10, 1, 1, region="depths")), ("bank", 10)])
    state, _ = act(state, {"type": "stop"})
    state, events = act(state, {"type": "cage", "count": 1})
    refill = next(e for e in events if e["kind"] == "display_refilled")
    assert len(refill["cards"]) == 8 and state["players"][0]["crests"] == 1
    crested = refill["cards"][0]["card"]
    # Oliver captures a crested card: the crest goes back to Julia
    start_turn(state, 1)
    monster = CAT.card(crested)
    state["turn"].update({"region": monster.region if monster.region != "all" else "aerie",
                          "hunting_value": 40, "banked": [{"colour": "black", "value": 6}]})
    state["phase"] = "purchase"
    state, events = act(state, {"type": "capture", "card": crested})
    assert events[0]["crest_returned_to"] == 0 and state["players"][0]["crests"] == 2


def test_a_player_without_crests_places_none() -> None:
    state = standard()
    state["players"][0]["crests"] = 0
    set_display(state, ["stachelmaul"])
    state["turn"].update({"region": "depths", "hunting_value": 10})
    state["phase"] = "purchase"
    state, events = act(state, {"type": "cage", "count": 1})
    refill = next(e for e in events if e["kind"] == "display_refilled")
    assert all(c["crest"] is None for c in refill["cards"])


def test_the_trader_sells_six_cages_for_forty_stays_and_can_be_visited_twice() -> None:
    state = standard()
    state["turn"].update({"region": "forest", "hunting_value": 80})
    state["phase"] = "purchase"
    assert {"type": "trader"} in legal_actions(state, 0)
    state, events = act(state, {"type": "trader"})
    assert len(state["players"][0]["cages"]) == 6
    assert "monster-trader" in [s["card"] for s in state["display"]]
    state, events = act(state, {"type": "trader"})
    assert len(state["players"][0]["cages"]) == 12
    assert state["active"] == 1  # nothing left: the turn moved on, and the display was refilled
    assert "display_refilled" in kinds(events)


def test_the_trader_is_never_captured_and_cages_cost_ten() -> None:
    state = standard()
    state["turn"].update({"region": "forest", "hunting_value": 39})
    state["phase"] = "purchase"
    with pytest.raises(IllegalAction, match="trader action"):
        act(state, {"type": "capture", "card": "monster-trader"})
    with pytest.raises(IllegalAction, match="asks 40"):
        act(state, {"type": "trader"})
    with pytest.raises(IllegalAction, match="at most 3"):
        act(state, {"type": "cage", "count": 4})


def test_one_banked_die_may_improve_two_different_camps_but_each_only_once() -> None:
    """Set I: Rostschnecke (Depths, bonus 4) and Pilzkobold (Forest, bonus 4). One banked 4 raises both camps;
    Depths level 2 also prints bonus 4, but that die has already improved the Depths camp."""
    state = standard()
    give(state, 0, monsters=["rostschnecke", "pilzkobold"])
    state, _ = hunt(state, "aerie", [("camp", dice(10, 4, 6, region="aerie")), ("bank", 4)])
    state, events = stop_and_finish(state)
    assert _improvements(events) == [(0, "depths", 2, "monster_bonus"), (0, "forest", 2, "monster_bonus")]


def test_a_caged_bonus_monster_gives_no_improvement() -> None:
    state = standard()
    give(state, 0, cages=["nebelkauz"])  # Aerie, bonus value 5, but caged
    state, _ = hunt(state, "depths", [("camp", dice(9, 5, 6, region="depths")), ("bank", 5)])
    state, events = stop_and_finish(state)
    assert _improvements(events) == []


def test_the_steal_takes_the_cage_the_random_draw_picks() -> None:
    """The cage is chosen with one draw over the victim's cages (noted cages included)."""
    for draw, stolen in ((0, "abgrundauge"), (1, "lavakrebs"), (2, None)):
        state = named(["Julia", "Oliver"])
        give(state, 1, cages=["abgrundauge", "lavakrebs"])
        state["players"][1]["noted_cages"] = 1
        set_display(state, ["windschlange"])
        state["turn"].update({"region": "aerie", "hunting_value": 11})
        state["phase"] = "purchase"
        state, _ = act(state, {"type": "capture", "card": "windschlange"}, [draw])
        julia, oliver = state["players"]
        if stolen is None:
            assert julia["noted_cages"] == 1 and oliver["noted_cages"] == 0 and julia["cages"][:1] != ["abgrundauge"]
        else:
            assert julia["cages"][0] == stolen and stolen not in oliver["cages"]
        assert len(oliver["cages"]) + oliver["noted_cages"] == 2


def test_a_full_display_gets_no_card_and_says_so() -> None:
    from bot.games.monster_expedition import GAME

    state = standard()
    state["turn"].update({"region": "forest", "hunting_value": 10})
    state["phase"] = "purchase"
    state, events = act(state, {"type": "cage", "count": 1})
    refill = next(e for e in events if e["kind"] == "display_refilled")
    assert refill["cards"] == [] and refill["short"] == 0
    assert GAME.describe(state, refill) == "The display is full: no card is added."
    assert "display" not in GAME.view(state, None)["last_move"]


def test_an_immediate_improvement_to_the_final_level_gives_two_cages_and_a_refill() -> None:
    state = named(["Julia", "Oliver"])
    state["players"][0]["camps"]["aerie"] = 7
    set_display(state, ["blitzkolibri"])  # Aerie, level 9, improves the Aerie camp at once
    deck = list(state["deck"])
    state["turn"].update({"region": "aerie", "hunting_value": 9})
    state["phase"] = "purchase"
    state, events = act(state, {"type": "capture", "card": "blitzkolibri"})
    assert _improvements(events) == [(0, "aerie", 8, "immediate")]
    assert state["players"][0]["cages"] == deck[:2]
    refill = next(e for e in events if e["kind"] == "display_refilled")
    assert [c["card"] for c in refill["cards"]] == deck[2:11] and len(state["display"]) == 10
