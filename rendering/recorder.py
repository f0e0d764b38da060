"""What a board drew, for the tests: every text with its size, role and box, and every mark (a token, a die, a card)
that text must not run into, collected inside `recording()` and costing nothing outside it.

Kept apart because every drawing module notes what it draws here, and cached pieces (`Face`) carry what was drawn
on them so a board that pastes them replays it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from PIL import Image

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class DrawnText:
    """One piece of text drawn on a board: its font size in px, its role, the text itself, where its line starts
    (its anchor's y) and the box its ink covers (tests check legibility, overlaps and that nothing runs off)."""

    size: int
    role: str
    text: str
    top: float = 0.0
    box: Box = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Mark:
    """A piece drawn on a board that text must not run into: a player's token, a die, a badge, a card."""

    kind: str
    box: Box


class Recording(list[DrawnText]):
    """The texts drawn inside `recording()` (a list, as the legibility tests read it) and the marks beside them."""

    def __init__(self) -> None:
        super().__init__()
        self.marks: list[Mark] = []
        self.canvas: tuple[int, int] | None = None

    def shifted(self, dx: float, dy: float) -> tuple[list[DrawnText], list[Mark]]:
        def move(box: Box) -> Box:
            return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy

        return ([DrawnText(t.size, t.role, t.text, t.top + dy, move(t.box)) for t in self],
                [Mark(m.kind, move(m.box)) for m in self.marks])


_RECORDER: ContextVar[Recording | None] = ContextVar("text_recorder", default=None)


@contextlib.contextmanager
def recording() -> Iterator[Recording]:
    """Collect every text and mark drawn by boards rendered inside the block (tests assert the legibility limits
    and the absence of overlaps on it). Costs nothing when no test records."""
    drawn = Recording()
    token = _RECORDER.set(drawn)
    try:
        yield drawn
    finally:
        _RECORDER.reset(token)


def is_recording() -> bool:
    """Whether a test is recording what boards draw (a cache may keep pieces built for it apart)."""
    return _RECORDER.get() is not None


def mark(kind: str, box: Box) -> None:
    """Note a token, die or badge for the overlap tests (nothing happens outside a recording)."""
    drawn = _RECORDER.get()
    if drawn is not None:
        drawn.marks.append(Mark(kind, box))


@dataclass(frozen=True)
class Face:
    """A cached piece of board (a card face, a tile, a static layer) with what was drawn on it, so a test that
    records sees its texts and marks wherever it is pasted, even when the piece was built by an earlier board."""

    image: Image.Image
    drawn: Recording


@contextlib.contextmanager
def building(image: Image.Image) -> Iterator[Recording]:
    """Record what is drawn on a cached piece while it is built (once per process)."""
    drawn = Recording()
    drawn.canvas = image.size
    token = _RECORDER.set(drawn)
    try:
        yield drawn
    finally:
        _RECORDER.reset(token)


def replay(face: Face, xy: tuple[int, int] = (0, 0), kind: str = "") -> None:
    """Inside a recording, note what was drawn on a cached piece at its place on the board (a board that starts
    from a copy of a cached layer calls this itself)."""
    drawn = _RECORDER.get()
    if drawn is not None:
        texts, marks = face.drawn.shifted(*xy)
        drawn.extend(texts)
        drawn.marks.extend(marks)
        if kind:
            drawn.marks.append(Mark(kind, (xy[0], xy[1], xy[0] + face.image.width, xy[1] + face.image.height)))


def checkpoint() -> tuple[int, int] | None:
    """Where the recording stands (None outside one): a board drawn again taller (`rewind`) forgets what its first
    drawing noted."""
    drawn = _RECORDER.get()
    return None if drawn is None else (len(drawn), len(drawn.marks))


def rewind(point: tuple[int, int] | None) -> None:
    """Forget what was recorded since `checkpoint` gave `point`."""
    drawn = _RECORDER.get()
    if drawn is not None and point is not None:
        del drawn[point[0]:]
        del drawn.marks[point[1]:]


def current_recording() -> Recording | None:
    """The recording a test opened around the board being drawn, if any (drawing code appends what it draws)."""
    return _RECORDER.get()
