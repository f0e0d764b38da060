"""Board rendering benchmark: every public board of real matches against the PNG-encode floor of the same image,
measured side by side in this run.

    python benchmarks/bench_render.py                  # print figures
    python benchmarks/bench_render.py --write DIR      # also save the README pictures (and each at phone size)
    python benchmarks/bench_render.py --language de    # the same matches with German boards
    python benchmarks/bench_render.py --detail         # the detail boards of the same positions instead

Each game and mode is played with legal moves from a fixed seed of its own (`--seed`, the next for the next match:
two modes played from one seed can be the same match, whose boards the other's would find in the caches); the
benchmark takes 7 consecutive boards from the
middle of each match and its last 3 (the final board among them). Boards are drawn in turn across the matches (one
board of each, then the next of each), as a render worker serving many channels does, so no cache is warm for one
image only. Each pass starts with every rendering cache empty (fonts loaded, as a worker's start does) and draws
the 2 boards before each window untimed, so every timing is the first time that exact board is drawn, with the
match's earlier boards drawn before it. A worker's start (fonts, the drawable characters, the games' names
rasterised: rendering/vocabulary.py) is redone at each pass and not timed. Each view reaches the render as a
worker receives it, just unpickled from the pool's call queue (untimed: transport, not drawing). Per board:
the median over passes of the render (view -> PNG bytes, what a worker does, with its share of the worker's
upkeep between boards: rendering.pool.upkeep) and of the floor (the bare
compression of the same finished board, already in its palette: Pillow's PNG with the standard library's zlib at
the boards' level 3, as boards were compressed before the project's own encoder), timed one right after the other
in this thread's CPU time, which a shared machine's other processes do not inflate (--wall for wall-clock time).
The render compresses with rendering/png.py: bands of rows reused from recent boards, the rest deflated by ISA-L
(python-isal) to the size zlib's level 3 gives; its own bare cost (every band compressed afresh, nothing drawn) is
printed beside the floor, so the two can be told apart.

With --detail, the detail boards (rendering.render_detail: full size, on demand) of the same positions, against the
same kind of floor (the finished detail board mapped to the boards' palette, untimed, then compressed by Pillow with
zlib level 3), one board of each match in turn from empty caches as above, and each one's PNG size.

Targets (issues 9 and 25): every board <= 1.3x the bare compression of its palette image; PNG <= 200 KB.
"""

from __future__ import annotations

import argparse
import io
import pickle
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from PIL import Image

import bot.games  # noqa: F401  (registers every game)
from bot.core import JSON, Game, Rng, all_games
from bot.core.datafiles import data_root
from rendering import clear_caches, drawing, kit, png, render_board, render_detail
from rendering.glyphs import drawable_view
from rendering.pool import TRIM_EVERY, upkeep, worker_start

COUNTS = {("the-expedition", "standard"): (2, 3), ("the-expedition", "abstract"): (2, 3),
          ("monster-expedition", "standard"): (2, 3, 4), ("expeditions", "standard"): (1, 3, 5)}
MIDDLE, END, LEAD_IN = 7, 3, 2
TARGET = 1.3
DATA = str(data_root())
"""The games' data folder, whose names a render worker warms (the bot hands it to its workers)."""
CLOCK = time.thread_time
"""Both sides are timed in this thread's CPU time: a board and its encoding are pure CPU work in one thread, and on
a shared machine the CPU time does not count the moments another process had the core (wall time: --wall)."""


@dataclass
class Case:
    """One match: its game, mode and player count, and the boards taken from it."""

    game: Game
    module: ModuleType
    mode: str
    players: int
    views: list[JSON]
    labels: list[str]
    lead_in: list[JSON]
    renders: list[list[float]] = field(default_factory=list)
    floors: list[list[float]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    details: list[list[float]] = field(default_factory=list)
    detail_floors: list[list[float]] = field(default_factory=list)
    detail_sizes: list[int] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.game.key} {self.mode} {self.players}p"


def play(game: Game, mode: str, players: int, seed: int, language: str = "en") -> list[JSON]:
    """Every state of one match played with seeded random legal moves, from setup to the end, at a table of the
    language given (a game may keep it in its state, as the service's setup options give it: Expeditions does)."""
    options = {"profiles": [{}] * players, "language": language}
    state = game.setup(mode, [f"Player {i + 1}" for i in range(players)], Rng(seed, 0), options)
    states = [state]
    chooser = Rng(seed, 10**6)
    step = 0
    while (waiting := game.to_act(state)) and step < 5000:
        step += 1
        action = chooser.choice(game.legal_actions(state, waiting[0]))
        state = game.apply(state, waiting[0], action, Rng(seed, step)).state
        states.append(state)
    return states


def cases(seed: int, language: str = "en") -> list[Case]:
    out = []
    for game in all_games():
        module = drawing(game.key)
        for mode in game.modes:
            for players in COUNTS.get((game.key, mode.key), (mode.min_players,)):
                states = play(game, mode.key, players, seed + len(out), language)
                middle = max(0, min(len(states) // 2, len(states) - MIDDLE - END))
                picked = list(range(middle, middle + MIDDLE)) + list(range(len(states) - END, len(states)))
                labels = [f"mid+{i}" for i in range(MIDDLE)] + [f"end-{END - 1 - i}" for i in range(END)]
                views = [{**game.view(states[index], None), "language": language} for index in picked]
                end = len(states) - END
                lead_in = [{**game.view(states[index], None), "language": language}
                           for index in (*range(max(0, middle - LEAD_IN), middle), *range(max(0, end - LEAD_IN), end))]
                out.append(Case(game, module, mode.key, players, views, labels, lead_in))
    return out


ENCODES: list[tuple[float, float, float, float]] = []
"""Per board: ms to draw it again (drawn in the boards' palette, caches warm from the timed render), to compress it
(the floor), to encode it as before issue 25 (a 64-colour octree of its own, zlib level 6, from the board drawn
in RGB), and to compress it with the render's own encoder with no band reused, for the same board in the same run."""


def _octree_ms(image: Image.Image, clock: Callable[[], float]) -> float:
    rgb = image.convert("RGB")  # (the board as drawn in RGB before: the palette's colours are its colours)
    started = clock()
    rgb.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        io.BytesIO(), format="PNG", compress_level=6)
    return (clock() - started) * 1000


UPKEEPS: list[float] = []
"""Per pass: the ms of the worker's upkeep (rendering.pool.upkeep: garbage collection and memory handed back, every
TRIM_EVERY boards) shared out over the boards drawn in the pass, added to each board's render."""


def one_pass(all_cases: list[Case], clock: Callable[[], float] = CLOCK) -> None:
    """Every board once, one board of each match in turn; render then floor, side by side. Every `TRIM_EVERY`
    boards drawn, the worker's upkeep as a worker does it (between boards); its time is shared out over the pass's
    boards, so each board's render carries its part."""
    clear_caches()
    worker_start(DATA)  # a fresh worker's start
    for case in all_cases:
        case.renders.append([])
        case.floors.append([])
    drawn_boards = 0
    upkeep_ms = 0.0

    def drawn_one() -> None:
        nonlocal drawn_boards, upkeep_ms
        drawn_boards += 1
        if drawn_boards % TRIM_EVERY == 0:
            started = clock()
            upkeep(drawn_boards)
            upkeep_ms += (clock() - started) * 1000

    for index in range(MIDDLE + END):
        if index in (0, MIDDLE):  # the boards just before each window, as the match's worker drew them
            for lead in range(LEAD_IN):
                for case in all_cases:
                    views = case.lead_in[:LEAD_IN] if index == 0 else case.lead_in[LEAD_IN:]
                    if lead < len(views):
                        render_board(case.game.key, views[lead])
                        drawn_one()
        for case in all_cases:
            view = pickle.loads(pickle.dumps(case.views[index]))  # as a worker receives it from the pool
            started = clock()
            board = render_board(case.game.key, view)
            render_ms = (clock() - started) * 1000
            drawn_one()
            started = clock()
            image = case.module.render_image(drawable_view(view))
            drawn = clock()
            kit.compress_board(kit.board_indexed(image))  # (a public board is drawn in the palette: no mapping)
            floor_ms = (clock() - drawn) * 1000
            bare = clock()
            png.encode(image, kit.BOARD_COMPRESSION, reuse=False)
            bare_ms = (clock() - bare) * 1000
            ENCODES.append(((drawn - started) * 1000, floor_ms, _octree_ms(image, clock), bare_ms))
            kit.recycle(image)  # the measuring copy goes back as a worker's board does, not to fresh memory
            case.renders[-1].append(render_ms)
            case.floors[-1].append(floor_ms)
            if len(case.sizes) <= index:
                case.sizes.append(len(board))
    share = upkeep_ms / drawn_boards
    UPKEEPS.append(share)
    for case in all_cases:
        case.renders[-1] = [render_ms + share for render_ms in case.renders[-1]]


def detail_pass(all_cases: list[Case], clock: Callable[[], float] = CLOCK) -> None:
    """Every position's detail board once, one of each match in turn, from empty caches (a fresh worker's start);
    each render (view -> PNG bytes) then the floor of the same finished board, side by side."""
    clear_caches()
    worker_start(DATA)
    for case in all_cases:
        case.details.append([])
        case.detail_floors.append([])
    for index in range(MIDDLE + END):
        for case in all_cases:
            view = pickle.loads(pickle.dumps(case.views[index]))
            started = clock()
            board = render_detail(case.game.key, view)
            render_ms = (clock() - started) * 1000
            indexed = kit.board_indexed(case.module.detail_image(drawable_view(view)))  # (mapping not timed)
            started = clock()
            kit.compress_board(indexed)
            case.detail_floors[-1].append((clock() - started) * 1000)
            case.details[-1].append(render_ms)
            if len(case.detail_sizes) <= index:
                case.detail_sizes.append(len(board))


def summarise(all_cases: list[Case], detail: bool, quiet: bool, wall: bool) -> None:
    """Per board (unless `quiet`) and per match the median render, floor, ratio and size; then over all boards."""
    ratios: list[float] = []
    sizes: list[int] = []
    renders: list[float] = []
    worst: tuple[float, str] = (0.0, "")
    print(f"{'match':<34} {'board':<6} {'render':>8} {'floor':>8} {'ratio':>6} {'KB':>6}")
    for case in all_cases:
        passes, floors = (case.details, case.detail_floors) if detail else (case.renders, case.floors)
        case_sizes = case.detail_sizes if detail else case.sizes
        case_ratios = []
        for index, label in enumerate(case.labels):
            render_ms = statistics.median(p[index] for p in passes)
            floor_ms = statistics.median(p[index] for p in floors)
            ratio = render_ms / floor_ms
            case_ratios.append(ratio)
            renders.append(render_ms)
            sizes.append(case_sizes[index])
            worst = max(worst, (ratio, f"{case.name} {label}"))
            if not quiet:
                flag = "  over" if ratio > TARGET else ""
                print(f"{case.name:<34} {label:<6} {render_ms:6.1f}ms {floor_ms:6.1f}ms {ratio:5.2f}x "
                      f"{case_sizes[index] / 1024:6.1f}{flag}")
        ratios += case_ratios
        print(f"{case.name:<34} median {statistics.median(case_ratios):.2f}x, worst {max(case_ratios):.2f}x")
    over = sum(1 for r in ratios if r > TARGET)
    kind = "detail boards: " if detail else ""
    print(f"{kind}{'wall-clock' if wall else 'CPU'} time; render / encode floor over {len(ratios)} boards:"
          f" median {statistics.median(ratios):.2f}x, "
          f"worst {worst[0]:.2f}x ({worst[1]}), {over} over {TARGET}x; render median {statistics.median(renders):.1f}"
          f" ms, max {max(renders):.1f} ms; PNG median {statistics.median(sizes) / 1024:.1f} KB, "
          f"max {max(sizes) / 1024:.1f} KB (target <= 200 KB)")


SHOWCASE = {"monster-expedition": lambda view: bool(view["tray"]["rolled"] or view["tray"]["banked"]),
            "expeditions": lambda view: bool(view.get("reachable"))}
"""What the README's picture of a game should show when the match's boards have it: dice on the table, the
spaces a mech can reach."""


def write_pictures(all_cases: list[Case], folder: Path) -> None:
    """The README pictures: a mid-game board of each game's first mode with 3 players (or its first count), one
    that shows the game's own pieces (SHOWCASE) when a board of the window does, and each at phone size."""
    folder.mkdir(parents=True, exist_ok=True)
    done: set[str] = set()
    for case in sorted(all_cases, key=lambda c: c.players != 3):
        if case.game.key in done or case.mode != case.game.modes[0].key:
            continue
        done.add(case.game.key)
        wanted = SHOWCASE.get(case.game.key, lambda view: True)
        view = next((v for v in case.views[:MIDDLE] if wanted(v)), case.views[0])
        (folder / f"{case.game.key}.png").write_bytes(render_board(case.game.key, view))
        image = case.module.render_image(drawable_view(view))
        phone = image.resize((kit.PHONE_COLUMN, image.height * kit.PHONE_COLUMN // image.width),
                             Image.Resampling.LANCZOS)
        (folder / f"{case.game.key}-phone.png").write_bytes(kit.encode_png(phone, optimize=True))


def public_figures(all_cases: list[Case], passes: int, quiet: bool, clock: Callable[[], float]) -> None:
    """The public boards' passes and figures (the benchmark's default)."""
    for _ in range(passes):
        one_pass(all_cases, clock)
    summarise(all_cases, False, quiet, clock is not CLOCK)
    drawings, floors, octrees, bares = (statistics.median(column) for column in zip(*ENCODES, strict=True))
    renders = [statistics.median(p[index] for p in case.renders) for case in all_cases
               for index in range(len(case.labels))]
    print(f"medians: render (view -> PNG) {statistics.median(renders):.1f} ms; the floor (Pillow, zlib level "
          f"{kit.BOARD_COMPRESSION}) {floors:.2f} ms; the render's own encoder with no band reused "
          f"({png.compressor_name()}) {bares:.2f} ms = {bares / floors:.2f}x the floor; the same board drawn again "
          f"with warm caches {drawings:.2f} ms; encoding as before issue 25 (64-colour octree, level 6) "
          f"{octrees:.2f} ms = {octrees / floors:.1f}x the floor")
    print(f"the worker's upkeep every {TRIM_EVERY} boards (garbage collection, memory handed back), shared out: "
          f"{statistics.median(UPKEEPS):.3f} ms a board (included in each render above)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", type=Path, default=None, help="folder for the README pictures")
    parser.add_argument("--passes", type=int, default=9, help="passes over every board (medians are taken)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quiet", action="store_true", help="only the summary per match and overall")
    parser.add_argument("--wall", action="store_true", help="time in wall-clock time instead of CPU time")
    parser.add_argument("--detail", action="store_true",
                        help="the detail boards of the same positions instead of the public boards")
    parser.add_argument("--language", default="en", help="the boards' language (view['language']): en, de")
    args = parser.parse_args()
    clock = time.perf_counter if args.wall else CLOCK
    worker_start(DATA)  # as a render worker starts: fonts loaded, the characters they draw read
    all_cases = cases(args.seed, args.language)
    if args.detail:
        for _ in range(args.passes):
            detail_pass(all_cases, clock)
        summarise(all_cases, True, args.quiet, args.wall)
    else:
        public_figures(all_cases, args.passes, args.quiet, clock)
    if args.write is not None:
        write_pictures(all_cases, args.write)


if __name__ == "__main__":
    main()
