"""/me notify and /me show (issue 34): a member's own reminder interval and quiet hours, kept across servers and
applied to their reminders in every game; through the offline Discord, on a fake clock."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.app import create_bot
from bot.offline import DiscordHarness
from tests.clock import START, FakeClock
from tests.test_personal_games import open_game, to_move


def reminders_in(discord_: DiscordHarness, channel: str) -> list:
    return [m for m in discord_.channel_messages(channel) if "your turn in" in m.content]


async def test_me_notify_keeps_the_members_choices_and_me_shows_them_anywhere(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice = discord_.user("alice")
        shown = (await discord_.command("me show", user=alice, channel=discord_.dm(alice))).one()
        assert shown.ephemeral and shown.content == "\n".join([
            "Your notifications, the same on every server:", "- Your turn: a ping in the game's channel",
            "- Reminders: at each server's interval", "- Quiet hours: none",
            "- Heads-up when the player before you starts their turn: off"])
        saved = (await discord_.command("me notify", {"how": "both", "reminders": 6.0, "time_zone": "europe/berlin",
                                                      "quiet_from": 22, "quiet_until": 7, "heads_up": True},
                                        user=alice)).one()
        assert saved.ephemeral and saved.content == "\n".join([
            "Saved.", "Your notifications, the same on every server:",
            "- Your turn: a ping in the game's channel and a DM with the board",
            "- Reminders: every 6 h in all your games",
            "- Quiet hours: 22:00 to 07:00 (Europe/Berlin): reminders wait until they end, deadlines do not",
            "- Heads-up when the player before you starts their turn: on"])
        second = discord_.guild_named("Second Server")
        discord_.channel("tavern", guild=second)
        there = (await discord_.command("me show", user=alice, channel="tavern")).one().content
        assert there == saved.content.removeprefix("Saved.\n"), "the same on every server and in DMs"
        german = discord_.user("alice", locale="de")
        assert (await discord_.command("me show", user=german)).one().content.startswith(
            "Deine Benachrichtigungen, auf jedem Server gleich:\n- Dein Zug: ein Ping im Kanal des Spiels und eine DM")


async def test_a_refused_choice_says_what_is_allowed_and_changes_nothing(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("me notify", {"reminders": 6.0}, user=alice)
        before = (await discord_.command("me show", user=alice)).one().content
        for options, refusal in (
                ({"reminders": 72.0}, "Reminders every 72 hours are not possible: choose 1 to 48 hours, or 0 for"),
                ({"time_zone": "Mars/Olympus", "reminders": 3.0}, "“Mars/Olympus” is not a time zone the bot knows"),
                ({"quiet_from": 22, "quiet_until": 7}, "Quiet hours need your time zone: add time_zone:"),
                ({"time_zone": "UTC", "quiet_from": 22}, "Quiet hours need a beginning and an end")):
            answer = (await discord_.command("me notify", options, user=alice)).one()
            assert answer.ephemeral and answer.content.startswith(refusal), answer.content
            assert answer.content.endswith("Nothing was changed.")
            assert (await discord_.command("me show", user=alice)).one().content == before


async def test_time_zones_are_offered_as_they_are_typed(database: Path) -> None:
    async with DiscordHarness(create_bot(database, clock=FakeClock(), poll_seconds=None)) as discord_:
        alice = discord_.user("alice")
        offered = await discord_.autocomplete("me notify", {"time_zone": "berl"}, focused="time_zone", user=alice)
        assert offered == [{"name": "Europe/Berlin", "value": "Europe/Berlin"}]
        many = await discord_.autocomplete("me notify", {"time_zone": "america/"}, focused="time_zone", user=alice)
        assert len(many) == 25 and all(choice["value"].startswith("America/") for choice in many)


async def test_reminders_follow_the_members_interval_and_wait_for_their_quiet_hours(database: Path) -> None:
    """Alice chose 6-hourly reminders and quiet hours 22:00-07:00 in Berlin (START is 10:00 there); Bob keeps the
    server's 12 h. Her turn at a table of the second server is reminded at 16:00 Berlin time, the next one (due at
    22:00) waits until 07:00; his turn is reminded at the server's interval."""
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        await discord_.command("me notify", {"reminders": 6.0, "time_zone": "Europe/Berlin", "quiet_from": 22,
                                             "quiet_until": 7}, user=alice, channel=discord_.dm(alice))
        discord_.channel("tavern", guild=discord_.guild_named("Second Server"))
        await open_game(discord_, "tavern", [alice, bob])
        await open_game(discord_, "lounge", [carol, bob])
        mover = await to_move(discord_, "tavern")
        if mover != alice.id:  # Alice to move (her first turn, then the test waits)
            board = [m for m in discord_.channel_messages("tavern") if "Take 1" in m.button_labels()][-1]
            clock.advance(0)
            await discord_.click(board, label="Take 1", user=bob)
        match = await discord_.bot.service.open_match(discord_.channel("tavern").id)  # type: ignore[attr-defined]
        pending = await discord_.bot.service.store.pending_work(match.id)  # type: ignore[attr-defined]
        assert [(w.kind, w.payload.get("hours"), w.payload.get("quiet"), w.due_at) for w in pending] == [
            ("remind", 6.0, ["Europe/Berlin", 22, 7], int((START + timedelta(hours=6)).timestamp()))]
        clock.advance(6)
        await discord_.bot.run_due_work()
        assert [m.notified for m in reminders_in(discord_, "tavern")] == [(alice.id,)]
        clock.advance(6)  # 22:00 in Berlin: quiet
        await discord_.bot.run_due_work()
        assert len(reminders_in(discord_, "tavern")) == 1
        assert [m.notified for m in reminders_in(discord_, "lounge")] == [
            (await to_move(discord_, "lounge"),)], "the server's 12 h for the others"
        clock.advance(8.9)  # 06:54 in Berlin
        await discord_.bot.run_due_work()
        assert len(reminders_in(discord_, "tavern")) == 1
        clock.advance(0.1)  # 07:00 in Berlin
        await discord_.bot.run_due_work()
        assert [m.notified for m in reminders_in(discord_, "tavern")] == [(alice.id,), (alice.id,)]
