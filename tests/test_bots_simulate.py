"""`expedition-bot simulate`: seating, statistics, and every failed or capped game reported with its seed."""

from __future__ import annotations

import json

import pytest

from bot.cli import main, simulate
from bot.core.bots import Budget
from bot.core.registry import all_games

TINY = Budget(seconds=5.0, iterations=8)


def test_levels_rotate_through_the_seats_by_seed() -> None:
    assert simulate.seating(["hard", "easy"], 10) == ["hard", "easy"]
    assert simulate.seating(["hard", "easy"], 11) == ["easy", "hard"]
    assert simulate.seating(["hard", "normal", "easy"], 5) == ["easy", "hard", "normal"]
    assert simulate.seating(["hard", "easy"], 11, rotate=False) == ["hard", "easy"]


def test_wilson_interval() -> None:
    low, high = simulate.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = simulate.wilson(170, 200)
    assert low == pytest.approx(0.7939, abs=1e-4) and high == pytest.approx(0.8929, abs=1e-4)


def test_a_run_counts_wins_by_seat_and_level() -> None:
    summary = simulate.run("te", "standard", ["hard", "easy"], games=4, seed=20, budget=TINY, workers=1)
    assert summary["games"] == summary["finished"] == 4
    assert summary["errors"] == [] and summary["capped"] == []
    seat_rates = [entry["rate"] for entry in summary["win_rate_by_seat"].values()]
    level_rates = [entry["rate"] for entry in summary["win_rate_by_level"].values()]
    assert sum(seat_rates) == pytest.approx(1.0) and sum(level_rates) == pytest.approx(1.0)
    assert summary["win_rate_by_level"]["hard"]["seats_played"] == 4
    assert summary["think_seconds"]["hard"]["moves"] > 0
    assert "games/s" in simulate.format_summary(summary)


def test_the_same_seed_replays_the_same_game() -> None:
    first = simulate.play_game("monster-expedition", "standard", ["hard", "normal"], 33, TINY)
    again = simulate.play_game("monster-expedition", "standard", ["hard", "normal"], 33, TINY)
    assert (first.scores, first.winners, first.steps) == (again.scores, again.winners, again.steps)


def test_capped_and_failed_games_are_listed_with_their_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    capped = simulate.play_game("the-expedition", "standard", ["easy", "easy"], 5, TINY, cap=3)
    assert capped.capped and capped.steps == 3
    summary = simulate.summarise([capped], 1.0)
    assert summary["capped"] == [{"seed": 5, "levels": ["easy", "easy"], "steps": 3}] and summary["finished"] == 0

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the bot fell over")

    monkeypatch.setattr(simulate, "choose", broken)
    failed = simulate.play_game("the-expedition", "standard", ["easy", "easy"], 6, TINY)
    assert failed.error is not None and failed.error.startswith("RuntimeError: the bot fell over")
    assert "ERROR seed 6" in simulate.format_summary(simulate.summarise([failed], 1.0) | {
        "game": "the-expedition", "mode": "standard", "seats": ["easy", "easy"], "budget": {"seconds": 1.0,
                                                                                              "iterations": 8}})


def test_the_command_line_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "expedition", "--mode", "solo", "--games", "2", "--seats", "normal", "--seed", "3",
                 "--workers", "1", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "the-expedition" and summary["mode"] == "solo" and summary["games"] == 2
    assert set(summary["win_rate_by_level"]) == {"normal"}


def test_a_seat_count_the_mode_does_not_take_is_refused() -> None:
    with pytest.raises(ValueError, match="takes 2-3 seats"):
        simulate.run("te", "standard", ["hard"], games=1, seed=1, budget=TINY, workers=1)


def test_expeditions_seed_1186_ends_instead_of_hitting_the_turn_cap() -> None:
    """Hard v normal, seed 1186, one deal a move (the README's replay): the hard bot solved its last card that can
    vanquish as a quest (move 90), then held 10 power, 10 guile and three stars and circled location 20 for good,
    because its estimate counted the 20 token as all but won without any means to vanquish it."""
    levels = simulate.seating(["hard", "normal"], 1186)
    result = simulate.play_game("expeditions", "standard", levels, 1186, Budget(seconds=1.0, iterations=1), cap=1500)
    assert result.error is None and not result.capped
    assert result.winners and result.steps < 1000


@pytest.mark.parametrize(("arguments", "sentence"), [
    (["chess"], "There is no game called 'chess': choose one of {games}."),
    (["te", "--mode", "bogus"],
     "The Expedition has no mode called 'bogus': choose one of standard, abstract, solo, solo-hard."),
    (["te", "--seats", "superhard"],
     "There is no computer player level called 'superhard': give --seats as levels by seat, each one of easy, "
     "normal, hard (e.g. --seats hard,easy)."),
], ids=["game", "mode", "seats"])
def test_the_command_line_refuses_what_does_not_exist_in_one_sentence(
        arguments: list[str], sentence: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *arguments, "--games", "1", "--workers", "1"]) == 2
    captured = capsys.readouterr()
    games = ", ".join(game.key for game in all_games())  # the tests register a game of their own too
    assert captured.err.splitlines() == [sentence.format(games=games)] and captured.out == ""
