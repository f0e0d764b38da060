"""The choice in front of the player to move, in plain words, for a teaching table's board (issue 33): where to
place the explorer, or which way to step and what leaving the location does here. Public only: the secret
expedition cards in the hands are never named."""

from __future__ import annotations

from bot.core.protocol import JSON, Offered, copy_state
from bot.games.the_expedition.rules.catalog import Catalog
from bot.games.the_expedition.rules.rules import (
    empty_locations,
    legal_steps,
    mark,
    markers_left,
    participant,
    to_act,
)
from bot.games.the_expedition.rules.text import name_of
from bot.games.the_expedition.rules.words import Words, listed, points, sentences
from bot.i18n import Text


def choice_words(state: JSON, catalog: Catalog, seat: int, offered: Offered) -> Words:
    """The sentence for `seat`'s board ("" when the seat is not to act or the board offers nothing)."""
    if seat not in to_act(state) or not offered.options:
        return ""
    pid = f"p{seat}"
    name = name_of(state, pid)
    if state["phase"] == "placement":
        return Text.of("choice.expedition.place", name=name, count=len(empty_locations(state)))
    explorer = participant(state, pid)
    cell = explorer["cell"]
    here = catalog.location(state["grid"][cell])
    left = markers_left(state, catalog, pid)
    placed, removed = mark(copy_state(state), catalog, cell, pid)  # what leaving does, on a copy
    parts: list[Words] = [Text.of("choice.expedition.move", name=name, count=len(legal_steps(state, catalog, pid)))]
    if placed:
        parts.append(Text.of("choice.expedition.marks", name=name, location=here.names, points=points(here.points),
                             left=left))
    else:
        parts.append(Text.of("choice.expedition.marked_already", name=name, location=here.names))
    if removed:
        parts.append(Text.of("choice.expedition.removes", names=listed([name_of(state, other) for other in removed])))
    if placed and left == 1:
        parts.append(Text.of("choice.expedition.last_marker"))
    if state["end"] is not None:
        parts.append(Text.of("choice.expedition.final_turn"))
    return sentences(parts)
