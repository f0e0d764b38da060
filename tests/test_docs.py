"""The README and docs/ stay whole and true: every command, flag, slash command, option and setting the code has is
documented; every link between them resolves; the README stays short and its offline example runs as printed."""

from __future__ import annotations

import re
import unicodedata
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.app import create_bot
from tests.harness import DiscordHarness

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
CODE = [ROOT / folder for folder in ("bot", "cogs", "rendering", "tests", "benchmarks")]


def documentation() -> str:
    return "\n".join(path.read_text() for path in [README, *DOCS])


def expedition_bot() -> Any:
    """The `expedition-bot` entry point as installed (pyproject's console script), whatever module holds it."""
    [script] = entry_points(group="console_scripts", name="expedition-bot")
    return script.load()


def help_of(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    with pytest.raises(SystemExit) as stopped:
        expedition_bot()([*arguments, "--help"])
    assert stopped.value.code == 0
    return capsys.readouterr().out


def subcommands(capsys: pytest.CaptureFixture[str]) -> list[str]:
    usage = help_of(capsys)
    found = re.search(r"\{([\w,-]+)\}", usage)
    assert found, usage
    return found[1].split(",")


def flags(help_text: str) -> set[str]:
    """The option strings an argparse help lists (every `-x`/`--long` at the start of an option line)."""
    options: set[str] = set()
    for line in help_text.splitlines():
        if re.match(r"\s+-", line):
            options.update(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", line.split("  ")[1] if "  " in line.strip()
                                      else line))
    return options - {"-h", "--help"}


# ----------------------------------------------------------------------------------------------- the command line


def test_every_subcommand_and_flag_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    text = documentation()
    commands = subcommands(capsys)
    assert {"run", "sync", "local", "migrate", "simulate", "replay", "invite"} <= set(commands)
    missing = [f"expedition-bot {command}" for command in commands if f"expedition-bot {command}" not in text]
    assert missing == []
    undocumented = sorted(flag for flag in flags(help_of(capsys)) if f"`{flag}" not in text and f" {flag}" not in text)
    for command in commands:
        undocumented += sorted(f"{command} {flag}" for flag in flags(help_of(capsys, command))
                               if f"`{flag}" not in text and f" {flag}" not in text)
    assert undocumented == []


def test_the_flag_reader_reads_flags() -> None:
    """The check above is only as good as this reader: it must see every option of a typical help."""
    sample = ("options:\n  -h, --help            show this help message and exit\n"
              "  --db DB               SQLite file\n  --sync-guild SYNC_GUILD\n"
              "                        register in this server (--not-a-flag in the text)\n")
    assert flags(sample) == {"--db", "--sync-guild"}


def environment_variables() -> set[str]:
    """Every environment variable the code reads or sets: names quoted on a line that touches the environment,
    and constants named *_ENV."""
    names: set[str] = set()
    for folder in CODE:
        for path in folder.rglob("*.py"):
            for line in path.read_text().splitlines():
                if re.search(r"environ|getenv|setenv|delenv", line) or re.match(r"\s*\w+_ENV\s*=", line):
                    names.update(re.findall(r"[\"']([A-Z][A-Z0-9]*_[A-Z0-9_]+)[\"']", line))
    return names


def test_every_setting_is_documented() -> None:
    names = environment_variables()
    assert {"DISCORD_TOKEN", "EXPEDITION_DB", "EXPEDITION_DATA", "EXPEDITION_TEST_PG"} <= names
    text = documentation()
    assert sorted(name for name in names if f"`{name}" not in text) == []


# ----------------------------------------------------------------------------------------------- slash commands


@pytest.fixture(scope="module")
def slash_commands(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, list[str]]]:
    """Every slash command and its options, read from the command tree the real bot builds."""
    import asyncio

    async def read() -> list[tuple[str, list[str]]]:
        database = tmp_path_factory.mktemp("docs") / "tree.sqlite3"
        async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
            return [(command.qualified_name, [parameter.display_name for parameter in command.parameters])
                    for command in discord_.bot.tree.walk_commands() if isinstance(command, app_commands.Command)]

    return asyncio.run(read())


def test_every_slash_command_and_option_is_documented(slash_commands: list[tuple[str, list[str]]]) -> None:
    assert len(slash_commands) >= 40
    assert ("game new", ["game", "mode", "seed", "timer", "thread", "language", "clock", "teach"]) in slash_commands
    lines = documentation().splitlines()
    missing = []
    for name, options in slash_commands:
        mentions = [line for line in lines if re.search(rf"/{re.escape(name)}(?![\w-])", line)]
        if not mentions:
            missing.append(f"/{name}")
        missing += [f"/{name} {option}:" for option in options
                    if not any(f"{option}:" in line for line in mentions)]
    assert missing == []


# ----------------------------------------------------------------------------------------------- links


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    in_code = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"#{1,6}\s+(.*)", line)):
            base = slug(heading[1])
            found.add(base if base not in counts else f"{base}-{counts[base]}")
            counts[base] = counts.get(base, 0) + 1
    return found


def links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)  # links in code blocks are not links
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r"<img [^>]*src=\"([^\"]+)\"", text)


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda path: path.name)
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        destination = (page.parent / file).resolve() if file else page
        anchor_missing = bool(anchor) and (destination.suffix != ".md" or anchor not in anchors(destination))
        if not destination.exists() or anchor_missing:
            broken.append(target)
    assert broken == []


def test_the_slugs_match_githubs() -> None:
    assert slug("Try it offline: `expedition-bot local`") == "try-it-offline-expedition-bot-local"
    assert slug("Measured: `benchmarks/bench_scale.py`") == "measured-benchmarksbench_scalepy"
    assert slug("Server settings: `/settings`") == "server-settings-settings"


def test_every_doc_is_linked_from_the_readme_and_says_who_it_is_for() -> None:
    linked = {target.partition("#")[0] for target in links(README)}
    assert sorted(f"docs/{path.name}" for path in DOCS if f"docs/{path.name}" not in linked) == []
    for path in DOCS:
        paragraphs = [block for block in path.read_text().split("\n\n") if block.strip()]
        assert paragraphs[0].startswith("# ") and paragraphs[1].startswith("For "), path.name


# Packages the code map in docs/architecture.md describes before they land on main: drop each entry once it exists.
ARRIVING: set[str] = set()


def test_every_path_the_docs_name_exists() -> None:
    """A file the docs name in `code` (bot/..., cogs/..., tests/...) is there: a move or a rename updates the docs."""
    text = "\n".join(path.read_text() for path in [README, *DOCS])
    named = {match.rstrip(".") for span in re.findall(r"`([^`\n]+)`", text)
             for match in re.findall(r"(?<![\w/.])((?:bot|cogs|rendering|tests|benchmarks|data|docs|\.ci)/[\w./*-]*)",
                                     span)}
    assert len(named) > 40

    def exists(path: str) -> bool:
        return any(ROOT.glob(path.rstrip("/"))) if "*" in path else (ROOT / path.rstrip("/")).exists()

    assert sorted(path for path in named if not exists(path) and path not in ARRIVING) == []


# ----------------------------------------------------------------------------------------------- the README itself


def readme_example() -> tuple[int, list[str]]:
    """The README's offline example: the line its code block ends on, and the lines typed after `> `."""
    lines = README.read_text().splitlines()
    start = lines.index("$ expedition-bot local")
    end = lines.index("```", start)
    return end + 1, [line.removeprefix("> ") for line in lines[start + 1:end]]


def test_the_readme_is_short_with_the_offline_example_early() -> None:
    assert len(README.read_text().splitlines()) <= 250
    last_line, typed = readme_example()
    assert last_line <= 80 and len(typed) >= 5


def test_the_readme_offline_example_runs_as_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every line of the example is accepted: each command and press changes a public message, none is refused."""
    _, typed = readme_example()
    script = tmp_path / "readme.txt"
    script.write_text("\n".join(typed) + "\n")
    assert expedition_bot()(["local", "--script", str(script), "--boards", str(tmp_path / "boards")]) == 0
    out = capsys.readouterr().out
    blocks = re.split(r"^> ", out, flags=re.M)[1:]
    assert [block.splitlines()[0] for block in blocks] == typed
    for line, block in zip(typed, blocks, strict=True):
        if line.startswith(("/", "click", "choose")):
            assert "(!)" not in block, block
            assert "--- posted" in block or "--- board updated in place" in block, block
    # What the README says of it: with the seed it uses Alice places first, and the button pressed last is the one
    # it names.
    pressed = re.search(r'newest board \("([^"]+)"\)', README.read_text())
    last_buttons = re.findall(r"^buttons: .*$", "".join(blocks[:-1]), flags=re.M)[-1]
    assert pressed and last_buttons.startswith(f"buttons: [1] {pressed[1]}  "), last_buttons
    assert "@Alice — Alice to place" in out and "Alice moved" in blocks[-1]
