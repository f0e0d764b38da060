"""Turn timers, replacing absent players and expiring lobbies, on a fake clock through the offline harness (issue 12).

Computer players think in a thread with a small budget here (the process pool is tested in test_bots_autoplay).
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import JSON, Applied, QuickAction, Rng, register
from bot.core.seats import bot_level, is_bot
from bot.features.community import pass_action
from bot.offline import DiscordHarness, FakeUser, World
from bot.service import Player
from rendering import register_renderer
from tests.fakes import Nim, tiny_png
from tests.tables import current_match, open_table, player_to_move
from tests.test_community_reminders import FakeClock, board


class PassingNim(Nim):
    """Nim whose players may also pass: a game whose rules allow skipping a turn."""

    key = "test-passing-nim"
    title = "Test Passing Nim"
    aliases = ()

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        return [*super().legal_actions(state, seat), {"type": "pass"}]

    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        if action.get("type") != "pass":
            return super().apply(state, seat, action, rng)
        new = copy.deepcopy(state)
        new["turn"] = (seat + 1) % len(new["players"])
        return Applied(new, [{"kind": "passed", "seat": seat}])

    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        if event["kind"] == "passed":
            return f"{state['players'][event['seat']]['name']} passed."
        return super().describe(state, event)

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        takes = [QuickAction(f"Take {a['count']}", a) for a in Nim.legal_actions(self, state, seat)]
        return [*takes, QuickAction("Pass", {"type": "pass"})]

    def choice_menu(self, state: JSON, seat: int, language: str = "en") -> None:
        return None


PASSING = register(PassingNim())
register_renderer(PASSING.key, lambda view: tiny_png(PASSING.key, view))


pytestmark = pytest.mark.usefixtures("thread_bots")  # computer players think in a thread, briefly


async def press_first(discord_: DiscordHarness, users: Sequence[FakeUser]) -> None:
    """The player to move presses the first move button of the board."""
    mover = await player_to_move(discord_, list(users))
    labels = [label for label in board(discord_).button_labels()
              if label not in ("Show mine", "Details", "What's this?")]
    replies = await discord_.click(board(discord_), label=labels[0], user=mover)
    assert not replies.ephemeral(), [r.content for r in replies]


async def play_until(discord_: DiscordHarness, users: Sequence[FakeUser], target: FakeUser) -> None:
    """Press moves until `target` is to move (a turn may take several steps)."""
    for _ in range(20):
        if await player_to_move(discord_, users) is target:
            return
        await press_first(discord_, users)
    match = await current_match(discord_)
    raise AssertionError(f"{target.name} never came to move: {match.status} {match.seats} {board(discord_).content}")


async def test_the_timer_has_a_normal_computer_player_take_an_overdue_turn(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        lobby = await discord_.command("game new", {"game": "the-expedition", "seed": 21, "timer": 2.0}, user=alice)
        assert "Turn timer: 2 h per turn." in lobby.public()[-1].content, "the lobby says what players sign up for"
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        users = [alice, bob]
        before = await current_match(discord_)
        late = await player_to_move(discord_, users)
        clock.advance(1.9)
        await discord_.bot.run_due_work()
        assert (await current_match(discord_)).version == before.version
        clock.advance(0.2)
        await discord_.bot.run_due_work()
        after = await current_match(discord_)
        assert after.version > before.version
        assert await player_to_move(discord_, users) is not late
        note = board(discord_)
        assert note.content.startswith(f"⏰ {late.global_name} did not move within 2 h: a normal computer player "
                                       "took the turn.")
        assert note.notified == ((await player_to_move(discord_, users)).id,)
        moves = [e for e in await discord_.bot.service.store.events(after.id) if e.kind == "action"]
        assert moves[-1].user_id == late.id, "the move is the late player's own, decided for their seat"
        assert after.user_at(moves[-1].seat).user_id == late.id, "the seat stays theirs"
        await discord_.bot.run_due_work()
        assert board(discord_).id == note.id, "one deadline, one turn played"


async def test_the_skip_policy_passes_where_the_rules_allow_and_falls_back_to_the_bot(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True)
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("settings timer", {"hours": 1.0, "policy": "skip"}, user=admin)
        service = discord_.bot.service
        await service.new_match(discord_.guild.id, discord_.default_channel.id, PASSING.key,
                                Player(alice.id, "Alice"), seed=3)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        assert pass_action(PASSING, match.state, 0) == {"type": "pass"}
        late = await player_to_move(discord_, [alice, bob])
        clock.advance(1)
        await discord_.bot.run_due_work()
        after = await current_match(discord_)
        assert after.state["pile"] == match.state["pile"], "skipped: no stone taken"
        assert board(discord_).content.startswith(f"⏰ {late.global_name} did not move within 1 h: the turn was "
                                                  "skipped.")
        assert board(discord_).content.count(f"{late.global_name} passed.") == 1
        await service.abandon(discord_.default_channel.id, alice.id, can_manage_channel=False)
        # The Expedition has no pass: the computer player takes the turn, and the channel is told why.
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        before = await current_match(discord_)
        late = await player_to_move(discord_, [alice, bob])
        clock.advance(1)
        await discord_.bot.run_due_work()
        assert (await current_match(discord_)).version > before.version
        assert board(discord_).content.startswith(
            f"⏰ {late.global_name} did not move within 1 h. The Expedition has no pass in its rules, so a normal "
            "computer player took the turn instead of skipping it.")


async def test_kick_hands_the_seat_to_a_bot_that_plays_at_once_and_rejoin_takes_it_back(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        carol = discord_.user("carol")
        mod = discord_.user("mod", manage_channels=True)
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        early = await discord_.command("game kick", {"player": bob}, user=alice)
        assert "The game has not started" in early.last.content
        await discord_.command("game start", user=alice)
        users = [alice, bob]
        await play_until(discord_, users, alice)  # kick bob while it is not his turn
        refused = await discord_.command("game kick", {"player": alice}, user=carol)
        assert refused.last.ephemeral and "Only the host, or someone who can manage this channel" in \
            refused.last.content
        itself = await discord_.command("game kick", {"player": alice}, user=alice)
        assert "You cannot hand your own seat" in itself.last.content
        outsider = await discord_.command("game kick", {"player": carol}, user=alice)
        assert "not playing in this game" in outsider.last.content
        nobody = await discord_.command("game rejoin", user=bob)
        assert "no seat to take back" in nobody.last.content
        boards = len([m for m in discord_.channel_messages() if m.files])
        store = discord_.bot.service.store
        alices_reminder = await store.pending_work((await current_match(discord_)).id)
        replies = await discord_.command("game kick", {"player": bob}, user=alice)
        assert await store.pending_work((await current_match(discord_)).id) == alices_reminder, \
            "replacing a player who is not to move leaves the mover's reminder as it was"
        public = [r for r in replies.public() if r.created]
        assert len(public) == 1 and public[0].notified == ()
        assert [r.kind for r in replies.public() if not r.created] == ["edit"], "the board is rebound, no ping"
        assert public[0].content == ("Alice handed Bob's seat to a normal computer player 🤖. Bob can take it back "
                                     "at any time with /game rejoin.")
        match = await current_match(discord_)
        assert bot_level(match.user_at(1).user_id) == "normal" and match.seat_of(bob.id) is None
        assert [s.name for s in match.seats] == ["Alice", "Bob"], "the seat keeps its name"
        assert len([m for m in discord_.channel_messages() if m.files]) == boards, "not Bob's turn: no new board"
        # Alice moves; the bot in Bob's seat answers at once and the next board pings her.
        await press_first(discord_, users)
        after = await current_match(discord_)
        if after.status == "active":
            assert await player_to_move(discord_, users) is alice
            assert board(discord_).notified == (alice.id,)
        assert not any(w.kind == "remind" and 1 in w.payload["seats"]
                       for w in await discord_.bot.service.store.pending_work(after.id)), "bots are never reminded"
        rejoined = await discord_.command("game rejoin", user=bob)
        assert [r.content for r in rejoined.public() if r.created] == ["Bob is back: their seat is theirs again."]
        match = await current_match(discord_)
        assert match.seat_of(bob.id) is not None and not any(is_bot(s.user_id) for s in match.seats)
        again = await discord_.command("game rejoin", user=bob)
        assert "no seat to take back" in again.last.content
        # A channel manager may kick too; kicking the seat to move has the bot play it at once.
        await play_until(discord_, users, bob)
        before = (await current_match(discord_)).version
        replies = await discord_.command("game kick", {"player": bob}, user=mod)
        after = await current_match(discord_)
        assert after.version > before + 1
        created = [r for r in replies.public() if r.created and r.files]
        if after.status == "active":
            assert len(created) == 1 and created[0].notified == (alice.id,)
        last_human = await discord_.command("game kick", {"player": alice}, user=mod)
        assert "only computer players" in last_human.last.content


async def test_a_kicked_player_who_presses_or_moves_is_told_to_rejoin_not_that_they_are_not_playing(
        database: Path) -> None:
    """Bob, replaced with /game kick, still has a seat kept for him: the refusal says how to take it back."""
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob, carol = discord_.user("alice"), discord_.user("bob"), discord_.user("carol")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        await play_until(discord_, [alice, bob], alice)
        await discord_.command("game kick", {"player": bob}, user=alice)
        before = await current_match(discord_)
        rejoin = ("A computer player has your seat since you were replaced with /game kick. Take it back with "
                  "/game rejoin, then play on.")
        label = next(x for x in board(discord_).button_labels() if x not in ("Show mine", "Details", "What's this?"))
        pressed = await discord_.click(board(discord_), label=label, user=bob)
        assert pressed.last.ephemeral and pressed.last.content == rejoin and not pressed.public()
        moved = await discord_.command("explore move", {"direction": "up"}, user=bob)
        assert moved.last.ephemeral and moved.last.content == rejoin
        stranger = await discord_.click(board(discord_), label=label, user=carol)
        assert stranger.last.content == "You are not playing in this game, so its buttons are not yours to press."
        assert (await current_match(discord_)).version == before.version, "nothing changed"


async def test_a_kicked_player_to_move_is_replaced_at_once_and_the_replay_still_matches(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "the-expedition", 2, seed=21)
        mover = await player_to_move(discord_, users)
        host = users[0]
        mover = users[1]
        await play_until(discord_, users, mover)
        before = await current_match(discord_)
        await discord_.command("game kick", {"player": mover}, user=host)
        after = await current_match(discord_)
        assert after.version > before.version + 1, "the computer player moved at once"
        replayed = await discord_.bot.service.replayed_state(after.id)
        assert replayed == after.state


async def test_a_lobby_that_never_starts_expires_after_the_servers_setting(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, admin = discord_.user("alice"), discord_.user("admin", manage_guild=True)
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        lobby = discord_.last_public_message()
        closes = int((clock() + timedelta(hours=24)).timestamp())  # a Discord timestamp, in each reader's own time
        assert f"The lobby closes <t:{closes}:R> if nobody starts it." in lobby.content
        clock.advance(23.9)
        await discord_.bot.run_due_work()
        assert (await current_match(discord_)).status == "lobby"
        clock.advance(0.2)
        await discord_.bot.run_due_work()
        match = await current_match(discord_)
        assert match.status == "abandoned"
        shown = discord_.world.get_message(lobby.id)
        assert "Nobody started this lobby within 24 h, so it expired" in shown.content and shown.buttons() == []
        await discord_.command("settings lobby-expiry", {"hours": 2.0}, user=admin)
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game join", user=discord_.user("bob"))
        clock.advance(1)
        await discord_.command("game start", user=alice)
        clock.advance(5)
        await discord_.bot.run_due_work()
        assert (await current_match(discord_)).status == "active", "a started game does not expire"
        confirm = (await discord_.command("game abandon", user=alice)).last
        await discord_.click(confirm, label="Yes, abandon the game", user=alice)
        assert (await current_match(discord_)).status == "abandoned"
        assert await discord_.bot.service.store.pending_work((await current_match(discord_)).id) == []
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        clock.advance(2)
        await discord_.bot.run_due_work()
        assert (await current_match(discord_)).status == "abandoned"
        assert "within 2 h" in discord_.last_public_message().content


async def test_a_deadline_passing_while_the_bot_is_down_is_applied_once_after_the_restart(database: Path) -> None:
    clock = FakeClock()
    world = World()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21, "timer": 1.0}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        before = await current_match(discord_)
        late = await player_to_move(discord_, [alice, bob])
    clock.advance(5)
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as first, \
            DiscordHarness(create_bot(database, clock=clock, poll_seconds=None), world=world) as second:
        handled = await asyncio.gather(first.bot.run_due_work(), second.bot.run_due_work(),
                                       first.bot.run_due_work())
        assert sum(handled) == 1
        after = await current_match(first)
        moves = [e for e in await first.bot.service.store.events(after.id) if e.kind == "action"]
        assert moves and {e.user_id for e in moves} == {late.id}, "only the late player's turn was played"
        assert after.version == before.version + len(moves)
        notes = [m for m in first.channel_messages() if m.content.startswith("⏰")]
        assert len(notes) == 1 and notes[0].notified == ((await player_to_move(first, [alice, bob])).id,)
        pending = await first.bot.service.store.pending_work(after.id)
        assert sorted(w.kind for w in pending) == ["remind", "timer"], "the next turn has its own deadline"
        assert all(w.due_at == int(clock.now.timestamp()) + {"remind": 12, "timer": 1}[w.kind] * 3600
                   for w in pending)


async def test_a_deadline_claimed_before_its_turn_ended_never_plays_a_later_turn(database: Path) -> None:
    """A pass claims a deadline; meanwhile the turn ends and comes round to the same seat again. The old deadline
    is stale (the move marked it done in its own transaction): applying it now plays nothing."""
    from bot.features.community import play_overdue_turn

    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        service = discord_.bot.service
        await discord_.command("game new", {"game": "test-nim", "seed": 4, "timer": 1.0}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        late = await player_to_move(discord_, [alice, bob])
        clock.advance(1)
        (claimed,) = await service.store.claim_due("", clock(), 10, 300)
        await discord_.click(board(discord_), label="Take 1", user=late)
        await discord_.click(board(discord_), label="Take 1", user=await player_to_move(discord_, [alice, bob]))
        assert await player_to_move(discord_, [alice, bob]) is late, "the same seat is to move again"
        before = await current_match(discord_)
        assert await play_overdue_turn(service, claimed, clock()) is None
        assert (await current_match(discord_)).version == before.version
