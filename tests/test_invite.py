"""The invite link asks for what the bot needs (threads included), and the README's link is that link."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot.__main__ import main
from bot.app import create_bot
from bot.cli.invite import NEEDED, NOT_NEEDED, SCOPES, bot_permissions, invite_url
from tests.harness import DiscordHarness

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
INVITE = re.compile(r"https://discord\.com/oauth2/authorize\?[^\s`)>]+")

# What in the code calls for which bot permission (Discord's documentation of each route). View Channels comes
# with any of them.
CALLS_FOR: dict[str, str] = {
    "send_messages": r"(?<!followup)\.send\(",  # a message posted to a channel (interaction followups need none)
    "send_messages_in_threads": r"\bthread\.send\(",
    "attach_files": r"discord\.File\(",
    "embed_links": r"discord\.Embed\(",
    "create_public_threads": r"\.create_thread\(",
    "manage_threads": r"\bthread\.delete\(|archived\s*=\s*True|locked\s*=\s*True",
    "read_message_history": r"\.fetch_message\(|channel\.history\(|\.pins\(",
    "add_reactions": r"\.add_reaction\(",
    "manage_messages": r"\.pin\(|\.unpin\(|\.clear_reactions\(|channel\.purge\(",
    "mention_everyone": r"everyone\s*=\s*True|roles\s*=\s*True",
}


def discord_code() -> str:
    """The code that talks to Discord: the cogs, the games' slash commands and the bot's modules above the pure
    rules, the store and the offline Discord (which plays Discord's part)."""
    skipped = ("games", "core", "store", "offline", "discord_api")
    paths = [*(ROOT / "cogs").rglob("*.py"), *(ROOT / "bot" / "games").glob("*/commands.py"),
             *(path for path in (ROOT / "bot").rglob("*.py")
               if not path.relative_to(ROOT / "bot").parts[0].startswith(skipped))]
    return "\n".join(path.read_text() for path in paths)


def test_the_readme_link_asks_for_exactly_the_needed_permissions() -> None:
    links = INVITE.findall(README.read_text())
    assert links, "the README has no invite link"
    for link in links:
        query = parse_qs(urlsplit(link).query)
        assert discord.Permissions(int(query["permissions"][0])) == bot_permissions(), link
        assert query["scope"][0].split() == list(SCOPES)
        assert link == invite_url(query["client_id"][0])


def test_the_readme_names_every_permission_it_asks_for() -> None:
    text = README.read_text()
    missing = [label for label, _ in NEEDED.values() if f"*{label}*" not in text]
    assert missing == []


def test_threads_are_among_the_permissions_and_every_name_is_a_real_flag() -> None:
    permissions = bot_permissions()
    assert permissions.create_public_threads and permissions.send_messages_in_threads
    assert {name for name, granted in permissions if granted} == {
        "read_messages" if name == "view_channel" else name for name in NEEDED}  # discord.py's alias
    for name in (*NEEDED, *NOT_NEEDED):
        assert name in discord.Permissions.VALID_FLAGS or hasattr(discord.Permissions, name), name
    assert not set(NEEDED) & set(NOT_NEEDED)
    # The link the README gave before asked for no thread permission: a game in a thread was refused.
    assert not discord.Permissions(274878024704).create_public_threads


def test_the_permissions_are_what_the_code_calls_for() -> None:
    """Both ways: every permission the code's Discord calls need is asked for, and none is asked for that no call
    needs. A new kind of call (fetching a message, reacting) fails here until bot/cli/invite.py asks for it."""
    code = discord_code()
    called_for = {name for name, pattern in CALLS_FOR.items() if re.search(pattern, code)}
    assert {"send_messages", "attach_files", "create_public_threads", "manage_threads"} <= called_for
    assert set(NEEDED) == called_for | {"view_channel"}


def test_the_call_patterns_match_the_calls_they_name() -> None:
    samples = {"send_messages": "await channel.send(text)", "send_messages_in_threads": "await thread.send(x)",
               "manage_threads": "await thread.delete()", "read_message_history": "await channel.fetch_message(1)",
               "create_public_threads": "await parent.create_thread(name=n)", "attach_files": "discord.File(data)"}
    for name, line in samples.items():
        assert re.search(CALLS_FOR[name], line), name
    assert not re.search(CALLS_FOR["send_messages"], "await interaction.followup.send(text)")


def test_invite_prints_the_link_for_an_application(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["invite", "1180000000000000001"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == invite_url(1180000000000000001)
    assert all(any(line.startswith(f"- {label}: ") for line in out) for label, _ in NEEDED.values())


async def test_a_game_opens_in_a_thread_with_exactly_the_invite_permissions(database: Path | str) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        discord_.world.bot_permissions = bot_permissions()
        alice = discord_.user("alice")
        replies = await discord_.command("game new", {"game": "test-nim", "thread": True}, user=alice)
        assert any("Your game is open in" in (reply.content or "") for reply in replies.messages())
        [thread] = discord_.world.threads.values()
        assert await discord_.bot.service.open_match(thread.id) is not None
