"""Issue 33 item 3: /game rules opens with a one-screen how-to-play (goal, a turn, the end, scoring; at most 1,500
characters, plain words) beside a labelled picture of a real starting board (every part numbered and named in a
legend, legible at a phone's 400 px), with buttons to pages of detail and the rulings; English and German."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

import bot.games  # noqa: F401  (registers every game)
from bot.app import create_bot
from bot.core import find_game
from bot.features import rules
from bot.games.pictures import picture_view
from bot.i18n import translate
from bot.offline import DiscordHarness
from bot.offline.recorder import Reply
from rendering import kit
from rendering.glossary.picture import labelled
from rendering.glossary.reading import glossary_of
from tests.tables import open_table

SHORTHAND = ("+1 black die per symbiosis set", "side B after the 4th", "vanquish pays the top corruption",
             "+1 schwarzer Würfel pro Symbiose-Set")
"""The rulebook shorthand the issue quoted from the old /game rules."""
MODES = [(game.key, mode.key) for game in (find_game("the-expedition"), find_game("monster-expedition"),
                                             find_game("expeditions")) for mode in game.modes]


def said(reply: Reply) -> str:
    return reply.content or "\n".join(str(embed.get("description", "")) for embed in reply.embeds)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("game_key", "mode"), MODES)
def test_every_how_to_play_fits_one_screen_in_plain_words(game_key: str, mode: str, language: str) -> None:
    text = rules.how_to_play(game_key, mode, language)
    assert len(text) <= rules.HOW_TO_PLAY_CHARS, (len(text), text[:80])
    heads = {"en": ("**Goal:**", "**The end:**", "**Scoring:**"), "de": ("**Ziel:**", "**Das Ende:**", "**Wertung:**")}
    if not (game_key == "monster-expedition" and mode == "solo"):  # the campaign: win or lose, no scoring
        assert all(head in text for head in heads[language]), text
    for page in rules.pages(game_key, mode):
        words = rules.page_text(game_key, mode, page, language)
        assert words and not any(short in words for short in SHORTHAND), (page.key, words[:80])
        assert len(words) <= 4096


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("game_key", "mode"), MODES)
def test_the_labelled_picture_names_every_part_legibly(game_key: str, mode: str, language: str) -> None:
    view = picture_view(game_key, mode, language)
    with kit.recording() as drawn:
        png = labelled(game_key, view, language)
    image = Image.open(BytesIO(png))
    assert image.width == kit.PHONE_WIDTH and len(png) <= 200_000
    small, _ = kit.min_sizes(image.width)
    callouts = [text for text in drawn if text.role == "label" and text.text.isdigit() and text.top >= 0]
    legend = [text for text in drawn if text.top >= image.height - 400 and text.role != "label"]
    numbers = sorted({int(text.text) for text in callouts})
    parts = glossary_of(game_key).parts
    assert len(numbers) >= 9 and numbers == list(range(1, len(numbers) + 1)) and len(numbers) <= len(parts)
    assert all(text.size >= small for text in drawn), "nothing under 9 points on a phone"
    names = " ".join(text.text for text in legend)
    assert translate("rules.picture.legend", language) in names
    assert translate(parts[0].name, language).split()[0] in names


async def test_rules_open_with_the_how_to_play_its_picture_and_the_page_buttons(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        reply = (await discord_.command("game rules", {"game": "monster-expedition"}, user=alice)).one()
        assert reply.ephemeral and reply.notified == ()
        text = said(reply)
        assert text.startswith("**Monster Expedition: how to play**\n**Goal:** capture monsters and cages with dice.")
        assert "Every 1 you set aside improves your Aerie camp" in text
        assert not any(short in text for short in SHORTHAND)
        (picture,) = reply.files
        assert picture.filename == "how-to-play.png" and picture.image().width == kit.PHONE_WIDTH
        assert picture.description == ("The Monster Expedition board at the start of a game, each part numbered and "
                                       "named in the legend below it.")
        assert reply.embed["image"]["url"] == "attachment://how-to-play.png"
        assert reply.button_labels() == ["How to play", "Camps and dice", "Spending", "Improving camps",
                                         "Refill and the end", "Rulings", "Modes"]
        page = (await discord_.click(reply, label="Improving camps", user=alice)).last
        assert page.ephemeral and said(page).startswith("**Improving camps**\nAfter spending, the dice you set aside")
        assert "After its 4th improvement the card turns over to its B side." in said(page)
        assert not page.files and page.button_labels()[3] == "Improving camps"
        rulings = (await discord_.click(page, label="Rulings", user=alice)).last
        assert "The limit of 8 counts black dice only." in said(rulings)
        modes = (await discord_.click(rulings, label="Modes", user=alice)).last
        assert said(modes).startswith("**Modes** (`/game new mode:`):\n- `standard` — Standard (2-4 players): ")


async def test_rules_of_the_channels_solo_game_in_german(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        anna = discord_.user("anna", locale="de")
        await discord_.command("game new", {"game": "the-expedition", "mode": "solo-hard", "seed": 2}, user=anna)
        reply = (await discord_.command("game rules", user=anna)).one()
        text = said(reply)
        assert "**The Expedition, solo: So wird gespielt**" in text
        assert "Schwerere Variante: Für dich zählen nur deine erfüllten Expeditionen." in text
        assert text.index("So wird gespielt") > 0, "this channel's mode is said first"
        assert reply.button_labels() == ["So wird gespielt", "Ein Zug im Detail", "Die Orte", "Solo", "Befehle",
                                         "Regelklärungen", "Modi"]
        assert reply.files[0].description.startswith("Der Spielplan von The Expedition zu Beginn einer Partie")
        solo = (await discord_.click(reply, label="Solo", user=anna)).last
        assert "Automat" in said(solo)


async def test_a_tampered_rules_button_is_refused(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _ = await open_table(discord_, "test-nim", 2, seed=4)
        channel = discord_.default_channel
        fake = discord_.world.create_message(channel.id, {"content": "rules", "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "Solo", "custom_id": "xt:rules:expeditions:solo:how"}]}]}, [],
            author=discord_.bot_user)
        reply = (await discord_.click(fake, label="Solo", user=alice)).last
        assert reply.ephemeral and "not valid" in (reply.content or "")


async def test_rules_in_a_channel_that_refuses_files_come_in_words_with_their_buttons(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        discord_.world.deny(discord_.default_channel.id, "attach_files")
        reply = (await discord_.command("game rules", {"game": "expeditions"}, user=discord_.user("alice"))).one()
        assert reply.ephemeral and not reply.files and "image" not in reply.embed
        assert said(reply).startswith("**Expeditions: how to play**") and reply.button_labels()[0] == "How to play"


async def test_rules_without_a_game_list_what_there_is_to_play(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        reply = (await discord_.command("game rules", user=discord_.user("alice"))).one()
        assert said(reply).startswith(translate("table.games.heading", "en"))
