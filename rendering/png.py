"""A public board's PNG, compressed in bands of rows that later boards reuse.

Compressing a board costs more than drawing it, and consecutive boards of a match are mostly the same rows: the
map, the panels a move left alone, the background; only the header, a score, a moved piece change. So a board is
compressed as a zlib stream cut into bands of `BAND_ROWS` rows, each band compressed afresh (a full flush: nothing
in a band refers back to an earlier one), and a band whose rows a recent board had (anywhere on it) takes that
board's compressed bytes instead of being compressed again. The PNG decodes to exactly the image's pixels and
palette (tests/test_render_png.py); it is a few per cent larger than one stream of the whole board.

Rows are written unfiltered (PNG filter 0), as Pillow writes palette images. An image this does not handle (not
in a palette, with transparency, or a palette of 16 colours or fewer, which Pillow packs below 8 bits) is saved
by Pillow.

The bands are deflated by ISA-L (Intel's Intelligent Storage Acceleration Library, through python-isal) where it is
installed: the same deflate format, and at its level 1 about the size zlib's level 3 gives (±3 %; with the bands,
3-8 % above Pillow's one stream), in about a quarter of zlib's time (measured on boards of every game: 0.2-0.4 ms
against 1.0-1.6 ms). Without it, zlib at the boards' level.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from PIL import Image

from rendering.caches import LruCache

try:
    from isal import isal_zlib

    deflate: ModuleType | None = isal_zlib
except ImportError:  # (python-isal has wheels for x86-64 and ARM64; elsewhere the standard library's zlib)
    deflate = None

adler32 = zlib.adler32 if deflate is None else deflate.adler32
crc32 = zlib.crc32 if deflate is None else deflate.crc32
"""Checksums (ISA-L's are 5-15x faster than zlib's on a band: 1.5 µs against 8 µs)."""

ISAL_LEVEL = 1
"""ISA-L's level for a board's bands, by measurement against zlib's level 3 on the benchmark's boards (bands of 32
rows, as here): level 0 files ~30 % larger; 1 and 2 the same size as zlib's level 3 (±3 %) in 0.2-0.4 ms against
zlib's 1.0-1.6 ms; 3 a little larger and as slow as zlib."""

BAND_ROWS = 32
"""Rows a band holds. Measured on the benchmark's boards (compressing against Pillow's one stream of the same board):
8 rows 0.79x, 16 0.72x, 24-48 0.65-0.68x, 64 0.69x: smaller bands are reused more often but each costs a flush and
a fresh start; with none reused, 16-row bands compress a board about as fast as Pillow, for a file 3 % larger."""

BANDS_KEPT_BYTES = 16 << 20
"""Bytes of bands kept (rows to compare, and their compressed bytes): the bands of about 30 recent boards."""

Band = tuple[bytes, bytes]
"""A band's rows with their filter bytes, and the rows compressed on their own."""

_BANDS: LruCache[tuple[int, int, int], Band] = LruCache(
    BANDS_KEPT_BYTES, size=lambda band: len(band[0]) + len(band[1]) + 150)
"""(Adler-32, length, width) -> a band with those rows, wherever a board had it. The stream needs every band's
checksum anyway, and one lookup by it costs less than comparing a band with the bands recent boards had at its
place (a worker draws the boards of many matches in turn)."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x5e"
"""A zlib stream's header: deflate with a 32 KB window, 'fast' level (informative), check bits."""
_ADLER_BASE = 65521

SPARE_ROWS: dict[tuple[int, int], tuple[bytearray, Image.Image]] = {}
"""Per board size, the bytes of the PNG's rows and an image one pixel wider than a board laid over them (Pillow maps
the image onto the bytes), whose first column stays 0: a board pasted into it beside that column makes the bytes
the PNG's rows with their filter bytes, with no copy out of the image (`tobytes` costs 0.15-0.2 ms a board)."""
_ROWS_LOCK = threading.Lock()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc32(data, crc32(kind)))


def _adler_combined(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's own."""
    low = ((first & 0xFFFF) + (second & 0xFFFF) - 1) % _ADLER_BASE
    high = ((first >> 16) + (second >> 16) + second_length * ((first & 0xFFFF) - 1)) % _ADLER_BASE
    return (high << 16) | low


@contextmanager
def _filtered(image: Image.Image) -> Iterator[bytearray]:
    """The image's rows, each after a 0 (no filter) byte, in a spare buffer that is reused once the block ends."""
    size = (image.width + 1, image.height)
    with _ROWS_LOCK:
        spare = SPARE_ROWS.pop(size, None)
    if spare is None:
        rows = bytearray(size[0] * size[1])
        spare = (rows, Image.frombuffer("L", size, rows, "raw", "L", 0, 1))
    spare[1].im.paste(image.im, (1, 0, size[0], size[1]))  # (into the bytes: the core, not the read-only Image)
    try:
        yield spare[0]
    finally:
        with _ROWS_LOCK:
            if len(SPARE_ROWS) < 8:
                SPARE_ROWS[size] = spare


def _compressor(level: int) -> Any:
    """A raw deflate stream: ISA-L's when installed (at `ISAL_LEVEL`, the size zlib gives at the boards' level),
    else zlib's at `level`."""
    if deflate is not None:
        return deflate.compressobj(ISAL_LEVEL, deflate.DEFLATED, -zlib.MAX_WBITS)
    return zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)


def compressor_name() -> str:
    """Which deflate the bands get, in words for the benchmark: "ISA-L level 1" or "zlib level 3"."""
    return f"ISA-L level {ISAL_LEVEL}" if deflate is not None else "zlib at the boards' level"


def encode(image: Image.Image, level: int, *, reuse: bool = True) -> bytes:
    """The PNG of a board drawn in the palette (deflated as zlib's `level` would, or by ISA-L: see the module),
    reusing the compressed bands of recent boards (not with `reuse=False`: every band compressed afresh and none
    kept, what bench_render shows as the encoder's own bare cost)."""
    palette = image.getpalette() if image.mode == "P" else None
    if palette is None or len(palette) <= 48 or "transparency" in image.info:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()
    width, height = image.size
    step = (width + 1) * BAND_ROWS
    compressor = None
    segments = [_ZLIB_HEADER]
    adler = 1
    with _filtered(image) as data:
        view = memoryview(data)
        for start in range(0, len(data), step):
            rows = view[start:start + step]  # (no copy: a band is copied only to be kept)
            checksum = adler32(rows)
            key = (checksum, len(rows), width)
            band = _BANDS.get(key) if reuse else None
            if band is None or not data.startswith(band[0], start):
                if compressor is None:
                    compressor = _compressor(level)
                kept = bytes(rows)
                band = (kept, compressor.compress(kept) + compressor.flush(zlib.Z_FULL_FLUSH))
                if reuse:
                    _BANDS.put(key, band)
            segments.append(band[1])
            adler = _adler_combined(adler, checksum, len(rows))
    segments.append(b"\x03\x00")  # the last block: empty, fixed codes
    segments.append(struct.pack(">I", adler))
    return b"".join((_SIGNATURE,
                     _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", bytes(palette[:768])),
                     _chunk(b"IDAT", b"".join(segments)),
                     _chunk(b"IEND", b"")))
