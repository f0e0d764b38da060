"""The game protocol: what every game module provides so the platform can host it without knowing its rules.

A game is pure data plus pure functions (after boardgame.io and OpenSpiel): states, actions and events are
JSON-compatible dicts; `apply` never mutates its input; all chance comes from the `Rng` it is handed.

Words (issue 21): every method that returns words takes the reader's `language` ("en" or "de", bot.i18n.LANGUAGES):
the table's language for what the channel reads (describe, turn_text, quick_actions, choice_menu), the reader's
for private answers (private_text, rules_text, chance_text, progress_text). A refusal is a RuleError raised with
a message id; `Outcome.summary` and `revealed` may be a bot.i18n.Text, worded where they are shown.
"""

from __future__ import annotations

import pickle
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from bot.core.errors import IllegalAction, MalformedAction
from bot.core.rng import Rng
from bot.core.views import TableView
from bot.i18n import LANGUAGES, Localized, Text, in_language, join_or, said, translate

JSON = dict[str, Any]


def copy_state(state: JSON) -> JSON:
    """A deep copy of a JSON state, for an `apply` to change instead of its input: a pickle round trip, 3-5x faster
    than copy.deepcopy (whose 0.1-0.4 ms a move was a tenth of the event loop's work a move; issue 25). Shared
    references inside the state stay shared, as with deepcopy."""
    copied: JSON = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return copied
"""A JSON-compatible mapping: states, actions, events and views are all of this shape."""

Viewer = int | None
"""Who is looking: a seat index, or None for the channel (public information only)."""


@dataclass(frozen=True)
class Mode:
    """A way to play a game (standard, solo, a variant), with the player counts it accepts."""

    key: str
    title: str
    min_players: int
    max_players: int
    summary: str | Text | Localized
    """What sets the mode apart, in one sentence, for the lobby, /game rules and the mode choices of /game new: a
    Text (a catalogue message) or a Localized is worded in the reader's language, a plain str shown as it is."""

    def summary_in(self, language: str = "en") -> str:
        """The summary in `language` ("en" or "de")."""
        return str(in_language(self.summary, language))

    def title_in(self, language: str) -> str:
        """The title in `language`, as the mode choices show it (a game may word its titles per language)."""
        return str(in_language(self.title, language))

    def called(self, typed: str) -> bool:
        """Whether `typed` names this mode: its key, or its title in any language (a refusal lists the titles, so
        a player may type one back)."""
        wanted = typed.strip().casefold()
        return wanted == self.key or any(wanted == self.title_in(language).casefold() for language in LANGUAGES)


@dataclass(frozen=True)
class Applied:
    """The result of one accepted action: the new state and what happened, as events with a `kind`."""

    state: JSON
    events: list[JSON]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    `winners` lists seats; it is empty when nobody seated won (a solo game lost to the Automations).
    `profile_updates` maps a seat to the new per-player record the platform keeps for this game
    (a solo campaign's progress, for instance); the platform stores it per server and user.
    """

    scores: dict[int, int]
    winners: tuple[int, ...]
    summary: str | Text
    profile_updates: dict[int, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class QuickAction:
    """A button the platform puts under a board: pressing it submits `action` for the seat to move."""

    label: str
    action: JSON
    emoji: str | None = None
    style: str = "secondary"  # primary, secondary, success or danger
    row: int | None = None
    description: str | None = None  # a menu option's second line (buttons have none)


PHONE_LABEL = 25
"""The longest button or menu label that reads whole on a phone; details go to the board or a menu option's
description (at most 100 characters)."""


def phone_label(text: str) -> tuple[str, str | None]:
    """A choice's words as a short label and a description: whole when short; else split where the text
    explains itself ("Place red worker: gain 2 power" -> "Place red worker" / "gain 2 power", "Vanquish guile 4
    (pay 4 guile)" -> "Vanquish guile 4" / "pay 4 guile"); else cut at a word with the whole text below."""
    if len(text) <= PHONE_LABEL:
        return text, None
    for mark in (": ", " ("):
        head, found, tail = text.partition(mark)
        if found and 3 <= len(head) <= PHONE_LABEL:
            return head, tail.rstrip(")")[:100] or None
    cut = text[: PHONE_LABEL - 1].rsplit(" ", 1)[0] if " " in text[: PHONE_LABEL - 1] else text[: PHONE_LABEL - 1]
    return cut + "…", text[:100]


def cut_between_words(text: str, most: int = 100) -> str:
    """`text` whole when it fits in `most` characters, else cut between words with "…" (a menu option's second
    line holds 100)."""
    if len(text) <= most:
        return text
    cut = text[:most - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ·;,:") + "…"


@dataclass(frozen=True)
class ChoiceMenu:
    """A select menu the platform puts under a board, for a choice with more options than buttons suit.

    Each option is a QuickAction (its label, emoji, action and description); at most 25 are shown.
    """

    placeholder: str
    options: tuple[QuickAction, ...]


@dataclass(frozen=True)
class Offered:
    """What a board offers the seat to move, as the platform shows it: its buttons and its menu (each cut to what
    Discord shows), for the words that explain the choice (`Game.describe_choice`)."""

    buttons: tuple[QuickAction, ...] = ()
    menu: ChoiceMenu | None = None

    @property
    def options(self) -> tuple[QuickAction, ...]:
        """Every offer: the buttons, then the menu's options."""
        return self.buttons + (self.menu.options if self.menu is not None else ())


STEPS = "steps"
"""The type of a compound action: ``{"type": "steps", "steps": [action, ...]}``, the seat's existing actions applied
one after the other as one move (one commit, one board, one record in the log: a replay applies it the same way).
The controls offer one where a choice always comes with the next (bank and roll, a card with its core value)."""
MOST_STEPS = 24  # far more than any compound the controls build; a longer list is not one of theirs


def steps_action(steps: Sequence[JSON]) -> JSON:
    """The compound action of these steps (a single step stays itself; nested compounds are flattened)."""
    flat: list[JSON] = []
    for step in steps:
        flat += list(step["steps"]) if is_steps(step) else [step]
    return flat[0] if len(flat) == 1 else {"type": STEPS, "steps": flat}


def is_steps(action: object) -> bool:
    return isinstance(action, dict) and action.get("type") == STEPS


def apply_steps(game: Game, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
    """Apply a compound action's steps in order with the same `rng`, all by `seat`, which must still be to act
    before each step: the events of every step, and the state after the last. A step the rules refuse refuses
    the whole compound (nothing of it is applied)."""
    steps = action.get("steps")
    if not isinstance(steps, list) or not 1 <= len(steps) <= MOST_STEPS or not all(
            isinstance(step, dict) and not is_steps(step) for step in steps):
        raise MalformedAction("error.steps_malformed")
    events: list[JSON] = []
    for index, step in enumerate(steps):
        if index and seat not in game.to_act(state):
            raise IllegalAction("error.steps_turn_over")
        applied = game.apply(state, seat, step, rng)
        state, events = applied.state, events + list(applied.events)
    return Applied(state, events)


class Game(ABC):
    """One board game. Subclasses are stateless; everything about a match lives in its state dict."""

    key: str
    """Stable slug used in commands and the database, e.g. "test-nim". Never renamed."""
    title: str
    aliases: tuple[str, ...] = ()
    modes: tuple[Mode, ...]
    data_version: str = "1"
    """Which component data a match was started with; stored with the match."""
    takes_steps: ClassVar[bool] = False
    """Whether `apply` takes a compound action (`STEPS`, by `apply_steps`): only then does the platform make a
    player's steps with one legal choice in the same move (a game without it gets each step on its own)."""
    result_events: tuple[str, ...] = ()
    """Kinds of the events that announce the result. The log keeps their sentence; the final board leaves it out,
    since the board's last line (the outcome's summary, with every score) says the result already."""
    key_events: tuple[str, ...] = ()
    """Kinds of the events that are a turn's key news (the end triggered, a scoring): a move's story tells them
    first, so the line under a board's headline, which keeps the first sentence when it must shorten, names them."""
    progress_names: ClassVar[Mapping[str, Text | Localized]] = MappingProxyType({})
    """What the default progress_text calls each key of a player's stored record (`Outcome.profile_updates`), in
    the order shown: a catalogue message (`Text.of("nim.progress.wins")`) or a Localized ("wins" / "Siege"). A key
    not named here is not shown: a record's keys are the game's data, not words a reader can read."""

    def warm_up(self) -> None:
        """Load what the game reads on first use (its component data, its words), so that a process's start pays
        for it and not the first match's move on the event loop (issue 25). Default: set up a match of every mode
        (with the fewest players) and look at it as the platform does; a game may load its data more directly."""
        for mode in self.modes:
            players = [f"Player {seat + 1}" for seat in range(max(1, mode.min_players))]
            state = self.setup(mode.key, players, Rng(0, 0), {"profiles": [{}] * len(players)})
            self.view(state, None)
            self.turn_text(state)
            for seat in self.to_act(state)[:1]:
                self.legal_actions(state, seat)
                self.quick_actions(state, seat)

    def mode(self, key: str | None) -> Mode:
        """The mode called `key` (the first mode when None): its key or its title in any language. Refused, the
        modes are listed by their titles in the reader's language, as Discord's mode choices show them."""
        if key is None:
            return self.modes[0]
        for mode in self.modes:
            if mode.called(key):
                return mode
        titles = Localized.from_mapping({language: ", ".join(mode.title_in(language) for mode in self.modes)
                                         for language in LANGUAGES})
        from bot.core.errors import LobbyError

        raise LobbyError("lobby.refuse.no_mode", title=self.title, mode=said(key), modes=titles)

    @abstractmethod
    def setup(self, mode: str, players: Sequence[str], rng: Rng, options: JSON) -> JSON:
        """The starting state for these players (display names, in seat order).

        `options` carries platform extras: "profiles" (one stored record per seat, possibly empty dicts)
        and any game-specific options given at /game new.
        """

    @abstractmethod
    def to_act(self, state: JSON) -> tuple[int, ...]:
        """Seats whose input the game is waiting for; empty once the game is over."""

    def next_to_act(self, state: JSON) -> tuple[int, ...]:
        """The seats the game waits for once those in `to_act` are done, as far as the state says now (a member's
        heads-up that their turn comes next); empty when none is known. By default the seat after the last one to
        act, in seat order: a game whose turns go otherwise (a placement order, a play order) says so."""
        acting, count = self.to_act(state), len(self.player_names(state))
        return ((max(acting) + 1) % count,) if acting and count else ()

    @abstractmethod
    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        """Every action `seat` may submit now, in a stable order; never empty for a seat in `to_act`."""

    @abstractmethod
    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        """Decide an action. Raise a RuleError (whose message the player sees) if it is not allowed."""

    @abstractmethod
    def view(self, state: JSON, viewer: Viewer) -> TableView:
        """What `viewer` may see. With viewer None: public information only (no hands, cages, deck order). A
        shipped game's view extends bot.core.views.GameView (the common parts spelled once)."""

    @abstractmethod
    def outcome(self, state: JSON) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        """One event in words for the channel (public: never mentions hidden information)."""

    @abstractmethod
    def turn_text(self, state: JSON, language: str = "en") -> str:
        """Whose turn it is and what they are to do, in words, e.g. "Alice to move"."""

    @abstractmethod
    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        """What only `seat` may see, in words, for /game mine (hand, cages...)."""

    @abstractmethod
    def rules_text(self, mode: str, language: str = "en") -> str:
        """A summary of the rules of this mode, including the rulings that apply, for /game rules."""

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        """The buttons to offer under the board for `seat` (only legal actions). Default: none."""
        return []

    def choice_menu(self, state: JSON, seat: int, language: str = "en") -> ChoiceMenu | None:
        """A select menu to offer under the board for `seat` (only legal actions), or None. Default: none.

        When a menu is offered the platform shows at most 15 quick-action buttons beside it.
        """
        return None

    def describe_choice(self, state: JSON, seat: int, offered: Offered, language: str = "en") -> str:
        """The choice in front of `seat` in plain words, for a teaching table's board (issue 33): who chooses,
        what the offers mean in this position, and what a press gives up. Public, like the board: never a card
        in a hand, a cage or the deck's order. Default: the offers' labels, for a game that words none."""
        names = self.player_names(state)
        name = said(names[seat]) if seat < len(names) else str(seat + 1)
        labels = [offer.label for offer in offered.options]
        if not labels:
            return ""
        return translate("choice.default", language, name=name, options=join_or(labels, language))

    def setting_up(self, state: JSON) -> bool:
        """Whether the position is still before the first turn's pieces are on the board: the /game rules picture
        plays a game's first legal moves while this holds, so it shows the pieces a turn is played with. Default:
        False (the set-up position is the picture)."""
        return False

    def round_of(self, state: JSON) -> int | None:
        """The round the game is in, for a table of one: each round gets a new board that pings the player (edited
        in place within the round), so a solo game notifies and its text never grows past a round. Default: None
        (no rounds: a solo board is a new message only when the seats to move change)."""
        return None

    def revealed(self, before: JSON, after: JSON, events: Sequence[JSON]) -> str | Text | None:
        """What one step showed that was hidden before it, in a few words ("a card was drawn"), else None.

        The platform refuses to undo past any step that drew from the Rng (its draws are in the event record), so
        a game overrides this only for what it reveals without a draw: a card off a deck shuffled at setup, a
        secret card played face up. Default: nothing (a game with no hidden information needs no override).
        """
        return None

    def chance_text(self, events: Sequence[JSON], language: str = "en") -> str:
        """How to say, in a refused undo, that a step drew from the Rng ("a die was rolled"). Default: generic."""
        return translate("undo.chance", language)

    def progress_text(self, profile: JSON, language: str = "en") -> str:
        """A player's stored record for this game (`Outcome.profile_updates`) in one line, for /stats, in the
        reader's `language`. Default: the values of the keys `progress_names` names ("Siege: 3"), numbers in the
        language's format; "" when it names none of them (then /stats shows no line)."""
        parts = []
        for key, name in self.progress_names.items():
            value = profile.get(key)
            if value is True:
                value = translate("stats.progress.yes", language)
            elif value is False:
                value = translate("stats.progress.no", language)
            elif not isinstance(value, int | float | str) or value == "":
                continue  # missing, or a list or mapping: no one value to show
            parts.append(translate("stats.progress.item", language, name=name, value=value))  # numbers as "1.000"
        return ", ".join(parts)

    def player_names(self, state: JSON) -> list[str]:
        """Display names by seat (states keep them under "players" by convention)."""
        return [str(p["name"]) if isinstance(p, dict) else str(p) for p in state.get("players", [])]
