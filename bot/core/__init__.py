"""The game-independent core: protocol, registry, errors and recorded randomness (stdlib only)."""

from bot.core.errors import (
    AmbiguousAction,
    GameOver,
    IllegalAction,
    LobbyError,
    MalformedAction,
    NotYourTurn,
    RuleError,
    StaleBoard,
)
from bot.core.protocol import (
    JSON,
    Applied,
    ChoiceMenu,
    Game,
    Mode,
    Offered,
    Outcome,
    QuickAction,
    Viewer,
    apply_steps,
    is_steps,
    steps_action,
)
from bot.core.registry import all_games, find_game, register
from bot.core.rng import ReplayDivergence, Rng

__all__ = [
    "JSON",
    "AmbiguousAction",
    "Applied",
    "ChoiceMenu",
    "Game",
    "GameOver",
    "IllegalAction",
    "LobbyError",
    "MalformedAction",
    "Mode",
    "NotYourTurn",
    "Offered",
    "Outcome",
    "QuickAction",
    "ReplayDivergence",
    "Rng",
    "RuleError",
    "StaleBoard",
    "Viewer",
    "all_games",
    "apply_steps",
    "find_game",
    "is_steps",
    "register",
    "steps_action",
]
