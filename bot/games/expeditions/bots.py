"""Computer players for Expeditions: what a seat may know, dealing the rest, and a determinised turn search.

Hands, active rows and tokens are open; hidden are the deck order, the numbers under the face-down location tiles
(each region's remaining numbers are known, not where they lie) and the bag's order (its draws are chance anyway).
The hard level searches every order of the turn's actions on several sampled deals and takes the action that ends
the turn best placed on average: a whole Expeditions game is too long for playouts within a move's budget, and the
turn planner's estimate is what a playout would have to approximate.
"""

from __future__ import annotations

import json
import random
import time

from bot.core.bots import Budget, Decision, GameBot, action_key
from bot.core.protocol import JSON, Game
from bot.core.rng import Rng
from bot.games.expeditions import policies
from bot.games.expeditions.engine import pending_options
from bot.games.expeditions.game import ExpeditionsGame
from bot.games.expeditions.views import card_name, location_label

SEARCHED_CHOICES = ("or", "take_card", "worker_colour", "location_benefit", "activate_adjacent", "boast", "upgrade",
                    "meld", "play", "vanquish", "solve", "discard", "trash", "card_destination", "rescue")
SEARCH_DEALS = 6  # sampled deals a hard move averages over at most (the time budget may stop it sooner)


class ExpeditionsBot(GameBot):
    horizon = 60
    score_scale = 8.0

    def observe(self, game: Game, state: JSON, seat: int) -> JSON:
        assert isinstance(game, ExpeditionsGame)
        comp = game.comp
        view = json.loads(json.dumps(state))
        view["log"] = []
        tiles: dict[str, list[int]] = {}
        spaces: dict[str, list[str]] = {}
        for code, space in sorted(view["spaces"].items()):
            if not space["revealed"]:
                region = comp.locations[space["tile"]].region
                tiles.setdefault(region, []).append(space["tile"])
                spaces.setdefault(region, []).append(code)
                space["tile"] = None
        view["hidden"] = {"deck": sorted(view["deck"]), "tiles": {r: sorted(t) for r, t in tiles.items()},
                          "spaces": spaces}
        view["deck"] = []
        view["bag"] = sorted(view["bag"], key=lambda token: token["id"])
        return view

    def determinize(self, game: Game, view: JSON, seat: int, rng: random.Random) -> JSON:
        state = json.loads(json.dumps(view))
        hidden = state.pop("hidden")
        state["deck"] = list(hidden["deck"])
        rng.shuffle(state["deck"])
        for region, codes in hidden["spaces"].items():
            tiles = list(hidden["tiles"][region])
            rng.shuffle(tiles)
            for code, tile in zip(codes, tiles, strict=True):
                state["spaces"][code]["tile"] = tile
        return state

    def heuristic(self, game: Game, view: JSON, seat: int, rng: random.Random) -> Decision:
        assert isinstance(game, ExpeditionsGame)
        state = self.determinize(game, view, seat, rng)
        action = policies.greedy_action(game, state, seat, rng)
        comp = game.comp
        before = policies.estimate(comp, state, seat)
        after = policies.estimate(comp, game.apply(state, seat, action, Rng(0, 0)).state, seat)
        return Decision(action, f"{describe_action(game, state, action)}: of the moves open now it raises your "
                                f"standing most (money, stars and the means to reach them, {before:.1f} to "
                                f"{after:.1f}).")

    def evaluate(self, game: Game, state: JSON) -> dict[int, float]:
        assert isinstance(game, ExpeditionsGame)
        return {seat: policies.planner_estimate(game.comp, state, seat) for seat in range(len(state["players"]))}

    def search(self, game: Game, view: JSON, seat: int, rng: random.Random, budget: Budget) -> Decision | None:
        """Every candidate action, followed by the planner's best continuation to the end of the turn, on up to
        SEARCH_DEALS sampled deals; the best average wins."""
        assert isinstance(game, ExpeditionsGame)
        deadline = time.perf_counter() + budget.seconds
        totals: dict[str, float] = {}
        actions: dict[str, JSON] = {}
        deals = 0
        while deals < min(SEARCH_DEALS, budget.iterations) and (deals == 0 or time.perf_counter() < deadline):
            deals += 1
            state = self.determinize(game, view, seat, rng)
            turn = state["turns_taken"]
            for action in _candidates(game, state, seat):
                key = action_key(action)
                after = game.apply(state, seat, action, Rng(rng.getrandbits(63), deals)).state
                value, _ = policies._search(game, after, seat, turn, depth=1)
                totals[key] = totals.get(key, 0.0) + value
                actions[key] = action
        key = max(totals, key=lambda k: (totals[k], k))
        state = self.determinize(game, view, seat, rng)
        return Decision(actions[key], f"{describe_action(game, state, actions[key])}: over {deals} sampled deals, "
                                      f"the best plan for the rest of the turn starts with it.")


def _candidates(game: ExpeditionsGame, state: JSON, seat: int) -> list[JSON]:
    """The actions worth comparing: every choice of a pending decision, else the planner's short list."""
    pending = state["turn"]["pending"]
    if pending and pending["kind"] in SEARCHED_CHOICES:
        return [a for a in game.legal_actions(state, seat) if a["type"] == "choose"]
    if pending:  # toggles and confirmations: the planner's rule of thumb (toggling alone would only loop)
        return [policies.quick_choice(game, state, seat)]
    return policies._top_level(game, state, seat)


def describe_action(game: ExpeditionsGame, state: JSON, action: JSON) -> str:
    """An action as an instruction ("Move to location 7", "Play Lantern")."""
    kind = action["type"]
    comp = game.comp
    if kind == "cover":
        return f"Cover {action['action']} and take the other two actions"
    if kind == "refresh":
        return "Refresh (cards and workers back, all three actions next turn)"
    if kind == "move":
        space = state["spaces"].get(action["space"])
        if space is None:
            return "Stay where you are"
        if not space["revealed"]:
            return f"Move to the face-down location at {action['space']}"
        return f"Move to {location_label(comp, space['tile'])}"
    if kind == "play":
        return f"Play {card_name(comp, action['card'])}"
    if kind == "gather":
        return "Gather the benefits of your location"
    if kind == "odin":
        return f"Trash a map token for 1 {action['gain']}"
    pending = state["turn"]["pending"]
    labels = {o["id"]: o["label"] for o in pending_options(comp, state, pending)} if pending else {}
    return f"Choose {labels.get(action.get('option'), action.get('option'))}"


BOT = ExpeditionsBot()
