"""The hard Monster Expedition hunter: an expectimax planner over the dice, from the seat's own view.

A turn is a push-your-luck hunt whose outcome depends only on the dice, so the hard bot does not sample playouts:
it computes the expected worth of every choice over every roll the dice can show (black dice are enumerated as
multisets with their multinomial chances, the coloured die face by face). Where a hunt ends, its worth is the best
way to spend the hunting value (a knapsack over the capturable monsters, cages and the trader) plus the camp
improvements the kept dice give, minus those they give the other hunters. Future turns enter only through what a
camp level, a symbiosis set or a monster's ability is worth for the turns the seat has left.

Hidden things are taken as expectations over what the seat cannot see: a cage is worth the mean caged points of the
cards still unseen (the pooled draw deck, reserve and other cages of `bot_view`), never the card actually on top.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from bot.core.protocol import JSON
from bot.games.monster_expedition.rules.catalog import REGIONS, TRADER_ID, Card, Catalog, catalog
from bot.games.monster_expedition.rules.effects import FINAL_LEVEL, improvement_plan, total_points
from bot.games.monster_expedition.rules.state import black_dice, cage_count, symbiosis_sets

DIE_WORTH = 0.55
"""Points one more black die is worth per hunt it is rolled in (about 3 more hunting value at ~0.2 points each)."""
CAMP_SHARE = 0.4
"""The share of a hunter's remaining turns spent at any one camp (the best camp is used more than a third)."""
PRIOR_RATE, PRIOR_TURNS = 1.6, 4.0
"""Cards leaving the draw deck per turn before the game shows its own pace, and how many turns that guess weighs."""
MISTHROW_WORTH, BONUS_WORTH = 0.3, 0.5
"""A misthrow-improvement or bonus-value monster's worth, as a share of a level of its camp."""
CREST_KEEP = 0.6
"""The chance a crested card is still in the display at the end (so its crest's owner cages it)."""
CAMP_SAMPLE = 40
"""Outcomes standing in for a large first roll when comparing camps (three hunts are planned for that choice)."""
CAMP_WORK, TURN_WORK = 10, 25
"""Bank choices a search may weigh per iteration of the hard budget before it stops deepening (4000 iterations:
40 000 a camp, 100 000 a hunting decision, about 0.1 s and 0.3 s here)."""
GROWTH, MAX_DEPTH = 5, 8
"""How many times the previous depth's cost the next is expected to take; rolls looked ahead at most."""


# --- the dice ---------------------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _black_outcomes(count: int) -> tuple[tuple[float, tuple[int, ...]], ...]:
    """Every multiset `count` black dice can show: (chance, how many show 1..6)."""
    outcomes = []
    total = 6 ** count
    for combo in itertools.combinations_with_replacement(range(6), count):
        counts = [0] * 6
        for face in combo:
            counts[face] += 1
        ways = math.factorial(count)
        for n in counts:
            ways //= math.factorial(n)
        outcomes.append((ways / total, tuple(counts)))
    return tuple(outcomes)


@lru_cache(maxsize=64)
def _colour_faces(faces: tuple[int, ...]) -> tuple[tuple[float, int], ...]:
    return tuple((faces.count(v) / len(faces), v) for v in sorted(set(faces)))


Outcome = tuple[float, tuple[tuple[int, int, int, bool], ...]]
"""A roll's chance and its bankable groups: (number, its bit, black dice showing it, coloured die shows it)."""


@lru_cache(maxsize=1024)
def _roll_outcomes(faces: tuple[int, ...] | None, count: int, sample: int) -> tuple[Outcome, ...]:
    """Every outcome of rolling the coloured die (if held) and `count` black dice, with its chance.

    Up to `sample` outcomes are enumerated exactly; a larger roll is stood in for by `sample` outcomes taken at
    even steps of the cumulative chance (a stratified sample, each worth 1/sample), so the planner stays within its
    budget with eight black dice and stays deterministic."""
    colours = _colour_faces(faces) if faces is not None else ((1.0, None),)
    full = [(cp * bp, face, counts) for cp, face in colours for bp, counts in _black_outcomes(count)]
    if len(full) > sample:
        full.sort(key=lambda entry: -entry[0])
        picked: dict[int, float] = {}
        cumulative, index = 0.0, 0
        for step in range(sample):
            target = (step + 0.5) / sample
            while cumulative + full[index][0] < target and index < len(full) - 1:
                cumulative += full[index][0]
                index += 1
            picked[index] = picked.get(index, 0.0) + 1.0 / sample
        full = [(weight, full[i][1], full[i][2]) for i, weight in picked.items()]
    outcomes = []
    for chance, face, counts in full:
        groups: dict[int, list[int]] = {}
        for index, shown in enumerate(counts):
            if shown:
                groups[index + 1] = [shown, 0]
        if face is not None:
            groups.setdefault(face, [0, 0])[1] = 1
        outcomes.append((chance, tuple((value, 1 << value, entry[0], bool(entry[1]))
                                       for value, entry in sorted(groups.items()))))
    return tuple(outcomes)


# --- what things are worth to the seat ----------------------------------------------------------------------------


@dataclass
class Outlook:
    """What the seat expects of the rest of the game: its turns left and what a cage is worth on average."""

    turns_left: float
    cage_worth: float
    last_turn: bool


def outlook(view: JSON, seat: int, cat: Catalog) -> Outlook:
    """Turns left after this one, from the draw deck's pace so far; a cage's mean worth over the unseen cards."""
    hidden = view.get("hidden") or {}
    pool = hidden.get("pool", [])
    cage_worth = (sum(cat.card(c).caged_vp for c in pool) / len(pool)) if pool else float(cat.rules.noted_cage_vp)
    players = len(view["players"])
    if view["deck_used_up"]:
        return Outlook(0.0, cage_worth, True)
    deck_left = int(hidden.get("deck", len(view.get("deck", []))))
    start = cat.rules.draw_deck.get(players, 27) - cat.rules.opening_reveal
    turns_done = (int(view["round"]) - 1) * players + int(view["active"]) + 1
    rate = (max(0, start - deck_left) + PRIOR_RATE * PRIOR_TURNS) / (turns_done + PRIOR_TURNS)
    rounds_left = deck_left / max(rate * players, 0.5)
    return Outlook(max(0.0, rounds_left), cage_worth, False)


class Valuer:
    """Points-equivalent worth of levels, monsters and purchases for one seat (and of the others' gains)."""

    def __init__(self, view: JSON, seat: int, cat: Catalog) -> None:
        self.view, self.seat, self.cat = view, seat, cat
        self.look = outlook(view, seat, cat)
        self._improvements: dict[tuple[int, ...], float] = {}

    def turns_for(self, seat: int) -> float:
        """Turns left after the current one for `seat` (those after the active seat in this round play once more)."""
        if self.look.last_turn:
            return 1.0 if seat > int(self.view["active"]) else 0.0
        return self.look.turns_left + (1.0 if seat > int(self.view["active"]) else 0.0)

    def level_worth(self, seat: int, region: str, level: int) -> float:
        """What raising `seat`'s camp from `level` to the next is worth: more dice later, and the final cages."""
        if level >= FINAL_LEVEL:
            return 0.0
        player = self.view["players"][seat]
        camp = self.cat.camp(player["set"], region)
        more_dice = (camp.at(FINAL_LEVEL).black - camp.at(1).black) / (FINAL_LEVEL - 1)
        more_dice = min(more_dice, self.dice_room(seat, region, level))  # dice past the limit are never rolled
        worth = DIE_WORTH * more_dice * CAMP_SHARE * self.turns_for(seat)
        if level + 1 == FINAL_LEVEL:
            worth += self.cat.rules.final_level_cages * self.look.cage_worth
        return worth

    def dice_room(self, seat: int, region: str, level: int, sets: int | None = None) -> int:
        """How many more black dice the camp at `level` could give before the limit of 8 (symbiosis sets
        included: `sets`, else the seat's own)."""
        player = self.view["players"][seat]
        if sets is None:
            sets = symbiosis_sets(player["monsters"], self.cat)
        black = self.cat.camp(player["set"], region).at(level).black + sets
        return max(0, self.cat.rules.max_black_dice - black)

    def can_rise(self, region: str) -> bool:
        """Whether the seat's camp of `region` can still be improved (a bonus or misthrow improvement for a camp at
        its final level brings nothing)."""
        level = self.view["players"][self.seat]["camps"].get(region)
        return level is not None and int(level) < FINAL_LEVEL

    def improvements_worth(self, kept: tuple[int, ...]) -> float:
        """The camp improvements these kept dice give: ours count for us, the others' bonus ones against us."""
        found = self._improvements.get(kept)
        if found is None:
            found = 0.0
            others = max(1, len(self.view["players"]) - 1)
            if kept:
                for seat in range(len(self.view["players"])):
                    gain = self.gains_worth(seat, improvement_plan(self.view, seat, list(kept), self.cat))
                    found += gain if seat == self.seat else -gain / others
            self._improvements[kept] = found
        return found

    def gains_worth(self, seat: int, plan: dict[str, list[str]]) -> float:
        player = self.view["players"][seat]
        total = 0.0
        for region, causes in plan.items():
            level = int(player["camps"][region])
            for step in range(len(causes)):
                total += self.level_worth(seat, region, level + step)
        return total

    def monster_worth(self, card: Card, crest: int | None) -> float:
        """A capture's worth: its points, its ability for the turns left, symbiosis progress, crests at the end."""
        me = self.view["players"][self.seat]
        worth = float(card.vp)
        turns = self.turns_for(self.seat)
        unit = DIE_WORTH * CAMP_SHARE * turns * 0.6  # about one camp level
        if card.ability == "improve":
            worth += self.level_worth(self.seat, card.region, int(me["camps"][card.region]))
        elif card.ability == "bonus" and self.can_rise(card.region):
            worth += BONUS_WORTH * unit
        elif card.ability == "misthrow" and self.can_rise(card.region):
            worth += MISTHROW_WORTH * unit
        elif card.ability == "steal" and any(cage_count(p) for s, p in enumerate(self.view["players"])
                                             if s != self.seat):
            worth += 1.5 * self.look.cage_worth  # a cage for us and one fewer for them
        if card.symbiosis:
            before = symbiosis_sets(me["monsters"], self.cat)
            after = symbiosis_sets([*me["monsters"], card.id], self.cat)
            sets = (after - before) if after > before else 0.25
            # a set's die helps only the camps with room for it (never more than 8 black dice)
            roomy = sum(1 for region, level in me["camps"].items()
                        if self.dice_room(self.seat, region, int(level), before) > 0)
            worth += sets * DIE_WORTH * turns * roomy / len(me["camps"])
        if crest is not None:
            if crest == self.seat:
                worth -= CREST_KEEP * card.caged_vp  # it would have been our cage at the end anyway
            else:
                worth += CREST_KEEP * card.caged_vp  # and it will not be theirs
        return worth

    def spend_table(self, region: str, limit: int, skip: str | None = None) -> list[float]:
        """best[h]: the most a hunting value of h buys from the `region` camp (a 0/1 knapsack over the capturable
        monsters, any number of cages and trader visits); leftover value is lost."""
        best = [0.0] * (limit + 1)
        for slot in self.view["display"]:
            card_id = slot["card"]
            if card_id in (TRADER_ID, skip):
                continue
            card = self.cat.card(card_id)
            if card.region != region and not card.roams_everywhere:
                continue
            cost, worth = card.level, self.monster_worth(card, slot["crest"])
            if worth <= 0:
                continue
            for h in range(limit, cost - 1, -1):
                best[h] = max(best[h], best[h - cost] + worth)
        cage, trader = self.cat.rules.cage_cost, self.cat.rules.trader_cost
        cage_worth = self.look.cage_worth
        trader_worth = self.cat.rules.trader_cages * cage_worth
        has_trader = any(slot["card"] == TRADER_ID for slot in self.view["display"])
        for h in range(limit + 1):
            if h >= cage:
                best[h] = max(best[h], best[h - cage] + cage_worth)
            if has_trader and h >= trader:
                best[h] = max(best[h], best[h - trader] + trader_worth)
            if h:
                best[h] = max(best[h], best[h - 1])
        return best


# --- the hunt -----------------------------------------------------------------------------------------------------


class Hunt:
    """The expectimax of one hunt from one camp: decision nodes (bank which number, roll on or stop) and chance
    nodes (the roll), memoised on (coloured die held, black dice held, dice kept, numbers used, rolls left)."""

    def __init__(self, valuer: Valuer, region: str, faces: tuple[int, ...], sample: int = 64,
                 limit: int = 100) -> None:
        self.valuer, self.region, self.faces, self.sample = valuer, region, faces, sample
        self.spend = valuer.spend_table(region, limit)
        self.limit = limit
        self.work = 0
        self._stop: dict[tuple[int, ...], float] = {}
        self._node: dict[tuple[bool, int, tuple[int, ...], int, int], float] = {}

    def stop_worth(self, kept: tuple[int, ...]) -> float:
        """Worth of ending the hunt with these dice kept: what their sum buys plus the camps they improve."""
        found = self._stop.get(kept)
        if found is None:
            found = self.spend[min(sum(kept), self.limit)] + self.valuer.improvements_worth(kept)
            self._stop[kept] = found
        return found

    def choose(self, colour: bool, black: int, kept: tuple[int, ...], used: int, depth: int) -> float:
        """Worth of the decision to roll on or stop, playing on optimally for `depth` more rolls (then stopping)."""
        stop = self.stop_worth(kept)
        if (not colour and black == 0) or depth <= 0:
            return stop
        return max(stop, self.roll(colour, black, kept, used, depth))

    def roll(self, colour: bool, black: int, kept: tuple[int, ...], used: int, depth: int) -> float:
        """Expected worth of rolling the held dice now and playing on optimally (`depth` rolls at most, this one
        included). A roll showing only numbers banked already is a misthrow: the highest kept die is lost and the
        hunter chooses again."""
        key = (colour, black, kept, used, depth)
        found = self._node.get(key)
        if found is not None:
            return found
        total = 0.0
        after = depth - 1
        misthrow: float | None = None
        for chance, groups in _roll_outcomes(self.faces if colour else None, black, self.sample):
            best = -math.inf
            for value, bit, taken_black, taken_colour in groups:
                if used & bit:
                    continue
                self.work += 1
                new_kept = tuple(sorted(kept + (value,) * (taken_black + taken_colour)))
                held = colour and not taken_colour
                left = black - taken_black
                if (not held and left == 0) or after <= 0:
                    worth = self.stop_worth(new_kept)
                else:
                    worth = max(self.stop_worth(new_kept), self.roll(held, left, new_kept, used | bit, after))
                if worth > best:
                    best = worth
            if best == -math.inf:
                if misthrow is None:
                    if kept:  # rolling on after it faces the same chances again: counted as one more roll at most
                        lost = list(kept)
                        lost.remove(max(lost))
                        misthrow = self.choose(colour, black, tuple(lost), used, after)
                    else:
                        misthrow = self.stop_worth(kept)
                best = misthrow
            total += chance * best
        self._node[key] = total
        return total

    def after_bank(self, colour: bool, black: int, kept: tuple[int, ...], used: int, value: int, taken_black: int,
                   taken_colour: bool, depth: int) -> float:
        """Worth of banking `value` from the dice showing (then rolling on or stopping, `depth` rolls more)."""
        new_kept = tuple(sorted(kept + (value,) * (taken_black + int(taken_colour))))
        return self.choose(colour and not taken_colour, black - taken_black, new_kept, used | (1 << value), depth)

    def deepen(self, ask: Callable[[int], float | list[tuple[float, int, JSON]]], work: int, seconds: float,
               started: float) -> Any:
        """`ask(depth)` for depth 1, 2, ... while the next depth is expected to fit both in `work` evaluations and in
        the `seconds` since `started` (a depth costs a few times the one before); the deepest answer."""
        depth, answer = 1, ask(1)
        spent, took = max(self.work, 1), time.perf_counter() - started
        while depth < MAX_DEPTH:
            before, clock = self.work, time.perf_counter()
            if self.work + GROWTH * spent > work or clock - started + GROWTH * took > seconds:
                break
            depth += 1
            answer = ask(depth)
            spent, took = self.work - before, time.perf_counter() - clock
        return answer


# --- decisions ----------------------------------------------------------------------------------------------------


def _faces(view: JSON, region: str, cat: Catalog) -> tuple[int, ...]:
    from bot.games.monster_expedition.rules.catalog import REGION_DIE

    return tuple(cat.dice[REGION_DIE[region]])


def _used_mask(numbers: list[int]) -> int:
    mask = 0
    for number in numbers:
        mask |= 1 << int(number)
    return mask


@dataclass(frozen=True)
class Limits:
    """How far a decision may look: bank choices weighed (deterministic) and seconds (a guard on a loaded host)."""

    work: int
    seconds: float
    started: float


def plan(view: JSON, seat: int, legal: list[JSON], iterations: int = 4000, seconds: float = 1.0,
         cat: Catalog | None = None) -> tuple[JSON, str] | None:
    """The hard hunter's move in a standard game and why (within the hard budget), or None in the solo campaign."""
    cat = cat or catalog()
    if view["mode"] != "standard":
        return None
    handler = _PHASES.get(view["phase"])
    if handler is None:
        return None
    return handler(view, seat, legal, cat, Limits(iterations, seconds, time.perf_counter()))


def _camp(view: JSON, seat: int, legal: list[JSON], cat: Catalog, limits: Limits) -> tuple[JSON, str]:
    valuer = Valuer(view, seat, cat)
    rated = []
    for number, action in enumerate(legal):
        region = action["region"]
        hunt = Hunt(valuer, region, _faces(view, region, cat), sample=CAMP_SAMPLE)
        black = black_dice(view, seat, region, cat)
        share = limits.seconds * (number + 1) / len(legal)  # each camp gets its share of the time guard
        worth = hunt.deepen(partial(hunt.roll, True, black, (), 0), CAMP_WORK * limits.work, share, limits.started)
        rated.append((worth, action))
    worth, action = max(rated, key=lambda entry: entry[0])
    return action, f"a hunt from this camp is worth about {worth:.1f} points on average over the rolls of its dice."


def _held(view: JSON) -> tuple[bool, int]:
    rolled = view["turn"]["rolled"]
    return any(d["colour"] != "black" for d in rolled), sum(1 for d in rolled if d["colour"] == "black")


def _turn_hunt(view: JSON, seat: int, cat: Catalog) -> tuple[Hunt, tuple[int, ...], int]:
    turn = view["turn"]
    region = turn["region"]
    hunt = Hunt(Valuer(view, seat, cat), region, _faces(view, region, cat))
    kept = tuple(sorted(int(d["value"]) for d in turn["banked"]))
    return hunt, kept, _used_mask(turn["banked_numbers"])


def _bank(view: JSON, seat: int, legal: list[JSON], cat: Catalog, limits: Limits) -> tuple[JSON, str]:
    hunt, kept, used = _turn_hunt(view, seat, cat)
    rolled = view["turn"]["rolled"]
    colour, black = _held(view)
    options = []
    for action in legal:
        value = int(action["value"])
        taken_black = sum(1 for d in rolled if d["colour"] == "black" and int(d["value"]) == value)
        taken_colour = any(d["colour"] != "black" and int(d["value"]) == value for d in rolled)
        options.append((value, taken_black, taken_colour, action))

    def ask(depth: int) -> list[tuple[float, int, JSON]]:
        return [(hunt.after_bank(colour, black, kept, used, value, tb, tc, depth), value, action)
                for value, tb, tc, action in options]

    rated = hunt.deepen(ask, TURN_WORK * limits.work, limits.seconds, limits.started)
    worth, value, action = max(rated, key=lambda entry: (entry[0], entry[1]))
    return action, f"banking the {value}s leads to the best expected hunt (about {worth:.1f} points)."


def _continue(view: JSON, seat: int, legal: list[JSON], cat: Catalog, limits: Limits) -> tuple[JSON, str]:
    hunt, kept, used = _turn_hunt(view, seat, cat)
    colour, black = _held(view)
    stop = hunt.stop_worth(kept)
    if not colour and not black:
        return {"type": "stop"}, "no dice are left to roll."
    roll = hunt.deepen(lambda depth: hunt.roll(colour, black, kept, used, depth), TURN_WORK * limits.work,
                       limits.seconds, limits.started)
    if roll > stop:
        return {"type": "roll"}, (f"rolling on is worth about {roll:.1f} points on average against {stop:.1f} for "
                                  "stopping now.")
    return {"type": "stop"}, f"stopping now is worth {stop:.1f} points; rolling on would average {roll:.1f}."


def _purchase(view: JSON, seat: int, legal: list[JSON], cat: Catalog, limits: Limits) -> tuple[JSON, str]:
    valuer = Valuer(view, seat, cat)
    region = view["turn"]["region"]
    left = int(view["turn"]["hunting_value"]) - int(view["turn"]["spent"])
    crests = {slot["card"]: slot["crest"] for slot in view["display"]}
    best_worth, best_action = 0.0, {"type": "done"}
    for action in legal:
        kind = action["type"]
        if kind == "capture":
            card = cat.card(action["card"])
            cost = card.level
            worth = valuer.monster_worth(card, crests.get(card.id))
            rest = valuer.spend_table(region, left - cost, skip=card.id)[left - cost]
        elif kind == "cage":
            cost = cat.rules.cage_cost * int(action["count"])
            worth = int(action["count"]) * valuer.look.cage_worth
            rest = valuer.spend_table(region, left - cost)[left - cost]
        elif kind == "trader":
            cost = cat.rules.trader_cost
            worth = cat.rules.trader_cages * valuer.look.cage_worth
            rest = valuer.spend_table(region, left - cost)[left - cost]
        else:
            continue
        if worth + rest > best_worth + 1e-9:
            best_worth, best_action = worth + rest, action
    if best_action["type"] == "done":
        return best_action, "nothing affordable is worth taking."
    return best_action, f"it starts the best use of the {left} hunting value left (about {best_worth:.1f} points)."


def _steal(view: JSON, seat: int, legal: list[JSON], cat: Catalog, limits: Limits) -> tuple[JSON, str]:
    def standing(action: JSON) -> tuple[int, int]:
        player = view["players"][action["seat"]]
        return (total_points(player, cat) if player["cages"] else 0) + 2 * cage_count(player), cage_count(player)

    action = max(legal, key=standing)
    return action, "they hold the most cages and lead, so a stolen cage costs them most."


_PHASES: dict[str, Callable[[JSON, int, list[JSON], Catalog, Limits], tuple[JSON, str]]] = {
    "camp": _camp, "bank": _bank, "continue": _continue, "purchase": _purchase, "steal": _steal,
}

__all__ = ["REGIONS", "Hunt", "Valuer", "outlook", "plan"]
