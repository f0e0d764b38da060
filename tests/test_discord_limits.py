"""Discord's limits that its API description does not carry (issue 19), modelled by the offline Discord and met by
the bot: an interaction token lives 15 minutes, the initial response comes within 3 seconds, a 429 is waited out,
and a board deleted (or a permission removed) between two moves does not stop the game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.app import create_bot
from bot.offline import DiscordHarness, InteractionFailed, World
from cogs.table import BOARD_REPOSTED
from tests.tables import current_match, open_table, player_to_move

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Clock:
    """One time for the bot's scheduler and for Discord's token clock, moved by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def _keeper_bot(world: World, kept: list[discord.Interaction]) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())

    @bot.tree.command(name="keep", description="Answers, and keeps the interaction for later")
    async def keep(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("kept")
        kept.append(interaction)

    @bot.tree.command(name="slow", description="Answers after 4 seconds of Discord's time")
    async def slow(interaction: discord.Interaction) -> None:
        world.clock.advance(seconds=4)  # type: ignore[attr-defined]
        await interaction.response.send_message("too late")

    return bot


async def test_an_interaction_token_lives_15_minutes_and_its_first_answer_3_seconds() -> None:
    clock, kept = Clock(), []
    world = World(clock=clock)
    async with DiscordHarness(_keeper_bot(world, kept), world=world) as discord_:
        alice = discord_.user("alice")
        await discord_.command("keep", user=alice)
        (interaction,) = kept
        clock.advance(minutes=14)
        await discord_.as_bot(interaction.followup.send("still in time"))
        await discord_.as_bot(interaction.edit_original_response(content="edited in time"))
        clock.advance(minutes=1, seconds=1)
        for late in (interaction.followup.send("too late"), interaction.edit_original_response(content="too late")):
            with pytest.raises(discord.HTTPException) as refused:
                await discord_.as_bot(late)
            assert (refused.value.status, refused.value.code) == (401, 50027)
        with pytest.raises(InteractionFailed) as failed:
            await discord_.command("slow", user=alice)
        assert any(isinstance(e, discord.NotFound) and e.code == 10062 for e in _causes(failed.value.errors))


def _causes(errors: list[BaseException]) -> list[BaseException]:
    out: list[BaseException] = []
    for error in errors:
        while error is not None:
            out.append(error)
            error = error.__cause__ or getattr(error, "original", None)  # type: ignore[assignment]
    return out


def _webhook_calls(requests: list[dict[str, Any]]) -> list[str]:
    return [r["route"] for r in requests if r["route"].startswith(("POST /interactions/", "POST /webhooks/",
                                                                     "PATCH /webhooks/", "DELETE /webhooks/"))]


async def test_timers_reminders_and_computer_players_acting_later_never_use_an_old_interactions_webhook(
        database: Path) -> None:
    clock = Clock()
    world = World(clock=clock)
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21, "timer": 2.0}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        await discord_.command("game new", {"game": "test-nim", "seed": 4}, user=alice, channel="side")  # no timer
        await discord_.command("game join", user=bob, channel="side")
        await discord_.command("game start", user=alice, channel="side")
        users = [alice, bob]
        before = await current_match(discord_)
        late = await player_to_move(discord_, users)
        mark = len(world.requests)
        clock.advance(hours=2, minutes=6)  # every token of the game so far is long dead
        await discord_.bot.run_due_work()  # the timer: a computer player takes the overdue turn
        after = await current_match(discord_)
        assert after.version > before.version and await player_to_move(discord_, users) is not late
        clock.advance(hours=12, minutes=1)
        await discord_.bot.run_due_work()  # a reminder in the side game (and the timer again here)
        assert any("your turn in" in m.content for m in discord_.channel_messages("side"))
        later = world.requests[mark:]
        assert later and _webhook_calls(later) == [], "later work posts to the channel, never through a webhook"
        assert [r["route"] for r in later if r["route"].startswith("POST /channels/")]
        # A kick much later: its own fresh interaction answers; the computer player's move goes to the channel.
        mark = len(world.requests)
        kick = await discord_.command("game kick", {"player": await player_to_move(discord_, users)}, user=alice)
        assert kick.acknowledged and (await current_match(discord_)).version > after.version
        tokens = {r["url"].split("/")[-2] for r in world.requests[mark:] if "/interactions/" in r["url"]}
        tokens |= {r["url"].split("/webhooks/")[1].split("/")[1] for r in world.requests[mark:]
                   if "/webhooks/" in r["url"]}
        assert tokens == {f"tok{kick.interaction_id}"}, "only the kick's own token is used"


async def test_a_rate_limited_board_post_or_edit_is_waited_out_and_no_board_is_lost_or_doubled(
        database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2, seed=3)
        players = [alice, bob]
        first = await discord_.click(discord_.last_public_message(with_components=True), label="Take 1",
                                     user=players[0])
        (posted,) = [r for r in first if r.created and not r.ephemeral]
        (edited,) = first.of("edit")  # the old board loses its buttons
        # However the bot posts and edits a board, those routes answer the next press with a 429 once each.
        post = discord_.world.fail_next(posted.route, 429, message="You are being rate limited.", retry_after=0.05)
        edit = discord_.world.fail_next(edited.route, 429, message="You are being rate limited.", retry_after=0.05)
        boards_before = len(discord_.channel_messages())
        old = discord_.last_public_message(with_components=True)
        version = (await current_match(discord_)).version
        second = await discord_.click(old, label="Take 1", user=players[1])
        assert (post.met, edit.met) == (1, 1), "the board post and the edit each met a 429"
        assert len([r for r in second if r.created and not r.ephemeral]) == 1, "posted once, after waiting"
        assert len(discord_.channel_messages()) == boards_before + 1, "one new board: none lost, none doubled"
        assert "Take 1" not in discord_.world.get_message(old.id).button_labels(), "the old board was edited"
        assert (await current_match(discord_)).version == version + 1
        mover = await player_to_move(discord_, players)
        third = await discord_.click(discord_.last_public_message(with_components=True), label="Take 1", user=mover)
        assert third.public(), "the game goes on"


async def _slash_move(discord_: DiscordHarness, users: list[Any]) -> Any:
    """The player to move makes a legal move of The Expedition by slash command (not by the board's buttons)."""
    import random

    from bot.games.the_expedition import GAME
    from bot.games.the_expedition.rules.policies import greedy_action

    match = await current_match(discord_)
    seat = GAME.to_act(match.state)[0]
    action = greedy_action(match.state, GAME.catalog, seat, random.Random(1))
    if action["type"] == "place":
        name = GAME.catalog.location(action["location"]).name
        return await discord_.command("explore place", {"location": name}, user=users[seat])
    return await discord_.command("explore move", {"direction": action["direction"]}, user=users[seat])


async def test_a_board_deleted_between_two_moves_is_posted_again_and_says_so(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "the-expedition", 2, seed=11)
        await _slash_move(discord_, users)
        deleted = discord_.last_public_message(with_components=True)
        discord_.world.delete_message(deleted.id)  # a moderator deleted the board
        version = (await current_match(discord_)).version
        replies = await _slash_move(discord_, users)
        assert (await current_match(discord_)).version == version + 1, "the move landed"
        (again,) = [r for r in replies if r.created and not r.ephemeral]
        board = discord_.last_public_message(with_components=True)
        assert board.id == again.message_id != deleted.id, "the board is at the bottom of the channel again"
        assert BOARD_REPOSTED in board.content and again.notified == (), "told where it went; nobody pinged twice"
        mover = await player_to_move(discord_, users)
        assert await _slash_move(discord_, [mover, mover]) is not None  # and the game goes on from it
        assert (await current_match(discord_)).version == version + 2


async def test_a_permission_removed_between_two_moves_does_not_stop_the_game(database: Path) -> None:
    """Without Send Messages the bot still answers interactions (their webhooks need no channel permission):
    boards go out as interaction followups and edits, and the move lands."""
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "the-expedition", 2, seed=11)
        discord_.world.bot_permissions.send_messages = False
        for _ in range(4):
            version = (await current_match(discord_)).version
            mover = await player_to_move(discord_, users)
            replies = await _slash_move(discord_, users)
            assert (await current_match(discord_)).version == version + 1, "the move landed"
            assert replies.public() or replies.of("edit"), "the board shows it"
            assert replies.ephemeral(), f"{mover.name} is told"
        with pytest.raises(discord.Forbidden):  # what needs the permission is refused, as Discord refuses it
            await discord_.as_bot(discord_.bot.get_partial_messageable(discord_.default_channel.id).send("hi"))


async def test_planted_faults_answer_once_on_their_route_and_are_counted() -> None:
    """The fault hook other tests build on (outages, missing permissions): one planted answer, then Discord again."""
    world = World()
    async with DiscordHarness(_keeper_bot(world, []), world=world) as discord_:
        channel = discord_.bot.get_partial_messageable(discord_.default_channel.id)
        outage = world.fail_next("POST /channels/{channel_id}/messages", 503, code=0,
                                 when=lambda body: body.get("content") == "second")
        await discord_.as_bot(channel.send("first"))  # not matched by `when`
        with pytest.raises(discord.HTTPException) as failed:
            await discord_.as_bot(channel.send("second"))
        assert failed.value.status == 503 and outage.met == 1 and outage.left == 0
        await discord_.as_bot(channel.send("second"))  # used up: answered normally
        assert [m.content for m in discord_.channel_messages()] == ["first", "second"]
        assert [r.get("answered") for r in world.requests if r["route"].startswith("POST /channels/")] == [
            None, 503, None]
