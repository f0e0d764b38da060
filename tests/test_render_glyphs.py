"""Names with emoji or other characters the board font lacks: left out of the picture, never drawn as empty boxes."""

from __future__ import annotations

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import Rng, find_game
from rendering import kit, render_board, render_detail
from rendering.glyphs import _drawable_codepoints, drawable

NAMES = ["Alice 🌸", "🤖 Bot 2 (hard)", "Zoë\u200d✨", "名前"]


@pytest.mark.parametrize(("name", "shown"), [("🤖 Bot 2 (hard)", "Bot 2 (hard)"), ("Alice 🌸 🌸", "Alice"),
                                             ("Zoë Ærø", "Zoë Ærø"), ("Émile → “x” ×2", "Émile → “x” ×2"),
                                             ("🌸🌸", "?"), ("", "")])
def test_characters_the_font_lacks_are_left_out(name: str, shown: str) -> None:
    assert drawable(name) == shown


@pytest.mark.parametrize(("game_key", "mode", "players"), [("the-expedition", "standard", 3),
                                                           ("monster-expedition", "standard", 4),
                                                           ("expeditions", "standard", 4)])
def test_boards_draw_only_characters_the_font_has(game_key: str, mode: str, players: int) -> None:
    game = find_game(game_key)
    state = game.setup(mode, NAMES[:players], Rng(5, 0), {"profiles": [{}] * players})
    codepoints = _drawable_codepoints()
    for render in (render_board, render_detail):
        with kit.recording() as texts:
            render(game_key, game.view(state, None))
        drawn = " ".join(text.text for text in texts)
        assert "Bot 2 (hard)" in drawn and "Alice" in drawn
        missing = {ch for ch in drawn if ord(ch) not in codepoints and not ch.isspace()}
        assert not missing, f"{game_key} drew characters its font lacks: {missing}"


def test_every_colour_a_renderer_uses_is_a_named_constant_of_the_kit() -> None:
    """A fixed PNG palette can be built from the kit's named colours (rendering/style.py): no renderer writes a
    colour of its own."""
    import re
    from pathlib import Path

    import rendering

    literal = re.compile(r"[\"']#[0-9A-Fa-f]{3,8}[\"']")
    folder = Path(rendering.__file__).parent
    found = [f"{path.name}: {match}" for path in sorted(folder.glob("*.py")) if path.name != "style.py"
             for match in literal.findall(path.read_text(encoding="utf-8"))]
    assert not found, found
    assert literal.findall((folder / "style.py").read_text(encoding="utf-8"))  # (the check sees a colour)
