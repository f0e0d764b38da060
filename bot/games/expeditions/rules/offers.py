"""Whole plays as single offers (issue 33): a card with its core value and worker, a choice with what it leads to.

The controls offer, beside each first step, the complete ways to go on from it: the steps that follow, each with
a choice of the same player, are tried on a copy of the state (the rules decide, nothing is guessed) and every
way that ends with no choice left, or at a choice that would show something hidden, is one offer: a compound
action (`bot.core.protocol.STEPS`) the rules apply step by step as one move. A first step with more ways on than
an offer may list stays an offer of its own, and its choices come one at a time, so every way stays reachable.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core.protocol import JSON, steps_action
from bot.core.rng import Rng
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.data import Components
from bot.games.expeditions.rules.engine import REAL_OPTION_EXEMPT, pending_options
from bot.games.expeditions.rules.text import colour_word, effects_text
from bot.games.expeditions.rules.views import prompt
from bot.i18n import translate

Apply = Callable[[JSON, int, JSON, Rng], Any]  # ExpeditionsGame.apply (this module sits below the game)
Legal = Callable[[JSON, int], list[JSON]]  # ExpeditionsGame.legal_actions
Revealed = Callable[[JSON, JSON, Any], object]
WAYS_OUT = (*REAL_OPTION_EXEMPT, "confirm")
STEPWISE = ("sweep",)  # choices offered one option at a time (toggles: a compound of them would read as a riddle)
LONGEST = 8  # the most steps one offer makes (a choice that comes back to itself is not followed round for ever)


@dataclass
class Way:
    """One way to go on: its steps, the state after them, the words of its choices, how many of them forgo
    something (a way out taken while a real option was there), and whether it may go on further."""

    steps: list[JSON]
    state: JSON
    words: list[str] = field(default_factory=list)
    forgone: list[str] = field(default_factory=list)
    growing: bool = True

    @property
    def action(self) -> JSON:
        return steps_action(self.steps)


def standing(player: JSON) -> tuple[int, ...]:
    """What a player has that a step can add to: a step that leaves it unchanged gains nothing."""
    return (player["power"], player["guile"], player["coins"], player["map_tokens"], q.workers_owned(player),
            player["stars"], len(player["quests"]), len(player["upgrades"]), len(player["melds"]),
            len(player["corruption"]), len(q.controlled(player)))


def gains_nothing(before: JSON, after: JSON, seat: int) -> bool:
    """Whether `after` leaves the seat where `before` had it, with no choice waiting and the turn still its own."""
    return (standing(before["players"][seat]) == standing(after["players"][seat])
            and before["players"][seat]["at"] == after["players"][seat]["at"]
            and not (after["turn"] or {}).get("pending") and before["face_up"] == after["face_up"])


def outcome_key(state: JSON) -> bytes:
    """The position without its words, to find the same outcome reached twice (the rules copy states whole, so
    equal positions pickle alike)."""
    return pickle.dumps({k: v for k, v in state.items() if k not in ("log", "last_move")}, pickle.HIGHEST_PROTOCOL)


class Ways:
    """The ways on from a state for one seat, found with the game's own `apply` (and `revealed`, to stop before a
    choice whose options would show what a draw turned up)."""

    def __init__(self, comp: Components, apply: Apply, revealed: Revealed, language: str = "en",
                 legal: Legal | None = None) -> None:
        self.comp = comp
        self.apply = apply
        self.revealed = revealed
        self.language = language
        self.legal = legal

    def odin_between(self, way: Way, seat: int) -> bool:
        """Whether Odin's Wrath may be called in the middle of this way (a map token its first steps gained): the
        way is then also offered stopped there, or that move could not be made from the controls (issue 33)."""
        if self.legal is None or not way.steps:
            return False
        return any(action["type"] == "odin" for action in self.legal(way.state, seat))

    def after(self, state: JSON, seat: int, steps: list[JSON]) -> Way | None:
        """The way of these first steps (None when the rules refuse one)."""
        way = Way([], state)
        for step in steps:
            grown = self._step(way, seat, step)
            if grown is None:
                return None
            way = grown
        return way

    def _step(self, way: Way, seat: int, step: JSON, words: str = "", forgone: str = "") -> Way | None:
        rng = Rng(0, 0)
        try:
            applied = self.apply(way.state, seat, step, rng)
        except ValueError:
            return None
        state = applied.state
        quiet = not rng.draws and self.revealed(way.state, state, applied.events) is None
        pending = None if state["over"] else state["turn"]["pending"]
        going = (quiet and pending is not None and state["turn"]["seat"] == seat
                 and pending["kind"] not in STEPWISE and len(way.steps) < LONGEST)
        return Way([*way.steps, step], state, way.words + ([words] if words else []),
                   way.forgone + ([forgone] if forgone else []), going)

    def ways_on(self, way: Way, seat: int, most: int) -> list[Way]:
        """Every way on from `way` through the choices that follow it, as long as they number at most `most`;
        the same outcome reached twice (core then worker, worker then core) is offered once."""
        ways = [way]
        while True:
            index = next((i for i, w in enumerate(ways) if w.growing), None)
            if index is None:
                break
            keys = {outcome_key(w.state) for i, w in enumerate(ways) if i != index}
            children = []
            for child in self.children(ways[index], seat):  # the same outcome reached twice is offered once
                key = outcome_key(child.state)
                if key not in keys:
                    keys.add(key)
                    children.append(child)
            if children and self.odin_between(ways[index], seat):
                children.append(Way(ways[index].steps, ways[index].state, ways[index].words, ways[index].forgone,
                                    False))
            if not children or len(ways) - 1 + len(children) > most:
                ways[index].growing = False
                continue
            ways[index:index + 1] = children
        return sorted(ways, key=lambda w: len(w.forgone))

    def children(self, way: Way, seat: int) -> list[Way]:
        """The ways one choice further: one per option of the choice waiting after `way`."""
        pending = way.state["turn"]["pending"]
        options = pending_options(self.comp, way.state, pending, self.language)
        real = [o for o in options if o["id"] not in WAYS_OUT]
        out = []
        for option in options:
            words, forgone = self.choice_words(way.state, pending, option, real)
            grown = self._step(way, seat, {"type": "choose", "option": option["id"]}, words, forgone)
            if grown is not None:
                out.append(grown)
        return out

    def choice_words(self, state: JSON, pending: JSON, option: dict[str, str], real: list[dict[str, str]]
                     ) -> tuple[str, str]:
        """A choice in a few words for an offer's label, and what it forgoes (a way out while a real option was
        there): "+$1" / "red worker: gain 2 power" for a card's steps, the option's own label otherwise; a way out
        says what is lost ("forgo +$1", "Skip (choose a face-up card to gain)")."""
        language = self.language
        if pending["kind"] == "play_steps":
            card = self.comp.cards[pending["card"]]
            worker = translate("expeditions.offer.worker", language, colour=colour_word(card.colour, language),
                               effects=effects_text(card.ability, language))
            if option["id"] == "core":
                return effects_text(card.core, language), ""
            if option["id"] == "activate":
                return worker, ""
            lost = [effects_text(card.core, language) if o["id"] == "core" else worker for o in real]
            return "", translate("expeditions.offer.forgo", language, lost=" · ".join(lost)) if lost else ""
        if option["id"] in WAYS_OUT:
            if real and option["id"] != "confirm":
                return "", translate("expeditions.offer.skip", language, skip=option["label"],
                                     choice=prompt(pending["kind"], language))
            return option["label"], ""
        return option["label"], ""


def way_label(way: Way) -> str:
    """A way's choices in words: "+$1 · red worker: gain 2 power", "+$1 · forgo red worker: …"."""
    return " · ".join([*way.words, *way.forgone])
