"""The choice in front of the player to move, in plain words, for a teaching table's board (issue 33): how a turn
starts (the action to cover, or refresh), the actions still to take, and each kind of waiting decision, with what
a way out gives up. Expeditions keeps hands open, but the sentence names no card: it explains, the board lists."""

from __future__ import annotations

from bot.core.protocol import JSON, Offered
from bot.games.expeditions.rules import views
from bot.games.expeditions.rules.data import Components
from bot.games.expeditions.rules.engine import ACTIONS, REAL_OPTION_EXEMPT, pending_options
from bot.i18n import counted, deferred, join_and, translate

DECISIONS = {
    "play_steps": deferred("choice.expeditions.play_steps"),
    "or": deferred("choice.expeditions.or"),
    "worker_colour": deferred("choice.expeditions.worker_colour"),
    "take_card": deferred("choice.expeditions.take_card"),
    "card_destination": deferred("choice.expeditions.card_destination"),
    "sweep": deferred("choice.expeditions.sweep"),
    "rescue": deferred("choice.expeditions.rescue"),
    "discard": deferred("choice.expeditions.discard"),
    "trash": deferred("choice.expeditions.trash"),
    "play": deferred("choice.expeditions.play"),
    "activate_adjacent": deferred("choice.expeditions.activate_adjacent"),
    "location_benefit": deferred("choice.expeditions.location_benefit"),
    "solve": deferred("choice.expeditions.solve"),
    "vanquish": deferred("choice.expeditions.vanquish"),
    "upgrade": deferred("choice.expeditions.upgrade"),
    "meld": deferred("choice.expeditions.meld"),
    "boast": deferred("choice.expeditions.boast"),
}
"""Each kind of waiting decision: who decides what, and what it means ("Ada chooses a face-up card to gain: …")."""
WAYS_OUT = {"skip": deferred("choice.expeditions.out.skip"), "stop": deferred("choice.expeditions.out.stop"),
            "done": deferred("choice.expeditions.out.done")}
"""What a way out of a waiting decision gives up, by its option id."""
ACTION_MEANINGS = {"move": deferred("choice.expeditions.action.move"),
                   "play": deferred("choice.expeditions.action.play"),
                   "gather": deferred("choice.expeditions.action.gather")}


def choice_text(comp: Components, state: JSON, seat: int, offered: Offered, language: str = "en") -> str:
    """The sentence for `seat`'s board ("" when the seat is not to move or the board offers nothing)."""
    if state["over"] or seat != state["turn"]["seat"] or not offered.options:
        return ""
    who = views.name(state, seat)
    turn = state["turn"]
    if turn["pending"]:
        parts = _decision(comp, state, who, turn["pending"], language)
    elif turn["phase"] == "start":
        parts = _start(state, seat, who, language)
    else:
        parts = _actions(comp, state, seat, who, offered, language)
    if any(option.action.get("type") == "odin" for option in offered.buttons):
        parts.append(translate("choice.expeditions.odin", language))
    return " ".join(parts)


def _start(state: JSON, seat: int, who: str, language: str) -> list[str]:
    """The start of a turn: the action token covers one action (not the one it covered last turn), or refresh."""
    player = state["players"][seat]
    token = player["token"]
    if token not in ACTIONS:  # right after a turn of all three actions: any action, no refresh
        return [translate("choice.expeditions.cover_any", language, who=who)]
    parts = [translate("choice.expeditions.cover", language, who=who, last=views.action_name(token, language))]
    active = len(player["active"])
    refresh = translate("expeditions.button.refresh", language)
    parts.append(translate("choice.expeditions.refresh", language, refresh=refresh,
                           cards=counted("card", active, language)) if active
                 else translate("choice.expeditions.refresh_empty", language, refresh=refresh))
    return parts


def _actions(comp: Components, state: JSON, seat: int, who: str, offered: Offered, language: str) -> list[str]:
    """The actions still to take this turn, each in a few words, and the offers marked as gaining nothing."""
    remaining = list(state["turn"]["remaining"])
    player = state["players"][seat]
    meanings = [translate(ACTION_MEANINGS[action], language,
                          reach=len(views.legal_destinations(comp, state, seat, language)),
                          hand=len(player["hand"])) for action in remaining]
    words = join_and([views.action_word(action, language) for action in remaining], language)
    message = (deferred("choice.expeditions.last_action") if len(remaining) == 1
               else deferred("choice.expeditions.actions"))
    parts = [translate(message, language, who=who, actions=words, meanings="; ".join(meanings))]
    nothing = translate("expeditions.offer.nothing", language)
    if any(nothing in (option.description or "") for option in offered.options):
        parts.append(translate("choice.expeditions.gains_nothing", language, nothing=nothing))
    return parts


def _decision(comp: Components, state: JSON, who: str, pending: JSON, language: str) -> list[str]:
    """A waiting decision: what it asks, what it means, and what its way out gives up."""
    parts = [translate(DECISIONS[pending["kind"]], language, who=who)]
    ids = {option["id"] for option in pending_options(comp, state, pending, language)}
    parts += [translate(WAYS_OUT[way], language, option=_out_label(comp, state, pending, way, language))
              for way in REAL_OPTION_EXEMPT if way in ids]
    return parts


def _out_label(comp: Components, state: JSON, pending: JSON, way: str, language: str) -> str:
    """The label the board gives a way out ("Skip", "Stop vanquishing", "Done with this card")."""
    return next(option["label"] for option in pending_options(comp, state, pending, language) if option["id"] == way)
