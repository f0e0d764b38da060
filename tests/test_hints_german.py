"""`/game hint` in the reader's language (issue 21): every game's computer-player reason reaches a German reader in
German, also at an English table, and an English reader next to them still reads English."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.offline import DiscordHarness
from tests.language import english_left

pytestmark = pytest.mark.usefixtures("thread_bots")


@pytest.mark.parametrize(("game", "mode", "seed"), [
    ("the-expedition", "solo", 32), ("monster-expedition", "solo", 5), ("expeditions", "standard", 7)])
async def test_a_hint_answers_a_german_reader_in_german(database: Path, game: str, mode: str, seed: int) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        anna = discord_.user("anna", locale="de")
        await discord_.command("game new", {"game": game, "mode": mode, "seed": seed}, user=anna)
        if game == "expeditions":  # a game for 1-5 waits in the lobby until its host starts it
            await discord_.command("game start", user=anna)
        told = (await discord_.command("game hint", user=anna)).last
        assert told.ephemeral and told.content.startswith("Tipp: ")
        assert not english_left(told.content)


async def test_the_expedition_hint_in_german_says_what_the_move_counts_on(database: Path) -> None:
    """The German twin of test_bots_discord's English hint: the place and the step sentence, word for word."""
    async with DiscordHarness(create_bot(database)) as discord_:
        anna = discord_.user("anna", locale="de")
        await discord_.command("game new", {"game": "the-expedition", "mode": "solo", "seed": 32}, user=anna)
        cards = "Expeditionskarten (Gasriesen, Mondvermessung, Reiche Funde)"
        told = (await discord_.command("game hint", user=anna)).last
        assert told.content == (
            f"Tipp: Setze deinen Entdecker auf Jupiter (3 Punkte): Von deinen erlaubten Zügen bringt dieser am "
            f"meisten für deine Punkte und {cards}; du markierst den Ort, wenn du ihn verlässt.")
        board = [m for m in discord_.channel_messages() if m.buttons()][-1]
        await discord_.click(board, custom_id=board.buttons()[0]["custom_id"], user=anna)
        told = (await discord_.command("game hint", user=anna)).last
        assert told.content == (
            f"Tipp: Ziehe nach rechts auf Europa und markiere damit Saturn (3 Punkte): Von deinen erlaubten Zügen "
            f"bringt dieser am meisten für deine Punkte und {cards}, wobei Europa (2 Punkte) schon mitzählt – du "
            f"markierst den Ort, wenn du ihn verlässt.")
        assert not english_left(told.content)


async def test_an_english_reader_at_a_german_table_reads_the_hint_in_english(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bert = discord_.user("alice", locale="en-US"), discord_.user("bert", locale="de")
        await discord_.command("game new", {"game": "the-expedition", "mode": "standard", "seed": 32,
                                            "language": "de"}, user=alice)
        await discord_.command("game join", user=bert)
        await discord_.command("game start", user=alice)
        told = (await discord_.command("game hint", user=alice)).last
        assert told.content.startswith("Hint: Place your explorer on ") and "of your legal moves" in told.content
