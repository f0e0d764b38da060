"""/hunt through discord.py's real interaction path: every command, autocomplete, the campaign, and refusals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.core import Rng, find_game
from bot.offline import DiscordHarness
from tests.tables import assert_result_told_once, current_match, open_table

GAME = find_game("monster-expedition")


async def _state(discord_: DiscordHarness) -> dict[str, Any]:
    match = await current_match(discord_)
    assert match.state is not None
    return match.state


async def test_a_turn_by_slash_commands(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "monster-expedition", 2, seed=21)
        refused = (await discord_.command("hunt camp", {"region": "aerie"}, user=bob)).one()
        assert refused.ephemeral and "not your turn" in (refused.content or "")
        board = (await discord_.command("hunt camp", {"region": "aerie"}, user=alice)).last
        assert not board.ephemeral and board.files and "Aerie" in (board.content or "")
        banked_total = 0
        while (state := await _state(discord_))["phase"] in ("bank", "continue"):
            legal = GAME.legal_actions(state, 0)
            if state["phase"] == "bank":
                values = sorted(a["value"] for a in legal if a["type"] == "bank")
                refused = (await discord_.command("hunt bank", {"value": 12}, user=alice)).one()
                assert refused.ephemeral  # 12 is never showing on Aerie dice here; nothing changes
                assert (await _state(discord_)) == state
                await discord_.command("hunt bank", {"value": values[-1]}, user=alice)
                banked_total += values[-1]
            else:
                await discord_.command("hunt stop", user=alice)
        state = await _state(discord_)
        if state["phase"] == "purchase":
            choices = await discord_.autocomplete("hunt capture", {"monster": ""}, focused="monster", user=alice)
            assert all("level" in c["name"] for c in choices)
            legal = GAME.legal_actions(state, 0)
            if any(a["type"] == "cage" for a in legal):
                reply = (await discord_.command("hunt cage", {"count": 1}, user=alice)).last
                assert "cage" in (reply.content or "").lower()
            if (await _state(discord_))["phase"] == "purchase":
                await discord_.command("hunt done", user=alice)
        state = await _state(discord_)
        assert state["active"] == 1 and state["phase"] == "camp"
        late = (await discord_.command("hunt roll", user=alice)).one()
        assert late.ephemeral and "not your turn" in (late.content or "")


async def test_a_command_out_of_its_phase_names_what_it_does_not_its_action_type(database: Path) -> None:
    """While dice wait to be banked, /hunt trader read "You can't trader now" and /hunt cage "You can't cage now"."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "monster-expedition", 2, seed=21)
        await discord_.command("hunt camp", {"region": "aerie"}, user=alice)
        state = await _state(discord_)
        assert state["phase"] == "bank"
        hint = "bank one of the numbers rolled (" + ", ".join(str(v) for v in sorted(
            {a["value"] for a in GAME.legal_actions(state, 0) if a["type"] == "bank"})) + ")."
        for path, options, doing in (("hunt trader", {}, "visit the Monster Trader"),
                                     ("hunt cage", {"count": 1}, "buy cages"),
                                     ("hunt done", {}, "finish buying"),
                                     ("hunt capture", {"monster": "fuchsling"}, "capture a monster")):
            refused = (await discord_.command(path, options, user=alice)).one()
            assert refused.ephemeral and refused.content == f"You can't {doing} now: {hint}", path
        assert await _state(discord_) == state


async def test_the_campaign_and_solo_expeditions(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        progress = (await discord_.command("hunt campaign", user=alice)).one()
        assert progress.ephemeral and "no expedition won yet, 10 to go" in (progress.content or "")
        locked = (await discord_.command("hunt solo", {"expedition": 3}, user=alice)).one()
        assert locked.ephemeral and "3" in (locked.content or "")
        board = (await discord_.command("hunt solo", {"camps": "II"}, user=alice)).last
        assert not board.ephemeral and board.files
        state = await _state(discord_)
        assert state["solo"]["expedition"] == 1 and state["mode"] == "solo"
        busy = (await discord_.command("hunt solo", user=alice)).one()
        assert busy.ephemeral and "already has a game of Monster Expedition" in (busy.content or "")


def _path_to_a_crate_purchase(profile: dict[str, Any]) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    """Search (rules only, no Discord) for a seed and moves of expedition 9 that reach a capture only crates allow.

    The match's randomness is Rng(seed, step) with step 2 for the setup (the lobby's creation is step 1)."""
    for seed in range(300):
        state = GAME.setup("solo", ["Alice"], Rng(seed, 2), {"profiles": [profile]})
        chooser = random.Random(seed)
        moves: list[dict[str, Any]] = []
        while GAME.to_act(state) and len(moves) < 60:
            legal = GAME.legal_actions(state, 0)
            free = {a["card"] for a in legal if a["type"] == "capture" and not a.get("crates")}
            needing = [a for a in legal if a["type"] == "capture" and a.get("crates") and a["card"] not in free]
            if needing:
                return seed, moves, min(needing, key=lambda a: a["crates"])
            small = [a for a in legal if a["type"] == "bank" and a["value"] in (1, 2, 3)]
            if small:
                move = small[0]
            elif state["phase"] == "continue":
                move = {"type": "roll"} if {"type": "roll"} in legal else {"type": "stop"}
            else:
                move = chooser.choice([a for a in legal if not a.get("crates")] or legal)
            moves.append(move)
            rng = Rng(seed, len(moves) + 2)
            state = GAME.apply(state, 0, move, rng).state
            while GAME.to_act(state) and len(GAME.legal_actions(state, 0)) == 1:  # made for the player (issue 33)
                state = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0], rng).state
    raise AssertionError("no seed reaches a crate purchase")


COMMANDS = {"camp": "hunt camp", "bank": "hunt bank", "roll": "hunt roll", "stop": "hunt stop",
            "capture": "hunt capture", "cage": "hunt cage", "trader": "hunt trader", "done": "hunt done"}


async def test_crates_are_spent_by_command_in_expedition_9(database: Path) -> None:
    profile = {"won": [1, 2, 3, 4, 5, 6, 7, 8], "failed_attempts": {}}
    seed, moves, target = _path_to_a_crate_purchase(profile)
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.bot.service.store.save_profile(discord_.world.guild_id, alice.id, GAME.key, profile)  # type: ignore[attr-defined]
        await discord_.command("game new", {"game": "monster-expedition", "mode": "solo", "seed": seed}, user=alice)
        assert (await _state(discord_))["solo"]["expedition"] == 9
        for move in moves:
            options = {k: v for k, v in move.items() if k in ("region", "value", "count")}
            if move["type"] == "capture":
                options["monster"] = move["card"]
            replies = await discord_.command(COMMANDS[move["type"]], options, user=alice)
            assert replies.public(), [r.content for r in replies]
        before = await _state(discord_)
        crates = before["solo"]["crates"]
        reply = (await discord_.command("hunt capture", {"monster": target["card"]}, user=alice)).last
        assert not reply.ephemeral, reply.content
        after = await _state(discord_)
        assert after["solo"]["crates"] == crates - target["crates"]
        assert any(card == target["card"] for card in after["players"][0]["monsters"])


async def test_a_finished_solo_expedition_says_its_result_once(database: Path) -> None:
    """The final board read "…Expedition 1 won!" and then "**Alice won expedition 1: …**": the result once."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "monster-expedition", "mode": "solo", "seed": 3}, user=alice)
        chooser = random.Random(3)
        for _ in range(300):
            match = await current_match(discord_)
            if match.status != "active":
                break
            offered = GAME.quick_actions(match.state, 0)
            index = chooser.randrange(len(offered))
            await discord_.click(discord_.last_public_message(with_components=True),
                                 custom_id=f"xt:act:{match.id}:{match.version}:0:{index}", user=alice)
        await assert_result_told_once(discord_)
