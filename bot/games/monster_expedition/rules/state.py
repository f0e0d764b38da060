"""The match state: setup for both modes, and the read-only questions the rules ask of it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.errors import LobbyError
from bot.core.protocol import JSON
from bot.core.rng import Rng
from bot.games.monster_expedition.rules.catalog import (
    REGIONS,
    SETS,
    SYMBIOSIS_COLOURS,
    TRADER_ID,
    WILD,
    Card,
    Catalog,
    Expedition,
    catalog,
)
from bot.i18n import said

GAME_KEY = "monster-expedition"
DATA_VERSION = "1"
MODES = ("standard", "solo")


def new_turn(region: str | None = None) -> JSON:
    """The scratch record of one turn: dice, hunting value, purchases, once-per-turn marks."""
    return {
        "region": region,
        "rolled": [],  # dice showing on the table, not banked: [{"colour", "value"}]
        "banked": [],  # dice on the board
        "banked_numbers": [],  # numbers banked this turn, including those later lost to a misthrow
        "lost": [],  # dice lost to misthrows
        "misthrows": 0,
        "hunting_value": 0,
        "spent": 0,
        "gained_cage": False,
        "misthrow_used": [],  # misthrow-improvement cards already used this turn (any owner)
        "steal_pending": False,
        "crates_gained": 0,
    }


def normalise_profile(profile: Any) -> JSON:
    """A seat's campaign record in its canonical shape ({"won": [...], "failed_attempts": {"n": k}})."""
    if not isinstance(profile, dict):
        profile = {}
    won = sorted({int(n) for n in profile.get("won", []) if str(n).isdigit() and 1 <= int(n) <= 10})
    failed_raw = profile.get("failed_attempts", {})
    failed: dict[str, int] = {}
    if isinstance(failed_raw, dict):
        for key, value in failed_raw.items():
            if str(key).isdigit() and 1 <= int(key) <= 10 and isinstance(value, int) and value > 0:
                failed[str(int(key))] = value
    return {"won": won, "failed_attempts": failed}


def next_expedition(profile: JSON) -> int:
    """The lowest expedition not yet won (1 again once the whole campaign is won)."""
    won = set(normalise_profile(profile)["won"])
    for number in range(1, 11):
        if number not in won:
            return number
    return 1


def _choose_expedition(options: JSON, profile: JSON) -> int:
    wanted = options.get("expedition")
    if wanted is None or wanted == "":
        return next_expedition(profile)
    try:
        number = int(wanted)
    except (TypeError, ValueError):
        raise LobbyError("monster.refuse.not_an_expedition", wanted=said(wanted)) from None
    if not 1 <= number <= 10:
        raise LobbyError("monster.refuse.no_expedition", number=number)
    won = set(profile["won"])
    locked = [n for n in range(1, number) if n not in won]
    if locked:
        raise LobbyError("monster.refuse.locked", number=number, first=locked[0], next=next_expedition(profile))
    return number


def _choose_set(options: JSON) -> str:
    wanted = options.get("set")
    if wanted is None or wanted == "":
        return "I"
    text = str(wanted).strip().upper()
    by_number = {"1": "I", "2": "II", "3": "III", "4": "IV"}
    text = by_number.get(text, text)
    if text not in SETS:
        raise LobbyError("monster.refuse.not_a_set", wanted=said(wanted))
    return text


def setup_state(mode: str, players: Sequence[str], rng: Rng, options: JSON, cat: Catalog | None = None) -> JSON:
    """Deal a new match: decks, the opening display of 10, the camps on side A at the start level."""
    cat = cat or catalog()
    if mode not in MODES:
        # Not a player's words: MonsterExpedition.setup resolves a typed mode (key or title, either language) and
        # refuses an unknown one with the modes' localized titles (lobby.refuse.no_mode) before calling this.
        raise ValueError(f"setup_state takes a mode key ({', '.join(MODES)}), not {mode!r}")
    count = len(players)
    if mode == "solo" and count != 1:
        raise LobbyError("monster.refuse.solo_players")
    if mode == "standard" and not 2 <= count <= 4:
        raise LobbyError("monster.refuse.players")
    profiles = list(options.get("profiles") or [])
    expedition: Expedition | None = None
    profile: JSON = {}
    if mode == "solo":
        profile = normalise_profile(profiles[0] if profiles else {})
        expedition = cat.expeditions[_choose_expedition(options, profile)]
        deck_size = expedition.draw_deck or cat.rules.solo_draw_deck
        sets = [_choose_set(options)]
    else:
        deck_size = cat.rules.draw_deck[count]
        sets = list(SETS[:count])
    shuffled = rng.shuffled(cat.deck_ids)
    deck, reserve = shuffled[:deck_size], shuffled[deck_size:]
    display = [{"card": card_id, "crest": None} for card_id in cat.starting_ids]
    display.append({"card": TRADER_ID, "crest": None})
    for _ in range(cat.rules.opening_reveal):
        display.append({"card": deck.pop(0), "crest": None})  # the opening reveal places no crests
    state: JSON = {
        "game": GAME_KEY,
        "data_version": DATA_VERSION,
        "mode": mode,
        "players": [
            {"name": str(name), "set": sets[seat], "camps": {r: 1 for r in REGIONS}, "monsters": [], "cages": [],
             "noted_cages": 0, "crests": cat.rules.crests if mode == "standard" else 0}
            for seat, name in enumerate(players)
        ],
        "deck": deck,
        "reserve": reserve,
        "display": display,
        "active": 0,
        "round": 1,
        "phase": "camp",
        "turn": new_turn(),
        "deck_used_up": False,
        "over": False,
        "result": None,
        "last_events": [],
        "recent": [],
        "solo": None,
    }
    if expedition is not None:
        improvements = profile["failed_attempts"].get(str(expedition.number), 0)
        state["solo"] = {
            "expedition": expedition.number,
            "profile": profile,
            "prep_left": improvements,
            "crates": 0,
            "trader_visits": 0,
            "outcome": None,  # "won" or "lost"
            "reason": "",
        }
        if improvements:
            state["phase"] = "solo_prepare"
    return state


# --- questions -----------------------------------------------------------------------------------------------


def card(card_id: str, cat: Catalog | None = None) -> Card:
    return (cat or catalog()).card(card_id)


def expedition_of(state: JSON, cat: Catalog | None = None) -> Expedition | None:
    solo = state.get("solo")
    if not solo:
        return None
    return (cat or catalog()).expeditions[int(solo["expedition"])]


def symbiosis_sets(monster_ids: Sequence[str], cat: Catalog | None = None) -> int:
    """Complete sets of three different colours among captured monsters; wild symbols stand for any colour."""
    cat = cat or catalog()
    counts = {colour: 0 for colour in SYMBIOSIS_COLOURS}
    wild = 0
    for card_id in monster_ids:
        symbol = cat.card(card_id).symbiosis
        if symbol == WILD:
            wild += 1
        elif symbol in counts:
            counts[symbol] += 1
    best = 0
    for sets in range(1, (sum(counts.values()) + wild) // 3 + 1):
        if sum(min(n, sets) for n in counts.values()) + wild >= 3 * sets:
            best = sets
    return best


def symbiosis_groups(monster_ids: Sequence[str], cat: Catalog | None = None) -> list[list[str]]:
    """One way to fan the captured monsters into complete sets (for display): colours first, wilds fill gaps."""
    cat = cat or catalog()
    target = symbiosis_sets(monster_ids, cat)
    pools: dict[str, list[str]] = {colour: [] for colour in SYMBIOSIS_COLOURS}
    wilds: list[str] = []
    for card_id in monster_ids:
        symbol = cat.card(card_id).symbiosis
        (wilds if symbol == WILD else pools.setdefault(symbol, [])).append(card_id)
    groups: list[list[str]] = []
    for _ in range(target):
        group: list[str] = []
        for colour in sorted(SYMBIOSIS_COLOURS, key=lambda c: -len(pools[c])):
            if pools[colour] and len(group) < 3:
                group.append(pools[colour].pop(0))
        while len(group) < 3 and wilds:
            group.append(wilds.pop(0))
        groups.append(group)
    return groups


def black_dice(state: JSON, seat: int, region: str, cat: Catalog | None = None) -> int:
    """Black dice a camp gives now: its level's dice plus one per symbiosis set, never more than 8."""
    cat = cat or catalog()
    player = state["players"][seat]
    level = cat.camp(player["set"], region).at(player["camps"][region])
    return min(cat.rules.max_black_dice, level.black + symbiosis_sets(player["monsters"], cat))


def cage_count(player: JSON) -> int:
    return len(player["cages"]) + int(player["noted_cages"])


def display_ids(state: JSON) -> list[str]:
    return [slot["card"] for slot in state["display"]]


def trader_present(state: JSON) -> bool:
    return TRADER_ID in display_ids(state)


def trader_cost(state: JSON, cat: Catalog | None = None) -> int:
    cat = cat or catalog()
    expedition = expedition_of(state, cat)
    if expedition is not None and expedition.trader_cost is not None:
        return expedition.trader_cost
    return cat.rules.trader_cost


def crate_value(state: JSON, cat: Catalog | None = None) -> int:
    expedition = expedition_of(state, cat)
    return expedition.crate_value or 0 if expedition is not None else 0


def remaining_value(state: JSON) -> int:
    turn = state["turn"]
    return int(turn["hunting_value"]) - int(turn["spent"])


def seat_order_from(state: JSON, first: int) -> list[int]:
    count = len(state["players"])
    return [(first + offset) % count for offset in range(count)]
