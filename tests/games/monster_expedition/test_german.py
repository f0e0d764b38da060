"""Monster Expedition at a German table (issue 21): every story, turn line, /game mine, rules text, refusal, button,
menu and board word in German, with real plurals, and the English table unchanged beside it."""

from __future__ import annotations

import random

import pytest

from bot.core.errors import RuleError
from bot.core.protocol import JSON
from bot.core.rng import Rng
from bot.games.monster_expedition import GAME, campaign_text
from bot.games.monster_expedition.rules.catalog import TRADER_ID, catalog, load_catalog
from bot.games.monster_expedition.rules.state import setup_state
from bot.games.monster_expedition.rules.strategies import choose
from bot.games.monster_expedition.rules.text import describe
from bot.i18n import LANGUAGES, message_ids
from bot.i18n.catalog import texts
from rendering import alt_text, kit, render_board, render_detail
from tests.games.monster_expedition.helpers import act, dice, hunt, set_display, standard
from tests.language import english_left
from tests.reading import read

CAT = catalog()
NAMES = ["Anke", "Bernd", "Clara", "Dörte"]
SAME_IN_BOTH = frozenset(word for card in CAT.cards.values() for word in card.names.de.split()
                         if card.names.de == card.names.en)
"""Words of the Latin monster names (Draco Chelonia, Medusamorph...), the same at every table."""
ALLOWED = frozenset(NAMES) | SAME_IN_BOTH | {"Monster", "Expedition", "Solinsula"}


def german(text: str) -> None:
    """The text reads as German: no English word or English catalogue text left in it."""
    assert not english_left(text, allowed=ALLOWED), (english_left(text, allowed=ALLOWED), text)


def played(mode: str, players: int, seed: int, expedition: int | None = None) -> list[tuple[JSON, list[JSON]]]:
    """Every (state, events) of one seeded game of the greedy hunter, from the setup to the end."""
    options: JSON = {"profiles": [{"won": list(range(1, 11))}] * players}
    if expedition is not None:
        options["expedition"] = expedition
    state = setup_state(mode, NAMES[:players], Rng(seed, 0), options)
    steps = [(state, [{"kind": "game_started"}])]
    chooser = random.Random(seed)
    for step in range(1, 3000):
        if state["over"]:
            break
        seat = state["active"]
        applied = GAME.apply(state, seat, choose(GAME.view(state, seat), "greedy", chooser), Rng(seed, step))
        state = applied.state
        steps.append((state, applied.events))
    assert state["over"]
    return steps


GAMES = [("standard", 2, 1, None), ("standard", 3, 2, None), ("standard", 4, 3, None),
         *[("solo", 1, number, number) for number in range(1, 11)]]


@pytest.mark.parametrize(("mode", "players", "seed", "expedition"), GAMES)
def test_a_whole_game_reads_in_german(mode: str, players: int, seed: int, expedition: int | None) -> None:
    kinds = set()
    for state, events in played(mode, players, seed, expedition):
        for event in events:
            kinds.add(event["kind"])
            german(GAME.describe(state, event, "de"))
        german(GAME.turn_text(state, "de"))
        for seat in range(players):
            german(GAME.private_text(state, seat, "de"))
        if not state["over"]:
            seat = state["active"]
            for button in GAME.quick_actions(state, seat, "de"):
                german(button.label)
            menu = GAME.choice_menu(state, seat, "de")
            if menu is not None:
                german(menu.placeholder)
                for option in menu.options:
                    german(f"{option.label} {option.description}")
            for action in GAME.legal_actions(state, seat)[:1]:
                try:  # a move out of turn: the refusal in German
                    GAME.apply(state, (seat + 1) % players, action, Rng(0, 0)) if players > 1 else None
                except RuleError as error:
                    german(error.text("de"))
    outcome = GAME.outcome(state)
    assert outcome is not None
    german(outcome.summary("de"))  # type: ignore[operator]
    assert outcome.summary == outcome.summary("en")  # type: ignore[operator]  # the English text as a plain str
    assert {"camp_chosen", "dice_rolled", "dice_banked", "hunt_stopped"} <= kinds


def test_every_event_kind_reads_in_german() -> None:
    state = standard(3)
    for seat, name in enumerate(("Anke", "Bernd", "Clara")):
        state["players"][seat]["name"] = name
    monster, trader = "vertikalwespe", TRADER_ID
    events = [
        {"kind": "game_started"},
        {"kind": "camp_chosen", "seat": 0, "region": "forest", "level": 3, "dice": 4, "black": 3},
        {"kind": "dice_rolled", "seat": 0, "dice": [{"colour": "green", "value": 5}, {"colour": "black", "value": 2}]},
        {"kind": "dice_banked", "seat": 0, "value": 5, "count": 1, "total": 5},
        {"kind": "dice_banked", "seat": 0, "value": 2, "count": 2, "total": 9},
        {"kind": "misthrow", "seat": 0, "lost": {"colour": "black", "value": 6}},
        {"kind": "misthrow", "seat": 0, "lost": None},
        {"kind": "hunt_stopped", "seat": 0, "value": 12, "crates": 0},
        {"kind": "hunt_stopped", "seat": 0, "value": 12, "crates": 2},
        {"kind": "monster_captured", "seat": 0, "card": monster, "cost": 7, "crates": 1, "crest_returned_to": 1},
        {"kind": "cages_bought", "seat": 0, "count": 2, "cost": 20},
        {"kind": "cages_taken", "seat": 0, "count": 1, "total": 3, "reason": "bought"},
        {"kind": "cages_taken", "seat": 0, "count": 2, "total": 3, "reason": "final_level"},
        {"kind": "cages_taken", "seat": 0, "count": 1, "total": 3, "reason": "steal"},
        {"kind": "cages_taken", "seat": 0, "count": 6, "total": 9, "reason": "trader"},
        {"kind": "trader_visited", "seat": 0, "cost": 40, "crates": 0},
        {"kind": "trader_left"},
        {"kind": "cage_stolen", "seat": 0, "victim": 2},
        {"kind": "steal_nothing", "seat": 0},
        *[{"kind": "camp_improved", "seat": 1, "region": "aerie", "level": 5, "flipped": True, "cause": cause}
          for cause in ("dice", "pair", "camp_bonus", "monster_bonus", "misthrow", "immediate", "campaign")],
        {"kind": "purchases_done", "seat": 0, "unspent": 3},
        {"kind": "purchases_done", "seat": 0, "unspent": 0},
        {"kind": "display_refilled", "seat": 0, "cards": []},
        {"kind": "display_refilled", "seat": 0, "cards": [], "short": 0},
        {"kind": "display_refilled", "seat": 0, "cards": [], "short": 2},
        {"kind": "display_refilled", "seat": 0, "cards": [{"card": monster, "crest": 0}]},
        {"kind": "display_refilled", "seat": 0,
         "cards": [{"card": monster, "crest": 0}, {"card": trader, "crest": 0}]},
        {"kind": "display_refilled", "seat": 0,
         "cards": [{"card": monster, "crest": 0}, {"card": trader, "crest": None}]},
        {"kind": "card_revealed", "card": monster, "display": 9, "deck": 4},
        {"kind": "deck_used_up"},
        {"kind": "improvements_declined", "count": 2},
        {"kind": "turn_started", "seat": 1, "round": 4},
        {"kind": "crested_cards_caged", "counts": [2, 0, 1]},
        {"kind": "game_ended", "scores": [30, 28, 30], "winners": [0, 2], "camp_levels": [12, 10, 12]},
        {"kind": "game_ended", "scores": [30, 28, 25], "winners": [0], "camp_levels": [12, 10, 12]},
        {"kind": "expedition_won", "expedition": 3},
        {"kind": "expedition_lost", "expedition": 3, "reason": "13 cards in the display"},
        {"kind": "expedition_lost", "expedition": 3, "reason": "no card left in the draw deck to reveal"},
    ]
    sentences = [describe(state, event, language="de") for event in events]
    for sentence in sentences:
        german(sentence)
    english = [describe(state, event) for event in events]
    assert len(set(sentences)) == len(set(english))  # every sentence worded, none falls back to the same text
    assert read(sentences[1]) == "Anke jagt vom Lager Zauberwald aus (Stufe 3 von 8) mit 4 Würfeln."
    assert read(sentences[3]) == "Anke legt eine 5 beiseite (beiseitegelegt insgesamt 5)."
    assert read(sentences[10]) == "Anke kauft 2 Käfige für 20."
    assert read(sentences[11]) == "Anke hat jetzt 3 Käfige."
    assert read(sentences[13]) == "Anke nimmt einen Käfig vom Reservestapel."
    assert read(sentences[9]) == ("Anke fängt Vertikalwespe für 7 mit 1 Kiste; das Wappen von Bernd geht zurück.")
    assert read(describe(state, events[9])) == \
        "Anke captures Vertical Wasp for 7 using 1 crate; Bernd's crest goes home."
    assert read(sentences[-4]) == "Die Jagd ist vorbei: Anke 30 SP, Bernd 28 SP, Clara 25 SP. Anke gewinnt!"
    assert read(sentences[-1]) == "Expedition 3 verloren: keine Karte mehr im Nachziehstapel zum Aufdecken."


def test_turn_lines_buttons_and_mine_in_german() -> None:
    state = standard(2)
    state["players"][0]["name"], state["players"][1]["name"] = "Anke", "Bernd"
    assert read(GAME.turn_text(state, "de")) == "Anke: Wähle ein Lager (Horst, Tiefen oder Zauberwald)"
    assert read(GAME.turn_text(state, "en")) == "Anke: pick a camp (aerie, depths or forest)"
    labels = [q.label for q in GAME.quick_actions(state, 0, "de")]
    assert labels[0] == "Horst: gelb + 2 schwarz"
    state, _ = hunt(state, "depths", [("camp", dice(2, 2, 5, region="depths"))])
    assert read(GAME.turn_text(state, "de")) == "Anke: Lege eine Zahl beiseite (2, 5)"
    assert [q.label for q in GAME.quick_actions(state, 0, "de")] == [
        "2 ×2 beiseitelegen, 1 würfeln", "2 ×2 beiseitelegen, bei 4 aufhören", "5 beiseitelegen, 2 würfeln",
        "5 beiseitelegen, bei 5 aufhören"]
    mine = read(GAME.private_text(state, 0, "de"))
    german(mine)
    assert "Deine Käfige: noch keine." in mine
    assert mine.startswith("**Anke** — Lagerset I\nPunkte bisher: 0 SP (0 aus Monstern, 0 aus Käfigen); 9 Wappen")


def test_rules_text_for_every_mode_in_german() -> None:
    for mode in GAME.modes:
        text = GAME.rules_text(mode.key, "de")
        german(text)
        assert text.startswith("**Monster Expedition** — fordere dein Würfelglück heraus")
        assert GAME.rules_text(mode.key, "en").startswith("**Monster Expedition** — push your luck")
    solo = GAME.rules_text("solo", "de")
    assert "8. Der Handel mit dem Händler" not in solo and "Expeditionen:" in solo
    assert "SP im Käfig" in GAME.rules_text("standard", "de")  # the rulings, too


def test_refusals_in_german_and_english() -> None:
    state = standard(2)
    set_display(state, ["kadaverkrabbe"])
    state, _ = hunt(state, "aerie", [("camp", dice(10, 3, 4, region="aerie"))])
    with pytest.raises(RuleError) as error:
        act(state, {"type": "bank", "value": 6})
    assert error.value.text("de") == "Kein Würfel zeigt 6; lege eine dieser Zahlen beiseite: 3, 4, 10."
    assert str(error.value) == "No die shows 6; bank one of: 3, 4, 10."
    with pytest.raises(RuleError) as error:
        act(state, {"type": "stop"})
    assert error.value.text("de") == ("Du kannst jetzt nicht aufhören: lege eine der gewürfelten Zahlen beiseite "
                                      "(3, 4, 10).")
    state, _ = act(state, {"type": "bank", "value": 10, "then": "stop"})
    with pytest.raises(RuleError) as error:
        act(state, {"type": "capture", "card": "Kadaverkrabbe"})
    assert error.value.text("de").startswith("Das kannst du nicht fangen: Kadaverkrabbe lebt in der Region Tiefen")
    assert "Carrion Crab lives in the Depths" in str(error.value)
    with pytest.raises(RuleError) as error:
        act(state, {"type": "cage", "count": 2})
    assert error.value.text("de") == "2 Käfige kosten 20 und du hast noch 10: Du kannst höchstens 1 kaufen."
    assert str(error.value) == "2 cages cost 20 and you have 10 left: you can buy at most 1."
    with pytest.raises(RuleError) as error:
        setup_state("solo", ["Anke"], Rng(1, 0), {"expedition": 4, "profiles": [{"won": [1]}]})
    assert error.value.text("de") == ("Expedition 4 ist noch gesperrt: Gewinne zuerst Expedition 2 (die nächste "
                                      "offene ist 2).")


def test_campaign_and_progress_in_german() -> None:
    text = campaign_text({"won": [1, 2], "failed_attempts": {"3": 2}}, language="de")
    german(text)
    assert text.startswith("Solinsula-Kampagne: 2 von 10 Expeditionen gewonnen.\n1. Halte die Monster in Schach "
                           "[gewonnen]")
    assert "[als Nächstes] - 2 gescheiterte Versuche, 2 Lagerverbesserungen vor dem nächsten Versuch" in text
    assert GAME.progress_text({"won": [1]}, "de") == "Solinsula-Kampagne: 1 von 10 Expeditionen gewonnen"
    assert GAME.chance_text([{"kind": "dice_rolled"}], "de") == "ein Würfel wurde geworfen"


def test_ability_texts_are_bilingual_data_and_a_missing_one_is_named(tmp_path: object) -> None:
    assert CAT.abilities["bonus"].board_text("de", 7) == "Bonuswert 7"
    assert CAT.abilities["misthrow"].board_text("en") == "Misthrow: +1 camp"
    import shutil
    from pathlib import Path

    from bot.core.datafiles import DataError, data_dir

    folder = Path(str(tmp_path)) / "data"
    shutil.copytree(data_dir("monster-expedition"), folder)
    path = folder / "abilities.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('text.de = "Fehlwurf-Verbesserung"\n', ""),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"abilities.toml: ability #1 \(misthrow\), field 'text.de'"):
        load_catalog(folder)


def _board_words(view: JSON) -> list[str]:
    with kit.recording() as drawn:
        render_board("monster-expedition", view)
        render_detail("monster-expedition", view)
    return [item.text for item in drawn]


@pytest.mark.parametrize(("mode", "players", "seed", "expedition"), [GAMES[0], GAMES[2], GAMES[4], GAMES[12]])
def test_the_board_and_its_alt_text_read_in_german(mode: str, players: int, seed: int,
                                                   expedition: int | None) -> None:
    steps = played(mode, players, seed, expedition)
    for state, _ in [*steps[::max(1, len(steps) // 6)], steps[-1]]:
        view = {**GAME.view(state, None), "language": "de"}
        words = " ".join(_board_words(view))
        german(words)
        german(alt_text("monster-expedition", view))
    english = " ".join(_board_words(GAME.view(steps[-1][0], None)))
    assert "VP" in english and "SP" not in english.split()


def test_every_monster_message_has_german_text() -> None:
    ids = sorted(i for i in message_ids("en") if i.startswith("monster."))
    assert len(ids) > 250
    same = {i for i in ids if texts(i, "de") == texts(i, "en")}
    # the few that read alike: numbers and signs, Set/Standard/Expedition titles, the letter R and W
    assert same <= {"monster.dice.many", "monster.board.expedition_title", "monster.board.reserve",
                    "monster.letter.red", "monster.letter.white", "monster.mode.standard",
                    "monster.autocomplete.crates", "monster.campaign.failed", "monster.board.trader_top"}, same
    assert LANGUAGES == ("en", "de")


def test_the_computer_hunters_reasons_are_worded_in_every_language() -> None:
    """A hint's reason is English where a plain string is read and German for a German reader."""
    from bot.core.bots import bot_view
    from bot.games.monster_expedition.rules.bots import BOT

    steps = played("standard", 2, 1)
    seen = set()
    for state, _ in steps[:80]:
        if state["over"]:
            break
        seat = state["active"]
        decision = BOT.heuristic(GAME, bot_view(GAME, state, seat), seat, random.Random(1))
        reason = decision.reason
        german(reason("de"))  # type: ignore[operator]
        assert reason == reason("en") and not english_left(reason("de"), allowed=ALLOWED)  # type: ignore[operator]
        seen.add(decision.action["type"])
    assert {"camp", "bank"} <= seen
    view = {"tray": {"rolled": [{"value": 8}, {"value": 8}, {"value": 3}]}}
    from bot.games.monster_expedition.rules.bots import _reason

    assert _reason(view, {"type": "bank", "value": 8})("de") == (
        "Lege alle 8 beiseite: 2 Würfel zeigen die 8 und bringen 16 für die Jagd, am meisten von allen gewürfelten "
        "Zahlen.")


@pytest.mark.parametrize(("mode", "players", "seed", "expedition"), [("solo", 1, 9, 9), ("standard", 4, 3, None)])
def test_every_public_board_of_a_game_fits_in_both_languages(mode: str, players: int, seed: int,
                                                             expedition: int | None) -> None:
    """Every position, not a sample: the hunt band with a crate price and lost dice, the last round's deck line
    beside the legend, an affordable trader's tick (each once ran into a neighbour or off the board)."""
    import io

    from PIL import Image

    from tests.test_render_layout import problems

    found = []
    for number, (state, _) in enumerate(played(mode, players, seed, expedition)):
        for language in LANGUAGES:
            view = {**GAME.view(state, None), "language": language}
            with kit.recording() as drawn:
                png = render_board("monster-expedition", view)
            with Image.open(io.BytesIO(png)) as image:
                found += [f"{language} position {number}: {p}" for p in problems(drawn, image.size)]
    assert not found, "\n".join(found[:20])
