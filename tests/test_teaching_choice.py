"""A teaching table explains the choice in front of the player to move on every board (issue 33 item 2): each
game played to its end through the offline Discord by scripted presses, in English and German. Every active board
carries one sentence naming the player to move and saying what the buttons and menu it shows mean here; a normal
table carries none; the sentence never names a hidden card; the ideas read for a group, never the lesson's "you"."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.core import Game, Offered, Rng, find_game
from bot.core.bots import bot_view, decide
from bot.core.lessons import lesson_for
from bot.features import lessons
from bot.games.expeditions.rules.data import components
from bot.games.monster_expedition.rules.catalog import catalog as monster_catalog
from bot.games.offered import offers_of
from bot.i18n import counted, join_or, translate, unmarked
from bot.offline import DiscordHarness, FakeUser
from tests.fakes import Nim
from tests.tables import FOUND_GAMES

GAMES = FOUND_GAMES
MOST_PRESSES = 1500
LOOK_AHEAD = 6
ONE_LEARNER = {"en": re.compile(r"\b(you|your|yours|yourself|lesson)\b", re.IGNORECASE),
               "de": re.compile(r"\b(du|dich|dir|dein\w*|lektion)\b", re.IGNORECASE)}
"""The words of a lesson speaking to its one learner, or of itself: never in what a teaching table tells a group."""


@dataclass
class Shown:
    """One active board as the channel read it, with what it offered and the position behind it."""

    content: str
    state: dict[str, Any]
    seat: int
    name: str
    labels: list[str]
    placeholder: str | None


def _controls(game: Game, state: dict[str, Any], seat: int, language: str) -> tuple[list[Any], Any]:
    """The buttons and the menu the service shows (cut as it cuts them)."""
    shown = offers_of(game, state, seat, language)
    return list(shown.buttons), shown.menu


def _pick(game: Game, state: dict[str, Any], seat: int, offers: list[dict[str, Any]], rnd: random.Random) -> int:
    """The offer furthest along the normal computer player's own line from here (the first when none is on it):
    a scripted player that plays the game to its end."""
    line: dict[str, int] = {}
    position = state
    for depth in range(1, LOOK_AHEAD + 1):
        choice = decide(game, bot_view(game, position, seat), seat, "normal", rnd).action
        position = game.apply(position, seat, choice, Rng(0, 0)).state
        line[_key(position)] = depth
        if game.outcome(position) is not None or game.to_act(position) != (seat,):
            break
    best, furthest = 0, 0
    for index, offer in enumerate(offers):
        try:
            after = game.apply(state, seat, offer, Rng(0, 0)).state
        except ValueError:
            continue
        if line.get(_key(after), 0) > furthest:
            best, furthest = index, line[_key(after)]
    return best


def _key(state: dict[str, Any]) -> str:
    import json

    return json.dumps({k: v for k, v in state.items() if k not in ("log", "last_move", "recent", "last_events")},
                      sort_keys=True)


async def _play(database: Path, game_key: str, language: str, *, teach: bool) -> tuple[list[Shown], list[str]]:
    """Alice and Bob play a whole game of `game_key`, each press chosen among the controls the board shows: every
    active board as read, and every public message text seen."""
    game = find_game(game_key)
    rnd = random.Random(game_key + language)
    shown: list[Shown] = []
    seen: dict[str, None] = {}
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        players: list[FakeUser] = [discord_.user("alice", locale=language), discord_.user("bob", locale=language)]
        service = discord_.bot.service  # type: ignore[attr-defined]
        channel = discord_.default_channel.id
        await discord_.command("game new", {"game": game_key, "seed": 11, "language": language,
                                            **({"teach": True} if teach else {})}, user=players[0])
        await discord_.command("game join", user=players[1])
        await discord_.command("game start", user=players[0])
        for _ in range(MOST_PRESSES):
            seen.update(dict.fromkeys(message.content for message in discord_.channel_messages(channel)))
            match = await service.current(channel)
            if match.status != "active":
                break
            state = match.state
            seat = game.to_act(state)[0]
            board = discord_.last_public_message(with_components=True)
            buttons, menu = _controls(game, state, seat, language)
            entries = list(menu.options) if menu is not None else []
            shown.append(Shown(board.content, state, seat, match.seats[seat].name, [b.label for b in buttons]
                               + [e.label for e in entries], menu.placeholder if entries else None))
            chosen = _pick(game, state, seat, [o.action for o in [*buttons, *entries]], rnd)
            user = next(player for player in players if player.id == match.seats[seat].user_id)
            if chosen < len(buttons):
                ids = [i for i in board.custom_ids() if i.startswith("xt:act:")]
                await discord_.click(board, custom_id=ids[chosen], user=user)
            else:
                (menu_id,) = [i for i in board.custom_ids() if i.startswith("xt:pick:")]
                await discord_.select(board, menu_id, [str(chosen - len(buttons))], user=user)
        match = await service.store.latest_match(channel)
        assert match is not None and match.status == "finished", (game_key, match and match.status)
        seen.update(dict.fromkeys(message.content for message in discord_.channel_messages(channel)))
    return shown, list(seen)


def _choice_lines(content: str) -> list[str]:
    return [line[len(lessons.CHOICE_MARK) + 1:] for line in content.splitlines()
            if line.startswith(lessons.CHOICE_MARK)]


def _hidden_names(game_key: str, state: dict[str, Any], language: str) -> set[str]:
    """The names of the cards no one else may know of now (The Expedition's secret hands, Monster Expedition's
    cages and deck), and for Expeditions the cards in hands, which its sentence never names either."""
    if game_key == "the-expedition":
        cat = find_game(game_key).catalog  # type: ignore[attr-defined]
        return {cat.expedition(card).names[language] for player in state["players"] for card in player["hand"]}
    if game_key == "monster-expedition":
        cat = monster_catalog()
        hidden = [card for player in state["players"] for card in player["cages"]] + list(state["deck"])
        return {cat.card(card).names[language] for card in hidden if isinstance(card, str)}
    comp = components()
    return {comp.cards[card].names[language] for player in state["players"] for card in player["hand"]}


def _expected(game_key: str, board: Shown, language: str) -> list[str]:
    """Words the sentence must say for what this board offers (its buttons' labels, its menu)."""
    labels, name = board.labels, board.name
    expected = [name]
    if game_key == "the-expedition":
        if board.state["phase"] == "placement":
            expected.append(translate("choice.expedition.place", language, name=name, count=len(labels)))
        else:
            expected.append(translate("choice.expedition.move", language, name=name))
    elif game_key == "monster-expedition":
        banks = [int(match.group(1)) for label in labels
                 if (match := re.match(r"^(?:Bank |)(\d+)(?: ×\d+)?(?: beiseitelegen)?(?:,|$| ×)", label))]
        if banks:
            expected.append(f"({join_or([str(n) for n in sorted(set(banks))], language)})")
        for label in labels:
            done = re.match(r"^(?:Done|Fertig) \((\d+) ", label)
            if done and int(done.group(1)):
                expected.append(translate("choice.monster.done_loses", language, value=int(done.group(1))))
            rolling = re.match(r"^(?:Roll again|Erneut würfeln) \((\d+) ", label)
            if rolling:
                expected.append(counted("die", int(rolling.group(1)), language))
            if label == translate("monster.button.cage", language, cost=10):
                expected.append(translate("choice.monster.buy_cage", language, cost=10))
        if board.placeholder == translate("monster.menu.stop_and_capture_prompt", language):
            expected.append(translate("choice.monster.stop_and_capture", language))
        if board.placeholder == translate("monster.menu.capture", language):
            expected.append(translate("choice.monster.buy_monster", language))
    else:
        refresh = translate("expeditions.button.refresh", language)
        if refresh in labels:
            expected.append(f"{refresh}")
        if board.placeholder == translate("expeditions.menu.turn", language):
            expected += [translate(f"expeditions.action.{action}", language)
                         for action in board.state["turn"]["remaining"]]
        skip = translate("expeditions.option.skip", language)
        if any(label.startswith(skip) for label in labels):
            expected.append(skip)
    return expected


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", GAMES)
async def test_every_board_of_a_teaching_table_explains_the_choice(database: Path, game_key: str,
                                                                   language: str) -> None:
    shown, seen = await _play(database, game_key, language, teach=True)
    assert len(shown) > 10
    phases: set[str] = set()
    for board in shown:
        lines = _choice_lines(board.content)
        assert len(lines) == 1, board.content
        assert not board.content.startswith("…"), board.content  # the board's text was never cut to fit
        (sentence,) = lines
        for words in _expected(game_key, board, language):
            assert words in sentence, (words, sentence, board.labels)
        assert not ONE_LEARNER[language].search(sentence), sentence
        for hidden in _hidden_names(game_key, board.state, language):
            assert hidden not in sentence, (hidden, sentence)
        phases.add(_phase(game_key, board.state))
    assert phases >= PHASES[game_key], phases
    for content in seen:  # the ideas told read for everyone; the final board asks nobody
        for line in content.splitlines():
            if line.startswith(lessons.MARK):
                assert not ONE_LEARNER[language].search(line), line
    assert not _choice_lines(seen[-1])
    if game_key == "the-expedition":  # a secret expedition is named only once it is scored (and public)
        for board in shown:
            for hidden in _hidden_names(game_key, board.state, language):
                assert hidden not in board.content, (hidden, board.content)


PHASES = {"the-expedition": {"placement", "play"},
          "monster-expedition": {"camp", "bank", "purchase"},
          "expeditions": {"start", "actions", "pending"}}
"""The kinds of choice every played game meets (and its sentences are checked on)."""


def _phase(game_key: str, state: dict[str, Any]) -> str:
    if game_key == "expeditions":
        turn = state["turn"]
        return "pending" if turn["pending"] else str(turn["phase"])
    return str(state["phase"])


@pytest.mark.parametrize("game_key", GAMES)
async def test_a_normal_table_explains_nothing(database: Path, game_key: str) -> None:
    shown, seen = await _play(database, game_key, "en", teach=False)
    assert len(shown) > 10
    assert not any(lessons.CHOICE_MARK in content or lessons.MARK in content for content in seen)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", GAMES)
def test_every_idea_reads_for_the_group_at_a_teaching_table(game_key: str, language: str) -> None:
    lesson = lesson_for(find_game(game_key))
    assert lesson is not None
    for idea in lesson.ideas:
        text = lessons.table_idea_text(idea, language)
        assert not ONE_LEARNER[language].search(text), (idea.key, text)
        if ONE_LEARNER[language].search(lessons.idea_text(idea, language)):
            assert idea.table_message_id is not None, idea.key


def test_the_default_sentence_lists_what_the_board_offers() -> None:
    from bot.core import QuickAction

    game = Nim()
    state = game.setup("standard", ["Ada", "Bo"], Rng(1, 0), {"profiles": [{}, {}]})
    seat = game.to_act(state)[0]
    offered = Offered(tuple(game.quick_actions(state, seat, "en")))
    labels = [offer.label for offer in offered.options]
    assert unmarked(game.describe_choice(state, seat, offered, "en")) == (
        f"{game.player_names(state)[seat]} chooses: {join_or(labels, 'en')}.")
    assert game.describe_choice(state, seat, Offered((QuickAction("Take 1", {}),)), "de").endswith("wählt: Take 1.")


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_key", GAMES)
def test_every_mode_words_every_choice_it_meets(game_key: str, language: str) -> None:
    """Every mode of every game (solo, abstract, three players), played by random legal moves: each position's
    sentence names the player to move and none of the lesson's "you" words, and a game over has none."""
    game = find_game(game_key)
    rnd = random.Random(game_key)
    met: set[str] = set()
    for mode in game.modes:
        for count in sorted({mode.min_players, min(mode.max_players, 3)}):
            names = ["Ada", "Bo", "Cy"][:count]
            profile = {"failed_attempts": {"1": 2}} if mode.key == "solo" else {}  # a retried solo expedition
            state = game.setup(mode.key, names, Rng(count, 0), {"profiles": [profile] * count, "language": language})
            for _ in range(120 if game_key == "expeditions" else 400):  # Expeditions: played whole above
                if game.outcome(state) is not None or not game.to_act(state):
                    break
                seat = game.to_act(state)[0]
                buttons, menu = _controls(game, state, seat, language)
                sentence = unmarked(game.describe_choice(state, seat, Offered(tuple(buttons), menu), language))
                assert names[seat] in sentence and not ONE_LEARNER[language].search(sentence), sentence
                met.add(_phase(game_key, state) if game_key != "expeditions" or not state["turn"]["pending"]
                        else state["turn"]["pending"]["kind"])
                state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)), Rng(7, len(met))).state
            assert game.describe_choice(state, 0, Offered(), language) == ""
    assert met >= MODES_MEET[game_key], met


MODES_MEET = {"the-expedition": {"placement", "play"},
              "monster-expedition": {"solo_prepare", "camp", "bank", "purchase"},
              "expeditions": {"start", "actions"}}


async def test_the_sentence_names_a_player_as_typed_never_as_markdown(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        host, guest = discord_.user("_bo*b_"), discord_.user("a_d*a")
        await discord_.command("game new", {"game": "the-expedition", "seed": 3, "teach": True}, user=host)
        await discord_.command("game join", user=guest)
        await discord_.command("game start", user=host)
        board = discord_.last_public_message(with_components=True)
        (sentence,) = _choice_lines(board.content)
        match = await discord_.bot.service.current(discord_.default_channel.id)  # type: ignore[attr-defined]
        mover = match.seats[find_game("the-expedition").to_act(match.state)[0]].name
        shown = re.sub(r"([_*])", r"\\\1", mover)  # as Discord shows a name: every markdown character escaped
        assert shown.count("\\") >= 2, shown
        assert sentence.startswith(f"{shown} chooses where their explorer starts"), sentence
