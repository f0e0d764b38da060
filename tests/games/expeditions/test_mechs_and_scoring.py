"""The five mech abilities, the seven glory categories, the end trigger, final scoring and the tie-break."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.core.protocol import Outcome
from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.engine import Engine

from .helpers import COMP, act, choose, fresh, fx, give, in_actions, options, place, resolve


def with_mech(mech: str, players: int = 1) -> dict:
    state = in_actions(fresh(players))
    state["players"][0]["mech"] = mech
    return state


def test_tatanka_may_solve_upgrade_and_meld_five_times() -> None:
    state = with_mech("tatanka")
    me = state["players"][0]
    me["upgrades"] = ["it-lantern", "it-gauntlet", "it-whistle", "it-kit"]
    give(state, 0, "it-compass")
    new, _ = resolve(state, fx({"upgrade": True}))
    assert options(new) == ["card:it-compass", "skip"]
    state["players"][0]["mech"] = "lumberjack"
    new, _ = resolve(state, fx({"upgrade": True}))
    assert new["turn"]["pending"] is None


def test_marsh_strider_moves_up_to_four() -> None:
    state = with_mech("marsh-strider")
    assert q.move_reach(COMP, state, 0) == 4
    state["players"][0]["mech"] = "tatanka"
    assert q.move_reach(COMP, state, 0) == 3


def test_odins_wrath_trashes_map_tokens_any_number_of_times_in_its_turn() -> None:
    state = with_mech("odins-wrath", players=2)
    state["players"][0]["map_tokens"] = 3
    state["turn"]["remaining"] = ["gather", "move"]
    for gain in ("power", "guile", "coins"):
        state = act(state, {"type": "odin", "gain": gain})
    me = state["players"][0]
    assert (me["power"], me["guile"], me["coins"], me["map_tokens"]) == (1, 1, 1, 0)
    assert state["supply"]["map_tokens_trashed"] == 3
    with pytest.raises(IllegalAction):
        act(state, {"type": "odin", "gain": "coins"})
    state["players"][1]["map_tokens"] = 2
    assert not [a for a in GAME.legal_actions(state, 1) if a["type"] == "odin"]  # not in another's turn


def test_odins_wrath_keeps_a_vanquish_open_to_convert_tokens() -> None:
    state = with_mech("odins-wrath")
    code = place(state, 0, 7)
    state["spaces"][code]["corruption"] = [{"id": "power-2-x", "colour": "power", "value": 2}]
    state["players"][0].update(power=1, map_tokens=1)
    new, _ = resolve(state, fx({"vanquish": True}))
    assert options(new) == ["stop"]
    new = act(new, {"type": "odin", "gain": "power"})
    new = choose(new, "take")
    assert new["players"][0]["power"] == 0 and len(new["players"][0]["corruption"]) == 1


def test_lumberjack_discounts_the_first_token_of_each_colour_per_vanquish() -> None:
    state = with_mech("lumberjack")
    code = place(state, 0, 7)
    state["spaces"][code]["corruption"] = [
        {"id": "guile-3-a", "colour": "guile", "value": 3}, {"id": "power-3-a", "colour": "power", "value": 3},
        {"id": "power-4-a", "colour": "power", "value": 4}]
    state["players"][0].update(power=10, guile=10)
    new, _ = resolve(state, fx({"vanquish": True}))
    for _ in range(3):
        new = choose(new, "take")
    assert (new["players"][0]["power"], new["players"][0]["guile"]) == (10 - 3 - 3, 10 - 2)


def test_lumberjack_pays_9_and_9_for_the_20_token() -> None:
    state = with_mech("lumberjack")
    code = place(state, 0, 20)
    state["spaces"][code]["corruption"] = [state["reserve"].pop()]
    state["players"][0].update(power=9, guile=9)
    new, _ = resolve(state, fx({"vanquish": True}))
    new = choose(new, "take")
    assert (new["players"][0]["power"], new["players"][0]["guile"]) == (0, 0)
    assert q.has_token20(new["players"][0])


def test_highlander_may_gain_cards_to_hand() -> None:
    state = with_mech("highlander")
    card = state["face_up"][0]
    new, _ = resolve(state, fx({"card": "face_up"}))
    new = choose(new, "slot:0")
    assert options(new) == ["active", "hand"]
    new = choose(new, "hand")
    assert new["players"][0]["hand"][-1] == card and new["players"][0]["active"] == []


@pytest.mark.parametrize(("key", "setup"), [
    ("quests", {"quests": ["qu-01", "qu-02", "qu-03", "qu-04"]}),
    ("melds", {"melds": ["me-ember", "me-frost", "me-gold", "me-verdant"]}),
    ("upgrades", {"upgrades": ["it-compass", "it-lantern", "it-gauntlet", "it-whistle"]}),
    ("token20", {"corruption": [{"id": "token20", "colour": "both", "value": 20}]}),
    ("corruption", {"corruption": [{"id": f"power-2-{i}", "colour": "power", "value": 2} for i in range(7)]}),
    ("cards", {"hand": [f"qu-{i:02d}" for i in range(1, 9)]}),
    ("workers", {"workers": {"red": 7, "blue": 0, "green": 0, "yellow": 0}}),
    ("workers", {"map_tokens": 5}),
])
def test_each_glory_category_is_met_at_its_goal(key: str, setup: dict) -> None:
    state = fresh(1)
    player = state["players"][0]
    player.update({"hand": [], "workers": {"red": 0, "blue": 0, "green": 0, "yellow": 0}})
    assert q.boastable(COMP, state, 0) == []
    player.update(setup)
    assert q.boastable(COMP, state, 0) == [key]


def test_one_short_of_each_goal_is_not_enough() -> None:
    state = fresh(1)
    player = state["players"][0]
    player.update({"hand": [f"qu-{i:02d}" for i in range(1, 8)], "map_tokens": 4,
                   "workers": {"red": 6, "blue": 0, "green": 0, "yellow": 0},
                   "corruption": [{"id": f"power-2-{i}", "colour": "power", "value": 2} for i in range(6)]
                   + [{"id": "token20", "colour": "both", "value": 20}],
                   "quests": ["qu-10", "qu-11", "qu-12"]})
    assert q.boastable(COMP, state, 0) == ["token20"]  # the 20 token does not count towards 7 corruption


def test_workers_on_cards_count_towards_seven() -> None:
    state = fresh(1)
    player = state["players"][0]
    player["workers"] = {"red": 5, "blue": 0, "green": 0, "yellow": 0}
    player["active"] = [{"card": "it-compass", "worker": "blue"}, {"card": "it-lantern", "worker": "red"}]
    assert q.workers_owned(player) == 7 and "workers" in q.boastable(COMP, state, 0)


def test_the_fourth_star_gives_everyone_one_more_turn_the_trigger_last() -> None:
    state = in_actions(fresh(3))
    state["players"][0]["stars"] = 3
    state["players"][0]["map_tokens"] = 5
    state["turn"]["remaining"] = ["gather"]
    engine = Engine(COMP, state, Rng(1, 1))
    engine.boast("workers")
    assert state["end"]["triggered_by"] == 0
    engine.end_turn()
    order = [state["turn"]["seat"]]
    for _ in range(2):
        engine.end_turn()
        order.append(state["turn"]["seat"])
    assert order == [1, 2, 0]
    engine.end_turn()
    assert state["over"] and GAME.to_act(state) == ()


def test_final_scoring_uses_the_star_table_and_2_per_corruption() -> None:
    state = fresh(2)
    a, b = state["players"]
    a.update(coins=10, upgrades=["it-compass"], stars=2, quests=["qu-01"],
             corruption=[{"id": "token20", "colour": "both", "value": 20},
                         {"id": "power-3-1", "colour": "power", "value": 3}])
    b.update(coins=3, stars=4, quests=["qu-02", "qu-03", "qu-04", "qu-05"])
    assert q.score(COMP, a) == 10 + 2 + 2 * 2 + 2 * 6
    assert q.score(COMP, b) == 3 + 4 * 10
    assert [q.star_value(COMP, {"quests": ["x"] * n}) for n in range(5)] == [5, 6, 8, 8 + 2, 10]
    state["over"] = True
    result = GAME.outcome(state)
    assert isinstance(result, Outcome) and result.winners == (1,) and result.scores == {0: 28, 1: 43}


def test_a_tie_is_broken_by_the_sum_of_the_glory_measures_and_may_be_shared() -> None:
    state = fresh(2)
    a, b = state["players"]
    a.update(coins=20, hand=["ch-ada"], workers={"red": 0, "blue": 0, "green": 0, "yellow": 0})
    b.update(coins=20, hand=["ch-bram", "co-byte"], workers={"red": 0, "blue": 0, "green": 0, "yellow": 0})
    state["over"] = True
    assert (q.tiebreak(a), q.tiebreak(b)) == (1, 2)
    result = GAME.outcome(state)
    assert result is not None and result.winners == (1,)
    b["hand"] = ["ch-bram"]
    result = GAME.outcome(state)
    assert result is not None and result.winners == (0, 1) and "win" in result.summary


def test_tiebreak_adds_every_measure() -> None:
    player = {"quests": ["a"], "melds": ["b", "c"], "upgrades": ["d"], "hand": ["e"], "active": [{"card": "f",
              "worker": "red"}], "workers": {"red": 2}, "map_tokens": 3,
              "corruption": [{"id": "token20"}, {"id": "x"}, {"id": "y"}]}
    assert q.tiebreak(player) == 1 + 2 + 1 + 1 + 2 + 2 + 3 + 3
