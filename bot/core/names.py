"""Names as players type them: one folding rule so "fuchsling", "FÜCHSLING" and "Füchsling" are the same name."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

from bot.i18n import DEFAULT_LANGUAGE, translate

# Letters that do not decompose into a base letter and a combining mark.
_EXTRA = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
                        "’": "'", "‘": "'"})


def fold(text: str) -> str:
    """`text` without accents, case, or surrounding and repeated spaces, for comparing typed names.

    "Füchsling", "FUCHSLING" and "fuchsling" fold alike; "Fuechsling" (an umlaut spelled out) stays a different name.
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.translate(_EXTRA).split())


def same_name(typed: str, name: str) -> bool:
    """Whether a typed name names `name` (accent-, case- and spacing-insensitive)."""
    return fold(typed) == fold(name)


def closest(typed: str, names: Iterable[str]) -> str | None:
    """The one name a typo most likely meant ("Clokwork Owl" -> "Clockwork Owl"), or None when none is close."""
    by_fold = {fold(name): name for name in names}
    found = difflib.get_close_matches(fold(typed), list(by_fold), n=1, cutoff=0.75)
    return by_fold[found[0]] if found else None


def did_you_mean(typed: str, names: Iterable[str], language: str = DEFAULT_LANGUAGE) -> str:
    """" Did you mean Clockwork Owl?" (" Meintest du …?" in German) when a typo is close to one of `names`, else
    ""."""
    guess = closest(typed, names)
    return translate("error.did_you_mean", language, name=guess) if guess else ""


def contains(typed: str, label: str) -> bool:
    """Whether `label` contains what was typed so far (autocomplete filtering), folded alike."""
    return fold(typed) in fold(label)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """ "1 cage", "2 cages", "0 cages": a count with its noun agreeing (`many` for irregular plurals, e.g. dice)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def a_number(value: int) -> str:
    """The number with its article as spoken: "a 6", "an 8", "an 11", "an 18", "an 80"."""
    spoken = str(value)
    vowel = spoken.startswith("8") or (spoken.startswith(("11", "18")) and len(spoken) in (2, 5, 6))
    return f"{'an' if vowel else 'a'} {value}"
