"""Random playouts over many seeds: every game ends, cards are conserved, replay rebuilds the state, JSON
round-trips, a legal action always exists, and no public view leaks cages, the deck or the reserve."""

from __future__ import annotations

import json
import os

import pytest

from bot.core.rng import Rng
from bot.games.monster_expedition import GAME
from bot.games.monster_expedition.rules.catalog import TRADER_ID

from .helpers import CAT, all_cards, playout

SEEDS = int(os.environ.get("ME_PLAYOUT_SEEDS", "4"))
EVERY_CARD = sorted(CAT.cards)


def _check_step(before: dict, after: dict, seat: int) -> None:
    assert json.loads(json.dumps(after)) == after
    cards = all_cards(after)
    expected = EVERY_CARD if TRADER_ID in cards else [c for c in EVERY_CARD if c != TRADER_ID]
    assert sorted(cards) == expected, "cards appeared or vanished"
    assert len(cards) == len(set(cards))
    for player in after["players"]:
        assert min(player["camps"].values()) >= 1 and max(player["camps"].values()) <= 8
        if after["mode"] == "standard":
            crested = sum(1 for s in after["display"] if s["crest"] == after["players"].index(player))
            assert player["crests"] + crested == 9, "crests are conserved"
    if after["over"]:
        assert GAME.to_act(after) == () and GAME.outcome(after) is not None
        return
    to_act = GAME.to_act(after)
    assert to_act and GAME.legal_actions(after, to_act[0]), "the seat to act always has a legal action"
    _check_views(after)


def _check_views(state: dict) -> None:
    public = json.dumps(GAME.view(state, None))
    secret = list(state["deck"]) + list(state["reserve"])
    for player in state["players"]:
        secret += player["cages"]
    for card_id in secret:
        assert f'"{card_id}"' not in public, f"public view leaks {card_id}"
    for seat, _player in enumerate(state["players"]):
        own = json.dumps(GAME.view(state, seat))
        others = [c for s, p in enumerate(state["players"]) if s != seat for c in p["cages"]]
        for card_id in others + list(state["deck"]) + list(state["reserve"]):
            assert f'"{card_id}"' not in own, f"seat {seat}'s view leaks {card_id}"
    text = " ".join(GAME.describe(state, e) for e in state["recent"]) + GAME.turn_text(state)
    assert "Traceback" not in text


def _replay(mode: str, players: int, seed: int, options: dict, steps: list, final: dict) -> None:
    state = GAME.setup(mode, [f"Hunter{i}" for i in range(players)], Rng(seed, 0), options)
    for seat, action, draws in steps:
        rng = Rng.replaying(draws)
        state = GAME.apply(state, seat, action, rng).state
        assert rng.exhausted
    assert state == final


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(SEEDS))
def test_standard_playouts(players: int, seed: int) -> None:
    styles = ["greedy", "random", "cautious", "greedy"] if seed % 2 else ["cautious", "greedy", "random", "random"]
    final, steps = playout("standard", players, seed, styles, check=_check_step)
    assert final["over"], f"seed {seed}: no end after {len(steps)} steps"
    assert final["deck_used_up"] and final["deck"] == []
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.winners
    assert sorted(outcome.scores) == list(range(players))
    _replay("standard", players, seed, {}, steps, final)


@pytest.mark.parametrize("expedition", range(1, 11))
def test_solo_playouts(expedition: int) -> None:
    for seed in range(max(1, SEEDS // 2)):
        options = {"expedition": expedition, "profiles": [{"won": list(range(1, 11)),
                                                           "failed_attempts": {str(expedition): seed % 3}}]}
        style = ["greedy", "cautious", "random"][seed % 3]
        final, steps = playout("solo", 1, seed, [style], options=options, check=_check_step)
        assert final["over"]
        outcome = GAME.outcome(final)
        assert outcome is not None and set(outcome.profile_updates) == {0}
        profile = outcome.profile_updates[0]
        if final["solo"]["outcome"] == "won":
            assert expedition in profile["won"]
        else:
            assert profile["failed_attempts"][str(expedition)] == seed % 3 + 1
        _replay("solo", 1, seed, options, steps, final)


def test_a_random_only_game_ends_or_reports_its_cap() -> None:
    """Players who never buy a cage could hunt forever; random ones do buy cages, so the deck runs out."""
    final, steps = playout("standard", 2, 11, ["random"], cap=6000)
    assert final["over"], f"random game stopped at the cap of {len(steps)} steps"
