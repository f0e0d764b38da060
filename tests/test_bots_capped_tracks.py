"""A gain the seat cannot take is worth nothing (issue 33, item 5): Expeditions' computer players and hints valued
a location for its +2 power at 10 power (the track's cap), and went there to gather nothing while another location
would have brought something."""

from __future__ import annotations

import random

import pytest

import bot.games  # noqa: F401  (registers the games)
from bot.core.bots import Budget, bot_view, decide, explain
from bot.core.protocol import JSON
from bot.core.registry import find_game
from bot.core.rng import Rng
from bot.games.expeditions.rules import policies
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.bots import outlook_of

REACH = ("c2", "e2", "c3", "d3", "e3", "d4", "e4")
"""Every space a mech on e5 can move to once the whole map is face up."""
TILES = (18, 13, 19, 4, 11, 14, 15)
"""Locations for them: at 10 power and 10 guile, with neither item nor meteorite nor a category met, a Gather at 18
(+3 power, +1 guile, a boast, an upgrade), 4, 11, 14 or 15 brings nothing; one at 13 or 19 brings $1."""


def _position(power: int, guile: int, tiles: dict[str, int], at: str = "e5") -> tuple[JSON, int]:
    """Seed 1's first turn with the whole map face up and cleared, the given locations where asked, the mech at
    `at` with nothing left to do but move."""
    game = find_game("expeditions")
    state = game.setup("standard", ["A", "B"], Rng(1, 0), {})
    seat = state["turn"]["seat"]
    player = state["players"][seat]
    player.update(at=at, power=power, guile=guile)
    state["turn"] = {"seat": seat, "phase": "actions", "remaining": ["move"], "queue": [], "pending": None,
                     "temp_ongoing": []}
    spare = [tile for tile in range(1, 21) if tile not in tiles.values()]
    for code, space in state["spaces"].items():
        space.update(tile=tiles.get(code) or spare.pop(), revealed=True, corruption=[])
    return state, seat


def _code(state: JSON, tile: int) -> str:
    return next(code for code, space in state["spaces"].items() if space["tile"] == tile)


@pytest.mark.parametrize(("tile", "power", "guile", "spot", "appeal"), [
    (18, 0, 0, 1.8, 1.0),  # +3 power 0.9, +1 guile 0.3, a boast and an upgrade not ready 0.3 each
    (18, 8, 10, 1.2, 0.5),  # only 2 of the 3 power fit; the guile does not
    (18, 10, 0, 0.9, 0.5),  # the guile only
    (18, 10, 10, 0.6, 0.0),  # nothing but the boast and upgrade not ready (1.8 and 1.0 before)
    (4, 10, 9, 0.9, 0.5),  # +2 power or +2 guile: the guile fits
    (4, 10, 10, 0.3, 0.0),  # neither does (0.9 and 0.5 before)
    (20, 10, 10, 0.9, 0.5),  # only the $2 (1.8 and 1.5 before)
])
def test_a_location_is_valued_for_the_gains_the_seat_can_take(tile: int, power: int, guile: int, spot: float,
                                                               appeal: float) -> None:
    game = find_game("expeditions")
    state, seat = _position(power, guile, {"e5": tile})
    assert policies.spot_value(game.comp, state, seat, "e5") == pytest.approx(spot)
    assert policies.location_appeal(game.comp, state, seat) == pytest.approx(appeal)


def test_a_worker_none_are_left_of_is_worth_nothing() -> None:
    """Location 1: +2 power, a red worker, a card from an adjacent space."""
    game = find_game("expeditions")
    state, seat = _position(0, 0, {"e5": 1})
    assert policies.spot_value(game.comp, state, seat, "e5") == pytest.approx(0.6 + 0.6 + 1.5)
    state["supply"]["workers"]["red"] = 0
    assert policies.spot_value(game.comp, state, seat, "e5") == pytest.approx(0.6 + 1.5)
    assert policies.location_appeal(game.comp, state, seat) == pytest.approx(1.0)
    assert not q.benefit_takes(game.comp, state, seat, {"do": "worker", "colour": "red"})


def _gathering_brings(state: JSON, seat: int, code: str) -> bool:
    """Whether a Gather at `code` would bring the seat anything (played out to the end of the turn)."""
    game = find_game("expeditions")
    there = {**state, "players": [dict(p) for p in state["players"]],
             "turn": {**state["turn"], "remaining": ["gather"]}}
    there["players"][seat]["at"] = code
    outlook = outlook_of(game, there, seat, {"type": "gather"})
    return outlook.now or outlook.later


@pytest.mark.parametrize("shift", range(len(REACH)))
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_no_move_to_gather_nothing_while_another_place_brings_something(shift: int, level: str) -> None:
    """At 10 power and 10 guile, location 18's +3 power and +1 guile made it the best place to go (for the hint and
    both computer players, wherever it lay): a Gather there brings nothing, at 13 or 19 something."""
    game = find_game("expeditions")
    tiles = TILES[shift:] + TILES[:shift]
    state, seat = _position(10, 10, dict(zip(REACH, tiles, strict=True)))
    assert sorted(a["space"] for a in game.legal_actions(state, seat)) == sorted(REACH)
    bringing = {tile for tile in TILES if _gathering_brings(state, seat, _code(state, tile))}
    assert bringing == {13, 19}
    view = bot_view(game, state, seat)
    action = decide(game, view, seat, level, random.Random(1), Budget(seconds=60.0, iterations=2)).action
    assert state["spaces"][action["space"]]["tile"] in bringing


def test_the_hint_names_only_what_a_gather_there_can_bring() -> None:
    """The hint said "next turn a Gather there brings +1 power, +1 guile, +yellow worker..." at 10 power and 10
    guile (location 7 is the best place to go, 13 with its $1 the only other that brings anything)."""
    game = find_game("expeditions")
    tiles = dict(zip(REACH, (7, 18, 4, 11, 14, 15, 13), strict=True))
    state, seat = _position(10, 10, tiles)
    hint = explain(game, bot_view(game, state, seat), seat, random.Random(1))
    assert hint.startswith("Move to 7 ")
    assert hint.endswith("next turn a Gather there brings +yellow worker, gain a face-up card, meld a meteorite.")


# --- Monster Expedition: an improvement for a camp at its final level, a die past the limit of 8 ---------------------


def _hunter_view(camps: dict[str, int], monsters: list[str] | None = None) -> JSON:
    """Seat 0's view of seed 1's first turn (two hunters), its camps at the given levels, holding `monsters`."""
    game = find_game("monster-expedition")
    view = bot_view(game, game.setup("standard", ["A", "B"], Rng(1, 0), {}), 0)
    view["players"][0]["camps"].update(camps)
    view["players"][0]["monsters"] = list(monsters or [])
    return view


def test_a_bonus_or_misthrow_monster_is_worth_its_points_alone_once_its_camp_is_final() -> None:
    """Nebelkauz (bonus improvement on a 5) and Kreischmotte (misthrow improvement) improve the Aerie camp; at its
    final level they bring no more than Federling (1 point, no ability) does."""
    from bot.games.monster_expedition.rules.catalog import catalog
    from bot.games.monster_expedition.rules.planner import Valuer

    cat = catalog()
    rising = Valuer(_hunter_view({"aerie": 3}), 0, cat)
    plain = rising.monster_worth(cat.card("federling"), None)
    assert rising.monster_worth(cat.card("nebelkauz"), None) > plain
    assert rising.monster_worth(cat.card("kreischmotte"), None) > plain
    final = Valuer(_hunter_view({"aerie": 8}), 0, cat)
    worths = {card: final.monster_worth(cat.card(card), None) for card in ("nebelkauz", "kreischmotte", "federling")}
    assert worths == {card: pytest.approx(plain) for card in worths}


def test_a_symbiosis_set_or_a_level_brings_no_die_past_the_limit_of_eight() -> None:
    """Three symbiosis sets on camps at level 7 (5 black dice each) make 8 dice: another set or level adds none, so
    Federling is worth its 1 point, and raising a camp to its final level the two cages it brings."""
    from bot.games.monster_expedition.rules.catalog import catalog
    from bot.games.monster_expedition.rules.planner import Valuer

    cat = catalog()
    sets = ["federling", "schuppenadler", "nebelkauz"] * 3  # purple, red, white: three sets
    full = Valuer(_hunter_view({"aerie": 7, "depths": 7, "forest": 7}, sets), 0, cat)
    assert full.monster_worth(cat.card("federling"), None) == pytest.approx(1.0)
    assert full.level_worth(0, "aerie", 7) == pytest.approx(cat.rules.final_level_cages * full.look.cage_worth)
    roomy = Valuer(_hunter_view({"aerie": 1, "depths": 1, "forest": 1}, sets), 0, cat)
    assert roomy.monster_worth(cat.card("federling"), None) > 1.0


@pytest.mark.parametrize(("aerie_final", "banked"), [(False, 1), (True, 5)])
def test_the_solo_camps_hunter_banks_ones_only_for_a_camp_that_can_rise(aerie_final: bool, banked: int) -> None:
    """Expedition 4 (two camps at the top level) makes the rule of thumb bank 1s, 2s and 3s for the camps they
    improve: two 1s were banked over a 5 for an Aerie camp already at its final level."""
    from bot.games.monster_expedition.rules import strategies

    view = {
        "phase": "bank", "solo": {"expedition": 4}, "tray": {"rolled": [{"value": 1}, {"value": 1}, {"value": 5}]},
        "you": {"seat": 0, "legal_actions": [{"type": "bank", "value": 1}, {"type": "bank", "value": 5}]},
        "players": [{"camps": {"aerie": {"final": aerie_final}, "depths": {"final": False},
                               "forest": {"final": False}}}],
    }
    assert strategies.choose(view, "greedy", random.Random(1)) == {"type": "bank", "value": banked}
