"""Boards speak the rulebooks' words, the same words as the messages and the alt text, and explain their symbols."""

from __future__ import annotations

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, find_game
from bot.games.monster_expedition.drawing import common as me
from bot.games.monster_expedition.drawing import public as me_public
from bot.games.monster_expedition.rules.text import camp_level as message_camp_level
from rendering import alt_text, kit, render_board, render_detail, typeset
from rendering.glyphs import drawable_view as drawable
from tests.reading import read
from tests.test_render_boards import playout
from tests.test_render_layout import positions


def drawn_texts(render: object, game_key: str, view: JSON) -> list[str]:
    with kit.recording() as drawn:
        render(game_key, view)  # type: ignore[operator]
    return [t.text.replace("\u00a0", " ") for t in drawn]  # (no-break spaces keep facts whole on a line)


def one_line(texts: list[str]) -> str:
    return " ".join(texts)


@pytest.mark.parametrize("level", range(1, 9))
def test_monster_expedition_camp_levels_read_as_the_messages_write_them(level: int) -> None:
    camp = {"level": level, "final": level == 8}
    assert me.camp_level(camp) == message_camp_level(level)
    assert me.camp_level({"level": 8, "final": True}) == "level 8 of 8 (final)"
    assert me.camp_level({"level": 3, "final": False}) == "level 3 of 8"


def test_monster_expedition_boards_name_camp_levels_and_points_one_way() -> None:
    game = find_game("monster-expedition")
    states = positions("monster-expedition", "standard", 3, seed=3)
    mid, final = game.view(states[len(states) // 2], None), game.view(states[-1], None)
    public = drawn_texts(render_board, game.key, mid)
    alt = alt_text(game.key, mid)
    assert alt.startswith("Monster Expedition, Standard. "), "the mode as the lobby names it, not its key"
    for player in mid["players"]:
        camps = player["camps"]
        line = (f"camp levels: Aerie {camps['aerie']['level']}, Depths {camps['depths']['level']}, "
                f"Forest {camps['forest']['level']}")
        for letter, region in (("A", "aerie"), ("D", "depths"), ("F", "forest")):  # a chip per camp
            assert f"{letter} {camps[region]['level']}" in public
        assert line in alt
    detail = drawn_texts(render_detail, game.key, mid)
    for player in mid["players"]:
        for camp in player["camps"].values():
            assert me.camp_level(camp) in detail  # "level 5 of 8" on the detail board's camp
    everything = one_line(public + detail) + alt
    for wrong in ("TOP", "/8", " cages)", "Atop", "Dtop", "Ftop", "1 cages", " cage 1", "Pow ", "Gui "):
        assert wrong not in everything
    final_detail = one_line(drawn_texts(render_detail, game.key, final))
    result = final["result"]
    for seat, player in enumerate(final["players"]):
        assert (f"{player['name']} {result['scores'][seat]} VP ({result['monster_points'][seat]} from monsters + "
                f"{result['cage_points'][seat]} from cages)") in final_detail.replace("\n", " ") or \
            f"{result['monster_points'][seat]} from monsters + {result['cage_points'][seat]} from cages" in \
            final_detail
    assert "monsters +" not in final_detail.replace("from monsters +", "")
    assert "Hunting from" not in final_detail and "Dice tray" not in final_detail  # no dice at the end


def test_monster_expedition_public_board_explains_its_letters_and_badges() -> None:
    game = find_game("monster-expedition")
    view = game.view(positions("monster-expedition", "standard", 2, seed=3)[3], None)
    texts = drawn_texts(render_board, game.key, view)
    assert "A Aerie, D Depths, F Forest, * all:" in texts
    for word in ("red", "purple", "white", "wild"):
        assert word in texts
    assert any(text.endswith(" VP · caged 1") or " VP · caged " in text for text in texts)
    trader = [c for c in view["display"] if c.get("kind") == "trader"]
    if trader:
        assert f"6 cages for {trader[0]['cost']}" in texts
        assert f"the Monster Trader (6 cages for {trader[0]['cost']})" in alt_text(game.key, view)


def test_monster_expedition_score_counts_one_cage_in_the_singular() -> None:
    game = find_game("monster-expedition")
    view = game.view(positions("monster-expedition", "standard", 2, seed=3)[3], None)
    view["players"][0]["cages"] = 1
    view["scores"][0]["text"] = f"{view['players'][0]['monster_points']} VP + 1 cage"
    texts = drawn_texts(render_board, game.key, view)
    assert f"{view['players'][0]['monster_points']} VP + 1 cage" in texts
    assert f"{view['players'][0]['name']}: {view['players'][0]['monster_points']} VP from monsters, 1 cage;" in \
        alt_text(game.key, view)


def test_monster_expedition_solo_end_says_why_and_what_next_once() -> None:
    game = find_game("monster-expedition")
    view = game.view(positions("monster-expedition", "solo", 1, seed=3)[-1], None)
    texts = drawn_texts(render_board, game.key, view)
    solo = view["solo"]
    outcome = "won" if solo["outcome"] == "won" else "lost"
    assert texts.count(f"Game over: Expedition {solo['expedition']} {outcome}") == 1
    reason = solo["reason"][:1].upper() + solo["reason"][1:].rstrip(".") + "."
    assert reason in one_line(texts)
    assert one_line(str(view["turn"]).split()) .replace(" ", "") in one_line(texts).replace(" ", "")
    assert sum(f"Expedition {solo['expedition']} {outcome}" in t for t in texts) == 1


def test_expeditions_public_board_explains_corruption_colours_and_letters() -> None:
    game = find_game("expeditions")
    view = game.view(positions("expeditions", "standard", 3, seed=3)[4], None)
    texts = drawn_texts(render_board, game.key, view)
    assert "corruption, paid with:" in texts
    for word in ("power", "guile", "both (the 20)"):
        assert word in texts
    for word in ("south", "central", "north", "· dark: face down · M map token"):  # the terrains and tiles
        assert word in texts
    for player in view["players"]:  # (wrapped between facts, never inside one)
        assert f"power {player['power']} · guile {player['guile']} · hand {len(player['hand'])}" in one_line(texts)


def test_monster_expedition_hunt_draws_the_dice_banked_rolled_and_lost() -> None:
    """The hunt is drawn as dice: a black die by its pips, a coloured die by its number (its faces go past 6),
    banked dice then their total, the rolled ones, and the ones a misthrow took."""
    game = find_game("monster-expedition")
    view = game.view(positions("monster-expedition", "standard", 2, seed=3)[3], None)
    black, yellow = {"value": 3, "colour": "black"}, {"value": 10, "colour": "yellow"}

    def hunt(**tray: object) -> tuple[list[str], int]:
        view["tray"].update(tray)
        with kit.recording() as drawn:
            render_board(game.key, view)
        return [t.text for t in drawn], sum(1 for m in drawn.marks if m.kind == "die")

    texts, dice = hunt(region="aerie", banked=[black, yellow], banked_total=13, rolled=[], remaining=None,
                       lost=[{"value": 6, "colour": "black"}])
    assert "Aerie hunt" in texts and "= 13" in texts and "lost" in texts and "10" in texts
    assert dice == 3
    texts, dice = hunt(banked=[], banked_total=0, rolled=[black, yellow, black], lost=[])
    assert "rolled, none banked yet:" in texts and "10" in texts and "3" not in texts  # pips, not a "3"
    assert dice == 3
    texts, dice = hunt(banked=[black], banked_total=3, rolled=[], remaining=3, hunting_value=3)
    assert "3 of 3 left to spend" in texts and dice == 1


def test_the_expedition_solo_board_counts_rounds_from_one_and_calls_setup_the_placement() -> None:
    game = find_game("the-expedition")
    states = positions("the-expedition", "solo", 1, seed=3)
    placing = next(state for state in states if state["round"] == 0)
    playing = next(state for state in states if state["round"] >= 1 and game.outcome(state) is None)
    rounds = game.view(placing, None)["rounds"]
    assert f"Placement, then {rounds} rounds" in drawn_texts(render_board, game.key, game.view(placing, None))
    shown = drawn_texts(render_board, game.key, game.view(playing, None))
    assert f"Round {playing['round']} of {rounds}" in shown and not any(t.startswith("Round 0") for t in shown)


def test_monster_expedition_final_results_rank_the_players_best_first() -> None:
    """The final panel listed the players in seat order while Expeditions ranks them: winner first, then by
    points, ties broken by the camps' levels as the rules break them."""
    from bot.games.monster_expedition.rules.effects import ranking

    game = find_game("monster-expedition")
    state = positions("monster-expedition", "standard", 3, seed=1)[-1]
    assert state["result"]["scores"] == [20, 33, 23] and state["result"]["winners"] == [1]
    view = drawable(game.view(state, None))  # as the render worker gets it
    names = [p["name"] for p in view["players"]]
    assert view["ranking"] == [1, 2, 0]
    with kit.recording() as drawn:
        render_board(game.key, view)
    assert [t.text for t in drawn if t.role == "name"] == [names[1], names[2], names[0]]
    detail = one_line(drawn_texts(render_detail, game.key, view))
    assert detail.index(f"{names[1]} 33 VP (") < detail.index(f"{names[2]} 23 VP (") < detail.index(
        f"{names[0]} 20 VP (")
    summary = read(game.outcome(state).summary)  # type: ignore[union-attr]
    assert summary.index(f"{names[1]} 33 VP") < summary.index(f"{names[2]} 23 VP") < summary.index(
        f"{names[0]} 20 VP")
    assert ranking({"scores": [10, 20, 10, 10], "winners": [1], "camp_levels": [5, 9, 7, 8]}) == [1, 3, 2, 0]
    assert ranking({"scores": [12, 12, 9], "winners": [0, 1], "camp_levels": [6, 6, 9]}) == [0, 1, 2]


@pytest.mark.parametrize(("name", "expected"), [
    ("Clockwork Owl", ("Clock-", "work Owl")),
    ("Whispering Falls", ("Whisper-", "ing Falls")),
    ("Dusty Crossroads", ("Dusty", "Cross-", "roads")),
    ("Broken Automaton", ("Broken", "Automa-", "ton")),
    ("Lumberjack", ("Lumber-", "jack")),
])
def test_a_card_name_wider_than_its_line_breaks_between_syllables(name: str, expected: tuple[str, ...]) -> None:
    """An Expeditions card in its map space has 80 px a line: a word too wide breaks where the dictionary
    hyphenates it, not after the last letter that fits ("Clockwor-k Owl", "Whisperi-ng Falls")."""
    assert kit.lines(name, 80, kit.SMALL, "semibold") == expected


def test_a_word_with_its_own_hyphen_breaks_there_without_another() -> None:
    assert kit.lines("down-right", 50, kit.SMALL) == ("down-", "right")


def test_a_fact_too_wide_for_its_line_breaks_at_its_spaces_not_inside_a_word() -> None:
    """A player's facts are kept whole on a line (no-break spaces), but one wider than the whole line broke inside a
    word: the German Expeditions panel read "alle 3 Aktio-" / "nen in diesem Zug". It breaks between words now,
    and the facts that fit stay whole."""
    text = kit.facts_line(["Kraft 10", "List 10", "Hand 2", "alle 3 Aktionen in diesem Zug"])
    width = kit.measure("Kraft 10 · List 10 · Hand 2 ·", kit.SMALL) + 2
    wrapped = kit.lines(text, width, kit.SMALL)
    assert wrapped[0].replace("\u00a0", " ") == "Kraft 10 · List 10 · Hand 2 ·"
    assert not any(line.endswith("-") for line in wrapped), wrapped
    assert " ".join(wrapped).replace("\u00a0", " ") == "Kraft 10 · List 10 · Hand 2 · alle 3 Aktionen in diesem Zug"


def test_a_german_monster_name_breaks_between_its_words() -> None:
    """Monster Expedition's display cards give a name 138 px a line: English patterns find no break in
    "Echoseeschlange", German ones do ("Echosee-schlange", not "Echoseeschlan-ge")."""
    assert kit.fit_lines("Echoseeschlange", 138, 2, (20, kit.SMALL), "semibold") == (20, ("Echosee-", "schlange"))


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_an_expeditions_final_board_says_the_result_once(players: int) -> None:
    """The header's second line was the whole result ("Carol wins with $127. Scores: Carol $127 (coins …), …")
    under "Game over: Carol wins" and above the results panel: it is now the last move, as in the other games."""
    game = find_game("expeditions")
    view = game.view(playout("expeditions", "standard", players)[-1], None)
    with kit.recording() as drawn:
        render_board("expeditions", view)
    header = " ".join(t.text for t in drawn if t.box[3] <= kit.HEADER_H)
    assert header.count("Game over") == 1 and "Scores:" not in header and "expedition is over" not in header
    assert header.count(" win") == (players > 1) and "ends the game" not in header


def test_an_expeditions_tie_names_every_winner_in_the_headline() -> None:
    game = find_game("expeditions")
    view = game.view(playout("expeditions", "standard", 2)[-1], None)
    view["outcome"]["winners"] = [0, 1]
    names = [p["name"] for p in view["players"]]
    with kit.recording() as drawn:
        render_board("expeditions", view)
    assert any(t.text.startswith(f"Game over: {names[0]} and {names[1]} win") for t in drawn)


def test_a_number_never_sits_alone_under_the_name_it_counts() -> None:
    """Monster Expedition's final lists read "Felsenharpyie" / "4": a number that does not fit takes the word
    before it to the next line (every wrapped text of every board, since the typesetter glues them)."""
    text = "Monsters: Tiefenegel 1, Stachelmaul 2, Dornenmuräne 3, Sturmfalter 2, Felsenharpyie 4"
    assert kit.lines(text, 214, kit.SMALL) == (
        "Monsters: Tiefenegel 1,", "Stachelmaul 2,", "Dornenmuräne 3,", "Sturmfalter 2,", "Felsenharpyie 4")


@pytest.mark.parametrize(("arrow", "direction"), [("↘", (1, -1)), ("↙", (-1, -1)), ("↗", (1, 1)), ("↖", (-1, 1))])
def test_a_diagonal_arrow_is_drawn_as_an_arrow_not_the_fonts_empty_box(arrow: str,
                                                                       direction: tuple[int, int]) -> None:
    """The shipped fonts have no diagonal arrows: The Expedition's "↘ go" showed an empty box. It is drawn as "→"
    turned towards its direction, as wide as "→" in a line."""
    import math

    from PIL import Image, ImageChops

    face = kit.font(kit.BIG, "bold")
    turn = math.radians(kit.TURNED_ARROWS[arrow])  # counterclockwise, y up
    assert (round(math.cos(turn) * math.sqrt(2)), round(math.sin(turn) * math.sqrt(2))) == direction
    core, _ = typeset.word_mask(face, arrow, "a")
    box, _ = face.getmask2(arrow, "L", anchor="la")  # what the font alone draws
    drawn, empty = Image.new("L", core.size)._new(core), Image.new("L", box.size)._new(box)
    assert drawn.size != empty.size or ImageChops.difference(drawn, empty).getbbox() is not None
    right, _ = face.getmask2("→", "L", anchor="la")
    expected = Image.new("L", right.size)._new(right).rotate(kit.TURNED_ARROWS[arrow],
                                                             resample=Image.Resampling.BICUBIC, expand=True)
    assert ImageChops.difference(drawn, expected.crop(expected.getbbox())).getbbox() is None
    assert kit.measure(f"{arrow} go", kit.BIG, "bold") == kit.measure("→ go", kit.BIG, "bold")


def test_the_monster_trader_belongs_to_nobody_on_the_board() -> None:
    """Issue 22: the Monster Trader was framed in the first player's orange whoever's turn it was."""
    from PIL import ImageColor

    face = me_public._p_card_face((("cost", 40), ("kind", "trader")))
    frame = face.image.getpixel((1, 1))
    assert frame == ImageColor.getrgb(me.TRADER_FRAME)
    assert all(frame != ImageColor.getrgb(kit.player_style(seat).colour) for seat in range(6))
