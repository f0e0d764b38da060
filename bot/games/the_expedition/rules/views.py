"""Per-viewer views of The Expedition: everything a viewer may know, nothing more (no hands, no deck order)."""

from __future__ import annotations

from functools import cache

from bot.core.protocol import JSON, Viewer
from bot.games.the_expedition.rules.catalog import Catalog, Expedition, rule_words
from bot.games.the_expedition.rules.conditions import card_progress, card_words_in
from bot.games.the_expedition.rules.grid import CELL_NAMES, CELLS, row_col, step
from bot.games.the_expedition.rules.rules import (
    current_pid,
    empty_locations,
    final_scores,
    is_automation,
    is_market,
    is_solo,
    legal_steps,
    marked_cells,
    markers_left,
    participant,
    participants,
    to_act,
)
from bot.games.the_expedition.rules.text import describe_words, summary_words, turn_words
from bot.games.the_expedition.rules.view_types import ExpeditionView
from bot.games.the_expedition.rules.words import Words, as_json, sentences, worded
from bot.i18n import Text


def card_view(card: Expedition, catalog: Catalog) -> JSON:
    """A card's face: its English name and condition, and both as message JSON (`names`, `words`) for a renderer
    that words them in its table's language."""
    return dict(_card_face(card, catalog))  # (its inner parts are never changed: the face is shared)


@cache
def _card_face(card: Expedition, catalog: Catalog) -> JSON:
    condition = card_words_in(card, catalog)
    return {"id": card.id, "name": card.name, "points": card.points, "text": condition("en"),
            "names": as_json(card.names), "words": as_json(condition)}


def _progress_view(card: Expedition, catalog: Catalog, mine: set[int], grid: list[str]) -> JSON:
    entry = card_view(card, catalog)
    progress = card_progress(card, mine, grid, catalog)
    entry["progress"] = [{"have": p.have, "need": p.need, "text": p.text, "words": as_json(p.words), "met": p.met}
                         for p in progress]
    return entry


def _grid_view(state: JSON, catalog: Catalog) -> list[JSON]:
    cells: list[JSON] = []
    explorers = participants(state)
    for cell in CELLS:
        location = catalog.location(state["grid"][cell])
        row, column = row_col(cell)
        cells.append({
            "cell": cell, "row": row, "col": column, "position": CELL_NAMES[cell],
            "location": {"id": location.id, "name": location.name, "kind": location.kind,
                         "points": location.points, "rule": location.rule_text, "names": as_json(location.names),
                         "rule_words": as_json(rule_words(location))},
            "markers": list(state["markers"][cell]),
            "explorers": [e["id"] for e in explorers if e["cell"] == cell],
        })
    return cells


def _automation_card_view(catalog: Catalog, automaton: JSON) -> JSON:
    """A revealed Automation card: its S cell, printed path, the cells it passes through, and moves used."""
    card = catalog.automation(automaton["card"])
    cells = [card.start]
    for direction in card.path:
        following = step(cells[-1], direction)
        cells.append(cells[-1] if following is None else following)
    return {"id": card.id, "name": card.name, "names": as_json(card.names), "start": card.start,
            "path": list(card.path), "path_cells": cells,
            "moves_used": automaton["moves_used"], "moves_left": len(card.path) - automaton["moves_used"]}


def _participant_view(state: JSON, catalog: Catalog, explorer: JSON, scores: dict[str, JSON]) -> JSON:
    pid = explorer["id"]
    entry: JSON = {
        "id": pid, "name": explorer["name"], "kind": "automation" if is_automation(pid) else "player",
        "cell": explorer["cell"], "markers_left": markers_left(state, catalog, pid),
        "markers_on_grid": len(marked_cells(state, pid)), "score": scores[pid],
    }
    if is_automation(pid):
        entry["number"] = explorer["number"]
        entry["card"] = _automation_card_view(catalog, explorer)
    else:
        entry["seat"] = explorer["seat"]
        entry["held"] = bool(explorer["held"])
        entry["hand_size"] = len(explorer["hand"])
        entry["scored"] = [card_view(catalog.expedition(c), catalog) for c in explorer["scored"]]
        if state["phase"] == "over":  # the rules reveal the expedition cards left unscored at the end
            entry["unscored"] = [card_view(catalog.expedition(c), catalog) for c in explorer["hand"]]
    return entry


def _last_move(state: JSON, catalog: Catalog) -> tuple[list[Words], list[JSON]]:
    """The latest action's events as message trees (one sentence each) and the steps taken, to highlight."""
    told = [describe_words(state, e, catalog) for e in state["last_events"] if e["kind"] != "game_over"]
    if not told and state["phase"] == "placement":
        told = [Text.of("expedition.board.shuffled")]
    moves = [{"who": e["who"], "from_cell": e["from_cell"], "to_cell": e["to_cell"]}
             for e in state["last_events"] if e["kind"] == "moved"]
    return told, moves


def build_view(state: JSON, catalog: Catalog, viewer: Viewer, mode_title: str) -> ExpeditionView:
    """The public view (viewer None), or a seat's view with its own hand and progress added."""
    scores = final_scores(state, catalog)
    told, moves = _last_move(state, catalog)
    log = [worded(sentence, "en") for sentence in told if not _is_setup_note(sentence)]
    turn = turn_words(state, catalog)
    pid = current_pid(state)
    view: ExpeditionView = {
        "game": "the-expedition", "title": "The Expedition", "mode": state["mode"], "mode_title": mode_title,
        "phase": state["phase"], "turn": turn("en"), "last_move": worded(sentences(told), "en"), "log": log,
        # The same words as message JSON: the renderer words them in the table's language (view["language"]).
        "words": {"turn": as_json(turn), "last_move": as_json(sentences(told)),
                  "log": [as_json(sentence) for sentence in told if not _is_setup_note(sentence)]},
        "last_moves": moves, "to_act": list(to_act(state)), "over": state["phase"] == "over", "current": pid,
        "order": list(state["order"]),
        "grid": _grid_view(state, catalog),
        "participants": [_participant_view(state, catalog, e, scores) for e in participants(state)],
        "markers_per_player": catalog.markers_per_player, "expeditions_to_end": catalog.expeditions_to_end,
        "end": dict(state["end"]) if state["end"] else None,
        "legal_moves": [], "empty_cells": [], "viewer": viewer,
    }
    if state["phase"] == "play" and pid is not None and not is_automation(pid):
        view["legal_moves"] = [{"direction": d, "to_cell": t, "location": state["grid"][t]}
                               for d, t in legal_steps(state, catalog, pid)]
    if state["phase"] == "placement":
        view["empty_cells"] = empty_locations(state)
    if is_market(state):
        view["market"] = [card_view(catalog.expedition(c), catalog) for c in state["market"]]
        view["draw_pile"] = len(state["draw_pile"])
    if is_solo(state):
        view["round"] = state["round"]
        view["rounds"] = catalog.solo_rounds
    if state["result"] is not None:
        result = state["result"]
        said = summary_words(state, result["scores"], result["winners"], result["reason"], catalog)
        view["result"] = {
            "reason": result["reason"], "scores": result["scores"], "winners": list(result["winners"]),
            "summary": said("en"), "summary_words": as_json(said),
        }
        if is_solo(state):
            view["result"]["player_won"] = "p0" in result["winners"]
    if viewer is not None and 0 <= viewer < len(state["players"]):
        mine = marked_cells(state, f"p{viewer}")
        if is_market(state):
            view["market_progress"] = [_progress_view(catalog.expedition(c), catalog, mine, state["grid"])
                                       for c in state["market"]]
        else:
            view["hand"] = [_progress_view(catalog.expedition(c), catalog, mine, state["grid"])
                            for c in participant(state, f"p{viewer}")["hand"]]
    return view


def _is_setup_note(sentence: object) -> bool:
    """The note on a fresh grid is the header's, not a move for the log."""
    return isinstance(sentence, Text) and sentence.message_id == "expedition.board.shuffled"
