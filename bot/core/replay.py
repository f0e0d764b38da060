"""Rebuild a match's state from its recorded setup and actions, with the recorded dice and shuffles."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.core.protocol import JSON, Game
from bot.core.rng import ReplayDivergence, Rng


@dataclass(frozen=True)
class RecordedStep:
    """One accepted action as stored: who acted, what they submitted, and every random draw it used."""

    seat: int
    action: JSON
    draws: Sequence[int]


def replay(game: Game, mode: str, players: Sequence[str], options: JSON, setup_draws: Sequence[int],
           steps: Iterable[RecordedStep]) -> JSON:
    """The state after replaying `steps` from the setup. Raises ReplayDivergence if the record does not fit."""
    rng = Rng.replaying(setup_draws)
    state = game.setup(mode, players, rng, options)
    if not rng.exhausted:
        raise ReplayDivergence("setup used fewer draws than were recorded")
    for number, step in enumerate(steps, start=1):
        rng = Rng.replaying(step.draws)
        state = game.apply(state, step.seat, step.action, rng).state
        if not rng.exhausted:
            raise ReplayDivergence(f"step {number} used fewer draws than were recorded")
    return state
