"""Expedition card conditions: whether a player's markers meet them, how close they are, and the printed text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.the_expedition.catalog import Catalog, Expedition, Requirement
from bot.games.the_expedition.grid import GROUPS, LINES, largest_group

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_GROUP_NOUNS = {"corners": ("corner", "corners"), "edges": ("edge cell", "edge cells"), "center": ("center", "center")}
_LINE_NOUNS = {"rows": "row", "columns": "column", "diagonals": "diagonal"}


def _word(number: int) -> str:
    return _WORDS[number] if 0 <= number < len(_WORDS) else str(number)


@dataclass(frozen=True)
class Progress:
    """How far one requirement is met: `have` of `need`, described in words ("2 of 3 corners")."""

    have: int
    need: int
    text: str

    @property
    def met(self) -> bool:
        return self.have >= self.need


def _names(catalog: Catalog, ids: Sequence[str]) -> list[str]:
    return [catalog.location(i).name for i in ids]


def _join(words: Sequence[str], last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def requirement_text(requirement: Requirement, catalog: Catalog) -> str:
    """The requirement as printed on a card, e.g. "markers in three corners"."""
    kind = requirement.type
    count = requirement.count
    if kind == "cells":
        if requirement.group == "center":
            return "a marker on the center"
        one, many = _GROUP_NOUNS[requirement.group]
        if count == 1:
            return f"a marker on an {one}" if one[0] in "aeiou" else f"a marker on a {one}"
        if count == len(GROUPS[requirement.group]):
            return f"markers on all {_word(count)} {many}"
        return f"markers {'in' if requirement.group == 'corners' else 'on'} {_word(count)} {many}"
    if kind == "connected":
        return f"{_word(count)} markers adjacent (one connected group)"
    if kind == "line":
        nouns = [_LINE_NOUNS[line] for line in requirement.lines]
        return f"a full {_join(nouns, 'or')} of markers"
    if kind == "cover":
        return f"a marker in every {_LINE_NOUNS[requirement.lines[0]]}"
    if kind == "locations":
        names = _names(catalog, requirement.ids)
        if count == len(names):
            return f"markers on {_join(names)}" if count > 1 else f"a marker on {names[0]}"
        return f"markers on {_word(count)} of {_join(names, 'or')}"
    if kind == "kind":
        noun = requirement.kind if count == 1 else f"{requirement.kind}s"
        return f"markers on {_word(count)} {noun}" if count > 1 else f"a marker on a {noun}"
    if kind == "markers":
        return f"{_word(count)} markers on the grid"
    return f"marked locations worth {count}+ points"


def card_text(card: Expedition, catalog: Catalog) -> str:
    """The whole condition of a card in one sentence: "Markers in three corners."."""
    text = " and ".join(requirement_text(r, catalog) for r in card.requirements)
    return text[0].upper() + text[1:] + "."


def requirement_progress(requirement: Requirement, mine: set[int], grid: Sequence[str],
                         catalog: Catalog) -> Progress:
    """How close markers on the cells `mine` (locations laid out as `grid`) are to meeting `requirement`."""
    kind = requirement.type
    if kind == "cells":
        have = len(mine & set(GROUPS[requirement.group]))
        one, many = _GROUP_NOUNS[requirement.group]
        noun = many if requirement.count > 1 else one
        return Progress(have, requirement.count, f"{have} of {requirement.count} {noun}")
    if kind == "connected":
        have = largest_group(mine)
        return Progress(have, requirement.count, f"largest connected group {have} of {requirement.count}")
    if kind == "line":
        lines = [line for name in requirement.lines for line in LINES[name]]
        have = max(len(mine & set(line)) for line in lines)
        nouns = _join([_LINE_NOUNS[name] for name in requirement.lines], "or")
        return Progress(have, 3, f"best {nouns}: {have} of 3")
    if kind == "cover":
        lines = LINES[requirement.lines[0]]
        have = sum(1 for line in lines if mine & set(line))
        return Progress(have, 3, f"{have} of 3 {requirement.lines[0]}")
    held = {grid[cell] for cell in mine}
    if kind == "locations":
        got = [catalog.location(i).name for i in requirement.ids if i in held]
        missing = [catalog.location(i).name for i in requirement.ids if i not in held]
        have = len(got)
        detail = f"have {_join(got)}" if got else "none yet"
        if missing and have < requirement.count:
            detail += f"; missing {_join(missing, 'or' if requirement.count < len(requirement.ids) else 'and')}"
        return Progress(have, requirement.count, f"{have} of {requirement.count} ({detail})")
    if kind == "kind":
        have = sum(1 for i in held if catalog.location(i).kind == requirement.kind)
        return Progress(have, requirement.count, f"{have} of {requirement.count} {requirement.kind}s")
    if kind == "markers":
        have = len(mine)
        return Progress(have, requirement.count, f"{have} of {requirement.count} markers")
    have = sum(catalog.location(i).points for i in held)
    return Progress(have, requirement.count, f"{have} of {requirement.count} points")


def card_progress(card: Expedition, mine: set[int], grid: Sequence[str], catalog: Catalog) -> list[Progress]:
    return [requirement_progress(r, mine, grid, catalog) for r in card.requirements]


def card_met(card: Expedition, mine: set[int], grid: Sequence[str], catalog: Catalog) -> bool:
    return all(p.met for p in card_progress(card, mine, grid, catalog))


def closeness(progress: Sequence[Progress]) -> float:
    """0..1: the share of the condition already met (each requirement weighs the same)."""
    return sum(min(p.have, p.need) / p.need for p in progress) / len(progress)
