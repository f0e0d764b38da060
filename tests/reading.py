"""Texts as a person reads them: the bot's texts mark the names and typed values in them (bot/i18n/marks.py) until
the medium shows them, so a test of a game's or a feature's words reads them the way a file or an image shows them."""

from __future__ import annotations

from bot.i18n import unmarked


def read(text: object) -> str:
    """`text` (a str, a Text, a Localized name) as shown: the marks removed, each name on one line."""
    return unmarked(str(text))
