"""The board image: a mid-game and a final position for each mode render to readable PNGs of the right size
(the public board 800 x 640, the detail board 1280 px wide)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.monster_expedition import GAME
from bot.games.monster_expedition.drawing import render, render_detail

from .helpers import playout

ALL_WON = {"won": list(range(1, 11))}


def _mid(final_steps: list, mode: str, players: int, seed: int, styles: list[str], options: dict | None = None):
    cut = max(1, len(final_steps) // 2)
    state, _ = playout(mode, players, seed, styles, options=options, cap=cut)
    return state


@pytest.mark.parametrize(("mode", "players", "seed", "options"), [
    ("standard", 2, 3, None), ("standard", 4, 5, None),
    ("solo", 1, 2, {"expedition": 9, "profiles": [ALL_WON]}), ("solo", 1, 4, {"expedition": 2, "profiles": [ALL_WON]}),
])
def test_mid_game_and_final_boards_render(mode: str, players: int, seed: int, options: dict | None) -> None:
    final, steps = playout(mode, players, seed, ["greedy", "cautious"], options=options)
    middle = _mid(steps, mode, players, seed, ["greedy", "cautious"], options)
    for label, state in (("mid", middle), ("final", final)):
        view = GAME.view(state, None)
        png = render(view)
        image = Image.open(io.BytesIO(png))
        image.load()
        assert image.size == (800, 640) and len(png) < 200_000
        assert Image.open(io.BytesIO(render_detail(view))).width == 1280
        with open(f"/tmp/monster-expedition-{mode}-{players}p-seed{seed}-{label}.png", "wb") as handle:
            handle.write(png)


def _image(view: dict) -> Image.Image:
    image = Image.open(io.BytesIO(render_detail(view)))
    image.load()
    return image.convert("RGB")


def test_a_crest_is_drawn_as_its_owners_token_in_the_cards_band() -> None:
    """Only the crest's spot changes when a card gets a crest; each seat's token (shape + letter) looks different."""
    from PIL import ImageChops

    from bot.games.monster_expedition.drawing.detail import CARD_W, MARGIN

    from .helpers import named

    state = named(["Julia", "Oliver", "Mia", "Ravi"])
    plain = _image(GAME.view(state, None))
    tokens = []
    for seat in range(4):
        state["display"][0]["crest"] = seat
        crested = _image(GAME.view(state, None))
        # the palette is rebuilt per image, so faint shifts elsewhere are ignored: only real changes count
        box = ImageChops.difference(plain, crested).convert("L").point(lambda v: 255 if v > 60 else 0).getbbox()
        assert box is not None
        left, top, right, bottom = box
        assert left >= MARGIN + 84 - 24 and right <= MARGIN + 84 + 24 < MARGIN + CARD_W and bottom - top <= 48
        tokens.append(crested.crop(box).tobytes())
    assert len(set(tokens)) == 4


def test_the_final_header_names_the_winner_and_a_busy_board_stays_small() -> None:
    from bot.games.monster_expedition.rules.effects import end_standard_game

    from .helpers import give, named, set_display

    state = named(["Julia", "Oliver", "Mia", "Ravi"])
    set_display(state, ["draco-chelonia", "wolkenhai", "stachelmaul", "federling", "kadaverkrabbe", "sonnenmantis",
                        "glutschwinge", "mistelmarder"], crests={"wolkenhai": 0, "stachelmaul": 1, "federling": 2})
    for seat, monsters in enumerate((["gipfeldrache", "echoseeschlange"], ["vertikalwespe", "tiefenegel"],
                                     ["fuechsling"], [])):
        give(state, seat, monsters=monsters)
    end_standard_game(state, [])
    view = GAME.view(state, None)
    png = render_detail(view)
    assert len(png) < 300_000 and Image.open(io.BytesIO(png)).width == 1280
    assert Image.open(io.BytesIO(render(view))).size == (800, 640)
    from bot.games.monster_expedition.drawing.detail import _headline

    assert _headline(view) == "Game over: Julia wins!"
