"""Rules tests for setup, phases 1-2 (camps, dice, banking, misthrows) and the rulebook's hunting examples."""

from __future__ import annotations

import pytest

from bot.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from bot.games.monster_expedition.rules.rules import legal_actions
from bot.games.monster_expedition.rules.state import black_dice

from .helpers import CAT, act, dice, give, hunt, kinds, named, set_display, standard, start_turn


@pytest.mark.parametrize(("players", "deck", "reserve"), [(2, 24, 26), (3, 32, 18), (4, 38, 12)])
def test_setup_decks_display_and_camps(players: int, deck: int, reserve: int) -> None:
    state = standard(players)
    assert len(state["deck"]) == deck  # 27/35/41 minus the 3 cards revealed from it
    assert len(state["reserve"]) == reserve
    ids = [slot["card"] for slot in state["display"]]
    assert len(ids) == 10
    assert ids[:6] == CAT.starting_ids and ids[6] == "monster-trader"
    assert all(slot["crest"] is None for slot in state["display"])  # the opening reveal places no crests
    assert [p["set"] for p in state["players"]] == ["I", "II", "III", "IV"][:players]
    for player in state["players"]:
        assert player["camps"] == {"aerie": 1, "depths": 1, "forest": 1}
        assert player["crests"] == 9
    assert state["phase"] == "camp" and state["active"] == 0


def test_a_camp_gives_its_coloured_die_and_two_black_dice() -> None:
    state = standard()
    state, events = act(state, {"type": "camp", "region": "aerie"}, dice(4, 1, 3, region="aerie"))
    assert events[0] == {"kind": "camp_chosen", "seat": 0, "region": "aerie", "level": 1, "dice": 3, "black": 2}
    assert [d["colour"] for d in state["turn"]["rolled"]] == ["yellow", "black", "black"]
    assert [d["value"] for d in state["turn"]["rolled"]] == [4, 1, 3]


def test_symbiosis_sets_add_black_dice_wild_counts_as_any_colour_and_eight_is_the_cap() -> None:
    state = standard()
    give(state, 0, monsters=["vertikalwespe", "federling", "kadaverkrabbe"])  # red, purple, white
    assert black_dice(state, 0, "aerie") == 3
    give(state, 0, monsters=["wolkenhai", "gipfeldrache", "tiefenegel"])  # wild, wild, red
    assert black_dice(state, 0, "aerie") == 4
    give(state, 0, monsters=["fuechsling"])  # a 7th card cannot make a third set
    assert black_dice(state, 0, "aerie") == 4
    state["players"][0]["camps"]["depths"] = 8  # 6 black at the top
    assert black_dice(state, 0, "depths") == 8
    give(state, 0, monsters=["moosgnom", "draco-chelonia"])
    assert black_dice(state, 0, "depths") == 8  # never more than 8 black dice; the blue die comes on top
    state, _ = act(state, {"type": "camp", "region": "depths"}, dice(2, 1, 1, 1, 1, 1, 1, 1, 1,
                                                                          region="depths"))
    assert len(state["turn"]["rolled"]) == 9


def test_caged_monsters_give_no_symbiosis() -> None:
    state = standard()
    give(state, 0, monsters=["vertikalwespe", "federling"], cages=["kadaverkrabbe"])
    assert black_dice(state, 0, "forest") == 2


def test_julias_aerie_hunt_misthrow_and_hunting_value_of_eleven() -> None:
    """Rulebook: Aerie camp, yellow + 2 black; 1, 3, 4 -> bank 3; later a 6; a misthrowing 6; then an 8: 11."""
    state = named(["Julia", "Oliver"])
    state, events = act(state, {"type": "camp", "region": "aerie"}, dice(4, 1, 3, region="aerie"))
    assert state["phase"] == "bank"
    assert legal_actions(state, 0) == [{"type": "bank", "value": v} for v in (1, 3, 4)]
    state, _ = act(state, {"type": "bank", "value": 3})
    assert state["phase"] == "continue"
    state, _ = act(state, {"type": "roll"}, dice(1, 6, colours=["yellow", "black"]))
    state, _ = act(state, {"type": "bank", "value": 6})
    state, events = act(state, {"type": "roll"}, dice(6, colours=["yellow"]))
    assert kinds(events) == ["dice_rolled", "misthrow"]
    assert events[1]["lost"] == {"colour": "black", "value": 6}
    assert [d["value"] for d in state["turn"]["banked"]] == [3]
    assert state["phase"] == "continue"  # after a misthrow she chooses: continue or stop
    state, events = act(state, {"type": "roll"}, dice(8, colours=["yellow"]))
    state, events = act(state, {"type": "bank", "value": 8})
    assert events[-1] == {"kind": "hunt_stopped", "seat": 0, "value": 11, "all_banked": True, "crates": 0}
    assert state["phase"] == "purchase"
    # "She can now choose to buy either a cage or the Vertikalwespe" - never both.
    options = legal_actions(state, 0)
    assert {"type": "capture", "card": "vertikalwespe"} in options
    assert {"type": "cage", "count": 1} in options
    assert {"type": "cage", "count": 2} not in options
    after, _ = act(state, {"type": "capture", "card": "vertikalwespe"})
    assert after["active"] == 1  # 4 left buys nothing: the turn moves on by itself
    after, _ = act(state, {"type": "cage", "count": 1})
    assert after["active"] == 1


def test_julias_banked_three_improves_her_forest_and_oliver_uses_her_eight() -> None:
    """Rulebook: Julia's 3 improves her Enchanted Forest; then Oliver's Forest camp takes a bonus improvement."""
    state = named(["Julia", "Oliver"])
    state, _ = hunt(state, "aerie", [("camp", dice(4, 1, 3, region="aerie")), ("bank", 3),
                                     ("roll", dice(1, 6, colours=["yellow", "black"])), ("bank", 6),
                                     ("roll", dice(6, colours=["yellow"])), ("roll", dice(8, colours=["yellow"])),
                                     ("bank", 8)])
    state, events = act(state, {"type": "cage", "count": 1})
    improvements = [e for e in events if e["kind"] == "camp_improved"]
    assert improvements == [
        {"kind": "camp_improved", "seat": 0, "region": "forest", "level": 2, "cause": "dice", "flipped": False},
        {"kind": "camp_improved", "seat": 1, "region": "forest", "level": 2, "cause": "camp_bonus",
         "flipped": False},
    ]
    assert state["players"][0]["camps"] == {"aerie": 1, "depths": 1, "forest": 2}
    assert state["players"][1]["camps"] == {"aerie": 1, "depths": 1, "forest": 2}


def test_a_lost_number_stays_banked_and_a_misthrow_with_nothing_banked_loses_nothing() -> None:
    state = standard()
    state, _ = hunt(state, "forest", [("camp", dice(5, 3, 4, region="forest")), ("bank", 3),
                                      ("roll", dice(7, 6, colours=["green", "black"])), ("bank", 6)])
    # the green die is left; 3 and 6 are banked: a 3 is a misthrow, losing the highest (6)
    state, events = act(state, {"type": "roll"}, dice(3, colours=["green"]))
    assert events[-1]["lost"] == {"colour": "black", "value": 6}
    probe, _ = act(state, {"type": "roll"}, dice(7, colours=["green"]))
    with pytest.raises(IllegalAction, match=r"banked 6s this turn \(a number lost to a misthrow stays used\)"):
        act(probe, {"type": "bank", "value": 6})
    state, events = act(state, {"type": "roll"}, dice(6, colours=["green"]))
    assert kinds(events) == ["dice_rolled", "misthrow"]  # 6 was lost but stays banked this turn
    assert events[-1]["lost"]["value"] == 3
    assert state["turn"]["banked"] == []
    state, events = act(state, {"type": "roll"}, dice(3, colours=["green"]))
    assert events[-1] == {"kind": "misthrow", "seat": 0, "lost": None}
    assert state["phase"] == "continue"
    assert legal_actions(state, 0) == [{"type": "roll"}, {"type": "stop"}]
    state, events = act(state, {"type": "stop"})
    assert events[0]["value"] == 0


def test_banking_takes_every_die_of_that_number_and_refuses_used_numbers() -> None:
    state = standard()
    state, _ = act(state, {"type": "camp", "region": "depths"}, dice(5, 5, 2, region="depths"))
    with pytest.raises(IllegalAction, match="No die shows 4"):
        act(state, {"type": "bank", "value": 4})
    state, events = act(state, {"type": "bank", "value": 5})
    assert events[0]["count"] == 2 and events[0]["total"] == 10
    state, _ = act(state, {"type": "roll"}, dice(5, colours=["black"]))
    assert state["phase"] == "continue"  # only a banked number showed: misthrow
    assert [d["value"] for d in state["turn"]["banked"]] == [5]


def test_bank_then_roll_or_stop_in_one_action() -> None:
    state = standard()
    state, _ = act(state, {"type": "camp", "region": "depths"}, dice(9, 5, 2, region="depths"))
    state, events = act(state, {"type": "bank", "value": 9, "then": "roll"}, dice(4, 1, colours=["black", "black"]))
    assert kinds(events) == ["dice_banked", "dice_rolled"] and state["phase"] == "bank"
    state, events = act(state, {"type": "bank", "value": 4, "then": "stop"})
    assert events[-1]["kind"] in ("hunt_stopped", "turn_started")
    assert events[1]["value"] == 13


def test_region_rule_and_draco_chelonia_from_any_camp() -> None:
    state = standard()
    set_display(state, ["bufomorph", "meeresgleiter", "draco-chelonia", "schuppenadler"])
    state, _ = hunt(state, "forest", [("camp", dice(8, 6, 6, region="forest")), ("bank", 6),
                                      ("roll", dice(8, colours=["green"])), ("bank", 8)])
    assert state["turn"]["hunting_value"] == 20
    options = legal_actions(state, 0)
    captures = {a["card"] for a in options if a["type"] == "capture"}
    assert captures == {"bufomorph", "draco-chelonia"}
    with pytest.raises(IllegalAction, match="lives in the Depths"):
        act(state, {"type": "capture", "card": "meeresgleiter"})
    state, events = act(state, {"type": "capture", "card": "Draco Chelonia"})  # names are accepted too
    assert events[0]["card"] == "draco-chelonia"


def test_olivers_twenty_two_cages_a_cage_and_the_meeresgleiter_or_the_medusamorph() -> None:
    state = named(["Julia", "Oliver"])
    set_display(state, ["meeresgleiter", "medusamorph", "kadaverkrabbe", "schuppenadler"])
    start_turn(state, 1)
    state, _ = hunt(state, "depths", [("camp", dice(10, 6, 1, region="depths")), ("bank", 10),
                                      ("roll", dice(6, 4, colours=["black", "black"])), ("bank", 6),
                                      ("roll", dice(4, colours=["black"])), ("bank", 4)])
    assert state["turn"]["hunting_value"] == 20
    options = legal_actions(state, 1)
    assert {"type": "cage", "count": 2} in options
    assert {"type": "capture", "card": "medusamorph"} in options
    two_cages, _ = act(state, {"type": "cage", "count": 2})
    assert two_cages["active"] == 0 and len(two_cages["players"][1]["cages"]) == 2
    glider, _ = act(state, {"type": "capture", "card": "meeresgleiter"})
    assert {"type": "cage", "count": 1} in legal_actions(glider, 1)
    assert {"type": "capture", "card": "medusamorph"} not in legal_actions(glider, 1)
    glider, _ = act(glider, {"type": "cage", "count": 1})
    assert glider["active"] == 0
    medusa, _ = act(state, {"type": "capture", "card": "medusamorph"})
    assert medusa["active"] == 0  # 4 left: the Kadaverkrabbe (6) is out of reach, so the turn moves on


def test_leftover_hunting_value_is_lost() -> None:
    state = standard()
    set_display(state, ["stachelmaul"])
    state, _ = hunt(state, "depths", [("camp", dice(9, 5, 4, region="depths")), ("bank", 9),
                                      ("roll", dice(5, 4, colours=["black", "black"])), ("bank", 5),
                                      ("roll", dice(4, colours=["black"])), ("bank", 4)])
    state, events = act(state, {"type": "done"})
    assert events[0] == {"kind": "purchases_done", "seat": 0, "unspent": 18}
    assert state["active"] == 1 and state["turn"]["hunting_value"] == 0


def test_errors_name_what_is_allowed() -> None:
    state = standard()
    with pytest.raises(NotYourTurn, match="P0's turn"):
        act(state, {"type": "camp", "region": "aerie"}, seat=1)
    with pytest.raises(MalformedAction, match="not a camp"):
        act(state, {"type": "camp", "region": "moon"})
    with pytest.raises(MalformedAction, match="not a Monster Expedition action"):
        act(state, {"type": "fly"})
    with pytest.raises(IllegalAction, match="pick a camp first"):
        act(state, {"type": "roll"})
    state["over"] = True
    with pytest.raises(GameOver):
        act(state, {"type": "roll"})


def test_apply_never_mutates_its_input() -> None:
    state = standard()
    import copy

    before = copy.deepcopy(state)
    act(state, {"type": "camp", "region": "aerie"}, dice(4, 1, 3, region="aerie"))
    assert state == before
