"""The Expedition's drawing: what the renderers' table (rendering.drawing) reads from a game's drawing.

- board.py: the public board (`render`, `render_image`), its alt text and where it draws its parts;
- detail.py: the detail board shown privately on demand (`render_detail`, `detail_image`);
- shared.py: what both boards share (the view worded in the table's language, the players' styles and ranking);
- glossary.py: what the board's words and marks mean (the What's this? pages)."""

from bot.games.the_expedition.drawing.board import (
    P_GAP,
    P_GRID_LEFT,
    P_GRID_TOP,
    P_SIDE,
    P_TILE_H,
    P_TILE_W,
    alt_text,
    part_boxes,
    render,
    render_image,
)
from bot.games.the_expedition.drawing.detail import detail_image, render_detail
from bot.games.the_expedition.drawing.glossary import GLOSSARY
from bot.games.the_expedition.drawing.shared import in_words

__all__ = ["GLOSSARY", "P_GAP", "P_GRID_LEFT", "P_GRID_TOP", "P_SIDE", "P_TILE_H", "P_TILE_W", "alt_text",
           "detail_image", "in_words", "part_boxes", "render", "render_detail", "render_image"]
