"""Random playouts of every mode: each game ends, a legal move always exists, replay rebuilds the state, states
round-trip through JSON, components are conserved, and no public view leaks a hand or the draw pile."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from bot.core.rng import Rng
from bot.games.the_expedition.rules import rules
from bot.games.the_expedition.rules.policies import greedy_action, random_action

from .helpers import GAME

CATALOG = GAME.catalog
SEEDS = int(os.environ.get("EXPEDITION_PLAYOUT_SEEDS", "40"))
CAP = 3000  # actions; random games end long before (the longest seen in 10,000 is far below)

MODES = [("standard", 2), ("standard", 3), ("abstract", 2), ("abstract", 3), ("solo", 1), ("solo-hard", 1)]


def _hidden_words(state: dict[str, Any], viewer: int | None) -> list[str]:
    """Card ids and names the viewer must not see: others' hands before the end, undealt cards, the draw pile."""
    secret: list[str] = list(state["undealt"]) + list(state["draw_pile"])
    for player in state["players"]:
        if player["seat"] != viewer and state["phase"] != "over":  # the end reveals the unscored cards
            secret += player["hand"]
    return [word for card in secret for word in (card, CATALOG.expedition(card).name)]


def _check_invariants(state: dict[str, Any]) -> None:
    assert json.loads(json.dumps(state)) == state
    cards = list(state["undealt"]) + list(state["market"]) + list(state["draw_pile"])
    for player in state["players"]:
        cards += player["hand"] + player["scored"]
    assert sorted(cards) == sorted(card.id for card in CATALOG.expeditions)
    for explorer in rules.participants(state):
        on_grid = len(rules.marked_cells(state, explorer["id"]))
        assert 0 <= on_grid <= CATALOG.markers_per_player
        if state["phase"] != "placement":
            assert explorer["cell"] in range(9)
    for cell, owners in enumerate(state["markers"]):
        assert len(owners) == len(set(owners))
        holds = CATALOG.location(state["grid"][cell]).holds
        assert holds == 0 or len(owners) <= holds
    for viewer in [None, *range(len(state["players"]))]:
        view = json.dumps(GAME.view(state, viewer))
        for word in _hidden_words(state, viewer):
            assert f'"{word}"' not in view and f"{word} (" not in view, (viewer, word)
    for event in state["last_events"]:
        text = GAME.describe(state, event)
        for word in _hidden_words(state, None):
            assert word not in text


def play(mode: str, players: int, seed: int, policy: Any = random_action) -> tuple[dict[str, Any], int]:
    """One whole game; also replays every step from its recorded draws and compares."""
    names = ["Ann", "Ben", "Cy"][:players]
    rng = Rng(seed, 0)
    state = GAME.setup(mode, names, rng, {})
    assert GAME.setup(mode, names, Rng.replaying(rng.draws), {}) == state
    chooser = random.Random(seed)
    steps = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert legal, "a seat to act always has a legal action"
        assert GAME.outcome(state) is None
        steps += 1
        assert steps < CAP
        action = policy(state, CATALOG, seat, chooser)
        rng = Rng(seed, steps)
        applied = GAME.apply(state, seat, action, rng)
        replayed = GAME.apply(state, seat, action, Rng.replaying(rng.draws))
        assert replayed.state == applied.state and replayed.events == applied.events
        assert all(isinstance(e["kind"], str) for e in applied.events)
        state = applied.state
        _check_invariants(state)
    assert state["phase"] == "over"
    assert GAME.outcome(state) is not None
    return state, steps


@pytest.mark.parametrize(("mode", "players"), MODES)
def test_random_playouts(mode: str, players: int) -> None:
    for seed in range(SEEDS):
        state, _ = play(mode, players, seed)
        outcome = GAME.outcome(state)
        assert outcome is not None and set(outcome.scores) == set(range(players))
        if mode.startswith("solo"):
            assert state["round"] <= CATALOG.solo_rounds
            if outcome.winners:
                assert "beat the Automations!" in str(outcome.summary) or "shares the win" in str(outcome.summary)
            else:
                assert "did not beat the Automations" in str(outcome.summary)


def test_an_event_log_rebuilds_the_game() -> None:
    """What the platform stores (the setup draws, then each action with its draws) is enough to rebuild the game."""
    rng = Rng(77, 0)
    state = GAME.setup("abstract", ["Ann", "Ben", "Cy"], rng, {})
    log: list[tuple[int, dict[str, Any], list[int]]] = []
    setup_draws = list(rng.draws)
    chooser = random.Random(5)
    step = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        step += 1
        action = greedy_action(state, CATALOG, seat, chooser) if step < 60 else random_action(state, CATALOG, seat,
                                                                                               chooser)
        rng = Rng(77, step)
        state = GAME.apply(state, seat, action, rng).state
        log.append((seat, action, list(rng.draws)))
    rebuilt = GAME.setup("abstract", ["Ann", "Ben", "Cy"], Rng.replaying(setup_draws), {})
    for seat, action, draws in log:
        rebuilt = GAME.apply(rebuilt, seat, action, Rng.replaying(draws)).state
    assert rebuilt == state


def test_greedy_games_complete_every_card_sometimes_but_not_always() -> None:
    """Balance guard: between greedy players no card is never or always completed (full figures: the benchmark)."""
    dealt: dict[str, int] = {}
    done: dict[str, int] = {}
    for seed in range(30):
        state = GAME.setup("standard", ["Ann", "Ben"], Rng(seed, 0), {})
        for player in state["players"]:
            for card in player["hand"]:
                dealt[card] = dealt.get(card, 0) + 1
        chooser = random.Random(seed)
        step = 0
        while GAME.to_act(state) and step < 200:
            (seat,) = GAME.to_act(state)
            step += 1
            state = GAME.apply(state, seat, greedy_action(state, CATALOG, seat, chooser), Rng(seed, step)).state
        for player in state["players"]:
            for card in player["scored"]:
                done[card] = done.get(card, 0) + 1
    rates = {card: done.get(card, 0) / count for card, count in dealt.items()}
    assert set(rates) == {card.id for card in CATALOG.expeditions}
    assert all(0.0 < rate < 1.0 for rate in rates.values()), rates
