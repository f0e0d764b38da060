"""Checks that a text meant for a German reader holds no English (issue 21): shared by the German tests.

Two nets: English function words (a sentence left in English almost always holds one), and the English text of every
catalogue message (a message worded in English where German was wanted, even one of a single content word).
"""

from __future__ import annotations

import re
from functools import cache

from bot.i18n import message_ids
from bot.i18n.catalog import placeholders, texts

ENGLISH_WORDS = frozenset({
    "the", "and", "with", "your", "you", "to", "of", "is", "are", "was", "were", "has", "have", "had", "this",
    "that", "these", "those", "from", "into", "onto", "for", "not", "no", "yet", "turn", "turns", "wins", "won",
    "lost", "each", "every", "which", "who", "what", "when", "where", "while", "there", "their", "them", "they",
    "his", "her", "its", "it's", "can't", "don't", "isn't", "won't", "nobody", "someone", "anyone", "nothing",
    "something", "must", "may", "will", "would", "should", "could",
})
"""Words that read as English and never as German (German shares "in", "an", "so", "am", "will", "was"... with
English, so those are left out, and "will"/"was" are only taken from English sentences' shapes below)."""
GERMAN_HOMOGRAPHS = frozenset({"will", "was", "die", "hat", "war", "also", "bald", "gift", "fast", "rot", "kind"})
WORD = re.compile(r"[A-Za-zÄÖÜäöüß']+")


@cache
def english_message_texts(minimum_length: int = 12) -> tuple[str, ...]:
    """The fixed parts of every English catalogue text long enough to be unmistakable ("Choose one of: ")."""
    parts: set[str] = set()
    for message_id in message_ids("en"):
        for text in texts(message_id, "en"):
            fixed = text
            for name in placeholders(text):
                fixed = fixed.replace("{" + name + "}", "\0")
            parts.update(part.strip() for part in fixed.split("\0") if len(part.strip()) >= minimum_length)
    german = {text for message_id in message_ids("de") for text in texts(message_id, "de")}
    return tuple(sorted(part for part in parts if not any(part in text for text in german)))


ENGLISH_ONLY = ENGLISH_WORDS - GERMAN_HOMOGRAPHS


def english_left(text: str, *, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The English words and English catalogue texts found in `text` (empty when it reads as German).

    `allowed`: words that may appear (player names, a card's own name the owner gave both languages alike)."""
    return list(_english_left(text, allowed))


@cache
def _english_left(text: str, allowed: frozenset[str]) -> tuple[str, ...]:
    """`english_left`, once per text: a whole game's texts repeat (each turn re-reads the log), and each new text
    is matched against every catalogue text (a seeded German game of Expeditions checked 63,000 texts, 2,600
    different ones)."""
    found = [word for word in WORD.findall(text) if word.lower() in ENGLISH_ONLY and word not in allowed]
    found += [part for part in english_message_texts() if part in text]
    return tuple(found)
