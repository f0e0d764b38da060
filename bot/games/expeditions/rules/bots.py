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
from dataclasses import dataclass

from bot.core.bots import Budget, Decision, GameBot, action_key
from bot.core.protocol import JSON, Game
from bot.core.rng import Rng
from bot.games.expeditions.rules import policies
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.data import Components
from bot.games.expeditions.rules.engine import pending_options
from bot.games.expeditions.rules.game import ExpeditionsGame
from bot.games.expeditions.rules.text import amount, and_list, effects_text, money
from bot.games.expeditions.rules.views import action_name, card_name, location_label
from bot.i18n import translate, translate_plural

SEARCHED_CHOICES = ("or", "take_card", "worker_colour", "location_benefit", "activate_adjacent", "boast", "upgrade",
                    "meld", "play", "vanquish", "solve", "discard", "trash", "card_destination", "rescue")
DECLINING = ("done", "skip", "stop", "confirm")  # the options that take nothing (more) from a decision
LOOKAHEAD_STEPS = 30  # actions of the rest of a turn a hint plays out to see what a move sets up
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
        # What the move brings, not what the turn owes anyway: effects already queued (a gathered worker waiting
        # behind a card to play, a quest's reward) come whatever is chosen now, so they are left out of the words.
        owing_nothing = {**state, "turn": {**state["turn"], "queue": []}}
        before_me = owing_nothing["players"][seat]
        outlook = outlook_of(game, owing_nothing, seat, action)
        if not outlook.now and not outlook.later:
            # Never a move that gains nothing while another gains something (a core value of +1 guile at 10
            # guile was recommended): the rule of thumb's figure may prefer it, the player would not.
            better = best_gaining(game, owing_nothing, seat, action)
            if better is not None:
                action, outlook = better
            else:
                action = _declined_instead(game, state, seat, action)

        def reason(language: str) -> str:
            # The rule of thumb's own figure (policies.estimate) means nothing to a player: say what it brings now,
            # else what it sets up this turn, else what it prepares for the next (the place moved to).
            brings = _brings(comp, state, seat, action, before_me, outlook, language)
            return translate("expeditions.hint.greedy", language, action=describe_action(game, state, action,
                                                                                         language), brings=brings)

        return Decision.worded(action, reason)

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
            state = self.determinize(game, view, seat, rng)
            turn = state["turns_taken"]
            # A deal counts only whole (every candidate on the same deal), so a deal the clock overtakes is dropped;
            # the first may run to twice the budget, then the candidates it compared are the choice.
            limit = deadline + budget.seconds if deals == 0 else deadline
            scores: dict[str, float] = {}
            whole = True
            for action in _candidates(game, state, seat):
                if scores and time.perf_counter() > limit:
                    whole = False
                    break
                key = action_key(action)
                after = game.apply(state, seat, action, Rng(rng.getrandbits(63), deals + 1)).state
                scores[key], _ = policies.search_turn(game, after, seat, turn, depth=1)
                actions[key] = action
            if whole or deals == 0:
                deals += 1
                for key, value in scores.items():
                    totals[key] = totals.get(key, 0.0) + value
            if not whole:
                break
        key = max(totals, key=lambda k: (totals[k], k))
        state = self.determinize(game, view, seat, rng)

        def reason(language: str) -> str:
            return translate_plural("expeditions.hint.searched", deals, language,
                                    action=describe_action(game, state, actions[key], language))

        return Decision.worded(actions[key], reason)


GAINS = (  # what a move can bring a player: (the count before and after -> the words for a gain of n)
    (lambda comp, p: q.score(comp, p), lambda n, language: translate("expeditions.hint.gain_score", language,
                                                                     money=money(n, language))),
    (lambda comp, p: p["stars"], lambda n, language: translate_plural("expeditions.hint.gain_stars", n, language)),
    (lambda comp, p: p["power"], lambda n, language: amount("power", n, language)),
    (lambda comp, p: p["guile"], lambda n, language: amount("guile", n, language)),
    (lambda comp, p: p["map_tokens"], lambda n, language: amount("map_token", n, language)),
    (lambda comp, p: len(p["quests"]),
     lambda n, language: translate_plural("expeditions.hint.gain_quests", n, language)),
    (lambda comp, p: len(p["upgrades"]),
     lambda n, language: translate_plural("expeditions.hint.gain_upgrades", n, language)),
    (lambda comp, p: len(p["melds"]),
     lambda n, language: translate_plural("expeditions.hint.gain_melds", n, language)),
    (lambda comp, p: q.corruption_count(p),
     lambda n, language: translate_plural("expeditions.hint.gain_corruption", n, language)),
    (lambda comp, p: q.workers_owned(p),
     lambda n, language: translate_plural("expeditions.hint.gain_workers", n, language)),
    (lambda comp, p: len(q.controlled(p)),
     lambda n, language: translate_plural("expeditions.hint.gain_cards", n, language)),
    # cards and workers back for use (a refresh): more in hand or ready than new ones account for
    (lambda comp, p: len(p["hand"]) - len(q.controlled(p)),
     lambda n, language: translate_plural("expeditions.hint.gain_hand", n, language)),
    (lambda comp, p: sum(p["workers"].values()) - q.workers_owned(p),
     lambda n, language: translate_plural("expeditions.hint.gain_ready_workers", n, language)),
)


def _gains(comp: Components, before: JSON, after: JSON, language: str = "en") -> list[str]:
    """What a move brings the player, in words ("1 power", "$2 of final score"); losses are not told."""
    return [words(gain, language) for count, words in GAINS if (gain := count(comp, after) - count(comp, before)) > 0]


def _gained(comp: Components, before: JSON, after: JSON) -> bool:
    """Whether a move brings the player anything GAINS counts."""
    return any(count(comp, after) > count(comp, before) for count, _ in GAINS)


@dataclass(frozen=True)
class Outlook:
    """What a move does for the player: the state right after it, and at the end of the turn if the rule of thumb
    plays the rest of the turn (the two are the same when the move ends the turn or brings something at once)."""

    now: bool
    later: bool
    after: JSON
    turn_end: JSON


def outlook_of(game: ExpeditionsGame, state: JSON, seat: int, action: JSON) -> Outlook:
    """Play `action`, then, unless it brings something at once (what the hint then tells), the rest of the turn by
    the rule of thumb (a fixed random stream: the hint stays the same on a second ask), and see what each brings."""
    comp = game.comp
    before = state["players"][seat]
    after = game.apply(state, seat, action, Rng(0, 0)).state
    if _gained(comp, before, after["players"][seat]):
        return Outlook(True, True, after, after)
    end = after
    turn = state["turns_taken"]
    rnd = random.Random(0)
    for step in range(LOOKAHEAD_STEPS):
        if end["over"] or end["turns_taken"] != turn or tuple(game.to_act(end)) != (seat,):
            break
        end = game.apply(end, seat, policies.greedy_action(game, end, seat, rnd), Rng(0, step + 1)).state
    return Outlook(_gained(comp, before, after["players"][seat]), _gained(comp, before, end["players"][seat]),
                   after, end)


def best_gaining(game: ExpeditionsGame, state: JSON, seat: int, chosen: JSON) -> tuple[JSON, Outlook] | None:
    """The move the rule of thumb rates best among those that bring something now or this turn, when the chosen
    one brings nothing; None when none does (then setting up is all there is)."""
    candidates = [a for a in _candidates(game, state, seat) if a != chosen and a["type"] != "refresh"]
    best: tuple[float, JSON, Outlook] | None = None
    for action in candidates:
        outlook = outlook_of(game, state, seat, action)
        if outlook.now or outlook.later:
            value = policies.estimate(game.comp, outlook.turn_end, seat)
            if best is None or value > best[0]:
                best = (value, action, outlook)
    return (best[1], best[2]) if best is not None else None


def _declined_instead(game: ExpeditionsGame, state: JSON, seat: int, chosen: JSON) -> JSON:
    """When nothing open brings anything, a choice that spends a worker or a card for nothing (placing a worker
    on an ability that finds nothing to do) gives way to declining, which keeps them."""
    if chosen["type"] != "choose" or chosen["option"] in DECLINING:
        return chosen
    legal = game.legal_actions(state, seat)
    return next((a for a in legal if a["type"] == "choose" and a["option"] in DECLINING), chosen)


def _brings(comp: Components, state: JSON, seat: int, action: JSON, before: JSON, outlook: Outlook,
            language: str) -> str:
    """The reason's second half: the gains now, else those it sets up this turn, else what the place moved to
    offers next turn; the stock words only when there is none of these."""
    now = _gains(comp, before, outlook.after["players"][seat], language)
    if now:
        return translate("expeditions.hint.bringing", language, gains=and_list_commas(now, language))
    later = _gains(comp, before, outlook.turn_end["players"][seat], language)
    if later:
        return translate("expeditions.hint.sets_up", language, gains=and_list_commas(later, language))
    if action["type"] == "move" and action["space"] in state["spaces"]:
        # only what a Gather there could bring this seat: not +2 power at a full power track
        offered = q.exposed_benefits(comp, state, action["space"])
        benefits = [benefit for benefit in offered if q.benefit_takes(comp, state, seat, benefit)]
        if benefits:
            return translate("expeditions.hint.gather_next", language, benefits=effects_text(benefits, language))
    if action["type"] == "choose" and action["option"] in DECLINING:
        # reached only when no other choice brings anything either (best_gaining found none)
        return translate("expeditions.hint.nothing_else", language)
    return translate("expeditions.hint.setting_up", language)


def and_list_commas(parts: list[str], language: str = "en") -> str:
    """"a, b and c" / "a, b und c"."""
    return parts[0] if len(parts) == 1 else and_list([", ".join(parts[:-1]), parts[-1]], language)


def _candidates(game: ExpeditionsGame, state: JSON, seat: int) -> list[JSON]:
    """The actions worth comparing: every choice of a pending decision, else the planner's short list."""
    pending = state["turn"]["pending"]
    if pending and pending["kind"] in SEARCHED_CHOICES:
        return [a for a in game.legal_actions(state, seat) if a["type"] == "choose"]
    if pending:  # toggles and confirmations: the planner's rule of thumb (toggling alone would only loop)
        return [policies.quick_choice(game, state, seat)]
    return policies.top_level_actions(game, state, seat)


def describe_action(game: ExpeditionsGame, state: JSON, action: JSON, language: str = "en") -> str:
    """An action as an instruction ("Move to location 7", "Play Lantern")."""
    kind = action["type"]
    comp = game.comp
    if kind == "cover":
        return translate("expeditions.hint.cover", language, action=action_name(action["action"], language))
    if kind == "refresh":
        return translate("expeditions.hint.refresh", language)
    if kind == "move":
        space = state["spaces"].get(action["space"])
        if space is None:
            return translate("expeditions.hint.stay", language)
        if not space["revealed"]:
            return translate("expeditions.hint.move_face_down", language, space=action["space"])
        return translate("expeditions.hint.move", language, place=location_label(comp, space["tile"], language))
    if kind == "play":
        return translate("expeditions.option.play", language, card=card_name(comp, action["card"], language))
    if kind == "gather":
        return translate("expeditions.hint.gather", language)
    if kind == "odin":
        return translate("expeditions.hint.odin", language, amount=amount(action["gain"], 1, language))
    pending = state["turn"]["pending"]
    labels = {o["id"]: o["label"] for o in pending_options(comp, state, pending, language)} if pending else {}
    option = action.get("option")
    return translate("expeditions.hint.choose", language,
                     option=labels.get(option, option) if isinstance(option, str) else option)


BOT = ExpeditionsBot()
