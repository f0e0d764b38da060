"""What each viewer may see, the buttons to offer, and the capture list for command autocomplete."""

from __future__ import annotations

from bot.core.protocol import JSON, ChoiceMenu, QuickAction, Viewer, cut_between_words, steps_action
from bot.core.rng import Rng
from bot.games.monster_expedition.rules.catalog import (
    REGION_DIE,
    REGIONS,
    TRADER_ID,
    Catalog,
    Expedition,
    as_dict,
    catalog,
    region_name,
)
from bot.games.monster_expedition.rules.effects import FINAL_LEVEL, cage_points, monster_points, ranking, total_points
from bot.games.monster_expedition.rules.rules import (
    apply,
    bankable_numbers,
    capture_cost,
    legal_actions,
    purchase_options,
    remaining_value,
    steal_victims,
    to_act,
    trader_price,
)
from bot.games.monster_expedition.rules.solo import progress, progress_text, special_rules_text, victory_text
from bot.games.monster_expedition.rules.state import (
    black_dice,
    cage_count,
    crate_value,
    expedition_of,
    symbiosis_groups,
    symbiosis_sets,
    trader_cost,
)
from bot.games.monster_expedition.rules.text import colour_name, describe, last_move, solo_reason, turn_text
from bot.games.monster_expedition.rules.view_types import MonsterView
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, counted, deferred, said, translate, translate_plural


def _card_view(card_id: str, cat: Catalog) -> JSON:
    return as_dict(cat.card(card_id), cat)


def _camp_view(state: JSON, seat: int, region: str, cat: Catalog) -> JSON:
    player = state["players"][seat]
    level_number = int(player["camps"][region])
    camp = cat.camp(player["set"], region)
    level = camp.at(level_number)
    return {
        "region": region, "level": level_number, "side": level.side, "final": level_number >= FINAL_LEVEL,
        "printed_black": level.black, "black": black_dice(state, seat, region, cat), "die": REGION_DIE[region],
        "bonus": level.bonus, "improvements_left": FINAL_LEVEL - level_number,
        "next_bonus": camp.at(level_number + 1).bonus if level_number < FINAL_LEVEL else None,
    }


def _player_view(state: JSON, seat: int, cat: Catalog) -> JSON:
    player = state["players"][seat]
    groups = symbiosis_groups(player["monsters"], cat)
    return {
        "seat": seat,
        "name": player["name"],
        "set": player["set"],
        "camps": {r: _camp_view(state, seat, r, cat) for r in REGIONS},
        "camp_level_sum": sum(int(v) for v in player["camps"].values()),
        "monsters": [_card_view(i, cat) for i in player["monsters"]],
        "cages": cage_count(player),
        "noted_cages": int(player["noted_cages"]),
        "crests": int(player["crests"]),
        "symbiosis_sets": symbiosis_sets(player["monsters"], cat),
        "symbiosis_groups": groups,
        "monster_points": monster_points(player, cat),
    }


def _score_text(player: JSON, language: str = "en") -> str:
    """The public score so far: captured monsters' points and a cage count (cage values stay secret)."""
    return translate("monster.score.running", language, points=player["monster_points"],
                     cages=counted("cage", int(player["cages"]), language))


def _final_score_text(result: JSON, seat: int, language: str = "en") -> str:
    message = deferred("monster.score.winner") if seat in result["winners"] else deferred("monster.score.final")
    return translate(message, language, points=result["scores"][seat])


def _solo_status(state: JSON, expedition: Expedition, progress_words: str, language: str = "en") -> str:
    outcome = state["solo"]["outcome"]
    if outcome == "won":
        return translate("monster.score.solo_won", language, number=expedition.number)
    if outcome == "lost":
        return translate("monster.score.solo_lost", language, number=expedition.number)
    return translate("monster.score.solo_goal", language, progress=progress_words)


def words(state: JSON, cat: Catalog, language: str) -> JSON:
    """Every sentence of a view in one language: the renderer draws the board in the table's language from these
    (the view's own fields are the English ones)."""
    worded: JSON = {
        "turn": turn_text(state, cat, language),
        "last_move": last_move(state, cat, language),
        "english_last_move": last_move(state, cat),  # what the board shows unless the service tells the move
        "log": [describe(state, e, cat, language) for e in state["recent"]],
    }
    players = [_player_view(state, seat, cat) for seat in range(len(state["players"]))]
    if state["over"] and state["mode"] == "standard":
        worded["scores"] = [_final_score_text(state["result"], s, language) for s in range(len(players))]
    else:
        worded["scores"] = [_score_text(p, language) for p in players]
    expedition = expedition_of(state, cat)
    if state["mode"] == "solo" and expedition is not None:
        progress_words = progress_text(state, cat, language)
        worded["solo"] = {
            "title": expedition.titles[language], "story": expedition.stories[language],
            "victory": victory_text(expedition, language),
            "special_rules": special_rules_text(expedition, cat, language), "progress_text": progress_words,
            "reason": solo_reason(state, language, cat),
        }
        worded["scores"] = [_solo_status(state, expedition, progress_words, language)]
    return worded


def view(state: JSON, viewer: Viewer, cat: Catalog | None = None) -> MonsterView:
    """The public board (viewer None) or a seat's board with their own cages added. Never deck order or others'
    cages."""
    cat = cat or catalog()
    display = _display_view(state, cat)
    players = [_player_view(state, seat, cat) for seat in range(len(state["players"]))]
    public: MonsterView = {
        "game": state["game"],
        "title": "Monster Expedition",
        "mode": state["mode"],
        "phase": state["phase"],
        "active": None if state["over"] else state["active"],
        "to_act": list(to_act(state)),
        "round": state["round"],
        "over": state["over"],
        "turn": turn_text(state, cat),
        "words": {language: words(state, cat, language) for language in LANGUAGES if language != DEFAULT_LANGUAGE},
        "last_move": last_move(state, cat),
        "log": [describe(state, e, cat) for e in state["recent"]],
        "display": display,
        "deck_size": len(state["deck"]),
        "reserve_size": len(state["reserve"]),
        "last_round": bool(state["deck_used_up"]),
        "dice_faces": {colour: list(faces) for colour, faces in cat.dice.items()},
        "tray": _tray_view(state, cat),
        "players": players,
        "scores": [{"seat": p["seat"], "name": p["name"], "monster_points": p["monster_points"],
                    "cages": p["cages"], "text": _score_text(p)} for p in players],
        "result": None,
        "solo": None,
    }
    if state["over"] and state["mode"] == "standard":
        _add_final_result(public, state)
    if state["over"]:  # cages are counted face up at the end: every player's cages become public
        for seat, entry in enumerate(players):
            player = state["players"][seat]
            entry["cages_revealed"] = [_card_view(i, cat) for i in player["cages"]]
            entry["cage_points"] = cage_points(player, cat)
    if state["mode"] == "solo":
        _add_solo(public, state, cat)
    if viewer is not None and 0 <= viewer < len(state["players"]):
        public["you"] = _own_view(state, viewer, cat)
    return public


def _display_view(state: JSON, cat: Catalog) -> list[JSON]:
    """The display's cards with their crests (and the trader's current price)."""
    display = []
    for slot in state["display"]:
        card = _card_view(slot["card"], cat)
        card["crest"] = slot["crest"]
        if slot["card"] == TRADER_ID:
            card["cost"] = trader_cost(state, cat)
        display.append(card)
    return display


def _tray_view(state: JSON, cat: Catalog) -> JSON:
    """The dice tray of the turn in progress and what its hunting value buys."""
    turn = state["turn"]
    return {
        "region": turn["region"],
        "rolled": list(turn["rolled"]),
        "banked": list(turn["banked"]),
        "banked_numbers": list(turn["banked_numbers"]),
        "lost": list(turn["lost"]),
        "misthrows": turn["misthrows"],
        "banked_total": sum(int(d["value"]) for d in turn["banked"]),
        "hunting_value": turn["hunting_value"],
        "spent": turn["spent"],
        "remaining": remaining_value(state) if state["phase"] in ("purchase", "steal") else None,
        "affordable": affordable_cards(state, cat),
        "cage_affordable": state["phase"] == "purchase" and any(
            a["type"] == "cage" for a in purchase_options(state, cat)),
    }


def _add_final_result(public: MonsterView, state: JSON) -> None:
    """A finished standard game: the result, the ranking, and each player's final score."""
    result = state["result"]
    public["result"] = dict(result)
    public["ranking"] = ranking(result)  # best first: the final board lists the players in this order
    public["scores"] = [{"seat": s, "name": state["players"][s]["name"], "total": result["scores"][s],
                         "monster_points": result["monster_points"][s], "cage_points": result["cage_points"][s],
                         "text": _final_score_text(result, s)}
                        for s in range(len(state["players"]))]


def _add_solo(public: MonsterView, state: JSON, cat: Catalog) -> None:
    """A solo game: the expedition, its progress and outcome; the one score line is the solo status."""
    expedition = expedition_of(state, cat)
    assert expedition is not None
    solo = state["solo"]
    solo_view: JSON = {
        "expedition": expedition.number, "title": expedition.title, "story": expedition.story,
        "victory": victory_text(expedition), "special_rules": special_rules_text(expedition, cat),
        "crates": solo["crates"], "crate_value": crate_value(state, cat), "trader_visits": solo["trader_visits"],
        "improvements_left": solo["prep_left"], "progress": progress(state, cat),
        "progress_text": progress_text(state, cat),
        "outcome": solo["outcome"], "reason": solo["reason"], "loss_display": cat.rules.solo_loss_display,
    }
    public["solo"] = solo_view
    status = _solo_status(state, expedition, solo_view["progress_text"])
    public["scores"] = [{"seat": 0, "name": state["players"][0]["name"], "text": status}]


def _own_view(state: JSON, viewer: int, cat: Catalog) -> JSON:
    """What only the viewing seat sees: its own cages, its score and its legal actions."""
    player = state["players"][viewer]
    return {
        "seat": viewer,
        "cages": [_card_view(i, cat) for i in player["cages"]],
        "noted_cages": int(player["noted_cages"]),
        "cage_points": cage_points(player, cat),
        "score": total_points(player, cat),
        "legal_actions": legal_actions(state, viewer, cat),
    }


def capturable_monsters(state: JSON, cat: Catalog | None = None) -> list[JSON]:
    """For /hunt capture autocomplete: what the seat to move can capture now, cheapest crate use first."""
    cat = cat or catalog()
    if state["over"] or state["phase"] != "purchase":
        return []
    choices: list[JSON] = []
    seen: set[str] = set()
    for action in purchase_options(state, cat):
        if action["type"] != "capture" or action["card"] in seen:
            continue
        seen.add(action["card"])
        monster = cat.card(action["card"])
        crates = int(action.get("crates", 0))
        cost, _ = capture_cost(state, monster.id, crates, cat)
        choices.append({"id": monster.id, "name": monster.name, "names": dict(zip(LANGUAGES, monster.names.texts,
                                                                                   strict=True)),
                        "level": monster.level, "region": monster.region,
                        "vp": monster.vp, "cost": cost, "crates": crates})
    return choices


def affordable_cards(state: JSON, cat: Catalog | None = None) -> list[str]:
    """The display cards (monsters and the Monster Trader) the seat to move can buy now with what is left of their
    hunting value, in display order: the board marks them. Empty outside the purchase phase."""
    cat = cat or catalog()
    if state["over"] or state["phase"] != "purchase":
        return []
    options = purchase_options(state, cat)
    wanted = {a["card"] for a in options if a["type"] == "capture"}
    if any(a["type"] == "trader" for a in options):
        wanted.add(TRADER_ID)
    return [slot["card"] for slot in state["display"] if slot["card"] in wanted]


def _style(region: str) -> str:
    return {"aerie": "primary", "depths": "primary", "forest": "success"}.get(region, "secondary")


def quick_actions(state: JSON, seat: int, cat: Catalog | None = None, language: str = "en") -> list[QuickAction]:
    """Buttons for the seat to move: only legal actions, at most 20, 5 per row."""
    cat = cat or catalog()
    lang = language
    if state["over"] or seat != state["active"]:
        return []
    phase = state["phase"]
    player = state["players"][seat]
    buttons: list[QuickAction] = []
    if phase == "solo_prepare":
        for action in legal_actions(state, seat, cat):
            if action["type"] == "improve":
                region = action["region"]
                label = translate("monster.button.improve", lang, region=short_region(region, lang),
                                  level=player["camps"][region])
                buttons.append(QuickAction(label, action, "⬆️", "success", 0))
        buttons.append(QuickAction(translate("monster.button.set_out", lang), {"type": "decline"}, "🧭", "secondary",
                                   1))
    elif phase == "camp":
        icons = {"aerie": "🦅", "depths": "🐙", "forest": "🌲"}
        for region in REGIONS:
            label = translate("monster.button.camp", lang, region=short_region(region, lang),
                              die=colour_name(REGION_DIE[region], lang), black=black_dice(state, seat, region, cat))
            buttons.append(QuickAction(label, {"type": "camp", "region": region}, icons[region], _style(region), 0))
    elif phase == "bank":
        buttons += _bank_buttons(state, lang)
    elif phase == "continue":
        turn = state["turn"]
        banked = sum(int(d["value"]) for d in turn["banked"])
        dice = counted("die", len(turn["rolled"]), lang)
        buttons.append(QuickAction(translate("monster.button.roll", lang, dice=dice), {"type": "roll"}, "🎲",
                                   "primary", 0))
        buttons.append(QuickAction(translate("monster.button.stop", lang, banked=banked), {"type": "stop"}, "✋",
                                   "success", 0))
    elif phase == "purchase":
        options = purchase_options(state, cat)
        if any(a["type"] == "cage" and a["count"] == 1 for a in options):
            buttons.append(QuickAction(translate("monster.button.cage", lang, cost=cat.rules.cage_cost),
                                       {"type": "cage", "count": 1}, "🧺", "primary", 0))
        most = max((a["count"] for a in options if a["type"] == "cage"), default=0)
        if most > 1:
            buttons.append(QuickAction(translate("monster.button.cages", lang, count=most,
                                                 cost=most * cat.rules.cage_cost),
                                       {"type": "cage", "count": most}, "🧺", "primary", 0))
        trader = next((a for a in options if a["type"] == "trader"), None)
        if trader is not None:
            cost, _ = trader_price(state, int(trader.get("crates", 0)), cat)
            buttons.append(QuickAction(translate("monster.button.trader", lang, cost=cost), trader, "🛒", "primary",
                                       0))
        buttons.append(QuickAction(translate("monster.button.done", lang, left=remaining_value(state)),
                                   {"type": "done"}, "✅", "success", 0))
    return buttons[:20]


def _bank_buttons(state: JSON, language: str) -> list[QuickAction]:
    """A button per number and what follows in one press: bank it and roll the rest, or bank it and stop (issue
    33); a number that takes the last dice stops the hunt by itself, so it has one button. Two numbers a row."""
    turn = state["turn"]
    rolled = turn["rolled"]
    banked = sum(int(d["value"]) for d in turn["banked"])
    buttons = []
    for index, value in enumerate(bankable_numbers(state)):
        count = sum(1 for d in rolled if int(d["value"]) == value)
        bank = (translate("monster.button.bank_many", language, value=value, count=count) if count > 1
                else translate("monster.button.bank", language, value=value))
        left = len(rolled) - count
        if not left:
            buttons.append(QuickAction(bank, {"type": "bank", "value": value}, "🎲", "primary", index // 2))
            continue
        total = banked + value * count
        buttons.append(QuickAction(translate("monster.button.bank_roll", language, bank=bank, dice=left),
                                   {"type": "bank", "value": value, "then": "roll"}, "🎲", "primary", index // 2))
        buttons.append(QuickAction(translate("monster.button.bank_stop", language, bank=bank, total=total),
                                   {"type": "bank", "value": value, "then": "stop"}, "✋", "success", index // 2))
    return buttons


def short_region(region: str, language: str = "en") -> str:
    """A camp's short name on a button ("Forest": the board names the camps in full)."""
    if region == "forest":
        return translate("monster.region.forest_short", language)
    return region_name(region, language)


def choice_menu(state: JSON, seat: int, cat: Catalog | None = None, language: str = "en") -> ChoiceMenu | None:
    """The long lists as one select menu: the monsters the seat to move can capture (name, then cost, points and
    crates below), or whom to steal a cage from."""
    cat = cat or catalog()
    lang = language
    if state["over"] or seat != state["active"]:
        return None
    if state["phase"] == "steal":
        options = []
        for victim in steal_victims(state):
            other = state["players"][victim]
            options.append(QuickAction(said(str(other["name"])[:98]), {"type": "steal", "seat": victim}, "🗝️",
                                       description=translate("monster.menu.steal_option", lang,
                                                             cages=counted("cage", cage_count(other), lang))))
        return ChoiceMenu(translate("monster.menu.steal", lang), tuple(options)) if options else None
    if state["phase"] in ("bank", "continue"):
        return _stop_and_capture(state, seat, cat, lang)
    if state["phase"] != "purchase":
        return None
    monsters = capturable_monsters(state, cat)
    monsters.sort(key=lambda m: (-m["vp"], m["cost"], m["names"][lang]))
    options = []
    for monster in monsters[:25]:
        action: JSON = {"type": "capture", "card": monster["id"]}
        if monster["crates"]:
            action["crates"] = monster["crates"]
        crates = (translate("monster.menu.uses_crates", lang,
                            crates=translate_plural("monster.count.crate", monster["crates"], lang))
                  if monster["crates"] else "")
        description = translate("monster.menu.capture_option", lang, cost=monster["cost"], points=monster["vp"],
                                level=monster["level"], crates=crates)
        options.append(QuickAction(str(monster["names"][lang])[:100], action, "🪤", description=description))
        with_cages = _with_cages(state, seat, action, cat)
        if with_cages is not None:
            steps, cages = with_cages
            more = translate("monster.menu.capture_and_cages", lang, capture=description,
                             cages=counted("cage", cages, lang))
            options.append(QuickAction(str(monster["names"][lang])[:100], steps, "🪤",
                                       description=cut_between_words(more)))
    return ChoiceMenu(translate("monster.menu.capture", lang), tuple(options[:25])) if options else None


def _stop_and_capture(state: JSON, seat: int, cat: Catalog, language: str) -> ChoiceMenu | None:
    """While hunting, the menu ends the hunt and captures in one press (issue 33): for each way to stop now (bank
    a number and stop, or stop), each monster the hunting value then pays for, the best hunts first. Nothing is
    offered past a step that turns up a card."""
    stops: list[tuple[JSON, str]]
    if state["phase"] == "continue":
        stops = [({"type": "stop"}, "")]
    else:
        stops = []
        for value in bankable_numbers(state):
            left = sum(1 for d in state["turn"]["rolled"] if int(d["value"]) != value)
            stops.append(({"type": "bank", "value": value, **({"then": "stop"} if left else {})},
                          translate("monster.button.bank", language, value=value)))
    found = []
    for stop, bank in stops:
        try:
            after = apply(state, seat, stop, Rng(0, 0), cat).state
        except ValueError:
            continue
        if (after["over"] or after["phase"] != "purchase" or after["active"] != seat
                or len(after["deck"]) != len(state["deck"]) or len(after["reserve"]) != len(state["reserve"])):
            continue
        value = remaining_value(after)
        for monster in capturable_monsters(after, cat):
            capture: JSON = {"type": "capture", "card": monster["id"]}
            if monster["crates"]:
                capture["crates"] = monster["crates"]
            description = translate("monster.menu.stop_and_capture", language, bank=bank, value=value,
                                    cost=monster["cost"], points=monster["vp"])
            found.append((-monster["vp"], -value, QuickAction(str(monster["names"][language])[:100],
                                                             steps_action([stop, capture]), "🪤",
                                                             description=cut_between_words(description.lstrip(" ,·")))))
    found.sort(key=lambda item: item[:2])
    options = tuple(option for _, _, option in found[:25])
    return ChoiceMenu(translate("monster.menu.stop_and_capture_prompt", language), options) if options else None


def _with_cages(state: JSON, seat: int, capture: JSON, cat: Catalog) -> tuple[JSON, int] | None:
    """Capturing a monster and buying with what is left as many cages as it pays for, in one press (issue 33):
    the compound action and the number of cages, or None when no cage is affordable after the capture."""
    try:
        after = apply(state, seat, capture, Rng(0, 0), cat).state
    except ValueError:
        return None
    if after["over"] or after["phase"] != "purchase" or after["active"] != seat:
        return None
    most = max((a["count"] for a in purchase_options(after, cat) if a["type"] == "cage"), default=0)
    if not most:
        return None
    return steps_action([capture, {"type": "cage", "count": most}]), most
