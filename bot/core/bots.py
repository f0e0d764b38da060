"""Computer players for every game: one interface, three levels, and a determinised search the games share.

A bot never sees the state. It decides from `bot_view(game, state, seat)`: the state with everything its seat may
not know pooled and put in a canonical order (other hands, deck order, face-down tiles), so two states that differ
only in what the seat cannot see give the same view. Whatever is hidden or still to come is sampled from that view
(`GameBot.determinize`) each time a bot needs a full position to look ahead in.

Levels: easy plays a random legal move; normal follows the game's readable heuristic (and says why, for
`/game hint`); hard searches: information-set Monte Carlo tree search over fresh determinisations (one tree for
the seat's information set, actions counted by availability), or a game's own determinised search where a game
supplies one, within a time and iteration budget.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.core.protocol import JSON, Game
from bot.core.rng import Rng
from bot.core.seats import BOT_LEVELS
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Localized, translate

ONLY_MOVE = "it is the only legal move."
UCT_C = 0.7  # exploration in [0, 1] rewards: lower than sqrt(2) because rewards are shaped, not just wins


@dataclass(frozen=True)
class Budget:
    """How long a hard bot may think about one move: whichever limit is reached first."""

    seconds: float = 1.0
    iterations: int = 4000


@dataclass(frozen=True)
class Decision:
    """A bot's move and why, in a sentence a player can read."""

    action: JSON
    reason: str
    """The reason in English (what logs and plain-string readers see)."""
    words: Localized | None = None
    """The reason in every language, when the game gives it so (`/game hint` shows the reader's); else `reason`."""

    @classmethod
    def worded(cls, action: JSON, reason: Callable[[str], str]) -> Decision:
        """A decision whose reason the game words in every language: `reason(language)` (a Text is such a callable)
        gives the sentence in it. The one way every game hands `/game hint` a reason for the reader's language.
        A reason that is itself a string (a game's own worded text) stays the `reason` as it is."""
        words = Localized.from_mapping({language: reason(language) for language in LANGUAGES})
        return cls(action, reason if isinstance(reason, str) else words[DEFAULT_LANGUAGE], words)


class GameBot(ABC):
    """What a game gives its computer players: a canonical view, determinisation, a heuristic, an evaluation."""

    horizon: int = 400
    """Rollout steps before a search stops and evaluates the position instead of playing to the end."""
    score_scale: float = 5.0
    """How many points of lead make a position clearly better (for turning scores into rewards)."""

    @abstractmethod
    def observe(self, game: Game, state: JSON, seat: int) -> JSON:
        """The seat's information set as a state-shaped dict: hidden parts pooled in a canonical order."""

    @abstractmethod
    def determinize(self, game: Game, view: JSON, seat: int, rng: random.Random) -> JSON:
        """A full state consistent with `view`: what the seat cannot see is dealt at random from the pool."""

    @abstractmethod
    def heuristic(self, game: Game, view: JSON, seat: int, rng: random.Random) -> Decision:
        """The normal bot's move and its reason in one sentence."""

    @abstractmethod
    def evaluate(self, game: Game, state: JSON) -> dict[int, float]:
        """Each seat's standing in points (solo: its margin over what beats it), for cut-off playouts."""

    def rollout_action(self, game: Game, state: JSON, seat: int, rng: random.Random) -> JSON:
        """A cheap move for playouts; random unless a game knows better."""
        return rng.choice(game.legal_actions(state, seat))

    def search(self, game: Game, view: JSON, seat: int, rng: random.Random, budget: Budget) -> Decision | None:
        """A game's own determinised search for the hard level, or None to use the shared ISMCTS."""
        return None

    def repeats(self, game: Game, state: JSON, seat: int, action: JSON) -> bool:
        """Whether `action` brings back a position the game has already been in (as far as the seat can tell);
        the search then prefers another move about as good. No game repeats unless it says so."""
        return False


_BOTS: dict[str, GameBot] = {}


def bot_for(game: Game) -> GameBot:
    """The game's bots module (beside its game module, `bot.games.<pkg>.bots`), loaded on first use."""
    found = _BOTS.get(game.key)
    if found is None:
        package = type(game).__module__.rsplit(".", 1)[0]
        found = importlib.import_module(f"{package}.bots").BOT
        _BOTS[game.key] = found
    return found


def bot_view(game: Game, state: JSON, seat: int) -> JSON:
    """What a bot in `seat` decides from: never more than the seat may know."""
    return bot_for(game).observe(game, state, seat)


def choose(game: Game, view: JSON, seat: int, level: str, rng: random.Random, budget: Budget | None = None) -> JSON:
    """The move a bot of `level` makes from `view` (see `bot_view`)."""
    return decide(game, view, seat, level, rng, budget).action


def decide(game: Game, view: JSON, seat: int, level: str, rng: random.Random,
           budget: Budget | None = None) -> Decision:
    """The move a bot of `level` makes from `view`, with its reason."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    bot = bot_for(game)
    sample = bot.determinize(game, view, seat, rng)
    legal = game.legal_actions(sample, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    if len(legal) == 1:
        return Decision(legal[0], ONLY_MOVE)
    if level == "easy":
        return Decision(rng.choice(legal), "an easy bot picks any legal move at random.")
    if level == "normal":
        return bot.heuristic(game, view, seat, rng)
    budget = budget or Budget()
    own = bot.search(game, view, seat, rng, budget)
    return own if own is not None else ismcts(game, bot, view, seat, rng, budget)


def explain(game: Game, view: JSON, seat: int, rng: random.Random, language: str = "en") -> str:
    """The normal bot's suggestion as a sentence, for `/game hint`, in the reader's `language` where the game words
    its reasons in every language."""
    decision = decide(game, view, seat, "normal", rng)
    reason = (decision.words[language] if decision.words is not None else decision.reason).strip()
    if decision.reason.strip() == ONLY_MOVE:  # name the move: the buttons' label for it, as the player sees it
        sample = bot_for(game).determinize(game, view, seat, rng)
        wanted = action_key(decision.action)
        label = next((q.label for q in game.quick_actions(sample, seat, language)
                      if action_key(q.action) == wanted), None)
        reason = (translate("bots.hint.only_move", language, label=label) if label
                  else translate("bots.hint.play_on", language))
    if not reason.endswith((".", "!", "?")):
        reason += "."
    return reason[0].upper() + reason[1:]


REPEAT_SLACK = 0.05
"""How much lower a move's mean reward may be than the best's and still be taken instead of a move that repeats a
position: two searchers each undoing the other's move went round for 20 rounds until the repetition rule ended the
game."""


def _fresh_choice(ranked: list[tuple[int, float, str]], repeats: Callable[[str], bool]
                  ) -> tuple[int, float, str]:
    """The most visited move, unless it repeats a position and another, as good within REPEAT_SLACK and tried at
    least a third as often, does not."""
    top = ranked[0]
    if not repeats(top[2]):
        return top
    for entry in ranked[1:]:
        if entry[0] * 3 >= top[0] and entry[1] >= top[1] - REPEAT_SLACK and not repeats(entry[2]):
            return entry
    return top


# --- ISMCTS -------------------------------------------------------------------------------------------------------


def action_key(action: JSON) -> str:
    """A stable key for an action, equal for equal actions whatever their key order."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


@dataclass
class _Node:
    """A node of the information-set tree: the move that led here, who made it, and their reward so far."""

    actor: int = -1
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[str, _Node] = field(default_factory=dict)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def rewards(game: Game, bot: GameBot, state: JSON) -> dict[int, float]:
    """Each seat's reward in [0, 1]: mostly winning (a shared win shared), a little the score margin; a position
    cut off before the end is judged by the game's evaluation."""
    outcome = game.outcome(state)
    if outcome is not None:
        seats = sorted(outcome.scores)
        result = {}
        for seat in seats:
            share = 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
            others = [outcome.scores[s] for s in seats if s != seat]
            margin = outcome.scores[seat] - (max(others) if others else 0)
            result[seat] = 0.8 * share + 0.2 * _sigmoid(margin / bot.score_scale)
        return result
    values = bot.evaluate(game, state)
    result = {}
    for seat, value in values.items():
        rivals = [v for s, v in values.items() if s != seat]
        lead = value - (max(rivals) if rivals else 0.0)
        result[seat] = _sigmoid(lead / bot.score_scale)
    return result


def ismcts(game: Game, bot: GameBot, view: JSON, seat: int, rng: random.Random, budget: Budget) -> Decision:
    """Single-observer information-set MCTS: each iteration deals a fresh determinisation from `view`, walks one
    shared tree choosing by UCB among the moves legal in that deal (availability counts), plays out with the game's
    rollout policy up to its horizon, and credits every mover with their own reward. The most visited root move
    wins."""
    root = _Node()
    deadline = time.perf_counter() + budget.seconds
    iterations = 0
    while iterations < budget.iterations and (iterations < 8 or time.perf_counter() < deadline):
        iterations += 1
        state = bot.determinize(game, view, seat, rng)
        node = root
        path: list[_Node] = []
        step = 0
        while True:
            actors = game.to_act(state)
            if not actors:
                break
            actor = actors[0]
            legal = game.legal_actions(state, actor)
            keyed = [(action_key(a), a) for a in legal]
            for key, _ in keyed:
                child = node.children.get(key)
                if child is not None:
                    child.available += 1
            untried = [(k, a) for k, a in keyed if k not in node.children]
            if untried:
                key, action = rng.choice(untried)
                child = _Node(actor=actor, available=1)
                node.children[key] = child
            else:
                log_total = {k: math.log(max(node.children[k].available, 1)) for k, _ in keyed}
                key, action = max(keyed, key=lambda entry: (
                    node.children[entry[0]].reward / node.children[entry[0]].visits
                    + UCT_C * math.sqrt(log_total[entry[0]] / node.children[entry[0]].visits)))
                child = node.children[key]
            step += 1
            state = game.apply(state, actor, action, Rng(rng.getrandbits(63), step)).state
            path.append(child)
            node = child
            if untried:
                break
        played = 0
        while played < bot.horizon:
            actors = game.to_act(state)
            if not actors:
                break
            actor = actors[0]
            step += 1
            played += 1
            action = bot.rollout_action(game, state, actor, rng)
            state = game.apply(state, actor, action, Rng(rng.getrandbits(63), step)).state
        result = rewards(game, bot, state)
        for visited in path:
            visited.visits += 1
            visited.reward += result.get(visited.actor, 0.0)
    sample = bot.determinize(game, view, seat, rng)
    legal_now = {action_key(a): a for a in game.legal_actions(sample, seat)}
    ranked = sorted(((child.visits, child.reward / max(child.visits, 1), key)
                     for key, child in root.children.items() if key in legal_now), reverse=True)
    visits, value, key = _fresh_choice(ranked, lambda k: bot.repeats(game, sample, seat, legal_now[k]))
    return Decision(legal_now[key], f"a search of {iterations} sampled playouts rates this move best "
                                f"(won or led in about {round(100 * value)}% of {visits} tries).")
