"""Every name drawn (issue 32): Chinese, Japanese, Korean, Arabic (joined, right to left), Hebrew, full-width and emoji
names in fonts that have them (rendering/fonts.py), never as "?" or the Latin font's empty boxes; the robot badge of
a computer player drawn; a character no font has left out; and without the fallback fonts, the old way back."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops, ImageFont

import bot.games  # noqa: F401  (registers every game)
from bot.core import Rng, find_game
from rendering import fonts, glyphs, kit, render_board, render_detail, typeset

SCRIPTS = {"Chinese": "山田太郎", "Japanese": "さくら", "Korean": "김민수", "Arabic": "محمد", "Hebrew": "שלום",
           "full-width": "ＦＵＬＬ", "emoji": "🐉🔥", "robot": "🤖"}
NOT_IN_ANY_FONT = "\U000f0000"  # (a private-use character)


def fallbacks_installed() -> bool:
    return all(path is not None for path in fonts.fallback_paths().values())


needs_fonts = pytest.mark.skipif(not fallbacks_installed() and not os.environ.get("CI"),
                                 reason="the Noto fonts are not installed (README); CI installs them")


def ink(word: str, size: int = 24, weight: str = "regular") -> Image.Image:
    core, _ = typeset.word_mask(typeset.font(size, weight), word, "a")
    return Image.new("L", core.size)._new(core)


def missing_glyph_boxes(size: int = 24, weight: str = "regular") -> list[bytes]:
    """What each font draws for a character it lacks (its .notdef: the Latin font's empty box, the fallbacks'
    own)."""
    latin = typeset.font(size, weight)
    boxes = [Image.new("L", core.size)._new(core).tobytes() for core in (
        latin.getmask2(NOT_IN_ANY_FONT, "L")[0], latin.getmask2("名", "L")[0], latin.getmask2("🤖", "L")[0])]
    for index, fallback in enumerate(fonts.FALLBACKS):
        if not fallback.bitmap_size and fonts.fallback_path(fallback) is not None:
            core, _ = fonts.fallback_face(index, size, weight).getmask2(NOT_IN_ANY_FONT, "L")
            boxes.append(Image.new("L", core.size)._new(core).tobytes())
    return boxes


@needs_fonts
@pytest.mark.parametrize("script", list(SCRIPTS))
def test_each_script_is_drawn_with_real_glyphs(script: str) -> None:
    boxes = missing_glyph_boxes()
    for character in SCRIPTS[script]:
        assert fonts.font_for(character) not in (None, fonts.LATIN), character
        mask = ink(character)
        assert mask.getbbox() is not None, f"{character!r} left no ink"
        assert mask.tobytes() not in boxes, f"{character!r} drawn as a missing-glyph box"
    assert glyphs.drawable(SCRIPTS[script]) == SCRIPTS[script]


@needs_fonts
def test_the_robot_badge_is_drawn_and_seen() -> None:
    """"🤖 Bob (normal bot)" keeps its badge (it was left out: "( Bob (normal bot))"), drawn as a solid shape a few
    hundred pixels of ink at the board's body size, in front of the name."""
    name = "🤖 Bob (normal bot)"
    assert glyphs.drawable(name) == name
    badge = ink("🤖", 24)
    assert badge.width >= 15 and badge.height >= 15
    assert badge.histogram()[129:].count(0) < 127 and sum(badge.histogram()[129:]) > 100
    width, words, _ = typeset.layout(typeset.font(24), name, "a")
    assert words[0][0].size == badge.size and words[0][1] == 0 and width > typeset.measure("Bob (normal bot)", 24)


def inked_stretches(mask: Image.Image) -> int:
    """How many stretches of inked columns a mask has from left to right (letters standing apart: one each)."""
    columns = [mask.crop((x, 0, x + 1, mask.height)).getextrema()[1] > 64 for x in range(mask.width)]
    return sum(1 for x, inked in enumerate(columns) if inked and (x == 0 or not columns[x - 1]))


def unshaped(text: str, size: int = 24) -> Image.Image:
    """`text` in its fallback font laid out letter by letter (no Raqm), in the order given, at the size a board's
    `size` px text draws it."""
    index = fonts.font_for(text[0])
    assert index is not None
    fallback = fonts.FALLBACKS[index]
    face = ImageFont.truetype(fonts.fallback_path(fallback) or "", round(size * fallback.scale),
                              layout_engine=ImageFont.Layout.BASIC)
    core, _ = face.getmask2(text, "L", anchor="la")
    return Image.new("L", core.size)._new(core)


def difference(first: Image.Image, second: Image.Image) -> int:
    """How much two masks differ, pixel by pixel (set side by side at their top left)."""
    size = (max(first.width, second.width), max(first.height, second.height))
    padded = [Image.new("L", size), Image.new("L", size)]
    padded[0].paste(first, (0, 0))
    padded[1].paste(second, (0, 0))
    return sum(index * count for index, count in enumerate(ImageChops.difference(*padded).histogram()))


@needs_fonts
def test_arabic_letters_are_joined() -> None:
    """Shaped (Raqm): "محمد" is one joined stroke (its letters alone stand apart: three stretches of ink)."""
    assert inked_stretches(unshaped("محمد"[::-1])) >= 3
    assert inked_stretches(ink("محمد")) == 1
    assert ink("محمد").tobytes() != unshaped("محمد"[::-1]).tobytes()


@needs_fonts
def test_right_to_left_names_read_from_the_right() -> None:
    # Within a word: "שלום" is drawn as its letters from the right (ם ו ל ש from the left).
    drawn = ink("שלום")
    assert difference(drawn, unshaped("שלום"[::-1])) * 4 < difference(drawn, unshaped("שלום"))
    # Between words: "محمد علي" puts its first word on the right; a name's colon and a number after it stay after.
    face = typeset.font(24)
    _, words, _ = typeset.layout(face, "محمد علي: 12 points", "a")
    masks = [ink(word).tobytes() for word in ("علي", ":", "محمد", "12", "points")]
    order = [masks.index(Image.new("L", mask.size)._new(mask).tobytes()) for mask, *_ in words]
    assert order == [0, 2, 1, 3, 4]  # علي, محمد, ":", 12, points from the left
    assert [x for _, x, *_ in words] == sorted(x for _, x, *_ in words)


@needs_fonts
def test_a_mixed_line_measures_as_it_is_drawn() -> None:
    """Wrapping and fitting measure a line as the sum of its words; a line of several scripts is drawn at exactly
    that width (the recorder's box ends where the measure says)."""
    text = "Alice 山田太郎 محمد علي 🐉 ＦＵＬＬ"
    _, draw = kit.new_canvas(100, 1600)
    with kit.recording() as drawn:
        draw.text((10, 50), text, font=kit.font(24), fill=kit.INK, anchor="lm")
    left, _, right, _ = drawn[0].box
    assert abs((right - left) - kit.measure(text, 24)) <= 3


@needs_fonts
@pytest.mark.parametrize(("game_key", "mode", "players"), [("the-expedition", "standard", 3),
                                                           ("monster-expedition", "standard", 4),
                                                           ("expeditions", "standard", 5)])
def test_boards_draw_every_script_as_itself(game_key: str, mode: str, players: int) -> None:
    """Two players with names in scripts the Latin font lacks are told apart by their names, not only by their
    badges: each name is drawn as it is written, public and detail board."""
    names = ["山田太郎", "محمد علي", "김민수", "ＦＵＬＬ", "🐉🔥", "🤖 Bot 2 (hard)"][:players]
    names[-1] = "🤖 Bot 2 (hard)"
    game = find_game(game_key)
    state = game.setup(mode, names, Rng(5, 0), {"profiles": [{}] * players})
    for render in (render_board, render_detail):
        with kit.recording() as texts:
            render(game_key, game.view(state, None))
        drawn = "".join(text.text for text in texts)
        for character in " \xa0-":  # (a name wrapped, or split with a hyphen)
            drawn = drawn.replace(character, "")
        for name in names:
            assert name.replace(" ", "") in drawn, f"{render.__name__} of {game_key} lost {name!r}"


def test_characters_no_font_has_are_left_out() -> None:
    assert glyphs.drawable(f"Alice {NOT_IN_ANY_FONT}") == "Alice"
    assert glyphs.drawable(NOT_IN_ANY_FONT * 2) == "?"
    assert glyphs.drawable("Zoë Ærø → ×2") == "Zoë Ærø → ×2"
    assert glyphs.drawable("") == ""
    view = {"names": [f"Bo{NOT_IN_ANY_FONT}", "Zoë"], "n": 3}
    assert glyphs.drawable_view(view) == {"names": ["Bo", "Zoë"], "n": 3}


@pytest.fixture
def no_fallback_fonts(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine without the Noto fonts (only the shipped Latin font)."""
    monkeypatch.setattr(fonts, "FONT_DIRECTORIES", (str(tmp_path),))
    monkeypatch.setenv("EXPEDITION_FONT_DIRS", "")
    _forget_fonts()
    yield
    monkeypatch.undo()
    _forget_fonts()


def _forget_fonts() -> None:
    for cache in (fonts._installed, fonts._coverage, fonts.font_for, fonts.fallback_face, glyphs.drawable,
                  typeset.word_mask, typeset.word_width, typeset.layout, typeset.measure, typeset._mixed_pieces):
        cache.cache_clear()


def test_without_the_fallback_fonts_names_are_drawn_as_before(no_fallback_fonts: None) -> None:
    """The documented fall-back: a name no installed font draws is "?", a badge is left out, and boards draw."""
    assert all(path is None for path in fonts.fallback_paths().values())
    assert glyphs.drawable("山田太郎") == "?"
    assert glyphs.drawable("🤖 Bot 2 (hard)") == "Bot 2 (hard)"
    game = find_game("monster-expedition")
    state = game.setup("standard", ["山田太郎", "🤖 Bot 2 (hard)"], Rng(5, 0), {"profiles": [{}] * 2})
    with kit.recording() as texts:
        render_board("monster-expedition", game.view(state, None))
    drawn = " ".join(text.text for text in texts)
    assert "Bot 2 (hard)" in drawn and "山" not in drawn


@needs_fonts
def test_without_shaping_arabic_is_still_read_from_the_right(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow without Raqm (no FriBiDi on the machine): letters unjoined, but in reading order from the right."""
    monkeypatch.setattr(fonts, "SHAPING", False)
    _forget_fonts()
    try:
        drawn = ink("محمد")
        assert difference(drawn, unshaped("محمد"[::-1])) * 4 < difference(drawn, unshaped("محمد"))
    finally:
        monkeypatch.undo()
        _forget_fonts()


def test_every_colour_a_renderer_uses_is_a_named_constant_of_the_kit() -> None:
    """A fixed PNG palette can be built from the kit's named colours (rendering/style.py): no renderer writes a
    colour of its own."""
    import re
    from pathlib import Path

    import rendering
    from rendering.encoding import colour_sources

    literal = re.compile(r"[\"']#[0-9A-Fa-f]{3,8}[\"']")
    folder = Path(rendering.__file__).parent
    drawings = [path for path in colour_sources() if folder not in path.parents]  # (the games' drawing packages)
    found = [f"{path.name}: {match}" for path in [*sorted(folder.glob("*.py")), *drawings]
             if path != folder / "style.py" for match in literal.findall(path.read_text(encoding="utf-8"))]
    assert not found, found
    assert literal.findall((folder / "style.py").read_text(encoding="utf-8"))  # (the check sees a colour)


def test_one_walk_takes_out_the_marks_and_the_characters_no_font_has() -> None:
    """Review 13, finding 35: two walks of every view (the marks in bot/games/boards.py, the glyphs here), one of
    them on the event loop for Details."""
    from bot.i18n import said

    view = {"players": [{"name": said("Ada\nLovelace \U000f0000")}, {"name": said("Bo")}], "turn": "Bo moves."}
    assert glyphs.drawable_view(view) == {"players": [{"name": "Ada Lovelace"}, {"name": "Bo"}], "turn": "Bo moves."}
    plain = {"players": [{"name": "Ada"}], "turn": "Ada moves."}
    assert glyphs.drawable_view(plain) is plain  # nothing to take out: the view as it is, not walked again
