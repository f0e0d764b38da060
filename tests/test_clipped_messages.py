"""A private answer longer than a Discord message is cut where a reader sees it was cut: at a line break or a space,
with "…", never inside a word or after an escaping backslash (it was cut at 1,990 characters wherever they fell)."""

from __future__ import annotations

from bot.i18n import said
from cogs.common import MESSAGE_CHARS, clipped, safe_text


def test_a_text_that_fits_is_sent_whole() -> None:
    text = "word " * 399 + "end"
    assert len(text) < MESSAGE_CHARS and clipped(text) == text


def test_a_long_text_is_cut_between_words_with_an_ellipsis() -> None:
    text = "alpha beta\n" * 300
    shown = clipped(text)
    assert len(shown) <= MESSAGE_CHARS and shown.endswith(("alpha…", "beta…"))
    assert text.startswith(shown[:-1]) and text[len(shown) - 1] in " \n"  # the cut fell between two words


def test_a_cut_never_leaves_an_escape_without_its_character() -> None:
    """An escaped name cut right after its backslash would escape the "…" and show the backslash."""
    text = safe_text("x" * 1996 + said("*") + "zz")  # "xxx…\\*zz": the cut falls after the backslash
    assert text[1996:1998] == "\\*"
    shown = clipped(text, 1998)
    assert shown == "x" * 1996 + "…"
