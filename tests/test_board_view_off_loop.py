"""A board's view and its words are made where the board is drawn (issue 25's loop lag): the event loop sends the
state to a render worker, which makes the public view, draws it and describes it (alt text). The board that comes
back is the one the view made in the bot process would give, and the bot process never makes the view."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import rendering
from bot.core import find_game
from bot.games.boards import public_view
from bot.i18n import translate
from bot.service import GameService, Player, latest_move, shown_state
from bot.store import Store
from rendering.pool import RenderPool

ALICE, BOB = Player(601, "Alice"), Player(602, "Bob")


@pytest.mark.parametrize("key", ["monster-expedition", "the-expedition", "expeditions"])
async def test_the_worker_makes_the_view_the_bot_process_would_and_the_loop_makes_none(
        store: Store, key: str, monkeypatch: pytest.MonkeyPatch, render_worker: RenderPool) -> None:
    service = GameService(store, pool=render_worker)
    await service.new_match(1, 77, key, ALICE)  # (no chosen seed: no footer)
    await service.join(77, BOB)
    match = await service.start(77, ALICE.user_id)
    game, chooser = find_game(key), random.Random(5)
    for _ in range(6):  # a position past the opening
        seat = game.to_act(match.state)[0]
        action = chooser.choice(game.legal_actions(match.state, seat))
        match = (await service.act(77, match.seats[seat].user_id, action)).match
    headline = await service.turn_story(match)
    expected = public_view(key, shown_state(match, match.state), match.language, latest_move(headline))
    expected_alt = rendering.alt_text(key, expected)

    def no_view_here(*_: object, **__: object) -> None:
        raise AssertionError("the bot process made a board's view")

    monkeypatch.setattr(type(game), "view", no_view_here)  # the worker process keeps the real one
    board = await service.board(match)
    assert board.image is not None
    here = Image.open(io.BytesIO(rendering.render_board(key, expected)))
    assert Image.open(io.BytesIO(board.image)).convert("RGB").tobytes() == here.convert("RGB").tobytes()
    assert board.alt_text == expected_alt  # the renderer's own description of the same view, not the fallback


async def test_a_failed_board_still_gets_words(store: Store) -> None:
    """When the board cannot be drawn the move is still told: no image, and the alt text says the game, the story
    and the turn."""

    def broken(game_key: str, view: dict[str, object]) -> bytes:
        raise RuntimeError("no board today")

    service = GameService(store, renderer=broken)
    await service.new_match(1, 78, "the-expedition", ALICE, seed=2)
    await service.join(78, BOB)
    match = await service.start(78, ALICE.user_id)
    board = await service.board(match)
    assert board.image is None
    parts = (translate("table.alt_text", "en", title="The Expedition"), board.headline, board.turn)
    assert board.alt_text == " ".join(part for part in parts if part)
