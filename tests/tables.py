"""Helpers for the Discord tests: seat a table by slash commands, and peek at the stored match."""

from __future__ import annotations

from typing import Any

from bot.offline import DiscordHarness, FakeUser

NAMES = ("alice", "bob", "carol", "dave", "erin")


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
