"""Issue 33 item 10: one term per thing in German. bot/i18n/locales/de/terms.txt names each thing's preferred
term and the synonyms the German catalogue must not use for it; no German message may contain one."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

import bot.games  # noqa: F401  (every game package's catalogue domain)
from bot.i18n.catalog import catalogue_paths

LOCALE = Path(__file__).resolve().parents[1] / "bot" / "i18n" / "locales" / "de"


def glossary_lines() -> list[str]:
    return [line for line in (LOCALE / "terms.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def exempt_messages() -> set[str]:
    """Message ids the glossary lets keep a banned word (each with its reason in terms.txt)."""
    return {line.removeprefix("except:").strip() for line in glossary_lines() if line.startswith("except:")}


def banned_terms() -> dict[str, str]:
    """Each banned synonym with the term to use instead."""
    banned: dict[str, str] = {}
    for line in glossary_lines():
        if not line.startswith("except:"):
            preferred, synonyms = line.split(":", 1)
            banned |= {word.strip(): preferred.strip() for word in synonyms.split(",") if word.strip()}
    return banned


def german_texts() -> dict[str, str]:
    texts: dict[str, str] = {}
    for catalogue in catalogue_paths("de"):  # every domain: the platform's and each game package's
        with catalogue.open("rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            if message.id:
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                texts[str(message.id if isinstance(message.id, str) else message.id[0])] = " | ".join(strings)
    return texts


def test_no_german_message_uses_a_banned_synonym() -> None:
    banned = banned_terms()
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, banned)) + r")(?!\w)")
    found = [f"{key}: {hit.group(1)} (say {banned[hit.group(1)]})"
             for key, text in german_texts().items() if key not in exempt_messages() for hit in pattern.finditer(text)]
    assert not found, "\n".join(found)


def test_the_glossary_parses_and_each_preferred_term_is_used() -> None:
    banned = banned_terms()
    assert {"Brett", "Spielbrett", "Figur", "Kra", "Person", "Personen", "Mitspielenden", "Spieler:innen"} <= set(
        banned)
    assert banned["Personen"] == "Spieler"
    assert exempt_messages() <= set(german_texts()), "an exemption names no message"
    texts = " ".join(german_texts().values())
    for preferred in set(banned.values()):
        assert re.search(rf"(?<!\w){preferred}(?!\w)", texts), preferred
