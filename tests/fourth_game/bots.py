"""Tug's computer players: nothing is hidden, so a seat sees the whole state; the normal bot's rule of thumb is
"pull 2 when it wins, or when the other player is tired; else pull 1 and stay rested"."""

from __future__ import annotations

import random

from bot.core.bots import Decision, GameBot
from bot.core.protocol import JSON, Game
from tests.fourth_game.game import STRONG, distance_to_win
from tests.fourth_game.words import Said


class TugBot(GameBot):
    horizon = 20  # a game is at most 10 pulls
    score_scale = 2.0

    def observe(self, game: Game, state: JSON, seat: int) -> JSON:
        return state  # (nothing is hidden; a bot never changes what it is given)

    def determinize(self, game: Game, view: JSON, seat: int, rng: random.Random) -> JSON:
        return view

    def heuristic(self, game: Game, view: JSON, seat: int, rng: random.Random) -> Decision:
        legal = game.legal_actions(view, seat)
        strong = {"type": "pull", "cells": STRONG}
        if strong not in legal:
            return Decision.worded(legal[0], Said.of("tug.hint.tired"))
        if distance_to_win(view, seat) <= STRONG:
            return Decision.worded(strong, Said.of("tug.hint.wins"))
        if view["tired"][1 - seat]:
            return Decision.worded(strong, Said.of("tug.hint.other_tired"))
        return Decision.worded({"type": "pull", "cells": 1}, Said.of("tug.hint.stay_rested"))

    def evaluate(self, game: Game, state: JSON) -> dict[int, float]:
        """How much nearer each seat is to its end than the other."""
        return {seat: float(distance_to_win(state, 1 - seat) - distance_to_win(state, seat)) for seat in (0, 1)}


BOT = TugBot()
