"""One whole Expeditions game through the platform service: lobby by alias, actions and buttons, storage as JSON,
the finished result and a rebuild from the event log."""

from __future__ import annotations

import random

from bot.games.expeditions import GAME
from bot.games.expeditions.rules.policies import planned_action
from bot.service import GameService, Player

ALICE = Player(100, "Alice")
BOB = Player(200, "Bob")
CHANNEL = 55


async def test_a_full_game_through_the_service(service: GameService) -> None:
    await service.new_match(1, CHANNEL, "mech", ALICE, seed=11)
    await service.join(CHANNEL, BOB)
    match = await service.start(CHANNEL, ALICE.user_id)
    assert match.game == "expeditions"
    rnd = random.Random(4)
    pressed = 0
    for step in range(4000):
        state = match.state
        assert state is not None
        if state["over"]:
            break
        seat = GAME.to_act(state)[0]
        user = match.seats[seat].user_id
        action = planned_action(GAME, state, seat, rnd)
        buttons = GAME.quick_actions(state, seat)
        index = next((i for i, b in enumerate(buttons) if b.action == action), None)
        if index is not None and step % 3 == 0:
            accepted = await service.press(match.id, match.version, seat, index, user, channel_id=CHANNEL)
            pressed += 1
        else:
            accepted = await service.act(CHANNEL, user, action)
        match = accepted.match
    assert match.status == "finished" and match.state is not None and match.state["over"]
    assert pressed > 10
    print(f"service game: {step} actions, {match.state['turns_taken']} turns, {pressed} buttons")
    result = GAME.outcome(match.state)
    assert result is not None and result.winners
    assert await service.replayed_state(match.id) == match.state
