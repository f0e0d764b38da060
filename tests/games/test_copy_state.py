"""`apply` changes a copy of its state (bot.core.protocol.copy_state, a pickle round trip since issue 25): for every
game, over real random moves, the input is left as it was and the new state shares no list or dict with it."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import Rng, all_games, find_game
from bot.core.protocol import copy_state


def _containers(value: Any) -> Iterator[int]:
    if isinstance(value, dict):
        yield id(value)
        for item in value.values():
            yield from _containers(item)
    elif isinstance(value, list):
        yield id(value)
        for item in value:
            yield from _containers(item)


def test_copy_state_is_a_deep_copy_that_keeps_shared_references_shared() -> None:
    shared = [1, 2]
    state = {"a": shared, "b": shared, "c": {"d": [3, {"e": "f"}]}}
    copied = copy_state(state)
    assert copied == state
    assert copied["a"] is copied["b"]  # as copy.deepcopy keeps them
    assert not set(_containers(copied)) & set(_containers(state))


@pytest.mark.parametrize("key", sorted(game.key for game in all_games()))
def test_apply_leaves_its_input_alone(key: str) -> None:
    game = find_game(key)
    mode = game.modes[0]
    players = [f"P{seat}" for seat in range(min(3, mode.max_players))]
    state = game.setup(mode.key, players, Rng(3, 0), {"profiles": [{}] * len(players)})
    chooser = random.Random(3)
    for step in range(30):
        waiting = game.to_act(state)
        if not waiting:
            break
        before = copy.deepcopy(state)
        action = chooser.choice(game.legal_actions(state, waiting[0]))
        after = game.apply(state, waiting[0], action, Rng(3, step + 1)).state
        assert state == before
        assert not set(_containers(after)) & set(_containers(state))
        state = after
