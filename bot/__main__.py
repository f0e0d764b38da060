"""`python -m bot`: the same command line as `expedition-bot` (bot/cli)."""

from bot.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
