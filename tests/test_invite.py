"""The invite link asks for what the bot needs (threads included), and the README's link is that link."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot.__main__ import main
from bot.app import create_bot
from bot.invite import NEEDED, NOT_NEEDED, SCOPES, bot_permissions, invite_url
from tests.harness import DiscordHarness

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
INVITE = re.compile(r"https://discord\.com/oauth2/authorize\?[^\s`)>]+")


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
