"""The service: load a channel's match, let the game's rules decide, commit, and build what to show.

Everything that changes a match goes through here — the Discord cogs, the local table and the tests — so the
checks (seated? your turn? stale board? game over?) are made in one place, and every accepted move is committed
before anyone is told about it. Each change is one channel's transaction of the table API (bot/table.py).

Features (bot/features/) sit above the service and plug into its hooks at start-up, never imported by it: after a
committed move (`on_after_move`: the computer players' turns), when a move ends a game (`on_game_end`: ratings),
and before every write, where the seats to move may change (`planner`: reminders and turn timers planned into the
write's own transaction).
"""

from __future__ import annotations

from bot.service.game_service import GameService
from bot.service.shapes import (
    CLOSING_KINDS,
    FORCED_MOST,
    IMAGES_AT_ONCE,
    IMAGES_BUSY,
    LOG_LIMIT,
    LONG_READS,
    MAX_SEED,
    NO_HOST,
    OFFERS_KEPT,
    ROW_BUTTONS,
    Accepted,
    Board,
    BoardButton,
    BoardChoice,
    BoardMarksHook,
    BoardMenu,
    BoardNoteHook,
    GameEndHook,
    InvalidControl,
    MoveHook,
    Player,
    Renderer,
    Seen,
    button_rows,
    game_command,
    host_passed_text,
    next_host,
)
from bot.service.words import (
    PRIVATE_CHARS,
    STORY_CHARS,
    STORY_EVENTS,
    STORY_LINES,
    final_result,
    last_turn,
    latest_move,
    mode_line,
    mode_players,
    mode_title,
    recorded,
    shown_state,
    story_text,
    told_key_first,
    turn_words,
    whole_lines,
)
from bot.store import (  # for the cogs, which never import the store
    DM_GUILD,
    MatchRecord,
    StoreDamaged,
    StoreUnavailable,
    storage_full,
)
from bot.workers import WorkerBusy  # for the cogs (a refused image on demand)

__all__ = [
    "CLOSING_KINDS",
    "DM_GUILD",
    "FORCED_MOST",
    "IMAGES_AT_ONCE",
    "IMAGES_BUSY",
    "LOG_LIMIT",
    "LONG_READS",
    "MAX_SEED",
    "NO_HOST",
    "OFFERS_KEPT",
    "PRIVATE_CHARS",
    "ROW_BUTTONS",
    "STORY_CHARS",
    "STORY_EVENTS",
    "STORY_LINES",
    "Accepted",
    "Board",
    "BoardButton",
    "BoardChoice",
    "BoardMarksHook",
    "BoardMenu",
    "BoardNoteHook",
    "GameEndHook",
    "GameService",
    "InvalidControl",
    "MatchRecord",
    "MoveHook",
    "Player",
    "Renderer",
    "Seen",
    "StoreDamaged",
    "StoreUnavailable",
    "WorkerBusy",
    "button_rows",
    "final_result",
    "game_command",
    "host_passed_text",
    "last_turn",
    "latest_move",
    "mode_line",
    "mode_players",
    "mode_title",
    "next_host",
    "recorded",
    "shown_state",
    "storage_full",
    "story_text",
    "told_key_first",
    "turn_words",
    "whole_lines",
]
