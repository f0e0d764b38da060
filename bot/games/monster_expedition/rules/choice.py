"""The choice in front of the player to move, in plain words, for a teaching table's board (issue 33): which camp,
which number to bank and whether to roll on, what to spend the hunting value on, whom to steal from. Public only:
no cage and no card of the deck is named."""

from __future__ import annotations

from bot.core.protocol import JSON, Offered
from bot.games.monster_expedition.rules.catalog import catalog
from bot.games.monster_expedition.rules.rules import bankable_numbers, purchase_options, remaining_value
from bot.i18n import counted, join_or, said, translate, translate_plural


def choice_text(state: JSON, seat: int, offered: Offered, language: str = "en") -> str:
    """The sentence for `seat`'s board ("" when the seat is not to move or the board offers nothing)."""
    if state["over"] or seat != state["active"] or not offered.options:
        return ""
    who = said(str(state["players"][seat]["name"]))
    phase = state["phase"]
    turn = state["turn"]
    banked = sum(int(die["value"]) for die in turn["banked"])
    parts: list[str] = []
    if phase == "solo_prepare":
        left = translate_plural("monster.count.improvement", int(state["solo"]["prep_left"]), language)
        parts.append(translate("choice.monster.solo_prepare", language, who=who, left=left,
                               set_out=translate("monster.button.set_out", language)))
    elif phase == "camp":
        parts.append(translate("choice.monster.camp", language, who=who))
    elif phase == "bank":
        numbers = join_or([str(value) for value in bankable_numbers(state)], language)
        parts.append(translate("choice.monster.bank", language, who=who, numbers=numbers, banked=banked))
        used = sorted(set(turn["banked_numbers"]))
        if used:
            parts.append(translate("choice.monster.used", language, numbers=", ".join(map(str, used))))
    elif phase == "continue":
        parts.append(translate("choice.monster.continue", language, who=who, banked=banked,
                               dice=counted("die", len(turn["rolled"]), language)))
    elif phase == "purchase":
        parts.append(_purchase(state, who, offered, language))
    elif phase == "steal":
        parts.append(translate("choice.monster.steal", language, who=who))
    if phase in ("bank", "continue") and offered.menu is not None:
        parts.append(translate("choice.monster.stop_and_capture", language))
    return " ".join(part for part in parts if part)


def _purchase(state: JSON, who: str, offered: Offered, language: str) -> str:
    """What the hunting value left buys here (the menu's monsters, the cage buttons, the Trader), and what "Done"
    gives up."""
    cat = catalog()
    value = remaining_value(state)
    kinds = {action["type"] for action in purchase_options(state, cat)}
    buys: list[str] = []
    if offered.menu is not None:
        buys.append(translate("choice.monster.buy_monster", language))
    if "cage" in kinds:
        buys.append(translate("choice.monster.buy_cage", language, cost=cat.rules.cage_cost))
    if "trader" in kinds:
        buys.append(translate("choice.monster.buy_trader", language))
    done = (translate("choice.monster.done_loses", language, value=value) if value
            else translate("choice.monster.done", language))
    if not buys:
        return translate("choice.monster.nothing_to_buy", language, who=who, value=value, done=done)
    return translate("choice.monster.purchase", language, who=who, value=value, buys=join_or(buys, language),
                     done=done)
