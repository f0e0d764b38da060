"""Text a person wrote, marked where it stands in a finished message: display names and typed values.

A name is put into a sentence long before the sentence reaches Discord, and by then nothing can tell the name from
the catalogue's own words (escaping each name afterwards, one after another, is what let two names undo each
other's escapes: issue 32). So whoever puts a user-controlled value into a text wraps it in `said()`: the value
between two Unicode noncharacters (U+FDD0, U+FDD1, "for a program's internal use", never part of a real name;
`said` removes any a person typed). The edge of each medium then does one pass over the finished text:

- the Discord layer (`cogs.common.safe_text`) escapes exactly the marked spans for Discord's markdown and removes
  the marks: one pass, nothing escaped twice, nothing left out;
- everything that shows text literally (images, alt text, files, button labels, thread names) uses
  `unmarked()`: the marks removed and a name's line breaks made spaces (a name is one line in any medium).

A span is never nested (`said` flattens what it wraps), and a mark cut off by shortening a text is harmless: an
opening mark without its closing one marks the rest of the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

SAID = "\ufdd0"
"""Opens a span of text a person wrote."""
END = "\ufdd1"
"""Closes it."""

_MARKS = re.compile(f"[{SAID}{END}]")
_SPAN = re.compile(f"{SAID}([^{SAID}{END}]*)(?:{END}|(?={SAID})|$)")
"""A marked span: to its closing mark, the next opening one, or the end of a text that was cut short."""
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
"""Everything Python's str.splitlines breaks a line at: none may start a new line inside a name."""
_DIRECTION_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""Unicode's explicit embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI): in a name
they would turn the rest of the sentence around it ("Alice chooses" read backwards after an RLO). Right-to-left
names need none of them: their letters carry their direction."""


def said(value: object) -> str:
    """`value` (a display name, something typed) as a marked span, for a text that will name it."""
    return f"{SAID}{_DIRECTION_CONTROLS.sub('', _MARKS.sub('', str(value)))}{END}"


def is_marked(text: str) -> bool:
    """Whether `text` holds any span a person wrote (the common case of a text without one is then free)."""
    return SAID in text or END in text


def with_spans(text: str, shown: Callable[[str], str]) -> str:
    """`text` with each marked span replaced by `shown(span)` and every mark removed, in one pass. An opening mark
    whose closing mark was cut off marks the rest (or up to the next opening mark); a closing mark without an
    opening one is dropped. A text without marks is returned as it is."""
    if not is_marked(text):
        return text
    return _SPAN.sub(lambda found: shown(found[1]), text).replace(END, "")


def one_line(value: str) -> str:
    """A person's text on one line, reading in its own direction only: each run of line breaks becomes a space,
    and explicit direction controls are dropped."""
    return _DIRECTION_CONTROLS.sub("", _LINE_BREAKS.sub(" ", value))


def unmarked(text: str) -> str:
    """`text` for a medium that shows it literally (an image, a file, a button label, a thread name): the marks
    removed and every marked span on one line."""
    return with_spans(text, one_line)


def with_names_marked(text: str, names: Iterable[str]) -> str:
    """A text recorded before names were marked (an older bot's log line), with every occurrence of these names
    marked, in one pass (longest name first at each place). Only for such texts: a text that has any mark is
    returned as it is, since its names were marked where they were put in."""
    if is_marked(text):
        return text
    pattern = _names_pattern(tuple(sorted({name for name in names if name}, key=len, reverse=True)))
    return pattern.sub(lambda found: said(found[0]), text) if pattern is not None else text


@lru_cache(maxsize=256)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(map(re.escape, names))) if names else None


def last_chars(text: str, count: int) -> str:
    """The last `count` characters of `text` (its end says most), a span cut at its start still marked as a
    person's: a closing mark whose opening one was cut off would otherwise leave the rest of a name unmarked."""
    if len(text) <= count:
        return text
    cut, kept = text[:-count], text[-count:]
    return SAID + kept if cut.rfind(SAID) > cut.rfind(END) else kept
