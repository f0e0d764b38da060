"""Expeditions' drawing: the public board (public.py, its map in public_map.py), the detail board (detail.py), what
both share (shared.py) and the glossary of what they draw (glossary.py). Views in, PNG bytes out: it never imports
the rules, so what an image shows is exactly what its viewer may see."""

from bot.games.expeditions.drawing.detail import detail_image, render_detail
from bot.games.expeditions.drawing.glossary import GLOSSARY
from bot.games.expeditions.drawing.public import alt_text, part_boxes, render, render_image
from bot.games.expeditions.drawing.public_map import warm_up

__all__ = ["GLOSSARY", "alt_text", "detail_image", "part_boxes", "render", "render_detail", "render_image", "warm_up"]
