"""The sign's board: its one catalogue word drawn, and kept in the PNG's text so a test can read what was drawn;
with it, whether the process drawing it warms the words of the package's own vocabulary file."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, PngImagePlugin

from bot.i18n import translate
from rendering import vocabulary


def render(view: dict[str, Any]) -> bytes:
    """A small board with the greeting of the sign's domain, in the view's language."""
    words = translate("sign.greeting", view.get("language") or "en")
    image = Image.new("RGB", (320, 40), "white")
    ImageDraw.Draw(image).text((8, 12), words, fill="black")
    info = PngImagePlugin.PngInfo()
    info.add_itxt("words", words)
    own = vocabulary.folder_entries(Path(__file__).parent)
    info.add_itxt("warmed", str(bool(own) and set(own) <= set(vocabulary.harvested())))
    out = io.BytesIO()
    image.save(out, format="PNG", pnginfo=info)
    return out.getvalue()
