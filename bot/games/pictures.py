"""The starting positions /game rules labels (issue 33 item 3), made where the picture is drawn.

A real position of each game, a few steps in so the picture shows the pieces a turn is played with: the first
legal moves are played while the game says it is still setting up (`Game.setting_up`).
The render pool calls `picture_view` in its worker process (rendering/pool.py `RenderPool.labelled`)."""

from __future__ import annotations

from bot.core import JSON, Rng, find_game
from bot.games import boards

PICTURE_PLAYERS = ("Ada", "Bo")
"""The players of the pictures (the glossaries' parts find a player's panel by these names)."""
PICTURE_SEED = 3
SET_UP_STEPS = 12
"""At most this many first legal moves are played to reach the position labelled (a game's set-up takes 2-3)."""


def starting_state(game_key: str, mode: str, language: str) -> JSON:
    """The position labelled: the players set up, then the first legal moves until a turn is under way."""
    game = find_game(game_key)
    players = list(PICTURE_PLAYERS[:1] if mode.startswith("solo") else PICTURE_PLAYERS)
    state = game.setup(mode, players, Rng(PICTURE_SEED, 0), {"profiles": [{}] * len(players), "language": language})
    step = 0
    while step < SET_UP_STEPS and (waiting := game.to_act(state)) and game.setting_up(state):
        step += 1
        state = game.apply(state, waiting[0], game.legal_actions(state, waiting[0])[0],
                           Rng(PICTURE_SEED, step)).state
    return state


def picture_view(game_key: str, mode: str, language: str) -> JSON:
    """The public view of the starting position, worded for a table in `language`."""
    return boards.public_view(game_key, starting_state(game_key, mode, language), language)
