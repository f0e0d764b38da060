"""Hostile display names (issue 32): whatever pair or triple of names sits at a table, no message the bot sends
holds a live masked link, mention, heading, spoiler or formatting that a name brought in, and nobody is pinged who
was not meant to be.

Names are escaped in one pass over each finished text (bot/i18n/marks.py, cogs/common.py `safe_text`). The property
test seats names drawn from markdown, mention, link, heading, spoiler, backslash and newline fragments at a real
table through the offline Discord, plays a few moves, asks for the log, the private views and a hint, and reads
every message as Discord would (tests/discord_markdown.py). Each message is compared with the same message of the
same game played by plainly named players: a name may add letters, never syntax.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.app import create_bot
from bot.core import find_game
from bot.games.the_expedition.rules.policies import greedy_action
from bot.i18n import one_line, said, with_names_marked
from bot.offline import DiscordHarness, FakeUser
from cogs.common import safe_text
from tests.discord_markdown import foreign, live, masked_links, visible

LINK = "[free nitro](https://evil.example)"
FRAGMENTS = (LINK, "\\", "*", "**", "_", "__", "~~", "||", "`", "```", "# ", "-# ", "> ", "- ", "1. ", "+ ",
             "@everyone", "@here", "<@123456789012345678>", "<@&123456789012345678>", "<#123456789012345678>",
             "<t:0:R>", "\n", "\n# ", "[", "]", "(", ")", "https://evil.example", ":", "Eve", "x", " ")
BENIGN = ("Ann", "Ben", "Cid")
GAME = find_game("the-expedition")
SEED = 3
MOVES = 4


def display_names() -> st.SearchStrategy[str]:
    """A display name Discord would allow (1-32 characters, not only spaces) made of hostile fragments."""
    return (st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4).map("".join)
            .filter(lambda name: 0 < len(name) <= 32 and name.strip() != ""))


def markdown_texts(body: Any, path: str = "") -> list[tuple[str, str]]:
    """The texts of a request that Discord reads as markdown (message content, embed descriptions), by path."""
    found: list[tuple[str, str]] = []
    if isinstance(body, dict):
        for key, value in body.items():
            here = f"{path}.{key}"
            if isinstance(value, str) and key in ("content", "description") and "components" not in path \
                    and "attachments" not in path:
                found.append((here, value))
            else:
                found += markdown_texts(value, here)
    elif isinstance(body, list):
        for index, item in enumerate(body):
            found += markdown_texts(item, f"{path}[{index}]")
    return found


async def play_a_table(names: tuple[str, ...], folder: Path) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """A table of `names`: opened, joined, started, a name typed where a location is asked for (refused, echoed), a
    few moves by commands and buttons, then the log, every player's private view and a hint. Returns every
    markdown text sent, and what the test checks besides."""
    async with DiscordHarness(create_bot(folder / "table.sqlite3"), timeout=60.0) as discord_:
        users = [discord_.user(f"player{seat}", global_name=name) for seat, name in enumerate(names)]
        await discord_.command("game new", {"game": GAME.key, "mode": "standard", "seed": SEED}, user=users[0])
        for user in users[1:]:
            await discord_.command("game join", user=user)
        lobby = discord_.last_public_message().content
        await discord_.command("game start", user=users[0])
        first = await whose_turn(discord_, users)  # a name typed as a location: the refusal echoes it
        await discord_.command("explore place", {"location": names[-1]}, user=first)
        chooser = random.Random(SEED)
        for move in range(MOVES):
            await play_one_move(discord_, users, chooser, move)
        await discord_.command("game log", {"count": 20}, user=users[-1])
        for user in users:
            await discord_.command("game mine", user=user)
        mover = await whose_turn(discord_, users)
        await discord_.command("game hint", user=mover)
        await discord_.command("game board", user=users[-1])
        texts = [(f"{request['route']}{path}", text) for request in discord_.world.requests
                 for path, text in markdown_texts(request["body"])]
        seated = {user.id for user in users}
        pinged = [(reply.notified, reply.notified_everyone) for reply in discord_.world.replies]
        allowed = [request["body"].get("allowed_mentions") for request in discord_.world.requests
                   if isinstance(request["body"], dict)]
        return texts, {"lobby": lobby, "seated": seated, "pinged": pinged, "allowed": allowed}


async def whose_turn(discord_: DiscordHarness, users: list[FakeUser]) -> FakeUser:
    match = await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]
    seat = GAME.to_act(match.state)[0]
    return next(user for user in users if user.id == match.user_at(seat).user_id)


async def play_one_move(discord_: DiscordHarness, users: list[FakeUser], chooser: random.Random, move: int) -> None:
    match = await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]
    seat = GAME.to_act(match.state)[0]
    user = next(user for user in users if user.id == match.user_at(seat).user_id)
    action = greedy_action(match.state, GAME.catalog, seat, chooser)  # type: ignore[attr-defined]
    if action["type"] == "place":
        await discord_.command("explore place", {"location": GAME.catalog.location(action["location"]).name},  # type: ignore[attr-defined]
                               user=user)
    elif move % 2:
        await discord_.command("explore move", {"direction": action["direction"]}, user=user)
    else:
        board = discord_.last_public_message(with_components=True)
        label = next(label for label in board.button_labels() if label.lower().startswith(action["direction"] + ":"))
        await discord_.click(board, label=label, user=user)


_BENIGN_RUNS: dict[int, list[tuple[str, str]]] = {}


def benign_run(players: int) -> list[tuple[str, str]]:
    """The same table played by plainly named players (once per table size)."""
    if players not in _BENIGN_RUNS:
        with tempfile.TemporaryDirectory() as folder:
            _BENIGN_RUNS[players] = asyncio.run(play_a_table(BENIGN[:players], Path(folder)))[0]
    return _BENIGN_RUNS[players]


def check_table(names: tuple[str, ...]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        texts, seen = asyncio.run(play_a_table(names, Path(folder)))
    plain = benign_run(len(names))
    assert [where for where, _ in texts] == [where for where, _ in plain], "the table went as the plain one did"
    for (where, text), (_, twin) in zip(texts, plain, strict=True):
        assert not foreign(text), (where, foreign(text), text)
        assert masked_links(text) == 0, (where, text)
        assert live(text) == live(twin), (where, text, twin)  # by kind: ids and times differ
    shown = visible(seen["lobby"])
    for name in names:  # every name shown as typed (on one line)
        assert one_line(name) in shown, (name, seen["lobby"])
    for notified, everyone in seen["pinged"]:
        assert not everyone and set(notified) <= seen["seated"]
    for allowed in seen["allowed"]:
        if allowed is not None:
            assert allowed.get("parse", []) == [] and not allowed.get("roles") and \
                {int(user) for user in allowed.get("users", [])} <= seen["seated"], allowed


GLUE = ("", " ", "\n", "**", "*", "_", "- ", "# ", "> ", "1. ", "<@307283090427455915> — ", " placed last, so ",
        "[", "](", ")", ":")
"""Catalogue-like words around names: the bot's own markdown, a ping, and characters a name could pair with (never a
code span or a backslash: the catalogues put no name inside code and have no backslash)."""


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(GLUE), st.text(alphabet="".join(set("".join(FRAGMENTS))) + "ab",
                                                          min_size=1, max_size=12)), min_size=1, max_size=4),
       st.sampled_from(GLUE))
def test_escaped_names_compose_with_each_other_and_any_words_around_them(parts: list[tuple[str, str]],
                                                                          last: str) -> None:
    """The escape is context-free: a text with any names in any catalogue words shows each name as typed (on one
    line) and has exactly the live syntax of the same words around plain names."""
    finished = safe_text("".join(glue + said(name) for glue, name in parts) + last)
    plain = "".join(glue + "n" for glue, _ in parts) + last
    assert live(finished) == live(plain), (parts, finished)
    assert visible(finished) == "".join(glue + one_line(name) for glue, name in parts) + last


PAIRS = st.lists(display_names(), min_size=2, max_size=3, unique=True).map(tuple)


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@example(("\\", "*", LINK))
@given(PAIRS)
def test_no_name_brings_syntax_into_any_message(names: tuple[str, ...]) -> None:
    check_table(names)


@pytest.mark.parametrize("names", [(LINK, "\\"), ("*", "\\")])
def test_the_probes_names_put_no_live_link_or_formatting_anywhere(names: tuple[str, ...]) -> None:
    """The two pairs of issue 32 (a live masked link in 22 of 26 public messages; formatting broken)."""
    check_table(names)


async def test_expeditions_mine_shows_the_readers_own_name_escaped(database: Path) -> None:
    """Issue 32: Expeditions' `/game mine` opened with the reader's own name as it was typed."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = [discord_.user("alice", global_name=LINK), discord_.user("bob", global_name="*Bob*")]
        await discord_.command("game new", {"game": "expeditions", "seed": 5}, user=users[0])
        await discord_.command("game join", user=users[1])
        await discord_.command("game start", user=users[0])
        for user, name in zip(users, (LINK, "*Bob*"), strict=True):
            mine = (await discord_.command("game mine", user=user)).one().content
            assert masked_links(mine) == 0 and not foreign(mine), mine
            first = mine.split("\n", 1)[0]
            assert visible(first).startswith(f"**{name}** — "), first
            assert live(first)["delimiter *"] == 4, first  # the bot's bold, none of the name's asterisks


FORGED = "Annabel Lee\n7. forged entry\n"
"""A name that would pass for an entry of its own if its line breaks stayed (32 characters and less, as Discord
allows; the long names make the log long enough to come as a file)."""
NAMES = (FORGED, "Bartholomew\nof the Long Name", "Cid\r\n\r\n# Cid the Third")


async def test_a_name_with_line_breaks_keeps_the_log_numbered(database: Path) -> None:
    """Issue 32: a name with line breaks broke the numbering of `/game log` (the message and the attached file):
    every line is one entry, numbered 1, 2, 3… without a gap, the name on one line."""
    async with DiscordHarness(create_bot(database)) as discord_:
        users = [discord_.user(f"player{seat}", global_name=name) for seat, name in enumerate(NAMES)]
        await discord_.command("game new", {"game": GAME.key, "mode": "standard", "seed": SEED}, user=users[0])
        for user in users[1:]:
            await discord_.command("game join", user=user)
        await discord_.command("game start", user=users[0])
        chooser = random.Random(SEED)
        for move in range(60):
            reply = (await discord_.command("game log", {"count": 500}, user=users[0])).one()
            if reply.files:
                break
            await play_one_move(discord_, users, chooser, move)
        assert reply.files, "the log grew long enough to come as a file"
        text = reply.files[0].data.decode()
        assert_numbered(text.splitlines())
        assert "Annabel Lee 7. forged entry " in text and "Bartholomew of the Long Name" in text
        assert "Cid # Cid the Third" in text
        shown = visible(reply.content).splitlines()[1:]  # under the note saying a file holds the whole log
        assert_numbered(shown)


def assert_numbered(lines: list[str]) -> None:
    numbers = [int(line.split(". ", 1)[0]) for line in lines if line]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), lines
    assert all(line.split(". ", 1)[0].isdigit() for line in lines if line), lines


def test_a_log_line_an_older_bot_recorded_has_its_names_escaped_too() -> None:
    """Log lines recorded before names were marked carry the names bare: reading them back marks every
    occurrence in one pass (longest name first), so the probe's pair shows no live link in the story or the log."""
    names = [LINK, "\\", "*"]
    old_line = f"{LINK} placed last, so {LINK} moves first. \\ and * follow."
    shown = safe_text(with_names_marked(old_line, names))
    assert masked_links(shown) == 0 and not foreign(shown), shown
    assert visible(shown) == old_line
    new_line = f"{said(LINK)} moved left."  # a line with marks was marked where it was written: left as it is
    assert with_names_marked(new_line, names) == new_line


DIRECTION_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_a_name_cannot_turn_the_sentence_around_it() -> None:
    """A name carrying a right-to-left override (U+202E) or an isolate made every message that named it read the
    rest of its line backwards ("Alice chooses" as "sesoohc ecilA"): the bot drops explicit direction controls from
    names; a right-to-left name keeps its letters and so its direction."""
    names = ("\u202eEve", "Bob\u2067\u202b", "\u0633\u0627\u0631\u0629")
    with tempfile.TemporaryDirectory() as folder:
        texts, seen = asyncio.run(play_a_table(names, Path(folder)))
    assert texts
    for where, text in texts:
        assert not set(text) & set(DIRECTION_CONTROLS), (where, text)
    shown = visible(seen["lobby"])
    assert "Eve" in shown and "Bob" in shown and "\u0633\u0627\u0631\u0629" in shown
    assert one_line("a\u202eb\nc") == "ab c" and said("\u2066x\u2069") == said("x")
