"""The hard Monster Expedition hunter's expectimax: dice chances, exact expectations, and its push-your-luck calls."""

from __future__ import annotations

import math
import random

import pytest

import bot.games  # noqa: F401  (registers the games)
from bot.core.bots import ONLY_MOVE, Budget, bot_view, decide
from bot.core.registry import find_game
from bot.core.rng import Rng
from bot.games.monster_expedition.rules import planner


class FaceValue(planner.Valuer):
    """A valuer where a hunt is worth its hunting value and camps are worth nothing: expectations by hand."""

    def __init__(self) -> None:
        self._improvements = {}

    def spend_table(self, region: str, limit: int, skip: str | None = None) -> list[float]:
        return [float(h) for h in range(limit + 1)]

    def improvements_worth(self, kept: tuple[int, ...]) -> float:
        return 0.0


def _hunt() -> planner.Hunt:
    return planner.Hunt(FaceValue(), "aerie", (1, 4, 6, 7, 8, 10))


def _used(*numbers: int) -> int:
    return sum(1 << n for n in numbers)


def test_black_dice_outcomes_are_multisets_with_their_chances() -> None:
    two = planner._black_outcomes(2)
    assert len(two) == 21 and math.isclose(sum(p for p, _ in two), 1.0)
    chances = {counts: p for p, counts in two}
    assert math.isclose(chances[(0, 0, 0, 0, 0, 2)], 1 / 36) and math.isclose(chances[(1, 0, 0, 0, 0, 1)], 2 / 36)
    exact = planner._roll_outcomes((2, 2, 5, 7, 9, 10), 2, 64)  # 5 faces of the blue die x 21: 105 > 64
    assert len(exact) <= 64
    small = planner._roll_outcomes((2, 2, 5, 7, 9, 10), 1, 64)  # 5 x 6, every one
    assert len(small) == 30 and math.isclose(sum(p for p, _ in small), 1.0)
    assert math.isclose(sum(p for p, groups in small if any(value == 2 for value, *_ in groups)), 1 - (2 / 3) * (5 / 6))
    for count, sample in ((3, 64), (8, 64), (8, 40)):
        outcomes = planner._roll_outcomes((2, 2, 5, 7, 9, 10), count, sample)
        assert len(outcomes) <= sample and math.isclose(sum(p for p, _ in outcomes), 1.0)


def test_rolling_one_die_on_a_kept_six_is_worth_seven_and_a_half() -> None:
    hunt = _hunt()
    # 1-5 add to the 6 kept; a 6 is a misthrow that loses the 6 (and then the hunt stops with nothing)
    assert hunt.roll(False, 1, (6,), _used(6), 1) == pytest.approx((7 + 8 + 9 + 10 + 11 + 0) / 6)
    assert hunt.choose(False, 1, (6,), _used(6), 1) == pytest.approx(7.5)


def test_with_five_numbers_used_the_hunter_stops() -> None:
    hunt = _hunt()
    kept = (2, 3, 4, 5, 6)
    # only a 1 adds (21); anything else loses the 6 (14): 91/6 on average, less than the 20 in hand
    assert hunt.roll(False, 1, kept, _used(2, 3, 4, 5, 6), 1) == pytest.approx(91 / 6)
    assert hunt.choose(False, 1, kept, _used(2, 3, 4, 5, 6), 1) == 20.0


def test_looking_further_ahead_never_lowers_the_worth_of_a_hunt() -> None:
    hunt = _hunt()
    worths = [hunt.roll(True, 2, (), 0, depth) for depth in (1, 2, 3, 4)]
    assert worths == sorted(worths) and worths[-1] > worths[0]


def test_the_hard_hunter_answers_every_phase_with_a_legal_move_and_a_reason() -> None:
    game = find_game("monster-expedition")
    state = game.setup("standard", ["A", "B"], Rng(2, 0), {})
    seen: set[str] = set()
    for step in range(1, 200):
        if not game.to_act(state):
            break
        seat = game.to_act(state)[0]
        decision = decide(game, bot_view(game, state, seat), seat, "hard", random.Random(step),
                          Budget(seconds=5.0, iterations=200))
        assert decision.action in game.legal_actions(state, seat)
        assert decision.reason == ONLY_MOVE or (decision.reason[0].isupper() and decision.reason.endswith("."))
        seen.add(state["phase"])
        state = game.apply(state, seat, decision.action, Rng(2, step)).state
    assert {"camp", "bank", "continue", "purchase"} <= seen
