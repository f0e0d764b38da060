"""Durations at German settings read in the case their sentence needs (issue 21): `hours_text` gives the nominative
and accusative ("3 Tage", "12 Std.": "alle 3 Tage", "3 Tage pro Zug"), so no German settings text puts it after a
dative preposition ("nach 3 Tage" was one); `duration_text` gives the dative ("seit 2 Tagen")."""

from __future__ import annotations

from pathlib import Path

from bot.app import create_bot
from bot.features.wording import duration_text
from bot.offline import DiscordHarness
from bot.settings import hours_text
from tests.language import english_left


async def test_lobby_expiry_reads_as_german_in_its_settings_sentences(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", locale="de", manage_guild=True)
        done = (await discord_.command("settings lobby-expiry", {"hours": 72.0}, user=admin)).one()
        first, shown = done.content.split("\n", 1)  # the answer, then the settings as they now are
        assert done.ephemeral
        assert first == "Ab jetzt eröffnete Lobbys laufen ab, wenn sie 3 Tage lang nicht gestartet wurden."
        assert "- Lobby-Ablauf (`/einstellungen lobby-ablauf`): 3 Tage ohne Start" in shown.splitlines()
        assert english_left(shown, allowed=frozenset({"Lobby", "Discord"})) == []
        english = discord_.user("boss", locale="en-US", manage_guild=True)
        done = (await discord_.command("settings lobby-expiry", {"hours": 12.0}, user=english)).one()
        assert done.content.startswith("Lobbies opened from now on expire after 12 h.\n")


def test_the_two_duration_helpers_differ_only_where_german_grammar_or_number_style_needs() -> None:
    assert (hours_text(72, "de"), duration_text(72, "de")) == ("3 Tage", "3 Tagen")
    assert (hours_text(12, "de"), duration_text(12, "de")) == ("12 Std.", "12 Stunden")
    assert hours_text(72, "en") == duration_text(72, "en") == "3 days"
    assert hours_text(12, "en") == duration_text(12, "en") == "12 h"
    # the one English difference: a setting shows the hours as typed, a duration as Babel rounds them
    assert (hours_text(0.3333, "en"), duration_text(0.3333, "en")) == ("0.3333 h", "0.333 h")
