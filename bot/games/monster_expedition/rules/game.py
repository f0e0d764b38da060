"""The Game the platform hosts: Monster Expedition's modes wired to its pure rules, views and texts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
)
from bot.core.rng import Rng
from bot.games.monster_expedition.rules import choice, rules, text, views
from bot.games.monster_expedition.rules.solo import updated_profile, won_text
from bot.games.monster_expedition.rules.state import DATA_VERSION, GAME_KEY, setup_state
from bot.games.monster_expedition.rules.text import END_EVENTS, WordedText
from bot.games.monster_expedition.rules.view_types import MonsterView
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Text, deferred, translate


@dataclass(frozen=True)
class WordedMode(Mode):
    """A mode whose title the lobby and the board show in the table's language."""

    title_id: str = ""

    def title_in(self, language: str) -> str:
        return translate(self.title_id, language) if self.title_id else self.title


def summary(state: JSON) -> WordedText:
    """The outcome's summary (who won, every score), worded in every language."""
    words = tuple((language, text.final_summary(state, language=language)) for language in LANGUAGES)
    return WordedText(dict(words)[DEFAULT_LANGUAGE], words)


class MonsterExpedition(Game):
    """Push-your-luck monster hunting for 2-4 players, and the 10-expedition solo campaign on Solinsula."""

    key = GAME_KEY
    title = "Monster Expedition"
    result_events = END_EVENTS
    takes_steps = True
    key_events = ("deck_used_up", "monster_captured")
    aliases = ("monster", "monsters", "me", "hunt", "monster-hunt")
    modes = (
        WordedMode("standard", "Standard", 2, 4, Text.of("monster.mode.standard.summary"),
                   deferred("monster.mode.standard")),
        WordedMode("solo", "Solo campaign", 1, 1, Text.of("monster.mode.solo.summary"), deferred("monster.mode.solo")),
    )
    data_version = DATA_VERSION

    def setup(self, mode: str, players: Sequence[str], rng: Rng, options: JSON) -> JSON:
        return setup_state(self.mode(mode).key, players, rng, options or {})

    def to_act(self, state: JSON) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        return rules.legal_actions(state, seat)

    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        if is_steps(action):  # bank and roll (or stop) in one press
            return apply_steps(self, state, seat, action, rng)
        return rules.apply(state, seat, action, rng)

    def revealed(self, before: JSON, after: JSON, events: Sequence[JSON]) -> Text | None:
        """Decks are shuffled at setup: taking a cage or refilling the display turns up a card without a draw."""
        if len(after["deck"]) < len(before["deck"]) or len(after["reserve"]) < len(before["reserve"]):
            return Text.of("monster.revealed.card")
        return None

    def progress_text(self, profile: JSON, language: str = "en") -> str:
        """The solo campaign: how many of the ten expeditions are won and which comes next."""
        return translate("monster.campaign.progress", language,
                         progress=won_text(len(set(profile.get("won", []))), language))

    def chance_text(self, events: Sequence[JSON], language: str = "en") -> str:
        kinds = {event.get("kind") for event in events}
        if "dice_rolled" in kinds:
            return translate("monster.chance.dice", language)
        if "cage_stolen" in kinds:
            return translate("monster.chance.steal", language)
        return translate("monster.chance.other", language)

    def view(self, state: JSON, viewer: Viewer) -> MonsterView:
        return views.view(state, viewer)

    def outcome(self, state: JSON) -> Outcome | None:
        if not state["over"]:
            return None
        if state["mode"] == "solo":
            solo = state["solo"]
            won = solo["outcome"] == "won"
            return Outcome(scores={0: 1 if won else 0}, winners=(0,) if won else (),
                           summary=summary(state), profile_updates={0: updated_profile(state)})
        result = state["result"]
        return Outcome(scores=dict(enumerate(result["scores"])), winners=tuple(result["winners"]),
                       summary=summary(state))

    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        return text.describe(state, event, language=language)

    def setting_up(self, state: JSON) -> bool:
        """Before the first turn's pieces are on the board (the first camp picked, its dice rolled)."""
        return bool(state["phase"] == "camp" and not state["turn"]["rolled"])

    def round_of(self, state: JSON) -> int | None:
        return int(state["round"])

    def turn_text(self, state: JSON, language: str = "en") -> str:
        return text.turn_text(state, language=language)

    def describe_choice(self, state: JSON, seat: int, offered: Offered, language: str = "en") -> str:
        """Which camp, which number to bank and whether to roll on, what the hunting value buys and what "Done"
        gives up, whom to steal a cage from."""
        return choice.choice_text(state, seat, offered, language)

    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        return text.private_text(state, seat, language=language)

    def rules_text(self, mode: str, language: str = "en") -> str:
        return text.rules_text(self.mode(mode).key, language=language)

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        return views.quick_actions(state, seat, language=language)

    def choice_menu(self, state: JSON, seat: int, language: str = "en") -> ChoiceMenu | None:
        return views.choice_menu(state, seat, language=language)


GAME = MonsterExpedition()
