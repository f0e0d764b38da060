"""Whole random games for 1-5 players: they end (or hit a reported cap) without error, conserve every component,
survive a JSON round trip after each step, keep secrets out of the public view, and replay exactly.

EXPEDITIONS_SEEDS raises the number of seeds per player count (default 2).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from bot.core import is_steps
from bot.core.rng import Rng
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.policies import greedy_action, planned_action

from .helpers import COMP

SEEDS = int(os.environ.get("EXPEDITIONS_SEEDS", "2"))
STEP_CAP = 6000


def all_tokens() -> Counter:
    ids = Counter(f"{colour}-{value}-{i + 1}" for colour, value, n in COMP.corruption for i in range(n))
    ids["token20"] += 1
    return ids


def check_conservation(state: dict[str, Any]) -> None:
    players = state["players"]
    cards = Counter(state["deck"] + state["discard"] + state["trash"] + [c for c in state["face_up"] if c])
    for p in players:
        cards.update(p["hand"] + [s["card"] for s in p["active"]] + p["upgrades"] + p["melds"] + p["quests"])
    expected = Counter(COMP.deck)
    expected.update(c for p in players for c in (p["character"], p["companion"]))
    assert cards == expected

    tokens = Counter(t["id"] for t in state["bag"] + state["reserve"])
    for space in state["spaces"].values():
        tokens.update(t["id"] for t in space["corruption"])
    for p in players:
        tokens.update(t["id"] for t in p["corruption"])
    assert tokens == all_tokens()

    for colour, total in COMP.workers.items():
        held = sum(p["workers"][colour] + sum(1 for s in p["active"] if s["worker"] == colour) for p in players)
        assert state["supply"]["workers"][colour] + held == total
        assert state["supply"]["workers"][colour] >= 0

    maps = (state["supply"]["map_tokens"] + state["supply"]["map_tokens_trashed"]
            + sum(p["map_tokens"] for p in players) + sum(s["map_token"] for s in state["spaces"].values()))
    assert maps == COMP.rules.map_token_supply + 14
    for p in players:
        assert 0 <= p["power"] <= 10 and 0 <= p["guile"] <= 10 and p["coins"] >= 0
        assert len(p["upgrades"]) <= 5 and len(p["melds"]) <= 5 and len(p["quests"]) <= 5
        assert all(s["worker"] is None or s["worker"] == COMP.cards[s["card"]].colour for s in p["active"])


def check_public_view(state: dict[str, Any]) -> None:
    view = GAME.view(state, None)
    text = json.dumps(view)
    assert '"deck":' not in text and '"bag": [' not in text
    for entry in view["map"]["spaces"]:
        if entry["kind"] != "cards" and not entry["revealed"]:
            assert "location" not in entry and "name" not in entry
    buttons = GAME.quick_actions(state, GAME.to_act(state)[0]) if not state["over"] else []
    legal = GAME.legal_actions(state, GAME.to_act(state)[0]) if not state["over"] else []
    assert len(buttons) <= 20
    for button in buttons:  # a compound (a whole play, issue 33) starts with a legal step
        first = button.action["steps"][0] if is_steps(button.action) else button.action
        assert first in legal and len(button.label) < 80 and (button.row or 0) < 5
    assert sum(1 for b in buttons if b.row == 0) <= 5


def play(players: int, seed: int, policy: str = "random") -> tuple[dict[str, Any], list[list[int]], int]:
    rnd = random.Random(seed)
    setup_rng = Rng(seed, 0)
    state = GAME.setup("standard", [f"P{i}" for i in range(players)], setup_rng, {})
    draws = [list(setup_rng.draws)]
    steps = 0
    while not state["over"] and steps < STEP_CAP:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        assert legal
        if policy == "random":
            action = rnd.choice(legal)
        else:
            action = (greedy_action if policy == "greedy" else planned_action)(GAME, state, seat, rnd)
        steps += 1
        rng = Rng(seed, steps)
        applied = GAME.apply(state, seat, action, rng)
        assert all(isinstance(e.get("kind"), str) for e in applied.events)
        state = applied.state
        draws.append(list(rng.draws))
        assert json.loads(json.dumps(state)) == state
        check_conservation(state)
        if steps % 25 == 0:
            check_public_view(state)
    return state, draws, steps


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_random_games_end_conserve_components_and_replay(players: int) -> None:
    for seed in range(SEEDS):
        state, draws, steps = play(players, 100 * players + seed)
        if not state["over"]:
            print(f"{players} players, seed {seed}: turn cap reached after {state['turns_taken']} turns")
        else:
            result = GAME.outcome(state)
            assert result is not None and result.winners
            check_public_view(state)
        replayed = GAME.setup("standard", [f"P{i}" for i in range(players)], Rng.replaying(draws[0]), {})
        rnd = random.Random(100 * players + seed)
        for step in range(1, steps + 1):
            seat = GAME.to_act(replayed)[0]
            action = rnd.choice(GAME.legal_actions(replayed, seat))
            rng = Rng.replaying(draws[step])
            replayed = GAME.apply(replayed, seat, action, rng).state
            assert rng.exhausted
        assert replayed == state


def test_a_greedy_three_player_game_ends() -> None:
    state, _, _ = play(3, 11, policy="greedy")
    assert state["over"]
    assert state["end"]["triggered_by"] is not None
    assert max(p["stars"] for p in state["players"]) == 4


@pytest.mark.parametrize(("players", "seed"), [(1, 3), (3, 4)])
def test_planned_games_end_in_a_reasonable_number_of_turns(players: int, seed: int) -> None:
    state, _, _ = play(players, seed, policy="planner")
    assert state["over"] and max(p["stars"] for p in state["players"]) == 4
    assert 12 <= state["turns_taken"] / players <= 45
