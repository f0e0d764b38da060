"""A channel where the bot lacks Embed Links (issue 23): what the bot sends there still arrives, in plain messages.

The bot sends embeds only privately (the /game rules pages, the What's this? glossary); boards are an image with
words and buttons, never an embed. Without Embed Links (a channel override, as a server's admin would set it) the
rules come as plain private messages within Discord's 2000 characters, the picture and the page buttons with the
last, and the game's boards are posted as everywhere else. The offline
Discord refuses an embed from an app without Embed Links (403 Missing Permissions), as it refuses files without
Attach Files, and tells the bot its permissions in the channel (`app_permissions`).
"""

from __future__ import annotations

from pathlib import Path

from bot.app import create_bot
from bot.core import find_game
from bot.features import rules
from bot.offline import DiscordHarness
from tests.tables import open_table, player_to_move


async def test_rules_come_as_plain_private_messages_without_embed_links(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice = discord_.user("alice")
        game = find_game("the-expedition")
        expected = rules.page_text(game.key, game.modes[0].key, rules.page(game.key, game.modes[0].key, "how"), "en")
        with_embeds = await discord_.command("game rules", {"game": "the-expedition"}, user=alice)
        embedded = with_embeds.ephemeral()
        assert len(embedded) == 1 and embedded[0].embeds, "where embeds are allowed: one embed"
        discord_.world.deny(discord_.default_channel.id, "embed_links")
        plain = await discord_.command("game rules", {"game": "the-expedition"}, user=alice)
        parts = plain.ephemeral()
        assert parts and all(not part.embeds and len(part.content) <= 2000 for part in parts)
        assert plain.public() == []
        described = embedded[0].embeds[0]["description"]
        assert "\n".join(part.content for part in parts) == described == expected
        assert parts[-1].files and parts[-1].button_labels()[0] == "How to play", "the picture and the pages last"
        locations = (await discord_.click(parts[-1], label="The locations", user=alice)).ephemeral()
        assert locations and all(not part.embeds for part in locations)
        assert all(location.names["en"] in "\n".join(p.content for p in locations)
                   for location in game.catalog.locations)  # type: ignore[attr-defined]


async def test_boards_come_in_a_channel_without_embed_links(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        discord_.world.deny(discord_.default_channel.id, "embed_links")
        users = await open_table(discord_, "test-nim", 2, seed=4)
        for _ in range(3):
            mover = await player_to_move(discord_, users)
            board = [m for m in discord_.channel_messages() if m.files][-1]
            replies = await discord_.click(board, label="Take 1", user=mover)
            new = [r for r in replies.public() if r.created]
            assert len(new) == 1 and new[0].files and not new[0].embeds
            assert new[0].notified == ((await player_to_move(discord_, users)).id,)
        assert not [r for r in discord_.world.replies if r.embeds], "nothing was sent as an embed"
