"""Wording at a game's end and around it (session 11's endings list): each test failed before its fix."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

import rendering
from bot.app import create_bot
from bot.core import JSON, Rng, find_game
from bot.core.bots import bot_view, choose
from bot.core.errors import LobbyError, RuleError
from bot.games.expeditions.rules.bots import ExpeditionsBot
from bot.games.monster_expedition.rules.state import setup_state
from bot.i18n import domains
from bot.i18n.catalog import catalogue_paths, template_path
from bot.offline import DiscordHarness
from rendering import render_board
from rendering.glyphs import drawable_view as drawable
from rendering.recorder import recording
from tests.reading import read
from tests.tables import current_match


def test_monster_expeditions_unknown_mode_is_refused_once_by_the_titles_and_its_old_key_list_is_gone() -> None:
    """monster.refuse.no_mode listed the mode keys ("standard, solo") and could not be reached: the game resolves a
    typed mode first and refuses an unknown one by the modes' localized titles. It is gone from both catalogues;
    setup_state, which takes a resolved key, treats anything else as a programming error, not a player's words."""
    game = find_game("monster-expedition")
    with pytest.raises(LobbyError) as refused:
        game.setup("kampagne", ["Ada"], Rng(1, 0), {})
    assert read(refused.value.text("de")) == (
        "Monster Expedition hat keinen Modus „kampagne“. Wähle einen von: Standard, Solokampagne.")
    with pytest.raises(ValueError) as misuse:
        setup_state("kampagne", ["Ada"], Rng(1, 0), {})
    assert not isinstance(misuse.value, RuleError)
    for language in ("en", "de"):  # in no domain: the platform's nor a game package's
        assert all("monster.refuse.no_mode" not in path.read_text() for path in catalogue_paths(language))
    assert all("monster.refuse.no_mode" not in template_path(domain).read_text() for domain in domains())


def _finished(key: str, mode: str, players: int, seed: int, language: str = "en") -> tuple[Any, JSON]:
    """A game played to its end by easy computer players (fast, and deterministic for the seed)."""
    game = find_game(key)
    state = game.setup(mode, [f"P{seat + 1}" for seat in range(players)], Rng(seed, 0),
                       {"profiles": [{}] * players, "language": language})
    chooser, step = random.Random(seed), 0
    while game.to_act(state):
        seat = game.to_act(state)[0]
        step += 1
        action = choose(game, bot_view(game, state, seat), seat, "easy", chooser)
        state = game.apply(state, seat, action, Rng(seed, step)).state
    return game, state


def _alt(key: str, state: JSON, language: str = "en") -> str:
    return rendering.alt_text(key, drawable({**find_game(key).view(state, None), "language": language}))


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("key", "mode", "players", "seed", "ranked"), [
    ("monster-expedition", "standard", 3, 1, ["P3", "P1", "P2"]),
    ("the-expedition", "solo-hard", 1, 1, ["Automation 2", "Automation 1", "P1"]),
    ("expeditions", "standard", 3, 1, ["P2", "P3", "P1"]),
])
def test_a_final_boards_words_rank_the_players_as_its_image_and_result_do(
        key: str, mode: str, players: int, seed: int, ranked: list[str], language: str) -> None:
    """The final board's alt text listed the players in seat order under a result that ranks them (and beside an
    image that does): now best first in every game, as the bold result line."""
    game, state = _finished(key, mode, players, seed, language)
    summary = game.outcome(state).summary
    summary = summary if isinstance(summary, str) else summary(language)
    named = [name.replace("Automat ", "Automation ") for name in re.findall(r"\b(P\d|Automat(?:ion)? \d)\b", summary)]
    assert [name for name in named if name in ranked][-3:] == ranked, summary  # the result ranks them so
    words = _alt(key, state, language)
    entries = re.findall(r"\b(P\d|Automat(?:ion)? \d): ", re.split(r"Last move: |Letzter Zug: ", words)[-1])
    assert [name.replace("Automat ", "Automation ") for name in entries] == ranked, words


def test_expeditions_final_board_words_say_the_winner_once() -> None:
    """The alt text read "Game over: P2 wins. P2 wins with $100. Scores: …": the headline, then the result."""
    _, state = _finished("expeditions", "standard", 3, 1)
    words = _alt("expeditions", state)
    assert words.startswith("Expeditions. Game over: P2 wins with $100. Scores: P2 $100 ")
    assert words.count("P2 wins") == 1
    _, state = _finished("expeditions", "standard", 3, 1, "de")
    german = _alt("expeditions", state, "de")
    assert german.startswith("Expeditions. Spiel vorbei: ") and german.count("gewinnt") == 1, german


def test_monster_expeditions_final_words_give_a_cageless_player_a_total() -> None:
    """At the end a player's total was said only after their cages' worth, so a player without cages had none."""
    _, state = _finished("monster-expedition", "standard", 3, 1)
    view = {**find_game("monster-expedition").view(state, None), "language": "en"}
    view["players"] = [{**player, "cages": 0} if player["name"] == "P2" else player for player in view["players"]]
    words = rendering.alt_text("monster-expedition", view)
    assert "P2: 4 VP from monsters, 0 cages, 19 VP in all;" in words


@pytest.mark.parametrize("language", ["en", "de"])
async def test_the_result_marks_a_kicked_player_as_having_left(database: Path, language: str) -> None:
    """The bold result line named Bob ("Bob wins … Bob: 10 pts") as if he had played to the end, while the story and
    the board named his seat "🤖 Bob (normal bot)": it names the seat as the board does and says that Bob left and
    the seat's score stands. The log's kick line named the computer player "🤖 Bot 2 (normal)", a name the seat
    never had."""
    game = find_game("the-expedition")
    async with DiscordHarness(create_bot(database)) as discord_:
        alice, bob = (discord_.user(name, locale=language) for name in ("alice", "bob"))
        await discord_.command("game new", {"game": game.key, "seed": 2, "language": language}, user=alice)
        await discord_.command("game join", user=bob)
        await discord_.command("game start", user=alice)
        chooser = random.Random(2)
        for step in range(200):
            match = await current_match(discord_)
            if match.status != "active":
                break
            if step == 3:
                assert (await discord_.command("game kick", {"player": bob}, user=alice)).public()
                continue
            seat = game.to_act(match.state)[0]
            if match.user_at(seat).user_id != alice.id:  # the computer player's turn: it moves by itself
                await asyncio.sleep(0.01)
                continue
            action = choose(game, bot_view(game, match.state, seat), seat, "normal", chooser)
            index = [offer.action for offer in game.quick_actions(match.state, seat, language)].index(action)
            await discord_.click(discord_.last_public_message(with_components=True),
                                 custom_id=f"xt:act:{match.id}:{match.version}:{seat}:{index}", user=alice)
        assert (await current_match(discord_)).status == "finished"
        result = discord_.channel_messages()[-1].content.rsplit("\n", 1)[1]
        match = await current_match(discord_)
        events = await discord_.bot.service.store.events(match.id)  # type: ignore[attr-defined]
        kicked = next(read(event.text) for event in events if event.kind == "kicked")
    if language == "en":
        assert result.startswith("**🤖 Bob (normal bot) wins on the tie-break: most markers on the grid. ")
        assert "; Alice: 10 pts" in result and "Bob:" not in result.replace("(normal bot):", "")
        assert result.endswith(" Bob left the game: a computer player played the seat to the end, and its score "
                               "stands.**")
        assert kicked == "Bob's seat was handed to a normal computer player (🤖 Bob (normal bot))."
    else:
        assert result.startswith("**🤖 Bob (Bot, normal) gewinnt im Gleichstand durch die meisten Marker ")
        assert result.endswith(" Bob hat das Spiel verlassen; ein Computerspieler hat den Platz zu Ende gespielt, "
                               "und die Punkte des Platzes zählen.**")
        assert kicked == "Der Platz von Bob wurde an einen normalen Computerspieler übergeben (🤖 Bob (Bot, normal))."


def test_an_expeditions_hint_does_not_count_a_worker_the_turn_owes_anyway() -> None:
    """A gathered worker waits in the turn's queue behind a card to play: every choice gets it (the rulebook: each
    gathered benefit is gained). The hint for skipping the card read "bringing 1 worker" as if skipping earned it."""
    game = find_game("expeditions")
    state = game.setup("standard", ["P1", "P2"], Rng(3, 0), {"profiles": [{}, {}]})
    chooser = random.Random(3)
    for step in range(1, 118):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, choose(game, bot_view(game, state, seat), seat, "easy", chooser),
                           Rng(3, step)).state
    seat = game.to_act(state)[0]
    assert state["turn"]["pending"] == {"kind": "play"}
    assert state["turn"]["queue"][0]["effects"] == [{"do": "worker", "colour": "green"}]  # owed whatever is chosen
    bot = ExpeditionsBot()
    decision = bot.heuristic(game, bot.observe(game, state, seat), seat, random.Random(0))
    # Skipping brought nothing while the Silver Whistle brings $1 this turn (issue 33): the hint plays it, and its
    # words still leave out the worker the turn owes anyway.
    assert decision.action == {"type": "choose", "option": "card:it-whistle"}
    assert decision.words is not None
    assert decision.words["en"] == ("Choose Play Silver Whistle: of the moves open now it does the most for your "
                                    "money and stars, setting up $1 of final score before the turn ends.")
    assert decision.words["de"] == ("Wähle Silberpfeife spielen: Von den Zügen, die jetzt offen sind, bringt dieser "
                                    "am meisten für dein Geld und deine Sterne, damit holst du noch in diesem Zug 1 $ "
                                    "Endwertung.")
    assert "9.2" not in decision.words["en"] and not re.search(r"\d+\.\d", decision.words["en"])


def _medals(key: str, view: JSON) -> list[str]:
    """The places on a final board's medals, best first as drawn (left column, right column, down the board)."""
    with recording() as drawn:
        render_board(key, view)
    medals = [m.box for m in drawn.marks if m.kind == "medal"]
    inside = [(box, t.text) for box in medals for t in drawn
              if box[0] <= (t.box[0] + t.box[2]) / 2 <= box[2] and box[1] <= (t.box[1] + t.box[3]) / 2 <= box[3]]
    return [text for _, text in sorted(inside, key=lambda item: (item[0][1], item[0][0]))]


def test_monster_expeditions_final_board_gives_the_tie_break_loser_the_next_medal() -> None:
    """Two hunters level on points: the rulebook's tie-break (the camps' levels) makes one the winner, yet both got
    a gold medal "1" (the place counted points only). Now the winner is 1st, the other 2nd; a full tie shares."""
    game, state = _finished("monster-expedition", "standard", 3, 1)  # P3 30, P1 27, P2 19 VP
    result = state["result"]
    result["scores"][0] = result["scores"][2]  # P1 level with P3, who has the higher camps
    result["camp_levels"] = [20, 12, 22]
    view = {**game.view(state, None), "language": "en"}
    assert _medals("monster-expedition", view) == ["1", "2", "3"]
    result["camp_levels"] = [22, 12, 22]
    result["winners"] = [0, 2]
    view = {**game.view(state, None), "language": "en"}
    assert sorted(_medals("monster-expedition", view)) == ["1", "1", "3"]


def test_the_expeditions_final_board_orders_a_tie_on_points_by_the_rulebooks_tie_breaks() -> None:
    """Two explorers behind the winner, level on points: the result line ranks the one with more markers first
    (the rulebook's tie-break), but the final board kept seat order and gave both the same medal."""
    game, state = _finished("the-expedition", "standard", 3, 1)
    view = {**game.view(state, None), "language": "en"}
    first, second, third = view["participants"]
    view["result"] = {**view["result"], "winners": [third["id"]]}
    third["score"] = {**third["score"], "total": 14}
    first["score"] = {**first["score"], "total": 9, "markers": 2, "expeditions": 3}
    second["score"] = {**second["score"], "total": 9, "markers": 4, "expeditions": 0}
    assert _medals("the-expedition", view) == ["1", "2", "3"]
    words = rendering.alt_text("the-expedition", view)
    assert words.index(f"{third['name']}: 14 pts") < words.index(f"{second['name']}: 9 pts") < \
        words.index(f"{first['name']}: 9 pts")
    second["score"] = {**second["score"], "markers": 2, "expeditions": 3}  # tied on everything: a shared place
    assert _medals("the-expedition", view) == ["1", "2", "2"]
