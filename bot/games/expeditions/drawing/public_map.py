"""The map of Expeditions' public board (800 x 640 for every player count, read on a phone): the location tiles,
the basecamp and the legend, built from cached spaces into a layer that a move repaints only where it changed, and
the outlines of the spaces the player to move can reach (drawn once per worker by `warm_up`)."""

from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.expeditions.drawing.shared import (
    BOTH,
    CARD_FILL,
    GUILE,
    HIDDEN_FILL,
    POWER,
    REGION_FILL,
    WORKER,
    language,
)
from bot.games.expeditions.rules.view_types import ExpeditionsView
from bot.i18n import deferred
from rendering import kit
from rendering.caches import LruCache, footprint
from rendering.wording import translate

REGION_WORDS = {"south": deferred("expeditions.region.south"), "central": deferred("expeditions.region.central"),
                "north": deferred("expeditions.region.north")}

P_W, P_H = kit.PHONE_WIDTH, 640
P_HEX_W = 92
P_HEX_R = P_HEX_W / math.sqrt(3)
P_TOP = kit.HEADER_H + 6
P_SIDE = int(12 + 5.5 * P_HEX_W) + 14
SMALL, BIG = kit.SMALL, kit.BIG
BASECAMP_Y = P_TOP + 8 * P_HEX_R + 22
_P_BASECAMP_BOX = (0, math.floor(BASECAMP_Y) - 21, P_SIDE, math.ceil(BASECAMP_Y) + 21)
"""The basecamp strip under the map: its centre line and what a change of mechs repaints."""


def _p_centre(row: int, col: int) -> tuple[float, float]:
    x = 12 + P_HEX_W / 2 + col * P_HEX_W + (P_HEX_W / 2 if row % 2 else 0)
    y = P_TOP + P_HEX_R + row * 1.5 * P_HEX_R
    return x, y


@lru_cache(maxsize=64)
def hex_corners(row: int, col: int) -> tuple[tuple[float, float], ...]:
    x, y = _p_centre(row, col)
    r = P_HEX_R - 2
    return tuple((x + r * math.cos(math.radians(60 * i - 30)), y + r * math.sin(math.radians(60 * i - 30)))
                 for i in range(6))


CACHED_SPACE_BYTES, CACHED_LAYER_BYTES = 12 << 20, 8 << 20
"""A worker keeps ~12 MB of map spaces (a space is ~45 KB with its palette copy: a few hundred, the spaces of the maps
in play) and ~8 MB of whole map layers (0.5 MB each, in the boards' palette: the latest maps of some fifteen
matches), the least recently used going first."""
_SPACES: LruCache[str, tuple[kit.Face, Image.Image, tuple[int, int]]] = LruCache(CACHED_SPACE_BYTES)


@dataclass(frozen=True)
class _Layer:
    """A map layer and what it was built from (each space's key and the basecamp), so the next state's layer can
    be made from it by repainting only what a move changed."""

    face: kit.Face
    spaces: tuple[str, ...]
    mechs: tuple[int, ...]


_LayerKey = tuple[tuple[str, ...], tuple[int, ...], bool]
"""A cached layer's spaces, its mechs, and whether it was drawn while recording."""
_LAYERS: LruCache[_LayerKey, _Layer] = LruCache(
    CACHED_LAYER_BYTES, lambda layer: footprint(layer.face))
LAYERS_LOCK = threading.Lock()
"""A layer is repainted in place: a board drawn in a thread (a test, a runtime-registered game's pool) must not
copy one while another repaints it."""


def _p_space_face(space: dict[str, Any], key: str) -> tuple[kit.Face, Image.Image, tuple[int, int]]:
    """One map space drawn once per process on a transparent piece (a space looks the same until its corruption,
    mech, card or side changes): the piece, its mask and where it goes on the board."""
    recording = kit.is_recording()  # a piece built for a test carries what it drew; a worker's needs no record
    cached = f"{key} (recorded)" if recording else key
    found = _SPACES.get(cached)
    if found is None:
        left, top, right, bottom = _p_space_box(space["row"], space["col"])
        origin = (left, top)
        image = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
        with kit.building(image) if recording else contextlib.nullcontext(kit.Recording()) as drawn:
            _p_space(kit.Draw(image), space, origin)
        # Everything on a space is opaque (shapes are not anti-aliased, letters sit on them): a 1-bit mask pastes
        # it at a third of the cost of its alpha channel, and thresholding that all-or-nothing alpha (no dithering)
        # takes a twentieth of the time dithering it would.
        mask = image.getchannel("A").convert("1", dither=Image.Dither.NONE)
        found = (kit.Face(image.convert("RGB"), drawn), mask, origin)
        _SPACES.put(cached, found)
    return found


def map_layer(view: ExpeditionsView) -> kit.Face:
    """The map, the basecamp and the legend on the board's background, built from cached spaces; the same layer
    comes back as long as nothing on the map changes (most steps of a turn), and a move's new layer is the
    previous one with only the changed spaces repainted."""
    lang = language(view)
    spaces = view["map"]["spaces"]
    if lang != "en":  # a space's words (and so its cached piece) are in the board's language
        spaces = [{**space, "language": lang} for space in spaces]
    mechs = tuple(view["map"]["basecamp"]["mechs"])
    recording = kit.is_recording()  # a layer built for a test carries what it drew; a worker's needs no record
    keys = tuple(repr(space) for space in spaces)  # each space as its piece is cached
    key = (keys, mechs, recording)
    layer = _LAYERS.get(key)
    if layer is None:
        image = None if recording else _p_repainted(spaces, keys, mechs)
        drawn = kit.Recording()
        if image is None:
            image, drawn = _p_built(spaces, keys, mechs, recording)
        layer = _Layer(kit.Face(image, drawn), keys, mechs)
        _LAYERS.put(key, layer)
    return layer.face


def _p_built(spaces: list[dict[str, Any]], keys: tuple[str, ...], mechs: tuple[int, ...], recording: bool
             ) -> tuple[Image.Image, kit.Recording]:
    """A map layer drawn whole: the background, every space, the basecamp."""
    base = _p_base(_spaces_language(spaces))
    image = base.image.copy()
    with kit.building(image) if recording else contextlib.nullcontext(kit.Recording()) as drawn:
        kit.replay(base)
        for space, key in zip(spaces, keys, strict=True):
            face, mask, origin = _p_space_face(space, key)
            kit.blit(image, face.image, origin, mask)
            kit.replay(face, origin)
        _p_basecamp(kit.Draw(image), list(mechs), _spaces_language(spaces))
    return image, drawn


def _spaces_language(spaces: list[dict[str, Any]]) -> str:
    """The language a map's spaces are drawn in (English when they do not say)."""
    return str(spaces[0].get("language") or "en") if spaces else "en"


def _p_repainted(spaces: list[dict[str, Any]], keys: tuple[str, ...], mechs: tuple[int, ...]
                 ) -> Image.Image | None:
    """The cached layer nearest to this map (fewest spaces changed: a move changes one or two), taken out of the
    cache and repainted in place where the spaces and the basecamp changed; None when no cached layer is near
    enough. (In place: a copy of a 1.5 MB layer costs more in fresh memory than the repaint itself.)"""
    nearest: tuple[_LayerKey, _Layer] | None = None
    changed = len(keys) // 4 + 1
    for layer_key, layer in _LAYERS.items():
        # (not a layer drawn while recording, for a test or a glossary: its pieces were drawn apart, not pasted)
        if not layer_key[2] and len(layer.spaces) == len(keys):
            differing = sum(1 for old, new in zip(layer.spaces, keys, strict=True) if old != new)
            if differing < changed:
                nearest, changed = (layer_key, layer), differing
    if nearest is None:
        return None
    best_key, best = nearest
    _LAYERS.pop(best_key)
    image = best.face.image
    basecamp = mechs != best.mechs
    for space, old, new in zip(spaces, best.spaces, keys, strict=True):
        if old != new:
            box = _p_space_box(space["row"], space["col"])
            _p_recompose(image, spaces, keys, box)
            basecamp = basecamp or box[3] > _P_BASECAMP_BOX[1]  # the basecamp is drawn over the map's foot
    if basecamp:
        _p_recompose(image, spaces, keys, _P_BASECAMP_BOX)
        _p_basecamp(kit.Draw(image), list(mechs), _spaces_language(spaces))
    return image


def _p_recompose(image: Image.Image, spaces: list[dict[str, Any]], keys: tuple[str, ...],
                 box: tuple[int, int, int, int]) -> None:
    """Draw `box` of the layer again as a whole build draws it: the background, then every space reaching into
    it in map order (a space's card overhangs its neighbours' edges), so repainting one space is exact."""
    region = _p_base(_spaces_language(spaces)).image.crop(box)
    for space, key in zip(spaces, keys, strict=True):
        left, top, right, bottom = _p_space_box(space["row"], space["col"])
        if left < box[2] and box[0] < right and top < box[3] and box[1] < bottom:
            face, mask, origin = _p_space_face(space, key)
            kit.blit(region, face.image, (origin[0] - box[0], origin[1] - box[1]), mask)
    kit.blit(image, region, box[:2])


@lru_cache(maxsize=64)
def _p_space_box(row: int, col: int) -> tuple[int, int, int, int]:
    """Where a space's piece goes on the board (as `_p_space_face` places it)."""
    x, y = _p_centre(row, col)
    left, top = math.floor(x - P_HEX_W / 2) - 2, math.floor(y - P_HEX_R) - 2
    return left, top, left + int(P_HEX_W) + 6, top + int(2 * P_HEX_R) + 6


def _p_space(draw: kit.Draw, space: dict[str, Any], origin: tuple[int, int] = (0, 0)) -> None:
    """One map space as a location tile: its region's colour and landscape, its number on top and its name across
    the middle; the mech and the top corruption below. A face-down tile shows its region and map token."""
    row, col = space["row"], space["col"]
    lang = str(space.get("language") or "en")
    ox, oy = origin
    x, y = _p_centre(row, col)
    x, y = x - ox, y - oy
    points = [(px - ox, py - oy) for px, py in hex_corners(row, col)]
    if space["kind"] == "cards":
        draw.polygon(points, fill=kit.SLOT, outline=kit.INK_MUTED)
        card = space.get("card")
        box = (x - 42, y - 38, x + 42, y + 38)
        if card is None:
            draw.text((x, y), translate("expeditions.board.empty", lang), font=kit.font(SMALL), fill=kit.INK_MUTED,
                      anchor="mm")
            return
        draw.rounded_rectangle(box, radius=6, fill=CARD_FILL.get(card["kind"], kit.INK), outline=kit.INK_DARK)
        draw.rectangle((box[0] + 2, box[1] + 2, box[2] - 2, box[1] + 8), fill=WORKER.get(card["colour"], kit.GREY))
        size, name = kit.fit_lines(card["name"], 80, 3, (SMALL,), "semibold")
        y0 = y + 4 - len(name) * (size + 1) / 2
        for index, line in enumerate(name):
            draw.text((x, y0 + index * (size + 1) + size / 2), line, font=kit.font(size, "semibold"),
                      fill=kit.INK_DARK, anchor="mm", role="card")
        return
    kind = space["kind"]
    mech = space.get("mech")
    if not space["revealed"]:
        draw.polygon(points, fill=HIDDEN_FILL[kind], outline=kit.INK_MUTED)
        _p_mech_ring(draw, points, mech)
        kit.terrain(draw, (x, y - 30), kind, 34, kit.INK_MUTED)
        draw.text((x, y - 4), space["code"], font=kit.font(BIG, "bold"), fill=kit.INK, anchor="mm")
        items = ([("mech", mech)] if mech is not None else []) + ([("map", None)] if space["map_token"] else [])
        _p_row(draw, x, y + 24, items, lang)
        return
    draw.polygon(points, fill=REGION_FILL[kind], outline=kit.INK_DARK)
    _p_mech_ring(draw, points, mech)
    weight, name = _p_place_name(str(space["name"]), lang)
    tall = len(name) > 2  # a long name takes a third line: the number goes up, one piece below
    draw.text((x, y - (41 if tall else 36)), str(space["location"]), font=kit.font(SMALL, "bold"),
              fill=kit.INK_DARK, anchor="mm")
    name_y = y - (25 if tall else 18 if len(name) > 1 else 6)
    step = 18 if tall else 19  # three lines sit closer, clear of the piece below
    for index, line in enumerate(name):
        draw.text((x, name_y + index * step), line, font=kit.font(SMALL, weight), fill=kit.INK_DARK, anchor="mm",
                  role="card")
    tokens = space["corruption"][-(1 if mech is not None or tall else 2):]
    items = ([("mech", mech)] if mech is not None else []) + [("corruption", t) for t in tokens]
    if items:
        _p_row(draw, x, y + (36 if tall else 31), items[:1] if tall else items, lang)
    elif space.get("cleared_exposed"):
        draw.text((x, y + (36 if tall else 26)), translate("expeditions.board.clear", lang),
                  font=kit.font(SMALL, "bold"),
                  fill=kit.LEAF_DARK, anchor="mm")
    else:
        kit.terrain(draw, (x, y + 32), kind, 34)


@lru_cache(maxsize=256)
def _p_place_name(name: str, language: str) -> tuple[str, tuple[str, ...]]:
    """A location's name on its tile, whole: two lines in semibold, else in the narrower regular weight across
    the tile's full width, else three lines; a word broken at `language`'s breaks (kept per language: the first
    board a worker drew once decided the breaks of every later one, "Versun-kene" or "Ver-sunkene")."""
    with kit.hyphenating(language):
        tries = [(weight, kit.lines(name, width, SMALL, weight)) for weight, width in (("semibold", 84),
                                                                                    ("regular", 88))]
    whole = len(name.split())
    for weight, lines in tries:  # every word whole on two lines
        if len(lines) <= 2 and len(" ".join(lines).split()) == whole:
            return weight, lines
    for weight, lines in tries:  # a word broken between its syllables
        if len(lines) <= 2:
            return weight, lines
    return tries[-1]


def _p_mech_ring(draw: kit.Draw, points: list[tuple[float, float]], mech: Any) -> None:
    """A tile with a mech on it ringed in its player's colour, inside a dark edge: a player finds their own mech at
    a glance on a phone (the piece alone was one small token among the corruption)."""
    if mech is None:
        return
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    inset = [(x + (cx - x) * 0.06, y + (cy - y) * 0.06) for x, y in points]
    draw.polygon(inset, outline=kit.player_style(int(mech)).colour, width=6)
    draw.polygon(points, outline=kit.INK_DARK, width=2)


def _p_row(draw: kit.Draw, x: float, row: float, items: list[tuple[str, Any]], lang: str = "en") -> None:
    """The pieces on a space, side by side and centred: a mech (its player's shape and letter), corruption tokens
    (their value on the colour that pays them), a map token (its letter on a tile, the legend's letter: M, K)."""
    widths = {"mech": 36, "corruption": 22, "map": 22}
    total = sum(widths[kind] for kind, _ in items) + 2 * (len(items) - 1)
    left = x - total / 2
    for kind, item in items:
        if kind == "mech":
            kit.draw_token(draw, (left + 18, row), 19, kit.player_style(int(item)), width=3)
        elif kind == "corruption":
            colour, value = item
            cx = left + 11
            fill = {"power": POWER, "guile": GUILE}.get(colour, BOTH)
            draw.ellipse((cx - 11, row - 11, cx + 11, row + 11), fill=fill, outline=kit.INK_DARK)
            kit.mark("corruption", (cx - 11, row - 11, cx + 11, row + 11))
            draw.text((cx, row), str(value), font=kit.font(SMALL, "bold"),
                      fill=kit.INK if colour == "both" else kit.INK_DARK, anchor="mm", role="label")
        else:
            draw.rectangle((left, row - 11, left + 22, row + 11), fill=kit.MAP_TOKEN, outline=kit.INK_DARK)
            kit.mark("map token", (left, row - 11, left + 22, row + 11))
            draw.text((left + 11, row), translate("expeditions.board.map_letter", lang), font=kit.font(SMALL, "bold"),
                      fill=kit.INK_DARK, anchor="mm", role="label")
        left += widths[kind] + 2


def _p_basecamp(draw: kit.Draw, mechs: list[int], lang: str = "en") -> None:
    y = BASECAMP_Y
    draw.rounded_rectangle((12, y - 20, 12 + 150 + 40 * len(mechs), y + 20), radius=8, fill=kit.CAMP_BROWN)
    word, face = kit.fitted(translate("expeditions.board.basecamp", lang), 106, SMALL, "bold", 12)
    draw.text((22, y), word, font=face, fill=kit.INK, anchor="lm")
    for index, seat in enumerate(mechs):
        kit.draw_token(draw, (138 + index * 40, y), 17, kit.player_style(seat), width=2)


@lru_cache(maxsize=4)
def _p_base(lang: str = "en") -> kit.Face:
    """The board's background with the legend under the map: the same for every board of a language."""
    image = kit.new_layer((P_W, P_H))
    with kit.building(image) as drawn:
        _p_legend(kit.Draw(image), P_LEGEND_TOP, lang)
    return kit.Face(image, drawn)


def _p_legend(draw: kit.Draw, top: int, lang: str = "en") -> None:
    """What the map's colours and drawings mean, in two lines under it."""
    face = kit.font(SMALL)
    x, y = 12, top + 11
    paid = translate("expeditions.board.legend_paid", lang)
    draw.text((x, y), paid, font=face, fill=kit.INK_MUTED, anchor="lm")
    x += kit.measure(paid, SMALL) + 18
    for fill, word in ((POWER, translate("expeditions.resource.power", lang)),
                       (GUILE, translate("expeditions.resource.guile", lang)),
                       (BOTH, translate("expeditions.board.legend_both", lang))):
        draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=fill, outline=kit.INK_DARK)
        kit.mark("legend", (x - 10, y - 10, x + 10, y + 10))
        draw.text((x + 15, y), word, font=face, fill=kit.INK_MUTED, anchor="lm")
        x += 15 + kit.measure(word, SMALL) + 22
    x, y = 12, y + 26
    for kind in ("south", "central", "north"):
        draw.rounded_rectangle((x, y - 11, x + 34, y + 11), radius=5, fill=REGION_FILL[kind])
        kit.terrain(draw, (x + 17, y + (4 if kind == "south" else 0)), kind, 26)
        kit.mark("legend", (x, y - 11, x + 34, y + 11))
        word = translate(REGION_WORDS[kind], lang)
        draw.text((x + 40, y), word, font=face, fill=kit.INK_MUTED, anchor="lm")
        x += 40 + kit.measure(word, SMALL) + 16
    draw.text((x, y), translate("expeditions.board.legend_hidden", lang), font=face, fill=kit.INK_MUTED, anchor="lm")


@lru_cache(maxsize=4)
def legend_second_right(lang: str = "en") -> float:
    """Where the legend's second line ends (`_p_legend`): it may reach into the side column, under the map."""
    x = 12.0
    for kind in ("south", "central", "north"):
        x += 40 + kit.measure(translate(REGION_WORDS[kind], lang), SMALL) + 16
    return x + kit.measure(translate("expeditions.board.legend_hidden", lang), SMALL)


@lru_cache(maxsize=4)
def legend_first_right(lang: str = "en") -> float:
    """Where the legend's first line, the corruption's colours (`_p_legend`), ends."""
    x = 12 + kit.measure(translate("expeditions.board.legend_paid", lang), SMALL) + 18
    for word in (translate("expeditions.resource.power", lang), translate("expeditions.resource.guile", lang),
                 translate("expeditions.board.legend_both", lang)):
        x += 15 + kit.measure(word, SMALL) + 22
    return x - 22


P_LEGEND_TOP = int(P_TOP + 8 * P_HEX_R + 48)
"""The legend's top under the map."""
P_LEGEND_ROW = (P_LEGEND_TOP + 11 + 26 - 11, P_LEGEND_TOP + 11 + 26 + 11)
"""The top and bottom of the legend's second line."""


@lru_cache(maxsize=256)
def _p_outline(row: int, col: int, colour: str) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """A space's outline in a player's colour on a white edge, drawn straight in the boards' palette (lines are not
    anti-aliased: the same pixels as drawn on the board): the piece, its 1-bit mask and its place. A worker draws
    every space's in every colour at its start (`warm_up`)."""
    left, top, right, bottom = _p_space_box(row, col)
    size = (right - left + 8, bottom - top + 8)
    points = [(x - left + 4, y - top + 4) for x, y in hex_corners(row, col)]
    line = [*points, points[0], points[1]]
    piece = Image.new("P", size, 0)
    piece.putpalette(kit.board_palette().getpalette() or [])
    draw = kit.Draw(piece)
    draw.line(line, fill=kit.HIGHLIGHT, width=6, joint="curve")
    draw.line(line, fill=colour, width=3, joint="curve")
    mask = Image.new("1", size, 0)
    cover = ImageDraw.Draw(mask)
    cover.line(line, fill=1, width=6, joint="curve")
    cover.line(line, fill=1, width=3, joint="curve")
    return piece, mask, (left - 4, top - 4)


MAP_SIZE = 5
"""The map's rows and columns (the rulebook's 5 x 5 grid of spaces)."""


def warm_up() -> None:
    """What a render worker draws at its start, so that no board pays for it: the outline that marks a reachable
    space, for every space in every player colour (150 pieces, ~1.5 MB, ~25 ms; drawing one costs a board ~0.13 ms,
    and a move's board outlines up to a dozen)."""
    for row in range(MAP_SIZE):
        for col in range(MAP_SIZE):
            for style in kit.PLAYER_STYLES:
                _p_outline(row, col, style.colour)


def draw_reachable(draw: kit.Draw, view: ExpeditionsView) -> None:
    """The spaces the player to move can move to, outlined in their colour, and a word on it by the basecamp."""
    reachable = set(view.get("reachable") or ())
    current = view.get("current")
    if not reachable or current is None or view.get("closed"):  # (a table closed early: nobody moves)
        return
    style = kit.player_style(int(current["seat"]))
    for space in view["map"]["spaces"]:
        if space["code"] in reachable:
            outline, mask, origin = _p_outline(space["row"], space["col"], style.colour)
            kit.blit(draw.canvas, outline, origin, mask)
    x, y = P_SIDE - 12, BASECAMP_Y
    left = 12 + 150 + 40 * len(view["map"]["basecamp"]["mechs"]) + 12  # clear of the basecamp
    size, lines = kit.fit_lines(translate("expeditions.board.outlined", language(view)), x - left, 2, (SMALL,))
    for index, line in enumerate(lines[:2]):
        draw.text((x, y - 10 * (len(lines[:2]) - 1) + 20 * index), line, font=kit.font(size), fill=kit.INK,
                  anchor="rm")
