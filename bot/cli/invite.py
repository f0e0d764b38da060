"""The invite link: the bot permissions the code needs, each with its reason, and the URL that asks for them.

Derived from what the bot does: it posts and edits its own messages, attaches board images, sends private embeds, opens
(on a refusal, deletes) threads, and after a crash reads the channel's latest messages so that nothing is posted twice.
`expedition-bot invite APP_ID` prints the link; tests/test_invite.py checks the README's link against `invite_url`.
"""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")

# Each permission the bot needs: discord.Permissions' name -> (Discord's label, what the bot needs it for).
NEEDED: dict[str, tuple[str, str]] = {
    "view_channel": ("View Channels", "see the channels and threads it posts boards, lobbies and reminders to"),
    "send_messages": ("Send Messages", "post a new board when the turn passes, lobbies, reminders, and the "
                      "channel note that a game opened in a thread (cogs/table.py, cogs/community.py)"),
    "send_messages_in_threads": ("Send Messages in Threads", "post the lobby and the boards of a game opened in "
                                 "a thread (/game new thread:true)"),
    "embed_links": ("Embed Links", "the /game rules pages and the What's this? glossary are embeds (cogs/teaching.py)"),
    "attach_files": ("Attach Files", "the board image on every new board message and every edit of it in place "
                     "(cogs/table.py)"),
    "create_public_threads": ("Create Public Threads", "open a game in a new public thread (/game new "
                              "thread:true, /settings threads)"),
    "read_message_history": ("Read Message History", "after a crash, look at the channel's latest messages before "
                             "sending an owed board or reminder again, so nothing is posted twice "
                             "(cogs/table.py, cogs/community.py)"),
    "manage_threads": ("Manage Threads", "delete the thread it has just opened when the game in it is refused, so "
                       "no empty thread is left behind (cogs/community.py, open_in_thread)"),
}

# Permissions an admin might expect, and why the bot does not ask for them.
NOT_NEEDED: dict[str, str] = {
    "use_application_commands": "a permission of the members who type the commands, not of the bot",
    "mention_everyone": "it pings only the player meant, never @everyone or a role",
}


def bot_permissions() -> discord.Permissions:
    """The permissions the invite link asks for: exactly those in NEEDED."""
    return discord.Permissions(**dict.fromkeys(NEEDED, True))


def invite_url(application_id: int | str) -> str:
    """The OAuth2 link that adds the bot with its slash commands and the permissions it needs."""
    return discord.utils.oauth_url(application_id, permissions=bot_permissions(), scopes=SCOPES)


def describe(application_id: int) -> str:
    """What `expedition-bot invite` prints: the link, then each permission with its reason."""
    lines = [invite_url(application_id), "", "It asks for these bot permissions:"]
    lines += [f"- {label}: {reason}" for label, reason in NEEDED.values()]
    return "\n".join(lines)
