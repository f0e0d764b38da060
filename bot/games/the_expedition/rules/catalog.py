"""The Expedition's components (locations, expedition cards, Automation cards), loaded and validated from data/."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bot.core.datafiles import DataError, Fields, data_dir, load_toml
from bot.games.the_expedition.rules.grid import ORTHOGONAL, SIDES, cell_at
from bot.i18n import Localized, Text, deferred, deferred_plural

GAME_KEY = "the-expedition"

LOCATION_KINDS = ("planet", "moon")
CELL_GROUPS = ("corners", "edges", "center")
LINE_KINDS = ("rows", "columns", "diagonals")
COVER_KINDS = ("rows", "columns")
REQUIREMENT_TYPES = ("cells", "connected", "line", "cover", "locations", "kind", "markers", "value")


@dataclass(frozen=True)
class Location:
    """A planet or moon tile. `holds` is how many markers stay after marking (0 = all: never removed)."""

    id: str
    names: Localized
    kind: str
    points: int
    holds: int = 1
    no_entry_from: tuple[str, ...] = ()
    diagonal_exit: bool = False
    gravity: bool = False

    @property
    def name(self) -> str:
        """The English name (`names` has every language)."""
        return self.names.en

    @property
    def rule_text(self) -> str:
        """The rule as printed on the tile (English)."""
        return self.rule_text_in("en")

    @cache  # noqa: B019  (the nine locations live as long as the process)
    def rule_text_in(self, language: str) -> str:
        """The rule as printed on the tile in `language`, written from the fields so it always matches what the
        rules do."""
        rule = rule_words(self)
        return rule(language) if isinstance(rule, Text) else rule


@cache
def rule_words(location: Location) -> Text | str:
    """The tile's rule as a message tree (worded in the reader's language), "" for a location without one."""
    parts: list[Text] = []
    if location.holds == 0:
        parts.append(Text.of("location.rule.never_removed"))
    elif location.holds > 1:
        parts.append(Text.of(deferred_plural("location.rule.holds"), count=location.holds))
    if location.no_entry_from:
        parts.append(Text.of("location.rule.no_entry", sides=side_words(location.no_entry_from)))
    if location.diagonal_exit:
        parts.append(Text.of("location.rule.diagonal_exit"))
    if location.gravity:
        parts.append(Text.of("location.rule.gravity"))
    if not parts:
        return ""
    result = parts[-1]
    for part in reversed(parts[:-1]):
        result = Text.of("expedition.two_sentences", first=part, second=result)
    return result


def side_words(sides: tuple[str, ...] | list[str]) -> Text | str:
    """ "below or left" / "unten oder links"."""
    words = [Text.of(SIDE_MESSAGES[side]) for side in sides]
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    head: Text = words[0]
    for word in words[1:-1]:
        head = Text.of("expedition.list.comma", first=head, second=word)
    return Text.of("expedition.list.or", head=head, last=words[-1])


SIDE_MESSAGES = {"above": deferred("side.above"), "below": deferred("side.below"), "left": deferred("side.left"),
                 "right": deferred("side.right")}
"""The side an explorer may not enter from, as the tile's rule names it."""


@dataclass(frozen=True)
class Requirement:
    """One part of an expedition card's condition (see data/the-expedition/expeditions.toml for the vocabulary)."""

    type: str
    count: int = 0
    group: str = ""
    lines: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    kind: str = ""


@dataclass(frozen=True)
class Expedition:
    """An expedition card: all its requirements met at the end of the holder's turn scores its points."""

    id: str
    names: Localized
    points: int
    requirements: tuple[Requirement, ...]

    @property
    def name(self) -> str:
        return self.names.en


@dataclass(frozen=True)
class AutomationCard:
    """A solo opponent's card: a start cell S and the fixed path of moves it follows, one per turn."""

    id: str
    names: Localized
    start: int
    path: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.names.en


@dataclass(frozen=True)
class Catalog:
    """Every component of the game plus the rulebook's numbers."""

    locations: tuple[Location, ...]
    expeditions: tuple[Expedition, ...]
    automations: tuple[AutomationCard, ...]
    markers_per_player: int = 6
    hand_size: int = 3
    expeditions_to_end: int = 2
    solo_rounds: int = 9
    solo_automations: int = 2
    market_extra: int = 1

    _location_by_id: dict[str, Location] = field(init=False, repr=False, compare=False)
    _expedition_by_id: dict[str, Expedition] = field(init=False, repr=False, compare=False)
    _automation_by_id: dict[str, AutomationCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen, so the lookups are built once here; object.__setattr__ is the dataclass way to do that.
        object.__setattr__(self, "_location_by_id", {item.id: item for item in self.locations})
        object.__setattr__(self, "_expedition_by_id", {item.id: item for item in self.expeditions})
        object.__setattr__(self, "_automation_by_id", {item.id: item for item in self.automations})

    def location(self, location_id: str) -> Location:
        return self._location_by_id[location_id]

    def expedition(self, card_id: str) -> Expedition:
        return self._expedition_by_id[card_id]

    def automation(self, card_id: str) -> AutomationCard:
        return self._automation_by_id[card_id]


def _table_list(file: Path, document: dict[str, Any], name: str) -> list[dict[str, Any]]:
    tables = document.get(name)
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise DataError(file, f"needs a list of [[{name}]] tables")
    return tables


def _item_name(table: dict[str, Any], index: int, kind: str) -> str:
    ident = table.get("id")
    return f"{kind} {ident!r}" if isinstance(ident, str) else f"{kind} #{index + 1}"


def _unique_ids(file: Path, items: list[Any], kind: str) -> None:
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise DataError(file, "is used by two items", f"{kind} {item.id!r}", "id")
        seen.add(item.id)


def parse_locations(file: Path, document: dict[str, Any]) -> tuple[Location, ...]:
    locations: list[Location] = []
    for index, table in enumerate(_table_list(file, document, "location")):
        item = _item_name(table, index, "location")
        fields = Fields(file, item, table)
        holds_raw = fields.raw("holds", 1)
        if holds_raw == "all":
            holds = 0
        elif isinstance(holds_raw, int) and not isinstance(holds_raw, bool) and 1 <= holds_raw <= 6:
            holds = holds_raw
        else:
            raise DataError(file, f'must be a whole number 1-6 or "all" (got {holds_raw!r})', item, "holds")
        sides = fields.texts("no_entry_from", [])
        for side in sides:
            if side not in SIDES:
                raise DataError(file, f"sides must be {', '.join(SIDES)} (got {side!r})", item, "no_entry_from")
        if len(set(sides)) >= len(SIDES):
            raise DataError(file, "a location must be enterable from at least one side", item, "no_entry_from")
        locations.append(Location(
            id=fields.text("id"), names=fields.localized("name"), kind=fields.text("kind", choices=LOCATION_KINDS),
            points=fields.integer("points", low=1, high=3), holds=holds, no_entry_from=tuple(sides),
            diagonal_exit=fields.boolean("diagonal_exit", False), gravity=fields.boolean("gravity", False)))
        fields.no_unknown_fields()
    if len(locations) != 9:
        raise DataError(file, f"the grid needs exactly 9 locations (found {len(locations)})")
    _unique_ids(file, locations, "location")
    return tuple(locations)


def _parse_requirement(file: Path, item: str, table: Any, position: int,
                       location_ids: set[str]) -> Requirement:
    where = f"require[{position}]"
    if not isinstance(table, dict):
        raise DataError(file, f"must be a table like {{ type = \"cells\", ... }} (got {table!r})", item, where)
    fields = Fields(file, f"{item}, {where}", table)
    kind = fields.text("type", choices=REQUIREMENT_TYPES)
    requirement: Requirement
    if kind == "cells":
        group = fields.text("group", choices=CELL_GROUPS)
        size = 1 if group == "center" else 4
        requirement = Requirement(kind, count=fields.integer("count", low=1, high=size), group=group)
    elif kind == "connected":
        requirement = Requirement(kind, count=fields.integer("count", low=2, high=9))
    elif kind == "line":
        lines = fields.texts("lines")
        if not lines or any(line not in LINE_KINDS for line in lines):
            raise DataError(file, f"must list some of {', '.join(LINE_KINDS)} (got {lines!r})", fields.item,
                            "lines")
        requirement = Requirement(kind, lines=tuple(lines))
    elif kind == "cover":
        requirement = Requirement(kind, lines=(fields.text("lines", choices=COVER_KINDS),))
    elif kind == "locations":
        ids = fields.texts("ids")
        unknown = [i for i in ids if i not in location_ids]
        if not ids or unknown:
            raise DataError(file, f"names no known location ({', '.join(unknown) or 'empty list'})", fields.item,
                            "ids")
        requirement = Requirement(kind, ids=tuple(ids), count=fields.integer("count", len(ids), low=1, high=len(ids)))
    elif kind == "kind":
        requirement = Requirement(kind, kind=fields.text("kind", choices=LOCATION_KINDS),
                                  count=fields.integer("count", low=1, high=9))
    elif kind == "markers":
        requirement = Requirement(kind, count=fields.integer("count", low=1, high=9))
    else:  # value
        requirement = Requirement(kind, count=fields.integer("total", low=1, high=27))
    fields.no_unknown_fields()
    return requirement


def parse_expeditions(file: Path, document: dict[str, Any], locations: tuple[Location, ...]) -> tuple[Expedition, ...]:
    location_ids = {location.id for location in locations}
    cards: list[Expedition] = []
    for index, table in enumerate(_table_list(file, document, "expedition")):
        item = _item_name(table, index, "expedition")
        fields = Fields(file, item, table)
        raw = fields.raw("require", required=True)
        if not isinstance(raw, list) or not raw:
            raise DataError(file, "must be a non-empty list of requirement tables", item, "require")
        requirements = tuple(_parse_requirement(file, item, entry, i, location_ids) for i, entry in enumerate(raw))
        cards.append(Expedition(id=fields.text("id"), names=fields.localized("name"),
                                points=fields.integer("points", low=2, high=4), requirements=requirements))
        fields.no_unknown_fields()
    _unique_ids(file, cards, "expedition")
    return tuple(cards)


def parse_automations(file: Path, document: dict[str, Any]) -> tuple[AutomationCard, ...]:
    cards: list[AutomationCard] = []
    for index, table in enumerate(_table_list(file, document, "automation")):
        item = _item_name(table, index, "automation")
        fields = Fields(file, item, table)
        start = fields.integers("start")
        if len(start) != 2 or not all(1 <= n <= 3 for n in start):
            raise DataError(file, f"must be [row, column], each 1-3 (got {start!r})", item, "start")
        path = fields.texts("path")
        bad = [move for move in path if move not in ORTHOGONAL]
        if not path or bad:
            raise DataError(file, f"must list moves among {', '.join(ORTHOGONAL)} (got {bad or path!r})", item,
                            "path")
        cards.append(AutomationCard(id=fields.text("id"), names=fields.localized("name"),
                                    start=cell_at(start[0] - 1, start[1] - 1), path=tuple(path)))
        fields.no_unknown_fields()
    _unique_ids(file, cards, "automation")
    return tuple(cards)


def load_catalog_from(folder: Path) -> Catalog:
    """Read and validate every file in `folder`; a mistake raises DataError naming file, item and field."""
    game_file = folder / "game.toml"
    numbers = Fields(game_file, "game", load_toml(game_file))
    settings = {
        "markers_per_player": numbers.integer("markers_per_player", low=1, high=9),
        "hand_size": numbers.integer("hand_size", low=1, high=3),
        "expeditions_to_end": numbers.integer("expeditions_to_end", low=1, high=9),
        "solo_rounds": numbers.integer("solo_rounds", low=1, high=50),
        "solo_automations": numbers.integer("solo_automations", low=1, high=2),
        "market_extra": numbers.integer("market_extra", low=0, high=5),
    }
    numbers.no_unknown_fields()
    locations_file = folder / "locations.toml"
    locations = parse_locations(locations_file, load_toml(locations_file))
    expeditions_file = folder / "expeditions.toml"
    expeditions = parse_expeditions(expeditions_file, load_toml(expeditions_file), locations)
    if len(expeditions) < 3 * settings["hand_size"]:
        raise DataError(expeditions_file, f"three players need {3 * settings['hand_size']} expedition cards "
                                          f"(found {len(expeditions)})")
    automations_file = folder / "automations.toml"
    automations = parse_automations(automations_file, load_toml(automations_file))
    if len(automations) < settings["solo_automations"]:
        raise DataError(automations_file, f"solo mode reveals {settings['solo_automations']} Automation cards "
                                          f"(found {len(automations)})")
    return Catalog(locations=locations, expeditions=expeditions, automations=automations, **settings)


@cache
def load_catalog() -> Catalog:
    """The shipped components, loaded once per process."""
    return load_catalog_from(data_dir(GAME_KEY))

