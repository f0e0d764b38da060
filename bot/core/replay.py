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


class Replayer:
    """Replays a log one record at a time, keeping the line of play (the setup, then one state per action still in
    effect), so a checker can compare the state after every record."""

    def __init__(self, game: Game, mode: str, players: Sequence[str], options: JSON,
                 setup_draws: Sequence[int]) -> None:
        self.game = game
        rng = Rng.replaying(setup_draws)
        self.line: list[JSON] = [game.setup(mode, players, rng, options)]
        if not rng.exhausted:
            raise ReplayDivergence("setup used fewer draws than were recorded")

    @classmethod
    def resumed(cls, game: Game, state: JSON) -> Replayer:
        """A replayer whose line starts at a stored state of the line of play (a snapshot) instead of the setup: a
        rewind may then take back only the actions fed to it since."""
        replayer = cls.__new__(cls)
        replayer.game = game
        replayer.line = [state]
        return replayer

    @property
    def state(self) -> JSON:
        return self.line[-1]

    def feed(self, step: RecordedStep | Rewind) -> list[JSON]:
        """Apply one record; returns the game events it produced (none for a rewind). ReplayDivergence if the
        record does not fit (a draw too many or too few, a rewind past the setup); a RuleError if the rules
        refuse the recorded action."""
        if isinstance(step, Rewind):
            if not 0 < step.steps < len(self.line):
                raise ReplayDivergence(f"takes back {step.steps} moves; {len(self.line) - 1} are in play")
            del self.line[-step.steps:]
            return []
        rng = Rng.replaying(step.draws)
        applied = self.game.apply(self.state, step.seat, step.action, rng)
        if not rng.exhausted:
            raise ReplayDivergence("used fewer draws than were recorded")
        self.line.append(applied.state)
        return applied.events


def replay_line(game: Game, mode: str, players: Sequence[str], options: JSON, setup_draws: Sequence[int],
                steps: Iterable[RecordedStep | Rewind]) -> list[JSON]:
    """The states of the line of play after every record: the setup first, then one per action still in play.

    Raises ReplayDivergence if the record does not fit (a draw too many or too few, a rewind past the setup).
    """
    replayer = Replayer(game, mode, players, options, setup_draws)
    for number, step in enumerate(steps, start=1):
        try:
            replayer.feed(step)
        except ReplayDivergence as error:
            raise ReplayDivergence(f"step {number} {error}") from None
    return replayer.line


def replay(game: Game, mode: str, players: Sequence[str], options: JSON, setup_draws: Sequence[int],
           steps: Iterable[RecordedStep | Rewind]) -> JSON:
    """The state after replaying `steps` from the setup. Raises ReplayDivergence if the record does not fit."""
    return replay_line(game, mode, players, options, setup_draws, steps)[-1]
