"""Records at the service and store level, on both engines: ratings (exactly openskill's numbers, once), undo
refusals for what a game reveals without a draw, and an export -> check round trip for every game and mode."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.cli import main
from bot.core import Game, LobbyError, all_games
from bot.features import history, ratings, undo
from bot.service import GameService, Player
from tests.reading import read

GUILD, CHANNEL = 7, 70
PEOPLE = [Player(101, "Ada"), Player(102, "Bea"), Player(103, "Cy")]


async def seat(service: GameService, game: str, people: list[Player], *, mode: str | None = None,
               seed: int | None = None, channel: int = CHANNEL) -> int:
    match = await service.new_match(GUILD, channel, game, people[0], mode=mode, seed=seed)
    if match.status == "lobby":
        for person in people[1:]:
            await service.join(channel, person)
        match = await service.start(channel, people[0].user_id)
    return match.id


async def play_nim(service: GameService, channel: int, people: list[Player]) -> None:
    """Take one stone at a time until the pile is empty."""
    while (match := await service.current(channel)).status == "active":
        mover = match.user_at(match.state["turn"])
        assert mover is not None
        await service.act(channel, mover.user_id, {"type": "take", "count": 1})


# --------------------------------------------------------------------------------------------- ratings


async def test_ratings_are_openskills_numbers_and_a_match_is_rated_once(service: GameService) -> None:
    model = PlackettLuce()
    expected = {p.user_id: model.rating() for p in PEOPLE}
    for game_number in range(2):
        channel = CHANNEL + game_number
        match_id = await seat(service, "test-nim", PEOPLE, channel=channel)
        await play_nim(service, channel, PEOPLE)
        match = await service.match(match_id)
        winner = match.user_at(match.state["winner"]).user_id
        order = [s.user_id for s in match.seats]
        ranks = [1 if user == winner else 2 for user in order]  # Nim scores 1 for the winner, 0 for the rest
        rated = model.rate([[expected[user]] for user in order], ranks=ranks)
        expected = {user: team[0] for user, team in zip(order, rated, strict=True)}
        stored = {r.user_id: r for r in await service.store.ratings(GUILD, "test-nim")}
        for user, rating in expected.items():
            assert stored[user].mu == pytest.approx(rating.mu, abs=1e-12)
            assert stored[user].sigma == pytest.approx(rating.sigma, abs=1e-12)
            assert stored[user].games == game_number + 1
        assert await service.store.rated_mark(match_id) == (True, "rated")
        # Rated exactly once: finishing is the only update; a retry or a sweep changes nothing.
        assert await ratings.rate_finished(service.store, match) is False
        assert await ratings.rate_missed(service.store, GUILD) == 0
        assert {r.user_id: (r.mu, r.sigma) for r in await service.store.ratings(GUILD, "test-nim")} == {
            u: (r.mu, r.sigma) for u, r in stored.items()}


async def test_a_finished_game_missed_by_a_crash_is_rated_by_the_sweep(service: GameService) -> None:
    match_id = await seat(service, "test-nim", PEOPLE[:2])
    await play_nim(service, CHANNEL, PEOPLE[:2])
    # The state a crash between the final move's commit and the rating leaves behind.
    async with service.store._transaction():
        await service.store._execute("DELETE FROM rated_matches WHERE match_id = ?", (match_id,))
        await service.store._execute("DELETE FROM ratings WHERE guild_id = ?", (GUILD,))
    assert await service.store.unrated_matches(GUILD) == [match_id]
    assert await ratings.rate_missed(service.store, GUILD) == 1
    assert len(await service.store.ratings(GUILD, "test-nim")) == 2
    assert await ratings.rate_missed(service.store, GUILD) == 0


async def test_a_chosen_seed_and_a_solo_game_are_unrated(service: GameService) -> None:
    seeded = await seat(service, "test-nim", PEOPLE[:2], seed=99)
    await play_nim(service, CHANNEL, PEOPLE[:2])
    solo = await seat(service, "test-nim", PEOPLE[:1], mode="solo", channel=CHANNEL + 1)
    while (match := await service.current(CHANNEL + 1)).status == "active":
        await service.act(CHANNEL + 1, PEOPLE[0].user_id, {"type": "take", "count": 1})
    assert await service.store.rated_mark(seeded) == (False, "the seed was chosen")
    assert await service.store.rated_mark(solo) == (False, "a solo game")
    assert await service.store.ratings(GUILD, "test-nim") == []
    assert match.status == "finished"


def test_ranks_put_winners_first_then_scores_with_ties_shared() -> None:
    from bot.core import Outcome

    outcome = Outcome({0: 10, 1: 30, 2: 10, 3: 20}, (1,), "")
    assert ratings.ranks_of(outcome, [0, 1, 2, 3]) == [3, 1, 3, 2]


# --------------------------------------------------------------------------------------------- undo


async def test_undo_is_refused_once_a_card_was_drawn_without_a_draw_from_the_rng(service: GameService) -> None:
    """The Expedition's draw pile was shuffled at setup: a market refill shows a card and uses no Rng draw."""
    from bot.games.the_expedition import GAME

    await seat(service, "the-expedition", PEOPLE[:2], mode="abstract", seed=3)
    chooser = random.Random(1)
    for _ in range(400):
        match = await service.current(CHANNEL)
        assert match.status == "active", "the market was never refilled"
        mover = GAME.to_act(match.state)[0]
        pile = len(match.state["draw_pile"])
        user = match.user_at(mover)
        assert user is not None
        await service.act(CHANNEL, user.user_id, chooser.choice(GAME.legal_actions(match.state, mover)))
        after = await service.current(CHANNEL)
        events = await service.store.events(after.id, last=1)
        if len(after.state["draw_pile"]) < pile and events[-1].user_id == user.user_id:
            assert events[-1].draws == []
            with pytest.raises(undo.UndoRefused, match="a card was drawn with it"):
                await undo.request_undo(service, CHANNEL, user.user_id)
            return


async def test_undo_is_refused_once_a_location_tile_was_turned_over(service: GameService) -> None:
    """Expeditions' tiles lie face down from setup; moving onto one turns it over (and may draw from the bag)."""
    from bot.core import find_game

    game = find_game("expeditions")
    await seat(service, "expeditions", PEOPLE[:1])
    chooser = random.Random(2)
    for _ in range(600):
        match = await service.current(CHANNEL)
        assert match.status == "active", "no tile was turned over"
        await service.act(CHANNEL, PEOPLE[0].user_id, chooser.choice(game.legal_actions(match.state, 0)))
        events = await service.store.events(match.id, last=1)
        if any(event.get("kind") == "location_revealed" for event in events[-1].events):
            reason = "corruption tokens were drawn from the bag" if events[-1].draws else \
                "a location tile was turned over"
            with pytest.raises(undo.UndoRefused, match=f"{reason} with it"):
                await undo.request_undo(service, CHANNEL, PEOPLE[0].user_id)
            return


# --------------------------------------------------------------------------------------------- export


def _modes() -> list[tuple[str, str, int]]:
    return [(game.key, mode.key, mode.min_players) for game in all_games() for mode in game.modes]


async def _play(service: GameService, game: Game, people: list[Player], rnd: random.Random, limit: int) -> bool:
    """Random legal moves, trying one undo on the way; returns whether an undo was taken."""
    undone = False
    for _ in range(limit):
        match = await service.current(CHANNEL)
        if match.status != "active":
            break
        mover = game.to_act(match.state)[0]
        user = match.user_at(mover)
        assert user is not None
        await service.act(CHANNEL, user.user_id, rnd.choice(game.legal_actions(match.state, mover)))
        if undone:
            continue
        try:
            result = await undo.request_undo(service, CHANNEL, user.user_id)
        except undo.UndoRefused:
            continue
        if result.request is not None:
            for approver in result.request.approvers:
                result = await undo.answer_undo(service, result.request.id, approver, True, channel_id=CHANNEL)
        undone = result.applied
    return undone


@pytest.mark.parametrize(("game_key", "mode", "players"), _modes())
async def test_every_game_exports_and_the_export_replays_to_every_state(service: GameService, game_key: str,
                                                                       mode: str, players: int, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from bot.core import find_game

    game = find_game(game_key)
    people = PEOPLE[:players]
    match_id = await seat(service, game_key, people, mode=mode)
    with pytest.raises(Exception, match="only games that are over"):
        await history.export_match(service, GUILD, match_id)
    await _play(service, game, people, random.Random(match_id), limit=150)
    match = await service.match(match_id)
    if match.is_open:
        await service.abandon(CHANNEL, people[0].user_id, can_manage_channel=False)
    assert await service.replayed_state(match_id) == (await service.match(match_id)).state
    data = await history.export_match(service, GUILD, match_id)
    report = history.check_export(data)
    assert report.ok, report.failures
    assert report.steps == len(data["records"]) > 0
    exported = tmp_path / f"{game_key}-{match_id}.json"
    exported.write_text(json.dumps(data))
    assert main(["replay", str(exported)]) == 0
    assert capsys.readouterr().out == (f"OK: {game.title} game #{match_id}: the setup and {report.steps} records "
                                       "replay to the recorded states.\n")

    tampered = copy.deepcopy(data)
    drawn = next((r for r in tampered["records"] if r["draws"]), None)
    if drawn is not None:  # a die face or a shuffle changed
        drawn["draws"][0] = drawn["draws"][0] + 1
    else:  # no draws after setup: the deal changes instead
        tampered["setup"]["draws"][0] = tampered["setup"]["draws"][0] + 1
    tampered["sha256"] = history.digest({k: v for k, v in tampered.items() if k != "sha256"})  # a careful forger
    forged = history.check_export(tampered)
    assert not forged.ok and all("sha256" not in line for line in forged.failures)
    exported.write_text(json.dumps(tampered))
    assert main(["replay", str(exported)]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed[:-1] == forged.failures and printed[-1].startswith(f"FAILED: {game.title} game #{match_id}: ")


async def test_an_export_with_an_undo_replays_to_the_same_state(service: GameService) -> None:
    match_id = await seat(service, "test-nim", PEOPLE[:1], mode="solo")
    await service.act(CHANNEL, PEOPLE[0].user_id, {"type": "take", "count": 2})
    result = await undo.request_undo(service, CHANNEL, PEOPLE[0].user_id)
    assert result.applied
    await play_nim(service, CHANNEL, PEOPLE[:1])
    data = await history.export_match(service, GUILD, match_id)
    assert [r["kind"] for r in data["records"]][:2] == ["action", "undo"]
    assert history.check_export(data).ok
    wrong = copy.deepcopy(data)
    wrong["records"][1]["action"]["moves"] = 5
    assert any("could not be replayed" in line for line in history.check_export(wrong).failures)


async def test_a_replay_says_when_the_export_was_played_with_other_component_data(service: GameService) -> None:
    match_id = await seat(service, "test-nim", PEOPLE[:1], mode="solo")
    await play_nim(service, CHANNEL, PEOPLE[:1])
    data = await history.export_match(service, GUILD, match_id)
    assert history.check_export(data).ok
    edited = copy.deepcopy(data)
    edited["match"]["data_version"] = "owner-edit-7"
    edited["sha256"] = history.digest({k: v for k, v in edited.items() if k != "sha256"})
    installed = (await service.match(match_id)).data_version
    assert history.check_export(edited).failures == [
        f"the game was played with component data version owner-edit-7, this installation has {installed}: "
        "cards and tiles may differ, so a replay may not match"]


def test_the_replay_command_says_when_a_file_is_not_an_export(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.json").write_text('{"format": "something else"}')
    (tmp_path / "broken.json").write_text("{")
    assert main(["replay", str(tmp_path / "notes.json")]) == 2
    assert "not an Expedition Table export" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "broken.json")]) == 2
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().out.count("cannot be read as an export") == 2


async def test_history_pages_the_servers_games_and_keeps_the_channels_apart(service: GameService) -> None:
    for number in range(13):  # solo Nim games, finished at once by taking stones alone
        channel = CHANNEL + (number % 2)
        await seat(service, "test-nim", PEOPLE[:1], mode="solo", channel=channel)
        await play_nim(service, channel, PEOPLE[:1])
    await service.new_match(GUILD + 1, CHANNEL + 5, "test-nim", PEOPLE[1], mode="solo")  # another server's
    first = await history.history(service, GUILD, CHANNEL, page=1)
    assert (first.server_total, first.pages, len(first.server)) == (13, 2, 10)
    assert first.channel_total == 7 and len(first.channel) == history.CHANNEL_LINES
    assert all(match.channel_id == CHANNEL for match in first.channel)
    last = await history.history(service, GUILD, CHANNEL, page=5)  # past the end: the last page
    assert last.page == 2 and len(last.server) == 3
    ids = [m.id for m in first.server + last.server]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 13
    line = read(history.history_line(first.server[0]))
    assert line.startswith(f"#{ids[0]} · Test Nim (Solo) · ") and line.endswith("· Ada · won by Ada")


def test_the_leaderboard_image_is_legible_on_a_phone_and_never_cuts_a_name() -> None:
    import io

    from PIL import Image

    from rendering import kit, leaderboard

    long_name = "W" * 32  # Discord's longest display name, in its widest letter
    rows = [{"place": place, "name": long_name if place == 3 else f"Player {place}", "rating": 30 - place * 1.5,
             "games": place, "asker": False} for place in range(1, 11)]
    rows.append({"place": 17, "name": "Me", "rating": -3.25, "games": 1, "asker": True})
    view = {"title": "Monster Expedition: leaderboard", "subtitle": "Test Server", "rows": rows,
            "note": "Games with a computer player, a chosen seed or one player are unrated."}
    with kit.recording() as texts:
        png = leaderboard.render(view)
    image = Image.open(io.BytesIO(png))
    width, height = image.size
    assert width == 800 and height <= width <= 2 * height and len(png) <= 200_000
    small, big = kit.min_sizes(width)
    assert min(t.size for t in texts) >= small
    assert all(t.size >= big for t in texts if t.role in kit.BIG_ROLES)
    assert not any("…" in t.text for t in texts)
    assert max(t.top + t.size for t in texts) <= height
    names = "".join(t.text for t in texts if t.role == "name").replace("-", "")
    assert long_name in names and "Me" in names and "-3.2" in " ".join(t.text for t in texts)
    assert leaderboard.alt_text(view).startswith("Monster Expedition: leaderboard. 1. Player 1, rating 28.5")


async def test_two_approvals_at_once_from_two_processes_are_both_kept(service: GameService,
                                                                      database: Path | str) -> None:
    import asyncio

    from bot.store import Store

    match_id = await seat(service, "test-nim", PEOPLE)
    request = await service.store.create_undo_request(match_id, PEOPLE[0].user_id, 3, 1,
                                                      [PEOPLE[1].user_id, PEOPLE[2].user_id])
    other = await Store.open(database)  # a second bot process on the same database
    try:
        await asyncio.gather(service.store.approve_undo(request.id, PEOPLE[1].user_id),
                             other.approve_undo(request.id, PEOPLE[2].user_id))
    finally:
        await other.close()
    stored = await service.store.undo_request(request.id)
    assert stored is not None and stored.approved == (102, 103) and stored.waiting_for == ()
    assert await service.store.decide_undo(request.id, "approved", 103) is True
    assert await service.store.decide_undo(request.id, "refused", 102) is False  # closed once
    newer = await service.store.create_undo_request(match_id, PEOPLE[1].user_id, 3, 1, [101, 103])
    older = await service.store.create_undo_request(match_id, PEOPLE[2].user_id, 3, 1, [101, 102])
    assert (await service.store.undo_request(newer.id)).status == "lapsed"  # type: ignore[union-attr]
    assert older.status == "pending" and await service.store.approve_undo(newer.id, 101) is None


async def test_the_leaderboard_is_the_top_ten_and_the_askers_own_place(service: GameService) -> None:
    from bot.features import stats

    people = [Player(200 + number, f"P{number}") for number in range(12)]
    for pair in range(6):
        channel = CHANNEL + pair
        await seat(service, "test-nim", people[2 * pair:2 * pair + 2], channel=channel)
        await play_nim(service, channel, people[2 * pair:2 * pair + 2])
    everyone = sorted(await service.store.ratings(GUILD, "test-nim"),
                      key=lambda r: (-ratings.ordinal(r.mu, r.sigma), -r.games, r.user_id))  # ties by id
    assert len(everyone) == 12
    last = everyone[-1].user_id
    top, mine = await stats.leaderboard(service, GUILD, "test-nim", last)
    assert [row.place for row in top] == list(range(1, 11))
    assert mine is not None and mine.place == 12 and mine.user_id == last and mine.name == f"P{last - 200}"
    assert top[0].rating == pytest.approx(ratings.ordinal(everyone[0].mu, everyone[0].sigma))
    top_again, none = await stats.leaderboard(service, GUILD, "test-nim", top[0].user_id)
    assert none is None and top_again == top


async def test_exporting_a_lobby_says_it_has_not_started(service: GameService) -> None:
    lobby = await service.new_match(GUILD, CHANNEL, "test-nim", PEOPLE[0])
    assert lobby.status == "lobby"
    with pytest.raises(LobbyError) as refused:
        await history.export_match(service, GUILD, lobby.id)
    assert str(refused.value) == (f"Game #{lobby.id} has not started yet (its lobby is open): only games that are "
                                  "over can be replayed or exported.")


def test_the_ordinal_is_defined_once_and_is_openskills() -> None:
    """Review 13, finding 37: it was computed in three places (openskill's, the migration's SQL, a helper)."""
    from bot.store import schema

    for mu, sigma in ((25.0, 25 / 3), (31.2, 2.5), (12.0, 7.75)):
        assert schema.ordinal(mu, sigma) == pytest.approx(PlackettLuce().rating(mu=mu, sigma=sigma).ordinal())
    assert f"ordinal = mu - {schema.ORDINAL_SIGMAS} * sigma;" in schema.MIGRATIONS[schema.RATINGS_ORDINAL_MIGRATION - 1]
    assert ratings.ordinal is schema.ordinal  # the ratings of a match carry the same one
