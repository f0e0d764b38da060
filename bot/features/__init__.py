"""Features: plug-ins on the service and the table API (bot/service/, bot/table.py), which never import them.

- autoplay: computer players (they play the turns that follow a move; a table of bots alone plays itself)
- undo: take back a move by consent
- community, scheduler: reminders, turn timers, kick and rejoin, lobby expiry, and the loop that runs them
- history: finished games, their replays and exports
- stats, ratings: a player's record, the leaderboard, and rating a game when it ends
- personal: a member's own games across servers, and how and when they are told it is their turn
- lessons: /game learn, a game taught by playing it against computer players

`install` registers their hooks on a service; whoever builds a service (create_bot, the tests) calls it once.
"""

from __future__ import annotations

import functools

from bot.features import autoplay, lessons, personal, ratings
from bot.features.community import Clock, TurnPlanner
from bot.service import GameService


def install(service: GameService, *, clock: Clock | None = None) -> GameService:
    """Plug the features into `service`: computer players after every move, ratings when a game ends, and (with a
    `clock`) the reminders and turn timers planned into every write. Returns the service."""
    service.on_after_move(functools.partial(autoplay.after_move, service))
    service.on_after_move(functools.partial(lessons.after_move, service))  # after the computer players' turns
    service.on_board_note(functools.partial(lessons.board_note, service))
    service.on_board_marks(functools.partial(lessons.board_marks, service))
    service.on_board_note(functools.partial(personal.clock_line, service))  # each seat's time left on a clock
    service.on_game_end(functools.partial(ratings.rate_finished, service.store))
    if clock is not None:
        service.planner = TurnPlanner(
            service.store, clock,
            personal=functools.partial(personal.plan_turn, service.store),  # each member's own reminders, DMs
            finish=functools.partial(personal.finish_turn, service.store))  # clocks; members away
    return service
