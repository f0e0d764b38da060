"""How Discord reads a message's markdown, as far as the hostile-name tests need it: which characters are escaped
and which stay syntax, and which constructs are live (masked links, mentions, headings, spoilers, emphasis).

Written from Discord's documented markdown and its parser (simple-markdown): a backslash before any character that
is not a letter, a digit or white space shows that character literally and hides the backslash; inside a code span
escapes do nothing. Independent of the bot's own escaping (cogs/common.py), which is what it checks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_ESCAPABLE = re.compile(r"[^0-9A-Za-z\s]")

DELIMITERS = "*_~|`[]<>"
"""Characters that open or close inline syntax wherever they stand: emphasis, underline, strike, spoilers, code,
masked links, mentions, timestamps, channels and custom emoji."""


@dataclass(frozen=True)
class Char:
    """One character as Discord shows it: `raw` when Discord may act on it (not escaped)."""

    char: str
    raw: bool


def read(content: str) -> list[Char]:
    """The characters Discord shows, each with whether it is still syntax (escapes applied, backslashes hidden; a
    code span's backticks are syntax, what they enclose is shown as it is)."""
    shown: list[Char] = []
    index = 0
    while index < len(content):
        char = content[index]
        if char == "\\" and index + 1 < len(content) and _ESCAPABLE.match(content[index + 1]):
            shown.append(Char(content[index + 1], raw=False))
            index += 2
            continue
        if char == "`":
            run = len(content[index:]) - len(content[index:].lstrip("`"))
            closing = re.compile(f"(?<!`){'`' * run}(?!`)").search(content, index + run + 1)
            if closing is not None:  # a code span: its backticks are syntax, its inside is not
                shown += [Char("`", raw=True)] * run
                shown += [Char(inner, raw=False) for inner in content[index + run:closing.start()]]
                shown += [Char("`", raw=True)] * run
                index = closing.end()
                continue
        shown.append(Char(char, raw=True))
        index += 1
    return shown


def visible(content: str) -> str:
    """The text a reader sees, syntax characters kept where they stand."""
    return "".join(c.char for c in read(content))


def _raw_text(chars: list[Char]) -> str:
    """The text with every escaped character replaced by a neutral one, so patterns match live syntax only."""
    return "".join(c.char if c.raw else "\x00" for c in chars)


_AUTOLINK = re.compile(r"(?:https?|steam)://")
_MENTION = re.compile(r"<(?:@[!&]?\d+|#\d+|t:-?\d+(?::[tTdDfFR])?|/[^<>:]+:\d+|a?:\w+:\d+)>")
_EVERYONE = re.compile(r"@(?:everyone|here)")
_LINE_START = re.compile(r"^[ \t]*(#{1,3} |-# |>>> |> |[-*+] |\d+[.)] )", re.MULTILINE)


def _mention_kind(mention: str) -> str:
    for prefix, kind in (("<@&", "role mention"), ("<@", "user mention"), ("<#", "channel mention"),
                         ("<t:", "timestamp"), ("</", "command mention")):
        if mention.startswith(prefix):
            return kind
    return "custom emoji"


def masked_links(content: str) -> int:
    """How many `[text](https://…)` a message holds whose brackets and parenthesis are syntax (an escaped
    character inside the address does not stop Discord from following it)."""
    chars = read(content)
    count = 0
    for opening, char in enumerate(chars):
        if not (char.raw and char.char == "["):
            continue
        closing = next((i for i in range(opening + 1, len(chars)) if chars[i].raw and chars[i].char in "[]"), None)
        if closing is None or chars[closing].char != "]" or closing + 1 >= len(chars):
            continue
        if chars[closing + 1].raw and chars[closing + 1].char == "(":
            target = "".join(c.char for c in chars[closing + 2:closing + 12]).lstrip(" <")
            count += target.startswith(("http://", "https://", "steam://"))
    return count


def live(content: str) -> Counter[str]:
    """Every piece of live syntax in a message, counted by kind."""
    raw = _raw_text(read(content))
    found: Counter[str] = Counter()
    found.update(f"delimiter {char}" for char in raw if char in DELIMITERS)
    found.update("masked link" for _ in range(masked_links(content)))
    found.update("autolink" for _ in _AUTOLINK.finditer(raw))
    found.update(_mention_kind(m[0]) for m in _MENTION.finditer(raw))
    found.update("@everyone or @here" for _ in _EVERYONE.finditer(raw))
    found.update(f"line start {m[1].strip()[:1] or m[1]}" for m in _LINE_START.finditer(raw))
    found.update("spoiler" for _ in re.finditer(r"\|\|", raw))
    found.update("heading" for m in _LINE_START.finditer(raw) if m[1].lstrip().startswith(("#", "-#")))
    return found


NEVER_FROM_THE_BOT = ("masked link", "role mention", "command mention", "custom emoji",
                      "@everyone or @here", "spoiler", "heading",
                      "delimiter ~", "delimiter |", "line start >")
"""What the bot's own words never contain (its catalogues use none of it): any of it in a message came from a
person's text. (A link it does make: a refused repost links the board, so links are compared with the plain twin.)"""


def foreign(content: str) -> list[str]:
    """The live syntax in a message that the bot's own words never make."""
    found = live(content)
    return [kind for kind in NEVER_FROM_THE_BOT if found[kind]]
