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
"""

from __future__ import annotations

import io
import struct
import threading
import zlib

from PIL import Image

from rendering.caches import LruCache

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

_ROWS: dict[tuple[int, int], Image.Image] = {}
"""A spare image one pixel wider than a board, per board size, whose first column stays 0: a board pasted beside it
reads back as the PNG's rows with their filter bytes."""
_ROWS_LOCK = threading.Lock()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _adler_combined(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's own."""
    low = ((first & 0xFFFF) + (second & 0xFFFF) - 1) % _ADLER_BASE
    high = ((first >> 16) + (second >> 16) + second_length * ((first & 0xFFFF) - 1)) % _ADLER_BASE
    return (high << 16) | low


def _filtered(image: Image.Image) -> bytes:
    """The image's rows, each after a 0 (no filter) byte."""
    size = (image.width + 1, image.height)
    with _ROWS_LOCK:
        rows = _ROWS.pop(size, None)
    if rows is None:
        rows = Image.new("L", size, 0)
    rows.im.paste(image.im, (1, 0, size[0], size[1]))
    data = rows.tobytes()
    with _ROWS_LOCK:
        if len(_ROWS) < 8:
            _ROWS[size] = rows
    return data


def encode(image: Image.Image, level: int) -> bytes:
    """The PNG of a board drawn in the palette at zlib `level`, reusing the compressed bands of recent boards."""
    palette = image.getpalette() if image.mode == "P" else None
    if palette is None or len(palette) <= 48 or "transparency" in image.info:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()
    width, height = image.size
    data = _filtered(image)
    step = (width + 1) * BAND_ROWS
    compressor = None
    segments = [_ZLIB_HEADER]
    adler = 1
    view = memoryview(data)
    for start in range(0, len(data), step):
        rows = view[start:start + step]  # (no copy: a band is copied only to be kept)
        checksum = zlib.adler32(rows)
        key = (checksum, len(rows), width)
        band = _BANDS.get(key)
        if band is None or not data.startswith(band[0], start):
            if compressor is None:
                compressor = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
            kept = bytes(rows)
            band = (kept, compressor.compress(kept) + compressor.flush(zlib.Z_FULL_FLUSH))
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
