"""A bot's start loads what the first match of each game would otherwise load on the event loop (issue 25: each
first load held the loop 20-40 ms): after GameService.warm_up, the first match of every game reads no data file,
parses no catalogue and imports no renderer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

_FIRST_MATCHES = """
import asyncio, json, sys, tempfile, tomllib
from pathlib import Path

import bot.games
from bot.core import all_games
from bot.i18n import catalog
from bot.service import GameService, Player
from bot.store import Store

loaded = {"data files": 0, "catalogues": 0}
real_toml, real_po = tomllib.load, catalog.read_po

def counting_toml(*args, **kwargs):
    loaded["data files"] += 1
    return real_toml(*args, **kwargs)

def counting_po(*args, **kwargs):
    loaded["catalogues"] += 1
    return real_po(*args, **kwargs)

async def main(warm: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "games.sqlite3")
        service = GameService(store, renderer=lambda key, view: b"")
        if warm:
            service.warm_up()
        tomllib.load, catalog.read_po = counting_toml, counting_po
        import rendering
        drawings = ("rendering.", *rendering.drawing_modules())  # (the kit's modules and every game's drawing)
        renderers_before = {name for name in sys.modules if name.startswith(drawings)}
        for channel, game in enumerate(g for g in all_games() if g.key in ("the-expedition", "monster-expedition",
                                                                          "expeditions")):
            host, guest = Player(10 + channel, "Ann"), Player(20 + channel, "Ben")
            await service.new_match(1, 100 + channel, game.key, host)
            if game.modes[0].max_players > 1:
                await service.join(100 + channel, guest)
            match = await service.start(100 + channel, host.user_id)
            seat = game.to_act(match.state)[0]
            moved = await service.act(100 + channel, match.seats[seat].user_id,
                                      game.legal_actions(match.state, seat)[0])
            import rendering
            rendering.alt_text(game.key, game.view(moved.match.state, None))
        imported = sorted({name for name in sys.modules if name.startswith(drawings)} - renderers_before)
        await store.close()
    print(json.dumps({**loaded, "renderers imported": imported}))

asyncio.run(main(sys.argv[1] == "warm"))
"""


@pytest.mark.parametrize("warm", [True, False])
def test_after_the_warm_up_the_first_matches_load_nothing(warm: bool) -> None:
    done = subprocess.run([sys.executable, "-c", _FIRST_MATCHES, "warm" if warm else "cold"], capture_output=True,
                          text=True, check=True, cwd=Path(__file__).parent.parent, timeout=180)
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    if warm:
        assert loaded == {"data files": 0, "catalogues": 0, "renderers imported": []}
    else:  # (what the warm-up spares the first matches)
        assert loaded["data files"] > 0 and loaded["catalogues"] > 0 and loaded["renderers imported"]
