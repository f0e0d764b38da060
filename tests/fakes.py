"""A tiny game (take-away Nim with a die) used to test the platform apart from the real games' rules."""

from __future__ import annotations

import copy
import io
from collections.abc import Sequence
from types import MappingProxyType

from PIL import Image

from bot.core import (
    JSON,
    Applied,
    ChoiceMenu,
    Game,
    IllegalAction,
    MalformedAction,
    Mode,
    Outcome,
    QuickAction,
    Rng,
    Viewer,
)
from bot.i18n import Localized, said


class Nim(Game):
    """Players take 1-3 stones in turn; whoever takes the last stone wins. Setup rolls a die for the pile size,
    and each player holds a secret number so the tests can check that hidden information stays hidden."""

    key = "test-nim"
    title = "Test Nim"
    aliases = ("nim",)
    modes = (Mode("standard", "Standard", 2, 3, Localized("Take 1-3 stones; the last stone wins.",
                                                          "Nimm 1-3 Steine; der letzte Stein gewinnt.")),
             Mode("solo", "Solo", 1, 1, Localized("Take stones alone until the pile is empty.",
                                                  "Nimm allein Steine, bis der Haufen leer ist.")))
    progress_names = MappingProxyType({"wins": Localized("wins kept", "gemerkte Siege")})  # for /stats (default)

    def setup(self, mode: str, players: Sequence[str], rng: Rng, options: JSON) -> JSON:
        pile = 6 + rng.randint(1, 6)
        return {"players": [{"name": name, "secret": rng.randint(1000, 9999)} for name in players],
                "pile": pile, "turn": 0, "winner": None, "last": "", "profiles": options.get("profiles", [])}

    def to_act(self, state: JSON) -> tuple[int, ...]:
        return () if state["winner"] is not None else (state["turn"],)

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        return [{"type": "take", "count": n} for n in range(1, min(3, state["pile"]) + 1)]

    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        if action.get("type") != "take" or not isinstance(action.get("count"), int):
            raise MalformedAction("Take stones with {'type': 'take', 'count': 1-3}.")
        count = action["count"]
        if not 1 <= count <= min(3, state["pile"]):
            raise IllegalAction(f"You can take 1 to {min(3, state['pile'])} stones.")
        new = copy.deepcopy(state)
        new["pile"] -= count
        events: list[JSON] = [{"kind": "took", "seat": seat, "count": count}]
        if new["pile"] == 0:
            new["winner"] = seat
            events.append({"kind": "won", "seat": seat})
        else:
            new["turn"] = (seat + 1) % len(new["players"])
        return Applied(new, events)

    def view(self, state: JSON, viewer: Viewer) -> JSON:
        view = {"players": [p["name"] for p in state["players"]], "pile": state["pile"], "turn": state["turn"]}
        if viewer is not None:
            view["secret"] = state["players"][viewer]["secret"]
        return view

    def outcome(self, state: JSON) -> Outcome | None:
        if state["winner"] is None:
            return None
        winner = state["winner"]
        scores = {seat: int(seat == winner) for seat in range(len(state["players"]))}
        wins = {seat: {"wins": int((state["profiles"][seat] or {}).get("wins", 0)) + int(seat == winner)}
                for seat in range(len(state["players"])) if seat < len(state["profiles"])}
        return Outcome(scores, (winner,), f"{said(state['players'][winner]['name'])} wins!", wins)

    # German (issue 21) so the tests can play a whole table in German; English stays as the tests know it.
    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        name = said(state["players"][event["seat"]]["name"])  # a person's text in a sentence: marked
        if event["kind"] == "took":
            return f"{name} nimmt {event['count']}." if language == "de" else f"{name} took {event['count']}."
        return f"{name} nimmt den letzten Stein." if language == "de" else f"{name} took the last stone."

    def turn_text(self, state: JSON, language: str = "en") -> str:
        name, pile = said(state["players"][state["turn"]]["name"]), state["pile"]
        if language == "de":
            return f"{name} nimmt 1–3 Steine ({pile} übrig)."
        return f"{name} to take 1-3 stones ({pile} left)."

    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        secret = state["players"][seat]["secret"]
        return f"Deine geheime Zahl ist {secret}." if language == "de" else f"Your secret number is {secret}."

    def rules_text(self, mode: str, language: str = "en") -> str:
        return "Take 1-3 stones; whoever takes the last stone wins."

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        word = "Nimm" if language == "de" else "Take"
        return [QuickAction(f"{word} {a['count']}", a) for a in self.legal_actions(state, seat)]

    def choice_menu(self, state: JSON, seat: int, language: str = "en") -> ChoiceMenu | None:
        """The same choice as a select menu, so the platform's menus are tested too."""
        if language == "de":
            options = tuple(QuickAction(f"{a['count']} Stein(e)", a) for a in self.legal_actions(state, seat))
            return ChoiceMenu("Wie viele Steine?", options)
        options = tuple(QuickAction(f"{a['count']} stone(s)", a) for a in self.legal_actions(state, seat))
        return ChoiceMenu("How many stones?", options)


def tiny_png(game_key: str, view: JSON) -> bytes:
    """A real (small) PNG standing in for a game's renderer."""
    buffer = io.BytesIO()
    Image.new("RGB", (64, 32), "#1E2230").save(buffer, format="PNG")
    return buffer.getvalue()
