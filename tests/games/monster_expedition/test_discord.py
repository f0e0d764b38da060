"""Monster Expedition through discord.py's real interaction path: a full 2-player game and a solo expedition,
played with the board buttons (quick actions) the lobby posts under every board."""

from __future__ import annotations

from pathlib import Path

from bot.app import create_bot
from bot.offline import DiscordHarness, Message
from tests.tables import player_to_move


def _button(message: Message) -> str:
    """A sensible hunter: set out, bank the highest number, roll on below 12, buy the trader or cages, else done."""
    labels = [label for label in message.button_labels() if label not in ("Show mine", "Details", "What's this?")]
    banks = [label for label in labels if label.startswith("Bank ")]
    if banks:  # bank and roll on, or bank and stop, in one press (issue 33)
        best = max(int(label.split()[1].rstrip(",")) for label in banks)
        mine = [label for label in banks if int(label.split()[1].rstrip(",")) == best]
        stops = [label for label in mine if ", stop at " in label]
        rolls = [label for label in mine if ", roll " in label]
        if not stops or not rolls:
            return mine[0]
        return rolls[0] if int(stops[0].rsplit(" ", 1)[1]) < 12 else stops[0]
    stop = next((label for label in labels if label.startswith("Stop at ")), None)
    if stop is not None:
        roll = next(label for label in labels if label.startswith("Roll again"))
        return roll if int(stop.split()[-1]) < 12 else stop
    for prefix in ("Set out", "Trader", "Buy 2 cages", "Buy cage", "Aerie", "Steal", "Done"):
        for label in labels:
            if label.startswith(prefix):
                return label
    return labels[0]


async def _play_out(discord_: DiscordHarness, users: list, limit: int = 400) -> Message:
    for _ in range(limit):
        message = discord_.last_public_message(with_components=True)
        labels = [label for label in message.button_labels() if label not in ("Show mine", "Details", "What's this?")]
        if not labels and message.selects():  # whom to steal from: a menu only
            await discord_.select(message, None, ["0"], user=await player_to_move(discord_, users))
            continue
        if not labels:
            return message
        await discord_.click(message, label=_button(message), user=await player_to_move(discord_, users))
    raise AssertionError("the game did not end through the buttons")


async def test_a_full_two_player_game_through_the_buttons(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        julia, oliver = discord_.user("julia"), discord_.user("oliver")
        await discord_.command("game new", {"game": "monster-expedition", "seed": 7}, user=julia)
        await discord_.command("game join", user=oliver)
        replies = await discord_.click(discord_.last_public_message(), label="Start", user=julia)
        board = replies.public()[-1]
        assert board.files and board.files[0].image().format == "PNG"
        assert board.button_labels()[:3] == ["Aerie: yellow + 2 black", "Depths: blue + 2 black",
                                             "Forest: green + 2 black"]
        final = await _play_out(discord_, [julia, oliver])
        assert "wins" in (final.content or "") or "share the win" in (final.content or "")
        mine = (await discord_.command("game mine", user=oliver)).one()
        assert mine.ephemeral and "Your cages" in (mine.content or "")


async def test_a_solo_expedition_and_the_saved_campaign(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        han = discord_.user("han")
        reply = (await discord_.command("game new", {"game": "monster-expedition", "mode": "solo", "seed": 5},
                                        user=han)).last
        assert reply.files and reply.button_labels()[0].startswith("Aerie: ")  # a solo game starts at once
        final = await _play_out(discord_, [han])
        content = final.content or ""
        verdict = content.rsplit("\n", 1)[1]  # the result once, in the last line
        assert verdict.startswith(("**Han won expedition 1: ", "**Han lost expedition 1: ")) and verdict.endswith(".**")
        assert "Expedition 1 won" not in content and "Expedition 1 lost" not in content
        again = (await discord_.command("game new", {"game": "monster-expedition", "mode": "solo", "seed": 6},
                                        user=han)).last
        labels = again.button_labels()
        if "**Han won expedition 1" in content:
            assert labels[0].startswith("Aerie")  # expedition 2 starts at the camp choice
        else:
            assert labels[0].startswith("Improve")  # one optional improvement after the failed attempt
