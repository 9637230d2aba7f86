"""Queries' vectors, kept a little while in the process that embedded them.

An assistant often asks the same thing again within a conversation (a retry, the same
question before each answer), and embedding a query costs more than the rest of recall.
The cache is per principal (a query's vector is only ever reused for whoever asked it),
in this process's memory only, never written anywhere, bounded in entries and in age,
and an account's entries go when the account is erased.
"""

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import Embedder, Vectors

if TYPE_CHECKING:
    from accounts.models import User

MAX_ENTRIES = 2048
MAX_AGE_SECONDS = 600.0


@dataclass
class CacheStatistics:
    hits: int = 0
    misses: int = 0


class QueryCache:
    def __init__(self, *, max_entries: int = MAX_ENTRIES, max_age: float = MAX_AGE_SECONDS):
        self.max_entries = max_entries
        self.max_age = max_age
        self.statistics = CacheStatistics()
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, str, str], tuple[float, Vectors]] = OrderedDict()

    def vector(self, *, principal: "User", embedder: Embedder, query: str) -> Vectors:
        """``query`` embedded by ``embedder`` for ``principal``: from the cache while it
        holds it, else embedded now (``EmbeddingFailed`` passes through)."""
        key = (principal.pk, embedder.key, query)
        now = time.monotonic()
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and now - entry[0] <= self.max_age:
                self._entries.move_to_end(key)
                self.statistics.hits += 1
                return entry[1]
            self.statistics.misses += 1
        (vector,) = embedder.queries([query], principal=principal)
        with self._lock:
            self._entries[key] = (now, vector)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return vector

    def forget(self, principal_id: int) -> None:
        """Drop every entry of ``principal_id``."""
        with self._lock:
            for key in [key for key in self._entries if key[0] == principal_id]:
                del self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.statistics = CacheStatistics()


QUERIES = QueryCache()
