"""The choices under real boards of every game fit a phone: at most five buttons a row, labels of 25 characters
or fewer (details go in a menu option's description), and a long list as one select menu whose options no button
repeats. Played through discord.py's real interaction path (the offline harness), pressing seeded random choices
among those offered."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness, Message
from tests.tables import current_match, open_table, player_to_move

PRESSES = 70
FIXED = ("Show mine", "Details", "What's this?")


def problems(message: Message) -> list[str]:
    """What does not fit a phone on one board message's controls."""
    found = []
    buttons = [b for b in message.buttons() if b.get("label") not in FIXED]
    for row in message.components:
        in_row = [c for c in row.get("components", []) if c.get("type") == 2]
        if len(in_row) > 5:
            found.append(f"{len(in_row)} buttons in a row")
    for button in buttons:
        if len(button.get("label") or "") > 25:
            found.append(f"button label over 25 characters: {button['label']!r}")
    labels = {b.get("label") for b in buttons}
    for select in message.selects():
        for option in select.get("options", []):
            if len(option["label"]) > 25:
                found.append(f"menu option over 25 characters: {option['label']!r}")
            if len(option.get("description") or "") > 100:
                found.append(f"description over 100 characters: {option['description']!r}")
            if option["label"] in labels:
                found.append(f"a button repeats the menu option {option['label']!r}")
    if len(message.selects()) > 1:
        found.append("more than one select menu")
    return found


@pytest.mark.parametrize(("game", "mode", "players", "seed"), [
    ("the-expedition", "standard", 3, 4), ("the-expedition", "solo", 1, 4), ("monster-expedition", "standard", 3, 4),
    ("monster-expedition", "solo", 1, 4), ("expeditions", "standard", 3, 4), ("expeditions", "standard", 1, 5)])
async def test_every_board_offers_choices_that_fit_a_phone(database: Path, game: str, mode: str, players: int,
                                                           seed: int) -> None:
    chooser = random.Random(seed)
    seen = {"buttons": 0, "menus": 0, "options": 0, "described": 0}
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await open_table(discord_, game, players, mode=mode if mode != "standard" else None, seed=seed)
        if players == 1 and mode == "standard":  # alone at the table: the host starts the lobby
            await discord_.command("game start", user=users[0])
        for _ in range(PRESSES):
            match = await current_match(discord_)
            if match is None or match.status != "active":
                break
            message = discord_.last_public_message(with_components=True)
            assert not problems(message), problems(message)
            buttons = [b["label"] for b in message.buttons() if b.get("label") not in FIXED]
            options = message.select_options() if message.selects() else []
            seen["buttons"] += len(buttons)
            seen["menus"] += bool(options)
            seen["options"] += len(options)
            seen["described"] += sum(1 for o in options if o.get("description"))
            user = await player_to_move(discord_, users)
            if options and (not buttons or chooser.random() < 0.5):
                await discord_.select(message, None, [chooser.choice(options)["value"]], user=user)
            else:
                await discord_.click(message, label=chooser.choice(buttons), user=user)
    assert seen["buttons"] > 0
    if game != "the-expedition":  # (its choices are a handful of steps: buttons only)
        assert seen["menus"] > 0 and seen["options"] > seen["menus"] and seen["described"] > 0


def test_the_checker_sees_a_crowded_row_a_long_label_and_a_repeat() -> None:
    """The check itself, on a hand-made message: six buttons in a row, a long label, a button that repeats."""
    long = "Move b3: face-down Central location (ends the move)"
    row = {"type": 1, "components": [{"type": 2, "label": f"B{i}", "custom_id": f"b{i}"} for i in range(5)]
           + [{"type": 2, "label": long, "custom_id": "long"}]}
    menu = {"type": 1, "components": [{"type": 3, "custom_id": "m", "options": [{"label": "B1", "value": "0"}]}]}
    message = Message({"id": "1", "channel_id": "2", "content": "", "components": [row, menu]})
    found = problems(message)
    assert "6 buttons in a row" in found
    assert f"button label over 25 characters: {long!r}" in found
    assert "a button repeats the menu option 'B1'" in found
