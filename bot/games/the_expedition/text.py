"""The Expedition in words: events for the channel, whose turn it is, a player's private hand, the rules, results."""

from __future__ import annotations

from bot.core.names import plural
from bot.core.protocol import JSON
from bot.games.the_expedition.catalog import Catalog
from bot.games.the_expedition.conditions import card_progress, card_text, closeness
from bot.games.the_expedition.rules import (
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


def points(value: int) -> str:
    """ "1 pt", "3 pts"."""
    return f"{value} pt" if value == 1 else f"{value} pts"


END_REASONS = {
    "expeditions": "completed {n} expeditions",
    "markers": "placed {their} last marker",
    "out_of_moves": "is out of moves",
}
FINISH_REASONS = {
    "final_turns": "every other explorer had a final turn",
    "rounds": "the {rounds} rounds were over",
    "stuck": "no explorer could move any more",
    "repetition": "the same position arose for the third time, so the game was scored as it stood",
}


def end_reason(state: JSON, catalog: Catalog, pid: str, reason: str, count: int | None) -> str:
    """Why `pid` triggered the end, with the number of expeditions they had actually completed by then."""
    completed = catalog.expeditions_to_end if count is None else count
    return END_REASONS[reason].format(n=completed, their="its" if is_automation(pid) else "their")


def name_of(state: JSON, pid: str) -> str:
    return str(participant(state, pid)["name"])


def _names(state: JSON, pids: list[str]) -> str:
    names = [name_of(state, pid) for pid in pids]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def describe(state: JSON, event: JSON, catalog: Catalog) -> str:
    """One public sentence per event (hands are never mentioned; a scored card is public once scored)."""
    kind = event.get("kind")
    if kind == "placed":
        who = name_of(state, event["who"])
        text = f"{who} placed their explorer on {catalog.location(event['location']).name}."
        if not is_solo(state) and len(state["players"]) > 1 and event["who"] == f"p{state['placement'][-1]}":
            text += f" {who} placed last, so {who} moves first; then play goes clockwise."
        return text
    if kind == "moved":
        who = name_of(state, event["who"])
        there = catalog.location(event["to_location"]).name
        left = catalog.location(event["from_location"]).name
        text = f"{who} moved {event['direction']} to {there} and marked {left}"
        if not event["marked"]:
            text += f" ({'its' if is_automation(event['who']) else 'their'} marker was already there)"
        if event["removed"]:
            text += f", removing {_names(state, event['removed'])}'s marker" + ("s" if len(event["removed"]) > 1
                                                                                    else "")
        text += "."
        if event.get("held") and state.get("phase") != "over":  # (the game's last move: there is no next turn)
            text += f" {there}'s gravity holds them next turn."
        if "moves_left" in event:
            text = f"{text[:-1]}; {_moves_left(event['moves_left'])}."
        return text
    if kind == "automation_blocked":
        return (f"{name_of(state, event['who'])} can't move {event['direction']} off the grid: it stays on "
                f"{catalog.location(state['grid'][event['cell']]).name} and marks nothing; "
                f"{_moves_left(event['moves_left'])}.")
    if kind == "stayed":
        who = name_of(state, event["who"])
        if event["reason"] == "gravity":
            return f"{who} is held by gravity: they stay put and mark nothing."
        return f"{who} has no legal step: they stay put and mark nothing."
    if kind == "expedition_scored":
        card = catalog.expedition(event["card"])
        source = " from the market" if event["source"] == "market" else ""
        return (f"{name_of(state, event['who'])} completed the expedition {card.name}{source} "
                f"({card_text(card, catalog)}) for {plural(card.points, 'point')}.")
    if kind == "market_refilled":
        card = catalog.expedition(event["card"])
        return f"New in the market: {card.name} ({card_text(card, catalog)} {plural(card.points, 'point')})."
    if kind == "market_shrank":
        return "The draw pile is empty: the market shrinks."
    if kind == "end_triggered":
        reason = end_reason(state, catalog, event["who"], event["reason"], event.get("count"))
        triggered = f"{name_of(state, event['who'])} {reason}: the end is triggered"
        if is_solo(state):
            return f"{triggered}{_solo_final_turns(state, catalog, event['who'])}."
        return f"{triggered}, everyone else gets one final turn."
    if kind == "game_over":
        # The verdict only: the board under this line carries the whole summary with the scores.
        return f"Game over: {verdict(state, event['winners'])}"
    return f"({kind})"


def _solo_final_turns(state: JSON, catalog: Catalog, pid: str) -> str:
    """Who really gets a final turn after `pid` triggered the end of a solo game (said in the same move's story,
    from the state after it). The others follow in turn order; but the 9 rounds end the game even so (RULINGS),
    so an end triggered in round 9 leaves only the explorers after `pid` in that round, if any."""
    order = list(state["order"])
    later = order[order.index(pid) + 1:]
    result = state.get("result") or {}
    if result.get("reason") == "rounds":  # triggered in the last round: it ended with that round
        if not later:
            return f" on the last turn of the {catalog.solo_rounds} rounds, so the game ends now"
        one = len(later) == 1
        return (f" in round {catalog.solo_rounds}, the last: {_names(state, later)} take{'s' if one else ''} "
                f"{'its' if one else 'their'} turn, then the game ends")
    others = later + order[:order.index(pid)]
    return f": {_names(state, others)} each get one final turn, then the game ends"


def _moves_left(count: int) -> str:
    """An Automation's moves left on its card, said after its move: "6 moves left on its card"."""
    return f"{count} move{'s' if count != 1 else ''} left on its card"


def summary(state: JSON, scores: dict[str, JSON], winners: list[str], reason: str, catalog: Catalog) -> str:
    """The final result in words: why it ended, who won (or whether the solo player beat the Automations)."""
    why = FINISH_REASONS[reason].format(rounds=catalog.solo_rounds)
    end = state.get("end")
    if end is not None:
        trigger = end_reason(state, catalog, end["by"], end["reason"], end.get("count"))
        why = f"{name_of(state, end['by'])} {trigger} and then {why}"
    # Best first (the stored state may come back with its keys sorted, so never rely on the dict's order).
    ranked = sorted(scores, key=lambda pid: (ranking_key(scores[pid]), pid in winners), reverse=True)
    table = "; ".join(_score_phrase(state, pid, scores[pid]) for pid in ranked)
    if is_solo(state) or len(winners) != 1:
        headline = verdict(state, winners)
    else:
        headline = f"{name_of(state, winners[0])} wins{_tie_note(scores, winners)}."
    return f"{headline} The game ended: {why}. {table}."


def verdict(state: JSON, winners: list[str]) -> str:
    """Who won, in one sentence; in solo, whether the player beat the Automations."""
    if is_solo(state):
        player = state["players"][0]["name"]
        if "p0" in winners and len(winners) == 1:
            return f"{player} beat the Automations!"
        if "p0" in winners:
            return f"{player} shares the win with {_names(state, [w for w in winners if w != 'p0'])}."
        return f"{player} did not beat the Automations: {_names(state, winners)} won."
    if len(winners) == 1:
        return f"{name_of(state, winners[0])} wins."
    return f"{_names(state, winners)} share the win (tied on points, markers and expedition points)."


def _score_phrase(state: JSON, pid: str, score: JSON) -> str:
    name = name_of(state, pid)
    if is_automation(pid):
        return (f"{name}: {points(score['total'])} ({score['locations']} from locations, "
                f"{_markers(score['markers'])})")
    if state["mode"] == "solo-hard":
        return (f"{name}: {points(score['total'])} (expeditions only; {score['locations']} location points not "
                f"counted, {_markers(score['markers'])})")
    return (f"{name}: {points(score['total'])} ({score['locations']} from locations + {score['expeditions']} "
            f"from expeditions, {_markers(score['markers'])})")


def _markers(count: int) -> str:
    """Markers on the grid at the end (the board counts the ones left to place: say which this is)."""
    return f"{plural(count, 'marker')} on the grid"


def _tie_note(scores: dict[str, JSON], winners: list[str]) -> str:
    best = scores[winners[0]]
    tied = [pid for pid, s in scores.items() if s["total"] == best["total"] and pid != winners[0]]
    if not tied:
        return ""
    if all(scores[pid]["markers"] < best["markers"] for pid in tied):
        return " on the tie-break: most markers on the grid"
    return " on the tie-break: most expedition points"


def turn_text(state: JSON, catalog: Catalog) -> str:
    pid = current_pid(state)
    if pid is None:
        result = state["result"]
        return "Game over: " + summary(state, result["scores"], result["winners"], result["reason"], catalog)
    name = name_of(state, pid)
    if state["phase"] == "placement":
        text = f"{name} to place their explorer on an empty location"
        if is_solo(state):
            revealed = "; ".join(f"{a['name']} is {catalog.automation(a['card']).name}, starting on "
                                 f"{catalog.location(state['grid'][a['cell']]).name}" for a in state["automations"])
            text += f" (Automation cards revealed: {revealed})"
        return text
    text = f"{name} to move"
    if is_solo(state):
        text += f" (round {state['round']} of {catalog.solo_rounds})"
    if state["end"] is not None:
        text += " (final turn)"
    return text


def _card_lines(state: JSON, catalog: Catalog, pid: str, card_ids: list[str]) -> list[str]:
    mine = marked_cells(state, pid)
    lines = []
    ranked = sorted(card_ids, key=lambda c: -closeness(card_progress(catalog.expedition(c), mine, state["grid"],
                                                                         catalog)))
    for card_id in ranked:
        card = catalog.expedition(card_id)
        progress = card_progress(card, mine, state["grid"], catalog)
        status = "; ".join(p.text for p in progress)
        lines.append(f"- **{card.name}** ({points(card.points)}): {card_text(card, catalog)} Now: {status}.")
    return lines


def private_text(state: JSON, catalog: Catalog, seat: int) -> str:
    """The /game mine text: the player's secret expedition cards and how close each is, closest first."""
    pid = f"p{seat}"
    player = participant(state, pid)
    lines: list[str] = []
    if is_market(state):
        lines.append("Abstract Mode: there are no secret cards; any market card you meet at the end of your turn "
                     "is yours.")
        if state["market"]:
            lines.append("Market, closest first:")
            lines += _card_lines(state, catalog, pid, state["market"])
    else:
        if player["hand"]:
            lines.append("Your secret expedition cards, closest first:")
            lines += _card_lines(state, catalog, pid, player["hand"])
        else:
            lines.append("You have no secret expedition cards left.")
    if player["scored"]:
        scored = ", ".join(f"{catalog.expedition(c).name} ({catalog.expedition(c).points})"
                           for c in player["scored"])
        lines.append(f"Completed: {scored}.")
    lines.append(f"Markers left: {markers_left(state, catalog, pid)} of {catalog.markers_per_player}.")
    if state["phase"] == "play" and current_pid(state) == pid:
        options = ", ".join(f"{d} to {catalog.location(state['grid'][t]).name}"
                            for d, t in legal_steps(state, catalog, pid))
        lines.append(f"Your legal moves: {options}.")
    return "\n".join(lines)


def rules_text(mode: str, catalog: Catalog) -> str:
    """The rules of one mode, the location rules in play and the rulings that decide ambiguous cases."""
    location_rules = "\n".join(f"- {loc.name} ({loc.kind}, {points(loc.points)}): {loc.rule_text or 'no special rule.'}"
                               for loc in catalog.locations)
    common = (
        "**The Expedition** — claim planets and moons on a 3x3 grid.\n"
        "**Setup:** the 9 locations are shuffled into the grid. Explorers are placed on empty locations "
        "counter-clockwise from a random player; the last to place moves first, then play goes clockwise.\n"
        "**Your turn:** move your explorer one step up, down, left or right (explorers may share a location) and "
        "mark the location you just left: all other markers there go back to their owners unless the location "
        "says otherwise. Then any expedition whose condition your markers meet is completed and revealed "
        "(once is enough).\n"
        f"**The end:** when a player completes {catalog.expeditions_to_end} expeditions or has all "
        f"{catalog.markers_per_player} markers on the grid, everyone else gets one final turn. Score the points of "
        "each location with your marker, plus your completed expeditions. Ties: most markers on the grid, then most "
        "expedition points, then a shared win.\n"
        f"**Locations:**\n{location_rules}\n"
    )
    rulings = [
        "Removed markers return to their owners; after marking, a location holds exactly one marker, the active "
        "player's (unless its rule says otherwise). You never have two markers on one location.",
        "A player with no legal step stays put, places no marker, and the turn passes.",
        "Only the active player's cards are checked, at the end of their own turn.",
        "\"Most markers\" in the tie-break means markers on the grid at the end.",
        "Repetition (the rulebook sets no limit): when the same position (explorers, markers, scored and held cards, "
        "the player to move) arises for the third time, the game ends at once and is scored as it stands.",
    ]
    if mode in ("solo", "solo-hard"):
        scoring = ("only your expedition points count for you (the added challenge)" if mode == "solo-hard"
                   else "you score locations plus expeditions")
        common += (
            f"**Solo:** you get {catalog.hand_size} secret expeditions; {catalog.solo_automations} Automation cards "
            "are revealed. Automation 1 then Automation 2 start on their S cells (they may share), you place last "
            "and move first, then Automation 2, then Automation 1. Automations follow their printed path one move "
            "a turn, ignore movement restrictions (entry sides, gravity) and mark and remove like players. "
            f"The game lasts {catalog.solo_rounds} rounds, and also ends (after the final turns) when an "
            f"Automation is out of moves. Automations score their marked locations; {scoring}, and you win with "
            "the highest total (same tie-breaks).\n"
        )
        rulings += [
            f"\"{catalog.solo_rounds} turns\" means {catalog.solo_rounds} rounds. The {catalog.solo_rounds}-round "
            f"limit ends the game even when the end was triggered during round {catalog.solo_rounds}: no explorer "
            f"moves more than {catalog.solo_rounds} times.",
            "An Automation is out of moves at the end of the turn that uses its last printed move.",
            "An Automation that places its last marker triggers the end like a player.",
            "A printed move that would leave the grid is used up: the Automation stays and marks nothing.",
        ]
    if mode == "abstract":
        common += (
            "**Abstract Mode:** no secret cards. An open market of 1 + number of players expeditions; any player "
            "may complete any market card. At the end of your turn you take every market card your markers meet, "
            "then each one taken is replaced from the draw pile.\n"
        )
        rulings.append("With the draw pile empty the market shrinks and play goes on. A card that comes into the "
                       "market is first checked at the end of the next turn.")
    commands = ("**Commands:** `/explore place location:<name>` during setup and `/explore move direction:<up|down|"
                "left|right>` on your turn (diagonals only from a location that allows them), or the buttons under "
                "the board, which offer only your legal moves. `/game mine` shows your cards privately, with how "
                "close you are to each.\n")
    return common + commands + "**Rulings:**\n" + "\n".join(f"- {r}" for r in rulings)


__all__ = ["describe", "private_text", "rules_text", "summary", "turn_text"]
