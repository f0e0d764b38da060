"""Expedition card conditions: whether a player's markers meet them, how close they are, and the printed text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.the_expedition.rules.catalog import Catalog, Expedition, Requirement
from bot.games.the_expedition.rules.grid import GROUPS, LINES, largest_group
from bot.games.the_expedition.rules.words import Capitalized, Words, listed, worded
from bot.i18n import Text, deferred, deferred_plural

NUMBER_WORDS = (deferred("expedition.number.0"), deferred("expedition.number.1"), deferred("expedition.number.2"),
                deferred("expedition.number.3"), deferred("expedition.number.4"), deferred("expedition.number.5"),
                deferred("expedition.number.6"), deferred("expedition.number.7"), deferred("expedition.number.8"),
                deferred("expedition.number.9"))
LINE_NOUNS = {"rows": deferred("expedition.line.row"), "columns": deferred("expedition.line.column"),
              "diagonals": deferred("expedition.line.diagonal")}
"""One line of the grid, as a card names it ("a full row or column" / "eine volle Reihe oder Spalte")."""


def _word(number: int) -> Words:
    """ "three" / "drei" (the digits from 10 on)."""
    return Text.of(NUMBER_WORDS[number]) if 0 <= number < len(NUMBER_WORDS) else str(number)


@dataclass(frozen=True)
class Progress:
    """How far one requirement is met: `have` of `need`, described in words ("2 of 3 corners")."""

    have: int
    need: int
    words: Words

    @property
    def met(self) -> bool:
        return self.have >= self.need

    @property
    def text(self) -> str:
        """In English (`words` in any language)."""
        return worded(self.words, "en")


def _names(catalog: Catalog, ids: Sequence[str]) -> list[Words]:
    return [catalog.location(i).names for i in ids]


def _lines(requirement: Requirement) -> Words:
    return listed([Text.of(LINE_NOUNS[line]) for line in requirement.lines], "or")


def requirement_words(requirement: Requirement, catalog: Catalog) -> Words:
    """The requirement as printed on a card, e.g. "markers in three corners"."""
    kind = requirement.type
    count = requirement.count
    if kind == "cells":
        group = requirement.group
        if group == "center":
            return Text.of("expedition.req.center")
        if group == "corners":
            if count == 1:
                return Text.of("expedition.req.corners.one")
            if count == len(GROUPS[group]):
                return Text.of("expedition.req.corners.all", number=_word(count))
            return Text.of("expedition.req.corners.some", number=_word(count))
        if count == 1:
            return Text.of("expedition.req.edges.one")
        if count == len(GROUPS[group]):
            return Text.of("expedition.req.edges.all", number=_word(count))
        return Text.of("expedition.req.edges.some", number=_word(count))
    if kind == "connected":
        return Text.of("expedition.req.connected", number=_word(count))
    if kind == "line":
        return Text.of("expedition.req.line", lines=_lines(requirement))
    if kind == "cover":
        if requirement.lines[0] == "rows":
            return Text.of("expedition.req.cover.rows")
        return Text.of("expedition.req.cover.columns")
    if kind == "locations":
        names = _names(catalog, requirement.ids)
        if count == len(names):
            if count > 1:
                return Text.of("expedition.req.locations.all", names=listed(names))
            return Text.of("expedition.req.locations.one", name=names[0])
        return Text.of("expedition.req.locations.some", number=_word(count), names=listed(names, "or"))
    if kind == "kind":
        if requirement.kind == "moon":
            if count == 1:
                return Text.of("expedition.req.moons.one")
            return Text.of("expedition.req.moons.some", number=_word(count))
        if count == 1:
            return Text.of("expedition.req.planets.one")
        return Text.of("expedition.req.planets.some", number=_word(count))
    if kind == "markers":
        return Text.of("expedition.req.markers", number=_word(count))
    return Text.of("expedition.req.value", count=count)


def requirement_text(requirement: Requirement, catalog: Catalog, language: str = "en") -> str:
    return worded(requirement_words(requirement, catalog), language)


def card_words_in(card: Expedition, catalog: Catalog) -> Text:
    parts = [requirement_words(r, catalog) for r in card.requirements]
    condition: Words = parts[0]
    for part in parts[1:]:
        condition = Text.of("expedition.req.and", first=condition, second=part)
    return Capitalized.of("expedition.card.condition", condition=condition)


def card_text(card: Expedition, catalog: Catalog, language: str = "en") -> str:
    """The whole condition of a card in one sentence: "Markers in three corners."."""
    return card_words_in(card, catalog)(language)


def requirement_progress(requirement: Requirement, mine: set[int], grid: Sequence[str],
                         catalog: Catalog) -> Progress:
    """How close markers on the cells `mine` (locations laid out as `grid`) are to meeting `requirement`."""
    kind = requirement.type
    need = requirement.count
    if kind == "cells":
        have = len(mine & set(GROUPS[requirement.group]))
        if requirement.group == "corners":
            return Progress(have, need, Text.of(deferred_plural("expedition.progress.corners"), have=have, count=need))
        if requirement.group == "edges":
            return Progress(have, need, Text.of(deferred_plural("expedition.progress.edges"), have=have, count=need))
        return Progress(have, need, Text.of("expedition.progress.center", have=have, count=need))
    if kind == "connected":
        have = largest_group(mine)
        return Progress(have, need, Text.of("expedition.progress.connected", have=have, count=need))
    if kind == "line":
        lines = [line for name in requirement.lines for line in LINES[name]]
        have = max(len(mine & set(line)) for line in lines)
        return Progress(have, 3, Text.of("expedition.progress.line", lines=_lines(requirement), have=have, count=3))
    if kind == "cover":
        covered = LINES[requirement.lines[0]]
        have = sum(1 for line in covered if mine & set(line))
        if requirement.lines[0] == "rows":
            return Progress(have, 3, Text.of("expedition.progress.cover.rows", have=have, count=3))
        return Progress(have, 3, Text.of("expedition.progress.cover.columns", have=have, count=3))
    held = {grid[cell] for cell in mine}
    if kind == "locations":
        got = [catalog.location(i).names for i in requirement.ids if i in held]
        missing = [catalog.location(i).names for i in requirement.ids if i not in held]
        have = len(got)
        detail: Words = Text.of("expedition.progress.have", names=listed(got)) if got else Text.of(
            "expedition.progress.none_yet")
        if missing and have < need:
            missing_words = listed(missing, "or" if need < len(requirement.ids) else "and")
            detail = Text.of("expedition.progress.missing", detail=detail, names=missing_words)
        return Progress(have, need, Text.of("expedition.progress.locations", have=have, count=need, detail=detail))
    if kind == "kind":
        have = sum(1 for i in held if catalog.location(i).kind == requirement.kind)
        if requirement.kind == "moon":
            return Progress(have, need, Text.of("expedition.progress.moons", have=have, count=need))
        return Progress(have, need, Text.of("expedition.progress.planets", have=have, count=need))
    if kind == "markers":
        have = len(mine)
        return Progress(have, need, Text.of("expedition.progress.markers", have=have, count=need))
    have = sum(catalog.location(i).points for i in held)
    return Progress(have, need, Text.of("expedition.progress.value", have=have, count=need))


def card_progress(card: Expedition, mine: set[int], grid: Sequence[str], catalog: Catalog) -> list[Progress]:
    return [requirement_progress(r, mine, grid, catalog) for r in card.requirements]


def card_met(card: Expedition, mine: set[int], grid: Sequence[str], catalog: Catalog) -> bool:
    return all(p.met for p in card_progress(card, mine, grid, catalog))


def closeness(progress: Sequence[Progress]) -> float:
    """0..1: the share of the condition already met (each requirement weighs the same)."""
    return sum(min(p.have, p.need) / p.need for p in progress) / len(progress)
