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
from bot.games.the_expedition.catalog import Expedition
from bot.games.the_expedition.game import TheExpedition
from bot.games.the_expedition.policies import greedy_action
from bot.games.the_expedition.rules import final_scores, is_market, participant, step
from bot.games.the_expedition.words import listed, points, separated, toward, worded
from bot.i18n import LANGUAGES, Localized, Text, deferred, translate


class TheExpeditionBot(GameBot):
    horizon = 400  # a whole game is about 20 steps: playouts always reach the end
    score_scale = 4.0

    def observe(self, game: Game, state: JSON, seat: int) -> JSON:
        view = copy.deepcopy(state)
        view["last_events"] = []
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
        here = next_mark = catalog.location(action["location"]) if action["type"] == "place" else None
        direction = ""
        if action["type"] == "move":
            cell = participant(state, f"p{seat}")["cell"]
            target = step(cell, action["direction"])
            assert target is not None
            next_mark = catalog.location(state["grid"][target])
            here = catalog.location(state["grid"][cell])
            direction = action["direction"]
        assert here is not None and next_mark is not None

        def reason(language: str) -> str:
            # The rule of thumb's own figure (position_value) means nothing to a player, and in a solo game the
            # Automations' turns that follow can make it fall: say what the move counts on instead.
            aim = translate("expedition.hint.aim", language, cards=worded(
                separated([catalog.expedition(c).names for c in cards]), language)) if cards else ""
            if action["type"] == "place":
                move = translate("expedition.hint.place", language, location=here.names[language],
                                 points=worded(points(here.points), language))
            else:
                move = translate("expedition.hint.step", language, direction=worded(toward(direction), language),
                                 target=next_mark.names[language], here=here.names[language],
                                 points=worded(points(here.points), language))
            if completed:
                done = worded(listed([_card_points(card) for card in completed]), language)
                move = translate("expedition.hint.completes", language, move=move, cards=done)
            if action["type"] == "place":
                return translate("expedition.hint.reason_place", language, move=move, aim=aim)
            return translate("expedition.hint.reason_step", language, move=move, aim=aim,
                             target=next_mark.names[language], points=worded(points(next_mark.points), language))

        words = Localized.from_mapping({language: reason(language) for language in LANGUAGES})
        return Decision(action, words.en, words)

    def evaluate(self, game: Game, state: JSON) -> dict[int, float]:
        assert isinstance(game, TheExpedition)
        scores = final_scores(state, game.catalog)
        values = {p["seat"]: float(scores[p["id"]]["total"]) for p in state["players"]}
        if state["automations"]:
            best = max(float(scores[a["id"]]["total"]) for a in state["automations"])
            values = {seat: value - best for seat, value in values.items()}
        return values


def _card_points(card: Expedition) -> Text:
    """ "Rich Claims (4 points)" / "Reiche Funde (4 Punkte)": an expedition card a move completes."""
    return Text.of(deferred("expedition.hint.card_points"), card=card.names, points=points(card.points))


_NO_DRAWS = Rng(0, 0)  # moves draw nothing after setup
BOT = TheExpeditionBot()
