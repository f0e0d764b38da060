"""What both of The Expedition's boards share: the view worded in the table's language, the players' drawing
styles, their ranking at the end, and the words for points, directions and lists of names."""

from __future__ import annotations

from typing import Any

from bot.games.the_expedition.rules.view_types import ExpeditionView
from rendering import kit
from rendering.kit import AUTOMATON_STYLES, PlayerStyle, player_style
from rendering.wording import translate, translate_plural

View = dict[str, Any]

ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→",
          "up-left": "↖", "up-right": "↗", "down-left": "↙", "down-right": "↘"}
GOOD_TEXT = kit.GOOD_TEXT  # a lighter bluish green: the palette's #009E73 is too dark for text on the tiles
DIRECTION_WORDS = {"up": "choice.up", "down": "choice.down", "left": "choice.left", "right": "choice.right",
                   "up-left": "choice.up-left", "up-right": "choice.up-right", "down-left": "choice.down-left",
                   "down-right": "choice.down-right"}


def pts(count: int, language: str = "en") -> str:
    """ "1 pt", "3 pts" / "1 Pkt.", "3 Pkt."."""
    return translate_plural("expedition.pts", count, language)


def lang(view: ExpeditionView) -> str:
    """The table's language (the service sets it; English when absent)."""
    return str(view.get("language") or "en")


def worded(value: Any, language: str) -> Any:
    """Message JSON from the view (see bot/games/the_expedition/rules/words.py) in `language`: {"message": id,
    "values": ...} translated, {"en": ..., "de": ...} picked; anything else as it is (numbers stay numbers)."""
    if isinstance(value, dict):
        if "message" in value:
            values = {name: worded(item, language) for name, item in value.get("values", {}).items()}
            text = translate(value["message"], language, **values)
            return text[:1].upper() + text[1:] if value.get("capitalized") else text
        if "en" in value:
            return value.get(language) or value["en"]
    return value


MODE_TITLES = {"standard": "expedition.mode.standard", "abstract": "expedition.mode.abstract",
               "solo": "expedition.mode.solo", "solo-hard": "expedition.mode.solo-hard"}


def _card_in(card: View, language: str) -> View:
    card = dict(card)
    if "names" in card:
        card["name"] = worded(card["names"], language)
    if "words" in card:
        card["text"] = worded(card["words"], language)
    if "progress" in card:
        card["progress"] = [{**p, "text": worded(p["words"], language)} if "words" in p else p
                            for p in card["progress"]]
    return card


def in_words(view: ExpeditionView) -> ExpeditionView:
    """The view with every text the game put into it worded in the table's language (its names, conditions,
    sentences, rules), so the drawing below reads plain strings. The English view is returned as it is."""
    language = lang(view)
    words = view.get("words")
    if language == "en" or not isinstance(words, dict):
        return view
    shown = view.copy()
    shown["turn"] = worded(words["turn"], language)
    # The service may put its own story in "last_move" (already in the table's language): keep that one.
    if view.get("last_move") == worded(words["last_move"], "en"):
        shown["last_move"] = worded(words["last_move"], language)
    shown["log"] = [worded(sentence, language) for sentence in words.get("log", [])]
    shown["mode_title"] = translate(MODE_TITLES.get(view["mode"], "expedition.mode.standard"), language)
    shown["grid"] = [{**cell, "location": {**cell["location"], "name": worded(cell["location"]["names"], language),
                                           "rule": worded(cell["location"]["rule_words"], language)}}
                     for cell in view["grid"]]
    participants = []
    for entry in view["participants"]:
        entry = dict(entry)
        if entry["kind"] == "automation":
            entry["name"] = translate("expedition.automation.name", language, number=entry["number"])
            entry["card"] = {**entry["card"], "name": worded(entry["card"]["names"], language)}
        for key in ("scored", "unscored"):
            if key in entry:
                entry[key] = [_card_in(card, language) for card in entry[key]]
        participants.append(entry)
    shown["participants"] = participants
    if "market" in view:
        shown["market"] = [_card_in(card, language) for card in view["market"]]
    if "market_progress" in view:
        shown["market_progress"] = [_card_in(card, language) for card in view["market_progress"]]
    if "hand" in view:
        shown["hand"] = [_card_in(card, language) for card in view["hand"]]
    if "result" in view:
        shown["result"] = {**view["result"], "summary": worded(view["result"]["summary_words"], language)}
    return shown


def style_of(view: ExpeditionView, pid: str | None) -> PlayerStyle | None:
    """The drawing style of a participant: seat styles for players, the Automaton styles for Automations."""
    if pid is None:
        return None
    for entry in view["participants"]:
        if entry["id"] == pid:
            if entry["kind"] == "automation":
                return AUTOMATON_STYLES[(entry["number"] - 1) % len(AUTOMATON_STYLES)]
            return player_style(entry["seat"])
    return None


def ranked(view: ExpeditionView) -> list[tuple[int, View]]:
    """The participants with their places: at the end best first (the winners, then by points, markers on the grid
    and expedition points, the rulebook's tie-breaks), each with its place (tied on all three share one); before the
    end in seat order, with place 0."""
    entries = list(view["participants"])
    if not view["over"] or len(entries) < 2:
        return [(0, entry) for entry in entries]
    winners = set(view.get("result", {}).get("winners", []))

    def key(entry: View) -> tuple[bool, int, int, int]:  # the rulebook's order: points, markers, expedition points
        score = entry["score"]
        return (entry["id"] not in winners, -int(score["total"]), -int(score.get("markers", 0)),
                -int(score.get("expeditions", 0)))

    entries.sort(key=key)
    return [(1 + sum(1 for other in entries if key(other) < key(entry)), entry) for entry in entries]


def and_listed(view: ExpeditionView, names: list[str]) -> str:
    """ "A and B" / "A und B"."""
    if len(names) < 2:
        return "".join(names)
    return translate("expedition.list.and", lang(view), head=", ".join(names[:-1]), last=names[-1])

