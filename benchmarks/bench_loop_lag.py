"""Event-loop lag while 50 channels render a board at once: the render pool (worker processes) against
asyncio.to_thread (threads that share the interpreter lock with the loop); then while 50 channels play through the
service and someone exports a 2,000-move game and asks for /stats of an 800-game player.

    python benchmarks/bench_loop_lag.py [--channels 50] [--rounds 3] [--moves 2000] [--games 800]
    python benchmarks/bench_loop_lag.py --only records     # the second part only
    python benchmarks/bench_loop_lag.py --only records --no-freeze   # without the bot's gc.freeze() after its
                                                                     # start (bot/app.py setup_hook)
    python benchmarks/bench_loop_lag.py --only records --stalls      # and where the loop was whenever it stalled

A ticker sleeps 5 ms at a time on the loop and records how late it wakes: that lateness is what every other
channel's button press waits on. Targets: at most 25 ms of lag while 50 channels render (issue 9), and while they
play and a long export and a long career's /stats are made (issue 25). The records part also makes the export and
the stats as they were made before, on the loop, for comparison in the same run.

The records part first makes the export and the /stats alone, and prints the CPU the loop's own thread spent on
them (none of it waits for a core: the figure the work itself costs every channel, now and as it was made before).

The floor, measured at the same moment: a bare process that only runs the same ticker (how late this machine wakes
any process just then; on a shared machine that alone can exceed 25 ms), and the most CPU the loop's own thread
spent in one tick's window (the lag its own work can explain; the rest is waiting for a core or for the
interpreter lock). Each line also prints the worst round's loop max over that round's bare max, and the machine's
load average is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.games  # noqa: F401  (registers every game)
from bot import workers
from bot.core import JSON, Rng, all_games, find_game
from bot.features import history, stats
from bot.service import GameService, Player
from bot.store import Store, StoreUnavailable, results_of
from rendering import kit, render_board, render_detail
from rendering.pool import RenderPool

TICK = 0.005


def boards(count: int) -> list[tuple[str, JSON]]:
    """`count` public views from real positions of every game, mid-game."""
    views: list[tuple[str, JSON]] = []
    seed = 0
    while len(views) < count:
        for game in all_games():
            mode = game.modes[0]
            players = min(3, mode.max_players)
            state = game.setup(mode.key, [f"P{i}" for i in range(players)], Rng(seed, 0), {"profiles": [{}] * players})
            chooser = Rng(seed, 1)
            for step in range(40):
                waiting = game.to_act(state)
                if not waiting:
                    break
                state = game.apply(state, waiting[0], chooser.choice(game.legal_actions(state, waiting[0])),
                                   Rng(seed, step + 2)).state
            views.append((game.key, game.view(state, None)))
        seed += 1
    return views[:count]


BARE_TICKER = """
import signal, sys, time
tick, stop = float(sys.argv[1]), []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
lags = []
print("ready", flush=True)
while not stop:
    before = time.perf_counter()
    time.sleep(tick)
    lags.append((time.perf_counter() - before - tick) * 1000)
lags.sort()
print(lags[-1], lags[int(len(lags) * 0.99) - 1], flush=True)
"""
"""A process that does nothing but the ticker's sleep: how late the machine itself wakes a process at that moment."""


@dataclass(frozen=True)
class Lag:
    """What the ticker saw while some work ran, in ms: the loop's lag, a bare process's lag at the same time (the
    machine's floor), the most CPU the loop's thread spent in one tick's window, the work's wall time, the longest
    garbage collection of the bot process meanwhile (it stops the loop: a collection of the oldest generation walks
    every object the process holds), and the loop's max lag over the ticks that saw no collection."""

    loop_max: float
    loop_p99: float
    bare_max: float
    bare_p99: float
    loop_cpu: float
    wall: float
    collection: float
    max_without_collection: float


@contextmanager
def collections() -> Iterator[list[tuple[float, float]]]:
    """The garbage collections of this process meanwhile: each one's start and end (`time.perf_counter`)."""
    spans: list[tuple[float, float]] = []
    started: list[float] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            spans.append((started.pop(), time.perf_counter()))

    gc.callbacks.append(watch)
    try:
        yield spans
    finally:
        gc.callbacks.remove(watch)


class StallWatch:
    """Where the loop was whenever it stalled: a heartbeat on the loop every millisecond, and a thread that, while
    the heartbeat is more than `threshold` late, samples the loop thread's stack every `every` seconds. One stall is
    the samples of one late heartbeat; `report` prints the longest ones with their most sampled stack (the loop's
    own work shows as the code it ran; waiting for a core or the interpreter lock shows as the selector's poll or
    whatever line the loop was on when it lost the lock)."""

    def __init__(self, threshold: float = 0.010, every: float = 0.002) -> None:
        self.threshold, self.every = threshold, every
        self.beat = time.perf_counter()
        self.loop_thread = 0
        self.stalls: list[tuple[float, Counter[tuple[str, ...]]]] = []
        self.running = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop_thread, self.running = threading.get_ident(), True

        def heartbeat() -> None:
            self.beat = time.perf_counter()
            if self.running:
                loop.call_later(0.001, heartbeat)

        heartbeat()
        threading.Thread(target=self._watch, daemon=True).start()

    def stop(self) -> None:
        self.running = False

    def _watch(self) -> None:
        current: Counter[tuple[str, ...]] | None = None
        began = 0.0
        while self.running:
            time.sleep(self.every)
            late = time.perf_counter() - self.beat
            if late <= self.threshold:
                if current is not None:
                    self.stalls.append(((time.perf_counter() - began) * 1000, current))
                    current = None
                continue
            frame = sys._current_frames().get(self.loop_thread)
            if frame is None:
                continue
            if current is None:
                current, began = Counter(), self.beat
            current[tuple(f"{Path(f.filename).name}:{f.lineno} {f.name}"
                          for f in reversed(traceback.extract_stack(frame)[-14:]))] += 1

    def report(self, longest: int = 8) -> None:
        print(f"stalls: {len(self.stalls)} heartbeats more than {self.threshold * 1000:.0f} ms late; the longest, "
              "with the stack sampled most often in each (innermost first):")
        for span, samples in sorted(self.stalls, key=lambda stall: -stall[0])[:longest]:
            stack, count = samples.most_common(1)[0]
            print(f"  {span:6.1f} ms ({count} of {sum(samples.values())} samples)")
            for line in stack[:10]:
                print(f"      {line}")


async def lag_while(work: Callable[[], Awaitable[object]]) -> Lag:
    """The lag while `work` runs, beside a bare process's (see `Lag`)."""
    ticks: list[tuple[float, float]] = []  # each tick's window: when it slept, when it woke
    cpu: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            before, spent = time.perf_counter(), time.thread_time()
            await asyncio.sleep(TICK)
            ticks.append((before, time.perf_counter()))
            cpu.append((time.thread_time() - spent) * 1000)

    bare = await asyncio.create_subprocess_exec(sys.executable, "-c", BARE_TICKER, str(TICK),
                                                stdout=asyncio.subprocess.PIPE)
    assert bare.stdout is not None
    await bare.stdout.readline()
    with collections() as spans:
        task = asyncio.create_task(ticker())
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        await work()
        wall = (time.perf_counter() - started) * 1000
        done.set()
        await task
    bare.terminate()
    bare_max, bare_p99 = (float(x) for x in (await bare.communicate())[0].split())
    lags = sorted((woke - slept - TICK) * 1000 for slept, woke in ticks)
    clear = [(woke - slept - TICK) * 1000 for slept, woke in ticks
             if not any(start < woke and end > slept for start, end in spans)]
    return Lag(lags[-1], lags[int(len(lags) * 0.99) - 1], bare_max, bare_p99, max(cpu), wall,
               max(((end - start) * 1000 for start, end in spans), default=0.0), max(clear, default=0.0))


async def loop_cpu(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """`work`'s wall time and the CPU the loop's own thread spent on it, in ms (with nothing else on the loop, the
    thread's CPU is the work's: what every channel waits for; a worker's or a database thread's is not counted)."""
    started, spent = time.perf_counter(), time.thread_time()
    await work()
    return (time.perf_counter() - started) * 1000, (time.thread_time() - spent) * 1000


def report(label: str, results: list[Lag], width: int = 44) -> None:
    """One line per kind of work, over its rounds: the worst max lag, the median p99, and the same of the bare
    process measured at the same time; the ratio is the worst round's loop max over that round's bare max."""
    worst = max(results, key=lambda r: r.loop_max)
    print(f"{label:<{width}} max {worst.loop_max:6.1f} ms  p99 {statistics.median(r.loop_p99 for r in results):5.1f}"
          f" | bare process max {worst.bare_max:6.1f}  p99 {statistics.median(r.bare_p99 for r in results):5.1f}"
          f" | ratio {worst.loop_max / max(worst.bare_max, 0.1):4.1f}x"
          f" | loop CPU per tick <= {max(r.loop_cpu for r in results):5.1f} ms"
          f" | longest GC {max(r.collection for r in results):5.1f} ms"
          f" | max without GC {max(r.max_without_collection for r in results):5.1f} ms", flush=True)


GUILD = 1
ALICE, BOB = Player(1, "Alice"), Player(2, "Bob")


async def long_game(service: GameService, moves: int) -> int:
    """A game of `moves` moves that is over: Expeditions with five players making random legal moves through the
    service, abandoned at its `moves`th move (a game that ends sooner is followed by the next seed's)."""
    game = find_game("expeditions")
    players = [Player(10 + seat, f"Player {seat}") for seat in range(5)]
    for seed in range(100):
        channel = 900_000 + seed
        await service.new_match(GUILD, channel, "expeditions", players[0], seed=seed)
        for player in players[1:]:
            await service.join(channel, player)
        match = await service.start(channel, players[0].user_id)
        chooser, made = random.Random(seed), 0
        while match.status == "active" and made < moves:
            seat = game.to_act(match.state)[0]
            action = chooser.choice(game.legal_actions(match.state, seat))
            match = (await service.act(channel, match.seats[seat].user_id, action)).match
            made += 1
        if made == moves:
            if match.status == "active":
                match = await service.abandon(channel, players[0].user_id, can_manage_channel=True)
            print(f"  an Expeditions game of {made} moves (seed {seed}, {match.status})")
            return match.id
    raise RuntimeError(f"no game lasted {moves} moves")


async def long_career(service: GameService, games: int) -> None:
    """Alice's `games` finished games of The Expedition against Bob: one played through the service, the others
    stored with its final state and results (their cost to /stats is the same), then rated by a first /stats."""
    game = find_game("the-expedition")
    await service.new_match(GUILD, 800_000, "the-expedition", ALICE)
    await service.join(800_000, BOB)
    match = await service.start(800_000, ALICE.user_id)
    chooser = random.Random(1)
    while match.status == "active":
        seat = game.to_act(match.state)[0]
        match = (await service.act(800_000, match.seats[seat].user_id,
                                   chooser.choice(game.legal_actions(match.state, seat)))).match
    store = service.store
    results = results_of(game.outcome(match.state), range(2))  # what finishing it through the service keeps
    for number in range(1, games):
        copy = await store.create_match(guild_id=GUILD, channel_id=800_000 + number, game=match.game,
                                        mode=match.mode, host_id=ALICE.user_id, host_name=ALICE.name, seed=number,
                                        seed_chosen=False, options={}, data_version=match.data_version)
        await store.record(copy.id, copy.version, "started", state=match.state, status="finished",
                           seats=[(ALICE.user_id, ALICE.name), (BOB.user_id, BOB.name)], results=results)
    await stats.player_stats(service, GUILD, ALICE.user_id)  # rates the copies once
    print(f"  Alice has {games} finished games of The Expedition")


SPREAD = 0.25
"""The channels begin playing spread over this many seconds: players do not press in the same millisecond. (When
they do, every channel's first press is handled in the same turn of the loop, ~0.5 ms each: the "same instant"
line shows that burst.)"""


async def play_channels(service: GameService, channels: int, stop: asyncio.Event,
                        spread: float = SPREAD) -> tuple[int, int]:
    """Every channel plays Monster Expedition through the service (move, then its board drawn), each moving again
    as soon as its board is back, until `stop`, the channels beginning one after another over `spread` seconds;
    how many moves were made, and how many the store refused because its deadline passed (a loop held up for
    seconds leaves the writes queued behind it that long)."""
    game = find_game("monster-expedition")
    moved = refused = 0

    async def channel(number: int) -> None:
        nonlocal moved, refused
        rnd, id_ = random.Random(number), 700_000 + number
        await asyncio.sleep(spread * number / channels)
        while not stop.is_set():
            try:
                match = await service.open_match(id_)
                if match is None or match.status != "active":
                    one, two = Player(3 * number + 100, f"A{number}"), Player(3 * number + 101, f"B{number}")
                    await service.new_match(GUILD, id_, "monster-expedition", one)
                    await service.join(id_, two)
                    match = await service.start(id_, one.user_id)
                seat = game.to_act(match.state)[0]
                accepted = await service.act(id_, match.seats[seat].user_id,
                                             rnd.choice(game.legal_actions(match.state, seat)))
            except StoreUnavailable:
                refused += 1
                continue
            await service.board(accepted.match)
            moved += 1

    tasks = [asyncio.create_task(channel(number)) for number in range(channels)]
    await stop.wait()
    await asyncio.gather(*tasks)
    return moved, refused


async def records_part(args: argparse.Namespace) -> None:
    """Lag while `channels` play and an export and a /stats are made, off the loop (now) and on it (before)."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "lag.sqlite3")
        service = GameService(store)
        service.warm_up()  # as the bot's start does
        await service.render_pool.start()
        print(f"records: building the data ({args.moves}-move game, {args.games} finished games)...")
        long_id = await long_game(service, args.moves)
        await long_career(service, args.games)
        long_match = await store.match(long_id)
        assert long_match is not None
        await history.export_file(service, GUILD, long_id)  # the records worker started and warm
        if args.freeze:  # what the process holds now is never walked by a collection again
            gc.collect()
            gc.freeze()
            print(f"  gc.freeze(): {gc.get_freeze_count()} objects set aside")

        async def export_now() -> None:  # built in the records worker, which reads the events itself
            await history.export_file(service, GUILD, long_id)

        async def stats_now() -> None:  # counted from the result rows each finished game keeps
            await stats.player_stats(service, GUILD, ALICE.user_id)

        async def off_loop() -> None:
            await asyncio.gather(export_now(), stats_now())

        async def export_before() -> None:  # as before issue 25: every event decoded and replayed on the loop
            events = await store.events(long_id)
            json.dumps(history.export_of(long_match, events), indent=1, sort_keys=True, ensure_ascii=False)

        async def stats_before() -> None:  # as before issue 25: every final state read and decoded on the loop
            for match in await store.player_matches(GUILD, ALICE.user_id):
                find_game(match.game).outcome(match.state)

        async def on_loop() -> None:
            await export_before()
            await stats_before()

        async def play_while(work: Callable[[], Awaitable[None]] | None,
                             spread: float = SPREAD) -> Callable[[], Awaitable[None]]:
            async def run() -> None:
                stop = asyncio.Event()
                playing = asyncio.create_task(play_channels(service, args.channels, stop, spread))
                await asyncio.sleep(1.0)
                if work is not None:
                    started = time.perf_counter()
                    await work()
                    print(f"    (export and /stats answered in {(time.perf_counter() - started) * 1000:.0f} ms)")
                else:
                    await asyncio.sleep(1.0)
                stop.set()
                moved, refused = await playing
                if refused:
                    print(f"    ({moved} moves made, {refused} refused: the store's deadline passed)")
            return run

        print(f"export and /stats alone (nothing else on the loop), median of {args.rounds}: wall time, and the CPU "
              "the loop's own thread spent")
        for label, work in (("export, in the records worker", export_now), ("/stats, from result rows", stats_now),
                            ("export on the loop (before)", export_before),
                            ("/stats from final states on the loop (before)", stats_before)):
            spent = [await loop_cpu(work) for _ in range(args.rounds)]
            print(f"  {label:<46} {statistics.median(wall for wall, _ in spent):7.1f} ms, "
                  f"loop CPU {statistics.median(cpu for _, cpu in spent):7.1f} ms", flush=True)
        print(f"{args.channels} channels play Monster Expedition through the service (move, then board drawn), "
              f"beginning over {SPREAD:g} s")
        watch = StallWatch() if args.stalls else None
        if watch is not None:  # from here on: the stalls of the lag lines below
            watch.start(asyncio.get_running_loop())
        for label, work, spread in (("play only", None, SPREAD),
                                    ("play + export & /stats off the loop", off_loop, SPREAD),
                                    ("play + export & /stats on the loop (before)", on_loop, SPREAD),
                                    ("play, first presses at the same instant", None, 0.0)):
            report(label, [await lag_while(await play_while(work, spread)) for _ in range(args.rounds)])
        print("target: max lag <= 25 ms with export and /stats off the loop")
        print(f"machine: {machine()}")
        if watch is not None:
            watch.stop()
            watch.report()
        service.render_pool.close()
        workers.close()
        await store.close()


def machine() -> str:
    return f"{os.cpu_count()} cores, load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())} (1/5/15 min)"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=2000, help="moves of the exported game (records part)")
    parser.add_argument("--games", type=int, default=800, help="finished games of the /stats player")
    parser.add_argument("--only", choices=("boards", "records"), help="run one part only")
    parser.add_argument("--no-freeze", dest="freeze", action="store_false",
                        help="records part: no gc.freeze() once the data is built (the bot freezes what its start "
                             "built: collections walk only newer objects)")
    parser.add_argument("--stalls", action="store_true",
                        help="records part: sample the loop's stack whenever it is 10 ms late, and print the longest "
                             "stalls with where the loop was (the sampling thread itself adds a little lag)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.only != "boards":
        await records_part(args)
    if args.only == "records":
        return
    views = boards(args.channels)
    kit.warm_up()
    for key, view in views:  # threads get warm caches too, for a fair comparison
        render_board(key, view)
    pool = RenderPool()
    await pool.start()
    await asyncio.gather(*(pool.render(key, view) for key, view in views))  # warm the workers' caches

    async def through_pool() -> None:
        await asyncio.gather(*(pool.render(key, view) for key, view in views))

    async def through_threads() -> None:
        await asyncio.gather(*(asyncio.to_thread(render_board, key, view) for key, view in views))

    async def full_size_through_threads() -> None:
        await asyncio.gather(*(asyncio.to_thread(render_detail, key, view) for key, view in views))

    async def idle() -> None:
        await asyncio.sleep(0.5)

    print(f"{args.channels} channels render at once; {pool.workers} worker processes; ticker every 5 ms")
    for label, work in (("idle loop (floor)", idle), ("to_thread, 1280 boards", full_size_through_threads),
                        ("to_thread, phone", through_threads), ("RenderPool, phone", through_pool)):
        results = [await lag_while(work) for _ in range(args.rounds)]
        report(label, results, 24)
        print(f"{'':<24} all boards in {statistics.median(r.wall for r in results):6.0f} ms")
    pool.close()
    print("target: max lag <= 25 ms with the pool")
    print(f"machine: {machine()}")


if __name__ == "__main__":
    asyncio.run(main())
