"""Rebuild a match's state from its recorded setup and actions, with the recorded dice and shuffles.

An agreed undo is a record too (`Rewind`): the log is never edited, and replaying it takes the same moves back.
"""

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


@dataclass(frozen=True)
class Rewind:
    """An agreed undo: the last `steps` actions still in play are taken back (the state before them returns)."""

    steps: int


def replay_line(game: Game, mode: str, players: Sequence[str], options: JSON, setup_draws: Sequence[int],
                steps: Iterable[RecordedStep | Rewind]) -> list[JSON]:
    """The states of the line of play after every record: the setup first, then one per action still in play.

    Raises ReplayDivergence if the record does not fit (a draw too many or too few, a rewind past the setup).
    """
    rng = Rng.replaying(setup_draws)
    line = [game.setup(mode, players, rng, options)]
    if not rng.exhausted:
        raise ReplayDivergence("setup used fewer draws than were recorded")
    for number, step in enumerate(steps, start=1):
        if isinstance(step, Rewind):
            if not 0 < step.steps < len(line):
                raise ReplayDivergence(f"record {number} takes back {step.steps} moves; {len(line) - 1} were played")
            del line[-step.steps:]
            continue
        rng = Rng.replaying(step.draws)
        line.append(game.apply(line[-1], step.seat, step.action, rng).state)
        if not rng.exhausted:
            raise ReplayDivergence(f"step {number} used fewer draws than were recorded")
    return line


def replay(game: Game, mode: str, players: Sequence[str], options: JSON, setup_draws: Sequence[int],
           steps: Iterable[RecordedStep | Rewind]) -> JSON:
    """The state after replaying `steps` from the setup. Raises ReplayDivergence if the record does not fit."""
    return replay_line(game, mode, players, options, setup_draws, steps)[-1]
