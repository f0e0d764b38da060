"""The Expeditions lesson (issue 33): a game for two, the learner against a computer player, taught from its
start over the learner's first turns (the all-three-actions first turn, then turns with the action token, a
location revealed, refreshing); it then ends early with how the game ends and scores, since a whole game is far
longer than ten minutes. The words are the catalogue's `lesson.expeditions.*` messages, true to
rules/expeditions.txt and data/expeditions/components.toml (star values 5, 6, 8, 10)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.lessons import Idea, Lesson, Trigger, always, event_happened
from bot.core.protocol import JSON
from bot.i18n import deferred

ACTIONS = ("move", "play", "gather")
LESSON_TURNS = 6
"""Turns of both players the lesson lasts (three of the learner's) before it explains the end and stops."""


def learner_acting(state: JSON, seat: int) -> bool:
    turn = state["turn"]
    return not state["over"] and turn is not None and turn["seat"] == seat


def first_turn(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
    """The learner's first turn, with all three actions."""
    return learner_acting(state, seat) and state["turn"]["phase"] == "actions" and \
        len(state["turn"]["remaining"]) == len(ACTIONS)


def may(action: str) -> Trigger:
    """A trigger for the learner's turn when `action` is among the actions left and nothing else is asked."""

    def can(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
        turn = state["turn"]
        return learner_acting(state, seat) and turn["phase"] == "actions" and not turn["pending"] and \
            action in turn["remaining"]

    return can


def choosing_actions(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
    """The start of a later turn: the learner moves the action token (or refreshes)."""
    return learner_acting(state, seat) and state["turn"]["phase"] == "start"


def may_refresh(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
    """A turn start where refreshing is allowed (the token is in the Move/Play/Gather box)."""
    return choosing_actions(state, seat, events) and state["players"][seat]["token"] in ACTIONS


def lesson_done(state: JSON, seat: int) -> bool:
    """Three turns each played: the start of the learner's next turn ends the lesson."""
    return state["turns_taken"] >= LESSON_TURNS and choosing_actions(state, seat, ())


LESSON = Lesson(
    mode="standard",
    computer_players=1,
    seed=20_331,
    ends=lesson_done,
    ideas=(
        Idea("goal", deferred("lesson.expeditions.goal"), always, marks=("players",),
             table_message_id=deferred("lesson.expeditions.goal_table")),
        Idea("first_turn", deferred("lesson.expeditions.first_turn"), first_turn,
             table_message_id=deferred("lesson.expeditions.first_turn_table")),
        Idea("move", deferred("lesson.expeditions.move"), may("move"), marks=("reachable",),
             table_message_id=deferred("lesson.expeditions.move_table")),
        Idea("corruption", deferred("lesson.expeditions.corruption"), event_happened("location_revealed"),
             marks=("corruption_key",), table_message_id=deferred("lesson.expeditions.corruption_table")),
        Idea("play", deferred("lesson.expeditions.play"), may("play"), marks=("player",),
             table_message_id=deferred("lesson.expeditions.play_table")),
        Idea("gather", deferred("lesson.expeditions.gather"), may("gather"), marks=("mech",),
             table_message_id=deferred("lesson.expeditions.gather_table")),
        Idea("token", deferred("lesson.expeditions.token"), choosing_actions, marks=("player",),
             table_message_id=deferred("lesson.expeditions.token_table")),
        Idea("refresh", deferred("lesson.expeditions.refresh"), may_refresh, marks=("player",),
             table_message_id=deferred("lesson.expeditions.refresh_table")),
        Idea("end", deferred("lesson.expeditions.end"), always, at_end=True, marks=("players",),
             table_message_id=deferred("lesson.expeditions.end_table")),
        Idea("scoring", deferred("lesson.expeditions.scoring"), always, at_end=True,
             table_message_id=deferred("lesson.expeditions.scoring_table")),
    ),
    places={
        "players": deferred("lesson.expeditions.part.players"),
        "reachable": deferred("lesson.expeditions.part.reachable"),
        "corruption_key": deferred("lesson.expeditions.part.corruption_key"),
        "player": deferred("lesson.expeditions.part.player"),
        "mech": deferred("lesson.expeditions.part.mech"),
    },
    table_places={
        "mech": deferred("lesson.expeditions.part.mech_table"),
        "player": deferred("lesson.expeditions.part.player_table"),
        "reachable": deferred("lesson.expeditions.part.reachable_table"),
    },
)
