"""Words the features share, in a given language: durations ("12 h", "12 Stunden", "2 Tage"), lists of names
("Alice and Bob", "Alice und Bob") and a game's title for a reader.

The features sit below the cogs and never see Discord: whoever calls them says which language (the table's for what
the channel reads, the reader's for a private answer), and the catalogues (bot/i18n) give the words.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.lists import format_list

from bot.core import Game
from bot.i18n import language_of, said, translate, translate_plural


def duration_text(hours: float, language: str) -> str:
    """A number of hours as people say it: whole days from two days on ("2 days"), else hours ("12 h",
    "1 Stunde", "0,25 Stunden"). German gives the dative ("seit 2 Tagen", "innerhalb von 2 Tagen"): every message
    that holds a duration puts it after "seit" or "von"."""
    if hours >= 48 and hours % 24 == 0:
        return translate_plural("timer.duration.days", int(hours // 24), language)
    if float(hours).is_integer():
        return translate_plural("timer.duration.hours", int(hours), language)
    return translate("timer.duration.hours_fraction", language, hours=float(hours))


def names_and(names: Sequence[str], language: str) -> str:
    """"Alice and Bob" / "Alice und Bob" (Babel's CLDR list patterns for the language), each name marked as a
    person's (bot/i18n/marks.py)."""
    if len(names) == 1:
        return said(names[0])
    return format_list([said(name) for name in names], style="standard", locale=language_of(language))


def game_title(game: Game, language: str) -> str:
    """The game's name in `language` (the names the slash commands register for it; the same in both today)."""
    message_id = f"choice.{game.title}"
    try:
        return translate(message_id, language)
    except KeyError:  # a game the tests register has no entry in the catalogues
        return game.title
