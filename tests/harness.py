"""The offline Discord harness for tests: it lives in bot/offline/ (a package), which the local table shares."""

from bot.offline import *  # noqa: F403
from bot.offline import __all__  # noqa: F401
