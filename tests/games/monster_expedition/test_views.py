"""Views, buttons, texts and the autocomplete helper: what players see, and that secrets stay secret."""

from __future__ import annotations

import json

from bot.core import is_steps
from bot.core.registry import find_game
from bot.games.monster_expedition import GAME, capturable_monsters
from bot.games.monster_expedition.rules.effects import end_standard_game
from tests.reading import read

from .helpers import CAT, act, dice, give, hunt, named, set_display, solo


def test_the_game_is_registered_under_its_aliases() -> None:
    import bot.games  # noqa: F401  (registers every game)

    for name in ("monster-expedition", "Monster Expedition", "monster", "monsters", "me", "hunt"):
        assert find_game(name) is GAME
    assert [m.key for m in GAME.modes] == ["standard", "solo"]


def test_public_view_shows_cage_counts_never_cage_identities() -> None:
    state = named(["Julia", "Oliver"])
    give(state, 1, monsters=["stachelmaul"], cages=["abgrundauge", "lavakrebs"])
    public = GAME.view(state, None)
    text = json.dumps(public)
    assert "abgrundauge" not in text and "lavakrebs" not in text and "you" not in public
    oliver = public["players"][1]
    assert oliver["cages"] == 2 and oliver["monster_points"] == 2
    assert public["scores"][1]["text"] == "2 VP + 2 cages"
    assert set(public) >= {"display", "tray", "players", "deck_size", "reserve_size", "phase", "turn", "last_move",
                           "log", "round", "last_round", "dice_faces"}
    mine = GAME.view(state, 1)
    assert [c["id"] for c in mine["you"]["cages"]] == ["abgrundauge", "lavakrebs"]
    assert mine["you"]["score"] == 2 + 3 + 2
    assert "abgrundauge" not in json.dumps(GAME.view(state, 0))


def test_camp_view_gives_level_side_dice_and_bonus() -> None:
    state = named(["Julia", "Oliver"])
    give(state, 0, monsters=["vertikalwespe", "federling", "kadaverkrabbe"])
    camp = GAME.view(state, None)["players"][0]["camps"]["aerie"]
    assert camp == {"region": "aerie", "level": 1, "side": "A", "final": False, "printed_black": 2, "black": 3,
                    "die": "yellow", "bonus": 7, "improvements_left": 7, "next_bonus": None}
    assert GAME.view(state, None)["players"][0]["symbiosis_sets"] == 1


def test_quick_actions_follow_the_phases() -> None:
    state = named(["Julia", "Oliver"])
    labels = [b.label for b in GAME.quick_actions(state, 0)]
    assert labels == ["Aerie: yellow + 2 black", "Depths: blue + 2 black", "Forest: green + 2 black"]
    assert GAME.quick_actions(state, 1) == []
    state, _ = act(state, {"type": "camp", "region": "aerie"}, dice(4, 1, 1, region="aerie"))
    assert [(b.label, b.action) for b in GAME.quick_actions(state, 0)] == [  # bank and go on in one press
        ("Bank 1 ×2, roll 1", {"type": "bank", "value": 1, "then": "roll"}),
        ("Bank 1 ×2, stop at 2", {"type": "bank", "value": 1, "then": "stop"}),
        ("Bank 4, roll 2", {"type": "bank", "value": 4, "then": "roll"}),
        ("Bank 4, stop at 4", {"type": "bank", "value": 4, "then": "stop"})]
    state, _ = act(state, {"type": "bank", "value": 4})
    assert [b.action for b in GAME.quick_actions(state, 0)] == [{"type": "roll"}, {"type": "stop"}]
    assert [b.label for b in GAME.quick_actions(state, 0)] == ["Roll again (2 dice)", "Stop at 4"]
    assert read(GAME.turn_text(state)) == "Julia: roll 2 dice again or stop at 4"
    state, _ = act(state, {"type": "roll"}, dice(5, 3))
    state, _ = act(state, {"type": "bank", "value": 5})
    assert [b.label for b in GAME.quick_actions(state, 0)] == ["Roll again (1 die)", "Stop at 9"]


def test_purchase_buttons_and_the_capture_autocomplete() -> None:
    state = named(["Julia", "Oliver"])
    set_display(state, ["schuppenadler", "vertikalwespe", "federling", "stachelmaul", "draco-chelonia"])
    state, _ = hunt(state, "aerie", [("camp", dice(10, 6, 6, region="aerie")), ("bank", 10), ("roll", dice(
                    6, 6, colours=["black", "black"])), ("bank", 6)])
    assert state["turn"]["hunting_value"] == 22
    choices = capturable_monsters(state)
    assert [(c["id"], c["cost"]) for c in choices] == [("schuppenadler", 6), ("vertikalwespe", 7),
                                                       ("federling", 5), ("draco-chelonia", 20)]
    buttons = GAME.quick_actions(state, 0)
    labels = [b.label for b in buttons]
    assert labels[:2] == ["Buy cage (10)", "Buy 2 cages (20)"]
    assert "Done (22 left is lost)" in labels
    assert not any("Draco" in label for label in labels)  # the monsters are in the menu, not repeated as buttons
    menu = GAME.choice_menu(state, 0)
    assert menu is not None and menu.placeholder == "Capture a monster…"
    draco = next(o for o in menu.options if o.label == "Draco Chelonia")
    assert draco.action == {"type": "capture", "card": "draco-chelonia"}
    assert draco.description == "costs 20 · 5 VP · level 20"
    assert {o.action["card"] for o in menu.options if not is_steps(o.action)} == {c["id"] for c in choices}
    caged = next(o for o in menu.options if o.label == "Featherling" and is_steps(o.action))  # 5 of 22: 1 cage more
    assert caged.action == {"type": "steps", "steps": [{"type": "capture", "card": "federling"},
                                                       {"type": "cage", "count": 1}]}
    assert caged.description == "costs 5 · 1 VP · level 5 · then 1 cage with the rest"
    assert len(buttons) <= 20 and all(len(b.label) <= 25 for b in buttons)
    tray = GAME.view(state, None)["tray"]  # the board ticks what can be bought: here every monster but not the trader
    assert tray["affordable"] == [slot["card"] for slot in state["display"] if slot["card"] in
                                  {"schuppenadler", "vertikalwespe", "federling", "draco-chelonia"}]
    assert "stachelmaul" not in tray["affordable"] and "monster-trader" not in tray["affordable"]
    assert tray["cage_affordable"] is True
    rows: dict[int, int] = {}
    for b in buttons:
        rows[b.row or 0] = rows.get(b.row or 0, 0) + 1
    assert max(rows.values()) <= 5 and max(rows) <= 4
    assert all(b.action in GAME.legal_actions(state, 0) for b in buttons)
    assert read(GAME.turn_text(state)) == "Julia: spend 22 on monsters or cages, or done"


def test_private_text_lists_score_cages_monsters_and_sets() -> None:
    state = named(["Julia", "Oliver"])
    give(state, 0, monsters=["vertikalwespe", "federling", "kadaverkrabbe", "nebelkauz"],
         cages=["aschephoenix", "lavakrebs"])
    state["players"][0]["noted_cages"] = 1
    lines = GAME.private_text(state, 0).split("\n")
    assert [read(line) for line in lines] == [
        "**Julia** — camp set I",
        "Score so far: 12 VP (6 from monsters, 6 from cages); 9 crests in hand.",
        "Your cages (3, 6 VP; face down, only you see them): Ash Phoenix 3 VP, Lava Lobster 2 VP.",
        "Noted cages (both decks were empty): 1 × 1 VP.",
        "Captured monsters (4, 6 VP): Vertical Wasp (Aerie, 2 VP, red), Featherling (Aerie, 1 VP, purple), "
        "Carrion Crab (Depths, 2 VP, white), Mist Owl (Aerie, 1 VP, white, bonus value 5).",
        "Symbiosis sets: 1 (+1 black die, 8 black at most): Carrion Crab (white) + Vertical Wasp (red) + "
        "Featherling (purple).",
        "Camps: Aerie level 1 of 8 (yellow + 3 black); Depths level 1 of 8 (blue + 3 black); Enchanted Forest "
        "level 1 of 8 (green + 3 black).",
    ]
    oliver = GAME.private_text(state, 1)
    assert "Ash Phoenix" not in oliver and "Lava Lobster" not in oliver
    assert "Your cages: none yet." in oliver and "Captured monsters: none yet." in oliver


def test_private_text_counts_one_crest_and_says_final_score_once_the_hunt_is_over() -> None:
    """It read "1 crests in hand", and "Score so far" under the final board."""
    state = named(["Julia", "Oliver"])
    state["players"][0]["crests"] = 1
    score = "0 VP (0 from monsters, 0 from cages); 1 crest in hand."
    assert read(GAME.private_text(state, 0).split("\n")[1]) == f"Score so far: {score}"
    state["over"] = True
    assert read(GAME.private_text(state, 0).split("\n")[1]) == f"Final score: {score}"


def test_private_text_in_solo_shows_the_goal_and_the_progress() -> None:
    state = solo(9)
    give(state, 0, cages=["aschephoenix"])
    state["solo"]["crates"] = 2
    lines = GAME.private_text(state, 0).split("\n")
    assert lines[1:5] == [
        "Expedition 9 goal: No more than 7 cards in the display and at least 1 visit to the Monster Trader.",
        "Progress: 10 cards in the display (the goal: 7 or fewer); 0 visits to the Monster Trader (the goal: at "
        "least 1).",
        "Crates: 2 (each lowers a cost by 5).",
        "Your cages (1, 3 VP; face down, only you see them): Ash Phoenix 3 VP.",
    ]
    assert "Score so far" not in "\n".join(lines)


def test_private_text_fits_a_discord_message_even_for_a_huge_collection() -> None:
    state = named(["Julia", "Oliver"])
    ids = list(CAT.deck_ids) + list(CAT.starting_ids)
    give(state, 1, monsters=ids[:30], cages=ids[30:])
    state["players"][1]["noted_cages"] = 3
    text = GAME.private_text(state, 1)
    assert len(text) <= 1990
    assert "Your cages (32, 53 VP" in text and text.endswith("(green + 8 black).")


def test_no_public_text_names_another_players_cage() -> None:
    """Cages bought, stolen and caged at the end never appear by name in a public view, sentence or turn text."""
    state = named(["Julia", "Oliver", "Mia"])
    set_display(state, ["windschlange", "stachelmaul"], crests={"stachelmaul": 2})
    give(state, 1, cages=["aschephoenix", "gipfeldrache"])
    give(state, 2, cages=["medusamorph"])
    hidden = {"aschephoenix", "gipfeldrache", "medusamorph"}
    seen: list[str] = []

    def public_texts(current: dict, events: list[dict]) -> None:
        seen.append(json.dumps(GAME.view(current, None), ensure_ascii=False))
        seen.append(GAME.turn_text(current))
        seen.extend(GAME.describe(current, e) for e in events)

    state["turn"].update({"region": "aerie", "hunting_value": 31})
    state["phase"] = "purchase"
    state, events = act(state, {"type": "capture", "card": "windschlange"})
    public_texts(state, events)
    state, events = act(state, {"type": "steal", "seat": 1}, [0])
    public_texts(state, events)
    stolen = state["players"][0]["cages"][0]
    assert stolen == "aschephoenix"
    state, events = act(state, {"type": "cage", "count": 2})
    public_texts(state, events)
    julias = set(state["players"][0]["cages"])
    hidden |= julias
    for seat in (1, 2):  # another seat's own view and /game mine show their cages, never Julia's
        theirs = json.dumps(GAME.view(state, seat), ensure_ascii=False) + GAME.private_text(state, seat)
        assert not [n for n in {CAT.card(i).name for i in julias} if n in theirs]
    names = {CAT.card(i).name for i in hidden} | hidden
    assert not [n for n in names if n in " ".join(seen)]
    end_standard_game(state, events := [])
    seen.extend(GAME.describe(state, e) for e in events)
    seen.append(GAME.outcome(state).summary)
    text = read(" ".join(seen))
    assert not [n for n in names if n in text]
    assert "Spike Maw" in text  # a crested card caged at the end was public: only its new owner's count shows
    assert "Mia steals" not in text and "Julia steals a random cage from Oliver." in text
    final = GAME.view(state, None)  # the end: cages are counted face up, so the final board shows them all
    assert [{c["id"] for c in p["cages_revealed"]} for p in final["players"]] == [
        set(p["cages"]) for p in state["players"]]


def test_describe_never_names_a_caged_monster() -> None:
    state = named(["Julia", "Oliver"])
    state["turn"].update({"region": "aerie", "hunting_value": 10})
    state["phase"] = "purchase"
    top = state["deck"][0]
    state, events = act(state, {"type": "cage", "count": 1})
    from bot.games.monster_expedition.rules.catalog import catalog

    name = catalog().card(top).name
    assert all(name not in GAME.describe(state, e) for e in events if e["kind"] != "display_refilled")
    assert read(GAME.describe(state, events[0])) == "Julia buys 1 cage for 10."


def test_solo_view_and_rules_text() -> None:
    state = solo(9)
    public = GAME.view(state, None)
    assert public["solo"]["expedition"] == 9 and public["solo"]["crate_value"] == 5
    assert public["solo"]["progress"] == {"display": 10, "cages": 0, "trader_visits": 0, "met": False}
    assert "crates" in " ".join(public["solo"]["special_rules"])
    assert "13" in GAME.rules_text("solo") and "10. A trading post" in GAME.rules_text("solo")
    assert "27/35/41" in GAME.rules_text("standard")
