"""Loading and validating Monster Expedition's component data (data/monster-expedition/) into frozen objects."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.core.datafiles import DataError, Fields, data_dir, load_toml
from bot.i18n import LANGUAGES, Localized, deferred, placeholders, translate

GAME_KEY = "monster-expedition"
REGIONS: tuple[str, ...] = ("aerie", "depths", "forest")
REGION_MESSAGES = {"aerie": deferred("region.aerie"), "depths": deferred("region.depths"),
                   "forest": deferred("region.forest"), "all": deferred("region.all")}


def region_name(region: str, language: str) -> str:
    """A region's name in `language` ("Enchanted Forest", "Zauberwald"; "all" is the Draco Chelonia's "all regions")."""
    return translate(REGION_MESSAGES[region], language)


def english_region_names() -> dict[str, str]:
    """The English region names, as English messages and boards print them (worded when asked: the game's words
    are its catalogue domain's, read once the registry has found the package, after this module is imported)."""
    return {region: region_name(region, "en") for region in REGION_MESSAGES}
REGION_DIE = {"aerie": "yellow", "depths": "blue", "forest": "green"}
IMPROVEMENT_NUMBER = {"aerie": 1, "depths": 2, "forest": 3}
"""The banked number that improves each camp in Phase 3 (printed in the middle of the camp card)."""
SYMBIOSIS_COLOURS: tuple[str, ...] = ("red", "purple", "white")
WILD = "wild"
ABILITIES: tuple[str, ...] = ("none", "misthrow", "bonus", "steal", "improve")
SETS: tuple[str, ...] = ("I", "II", "III", "IV")
TRADER_ID = "monster-trader"
VICTORY_KINDS: tuple[str, ...] = ("display_and_cages", "region", "cages", "final_camps", "trader",
                                  "display_and_trader", "empty_display")


@dataclass(frozen=True)
class Card:
    """One expedition card: a monster (starting or not) or the monster trader."""

    id: str
    names: Localized
    kind: str  # starting, monster, trader
    region: str  # aerie, depths, forest, all ("" for the trader)
    level: int
    vp: int
    caged_vp: int
    symbiosis: str  # red, purple, white, wild ("" for the trader)
    ability: str
    bonus_value: int | None

    @property
    def name(self) -> str:
        """The English name (`names` has every language)."""
        return self.names.en

    @property
    def is_trader(self) -> bool:
        return self.kind == "trader"

    @property
    def roams_everywhere(self) -> bool:
        """The Draco Chelonia: capturable from any camp."""
        return self.region == "all"


@dataclass(frozen=True)
class Ability:
    """What a captured monster's ability does, in every language (abilities.toml); `{value}` is a bonus value."""

    key: str
    board: Localized
    text: Localized
    rule: Localized

    def board_text(self, language: str, value: int | None = None) -> str:
        """The card's line ("Bonus value 7", "Bonuswert 7")."""
        return self.board[language].format(value=value)

    def list_text(self, language: str, value: int | None = None) -> str:
        """The ability in a list of monsters ("misthrow improvement", "Fehlwurf-Verbesserung")."""
        return self.text[language].format(value=value)


@dataclass(frozen=True)
class CampLevel:
    level: int
    side: str
    black: int
    bonus: int | None


@dataclass(frozen=True)
class Camp:
    set: str
    region: str
    levels: tuple[CampLevel, ...]

    def at(self, level: int) -> CampLevel:
        return self.levels[level - 1]


@dataclass(frozen=True)
class Expedition:
    number: int
    titles: Localized
    stories: Localized
    victory: str
    max_display: int | None
    min_cages: int | None
    region: str | None
    min_count: int | None
    min_camps: int | None
    min_visits: int | None
    trader_cost: int | None
    draw_deck: int | None
    crate_value: int | None
    pair_improvements: bool
    trader_leaves: bool

    @property
    def title(self) -> str:
        return self.titles.en

    @property
    def story(self) -> str:
        return self.stories.en


@dataclass(frozen=True)
class Rules:
    """The fixed numbers of the game (game.toml)."""

    draw_deck: dict[int, int]
    opening_reveal: int
    display_size: int
    crests: int
    cage_cost: int
    trader_cost: int
    trader_cages: int
    max_black_dice: int
    final_level_cages: int
    noted_cage_vp: int
    solo_draw_deck: int
    solo_loss_display: int


@dataclass(frozen=True)
class Catalog:
    cards: dict[str, Card]
    camps: dict[tuple[str, str], Camp]
    dice: dict[str, tuple[int, ...]]
    expeditions: dict[int, Expedition]
    rules: Rules
    abilities: dict[str, Ability]

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def camp(self, player_set: str, region: str) -> Camp:
        return self.camps[(player_set, region)]

    @property
    def starting_ids(self) -> list[str]:
        return [c.id for c in self.cards.values() if c.kind == "starting"]

    @property
    def deck_ids(self) -> list[str]:
        """The 53 monsters shuffled into the draw and reserve decks."""
        return [c.id for c in self.cards.values() if c.kind == "monster"]


def _load_cards(path: Path) -> dict[str, Card]:
    raw = load_toml(path)
    entries = raw.get("card")
    if not isinstance(entries, list) or not entries:
        raise DataError(path, "needs a list of [[card]] tables")
    cards: dict[str, Card] = {}
    for index, table in enumerate(entries):
        item = f"card #{index + 1} ({table.get('id', '?')})"
        f = Fields(path, item, table)
        card_id = f.text("id")
        name = f.localized("name")
        kind = f.text("kind", choices=("starting", "monster", "trader"))
        if kind == "trader":
            f.no_unknown_fields()
            card = Card(card_id, name, kind, "", 0, 0, 0, "", "none", None)
        else:
            region = f.text("region", choices=(*REGIONS, "all"))
            level = f.integer("level", low=1, high=40)
            vp = f.integer("vp", low=0, high=12)
            caged_vp = f.integer("caged_vp", low=1, high=12)
            # RULINGS: a monster worth 2 VP or more is worth fewer caged; a 1 VP monster is worth 1 caged (a cage is
            # never worth nothing).
            if caged_vp > vp or (vp >= 2 and caged_vp >= vp):
                raise DataError(path, "a caged monster worth 2 VP or more scores fewer VP than the monster (a 1 VP "
                                "monster scores 1 caged)", item, "caged_vp")
            symbiosis = f.text("symbiosis", choices=(*SYMBIOSIS_COLOURS, WILD))
            ability = f.text("ability", choices=ABILITIES)
            bonus_value = f.optional_integer("bonus_value", low=1, high=10)
            if (ability == "bonus") != (bonus_value is not None):
                raise DataError(path, "bonus_value is required with ability \"bonus\" and only with it", item,
                                "bonus_value")
            if region == "all" and ability in ("misthrow", "bonus", "improve"):
                raise DataError(path, "a monster of all regions has no matching camp for this ability", item,
                                "ability")
            f.no_unknown_fields()
            card = Card(card_id, name, kind, region, level, vp, caged_vp, symbiosis, ability, bonus_value)
        if card_id in cards:
            raise DataError(path, f"duplicate id {card_id!r}", item, "id")
        cards[card_id] = card
    counts = {k: sum(1 for c in cards.values() if c.kind == k) for k in ("starting", "monster", "trader")}
    if counts != {"starting": 6, "monster": 53, "trader": 1}:
        raise DataError(path, f"needs 6 starting monsters, 53 monsters and 1 trader (found {counts})")
    trader = next(c for c in cards.values() if c.kind == "trader")
    if trader.id != TRADER_ID:
        raise DataError(path, f"the trader's id must be {TRADER_ID!r}", trader.id, "id")
    return cards


def _load_camps(path: Path) -> dict[tuple[str, str], Camp]:
    raw = load_toml(path)
    entries = raw.get("camp")
    if not isinstance(entries, list):
        raise DataError(path, "needs a list of [[camp]] tables")
    camps: dict[tuple[str, str], Camp] = {}
    for index, table in enumerate(entries):
        item = f"camp #{index + 1} ({table.get('set', '?')} {table.get('region', '?')})"
        f = Fields(path, item, table)
        player_set = f.text("set", choices=SETS)
        region = f.text("region", choices=REGIONS)
        raw_levels = f.raw("levels", required=True)
        f.no_unknown_fields()
        if not isinstance(raw_levels, list) or len(raw_levels) != 8:
            raise DataError(path, "needs exactly 8 equipment levels", item, "levels")
        levels = []
        for number, level_table in enumerate(raw_levels, start=1):
            if not isinstance(level_table, dict):
                raise DataError(path, "each level must be a table", item, "levels")
            lf = Fields(path, f"{item} level {number}", level_table)
            level = lf.integer("level", low=number, high=number)
            side = lf.text("side", choices=("A" if number <= 4 else "B",))
            black = lf.integer("black", low=0, high=6)
            bonus = lf.optional_integer("bonus", low=1, high=10)
            lf.no_unknown_fields()
            levels.append(CampLevel(level, side, black, bonus))
        if levels[0].black != 2:
            raise DataError(path, "a camp starts with 2 black dice", item, "levels")
        if levels[-1].bonus is not None:
            raise DataError(path, "the final level has no next level to improve to", item, "levels")
        if any(b.black < a.black for a, b in itertools.pairwise(levels)):
            raise DataError(path, "a higher level never gives fewer dice", item, "levels")
        if (player_set, region) in camps:
            raise DataError(path, "duplicate camp", item, "set")
        camps[(player_set, region)] = Camp(player_set, region, tuple(levels))
    missing = [f"{s} {r}" for s in SETS for r in REGIONS if (s, r) not in camps]
    if missing:
        raise DataError(path, f"missing camps: {', '.join(missing)}")
    return camps


def _load_dice(path: Path) -> dict[str, tuple[int, ...]]:
    raw = load_toml(path)
    f = Fields(path, "dice", raw.get("dice", {}))
    dice = {}
    for colour in ("black", "yellow", "blue", "green"):
        faces = f.integers(colour)
        if len(faces) != 6 or not all(1 <= v <= 10 for v in faces):
            raise DataError(path, "needs 6 faces between 1 and 10", "dice", colour)
        dice[colour] = tuple(faces)
    f.no_unknown_fields()
    if dice["black"] != (1, 2, 3, 4, 5, 6):
        raise DataError(path, "black hunting dice are ordinary dice 1-6", "dice", "black")
    return dice


def _load_rules(path: Path) -> Rules:
    raw = load_toml(path)
    setup = Fields(path, "setup", raw.get("setup", {}))
    hunting = Fields(path, "hunting", raw.get("hunting", {}))
    solo = Fields(path, "solo", raw.get("solo", {}))
    deck_table = setup.raw("draw_deck", required=True)
    if not isinstance(deck_table, dict) or set(deck_table) != {"2", "3", "4"}:
        raise DataError(path, "needs sizes for 2, 3 and 4 players", "setup", "draw_deck")
    draw_deck = {}
    for count, size in deck_table.items():
        if isinstance(size, bool) or not isinstance(size, int) or not 10 <= size <= 53:
            raise DataError(path, f"a deck size must be 10-53 (got {size!r})", "setup", "draw_deck")
        draw_deck[int(count)] = size
    rules = Rules(
        draw_deck=draw_deck,
        opening_reveal=setup.integer("opening_reveal", low=0, high=10),
        display_size=setup.integer("display_size", low=7, high=20),
        crests=setup.integer("crests", low=0, high=20),
        cage_cost=hunting.integer("cage_cost", low=1, high=100),
        trader_cost=hunting.integer("trader_cost", low=1, high=100),
        trader_cages=hunting.integer("trader_cages", low=1, high=20),
        max_black_dice=hunting.integer("max_black_dice", low=1, high=12),
        final_level_cages=hunting.integer("final_level_cages", low=0, high=10),
        noted_cage_vp=hunting.integer("noted_cage_vp", low=0, high=10),
        solo_draw_deck=solo.integer("draw_deck", low=4, high=53),
        solo_loss_display=solo.integer("loss_display", low=8, high=30),
    )
    for fields in (setup, hunting, solo):
        fields.no_unknown_fields()
    return rules


def _load_expeditions(path: Path) -> dict[int, Expedition]:
    raw = load_toml(path)
    entries = raw.get("expedition")
    if not isinstance(entries, list):
        raise DataError(path, "needs a list of [[expedition]] tables")
    expeditions: dict[int, Expedition] = {}
    for index, table in enumerate(entries):
        item = f"expedition #{index + 1}"
        f = Fields(path, item, table)
        number = f.integer("number", low=1, high=10)
        victory = f.text("victory", choices=VICTORY_KINDS)
        expedition = Expedition(
            number=number,
            titles=f.localized("title"),
            stories=f.localized("story"),
            victory=victory,
            max_display=f.optional_integer("max_display", low=0, high=13),
            min_cages=f.optional_integer("min_cages", low=0, high=53),
            region=f.text("region", choices=REGIONS) if "region" in table else None,
            min_count=f.optional_integer("min_count", low=1, high=53),
            min_camps=f.optional_integer("min_camps", low=1, high=3),
            min_visits=f.optional_integer("min_visits", low=1, high=9),
            trader_cost=f.optional_integer("trader_cost", low=0, high=100),
            draw_deck=f.optional_integer("draw_deck", low=4, high=53),
            crate_value=f.optional_integer("crate_value", low=1, high=40),
            pair_improvements=f.boolean("pair_improvements", False),
            trader_leaves=f.boolean("trader_leaves", False),
        )
        f.no_unknown_fields()
        needed: dict[str, tuple[str, ...]] = {
            "display_and_cages": ("max_display", "min_cages"), "region": ("region", "min_count"),
            "cages": ("min_cages",), "final_camps": ("min_camps",), "trader": (),
            "display_and_trader": ("max_display", "min_visits"), "empty_display": (),
        }
        for name in needed[victory]:
            if getattr(expedition, name) is None:
                raise DataError(path, f"is required for victory {victory!r}", item, name)
        if number in expeditions:
            raise DataError(path, f"duplicate expedition {number}", item, "number")
        expeditions[number] = expedition
    if sorted(expeditions) != list(range(1, 11)):
        raise DataError(path, "needs expeditions 1 to 10")
    return expeditions


def _load_abilities(path: Path) -> dict[str, Ability]:
    raw = load_toml(path)
    entries = raw.get("ability")
    if not isinstance(entries, list):
        raise DataError(path, "needs a list of [[ability]] tables")
    abilities: dict[str, Ability] = {}
    for index, table in enumerate(entries):
        item = f"ability #{index + 1} ({table.get('key', '?')})"
        f = Fields(path, item, table)
        key = f.text("key", choices=tuple(a for a in ABILITIES if a != "none"))
        ability = Ability(key, f.localized("board"), f.localized("text"), f.localized("rule"))
        f.no_unknown_fields()
        for field in ("board", "text", "rule"):
            for language, text in zip(LANGUAGES, getattr(ability, field).texts, strict=True):
                if placeholders(text) - {"value"}:
                    raise DataError(path, "may only fill in {value}", item, f"{field}.{language}")
        if key in abilities:
            raise DataError(path, f"duplicate ability {key!r}", item, "key")
        abilities[key] = ability
    missing = [a for a in ABILITIES if a != "none" and a not in abilities]
    if missing:
        raise DataError(path, f"missing abilities: {', '.join(missing)}")
    return abilities


def load_catalog(folder: Path) -> Catalog:
    """Read and validate every file in `folder` (a DataError names the file, item and field on a bad value)."""
    cards = _load_cards(folder / "cards.toml")
    camps = _load_camps(folder / "camps.toml")
    dice = _load_dice(folder / "dice.toml")
    rules = _load_rules(folder / "game.toml")
    expeditions = _load_expeditions(folder / "expeditions.toml")
    abilities = _load_abilities(folder / "abilities.toml")
    for count, size in rules.draw_deck.items():
        if size - rules.opening_reveal < 1 or size > len([c for c in cards.values() if c.kind == "monster"]):
            raise DataError(folder / "game.toml", f"a {count}-player deck of {size} does not fit 53 monsters",
                            "setup", "draw_deck")
    return Catalog(cards, camps, dice, expeditions, rules, abilities)


@cache
def catalog() -> Catalog:
    """The shipped data, loaded once per process."""
    return load_catalog(data_dir(GAME_KEY))


def as_dict(card: Card, cat: Catalog | None = None) -> dict[str, Any]:
    """A card's public face, as a view shows it: its name and ability line in every language (the board picks
    the table's)."""
    names = dict(zip(LANGUAGES, card.names.texts, strict=True))
    if card.is_trader:
        return {"id": card.id, "name": card.name, "names": names, "kind": card.kind}
    ability = (cat or catalog()).abilities.get(card.ability)
    texts = {language: ability.board_text(language, card.bonus_value) if ability else "" for language in LANGUAGES}
    return {"id": card.id, "name": card.name, "names": names, "kind": card.kind, "region": card.region,
            "level": card.level, "vp": card.vp, "caged_vp": card.caged_vp, "symbiosis": card.symbiosis,
            "ability": card.ability, "bonus_value": card.bonus_value, "ability_texts": texts}
