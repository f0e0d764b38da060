"""/mech through discord.py's real interaction path: a whole 2-player game to its final scores with slash commands,
board buttons and select menus; autocomplete of move, play and choose; refusals answered privately."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.games.expeditions import GAME
from bot.games.expeditions.rules.policies import planned_action
from bot.offline import DiscordHarness, FakeUser, Replies
from tests.reading import read
from tests.tables import assert_result_told_once

SEED = 5


async def _match(discord_: DiscordHarness) -> Any:
    return await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]


async def _open_table(discord_: DiscordHarness, seed: int = SEED) -> list[FakeUser]:
    users = [discord_.user("alice"), discord_.user("bob")]
    await discord_.command("game new", {"game": "expeditions", "seed": seed}, user=users[0])
    await discord_.command("game join", user=users[1])
    await discord_.command("game start", user=users[0])
    return users


def command_for(action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The /mech command and options a player would type for an action."""
    kind = action["type"]
    if kind == "cover":
        return "mech actions", {"skip": action["action"]}
    if kind == "move":
        return "mech move", {"location": action["space"]}
    if kind == "play":
        return "mech play", {"card": action["card"]}
    if kind == "choose":
        return "mech choose", {"option": action["option"]}
    if kind == "odin":
        return "mech odin", {"gain": action["gain"]}
    return f"mech {kind}", {}


async def _submit(discord_: DiscordHarness, match: Any, seat: int, user: FakeUser, action: dict[str, Any],
                  turn: int, used: dict[str, int]) -> Replies:
    """Submit by button, select menu or slash command in turn, falling back to the command when not offered."""
    state = match.state
    board = discord_.last_public_message(with_components=True)
    buttons = [b.action for b in GAME.quick_actions(state, seat)]
    menu = GAME.choice_menu(state, seat)
    entries = [o.action for o in menu.options] if menu else []
    way = turn % 3
    if way == 0 and action in buttons:
        used["button"] += 1
        custom_id = f"xt:act:{match.id}:{match.version}:{seat}:{buttons.index(action)}"
        return await discord_.click(board, custom_id=custom_id, user=user)
    if way == 1 and action in entries:
        used["menu"] += 1
        custom_id = f"xt:pick:{match.id}:{match.version}:{seat}"
        assert [o["label"] for o in board.select_options(custom_id)] == [o.label[:100] for o in menu.options]
        return await discord_.select(board, custom_id, [str(entries.index(action))], user=user)
    used["command"] += 1
    path, options = command_for(action)
    return await discord_.command(path, options, user=user)


async def test_a_whole_two_player_game_by_commands_buttons_and_menus(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_)
        rnd = random.Random(SEED)
        used = {"button": 0, "menu": 0, "command": 0}
        created = changes = 0
        for step in range(1500):
            match = await _match(discord_)
            if match.status != "active":
                break
            seat = GAME.to_act(match.state)[0]
            action = planned_action(GAME, match.state, seat, rnd)
            replies = await _submit(discord_, match, seat, users[seat], action, step, used)
            # Accepted: the board changed publicly; a command also gets its private one-line answer.
            assert replies.public(), [r.content for r in replies]
            assert all("board" in (r.content or "") for r in replies.ephemeral()), [r.content for r in replies]
            after = await _match(discord_)
            assert after.version == match.version + 1
            new_boards = [r for r in replies.public() if r.created]
            to_move = GAME.to_act(after.state) if after.status == "active" else ()
            if tuple(to_move) != tuple(GAME.to_act(match.state)):
                changes += 1
                assert len(new_boards) == 1
                expected = tuple(users[s].id for s in to_move) or tuple(user.id for user in users)
                assert new_boards[0].notified == expected  # exactly the player to move, or everyone at the end
            else:
                assert not new_boards  # the same player goes on: the board is edited in place
            assert all(not r.notified for r in replies if not r.created)
            created += len(new_boards)
        assert created == changes
        match = await _match(discord_)
        assert match.status == "finished", f"no end after {step} actions"
        outcome = GAME.outcome(match.state)
        assert outcome is not None and outcome.winners
        final = discord_.channel_messages()[-1]
        assert read(outcome.summary) in final.content and final.files
        assert final.button_labels() == ["Show mine", "Details", "What's this?"] and not final.selects()
        await assert_result_told_once(discord_)
        assert min(used.values()) >= 10, used
        turns = match.state["turns_taken"] / 2
        print(f"discord game: {step} actions, {turns:.1f} turns per player, submitted {used}")
        assert await discord_.bot.service.replayed_state(match.id) == match.state  # type: ignore[attr-defined]


async def _advance_until(discord_: DiscordHarness, users: list[FakeUser], wanted: Any, limit: int = 400) -> Any:
    """Play planned moves by command until `wanted(state, seat)` holds for the seat to act; return the match."""
    rnd = random.Random(1)
    for _ in range(limit):
        match = await _match(discord_)
        seat = GAME.to_act(match.state)[0]
        if wanted(match.state, seat):
            return match
        path, options = command_for(planned_action(GAME, match.state, seat, rnd))
        await discord_.command(path, options, user=users[seat])
    raise AssertionError("the wanted position never came")


async def test_autocomplete_offers_only_legal_moves_cards_and_options(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_)
        match = await _advance_until(discord_, users, lambda s, seat: "move" in s["turn"]["remaining"]
                                     and "play" in s["turn"]["remaining"] and not s["turn"]["pending"])
        seat = GAME.to_act(match.state)[0]
        user, other = users[seat], users[1 - seat]
        moves = await discord_.autocomplete("mech move", {"location": ""}, focused="location", user=user)
        assert [c["value"] for c in moves] == [code for code, _ in GAME.legal_destinations(match.state, seat)]
        assert all(":" in c["name"] for c in moves)
        cards = await discord_.autocomplete("mech play", {"card": ""}, focused="card", user=user)
        assert sorted(c["value"] for c in cards) == sorted(match.state["players"][seat]["hand"])
        name = GAME.comp.cards[match.state["players"][seat]["hand"][0]].name
        typed = await discord_.autocomplete("mech play", {"card": name[:4]}, focused="card", user=user)
        assert name in [c["name"] for c in typed]
        assert await discord_.autocomplete("mech choose", {"option": ""}, focused="option", user=user) == []
        assert await discord_.autocomplete("mech move", {"location": ""}, focused="location", user=other) == []

        match = await _advance_until(discord_, users, lambda s, seat: bool(s["turn"]["pending"]))
        seat = GAME.to_act(match.state)[0]
        offered = await discord_.autocomplete("mech choose", {"option": ""}, focused="option", user=users[seat])
        assert [(c["value"], c["name"]) for c in offered] == [(v, label[:100]) for v, label
                                                             in GAME.choice_options(match.state, seat)]
        assert offered
        replies = await discord_.command("mech choose", {"option": offered[0]["name"]}, user=users[seat])
        assert replies.public()  # the label as shown is accepted as well as the option id


async def test_refusals_are_private_and_change_nothing(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_)
        match = await _match(discord_)
        seat = GAME.to_act(match.state)[0]
        user, other = users[seat], users[1 - seat]

        async def refused(path: str, options: dict[str, Any], who: FakeUser, words: str) -> None:
            reply = (await discord_.command(path, options, user=who)).one()
            assert reply.ephemeral and words in (reply.content or ""), reply.content
            assert (await _match(discord_)).version == match.version

        await refused("mech gather", {}, other, "not your turn")
        await refused("mech choose", {"option": "core"}, user, "no choice waiting")
        # The first turn takes all three actions; this read "That is not allowed now. Allowed: gather, move, play."
        all_three = "this turn takes Move and Play and Gather, in any order (/mech move, /mech play, /mech gather)."
        await refused("mech actions", {"skip": "play"}, user, f"Covering an action is not possible now: {all_three}")
        await refused("mech refresh", {}, user, f"Refreshing is not possible now: {all_three}")
        legal = {code for code, _ in GAME.legal_destinations(match.state, seat)}
        illegal = next(code for code in match.state["spaces"] if code not in legal)
        await refused("mech move", {"location": illegal}, user, "cannot move to")
        await refused("mech play", {"card": "Golden Teapot"}, user, "no card 'Golden Teapot'")
        await refused("mech odin", {"gain": "power"}, user, "Odin")  # no map token yet, whatever the mech
        board = discord_.last_public_message(with_components=True)
        # two presses of one control (the first turn's menu: whole plays and moves, issue 33): the second lands on a
        # board that has moved on
        stale = next(i for i in board.custom_ids() if i.startswith("xt:pick:"))
        _, late = await discord_.concurrently(discord_.select(board, stale, ["0"], user=user),
                                              discord_.select(board, stale, ["0"], user=user))
        reply = Replies(late).ephemeral()
        assert reply and "out of date" in (reply[0].content or "")


def _skip_changes_nothing_to_tell(state: Any, seat: int) -> bool:
    """A decision the player may skip, where skipping tells the channel nothing and the turn goes on."""
    from bot.core import Rng
    from bot.games.expeditions.rules.engine import pending_options

    pending = state["turn"]["pending"]
    if not pending or not any(o["id"] == "skip" for o in pending_options(GAME.comp, state, pending)):
        return False
    applied = GAME.apply(state, seat, {"type": "choose", "option": "skip"}, Rng(0, 0))
    return not any(GAME.describe(applied.state, e) for e in applied.events)


async def test_a_move_that_tells_the_channel_nothing_is_acknowledged_in_words(database: Path) -> None:
    """The mover was told a bare "Done." when the move produced no sentence for the channel (a skipped choice)."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await _open_table(discord_)
        match = await _advance_until(discord_, users, _skip_changes_nothing_to_tell)
        seat = GAME.to_act(match.state)[0]
        assert match.state["turn"]["pending"] == {"kind": "take_card", "source": "adjacent"}
        replies = await discord_.command("mech choose", {"option": "skip"}, user=users[seat])
        (answer,) = [r for r in replies.of("followup") if r.ephemeral]
        assert answer.content == "You chose Skip.\nThe board above is updated."
