"""The common parts of every shipped game's view are spelled once (bot.core.GameView, issue 38 item 2): over a game
played to its end, each view has them, says whose turn it is and whether the game is over as the game itself does
(`to_act`, `outcome`), and holds no key its game's view type does not declare."""

from __future__ import annotations

import random
import typing

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import GameView, Rng, TableView, all_games, find_game
from bot.core.bots import bot_view, choose

SHIPPED = sorted(game.key for game in all_games() if type(game).__module__.startswith("bot.games."))


def test_the_three_games_are_shipped() -> None:
    assert SHIPPED == ["expeditions", "monster-expedition", "the-expedition"]


@pytest.mark.parametrize("key", SHIPPED)
def test_a_views_common_parts_say_what_the_game_says_to_its_end(key: str) -> None:
    game = find_game(key)
    view_type = typing.get_type_hints(type(game).view)["return"]
    assert GameView.__required_keys__ <= view_type.__required_keys__
    declared = view_type.__required_keys__ | view_type.__optional_keys__
    mode = game.modes[0]
    players = [f"P{seat + 1}" for seat in range(min(2, mode.max_players))]
    state = game.setup(mode.key, players, Rng(5, 0), {"profiles": [{}] * len(players)})
    chooser, step, seen_over = random.Random(5), 0, False
    while step < 3000:
        for viewer in (None, *range(len(players))):
            view = game.view(state, viewer)
            assert GameView.__required_keys__ <= view.keys() <= declared, view.keys() - declared
            assert view["over"] == (game.outcome(state) is not None)
            assert view["to_act"] == list(game.to_act(state))
            assert all(isinstance(view[name], str) for name in ("game", "title", "mode", "turn", "last_move"))
            seen_over = seen_over or view["over"]
        if not game.to_act(state):
            break
        seat = game.to_act(state)[0]
        step += 1
        action = choose(game, bot_view(game, state, seat), seat, "easy", chooser)
        state = game.apply(state, seat, action, Rng(5, step)).state
    assert seen_over and step > 1


def test_the_platforms_keys_are_a_table_views() -> None:
    """What bot/games/boards.py adds to a view before it is drawn is part of every view's type."""
    assert {"title"} == TableView.__required_keys__
    assert {"turn", "last_move", "language", "marks", "closed"} == TableView.__optional_keys__
