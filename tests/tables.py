"""Helpers for the Discord tests: seat a table by slash commands, and peek at the stored match."""

from __future__ import annotations

from typing import Any

import bot.games  # noqa: F401  (finds every game package)
from bot.core import all_packages, find_game
from bot.offline import DiscordHarness, FakeUser
from tests.reading import read

NAMES = ("alice", "bob", "carol", "dave", "erin")
FOUND_GAMES = [package.key for package in all_packages()]
"""Every game package the registry found in this process, in key order: the tests that hold for every game run
over these (the shipped games; the suite's Nim is registered on its own, Tug only in a process of its own)."""


async def open_table(discord_: DiscordHarness, game: str, players: int, *, mode: str | None = None,
                     seed: int | None = None) -> list[FakeUser]:
    """/game new by the first player, /game join by the others, /game start (solo modes start by themselves)."""
    users = [discord_.user(name) for name in NAMES[:players]]
    options: dict[str, Any] = {"game": game}
    if mode is not None:
        options["mode"] = mode
    if seed is not None:
        options["seed"] = seed
    await discord_.command("game new", options, user=users[0])
    if players > 1:
        for user in users[1:]:
            await discord_.command("game join", user=user)
        await discord_.command("game start", user=users[0])
    return users


async def current_match(discord_: DiscordHarness) -> Any:
    """The default channel's match as stored (tests read it to choose legal moves)."""
    return await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]


async def player_to_move(discord_: DiscordHarness, users: list[FakeUser]) -> FakeUser:
    """Whom the current board's buttons are for (a board edited in place does not ping, so read the match)."""
    match = await current_match(discord_)
    state = match.state
    from bot.core import find_game

    seat = find_game(match.game).to_act(state)[0]
    user_id = match.user_at(seat).user_id
    return next(user for user in users if user.id == user_id)


async def assert_result_told_once(discord_: DiscordHarness) -> None:
    """The final board says the result once: its last line is the outcome's summary (bold, with every score), and
    the story above it tells the last move without the move's own result sentence ("Game over: Ada wins."), which
    the log keeps; and the final board is recorded as posted (a restart does not post it again)."""
    from bot.core import find_game
    from bot.service import shown_state

    match = await current_match(discord_)
    game = find_game(match.game)
    outcome = game.outcome(match.state)
    assert match.status == "finished" and outcome is not None
    events = await discord_.bot.service.store.events(match.id)  # type: ignore[attr-defined]
    last = [event for event in events if event.kind == "action"][-1]
    shown = shown_state(match, match.state)
    result = read(" ".join(game.describe(shown, e) for e in last.events if e["kind"] in game.result_events))
    told = read(last.text)
    assert result and told.endswith(" " + result), "the log keeps the result sentence"
    story, verdict = discord_.channel_messages()[-1].content.rsplit("\n", 1)
    assert verdict == f"**{read(outcome.summary)}**"
    assert story.endswith(told[:-len(result) - 1]) and result not in story
    behind = await discord_.bot.service.store.finished_behind_their_board()  # type: ignore[attr-defined]
    assert match.id not in [m.id for m in behind], "the final board is recorded as posted: no restart re-posts it"


async def take(discord_: DiscordHarness, user: FakeUser, count: int = 1) -> None:
    """Press "Take <count>" ("Nimm <count>" at a German table) on the current Nim board as `user`."""
    labels = (f"Take {count}", f"Nimm {count}")
    latest = next(m for m in reversed(discord_.channel_messages()) if set(labels) & set(m.button_labels()))
    label = next(label for label in labels if label in latest.button_labels())
    replies = await discord_.click(latest, label=label, user=user)
    assert not replies.ephemeral(), [r.content for r in replies.ephemeral()]


async def finish_nim(discord_: DiscordHarness, users: list[FakeUser]) -> None:
    """Play Test Nim to its end, each player to move taking 1."""
    for _ in range(40):
        match = await current_match(discord_)
        if match.status != "active":
            return
        seat = find_game("test-nim").to_act(match.state)[0]
        await take(discord_, next(u for u in users if u.id == match.user_at(seat).user_id))
