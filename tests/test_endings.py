"""Wording at a game's end and around it (session 11's endings list): each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import Rng, find_game
from bot.core.errors import LobbyError, RuleError
from bot.games.monster_expedition.state import setup_state

LOCALES = Path(__file__).resolve().parent.parent / "bot" / "i18n" / "locales"


def test_monster_expeditions_unknown_mode_is_refused_once_by_the_titles_and_its_old_key_list_is_gone() -> None:
    """monster.refuse.no_mode listed the mode keys ("standard, solo") and could not be reached: the game resolves a
    typed mode first and refuses an unknown one by the modes' localized titles. It is gone from both catalogues;
    setup_state, which takes a resolved key, treats anything else as a programming error, not a player's words."""
    game = find_game("monster-expedition")
    with pytest.raises(LobbyError) as refused:
        game.setup("kampagne", ["Ada"], Rng(1, 0), {})
    assert refused.value.text("de") == ("Monster Expedition hat keinen Modus „kampagne“. Wähle einen von: Standard, "
                                        "Solokampagne.")
    with pytest.raises(ValueError) as misuse:
        setup_state("kampagne", ["Ada"], Rng(1, 0), {})
    assert not isinstance(misuse.value, RuleError)
    for language in ("en", "de"):
        assert "monster.refuse.no_mode" not in (LOCALES / language / "LC_MESSAGES" / "messages.po").read_text()
    assert "monster.refuse.no_mode" not in (LOCALES / "messages.pot").read_text()
