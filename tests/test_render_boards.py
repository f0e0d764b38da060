"""Every game and mode's public board from real playouts (start, mid-game, final): one pixel size per match,
landscape, every text above the phone limits, names whole, the final board's breakdown and revealed cards, and
alt text without hidden information."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, Rng, find_game
from rendering import alt_text, kit, render_board, render_detail
from rendering.glyphs import drawable_view as drawable

CASES = [("the-expedition", "standard", 2), ("the-expedition", "standard", 3), ("the-expedition", "abstract", 3),
         ("the-expedition", "solo", 1), ("the-expedition", "solo-hard", 1), ("monster-expedition", "standard", 2),
         ("monster-expedition", "standard", 4), ("monster-expedition", "solo", 1), ("expeditions", "standard", 1),
         ("expeditions", "standard", 2), ("expeditions", "standard", 3), ("expeditions", "standard", 5)]
CUT = re.compile(r"\w…")
"""A word cut short (the games' own " …" after whole sentences, meaning "and more", is not a cut)."""
NAMES = ["Whispering Falls Fan", "Bo", "Corrupted Heartbreaker", "Flint the Navigator", "Ziggy"]


def playout(game_key: str, mode: str, players: int, seed: int = 11) -> list[JSON]:
    """The start, mid-game and final states of one random playout."""
    states = random_game(game_key, mode, NAMES[:players], seed)
    assert find_game(game_key).outcome(states[-1]) is not None
    return [states[0], states[len(states) // 2], states[-1]]


def random_game(game_key: str, mode: str, names: list[str], seed: int, language: str | None = None) -> list[JSON]:
    """Every state of one seeded game of random legal moves, from the setup to the end (or 6000 moves), at a table
    of `language` when given (a game may word its log and names in it)."""
    game = find_game(game_key)
    options: JSON = {"profiles": [{}] * len(names)}
    if language is not None:
        options["language"] = language
    state = game.setup(mode, names, Rng(seed, 0), options)
    states = [state]
    chooser = Rng(seed, 10**6)
    step = 0
    while (waiting := game.to_act(state)) and step < 6000:
        step += 1
        state = game.apply(state, waiting[0], chooser.choice(game.legal_actions(state, waiting[0])),
                           Rng(seed, step)).state
        states.append(state)
    return states


def drawn(game_key: str, view: JSON) -> tuple[Image.Image, list[kit.DrawnText], bytes]:
    with kit.recording() as texts:
        png = render_board(game_key, view)
    image = Image.open(io.BytesIO(png))
    image.load()
    return image, list(texts), png


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_boards_fit_the_phone_for_a_whole_match(game_key: str, mode: str, players: int) -> None:
    game = find_game(game_key)
    sizes = set()
    for state in playout(game_key, mode, players):
        view = drawable(game.view(state, None))  # as the render worker gets it
        image, texts, png = drawn(game_key, view)
        sizes.add(image.size)
        width, height = image.size
        assert height <= width <= 2 * height
        assert len(png) <= 200_000
        small, big = kit.min_sizes(width)
        assert texts and min(t.size for t in texts) >= small
        assert all(t.size >= big for t in texts if t.role in kit.BIG_ROLES)
        assert not any(CUT.search(t.text) for t in texts)
        assert max(t.top + t.size for t in texts) <= height  # nothing runs off the bottom
        if game.outcome(state) is None:  # the headline says the whole turn (an aside in brackets may go)
            headline = _flat(" ".join(t.text for t in texts if t.role == "headline")).replace("-", "")
            turn = str(view["turn"])
            assert headline in {_flat(turn).replace("-", ""), _flat(turn.split(" (")[0]).replace("-", "")}
        drawn_names = " ".join(t.text for t in texts if t.role == "name")
        for name in NAMES[:players]:  # every player's name whole on the board (possibly over two lines)
            assert name.replace(" ", "") in drawn_names.replace(" ", "").replace("-", "")
        text = alt_text(game_key, view)
        assert 0 < len(text) <= 1000 and NAMES[0] in text
        with kit.recording() as detail_texts:
            detail = render_detail(game_key, view)
        assert detail[:8] == b"\x89PNG\r\n\x1a\n"
        cut = [t.text for t in detail_texts if CUT.search(t.text)]
        assert not cut  # the detail board shrinks names to fit, it never cuts them
    assert len(sizes) == 1


def _texts(game_key: str, view: JSON) -> str:
    return "\n".join(t.text for t in drawn(game_key, view)[1])


def _flat(text: str) -> str:
    return text.replace("\n", " ").replace("- ", "").replace(" ", "").replace("\u00a0", "")  # (no-break spaces too)


def test_the_expedition_final_board_shows_the_breakdown_and_the_unscored_cards() -> None:
    game = find_game("the-expedition")
    final = playout("the-expedition", "standard", 3)[-1]
    view = game.view(final, None)
    shown = _flat(_texts(game.key, view))
    for entry in view["participants"]:
        score = entry["score"]
        assert _flat(f"{score['locations']} from locations + {score['expeditions']} from expeditions") in shown
        named = all(_flat(f"{card['name']} {card['points']}") in shown for card in entry["unscored"])
        count = len(entry["unscored"])
        counted = _flat(f"unscored: {count} card{'s' if count != 1 else ''}") in shown
        assert named or counted  # three players' cards do not all fit the side column: counted, never cut
    with kit.recording() as drawn:  # and the detail board names them all
        render_detail(game.key, view)
    detail = _flat(" ".join(t.text for t in drawn))
    for entry in view["participants"]:
        for card in entry["unscored"]:
            assert _flat(card["name"]) in detail
    assert "held by gravity" not in shown
    mid = game.view(playout("the-expedition", "standard", 3)[1], None)
    assert all("unscored" not in entry for entry in mid["participants"])  # hands stay hidden before the end


def test_monster_expedition_final_board_counts_the_cages_face_up() -> None:
    game = find_game("monster-expedition")
    states = playout("monster-expedition", "standard", 2)
    view = game.view(states[-1], None)
    shown = _flat(_texts(game.key, view))
    assert any(p["cages_revealed"] for p in view["players"])
    for player, total in zip(view["players"], view["result"]["scores"], strict=True):
        assert _flat(f"{total} VP") in shown
        assert _flat(f"{player['monster_points']} from monsters + {player['cage_points']} from cages") in shown
        for cage in player["cages_revealed"]:
            assert _flat(cage["name"]) in shown
    assert "hunt: banked" not in _texts(game.key, view) and "No hunt yet" not in _texts(game.key, view)  # no tray
    mid = game.view(states[1], None)
    assert all("cages_revealed" not in p for p in mid["players"])
    for player in mid["players"]:  # before the end the alt text gives cage counts, never the cards
        count = player["cages"]
        assert f"{count} cage{'' if count == 1 else 's'}" in alt_text(game.key, mid)
    caged = {c for seat in range(2) for c in states[1]["players"][seat]["cages"]}
    assert not any(game_card in alt_text(game.key, mid) for game_card in caged)


def test_expeditions_final_board_shows_money_by_source_and_stars_by_glory_category() -> None:
    game = find_game("expeditions")
    view = game.view(playout("expeditions", "standard", 3)[-1], None)
    shown = _flat(_texts(game.key, view))
    for player in view["players"]:
        parts = player["score_parts"]
        assert _flat(f"coins ${parts['coins']} + upgrades ${parts['upgrades']} + corruption ${parts['corruption']} + "
                     f"stars ${parts['stars']} · glory {player['tiebreak']}") in shown
    assert _flat("the glory total breaks ties") in shown
    with kit.recording() as drawn:  # the glory board: every star placed, as its player's piece on its category
        render_board(game.key, view)
    assert sum(1 for m in drawn.marks if m.kind == "token") >= sum(len(g["stars"]) for g in view["glory"])
    for glory in view["glory"]:
        assert _flat(glory["title"]) in shown


def test_alt_text_keeps_the_expeditions_hands_out_of_the_expedition() -> None:
    game = find_game("the-expedition")
    state = playout("the-expedition", "standard", 3)[1]
    text = alt_text(game.key, game.view(state, None))
    from bot.games.the_expedition.rules.catalog import load_catalog

    catalog = load_catalog()
    names = {catalog.expedition(card).name for p in state["players"] for card in p["hand"]}
    assert names and not any(name in text for name in names)


def test_kit_ellipsize_and_lines_never_lose_characters() -> None:
    draw = kit.Draw(Image.new("RGB", (10, 10)))
    face = kit.font(kit.SMALL)
    cut = kit.ellipsize(draw, "Nachtschattenluchs and friends", 120, face)
    assert cut.endswith("…") and kit.text_width(draw, cut, face) <= 120
    assert kit.text_width(draw, cut[:-1] + cut[len(cut) - 1:] , face) <= 120
    longer = "Nachtschattenluchs and friends"[: len(cut)] + "…"
    assert kit.text_width(draw, longer, face) > 120  # the longest prefix that fits
    wrapped = kit.lines("Nachtschattenluchs is long", 80, kit.SMALL)
    assert "".join(wrapped).replace("-", "").replace(" ", "") == "Nachtschattenluchsislong"
    assert all(kit.measure(line, kit.SMALL) <= 80 for line in wrapped)


def test_sizes_are_recorded_only_inside_the_block() -> None:
    view: dict[str, Any] = find_game("expeditions").view(playout("expeditions", "standard", 1)[0], None)
    render_board("expeditions", view)
    with kit.recording() as texts:
        pass
    assert texts == []
