"""Lessons (issue 33, "learn by playing"): what a game teaches a newcomer, as data beside the game.

A lesson is a table (the mode, how many computer players, a seed), how far the computer players play every seat
before the learner takes over (`ready`: a prepared position reached by legal moves through the game's rules, so
it survives rule changes, undo and replay), and an ordered list of ideas. Each idea is told once, the first time
its trigger holds: a predicate over the state as the public board shows it, the learner's seat and the events of
the moves since the last board. Triggers read public information only; the words are catalogue messages, shown
on the board in the table's language. The feature that runs lessons is bot/features/lessons.py.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.core.protocol import JSON, Game

LESSON_FINISHED = "lesson_finished"
"""The kind of the event that closes a lesson which has taught enough of a long game (its `ends`): the table is
finished as a lesson, without a result (a lesson's table never counts: `MatchRecord.lesson`)."""

Trigger = Callable[[JSON, int, Sequence[JSON]], bool]
"""(state, learner's seat, the events since the last board) -> whether the idea matters now."""


def always(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
    """An idea told on the first board (the goal of the game)."""
    return True


def event_happened(*kinds: str) -> Trigger:
    """A trigger for an idea that matters once an event of one of `kinds` happened (anyone's)."""

    def happened(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
        return any(event.get("kind") in kinds for event in events)

    return happened


@dataclass(frozen=True)
class Idea:
    """One thing to teach: its catalogue message (one or two sentences naming the part of the board) and when."""

    key: str
    message_id: str
    trigger: Trigger
    at_end: bool = False
    """An idea about the end and the scoring: told on the final board (with "You are ready")."""
    marks: tuple[str, ...] = ()
    """The parts of the board the idea points at, by the names the game's renderer gives them (its `part_boxes`:
    "track", "pile"; a player's part, "player", is the learner's): the board telling the idea outlines them,
    and its line says where they are in words (the lesson's `places`)."""
    table_message_id: str | None = None
    """The idea as a teaching table tells it, for everyone at the table (its players named in the third person,
    no lesson spoken of), where the lesson's words address the one learner; None: the lesson's words fit both."""

    @property
    def table_message(self) -> str:
        """The catalogue message a teaching table shows."""
        return self.table_message_id or self.message_id


@dataclass(frozen=True)
class Lesson:
    """A game's lesson: its table, the prepared position and the ideas in the order they are usually met."""

    mode: str
    computer_players: int
    seed: int
    ideas: tuple[Idea, ...]
    ready: Callable[[JSON, int], bool] = lambda state, seat: True
    """Whether the prepared position is reached (state, learner's seat): the computer players play every seat,
    the learner's included, until it holds; the learner then plays from there."""
    ends: Callable[[JSON, int], bool] | None = None
    """Whether the lesson has taught enough to stop here (state, learner's seat), for a game far longer than a
    lesson: it then explains the end and the scoring and the table ends as a finished lesson (`LESSON_FINISHED`).
    None: the game is played to its end."""
    most_at_once: int = 2
    """At most this many ideas on one board (before the end): the rest come on the next boards where they hold."""
    level: str = "normal"
    """How the computer players play, in the preparation and against the learner."""
    most_preparing_moves: int = 400
    """A bound on the preparation, so a change of rules or bots can never make it run away."""
    places: Mapping[str, str] = field(default_factory=dict)
    """Where each part the ideas mark is, in words (a catalogue message per part name: "the hunt line under the
    cards"), for the line that tells the idea."""
    table_places: Mapping[str, str] = field(default_factory=dict)
    """The same for a teaching table, where a player's part is the player to move's: a message with `{name}` for
    each part a lesson words as the learner's ("your explorer"); the others read alike at both."""


def lesson_for(game: Game) -> Lesson | None:
    """The lesson beside the game's rules (`bot.games.<pkg>.lesson.LESSON`), or None for a game without one."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.lesson")
    except ModuleNotFoundError:
        return None
    lesson = getattr(module, "LESSON", None)
    return lesson if isinstance(lesson, Lesson) else None


def due_ideas(lesson: Lesson, told: set[str], state: JSON, seat: int, events: Sequence[JSON], *,
              finished: bool) -> list[Idea]:
    """The ideas to tell now, in the lesson's order: those not told yet whose trigger holds; on the final board
    every idea about the end not told yet."""
    due: list[Idea] = []
    for idea in lesson.ideas:
        if idea.key in told:
            continue
        if idea.trigger(state, seat, events) if not idea.at_end else finished:
            due.append(idea)
    return due
