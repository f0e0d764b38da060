"""Undo replays from the nearest snapshot before the asker's last move, not from the setup (issue 25: at move
1,000 a whole replay took ~0.5 s on the event loop): what it decides is exactly what the whole replay decides."""

from __future__ import annotations

import inspect
import random
from collections.abc import Awaitable, Callable

import pytest

from bot.core import JSON, RuleError, find_game
from bot.features import undo
from bot.service import GameService, Player
from bot.store import MatchRecord

PLAYERS = [Player(101, "Ada"), Player(102, "Bea"), Player(103, "Cy")]


async def _decided(plan: Awaitable[tuple[int, JSON]] | Callable[[], tuple[int, JSON]]) -> object:
    """An undo plan, or the refusal it gives (its kind and words)."""
    try:
        return await plan if inspect.isawaitable(plan) else plan()  # type: ignore[operator]
    except RuleError as refusal:
        return (type(refusal).__name__, str(refusal))


async def _whole_game_plans(service: GameService, match: MatchRecord, seated: list[Player],
                            asker: Player) -> dict[int, object]:
    """What undo decides for each player from a replay of the whole game. The asker's comes from `plan_undo(...,
    whole_game=True)`, the bot's own path when no snapshot is near (a worker reads the log and replays it from the
    setup); every player's from one replay of the same log here, with the same `line_of_play` and `decide`, which
    must give the asker the same. One replay serves every player instead of one each: each replay of 160 moves
    of Expeditions is slow, and the players' plans differ only in `decide`."""
    game = find_game(match.game)
    events = await service.store.events(match.id)
    line = undo.line_of_play(game, match, events)
    plans = {player.user_id: await _decided(lambda p=player: undo.decide(game, line, events, p.user_id))
             for player in seated}
    by_the_bot = await _decided(undo.plan_undo(service.store, match, asker.user_id, whole_game=True))
    assert by_the_bot == plans[asker.user_id], asker.name
    return plans


@pytest.mark.parametrize(("game_key", "players", "moves"), [("the-expedition", 2, 160), ("expeditions", 3, 160)])
async def test_undo_from_a_snapshot_decides_as_a_replay_of_the_whole_game(service: GameService, game_key: str,
                                                                          players: int, moves: int) -> None:
    game = find_game(game_key)
    channel = 77
    seated = PLAYERS[:players]
    await service.new_match(1, channel, game_key, seated[0], seed=5)
    for player in seated[1:]:
        await service.join(channel, player)
    match = await service.start(channel, seated[0].user_id)
    chooser = random.Random(9)
    taken_back = from_snapshot = 0
    for step in range(moves):
        if match.status != "active":
            break
        asker = seated[step % players]
        whole = await _whole_game_plans(service, match, seated, asker)
        for player in seated:
            near = await _decided(undo.plan_undo(service.store, match, player.user_id))
            assert near == whole[player.user_id], (step, player.name)
        from_snapshot += await undo.recent_line(service.store, game, match, asker.user_id) is not None
        plan = whole[asker.user_id]
        if step % 5 == 4 and isinstance(plan, tuple) and isinstance(plan[0], int):
            request = (await undo.request_undo(service, channel, asker.user_id)).request
            assert request is not None
            for other in seated:
                if other is not asker:
                    result = await undo.answer_undo(service, request.id, other.user_id, True, channel_id=channel)
            assert result.applied
            taken_back += 1
            match = result.match
            continue
        seat = game.to_act(match.state)[0]
        action = chooser.choice(game.legal_actions(match.state, seat))
        match = (await service.act(channel, match.seats[seat].user_id, action)).match
    assert taken_back >= 3 and from_snapshot >= 20, (taken_back, from_snapshot)
    assert await service.replayed_state(match.id) == match.state
