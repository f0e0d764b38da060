"""Seeded randomness whose every draw is recorded, so a stored game replays without re-rolling."""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class ReplayDivergence(RuntimeError):
    """Replaying recorded draws asked for something the original run did not."""


def derive_seed(seed: int, step: int) -> int:
    """A per-step seed, so each move's randomness depends only on (match seed, step)."""
    digest = hashlib.sha256(f"{seed}:{step}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Rng:
    """The only source of chance the rules may use.

    Live, it draws from a generator derived from (seed, step) and records every integer it hands out.
    Replaying, it hands back a recorded list instead, so dice and shuffles come out exactly as they did,
    whatever happens to Python's own generator in a later version.
    """

    def __init__(self, seed: int, step: int = 0, *, recorded: Sequence[int] | None = None) -> None:
        self._random = random.Random(derive_seed(seed, step))
        self._replay = list(recorded) if recorded is not None else None
        self._cursor = 0
        self.draws: list[int] = []

    @classmethod
    def replaying(cls, recorded: Sequence[int]) -> Rng:
        return cls(0, 0, recorded=recorded)

    def randint(self, low: int, high: int) -> int:
        """An integer in [low, high], both included."""
        if low > high:
            raise ValueError(f"empty range {low}..{high}")
        if self._replay is None:
            value = self._random.randint(low, high)
        else:
            if self._cursor >= len(self._replay):
                raise ReplayDivergence("replay asked for more draws than were recorded")
            value = self._replay[self._cursor]
            self._cursor += 1
            if not low <= value <= high:
                raise ReplayDivergence(f"recorded draw {value} is outside {low}..{high}")
        self.draws.append(value)
        return value

    def choice(self, options: Sequence[T]) -> T:
        if not options:
            raise ValueError("choice from an empty sequence")
        return options[self.randint(0, len(options) - 1)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place, built on randint so that it is recorded too."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        copy = list(items)
        self.shuffle(copy)
        return copy

    def roll(self, faces: Sequence[int]) -> int:
        """One throw of a die with the given faces."""
        return self.choice(faces)

    @property
    def exhausted(self) -> bool:
        """True when a replay used every recorded draw (a replay that leaves some over has diverged)."""
        return self._replay is None or self._cursor == len(self._replay)
