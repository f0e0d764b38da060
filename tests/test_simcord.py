"""Each game's whole flow under SimCord, an offline Discord for discord.py written outside this project (issue 19).

Our own offline Discord (bot/offline) is checked against Discord's published description; this layer runs the same
bot against an independent model, so a misreading of Discord that both our bot and our model share shows up here.
SimCord drives discord.py's real gateway and HTTP paths with its own server-side rules (permissions, interaction
lifecycle, component and message limits). The flow: a lobby, Join and Start pressed, presses by the player to
move, a refusal of the other player's press, `/game mine`, and the final board.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

simcord = pytest.importorskip("simcord", reason="SimCord is a dev dependency: pip install -e '.[dev]'")

from bot.app import create_bot  # noqa: E402
from bot.core import find_game  # noqa: E402
from bot.discord_api import description  # noqa: E402
from tests.reading import read  # noqa: E402

OWN_BUTTONS = ("Show mine", "Details", "What's this?")


@dataclass
class Table:
    env: Any
    bot: Any
    channel: Any
    players: list[Any]

    async def match(self) -> Any:
        return await self.bot.service.current(self.channel.id)

    async def player_to_move(self) -> tuple[Any, Any]:
        match = await self.match()
        seat = find_game(match.game).to_act(match.state)[0]
        user_id = match.user_at(seat).user_id
        return next(p for p in self.players if p.id == user_id), next(p for p in self.players if p.id != user_id)

    def board(self) -> discord.Message:
        """The newest public message with controls: the board."""
        message = self.channel.last_message
        assert message is not None and message.components, "the last message is not a board"
        return message


@asynccontextmanager
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    bot = create_bot(tmp_path / "simcord.sqlite3", poll_seconds=None)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Expedition Club")
            channel = guild.create_text_channel("games")
            players = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
            await bot.tree.sync()  # SimCord refuses a command that was never registered, as Discord does
            yield Table(env, bot, channel, players)
    finally:
        await bot.close()  # SimCord leaves closing the bot (its store, its render workers) to us


def controls(board: discord.Message) -> list[tuple[str, str, str | None]]:
    """(kind, custom_id, label or select value) of every move control on the board."""
    found: list[tuple[str, str, str | None]] = []
    for row in board.components:
        for item in getattr(row, "children", []):
            if isinstance(item, discord.Button) and item.custom_id and item.label not in OWN_BUTTONS:
                if not item.disabled:
                    found.append(("button", item.custom_id, item.label))
            elif isinstance(item, discord.SelectMenu) and item.custom_id:
                found.extend(("select", item.custom_id, option.value) for option in item.options)
    return found


async def press_random(tab: Table, rnd: random.Random) -> None:
    """The player to move presses one of the board's move controls; the move is committed."""
    before = (await tab.match()).version
    mover, _ = await tab.player_to_move()
    kind, custom_id, value = rnd.choice(controls(tab.board()))
    if kind == "button":
        result = await mover.click(tab.board(), custom_id=custom_id)
    else:
        result = await mover.select(tab.board(), [value], custom_id=custom_id)
    assert result.acknowledged
    assert (await tab.match()).version == before + 1


async def open_and_start(tab: Table, game: str, seed: int) -> None:
    alice, bob = tab.players
    opened = await alice.slash(tab.channel, "game new", game=game, seed=seed)
    assert opened.ephemeral and "lobby is open" in opened.response.content
    lobby = opened.followups[0]
    assert not lobby.ephemeral and "alice (host)" in lobby.content
    assert (await bob.click(lobby, label="Join")).acknowledged
    await alice.click(lobby, label="Start")
    assert (await tab.match()).status == "active"
    assert tab.board().attachments, "the first board comes with its image"


async def refusal_and_mine(tab: Table) -> None:
    mover, other = await tab.player_to_move()
    before = (await tab.match()).version
    kind, custom_id, value = controls(tab.board())[0]
    if kind == "button":
        refused = await other.click(tab.board(), custom_id=custom_id)
    else:
        refused = await other.select(tab.board(), [value], custom_id=custom_id)
    (told,) = refused.followups
    assert told.ephemeral and "These buttons are for" in told.content
    assert (await tab.match()).version == before
    mine = await mover.slash(tab.channel, "game mine")
    private = [m for m in [mine.response, *mine.followups] if m is not None]
    assert private and all(m.ephemeral for m in private) and any(m.content for m in private)


async def test_the_expedition_from_lobby_to_final_board(tmp_path: Path) -> None:
    rnd = random.Random(11)
    async with table(tmp_path) as tab:
        await open_and_start(tab, "the-expedition", 11)
        await refusal_and_mine(tab)
        for _ in range(200):
            if (await tab.match()).status != "active":
                break
            await press_random(tab, rnd)
        match = await tab.match()
        assert match.status == "finished"
        final = tab.channel.last_message
        outcome = find_game(match.game).outcome(match.state)
        assert outcome is not None and read(outcome.summary) in final.content and final.attachments
        assert [c.label for row in final.components for c in row.children] == list(OWN_BUTTONS)
        assert_requests_valid(tab.env)


@pytest.mark.parametrize(("game", "seed", "presses"), [("monster-expedition", 7, 12), ("expeditions", 5, 8)])
async def test_a_long_game_from_lobby_to_its_final_board_by_abandoning(tmp_path: Path, game: str, seed: int,
                                                                        presses: int) -> None:
    """Monster Expedition and Expeditions take hundreds of presses to finish: a dozen, then the host abandons."""
    rnd = random.Random(seed)
    async with table(tmp_path) as tab:
        await open_and_start(tab, game, seed)
        await refusal_and_mine(tab)
        for _ in range(presses):
            await press_random(tab, rnd)
        alice = tab.players[0]
        asked = await alice.slash(tab.channel, "game abandon")
        confirm = next(m for m in [asked.response, *asked.followups] if m is not None and m.components)
        done = await alice.click(confirm, label=confirm.components[0]["components"][0]["label"])
        assert done.acknowledged
        assert (await tab.match()) is None or (await tab.match()).status != "active"
        assert "abandoned" in tab.channel.last_message.content
        assert_requests_valid(tab.env)


def assert_requests_valid(env: Any) -> None:
    """What the bot sent SimCord also holds against Discord's published description (as under our own model)."""
    api = description()
    sent = env.http_requests
    assert sent, "SimCord logged no request: this check no longer sees what it checks"
    broken = [str(v) for entry in sent for v in api.check_request(entry.method, entry.path, entry.json)]
    assert broken == []
