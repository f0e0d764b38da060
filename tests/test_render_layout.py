"""No two texts or tokens on a board run into each other, and nothing is drawn off the canvas: every game and mode,
public and detail boards, over many positions of seeded random matches (the rendering kit records the box of every
text and token it draws)."""

from __future__ import annotations

import copy
import functools
import io
import itertools
from collections.abc import Callable

import pytest
from PIL import Image

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, find_game
from rendering import kit, render_board, render_detail
from tests.test_render_boards import random_game

CASES = [("the-expedition", "standard", 2), ("the-expedition", "standard", 3), ("the-expedition", "abstract", 2),
         ("the-expedition", "abstract", 3), ("the-expedition", "solo", 1), ("the-expedition", "solo-hard", 1),
         ("monster-expedition", "standard", 2), ("monster-expedition", "standard", 3),
         ("monster-expedition", "standard", 4), ("monster-expedition", "solo", 1), ("expeditions", "standard", 1),
         ("expeditions", "standard", 2), ("expeditions", "standard", 3), ("expeditions", "standard", 4),
         ("expeditions", "standard", 5)]
NAMES = ["Whispering Falls Fan", "Bo", "Corrupted Heartbreaker", "Flint the Navigator", "Ziggy"]
POSITIONS = 12
"""Positions per match: spread evenly from the first board to the final one."""
SLACK = 1.0
"""Anti-aliased edges may touch: boxes must overlap by more than this many px both ways to count."""


def positions(game_key: str, mode: str, players: int, seed: int) -> list[JSON]:
    """`POSITIONS` states spread evenly over one seeded random match, first and final included (a fresh copy each
    call: the match is played once per process, several tests and files look at it)."""
    return copy.deepcopy(list(_positions(game_key, mode, players, seed)))


@functools.cache
def _positions(game_key: str, mode: str, players: int, seed: int) -> tuple[JSON, ...]:
    return spread(random_game(game_key, mode, NAMES[:players], seed))


def spread(states: list[JSON]) -> tuple[JSON, ...]:
    picks = sorted({round(i * (len(states) - 1) / (POSITIONS - 1)) for i in range(POSITIONS)})
    return tuple(states[i] for i in picks)


def overlap(a: kit.Box, b: kit.Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[1], b[1]) > SLACK


def problems(drawn: kit.Recording, size: tuple[int, int]) -> list[str]:
    """Every text or mark off the canvas, every two texts, two marks or a text and a mark that overlap (a token's
    own letter is its label and sits on it)."""
    width, height = size
    found = []
    texts = [t for t in drawn if t.role != "label"]
    for item in [*texts, *drawn.marks]:
        left, top, right, bottom = item.box
        if left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK:
            found.append(f"off the canvas: {item}")
    for a, b in itertools.combinations(texts, 2):
        if overlap(a.box, b.box):
            found.append(f"texts overlap: {a.text!r} {a.box} and {b.text!r} {b.box}")
    for a, b in itertools.combinations(drawn.marks, 2):
        if overlap(a.box, b.box):
            found.append(f"marks overlap: {a} and {b}")
    for text in texts:
        for item in drawn.marks:
            if overlap(text.box, item.box):
                found.append(f"text under a {item.kind}: {text.text!r} {text.box} and {item.box}")
    return found


def checked(render: object, game_key: str, view: JSON) -> list[str]:
    with kit.recording() as drawn:
        png = render(game_key, view)  # type: ignore[operator]
    with Image.open(io.BytesIO(png)) as image:
        size = image.size
    return problems(drawn, size)


BOTH_LANGUAGES = ("monster-expedition", "the-expedition")
"""The games whose English and German boards the tests `test_*_fits_in_both_languages_*` below check with this same
overlap check (and more): the plain check here runs on the other games only, not a second time on the same boards
(a view without "language" is drawn in English, like one with "en")."""


@pytest.mark.parametrize(("game_key", "mode", "players"), [case for case in CASES if case[0] not in BOTH_LANGUAGES])
def test_nothing_overlaps_or_runs_off_the_board(game_key: str, mode: str, players: int) -> None:
    game = find_game(game_key)
    found: list[str] = []
    for seed in (3, 11):
        for number, state in enumerate(positions(game_key, mode, players, seed)):
            view = game.view(state, None)
            for kind, render in (("public", render_board), ("detail", render_detail)):
                found += [f"seed {seed} position {number} {kind}: {p}" for p in checked(render, game_key, view)]
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} in all)"


def test_the_checker_sees_an_overlap_and_a_text_off_the_board() -> None:
    """The check itself: a token over a label and a text past the right edge are both reported."""
    image, draw = kit.new_canvas(100, 200)
    with kit.recording() as drawn:
        draw.text((10, 10), "c2", font=kit.font(kit.SMALL), fill=kit.INK)
        kit.draw_token(draw, (18, 20), 12, kit.player_style(0))
        draw.text((190, 60), "far", font=kit.font(kit.SMALL), fill=kit.INK)
    found = problems(drawn, image.size)
    assert any(p.startswith("text under a token: 'c2'") for p in found)
    assert any("off the canvas" in p and "'far'" in p for p in found)
    assert len(found) == 2


MONSTER_CASES = [case for case in CASES if case[0] == "monster-expedition"]


@pytest.mark.parametrize(("game_key", "mode", "players"), MONSTER_CASES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_monster_expedition_fits_in_both_languages_with_whole_names(game_key: str, mode: str, players: int,
                                                                    language: str) -> None:
    """Issue 21: Monster Expedition's boards at a German table (view["language"] "de") and an English one: nothing
    overlaps or runs off, every monster's name on a card is whole (hyphenated by the language's patterns at most,
    never cut), and a German board and its alt text hold no English word."""
    from bot.games.monster_expedition.drawing import alt_text
    from tests.language import english_left

    game = find_game(game_key)
    allowed = frozenset(word for name in NAMES[:players] for word in name.split()) | {"Monster", "Expedition"}
    found: list[str] = []
    for seed in (3, 11):
        for number, state in enumerate(positions(game_key, mode, players, seed)):
            view = {**game.view(state, None), "language": language}
            for kind, render in (("public", render_board), ("detail", render_detail)):
                with kit.recording() as drawn:
                    png = render(game_key, view)
                with Image.open(io.BytesIO(png)) as image:
                    found += [f"seed {seed} position {number} {kind}: {p}" for p in problems(drawn, image.size)]
                found += [f"seed {seed} position {number} {kind}: cut {t.text!r}" for t in drawn
                          if t.role in ("name", "card") and "…" in t.text]
                if kind == "public" and not view["over"]:
                    cards = "".join(t.text for t in drawn if t.role == "card").replace("-", "").replace(" ", "")
                    for card in view["display"][:9]:
                        name = card["names"][language].replace("-", "").replace(" ", "")
                        if card.get("kind") != "trader" and name not in cards:
                            found.append(f"seed {seed} position {number}: {card['names'][language]!r} not whole")
                words = " ".join(t.text for t in drawn)
                left = english_left(words, allowed=allowed) if language == "de" else []
                found += [f"seed {seed} position {number} {kind}: English {left}"] if left else []
            described = alt_text(view)
            if language == "de" and (left := english_left(described, allowed=allowed)):
                found.append(f"seed {seed} position {number} alt text: English {left} in {described!r}")
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} in all)"


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_monster_card_fits_in_both_languages(language: str) -> None:
    """Every one of the 60 cards on both boards, crested or not: no name runs under the symbiosis badge or the crest
    (the German "Echoseeschlange" ran under the badge of the detail board's card) and every name is whole."""
    from bot.games.monster_expedition.rules.catalog import catalog
    from tests.games.monster_expedition.helpers import set_display, standard

    game = find_game("monster-expedition")
    ids = [card.id for card in catalog().cards.values() if not card.is_trader]
    found: list[str] = []
    for start in range(0, len(ids), 9):
        state = standard(2)
        set_display(state, ids[start:start + 9], crests={card: start % 2 for card in ids[start:start + 9:2]})
        view = {**game.view(state, None), "language": language}
        for kind, render in (("public", render_board), ("detail", render_detail)):
            found += [f"{kind}: {p}" for p in checked(render, "monster-expedition", view)]
        with kit.recording() as drawn:
            render_board("monster-expedition", view)
        cards = "".join(t.text for t in drawn if t.role == "card").replace("-", "").replace(" ", "")
        found += [f"{card['names'][language]!r} not whole" for card in view["display"]
                  if card.get("kind") != "trader"
                  and card["names"][language].replace("-", "").replace(" ", "") not in cards]
    assert not found, "\n".join(found)


CELL = 8
"""The grid, in px, on which the empty-area check marks what is drawn."""
EMPTY_SHARE = 1 / 3


def largest_empty_share(drawn: kit.Recording, size: tuple[int, int]) -> float:
    """The largest rectangle of the canvas that no text and no piece (token, die, card, body...) touches, as a
    share of the whole canvas (measured on an 8 px grid: the largest rectangle of free cells)."""
    width, height = size
    columns, rows = -(-width // CELL), -(-height // CELL)
    filled = [[False] * columns for _ in range(rows)]
    for item in [*drawn, *drawn.marks]:
        left, top, right, bottom = item.box
        for row in range(max(0, int(top // CELL)), min(rows, -(-int(bottom) // CELL))):
            for column in range(max(0, int(left // CELL)), min(columns, -(-int(right) // CELL))):
                filled[row][column] = True
    heights, best = [0] * columns, 0
    for row in range(rows):
        heights = [0 if filled[row][c] else heights[c] + 1 for c in range(columns)]
        stack: list[tuple[int, int]] = []  # (start column, height): the largest rectangle under a histogram
        for column, h in enumerate([*heights, 0]):
            start = column
            while stack and stack[-1][1] >= h:
                start, top_h = stack.pop()
                best = max(best, top_h * (column - start))
            stack.append((start, h))
    return best / (rows * columns)


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
def test_no_public_board_leaves_a_third_of_itself_empty(game_key: str, mode: str, players: int) -> None:
    """Issue 22: a third of Monster Expedition's board was empty, and the final boards of Expeditions with three or
    more players used half of it. Every public board of a match (first to final) uses its canvas."""
    game = find_game(game_key)
    found = []
    for seed in (3, 11):
        for number, state in enumerate(positions(game_key, mode, players, seed)):
            with kit.recording() as drawn:
                png = render_board(game_key, game.view(state, None))
            with Image.open(io.BytesIO(png)) as image:
                share = largest_empty_share(drawn, image.size)
            if share >= EMPTY_SHARE:
                found.append(f"seed {seed} position {number}: {share:.0%} of the board empty in one block")
    assert not found, "\n".join(found)


def test_the_empty_check_sees_an_empty_half() -> None:
    drawn = kit.Recording()
    drawn.marks.append(kit.Mark("token", (0, 0, 800, 300)))
    assert 0.5 <= largest_empty_share(drawn, (800, 640)) <= 0.55
    drawn.marks.append(kit.Mark("token", (0, 300, 800, 640)))
    assert largest_empty_share(drawn, (800, 640)) == 0


RANKED = [("the-expedition", "standard", 3), ("the-expedition", "abstract", 3), ("monster-expedition", "standard", 3),
          ("monster-expedition", "standard", 4), ("expeditions", "standard", 3), ("expeditions", "standard", 5)]


@pytest.mark.parametrize(("game_key", "mode", "players"), RANKED)
def test_final_boards_rank_the_players_winner_first(game_key: str, mode: str, players: int) -> None:
    """The final public board lists every player once, winners first, then by score (the Expedition's listed the
    winner last with three seats), and nothing runs off it (checked above)."""
    game = find_game(game_key)
    for seed in (3, 11):
        state = positions(game_key, mode, players, seed)[-1]
        outcome = game.outcome(state)
        assert outcome is not None
        with kit.recording() as drawn:
            render_board(game_key, game.view(state, None))
        words = " ".join(t.text for t in drawn if t.role == "name").replace("-", "").split()
        firsts = [NAMES[seat].split()[0] for seat in range(players)]
        order = sorted(range(players), key=lambda seat: words.index(firsts[seat]))
        assert set(order[:len(outcome.winners)]) == set(outcome.winners), (seed, order, outcome)
        scores = [outcome.scores[seat] for seat in order]
        assert scores[len(outcome.winners):] == sorted(scores[len(outcome.winners):], reverse=True), (seed, order)


# --- German boards (issue 21): the same checks with the longer German words --------------------------------------

GERMAN_CASES = [case for case in CASES if case[0] == "expeditions"]
"""The games whose boards speak German (each game's German helper adds its own)."""


def positions_in(language: str, game_key: str, mode: str, players: int, seed: int) -> list[JSON]:
    """`positions` of a game played at a table of `language` (its log and names are worded in it)."""
    states = random_game(game_key, mode, list(NAMES[:players]), seed, language)
    return list(spread(states))


@pytest.mark.parametrize(("game_key", "mode", "players"), GERMAN_CASES)
def test_german_boards_fit_nothing_overlaps_or_is_cut(game_key: str, mode: str, players: int) -> None:
    """German words are longer: every board still fits, no text overlaps, and the names on the public board are
    whole (broken only where the German patterns hyphenate, never cut with "…")."""
    game = find_game(game_key)
    found: list[str] = []
    for seed in (3, 11):
        for number, state in enumerate(positions_in("de", game_key, mode, players, seed)):
            view = {**game.view(state, None), "language": "de"}
            for kind, render in (("public", render_board), ("detail", render_detail)):
                found += [f"seed {seed} position {number} {kind}: {p}" for p in checked(render, game_key, view)]
            with kit.recording() as drawn:
                render_board(game_key, view)
            found += [f"seed {seed} position {number}: cut {t.text!r}" for t in drawn
                      if t.role in ("name", "card") and "…" in t.text]
            if view.get("outcome") and players > 2:  # the results take the whole board: no map
                continue
            tiles = " ".join(t.text for t in drawn if t.role == "card")
            joined = tiles.replace("- ", "").replace("-\n", "")
            for space in view["map"]["spaces"]:
                name = space.get("name") or (space.get("card") or {}).get("name")
                if name and not all(word in joined for word in name.split()):
                    found.append(f"seed {seed} position {number}: {name!r} not whole in {tiles!r}")


EXPEDITION_CASES = [case for case in CASES if case[0] == "the-expedition"]


@pytest.mark.parametrize(("game_key", "mode", "players"), EXPEDITION_CASES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_expedition_fits_in_both_languages_with_legible_whole_names(game_key: str, mode: str, players: int,
                                                                       language: str) -> None:
    """Issue 21: The Expedition's boards at a German table (view["language"] "de") and an English one: nothing
    overlaps or runs off, every location's name is whole and at least the headline size (12 points on a phone),
    and a German board holds no English word."""
    from bot.games.the_expedition.drawing import alt_text
    from tests.language import english_left

    game = find_game(game_key)
    found: list[str] = []
    for seed in (3, 11):
        for number, state in enumerate(positions(game_key, mode, players, seed)):
            view = {**game.view(state, None), "language": language}
            names = {cell["location"]["names"][language] for cell in view["grid"]}
            for kind, render in (("public", render_board), ("detail", render_detail)):
                with kit.recording() as drawn:
                    png = render(game_key, view)
                with Image.open(io.BytesIO(png)) as image:
                    found += [f"seed {seed} position {number} {kind}: {p}" for p in problems(drawn, image.size)]
                if kind == "public":
                    shown = {t.text: t.size for t in drawn if t.role == "card"}
                    if set(shown) != names or min(shown.values()) < kit.BIG:
                        found.append(f"seed {seed} position {number}: location names {shown} (wanted {names})")
                words = " ".join(t.text for t in drawn).replace("The Expedition", "")
                left = english_left(words, allowed=frozenset(NAMES[:players])) if language == "de" else []
                found += [f"seed {seed} position {number} {kind}: English {left}"] if left else []
            described = alt_text(view).replace("The Expedition", "")
            if language == "de" and (left := english_left(described, allowed=frozenset(NAMES[:players]))):
                found.append(f"seed {seed} position {number} alt text: English {left} in {described!r}")
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} in all)"


# --- Legible at a phone's 400 px (issue 33, item 9) ---------------------------------------------------------------

@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_text_on_every_public_board_meets_the_phone_minimum(game_key: str, mode: str, players: int,
                                                                 language: str) -> None:
    """RENDERING.md: shown 400 px wide, nothing is under 9 px and the headline, names and scores are at least 12 px,
    on every public board of a match, its final board included (Monster Expedition's final card lists were once
    about 5 px there), at an English and a German table, every game, mode and player count."""
    game = find_game(game_key)
    found: list[str] = []
    for seed in (3, 11):
        for number, state in enumerate(positions_in(language, game_key, mode, players, seed)):
            view = {**game.view(state, None), "language": language}
            with kit.recording() as drawn:
                png = render_board(game_key, view)
            with Image.open(io.BytesIO(png)) as image:
                small, big = kit.min_sizes(image.width)
            found += [f"seed {seed} position {number}: {t.role} {t.text!r} at {t.size} px (under {small})"
                      for t in drawn if t.size < small]
            found += [f"seed {seed} position {number}: {t.role} {t.text!r} at {t.size} px (under {big})"
                      for t in drawn if t.role in kit.BIG_ROLES and t.size < big]
            if not drawn:
                found.append(f"seed {seed} position {number}: nothing recorded")
    assert not found, "\n".join(found[:30]) + f"\n({len(found)} in all)"


def too_small(drawn: kit.Recording, width: int) -> list[str]:
    """Every recorded text under the phone minimum for an image `width` px wide (RENDERING.md)."""
    small, big = kit.min_sizes(width)
    return [f"{t.role} {t.text!r} at {t.size} px (under {big if t.role in kit.BIG_ROLES else small})"
            for t in drawn if t.size < (big if t.role in kit.BIG_ROLES else small)]


def recorded(draw: Callable[[], bytes]) -> tuple[kit.Recording, int]:
    with kit.recording() as drawn:
        png = draw()
    with Image.open(io.BytesIO(png)) as image:
        return drawn, image.width


PICTURES = [(game_key, mode) for game_key, modes in (("the-expedition", ("standard", "abstract", "solo")),
                                                      ("monster-expedition", ("standard", "solo")),
                                                      ("expeditions", ("standard",))) for mode in modes]


@pytest.mark.parametrize(("game_key", "mode"), PICTURES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_labelled_rules_picture_meets_the_phone_minimum(game_key: str, mode: str, language: str) -> None:
    """/game rules' labelled picture: its board (recorded too, not only the legend drawn under it), the numbered
    callouts and the legend, every text at least the phone minimum."""
    from bot.games import pictures
    from rendering.glossary.picture import labelled

    drawn, width = recorded(lambda: labelled(game_key, pictures.picture_view(game_key, mode, language), language))
    assert {"headline", "label"} <= {t.role for t in drawn}, "the board under the legend was not recorded"
    assert not too_small(drawn, width), "\n".join(too_small(drawn, width))


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_leaderboard_image_meets_the_phone_minimum(language: str) -> None:
    from rendering import leaderboard

    rows = [{"place": place, "name": name, "rating": 30.0 - place, "games": place, "asker": place == 12}
            for place, name in zip([*range(1, 11), 12], itertools.cycle(NAMES), strict=False)]
    for view_rows in (rows, []):
        view = {"title": "Monster Expedition", "subtitle": "Server", "rows": view_rows, "language": language,
                "note": "Games with a computer player are not rated."}
        drawn, width = recorded(lambda: leaderboard.render(view))  # noqa: B023  (drawn at once)
        assert drawn and not too_small(drawn, width), "\n".join(too_small(drawn, width))


@pytest.mark.parametrize(("game_key", "mode", "players"), [("the-expedition", "standard", 3),
                                                           ("monster-expedition", "standard", 2),
                                                           ("expeditions", "standard", 2)])
def test_a_footer_is_recorded_and_meets_the_phone_minimum_on_public_and_detail_boards(game_key: str, mode: str,
                                                                                       players: int) -> None:
    """The chosen seed's line under a final board (a replay's frame, a finished game's board and its detail board):
    the recorder sees it like every other text, at least the phone minimum for the image's width (1280 px wide: 29
    px, not the 26 it was)."""
    game = find_game(game_key)
    view = {**game.view(positions(game_key, mode, players, 3)[-1], None), "language": "de"}
    for render in (render_board, render_detail):
        drawn, width = recorded(lambda: kit.add_footer(render(game_key, view),  # noqa: B023
                                                       "Mit dem gewählten Startwert 3 gespielt."))
        footers = [t for t in drawn if t.role == "footer"]
        assert [t.text for t in footers] == ["Mit dem gewählten Startwert 3 gespielt."]
        assert footers[0].box[1] > width / 2 and not too_small(footers, width), footers


@pytest.mark.parametrize(("mode", "players"), [("standard", 2), ("standard", 3), ("standard", 4), ("solo", 1)])
@pytest.mark.parametrize("language", ["en", "de"])
def test_monster_expedition_detail_card_lists_meet_the_phone_minimum(mode: str, players: int, language: str) -> None:
    """The detail board's lists of each player's monsters (name and points, or that there are none) were 13-22 px in
    a 1280 px image, 4-7 px on a phone: now at least 9 px there, in every position of a match, the final one
    included."""
    from bot.games.monster_expedition.drawing import localized
    from rendering.wording import translate

    game = find_game("monster-expedition")
    found, seen = [], 0
    for number, state in enumerate(positions_in(language, "monster-expedition", mode, players, 3)):
        view = {**game.view(state, None), "language": language}
        chips = {f"{m['name']} {m['vp']}" for p in localized(view)["players"] for m in p["monsters"]}
        chips.add(translate("monster.board.no_monsters", language))  # (an empty list says so, as large)
        drawn, width = recorded(lambda: render_detail("monster-expedition", view))  # noqa: B023
        listed = [t for t in drawn if t.text in chips]
        seen += len(listed)
        found += [f"position {number}: {problem}" for problem in too_small(listed, width)]
    assert seen and not found, "\n".join(found)


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_text_on_every_detail_board_is_legible_once_opened(game_key: str, mode: str, players: int,
                                                                  language: str) -> None:
    """A detail board is asked for and opened (tapped) to be read: shown 800 points wide (a phone held sideways,
    or the image zoomed to the screen), nothing is under 9 points and names and scores are at least 12, in every
    position of a match, both languages (Monster Expedition's card lists were 13 px in a 1280 px image: 8 points)."""
    game = find_game(game_key)
    found: list[str] = []
    for number, state in enumerate(positions_in(language, game_key, mode, players, 3)):
        view = {**game.view(state, None), "language": language}
        drawn, width = recorded(lambda: render_detail(game_key, view))  # noqa: B023  (drawn at once)
        small, big = kit.opened_min_sizes(width)
        least = {t: big if t.role in kit.BIG_ROLES else small for t in drawn}
        found += [f"position {number}: {t.role} {t.text!r} at {t.size} px (under {least[t]})"
                  for t in drawn if t.size < least[t]]
        if not drawn:
            found.append(f"position {number}: nothing recorded")
    assert not found, "\n".join(found[:30]) + f"\n({len(found)} in all)"
