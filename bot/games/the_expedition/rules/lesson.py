"""The Expedition lesson (issue 33): a whole game for two, the learner against a computer player, from the
placement of the explorers to the scoring (a game for two is about six turns each). The words are the catalogue's
`lesson.expedition.*` messages, true to rules/the-expedition.txt."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.lessons import Idea, Lesson, always, event_happened
from bot.core.protocol import JSON
from bot.i18n import deferred


def learner_moves(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
    """The learner's first turn of moving their explorer (after the placement)."""
    return state["phase"] == "play" and state["order"][state["current"]] == f"p{seat}"


LESSON = Lesson(
    mode="standard",
    computer_players=1,
    seed=20_331,
    ideas=(
        Idea("goal", deferred("lesson.expedition.goal"), always, marks=("grid",),
             table_message_id=deferred("lesson.expedition.goal_table")),
        Idea("move", deferred("lesson.expedition.move"), learner_moves, marks=("explorer",),
             table_message_id=deferred("lesson.expedition.move_table")),
        Idea("expedition", deferred("lesson.expedition.expedition"), event_happened("expedition_scored"),
             marks=("players",)),
        Idea("end", deferred("lesson.expedition.end"), event_happened("end_triggered"), marks=("players",)),
        Idea("scoring", deferred("lesson.expedition.scoring"), always, at_end=True, marks=("players",),
             table_message_id=deferred("lesson.expedition.scoring_table")),
    ),
    places={
        "grid": deferred("lesson.expedition.part.grid"),
        "explorer": deferred("lesson.expedition.part.explorer"),
        "players": deferred("lesson.expedition.part.players"),
    },
    table_places={
        "explorer": deferred("lesson.expedition.part.explorer_table"),
    },
)
