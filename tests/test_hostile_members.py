"""Issue 32: what a hostile member could do and can no longer, through the offline Discord.

Host powers follow the seat (a replaced or departed host keeps none), a game is as private as its channel, and
the smaller refusals that said the wrong thing.
"""

from __future__ import annotations

from pathlib import Path

from bot.app import create_bot
from bot.offline import DiscordHarness
from tests.tables import current_match

# --------------------------------------------------------------------------------------------- host powers


async def test_a_host_replaced_by_a_computer_player_hands_the_host_powers_to_the_next_person(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        mod = discord_.user("mod", manage_channels=True)
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game join", user=carol)
        await discord_.command("game start", user=alice)
        replies = await discord_.command("game kick", {"player": alice}, user=mod)
        announce = [r.content for r in replies.public() if r.created]
        assert announce == ["Mod handed Alice's seat to a normal computer player 🤖. Alice can take it back at any "
                            "time with /game rejoin.\nBob has the host's powers now."]
        match = await current_match(discord_)
        assert match.host_id == bob.id
        refused = await discord_.command("game kick", {"player": bob}, user=alice)
        assert refused.last.ephemeral and "Only the host, or someone who can manage this channel" in \
            (refused.last.content or "")
        refused = await discord_.command("game abandon", user=alice)
        assert refused.last.ephemeral and "Only the host" in (refused.last.content or "")
        assert (await current_match(discord_)).seat_of(bob.id) is not None
        assert (await current_match(discord_)).status == "active"
        confirm = (await discord_.command("game abandon", user=bob)).one()
        assert confirm.button_labels() == ["Yes, abandon the game"]


async def test_a_confirmation_kept_by_a_replaced_host_no_longer_abandons(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        mod = discord_.user("mod", manage_channels=True)
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game join", user=carol)
        await discord_.command("game start", user=alice)
        confirm = (await discord_.command("game abandon", user=alice)).one()
        await discord_.command("game kick", {"player": alice}, user=mod)
        refused = await discord_.click(confirm.message_id or 0, label="Yes, abandon the game", user=alice)
        assert refused.last.ephemeral and "Only the host" in (refused.last.content or "")
        assert (await current_match(discord_)).status == "active"


async def test_a_host_leaving_a_lobby_of_computer_players_leaves_it_to_the_next_person_who_joins(
        database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, dave = discord_.user("alice"), discord_.user("bob"), discord_.user("dave", locale="de")
        await discord_.command("game new", {"game": "test-nim", "language": "de"}, user=alice)
        await discord_.command("game add-bot", user=alice)
        await discord_.command("game leave", user=alice)
        lobby = discord_.last_public_message()
        assert ("Es sitzt keine Person mehr am Tisch: Die Rechte des Gastgebers hat jetzt nur noch, wer diesen Kanal "
                "verwalten darf.") in lobby.content
        assert "(Gastgeber)" not in lobby.content
        match = await current_match(discord_)
        assert match.host_id == 0, "a computer player never hosts"
        await discord_.command("game join", user=bob)
        assert (await current_match(discord_)).host_id == bob.id, "the first person to join hosts it"
        assert "Bob (Gastgeber)" in discord_.last_public_message().content
        refused = await discord_.command("game start", user=dave)
        assert refused.last.ephemeral
        await discord_.command("game start", user=bob)
        assert (await current_match(discord_)).status == "active"


async def test_a_host_leaving_a_lobby_hands_it_to_the_next_person_seated(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game add-bot", user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game leave", user=alice)
        assert (await current_match(discord_)).host_id == bob.id, "the computer player seated first is skipped"
        assert "Bob has the host's powers now." in discord_.last_public_message().content


# --------------------------------------------------------------------------------------------- smaller refusals


async def test_abandon_pressed_from_another_channel_is_refused_as_a_control_of_another_channel(
        database: Path) -> None:
    """It said "That game has already ended" while the game went on."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        other = discord_.channel("elsewhere")
        forged = discord_.world.create_message(
            other.id, {"content": "Abandon?", "components": [{"type": 1, "components": [
                {"type": 2, "style": 4, "label": "Yes", "custom_id": f"xt:abandon:{match.id}"}]}]}, [],
            author=discord_.bot_user)
        replies = await discord_.click(forged, label="Yes", user=alice)
        assert replies.last.ephemeral
        assert "not valid here" in (replies.last.content or "")
        assert "already ended" not in (replies.last.content or "")
        assert (await current_match(discord_)).status == "active"


async def test_a_full_disk_is_named_and_does_not_point_to_a_command_that_fails_the_same_way(tmp_path: Path) -> None:
    """The apology said "/game board shows where the game stands", and /game board failed the same way."""
    async with DiscordHarness(create_bot(tmp_path / "full.sqlite3"), raise_errors=False) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob", locale="de")
        await discord_.bot.service.store.engine.execute("PRAGMA max_page_count = 1")  # no room to grow: "full"
        refused = None
        for number in range(200):  # new games until one needs a page the file may not grow by
            replies = await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=alice,
                                             channel=f"table-{number}")
            if replies.last.ephemeral and "board" not in (replies.last.content or ""):
                refused = replies.last.content or ""
                break
        assert refused == ("The game store has no room left on its disk, so nothing was saved and nothing changed. "
                           "Please tell the server's admins: everything works again as soon as there is room.")
        german = await discord_.command("game new", {"game": "test-nim", "mode": "solo"}, user=bob,
                                        channel="table-de")
        assert (german.last.content or "").startswith("Der Spielspeicher hat auf seinem Datenträger keinen Platz")
