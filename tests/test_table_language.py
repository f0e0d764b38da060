"""The table's language and the reader's (issue 21, the table layer): a table plays in the language chosen at /game
new (else the server's /settings language, else its Discord language); what the channel reads follows the table,
what one member reads privately follows their Discord client. Driven through the offline Discord."""

from __future__ import annotations

from pathlib import Path

from bot.app import create_bot
from bot.core import JSON
from bot.features import install
from bot.offline import DiscordHarness, Message, Reply
from bot.service import GameService, Player, latest_move, story_text
from bot.store import Store
from tests.fakes import tiny_png
from tests.language import english_left

NAMES = frozenset({"Alice", "Bob", "Carol", "Dave", "Test", "Nim", "Standard", "English"})


async def test_a_german_table_and_an_english_table_in_one_server(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice", locale="de")
        bob = discord_.user("bob")  # an English Discord client
        carol = discord_.user("carol", locale="de")
        german, english = discord_.channel("spiele"), discord_.default_channel

        opened = await discord_.command("game new", {"game": "test-nim", "language": "de"}, user=alice,
                                        channel=german)
        assert [r.content for r in opened.ephemeral()][-1] == (
            "Deine Lobby ist eröffnet (siehe unten); andere treten mit der Schaltfläche Beitreten oder /spiel "
            "beitreten bei.")
        lobby = opened.public()[0]
        assert (lobby.content or "").split("\n")[:6] == [
            "**Test Nim** — Standard (2–3 Spieler)", "Nimm 1-3 Steine; der letzte Stein gewinnt.", "Sprache: Deutsch",
            "Am Tisch:", "1. Alice (Gastgeber)",
            "Tritt mit der Schaltfläche oder `/spiel beitreten` bei; der Gastgeber startet mit Starten oder "
            "`/spiel starten`."]
        assert lobby.button_labels() == ["Beitreten", "Verlassen", "Starten"]
        assert english_left(lobby.content or "", allowed=NAMES) == []

        # An English table beside it: the same server, English by its Discord language.
        await discord_.command("game new", {"game": "test-nim"}, user=carol, channel=english)
        english_lobby = discord_.last_public_message(english)
        assert "Language: English" in english_lobby.content and english_lobby.button_labels() == [
            "Join", "Leave", "Start"]

        # Bob joins the German table: the lobby (public) stays German, his own answer is English.
        joined = await discord_.command("game join", user=bob, channel=german)
        assert [r.content for r in joined.ephemeral()][-1] == (
            "You are seated (2 at the table). The host starts the game.")
        assert "2. Bob" in discord_.last_public_message(german).content
        assert "Am Tisch:" in discord_.last_public_message(german).content
        # Carol (German client) is refused in German, also at the English table; Bob in English at the German one.
        refused = await discord_.command("game join", user=carol, channel=english)
        assert refused.last.content == ("Du bist der Gastgeber und sitzt schon am Tisch. Starte das Spiel mit "
                                        "/spiel starten (oder der Schaltfläche Starten), sobald genug Leute "
                                        "beigetreten sind.")
        refused = await discord_.command("game start", user=bob, channel=german)
        assert refused.last.content == "Only the host (Alice) can start the game."

        await discord_.command("game start", user=alice, channel=german)
        board = discord_.last_public_message(german, with_components=True)
        assert board.button_labels()[-3:] == ["Meine Ansicht", "Details", "Was ist das?"]
        assert board.content.split("\n")[0] == "Test Nim (Standard) hat begonnen."  # the story, in German
        assert "Language: English" in discord_.last_public_message(english).content  # the other table unchanged
        # A German member who is not playing presses a button: refused in German; Bob, in English, at the same board.
        stranger = await discord_.click(board, label="Nimm 1", user=discord_.user("dave", locale="de"))
        assert stranger.ephemeral()[-1].content == (
            "Du spielst in diesem Spiel nicht mit, also sind seine Schaltflächen nicht für dich.")
        mine = await discord_.command("game mine", user=discord_.user("dave", locale="de"), channel=german)
        assert mine.last.content == (
            "Du spielst im Spiel dieses Kanals nicht mit, also gibt es nichts Privates zu zeigen.")
        mine = await discord_.command("game mine", user=discord_.user("dave", locale="en-GB"), channel=german)
        assert mine.last.content == (
            "You are not playing in this channel's game, so there is nothing private to show.")

        # The log is the table's: its first entry was told in German.
        log = (await discord_.command("game log", user=bob, channel=german)).last.content.split("\n")
        assert "1. Bob ist beigetreten." in log and "2. Test Nim (Standard) hat begonnen." in log

        # Abandoned by its host: the channel is told in the table's language, the host privately in theirs.
        await discord_.command("game abandon", user=alice, channel=german)
        confirm = discord_.visible_messages(alice, german)[-1]
        assert confirm.content == "Dieses Spiel für alle abbrechen? Es lässt sich nicht fortsetzen."
        assert confirm.button_labels() == ["Ja, Spiel abbrechen"]
        done = await discord_.click(confirm, label="Ja, Spiel abbrechen", user=alice)
        told = [r.content for r in done.public() if r.created]
        assert told[-1].startswith("Alice hat Spiel #") and told[-1].endswith(
            "(Test Nim) abgebrochen. Starte ein neues mit /spiel neu.")
        final = discord_.channel_messages(german)[-2]
        assert "Dieses Spiel wurde abgebrochen." in final.content
        assert final.button_labels() == ["Meine Ansicht", "Details", "Was ist das?"]


def _words(message: Message | Reply) -> list[str]:
    """Everything a message shows in words: its text, buttons, menus and its image's alt text."""
    words = [message.content or "", *message.button_labels()]
    for select in message.selects():
        words += [select.get("placeholder") or "", *(option["label"] for option in select.get("options", []))]
    return words + [sent.description or "" for sent in message.files]


async def test_a_whole_german_table_reads_german_in_public_and_each_reader_in_private(database: Path) -> None:
    """Every public word of a German table, from the lobby to the final board, is German (the test game speaks
    German too, apart from its result line); an English player at it reads English in private."""
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice", locale="de"), discord_.user("bob", locale="en-US")
        await discord_.command("game new", {"game": "test-nim", "seed": 4, "language": "de"}, user=alice)
        await discord_.command("game join", user=bob)
        started = await discord_.command("game start", user=alice)
        first = started.public()[-1]
        pile = (await discord_.bot.service.current(discord_.default_channel.id)).state["pile"]  # type: ignore[attr-defined]
        assert first.content.split("\n") == ["Test Nim (Standard) hat mit einem gewählten Startwert begonnen; "
                                             "seine Zahl steht am Ende des Spiels auf dem Spielplan.",
                                             f"<@{alice.id}> — Alice nimmt 1–3 Steine "
                                             f"({pile} übrig)."]
        players = {0: alice, 1: bob}
        turn = 0
        live: list[str] = []  # each board while it has its controls (an old board loses them)
        while True:
            board = discord_.last_public_message(with_components=True)
            if not any(label.startswith("Nimm") for label in board.button_labels()):
                break
            live += _words(board)
            mover = players[turn]
            await discord_.click(board, label=f"Nimm {min(3, pile)}", user=mover)
            pile -= min(3, pile)
            turn = 1 - turn
        mine = await discord_.command("game mine", user=bob)
        assert mine.last.content.startswith("Your secret number is ")  # the reader's language, not the table's
        refused = await discord_.click(board, label="Meine Ansicht", user=discord_.user("carol", locale="de"))
        assert refused.last.content == "Du spielst in diesem Spiel nicht mit, also gibt es nichts Privates zu zeigen."

        final = discord_.channel_messages()[-1]
        result = final.content.split("\n")[-1]
        assert result in ("**Alice wins!**", "**Bob wins!**")  # the test game's own result line is English
        shown = [word for message in discord_.channel_messages() for word in _words(message)] + live
        shown.remove(final.content)
        shown.append(final.content.removesuffix(result))
        assert [word for word in shown if english_left(word, allowed=NAMES)] == []
        assert "Wie viele Steine?" in shown and "Alice nimmt 3." in "\n".join(shown)
        assert discord_.last_public_message(with_components=True).button_labels() == ["Meine Ansicht", "Details",
                                                                                      "Was ist das?"]


async def test_the_server_setting_and_its_discord_language_choose_a_new_tables_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        discord_.world.guild_locale = "de"  # a German server: new tables speak German unless chosen otherwise
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        assert "Sprache: Deutsch" in discord_.last_public_message().content
        await discord_.command("game abandon", user=alice)
        await discord_.click(discord_.visible_messages(alice)[-1], label="Yes, abandon the game", user=alice)

        admin = discord_.user("admin", manage_guild=True, locale="de")
        answer = (await discord_.command("settings language", {"language": "en"}, user=admin)).last.content
        assert answer.split("\n")[0] == "Neue Tische spielen auf English, wenn /spiel neu sprache: keine andere wählt."
        assert answer.split("\n")[-2] == "- Sprache neuer Tische (`/einstellungen sprache`): English"
        await discord_.command("game new", {"game": "test-nim"}, user=alice, channel="zwei")
        assert "Language: English" in discord_.last_public_message("zwei").content
        await discord_.command("game new", {"game": "test-nim", "language": "de"}, user=alice, channel="drei")
        assert "Sprache: Deutsch" in discord_.last_public_message("drei").content  # chosen beats the setting

        answer = (await discord_.command("settings language", user=admin)).last.content
        assert answer.split("\n")[0] == ("Neue Tische spielen in der Discord-Sprache des Servers; /spiel neu sprache: "
                                         "wählt trotzdem eine.")
        await discord_.command("game new", {"game": "test-nim"}, user=alice, channel="vier")
        assert "Sprache: Deutsch" in discord_.last_public_message("vier").content


async def test_settings_and_their_refusals_in_the_readers_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        admin = discord_.user("admin", manage_guild=True, locale="de")
        shown = (await discord_.command("settings show", user=admin)).last.content.split("\n")
        assert shown[:3] == [
            "**Die Einstellungen dieses Servers**",
            "- Erinnerungen (`/einstellungen erinnerungen`): alle 12 Std.; nach drei erfährt der Kanal, dass das "
            "Spiel stockt",
            "- Zeitlimit pro Zug (`/einstellungen zeitlimit`): aus (wenn an: ein normaler Computerspieler macht "
            "den Zug)",
        ]
        assert english_left("\n".join(shown), allowed=NAMES | {"Discord"}) == []
        refused = await discord_.command("settings reminders", {"hours": 0.1}, user=admin)
        assert refused.last.content == ("Der Abstand der Erinnerungen ist eine Stundenzahl von 0,25 bis 336 "
                                        "(0 schaltet es ab); 0,1 ist nicht erlaubt.")
        done = await discord_.command("settings timer", {"hours": 48.0}, user=admin)
        assert done.last.content.split("\n")[0] == "Zeitlimit: 2 Tage pro Zug, ab dem nächsten Zug."
        member = discord_.user("bob", locale="de")
        refused = await discord_.command("settings show", user=member)
        assert refused.last.content == ("Nur Mitglieder mit der Berechtigung „Server verwalten“ können die "
                                        "Einstellungen des Bots sehen oder ändern.")
        english = await discord_.command("settings reminders", {"hours": 0.1},
                                         user=discord_.user("root", manage_guild=True))
        assert english.last.content == ("The reminder interval is a number of hours from 0.25 to 336 (0 turns it "
                                        "off); 0.1 is not allowed.")


async def test_the_service_hands_every_renderer_the_tables_language(tmp_path: Path) -> None:
    views: list[JSON] = []

    def recording(game_key: str, view: JSON) -> bytes:
        views.append(view)
        return tiny_png(game_key, view)

    store = await Store.open(tmp_path / "language.sqlite3")
    try:
        service = install(GameService(store, renderer=recording))
        for channel, language in ((1, "de"), (2, "en")):
            await service.new_match(7, channel, "test-nim", Player(1, "Ada"), options={"language": language})
            await service.join(channel, Player(2, "Bo"))
            match = await service.start(channel, 1)
            assert match.language == language
            board = await service.board(match)
            await service.detail_image(match)
            assert [view["language"] for view in views[-2:]] == [language, language]
            assert board.buttons and board.turn
        assert await service.table_language(7, guild_locale="de") == "de"
        assert await service.table_language(7, guild_locale="en-GB") == "en"
        assert await service.table_language(7, chosen="en", guild_locale="de") == "en"
    finally:
        await store.close()


def test_a_boards_story_says_in_the_tables_language_where_the_earlier_moves_are() -> None:
    moves = [f"Zug {number}." for number in range(1, 11)]
    german = story_text(moves, language="de")
    assert german.split("\n")[0] == "… 2 frühere Züge stehen nicht hier: /spiel verlauf zeigt alle."
    assert story_text(moves[:9], language="de").split("\n")[0] == (
        "… 1 früherer Zug steht nicht hier: /spiel verlauf zeigt alle.")
    assert story_text(moves).split("\n")[0] == "… 2 earlier moves not shown here: /game log has them."
    assert story_text(moves[:2], earlier=True, language="de").split("\n")[0] == (
        "… frühere Züge stehen nicht hier: /spiel verlauf zeigt alle.")
    assert latest_move(german) == "Zug 10."
    assert latest_move("… frühere Züge stehen nicht hier: /spiel verlauf zeigt alle.") == ""
    assert latest_move("… 1 earlier move not shown here: /game log has them.") == ""
