"""The Expedition in words: events for the channel, whose turn it is, a player's private hand, the rules, results.

Each text is made as a message tree (`*_words`, see words.py) and worded in the reader's language; the functions
without the suffix word it ("en" unless told).
"""

from __future__ import annotations

from bot.core.protocol import JSON
from bot.games.the_expedition.rules.catalog import Catalog, rule_words
from bot.games.the_expedition.rules.conditions import card_progress, card_words_in, closeness
from bot.games.the_expedition.rules.rules import (
    current_pid,
    is_automation,
    is_market,
    is_solo,
    legal_steps,
    marked_cells,
    markers_left,
    participant,
    ranking_key,
)
from bot.games.the_expedition.rules.words import (
    Words,
    direction,
    kind,
    listed,
    points,
    pts,
    sentences,
    separated,
    toward,
    worded,
)
from bot.i18n import Text, deferred, deferred_plural, said, translate

FINISH_REASONS = {
    "final_turns": deferred("expedition.finish.final_turns"),
    "rounds": deferred("expedition.finish.rounds"),
    "stuck": deferred("expedition.finish.stuck"),
    "repetition": deferred("expedition.finish.repetition"),
}


def end_reason(state: JSON, catalog: Catalog, pid: str, reason: str, count: int | None) -> Text:
    """Why `pid` triggered the end, with the number of expeditions they had actually completed by then."""
    if reason == "expeditions":
        completed = catalog.expeditions_to_end if count is None else count
        return Text.of(deferred_plural("expedition.end.expeditions"), count=completed)
    if reason == "markers":
        if is_automation(pid):
            return Text.of("expedition.end.markers.automation")
        return Text.of("expedition.end.markers")
    return Text.of("expedition.end.out_of_moves")


def name_of(state: JSON, pid: str) -> Words:
    """A player's own name; an Automation's in the reader's language ("Automation 1" / "Automat 1")."""
    if is_automation(pid):
        return Text.of("expedition.automation.name", number=participant(state, pid)["number"])
    return said(participant(state, pid)["name"])


def _names(state: JSON, pids: list[str]) -> Words:
    return listed([name_of(state, pid) for pid in pids])


def describe_words(state: JSON, event: JSON, catalog: Catalog) -> Words:
    """One public sentence per event (hands are never mentioned; a scored card is public once scored)."""
    kind_ = event.get("kind")
    if kind_ == "placed":
        who = name_of(state, event["who"])
        placed = Text.of("expedition.event.placed", who=who, location=catalog.location(event["location"]).names)
        if not is_solo(state) and len(state["players"]) > 1 and event["who"] == f"p{state['placement'][-1]}":
            return sentences([placed, Text.of("expedition.event.placed_last", who=who)])
        return placed
    if kind_ == "moved":
        return _moved(state, event, catalog)
    if kind_ == "automation_blocked":
        return Text.of("expedition.event.automation_blocked", who=name_of(state, event["who"]),
                       direction=toward(event["direction"]),
                       location=catalog.location(state["grid"][event["cell"]]).names,
                       moves=_moves_left(event["moves_left"]))
    if kind_ == "stayed":
        who = name_of(state, event["who"])
        if event["reason"] == "gravity":
            return Text.of("expedition.event.stayed.gravity", who=who)
        return Text.of("expedition.event.stayed.blocked", who=who)
    if kind_ == "expedition_scored":
        card = catalog.expedition(event["card"])
        values = {"who": name_of(state, event["who"]), "card": card.names, "condition": card_words_in(card, catalog),
                  "points": points(card.points)}
        if event["source"] == "market":
            return Text.of("expedition.event.scored.market", **values)
        return Text.of("expedition.event.scored", **values)
    if kind_ == "market_refilled":
        card = catalog.expedition(event["card"])
        return Text.of("expedition.event.market_refilled", card=card.names, condition=card_words_in(card, catalog),
                       points=points(card.points))
    if kind_ == "market_shrank":
        return Text.of("expedition.event.market_shrank")
    if kind_ == "end_triggered":
        who = name_of(state, event["who"])
        reason = end_reason(state, catalog, event["who"], event["reason"], event.get("count"))
        if is_solo(state):
            return _solo_final_turns(state, catalog, event["who"], who, reason)
        return Text.of("expedition.event.end_triggered", who=who, reason=reason)
    if kind_ == "game_over":
        # The verdict only: the board under this line carries the whole summary with the scores.
        return Text.of("expedition.game_over", text=verdict_words(state, event["winners"]))
    return f"({kind_})"


def _moved(state: JSON, event: JSON, catalog: Catalog) -> Words:
    pid = event["who"]
    there = catalog.location(event["to_location"]).names
    already: Words = ""
    if not event["marked"] and is_automation(pid):
        already = Text.of("expedition.event.moved.already_automation")
    elif not event["marked"]:
        already = Text.of("expedition.event.moved.already")
    removing: Words = ""
    if event["removed"]:
        removing = Text.of(deferred_plural("expedition.event.moved.removing"), count=len(event["removed"]),
                           names=_names(state, event["removed"]))
    ending: Words = "."
    if "moves_left" in event:
        ending = Text.of("expedition.event.moved.moves_left", moves=_moves_left(event["moves_left"]))
    moved = Text.of("expedition.event.moved", who=name_of(state, pid), direction=toward(event["direction"]),
                    there=there, left=catalog.location(event["from_location"]).names, already=already,
                    removing=removing, ending=ending)
    if event.get("held") and state.get("phase") != "over":  # (the game's last move: there is no next turn)
        return sentences([moved, Text.of("expedition.event.moved.held", there=there)])
    return moved


def _solo_final_turns(state: JSON, catalog: Catalog, pid: str, who: Words, reason: Text) -> Text:
    """Who really gets a final turn after `pid` triggered the end of a solo game (said in the same move's story,
    from the state after it). The others follow in turn order; but the 9 rounds end the game even so (RULINGS),
    so an end triggered in round 9 leaves only the explorers after `pid` in that round, if any."""
    order = list(state["order"])
    later = order[order.index(pid) + 1:]
    result = state.get("result") or {}
    if result.get("reason") == "rounds":  # triggered in the last round: it ended with that round
        if not later:
            return Text.of("expedition.event.end_triggered.solo_now", who=who, reason=reason,
                           rounds=catalog.solo_rounds)
        return Text.of(deferred_plural("expedition.event.end_triggered.solo_last_round"), who=who, reason=reason,
                       rounds=catalog.solo_rounds, names=_names(state, later), count=len(later))
    others = later + order[:order.index(pid)]
    return Text.of("expedition.event.end_triggered.solo", who=who, reason=reason, names=_names(state, others))


def _moves_left(count: int) -> Text:
    """An Automation's moves left on its card, said after its move: "6 moves left on its card"."""
    return Text.of(deferred_plural("expedition.moves_left_on_card"), count=count)


def describe(state: JSON, event: JSON, catalog: Catalog, language: str = "en") -> str:
    return worded(describe_words(state, event, catalog), language)


def summary_words(state: JSON, scores: dict[str, JSON], winners: list[str], reason: str, catalog: Catalog) -> Text:
    """The final result in words: why it ended, who won (or whether the solo player beat the Automations)."""
    why: Words = Text.of(FINISH_REASONS[reason], rounds=catalog.solo_rounds)
    end = state.get("end")
    if end is not None:
        trigger = end_reason(state, catalog, end["by"], end["reason"], end.get("count"))
        why = Text.of("expedition.summary.triggered_then", who=name_of(state, end["by"]), reason=trigger, then=why)
    # Best first (the stored state may come back with its keys sorted, so never rely on the dict's order).
    ranked = sorted(scores, key=lambda pid: (ranking_key(scores[pid]), pid in winners), reverse=True)
    table = separated([_score_phrase(state, pid, scores[pid]) for pid in ranked], "semicolon")
    headline: Words
    if is_solo(state) or len(winners) != 1:
        headline = verdict_words(state, winners)
    else:
        headline = Text.of(_tie_note(scores, winners), who=name_of(state, winners[0]))
    return Text.of("expedition.summary", headline=headline, why=why, table=table)


def summary(state: JSON, scores: dict[str, JSON], winners: list[str], reason: str, catalog: Catalog,
            language: str = "en") -> str:
    return summary_words(state, scores, winners, reason, catalog)(language)


def verdict_words(state: JSON, winners: list[str]) -> Text:
    """Who won, in one sentence; in solo, whether the player beat the Automations."""
    if is_solo(state):
        player = said(state["players"][0]["name"])
        if "p0" in winners and len(winners) == 1:
            return Text.of("expedition.verdict.solo_won", player=player)
        if "p0" in winners:
            return Text.of("expedition.verdict.solo_shared", player=player,
                           names=_names(state, [w for w in winners if w != "p0"]))
        return Text.of("expedition.verdict.solo_lost", player=player, names=_names(state, winners))
    if len(winners) == 1:
        return Text.of("expedition.verdict.wins", who=name_of(state, winners[0]))
    return Text.of("expedition.verdict.shared", names=_names(state, winners))


def verdict(state: JSON, winners: list[str], language: str = "en") -> str:
    return verdict_words(state, winners)(language)


def _score_phrase(state: JSON, pid: str, score: JSON) -> Text:
    values = {"name": name_of(state, pid), "points": pts(score["total"]), "locations": score["locations"],
              "expeditions": score["expeditions"], "markers": _markers(score["markers"])}
    if is_automation(pid):
        return Text.of("expedition.score.automation", **values)
    if state["mode"] == "solo-hard":
        return Text.of("expedition.score.solo_hard", **values)
    return Text.of("expedition.score.player", **values)


def _markers(count: int) -> Text:
    """Markers on the grid at the end (the board counts the ones left to place: say which this is)."""
    return Text.of(deferred_plural("expedition.markers_on_grid"), count=count)


def _tie_note(scores: dict[str, JSON], winners: list[str]) -> str:
    """The message that says who won, with the tie-break that decided it, if one did."""
    best = scores[winners[0]]
    tied = [pid for pid, s in scores.items() if s["total"] == best["total"] and pid != winners[0]]
    if not tied:
        return deferred("expedition.summary.wins")
    if all(scores[pid]["markers"] < best["markers"] for pid in tied):
        return deferred("expedition.summary.wins_on_markers")
    return deferred("expedition.summary.wins_on_expedition_points")


def turn_words(state: JSON, catalog: Catalog) -> Text:
    pid = current_pid(state)
    if pid is None:
        result = state["result"]
        return Text.of("expedition.game_over", text=summary_words(state, result["scores"], result["winners"],
                                                                  result["reason"], catalog))
    name = name_of(state, pid)
    if state["phase"] == "placement":
        if is_solo(state):
            revealed = separated([
                Text.of("expedition.turn.automation_card", name=name_of(state, a["id"]),
                        card=catalog.automation(a["card"]).names,
                        location=catalog.location(state["grid"][a["cell"]]).names)
                for a in state["automations"]], "semicolon")
            return Text.of("expedition.turn.place.solo", name=name, revealed=revealed)
        return Text.of("expedition.turn.place", name=name)
    final = state["end"] is not None
    if is_solo(state) and final:
        return Text.of("expedition.turn.move.solo.final", name=name, round=state["round"], rounds=catalog.solo_rounds)
    if is_solo(state):
        return Text.of("expedition.turn.move.solo", name=name, round=state["round"], rounds=catalog.solo_rounds)
    if final:
        return Text.of("expedition.turn.move.final", name=name)
    return Text.of("expedition.turn.move", name=name)


def turn_text(state: JSON, catalog: Catalog, language: str = "en") -> str:
    return turn_words(state, catalog)(language)


def step_options(state: JSON, catalog: Catalog, pid: str) -> Words:
    """ "up to Mars, left to Io" / "nach oben auf Mars, nach links auf Io": the legal steps, as /explore move
    takes them."""
    return separated([Text.of("expedition.option.to", direction=direction(d),
                              location=catalog.location(state["grid"][t]).names)
                      for d, t in legal_steps(state, catalog, pid)])


def _card_lines(state: JSON, catalog: Catalog, pid: str, card_ids: list[str]) -> list[Words]:
    mine = marked_cells(state, pid)
    lines: list[Words] = []
    ranked = sorted(card_ids, key=lambda c: -closeness(card_progress(catalog.expedition(c), mine, state["grid"],
                                                                         catalog)))
    for card_id in ranked:
        card = catalog.expedition(card_id)
        progress = card_progress(card, mine, state["grid"], catalog)
        status = separated([p.words for p in progress], "semicolon")
        lines.append(Text.of("expedition.mine.card", name=card.names, points=pts(card.points),
                             condition=card_words_in(card, catalog), status=status))
    return lines


def private_text(state: JSON, catalog: Catalog, seat: int, language: str = "en") -> str:
    """The /game mine text: the player's secret expedition cards and how close each is, closest first."""
    pid = f"p{seat}"
    player = participant(state, pid)
    lines: list[Words] = []
    if is_market(state):
        lines.append(Text.of("expedition.mine.abstract"))
        if state["market"]:
            lines.append(Text.of("expedition.mine.market"))
            lines += _card_lines(state, catalog, pid, state["market"])
    else:
        if player["hand"]:
            lines.append(Text.of("expedition.mine.hand"))
            lines += _card_lines(state, catalog, pid, player["hand"])
        else:
            lines.append(Text.of("expedition.mine.no_cards"))
    if player["scored"]:
        scored = separated([Text.of("expedition.mine.scored_card", name=catalog.expedition(c).names,
                                    points=catalog.expedition(c).points) for c in player["scored"]])
        lines.append(Text.of("expedition.mine.completed", cards=scored))
    lines.append(Text.of("expedition.mine.markers_left", left=markers_left(state, catalog, pid),
                         total=catalog.markers_per_player))
    if state["phase"] == "play" and current_pid(state) == pid:
        lines.append(Text.of("expedition.mine.legal_moves", options=step_options(state, catalog, pid)))
    return "\n".join(worded(line, language) for line in lines)


def rules_text(mode: str, catalog: Catalog, language: str = "en") -> str:
    """The rules of one mode, the location rules in play and the rulings that decide ambiguous cases."""
    location_rules = "\n".join(
        translate("expedition.rules.location", language, name=loc.names, kind=kind(loc.kind), points=pts(loc.points),
            rule=rule_words(loc) or Text.of("expedition.rules.no_special_rule"))
        for loc in catalog.locations)
    parts = [
        translate("expedition.rules.title", language),
        translate("expedition.rules.setup", language),
        translate("expedition.rules.turn", language),
        translate("expedition.rules.end", language, expeditions=catalog.expeditions_to_end,
                  markers=catalog.markers_per_player),
        translate("expedition.rules.locations", language, rules=location_rules),
    ]
    rulings = [translate("expedition.ruling.one_marker", language), translate("expedition.ruling.no_step", language),
               translate("expedition.ruling.own_cards", language),
               translate("expedition.ruling.most_markers", language),
               translate("expedition.ruling.repetition", language)]
    if mode in ("solo", "solo-hard"):
        scoring = (Text.of("expedition.rules.solo.scoring_hard") if mode == "solo-hard"
                   else Text.of("expedition.rules.solo.scoring"))
        parts.append(translate("expedition.rules.solo", language, hand=catalog.hand_size,
                               automations=catalog.solo_automations,
                         rounds=catalog.solo_rounds, scoring=scoring))
        rulings += [translate("expedition.ruling.solo_rounds", language, rounds=catalog.solo_rounds),
                    translate("expedition.ruling.out_of_moves", language),
                    translate("expedition.ruling.automation_markers", language),
                    translate("expedition.ruling.off_grid", language)]
    if mode == "abstract":
        parts.append(translate("expedition.rules.abstract", language))
        rulings.append(translate("expedition.ruling.market", language))
    parts.append(translate("expedition.rules.commands", language))
    parts.append(translate("expedition.rules.rulings", language))
    return "\n".join(parts) + "\n" + "\n".join(f"- {r}" for r in rulings)


__all__ = ["describe", "private_text", "rules_text", "summary", "turn_text"]
