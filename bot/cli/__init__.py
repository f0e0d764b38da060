"""The command line (`expedition-bot`, `python -m bot`): `run` connects to Discord and `sync` registers the commands
(runner.py, with config.py's settings); `local` plays offline; `migrate` copies a database; `simulate` plays
bot-only games headless; `replay` checks an exported game; `invite` prints the invite link (invite.py). Every entry
point of the bot lives in this package."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from bot.cli.config import load_settings

NO_TOKEN = (
    "No Discord token: set DISCORD_TOKEN (in the environment or a .env file) to your bot's token from "
    "https://discord.com/developers/applications (Bot tab, Reset Token), or try the bot offline with "
    "`expedition-bot local`."
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="expedition-bot", description="Expedition Table: board games in Discord.")
    parser.add_argument("--log-level", default=None, help="DEBUG, INFO (default), WARNING or ERROR")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="connect to Discord and host games")
    run.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (default: $EXPEDITION_DB or "
                     "expedition-table.sqlite3)")
    run.add_argument("--sync", action="store_true",
                     help="register the slash commands globally before connecting (once, after an upgrade)")
    run.add_argument("--sync-guild", type=int, default=None,
                     help="register the slash commands in this server before connecting (instant; for development)")
    run.add_argument("--shard-count", type=int, default=None,
                     help="total shards across all processes (default: $EXPEDITION_SHARD_COUNT, or unsharded)")
    run.add_argument("--shard-ids", default=None,
                     help="the shards this process runs, e.g. 0,1 or 0-3 (default: $EXPEDITION_SHARD_IDS, or all)")
    run.add_argument("--no-backup", action="store_true", help="upgrade an older SQLite file without first "
                     "writing a backup next to it (default: back up; also $EXPEDITION_NO_BACKUP=1)")
    sync = commands.add_parser("sync", help="register the slash commands with Discord, then exit")
    sync.add_argument("--guild", type=int, default=None,
                      help="this server only (appears at once); default: globally (can take up to an hour)")
    sync.add_argument("--clear", action="store_true",
                      help="remove the commands registered to --guild (or every global command)")
    sync.add_argument("--dry-run", action="store_true", help="print the command tree and check it against "
                      "Discord's published API description, without a token or connecting (exit 0 if valid)")
    local = commands.add_parser("local", help="an offline table in the terminal, with the same commands")
    local.add_argument("--db", default=None,
                       help="SQLite file or postgresql:// URL (default: a fresh temporary SQLite database)")
    local.add_argument("--boards", default=None, help="folder for the board images (default: ./boards)")
    local.add_argument("--script", default=None, help="read commands from this file instead of the keyboard")
    local.add_argument("--language", default="en", choices=("en", "de"),
                       help="the language of the players' Discord and of the table (default: en)")
    local.add_argument("--no-backup", action="store_true",
                       help="upgrade an older SQLite --db without first writing a backup next to it")
    migrate = commands.add_parser("migrate", help="copy every game from one database to another (and verify)")
    migrate.add_argument("--from", dest="source", required=True, help="SQLite file or postgresql:// URL to read")
    migrate.add_argument("--to", dest="target", required=True, help="an empty SQLite file or postgresql:// URL")
    check = commands.add_parser("replay", help="rebuild an exported game (/game export) and check every state")
    check.add_argument("file", help="the JSON file /game export attached")
    invite = commands.add_parser("invite", help="print the link that adds the bot to a server, and its permissions")
    invite.add_argument("application_id", type=int, help="the Application ID from the Developer Portal")
    from bot.cli.simulate import add_arguments

    add_arguments(commands.add_parser("simulate", help="play bot-only games headless and print their statistics"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "replay":
        from bot.cli.replay import run_check

        return run_check(args.file)
    if args.command == "invite":
        from bot.cli.invite import describe

        print(describe(args.application_id))
        return 0
    if args.command == "simulate":
        from bot.cli.simulate import main as simulate

        return simulate(args)
    if args.command == "sync" and args.dry_run:
        from bot.cli.dry_run import main as dry_run

        return dry_run(args.guild, clear=args.clear)
    try:
        settings = load_settings(database=getattr(args, "db", None), sync_guild=getattr(args, "sync_guild", None),
                                 log_level=args.log_level, shard_count=getattr(args, "shard_count", None),
                                 shard_ids=getattr(args, "shard_ids", None),
                                 no_backup=getattr(args, "no_backup", False))
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command in ("run", "sync"):
        if not settings.token:
            print(NO_TOKEN, file=sys.stderr)
            return 2
        from bot.app import create_bot
        from bot.cli.runner import serve, sync_commands

        if args.command == "sync":
            client = create_bot(settings.database, backup=settings.backup)
            failure = asyncio.run(sync_commands(client, settings.token, args.guild, clear=args.clear))
        else:
            wants_sync = bool(args.sync or settings.sync_guild)
            client = create_bot(settings.database, sync_guild=settings.sync_guild, sync_commands=wants_sync,
                                shard_count=settings.shard_count, shard_ids=settings.shard_ids, freeze_start_up=True,
                                backup=settings.backup)
            failure = asyncio.run(serve(client, settings.token))
        if failure is not None:
            print(failure, file=sys.stderr)
            return 1
        return 0
    if args.command == "migrate":
        from bot.cli.migrate import run_migration

        return asyncio.run(run_migration(args.source, args.target))
    from bot.cli.local import run_local_table
    from bot.store import StoreError

    try:
        return asyncio.run(run_local_table(database=args.db, boards=args.boards, script=args.script,
                                           language=args.language, backup=settings.backup))
    except StoreError as error:  # a database too new, or one this process cannot write
        print(error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
