"""The RuleError family: mistakes a player can make, each with a message safe to show them privately.

A refusal is raised with a catalogue message id and its values (`IllegalAction("monster.refuse.bank", value=3)`)
and worded in the reader's language where it is shown (`error.text(interaction.locale)`). Text that is not a
message id (an older raise site not yet in the catalogues) is shown as it is, in every language.
"""

from __future__ import annotations

from bot.i18n import Text, message_ids, unmarked


class RuleError(ValueError):
    """A refused action. The message is shown to the player as it is, so it says what is allowed instead."""

    def __init__(self, message: str | Text = "", /, **values: object) -> None:
        if isinstance(message, Text):
            self.message: Text | str = message
        elif message in message_ids("en"):
            self.message = Text.of(message, **values)
        else:
            self.message = message
        super().__init__(unmarked(str(self.message)))  # logs and the command line show names as typed

    def __reduce__(self) -> tuple[object, ...]:
        """Keeps the untranslated message across a process pool (a computer player's refusal)."""
        return (type(self), (self.message,), self.__dict__)

    def text(self, locale: object) -> str:
        """The refusal in the language of `locale` (a language code or a Discord locale)."""
        return self.message(locale) if isinstance(self.message, Text) else self.message


class NotYourTurn(RuleError):
    """The player may not act now (another player is to move, or they are not seated)."""


class IllegalAction(RuleError):
    """The action is well formed but the rules forbid it here."""


class MalformedAction(RuleError):
    """The action cannot be understood (unknown kind, missing or wrong field)."""


class AmbiguousAction(RuleError):
    """The input matches more than one thing (a card name prefix, for instance)."""


class GameOver(RuleError):
    """The game has ended; nothing more can be played."""


class LobbyError(RuleError):
    """A lobby or table request that cannot be granted (no game here, already seated, not the host...)."""


class StaleBoard(RuleError):
    """The action was made against an older board: someone moved first."""
