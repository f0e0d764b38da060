"""Undo's "waiting for" list at a German table names a seat a computer player took over in German (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import create_bot
from bot.features.undo import answer_undo
from bot.offline import DiscordHarness
from tests.language import english_left
from tests.reading import read
from tests.tables import current_match, player_to_move
from tests.test_german_features import NAMES, open_nim, take

pytestmark = pytest.mark.usefixtures("thread_bots")


@pytest.mark.parametrize(("language", "someone"), [("de", "Jemand"), ("en", "Someone")])
async def test_a_seat_a_computer_took_over_is_waited_for_in_the_tables_language(database: Path, language: str,
                                                                                someone: str) -> None:
    """A request whose approvers outlived a seat (Carol's, now a computer's): the list said "Someone" at a German
    table too."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, carol = await open_nim(discord_, language, 3, locales=("de", "de", "de"))
        first = await player_to_move(discord_, [alice, bob, carol])
        await take(discord_, first)
        kicked = bob if first is carol else carol  # alice, the host, kicks
        await discord_.command("game kick", {"player": kicked}, user=alice)
        approver = next(u for u in (alice, bob, carol) if u not in (first, kicked))
        service = discord_.bot.service
        match = await current_match(discord_)
        request = await service.store.create_undo_request(match.id, first.id, match.version, 1,
                                                          [approver.id, kicked.id])
        result = await answer_undo(service, request.id, approver.id, True, channel_id=match.channel_id)
        text = read(result.text(match.language))
        asker = match.user_at(match.seat_of(first.id)).name
        assert text == {
            "de": f"{asker} möchte den letzten Zug zurücknehmen. Es fehlt noch: Jemand.",
            "en": f"{asker} asks to take back their last move. Waiting for Someone."}[language]
        assert language == "en" or english_left(text, allowed=NAMES) == []
        assert not result.applied and someone in text
