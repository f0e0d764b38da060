"""Rules tests for the solo campaign: setup, the one-card refill, losses, each expedition and the saved progress."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction, LobbyError
from bot.core.rng import Rng
from bot.games.monster_expedition import GAME, campaign_text
from bot.games.monster_expedition.rules.rules import legal_actions
from bot.games.monster_expedition.rules.solo import progress, progress_text
from bot.games.monster_expedition.rules.state import next_expedition, setup_state

from .helpers import act, dice, give, hunt, kinds, set_display, solo, stop_and_finish


def _purchase(state: dict, value: int, region: str = "depths") -> None:
    state["turn"].update({"region": region, "hunting_value": value})
    state["phase"] = "purchase"


def test_solo_setup_ten_card_deck_opening_display_no_crests() -> None:
    state = solo(1)
    assert len(state["deck"]) == 7 and len(state["reserve"]) == 43 and len(state["display"]) == 10
    assert state["players"][0]["crests"] == 0 and state["players"][0]["set"] == "I"
    assert state["phase"] == "camp" and state["solo"]["expedition"] == 1
    assert solo(1, set="III")["players"][0]["set"] == "III"
    ten = solo(10)
    assert len(ten["deck"]) == 9 and len(ten["reserve"]) == 41


def test_solo_cages_come_from_the_reserve_and_one_card_is_revealed_each_round() -> None:
    state = solo(3)
    deck = list(state["deck"])
    reserve = list(state["reserve"])
    _purchase(state, 10)
    state, events = act(state, {"type": "cage", "count": 1})
    assert state["players"][0]["cages"] == reserve[:1]
    assert state["deck"] == deck[1:]  # only the end-of-round reveal used the draw deck
    assert events[-2]["kind"] == "card_revealed" and events[-2]["card"] == deck[0]
    assert len(state["display"]) == 11  # no refill to 10: the display can grow past it
    assert state["round"] == 2 and state["phase"] == "camp"


def test_solo_loses_at_thirteen_display_cards() -> None:
    state = solo(3)
    for _ in range(2):
        state["display"].append({"card": state["deck"].pop(), "crest": None})
    assert len(state["display"]) == 12
    _purchase(state, 0)
    state, events = act(state, {"type": "done"})
    assert kinds(events)[-1] == "expedition_lost" and state["over"]
    assert events[-1]["reason"] == "13 cards in the display"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ()
    assert outcome.profile_updates == {0: {"won": list(range(1, 11)), "failed_attempts": {"3": 1}}}


def test_solo_loses_when_a_card_must_be_revealed_from_an_empty_deck() -> None:
    state = solo(3)
    state["reserve"] += state["deck"]
    state["deck"] = []
    _purchase(state, 0)
    state, events = act(state, {"type": "done"})
    assert events[-1]["kind"] == "expedition_lost" and events[-1]["reason"] == "no card left in the draw deck to reveal"


def test_expedition_1_is_won_the_moment_the_display_holds_eight_and_a_cage_is_owned() -> None:
    state = solo(1, profile={})
    set_display(state, ["stachelmaul", "federling", "tiefenegel", "kadaverkrabbe", "fuechsling", "moosgnom",
                        "lavakrebs", "farnechse"])  # 9 with the trader
    give(state, 0, cages=["abgrundauge"])
    _purchase(state, 30)
    state, events = act(state, {"type": "capture", "card": "stachelmaul"})
    assert kinds(events)[-1] == "expedition_won" and state["over"]  # mid-turn, 24 still unspent
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.profile_updates == {0: {"won": [1], "failed_attempts": {}}}


def test_expedition_2_forest_clear_and_seven_forest_monsters_or_cages_draco_not_counted() -> None:
    state = solo(2)
    set_display(state, ["bufomorph", "draco-chelonia", "stachelmaul"])
    give(state, 0, monsters=["farnechse", "pilzkobold", "harzkaefer", "fuechsling", "draco-chelonia"],
         cages=["abgrundauge"])
    _purchase(state, 10, region="forest")
    state, events = act(state, {"type": "capture", "card": "bufomorph"})
    # 5 Forest monsters (the Draco Chelonia does not count) + 1 cage = 6: not yet
    assert not state["over"]
    state, events = act(solo_with(state), {"type": "cage", "count": 1})
    assert kinds(events)[-1] == "expedition_won"


def solo_with(state: dict) -> dict:
    """The same board with 10 more to spend (a fresh purchase budget)."""
    state = dict(state)
    state["turn"] = dict(state["turn"], hunting_value=state["turn"]["spent"] + 10)
    state["phase"] = "purchase"
    return state


def test_expedition_3_six_cages_from_the_trader_wins_at_once() -> None:
    state = solo(3)
    _purchase(state, 40)
    state, events = act(state, {"type": "trader"})
    assert len(state["players"][0]["cages"]) == 6 and kinds(events)[-1] == "expedition_won"


def test_expedition_4_two_camps_at_the_top() -> None:
    state = solo(4)
    state["players"][0]["camps"].update({"aerie": 8, "depths": 7})
    deck, reserve = list(state["deck"]), list(state["reserve"])
    state, _ = hunt(state, "forest", [("camp", dice(5, 2, 4, region="forest")), ("bank", 2)])
    state, events = stop_and_finish(state)
    assert kinds(events)[-1] == "expedition_won"
    assert state["players"][0]["camps"]["depths"] == 8
    # the final level's two cages come from the reserve deck, as every solo cage does
    assert state["players"][0]["cages"] == reserve[:2] and state["deck"] == deck


@pytest.mark.parametrize(("ones", "levels"), [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_expedition_5_ones_improve_only_in_pairs(ones: int, levels: int) -> None:
    state = solo(5)
    state["players"][0]["camps"]["forest"] = 5  # 4 black dice
    state, _ = act(state, {"type": "camp", "region": "forest"}, dice(5, *([1] * ones + [6] * (4 - ones)),
                                                                      region="forest"))
    state, _ = act(state, {"type": "bank", "value": 1, "then": "stop"})
    assert state["phase"] == "camp"  # nothing affordable: the turn ended by itself
    assert state["players"][0]["camps"]["aerie"] == 1 + levels


def test_expedition_5_hans_seven_still_improves_his_aerie() -> None:
    """Rulebook: Han needs a 1 and another 1, or a 7 as usual, to improve his Aerie camp (set I, level 1: 7)."""
    state = solo(5)
    state, _ = hunt(state, "aerie", [("camp", dice(7, 1, 4, region="aerie")), ("bank", 7)])
    state, _ = stop_and_finish(state)
    assert state["players"][0]["camps"]["aerie"] == 2


def test_expedition_6_seven_cards() -> None:
    state = solo(6)
    set_display(state, ["stachelmaul", "federling", "tiefenegel", "kadaverkrabbe", "fuechsling", "moosgnom",
                        "lavakrebs"])  # 8 with the trader
    give(state, 0, cages=["abgrundauge"])
    _purchase(state, 10)
    state, events = act(state, {"type": "capture", "card": "tiefenegel"})
    assert kinds(events)[-1] == "expedition_won"


def test_expedition_7_depths() -> None:
    state = solo(7)
    set_display(state, ["stachelmaul", "bufomorph"])
    give(state, 0, monsters=["tiefenegel", "kadaverkrabbe", "rostschnecke"], cages=["bufomorph", "farnechse",
                                                                                   "federling"])
    set_display(state, ["stachelmaul", "fuechsling"])
    _purchase(state, 10)
    state, events = act(state, {"type": "capture", "card": "stachelmaul"})
    assert kinds(events)[-1] == "expedition_won"


def test_expedition_8_the_trader_at_35_wins() -> None:
    state = solo(8)
    _purchase(state, 35)
    assert {"type": "trader"} in legal_actions(state, 0)
    state, events = act(state, {"type": "trader"})
    assert events[0]["cost"] == 35 and kinds(events)[-1] == "expedition_won"


def test_expedition_9_crates_from_one_two_three_sets_lower_levels_and_the_trader_leaves() -> None:
    state = solo(9)
    set_display(state, ["meeresgleiter", "bufomorph", "schuppenadler", "stachelmaul", "federling", "tiefenegel",
                        "fuechsling", "moosgnom", "lavakrebs"])
    state, _ = hunt(state, "depths", [("camp", dice(2, 1, 3, region="depths")), ("bank", 1),
                                      ("roll", dice(2, 3, colours=["blue", "black"])), ("bank", 2),
                                      ("roll", dice(3, colours=["black"])), ("bank", 3)])
    assert state["solo"]["crates"] == 2 and state["turn"]["hunting_value"] == 6
    with pytest.raises(IllegalAction, match="lives in the Enchanted Forest"):
        act(state, {"type": "capture", "card": "bufomorph", "crates": 1})  # 10 - 5 = 5 > 0: region still counts
    state, events = act(state, {"type": "capture", "card": "meeresgleiter", "crates": 1})
    assert events[0]["cost"] == 4 and state["solo"]["crates"] == 1
    with pytest.raises(IllegalAction, match=r"only 1 crate\.$"):
        act(state, {"type": "capture", "card": "bufomorph", "crates": 2})
    state["solo"]["crates"] = 2
    state, events = act(state, {"type": "capture", "card": "bufomorph", "crates": 2})
    assert events[0]["cost"] == 0  # lowered to 0: caught from the Depths camp
    assert state["phase"] == "camp" and "card_revealed" in kinds(events)  # 2 left bought nothing more
    # the trader: 40 - 3 crates x 5 = 25, then it leaves; display <= 7 and one visit wins
    set_display(state, ["schuppenadler", "stachelmaul", "federling", "tiefenegel", "fuechsling", "moosgnom"])
    state["solo"]["crates"] = 3
    _purchase(state, 25)
    state, events = act(state, {"type": "capture", "card": "stachelmaul"})
    assert not state["over"]  # 6 cards, but no visit yet
    state = solo_with(state)
    state["turn"]["hunting_value"] = state["turn"]["spent"] + 25
    state, events = act(state, {"type": "trader", "crates": 3})
    assert events[0]["cost"] == 25 and "trader_left" in kinds(events)
    assert "monster-trader" not in [s["card"] for s in state["display"]]
    assert kinds(events)[-1] == "expedition_won"


def test_expedition_9_crates_count_the_dice_still_banked_when_the_hunt_stops() -> None:
    state = solo(9)
    state, events = hunt(state, "depths", [("camp", dice(2, 4, 4, region="depths")), ("bank", 2),
                                      ("roll", dice(3, 5, colours=["black", "black"])), ("bank", 3),
                                      ("roll", dice(3, colours=["black"])),  # misthrow: the 3 is lost
                                      ("roll", dice(1, colours=["black"])), ("bank", 1)])
    stopped = next(e for e in events if e["kind"] == "hunt_stopped")
    assert stopped["value"] == 3 and stopped["crates"] == 0
    assert state["solo"]["crates"] == 0


def test_expedition_10_twelve_cards_crates_of_ten_and_an_empty_display() -> None:
    state = solo(10)
    set_display(state, ["aschephoenix"], trader=True)
    state["solo"]["crates"] = 6
    _purchase(state, 10, region="forest")
    with pytest.raises(IllegalAction, match="more crates than this monster needs"):
        act(state, {"type": "capture", "card": "aschephoenix", "crates": 4})
    state, events = act(state, {"type": "capture", "card": "aschephoenix", "crates": 3})  # 23 - 30: any region
    assert events[0]["cost"] == 0 and not state["over"]
    state, events = act(state, {"type": "trader", "crates": 3})  # 40 - 30 = 10, then the trader leaves
    assert events[0]["cost"] == 10 and state["display"] == []
    assert kinds(events)[-1] == "expedition_won"


def test_a_solo_steal_takes_a_cage_from_the_reserve() -> None:
    state = solo(3)
    set_display(state, ["schattenrochen"])  # Depths, level 12, steal
    top = state["reserve"][0]
    _purchase(state, 12)
    state, events = act(state, {"type": "capture", "card": "schattenrochen"})
    assert state["players"][0]["cages"] == [top] and "steal" in [e.get("reason") for e in events]


def test_failed_attempts_give_optional_camp_improvements_for_that_expedition_only() -> None:
    record = {"won": [1, 2], "failed_attempts": {"3": 2}}
    state = solo(3, profile=record)
    assert state["phase"] == "solo_prepare" and state["solo"]["prep_left"] == 2
    assert {"type": "decline"} in legal_actions(state, 0)
    state, events = act(state, {"type": "improve", "region": "aerie"})
    assert events[0]["cause"] == "campaign" and state["phase"] == "solo_prepare"
    state, _ = act(state, {"type": "improve", "region": "aerie"})
    assert state["players"][0]["camps"]["aerie"] == 3 and state["phase"] == "camp"
    declined = solo(3, profile=record)
    declined, events = act(declined, {"type": "decline"})
    assert declined["phase"] == "camp" and declined["players"][0]["camps"]["aerie"] == 1
    fresh = solo(3, profile={"won": [1, 2], "failed_attempts": {"2": 4}})
    assert fresh["phase"] == "camp"  # not carried into another expedition


def test_the_next_expedition_and_locked_ones() -> None:
    assert next_expedition({}) == 1
    assert next_expedition({"won": [1, 2, 4]}) == 3
    state = setup_state("solo", ["Han"], Rng(3, 0), {"profiles": [{"won": [1, 2]}]})
    assert state["solo"]["expedition"] == 3
    with pytest.raises(LobbyError, match="win expedition 3 first"):
        setup_state("solo", ["Han"], Rng(3, 0), {"expedition": 5, "profiles": [{"won": [1, 2]}]})
    with pytest.raises(LobbyError, match="1 to 10"):
        setup_state("solo", ["Han"], Rng(3, 0), {"expedition": 11, "profiles": [{}]})
    with pytest.raises(LobbyError, match="exactly 1 player"):
        setup_state("solo", ["Han", "Leia"], Rng(3, 0), {})


def test_campaign_text_shows_wins_failures_and_the_next_expedition() -> None:
    text = campaign_text({"won": [1, 2], "failed_attempts": {"3": 2}})
    assert text.startswith("Solinsula campaign: 2 of 10 expeditions won.\n")
    assert campaign_text({}).startswith("Solinsula campaign: no expedition won yet, 10 to go.\n")
    assert campaign_text({"won": [1]}).startswith("Solinsula campaign: 1 of 10 expeditions won.\n")
    assert "1. Keep the monsters in check [won]" in text
    assert "3. Monsters in cages [next] - 2 failed attempts, 2 camp improvements before the next try" in text
    assert "4. The inspection [locked]" in text
    assert "Next: expedition 3 - At least 6 cages." in text
    assert "Campaign complete" in campaign_text({"won": list(range(1, 11))})
    assert "no expedition won yet" in campaign_text(None)


def test_the_trader_counts_as_a_display_card() -> None:
    state = solo(1, profile={})
    set_display(state, ["stachelmaul", "federling", "tiefenegel", "kadaverkrabbe", "fuechsling", "moosgnom",
                        "lavakrebs", "farnechse"])  # 8 monsters + the trader = 9 cards
    give(state, 0, cages=["abgrundauge"])
    assert progress(state) == {"display": 9, "cages": 1, "met": False}
    assert progress_text(state) == "9 cards in the display (the goal: 8 or fewer); 1 cage (the goal: at least 1)"
    assert GAME.view(state, None)["scores"][0]["text"] == ("Goal: 9 cards in the display (the goal: 8 or fewer); "
                                                           "1 cage (the goal: at least 1)")
    for _ in range(3):  # 9 + 3 reveals = 12: still alive; the 4th reveal makes 13 (the trader counted) and loses
        _purchase(state, 0)
        state, events = act(state, {"type": "done"})
        assert not state["over"]
    _purchase(state, 0)
    state, events = act(state, {"type": "done"})
    assert events[-1] == {"kind": "expedition_lost", "expedition": 1, "reason": "13 cards in the display"}


def test_expedition_7_an_owned_or_displayed_draco_chelonia_does_not_count() -> None:
    state = solo(7)
    set_display(state, ["draco-chelonia", "fuechsling", "stachelmaul"])
    give(state, 0, monsters=["tiefenegel", "kadaverkrabbe", "rostschnecke", "leuchtangler", "meeresgleiter"],
         cages=["bufomorph"])
    state["players"][0]["monsters"].append(state["display"].pop(0)["card"])  # now owned: still not a Depths monster
    assert progress(state)["count"] == 6 and progress_text(state) == (
        "1 Depths monster in the display (the goal: none); 6 Depths monsters and cages in all (the goal: at least "
        "7)")
    _purchase(state, 10)
    state, events = act(state, {"type": "capture", "card": "stachelmaul"})
    assert kinds(events)[-1] == "expedition_won"  # 6 Depths monsters + 1 cage; a Draco Chelonia was no help


@pytest.mark.parametrize(("number", "text"), [
    (1, "10 cards in the display (the goal: 8 or fewer); 0 cages (the goal: at least 1)"),
    (2, "2 Forest monsters in the display (the goal: none); 0 Forest monsters and cages in all (the goal: at least "
        "7)"),
    (3, "0 cages (the goal: at least 6)"), (4, "0 camps at the highest equipment level (the goal: at least 2)"),
    (5, "0 cages (the goal: at least 6)"), (8, "0 visits to the Monster Trader (the goal: at least 1)"),
    (9, "10 cards in the display (the goal: 7 or fewer); 0 visits to the Monster Trader (the goal: at least 1)"),
    (10, "10 cards in the display (the goal: none)"),
])
def test_the_goal_progress_in_words(number: int, text: str) -> None:
    assert progress_text(solo(number)) == text


def test_improvements_after_failures_accumulate_per_expedition() -> None:
    state = solo(4, profile={"won": [1, 2, 3], "failed_attempts": {"4": 1}})
    state, _ = act(state, {"type": "improve", "region": "depths"})
    assert state["phase"] == "camp"
    lost = dict(state, over=True, solo=dict(state["solo"], outcome="lost", reason="test"))
    record = GAME.outcome(lost).profile_updates[0]
    assert record == {"won": [1, 2, 3], "failed_attempts": {"4": 2}}
    again = solo(4, profile=record)
    assert again["solo"]["prep_left"] == 2
    assert solo(5, profile={"won": [1, 2, 3, 4], "failed_attempts": record["failed_attempts"]})["phase"] == "camp"


def test_a_misthrow_improvement_can_win_expedition_4_in_the_middle_of_the_hunt() -> None:
    state = solo(4)
    state["players"][0]["camps"].update({"aerie": 8, "depths": 7})
    give(state, 0, monsters=["leuchtangler"])  # Depths, misthrow improvement
    reserve = list(state["reserve"])
    state, _ = hunt(state, "forest", [("camp", dice(5, 4, 6, region="forest")), ("bank", 5)])
    state, events = act(state, {"type": "roll"}, dice(5, 5))  # only a banked number: a misthrow
    assert kinds(events) == ["dice_rolled", "misthrow", "camp_improved", "cages_taken", "expedition_won"]
    assert state["over"] and state["players"][0]["camps"]["depths"] == 8  # won mid-hunt, no need to stop
    assert state["players"][0]["cages"] == reserve[:2]
