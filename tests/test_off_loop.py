"""Work that grows with a game runs off the event loop (issue 25): an export and /stats of a real game are built in
the records worker process, and give what building them in the bot process gives."""

from __future__ import annotations

import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot import workers
from bot.core import find_game
from bot.features import history, stats
from bot.service import GameService, Player


class CountingPool(ProcessPoolExecutor):
    submitted = 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(*args, **kwargs)


ALICE, BOB = Player(501, "Alice"), Player(502, "Bob")
GUILD, CHANNEL = 1, 88


async def _finished_game(service: GameService, game_key: str) -> int:
    game = find_game(game_key)
    await service.new_match(GUILD, CHANNEL, game_key, ALICE, seed=5)  # a fixed game: its length is known
    await service.join(CHANNEL, BOB)
    match = await service.start(CHANNEL, ALICE.user_id)
    chooser = random.Random(3)
    while match.status == "active":
        seat = game.to_act(match.state)[0]
        action = chooser.choice(game.legal_actions(match.state, seat))
        match = (await service.act(CHANNEL, match.seats[seat].user_id, action)).match
    assert match.status == "finished"
    return match.id


async def test_an_export_and_stats_of_a_real_game_come_from_the_worker_process(service: GameService) -> None:
    match_id = await _finished_game(service, "the-expedition")
    match = await service.store.match(match_id)
    assert match is not None
    pool = CountingPool(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                        initializer=workers.register_games)
    workers.use_executor(pool)
    try:
        key, text = await history.export_file(service, GUILD, match_id)
        found = await stats.player_stats(service, GUILD, ALICE.user_id)
    finally:
        workers.close()
    assert pool.submitted == 2  # the export and the game's tally, each in the worker process
    assert key == "the-expedition"
    data = json.loads(text)
    assert data == json.loads(json.dumps(history.export_of(match, await service.store.events(match_id))))
    assert history.check_export(data).ok
    assert len(data["records"]) >= 10
    outcome = find_game("the-expedition").outcome(match.state)
    assert outcome is not None
    [record] = found.per_game
    assert (record.played, record.wins) == (1, int(0 in outcome.winners))
    assert record.best == outcome.scores[0]
