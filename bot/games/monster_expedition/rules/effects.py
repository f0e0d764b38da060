"""The state changes the rules share: improving camps, taking cages, refilling the display, ending the game."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.core.protocol import JSON
from bot.core.rng import Rng
from bot.games.monster_expedition.rules.catalog import IMPROVEMENT_NUMBER, REGIONS, Catalog, catalog
from bot.games.monster_expedition.rules.state import cage_count, expedition_of, seat_order_from

FINAL_LEVEL = 8
FLIP_LEVEL = 5


def improve(state: JSON, seat: int, region: str, cause: str, events: list[JSON], cat: Catalog | None = None) -> bool:
    """Raise one camp one level (ignored at the final level); reaching it gives the final-level cages at once."""
    cat = cat or catalog()
    player = state["players"][seat]
    level = int(player["camps"][region])
    if level >= FINAL_LEVEL:
        return False
    player["camps"][region] = level + 1
    events.append({"kind": "camp_improved", "seat": seat, "region": region, "level": level + 1, "cause": cause,
                   "flipped": level + 1 == FLIP_LEVEL})
    if level + 1 == FINAL_LEVEL:
        take_cages(state, seat, cat.rules.final_level_cages, "final_level", events, cat)
    return True


def take_cages(state: JSON, seat: int, count: int, reason: str, events: list[JSON], cat: Catalog | None = None) -> None:
    """Put `count` face-down cages in front of `seat`.

    Standard: from the draw deck, then (once it is used up) the reserve deck, then noted at 1 VP. Solo: every cage
    comes from the reserve deck, then noted. Only cages the active player gains count for the refill.
    """
    cat = cat or catalog()
    player = state["players"][seat]
    from_deck = from_reserve = noted = 0
    for _ in range(count):
        if state["mode"] == "standard" and state["deck"]:
            player["cages"].append(state["deck"].pop(0))
            from_deck += 1
            note_deck_used_up(state, events)
        elif state["reserve"]:
            player["cages"].append(state["reserve"].pop(0))
            from_reserve += 1
        else:
            player["noted_cages"] += 1
            noted += 1
    if count and seat == state["active"]:
        state["turn"]["gained_cage"] = True
    events.append({"kind": "cages_taken", "seat": seat, "count": count, "reason": reason, "from_deck": from_deck,
                   "from_reserve": from_reserve, "noted": noted, "total": cage_count(player)})


def note_deck_used_up(state: JSON, events: list[JSON]) -> None:
    """Standard play: the moment the draw deck's last card is taken, this round becomes the last."""
    if state["mode"] == "standard" and not state["deck"] and not state["deck_used_up"]:
        state["deck_used_up"] = True
        events.append({"kind": "deck_used_up", "round": state["round"]})


def refill_display(state: JSON, events: list[JSON], cat: Catalog | None = None) -> None:
    """Standard Phase 4: back up to 10 cards, each newly revealed card crested by the active player if they can."""
    cat = cat or catalog()
    seat = state["active"]
    player = state["players"][seat]
    revealed: list[JSON] = []
    while len(state["display"]) < cat.rules.display_size:
        if state["deck"]:
            card_id = state["deck"].pop(0)
            note_deck_used_up(state, events)
        elif state["reserve"]:
            card_id = state["reserve"].pop(0)
        else:
            break
        crest = None
        if player["crests"] > 0:
            player["crests"] -= 1
            crest = seat
        state["display"].append({"card": card_id, "crest": crest})
        revealed.append({"card": card_id, "crest": crest})
    events.append({"kind": "display_refilled", "seat": seat, "cards": revealed,
                   "short": max(0, cat.rules.display_size - len(state["display"]))})


# --- Phase 3 ----------------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _best_plan(level: int, dice: tuple[int, ...], normal: int | None, pairs: bool, monster_bonus: frozenset[int],
               bonus_by_level: tuple[int | None, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The longest sequence of improvements for one camp: (cause, dice indices used) per improvement.

    A bonus value is read from the camp's current level, so the order matters; a small search finds the best.
    Each die improves this camp at most once.
    """
    best: dict[tuple[int, int], tuple[tuple[str, tuple[int, ...]], ...]] = {}

    def search(current: int, used: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
        if current >= FINAL_LEVEL:
            return ()
        key = (current, used)
        if key in best:
            return best[key]
        result: tuple[tuple[str, tuple[int, ...]], ...] = ()
        level_bonus = bonus_by_level[current - 1]
        for i, value in enumerate(dice):
            if used & (1 << i):
                continue
            causes = []
            if level_bonus is not None and value == level_bonus:
                causes.append("camp_bonus")
            elif value in monster_bonus:
                causes.append("monster_bonus")
            elif normal is not None and value == normal and not pairs:
                causes.append("dice")
            if causes:
                tail = search(current + 1, used | (1 << i))
                if len(tail) + 1 > len(result):
                    result = ((causes[0], (i,)), *tail)
            if normal is not None and pairs and value == normal:
                for j in range(i + 1, len(dice)):
                    if not used & (1 << j) and dice[j] == normal:
                        tail = search(current + 1, used | (1 << i) | (1 << j))
                        if len(tail) + 1 > len(result):
                            result = (("pair", (i, j)), *tail)
                        break
        best[key] = result
        return result

    return search(level, 0)


def improvement_plan(state: JSON, seat: int, dice_values: Sequence[int], cat: Catalog | None = None
                     ) -> dict[str, list[str]]:
    """Per camp, the causes of each improvement `seat` makes from these banked dice (active: all kinds; others:
    bonus values only)."""
    cat = cat or catalog()
    player = state["players"][seat]
    expedition = expedition_of(state, cat)
    pairs = bool(expedition and expedition.pair_improvements)
    active = seat == state["active"]
    plan: dict[str, list[str]] = {}
    for region in REGIONS:
        camp = cat.camp(player["set"], region)
        monster_bonus = frozenset(
            c.bonus_value for c in (cat.card(i) for i in player["monsters"])
            if c.ability == "bonus" and c.region == region and c.bonus_value is not None
        )
        steps = _best_plan(int(player["camps"][region]), tuple(dice_values), IMPROVEMENT_NUMBER[region] if active
                           else None, pairs, monster_bonus, tuple(level.bonus for level in camp.levels))
        plan[region] = [cause for cause, _ in steps]
    return plan


def phase_three(state: JSON, events: list[JSON], cat: Catalog | None = None) -> None:
    """Improvements from the active player's kept dice: the active player first, then the others in turn order."""
    cat = cat or catalog()
    values = [int(die["value"]) for die in state["turn"]["banked"]]
    if not values:
        return
    for seat in seat_order_from(state, state["active"]):
        plan = improvement_plan(state, seat, values, cat)
        for region in REGIONS:
            for cause in plan[region]:
                improve(state, seat, region, cause, events, cat)


def misthrow_improvements(state: JSON, events: list[JSON], cat: Catalog | None = None) -> None:
    """Every captured misthrow-improvement monster improves its owner's matching camp, once per turn per card."""
    cat = cat or catalog()
    used = state["turn"]["misthrow_used"]
    for seat in seat_order_from(state, state["active"]):
        for card_id in list(state["players"][seat]["monsters"]):
            monster = cat.card(card_id)
            if monster.ability == "misthrow" and card_id not in used:
                used.append(card_id)
                improve(state, seat, monster.region, "misthrow", events, cat)


# --- scoring ----------------------------------------------------------------------------------------------------


def monster_points(player: JSON, cat: Catalog | None = None) -> int:
    cat = cat or catalog()
    return sum(cat.card(i).vp for i in player["monsters"])


def cage_points(player: JSON, cat: Catalog | None = None) -> int:
    cat = cat or catalog()
    return sum(cat.card(i).caged_vp for i in player["cages"]) + cat.rules.noted_cage_vp * int(player["noted_cages"])


def total_points(player: JSON, cat: Catalog | None = None) -> int:
    return monster_points(player, cat) + cage_points(player, cat)


def camp_level_sum(player: JSON) -> int:
    return sum(int(level) for level in player["camps"].values())


def end_standard_game(state: JSON, events: list[JSON], cat: Catalog | None = None) -> None:
    """Crested display cards go to their crest owners as cages; score; most points, then highest camps, wins."""
    cat = cat or catalog()
    kept: list[JSON] = []
    crested = [0] * len(state["players"])
    for slot in state["display"]:
        owner = slot["crest"]
        if owner is not None:
            state["players"][owner]["cages"].append(slot["card"])
            state["players"][owner]["crests"] += 1
            crested[owner] += 1
        else:
            kept.append(slot)
    state["display"] = kept
    if any(crested):
        events.append({"kind": "crested_cards_caged", "counts": crested})
    scores = [total_points(p, cat) for p in state["players"]]
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    tie_break = [camp_level_sum(p) for p in state["players"]]
    top_camps = max(tie_break[seat] for seat in leaders)
    winners = [seat for seat in leaders if tie_break[seat] == top_camps]
    state["over"] = True
    state["phase"] = "over"
    state["result"] = {"scores": scores, "winners": winners, "camp_levels": tie_break,
                       "monster_points": [monster_points(p, cat) for p in state["players"]],
                       "cage_points": [cage_points(p, cat) for p in state["players"]],
                       "tie_break_used": len(leaders) > 1}
    events.append({"kind": "game_ended", "scores": scores, "winners": winners, "camp_levels": tie_break})


def ranking(result: JSON) -> list[int]:
    """Seats best first, as the rules rank them: the winners, then most points, then the highest camps in all (the
    tie-break), then seat order among players still tied."""
    return sorted(range(len(result["scores"])), key=lambda s: (s not in result["winners"], -result["scores"][s],
                                                               -result["camp_levels"][s], s))


def reveal_solo_card(state: JSON, events: list[JSON], _rng: Rng | None = None, cat: Catalog | None = None) -> None:
    """Solo Phase 4: one card from the draw deck at the end of each round; no card to reveal, or 13, loses."""
    cat = cat or catalog()
    if not state["deck"]:
        finish_solo(state, "lost", "no card left in the draw deck to reveal", events)
        return
    card_id = state["deck"].pop(0)
    state["display"].append({"card": card_id, "crest": None})
    events.append({"kind": "card_revealed", "card": card_id, "display": len(state["display"]),
                   "deck": len(state["deck"])})
    if len(state["display"]) >= cat.rules.solo_loss_display:
        finish_solo(state, "lost", f"{len(state['display'])} cards in the display", events)


def finish_solo(state: JSON, outcome: str, reason: str, events: list[JSON]) -> None:
    solo = state["solo"]
    solo["outcome"] = outcome
    solo["reason"] = reason
    state["over"] = True
    state["phase"] = "over"
    events.append({"kind": "expedition_won" if outcome == "won" else "expedition_lost",
                   "expedition": solo["expedition"], "reason": reason})
