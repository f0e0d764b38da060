"""Tug: the rules. Two players pull a rope whose marker sits on a track of 9 cells, starting in the middle.

Each turn the player to move pulls the marker 1 or 2 cells toward their own end (the first player toward cell 0,
the second toward cell 8). A pull of 2 tires the puller: their next pull can only be 1. Whoever brings the marker
to their end wins; after 10 pulls the marker's side wins, and at the middle the second player (the anchor) holds.
No chance and nothing hidden: states are small dicts, and undo may take back any pull."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import JSON, Applied, Game, IllegalAction, MalformedAction, Mode, Outcome, QuickAction, Rng, Viewer
from bot.core.protocol import copy_state
from bot.i18n import Localized, said
from tests.fourth_game.words import Said, say

CELLS = 9
MIDDLE = CELLS // 2
PULLS = 10
"""How many pulls a game lasts at most."""
STRONG = 2
ENDS = (0, CELLS - 1)
"""The cell each seat pulls toward."""


def toward(seat: int) -> int:
    """Which way a pull by `seat` moves the marker along the track."""
    return -1 if seat == 0 else 1


def distance_to_win(state: JSON, seat: int) -> int:
    return abs(ENDS[seat] - int(state["marker"]))


class Tug(Game):
    """A tug of war on a track of 9 cells, for two."""

    key = "tug"
    title = "Tug"
    aliases = ("tug-of-war",)
    modes = (Mode("standard", "Standard", 2, 2, Localized("Pull the marker to your end of the rope.",
                                                          "Zieh die Markierung an dein Ende des Seils.")),)
    result_events = ("won",)

    def setup(self, mode: str, players: Sequence[str], rng: Rng, options: JSON) -> JSON:
        return {"players": [{"name": name} for name in players], "marker": MIDDLE, "turn": 0, "pulls": 0,
                "tired": [False] * len(players), "winner": None}

    def to_act(self, state: JSON) -> tuple[int, ...]:
        return () if state["winner"] is not None else (int(state["turn"]),)

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        if seat not in self.to_act(state):
            return []
        strongest = 1 if state["tired"][seat] else STRONG
        return [{"type": "pull", "cells": cells} for cells in range(1, strongest + 1)]

    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        cells = action.get("cells")
        if action.get("type") != "pull" or isinstance(cells, bool) or not isinstance(cells, int):
            raise MalformedAction(Said.of("tug.refuse.malformed"))
        if seat not in self.to_act(state):
            raise IllegalAction(Said.of("tug.refuse.not_your_turn"))
        if {"type": "pull", "cells": cells} not in self.legal_actions(state, seat):
            raise IllegalAction(Said.of("tug.refuse.tired" if cells == STRONG else "tug.refuse.cells"))
        new = copy_state(state)
        new["marker"] = max(0, min(CELLS - 1, state["marker"] + toward(seat) * cells))
        new["tired"][seat] = cells == STRONG
        new["pulls"] += 1
        new["turn"] = 1 - seat
        events: list[JSON] = [{"kind": "pulled", "seat": seat, "cells": cells, "marker": new["marker"]}]
        winner = self._winner(new)
        if winner is not None:
            new["winner"] = winner
            events.append({"kind": "won", "seat": winner, "end": new["marker"] in ENDS})
        return Applied(new, events)

    @staticmethod
    def _winner(state: JSON) -> int | None:
        for seat, end in enumerate(ENDS):
            if state["marker"] == end:
                return seat
        if state["pulls"] < PULLS:
            return None
        return 0 if state["marker"] < MIDDLE else 1  # the anchor holds the middle

    def view(self, state: JSON, viewer: Viewer) -> JSON:
        """Everything is public: the players, the marker, who is tired, the pulls left and the winner."""
        return {"title": self.title, "players": [player["name"] for player in state["players"]],
                "marker": state["marker"], "to_move": state["turn"], "tired": list(state["tired"]),
                "pulls_left": PULLS - state["pulls"], "winner": state["winner"]}

    def outcome(self, state: JSON) -> Outcome | None:
        winner = state["winner"]
        if winner is None:
            return None
        name = said(state["players"][winner]["name"])
        return Outcome({seat: int(seat == winner) for seat in range(len(state["players"]))}, (winner,),
                       Said.of("tug.summary", name=name))

    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        name = said(state["players"][event["seat"]]["name"])
        if event["kind"] == "pulled":
            message = "tug.event.pulled_two" if event["cells"] == STRONG else "tug.event.pulled_one"
            return say(message, language, name=name, cell=event["marker"] + 1)
        return say("tug.event.won_end" if event["end"] else "tug.event.won_time", language, name=name)

    def turn_text(self, state: JSON, language: str = "en") -> str:
        if state["winner"] is not None:
            return say("tug.summary", language, name=said(state["players"][state["winner"]]["name"]))
        seat = int(state["turn"])
        message = "tug.turn.tired" if state["tired"][seat] else "tug.turn"
        return say(message, language, name=said(state["players"][seat]["name"]), left=PULLS - state["pulls"])

    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        return say("tug.private", language)

    def rules_text(self, mode: str, language: str = "en") -> str:
        return say("tug.rules", language, cells=CELLS, pulls=PULLS)

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        return [QuickAction(say("tug.button.pull", language, cells=action["cells"]), action,
                            style="primary" if action["cells"] == STRONG else "secondary")
                for action in self.legal_actions(state, seat)]


GAME = Tug()
