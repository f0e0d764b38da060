"""Computer players: legal moves only, bot-only games finish, decisions blind to hidden information, hints."""

from __future__ import annotations

import copy
import random

import pytest

import bot.games  # noqa: F401  (registers the games)
from bot.core.bots import Budget, bot_for, bot_view, choose, decide, explain
from bot.core.protocol import JSON, Game
from bot.core.registry import find_game
from bot.core.rng import Rng
from bot.core.seats import BOT_LEVELS

CHEAP = Budget(seconds=5.0, iterations=12)  # iterations bind first: seeded results do not depend on the clock

# Every game and mode with the seat levels a cheap test game uses (Expeditions' random games are long: normal
# and hard play it, the hard one only for a few moves below).
GAMES = [
    ("the-expedition", "standard", ("hard", "easy")),
    ("the-expedition", "abstract", ("normal", "hard", "easy")),
    ("the-expedition", "solo", ("hard",)),
    ("the-expedition", "solo-hard", ("normal",)),
    ("monster-expedition", "standard", ("hard", "normal")),
    ("monster-expedition", "solo", ("hard",)),
    ("expeditions", "standard", ("normal", "normal")),
]


def _play(game: Game, mode: str, levels: tuple[str, ...], seed: int, cap: int = 3000) -> tuple[JSON, int]:
    state = game.setup(mode, [f"Bot {i + 1}" for i in range(len(levels))], Rng(seed, 0), {})
    steps = 0
    while game.to_act(state) and steps < cap:
        seat = game.to_act(state)[0]
        steps += 1
        action = choose(game, bot_view(game, state, seat), seat, levels[seat], random.Random(seed + steps), CHEAP)
        assert action in game.legal_actions(state, seat), (steps, action)
        state = game.apply(state, seat, action, Rng(seed, steps)).state
    return state, steps


@pytest.mark.parametrize(("key", "mode", "levels"), GAMES)
def test_bot_only_games_finish_with_legal_moves(key: str, mode: str, levels: tuple[str, ...]) -> None:
    game = find_game(key)
    state, steps = _play(game, mode, levels, seed=7)
    assert game.to_act(state) == ()
    outcome = game.outcome(state)
    assert outcome is not None and sorted(outcome.scores) == list(range(len(levels)))
    assert steps > len(levels)


def _midgame(game: Game, mode: str, players: int, seed: int, steps: int) -> JSON:
    state = game.setup(mode, [f"P{i}" for i in range(players)], Rng(seed, 0), {})
    rnd = random.Random(seed)
    for step in range(1, steps + 1):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)), Rng(seed, step)).state
    return state


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_every_level_moves_legally_in_an_expeditions_midgame(level: str) -> None:
    game = find_game("expeditions")
    for seed, depth in ((3, 40), (5, 90), (8, 150)):
        state = _midgame(game, "standard", 2, seed, depth)
        seat = game.to_act(state)[0]
        action = choose(game, bot_view(game, state, seat), seat, level, random.Random(seed),
                        Budget(seconds=5.0, iterations=1))
        assert action in game.legal_actions(state, seat)


def _decisions(game: Game, state: JSON, seat: int) -> list[JSON]:
    return [choose(game, bot_view(game, state, seat), seat, level, random.Random(11), CHEAP) for level in BOT_LEVELS]


def test_the_expedition_bot_is_blind_to_other_hands_and_the_undealt_cards() -> None:
    game = find_game("the-expedition")
    state = _midgame(game, "standard", 2, seed=2, steps=5)
    seat = game.to_act(state)[0]
    changed = copy.deepcopy(state)
    mate = changed["players"][1 - seat]
    mate["hand"][0], changed["undealt"][0] = changed["undealt"][0], mate["hand"][0]
    assert changed != state
    assert bot_view(game, changed, seat) == bot_view(game, state, seat)
    assert _decisions(game, changed, seat) == _decisions(game, state, seat)
    mine = changed["players"][seat]
    mine["hand"][0], changed["undealt"][1] = changed["undealt"][1], mine["hand"][0]
    assert bot_view(game, changed, seat) != bot_view(game, state, seat)  # its own cards it does see


def test_the_expedition_bot_cannot_read_other_hands_from_the_record_of_positions() -> None:
    """The repetition rule's record of whole positions is keyed by digests of every hand (one of 20 hands for the
    other player in a two-player game: a bot could have tried them all); the same moves from deals differing only
    in the other player's hand give the bot the same view."""
    game = find_game("the-expedition")
    dealt = game.setup("standard", ["P0", "P1"], Rng(2, 0), {})
    other = copy.deepcopy(dealt)
    other["players"][1]["hand"][0], other["undealt"][0] = other["undealt"][0], other["players"][1]["hand"][0]
    rnd = random.Random(2)
    for step in range(1, 7):
        seat = game.to_act(dealt)[0]
        action = rnd.choice(game.legal_actions(dealt, seat))
        dealt = game.apply(dealt, seat, action, Rng(2, step)).state
        other = game.apply(other, seat, action, Rng(2, step)).state
    seat = game.to_act(dealt)[0]
    assert seat == 0 and dealt["positions"] != other["positions"]
    assert bot_view(game, dealt, 0) == bot_view(game, other, 0)


def test_the_expedition_bot_cannot_tell_which_opponent_holds_a_card() -> None:
    game = find_game("the-expedition")
    state = _midgame(game, "standard", 3, seed=2, steps=4)
    seat = game.to_act(state)[0]
    changed = copy.deepcopy(state)
    first, second = (p for p in changed["players"] if p["seat"] != seat)
    first["hand"][0], second["hand"][1] = second["hand"][1], first["hand"][0]
    assert changed != state
    assert bot_view(game, changed, seat) == bot_view(game, state, seat)
    assert _decisions(game, changed, seat) == _decisions(game, state, seat)


def test_the_expedition_abstract_bot_is_blind_to_the_draw_pile_order() -> None:
    game = find_game("the-expedition")
    state = _midgame(game, "abstract", 2, seed=4, steps=3)
    seat = game.to_act(state)[0]
    changed = copy.deepcopy(state)
    changed["draw_pile"].reverse()
    assert bot_view(game, changed, seat) == bot_view(game, state, seat)


def test_monster_expedition_bot_is_blind_to_other_cages_and_deck_order() -> None:
    game = find_game("monster-expedition")
    seed = 1
    state = game.setup("standard", ["A", "B"], Rng(seed, 0), {})
    rnd = random.Random(seed)
    step = 0
    while not state["players"][1]["cages"] or state["active"] != 0:
        step += 1
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)), Rng(seed, step)).state
    changed = copy.deepcopy(state)
    cages = changed["players"][1]["cages"]
    cages[0], changed["deck"][-1] = changed["deck"][-1], cages[0]
    changed["reserve"].reverse()
    assert changed != state
    assert bot_view(game, changed, 0) == bot_view(game, state, 0)
    assert _decisions(game, changed, 0) == _decisions(game, state, 0)
    assert bot_view(game, changed, 1) != bot_view(game, state, 1)  # the owner knows its cages


def test_expeditions_bot_is_blind_to_the_deck_order_and_face_down_tiles() -> None:
    game = find_game("expeditions")
    state = _midgame(game, "standard", 2, seed=6, steps=30)
    seat = game.to_act(state)[0]
    changed = copy.deepcopy(state)
    changed["deck"].reverse()
    comp = game.comp  # type: ignore[attr-defined]
    north = [c for c, s in changed["spaces"].items() if not s["revealed"] and comp.locations[s["tile"]].region == "N"]
    first, second = changed["spaces"][north[0]], changed["spaces"][north[1]]
    first["tile"], second["tile"] = second["tile"], first["tile"]
    changed["bag"].reverse()
    assert changed != state
    assert bot_view(game, changed, seat) == bot_view(game, state, seat)
    assert _decisions(game, changed, seat) == _decisions(game, state, seat)


@pytest.mark.parametrize(("key", "mode", "players", "steps"), [
    ("the-expedition", "standard", 2, 4), ("the-expedition", "abstract", 3, 2),
    ("monster-expedition", "standard", 3, 9), ("expeditions", "standard", 3, 20)])
def test_a_determinisation_keeps_what_the_seat_knows_and_redeals_the_rest(key: str, mode: str, players: int,
                                                                          steps: int) -> None:
    game = find_game(key)
    state = _midgame(game, mode, players, seed=3, steps=steps)
    seat = game.to_act(state)[0]
    view = bot_view(game, state, seat)
    sample = bot_for(game).determinize(game, view, seat, random.Random(5))
    assert bot_view(game, sample, seat) == view
    assert game.legal_actions(sample, seat) == game.legal_actions(state, seat)
    recent = ("last_move", "log", "last_moves", "english_last_move")  # the bot's view drops the last events

    def settled(value: object) -> object:  # at any depth: a view's words in other languages tell them too
        if isinstance(value, dict):
            return {k: settled(v) for k, v in value.items() if k not in recent}
        return [settled(v) for v in value] if isinstance(value, list) else value

    assert settled(game.view(sample, seat)) == settled(game.view(state, seat))


@pytest.mark.parametrize(("key", "mode", "players", "steps"), [
    ("the-expedition", "standard", 2, 0), ("the-expedition", "standard", 2, 3), ("the-expedition", "abstract", 2, 4),
    ("monster-expedition", "standard", 2, 0), ("monster-expedition", "standard", 2, 2),
    ("monster-expedition", "standard", 2, 3), ("expeditions", "standard", 2, 0), ("expeditions", "standard", 2, 7)])
def test_the_hint_is_one_sentence_about_a_legal_move(key: str, mode: str, players: int, steps: int) -> None:
    game = find_game(key)
    state = _midgame(game, mode, players, seed=12, steps=steps)
    seat = game.to_act(state)[0]
    view = bot_view(game, state, seat)
    text = explain(game, view, seat, random.Random(1))
    assert text[0].isupper() and text.endswith(".") and "\n" not in text
    assert text.count(". ") == 0 and len(text.split()) >= 6
    decision = decide(game, view, seat, "normal", random.Random(1))
    assert decision.action in game.legal_actions(state, seat)


def test_an_unknown_level_is_refused() -> None:
    game = find_game("the-expedition")
    state = game.setup("standard", ["A", "B"], Rng(1, 0), {})
    with pytest.raises(ValueError, match="unknown bot level"):
        choose(game, bot_view(game, state, 0), 0, "brilliant", random.Random(1))


def test_a_hint_for_the_only_legal_move_names_it() -> None:
    # (The Expedition: Monster Expedition's lone bank comes as "bank and roll" or "bank and stop", issue 33.)
    game = find_game("the-expedition")
    for seed in range(3, 40):
        state = game.setup("standard", ["A", "B"], Rng(seed, 0), {})
        rnd = random.Random(seed)
        step = 0
        while game.to_act(state) and len(game.legal_actions(state, game.to_act(state)[0])) != 1:
            step += 1
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)), Rng(seed, step)).state
        if game.to_act(state):
            break
    seat = game.to_act(state)[0]
    (only,) = game.legal_actions(state, seat)
    label = next(q.label for q in game.quick_actions(state, seat) if q.action == only)
    assert explain(game, bot_view(game, state, seat), seat, random.Random(1)) == \
        f"{label}: it is your only legal move."


def test_expeditions_power_and_guile_without_a_card_that_vanquishes_are_only_half_way_to_the_20_token() -> None:
    from bot.games.expeditions.rules import policies

    game = find_game("expeditions")
    state = game.setup("standard", ["A", "B"], Rng(4, 0), {})
    player = state["players"][0]
    player["power"] = player["guile"] = 10
    assert policies.can_vanquish(game.comp, player)  # the starting companion vanquishes
    armed = policies.goal_progress(game.comp, state, 0, "token20")
    player["hand"] = [c for c in player["hand"] if not policies.can_vanquish(game.comp, {"hand": [c], "active": []})]
    player["active"] = []
    assert not policies.can_vanquish(game.comp, player)
    assert policies.goal_progress(game.comp, state, 0, "token20") == pytest.approx(armed * policies.NO_VANQUISH)


def test_the_bank_hint_agrees_in_number_with_the_dice() -> None:
    from bot.games.monster_expedition.rules.bots import _reason

    one = {"tray": {"rolled": [{"value": 8}, {"value": 3}]}}
    two = {"tray": {"rolled": [{"value": 8}, {"value": 8}, {"value": 3}]}}
    bank = {"type": "bank", "value": 8}
    assert _reason(one, bank) == "Bank the 8: 1 die showing it adds 8 to the hunt, the most of any number rolled."
    assert _reason(two, bank) == "Bank the 8s: 2 dice showing 8 add 16 to the hunt, the most of any number rolled."


@pytest.mark.parametrize(("steps", "hint"), [
    (0, "Move to the face-down location at a4: of the moves open now it does the most for your money and stars, "
        "bringing 1 map token."),
    (7, "Trash a map token for $1: of the moves open now it does the most for your money and stars, bringing $1 of "
        "final score."),
])
def test_the_expeditions_hint_says_what_the_move_brings_not_the_rule_of_thumbs_figures(steps: int, hint: str) -> None:
    """The hint read "…raises your standing most (money, stars and the means to reach them, 9.2 to 11.6)": figures
    nobody could read. It says what the move brings in the game's own terms."""
    game = find_game("expeditions")
    state = _midgame(game, "standard", 2, seed=12, steps=steps)
    seat = game.to_act(state)[0]
    assert explain(game, bot_view(game, state, seat), seat, random.Random(1)) == hint


class _SlowClock:
    """A clock on which every evaluation the search makes takes `step` seconds."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize(("step", "deals", "evaluations"), [(1 / 128, 6, 36), (1 / 16, 2, 17), (0.75, 1, 3)])
def test_an_expeditions_hard_move_stops_near_its_budget_on_whole_deals(step: float, deals: int, evaluations: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load one deal of the hard search once took 4.7 s of a 1 s budget: a later deal the clock overtakes
    is dropped (deals are compared whole), and the first stops at twice the budget with the candidates it
    compared."""
    from bot.games.expeditions.rules import bots as expeditions_bots
    from bot.games.expeditions.rules import policies

    game = find_game("expeditions")
    state = _midgame(game, "standard", 2, 5, 40)  # a card to take: 6 candidates
    seat = game.to_act(state)[0]
    clock = _SlowClock(step)
    monkeypatch.setattr(expeditions_bots, "time", clock)
    search = policies.search_turn
    evaluated: list[float] = []

    def slow(*args: object, **kwargs: object) -> tuple[float, JSON | None]:
        clock.now += step
        evaluated.append(clock.now)
        return search(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(policies, "search_turn", slow)
    decision = decide(game, bot_view(game, state, seat), seat, "hard", random.Random(5), Budget(seconds=1.0))
    assert decision.action in game.legal_actions(state, seat)
    assert f"over {deals} sampled deal" in decision.reason
    assert len(evaluated) == evaluations
    assert clock.now <= 2.0 + step  # never more than one evaluation past twice the budget


def test_the_roll_hint_agrees_in_number_and_never_says_about_0_percent() -> None:
    """The hint read "with 1 dice left and 1 numbers banked" and "the chance of a misthrow is only about 0%"."""
    from bot.games.monster_expedition.rules.bots import _reason

    def tray(left: int, banked: list[int]) -> JSON:
        return {"tray": {"rolled": [{"colour": "black", "value": 2}] * left, "banked_numbers": banked,
                         "banked_total": sum(banked)}}

    roll, stop = {"type": "roll"}, {"type": "stop"}
    assert _reason(tray(1, [4]), roll) == \
        "Roll again: with 1 die left and 1 number banked, the chance of a misthrow is only about 17%."
    assert _reason(tray(3, [4]), roll) == \
        "Roll again: with 3 dice left and 1 number banked, the chance of a misthrow is under 1%."
    assert _reason(tray(1, [4, 5]), stop) == \
        "Stop hunting: with 1 die left and 2 numbers banked, the chance of a misthrow is about 33%, too high to " \
        "risk the 9 banked."


def test_the_misthrow_chance_counts_each_die_by_its_own_faces() -> None:
    """The hint and the greedy hunter took every die for 1-6: the yellow die (1 4 6 7 8 10) with 2, 3 and 5 banked
    cannot misthrow, though "(3/6)^1" said 50%; the blue die (2 2 5 7 9 10) with 2 banked misthrows 1 time in 3."""
    from bot.games.monster_expedition.rules.bots import _reason
    from bot.games.monster_expedition.rules.strategies import misthrow_chance

    yellow, blue = {"colour": "yellow", "value": 1}, {"colour": "blue", "value": 9}
    black = {"colour": "black", "value": 1}
    assert misthrow_chance([yellow], [2, 3, 5]) == 0.0
    assert misthrow_chance([blue], [2]) == pytest.approx(1 / 3)
    assert misthrow_chance([blue, black], [2, 5]) == pytest.approx(3 / 6 * 2 / 6)
    view = {"tray": {"rolled": [yellow], "banked_numbers": [2, 3, 5], "banked_total": 10}}
    assert _reason(view, {"type": "roll"}) == ("Roll again: with 1 die left and 3 numbers banked, a misthrow cannot "
                                               "happen (no die left has a face banked already).")
