"""A private answer longer than a Discord message is cut where a reader sees it was cut: at a line break or a space,
with "…", never inside a word or after an escaping backslash (it was cut at 1,990 characters wherever they fell)."""

from __future__ import annotations

from bot.i18n import said
from cogs.common import MESSAGE_CHARS, fit, message_parts, safe_text


def test_a_text_that_fits_is_sent_whole() -> None:
    text = "word " * 399 + "end"
    assert len(text) < MESSAGE_CHARS and fit(text) == text


def test_a_long_text_is_cut_between_words_with_an_ellipsis() -> None:
    text = "alpha beta\n" * 300
    shown = fit(text)
    assert len(shown) <= MESSAGE_CHARS and shown.endswith(("alpha…", "beta…"))
    assert text.startswith(shown[:-1]) and text[len(shown) - 1] in " \n"  # the cut fell between two words


def test_a_cut_never_leaves_an_escape_without_its_character() -> None:
    """An escaped name cut right after its backslash would escape the "…" and show the backslash."""
    text = safe_text("x" * 1996 + said("*") + "zz")  # "xxx…\\*zz": the cut falls after the backslash
    assert text[1996:1998] == "\\*"
    shown = fit(text, 1998)
    assert shown == "x" * 1996 + "…"


def test_the_end_kept_is_cut_between_words_too() -> None:
    """A board's words keep their end (whose turn it is); they were cut at 1,989 characters from the end, mid-word."""
    text = "alpha beta\n" * 300 + "Bo to move"
    shown = fit(text, 1990, keep="end")
    assert len(shown) <= 1990 and shown.startswith(("…alpha", "…beta")) and shown.endswith("Bo to move")
    assert text.endswith(shown[1:]) and text[-len(shown)] in " \n"  # the cut fell between two words


def test_a_long_line_is_sent_in_parts_cut_between_words() -> None:
    """A line longer than a message was cut every 2,000 characters wherever they fell."""
    text = "intro\n" + "word " * 1000
    parts = message_parts(text)
    assert all(len(part) <= MESSAGE_CHARS for part in parts) and len(parts) == 4 and parts[0] == "intro"
    assert parts[1].endswith(" word…") and parts[2].startswith("word ") and parts[2].endswith(" word…")
    assert " ".join(part.removesuffix("…") for part in parts).split() == text.split()
