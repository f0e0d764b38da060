"""A chosen seed decides every shuffle and die: whoever knows it while the game is played can work out the deck
order and the other players' hands. So the channel learns that a seed was chosen, and its number only at the end."""

from __future__ import annotations

import json
from pathlib import Path

from bot.app import create_bot
from bot.offline import DiscordHarness
from tests.tables import finish_nim, open_table

SEED = 8675309


def _public_text(discord_: DiscordHarness) -> str:
    """Everything the channel's members can read: each message's content, embeds and attachments, as Discord has it."""
    return "\n".join(json.dumps(message.payload, ensure_ascii=False) for message in discord_.channel_messages())


async def test_a_chosen_seed_is_told_but_its_number_only_when_the_game_ends(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_table(discord_, "test-nim", 2, seed=SEED)
        public = _public_text(discord_)
        assert "A seed was chosen: shuffles and dice are reproducible." in public
        assert "started with a chosen seed" in public
        assert str(SEED) not in public
        for user in (alice, bob):  # nor in the log any player may ask for while the game is on
            log = (await discord_.command("game log", {"count": 50}, user=user)).one()
            assert log.ephemeral and str(SEED) not in json.dumps(log.payload)
        await finish_nim(discord_, [alice, bob])
        final = discord_.last_public_message()
        assert f"Played with the chosen seed {SEED}." in json.dumps(final.payload)


async def test_german_tables_keep_the_number_back_too(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "test-nim", "seed": SEED, "language": "de"}, user=alice)
        public = _public_text(discord_)
        assert "Ein Startwert wurde gewählt" in public and str(SEED) not in public
