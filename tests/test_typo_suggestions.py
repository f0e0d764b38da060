"""A typed card or location name with a typo is refused with the name it most likely meant (issue 22)."""

from __future__ import annotations

import pytest

from bot.core.errors import MalformedAction
from bot.core.names import closest, did_you_mean
from bot.core.rng import Rng
from bot.games.expeditions import GAME as EXPEDITIONS
from bot.games.monster_expedition import GAME as MONSTER_EXPEDITION
from bot.games.monster_expedition.rules.catalog import TRADER_ID, catalog
from bot.games.the_expedition.rules import rules as expedition_rules
from bot.games.the_expedition.rules.rules import empty_locations
from tests.games.expeditions.helpers import fresh, give
from tests.games.monster_expedition.helpers import act, dice, hunt, set_display, standard
from tests.games.the_expedition.helpers import GAME as THE_EXPEDITION

EXPEDITION_CATALOG = THE_EXPEDITION.catalog


def typo(name: str) -> str:
    """The name with two letters in its middle swapped, as a hurried player types it (no prefix of it survives)."""
    middle = len(name) // 2
    return name[: middle - 1] + name[middle] + name[middle - 1] + name[middle + 1:]


def test_the_closest_name_is_offered_only_when_it_is_close() -> None:
    assert closest("Clokwork Owl", ["Lantern", "Clockwork Owl"]) == "Clockwork Owl"
    assert closest("FEDERLNG", ["Federling", "Vertikalwespe"]) == "Federling"
    assert closest("zebra", ["Lantern", "Clockwork Owl"]) is None
    assert did_you_mean("zebra", ["Lantern"]) == ""
    assert did_you_mean("Lanten", ["Lantern"]) == " Did you mean Lantern?"


def test_the_expedition_suggests_the_location_meant() -> None:
    state = THE_EXPEDITION.setup("standard", ["Alice", "Bob"], Rng(3, 0), {})
    seat = THE_EXPEDITION.to_act(state)[0]
    name = max((EXPEDITION_CATALOG.location(state["grid"][c]).name for c in empty_locations(state)), key=len)
    with pytest.raises(MalformedAction) as refused:
        THE_EXPEDITION.apply(state, seat, {"type": "place", "location": typo(name)}, expedition_rules.Rng(0, 1))
    assert f"There is no location called '{typo(name)}'. Did you mean {name}? The locations are: " in str(refused.value)


def test_monster_expedition_suggests_the_monster_meant() -> None:
    state = standard()
    cards = [slot["card"] for slot in state["display"] if slot["card"] != TRADER_ID]
    set_display(state, cards)
    state, _ = hunt(state, "aerie", [("camp", dice(10, 1, 1, region="aerie")), ("bank", 10)])
    state, _ = act(state, {"type": "stop"})
    name = max((catalog().card(card).name for card in cards), key=len)
    with pytest.raises(MalformedAction) as refused:
        MONSTER_EXPEDITION.apply(state, state["active"], {"type": "capture", "card": typo(name)}, Rng(0, 1))
    assert f"There is no '{typo(name)}' in the wilderness display. Did you mean {name}? The display: " in str(
        refused.value)


def test_expeditions_suggests_the_card_meant_and_lists_the_hand() -> None:
    state = fresh()
    card = next(c for c, data in EXPEDITIONS.comp.cards.items() if len(data.name) >= 8 and c.startswith("it-"))
    give(state, 0, card)
    name = EXPEDITIONS.comp.cards[card].name
    with pytest.raises(MalformedAction) as refused:
        EXPEDITIONS.apply(state, 0, {"type": "play", "card": typo(name)}, Rng(3, 1))
    message = str(refused.value)
    assert f"There is no card '{typo(name)}' in your hand. Did you mean {name}? Your hand: " in message
    assert name in message.split("Your hand: ", 1)[1]
