"""Names of 32 characters, Discord's longest, fit every board (issue 32): every game, mode and player count, public
and detail boards, over a whole match: nothing runs off the board or into anything else, and every name is drawn
whole. Realistic long names (on English and German boards), names without a space, and long names in the scripts
the fallback fonts draw."""

from __future__ import annotations

import os

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, find_game
from rendering import fonts, kit, render_board, render_detail
from tests.test_render_boards import random_game
from tests.test_render_layout import CASES, checked

LONGEST = 32
"""Discord's longest display name."""
NAME_SETS = {
    "long": ["Maximilian Wolfgang von Habsburg", "Bartholomew Featherstonehaugh Jr",
             "Wilhelmina Montgomery-Whitworths", "Konstantin Alexandrowitsch Wolko",
             "Anastasia Papadopoulou-Smithers!"],
    "unbroken": ["Maximilian Wolfgang von Habsburg", "W" * 32, "Mmmmmmmmmmmmmmm Mmmmmmmmmmmmmmmm",
                 "Anastasia Konstantinopoulou-Wwww", "Bartholomew Featherstonehaughs!!"],
    "scripts": ["山田太郎" * 8, "محمد علي محمد علي محمد علي محمود", "김민수" * 10 + "김민",
                "ＦＵＬＬ　ＷＩＤＴＨ　ＮＡＭＥ　ＯＦ　ＴＨＩＲＴＹ－ＴＷＯ！！！", "🐉🔥" * 16],
}
POSITIONS = 6
"""Positions per match, spread from the first board to the final one."""


def test_the_names_are_as_long_as_discord_allows() -> None:
    for names in NAME_SETS.values():
        assert max(len(name) for name in names) == LONGEST and all(len(name) >= 30 for name in names)


def spread(states: list[JSON]) -> list[JSON]:
    return [states[i] for i in sorted({round(i * (len(states) - 1) / (POSITIONS - 1)) for i in range(POSITIONS)})]


def drawn_whole(texts: kit.Recording, names: list[str]) -> list[str]:
    """The names not found whole among the texts drawn (lines joined; a name may wrap or split with a hyphen)."""
    drawn = "".join(text.text for text in texts)
    for character in " \u00a0\u3000-":
        drawn = drawn.replace(character, "")
    return [name for name in names if name.replace(" ", "").replace("\u3000", "").replace("-", "") not in drawn]


@pytest.mark.parametrize(("name_set", "language"), [("long", "en"), ("unbroken", "en"), ("scripts", "en"),
                                                    ("long", "de")])
@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_names_of_32_characters_fit_every_board(game_key: str, mode: str, players: int, name_set: str,
                                                language: str) -> None:
    if name_set == "scripts" and any(path is None for path in fonts.fallback_paths().values()) and not os.environ.get(
            "CI"):  # (CI installs the fonts: there a missing font fails)
        pytest.skip("the Noto fonts are not installed (README)")
    names = NAME_SETS[name_set][:players]
    game = find_game(game_key)
    found: list[str] = []
    for number, state in enumerate(spread(random_game(game_key, mode, names, 3, language))):
        view = game.view(state, None)
        for kind, render in (("public", render_board), ("detail", render_detail)):
            found += [f"position {number} {kind}: {p}" for p in checked(render, game_key, view)]
        with kit.recording() as texts:
            render_board(game_key, view)
        found += [f"position {number}: {name!r} not drawn whole" for name in drawn_whole(texts, names)]
    assert not found, "\n".join(found[:20]) + f"\n({len(found)} in all)"


def test_a_board_stays_landscape_when_long_names_make_it_taller() -> None:
    """A board whose names need more room is drawn square (800 x 800), never portrait; one with short names keeps
    its usual size."""
    import io

    from PIL import Image

    game = find_game("monster-expedition")
    sizes = {}
    for label, names in (("short", ["Bo", "Al", "Cy", "Di"]), ("long", NAME_SETS["long"][:4])):
        state = random_game("monster-expedition", "standard", names, 3)[0]
        with Image.open(io.BytesIO(render_board("monster-expedition", game.view(state, None)))) as image:
            sizes[label] = image.size
    assert sizes == {"short": (800, 640), "long": (800, kit.TALL_HEIGHT)}
    assert kit.TALL_HEIGHT <= kit.PHONE_WIDTH
