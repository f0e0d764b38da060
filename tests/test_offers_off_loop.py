"""The controls under a board are made where the board is drawn (issue 33): Expeditions finds its offers by trying
every whole play (~10 ms a board, up to ~100 ms), which the event loop used to pay for every board and again for
every press. The bot process now never makes them: the board's buttons and menu come from a render worker, and a
press reads its action from what that board offered."""

from __future__ import annotations

import random

import pytest

from bot.core import find_game
from bot.games.expeditions.rules.game import ExpeditionsGame
from bot.games.offered import offers_of
from bot.service import GameService, Player
from bot.store import Store
from rendering.pool import RenderPool

ALICE, BOB = Player(611, "Alice"), Player(612, "Bob")
CHANNEL = 79


async def test_expeditions_offers_come_from_the_worker_and_a_press_makes_none_on_the_loop(
        store: Store, monkeypatch: pytest.MonkeyPatch, render_worker: RenderPool) -> None:
    service = GameService(store, pool=render_worker)
    game = find_game("expeditions")
    await service.new_match(1, CHANNEL, "expeditions", ALICE, seed=4)
    await service.join(CHANNEL, BOB)
    match = await service.start(CHANNEL, ALICE.user_id)
    chooser = random.Random(8)
    for _ in range(5):  # a position past the opening
        seat = game.to_act(match.state)[0]
        action = chooser.choice(game.legal_actions(match.state, seat))
        match = (await service.act(CHANNEL, match.seats[seat].user_id, action)).match
    seat = game.to_act(match.state)[0]
    expected = offers_of(game, match.state, seat, match.language)
    assert expected.buttons or expected.options

    def no_offers_here(*_: object, **__: object) -> None:
        raise AssertionError("the bot process made a board's offers")

    monkeypatch.setattr(ExpeditionsGame, "controls", no_offers_here)  # the worker keeps the real one
    board = await service.board(match)
    assert [b.label for b in board.buttons] == [q.label for q in expected.buttons]
    assert board.menu is not None or not expected.options
    if board.menu is not None:
        assert [label for label, _ in board.menu.labels] == [q.label for q in expected.options]
        index, from_menu = 0, True
    else:
        index, from_menu = 0, False
    accepted = await service.press(match.id, match.version, seat, index, match.seats[seat].user_id,
                                   channel_id=CHANNEL, from_menu=from_menu)
    assert accepted.match.version > match.version
