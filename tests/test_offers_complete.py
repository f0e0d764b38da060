"""Every control under a board is honest and every move has one (issue 33, "fewer presses"): over positions of
games the normal computer players play, every offered button and menu option that leaves the player where they
were (no resource, track, score or position changed) says "gains nothing" / "bringt nichts", every one that says
so truly gains nothing, and one that gains nothing is never the first control while another gains something; and
every legal action of the position is reachable through the controls (the first step of an offer), so a player on
a phone never has to type a move."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.core import JSON, Game, QuickAction, Rng, find_game, is_steps
from bot.core.bots import action_key, bot_view, decide
from bot.games.offered import Offered, offers_of
from bot.i18n import translate

Standing = Callable[[JSON, int], Any]
WAYS_OUT = ("skip", "stop", "done", "confirm")  # Expeditions' ways out of a choice: they say what they forgo


def _expeditions(state: JSON, seat: int) -> Any:
    player = state["players"][seat]
    return {**{k: v for k, v in player.items() if k not in ("hand", "token", "active", "name")},
            "cards": len(player["hand"]) + len(player["active"]), "face_up": len(state["face_up"])}


def _monster(state: JSON, seat: int) -> Any:
    return {"player": state["players"][seat], "turn": state["turn"], "phase": state["phase"],
            "active": state["active"]}


def _the_expedition(state: JSON, seat: int) -> Any:
    return {"player": state["players"][seat], "grid": state["grid"], "markers": state["markers"],
            "current": state["current"], "phase": state["phase"]}


STANDINGS: dict[str, Standing] = {"expeditions": _expeditions, "monster-expedition": _monster,
                                  "the-expedition": _the_expedition}
TABLES = [("expeditions", "standard", 2, 2), ("expeditions", "standard", 4, 1),
          ("monster-expedition", "standard", 3, 2), ("monster-expedition", "solo", 1, 2),
          ("the-expedition", "standard", 2, 2), ("the-expedition", "solo", 1, 2)]
MOST_POSITIONS = 140  # per game played


def positions(key: str, mode: str, players: int, seed: int) -> Iterator[tuple[JSON, int]]:
    """The positions of one game the normal computer players play, with the seat to move."""
    game = find_game(key)
    names = [f"Player {index + 1}" for index in range(players)]
    state = game.setup(mode, names, Rng(seed, 0), {"profiles": [{}] * players})
    chooser = random.Random(seed)
    for step in range(MOST_POSITIONS):
        if game.outcome(state) is not None:
            return
        seat = game.to_act(state)[0]
        yield state, seat
        choice = decide(game, bot_view(game, state, seat), seat, "normal", chooser).action
        state = game.apply(state, seat, choice, Rng(seed, step + 1)).state


def _steps(action: JSON) -> list[JSON]:
    return list(action["steps"]) if is_steps(action) else [action]


def _nil(game: Game, state: JSON, seat: int, offer: QuickAction) -> bool | None:
    """Whether the offer leaves the seat where it was (None: the question does not apply: it is a step towards a
    choice still to make, the cover that starts an Expeditions turn, or a way out that says what it forgoes)."""
    steps = _steps(offer.action)
    if steps[-1].get("type") in ("cover", "refresh") or any(
            step.get("type") == "choose" and step.get("option") in WAYS_OUT for step in steps):
        return None
    after = game.apply(copy.deepcopy(state), seat, offer.action, Rng(0, 0)).state
    if game.key == "expeditions" and not after["over"] and after["turn"]["pending"] and after["turn"]["seat"] == seat:
        return None
    standing = STANDINGS[game.key]
    return bool(standing(state, seat) == standing(after, seat))


def _grew(before: Any, after: Any) -> bool:
    """Whether anything in `after` is more than in `before`: a number higher, a list or mapping longer, an entry
    higher, a text (a place) changed."""
    if isinstance(before, bool) or isinstance(after, bool):
        return before != after and bool(after)
    if isinstance(before, int | float) and isinstance(after, int | float):
        return after > before
    if isinstance(before, dict) and isinstance(after, dict):
        return len(after) > len(before) or any(_grew(before.get(k), v) for k, v in after.items() if k in before)
    if isinstance(before, list) and isinstance(after, list):
        return len(after) > len(before)
    return before != after


def _gains(game: Game, state: JSON, seat: int, offer: QuickAction) -> bool:
    after = game.apply(copy.deepcopy(state), seat, offer.action, Rng(0, 0)).state
    standing = STANDINGS[game.key]
    return _grew(standing(state, seat), standing(after, seat))


def _marked(offer: QuickAction, language: str) -> bool:
    word = translate("expeditions.offer.nothing", language)
    return word in offer.label or word in (offer.description or "")


def _first(offered: Offered) -> QuickAction | None:
    return offered.buttons[0] if offered.buttons else (offered.options[0] if offered.options else None)


@pytest.mark.parametrize(("key", "mode", "players", "seeds"), TABLES)
def test_a_control_that_gains_nothing_says_so_and_is_never_first(key: str, mode: str, players: int,
                                                                  seeds: int) -> None:
    game = find_game(key)
    checked = nil_seen = 0
    for seed in range(seeds):
        for state, seat in positions(key, mode, players, seed + 1):
            for language in ("en", "de"):
                offered = offers_of(game, state, seat, language)
                verdicts = {}
                for offer in offered.options:
                    nil = _nil(game, state, seat, offer)
                    verdicts[id(offer)] = nil
                    checked += 1
                    nil_seen += bool(nil)
                    where = f"{key} seed {seed + 1} ({language}): {offer.label!r} / {offer.description!r}"
                    if nil:
                        assert _marked(offer, language), f"gains nothing, unmarked: {where}"
                    elif _marked(offer, language):
                        assert not _gains(game, state, seat, offer), f"marked, but gains something: {where}"
                first = _first(offered)
                gaining = [o for o in offered.options if verdicts[id(o)] is False]
                if first is not None and gaining:
                    assert not _marked(first, language), f"{key}: the first control gains nothing: {first.label}"
    assert checked
    if key == "expeditions":
        assert nil_seen  # the positions do hold choices that gain nothing (Gather at the basecamp at least)


def _position(game: Game, state: JSON, seat: int, action: JSON) -> str | None:
    """The position after `action` (its words and the log left out), None when the rules refuse it."""
    try:
        after = game.apply(copy.deepcopy(state), seat, action, Rng(0, 0)).state
    except ValueError:
        return None
    return action_key({k: v for k, v in after.items() if k not in ("log", "last_move", "recent", "last_events")})


def _reachable(game: Game, state: JSON, seat: int, action: JSON, reached: set[str | None]) -> bool:
    """An action is reachable when the controls lead where it leads, or everywhere it goes on to in the seat's
    next step (Monster Expedition's "bank 3, roll" is a bank and a roll in one press)."""
    if _position(game, state, seat, action) in reached:
        return True
    after = game.apply(copy.deepcopy(state), seat, action, Rng(0, 0)).state
    if game.outcome(after) is not None or game.to_act(after) != (seat,):
        return False
    return all(_position(game, after, seat, then) in reached for then in game.legal_actions(after, seat))


def _reached(game: Game, state: JSON, seat: int, controls: tuple[QuickAction, ...], deeper: bool
             ) -> set[str | None]:
    """The positions the controls lead to in one press, or (`deeper`) in one or two presses of the same seat."""
    reached = {_position(game, state, seat, offer.action) for offer in controls}
    if not deeper:
        return reached
    for offer in controls:
        after = game.apply(copy.deepcopy(state), seat, offer.action, Rng(0, 0)).state
        if game.outcome(after) is None and game.to_act(after) == (seat,):
            again = offers_of(game, after, seat)
            reached |= {_position(game, after, seat, more.action) for more in again.options}
    return reached


@pytest.mark.parametrize(("key", "mode", "players", "seeds"), TABLES)
def test_every_legal_action_is_reachable_through_the_controls(key: str, mode: str, players: int,
                                                              seeds: int) -> None:
    game = find_game(key)
    for seed in range(seeds):
        for state, seat in positions(key, mode, players, seed + 1):
            offered = offers_of(game, state, seat)
            controls = offered.options
            firsts = {action_key(_steps(offer.action)[0]) for offer in controls}
            legal = [action for action in game.legal_actions(state, seat) if action_key(action) not in firsts]
            reached = _reached(game, state, seat, controls, False) if legal else set()
            missing = [action for action in legal if not _reachable(game, state, seat, action, reached)]
            if missing:  # (a cage then another is two cages: two presses)
                reached = _reached(game, state, seat, controls, True)
                missing = [action for action in missing if not _reachable(game, state, seat, action, reached)]
            assert not missing, (f"{key} seed {seed + 1}: no control reaches {missing[:3]} "
                                 f"({len(offered.buttons)} buttons, {len(offered.options)} menu options)")


def _line(game: Game, state: JSON, seat: int, seed: int) -> set[str | None]:
    """The positions along the normal computer player's own next steps from `state` (each its choice in the
    position before it), while the seat goes on moving: benchmarks/bench_presses.py's line of play."""
    line: set[str | None] = set()
    chooser = random.Random(seed)
    for _ in range(8):
        choice = decide(game, bot_view(game, state, seat), seat, "normal", chooser).action
        line.add(_position(game, state, seat, choice))
        state = game.apply(copy.deepcopy(state), seat, choice, Rng(0, 0)).state
        if game.outcome(state) is not None or game.to_act(state) != (seat,):
            break
    return line


@pytest.mark.parametrize(("key", "mode", "players", "seeds"), [table for table in TABLES if table[0] == "expeditions"])
def test_every_move_the_computer_players_make_is_a_press_away(key: str, mode: str, players: int,
                                                              seeds: int) -> None:
    """In the positions of games the normal computer players play, some control leads onto the line the computer
    player would play from there: no move has to be typed (bench_presses counted 27 typed moves in a game of
    four: Odin's Wrath called in the middle of a card's play, a position the whole-play offers stepped over)."""
    game = find_game(key)
    for seed in range(seeds):
        for index, (state, seat) in enumerate(positions(key, mode, players, seed + 1)):
            offered = offers_of(game, state, seat)
            reached = {_position(game, state, seat, offer.action) for offer in offered.options}
            line = _line(game, state, seat, index)
            assert reached & line, f"{key} seed {seed + 1}: no control leads onto the bot's line at step {index}"
