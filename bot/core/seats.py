"""Who sits in a seat: a Discord member, or a computer player whose level is written into its user id.

Computer players need no schema of their own: a seat's user id is negative for a bot, and the id says the level,
so a bot seat survives restarts, replays and engine moves exactly like a person's seat.
"""

from __future__ import annotations

from bot.i18n import translate

BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
_LEVEL_STRIDE = 100


def bot_user_id(level: str, number: int) -> int:
    """The user id of the `number`-th computer player (1-based) of a table at `level`."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}")
    if not 1 <= number < _LEVEL_STRIDE:
        raise ValueError(f"bot number {number} out of range")
    return -((BOT_LEVELS.index(level) + 1) * _LEVEL_STRIDE + number)


def is_bot(user_id: int) -> bool:
    """Discord snowflakes are positive: every negative user id is a computer player."""
    return user_id < 0


def bot_level(user_id: int) -> str | None:
    """The level of a computer player's seat, or None for a person."""
    if not is_bot(user_id):
        return None
    index = -user_id // _LEVEL_STRIDE - 1
    return BOT_LEVELS[index] if 0 <= index < len(BOT_LEVELS) else None


def bot_name(level: str, seat_number: int, language: str = "en") -> str:
    """How a computer player is shown, in the table's language: a robot badge, its seat and its level ("🤖 Bot 2
    (hard)", "🤖 Bot 2 (schwer)"). It becomes the seat's name, which the game's state and replay keep."""
    return translate("seats.bot_name", language, number=seat_number, level=level_word(level, language))


def level_word(level: str, language: str = "en") -> str:
    """A computer player's level as the reader says it ("hard", "schwer"): the choice words of /game add-bot."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return translate(f"choice.{level}", language)  # the ids of the command tree's level choices


def taken_over_name(name: str, level: str, language: str = "en") -> str:
    """A person's seat a computer player took over (/game kick), as the channel is shown it: "🤖 Bob (normal bot)"."""
    return translate("seats.taken_over", language, name=name, level=level_word(level, language))
