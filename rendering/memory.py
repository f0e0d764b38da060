"""A render worker's memory: let Pillow and the C allocator reuse freed blocks (no page faults per board), hand
what piles up back to the system every few boards, and load the fonts, hyphenation patterns and palette at start.

Kept apart because it is about the process, not about drawing: the render pool calls it, boards never do.
"""

from __future__ import annotations

import ctypes
import sys

from PIL import Image

from rendering.encoding import board_palette
from rendering.typeset import font, hyphenators

BLOCKS_KEPT = 16
"""Freed image memory Pillow keeps for the next image. By default it returns every block to the system, so each
new canvas (2 MB) comes back as fresh pages and faults them in: 4 ms for a canvas and its copy, a third of a
board's encoding, against 0.2 ms when the blocks are reused."""


MALLOC_KEPT = 256 << 20
"""Freed memory the C allocator keeps in a render worker instead of handing it back to the system (glibc)."""


def keep_freed_memory() -> bool:
    """Let the C allocator reuse freed memory in this process (glibc only; True when it took the setting).

    By default glibc maps every block over 128 KB afresh and returns it when freed, so each board's palette image,
    the quantiser's tables and the PNG encoder's buffers come back as new pages: about 780 page faults (3 MB of
    zeroed memory) per board, as much in the encoding as in the drawing. Kept, they are reused."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    m_trim_threshold, m_mmap_threshold = -1, -3
    return bool(mallopt(m_mmap_threshold, 32 << 20)) and bool(mallopt(m_trim_threshold, MALLOC_KEPT))


FREED_KEPT_AFTER_TRIM = 8 << 20
"""Free memory left at the top of the heap when a worker hands the rest back (a few boards' worth of canvases and
encoder buffers, still reused without page faults: a public board drawn in the palette is 0.5 MB and needs no
full-size RGB copy or quantiser tables)."""


def release_freed_memory() -> bool:
    """Hand the freed memory glibc keeps back to the system but `FREED_KEPT_AFTER_TRIM` (True when it did).

    `keep_freed_memory` makes glibc reuse freed blocks, but a worker that draws every match of its bot frees
    blocks of every size, and the holes between live ones were never returned: a worker grew by ~1 MB per match
    (200 MB per 100 large matches). A render worker calls this every few boards (~2 ms, 0.1 ms a board)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return False
    trim.argtypes = (ctypes.c_size_t,)
    return bool(trim(FREED_KEPT_AFTER_TRIM))


def warm_up() -> None:
    """Load every font face once and let Pillow and the C allocator reuse freed memory (a render worker calls this
    when it starts, so no board pays for either)."""
    Image.core.set_blocks_max(BLOCKS_KEPT)
    keep_freed_memory()
    hyphenators()
    board_palette()
    for weight in ("regular", "semibold", "bold"):
        for size in range(12, 44):
            font(size, weight)
