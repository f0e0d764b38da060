"""/hunt through discord.py's real interaction path: every command, autocomplete, the campaign, and refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import create_bot
from bot.core import find_game
from bot.offline import DiscordHarness
from tests.tables import current_match, open_table

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


async def test_the_campaign_and_solo_expeditions(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        progress = (await discord_.command("hunt campaign", user=alice)).one()
        assert progress.ephemeral and "0/10 expeditions won" in (progress.content or "")
        locked = (await discord_.command("hunt solo", {"expedition": 3}, user=alice)).one()
        assert locked.ephemeral and "3" in (locked.content or "")
        board = (await discord_.command("hunt solo", {"camps": "II"}, user=alice)).last
        assert not board.ephemeral and board.files
        state = await _state(discord_)
        assert state["solo"]["expedition"] == 1 and state["mode"] == "solo"
        busy = (await discord_.command("hunt solo", user=alice)).one()
        assert busy.ephemeral and "already has a Monster Expedition game" in (busy.content or "")
