"""Rules tests for the end of a 2-4 player game: the last round, the reserve deck, noted cages, crests, scoring."""

from __future__ import annotations

from bot.games.monster_expedition import GAME
from bot.games.monster_expedition.rules.effects import cage_points, end_standard_game, monster_points, total_points
from tests.reading import read

from .helpers import CAT, act, give, kinds, named, set_display, standard, start_turn


def _purchase(state: dict, value: int, region: str = "depths") -> None:
    state["turn"].update({"region": region, "hunting_value": value})
    state["phase"] = "purchase"


def test_olivers_twenty_three_points() -> None:
    """Rulebook: monsters 2 + 2 + 3 + 2 + 4 + 2 = 15, five cages score 8, total 23; a 5-VP monster cages at 3."""
    state = named(["Julia", "Oliver"])
    give(state, 1, monsters=["schuppenadler", "stachelmaul", "rauchrabe", "meeresgleiter", "felsenharpyie",
                             "farnechse"],
         cages=["hornsegler", "bufomorph", "efeuschlange", "kreischmotte", "nebelkauz"])
    oliver = state["players"][1]
    assert [CAT.card(i).vp for i in oliver["monsters"]] == [2, 2, 3, 2, 4, 2]
    assert monster_points(oliver) == 15 and cage_points(oliver) == 8 and total_points(oliver) == 23
    phoenix = CAT.card("aschephoenix")
    assert (phoenix.vp, phoenix.caged_vp) == (5, 3)


def test_the_round_is_finished_after_the_deck_is_used_up_and_the_reserve_supplies_cages() -> None:
    state = named(["Julia", "Oliver"])
    state["reserve"] = state["deck"][1:] + state["reserve"]
    state["deck"] = state["deck"][:1]
    _purchase(state, 20)
    state, events = act(state, {"type": "cage", "count": 2})
    assert "deck_used_up" in kinds(events)
    assert state["deck_used_up"] and not state["over"]
    assert state["active"] == 1  # Oliver still plays his turn of this round
    reserve = len(state["reserve"])
    _purchase(state, 10)
    state, events = act(state, {"type": "cage", "count": 1})
    assert len(state["reserve"]) < reserve  # his cage and the refill come from the reserve deck
    assert state["over"] and kinds(events)[-1] == "game_ended"


def test_a_deck_used_up_on_the_last_seats_turn_ends_the_game_after_it() -> None:
    state = named(["Julia", "Oliver", "Mia"])
    start_turn(state, 2)
    state["reserve"] = state["deck"][2:] + state["reserve"]
    state["deck"] = state["deck"][:2]
    _purchase(state, 10)
    state, _ = act(state, {"type": "cage", "count": 1})
    assert not state["deck_used_up"] and state["active"] == 0  # one card left: play goes on
    state["reserve"] = state["deck"][1:] + state["reserve"]
    state["deck"] = state["deck"][:1]
    start_turn(state, 2)
    _purchase(state, 10)
    state, _ = act(state, {"type": "cage", "count": 1})
    assert state["over"]


def test_with_both_decks_empty_cages_are_noted_at_one_point_and_the_display_is_not_refilled() -> None:
    state = named(["Julia", "Oliver"])
    set_display(state, ["stachelmaul"])
    everything = state["deck"] + state["reserve"]
    give(state, 1, cages=everything)  # every card is somewhere else now
    state["deck_used_up"] = True
    start_turn(state, 1)
    _purchase(state, 20)
    state, events = act(state, {"type": "cage", "count": 2}, seat=1)
    taken = next(e for e in events if e["kind"] == "cages_taken")
    assert taken["noted"] == 2 and state["players"][1]["noted_cages"] == 2
    refill = next(e for e in events if e["kind"] == "display_refilled")
    assert refill["cards"] == []
    assert state["over"]
    assert state["result"]["cage_points"][1] == cage_points(state["players"][1])
    assert cage_points({"cages": [], "noted_cages": 2}) == 2


def test_crested_cards_go_to_their_owners_as_cages_at_the_end() -> None:
    state = named(["Julia", "Oliver"])
    set_display(state, ["abgrundauge", "lavakrebs", "farnechse"], crests={"abgrundauge": 1, "lavakrebs": 0})
    state["players"][0]["crests"] = 8
    state["players"][1]["crests"] = 8
    events: list[dict] = []
    end_standard_game(state, events)
    assert state["players"][1]["cages"] == ["abgrundauge"] and state["players"][0]["cages"] == ["lavakrebs"]
    assert [s["card"] for s in state["display"]] == ["farnechse", "monster-trader"]
    assert events[0] == {"kind": "crested_cards_caged", "counts": [1, 1]}
    assert state["result"]["scores"] == [2, 3]  # Lavakrebs 3 VP -> 2 caged; Abgrundauge 5 VP -> 3 caged
    assert state["result"]["winners"] == [1]


def test_tie_break_on_camp_levels_then_a_shared_win() -> None:
    state = named(["Julia", "Oliver"])
    give(state, 0, monsters=["stachelmaul"])
    give(state, 1, monsters=["schuppenadler"])
    state["players"][1]["camps"]["aerie"] = 3
    end_standard_game(state, [])
    assert state["result"]["scores"] == [2, 2] and state["result"]["winners"] == [1]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and "camp levels" in outcome.summary
    # The final message lists the winner first and where each score came from (it was seat order, totals only).
    assert read(outcome.summary) == ("Oliver wins (tie broken by camp levels): Oliver 2 VP (2 from monsters + 0 from "
                               "cages), Julia 2 VP (2 from monsters + 0 from cages).")
    tied = named(["Julia", "Oliver"])
    give(tied, 0, monsters=["stachelmaul"])
    give(tied, 1, monsters=["schuppenadler"])
    end_standard_game(tied, [])
    assert tied["result"]["winners"] == [0, 1]
    assert "share the win" in GAME.outcome(tied).summary


def test_outcome_is_none_until_the_end() -> None:
    state = standard()
    assert GAME.outcome(state) is None
    assert GAME.to_act(state) == (0,)
