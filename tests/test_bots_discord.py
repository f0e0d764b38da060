"""Computer players at a Discord table: seated by the host, playing their turns at once, told in the next board,
never pinged; a hint in private; a table of bots alone plays itself a board per round."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core.seats import bot_level, is_bot
from bot.features import autoplay
from bot.games.the_expedition import GAME
from bot.games.the_expedition.rules.policies import greedy_action
from bot.offline import DiscordHarness
from tests.reading import read
from tests.tables import current_match

pytestmark = pytest.mark.usefixtures("thread_bots")  # computer players think in a thread, briefly


async def test_one_person_and_two_bots_play_to_the_end_with_one_board_per_turn(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        refused = await discord_.command("game add-bot", {"level": "hard"}, user=bob)
        assert refused.last.ephemeral and refused.last.content == "Only the host (Alice) can seat computer players."
        await discord_.command("game add-bot", {"level": "easy"}, user=alice)
        await discord_.command("game add-bot", {"level": "normal"}, user=alice)
        full = await discord_.command("game add-bot", {"level": "hard"}, user=alice)
        assert "This game is full" in full.last.content
        lobby = discord_.last_public_message()
        assert "2. 🤖 Bot 2 (easy)\n3. 🤖 Bot 3 (normal)" in lobby.content
        await discord_.command("game remove-bot", user=alice)
        assert "Bot 3" not in discord_.last_public_message().content
        await discord_.command("game add-bot", {"level": "hard"}, user=alice)
        assert "3. 🤖 Bot 3 (hard)" in discord_.last_public_message().content
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        assert [bot_level(s.user_id) for s in match.seats] == [None, "easy", "hard"]
        boards = [m for m in discord_.channel_messages() if m.files]
        assert len(boards) == 1 and boards[0].notified == (alice.id,)
        chooser = random.Random(3)
        turns, expected = 0, 1
        while match.status == "active":
            seat = GAME.to_act(match.state)[0]
            assert not is_bot(match.user_at(seat).user_id)  # the game never waits for a bot
            hint = await discord_.command("game hint", user=alice)
            assert hint.last.content.startswith("Hint: ") and hint.last.content.endswith(".")
            action = greedy_action(match.state, GAME.catalog, seat, chooser)
            if action["type"] == "place":
                await discord_.command("explore place",
                                       {"location": GAME.catalog.location(action["location"]).name}, user=alice)
            else:
                await discord_.command("explore move", {"direction": action["direction"]}, user=alice)
            turns += 1
            before = match.version
            match = await current_match(discord_)
            bots_moved = match.version > before + 1
            expected += bots_moved or match.status != "active"
            boards = [m for m in discord_.channel_messages() if m.files]
            # one board message per turn of the person: a new one when the bots have moved since (it tells their
            # turns and pings her), the same one updated while she goes on
            assert len(boards) == expected
            if bots_moved and match.status == "active":
                assert boards[-1].notified == (alice.id,)
                assert "🤖 Bot 2 (easy)" in boards[-1].content and "🤖 Bot 3 (hard)" in boards[-1].content
        outcome = GAME.outcome(match.state)
        assert match.status == "finished" and outcome is not None and turns >= 5 and expected >= 5
        assert read(outcome.summary) in discord_.channel_messages()[-1].content
        assert all(m.notified in ((), (alice.id,)) for m in discord_.channel_messages())  # bots are never pinged
        assert await discord_.bot.service.replayed_state(match.id) == match.state  # type: ignore[attr-defined]


async def test_a_hint_is_only_for_the_player_to_move(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "monster-expedition", "seed": 5}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        waiting = match.user_at(match.state["active"]).user_id
        idle = bob if waiting == alice.id else alice
        told = await discord_.command("game hint", user=idle)
        assert told.last.ephemeral and "not your turn" in told.last.content
        told = await discord_.command("game hint", user=alice if idle is bob else bob)
        assert told.last.ephemeral and told.last.content.startswith("Hint: Hunt from your")


async def test_a_table_of_bots_alone_finishes_with_one_board_per_round(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        service = discord_.bot.service  # type: ignore[attr-defined]
        await discord_.command("game new", {"game": "the-expedition", "seed": 8}, user=alice)
        await discord_.command("game add-bot", {"level": "normal"}, user=alice)
        await discord_.command("game add-bot", {"level": "easy"}, user=alice)
        await discord_.command("game leave", user=alice)  # the host leaves: the first bot hosts a table of bots
        match = await current_match(discord_)
        assert match.status == "lobby" and autoplay.all_bots(match)
        match = await service.start(match.channel_id, match.host_id)
        shown: list[int] = []

        async def show(match_id: int) -> None:
            shown.append((await service.match(match_id)).version)

        await autoplay.run_bot_table(service, match.id, show, pause=0)
        match = await service.match(match.id)
        assert match.status == "finished" and GAME.outcome(match.state) is not None
        events = await service.store.events(match.id, last=500)
        moves = [e for e in events if e.kind == "action"]
        rounds = -(-len(moves) // 2)
        assert 1 < len(shown) <= rounds + 1  # a board per round of two moves at most


async def test_a_new_board_after_bot_turns_also_tells_the_persons_own_last_step(database: Path) -> None:
    """Her last step ended her turn, so it was never on a board; the bots' board that comes back to her tells it."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "the-expedition", "seed": 21}, user=alice)
        await discord_.command("game add-bot", {"level": "normal"}, user=alice)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        action = greedy_action(match.state, GAME.catalog, GAME.to_act(match.state)[0], random.Random(1))
        location = GAME.catalog.location(action["location"]).name
        await discord_.command("explore place", {"location": location}, user=alice)
        board = [m for m in discord_.channel_messages() if m.files][-1]
        assert board.notified == (alice.id,)
        assert f"Alice placed their explorer on {location}." in board.content
        assert board.content.index("Alice placed") < board.content.index("🤖 Bot 2 (normal) moved")


async def test_an_expeditions_board_tells_the_bots_moves_and_none_of_their_non_events(database: Path) -> None:
    """A bot's turn is told by what happened (moves, gathers, plays, gains), never by what could not happen ("has
    no quest to solve here") or was declined ("chooses not to meld a meteorite")."""
    from bot.games.expeditions import GAME as EXPEDITIONS
    from bot.games.expeditions.policies import planned_action
    from tests.test_discord_mech import command_for

    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "expeditions", "seed": 3}, user=alice)
        await discord_.command("game add-bot", {"level": "normal"}, user=alice)
        await discord_.command("game start", user=alice)
        match = await current_match(discord_)
        chooser = random.Random(2)
        bot_boards: list[str] = []
        while len(bot_boards) < 6 and match.status == "active":
            seat = EXPEDITIONS.to_act(match.state)[0]
            name, options = command_for(planned_action(EXPEDITIONS, match.state, seat, chooser))
            before = match.version
            await discord_.command(name, options, user=alice)
            match = await current_match(discord_)
            if match.version > before + 1:
                bot_boards.append([m for m in discord_.channel_messages() if m.files][-1].content)
        told = "\n".join(bot_boards)
        assert len(bot_boards) == 6
        for padding in ("has no ", "chooses not to", " (twice)"):
            assert padding not in told
        bot_lines = [line for line in told.splitlines() if "Bot 2" in line]
        assert any(" moves to " in line or " gathers at " in line for line in bot_lines)
        assert any(" plays " in line for line in bot_lines)


async def test_a_kicked_seat_is_shown_with_the_robot_badge_while_its_bot_plays(database: Path) -> None:
    """/game kick keeps the seat's name in the game (its replay knows the player by it), but the board and the
    story show the bot in it as a bot; the stored state and the replay are untouched, and /game rejoin undoes it."""
    from tests.test_community_play import play_until, press_first

    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        service = discord_.bot.service  # type: ignore[attr-defined]
        await discord_.command("game new", {"game": "monster-expedition", "seed": 4}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        await play_until(discord_, [alice, bob], alice)
        await discord_.command("game kick", {"player": bob}, user=alice)
        for _ in range(40):  # Alice's turn ends; the bot in Bob's seat plays its turn at once
            before = (await current_match(discord_)).version
            await press_first(discord_, [alice, bob])
            match = await current_match(discord_)
            if match.version > before + 1:
                break
        board = [m for m in discord_.channel_messages() if m.files][-1]
        assert board.notified == (alice.id,)
        assert "🤖 Bob (normal bot)" in board.content
        assert "Bob's turn" not in board.content and "\nBob " not in board.content
        shown = await service.board(match)
        assert "Bob (normal bot)" in shown.alt_text
        assert [p["name"] for p in match.state["players"]] == ["Alice", "Bob"], "the game's state keeps the name"
        assert await service.replayed_state(match.id) == match.state
        await discord_.command("game rejoin", user=bob)
        back = await service.board(await current_match(discord_))
        assert "(normal bot)" not in back.alt_text + back.turn


async def test_the_expedition_hint_says_what_the_move_counts_on_not_the_rule_of_thumbs_figures(database: Path) -> None:
    """The hint read "…it raises your position most (points held plus half the expedition points you are closing in
    on, 6.9 to 2.8)": figures nobody could read, and in a solo game they fell (the Automations' turns that follow
    were counted) while the sentence said they rose. It says what the move counts on, in the game's terms."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "the-expedition", "mode": "solo", "seed": 32}, user=alice)
        told = await discord_.command("game hint", user=alice)
        cards = "expedition cards (Gas Giants, Moon Survey, Rich Claims)"
        assert told.last.ephemeral and told.last.content == (
            f"Hint: Place your explorer on Jupiter (3 points): of your legal moves it does the most for your points "
            f"and {cards}; you mark it when you step off.")
        board = [m for m in discord_.channel_messages() if m.buttons()][-1]
        await discord_.click(board, custom_id=board.buttons()[0]["custom_id"], user=alice)
        told = await discord_.command("game hint", user=alice)
        assert told.last.content == (
            f"Hint: Step right to Europa, which marks Saturn (3 points): of your legal moves it does the most for your "
            f"points and {cards}, counting Europa (2 points), which you mark when you leave it.")


async def test_a_hint_with_no_game_under_way_says_what_to_do_instead(database: Path) -> None:
    """In a lobby, after the end or after an abandon the answer was "There is no game under way here to give a hint
    for.", with nothing about what could be done instead."""
    async with DiscordHarness(create_bot(database), raise_errors=False) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        await discord_.command("game new", {"game": "monster-expedition", "seed": 5}, user=alice)
        told = (await discord_.command("game hint", user=alice)).last
        assert told.ephemeral and told.content == (
            "The game here has not started yet, so there is no move to suggest: the host starts it with Start or "
            "/game start.")
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        asked = await discord_.command("game abandon", user=alice)
        (confirm,) = [r for r in asked.messages() if r.buttons()]
        await discord_.click(confirm.message_id, custom_id=confirm.custom_ids()[0], user=alice)
        told = (await discord_.command("game hint", user=bob)).last
        assert told.ephemeral and told.content == (
            "The game in this channel (#1) was abandoned, so there is no move to suggest. Start another with "
            "/game new; /game replay match:1 shows how it went.")
        await discord_.command("game new", {"game": "the-expedition", "mode": "solo", "seed": 3}, user=alice)
        match = await current_match(discord_)
        while match.status == "active":
            board = discord_.last_public_message(with_components=True)
            await discord_.click(board, custom_id=board.custom_ids()[0], user=alice)
            match = await current_match(discord_)
        told = (await discord_.command("game hint", user=alice)).last
        assert told.ephemeral and told.content == (
            "The game in this channel is over, so there is no move to suggest. See the result with /game board, or "
            "start a new one with /game new.")
