"""The line under a board's headline, over seeded playouts of every game and mode (issue 33, item 7): it is never
cut silently (whole sentences; when some are left out, "…" and where the rest is), it names the move's key event
first (the end triggered, a scoring), and it matches the picture: every piece it says moved somewhere stands there
in the board's view (a solo board once said "Automation 2 moved down to Saturn" while the picture showed
Automation 2 on Mars: it had moved twice in that turn and the caption kept only the first sentences)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, Game, Rng, find_game
from bot.i18n import translate
from bot.service import told_key_first
from rendering import kit, render_board
from rendering.typeset import merged_repeats, split_sentences
from tests.reading import read
from tests.test_render_layout import CASES, NAMES

CAPTIONS = 40
"""Captions drawn per played game: the moves with the most to tell (a board takes ~10 ms to draw)."""


def played(game_key: str, mode: str, players: int, seed: int, language: str) -> Iterator[tuple[JSON, list[JSON]]]:
    """Every state of one seeded game of random legal moves with the events of the move that led to it."""
    game = find_game(game_key)
    state = game.setup(mode, NAMES[:players], Rng(seed, 0), {"profiles": [{}] * players, "language": language})
    chooser = Rng(seed, 10**6)
    step = 0
    while (waiting := game.to_act(state)) and step < 3000:
        step += 1
        applied = game.apply(state, waiting[0], chooser.choice(game.legal_actions(state, waiting[0])),
                             Rng(seed, step))
        state = applied.state
        yield state, list(applied.events)


def caption(game_key: str, view: JSON) -> str:
    """The caption a public board draws: the header's lines under the headline, joined (a line-end hyphen
    undone)."""
    with kit.recording() as drawn:
        render_board(game_key, view)
    return re.sub(r"-\n(?=[a-zäöü])", "", "\n".join(t.text for t in drawn if t.role in ("caption", "text")
                                                   and t.box[3] <= kit.HEADER_H)).replace("\n", " ")


def untrue(game_key: str, state: JSON, told: str, language: str) -> list[str]:
    """The places the caption gives pieces that the state (the picture's view) does not show them at."""
    if game_key == "the-expedition":
        return _expedition_untrue(state, told, language)
    if game_key == "expeditions":
        return _expeditions_untrue(state, told, language)
    return []  # Monster Expedition's pieces (dice, cards, cages) have no place on a map


def _expedition_untrue(state: JSON, told: str, language: str) -> list[str]:
    view = find_game("the-expedition").view(state, None)
    wrong = []
    for entry in view["participants"]:
        if entry["cell"] is None:
            continue
        name = entry["name"] if entry["kind"] == "player" else translate(
            "expedition.automation.name", language, number=entry["number"])
        there = next(c["location"]["names"][language] for c in view["grid"] if c["cell"] == entry["cell"])
        pattern = {"en": rf"{re.escape(name)} moved \w+ to ([^,.;(]+?) and",
                   "de": rf"{re.escape(name)} ist [\w ]+? auf ([^,.;(]+?) gezogen"}[language]
        wrong += [f"{name} told at {place!r}, shown at {there!r}" for place in re.findall(pattern, told)
                  if place.strip() != there]
    return wrong


def _expeditions_untrue(state: JSON, told: str, language: str) -> list[str]:
    game = find_game("expeditions")
    wrong = []
    for seat, player in enumerate(state["players"]):
        space = state["spaces"].get(player["at"])
        location = space["tile"] if space and space.get("revealed") else None
        here = read_describe(game, state, {"kind": "moved", "seat": seat, "space": player["at"], "location": location},
                             language)
        verb = {"en": " moves to ", "de": " zieht nach "}[language]
        wrong += [f"told {sentence!r}, shown {here!r}"
                  for sentence in re.findall(re.escape(player["name"] + verb) + r"[^.]+\.", told) if sentence != here]
    return wrong


def flat(text: str) -> str:
    return text.replace(" ", "").replace("\u00a0", "")


def cut_or_reordered(game: Game, state: JSON, events: list[JSON], told: str, drawn: str, rest: str,
                     language: str) -> list[str]:
    """What is wrong with a drawn caption: cut without "…" and where the rest is, its first sentence (the key
    event) lost, or the key event not first. A first sentence longer than the room keeps its first words and "…"."""
    sentences = merged_repeats(split_sentences(told))
    found = []
    head = drawn.split(" …")[0]
    if flat(drawn) != flat(" ".join(sentences)):
        if "…" not in drawn or not drawn.endswith(rest):
            found.append("cut silently")
        if not flat(sentences[0]).startswith(flat(head)) or not head:
            found.append("first sentence lost")
    key = sorted((e for e in events if e.get("kind") in game.key_events),
                 key=lambda e: game.key_events.index(e["kind"]))
    if key and (first := read_describe(game, state, key[0], language)):
        wanted = flat(split_sentences(first)[0])
        shown = flat(head)
        length = min(40, len(wanted), len(shown))
        if not shown or wanted[:length] != shown[:length]:
            found.append(f"key event not first (key: {first!r})")
    return found


def checked_captions(game_key: str, mode: str, players: int, seed: int, language: str) -> list[str]:
    game = find_game(game_key)
    rest = translate("table.story.caption_rest", language)
    moves = []
    for state, events in played(game_key, mode, players, seed, language):
        told = read(told_key_first(game, state, [e for e in events if e.get("kind") not in game.result_events],
                                   language))
        if told:
            moves.append((len(told) + 1000 * any(e.get("kind") in game.key_events for e in events), state, events,
                          told))
    found: list[str] = []
    for _, state, events, told in sorted(moves, key=lambda m: -m[0])[:CAPTIONS]:
        view = {**game.view(state, None), "language": language, "last_move": told}
        drawn = caption(game_key, view)
        over = bool(view.get("over") or view.get("outcome"))
        if not over:  # (a final board's caption says why the game ended first: its own sentences)
            found += [f"{p}: {drawn!r} of {told!r}" for p in cut_or_reordered(game, state, events, told, drawn, rest,
                                                                            language)]
        found += [f"{p}: {drawn!r}" for p in untrue(game_key, state, drawn, language)]
    return found


@pytest.mark.parametrize(("game_key", "mode", "players"), CASES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_captions_are_whole_key_first_and_match_the_picture(game_key: str, mode: str, players: int,
                                                            language: str) -> None:
    found: list[str] = []
    for seed in (3, 11):
        found += [f"seed {seed}: {p}" for p in checked_captions(game_key, mode, players, seed, language)]
    assert not found, "\n".join(found[:20]) + f"\n({len(found)} in all)"


def test_the_truth_check_sees_a_piece_told_elsewhere() -> None:
    """The check itself: a solo caption telling Automation 2's first of two moves in a turn is reported."""
    game = find_game("the-expedition")
    for state, events in played("the-expedition", "solo", 1, 1, "en"):
        moved = [e for e in events if e.get("kind") == "moved" and e["who"] == "a2"]
        if len(moved) == 2:
            first = read_describe(game, state, moved[0], "en")
            assert untrue("the-expedition", state, first, "en")
            assert not untrue("the-expedition", state, read_describe(game, state, moved[1], "en"), "en")
            return
    raise AssertionError("no turn in which Automation 2 moved twice")


def read_describe(game: Game, state: JSON, event: JSON, language: str) -> str:
    """An event in words as a board shows it (the marks around people's names removed, bot/i18n/marks.py)."""
    return read(game.describe(state, event, language))
