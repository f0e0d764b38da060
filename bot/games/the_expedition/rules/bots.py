"""Computer players for The Expedition: what a seat may know, dealing the rest, and the normal bot's reasons.

Hidden from a seat: the other players' hands and the undealt cards (standard and solo), or the order of the draw
pile (Abstract Mode). The grid, every marker and the Automations' paths are public.
"""

from __future__ import annotations

import copy
import random

from bot.core.bots import Decision, GameBot
from bot.core.protocol import JSON, Game
from bot.core.rng import Rng
from bot.games.the_expedition.rules.game import TheExpedition
from bot.games.the_expedition.rules.policies import greedy_action, hands_over_by_repetition
from bot.games.the_expedition.rules.rules import (
    apply_action,
    final_scores,
    is_market,
    legal_actions,
    participant,
    step,
    times_seen,
)
from bot.games.the_expedition.rules.words import Words, listed, points, separated, toward
from bot.i18n import Text


class TheExpeditionBot(GameBot):
    horizon = 400  # a whole game is about 20 steps: playouts always reach the end
    score_scale = 4.0

    def observe(self, game: Game, state: JSON, seat: int) -> JSON:
        view = copy.deepcopy(state)
        view["last_events"] = []
        # the record of whole positions is keyed by digests of every hand: a seat may read only the public record
        view["positions"] = {}
        pool: list[str] = []
        for player in view["players"]:
            if player["seat"] != seat:
                pool += player["hand"]
                player["hand_count"] = len(player["hand"])
                player["hand"] = []
        pool += view["undealt"] + view["draw_pile"]
        view["undealt"], view["draw_pile"] = [], []
        view["hidden"] = {"pool": sorted(pool), "undealt": len(state["undealt"]),
                          "draw_pile": len(state["draw_pile"])}
        return view

    def determinize(self, game: Game, view: JSON, seat: int, rng: random.Random) -> JSON:
        state = copy.deepcopy(view)
        hidden = state.pop("hidden")
        pool = list(hidden["pool"])
        rng.shuffle(pool)
        for player in state["players"]:
            count = player.pop("hand_count", None)
            if count is not None:
                player["hand"], pool = pool[:count], pool[count:]
        state["draw_pile"], pool = pool[:hidden["draw_pile"]], pool[hidden["draw_pile"]:]
        state["undealt"] = pool
        return state

    def heuristic(self, game: Game, view: JSON, seat: int, rng: random.Random) -> Decision:
        assert isinstance(game, TheExpedition)
        catalog = game.catalog
        state = self.determinize(game, view, seat, rng)  # the greedy player reads only its own cards and the grid
        action = greedy_action(state, catalog, seat, rng)
        mover = participant(game.apply(state, seat, action, _NO_DRAWS).state, f"p{seat}")
        completed = [catalog.expedition(c) for c in mover["scored"]
                     if c not in participant(state, f"p{seat}")["scored"]]
        cards = state["market"] if is_market(state) else participant(state, f"p{seat}")["hand"]
        if action["type"] == "place":
            location = catalog.location(action["location"])
            what: Words = Text.of("expedition.hint.place", location=location.names, points=points(location.points))
            # The rule of thumb's own figure (position_value) means nothing to a player, and in a solo game the
            # Automations' turns that follow can make it fall: say what the move counts on instead.
            ahead: Words = Text.of("expedition.hint.ahead_place")
        else:
            cell = participant(state, f"p{seat}")["cell"]
            target = step(cell, action["direction"])
            assert target is not None
            next_mark = catalog.location(state["grid"][target])
            here = catalog.location(state["grid"][cell])
            what = Text.of("expedition.hint.step", direction=toward(action["direction"]), target=next_mark.names,
                           here=here.names, points=points(here.points))
            ahead = Text.of("expedition.hint.ahead_step", target=next_mark.names, points=points(next_mark.points))
        def repeats(move: JSON) -> bool:
            return times_seen(apply_action(state, catalog, seat, move)[0]) > 1

        def hands_over(move: JSON) -> bool:
            return hands_over_by_repetition(apply_action(state, catalog, seat, move)[0], catalog, seat)

        repeating = [a["direction"] for a in legal_actions(state, catalog, seat)
                     if a["type"] == "move" and a != action and repeats(a)]
        if repeating and not repeats(action):
            # teach why the step back was not taken: it would bring back a position (the third time ends the game)
            back = listed([toward(d) for d in repeating], "or")
            ahead = Text.of("expedition.hint.fresh", ahead=ahead, directions=back)
        else:
            handing = [a["direction"] for a in legal_actions(state, catalog, seat)
                       if a["type"] == "move" and a != action and hands_over(a)]
            if handing and not hands_over(action):
                # teach why: the other player could answer by repeating a position a third time, and win at once
                ahead = Text.of("expedition.hint.no_hand_over", ahead=ahead,
                                directions=listed([toward(d) for d in handing], "or"))
        if completed:
            named = [Text.of("expedition.hint.named", name=c.names, points=points(c.points)) for c in completed]
            what = Text.of("expedition.hint.completes", what=what, cards=listed(named))
        if cards:
            aim = separated([catalog.expedition(c).names for c in cards])
            reason = Text.of("expedition.hint.best_with_cards", what=what, cards=aim, ahead=ahead)
        else:
            reason = Text.of("expedition.hint.best", what=what, ahead=ahead)
        return Decision.worded(action, reason)

    def repeats(self, game: Game, state: JSON, seat: int, action: JSON) -> bool:
        assert isinstance(game, TheExpedition)
        after, _ = apply_action(state, game.catalog, seat, action)
        return times_seen(after) > 1

    def evaluate(self, game: Game, state: JSON) -> dict[int, float]:
        assert isinstance(game, TheExpedition)
        scores = final_scores(state, game.catalog)
        values = {p["seat"]: float(scores[p["id"]]["total"]) for p in state["players"]}
        if state["automations"]:
            best = max(float(scores[a["id"]]["total"]) for a in state["automations"])
            values = {seat: value - best for seat, value in values.items()}
        return values


_NO_DRAWS = Rng(0, 0)  # moves draw nothing after setup
BOT = TheExpeditionBot()
