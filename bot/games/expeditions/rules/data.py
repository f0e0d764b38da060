"""Loading and validating Expeditions' component files (data/expeditions/*.toml) into frozen objects.

Card and location effects are normalised here into one JSON vocabulary (`{"do": verb, ...}`) that the engine
interprets, so a physical-game owner can change any card by editing TOML, and a mistake is reported with the file,
the card and the field.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.core.datafiles import DataError, Fields, data_dir, load_toml
from bot.i18n import Localized

Effect = dict[str, Any]
"""One normalised effect, e.g. {"do": "gain", "what": "power", "n": 2}."""

GAIN_KEYS = ("power", "guile", "coins", "map_token")
PER_KEYS = ("star", "meld", "quest", "upgrade", "corruption")
CONDITION_KEYS = ("stars", "melds", "quests")
COST_KEYS = ("power", "guile", "coins", "map_token", "discard", "trash")
FLAG_VERBS = ("sweep", "refresh", "location_benefit", "solve", "vanquish", "upgrade", "meld", "boast", "purge")
COUNT_VERBS = ("rescue", "discard", "trash", "play")
TRIGGERS = ("play", "gather", "reveal", "vanquish", "solve", "upgrade", "meld", "boast", "gain_card")
STATIC_ONGOING = ("move_range", "vanquish_discount", "quest_discount")
CARD_KINDS = ("item", "meteorite", "quest")
REGIONS = {"S": "south", "C": "central", "N": "north"}
MEASURES = ("quests", "melds", "upgrades", "token20", "corruption", "cards", "workers_or_maps")
MECH_ABILITIES = ("tatanka", "marsh_strider", "odins_wrath", "lumberjack", "highlander")


@dataclass(frozen=True)
class Space:
    """One hex of the basecamp board: a location space of a region, or a face-up card space."""

    code: str
    kind: str  # north, central, south or cards
    row: int
    col: int


@dataclass(frozen=True)
class Location:
    number: int
    region: str  # S, C or N (a key: its letter in words is text.location_label's, "7 C" / "7 M")
    names: Localized
    corruption: int  # the value revealed corruption must reach (0 for South tiles)
    gather: tuple[Effect, ...]
    cleared: tuple[Effect, ...]  # exposed once the corruption is gone (empty for South tiles)

    @property
    def name(self) -> str:
        """The English name (`names` has every language)."""
        return self.names.en


@dataclass(frozen=True)
class Quest:
    location: int
    cost: dict[str, int]
    reward: tuple[Effect, ...]


@dataclass(frozen=True)
class Card:
    id: str
    names: Localized
    kind: str  # character, companion, item, meteorite or quest
    colour: str
    core: tuple[Effect, ...]
    ability: tuple[Effect, ...]
    requires: dict[str, int]
    coins: int = 0
    ongoing: dict[str, Any] | None = None
    meld: tuple[Effect, ...] = ()
    quest: Quest | None = None
    companion: str | None = None

    @property
    def name(self) -> str:
        """The English name (`names` has every language)."""
        return self.names.en


@dataclass(frozen=True)
class Mech:
    key: str
    names: Localized
    ability: str
    texts: Localized

    @property
    def name(self) -> str:
        return self.names.en

    @property
    def text(self) -> str:
        return self.texts.en


@dataclass(frozen=True)
class Glory:
    key: str
    titles: Localized
    measure: str
    goal: int
    goal_maps: int = 0

    @property
    def title(self) -> str:
        return self.titles.en


@dataclass(frozen=True)
class Rules:
    track_cap: int
    stars_per_player: int
    limit: int
    tatanka_limit: int
    move_range: int
    marsh_strider_range: int
    corruption_score: int
    star_values: tuple[int, ...]
    map_token_supply: int


@dataclass(frozen=True, eq=False)
class Components:
    """Everything printed in the box, as read from data/expeditions/."""

    spaces: tuple[Space, ...]
    basecamp_links: tuple[str, ...]
    locations: dict[int, Location]
    cards: dict[str, Card]
    deck: tuple[str, ...]  # the item, meteorite and quest card ids, in file order
    characters: tuple[str, ...]
    mechs: tuple[Mech, ...]
    glory: tuple[Glory, ...]
    rules: Rules
    corruption: tuple[tuple[str, int, int], ...]  # (colour, value, count)
    token20: tuple[int, int, int]  # (location, power, guile)
    workers: dict[str, int]

    def space(self, code: str) -> Space:
        for space in self.spaces:
            if space.code == code:
                return space
        raise KeyError(code)

    @property
    def card_spaces(self) -> tuple[str, ...]:
        return tuple(s.code for s in self.spaces if s.kind == "cards")

    def mech(self, key: str) -> Mech:
        return next(m for m in self.mechs if m.key == key)


class _EffectParser:
    """Turns the TOML shorthand of effects into the engine's vocabulary, naming file, item and field on error."""

    def __init__(self, file: Path, item: str, colours: tuple[str, ...]) -> None:
        self.file = file
        self.item = item
        self.colours = colours

    def fail(self, field: str, problem: str) -> DataError:
        return DataError(self.file, problem, self.item, field)

    def count(self, field: str, value: Any, low: int = 1, high: int = 10) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(field, f"must be a whole number from {low} to {high} (got {value!r})")
        return value

    def effects(self, field: str, raw: Any) -> tuple[Effect, ...]:
        if not isinstance(raw, list):
            raise self.fail(field, f"must be a list of effects (got {raw!r})")
        parsed: list[Effect] = []
        for index, table in enumerate(raw):
            parsed.extend(self.table(f"{field}[{index}]", table))
        return tuple(parsed)

    def table(self, field: str, table: Any) -> list[Effect]:
        if not isinstance(table, dict) or not table:
            raise self.fail(field, f"must be an effect table such as {{ power = 2 }} (got {table!r})")
        keys = set(table)
        if keys & set(GAIN_KEYS):
            return self.gains(field, table)
        if keys == {"when", "then"}:
            need = self.conditions(f"{field}.when", table["when"])
            return [{"do": "when", "need": need, "then": list(self.effects(f"{field}.then", table["then"]))}]
        if len(keys) != 1:
            raise self.fail(field, f"holds more than one effect ({', '.join(sorted(keys))}); use one table each")
        verb, value = next(iter(table.items()))
        if verb in FLAG_VERBS:
            if value is not True:
                raise self.fail(f"{field}.{verb}", f"must be true (got {value!r})")
            return [{"do": verb}]
        if verb in COUNT_VERBS:
            return [{"do": verb} for _ in range(self.count(f"{field}.{verb}", value, 1, 4))]
        if verb == "worker":
            if value != "any" and value not in self.colours:
                allowed = ", ".join((*self.colours, "any"))
                raise self.fail(f"{field}.worker", f"must be one of {allowed} (got {value!r})")
            return [{"do": "worker", "colour": value}]
        if verb == "card":
            if value not in ("face_up", "adjacent"):
                raise self.fail(f"{field}.card", f"must be face_up or adjacent (got {value!r})")
            return [{"do": "card", "from": value}]
        if verb == "activate":
            if value not in ("previous", "adjacent"):
                raise self.fail(f"{field}.activate", f"must be previous or adjacent (got {value!r})")
            return [{"do": "activate", "target": value}]
        if verb == "pay":
            return [{"do": "pay", "cost": self.cost(f"{field}.pay", value)}]
        if verb == "or":
            if not isinstance(value, list) or len(value) < 2:
                raise self.fail(f"{field}.or", "must list at least two alternatives, each a list of effects")
            return [{"do": "or", "options": [list(self.effects(f"{field}.or[{i}]", o)) for i, o in enumerate(value)]}]
        raise self.fail(field, f"unknown effect '{verb}'")

    def gains(self, field: str, table: dict[str, Any]) -> list[Effect]:
        unknown = set(table) - set(GAIN_KEYS) - {"per"}
        if unknown:
            raise self.fail(field, f"mixes a gain with {', '.join(sorted(unknown))}; use one table each")
        per = table.get("per")
        if per is not None and per not in PER_KEYS:
            raise self.fail(f"{field}.per", f"must be one of {', '.join(PER_KEYS)} (got {per!r})")
        result: list[Effect] = []
        for key in GAIN_KEYS:
            if key in table:
                effect: Effect = {"do": "gain", "what": key, "n": self.count(f"{field}.{key}", table[key])}
                if per is not None:
                    effect["per"] = per
                result.append(effect)
        return result

    def conditions(self, field: str, raw: Any) -> dict[str, int]:
        if not isinstance(raw, dict) or not raw:
            raise self.fail(field, f"must be a table such as {{ stars = 2 }} (got {raw!r})")
        for key in raw:
            if key not in CONDITION_KEYS:
                raise self.fail(f"{field}.{key}", f"must be one of {', '.join(CONDITION_KEYS)}")
        return {key: self.count(f"{field}.{key}", value, 1, 5) for key, value in raw.items()}

    def cost(self, field: str, raw: Any) -> dict[str, int]:
        if not isinstance(raw, dict) or not raw:
            raise self.fail(field, f"must be a table such as {{ power = 2 }} (got {raw!r})")
        for key in raw:
            if key not in COST_KEYS:
                raise self.fail(f"{field}.{key}", f"must be one of {', '.join(COST_KEYS)}")
        return {key: self.count(f"{field}.{key}", value, 1, 20) for key, value in raw.items()}

    def ongoing(self, field: str, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise self.fail(field, f"must be a table (got {raw!r})")
        if set(raw) == {"on", "gain"}:
            if raw["on"] not in TRIGGERS:
                raise self.fail(f"{field}.on", f"must be one of {', '.join(TRIGGERS)} (got {raw['on']!r})")
            gains = self.effects(f"{field}.gain", raw["gain"])
            for effect in gains:
                if effect["do"] != "gain" or "per" in effect:
                    raise self.fail(f"{field}.gain", "an ongoing trigger only gains power, guile, coins or map tokens")
            return {"kind": "trigger", "on": raw["on"], "gain": list(gains)}
        if len(raw) == 1 and next(iter(raw)) in STATIC_ONGOING:
            key, value = next(iter(raw.items()))
            return {"kind": key, "n": self.count(f"{field}.{key}", value, 1, 3)}
        raise self.fail(field, f"must be {{ on = <trigger>, gain = [...] }} or one of {', '.join(STATIC_ONGOING)}")


def _verbs(effects: tuple[Effect, ...] | list[Effect]) -> set[str]:
    found: set[str] = set()
    for effect in effects:
        found.add(effect["do"])
        if effect["do"] == "or":
            for option in effect["options"]:
                found |= _verbs(option)
        elif effect["do"] == "when":
            found |= _verbs(effect["then"])
    return found


def _read_card(path: Path, table: dict[str, Any], kind: str, colours: tuple[str, ...]) -> Card:
    item = f"{kind} '{table.get('id', '?')}'"
    fields = Fields(path, item, table)
    card_id = fields.text("id")
    parser = _EffectParser(path, f"card '{card_id}'", colours)
    name = fields.localized("name")
    card_kind = fields.text("kind", choices=CARD_KINDS) if kind == "card" else kind
    colour = fields.text("colour", choices=colours)
    core = parser.effects("core", fields.raw("core", required=True))
    ability = parser.effects("ability", fields.raw("ability", required=True))
    requires = parser.conditions("requires", fields.raw("requires")) if "requires" in table else {}
    verbs = _verbs(ability)
    if verbs & {"refresh", "rescue"} and "play" in verbs:
        raise parser.fail("ability", "may not both return cards to hand and play a card (it could loop forever)")
    coins = 0
    ongoing = None
    meld: tuple[Effect, ...] = ()
    quest = None
    companion = None
    if card_kind == "item":
        coins = fields.integer("coins", low=0, high=10)
        if "ongoing" in table:
            ongoing = parser.ongoing("ongoing", fields.raw("ongoing"))
    if card_kind == "meteorite":
        meld = parser.effects("meld", fields.raw("meld", required=True))
    if card_kind == "quest":
        raw = fields.raw("quest", required=True)
        if not isinstance(raw, dict) or set(raw) != {"location", "cost", "reward"}:
            raise parser.fail("quest", "must be { location = n, cost = { ... }, reward = [ ... ] }")
        cost = parser.cost("quest.cost", raw["cost"])
        if set(cost) & {"discard", "trash"}:
            raise parser.fail("quest.cost", "a quest costs power, guile, coins or map tokens only")
        quest = Quest(parser.count("quest.location", raw["location"], 1, 20), cost,
                      parser.effects("quest.reward", raw["reward"]))
    if kind == "character":
        companion = fields.text("companion")
        if "solve" not in verbs:
            raise parser.fail("ability", "a character's ability must include solve")
    if kind == "companion" and "vanquish" not in verbs:
        raise parser.fail("ability", "a companion's ability must include vanquish")
    fields.no_unknown_fields()
    return Card(card_id, name, card_kind, colour, core, ability, requires, coins, ongoing, meld, quest, companion)


def read_components(root: Path) -> Components:
    """Read and validate every file in `root` (uncached: tests point it at broken copies)."""
    comp_path = root / "components.toml"
    comp = load_toml(comp_path)
    rules = _read_rules(comp_path, comp)
    workers = _read_workers(comp_path, comp)
    colours = tuple(workers)
    corruption = _read_corruption(comp_path, comp)
    token20 = _read_token20(comp_path, comp)
    mechs = _read_mechs(comp_path, comp)
    glory = _read_glory(comp_path, comp)
    spaces, links = _read_board(root / "board.toml")
    locations = _read_locations(root / "locations.toml", spaces, colours)
    if token20[0] not in locations or locations[token20[0]].region == "S":
        raise DataError(comp_path, "must name a Central or North location", "token20", "location")
    cards, characters = _read_characters(root / "characters.toml", colours)
    deck = _read_deck(root / "cards.toml", cards, locations, colours)
    return Components(tuple(spaces), tuple(links), locations, cards, tuple(deck), tuple(characters), tuple(mechs),
                      tuple(glory), rules, tuple(corruption), token20, workers)


def _read_rules(comp_path: Path, comp: dict[str, Any]) -> Rules:
    rules_fields = Fields(comp_path, "rules", comp.get("rules", {}))
    star_values = rules_fields.integers("star_values")
    if len(star_values) != 4:
        raise DataError(comp_path, "must list 4 values (0, 1, 2, 3+ quests)", "rules", "star_values")
    rules = Rules(
        track_cap=rules_fields.integer("track_cap", low=1, high=30),
        stars_per_player=rules_fields.integer("stars_per_player", low=1, high=7),
        limit=rules_fields.integer("limit", low=1, high=10),
        tatanka_limit=rules_fields.integer("tatanka_limit", low=1, high=10),
        move_range=rules_fields.integer("move_range", low=1, high=6),
        marsh_strider_range=rules_fields.integer("marsh_strider_range", low=1, high=6),
        corruption_score=rules_fields.integer("corruption_score", low=0, high=10),
        star_values=tuple(star_values),
        map_token_supply=rules_fields.integer("map_token_supply", low=0, high=60),
    )
    rules_fields.no_unknown_fields()
    return rules


def _read_workers(comp_path: Path, comp: dict[str, Any]) -> dict[str, int]:
    """The worker colours and how many of each (the colours the cards may name)."""
    workers: dict[str, int] = {}
    for index, table in enumerate(comp.get("worker", [])):
        fields = Fields(comp_path, f"worker #{index + 1}", table)
        workers[fields.text("colour")] = fields.integer("count", low=1, high=40)
        fields.no_unknown_fields()
    if not workers:
        raise DataError(comp_path, "no [[worker]] colours are listed", "worker")
    return workers


def _read_corruption(comp_path: Path, comp: dict[str, Any]) -> list[tuple[str, int, int]]:
    corruption: list[tuple[str, int, int]] = []
    for index, table in enumerate(comp.get("corruption", [])):
        fields = Fields(comp_path, f"corruption #{index + 1}", table)
        corruption.append((fields.text("colour", choices=("power", "guile")), fields.integer("value", low=1, high=10),
                           fields.integer("count", low=1, high=30)))
        fields.no_unknown_fields()
    return corruption


def _read_token20(comp_path: Path, comp: dict[str, Any]) -> tuple[int, int, int]:
    """The 20 token: its location (checked against the locations later), its power and guile cost."""
    t20 = Fields(comp_path, "token20", comp.get("token20", {}))
    token20 = (t20.integer("location", low=1, high=20), t20.integer("power", low=1, high=10),
               t20.integer("guile", low=1, high=10))
    t20.no_unknown_fields()
    return token20


def _read_mechs(comp_path: Path, comp: dict[str, Any]) -> list[Mech]:
    mechs: list[Mech] = []
    for index, table in enumerate(comp.get("mech", [])):
        fields = Fields(comp_path, f"mech '{table.get('key', index + 1)}'", table)
        mechs.append(Mech(fields.text("key"), fields.localized("name"),
                          fields.text("ability", choices=MECH_ABILITIES), fields.localized("text")))
        fields.no_unknown_fields()
    if len(mechs) < 5:
        raise DataError(comp_path, "needs 5 mechs (one per player)", "mech")
    return mechs


def _read_glory(comp_path: Path, comp: dict[str, Any]) -> list[Glory]:
    glory: list[Glory] = []
    for index, table in enumerate(comp.get("glory", [])):
        fields = Fields(comp_path, f"glory '{table.get('key', index + 1)}'", table)
        glory.append(Glory(fields.text("key"), fields.localized("title"), fields.text("measure", choices=MEASURES),
                           fields.integer("goal", low=1, high=20), fields.integer("goal_maps", 0, low=0, high=20)))
        fields.no_unknown_fields()
    return glory


def _read_board(board_path: Path) -> tuple[list[Space], list[str]]:
    """The board's spaces and the spaces linked to the basecamp (each must be a space)."""
    board = load_toml(board_path)
    spaces: list[Space] = []
    for index, table in enumerate(board.get("space", [])):
        fields = Fields(board_path, f"space #{index + 1}", table)
        code = fields.text("code")
        if len(code) != 2 or code[0] not in "abcde" or code[1] not in "12345":
            raise DataError(board_path, f"must be a column a-e and a row 1-5 (got {code!r})", f"space {code}", "code")
        spaces.append(Space(code, fields.text("kind", choices=("north", "central", "south", "cards")),
                            int(code[1]) - 1, "abcde".index(code[0])))
        fields.no_unknown_fields()
    codes = {s.code for s in spaces}
    links = Fields(board_path, "board", board).texts("basecamp_links")
    for link in links:
        if link not in codes:
            raise DataError(board_path, f"'{link}' is not a space", "board", "basecamp_links")
    return spaces, links


def _read_locations(loc_path: Path, spaces: list[Space], colours: tuple[str, ...]) -> dict[int, Location]:
    """The location tiles, each region's tiles as many as the board's spaces of that kind."""
    locations: dict[int, Location] = {}
    for index, table in enumerate(load_toml(loc_path).get("location", [])):
        fields = Fields(loc_path, f"location #{table.get('number', index + 1)}", table)
        number = fields.integer("number", low=1, high=20)
        parser = _EffectParser(loc_path, f"location {number}", colours)
        region = fields.text("region", choices=tuple(REGIONS))
        name = fields.localized("name")
        value = fields.integer("corruption", 0, low=0, high=30)
        gather = parser.effects("gather", fields.raw("gather", required=True))
        cleared = parser.effects("cleared", fields.raw("cleared", [])) if "cleared" in table else ()
        if region != "S" and (value == 0 or not cleared):
            raise parser.fail("corruption", "a Central or North location needs corruption and a cleared benefit")
        if number in locations:
            raise parser.fail("number", "is used twice")
        locations[number] = Location(number, region, name, value, gather, cleared)
        fields.no_unknown_fields()
    for region, kind in REGIONS.items():
        tiles = sum(1 for loc in locations.values() if loc.region == region)
        room = sum(1 for s in spaces if s.kind == kind)
        if tiles != room:
            raise DataError(loc_path, f"{tiles} {kind} tiles but board.toml has {room} {kind} spaces", "location",
                            "region")
    return locations


def _read_characters(char_path: Path, colours: tuple[str, ...]) -> tuple[dict[str, Card], list[str]]:
    """The characters and companions (the cards so far) and the characters' ids; each names a real companion."""
    cards: dict[str, Card] = {}
    chars = load_toml(char_path)
    characters: list[str] = []
    for kind in ("character", "companion"):
        for table in chars.get(kind, []):
            card = _read_card(char_path, table, kind, colours)
            cards[card.id] = card
            if kind == "character":
                characters.append(card.id)
    for char_id in characters:
        partner = cards[char_id].companion
        if partner not in cards or cards[partner].kind != "companion":
            raise DataError(char_path, f"'{partner}' is not a companion", f"character '{char_id}'", "companion")
    if len(characters) < 5:
        raise DataError(char_path, "needs 5 characters (one per player)", "character")
    return cards, characters


def _read_deck(card_path: Path, cards: dict[str, Card], locations: dict[int, Location],
               colours: tuple[str, ...]) -> list[str]:
    """The deck's cards, added to `cards`; an id used twice or a quest at no location is an error."""
    deck: list[str] = []
    for table in load_toml(card_path).get("card", []):
        card = _read_card(card_path, table, "card", colours)
        if card.id in cards:
            raise DataError(card_path, "is used twice", f"card '{card.id}'", "id")
        if card.quest is not None and card.quest.location not in locations:
            raise DataError(card_path, f"location {card.quest.location} does not exist", f"card '{card.id}'",
                            "quest.location")
        cards[card.id] = card
        deck.append(card.id)
    if len(deck) < 60:
        raise DataError(card_path, f"the deck needs at least 60 cards (has {len(deck)})", "card")
    return deck


@functools.cache
def components(root: str | None = None) -> Components:
    """The shipped components, read once per process."""
    return read_components(Path(root) if root else data_dir("expeditions"))
