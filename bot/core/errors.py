"""The RuleError family: mistakes a player can make, each with a message safe to show them privately."""


class RuleError(ValueError):
    """A refused action. The message is shown to the player as it is, so it says what is allowed instead."""


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
