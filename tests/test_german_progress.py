"""The protocol's default progress_text (a player's stored record in /stats) in the reader's language (issue 21):
the keys by the names the game gives them, numbers in the language's format, yes/no from the catalogue."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.i18n import Localized
from bot.offline import DiscordHarness
from tests.fakes import Nim
from tests.language import english_left
from tests.tables import current_match, finish_nim
from tests.test_german_features import open_nim

pytestmark = pytest.mark.usefixtures("thread_bots")


class Ladder(Nim):
    """A game whose record holds numbers, a yes/no, a word, a list and a key it gives no name."""

    progress_names = MappingProxyType({"climbed": Localized("rungs climbed", "erklommene Sprossen"),
                                       "champion": Localized("champion", "Meister"),
                                       "rank": Localized("rank", "Rang"),
                                       "seen": Localized("seen", "gesehen")})


RECORD = {"climbed": 1200, "champion": True, "rank": "Gold", "seen": [1, 2], "secret_streak": 3}


def test_the_default_progress_text_reads_in_the_readers_language() -> None:
    assert Ladder().progress_text(RECORD, "de") == "erklommene Sprossen: 1.200, Meister: ja, Rang: Gold"
    assert Ladder().progress_text(RECORD, "en") == "rungs climbed: 1,200, champion: yes, rank: Gold"
    assert Ladder().progress_text({**RECORD, "champion": False, "climbed": 2.5}, "de") == (
        "erklommene Sprossen: 2,5, Meister: nein, Rang: Gold")
    assert Ladder().progress_text({"secret_streak": 3}, "de") == ""  # nothing named: no line, not "secret streak 3"


async def test_stats_shows_a_games_record_in_the_readers_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_nim(discord_, "de", locales=("de", "en-US"))
        await finish_nim(discord_, [alice, bob])
        match = await current_match(discord_)
        winner = alice if find_game("test-nim").outcome(match.state).winners == (0,) else bob
        german = (await discord_.command("stats", {"player": winner}, user=alice)).last.content.splitlines()
        english = (await discord_.command("stats", {"player": winner}, user=bob)).last.content.splitlines()
        assert german[-1] == "- Test Nim: gemerkte Siege: 1"
        assert english[-1] == "- Test Nim: wins kept: 1"
        assert english_left("\n".join(german), allowed=frozenset({"Alice", "Bob", "Test", "Nim"})) == []
