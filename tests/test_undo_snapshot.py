"""Undo replays from the nearest snapshot before the asker's last move, not from the setup (issue 25: at move
1,000 a whole replay took ~0.5 s on the event loop): what it decides is exactly what the whole replay decides."""

from __future__ import annotations

import random

import pytest

from bot.core import RuleError, find_game
from bot.features import undo
from bot.service import GameService, Player
from bot.store import MatchRecord

PLAYERS = [Player(101, "Ada"), Player(102, "Bea"), Player(103, "Cy")]


async def _plans(service: GameService, match: MatchRecord, user_id: int) -> tuple[object, object]:
    """The undo plan from the snapshot and from the whole game (or the refusal each gives)."""
    results = []
    for whole in (False, True):
        try:
            results.append(await undo.plan_undo(service.store, match, user_id, whole_game=whole))
        except RuleError as refusal:
            results.append((type(refusal).__name__, str(refusal)))
    return results[0], results[1]


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
        plans = {}
        for player in seated:
            near, whole = plans[player.user_id] = await _plans(service, match, player.user_id)
            assert near == whole, (step, player.name)
        asker = seated[step % players]
        from_snapshot += await undo.recent_line(service.store, game, match, asker.user_id) is not None
        plan = plans[asker.user_id][0]
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
