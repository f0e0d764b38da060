"""Monster Expedition's drawing, from views only: the public board (public.py, with its players' panel in
players.py), the detail board (detail.py), what both share (common.py) and the glossary of what they draw
(glossary.py). The platform finds it through the game's `PACKAGE` and reads the names below."""

from bot.games.monster_expedition.drawing.common import camp_level, camp_levels, localized
from bot.games.monster_expedition.drawing.detail import detail_image, render_detail
from bot.games.monster_expedition.drawing.glossary import GLOSSARY
from bot.games.monster_expedition.drawing.public import alt_text, part_boxes, render, render_image

__all__ = ["GLOSSARY", "alt_text", "camp_level", "camp_levels", "detail_image", "localized", "part_boxes", "render",
           "render_detail", "render_image"]
