"""The render caches change nothing in the picture: an Expeditions map layer repainted from the previous one (only
the spaces a move changed) is pixel for pixel the layer drawn whole."""

from __future__ import annotations

import copy
import itertools
import random
import subprocess
import sys
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.core import find_game
from rendering import canvas, clear_caches, drawing, expeditions, kit, render_board, typeset
from rendering.glyphs import drawable_view
from tests.test_render_boards import NAMES, random_game


def _whole(view: dict[str, Any]) -> Image.Image:
    spaces = view["map"]["spaces"]
    image, _ = expeditions._p_built(spaces, tuple(repr(s) for s in spaces), tuple(view["map"]["basecamp"]["mechs"]),
                                    False)
    return image


def _repainted(view: dict[str, Any]) -> Image.Image | None:
    spaces = view["map"]["spaces"]
    return expeditions._p_repainted(spaces, tuple(repr(s) for s in spaces), tuple(view["map"]["basecamp"]["mechs"]))


def _same(one: Image.Image, other: Image.Image) -> bool:
    return ImageChops.difference(one, other).getbbox() is None


@pytest.mark.parametrize("players", [1, 3, 5])
def test_a_repainted_map_layer_is_the_whole_layer_for_every_move_of_a_match(players: int,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    game = find_game("expeditions")
    expeditions._LAYERS.clear()
    repainted = []

    def counted(*args: Any) -> Image.Image | None:
        image = _repaint(*args)
        repainted.append(image is not None)
        return image

    _repaint = expeditions._p_repainted
    monkeypatch.setattr(expeditions, "_p_repainted", counted)
    for state in random_game("expeditions", "standard", NAMES[:players], 5):
        view = drawable_view(game.view(state, None))
        if "map" in view:
            assert _same(expeditions._p_map_layer(view).image, _whole(view))
    assert sum(repainted) > 50 and sum(repainted) > 0.9 * len(repainted)  # each new map came from the one before


def test_a_changed_space_at_the_maps_foot_keeps_the_mechs_in_the_basecamp() -> None:
    game = find_game("expeditions")
    start = drawable_view(game.view(random_game("expeditions", "standard", NAMES[:2], 5)[0], None))
    assert start["map"]["basecamp"]["mechs"] == [0, 1]
    expeditions._LAYERS.clear()
    expeditions._p_map_layer(start)
    moved = copy.deepcopy(start)
    foot = max(moved["map"]["spaces"], key=lambda space: (space["row"], -space["col"]))
    foot.update(revealed=False, label="", map_token=True)  # the bottom-left space: its piece reaches the basecamp
    image = _repainted(moved)
    assert image is not None and _same(image, _whole(moved))
    assert not _same(image, _whole(start))
    assert not expeditions._LAYERS  # the nearest layer was taken out and repainted in place
    left = copy.deepcopy(moved)
    left["map"]["basecamp"]["mechs"] = [1]  # a mech leaves the basecamp
    expeditions._p_map_layer(moved)
    image = _repainted(left)
    assert image is not None and _same(image, _whole(left))


def test_a_map_far_from_every_cached_layer_is_drawn_whole() -> None:
    game = find_game("expeditions")
    states = random_game("expeditions", "standard", NAMES[:3], 5)
    expeditions._LAYERS.clear()
    assert _repainted(drawable_view(game.view(states[0], None))) is None
    expeditions._p_map_layer(drawable_view(game.view(states[0], None)))
    assert _repainted(drawable_view(game.view(states[-1], None))) is None  # most spaces changed since the start


@pytest.mark.parametrize(("game_key", "mode", "players"), [("the-expedition", "solo", 1),
                                                           ("monster-expedition", "standard", 3),
                                                           ("expeditions", "standard", 4)])
def test_boards_drawn_from_warm_caches_are_the_boards_drawn_from_nothing(game_key: str, mode: str,
                                                                         players: int) -> None:
    """Every cache (word masks, wrapped lines, faces, map layers, fills pasted as colours) changes nothing in the
    picture: a match's boards drawn in turn by one worker equal each board drawn by a fresh one."""
    game = find_game(game_key)
    module = drawing(game_key)
    states = random_game(game_key, mode, NAMES[:players], 9)
    picked = states[:: max(1, len(states) // 25)] + states[-2:]
    clear_caches()
    warm = [module.render_image(drawable_view(game.view(state, None))).tobytes() for state in picked]
    for state, image in zip(picked, warm, strict=True):
        clear_caches()
        assert module.render_image(drawable_view(game.view(state, None))).tobytes() == image


def test_the_kits_fast_fill_and_paste_draw_what_pillow_draws() -> None:
    """kit.Draw.rectangle (a large plain fill pasted as a colour) and kit.blit (a paste without Pillow's checks)
    give Pillow's own pixels, also where the box runs off the canvas or a mask is used."""
    piece = Image.new("RGB", (60, 40), "#C9A86A")
    ImageDraw.Draw(piece).ellipse((5, 5, 50, 35), fill="#14161F")
    mask = Image.new("1", (60, 40), 0)
    ImageDraw.Draw(mask).polygon([(0, 0), (59, 10), (20, 39)], fill=1)
    sprite = piece.convert("RGBA")
    sprite.putalpha(mask.convert("L"))
    for box in [(0, 0, 800, 104), (10, 20, 300, 200), (-5, 600, 900, 700), ((12, 30), (411, 90))]:
        fast, slow = Image.new("RGB", (800, 640), "#1E2230"), Image.new("RGB", (800, 640), "#1E2230")
        kit.Draw(fast).rectangle(box, fill="#2A3042")
        ImageDraw.Draw(slow).rectangle(box, fill="#2A3042")
        assert _same(fast, slow), box
    for xy in [(0, 0), (770, 620), (-30, -20), (400, 300)]:
        for source, through in [(piece, None), (piece, mask), (sprite, sprite)]:
            fast, slow = Image.new("RGB", (800, 640), "#1E2230"), Image.new("RGB", (800, 640), "#1E2230")
            kit.blit(fast, source, xy, through)
            slow.paste(source, xy, through)
            assert _same(fast, slow), (xy, source.mode)


def test_a_recycled_canvas_keeps_nothing_of_the_board_before() -> None:
    """Each game's board drawn into the canvas another game's board left is the board drawn into a new one."""
    boards = []
    for game_key, mode, players in [("expeditions", "standard", 3), ("monster-expedition", "standard", 2),
                                    ("the-expedition", "solo", 1), ("expeditions", "standard", 5)]:
        view = find_game(game_key).view(random_game(game_key, mode, NAMES[:players], 4)[-1], None)
        boards.append((game_key, view))
    clear_caches()
    fresh = []
    for key, view in boards:
        canvas.SPARES.clear()  # a new canvas for each
        fresh.append(render_board(key, view))
    clear_caches()
    for _ in range(2):
        assert [render_board(key, view) for key, view in boards] == fresh
    assert canvas.SPARES  # the canvases did come back


_FAULTS = """
import io, resource, sys
from PIL import Image, ImageDraw
from rendering import kit
if sys.argv[1] == "kept":
    assert kit.keep_freed_memory()
image = Image.new("RGB", (800, 640), "#1E2230")
ImageDraw.Draw(image).ellipse((100, 100, 700, 600), fill="#E69F00")
def churn():  # what frees and asks again for megabytes: a quantiser's tables, a palette image, PNG buffers
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(io.BytesIO(), "PNG")
churn()
kit.encode_board(image)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    churn()
middle = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    kit.encode_board(image)
print(middle - before, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - middle)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator setting")
def test_a_render_worker_reuses_freed_memory_instead_of_faulting_in_new_pages() -> None:
    """Work that frees and asks again for megabytes (a quantiser, a palette image, PNG buffers) zeroes fresh pages
    each time by default; a worker keeps them (kit.keep_freed_memory). A board's own encoding, in the boards' fixed
    palette, pages in next to nothing either way."""
    def faults(setting: str) -> tuple[int, int]:
        done = subprocess.run([sys.executable, "-c", _FAULTS, setting], capture_output=True, text=True, check=True)
        churned, boards = done.stdout.split()[-2:]
        return int(churned), int(boards)

    (default, default_boards), (kept, kept_boards) = faults("default"), faults("kept")
    assert default > 500  # ten octree quantisations, each paging in fresh memory
    assert kept < default / 10
    # Ten boards encoded in the fixed palette: a few pages each by default (glibc trims and regrows the heap's top
    # around the PNG buffers: 9-17 a board measured), next to none in a worker.
    assert default_boards < default / 20 and kept_boards < 20


def test_wrapping_on_running_widths_fills_each_line_as_measuring_it_would() -> None:
    """kit.lines and kit.wrap keep a line's width as a running sum of word widths: each line fits as `measure`
    measures it, the next line's first word would not have fitted, and no word is lost or cut."""
    words = ["a", "the", "Mercury;", "captures", "(final))", "$159.", "2\u00a0cards\u00a0in\u00a0hand\u00a0·", "Io",
             "Whispering", "Felsenharpyie", "—", "4", "12,", "11+", "$8"]
    chooser = random.Random(3)
    for _ in range(400):
        text = " ".join(chooser.choice(words) for _ in range(chooser.randint(1, 20)))
        size, weight = chooser.choice([(18, "regular"), (24, "bold"), (30, "bold"), (18, "semibold")])
        width = chooser.randint(max(kit.measure(word, size, weight) for word in words), 600)  # no word split
        for wrapped in (kit.lines(text, width, size, weight),
                        tuple(kit.wrap(typeset.MEASURE_DRAW, text, width, kit.font(size, weight)))):
            assert " ".join(wrapped).split(" ") == text.split(" ")
            for line, following in zip(wrapped, [*wrapped[1:], None], strict=True):
                assert kit.measure(line, size, weight) <= width
                if following is not None:  # its first word did not fit, or came down with words glued to it
                    ahead, ending = following.split(" "), line.split(" ")
                    came = next(k for k in range(len(ahead))
                                if kit.measure(" ".join([line, *ahead[:k + 1]]), size, weight) > width)
                    assert came <= typeset.GLUED_KEPT
                    assert all(typeset.glued(ahead[i], ahead[i + 1]) for i in range(came))
                    if typeset.glued(ending[-1], ahead[0]):  # only if they could not come down together
                        assert (came == typeset.GLUED_KEPT
                                or kit.measure(" ".join([ending[-1], *ahead[:came + 1]]), size, weight) > width
                                or all(typeset.glued(a, b) for a, b in itertools.pairwise(ending)))
