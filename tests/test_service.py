"""The service with the test-only Nim game: lobby rules, turn checks, stale boards, replay, concurrency."""

from __future__ import annotations

import asyncio

import pytest

from bot.core import GameOver, LobbyError, NotYourTurn, RuleError, StaleBoard
from bot.service import GameService, Player

ALICE = Player(100, "Alice")
BOB = Player(200, "Bob")
CAROL = Player(300, "Carol")
DAVE = Player(400, "Dave")
CHANNEL = 10


async def _started(service: GameService, seed: int = 3) -> int:
    await service.new_match(1, CHANNEL, "nim", ALICE, seed=seed)
    await service.join(CHANNEL, BOB)
    match = await service.start(CHANNEL, ALICE.user_id)
    return match.id


async def test_a_lobby_from_new_to_start(service: GameService) -> None:
    match = await service.new_match(1, CHANNEL, "Test Nim", ALICE)
    assert match.status == "lobby" and [s.name for s in match.seats] == ["Alice"]
    with pytest.raises(LobbyError, match="needs 2 to 3 players; 1 seated"):
        await service.start(CHANNEL, ALICE.user_id)
    await service.join(CHANNEL, BOB)
    with pytest.raises(LobbyError, match="already seated"):
        await service.join(CHANNEL, BOB)
    with pytest.raises(LobbyError, match=r"Only the host \(Alice\)"):
        await service.start(CHANNEL, BOB.user_id)
    await service.join(CHANNEL, CAROL)
    with pytest.raises(LobbyError, match="full"):
        await service.join(CHANNEL, DAVE)
    match = await service.start(CHANNEL, ALICE.user_id)
    assert match.status == "active" and match.state is not None and len(match.state["players"]) == 3
    with pytest.raises(LobbyError, match="already started"):
        await service.join(CHANNEL, DAVE)


async def test_the_host_leaving_passes_the_lobby_on_and_an_empty_lobby_closes(service: GameService) -> None:
    await service.new_match(1, CHANNEL, "nim", ALICE)
    await service.join(CHANNEL, BOB)
    match = await service.leave(CHANNEL, ALICE)
    assert match.host_id == BOB.user_id and [s.name for s in match.seats] == ["Bob"]
    match = await service.leave(CHANNEL, BOB)
    assert match.status == "abandoned"
    await service.new_match(1, CHANNEL, "nim", CAROL)  # the channel is free again


async def test_one_game_per_channel(service: GameService) -> None:
    await service.new_match(1, CHANNEL, "nim", ALICE)
    with pytest.raises(LobbyError, match="already has a lobby for Test Nim"):
        await service.new_match(1, CHANNEL, "nim", BOB)
    await service.new_match(1, CHANNEL + 1, "nim", BOB)


async def test_unknown_game_and_mode_are_explained(service: GameService) -> None:
    with pytest.raises(LobbyError, match="no game called 'chess'"):
        await service.new_match(1, CHANNEL, "chess", ALICE)
    with pytest.raises(LobbyError, match=r"no mode called .blitz.\.\s+Choose one of: Standard, Solo"):
        await service.new_match(1, CHANNEL, "nim", ALICE, mode="blitz")


async def test_a_solo_mode_starts_at_once(service: GameService) -> None:
    match = await service.new_match(1, CHANNEL, "nim", ALICE, mode="solo")
    assert match.status == "active"


async def test_turns_are_checked_and_bad_moves_change_nothing(service: GameService) -> None:
    match_id = await _started(service)
    before = await service.store.match(match_id)
    with pytest.raises(NotYourTurn, match=r"not your turn\. Alice to take"):
        await service.act(CHANNEL, BOB.user_id, {"type": "take", "count": 1})
    with pytest.raises(NotYourTurn, match="not playing"):
        await service.act(CHANNEL, CAROL.user_id, {"type": "take", "count": 1})
    with pytest.raises(RuleError, match="1 to 3 stones"):
        await service.act(CHANNEL, ALICE.user_id, {"type": "take", "count": 4})
    with pytest.raises(RuleError, match="Take stones"):
        await service.act(CHANNEL, ALICE.user_id, {"type": "jump"})
    after = await service.store.match(match_id)
    assert after == before


async def test_a_whole_game_is_logged_and_scored(service: GameService) -> None:
    match_id = await _started(service, seed=3)
    match = await service.store.match(match_id)
    assert match is not None and match.state is not None
    seats = [ALICE, BOB]
    turn = 0
    while True:
        pile = (await service.store.match(match_id)).state["pile"]  # type: ignore[union-attr]
        accepted = await service.act(CHANNEL, seats[turn].user_id, {"type": "take", "count": min(pile, 1)})
        turn = 1 - turn
        if accepted.match.status == "finished":
            break
    board = await service.board(accepted.match, headline=accepted.headline)
    assert board.finished and board.outcome is not None and board.buttons == [] and "wins" in board.turn
    assert board.image is not None and board.image.startswith(b"\x89PNG")
    with pytest.raises(GameOver):
        await service.act(CHANNEL, seats[turn].user_id, {"type": "take", "count": 1})
    log = await service.log(CHANNEL, 50)
    # Numbered without gaps from the first entry with text (the "created" event has none), newest last.
    assert [line.split(". ", 1)[0] for line in log] == [str(n) for n in range(1, len(log) + 1)]
    assert any("started with a chosen seed" in line for line in log) and not any("3 was chosen" in line for line in log)
    assert "Played with the chosen seed 3." in board.alt_text
    assert log[-1].endswith("took the last stone.")
    # the winner's profile was recorded in the same transaction
    winner = seats[board.outcome.winners[0]]
    assert await service.profile(1, winner.user_id, "nim") == {"wins": 1}


async def test_replaying_the_log_rebuilds_the_state(service: GameService) -> None:
    match_id = await _started(service, seed=11)
    for user in (ALICE, BOB, ALICE):
        await service.act(CHANNEL, user.user_id, {"type": "take", "count": 2})
    match = await service.store.match(match_id)
    assert match is not None
    assert await service.replayed_state(match_id) == match.state


async def test_a_button_from_an_old_board_is_refused(service: GameService) -> None:
    match_id = await _started(service)
    board = await service.board(await service.current(CHANNEL))
    first = board.buttons[0]
    assert (first.label, first.seat) == ("Take 1", 0)
    await service.press(match_id, first.version, first.seat, first.index, ALICE.user_id, channel_id=CHANNEL)
    with pytest.raises(StaleBoard, match="out of date"):
        await service.press(match_id, first.version, first.seat, first.index, ALICE.user_id, channel_id=CHANNEL)
    with pytest.raises(NotYourTurn, match="These buttons are for Bob"):
        board = await service.board(await service.current(CHANNEL))
        await service.press(match_id, board.buttons[0].version, 1, 0, ALICE.user_id, channel_id=CHANNEL)


async def test_two_presses_at_once_apply_exactly_once(service: GameService) -> None:
    match_id = await _started(service)
    board = await service.board(await service.current(CHANNEL))
    button = board.buttons[0]
    results = await asyncio.gather(
        service.press(match_id, button.version, button.seat, button.index, ALICE.user_id, channel_id=CHANNEL),
        service.press(match_id, button.version, button.seat, button.index, ALICE.user_id, channel_id=CHANNEL),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, StaleBoard) for r in results) == 1
    assert [e.kind for e in await service.store.events(match_id)].count("action") == 1


async def test_private_text_is_only_for_the_seated(service: GameService) -> None:
    await _started(service)
    assert (await service.mine(CHANNEL, ALICE.user_id)).startswith("Your secret number is ")
    with pytest.raises(NotYourTurn):
        await service.mine(CHANNEL, CAROL.user_id)


async def test_abandon_needs_the_host_or_a_channel_manager(service: GameService) -> None:
    await _started(service)
    with pytest.raises(LobbyError, match="Only the host"):
        await service.abandon(CHANNEL, BOB.user_id, can_manage_channel=False)
    match = await service.abandon(CHANNEL, BOB.user_id, can_manage_channel=True)
    assert match.status == "abandoned"
    with pytest.raises(LobbyError, match=r"Game #1 here \(Test Nim\) was abandoned, so it can no longer be changed"):
        await service.act(CHANNEL, ALICE.user_id, {"type": "take", "count": 1})
