"""The features in German (issue 21): what the channel reads at a German table (reminders, the stall notice, turn
timers, undo requests, kick and rejoin, replays) is German, what one reader sees privately (/stats, /game history,
undo refusals, mute answers) follows their Discord client's language, and an English table stays English.

A German table is one whose match has `options["language"] == "de"` (set here directly; /game new's `language:`
option sets it in play).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.core import find_game
from bot.features.history import log_text, result_text
from bot.features.undo import taken_back_text
from bot.features.wording import duration_text, names_and
from bot.i18n import translate
from bot.offline import DiscordHarness, FakeUser
from bot.service import Player, shown_state
from tests.clock import FakeClock
from tests.language import english_left
from tests.reading import read
from tests.tables import current_match, finish_nim, player_to_move, take

NAMES = frozenset({"Alice", "Bob", "Carol", "Test", "Nim"})  # names and the test game's title are no English


pytestmark = pytest.mark.usefixtures("thread_bots")  # computer players think in a thread, briefly


async def open_nim(discord_: DiscordHarness, language: str, players: int = 2, *, locales: tuple[str, ...] = (),
                   timer_hours: float | None = None, game: str = "test-nim", seed: int | None = 4) -> list[FakeUser]:
    """A started table (Test Nim unless `game`) in `language` (the host opens it with that option), players joined
    by /game join; `locales`: each player's Discord client language."""
    names = ("alice", "bob", "carol")[:players]
    users = [discord_.user(name, locale=(locales[index] if index < len(locales) else "en-US"))
             for index, name in enumerate(names)]
    options: dict[str, object] = {"language": language}
    if timer_hours is not None:
        options["timer_hours"] = timer_hours
    await discord_.bot.service.new_match(discord_.guild.id, discord_.default_channel.id, game,
                                         Player(users[0].id, "Alice"), seed=seed, options=options)
    for user in users[1:]:
        await discord_.command("game join", user=user)
    await discord_.command("game start", user=users[0])
    return users


def board(discord_: DiscordHarness):
    return [m for m in discord_.channel_messages() if m.files][-1]


def test_durations_and_names_are_worded_by_the_catalogues() -> None:
    assert [duration_text(h, "de") for h in (1, 2, 12, 48, 72, 0.25)] == [
        "1 Stunde", "2 Stunden", "12 Stunden", "2 Tagen", "3 Tagen", "0,25 Stunden"]
    assert [duration_text(h, "en") for h in (1, 2, 12, 48, 72, 0.25)] == ["1 h", "2 h", "12 h", "2 days", "3 days",
                                                                        "0.25 h"]
    assert (read(names_and(["Alice", "Bob"], "de")), read(names_and(["Alice", "Bob"], "en"))) == \
        ("Alice und Bob", "Alice and Bob")
    assert read(names_and(["Alice"], "de")) == "Alice"
    assert [taken_back_text("Alice", moves, False, "de") for moves in (1, 2, 3)] == [
        "Der letzte Zug von Alice wurde zurückgenommen.",
        "Der letzte Zug von Alice wurde zurückgenommen, samt 1 weiterem Zug danach.",
        "Der letzte Zug von Alice wurde zurückgenommen, samt 2 weiteren Zügen danach."]
    assert taken_back_text("Ada", 3, True, "en") == ("Ada's last move was taken back with the 2 after it, as the "
                                                     "table agreed.")


async def test_a_german_table_is_reminded_and_told_of_the_stall_in_german(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_nim(discord_, "de", locales=("de", "en-US"))
        mover = await player_to_move(discord_, users)
        other = next(user for user in users if user is not mover)
        clock.advance(12)
        await discord_.bot.run_due_work()
        reminder = discord_.channel_messages()[-1]
        assert reminder.content == (f"<@{mover.id}> — dein Zug in Test Nim wartet (seit 12 Stunden). Der Spielplan "
                                    "steht oben; /spiel spielplan postet ihn noch einmal.")
        assert reminder.notified == (mover.id,)
        assert reminder.button_labels() == ["Für diesen Zug stummschalten"]
        assert english_left(reminder.content, allowed=NAMES) == []
        # The mute refusal is private: it follows the reader's client, whatever the table's language.
        refused = (await discord_.click(reminder, label="Für diesen Zug stummschalten", user=other)).one()
        expected = {"de": "Nur wer an der Reihe ist, kann diese Erinnerungen stummschalten, und nur solange der Zug "
                          "dauert.",
                    "en-US": "Only the player these reminders are for can mute them, and only while it is their "
                             "turn."}
        assert refused.ephemeral and refused.content == expected[other.locale]
        for _ in range(3):
            clock.advance(12)
            await discord_.bot.run_due_work()
        stalled = discord_.channel_messages()[-1]
        assert stalled.content.endswith(
            f"⏳ Diese Partie Test Nim stockt: Von {mover.global_name} kam seit 2 Tagen kein Zug. Der Gastgeber "
            "(Alice) kann den Platz mit /spiel ersetzen an einen Computerspieler übergeben oder das Spiel mit "
            "/spiel abbrechen beenden; das kann auch jeder, der diesen Kanal verwalten darf.")
        assert english_left(stalled.content, allowed=NAMES) == []


async def test_a_german_reader_mutes_in_german_at_an_english_table_which_stays_english(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_nim(discord_, "en", locales=("de", "de"))
        mover = await player_to_move(discord_, users)
        clock.advance(1)
        await discord_.bot.run_due_work()
        clock.advance(11)
        await discord_.bot.run_due_work()
        reminder = discord_.channel_messages()[-1]
        assert reminder.content == (f"<@{mover.id}> — your turn in Test Nim is waiting (12 h so far). The board is "
                                    "above; /game board posts it again.")
        assert reminder.button_labels() == ["Mute for this turn"]
        muted = (await discord_.click(reminder, label="Mute for this turn", user=mover)).one()
        assert muted.ephemeral and muted.content == ("Stummgeschaltet: keine Erinnerungen mehr, bis dein Zug vorbei "
                                                     "ist.")


async def test_a_german_tables_turn_timer_says_so_in_german(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        users = await open_nim(discord_, "de", timer_hours=1.0, game="the-expedition", seed=21)
        late = await player_to_move(discord_, users)
        clock.advance(1)
        await discord_.bot.run_due_work()
        note = board(discord_).content.splitlines()[0]
        assert note == (f"⏰ Von {late.global_name} kam innerhalb von 1 Stunde kein Zug: Ein normaler Computerspieler "
                        "hat ihn gemacht.")
        assert english_left(note, allowed=NAMES) == []


async def test_undo_at_a_german_table_asks_and_answers_in_german_and_refuses_in_the_readers_language(
        database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_nim(discord_, "de", locales=("de", "en-US"))
        first = await player_to_move(discord_, [alice, bob])
        second = bob if first is alice else alice
        never = (await discord_.command("game undo", user=second)).last
        assert never.ephemeral and never.content == {
            "de": "Du hast noch keinen Zug gemacht, also gibt es nichts zurückzunehmen.",
            "en-US": "You have not made a move yet, so there is nothing to take back."}[second.locale]
        await take(discord_, first)
        replies = await discord_.command("game undo", user=first)
        private = replies.ephemeral()[0].content
        assert private == {"de": "Deine Anfrage steht unten; sie gilt, sobald alle annehmen, und verfällt, wenn vorher "
                                 "ein Zug gemacht wird.",
                           "en-US": "Your request is posted below; it is granted when everyone approves, and lapses "
                                    "if a move is made first."}[first.locale]
        request = replies.public()[-1]
        assert request.content == (f"{first.global_name} möchte den letzten Zug zurücknehmen. <@{second.id}>: "
                                   "annehmen oder ablehnen?")
        assert request.button_labels() == ["Rückgängig annehmen", "Ablehnen"]
        assert request.notified == (second.id,)
        own = (await discord_.click(request, label="Rückgängig annehmen", user=first)).last
        assert own.ephemeral and own.content == {
            "de": "Die anderen nehmen deine Anfrage an; du kannst sie mit „Ablehnen“ zurückziehen.",
            "en-US": "The others approve your request; you may withdraw it with Refuse."}[first.locale]
        approved = await discord_.click(request, label="Rückgängig annehmen", user=second)
        granted = approved.of("edit")[0]
        assert granted.components == []
        assert granted.content == (f"Der letzte Zug von {first.global_name} wurde zurückgenommen, wie alle "
                                   "zugestimmt haben.")
        assert english_left(granted.content, allowed=NAMES) == []
        match = await current_match(discord_)
        undo_line = read((await discord_.bot.service.store.event_texts(match.id))[-1])
        assert undo_line == (f"Der letzte Zug von {first.global_name} wurde zurückgenommen, wie der Tisch "
                             "beschlossen hat.")


async def test_an_undo_request_at_an_english_table_stays_english(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_nim(discord_, "en", locales=("de", "de"))
        first = await player_to_move(discord_, [alice, bob])
        second = bob if first is alice else alice
        await take(discord_, first)
        replies = await discord_.command("game undo", user=first)
        assert replies.ephemeral()[0].content.startswith("Deine Anfrage steht unten")
        request = replies.public()[-1]
        assert request.content == (f"{first.global_name} asks to take back their last move. <@{second.id}>: approve "
                                   "or refuse.")
        assert request.button_labels() == ["Approve undo", "Refuse"]
        refused = await discord_.click(request, label="Refuse", user=second)
        assert refused.of("edit")[0].content == (f"{first.global_name}'s undo request is closed: "
                                                        f"{second.global_name} refused. The move stands.")


async def test_kick_and_rejoin_are_announced_in_the_tables_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob, carol = await open_nim(discord_, "de", 3, locales=("en-US", "de", "de"))
        replies = await discord_.command("game kick", {"player": carol}, user=alice)
        assert replies.ephemeral()[0].content == "Carol's seat is now played by a normal computer player."
        announced = next(m for m in replies.public() if "Computerspieler" in m.content)
        assert announced.content == ("Alice hat den Platz von Carol an einen normalen Computerspieler 🤖 übergeben. "
                                     "Carol kann ihn jederzeit mit /spiel zurückkehren zurücknehmen.")
        refused = (await discord_.command("game kick", {"player": alice}, user=bob)).last
        assert refused.ephemeral and refused.content == ("Nur der Gastgeber oder wer diesen Kanal verwalten darf, "
                                                         "kann einen Platz an einen Computerspieler übergeben.")
        back = await discord_.command("game rejoin", user=carol)
        assert back.ephemeral()[0].content == ("Du hast deinen Platz zurück. /spiel spielplan zeigt, wie das Spiel "
                                               "steht.")
        assert any(m.content == "Carol ist zurück und spielt wieder auf dem eigenen Platz." for m in back.public())
        match = await current_match(discord_)
        texts = [read(text) for text in await discord_.bot.service.store.event_texts(match.id)]
        # The seat as the board and the story name it from then on (it read "🤖 Bot 3 (normal)", a name never shown).
        assert ("Der Platz von Carol wurde an einen normalen Computerspieler übergeben (🤖 Carol (Bot, normal))."
                in texts)
        assert texts[-1] == "Carol hat den Platz vom Computerspieler zurückgenommen."


async def test_stats_history_and_replay_in_the_readers_and_the_tables_language(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_nim(discord_, "de", locales=("de", "en-US"), seed=None)  # a chosen seed is unrated
        await finish_nim(discord_, [alice, bob])
        match = await current_match(discord_)
        outcome = find_game("test-nim").outcome(match.state)
        winner = match.user_at(outcome.winners[0]).name
        german = (await discord_.command("stats", {"player": alice}, user=alice)).last.content.splitlines()
        english = (await discord_.command("stats", {"player": alice}, user=bob)).last.content.splitlines()
        won = int(winner == "Alice")
        assert german[0] == f"**Alice**: 1 beendete Partie, {won} gewonnen; Lieblingsspiel: Test Nim"
        assert english[0] == f"**Alice**: 1 finished game, {won} won; favourite: Test Nim"
        assert german[1].startswith(f"- Test Nim: 1 gespielt, {won} gewonnen, beste Punktzahl ")
        assert english[1].startswith(f"- Test Nim: 1 played, {won} won, best score ")
        assert ", Wertung " in german[1] and german[1].endswith(" (1 gewertete Partie)"), german[1]
        assert ", rating " in english[1] and english[1].endswith(" (1 rated)"), english[1]
        assert english_left("\n".join(german[:2]), allowed=NAMES) == []  # the test game's own progress line is not
        nobody = (await discord_.command("stats", {"player": discord_.user("zoe")}, user=alice)).last.content
        assert nobody == "Zoe hat auf diesem Server noch keine beendete Partie."
        history = (await discord_.command("game history", user=alice)).last.content
        assert history.startswith("**Dieser Kanal** (1 beendet)\n")
        assert f"gewonnen von {winner}" in history and "**Dieser Server** (1 beendet) — Seite 1 von 1" in history
        assert english_left(history, allowed=NAMES | {"JSON"}) == []
        replay = await discord_.command("game replay", {"match": match.id, "public": True}, user=bob)
        assert replay.ephemeral()[0].content == f"The replay of game #{match.id} is posted below."
        posted = replay.public()[-1]
        assert posted.content.startswith(f"**Wiederholung: Test Nim, Partie #{match.id}**\n")
        log = next(f for f in posted.files if f.filename.endswith("-log.txt")).data.decode()
        assert log.splitlines()[:3] == [f"Test Nim (Standard), Partie #{match.id}", "Spieler: 1. Alice, 2. Bob",
                                        f"Ergebnis: gewonnen von {winner}"]
        assert log_text(match, [], "en").splitlines()[2] == f"Result: won by {winner}"
        assert read(result_text(match, "de")) == f"gewonnen von {winner}"
        gone = (await discord_.command("game replay", {"match": 999}, user=alice)).last
        assert gone.ephemeral and gone.content == ("Auf diesem Server gibt es keine Partie #999. /spiel archiv listet "
                                                   "die beendeten auf.")
        exported = (await discord_.command("game export", {"match": match.id}, user=alice)).last
        assert exported.content == (f"Partie #{match.id} als JSON. Prüfe sie mit `expedition-bot replay "
                                    f"test-nim-{match.id}.json`.")
        assert io.BytesIO(exported.files[0].data).read(1) == b"{"


def test_every_feature_message_reads_as_german_at_a_german_table() -> None:
    """No German text of the features' ids is left in English (the shared check's two nets)."""
    from bot.i18n import message_ids
    from bot.i18n.catalog import texts

    prefixes = ("undo.", "reminder.", "timer.", "history.", "stats.", "rating.", "community.", "delivery.")
    ours = sorted(i for i in message_ids("de") if i.startswith(prefixes))
    assert len(ours) > 100
    allowed = NAMES | {"JSON", "mu", "openskill", "Bot", "Lobby", "Thread", "Threads"}
    for message_id in ours:
        for text in texts(message_id, "de"):
            words = re.sub(r"\{[a-z_]+\}", "", text)  # the placeholders' names are no words of the message
            assert english_left(words, allowed=allowed) == [], message_id
    assert translate("undo.refuse.game_over", "de").endswith("/spiel wiederholung zeigt es.")


async def test_the_leaderboard_speaks_the_servers_language_and_answers_the_asker_in_theirs(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        discord_.world.guild_locale = "de"  # a German server: the channel reads German
        alice, bob = await open_nim(discord_, "de", locales=("en-US", "de"), seed=None)
        empty = (await discord_.command("leaderboard", {"game": "test-nim"}, user=bob)).last
        assert empty.ephemeral and empty.content == (
            "In Test Nim hat auf diesem Server noch niemand eine Wertung: Die erste kommt mit der ersten beendeten "
            "Partie von zwei oder mehr Leuten. Partien mit einem Computerspieler, einem gewählten Startwert oder nur "
            "einem Spieler werden nicht gewertet.")
        await finish_nim(discord_, [alice, bob])
        replies = await discord_.command("leaderboard", {"game": "test-nim"}, user=alice)
        assert replies.ephemeral()[0].content == "The leaderboard for Test Nim is posted below."
        image = replies.public()[-1]
        assert image.content == "**Test Nim**-Bestenliste: 2 gewertete Spieler."
        description = image.files[0].description or ""
        assert description.startswith("Test Nim: Bestenliste. 1. ") and ", Wertung " in description
        assert description.endswith(" nach 1 Partie.") and english_left(description, allowed=NAMES) == []


async def test_a_german_game_opened_in_a_thread_is_announced_in_german(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice = discord_.user("alice", locale="en-US")
        bob = discord_.user("bob", locale="de")
        general = discord_.default_channel
        replies = await discord_.command("game new", {"game": "test-nim", "thread": True, "language": "de"},
                                         user=alice)
        (thread,) = discord_.world.threads.values()
        assert replies.ephemeral()[0].content == f"Your game is open in <#{thread.id}>."
        assert [m.content for m in discord_.channel_messages(general)] == [
            f"Alice hat eine Partie Test Nim in <#{thread.id}> eröffnet: Macht dort mit!"]
        inner = await discord_.command("game new", {"game": "test-nim", "thread": True}, user=bob, channel=thread)
        assert inner.last.content == ("Das ist schon ein Thread: /spiel neu ohne thread:true eröffnet das Spiel "
                                      "gleich hier.")


async def test_an_undo_request_at_a_german_table_lapses_in_german(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = await open_nim(discord_, "de", seed=6)
        mover = await player_to_move(discord_, [alice, bob])
        other = bob if mover is alice else alice
        await take(discord_, mover)
        request = (await discord_.command("game undo", user=mover)).public()[-1]
        await take(discord_, other)
        tidied = next(m for m in discord_.channel_messages() if m.id == request.message_id)
        assert tidied.content == (f"Die Rückgängig-Anfrage von {mover.global_name} ist verfallen: Seitdem wurde ein "
                                  "Zug gemacht.")
        assert tidied.button_labels() == []


async def test_a_german_lobby_expires_in_german(database: Path) -> None:
    clock = FakeClock()
    async with DiscordHarness(create_bot(database, clock=clock, poll_seconds=None)) as discord_:
        alice = discord_.user("alice")
        await discord_.command("game new", {"game": "test-nim", "language": "de"}, user=alice)
        lobby = discord_.last_public_message()
        clock.advance(24.1)
        await discord_.bot.run_due_work()
        match = await current_match(discord_)
        assert match.status == "abandoned"
        shown = discord_.world.get_message(lobby.id)
        assert ("Niemand hat diese Lobby innerhalb von 24 Stunden gestartet, also ist sie abgelaufen. Eröffne eine "
                "neue mit /spiel neu.") in shown.content
        texts = await discord_.bot.service.store.event_texts(match.id)
        assert texts[-1] == "Die Lobby ist abgelaufen, ohne zu starten."


async def test_a_german_games_log_says_in_german_that_its_channel_was_deleted(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        place = discord_.channel("spiele")
        await discord_.command("game new", {"game": "test-nim", "language": "de"}, user=alice, channel=place)
        await discord_.command("game join", user=bob, channel=place)
        await discord_.command("game start", user=alice, channel=place)
        service = discord_.bot.service
        match = await service.current(place.id)
        await discord_.delete_channel(place)
        events = await service.store.events(match.id)
        assert events[-1].text == "Sein Kanal wurde gelöscht, also wurde das Spiel abgebrochen."


async def test_an_undo_after_a_die_roll_is_refused_with_the_reason_in_the_readers_language(database: Path) -> None:
    """The reason (the game's chance text) crosses from the plan, maybe a worker process, in both languages."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = await open_nim(discord_, "en", locales=("de", "de"), game="monster-expedition", seed=5)
        service = discord_.bot.service
        game = find_game("monster-expedition")
        for _ in range(60):  # play the first legal move until someone's move rolls dice
            match = await current_match(discord_)
            seat = game.to_act(match.state)[0]
            user = next(u for u in users if u.id == match.user_at(seat).user_id)
            await service.act(match.channel_id, user.id, game.legal_actions(match.state, seat)[0])
            if (await service.store.events(match.id, last=1))[-1].draws:
                break
        else:
            pytest.fail("no move rolled a die")
        refused = (await discord_.command("game undo", user=user)).last
        assert refused.ephemeral and refused.content == (
            "Dein letzter Zug kann nicht zurückgenommen werden: ein Würfel wurde geworfen (bei diesem Zug). "
            "Rückgängig geht nur, solange nichts Verdecktes oder Zufälliges ans Licht gekommen ist.")


async def test_computer_players_are_named_in_the_tables_language(database: Path) -> None:
    """A seated bot's name ("🤖 Bot 2 (hard)") and a kicked seat's badge ("🤖 Carol (normal bot)") were English at
    a German table: both are worded in the table's language, and stay English at an English one."""
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, _, carol = await open_nim(discord_, "de", 3)
        await discord_.command("game kick", {"player": carol}, user=alice)
        match = await current_match(discord_)
        names = [player["name"] for player in shown_state(match, match.state)["players"]]
        assert "🤖 Carol (Bot, normal)" in names, names

        german = discord_.channel("german")
        await discord_.command("game new", {"game": "test-nim", "language": "de"}, user=alice, channel=german)
        seated = await discord_.command("game add-bot", {"level": "hard"}, user=alice, channel=german)
        assert any("\n2. 🤖 Bot 2 (schwer)\n" in m.content for m in seated.public()), \
            [m.content for m in seated.public()]
        english = discord_.channel("english")
        await discord_.command("game new", {"game": "test-nim", "language": "en"}, user=alice, channel=english)
        seated = await discord_.command("game add-bot", {"level": "hard"}, user=alice, channel=english)
        assert any("\n2. 🤖 Bot 2 (hard)\n" in m.content for m in seated.public()), \
            [m.content for m in seated.public()]
