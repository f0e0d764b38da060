"""A damaged SQLite file (issue 32): refused at start and by `migrate` in one sentence that names the file and what
to do (the automatic backup, when there is one), never a traceback; damage met while the bot runs is reported as
damage to the player, privately and in their language, and in the log, never as "try again in a minute"."""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.cli import main
from bot.i18n import translate
from bot.offline import DiscordHarness
from bot.store import Store, StoreDamaged, reading
from cogs.table import STORE_DAMAGED, STORE_NOT_ANSWERING
from tests.tables import current_match, finish_nim

pytestmark = pytest.mark.usefixtures("thread_bots")


async def _games(path: Path, count: int = 40) -> None:
    """A sound file with some matches in it, closed cleanly (its WAL folded into it)."""
    store = await Store.open(path)
    for channel in range(count):
        await store.create_match(guild_id=1, channel_id=1000 + channel, game="test-nim", mode="standard",
                                 host_id=100, host_name="Ada " * 20, seed=1, seed_chosen=False, options={},
                                 data_version="1")
    await store.close()


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "zeroed header":
        path.write_bytes(bytes(100) + data[100:])
    elif how == "truncated header":
        path.write_bytes(data[:50])
    else:  # 4 KiB of garbage in the middle: the header is sound, a page of the tables is not
        middle = len(data) // 2 // 4096 * 4096
        path.write_bytes(data[:middle] + os.urandom(4096) + data[middle + 4096:])


def _sentence(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


@pytest.mark.parametrize("how", ["zeroed header", "truncated header", "garbage mid-file"])
async def test_a_damaged_file_is_refused_at_start_in_one_sentence(tmp_path: Path, how: str,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "games.sqlite3"
    await _games(database)
    _damage(database, how)
    before = database.read_bytes()
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.chdir(tmp_path)
    code = await _in_thread(main, ["--log-level", "CRITICAL", "run", "--db", str(database)])
    sentence = _sentence(capsys.readouterr().err)
    assert code == 1
    assert sentence.startswith(f"The database {database} is damaged (")
    assert sentence.endswith("): stop the bot, move the damaged file aside and put your latest backup of it in its "
                             "place, or point --db at another database.")
    assert database.read_bytes() == before  # nothing written, not even the switch to WAL


async def test_the_refusal_names_the_automatic_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "games.sqlite3"
    await _games(database)
    older = tmp_path / "games.sqlite3.v4-backup-2026-11-02T10-00-00Z"
    newer = tmp_path / "games.sqlite3.v8-backup-2026-12-01T09-30-00Z"
    for backup in (older, newer):
        backup.write_bytes(database.read_bytes())
    _damage(database, "garbage mid-file")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.chdir(tmp_path)
    assert await _in_thread(main, ["--log-level", "CRITICAL", "run", "--db", str(database)]) == 1
    sentence = _sentence(capsys.readouterr().err)
    assert sentence.startswith(f"The database {database} is damaged (")
    assert sentence.endswith(f"put the automatic backup {newer} (written just before its last upgrade) or a newer "
                             "backup of yours in its place, or point --db at another database.")


async def test_migrate_refuses_a_damaged_source_and_copies_nothing(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    await _games(source)
    _damage(source, "garbage mid-file")
    assert await _in_thread(main, ["migrate", "--from", str(source), "--to", str(target)]) == 2
    sentence = _sentence(capsys.readouterr().err)
    assert sentence.startswith(f"Nothing was copied: The database {source} is damaged (")
    assert not target.exists()


def _damage_underneath(path: Path) -> None:
    """Damage the file while the bot has it open: fold the WAL into it (so the bot's next read looks at the file
    again), then overwrite every page but the first (the schema) with garbage."""
    other = sqlite3.connect(path)
    other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    other.close()
    data = path.read_bytes()
    path.write_bytes(data[:4096] + bytes(range(256)) * ((len(data) - 4096) // 256))


async def test_damage_met_while_running_is_told_as_damage_not_as_a_store_that_did_not_answer(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    database = tmp_path / "games.sqlite3"
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob", locale="de")
        await discord_.command("game new", {"game": "test-nim"}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        await finish_nim(discord_, [alice, bob])
        match = await current_match(discord_)
        _damage_underneath(database)
        caplog.set_level(logging.ERROR)
        exported = await discord_.command("game export", {"match": match.id}, user=alice)  # the records worker
        assert [reply.content for reply in exported.messages()] == [STORE_DAMAGED]
        assert exported.last.ephemeral and not exported.last.files
        history = await discord_.command("game history", user=bob)  # the bot's own connection, in German
        assert [reply.content for reply in history.messages()] == [translate("error.store_damaged", "de")]
        assert history.last.ephemeral
        shown = {reply.content for reply in exported.messages() + history.messages()}
        assert STORE_NOT_ANSWERING not in shown and translate("error.store_not_answering", "de") not in shown
    damage = [record.getMessage() for record in caplog.records if "is damaged" in record.getMessage()]
    assert len(damage) == 2 and all(line.startswith(f"The database {database} is damaged (") for line in damage)


async def test_the_damage_is_a_store_error_that_pickles_for_the_records_worker() -> None:
    error = StoreDamaged("The database x is damaged (y): ...")
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


async def _in_thread(command: Callable[[list[str]], int], arguments: list[str]) -> int:
    """The command line runs its own event loop (asyncio.run), so a test awaits it from a thread."""
    return await asyncio.to_thread(command, arguments)


async def test_the_records_workers_own_read_reports_damage_not_a_deadline(tmp_path: Path) -> None:
    """/game export and undo plans read a long log in the records worker (bot/store/reading.py): a malformed page
    there was reported as StoreUnavailable ("did not answer in time", inviting a retry)."""
    database = tmp_path / "games.sqlite3"
    await _games(database)
    _damage_underneath(database)
    with pytest.raises(StoreDamaged, match=r"^The database .* is damaged \(database disk image is malformed while "
                                           r"the bot was reading it\): stop the bot"):
        await asyncio.to_thread(reading.event_columns, str(database), 1)
