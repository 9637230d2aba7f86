"""What a full-text search asks for: a searchable table, and the rows of it wanted.

An app searches its own tables with these: it describes each table once as a
``Collection`` and each search as a ``Search`` over it, and ``memory.search.ranked``
runs any number of them together, each ranked as both databases rank (see the package).
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import connection

from memory.migration_operations import SEARCH_LENGTH

# A matching row: its id and its score, higher for a better match.
Match = tuple[int, float]


@dataclass(frozen=True)
class Collection:
    """A table searched by full text, as ``memory.migration_operations`` indexes it.

    ``table`` has a generated ``search_vector`` under a partial GIN index on
    PostgreSQL (``AddFullTextIndex``) and an FTS5 index ``<table>_fts`` on SQLite;
    PostgreSQL keeps its BM25 statistics under the name ``statistics``
    (``KeepSearchStatistics``).
    """

    table: str
    statistics: str
    # The rows the indexes hold, as a condition on the searched row ``a``: the
    # partial GIN index's condition word for word, so that PostgreSQL's planner
    # can use the index.
    searchable: str
    # PostgreSQL: a row's length for BM25, as SQL on the row ``a``: stored beside the
    # vector (``StoreSearchLength``), or else worked out from the vector.
    length: str = SEARCH_LENGTH.format("a.search_vector")
    # PostgreSQL: the weights whose positions count less than the text's, with how much
    # less each such position counts.
    discounts: tuple[tuple[str, float], ...] = ()
    # SQLite: the FTS5 columns' weights for ``bm25()``, when one counts less than the text.
    weights: tuple[float, ...] = ()


def _adapted(value: Any) -> Any:
    # SQLite stores datetimes as text in UTC; PostgreSQL takes them as they are.
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


@dataclass(frozen=True)
class Search:
    """The best ``limit`` rows of ``collection`` matching the query, among those meeting each
    condition of ``where``: SQL on the searched row ``a``, with a ``%s`` for each of ``params``.
    """

    collection: Collection
    limit: int
    where: tuple[str, ...] = ()
    params: tuple[Any, ...] = ()

    def filter(self, condition: str, *params: Any) -> "Search":
        """This search, also requiring ``condition`` (on the row ``a``) with ``params``."""
        return replace(
            self,
            where=(*self.where, condition),
            params=(*self.params, *(_adapted(value) for value in params)),
        )

    def filter_in(self, column: str, values: Iterable[object]) -> "Search":
        """This search, only of rows whose ``column`` (of the row ``a``) is one of ``values``."""
        values = list(values)
        if connection.vendor == "postgresql":
            # One array parameter: the statement's text, and so its prepared plan,
            # does not change with how many values there are.
            return self.filter(f"{column} = ANY(%s)", values)
        return self.filter(f"{column} IN ({', '.join('%s' for _ in values)})", *values)
