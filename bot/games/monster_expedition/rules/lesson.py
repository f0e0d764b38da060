"""The Monster Expedition lesson (issue 33): a game for two, the learner against a computer player, taken over
when the draw deck is down to 14 cards, so that a whole turn of every phase, the end and the scoring fit in about
ten minutes. The words are the catalogue's `lesson.monster.*` messages (true to rules/monster-expedition.txt)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.lessons import Idea, Lesson, Trigger, always, event_happened
from bot.core.protocol import JSON
from bot.i18n import deferred

PREPARED_DECK = 14
"""The learner takes over at their first turn with at most this many cards left in the draw deck."""


def ready(state: JSON, seat: int) -> bool:
    """The learner picks a camp with the draw deck nearly used up."""
    return state["active"] == seat and state["phase"] == "camp" and len(state["deck"]) <= PREPARED_DECK


def learner_in(phase: str) -> Trigger:
    """A trigger for the learner's own turn in `phase` (camp, bank, continue, purchase)."""

    def in_phase(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
        return state["active"] == seat and state["phase"] == phase and not state["over"]

    return in_phase


def learner_improved(state: JSON, seat: int, events: Sequence[JSON]) -> bool:
    """The learner's own turn improved one of their camps."""
    return any(event.get("kind") == "camp_improved" and event.get("seat") == seat for event in events)


LESSON = Lesson(
    mode="standard",
    computer_players=1,
    seed=20_331,
    ready=ready,
    ideas=(
        Idea("goal", deferred("lesson.monster.goal"), always, marks=("wilderness",),
             table_message_id=deferred("lesson.monster.goal_table")),
        Idea("camp", deferred("lesson.monster.camp"), learner_in("camp"), marks=("player", "hunt"),
             table_message_id=deferred("lesson.monster.camp_table")),
        Idea("bank", deferred("lesson.monster.bank"), learner_in("bank"), marks=("hunt",),
             table_message_id=deferred("lesson.monster.bank_table")),
        Idea("roll_or_stop", deferred("lesson.monster.roll_or_stop"), learner_in("continue"), marks=("hunt",),
             table_message_id=deferred("lesson.monster.roll_or_stop_table")),
        Idea("spend", deferred("lesson.monster.spend"), learner_in("purchase"), marks=("wilderness",),
             table_message_id=deferred("lesson.monster.spend_table")),
        Idea("improve", deferred("lesson.monster.improve"), learner_improved, marks=("player",),
             table_message_id=deferred("lesson.monster.improve_table")),
        Idea("refill", deferred("lesson.monster.refill"), event_happened("display_refilled"), marks=("wilderness",)),
        Idea("end", deferred("lesson.monster.end"), event_happened("deck_used_up"), marks=("deck",)),
        Idea("scoring", deferred("lesson.monster.scoring"), always, at_end=True, marks=("players",),
             table_message_id=deferred("lesson.monster.scoring_table")),
    ),
    places={
        "wilderness": deferred("lesson.monster.part.wilderness"),
        "deck": deferred("lesson.monster.part.deck"),
        "hunt": deferred("lesson.monster.part.hunt"),
        "player": deferred("lesson.monster.part.player"),
        "players": deferred("lesson.monster.part.players"),
    },
    table_places={
        "player": deferred("lesson.monster.part.player_table"),
    },
)
