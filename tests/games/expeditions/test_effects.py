"""Every effect of the vocabulary, the Play action and ongoing abilities, with exact outcomes."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.games.expeditions import GAME

from .helpers import COMP, act, choose, code_of, fresh, fx, give, in_actions, options, place, resolve, take_from_deck


@pytest.fixture
def state() -> dict:
    return in_actions(fresh(2))


def me(state: dict) -> dict:
    return state["players"][0]


def test_gains_power_guile_coins_and_map_tokens_with_the_cap_of_10(state: dict) -> None:
    me(state)["power"] = 9
    state["supply"]["map_tokens"] = 1
    new, _ = resolve(state, fx({"power": 3, "guile": 2, "coins": 4, "map_token": 2}))
    assert (me(new)["power"], me(new)["guile"], me(new)["coins"], me(new)["map_tokens"]) == (10, 2, 4, 1)
    assert new["supply"]["map_tokens"] == 0  # map tokens are limited


def test_gain_per_star_and_meld(state: dict) -> None:
    me(state)["stars"] = 2
    me(state)["melds"] = ["me-ember", "me-frost", "me-gold"]
    new, _ = resolve(state, fx({"coins": 2, "per": "star"}) + fx({"guile": 1, "per": "meld"}))
    assert (me(new)["coins"], me(new)["guile"]) == (4, 3)


def test_when_conditions_on_stars_and_melds(state: dict) -> None:
    effect = fx({"when": {"stars": 1, "melds": 1}, "then": [{"coins": 5}]})
    new, _ = resolve(state, effect)
    assert me(new)["coins"] == 0
    me(state)["stars"] = 1
    me(state)["melds"] = ["me-ember"]
    new, _ = resolve(state, effect)
    assert me(new)["coins"] == 5


def test_worker_of_the_pictured_colour_and_nothing_when_exhausted(state: dict) -> None:
    new, _ = resolve(state, fx({"worker": "yellow"}))
    assert me(new)["workers"]["yellow"] == me(state)["workers"]["yellow"] + 1
    state["supply"]["workers"]["yellow"] = 0
    new, events = resolve(state, fx({"worker": "yellow"}))
    assert me(new)["workers"] == me(state)["workers"]
    assert events[-1]["kind"] == "worker_exhausted"


def test_worker_of_any_colour_is_a_choice_of_the_colours_left(state: dict) -> None:
    state["supply"]["workers"]["red"] = 0
    new, _ = resolve(state, fx({"worker": "any"}))
    assert options(new) == ["colour:blue", "colour:green", "colour:yellow"]
    new = choose(new, "colour:green")
    assert me(new)["workers"]["green"] == me(state)["workers"]["green"] + 1


def test_gain_a_face_up_card_goes_to_the_active_row_and_is_replaced(state: dict) -> None:
    taken = state["face_up"][2]
    top = state["deck"][0]
    new, _ = resolve(state, fx({"card": "face_up"}))
    assert options(new) == ["slot:0", "slot:1", "slot:2", "slot:3", "slot:4", "skip"]
    new = choose(new, "slot:2")
    assert me(new)["active"][-1] == {"card": taken, "worker": None}
    assert new["face_up"][2] == top and len(new["deck"]) == len(state["deck"]) - 1


def test_an_empty_deck_reshuffles_the_discard_and_with_both_empty_the_space_stays_empty(state: dict) -> None:
    state["discard"] = state["deck"][:3]
    state["deck"] = []
    new, _ = resolve(state, fx({"card": "face_up"}))
    new = choose(new, "slot:0")
    assert len(new["deck"]) == 2 and new["discard"] == [] and new["face_up"][0] is not None
    new["deck"], new["discard"] = [], []
    new["turn"]["remaining"] = ["gather"]
    new2, _ = resolve(new, fx({"card": "face_up"}))
    new2 = choose(new2, "slot:1")
    assert new2["face_up"][1] is None


def test_gain_an_adjacent_face_up_card_offers_only_adjacent_spaces(state: dict) -> None:
    place(state, 0, state["spaces"]["c5"]["tile"])  # c5 touches the card spaces c4 (slot 3) and d5 (slot 4)
    new, _ = resolve(state, fx({"card": "adjacent"}))
    assert options(new) == ["slot:3", "slot:4", "skip"]


def test_sweep_toggles_then_refills_every_swept_space(state: dict) -> None:
    before = list(state["face_up"])
    new, _ = resolve(state, fx({"sweep": True}))
    new = choose(new, "toggle:0")
    new = choose(new, "toggle:4")
    new = choose(new, "toggle:0")  # changed my mind about slot 0
    assert new["turn"]["pending"]["selected"] == [4]
    new = choose(new, "confirm")
    assert new["discard"] == [before[4]]
    assert new["face_up"][:4] == before[:4] and new["face_up"][4] == state["deck"][0]


def test_rescue_returns_a_card_and_its_worker(state: dict) -> None:
    give(state, 0, "it-compass", "active", worker="blue")
    new, _ = resolve(state, fx({"rescue": 1}))
    assert options(new) == ["card:it-compass", "skip"]
    new = choose(new, "card:it-compass")
    assert "it-compass" in me(new)["hand"] and me(new)["active"] == []
    assert me(new)["workers"]["blue"] == me(state)["workers"]["blue"] + 1


def test_refresh_effect_returns_cards_but_leaves_the_action_token(state: dict) -> None:
    give(state, 0, "it-compass", "active", worker="blue")
    me(state)["token"] = "play"
    new, _ = resolve(state, fx({"refresh": True}))
    assert "it-compass" in me(new)["hand"] and me(new)["token"] == "play"


def test_discard_moves_a_card_from_hand_to_the_active_row_without_benefit(state: dict) -> None:
    new, _ = resolve(state, fx({"discard": 1}))
    card = me(state)["hand"][0]
    assert "skip" not in options(new)
    new = choose(new, f"card:{card}")
    assert me(new)["active"][-1] == {"card": card, "worker": None}
    assert me(new)["power"] == me(state)["power"]


def test_trash_sends_a_controlled_card_to_the_box(state: dict) -> None:
    give(state, 0, "it-compass", "active", worker="blue")
    new, _ = resolve(state, fx({"trash": 1}))
    new = choose(new, "card:it-compass")
    assert new["trash"] == ["it-compass"] and me(new)["workers"]["blue"] == me(state)["workers"]["blue"] + 1


def test_pay_costs_first_and_an_unaffordable_cost_stops_the_ability(state: dict) -> None:
    effects = fx({"pay": {"power": 2}}) + fx({"coins": 3})
    new, events = resolve(state, effects)
    assert me(new)["coins"] == 0 and events[-1]["kind"] == "cost_unpaid"
    me(state)["power"] = 3
    new, _ = resolve(state, effects)
    assert (me(new)["power"], me(new)["coins"]) == (1, 3)


def test_pay_by_discarding_is_a_mandatory_choice(state: dict) -> None:
    new, _ = resolve(state, fx({"pay": {"discard": 1}}) + fx({"coins": 3}))
    assert new["turn"]["pending"]["kind"] == "discard" and "skip" not in options(new)
    new = choose(new, f"card:{me(state)['hand'][1]}")
    assert me(new)["coins"] == 3


def test_or_offers_only_affordable_sides(state: dict) -> None:
    effect = fx({"or": [[{"pay": {"guile": 2}}, {"coins": 3}], [{"worker": "red"}]]})
    new, _ = resolve(state, effect)
    assert options(new) == ["or:1"]
    me(state)["guile"] = 2
    new, _ = resolve(state, effect)
    assert options(new) == ["or:0", "or:1"]
    new = choose(new, "or:0")
    assert (me(new)["guile"], me(new)["coins"]) == (0, 3)


def test_play_effect_plays_a_card_from_hand_by_the_standard_rules(state: dict) -> None:
    new, _ = resolve(state, fx({"play": 1}))
    card = me(state)["hand"][0]
    new = choose(new, f"card:{card}")
    assert new["turn"]["pending"]["kind"] == "play_steps"
    assert me(new)["active"][-1]["card"] == card


def test_activate_previous_uses_the_card_to_the_left_without_a_worker(state: dict) -> None:
    give(state, 0, "me-ember", "active")  # ability: +2 power
    give(state, 0, "it-drum", "active", worker="blue")
    new, _ = resolve(state, fx({"activate": "previous"}), src={"card": "it-drum"})
    assert me(new)["power"] == 2
    assert me(new)["active"][0]["worker"] is None


def test_activated_abilities_do_not_chain_activations(state: dict) -> None:
    give(state, 0, "it-drum", "active")
    give(state, 0, "me-obsidian", "active", worker="red")  # its ability: activate previous (the drum)
    _, events = resolve(state, fx({"activate": "previous"}), src={"card": "me-obsidian"})
    assert any(e["kind"] == "activation_skipped" for e in events)  # the drum's own activate is not followed


def test_activate_adjacent_face_up_card_and_its_ongoing_lasts_the_turn(state: dict) -> None:
    take_from_deck(state, "it-compass")
    state["discard"].append(state["face_up"][3])
    state["face_up"][3] = "it-compass"  # c4: ability +1 map token, ongoing move range +1
    place(state, 0, state["spaces"]["c5"]["tile"])
    new, _ = resolve(state, fx({"activate": "adjacent"}))
    new = choose(new, "slot:3")
    assert me(new)["map_tokens"] == 1
    assert new["turn"]["temp_ongoing"] == ["it-compass"]
    from bot.games.expeditions.rules.queries import move_reach

    assert move_reach(COMP, new, 0) == 4


def test_a_benefit_from_an_adjacent_location_only_takes_exposed_benefits(state: dict) -> None:
    place(state, 0, state["spaces"]["a5"]["tile"])
    b5 = state["spaces"]["b5"]["tile"]
    a4 = state["spaces"]["a4"]["tile"]
    state["spaces"]["a4"]["revealed"] = False
    new, _ = resolve(state, fx({"location_benefit": True}))
    offered = options(new)
    assert all(o.startswith(f"loc:{b5}:") for o in offered if o != "skip")
    assert not any(o.startswith(f"loc:{a4}:") for o in offered)  # face down: its benefits are unknown
    assert len(offered) - 1 == len(COMP.locations[b5].gather)


def test_solve_needs_the_quest_location_pays_and_tucks_the_quest(state: dict) -> None:
    give(state, 0, "qu-01", "hand")  # location 1, cost $2, reward $3 and a face-up card
    place(state, 0, 1)
    me(state)["coins"] = 2
    new, _ = resolve(state, fx({"solve": True}))
    assert options(new) == ["card:qu-01", "skip"]
    new = choose(new, "card:qu-01")
    assert me(new)["quests"] == ["qu-01"] and me(new)["coins"] == 3 and "qu-01" not in me(new)["hand"]
    assert new["turn"]["pending"]["kind"] == "take_card"
    place(state, 0, 2)
    new, events = resolve(state, fx({"solve": True}))
    assert new["turn"]["pending"] is None and events[-1]["kind"] == "no_choice"


def test_solve_is_limited_to_four_quests(state: dict) -> None:
    give(state, 0, "qu-01", "hand")
    place(state, 0, 1)
    me(state)["coins"] = 5
    me(state)["quests"] = ["qu-02", "qu-03", "qu-04", "qu-05"]
    new, _ = resolve(state, fx({"solve": True}))
    assert new["turn"]["pending"] is None


def test_a_map_token_reward_comes_from_the_supply(state: dict) -> None:
    give(state, 0, "qu-04", "hand")  # location 4, cost 3 power, reward 2 map tokens + $2
    place(state, 0, 4)
    me(state)["power"] = 3
    supply = state["supply"]["map_tokens"]
    new, _ = resolve(state, fx({"solve": True}))
    new = choose(new, "card:qu-04")
    assert me(new)["map_tokens"] == 2 and new["supply"]["map_tokens"] == supply - 2


def corrupt(state: dict, tile: int, tokens: list[tuple[str, int]]) -> str:
    code = place(state, 0, tile)
    state["spaces"][code]["corruption"] = [{"id": f"{c}-{v}-t{i}", "colour": c, "value": v}
                                           for i, (c, v) in enumerate(tokens)]
    return code


def test_vanquish_pays_the_top_token_and_may_repeat_then_clears(state: dict) -> None:
    code = corrupt(state, 7, [("power", 3), ("guile", 2)])
    me(state).update(power=4, guile=2)
    new, _ = resolve(state, fx({"vanquish": True}))
    assert options(new) == ["take", "stop"]
    new = choose(new, "take")  # the top one is the guile 2 (last drawn)
    assert me(new)["guile"] == 0 and [t["value"] for t in me(new)["corruption"]] == [2]
    new = choose(new, "take")
    assert me(new)["power"] == 1 and new["spaces"][code]["corruption"] == []
    assert new["turn"]["pending"] is None


def test_the_20_token_needs_10_power_and_10_guile(state: dict) -> None:
    code = place(state, 0, 20)
    state["spaces"][code]["corruption"] = [state["reserve"].pop()]
    me(state).update(power=10, guile=9)
    new, _ = resolve(state, fx({"vanquish": True}))
    assert new["turn"]["pending"] is None
    me(state).update(guile=10)
    new, _ = resolve(state, fx({"vanquish": True}))
    new = choose(new, "take")
    assert (me(new)["power"], me(new)["guile"]) == (0, 0)
    assert [t["id"] for t in me(new)["corruption"]] == ["token20"]


def test_purge_returns_the_top_token_to_the_bag(state: dict) -> None:
    corrupt(state, 7, [("power", 3)])
    bag = len(state["bag"])
    new, _ = resolve(state, fx({"purge": True}))
    assert len(new["bag"]) == bag + 1 and me(new)["corruption"] == []


def test_upgrade_tucks_an_item_returns_its_worker_and_is_limited(state: dict) -> None:
    give(state, 0, "it-compass", "active", worker="blue")
    give(state, 0, "me-ember", "hand")
    new, _ = resolve(state, fx({"upgrade": True}))
    assert options(new) == ["card:it-compass", "skip"]  # meteorites cannot be upgraded
    new = choose(new, "card:it-compass")
    assert me(new)["upgrades"] == ["it-compass"] and me(new)["workers"]["blue"] == me(state)["workers"]["blue"] + 1
    from bot.games.expeditions.rules.queries import move_reach

    assert move_reach(COMP, new, 0) == 4  # its ongoing ability now lasts the game
    me(state)["upgrades"] = ["it-lantern", "it-gauntlet", "it-whistle", "it-kit"]
    new, _ = resolve(state, fx({"upgrade": True}))
    assert new["turn"]["pending"] is None


def test_meld_gains_the_bonus_of_every_melded_meteorite(state: dict) -> None:
    me(state)["melds"] = ["me-ember", "me-gold"]  # +1 power, +$1
    give(state, 0, "me-frost", "hand")  # +1 guile
    new, _ = resolve(state, fx({"meld": True}))
    new = choose(new, "card:me-frost")
    assert (me(new)["power"], me(new)["coins"], me(new)["guile"]) == (1, 1, 1)
    assert me(new)["melds"] == ["me-ember", "me-gold", "me-frost"]


def test_boast_only_on_a_met_category_without_a_star(state: dict) -> None:
    me(state)["map_tokens"] = 5
    new, _ = resolve(state, fx({"boast": True}))
    assert options(new) == ["glory:workers", "skip"]
    new = choose(new, "glory:workers")
    assert new["glory"]["workers"] == [0] and me(new)["stars"] == 1
    new["turn"]["remaining"] = ["gather"]
    again, _ = resolve(new, fx({"boast": True}))
    assert again["turn"]["pending"] is None  # one star per category


def test_play_core_value_then_worker_in_either_order() -> None:
    state = fresh(1)
    give(state, 0, "it-compass")
    state = act(state, {"type": "play", "card": "it-compass"})
    assert options(state) == ["core", "activate", "done"]
    state = choose(state, "activate")
    assert state["players"][0]["map_tokens"] == 1 and state["players"][0]["active"][-1]["worker"] == "blue"
    assert options(state) == ["core", "done"]
    state = choose(state, "core")
    assert state["players"][0]["guile"] == 1


def test_a_worker_must_match_the_card_colour() -> None:
    state = fresh(1)
    give(state, 0, "it-lantern")  # red
    state["players"][0]["workers"] = {"red": 0, "blue": 3, "green": 0, "yellow": 0}
    state = act(state, {"type": "play", "card": "it-lantern"})
    assert options(state) == ["core", "done"]


def test_an_ability_with_an_unmet_requirement_cannot_be_activated() -> None:
    state = fresh(1)
    give(state, 0, "it-runeblade")  # needs 1 star
    state["players"][0]["workers"]["red"] = 1
    state["players"][0]["power"] = 5
    state = act(state, {"type": "play", "card": "it-runeblade"})
    assert "activate" not in options(state)


def test_ongoing_triggers_fire_while_the_card_holds_a_worker(state: dict) -> None:
    give(state, 0, "it-runeblade", "active", worker="red")  # whenever you vanquish: +$1
    give(state, 0, "it-gauntlet", "active", worker="red")  # corruption costs 1 less
    corrupt(state, 7, [("power", 3)])
    me(state)["power"] = 2
    new, _ = resolve(state, fx({"vanquish": True}))
    new = choose(new, "take")
    assert (me(new)["power"], me(new)["coins"]) == (0, 1)


def test_quest_discount_reduces_each_resource_in_the_cost(state: dict) -> None:
    give(state, 0, "it-cloak", "active", worker="yellow")
    give(state, 0, "qu-03", "hand")  # 2 power + 1 guile at location 3: 1 power and nothing with the cloak
    place(state, 0, 3)
    me(state).update(power=1, guile=0)
    new, _ = resolve(state, fx({"solve": True}))
    new = choose(new, "card:qu-03")
    assert (me(new)["power"], me(new)["guile"], me(new)["coins"]) == (0, 0, 4)  # and a face-up card


def test_illegal_choices_are_refused_with_the_options() -> None:
    state = in_actions(fresh(1))
    new, _ = resolve(state, fx({"or": [[{"power": 1}], [{"guile": 1}]]}))
    with pytest.raises(IllegalAction, match="Options"):
        choose(new, "or:7")
    with pytest.raises(IllegalAction):
        act(new, {"type": "gather"})


def test_gather_gains_every_exposed_benefit_with_or_choices() -> None:
    state = fresh(1)
    state["turn"]["remaining"] = ["gather", "move"]
    place(state, 0, 4)  # Riverside Camp: power 2 / guile 2, then a meld
    give(state, 0, "me-frost", "hand")
    state = act(state, {"type": "gather"})
    assert options(state) == ["or:0", "or:1"]
    state = choose(state, "or:1")
    assert state["players"][0]["guile"] == 2 and options(state) == ["card:me-frost", "skip"]
    state = choose(state, "card:me-frost")
    assert state["players"][0]["melds"] == ["me-frost"] and state["players"][0]["guile"] == 3


def test_gather_includes_the_cleared_benefit_once_corruption_is_gone() -> None:
    state = fresh(1)
    state["turn"]["remaining"] = ["gather", "move"]
    code = place(state, 0, 13)  # Crater Rim: meld, $1; cleared: boast
    state["players"][0]["map_tokens"] = 5
    state = act(state, {"type": "gather"})
    assert state["turn"]["pending"]["kind"] == "boast"  # meld had no option; $1 gained; boast now
    assert state["players"][0]["coins"] == 1
    assert code_of(state, 13) == code


def test_view_lists_the_pending_options() -> None:
    state = in_actions(fresh(1))
    new, _ = resolve(state, fx({"or": [[{"power": 1}], [{"guile": 1}]]}))
    pending = GAME.view(new, None)["pending"]
    assert pending["kind"] == "or" and [o["id"] for o in pending["options"]] == ["or:0", "or:1"]
    assert pending["options"][0]["label"] == "+1 power"
