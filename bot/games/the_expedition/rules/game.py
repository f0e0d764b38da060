"""The Expedition as a platform Game: modes, and the protocol methods wired to the rules, views and texts."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.errors import LobbyError
from bot.core.protocol import JSON, Applied, Game, Mode, Offered, Outcome, QuickAction, Viewer, apply_steps, is_steps
from bot.core.rng import Rng
from bot.games.the_expedition.rules import choice, rules, text, views, words
from bot.games.the_expedition.rules.catalog import Catalog, load_catalog
from bot.games.the_expedition.rules.grid import ARROWS, DIAGONAL
from bot.games.the_expedition.rules.view_types import ExpeditionView
from bot.i18n import Text, deferred

MODE_TITLES = {"standard": deferred("expedition.mode.standard"), "abstract": deferred("expedition.mode.abstract"),
               "solo": deferred("expedition.mode.solo"), "solo-hard": deferred("expedition.mode.solo-hard")}
"""Each mode's title in words ("Abstract Mode" / "Abstrakter Modus"); the board words it for its table."""


class WordedMode(Mode):
    """A mode whose title the table reads in its language (the service asks `title_in`)."""

    def title_in(self, language: str) -> str:
        return Text.of(MODE_TITLES[self.key])(language)


class TheExpedition(Game):
    """A 3x3 grid of planets and moons: step, mark the location you left, complete secret expeditions."""

    key = "the-expedition"
    takes_steps = True
    title = "The Expedition"
    result_events = ("game_over",)
    key_events = ("end_triggered", "expedition_scored")
    aliases = ("expedition", "te", "grid", "the expedition")
    modes = (
        WordedMode("standard", "Standard", 2, 3, Text.of("expedition.mode.standard.summary")),
        WordedMode("abstract", "Abstract Mode", 2, 3, Text.of("expedition.mode.abstract.summary")),
        WordedMode("solo", "Solo", 1, 1, Text.of("expedition.mode.solo.summary")),
        WordedMode("solo-hard", "Solo (added challenge)", 1, 1, Text.of("expedition.mode.solo-hard.summary")),
    )
    data_version = "1"

    def __init__(self, catalog: Catalog | None = None) -> None:
        self._catalog = catalog

    @property
    def catalog(self) -> Catalog:
        """The components; the shipped ones are loaded on first use (tests may hand in their own)."""
        if self._catalog is None:
            self._catalog = load_catalog()
        return self._catalog

    def setup(self, mode: str, players: Sequence[str], rng: Rng, options: JSON) -> JSON:
        chosen = self.mode(mode)
        if not chosen.min_players <= len(players) <= chosen.max_players:
            raise LobbyError("expedition.refuse.players", mode=Text.of(MODE_TITLES[chosen.key]),
                             low=chosen.min_players, high=chosen.max_players, got=len(players))
        return rules.setup_state(self.catalog, chosen.key, list(players), rng, self.data_version)

    def to_act(self, state: JSON) -> tuple[int, ...]:
        return rules.to_act(state)

    def next_to_act(self, state: JSON) -> tuple[int, ...]:
        return rules.next_to_act(state)

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        return rules.legal_actions(state, self.catalog, seat)

    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        if is_steps(action):
            return apply_steps(self, state, seat, action, rng)
        # Nothing here is left to chance after setup (the draw pile was shuffled then), so `rng` goes unused.
        new_state, events = rules.apply_action(state, self.catalog, seat, action)
        return Applied(new_state, events)

    def view(self, state: JSON, viewer: Viewer) -> ExpeditionView:
        return views.build_view(state, self.catalog, viewer, self.mode(state["mode"]).title)

    def outcome(self, state: JSON) -> Outcome | None:
        result = state.get("result")
        if result is None:
            return None
        scores = {explorer["seat"]: int(result["scores"][explorer["id"]]["total"]) for explorer in state["players"]}
        winners = tuple(participant["seat"] for participant in state["players"]
                        if participant["id"] in result["winners"])
        return Outcome(scores=scores, winners=winners,
                       summary=text.summary_words(state, result["scores"], result["winners"], result["reason"],
                                                  self.catalog))

    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        return text.describe(state, event, self.catalog, language)

    def setting_up(self, state: JSON) -> bool:
        """Before the first turn's pieces are on the board (the explorers placed)."""
        return bool(state["phase"] != "play")

    def round_of(self, state: JSON) -> int | None:
        return int(state["round"])  # a solo game's 9 rounds (placement is round 0)

    def turn_text(self, state: JSON, language: str = "en") -> str:
        return text.turn_text(state, self.catalog, language)

    def describe_choice(self, state: JSON, seat: int, offered: Offered, language: str = "en") -> str:
        """Where to place the explorer, or which way to step and what leaving the location marks and removes."""
        return words.worded(choice.choice_words(state, self.catalog, seat, offered), language)

    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        return text.private_text(state, self.catalog, seat, language)

    def rules_text(self, mode: str, language: str = "en") -> str:
        return text.rules_text(self.mode(mode).key, self.catalog, language)

    def revealed(self, before: JSON, after: JSON, events: Sequence[JSON]) -> Text | None:
        """The draw pile was shuffled at setup: a market refill shows its next card, and scoring a secret
        expedition shows a card from a hand; neither draws from the Rng."""
        if len(after["draw_pile"]) < len(before["draw_pile"]) or len(after["undealt"]) < len(before["undealt"]):
            return Text.of("expedition.revealed.drawn")
        for old, new in zip(before["players"], after["players"], strict=True):
            if len(new["hand"]) < len(old["hand"]):
                return Text.of("expedition.revealed.secret_card")
        return None

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        """Location buttons during setup (at most 9), arrow buttons for the legal steps in play."""
        actions = self.legal_actions(state, seat)
        buttons: list[QuickAction] = []
        for index, action in enumerate(actions):
            if action["type"] == "place":
                location = self.catalog.location(action["location"])
                label = Text.of("expedition.button.place", location=location.names, points=location.points)
                buttons.append(QuickAction(label(language), action, "📍", "primary", row=index // 5))
            else:
                direction = action["direction"]
                pid = f"p{seat}"
                cell = rules.participant(state, pid)["cell"]
                target = rules.step(cell, direction)
                assert target is not None
                there = self.catalog.location(state["grid"][target]).names[language]
                word = words.direction(direction)(language)
                buttons.append(QuickAction(f"{word[:1].upper()}{word[1:]}: {there}", action, ARROWS[direction],
                                           "primary", row=1 if direction in DIAGONAL else 0))
        return buttons


GAME = TheExpedition()
