"""Bounded least-recently-used caches for pieces of boards, bounded in bytes or entries.

A render worker runs for weeks and draws every match its bot hosts: a cache keyed by something a match brings (its
grid, its map spaces, its players' names) must forget old matches, or the worker grows without bound. The text
caches are `functools.lru_cache`s with entry bounds (a word's mask is ~1.2 KB with its key, a wrapped text or a
line's layout ~1 KB); the word masks and widths a worker warms at its start are kept apart from them (`kept_lru`),
so a stream of new names never pushes the boards' own vocabulary out; the caches of images use `LruCache`, bounded
by the bytes of the images they hold, since one entry can be 2 MB.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, cast

from PIL import Image

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class CacheInfo(NamedTuple):
    """What `functools.lru_cache`'s `cache_info()` gives."""

    hits: int
    misses: int
    maxsize: int | None
    currsize: int


def footprint(value: Any) -> int:
    """The bytes an image-bearing value holds: an image's pixels (a cached Face, a tuple with masks...) with the
    palette copy an RGB piece gets when a board drawn in the palette pastes it, plus a small allowance per Python
    object."""
    if isinstance(value, Image.Image):
        pixels = value.width * value.height
        palette_copy = pixels if value.mode in ("RGB", "RGBA") else 0  # (canvas.indexed: made when first pasted)
        return pixels * len(value.getbands()) + palette_copy + 200
    image = getattr(value, "image", None)  # a kit.Face
    if isinstance(image, Image.Image):
        return footprint(image) + 200
    if isinstance(value, tuple | list):
        return sum(footprint(item) for item in value) + 56
    return 64


class LruCache(Generic[K, V]):
    """A dict that keeps at most `max_bytes` of values (measured by `size`), dropping the least recently used.

    Thread-safe: tests and runtime-registered games draw boards in threads."""

    def __init__(self, max_bytes: int, size: Callable[[Any], int] = footprint) -> None:
        self.max_bytes = max_bytes
        self._size = size
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self.bytes = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value under `key` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V) -> None:
        """Keep `value` under `key`, dropping the least recently used values until the bytes fit again (a value
        larger than the whole budget is not kept)."""
        size = self._size(value)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            if size > self.max_bytes:
                return
            self._entries[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def pop(self, key: K) -> V | None:
        """Take the value under `key` out of the cache (None if absent)."""
        with self._lock:
            found = self._entries.pop(key, None)
            if found is None:
                return None
            self.bytes -= found[1]
            return found[0]

    def items(self) -> Iterator[tuple[K, V]]:
        """A snapshot of the entries, least recently used first."""
        with self._lock:
            entries = [(key, value) for key, (value, _) in self._entries.items()]
        return iter(entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries



class BytesCached(Protocol[V]):
    """A function `lru_bytes` wraps: called as the function, with an lru_cache's `cache_clear` and its LruCache."""

    cache: LruCache[tuple[Any, ...], V]
    cache_clear: Callable[[], None]

    def __call__(self, *args: Any) -> V: ...


class KeptCached(Protocol[V]):
    """A function `kept_lru` wraps: called as the function; `keep` keeps a value for good; an lru_cache's
    `cache_info` and `cache_clear`; the kept values and the bounded part (`recent`) for a look inside."""

    keep: Callable[..., V]
    kept: dict[tuple[Any, ...], V]
    recent: Callable[..., V]
    cache_info: Callable[[], CacheInfo]
    cache_clear: Callable[[], None]

    def __call__(self, *args: Any) -> V: ...


def lru_bytes(max_bytes: int, size: Callable[[Any], int] = footprint) -> Callable[[Callable[..., V]],
                                                                                  BytesCached[V]]:
    """`functools.lru_cache` for functions that return images: bounded by the bytes of what it keeps. The wrapped
    function has `cache_clear()` and `cache` (the LruCache), like an lru_cache for `rendering.clear_caches`."""

    def decorate(function: Callable[..., V]) -> BytesCached[V]:
        cache: LruCache[tuple[Any, ...], V] = LruCache(max_bytes, size)

        @functools.wraps(function)
        def cached(*args: Any) -> V:
            found = cache.get(args)
            if found is None:
                found = function(*args)
                cache.put(args, found)
            return found

        wrapped = cast("BytesCached[V]", cached)  # (the attributes below make it one)
        wrapped.cache_clear = cache.clear
        wrapped.cache = cache
        return wrapped

    return decorate


def kept_lru(maxsize: int) -> Callable[[Callable[..., V]], KeptCached[V]]:
    """`functools.lru_cache(maxsize)` with a second part that is never dropped: `cached.keep(*args)` computes (or
    finds) a value and keeps it for the life of the process. A render worker keeps the words it warms at its start
    (rendering/vocabulary.py: a fixed set, read from files), and the words a match brings (its players' names) go
    through the bounded part, so they neither grow the worker nor push the boards' own vocabulary out.

    `cache_info()` as an lru_cache's: `misses` are the values computed (kept ones included), `hits` the bounded
    part's, `maxsize` its bound, `currsize` both parts' entries; `cache_clear()` empties both
    (`rendering.clear_caches`: a worker before its warm-up)."""

    def decorate(function: Callable[..., V]) -> KeptCached[V]:
        recent = functools.lru_cache(maxsize=maxsize)(function)
        kept: dict[tuple[Any, ...], V] = {}
        computed_to_keep = 0

        @functools.wraps(function)
        def cached(*args: Any) -> V:
            found = kept.get(args)
            return recent(*args) if found is None else found

        def keep(*args: Any) -> V:
            nonlocal computed_to_keep
            found = kept.get(args)
            if found is None:
                found = kept[args] = function(*args)
                computed_to_keep += 1
            return found

        def cache_info() -> CacheInfo:
            info = recent.cache_info()
            return CacheInfo(info.hits, info.misses + computed_to_keep, maxsize, info.currsize + len(kept))

        def cache_clear() -> None:
            nonlocal computed_to_keep
            recent.cache_clear()
            kept.clear()
            computed_to_keep = 0

        wrapped = cast("KeptCached[V]", cached)  # (the attributes below make it one)
        wrapped.keep = keep
        wrapped.kept = kept
        wrapped.recent = recent
        wrapped.cache_info = cache_info
        wrapped.cache_clear = cache_clear
        return wrapped

    return decorate
